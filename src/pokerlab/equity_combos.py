"""The exact 1,326 x 1,326 hand-against-hand equity table (card removal at the combo level).

``wins[h, v]`` and ``ties[h, v]`` count the 5-card boards on which combo ``h`` (hero, row) beats
or ties combo ``v``, over all C(48, 5) = 1,712,304 boards of the 48 cards the two hands leave;
``losses[h, v] = wins[v, h]``. Where the two hands share a card the pair cannot be dealt and
both counts are 0. Combos are numbered as in :mod:`pokerlab.cards` (``COMBO_CARDS`` order).

How it is enumerated (exact, no sampling):

* **Per-board ranking.** On one board the 1,081 hands that do not touch it are ranked once and
  sorted; every hand then beats exactly the hands sorted before its tie group, so the board adds
  one to ``wins[h, v]`` for those pairs (about n^2 / 2 = 584,000 increments per board) and to
  ``ties`` inside tie groups. Pairs whose hands collide are counted too and zeroed at the end.
* **Suit isomorphism.** A suit permutation s maps board B to s(B) and hands to s(h), and
  ``M_{s(B)}[s(h), s(v)] = M_B[h, v]`` for the board's win indicator M. Summing over the 24
  permutations, ``sum over all boards of M_B = (1/24) sum_s P_s A P_s^T`` with
  ``A = sum over the 134,459 canonical boards of (orbit size) * M_B`` (the canonical boards of
  :func:`pokerlab.equity.canonical_boards`). So only the canonical boards are swept (19x fewer)
  and the 24 relabelings of ``A`` are summed at the end; the division by 24 is exact, also on
  any subset of canonical boards (then the result counts the boards of their orbits).

Aggregating the table over the combos of two classes gives the exact 169 table's counts
(:func:`class_counts`), which the tests check on board subsets and the build checks in full.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import get_num_threads, njit, prange

from pokerlab import cards as C
from pokerlab.evaluator import CARD_BITS, rank_of_packed

BOARDS_PER_PAIR = math.comb(48, 5)  # 1,712,304 boards for every non-colliding combo pair
REBUILD_HINT = "delete it and re-run to rebuild it (rule equity_combos)"


def collision_mask() -> np.ndarray:
    """(1326, 1326) bool: True where the two combos share a card (including a combo with itself)."""
    a, b = C.COMBO_CARDS[:, 0].astype(np.int64), C.COMBO_CARDS[:, 1].astype(np.int64)
    return (a[:, None] == a[None, :]) | (a[:, None] == b[None, :]) | (b[:, None] == a[None, :]) | (b[:, None] == b[None, :])


def suit_permutation_combo_maps() -> np.ndarray:
    """(24, 1326) int64: ``maps[k, h]`` is the combo that suit permutation k makes of combo h
    (a card ``4 r + s`` becomes ``4 r + perm[s]``; permutations in ``itertools`` order)."""
    from pokerlab.equity import SUIT_PERMUTATIONS

    cards = C.COMBO_CARDS.astype(np.int64)
    maps = np.empty((len(SUIT_PERMUTATIONS), C.N_COMBOS), dtype=np.int64)
    for k, perm in enumerate(SUIT_PERMUTATIONS):
        moved = 4 * (cards >> 2) + perm[cards & 3]
        maps[k] = C.COMBO_INDEX[moved[:, 0], moved[:, 1]]
    return maps


# --- the kernel ---------------------------------------------------------------------------


@njit(cache=True)
def _sweep_board(board_cards, weight, combo_bits, card_bits, win, tie, strength, live, ranked):
    """Add one board's win and tie indicators, times ``weight``, to ``win``/``tie`` (1326 x 1326).

    ``board_cards`` is a 52-bit mask (bit c for card c). Returns the number of live hands.
    """
    board = np.int64(0)
    for c in range(52):
        if (board_cards >> np.uint64(c)) & np.uint64(1):
            board |= card_bits[c]
    n_live = 0
    for h in range(combo_bits.size):
        if board & combo_bits[h]:
            continue
        strength[n_live] = rank_of_packed(board | combo_bits[h])
        live[n_live] = h
        n_live += 1
    order = np.argsort(strength[:n_live], kind="mergesort")
    for i in range(n_live):
        ranked[i] = live[order[i]]
    start = 0
    while start < n_live:
        s = strength[order[start]]
        stop = start + 1
        while stop < n_live and strength[order[stop]] == s:
            stop += 1
        for g in range(start, stop):
            row = win[ranked[g]]
            for j in range(start):  # every hand sorted before the tie group is beaten
                row[ranked[j]] += weight
            if stop - start > 1:
                tie_row = tie[ranked[g]]
                for j in range(start, stop):
                    if j != g:
                        tie_row[ranked[j]] += weight
        start = stop
    return n_live


@njit(cache=True, parallel=True)
def _sweep_boards(board_keys, board_weights, n_chunks, combo_bits, card_bits):
    """Weighted win/tie indicator sums over the boards, one int32 accumulator pair per chunk
    (chunk = a contiguous block of boards; the sum of integers does not depend on the split)."""
    n = combo_bits.size
    win = np.zeros((n_chunks, n, n), dtype=np.int32)
    tie = np.zeros((n_chunks, n, n), dtype=np.int32)
    n_boards = board_keys.size
    for chunk in prange(n_chunks):
        strength = np.empty(n, dtype=np.int64)
        live = np.empty(n, dtype=np.int64)
        ranked = np.empty(n, dtype=np.int64)
        lo = chunk * n_boards // n_chunks
        hi = (chunk + 1) * n_boards // n_chunks
        for i in range(lo, hi):
            _sweep_board(board_keys[i], np.int32(board_weights[i]), combo_bits, card_bits, win[chunk], tie[chunk],
                         strength, live, ranked)
    return win, tie


@njit(cache=True)
def _symmetrize(acc, maps, out):
    """``out += sum over permutations k of acc relabelled by maps[k]`` (int64 ``out``)."""
    n = acc.shape[0]
    for k in range(maps.shape[0]):
        m = maps[k]
        for h in range(n):
            mh = m[h]
            for v in range(n):
                out[mh, m[v]] += acc[h, v]


def exact_combo_counts(board_keys: np.ndarray | None = None, board_weights: np.ndarray | None = None,
                       progress=None) -> tuple[np.ndarray, np.ndarray]:
    """Exact (wins, ties), each (1326, 1326) int64, over every board (default) or over the orbits
    of the given canonical boards (``board_keys`` 52-bit card masks from
    :func:`pokerlab.equity.canonical_boards` with their orbit sizes ``board_weights``).

    ``progress(done, total)`` is called after each block of boards. Colliding pairs are 0.
    """
    from pokerlab.equity import INTERRUPT_BLOCKS, _blocks, canonical_boards

    if board_keys is None:
        board_keys, board_weights = canonical_boards()
    keys = np.ascontiguousarray(board_keys, dtype=np.uint64)
    weights = np.ascontiguousarray(board_weights, dtype=np.int64)
    if keys.shape != weights.shape:
        raise ValueError(f"board_keys {keys.shape} and board_weights {weights.shape} must have the same shape")
    combo_bits = CARD_BITS[C.COMBO_CARDS[:, 0]] | CARD_BITS[C.COMBO_CARDS[:, 1]]
    acc = np.zeros((C.N_COMBOS, C.N_COMBOS), dtype=np.int64)
    tie_acc = np.zeros_like(acc)
    n_blocks = max(1, min(INTERRUPT_BLOCKS, keys.size))  # what _blocks yields (a generator: no len)
    for done, (lo, hi) in enumerate(_blocks(keys.size, n_blocks), 1):
        n_chunks = max(1, min(get_num_threads(), hi - lo))
        win, tie = _sweep_boards(keys[lo:hi], weights[lo:hi], n_chunks, combo_bits, CARD_BITS)
        acc += win.sum(axis=0, dtype=np.int64)
        tie_acc += tie.sum(axis=0, dtype=np.int64)
        if progress is not None:
            progress(done, n_blocks)
    maps = suit_permutation_combo_maps()
    out = []
    collide = collision_mask()
    for part in (acc, tie_acc):
        full = np.zeros_like(part)
        _symmetrize(part, maps, full)
        if np.any(full % maps.shape[0]):
            raise RuntimeError("suit symmetrisation left a remainder: board keys are not canonical")
        full //= maps.shape[0]
        full[collide] = 0
        out.append(full)
    return out[0], out[1]


# --- the table object and its file --------------------------------------------------------


@dataclass(frozen=True)
class ComboEquityTable:
    """Exact board counts of every ordered combo pair (hero = row); see the module docstring."""

    wins: np.ndarray  # (1326, 1326) int32
    ties: np.ndarray  # (1326, 1326) int32

    @property
    def win(self) -> np.ndarray:
        """Win probability over the boards (float64; 0 where the hands collide)."""
        return self.wins / BOARDS_PER_PAIR

    @property
    def tie(self) -> np.ndarray:
        return self.ties / BOARDS_PER_PAIR

    @property
    def equity(self) -> np.ndarray:
        """Chip equity ``win + tie / 2`` of the row hand (0 where the hands collide)."""
        return (self.wins + 0.5 * self.ties) / BOARDS_PER_PAIR


def class_counts(wins: np.ndarray, ties: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Combo counts summed over the combos of each class pair: (wins, ties, deals), (169, 169)
    int64, ``deals`` = non-colliding combo pairs x boards. These are the exact 169 table's counts."""
    onehot = np.zeros((C.N_COMBOS, C.N_CLASSES), dtype=np.int64)
    onehot[np.arange(C.N_COMBOS), C.COMBO_CLASS] = 1
    live = (~collision_mask()).astype(np.int64)
    agg = [onehot.T @ np.asarray(x, dtype=np.int64) @ onehot for x in (wins, ties, live)]
    return agg[0], agg[1], agg[2] * BOARDS_PER_PAIR


