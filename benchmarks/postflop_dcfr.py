"""Postflop DCFR schemes compared: exploitability after fixed iteration counts.

Trains one tree of ``benchmarks/postflop.py`` (``--case``) with each DCFR scheme in turn, from
scratch, and prints its exploitability (% of the pot) after each of the ``--at`` iteration
counts, the first count reaching ``--target`` (checked at those counts only) and the range EVs
at the last count. The iteration counts do not depend on the machine's load; the CPU seconds of
training are printed for orientation. Schemes (all alpha 1.5, beta 0, gamma 3):

- ``ours``: the strategy sum weighted by reach, never restarted, the positive-regret factor
  not delayed (``DCFR`` with ``delay=False``, the default until 3 Dec 2026);
- ``reset``: restarted at iterations 2, 5, 17, 65, 257, ... (``DcfrParams.reset``);
- ``unweighted``: each strategy added unweighted by reach (``DcfrParams.by_reach=False``);
- ``both``: restarted and unweighted, as b-inary's postflop-solver does;
- ``delayed``: ours with the positive-regret factor one iteration behind (``DcfrParams.delay``,
  postflop-solver's indexing, which drops the first iteration's positive regrets): ``DCFR``, the
  default;
- ``postflop-solver``: ``both`` and ``delayed``, its scheme in full.

``--pot``, ``--stack`` and ``--board`` replace the case's (chips, and cards as ``QsJh2h``).

    .venv/bin/python benchmarks/postflop_dcfr.py --case wide --at 100 140 180 220 250 272 --target 0.5
    .venv/bin/python benchmarks/postflop_dcfr.py --case flop --at 100 150 180 190 200 --target 0.05
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from postflop import CASES, case_spot  # noqa: E402

SCHEMES = {"ours": (False, True, False), "reset": (True, True, False), "unweighted": (False, False, False),
           "both": (True, False, False), "delayed": (False, True, True), "postflop-solver": (True, False, True)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=sorted(CASES) + ["wide", "wide2"], default="flop")
    parser.add_argument("--at", type=int, nargs="+", required=True, help="iteration counts to measure at")
    parser.add_argument("--target", type=float, default=0.05, help="exploitability target, %% of pot")
    parser.add_argument("--schemes", nargs="+", choices=sorted(SCHEMES), default=list(SCHEMES))
    parser.add_argument("--pot", type=float, help="starting pot, chips (default: the case's)")
    parser.add_argument("--stack", type=float, help="effective stack behind, chips (default: the case's)")
    parser.add_argument("--board", help="board cards, e.g. QsJh2h8d (default: the case's)")
    args = parser.parse_args()
    import dataclasses

    import numba

    from pokerlab.cards import parse_cards
    from pokerlab.postflop.solver import DCFR, PostflopSolver

    spot = case_spot(args.case)
    changes = {"pot": args.pot, "stack": args.stack, "board": tuple(parse_cards(args.board)) if args.board else None}
    spot = dataclasses.replace(spot, **{k: v for k, v in changes.items() if v is not None})
    at = sorted(set(args.at))
    print(f"case {args.case} (pot {spot.pot:g}, stack {spot.stack:g}), {numba.get_num_threads()} threads, load average {os.getloadavg()[0]:.2f}")
    print(f"{'scheme':<11} " + " ".join(f"{n:>8}" for n in at) + f" {'reached':>8} {'EV oop %':>10} {'EV ip %':>10}"
          f" {'train CPU s':>12}", flush=True)
    for name in args.schemes:
        reset, by_reach, delay = SCHEMES[name]
        solver = PostflopSolver(spot, max_memory_mb=2**20, dcfr=DCFR._replace(reset=reset, by_reach=by_reach,
                                                                               delay=delay))
        cpu, pcts, reached = 0.0, [], "-"
        for n in at:
            start = time.process_time()
            solver.run(n - solver.iterations)
            cpu += time.process_time() - start
            pcts.append(100.0 * solver.exploitability() / spot.pot)
            if reached == "-" and pcts[-1] <= args.target:
                reached = str(n)
        ev = [100.0 * float(solver.weights[p] @ solver.root_values(p)) / solver.pair_mass / spot.pot for p in (0, 1)]
        print(f"{name:<11} " + " ".join(f"{p:>8.4f}" for p in pcts) + f" {reached:>8} {ev[0]:>10.5f} {ev[1]:>10.5f}"
              f" {cpu:>12.1f}", flush=True)
        del solver


if __name__ == "__main__":
    main()
