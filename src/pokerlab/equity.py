"""Building the 169x169 preflop equity table: seeded sampling and exact enumeration (the table
object and its files live in :mod:`pokerlab.equity_table`; both are importable from here).

For an ordered class pair (hero class ``a``, villain class ``b``) the table holds the
probability that hero wins and that hero ties at showdown, over uniformly random
non-colliding (hero combo, villain combo) pairs and a uniformly random 5-card board from the
remaining 48 cards. Wins and ties are kept apart: the chip value of a tie is half a pot, but
under ICM a chopped pot is worth more than the mean of winning and losing it.

Two builders produce the same schema:

``sampled``
    For each of the 14,365 unordered class pairs ``a <= b`` (``PAIR_HERO``, ``PAIR_VILLAIN``,
    row-major upper triangle), ``samples`` (hero combo, villain combo, board) triples are
    drawn. Every pair owns the SplitMix64 stream ``pokerlab.rng.stream_state(seed, pair)``,
    so the counts do not depend on how the pairs are split across threads or chunks.

``exact``
    Every board, every non-colliding combo pair. The 2,598,960 boards collapse to 134,459
    suit-isomorphic classes (class-pair counts are invariant under a suit permutation); on
    each, the 1,081 live hands are sorted by strength once and swept, counting for every hero
    hand the lower- and equal-ranked villains per class with exact card-removal corrections.
"""

from __future__ import annotations

import itertools
import math
import signal
import threading
from typing import Iterator

import numpy as np
from numba import get_num_threads, njit, prange

from pokerlab import cards as C
from pokerlab.evaluator import CARD_BITS, rank_of_packed
from pokerlab.equity_table import (N_CLASS_PAIRS, PAIR_HERO, PAIR_VILLAIN, EquityTable, PairCounts,  # noqa: F401
                                   class_pair_index, load_equity_table, save_equity_table)
from pokerlab.rng import below_pair, stream_state

BOARDS_PER_COMBO_PAIR = math.comb(48, 5)  # 1,712,304

# Combos of each class, padded into one array: CLASS_COMBO_CARDS[k, i] = (low, high) of the
# i-th combo of class k, for i < CLASS_WEIGHTS[k].
_CLASS_COMBO_CARDS = np.zeros((C.N_CLASSES, 12, 2), dtype=np.int64)
for _k, _combos in enumerate(C.CLASS_COMBOS):
    _CLASS_COMBO_CARDS[_k, : _combos.size] = C.COMBO_CARDS[_combos]
_CLASS_COMBO_COUNT = C.CLASS_WEIGHTS.astype(np.int64)


# --- sampling ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _showdown(board, hero, villain):
    """(1, 0) if the hand ``hero`` beats ``villain`` on ``board``, (0, 1) on a tie, else (0, 0)
    (cards as the evaluator's packed bits)."""
    hs = rank_of_packed(board | hero)
    vs = rank_of_packed(board | villain)
    return (1, 0) if hs > vs else ((0, 1) if hs == vs else (0, 0))


@njit(cache=True)
def _sample_pair(hero_class, villain_class, samples, state, class_cards, class_count, card_bits):
    wins = 0
    ties = 0
    na = class_count[hero_class]
    nb = class_count[villain_class]
    for _ in range(samples):
        while True:
            state, i, j = below_pair(state, na, nb)
            h0 = class_cards[hero_class, i, 0]
            h1 = class_cards[hero_class, i, 1]
            v0 = class_cards[villain_class, j, 0]
            v1 = class_cards[villain_class, j, 1]
            if h0 != v0 and h0 != v1 and h1 != v0 and h1 != v1:
                break
        hero = card_bits[h0] | card_bits[h1]
        villain = card_bits[v0] | card_bits[v1]
        used = hero | villain
        board = np.int64(0)
        dealt = 0
        while dealt < 5:
            state, c, d = below_pair(state, 52, 52)
            for card in (c, d):  # two candidates per draw; the surplus one is dropped
                bit = card_bits[card]
                if dealt < 5 and not used & bit:
                    used |= bit
                    board |= bit
                    dealt += 1
        won, tied = _showdown(board, hero, villain)
        wins += won
        ties += tied
    return wins, ties


@njit(cache=True, parallel=True)
def _sample_pairs(pair_ids, hero, villain, samples, seed, class_cards, class_count, card_bits):
    out = np.zeros((pair_ids.size, 2), dtype=np.int64)
    for k in prange(pair_ids.size):
        p = pair_ids[k]
        state = stream_state(seed, p)
        w, t = _sample_pair(hero[p], villain[p], samples, state, class_cards, class_count, card_bits)
        out[k, 0] = w
        out[k, 1] = t
    return out