def check_against_class_table(table: ComboEquityTable, class_win: np.ndarray, class_tie: np.ndarray,
                              atol: float = 1e-12) -> float:
    """Largest gap between the combo-weighted class means and a 169 table (fractions); raises
    ``ValueError`` naming the first class pair beyond ``atol``."""
    wins, ties, deals = class_counts(table.wins, table.ties)
    gap_win = np.abs(wins / deals - class_win)
    gap_tie = np.abs(ties / deals - class_tie)
    gap = np.maximum(gap_win, gap_tie)
    if gap.max() > atol:
        a, b = np.unravel_index(int(np.argmax(gap)), gap.shape)
        raise ValueError(f"combo table: class pair {C.CLASS_NAMES[a]} vs {C.CLASS_NAMES[b]} differs from the 169 table "
                         f"by {gap[a, b]:.3g} (allowed {atol:g})")
    return float(gap.max())


def save_combo_table(wins: np.ndarray, ties: np.ndarray, path: str | os.PathLike) -> None:
    """Write ``equity_1326.npz`` (``wins``, ``ties`` int32, ``combos`` ids, ``boards_per_pair``)
    atomically, deflated, with bytes that depend only on the counts."""
    from pokerlab.io import deterministic_npz_bytes, write_bytes_atomic

    data = deterministic_npz_bytes({"wins": np.asarray(wins, dtype=np.int32), "ties": np.asarray(ties, dtype=np.int32),
                                    "combos": np.array(C.COMBO_IDS), "boards_per_pair": np.int64(BOARDS_PER_PAIR)})
    write_bytes_atomic(path, data)


