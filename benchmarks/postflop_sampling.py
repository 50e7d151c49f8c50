"""Public chance sampling against full DCFR: per-class error and CPU time, on one tree.

Solves the tree in full (every card dealt) for ``--reference`` iterations: its per-class values
are the reference. Then, each in a fresh solver and measured at the given iteration counts,
the full solve and the sampled ones (``PostflopSolver(sampled_cards=k, seed=s)``). At every
checkpoint it prints the iterations, the CPU seconds of training so far (both threads), the
exploitability (% of the pot) and the per-class error against the reference in % of the pot:
root mean square weighted by the classes' combo weights and largest over the classes of both
players, and the weighted mean signed error (a bias of the range's value). A class's value is the
weight-averaged value of its combos (``hand_ev``), as the solved-endings fit reads them.

    .venv/bin/python benchmarks/postflop_sampling.py --case flop --reference 500 \\
        --full 10,20,40,80,120,190,300 --sampled 4:100,250,500,1000,2000 --seeds 1 2 3
    .venv/bin/python benchmarks/postflop_sampling.py --case wide --reference 300 --full 20,40,80,160 \\
        --sampled 16:100,200,400,800
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from postflop import CASES, IP_RANGE, OOP_RANGE, WIDE_BB, WIDE_BTN
from pokerlab.cards import COMBO_CLASS, N_CLASSES, parse_cards
from pokerlab.postflop.game import BetTree, PostflopSpot
from pokerlab.postflop.solver import PostflopSolver
from pokerlab.ranges import Range


def spot_of(case: str) -> PostflopSpot:
    if case == "wide":
        return PostflopSpot(5.5, 97.5, tuple(parse_cards("QsJh2h")), Range.parse(WIDE_BB).weights,
                            Range.parse(WIDE_BTN).weights, BetTree.uniform((50,), (), True))
    board, threshold = CASES[case]
    return PostflopSpot(100.0, 200.0, tuple(parse_cards(board)), Range.parse(OOP_RANGE).weights,
                        Range.parse(IP_RANGE).weights, BetTree.uniform((50,), (100,), True, threshold))


def class_values(solver: PostflopSolver) -> tuple[np.ndarray, np.ndarray]:
    """(2, classes) weight-averaged values of each class's combos (NaN: no combo), and the weights."""
    values, masses = np.full((2, N_CLASSES), np.nan), np.zeros((2, N_CLASSES))
    for p in (0, 1):
        classes, weights = COMBO_CLASS[solver.hands[p]], solver.weights[p]
        masses[p] = np.bincount(classes, weights, N_CLASSES)
        sums = np.bincount(classes, weights * solver.hand_ev(p), N_CLASSES)
        values[p] = np.divide(sums, masses[p], out=values[p], where=masses[p] > 0)
    return values, masses


def trajectory(spot: PostflopSpot, checkpoints: list[int], sampled_cards: int, seed: int):
    """Yield (iterations, training CPU seconds, exploitability % pot, class values) at each checkpoint."""
    solver = PostflopSolver(spot, sampled_cards=sampled_cards, seed=seed)
    cpu = 0.0
    for n in checkpoints:
        start = time.process_time()
        solver.run(n - solver.iterations)
        cpu += time.process_time() - start
        yield n, cpu, 100.0 * solver.exploitability() / spot.pot, class_values(solver)[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", choices=sorted(CASES) + ["wide"], default="flop")
    parser.add_argument("--reference", type=int, default=500, help="iterations of the full reference solve")
    parser.add_argument("--full", default="10,20,40,80", help="checkpoints of the full solve")
    parser.add_argument("--sampled", nargs="*", default=["4:100,250,500,1000"],
                        help="K:checkpoints, a sampled solve dealing K cards per chance node")
    parser.add_argument("--seeds", nargs="+", type=int, default=[1])
    args = parser.parse_args()
    spot = spot_of(args.case)
    warm = PostflopSolver(spot_of("river"), sampled_cards=2)  # compile / load the Numba code outside the timing
    warm.run(2)
    warm.exploitability()
    reference = PostflopSolver(spot)
    reference.run(args.reference)
    exact, masses = class_values(reference)
    seen = masses > 0
    weight = masses[seen] / masses[seen].sum()  # both players' classes, by their combos' weight
    print(f"{args.case}: reference {args.reference} full iterations, exploitability "
          f"{100 * reference.exploitability() / spot.pot:.4f}% of the pot")
    print(f"{'cards':>5} {'seed':>4} {'iters':>6} {'cpu s':>8} {'expl %':>8} {'rms %':>8} {'max %':>8} {'mean %':>8}")
    runs = [(0, [int(n) for n in args.full.split(",")], 0)]
    for item in args.sampled:
        k, points = item.split(":")
        runs += [(int(k), [int(n) for n in points.split(",")], seed) for seed in args.seeds]
    for k, points, seed in runs:
        for n, cpu, pct, values in trajectory(spot, points, k, seed):
            error = 100.0 * (values - exact)[seen] / spot.pot
            print(f"{k:>5} {seed:>4} {n:>6} {cpu:>8.2f} {pct:>8.3f} {np.sqrt(weight @ error**2):>8.4f} "
                  f"{np.abs(error).max():>8.4f} {weight @ error:>8.4f}", flush=True)


if __name__ == "__main__":
    main()
