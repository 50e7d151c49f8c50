"""Throughput of multiway equity against ranges, and how often the rejection sampler keeps a deal.

Prints, for hero AhKh preflop against 1, 3 and 8 opponents holding any two cards:
deals per second of ``pokerlab.ranges.equity.multiway_equity`` (rejection and importance) and,
heads-up, of eval7's own Monte Carlo routine (``py_hand_vs_range_monte_carlo``, which has no
multiway form) in the same run, with the ratio. Then, for tight ranges, the rejection
sampler's acceptance rate and the importance sampler's effective sample size per deal.

Usage: ``python benchmarks/multiway_equity.py [--trials N] [--repeats R]``. Single-threaded;
each figure is the best of R timed runs after one warm-up call (Numba compilation excluded).
"""

from __future__ import annotations

import argparse
import time

import eval7

from pokerlab.cards import CLASS_NAMES
from pokerlab.ranges.equity import multiway_equity

HERO = "AhKh"
TIGHT = "QQ+,AKs"


def best_seconds(fn, repeats: int) -> float:
    fn()  # warm-up: compile and cache
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=200_000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    n = args.trials

    print(f"hero {HERO} preflop vs k opponents holding 'random' (any two cards); {n:,} deals per run")
    print(f"{'k':>2}  {'rejection deals/s':>18}  {'importance deals/s':>19}  {'eval7 deals/s':>14}  {'eval7 / rejection':>17}  {'acceptance':>10}")
    everything = eval7.HandRange(",".join(CLASS_NAMES))
    hero_cards = [eval7.Card(HERO[:2]), eval7.Card(HERO[2:])]
    for k in (1, 3, 8):
        opponents = ["random"] * k
        rej = best_seconds(lambda: multiway_equity(HERO, opponents, trials=n, seed=1), args.repeats)
        imp = best_seconds(lambda: multiway_equity(HERO, opponents, trials=n, seed=1, method="importance"), args.repeats)
        acceptance = multiway_equity(HERO, opponents, trials=n, seed=1).acceptance_rate
        if k == 1:
            e7 = best_seconds(lambda: eval7.py_hand_vs_range_monte_carlo(hero_cards, everything, [], n), args.repeats)
            e7_cells = f"{n / e7:14,.0f}  {rej / e7:17.2f}"
        else:
            e7_cells = f"{'n/a':>14}  {'n/a':>17}"
        print(f"{k:>2}  {n / rej:18,.0f}  {n / imp:19,.0f}  {e7_cells}  {acceptance:10.1%}")

    print()
    print(f"hero AA vs k opponents holding {TIGHT!r}: rejection acceptance, importance ESS per deal")
    print(f"{'k':>2}  {'acceptance':>10}  {'ESS / deals':>11}  {'rejection deals/s':>18}  {'importance deals/s':>19}")
    for k in (1, 2, 3):
        opponents = [TIGHT] * k
        rej = best_seconds(lambda: multiway_equity("AA", opponents, trials=n, seed=2), args.repeats)
        imp = best_seconds(lambda: multiway_equity("AA", opponents, trials=n, seed=2, method="importance"), args.repeats)
        acceptance = multiway_equity("AA", opponents, trials=n, seed=2).acceptance_rate
        ess = multiway_equity("AA", opponents, trials=n, seed=2, method="importance").effective_sample_size / n
        print(f"{k:>2}  {acceptance:10.2%}  {ess:11.3f}  {n / rej:18,.0f}  {n / imp:19,.0f}")


if __name__ == "__main__":
    main()
