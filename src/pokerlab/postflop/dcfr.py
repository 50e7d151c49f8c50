"""Discounted CFR: the discount schedule, regret matching and the per-node update.

Discounted CFR (Brown & Sandholm 2019) with alternating updates (OOP, then IP, each
iteration; ``t`` counts from 1). Before iteration ``t`` adds its regrets, positive cumulative
regrets are scaled by ``p^alpha / (p^alpha + 1)`` and negative ones by ``s^beta / (s^beta + 1)``
(``s = t - 1``; ``p = max(t - 2, 0)`` with ``DcfrParams.delay``, the default, as postflop-solver
indexes it, else ``p = s``); the average strategy is the reach-weighted sum of the strategies
played (or, with ``DcfrParams.by_reach`` off, their plain sum, as postflop-solver does), the
running sum scaled by ``(s / (s + 1))^gamma`` each iteration. The defaults are ``alpha = 1.5,
beta = 0, gamma = 3`` with the delay (:data:`DCFR`); docs/postflop-solver.md records the runs
that chose them. What the solver reports is the average strategy.

Compressed state (see :mod:`.arrays`): :func:`update_node` decodes a block, updates it as
:func:`discount_and_add` does and encodes it again with a new scale, as postflop-solver's
``compression`` option does; regret matching reads the stored integers directly.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.extending import overload


class DcfrParams(NamedTuple):
    """The parameters of :func:`dcfr_discounts`."""

    alpha: float  # exponent of the discount on positive regrets
    beta: float  # exponent of the discount on negative regrets
    gamma: float  # exponent of the discount on the strategy sum
    reset: bool  # restart the strategy sum at powers of 4 (postflop-solver's scheme)
    by_reach: bool = True  # the strategy sum adds reach x strategy (False: the strategy alone, as postflop-solver)
    delay: bool = True  # the positive-regret factor of iteration t uses max(t - 2, 0) (postflop-solver's indexing)


DCFR = DcfrParams(1.5, 0.0, 3.0, False)
STATE_DTYPE = np.float32  # regrets and strategy sums, uncompressed
REGRET_DTYPE, SUM_DTYPE = np.int16, np.uint16  # compressed
REGRET_STEPS = 32767.0  # a compressed block's largest |regret| is stored as +-32767
SUM_STEPS = 65535.0  # and its largest strategy sum as 65535


def dcfr_discounts(t_start: int, n_iterations: int, alpha: float, beta: float, gamma: float,
                   reset: bool, by_reach: bool = True, delay: bool = True) -> np.ndarray:
    """(n, 4) discounts of DCFR iterations ``t_start ..`` (1-based): the factor on positive
    regrets ``s^alpha / (s^alpha + 1)``, on negative ones ``s^beta / (s^beta + 1)`` and on the
    strategy sum ``(u / (u + 1))^gamma``, with ``s = t - 1`` and ``u = s``, or with ``reset``
    ``u = s - `` the largest power of 4 not above ``s`` (the sum restarts at iterations 2, 5,
    17, 65, 257, ...: early strategies leave the average, as in postflop-solver); and 1.0 if
    the strategy sum adds the acting player's reach times its strategy (``by_reach``), 0.0 if
    the strategy alone (postflop-solver's average). With ``delay`` the factor on positive regrets
    takes ``s = max(t - 2, 0)``, as postflop-solver indexes it: the second iteration multiplies
    the first one's positive regrets by 0, so they leave the sum."""
    s = np.arange(t_start - 1, t_start - 1 + n_iterations, dtype=np.float64)
    u = s.copy()
    if reset:
        power = np.where(s >= 1, 4.0 ** np.floor(np.log(np.maximum(s, 1)) / np.log(4) + 1e-9), 0.0)
        u = s - power
    out = np.empty((n_iterations, 4))
    s_positive = np.maximum(s - 1.0, 0.0) if delay else s
    out[:, 0] = s_positive**alpha / (s_positive**alpha + 1.0)
    out[:, 1] = s**beta / (s**beta + 1.0)
    out[:, 2] = (u / (u + 1.0)) ** gamma
    out[:, 3] = 1.0 if by_reach else 0.0
    return out


@njit(cache=True, fastmath=True)
def regret_matching(table, base, n_actions, n_hands, strategy):
    """Regret matching on the positive part of ``table``'s (actions x hands) block starting at
    ``base`` (regrets, or a strategy sum for the average strategy); uniform where nothing is
    positive. Writes ``strategy[:n_actions, :n_hands]`` (row ``n_actions`` is scratch). Loops
    run over hands innermost, so they vectorise."""
    inverse = strategy[n_actions]  # the sum of the positive parts, then its inverse (0: nothing positive)
    inverse[:n_hands] = 0.0
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            inverse[h] += max(row[h], 0.0)
    for h in range(n_hands):  # one division per hand, not per action and hand
        inverse[h] = 1.0 / inverse[h] if inverse[h] > 0.0 else 0.0
    uniform = 1.0 / n_actions
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            strategy[a, h] = max(row[h], 0.0) * inverse[h] if inverse[h] > 0.0 else uniform


@njit(cache=True, fastmath=True, inline="always")
def discount_and_add(regrets, strategy_sums, base, n_actions, n_hands, action_values, node_values, reach,
                     strategy, discount):
    """One DCFR update of a decision node's (actions x hands) blocks starting at ``base``:
    regrets discounted (``discount`` = factors on positive regrets, negative regrets, the
    strategy sum, and whether the sum is weighted by reach; a row of :func:`dcfr_discounts`)
    plus each action's value minus the node's; the strategy sum discounted plus the acting
    player's ``reach`` times its ``strategy`` (or the ``strategy`` alone). Inlined into the
    walk by Numba (``inline="always"``), as the loop it was part of."""
    positive, negative, average, by_reach = discount
    for a in range(n_actions):
        regret = regrets[base + a * n_hands:base + (a + 1) * n_hands]
        strategy_sum = strategy_sums[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            r = regret[h]
            regret[h] = r * (positive if r > 0.0 else negative) + (action_values[a, h] - node_values[h])
            strategy_sum[h] = strategy_sum[h] * average + (reach[h] if by_reach else 1.0) * strategy[a, h]


@njit(cache=True, fastmath=True, inline="always")
def encode_signed(stored, base, values, n_actions, n_hands, scale):
    """Store ``values[:n_actions, :n_hands]`` as int16 in ``stored[base:]`` (row by row),
    ``round(value * 32767 / scale)`` rounded half away from zero, where ``scale`` is their
    largest absolute value (0: all zero); returns the scale as stored (float32)."""
    encoder = REGRET_STEPS / scale if scale > 0.0 else 0.0
    for a in range(n_actions):
        row = stored[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            x = values[a, h] * encoder
            row[h] = np.int16(x + math.copysign(0.5, x))  # the conversion truncates toward zero
    return np.float32(scale)


@njit(cache=True, fastmath=True, inline="always")
def encode_unsigned(stored, base, values, n_actions, n_hands, scale):
    """Store the non-negative ``values[:n_actions, :n_hands]`` as uint16 in ``stored[base:]``,
    ``round(value * 65535 / scale)``, where ``scale`` is their largest value (0: all zero);
    returns the scale as stored (float32)."""
    encoder = SUM_STEPS / scale if scale > 0.0 else 0.0
    for a in range(n_actions):
        row = stored[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            row[h] = np.uint16(values[a, h] * encoder + 0.5)
    return np.float32(scale)


@njit(cache=True, fastmath=True, inline="always")
def discount_and_add_compressed(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions, n_hands,
                                action_values, node_values, reach, strategy, discount):
    """:func:`discount_and_add` on a compressed block (number ``block``, starting at ``base``):
    decode, update, encode with new scales. Overwrites ``action_values`` and ``strategy``
    (the walk reads neither again) with the block's new float values."""
    positive, negative, average, by_reach = discount
    scale = np.float64(regret_scales[block])
    positive_decoder, negative_decoder = positive * scale / REGRET_STEPS, negative * scale / REGRET_STEPS
    sum_decoder = average * np.float64(sum_scales[block]) / SUM_STEPS
    largest_regret, largest_sum = 0.0, 0.0
    for a in range(n_actions):
        regret = regrets[base + a * n_hands:base + (a + 1) * n_hands]
        strategy_sum = strategy_sums[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            r = np.float64(regret[h])
            new_regret = r * (positive_decoder if r > 0.0 else negative_decoder) + (action_values[a, h] - node_values[h])
            weight = reach[h] if by_reach else 1.0
            new_sum = np.float64(strategy_sum[h]) * sum_decoder + weight * strategy[a, h]
            action_values[a, h], strategy[a, h] = new_regret, new_sum
            largest_regret, largest_sum = max(largest_regret, abs(new_regret)), max(largest_sum, new_sum)
    regret_scales[block] = encode_signed(regrets, base, action_values, n_actions, n_hands, largest_regret)
    sum_scales[block] = encode_unsigned(strategy_sums, base, strategy, n_actions, n_hands, largest_sum)


def update_node(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions, n_hands, action_values,
                node_values, reach, strategy, discount):
    """One DCFR update of the acting player's block number ``block`` (starting at ``base``):
    :func:`discount_and_add` on float32 state, :func:`discount_and_add_compressed` on
    compressed state, chosen when the calling kernel is compiled. Compiled code only."""
    raise NotImplementedError("update_node is chosen by Numba when a kernel is compiled")


@overload(update_node, inline="always", jit_options={"fastmath": True})
def _update_node_typing(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions, n_hands,
                        action_values, node_values, reach, strategy, discount):
    if regrets.dtype == types.float32:
        def update(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions, n_hands, action_values,
                   node_values, reach, strategy, discount):
            discount_and_add(regrets, strategy_sums, base, n_actions, n_hands, action_values, node_values, reach,
                             strategy, discount)
    else:
        def update(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions, n_hands, action_values,
                   node_values, reach, strategy, discount):
            discount_and_add_compressed(regrets, strategy_sums, regret_scales, sum_scales, block, base, n_actions,
                                        n_hands, action_values, node_values, reach, strategy, discount)
    return update


@njit(cache=True)
def encode_sum_blocks(stored, scales, values, block_sizes):
    """Encode the float ``values`` (one player's strategy sums, every block in storage order,
    ``block_sizes`` values each) into the compressed ``stored`` and ``scales`` (see :mod:`.arrays`)."""
    base = 0
    for block in range(block_sizes.size):
        n = block_sizes[block]
        block_values = values[base:base + n]
        scales[block] = encode_unsigned(stored, base, block_values.reshape(1, n), 1, n, block_values.max())
        base += n
