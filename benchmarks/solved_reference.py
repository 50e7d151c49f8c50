"""The solved-endings loop on the tiny reference game (pokerlab.solved.reference): per damping, the
largest change of the corrections per outer iteration and how far the loop's last profile (leaf-game
preflop play + the endings' postflop solves) is from an equilibrium of the joint game.

    python benchmarks/solved_reference.py [--outer 12] [--dampings 1,0.5,0.2]
"""

from __future__ import annotations

import argparse

import numpy as np

from pokerlab.solved.reference import CfrPlus, exploitability, fixed_point_iteration, preflop_tree

M, STACK = 5, 6.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--outer", type=int, default=12)
    parser.add_argument("--dampings", default="1,0.5,0.2")
    parser.add_argument("--iterations", type=int, default=1500, help="CFR+ iterations of every preflop and postflop solve")
    args = parser.parse_args()
    prior = np.full(M, 1.0 / M)
    root = preflop_tree(M, STACK)
    joint = CfrPlus(root, prior, prior).iterate(3000)
    print(f"joint CFR+ (3000 iterations): exploitability {exploitability(root, joint.average, prior):.6f} bb")
    for damping in (float(x) for x in args.dampings.split(",")):
        fp = fixed_point_iteration(M, STACK, args.outer, args.iterations, args.iterations, damping=damping)
        print(f"damping {damping:g}: correction change per iteration (bb) "
              f"{' '.join(f'{c:.3f}' for c in fp.changes)}; last profile's joint exploitability "
              f"{exploitability(root, fp.strategy, prior):.4f} bb")


if __name__ == "__main__":
    main()
