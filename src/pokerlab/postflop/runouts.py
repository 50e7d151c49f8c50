"""Showdowns on any street: the river's sorted sweep, or a run-out matrix before the river.

A showdown before the river (an all-in called on the flop or turn) runs the board out. For a
fixed pair of hands every run-out of the cards unseen by both is equally likely (1/44 for one
card to come, 1/990 for an unordered pair of cards). Instead of a sweep of
:func:`pokerlab.postflop.showdown.showdown_accumulate` per run-out (44 on the turn, 990 on the
flop), a showdown is one product of the opponent's reach with a run-out matrix built once per
solve (:func:`runout_matrices`): for each pair of hands, the count of won minus lost run-outs,
divided by the number of run-outs when it is used. The counts are int16 (at most 990 in size):
a quarter of float64 matrices, which a showdown reads from memory once per call.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.postflop.arrays import GameArrays, named_game
from pokerlab.postflop.showdown import reach_by_card, showdown_accumulate
from pokerlab.postflop.threads import PRANGE_ONLY
from pokerlab.postflop.tree import SHOWDOWN, PublicTree


# fastmath without "arcp": a count divided by the number of run-outs must stay exact (a pair of
# hands that always wins gets exactly 1), not multiplied by a rounded reciprocal
EXACT_DIVISION = {"nnan", "ninf", "nsz", "contract", "afn", "reassoc"}


@njit(cache=True, fastmath=EXACT_DIVISION)
def showdown_values(game, traverser, board_len, first_card, second_card, coef_compat, coef_diff, opp_reach, out,
                    card_acc):
    """Add to ``out`` the showdown sums of ``showdown_accumulate`` (same ``coef_compat``,
    ``coef_diff``) of a showdown reached with ``board_len`` board cards after the dealt cards
    ``first_card``, ``second_card`` (-1: not dealt), over every run-out of that board.

    Before the river the sums come from the board's run-out matrix and the compatible weight,
    which every run-out of a compatible pair adds up to; hands holding a dealt card get values
    the walk never reads.
    """
    own, opp = game.players[traverser], game.players[1 - traverser]
    own_cards, same_combo = own.cards, own.same_combo  # taken out once (see walk.walk)
    if board_len == 5:
        b = game.deals.board_index[first_card + 1, second_card + 1]
        showdown_accumulate(own.showdown_tables[b], own.showdown_n_valid[b], opp.showdown_tables[b],
                            opp.showdown_n_valid[b], opp_reach, same_combo, coef_compat, coef_diff, 1.0, out, card_acc)
    else:  # the run-out matrix of the board (see build_runouts: every board walked has one)
        matrix_showdown(own.runout_matrices[game.deals.runout_index[first_card + 1]], board_len, own_cards,
                        opp.cards, same_combo, coef_compat, coef_diff, opp_reach, out, card_acc)


@njit(cache=True, fastmath=EXACT_DIVISION)
def matrix_showdown(matrix, board_len, own_cards, opp_cards, same_combo, coef_compat, coef_diff, opp_reach, out,
                    card_acc):
    """:func:`showdown_values` before the river, from the board's run-out ``matrix`` (the traverser's
    hands x the opponent's, see :func:`runout_matrices`) and the compatible weight."""
    if coef_compat != 0.0:
        total = reach_by_card(opp_reach, opp_cards, card_acc)
        for h in range(own_cards.shape[0]):
            m = total - card_acc[own_cards[h, 0]] - card_acc[own_cards[h, 1]]
            if same_combo[h] >= 0:
                m += opp_reach[same_combo[h]]
            out[h] += coef_compat * m
    if coef_diff != 0.0:
        runouts = 44.0 if board_len == 4 else 990.0  # the matrix holds counts of run-outs
        for h in range(matrix.shape[0]):
            acc = 0.0
            for o in range(matrix.shape[1]):
                acc += matrix[h, o] * opp_reach[o]
            out[h] += coef_diff * (acc / runouts)


@njit(cache=True, fastmath=True)
def root_equity(plain_game, weights, traverser, root_matrix):
    """Checked-down equity share of each of ``traverser``'s hands times its compatible opponent
    weight (``plain_game``: see :func:`~pokerlab.postflop.arrays.plain_tuples`). ``root_matrix``: the
    traverser's run-out matrix of the root board (unused on a river root)."""
    game = named_game(plain_game)
    board_len = game.tree.board_len[0]
    out = np.zeros(weights[traverser].size)
    if board_len == 5:
        showdown_values(game, traverser, board_len, -1, -1, 0.5, 0.5, weights[1 - traverser], out, np.empty(52))
    else:
        own, opp = game.players[traverser], game.players[1 - traverser]
        matrix_showdown(root_matrix, board_len, own.cards, opp.cards, own.same_combo, 0.5, 0.5,
                        weights[1 - traverser], out, np.empty(52))
    return out


