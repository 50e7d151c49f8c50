"""A 7-card (and 5/6-card) hand evaluator in Numba, built on 13-bit rank masks per suit.

A hand's strength is a non-negative ``int32``; larger is better and equal means a tie. The
value is ``category << 26 | detail`` with categories

    0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
    7 quads, 8 straight flush,

and ``detail`` ordering hands inside a category (kickers are kept as a mask of their rank
bits, whose integer order is the lexicographic order of the descending rank lists). Only the
order of values is meaningful; tests compare orderings with eval7, never raw numbers.

The evaluator works from the four suit masks (bit ``r`` of mask ``s`` set when the hand holds
rank ``r`` of suit ``s``). Hot loops carry them packed in one ``int64``, suit ``s`` in bits
``16 s .. 16 s + 12`` (``CARD_BITS[card]`` is a card's bit), so a shared board is packed once,
each hand's two cards are OR-ed in without a branch, and ``rank_of_packed`` evaluates. Lookup tables of 8,192 entries (popcount, highest bit, straight high card)
are built once at import; the Numba functions are compiled with ``cache=True``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "high card",
    "pair",
    "two pair",
    "trips",
    "straight",
    "flush",
    "full house",
    "quads",
    "straight flush",
)
CATEGORY_SHIFT = 26
_MASK_SIZE = 1 << 13


def _build_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    masks = range(_MASK_SIZE)
    popcount = np.array([bin(m).count("1") for m in masks], dtype=np.int8)
    highbit = np.array([m.bit_length() - 1 for m in masks], dtype=np.int8)  # -1 for 0
    straight_high = np.zeros(_MASK_SIZE, dtype=np.int8)  # rank of the top card + 1, 0 = none
    for m in masks:
        wheel = (m >> 12) & 1  # an ace also plays low
        ext = (m << 1) | wheel  # bit 0 = ace-low, bit r+1 = rank r
        for top in range(13, 3, -1):  # top bit in ext; 5 consecutive bits top-4..top
            run = 0b11111 << (top - 4)
            if ext & run == run:
                straight_high[m] = top  # top = rank index + 1 of the high card
                break
    return popcount, highbit, straight_high


POPCOUNT, HIGHBIT, STRAIGHT_HIGH = _build_tables()


@njit(cache=True, inline="always")
def _keep_top(mask: int, n: int, popcount: np.ndarray) -> int:
    """The ``n`` highest set bits of ``mask``."""
    while popcount[mask] > n:
        mask &= mask - 1
    return mask


@njit(cache=True)
def rank_from_suit_masks(s0: int, s1: int, s2: int, s3: int, popcount, highbit, straight_high) -> int:
    """Strength of the best 5-card hand in the cards given as four 13-bit suit masks."""
    # Flush first: with at most 7 cards a flush excludes quads and full houses.
    for m in (s0, s1, s2, s3):
        if popcount[m] >= 5:
            sf = straight_high[m]
            if sf:
                return (STRAIGHT_FLUSH << CATEGORY_SHIFT) | sf
            return (FLUSH << CATEGORY_SHIFT) | _keep_top(m, 5, popcount)
    ranks = s0 | s1 | s2 | s3
    quads = s0 & s1 & s2 & s3
    if quads:
        q = highbit[quads]
        return (QUADS << CATEGORY_SHIFT) | (q << 13) | _keep_top(ranks & ~(1 << q), 1, popcount)
    three_plus = (s0 & s1 & s2) | (s0 & s1 & s3) | (s0 & s2 & s3) | (s1 & s2 & s3)
    two_plus = (s0 & s1) | (s0 & s2) | (s0 & s3) | (s1 & s2) | (s1 & s3) | (s2 & s3)
    if three_plus:
        t = highbit[three_plus]
        rest_pairs = two_plus & ~(1 << t)
        if rest_pairs:
            return (FULL_HOUSE << CATEGORY_SHIFT) | (t << 17) | (highbit[rest_pairs] << 13)
    st = straight_high[ranks]
    if st:
        return (STRAIGHT << CATEGORY_SHIFT) | st
    if three_plus:
        t = highbit[three_plus]
        return (TRIPS << CATEGORY_SHIFT) | (t << 13) | _keep_top(ranks & ~(1 << t), 2, popcount)
    if two_plus:
        hp = highbit[two_plus]
        rest = two_plus & ~(1 << hp)
        if rest:
            lp = highbit[rest]
            kick = _keep_top(ranks & ~((1 << hp) | (1 << lp)), 1, popcount)
            return (TWO_PAIR << CATEGORY_SHIFT) | (hp << 17) | (lp << 13) | kick
        return (PAIR << CATEGORY_SHIFT) | (hp << 13) | _keep_top(ranks & ~(1 << hp), 3, popcount)
    return (HIGH_CARD << CATEGORY_SHIFT) | _keep_top(ranks, 5, popcount)


CARD_BITS = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Packed-mask bit of each card: suit ``s`` occupies bits ``16 s .. 16 s + 12``."""


