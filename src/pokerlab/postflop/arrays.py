"""The arrays the compiled kernels read, grouped by what they describe, and the solver's state.

Compiled functions called from Python take these named tuples as plain tuples
(:func:`plain_tuples`) and name them again inside (:func:`named_game`): Numba types a plain
tuple of arrays in C, a named one in Python, which cost ~40 us a call for ``GameArrays`` (more
than a river walk).

Memory
    Regrets and strategy sums are stored per decision node once per chance outcome the walk
    visits (suit-isomorphic deals share their representative's, see :func:`outcome_slots`):
    the block of decision node ``n`` after the deal with slot ``k`` starts at
    ``state_offset[n] + k * actions * hands`` of the acting player's arrays, one row of hands
    per action, and is the acting player's block number ``block_offset[n] + k``.

    Uncompressed, both are float32. Compressed (postflop-solver's ``compression`` scheme),
    regrets are int16 and strategy sums uint16, each block with its own float32 scale: a
    regret is ``stored * scale / 32767``, a strategy sum ``stored * scale / 65535``, where
    ``scale`` is the block's largest absolute regret (largest strategy sum) when it was last
    written. Every update decodes the block, updates it and encodes it again with a new scale
    (:func:`pokerlab.postflop.dcfr.discount_and_add_compressed`). Regret matching and the
    average strategy need no scale: it cancels within a block.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


class TreeArrays(NamedTuple):
    """The template tree (see :class:`pokerlab.postflop.tree.PublicTree`) and where each
    decision node's state is stored."""

    kind: np.ndarray  # int8: DECISION, CHANCE, FOLD or SHOWDOWN
    actor: np.ndarray  # int8: player to act (DECISION), folder (FOLD)
    board_len: np.ndarray  # int8: board cards when the node is reached
    invest: np.ndarray  # (n, 2) float64: chips put in since the root by (oop, ip)
    first_child: np.ndarray  # int32
    n_children: np.ndarray  # int32
    state_offset: np.ndarray  # int64: start of a decision node's blocks in its actor's state arrays
    block_offset: np.ndarray  # int64: number of a decision node's first block among its actor's blocks
    pot: float  # the starting pot, chips


class DealArrays(NamedTuple):
    """The cards that can come, and how a dealt card is looked up."""

    root_mask: np.ndarray  # (52,) bool: the root board's cards
    board_index: np.ndarray  # (53, 53) int32: river board of dealt cards d1, d2 at [d1 + 1, d2 + 1]
    slot: np.ndarray  # (53, 53) int64: state slot of dealt cards d1, d2 (see outcome_slots)
    iso_card: np.ndarray  # (53, 52) int64: representative of card c after d1 at [d1 + 1, c]
    iso_id: np.ndarray  # (53, 52) int64: a suit permutation mapping c onto its representative
    runout_index: np.ndarray  # (53,) int64: run-out matrix of the board after d1 at [d1 + 1]


class PlayerArrays(NamedTuple):
    """One player's hands, each numbered by its place in the player's hand list."""

    cards: np.ndarray  # (n, 2) int64: the hand's cards
    same_combo: np.ndarray  # (n,) int64: the same combo's place in the opponent's list, -1 if absent
    showdown_tables: np.ndarray  # (n_boards, 4, n) uint16: hands sorted by strength (see board_tables)
    showdown_n_valid: np.ndarray  # (n_boards,) int32: hands not colliding with each river board
    suit_images: np.ndarray  # (24, n) int64: place of the hand's image under suit permutation k
    runout_matrices: np.ndarray  # (K, n, n_opponent) int16: see runouts.runout_matrices


class RootDeals(NamedTuple):
    """The root street's chance nodes and the jobs that walk their dealt subtrees (see :mod:`.passes`)."""

    chance_index: np.ndarray  # (n_nodes,) int64: a node's index among the root street's chance nodes, else -1
    chance_nodes: np.ndarray  # (n_chance,) int64
    jobs: np.ndarray  # (n_jobs, 2) int64: chance index, representative card; largest subtrees first
    job_of: np.ndarray  # (n_chance, 52) int64: the job of each representative card, -1 otherwise


class GameArrays(NamedTuple):
    """Everything the walk reads about a spot; it never changes during a solve."""

    tree: TreeArrays
    deals: DealArrays
    root_deals: RootDeals
    players: tuple[PlayerArrays, PlayerArrays]  # OOP, IP


class SolverState(NamedTuple):
    """What DCFR learns: per player (OOP, IP) an array of cumulative regrets and one of strategy
    sums, laid out as in the module docstring; compressed, also each block's scales."""

    regrets: tuple[np.ndarray, np.ndarray]  # float32, or int16 compressed
    strategy_sums: tuple[np.ndarray, np.ndarray]  # float32, or uint16 compressed
    regret_scales: tuple[np.ndarray, np.ndarray]  # float32 per block; compressed only (else one unused entry)
    sum_scales: tuple[np.ndarray, np.ndarray]  # float32 per block; compressed only (else one unused entry)


def outcome_slots(board: tuple[int, ...], iso_card: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Storage slot of each chance outcome the walk visits: ``slot[d1 + 1, d2 + 1]`` for the
    dealt cards ``d1``, ``d2`` (-1: not dealt), -1 for suit-isomorphic outcomes never walked;
    and the number of slots per number of dealt cards (0, 1, 2)."""
    slot = np.full((53, 53), -1, np.int64)
    slot[0, 0] = 0
    counts = [1, 0, 0]
    deck = [c for c in range(52) if c not in board]
    for d1 in deck if len(board) < 5 else []:
        if iso_card[0, d1] != d1:
            continue
        slot[d1 + 1, 0] = counts[1]
        counts[1] += 1
        for d2 in deck if len(board) < 4 else []:
            if d2 != d1 and iso_card[d1 + 1, d2] == d2:
                slot[d1 + 1, d2 + 1] = counts[2]
                counts[2] += 1
    return slot, counts


def table_bytes(game: GameArrays) -> int:
    """Bytes of the showdown tables and run-out matrices."""
    return sum(p.showdown_tables.nbytes + p.showdown_n_valid.nbytes + p.runout_matrices.nbytes for p in game.players)


def plain_tuples(value):
    """``value`` with every (named) tuple in it made a plain tuple."""
    return tuple(plain_tuples(v) for v in value) if isinstance(value, tuple) else value


@njit(cache=True)
def named_game(plain):
    """The :class:`GameArrays` of ``plain_tuples(game)``; free in compiled code."""
    tree, deals, deals_at_root, (oop, ip) = plain
    return GameArrays(TreeArrays(*tree), DealArrays(*deals), RootDeals(*deals_at_root),
                      (PlayerArrays(*oop), PlayerArrays(*ip)))
