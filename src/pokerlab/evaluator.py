"""A 7-card (and 5/6-card) hand evaluator in Numba, built on 13-bit rank masks per suit.

A hand's strength is a non-negative ``int32``; larger is better and equal means a tie. The
value is ``category << 26 | detail`` with categories

    0 high card, 1 pair, 2 two pair, 3 trips, 4 straight, 5 flush, 6 full house,
    7 quads, 8 straight flush,

and ``detail`` ordering hands inside a category (kickers are kept as a mask of their rank
bits, whose integer order is the lexicographic order of the descending rank lists). Only the
order of values is meaningful; tests compare orderings with eval7, never raw numbers.

A hand is given as four suit masks (bit ``r`` of mask ``s`` set when the hand holds rank ``r``
of suit ``s``). Hot loops carry them packed in one ``int64``, suit ``s`` in bits
``16 s .. 16 s + 12`` (``CARD_BITS[card]`` is a card's bit), so a shared board is packed once,
each hand's two cards are OR-ed in without a branch, and ``rank_of_packed`` evaluates.

Two implementations give identical values:

* ``bitmask_rank``, the reference: reads categories off AND/OR combinations of the suit masks
  with 8,192-entry tables (``POPCOUNT``, ``HIGHBIT``, ``STRAIGHT_HIGH``).
* ``rank_of_packed``, the fast path, without branches (seven table reads, all issued):
  a SWAR popcount of the four 16-bit lanes finds a suit holding five or more cards (with at
  most seven cards that suit alone decides the hand: ``FLUSH_RANK[suit mask]``); the rank
  multiset's key is the sum of ``SUIT_RANK_KEY[suit mask]`` over the four suits (rank keys
  whose sums differ for every multiset of at most seven cards), and a row-displacement perfect
  hash (``ROW_BASE``, ``MULTISET_RANK``) maps the key to the strength.

The fast tables are filled at import from ``bitmask_rank`` (one evaluation per rank multiset
and per suit mask of five or more cards; a copy is kept in ``__pycache__`` under a digest of
this file's source and read by later imports), so both paths give the same values by construction;
the tests check it on every rank multiset and on random hands. The fast path reads the tables
as module globals, which Numba freezes into each compiled caller. All Numba functions are
compiled with ``cache=True``; a caller's cache does not notice a change to this module (the
evaluator is inlined), so delete the ``__pycache__`` directories after editing it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit, prange

from pokerlab.cards import COMBO_CARDS

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
def bitmask_rank(s0: int, s1: int, s2: int, s3: int, popcount, highbit, straight_high) -> int:
    """Reference strength of the best 5-card hand in four 13-bit suit masks (any card count).

    Pass the module tables ``POPCOUNT, HIGHBIT, STRAIGHT_HIGH``. The fast path's tables are
    built from this function.
    """
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


@njit(cache=True, inline="always")
def bitmask_rank_of_packed(packed: int, popcount, highbit, straight_high) -> int:
    """``bitmask_rank`` of a packed mask (an OR of ``CARD_BITS``): the reference for ``rank_of_packed``."""
    return bitmask_rank(packed & 0x1FFF, (packed >> 16) & 0x1FFF, (packed >> 32) & 0x1FFF, (packed >> 48) & 0x1FFF,
                        popcount, highbit, straight_high)


# ---------------------------------------------------------------------------------------------
# Fast path tables

RANK_KEYS = np.array(
    [0x2000, 0x8001, 0x11000, 0x3A000, 0x91000, 0x176005, 0x366000,
     0x41A013, 0x47802E, 0x479068, 0x48C0E4, 0x48F211, 0x494493],
    dtype=np.int64,
)
"""Key of each rank (2..A), the rank multipliers of the OMPEval evaluator (github.com/zekyll/OMPEval):
sums over multisets of at most 7 cards, at most 4 per rank, are all distinct (checked at import)."""
MAX_CARDS = 7
N_RANK_MULTISETS = 76_155
"""Multisets of 0..7 ranks with each rank at most 4 times."""
ROW_SHIFT = 12
"""Perfect hash rows: a multiset key ``k`` sits at ``ROW_BASE[k >> ROW_SHIFT] + (k & 4095)``."""


@njit(cache=True)
def _rank_multisets(rank_keys, popcount, highbit, straight_high):
    """Key and reference strength of every rank multiset of 0..7 cards (``N_RANK_MULTISETS``).

    Counts per rank run like an odometer over 0..4 with at most 7 cards in total; the cards of
    a multiset are dealt to suits in turn, so no suit holds more than two and no flush occurs.
    """
    keys = np.zeros(N_RANK_MULTISETS, dtype=np.int64)
    strengths = np.zeros(N_RANK_MULTISETS, dtype=np.int64)
    counts = np.zeros(13, dtype=np.int64)
    suits = np.zeros(4, dtype=np.int64)
    strengths[0] = bitmask_rank(0, 0, 0, 0, popcount, highbit, straight_high)
    n, total, digit = 1, 0, 0
    while digit < 13:
        counts[digit] += 1
        total += 1
        if counts[digit] > 4 or total > MAX_CARDS:
            total -= counts[digit]
            counts[digit] = 0
            digit += 1
            continue
        digit = 0
        suits[:] = 0
        s = 0
        for r in range(13):
            for _ in range(counts[r]):
                suits[s] |= 1 << r
                s = (s + 1) & 3
            keys[n] += counts[r] * rank_keys[r]
        strengths[n] = bitmask_rank(suits[0], suits[1], suits[2], suits[3], popcount, highbit, straight_high)
        n += 1
    return keys[:n], strengths[:n]


@njit(cache=True)
def _row_displacement(keys, row_shift):
    """Row offsets of a perfect hash ``slot = base[k >> row_shift] + (k & (2**row_shift - 1))``.

    Greedy first-fit-decreasing: rows with the most keys are placed first, each at the lowest
    offset where all its columns land on free slots. Free slots are a bitset, so one step tests
    64 consecutive offsets. Returns ``(base, n_slots)``.
    """
    width = 1 << row_shift
    keys = np.sort(keys)
    n_rows = (keys[-1] >> row_shift) + 1
    start = np.searchsorted(keys, np.arange(n_rows + 1) << row_shift)
    order = np.argsort(start[:-1] - start[1:], kind="mergesort")  # most keys first, stable
    all_ones = np.uint64(0xFFFFFFFFFFFFFFFF)
    one = np.uint64(1)
    free = np.full((2 * keys.size + 2 * width) // 64, all_ones)  # bit s of word w: slot 64 w + s is free
    base = np.zeros(n_rows, dtype=np.int32)
    n_slots = 0
    first_free = 0
    for r in order:
        if start[r] == start[r + 1]:
            break
        lowest_col = keys[start[r]] & (width - 1)
        while not (free[first_free >> 6] >> np.uint64(first_free & 63)) & one:
            first_free += 1
        word = max(first_free - lowest_col, 0) >> 6
        while True:  # fits[b]: offset 64 * word + b puts every column of the row on a free slot
            if word + (width >> 6) + 1 >= free.size:
                raise RuntimeError("perfect hash table overflow")
            fits = all_ones
            for j in range(start[r], start[r + 1]):
                col = keys[j] & (width - 1)
                q, b = word + (col >> 6), col & 63
                if b == 0:
                    fits &= free[q]
                else:
                    fits &= (free[q] >> np.uint64(b)) | (free[q + 1] << np.uint64(64 - b))
                if not fits:
                    break
            if fits:
                break
            word += 1
        bit = 0
        while not (fits >> np.uint64(bit)) & one:
            bit += 1
        offset = 64 * word + bit
        for j in range(start[r], start[r + 1]):
            slot = offset + (keys[j] & (width - 1))
            free[slot >> 6] &= ~(one << np.uint64(slot & 63))
            n_slots = max(n_slots, slot + 1)
        base[r] = offset
    return base, n_slots


def _build_fast_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    bits = (np.arange(_MASK_SIZE)[:, None] >> np.arange(13)) & 1  # (8192, 13)
    suit_rank_key = (bits @ RANK_KEYS).astype(np.int32)
    flush_rank = np.zeros(_MASK_SIZE, dtype=np.int32)  # 0 where the suit has fewer than 5 cards
    for m in np.flatnonzero(POPCOUNT >= 5):
        flush_rank[m] = bitmask_rank(m, 0, 0, 0, POPCOUNT, HIGHBIT, STRAIGHT_HIGH)
    keys, strengths = _rank_multisets(RANK_KEYS, POPCOUNT, HIGHBIT, STRAIGHT_HIGH)
    if keys.size != N_RANK_MULTISETS or np.unique(keys).size != keys.size:
        raise RuntimeError("rank keys do not separate the rank multisets")
    row_base, n_slots = _row_displacement(keys, ROW_SHIFT)
    multiset_rank = np.zeros(n_slots, dtype=np.int32)
    multiset_rank[row_base[keys >> ROW_SHIFT] + (keys & ((1 << ROW_SHIFT) - 1))] = strengths
    return suit_rank_key, flush_rank, row_base, multiset_rank


def _fast_tables(cache_dir: Path | None = None) -> tuple[np.ndarray, ...]:
    """``_build_fast_tables()``, kept in ``cache_dir`` (default: this file's ``__pycache__``)
    under a digest of this file's source, so that a process importing the evaluator reads them
    instead of building them (about 0.3 s, a third of a postflop solve's start-up). A missing
    or unreadable cache file is rebuilt; a corrupt one (not a zip archive, a table missing or
    truncated) too, with a warning; a failure to write is ignored."""
    import hashlib
    import os
    import warnings
    import zipfile

    source = Path(__file__)
    names = ("suit_rank_key", "flush_rank", "row_base", "multiset_rank")
    try:
        folder = source.parent / "__pycache__" if cache_dir is None else Path(cache_dir)
        path = folder / f"evaluator-tables-{hashlib.sha256(source.read_bytes()).hexdigest()[:16]}.npz"
        with np.load(path) as stored:
            return tuple(stored[name] for name in names)
    except (zipfile.BadZipFile, EOFError, KeyError, ValueError) as error:
        warnings.warn(f"evaluator: rebuilding the corrupt table cache {path} ({error!r})", RuntimeWarning, stacklevel=2)
    except OSError:  # missing or unreadable: build it
        pass
    tables = _build_fast_tables()
    try:
        path.parent.mkdir(exist_ok=True)
        partial = path.with_name(f"{path.stem}.{os.getpid()}.partial.npz")
        np.savez(partial, **dict(zip(names, tables)))
        os.replace(partial, path)
    except (OSError, NameError):
        pass
    return tables


SUIT_RANK_KEY, FLUSH_RANK, ROW_BASE, MULTISET_RANK = _fast_tables()

CARD_BITS = np.array([1 << (16 * (c & 3) + (c >> 2)) for c in range(52)], dtype=np.int64)
"""Packed-mask bit of each card: suit ``s`` occupies bits ``16 s .. 16 s + 12``."""
COMBO_BITS = CARD_BITS[COMBO_CARDS[:, 0]] | CARD_BITS[COMBO_CARDS[:, 1]]
"""(1326,) int64: each combo's two card bits (combos as :data:`pokerlab.cards.COMBO_CARDS`): one mask
both detects card collisions and is what :func:`rank_of_packed` evaluates."""


@njit(cache=True, inline="always")
def rank_of_packed(packed: int, popcount=None, highbit=None, straight_high=None) -> int:
    """Strength of the at most 7 cards in a packed mask (an OR of ``CARD_BITS``).

    Reads the module's fast tables, frozen into the compiled code. The three table arguments
    are ignored; they remain so that calls written as ``rank_of_packed(packed, POPCOUNT,
    HIGHBIT, STRAIGHT_HIGH)`` keep working.
    """
    packed = np.int64(packed)
    # cards per suit: SWAR popcount of the four 16-bit lanes (a lane's count ends in its low byte)
    n = packed - ((packed >> 1) & 0x5555555555555555)
    n = (n & 0x3333333333333333) + ((n >> 2) & 0x3333333333333333)
    n = (n + (n >> 4)) & 0x0F0F0F0F0F0F0F0F
    n = (n + (n >> 8)) & 0x00FF00FF00FF00FF
    flush_lane = (n + 0x000B000B000B000B) & 0x0010001000100010  # bit 16 s + 4 set: suit s has >= 5
    suited = packed & ((flush_lane >> 4) * 0x1FFF)  # that suit's mask, in place (0 if none)
    suited |= suited >> 32
    suited |= suited >> 16
    flush = FLUSH_RANK[suited & 0x1FFF]
    key = (
        SUIT_RANK_KEY[packed & 0x1FFF]
        + SUIT_RANK_KEY[(packed >> 16) & 0x1FFF]
        + SUIT_RANK_KEY[(packed >> 32) & 0x1FFF]
        + SUIT_RANK_KEY[packed >> 48]
    )
    multiset = MULTISET_RANK[ROW_BASE[key >> ROW_SHIFT] + (key & ((1 << ROW_SHIFT) - 1))]
    return flush if flush_lane else multiset  # both loads issued: no mispredicted branch


@njit(cache=True, inline="always")
def rank_from_suit_masks(s0: int, s1: int, s2: int, s3: int, popcount=None, highbit=None,
                         straight_high=None) -> int:
    """Strength of the at most 7 cards in four 13-bit suit masks (``rank_of_packed``).

    The three table arguments are ignored, as in ``rank_of_packed``.
    """
    return rank_of_packed(np.int64(s0) | (np.int64(s1) << 16) | (np.int64(s2) << 32) | (np.int64(s3) << 48))


@njit(cache=True)
def evaluate_cards(cards, card_bits) -> int:
    """Strength of a 5..7-card hand given as an array of card indices."""
    packed = np.int64(0)
    for c in cards:
        packed |= card_bits[c]
    return rank_of_packed(packed)


@njit(cache=True, parallel=True)
def _evaluate_batch(hands, card_bits):
    out = np.empty(hands.shape[0], dtype=np.int32)
    for i in prange(hands.shape[0]):
        packed = np.int64(0)
        for j in range(hands.shape[1]):
            packed |= card_bits[hands[i, j]]
        out[i] = rank_of_packed(packed)
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
    return _evaluate_batch(hands, CARD_BITS)


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
    return int(evaluate_cards(arr, CARD_BITS))


def category(strength: int) -> int:
    """Hand category (0 high card .. 8 straight flush) of a strength value."""
    return int(strength) >> CATEGORY_SHIFT