def load_combo_table(path: str | os.PathLike) -> ComboEquityTable:
    """Read ``equity_1326.npz``; ``ValueError`` naming the file and what is wrong."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"combo equity table {path}: file not found (build it with the equity_combos rule)")
    try:
        with np.load(path, allow_pickle=False) as data:
            wins, ties = data["wins"], data["ties"]
            combos = tuple(str(x) for x in data["combos"])
            boards = int(data["boards_per_pair"])
    except Exception as exc:  # zip, key or dtype errors all mean a bad file
        raise ValueError(f"combo equity table {path}: unreadable ({exc}); {REBUILD_HINT}") from None
    if combos != C.COMBO_IDS or boards != BOARDS_PER_PAIR:
        raise ValueError(f"combo equity table {path}: not the 1,326 combos in pokerlab's order over "
                         f"{BOARDS_PER_PAIR} boards; {REBUILD_HINT}")
    for name, arr in (("wins", wins), ("ties", ties)):
        if arr.shape != (C.N_COMBOS, C.N_COMBOS) or not np.issubdtype(arr.dtype, np.integer):
            raise ValueError(f"combo equity table {path}: '{name}' is {arr.dtype} {arr.shape}, expected integer "
                             f"(1326, 1326); {REBUILD_HINT}")
    wins, ties = wins.astype(np.int64), ties.astype(np.int64)
    collide = collision_mask()
    total = wins + ties + wins.T
    if wins.min() < 0 or ties.min() < 0 or np.any(wins[collide]) or np.any(ties[collide]):
        raise ValueError(f"combo equity table {path}: negative counts or counts on colliding pairs; {REBUILD_HINT}")
    if np.any(total[~collide] != BOARDS_PER_PAIR) or np.any(ties != ties.T):
        raise ValueError(f"combo equity table {path}: wins + ties + losses is not {BOARDS_PER_PAIR} on every "
                         f"pair (or ties are not symmetric); {REBUILD_HINT}")
    return ComboEquityTable(wins.astype(np.int32), ties.astype(np.int32))


def crosscheck_combos(table: ComboEquityTable, n_pairs: int, seed: int, class_table=None, class_mode: str = "sampled",
                      processes: int = 1):
    """eval7's enumeration of all 1,712,304 boards for ``n_pairs`` random non-colliding combo
    pairs (seeded) against the table's counts, one row per pair (``match`` is exact equality),
    and, given the 169 table, the largest gap between its cells and the combo-weighted class
    means (``ValueError`` past 1e-12 when ``class_mode`` is ``exact``). Returns (rows, class gap)."""
    import pandas as pd

    from pokerlab.equity_check import _run_orbits

    rng = np.random.default_rng(seed)
    collide = collision_mask()
    pairs: list[tuple[int, int]] = []
    while len(pairs) < n_pairs:
        h, v = (int(x) for x in rng.integers(0, C.N_COMBOS, size=2))
        if not collide[h, v]:
            pairs.append((h, v))
    jobs = [((*C.COMBO_CARDS[h].tolist(), *C.COMBO_CARDS[v].tolist()), 1) for h, v in pairs]
    rows = []
    for (h, v), (w, t, n) in zip(pairs, _run_orbits(jobs, processes)):
        table_counts = (int(table.wins[h, v]), int(table.ties[h, v]), int(table.wins[v, h]))
        rows.append({"hero": C.combo_id(h), "villain": C.combo_id(v), "eval7_wins": w, "eval7_ties": t,
                     "eval7_losses": n - w - t, "table_wins": table_counts[0], "table_ties": table_counts[1],
                     "table_losses": table_counts[2], "match": table_counts == (w, t, n - w - t)})
    gap = None
    if class_table is not None:
        gap = check_against_class_table(table, class_table.win, class_table.tie,
                                        atol=1e-12 if class_mode == "exact" else np.inf)
    return pd.DataFrame.from_records(rows), gap
