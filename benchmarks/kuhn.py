"""Time the Kuhn poker CFR experiment: 100,000 full-tree iterations plus exact best responses.

    .venv/bin/python benchmarks/kuhn.py [--iterations N] [--repeats R]

Prints the wall time of each repeat (best first line), iterations per second, and the final
average exploitability so a timing is never reported for a run that computed something else.
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import numpy as np

from pokerlab.games import kuhn


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=100_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(f"python {platform.python_version()}, numpy {np.__version__}, {os.cpu_count()} logical CPUs")
    for variant, updates in (("cfr", "simultaneous"), ("cfr+", "alternating")):
        times = []
        for _ in range(args.repeats):
            start = time.perf_counter()
            solver, rows = kuhn.solve(args.iterations, variant=variant, updates=updates)
            times.append(time.perf_counter() - start)
        best = min(times)
        print(
            f"{variant:5s} {updates:12s} {args.iterations:,} iterations + {len(rows)} checkpoints: "
            f"best {best:.2f} s of {args.repeats} ({', '.join(f'{t:.2f}' for t in times)}), "
            f"{args.iterations / best:,.0f} it/s, final avg exploitability {rows[-1]['avg_exploitability']:.9f}"
        )


if __name__ == "__main__":
    main()
