"""Numba pieces for the solver's threads: the parallel-loop options, an atomic counter and the
CPU's time-stamp counter."""

from __future__ import annotations

import time

from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.extending import intrinsic


@intrinsic
def cycle_counter(typingctx):
    """The CPU's time-stamp counter (wall-clock ticks, counted while the thread is descheduled too)."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@intrinsic
def fetch_add(typingctx, counter, value):
    """Atomically add ``value`` to ``counter[0]`` (an int64 array) and return the old value."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], array,
                                       [context.get_constant(types.intp, 0)])
        return builder.atomic_rmw("add", ptr, args[1], "monotonic")
    return types.int64(counter, types.int64), codegen


# Only the explicit prange is parallel. The function holds nothing else: Numba turns an
# np.zeros in a parallel function into a parallel loop even with "numpy" off, and a river root
# (no deal to share out) ran 3x slower on 2 threads than on 1 when the walk's allocations
# lived in the parallel function.
PRANGE_ONLY = {"comprehension": False, "reduction": False, "inplace_binop": False, "setitem": False,
               "numpy": False, "stencil": False, "fusion": False, "prange": True}


@njit(cache=True)
def _ticks_now():
    return cycle_counter()


def ticks_per_second(span: float = 0.05) -> float:
    """Rate of the time-stamp counter behind ``PostflopSolver.ticks``, measured over ``span`` s."""
    _ticks_now()
    t0, k0 = time.perf_counter(), _ticks_now()
    while time.perf_counter() - t0 < span:
        pass
    return (_ticks_now() - k0) / (time.perf_counter() - t0)