INTERRUPT_BLOCKS = 64  # the parallel work is cut into this many kernel calls (see _blocks)


def _blocks(n: int, n_blocks: int = INTERRUPT_BLOCKS) -> Iterator[tuple[int, int]]:
    """``[lo, hi)`` ranges cutting ``n`` items into at most ``n_blocks`` near-equal blocks.

    A long Numba ``prange`` kernel cannot be interrupted: Python sees Ctrl-C only when the
    kernel returns (the exact table ignored it for its whole run and then crashed in the
    parallel runtime). Calling the kernel once per block returns to Python between blocks.
    While the blocks run, Ctrl-C is only noted (a ``KeyboardInterrupt`` raised inside Numba's
    dispatcher became a chained ``SystemError``) and raised here, before the next block: within
    one block's time, a plain ``KeyboardInterrupt``, nothing written."""
    n_blocks = max(1, min(n_blocks, n))
    noted: list[int] = []
    main = threading.current_thread() is threading.main_thread()  # only there can a handler be set
    previous = signal.signal(signal.SIGINT, lambda signum, frame: noted.append(signum)) if main else None
    try:
        for b in range(n_blocks):
            if noted:
                raise KeyboardInterrupt
            yield b * n // n_blocks, (b + 1) * n // n_blocks
        if noted:
            raise KeyboardInterrupt
    finally:
        if main:
            signal.signal(signal.SIGINT, previous)


def sample_pair_counts(samples: int, seed: int, pair_ids: np.ndarray | None = None) -> PairCounts:
    """Sampled win/tie/loss counts for the given unordered pair indices (default: all 14,365).

    The counts of a pair depend only on (seed, pair index, samples): computing any subset, in
    any chunks, on any number of threads, gives the same numbers.
    """
    if int(samples) < 1:
        raise ValueError(f"equity.samples must be a positive integer, got {samples!r}")
    if not 0 <= int(seed) < 2**64:
        raise ValueError(f"equity.seed must be in [0, 2^64), got {seed!r}")
    ids = np.arange(N_CLASS_PAIRS, dtype=np.int64) if pair_ids is None else np.asarray(pair_ids, dtype=np.int64)
    wt = np.zeros((ids.size, 2), dtype=np.int64)
    for lo, hi in _blocks(ids.size):  # Ctrl-C is seen between blocks, outside the parallel kernel
        wt[lo:hi] = _sample_pairs(ids[lo:hi], PAIR_HERO, PAIR_VILLAIN, int(samples), np.uint64(seed),
                                  _CLASS_COMBO_CARDS, _CLASS_COMBO_COUNT, CARD_BITS)
    wins, ties = wt[:, 0].copy(), wt[:, 1].copy()
    return PairCounts(wins, ties, int(samples) - wins - ties)


def sample_class_pair(hero: str | int, villain: str | int, samples: int, seed: int) -> tuple[int, int, int]:
    """Sampled (wins, ties, deals) of class ``hero`` vs class ``villain``, counted from hero's side:
    the table's own ``samples`` draws of the unordered pair (:func:`sample_pair_counts`), so the
    figures are those of the table sampled with the same seed."""
    a = C.parse_class(hero) if isinstance(hero, str) else int(hero)
    b = C.parse_class(villain) if isinstance(villain, str) else int(villain)
    counts = sample_pair_counts(samples, seed, [class_pair_index(a, b)])
    wins, ties, deals = int(counts.wins[0]), int(counts.ties[0]), int(counts.samples[0])
    if a > b:  # the table samples (low index, high index): hero is the villain there
        wins = deals - wins - ties
    return wins, ties, deals


def sampled_equity_table(samples: int, seed: int) -> EquityTable:
    """The whole table by sampling, in memory (``samples`` draws per class pair)."""
    return sample_pair_counts(samples, seed).to_table()


# --- exact enumeration ---------------------------------------------------------------------

SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # (24, 4)


@njit(cache=True)
def _canonical_board_keys(perms):
    """For every 5-card board (lexicographic order), the smallest card mask over suit permutations."""
    keys = np.empty(2598960, dtype=np.uint64)
    n = 0
    for a in range(48):
        for b in range(a + 1, 49):
            for c in range(b + 1, 50):
                for d in range(c + 1, 51):
                    for e in range(d + 1, 52):
                        best = np.uint64(0xFFFFFFFFFFFFFFFF)
                        for p in range(perms.shape[0]):
                            key = np.uint64(0)
                            for card in (a, b, c, d, e):
                                key |= np.uint64(1) << np.uint64(4 * (card >> 2) + perms[p, card & 3])
                            if key < best:
                                best = key
                        keys[n] = best
                        n += 1
    return keys


