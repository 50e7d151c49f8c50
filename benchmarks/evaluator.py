"""7-card evaluator throughput on one core, side by side with eval7 in the same run.

Prints evaluations per second for:
  * pokerlab, batch API (``evaluate_batch`` on an (n, 7) card array, one thread);
  * pokerlab, inner kernel on pre-packed masks (what the equity sampler and sweeps call):
    the fast path ``rank_of_packed`` and the reference ``bitmask_rank_of_packed`` it is built from;
  * eval7 called from Python once per hand (``eval7.evaluate``), the way Python code uses it;
  * eval7 at C speed: its Monte Carlo loop (``py_hand_vs_range_monte_carlo``, AsAh vs KsKd),
    counted as two evaluations per deal. That loop also deals the board, so the figure
    understates eval7's pure evaluation rate; read the kernel ratio as an upper bound.
    (``py_hand_vs_range_exact`` is not used: it returns 1.0 for AA vs KK preflop, i.e. it
    does not enumerate future boards.)
  * pokerlab's like-for-like loop: the same deal (AsAh vs KsKd, five board cards drawn by
    rejection from SplitMix64) and two ``rank_of_packed`` calls per deal;
and the ratios of pokerlab to each eval7 figure, with both loops' AA vs KK equity as a check.

    python benchmarks/evaluator.py [--hands 2000000]
"""

from __future__ import annotations

import argparse
import time

import numba

numba.set_num_threads(1)

import eval7  # noqa: E402
import numpy as np  # noqa: E402
from numba import njit  # noqa: E402

from pokerlab import cards as C  # noqa: E402
from pokerlab import evaluator as E  # noqa: E402
from pokerlab.rng import below, stream_state  # noqa: E402


@njit(cache=True)
def _packed_kernel(packed):
    acc = 0
    for i in range(packed.size):
        acc += E.rank_of_packed(packed[i])
    return acc


@njit(cache=True)
def _reference_kernel(packed, popcount, highbit, straight):
    acc = 0
    for i in range(packed.size):
        acc += E.bitmask_rank_of_packed(packed[i], popcount, highbit, straight)
    return acc


@njit(cache=True)
def _monte_carlo(hero, villain, deals, seed, card_bits):
    """Hero's equity over ``deals`` random boards (ties count half), as eval7's loop computes it."""
    state = stream_state(seed, 0)
    used = hero | villain
    score = 0
    for _ in range(deals):
        board = np.int64(0)
        dealt = 0
        while dealt < 5:
            state, c = below(state, 52)
            bit = card_bits[c]
            if (used | board) & bit:
                continue
            board |= bit
            dealt += 1
        hs = E.rank_of_packed(board | hero)
        vs = E.rank_of_packed(board | villain)
        score += 2 if hs > vs else (1 if hs == vs else 0)
    return score / (2 * deals)


def best_rate(fn, n: int, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return n / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2_000_000)
    args = parser.parse_args()
    rng = np.random.default_rng(1)
    hands = np.argsort(rng.random((args.hands, 52)), axis=1)[:, :7].astype(np.int64)
    packed = np.bitwise_or.reduce(E.CARD_BITS[hands], axis=1)
    E.evaluate_batch(hands[:10])
    tables = (E.POPCOUNT, E.HIGHBIT, E.STRAIGHT_HIGH)
    _packed_kernel(packed[:10])
    _reference_kernel(packed[:10], *tables)

    ours_batch = best_rate(lambda: E.evaluate_batch(hands), args.hands)
    ours_kernel = best_rate(lambda: _packed_kernel(packed), args.hands)
    reference_kernel = best_rate(lambda: _reference_kernel(packed, *tables), args.hands)

    deck = [eval7.Card(C.card_str(c)) for c in range(52)]
    few = [[deck[c] for c in h] for h in hands[:200_000]]
    evaluate = eval7.evaluate
    eval7_python = best_rate(lambda: [evaluate(h) for h in few], len(few))

    hero_hand, villain = eval7.HandRange("AsAh").hands[0][0], eval7.HandRange("KsKd")
    deals = 2_000_000
    eval7_c = best_rate(lambda: eval7.py_hand_vs_range_monte_carlo(hero_hand, villain, [], deals), 2 * deals)
    eval7_equity = eval7.py_hand_vs_range_monte_carlo(hero_hand, villain, [], deals)
    hero_bits, villain_bits = (int(np.bitwise_or.reduce(E.CARD_BITS[C.parse_cards(h)])) for h in ("AsAh", "KsKd"))
    _monte_carlo(hero_bits, villain_bits, 10, 1, E.CARD_BITS)
    ours_mc = best_rate(lambda: _monte_carlo(hero_bits, villain_bits, deals, 1, E.CARD_BITS), 2 * deals)
    ours_equity = _monte_carlo(hero_bits, villain_bits, deals, 1, E.CARD_BITS)

    print(f"numba threads: {numba.get_num_threads()} (one core)")
    print(f"pokerlab evaluate_batch        {ours_batch / 1e6:8.2f} M evals/s")
    print(f"pokerlab packed-mask kernel    {ours_kernel / 1e6:8.2f} M evals/s")
    print(f"pokerlab bitmask reference     {reference_kernel / 1e6:8.2f} M evals/s")
    print(f"eval7.evaluate from Python     {eval7_python / 1e6:8.2f} M evals/s")
    print(f"eval7 C Monte Carlo loop       {eval7_c / 1e6:8.2f} M evals/s (incl. dealing)")
    print(f"pokerlab Monte Carlo loop      {ours_mc / 1e6:8.2f} M evals/s (incl. dealing)")
    print(f"ratio batch / eval7 Python     {ours_batch / eval7_python:8.1f}x")
    print(f"ratio kernel / eval7 C loop    {ours_kernel / eval7_c:8.2f}x (upper bound)")
    print(f"ratio MC loop / eval7 C loop   {ours_mc / eval7_c:8.2f}x (like for like)")
    print(f"AsAh vs KsKd equity: eval7 {eval7_equity:.4f}, pokerlab {ours_equity:.4f} ({deals:,} deals each)")


if __name__ == "__main__":
    main()