@njit(cache=True, fastmath=True, parallel=PRANGE_ONLY)
def runout_matrices(tab_0, nv_0, tab_1, nv_1, cards_0, cards_1, board_index, root_mask, prefixes, root_len):
    """(K, n_0, n_1) int16: for each prefix ``d1`` in ``prefixes`` (-1: the root board, else
    the root board plus card ``d1``), the sum over the board's run-outs to the river (44 with
    one card to come, 990 with two) of +1 where OOP's hand beats IP's, -1 where it loses, 0 for
    a tie or a pair of hands sharing a card or colliding with the run-out. ``tab_p``, ``nv_p`` are player
    ``p``'s showdown tables (see :func:`pokerlab.postflop.showdown.board_tables`), ``cards_p``
    its hands' cards. IP's matrices are the negated transposes."""
    n_0, n_1 = cards_0.shape[0], cards_1.shape[0]
    out = np.zeros((prefixes.size, n_0, n_1), np.int16)
    for k in prange(prefixes.size):
        d1 = prefixes[k]
        rank_0 = np.empty(n_0, np.int64)
        rank_1 = np.empty(n_1, np.int64)
        mat = out[k]
        for c1 in range(52):
            for c2 in range(c1 + 1, 53):
                # the run-out boards: one card c1 after the prefix's four cards, or two cards c1 < c2
                if root_len + (d1 >= 0) == 4:
                    if c2 != 52 or root_mask[c1] or c1 == d1:
                        continue
                    b = board_index[c1 + 1, 0] if d1 < 0 else board_index[d1 + 1, c1 + 1]
                else:
                    if c2 == 52 or root_mask[c1] or root_mask[c2]:
                        continue
                    b = board_index[c1 + 1, c2 + 1]
                rank_0[:] = -1
                rank_1[:] = -1
                for i in range(nv_0[b]):
                    rank_0[tab_0[b, 0, i]] = tab_0[b, 1, i]
                for i in range(nv_1[b]):
                    rank_1[tab_1[b, 0, i]] = tab_1[b, 1, i]
                for h in range(n_0):
                    if rank_0[h] < 0:
                        continue
                    a, z = cards_0[h, 0], cards_0[h, 1]
                    for o in range(n_1):
                        if rank_1[o] < 0 or rank_1[o] == rank_0[h]:
                            continue
                        if cards_1[o, 0] == a or cards_1[o, 0] == z or cards_1[o, 1] == a or cards_1[o, 1] == z:
                            continue
                        mat[h, o] += 1 if rank_0[h] > rank_1[o] else -1
    return out


def build_runouts(tree: PublicTree, board: tuple[int, ...], iso_card: np.ndarray, tables, cards, board_index,
                  root_mask) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Run-out matrices (see :func:`runout_matrices`) of the boards a showdown before the river
    is evaluated on: the root board when the tree has an all-in called on the root street, and,
    under a flop root whose tree has all-ins on the turn, the root plus each representative turn
    card. Returns ``runout_index`` ((53,): matrix of prefix ``d1`` at ``d1 + 1``, -1 for none)
    and the matrices per player (that player's hands x the opponent's)."""
    runout_index = np.full(53, -1, np.int64)
    prefixes = []
    if len(board) < 5:
        showdowns = tree.kind == SHOWDOWN
        if np.any(showdowns & (tree.board_len == len(board))):
            prefixes.append(-1)
        if len(board) == 3 and np.any(showdowns & (tree.board_len == 4)):
            prefixes += [c for c in range(52) if c not in board and iso_card[0, c] == c]
    runout_index[np.array(prefixes, np.int64) + 1] = np.arange(len(prefixes))
    return runout_index, _matrices(tables, cards, board_index, root_mask, prefixes, len(board))


def root_runouts(game: GameArrays) -> tuple[np.ndarray, np.ndarray]:
    """Each player's (n, n_opponent) run-out matrix of the root board of a flop or turn root: the
    game's own when its tree has one (an all-in on the root street), else built now. The read-out's
    equities need it; a tree without root-street all-ins does not train on it."""
    index = game.deals.runout_index[0]
    if index >= 0:
        return tuple(p.runout_matrices[index] for p in game.players)
    tables = tuple((p.showdown_tables, p.showdown_n_valid) for p in game.players)
    cards = tuple(p.cards for p in game.players)
    board_len = int(game.tree.board_len[0])
    return tuple(m[0] for m in _matrices(tables, cards, game.deals.board_index, game.deals.root_mask, [-1], board_len))


def _matrices(tables, cards, board_index, root_mask, prefixes, board_len) -> tuple[np.ndarray, np.ndarray]:
    (tab_0, nv_0), (tab_1, nv_1) = tables
    oop = runout_matrices(tab_0, nv_0, tab_1, nv_1, cards[0], cards[1], board_index.astype(np.int64), root_mask,
                          np.array(prefixes, np.int64), board_len)
    return oop, np.ascontiguousarray(-oop.transpose(0, 2, 1))
