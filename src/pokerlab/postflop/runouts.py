"""Showdowns before the river: run-out matrices, and the showdown dispatch by board length."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.postflop.showdown import showdown_accumulate
from pokerlab.postflop.threads import PRANGE_ONLY
from pokerlab.postflop.tree import SHOWDOWN, PublicTree


@njit(cache=True, fastmath=True)
def _showdown(trav, blen, d1, d2, coef_compat, coef_diff, opp_reach, out, card_acc, G):
    """Add the showdown sums of ``showdown_accumulate`` over every run-out of the current board.

    Run-outs are equally likely for a fixed pair of hands: 1/44 for one card to come, 1/990
    for an unordered pair of cards among the 45 unseen. Before the river the sums come from
    the board's run-out matrix (see :func:`_runout_matrices`) and the compatible weight, which
    every run-out of a compatible pair adds up to; hands holding a dealt card get values the
    walk never reads.
    """
    root_mask, same, tables, n_valid, board_index = G[7], G[11], G[12], G[13], G[14]
    runout_ix, runout = G[22], G[23]
    same_t = same[trav]
    tab_t, tab_o, nv_t, nv_o = tables[trav], tables[1 - trav], n_valid[trav], n_valid[1 - trav]
    if blen == 5:
        b = board_index[d1 + 1, d2 + 1]
        showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                            coef_compat, coef_diff, 1.0, out, card_acc)
    elif runout_ix[d1 + 1] >= 0:
        if coef_compat != 0.0:
            cards = G[10]
            cards_t, cards_o = cards[trav], cards[1 - trav]
            card_acc[:] = 0.0
            total = 0.0
            for o in range(opp_reach.size):
                r = opp_reach[o]
                total += r
                card_acc[cards_o[o, 0]] += r
                card_acc[cards_o[o, 1]] += r
            for h in range(cards_t.shape[0]):
                m = total - card_acc[cards_t[h, 0]] - card_acc[cards_t[h, 1]]
                if same_t[h] >= 0:
                    m += opp_reach[same_t[h]]
                out[h] += coef_compat * m
        if coef_diff != 0.0:
            matrix = runout[trav][runout_ix[d1 + 1]]
            for h in range(matrix.shape[0]):
                acc = 0.0
                for o in range(matrix.shape[1]):
                    acc += matrix[h, o] * opp_reach[o]
                out[h] += coef_diff * acc
    elif blen == 4:
        for c in range(52):
            if root_mask[c] or c == d1:
                continue
            b = board_index[c + 1, 0] if d1 < 0 else board_index[d1 + 1, c + 1]
            showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                                coef_compat, coef_diff, 1.0 / 44.0, out, card_acc)
    else:
        for c1 in range(52):
            if root_mask[c1]:
                continue
            for c2 in range(c1 + 1, 52):
                if not root_mask[c2]:
                    b = board_index[c1 + 1, c2 + 1]
                    showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                                        coef_compat, coef_diff, 1.0 / 990.0, out, card_acc)



@njit(cache=True, fastmath=True, parallel=PRANGE_ONLY)
def _runout_matrices(tab_0, nv_0, tab_1, nv_1, cards_0, cards_1, board_index, root_mask, prefixes, root_len):
    """(K, n_0, n_1) float64: for each prefix ``d1`` in ``prefixes`` (-1: the root board, else
    the root board plus card ``d1``), the sum over the board's run-outs to the river, each with
    its probability, of +1 where OOP's hand beats IP's, -1 where it loses, 0 for a tie or a
    pair of hands sharing a card or colliding with the run-out. A showdown before the river is
    then one product with the opponent's reach instead of a sweep per run-out (44 for one card
    to come, 990 for two). IP's matrices are the negated transposes."""
    n_0, n_1 = cards_0.shape[0], cards_1.shape[0]
    out = np.zeros((prefixes.size, n_0, n_1))
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
                        mat[h, o] += 1.0 if rank_0[h] > rank_1[o] else -1.0
        # counts of won minus lost run-outs, divided once: an always-won pair gets exactly 1
        runouts = 44.0 if root_len + (d1 >= 0) == 4 else 990.0
        for h in range(n_0):
            for o in range(n_1):
                mat[h, o] /= runouts
    return out


@njit(cache=True, fastmath=True)
def _root_equity(G, weights, trav):
    """Checked-down equity share of each hand times its compatible opponent weight."""
    out = np.zeros(weights[trav].size)
    _showdown(trav, G[2][0], -1, -1, 0.5, 0.5, weights[1 - trav], out, np.empty(52), G)
    return out



def _runouts(tree: PublicTree, board: tuple[int, ...], iso_card: np.ndarray, tables, cards, board_index,
             root_mask) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Run-out matrices (see :func:`_runout_matrices`) of the boards a showdown before the river
    is evaluated on: the root board (for the read-out's equities too) and, under a flop root
    whose tree has all-ins on the turn, the root plus each representative turn card. Returns
    ``runout_ix`` ((53,): matrix of prefix ``d1`` at ``d1 + 1``, -1 for none) and the matrices
    per player (traverser's hands x opponent's)."""
    runout_ix = np.full(53, -1, np.int64)
    prefixes = []
    if len(board) < 5:
        prefixes.append(-1)
        turn_allins = np.any((tree.kind == SHOWDOWN) & (tree.board_len == 4))
        if len(board) == 3 and turn_allins:
            prefixes += [c for c in range(52) if c not in board and iso_card[0, c] == c]
    runout_ix[np.array(prefixes, np.int64) + 1] = np.arange(len(prefixes))
    (tab_0, nv_0), (tab_1, nv_1) = tables
    oop = _runout_matrices(tab_0, nv_0, tab_1, nv_1, cards[0], cards[1], board_index.astype(np.int64), root_mask,
                           np.array(prefixes, np.int64), len(board))
    return runout_ix, (oop, np.ascontiguousarray(-oop.transpose(0, 2, 1)))
