"""Heads-up push/fold solve time to exploitability <= 1e-6 bb, after compilation, one core.

    .venv/bin/python benchmarks/pushfold.py [--table results/equity/equity_169.npz] [--repeat 3]

Prints, per depth and fee preset: best wall time of ``--repeat`` solves, iterations, the
measured exploitability and the two shares. Set NUMBA_NUM_THREADS=1 for a strict single core
(the solver itself is single-threaded).
"""

from __future__ import annotations

import argparse
import time

from pokerlab.equity import load_equity_table
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.headsup import solve_headsup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default="results/equity/equity_169.npz")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--tolerance", type=float, default=1e-6)
    args = parser.parse_args()
    eq = load_equity_table(args.table).equity
    solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=1e-3)  # compile
    print(f"{'fees':<10} {'depth':>5} {'seconds':>8} {'iterations':>10} {'exploitability_bb':>17} {'SB shove %':>10} {'BB call %':>9}")
    for fees in ("none", "coinpoker"):
        for depth in (5, 10, 15, 20):
            best, sol = float("inf"), None
            for _ in range(args.repeat):
                start = time.perf_counter()
                sol = solve_headsup(PushFoldGame(2, depth, fees), eq, tolerance_bb=args.tolerance)
                best = min(best, time.perf_counter() - start)
            print(f"{fees:<10} {depth:>5} {best:>8.3f} {sol.iterations:>10} {sol.exploitability_bb:>17.3g} "
                  f"{100 * sol.sb_shove_share:>10.4f} {100 * sol.bb_call_share:>9.4f}")


if __name__ == "__main__":
    main()
