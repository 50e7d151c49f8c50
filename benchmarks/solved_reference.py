"""The solved-endings loop on the tiny reference game (pokerlab.solved.reference), two ways.

1. Re-solving: per damping, the largest change of the corrections per outer iteration and how far the
   loop's last profile (leaf-game preflop play + the endings' postflop solves) is from an equilibrium
   of the joint game.
2. Exchanging: both solvers keep their regrets and the corrections are re-measured every ``exchange``
   iterations; per exchange interval, the composed average profile's joint-game exploitability, with
   the postflop solvers iterating as often as the preflop one, or 1/2 and 1/4 as often
   (``--postflop-shares``; ``exchange.postflop_every`` of the solved settings).
   Then the same with the postflop solvers facing the preflop *average* strategy's ranges (``--ranges-average``
   intervals), the alternative to the current ranges that cannot empty.
3. Shipping an exchange: its averaged table with its preflop state as the start. The start's
   exploitability in the game the table defines, and what continuing CFR+ there does to the
   exploitability in the joint game, against a solve of the table's game from zero.

    python benchmarks/solved_reference.py [--outer 12] [--dampings 1,0.5,0.2] [--exchanges 1,5,10,30,100]
        [--postflop-shares 1,2,4] [--joint-iterations 3000] [--ranges-average 1,10]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from pokerlab.solved.reference import (CfrPlus, FixedPoint, exchange_iteration, exploitability, fixed_point_iteration,
                                       preflop_tree, warm_start)

M, STACK = 5, 6.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outer", type=int, default=12)
    parser.add_argument("--dampings", default="1,0.5,0.2")
    parser.add_argument("--iterations", type=int, default=1500, help="CFR+ iterations of every preflop and postflop solve")
    parser.add_argument("--exchanges", default="1,5,10,30,100")
    parser.add_argument("--joint-iterations", type=int, default=3000, help="iterations of the exchanging runs")
    parser.add_argument("--postflop-shares", default="1",
                        help="postflop iterations per exchange as 1/k of the exchange interval, for each k listed")
    parser.add_argument("--ranges-average", default="1,10",
                        help="exchange intervals also run with the postflop solvers facing the preflop average's ranges")
    args = parser.parse_args()
    prior = np.full(M, 1.0 / M)
    root = preflop_tree(M, STACK)
    joint = CfrPlus(root, prior, prior).iterate(args.joint_iterations)
    print(f"joint CFR+ ({args.joint_iterations} iterations): exploitability "
          f"{exploitability(root, joint.average, prior):.6f} bb")
    print("re-solving the leaf game and every ending each outer iteration:")
    for damping in (float(x) for x in args.dampings.split(",")):
        fp = fixed_point_iteration(M, STACK, args.outer, args.iterations, args.iterations, damping=damping)
        print(f"  damping {damping:g}: correction change per iteration (bb) "
              f"{' '.join(f'{c:.3f}' for c in fp.changes)}; last profile's joint exploitability "
              f"{exploitability(root, fp.strategy, prior):.4f} bb")
    print(f"exchanging, both solvers warm, {args.joint_iterations} iterations:")
    for exchange in (int(x) for x in args.exchanges.split(",")):
        for share in (int(x) for x in args.postflop_shares.split(",")):
            if share > exchange:
                continue
            start = time.perf_counter()
            fp = exchange_iteration(M, STACK, args.joint_iterations, exchange, postflop_every=exchange // share)
            print(f"  every {exchange:>3} iterations ({len(fp.changes):>4} exchanges), postflop {exchange // share:>3} "
                  f"per exchange: joint exploitability {exploitability(root, fp.strategy, prior):.5f} bb "
                  f"({time.perf_counter() - start:.1f} s)")
    for exchange in (int(x) for x in args.ranges_average.split(",") if x):
        fp = exchange_iteration(M, STACK, args.joint_iterations, exchange, ranges="average")
        print(f"  every {exchange:>3} iterations, postflop facing the preflop average's ranges: joint exploitability "
              f"{exploitability(root, fp.strategy, prior):.5f} bb", flush=True)
    print("shipping an exchange (its second-half averaged table and its preflop state as the start); "
          "exploitability in the table's game / in the joint game, bb:")
    for exchange in (int(x) for x in args.exchanges.split(",")):
        fp = exchange_iteration(M, STACK, args.joint_iterations, exchange)
        start = warm_start(fp, M, STACK)
        scratch = CfrPlus(start.root, prior, prior).iterate(args.joint_iterations)
        cells = [f"from zero {exploitability(start.root, scratch.average, prior):.5f} / "
                 f"{exploitability(root, FixedPoint(fp.averaged, scratch, fp.postflop, []).strategy, prior):.5f}"]
        for more in (0, 300, args.joint_iterations):
            start.iterate(more - (start.t - fp.preflop.t))
            cells.append(f"start + {more}: {exploitability(start.root, start.average, prior):.5f} / "
                         f"{exploitability(root, FixedPoint(fp.averaged, start, fp.postflop, []).strategy, prior):.5f}")
        print(f"  every {exchange:>3}: " + "; ".join(cells), flush=True)


if __name__ == "__main__":
    main()