@njit(cache=True, inline="always")
def rank_of_packed(packed: int, popcount, highbit, straight_high) -> int:
    """Strength of the cards in a packed mask (an OR of ``CARD_BITS``)."""
    return rank_from_suit_masks(
        packed & 0x1FFF,
        (packed >> 16) & 0x1FFF,
        (packed >> 32) & 0x1FFF,
        (packed >> 48) & 0x1FFF,
        popcount,
        highbit,
        straight_high,
    )


@njit(cache=True)
def evaluate_cards(cards, card_bits, popcount, highbit, straight_high) -> int:
    """Strength of a 5..7-card hand given as an array of card indices."""
    packed = np.int64(0)
    for c in cards:
        packed |= card_bits[c]
    return rank_of_packed(packed, popcount, highbit, straight_high)


@njit(cache=True, parallel=True)
def _evaluate_batch(hands, card_bits, popcount, highbit, straight_high):
    out = np.empty(hands.shape[0], dtype=np.int32)
    for i in prange(hands.shape[0]):
        packed = np.int64(0)
        for j in range(hands.shape[1]):
            packed |= card_bits[hands[i, j]]
        out[i] = rank_of_packed(packed, popcount, highbit, straight_high)
    return out


def evaluate_batch(hands: np.ndarray) -> np.ndarray:
    """Strengths of many hands: ``hands`` is an (n, k) integer array of card indices, 5 <= k <= 7.

    Cards within a row must be distinct (not checked here, for speed; see ``evaluate``).
    """
    hands = np.ascontiguousarray(hands, dtype=np.int64)
    if hands.ndim != 2 or not 5 <= hands.shape[1] <= 7:
        raise ValueError(f"hands must be an (n, 5..7) array of card indices, got shape {hands.shape}")
    if hands.size and (hands.min() < 0 or hands.max() > 51):
        raise ValueError("hands must hold card indices 0..51")
    return _evaluate_batch(hands, CARD_BITS, POPCOUNT, HIGHBIT, STRAIGHT_HIGH)


def evaluate(cards) -> int:
    """Strength of one 5..7-card hand (card indices or a string such as ``'AsKsQsJsTs'``)."""
    from pokerlab.cards import parse_cards

    if isinstance(cards, str):
        cards = parse_cards(cards)
    arr = np.asarray(list(cards), dtype=np.int64)
    if not 5 <= arr.size <= 7:
        raise ValueError(f"a hand has 5 to 7 cards, got {arr.size}")
    if arr.min() < 0 or arr.max() > 51 or np.unique(arr).size != arr.size:
        raise ValueError(f"bad hand {list(arr)}: cards must be distinct indices 0..51")
    return int(evaluate_cards(arr, CARD_BITS, POPCOUNT, HIGHBIT, STRAIGHT_HIGH))


def category(strength: int) -> int:
    """Hand category (0 high card .. 8 straight flush) of a strength value."""
    return int(strength) >> CATEGORY_SHIFT
