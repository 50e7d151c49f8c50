"""Benchmark the ICM formats: payoff precomputation per spot, and CFR+ seconds per iteration
under ICM against chip EV on the same tree.

    .venv/bin/python benchmarks/icm.py                                  # default spots
    .venv/bin/python benchmarks/icm.py --spots icm_bubble/6max/20bb --iterations 20

Each spot is built once; the ICM payoffs are timed (best of ``--repeat``), then the chip-EV
solver (``mtt`` payoffs: the same tree, the same ante) and the ICM solver each run
``--iterations`` CFR+ iterations after one warm-up iteration (numba compilation excluded).
The equity table is ``results/equity/equity_169.npz`` when present, else a seeded 2,000-draw
sampled table (speed does not depend on the table's values).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

DEFAULT_SPOTS = ["icm_bubble/2max/10bb", "icm_bubble/6max/20bb", "icm_final/6max/40bb", "icm_bubble/9max/20bb",
                 "icm_final/9max/40bb"]
TABLE = Path("results/equity/equity_169.npz")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", nargs="+", default=DEFAULT_SPOTS, help="format/<n>max/<depth>bb")
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    from pokerlab.equity import load_equity_table, sampled_equity_table
    from pokerlab.icm import load_payouts
    from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
    from pokerlab.preflop.payoffs_icm import icm_payoffs
    from pokerlab.preflop.solver import Solver
    from pokerlab.preflop.solver_icm import IcmSolver
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.preflop.tree import build_tree

    table = load_equity_table(TABLE) if TABLE.is_file() else sampled_equity_table(2000, 7)
    sizing, model, payouts = load_sizing(), PostflopModel(), load_payouts()
    print(f"{'spot':<24}{'nodes':>7}{'precompute s':>14}{'chip s/it':>11}{'icm s/it':>10}{'ratio':>7}")
    for name in args.spots:
        fmt, seats, depth = name.split("/")
        spot = Spot("mtt", int(seats.removesuffix("max")), float(depth.removesuffix("bb")))  # same tree and ante
        tree = build_tree(spot, sizing)
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            icm = icm_payoffs(tree, model, payouts[fmt])
            best = min(best, time.perf_counter() - t0)
        per_iteration = []
        for solver in (Solver(tree, chip_ev_payoffs(tree, model), table.win, table.tie),
                       IcmSolver(tree, icm, table.win, table.tie)):
            solver.iterate(1)
            t0 = time.perf_counter()
            solver.iterate(args.iterations)
            per_iteration.append((time.perf_counter() - t0) / args.iterations)
        chip, icm_s = per_iteration
        print(f"{name:<24}{tree.n_nodes:>7}{best:>14.2f}{chip:>11.4f}{icm_s:>10.4f}{icm_s / chip:>7.2f}")


if __name__ == "__main__":
    main()
