"""Showdown values against a weighted range in O(n) per board, with exact card removal.

For one complete 5-card board, every hand of both players gets its strength once (from
:func:`pokerlab.evaluator.rank_of_packed`, stored as a rank shared by both players) and the
hands that do not collide with the board are sorted by it (:func:`board_tables`, once per
solve). A sweep up the sorted lists
gives, for each hand ``h``, the opponent weight it beats, and a sweep down the weight it loses
to; the weight held by opponent combos sharing a card with ``h`` is taken out per card instead
of looping over pairs.

Board numbering (``board_index``): the boards reachable from a root of ``k`` cards are the
root plus ``5 - k`` dealt cards. ``board_index[d1 + 1, d2 + 1]`` is the board with dealt
cards ``d1`` (first dealt, ``-1`` if none) and ``d2`` (second, ``-1`` if none); for a flop
root both orders of the two dealt cards give the same board.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from pokerlab.evaluator import CARD_BITS, rank_of_packed


@njit(cache=True, fastmath=True)
def _strengths(boards, hand_cards, card_bits):
    """(n_boards, n_hands) int32 strengths; -1 where a hand shares a card with the board."""
    n_boards, n_hands = boards.shape[0], hand_cards.shape[0]
    out = np.empty((n_boards, n_hands), dtype=np.int32)
    for b in range(n_boards):
        board = np.int64(0)
        for j in range(boards.shape[1]):
            board |= card_bits[boards[b, j]]
        for h in range(n_hands):
            hand = card_bits[hand_cards[h, 0]] | card_bits[hand_cards[h, 1]]
            out[b, h] = -1 if board & hand else rank_of_packed(board | hand)
    return out


def river_boards(board: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """All 5-card boards reachable from ``board`` and the (53, 53) ``board_index`` table."""
    deck = [c for c in range(52) if c not in board]
    index = np.full((53, 53), -1, dtype=np.int32)
    boards = []
    extra = 5 - len(board)
    for dealt in itertools.combinations(deck, extra):
        b = len(boards)
        boards.append(tuple(board) + dealt)
        if extra == 0:
            index[0, 0] = b
        elif extra == 1:
            index[dealt[0] + 1, 0] = b
        else:
            index[dealt[0] + 1, dealt[1] + 1] = b
            index[dealt[1] + 1, dealt[0] + 1] = b
    return np.array(boards, dtype=np.int64).reshape(len(boards), 5), index


def board_tables(boards: np.ndarray, cards: tuple[np.ndarray, ...]) -> tuple[tuple[np.ndarray, np.ndarray], ...]:
    """Per board, each player's hands that do not collide with it, sorted by strength.

    ``cards[p]`` is player ``p``'s (n_p, 2) hand cards. Returns per player ``tables`` of shape
    (n_boards, 4, n_p) uint16 whose rows are hand index, strength rank, first card and second
    card, in ascending strength over the first ``n_valid[b]`` columns (the rest is padding),
    and ``n_valid`` (n_boards,) int32. The strength rank numbers the distinct strengths of all
    players' hands on the board from 0, so the players' tables compare with each other. 16 bits
    halve the tables, which the sweeps read from memory once per showdown; unsigned, because
    Numba checks every array read through a signed index for a negative (wrapped) one.
    """
    boards = np.ascontiguousarray(boards, np.int64)
    strengths = [_strengths(boards, np.ascontiguousarray(c, np.int64), CARD_BITS) for c in cards]
    joint = np.concatenate(strengths, axis=1)  # -1 where a hand collides with the board
    order = np.argsort(joint, axis=1, kind="stable")
    ordered = np.take_along_axis(joint, order, axis=1)
    ranks = np.empty_like(ordered)
    np.put_along_axis(ranks, order, np.cumsum(np.diff(ordered, axis=1, prepend=ordered[:, :1]) > 0, axis=1), axis=1)
    out, start = [], 0
    for hand_cards, strength in zip(cards, strengths):
        rank = ranks[:, start:start + strength.shape[1]]
        start += strength.shape[1]
        order = np.argsort(strength, axis=1, kind="stable")
        n_valid = (strength >= 0).sum(axis=1).astype(np.int32)
        tables = np.zeros((boards.shape[0], 4, hand_cards.shape[0]), dtype=np.uint16)
        for b in range(boards.shape[0]):
            valid = order[b, strength.shape[1] - n_valid[b]:]  # invalid (-1) sort first
            k = valid.size
            tables[b, 0, :k] = valid
            tables[b, 1, :k] = rank[b, valid]
            tables[b, 2, :k] = hand_cards[valid, 0]
            tables[b, 3, :k] = hand_cards[valid, 1]
        out.append((tables, n_valid))
    return tuple(out)


@njit(cache=True, fastmath=True)
def showdown_accumulate(tab_t, nv_t, tab_o, nv_o, opp_reach, same_t, coef_compat, coef_diff, weight, out, card_acc):
    """``out[h] += weight * (coef_compat * m(h) + coef_diff * (win(h) - lose(h)))``.

    ``tab_t``/``tab_o`` are one board's :func:`board_tables` entries of the traverser and the
    opponent (``nv_t``/``nv_o`` valid columns). For each valid hand ``h`` of the traverser:
    ``m`` is the opponent weight compatible with ``h`` (no shared card, valid on the board),
    ``win`` the part of it ``h`` beats and ``lose`` the part it loses to. With
    ``coef_compat = 0`` and ``coef_diff = F/2`` this is the value of a showdown for a final pot
    ``F`` net of half the pot (the solver's training values); ``coef_compat = P/2,
    coef_diff = F/2`` gives the share of the pot for a starting pot ``P``, and ``1/2, 1/2``
    the equity share. The ``m`` term is one pass over both lists; ``win - lose`` two sweeps
    over the sorted hands, up for the weight strictly below, down for the weight strictly
    above, each taking out per card the weight of the opponent combos that share it.
    ``card_acc`` is a (52,) float64 scratch array.
    """
    if coef_compat != 0.0:
        card_acc[:] = 0.0
        total = 0.0
        for j in range(nv_o):
            r = opp_reach[tab_o[0, j]]
            total += r
            card_acc[tab_o[2, j]] += r
            card_acc[tab_o[3, j]] += r
        c = weight * coef_compat
        for i in range(nv_t):
            h = tab_t[0, i]
            m = total - card_acc[tab_t[2, i]] - card_acc[tab_t[3, i]]
            if same_t[h] >= 0:
                m += opp_reach[same_t[h]]
            out[h] += c * m
    if coef_diff == 0.0:
        return
    c = weight * coef_diff
    # upward: opponent weight strictly below each hand
    card_acc[:] = 0.0
    below = 0.0
    j = 0
    for i in range(nv_t):
        s = tab_t[1, i]
        while j < nv_o and tab_o[1, j] < s:
            r = opp_reach[tab_o[0, j]]
            below += r
            card_acc[tab_o[2, j]] += r
            card_acc[tab_o[3, j]] += r
            j += 1
        out[tab_t[0, i]] += c * (below - card_acc[tab_t[2, i]] - card_acc[tab_t[3, i]])
    # downward: opponent weight strictly above
    card_acc[:] = 0.0
    above = 0.0
    j = nv_o - 1
    for i in range(nv_t - 1, -1, -1):
        s = tab_t[1, i]
        while j >= 0 and tab_o[1, j] > s:
            r = opp_reach[tab_o[0, j]]
            above += r
            card_acc[tab_o[2, j]] += r
            card_acc[tab_o[3, j]] += r
            j -= 1
        out[tab_t[0, i]] -= c * (above - card_acc[tab_t[2, i]] - card_acc[tab_t[3, i]])


@njit(cache=True, fastmath=True)
def reach_by_card(opp_reach, cards_o, card_acc):
    """The opponent's total reach; ``card_acc[c]`` (a (52,) float64 array) set to the reach of
    its combos holding card ``c``."""
    card_acc[:] = 0.0
    total = 0.0
    for o in range(opp_reach.size):
        r = opp_reach[o]
        total += r
        card_acc[cards_o[o, 0]] += r
        card_acc[cards_o[o, 1]] += r
    return total


@njit(cache=True, fastmath=True)
def compatible_mass(opp_reach, cards_t, cards_o, same_t, out, card_acc, scale=1.0):
    """``out[h]`` = ``scale`` times the opponent weight sharing no card with hand ``h`` (dead
    combos carry 0 weight); ``card_acc`` is a (52,) float64 scratch array."""
    total = reach_by_card(opp_reach, cards_o, card_acc)
    for h in range(cards_t.shape[0]):
        m = total - card_acc[cards_t[h, 0]] - card_acc[cards_t[h, 1]]
        if same_t[h] >= 0:
            m += opp_reach[same_t[h]]
        out[h] = m * scale
