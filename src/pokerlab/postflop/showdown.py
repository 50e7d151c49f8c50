"""Showdown values against a weighted range in O(n) per board, with exact card removal.

For one complete 5-card board, every hand of both players gets its strength once (from
:func:`pokerlab.evaluator.rank_from_suit_masks`) and the hands are sorted by it. A sweep up
the sorted lists gives, for each hand ``h``, the opponent weight it beats, and a sweep down
the weight it loses to; the weight held by opponent combos sharing a card with ``h`` is taken
out per card (``mass_with_card[c]``) instead of looping over pairs. Combos that collide with
the board have strength ``-1`` and are skipped on both sides.

Board numbering (``board_index``): the boards reachable from a root of ``k`` cards are the
root plus ``5 - k`` dealt cards. ``board_index[d1 + 1, d2 + 1]`` is the board with dealt
cards ``d1`` (first dealt, ``-1`` if none) and ``d2`` (second, ``-1`` if none); for a flop
root both orders of the two dealt cards give the same board.
"""

from __future__ import annotations

import itertools

import numpy as np
from numba import njit

from pokerlab.evaluator import HIGHBIT, POPCOUNT, STRAIGHT_HIGH, rank_from_suit_masks


@njit(cache=True)
def _strengths(boards, hand_cards, popcount, highbit, straight_high):
    """(n_boards, n_hands) int32 strengths; -1 where a hand shares a card with the board."""
    n_boards, n_hands = boards.shape[0], hand_cards.shape[0]
    out = np.empty((n_boards, n_hands), dtype=np.int32)
    for b in range(n_boards):
        masks = np.zeros(4, dtype=np.int64)
        used = 0
        for j in range(boards.shape[1]):
            c = boards[b, j]
            masks[c & 3] |= 1 << (c >> 2)
            used |= 1 << c
        for h in range(n_hands):
            c1, c2 = hand_cards[h, 0], hand_cards[h, 1]
            if (used >> c1) & 1 or (used >> c2) & 1:
                out[b, h] = -1
                continue
            m = masks.copy()
            m[c1 & 3] |= 1 << (c1 >> 2)
            m[c2 & 3] |= 1 << (c2 >> 2)
            out[b, h] = rank_from_suit_masks(m[0], m[1], m[2], m[3], popcount, highbit, straight_high)
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


def board_strengths(boards: np.ndarray, hand_cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per board: hand strengths (-1 = collides with the board) and the ascending sort order."""
    strength = _strengths(np.ascontiguousarray(boards, np.int64), np.ascontiguousarray(hand_cards, np.int64),
                          POPCOUNT, HIGHBIT, STRAIGHT_HIGH)
    order = np.argsort(strength, axis=1, kind="stable").astype(np.int32)
    return strength, order


@njit(cache=True)
def showdown_accumulate(str_t, ord_t, str_o, ord_o, opp_reach, cards_t, cards_o, same_t,
                        coef_compat, coef_diff, weight, out):
    """``out[h] += weight * (coef_compat * m(h) + coef_diff * (win(h) - lose(h)))``.

    For each valid hand ``h`` of the traverser: ``m`` is the opponent weight compatible with
    ``h`` (no shared card, valid on the board), ``win`` the part of it ``h`` beats and ``lose``
    the part it loses to. With ``coef_compat = P/2`` and ``coef_diff = F/2`` this is the value
    of a showdown for a final pot ``F`` and starting pot ``P`` (win ``P + b``, lose ``-b``,
    tie ``P/2`` for ``b`` put in since the root); with ``1/2, 1/2`` it is the equity share.
    """
    n_t, n_o = str_t.size, str_o.size
    mass_with_card = np.zeros(52)
    total = 0.0
    for o in range(n_o):
        if str_o[o] >= 0:
            r = opp_reach[o]
            total += r
            mass_with_card[cards_o[o, 0]] += r
            mass_with_card[cards_o[o, 1]] += r
    diff = np.zeros(n_t)
    if coef_diff != 0.0:
        # upward sweep: opponent weight strictly below each hand
        below_card = np.zeros(52)
        below = 0.0
        j = 0
        for i in range(n_t):
            h = ord_t[i]
            s = str_t[h]
            if s < 0:
                continue
            while j < n_o and str_o[ord_o[j]] < s:
                o = ord_o[j]
                if str_o[o] >= 0:
                    r = opp_reach[o]
                    below += r
                    below_card[cards_o[o, 0]] += r
                    below_card[cards_o[o, 1]] += r
                j += 1
            diff[h] = below - below_card[cards_t[h, 0]] - below_card[cards_t[h, 1]]
        # downward sweep: opponent weight strictly above each hand
        above_card = np.zeros(52)
        above = 0.0
        j = n_o - 1
        for i in range(n_t - 1, -1, -1):
            h = ord_t[i]
            s = str_t[h]
            if s < 0:
                break
            while j >= 0 and str_o[ord_o[j]] > s:
                o = ord_o[j]
                r = opp_reach[o]
                above += r
                above_card[cards_o[o, 0]] += r
                above_card[cards_o[o, 1]] += r
                j -= 1
            diff[h] -= above - above_card[cards_t[h, 0]] - above_card[cards_t[h, 1]]
    for h in range(n_t):
        if str_t[h] < 0:
            continue
        m = total - mass_with_card[cards_t[h, 0]] - mass_with_card[cards_t[h, 1]]
        if same_t[h] >= 0:
            m += opp_reach[same_t[h]]
        out[h] += weight * (coef_compat * m + coef_diff * diff[h])


@njit(cache=True)
def compatible_mass(opp_reach, cards_t, cards_o, same_t, out):
    """``out[h]`` = opponent weight sharing no card with hand ``h`` (dead combos carry 0 weight)."""
    mass_with_card = np.zeros(52)
    total = 0.0
    for o in range(opp_reach.size):
        r = opp_reach[o]
        total += r
        mass_with_card[cards_o[o, 0]] += r
        mass_with_card[cards_o[o, 1]] += r
    for h in range(cards_t.shape[0]):
        m = total - mass_with_card[cards_t[h, 0]] - mass_with_card[cards_t[h, 1]]
        if same_t[h] >= 0:
            m += opp_reach[same_t[h]]
        out[h] = m