def canonical_boards() -> tuple[np.ndarray, np.ndarray]:
    """The suit-isomorphism classes of 5-card boards: (card masks (134,459,), orbit sizes)."""
    keys = _canonical_board_keys(SUIT_PERMUTATIONS)
    uniq, counts = np.unique(keys, return_counts=True)
    return uniq, counts.astype(np.int64)


@njit(cache=True)
def _sweep_board(board_cards, weight, combo_cards, combo_class, win, tie, card_bits,
                 strength, live, cnt_class, cnt_card):
    """Add one board's (weighted) win and tie counts of every ordered class pair to ``win``/``tie``.

    ``board_cards`` is a 52-bit mask of card indices (bit ``c`` for card ``c``).
    """
    board = np.int64(0)
    for c in range(52):
        if (board_cards >> np.uint64(c)) & np.uint64(1):
            board |= card_bits[c]
    n_live = 0
    for i in range(combo_cards.shape[0]):
        hand = card_bits[combo_cards[i, 0]] | card_bits[combo_cards[i, 1]]
        if board & hand:
            continue
        strength[n_live] = rank_of_packed(board | hand)
        live[n_live] = i
        n_live += 1
    order = np.argsort(strength[:n_live], kind="mergesort")
    cnt_class[:] = 0
    cnt_card[:, :] = 0
    start = 0
    while start < n_live:
        stop = start + 1
        s = strength[order[start]]
        while stop < n_live and strength[order[stop]] == s:
            stop += 1
        tied = stop - start > 1
        # villains strictly weaker: the counts before this group is added
        for g in range(start, stop):
            h = live[order[g]]
            k = combo_class[h]
            c0 = combo_cards[h, 0]
            c1 = combo_cards[h, 1]
            for v in range(cnt_class.size):
                below = weight * (cnt_class[v] - cnt_card[c0, v] - cnt_card[c1, v])
                win[k, v] += below
                if tied:
                    tie[k, v] -= below
        for g in range(start, stop):
            h = live[order[g]]
            k = combo_class[h]
            cnt_class[k] += 1
            cnt_card[combo_cards[h, 0], k] += 1
            cnt_card[combo_cards[h, 1], k] += 1
        if tied:
            # ties = villains at most as strong (counts after the group) minus strictly weaker
            for g in range(start, stop):
                h = live[order[g]]
                k = combo_class[h]
                c0 = combo_cards[h, 0]
                c1 = combo_cards[h, 1]
                for v in range(cnt_class.size):
                    tie[k, v] += weight * (cnt_class[v] - cnt_card[c0, v] - cnt_card[c1, v])
                # inclusion-exclusion subtracted the hand itself twice where it counts once
                tie[k, k] += weight
        start = stop
    return n_live


@njit(cache=True, parallel=True)
def _exact_counts(board_keys, board_weights, n_chunks, combo_cards, combo_class, card_bits):
    n_cls = 169
    win = np.zeros((n_chunks, n_cls, n_cls), dtype=np.int64)
    tie = np.zeros((n_chunks, n_cls, n_cls), dtype=np.int64)
    n_boards = board_keys.size
    for chunk in prange(n_chunks):
        strength = np.empty(1326, dtype=np.int64)
        live = np.empty(1326, dtype=np.int64)
        cnt_class = np.zeros(n_cls, dtype=np.int64)
        cnt_card = np.zeros((52, n_cls), dtype=np.int64)
        lo = chunk * n_boards // n_chunks
        hi = (chunk + 1) * n_boards // n_chunks
        for i in range(lo, hi):
            _sweep_board(board_keys[i], board_weights[i], combo_cards, combo_class, win[chunk], tie[chunk],
                         card_bits, strength, live, cnt_class, cnt_card)
    return win.sum(axis=0), tie.sum(axis=0)


