"""Monte Carlo showdown shares of every hero class against 2 or 3 opponent ranges at once.

The law is the one the 169x169 table uses, extended to several hands: each opponent's class is
drawn independently from its range (class weights, no card removal between classes), then the
combos of all hands uniformly among the tuples that share no card, then a uniform board.

One draw deals the opponents' combos (redrawn, classes kept, until they share no card) and a
board from the other cards, and then scores *every* hero class at once: one of the class's
combos that collide with none of those cards, picked uniformly, weighted by how many such
combos there are. Each class's estimate is the ratio of its weighted pot shares to its summed
weights over all draws, which is consistent for the exact joint law above; every combo of a
class takes part (no representative-combo bias). A hero's pot share at one showdown is 1 alone on top, ``1/k``
sharing the best hand ``k`` ways, 0 otherwise.

A tuple of classes that cannot be dealt at all (three opponents holding ``AA``, ``AA`` and
``AKs``) is redrawn: after ``COMBO_ATTEMPTS`` failed combo draws the classes are drawn again,
which conditions the class law on the deal being possible (an effect confined to tuples whose
combos almost always collide).

Randomness: a SplitMix64 stream per call (``pokerlab.rng``), from ``seed``; same seed, same numbers.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab import cards
from pokerlab.evaluator import CARD_BITS, COMBO_BITS, rank_of_packed
from pokerlab.rng import below, uniform

CLASS_COMBO_TABLE = np.full((cards.N_CLASSES, 12), -1, dtype=np.int64)
"""(169, 12) int64: each class's combos, padded with -1 (for compiled code)."""
for _k, _combos in enumerate(cards.CLASS_COMBOS):
    CLASS_COMBO_TABLE[_k, : _combos.size] = _combos
CLASS_COMBO_COUNT = cards.CLASS_WEIGHTS.astype(np.int64)
"""(169,) int64: each class's number of combos (6, 4 or 12)."""
COMBO_ATTEMPTS = 64
"""Combo draws tried for one tuple of opponent classes before the classes are redrawn."""
MAX_ATTEMPTS = 1_000_000
"""Combo draws tried for one deal before the ranges are declared impossible to deal together."""


@njit(cache=True, inline="always")
def _draw_class(state, cumulative):
    """Index i with probability cumulative[i] - cumulative[i-1] (cumulative[-1] == 1)."""
    state, u = uniform(state)
    lo, hi = 0, cumulative.size - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > u:
            hi = mid
        else:
            lo = mid + 1
    return state, lo


@njit(cache=True, inline="always")
def deal_class_tuple(state, cumulative, class_combos, class_count, combo_bits, classes, holes):
    """Deal one hand per row of ``cumulative``: its class from the row, then the combos given the
    classes uniformly among the tuples sharing no card (the classes redrawn after
    ``COMBO_ATTEMPTS`` failed tries). Fills ``classes`` and ``holes`` (packed cards); returns
    ``(state, packed cards used, dealt)``, ``dealt`` false after ``MAX_ATTEMPTS`` tries."""
    attempts = 0
    while True:
        if attempts % COMBO_ATTEMPTS == 0:  # (re)draw the classes: some tuples cannot be dealt
            for j in range(cumulative.shape[0]):
                state, classes[j] = _draw_class(state, cumulative[j])
        attempts += 1
        if attempts > MAX_ATTEMPTS:
            return state, np.int64(0), False
        used = np.int64(0)
        ok = True
        for j in range(cumulative.shape[0]):
            state, i = below(state, class_count[classes[j]])
            holes[j] = combo_bits[class_combos[classes[j], i]]
            if used & holes[j]:
                ok = False
                break
            used |= holes[j]
        if ok:
            return state, used, True


@njit(cache=True, inline="always")
def deal_board(state, used, card_bits):
    """Five cards not in ``used`` (packed), uniformly; returns ``(state, board, used | board)``."""
    board = np.int64(0)
    dealt = 0
    while dealt < 5:
        state, c = below(state, 52)
        bit = card_bits[c]
        if not used & bit:
            used |= bit
            board |= bit
            dealt += 1
    return state, board, used


@njit(cache=True)
def _shares_kernel(cumulative, draws, seed, combo_bits, class_combos, class_count, card_bits,
                   share_sum, combo_count):
    """Add ``draws`` draws into ``share_sum``/``combo_count`` (per hero class)."""
    n_opp = cumulative.shape[0]
    state = np.uint64(seed)
    opp_class = np.empty(n_opp, dtype=np.int64)
    opp_bits = np.empty(n_opp, dtype=np.int64)
    live_combos = np.empty(12, dtype=np.int64)
    for _ in range(draws):
        state, used, dealt = deal_class_tuple(state, cumulative, class_combos, class_count, combo_bits, opp_class, opp_bits)
        if not dealt:
            return False
        state, board, used = deal_board(state, used, card_bits)
        best = -1
        n_best = 0
        for j in range(n_opp):
            r = rank_of_packed(board | opp_bits[j])
            if r > best:
                best = r
                n_best = 1
            elif r == best:
                n_best += 1
        tie_share = 1.0 / (n_best + 1)
        for k in range(class_count.size):  # one live combo per hero class, weighted by how many are live
            live = 0
            for i in range(class_count[k]):
                if not used & combo_bits[class_combos[k, i]]:
                    live_combos[live] = class_combos[k, i]
                    live += 1
            if live == 0:
                continue
            state, i = below(state, live)
            combo_count[k] += live
            r = rank_of_packed(board | combo_bits[live_combos[i]])
            if r > best:
                share_sum[k] += live
            elif r == best:
                share_sum[k] += live * tie_share
    return True


def multiway_shares(opponent_ranges, draws: int, seed: int) -> np.ndarray:
    """(169,) expected pot share of each hero class against 2 or 3 opponents.

    ``opponent_ranges``: (n_opp, 169) non-negative class weights (e.g. prior x strategy), each
    row with a positive sum. ``draws``: opponent-and-board deals (every hero combo is scored on
    each). Raises ``ValueError`` for a bad shape, an empty range or a non-positive ``draws``.
    """
    ranges = np.asarray(opponent_ranges, dtype=np.float64)
    if ranges.ndim != 2 or ranges.shape[1] != cards.N_CLASSES or not 2 <= ranges.shape[0] <= 3:
        raise ValueError(f"opponent ranges: shape {ranges.shape}, expected (2 or 3, 169)")
    if np.any(ranges < 0) or np.any(ranges.sum(axis=1) <= 0):
        raise ValueError("opponent ranges: weights must be >= 0 with a positive total per opponent")
    if isinstance(draws, bool) or not isinstance(draws, (int, np.integer)) or draws < 1:
        raise ValueError(f"draws: {draws!r} must be a positive integer")
    cumulative = np.cumsum(ranges, axis=1)
    cumulative /= cumulative[:, -1:]
    cumulative[:, -1] = 1.0
    share_sum = np.zeros(cards.N_CLASSES)
    combo_count = np.zeros(cards.N_CLASSES)
    if not _shares_kernel(cumulative, int(draws), np.uint64(seed % 2**64), COMBO_BITS, CLASS_COMBO_TABLE,
                          CLASS_COMBO_COUNT, CARD_BITS, share_sum, combo_count):
        raise ValueError(f"opponent ranges: no deal found in {MAX_ATTEMPTS} tries (they can hardly share a deck)")
    with np.errstate(invalid="ignore"):
        return share_sum / combo_count