def exact_pair_counts(board_keys: np.ndarray | None = None, board_weights: np.ndarray | None = None) -> PairCounts:
    """Exact win/tie/loss counts of all 14,365 unordered class pairs over every board.

    Counts are numbers of (hero combo, villain combo, board) deals. ``board_keys``/``weights``
    restrict the enumeration to a subset of canonical boards (used by tests); by default all
    134,459 canonical boards with their orbit sizes, i.e. all 2,598,960 boards.
    """
    if board_keys is None:
        board_keys, board_weights = canonical_boards()
    keys = np.ascontiguousarray(board_keys, dtype=np.uint64)
    weights = np.ascontiguousarray(board_weights, dtype=np.int64)
    combo_cards, combo_class = C.COMBO_CARDS.astype(np.int64), C.COMBO_CLASS.astype(np.int64)
    win = np.zeros((C.N_CLASSES, C.N_CLASSES), dtype=np.int64)
    tie = np.zeros((C.N_CLASSES, C.N_CLASSES), dtype=np.int64)
    for lo, hi in _blocks(keys.size):  # integer counts: the sum does not depend on the blocks
        n_chunks = max(1, min(4 * get_num_threads(), hi - lo))
        block_win, block_tie = _exact_counts(keys[lo:hi], weights[lo:hi], n_chunks, combo_cards, combo_class, CARD_BITS)
        win += block_win
        tie += block_tie
    total = win + tie + win.T  # every deal is a win for one side or a tie
    a, b = PAIR_HERO, PAIR_VILLAIN
    return PairCounts(win[a, b].copy(), tie[a, b].copy(), (total - win - tie)[a, b].copy())


@njit(cache=True)
def _enumerate_boards(h0, h1, v0, v1, card_bits):
    """Exact (wins, ties, boards) of hero (h0, h1) vs villain (v0, v1) over all 5-card boards."""
    deck = np.empty(48, dtype=np.int64)
    n = 0
    for c in range(52):
        if c != h0 and c != h1 and c != v0 and c != v1:
            deck[n] = card_bits[c]
            n += 1
    hero = card_bits[h0] | card_bits[h1]
    villain = card_bits[v0] | card_bits[v1]
    wins = 0
    ties = 0
    boards = 0
    for i0 in range(44):
        m0 = deck[i0]
        for i1 in range(i0 + 1, 45):
            m1 = m0 | deck[i1]
            for i2 in range(i1 + 1, 46):
                m2 = m1 | deck[i2]
                for i3 in range(i2 + 1, 47):
                    m3 = m2 | deck[i3]
                    for i4 in range(i3 + 1, 48):
                        won, tied = _showdown(m3 | deck[i4], hero, villain)
                        wins += won
                        ties += tied
                        boards += 1
    return wins, ties, boards


def combo_pair_orbits(hero_class: int, villain_class: int) -> list[tuple[tuple[int, int, int, int], int]]:
    """Non-colliding (hero combo, villain combo) pairs of two classes, grouped by suit isomorphism.

    Returns ``[((h0, h1, v0, v1), orbit_size), ...]``; the orbit sizes sum to the number of
    non-colliding combo pairs, and every pair in an orbit has the same board-enumeration counts.
    """
    seen: dict[tuple, list] = {}
    for h in C.CLASS_COMBOS[hero_class]:
        h0, h1 = (int(x) for x in C.COMBO_CARDS[h])
        for v in C.CLASS_COMBOS[villain_class]:
            v0, v1 = (int(x) for x in C.COMBO_CARDS[v])
            if {h0, h1} & {v0, v1}:
                continue
            key = min(
                (
                    tuple(sorted(4 * (x >> 2) + int(p[x & 3]) for x in (h0, h1))),
                    tuple(sorted(4 * (x >> 2) + int(p[x & 3]) for x in (v0, v1))),
                )
                for p in SUIT_PERMUTATIONS
            )
            if key in seen:
                seen[key][1] += 1
            else:
                seen[key] = [(h0, h1, v0, v1), 1]
    return [(tuple(rep), size) for rep, size in seen.values()]


def exact_class_pair(hero: str | int, villain: str | int) -> tuple[int, int, int]:
    """Exact (wins, ties, deals) of class ``hero`` vs class ``villain`` over every board.

    Enumerates all C(48,5) boards for one representative of each suit-isomorphism orbit of
    combo pairs and weights it by the orbit size, which equals the plain average over all
    non-colliding combo pairs.
    """
    a = C.parse_class(hero) if isinstance(hero, str) else int(hero)
    b = C.parse_class(villain) if isinstance(villain, str) else int(villain)
    wins = ties = deals = 0
    for (h0, h1, v0, v1), size in combo_pair_orbits(a, b):
        w, t, n = _enumerate_boards(h0, h1, v0, v1, CARD_BITS)
        wins += size * w
        ties += size * t
        deals += size * n
    return wins, ties, deals


def build_equity_counts(mode: str, samples: int, seed: int) -> PairCounts:
    """The counts behind ``equity_169`` for a config's ``equity`` section."""
    if mode == "sampled":
        return sample_pair_counts(samples, seed)
    if mode == "exact":
        return exact_pair_counts()
    raise ValueError(f"equity.mode must be 'sampled' or 'exact', got {mode!r}")
