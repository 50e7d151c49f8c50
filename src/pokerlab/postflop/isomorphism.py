"""Suit isomorphism: a chance node deals one card per class of suit-symmetric cards.

When a suit permutation maps the board and both ranges onto themselves, the game after card
``c`` is the game after its image with the hands permuted: a chance node walks one card per
class and gives the others the representative's values, the hands permuted (a two-tone flop
deals 36 turns instead of 49). The results are those of the full walk, up to the rounding of
sums taken in another order; ``PostflopSolver(isomorphism=False)`` switches it off.
"""

from __future__ import annotations

import itertools

import numpy as np

from pokerlab.cards import COMBO_CARDS, COMBO_INDEX


SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # (24, 4)


def suit_isomorphism(board: tuple[int, ...], hands: tuple[np.ndarray, ...], weights: tuple[np.ndarray, ...],
                     enabled: bool = True) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Tables that let a chance node deal one card per suit-isomorphism class.

    A suit permutation ``pi`` that maps the board onto itself and leaves both ranges' weights
    unchanged maps the game after card ``c`` onto the game after ``pi(c)``, hand ``h`` onto
    ``pi(h)``. For the board after the first dealt card ``d1`` (-1: none),
    ``iso_card[d1 + 1, c]`` is the smallest card ``c`` maps to (``c`` itself when it is its
    class's representative, or when ``enabled`` is False), ``iso_id[d1 + 1, c]`` a permutation
    doing it, and ``perm[p][k, h]`` the index of ``pi_k(h)`` in player ``p``'s hand list.
    Values after ``c`` are then ``values_after_iso_card[perm[p][iso_id, h]]``.
    """
    n_perm = SUIT_PERMUTATIONS.shape[0]
    cards = np.arange(52)
    mapped = 4 * (cards[None, :] >> 2) + SUIT_PERMUTATIONS[:, cards & 3]  # (24, 52): pi_k(card)
    perm = []
    symmetric = np.ones(n_perm, dtype=bool)
    for h, w in zip(hands, weights):
        position = np.full(1326, -1, np.int64)
        position[h] = np.arange(h.size)
        lo, hi = COMBO_CARDS[h, 0], COMBO_CARDS[h, 1]
        image = position[COMBO_INDEX[mapped[:, lo], mapped[:, hi]]]  # (24, n)
        perm.append(np.ascontiguousarray(image))
        symmetric &= np.all(image >= 0, axis=1)
        symmetric &= np.array([np.array_equal(w[image[k]], w) if symmetric[k] else False for k in range(n_perm)])
    iso_card = np.tile(cards, (53, 1))
    iso_id = np.zeros((53, 52), np.int64)  # permutation 0 is the identity
    if enabled:
        for first in range(-1, 52):
            if first in board:
                continue
            fixed = set(board) | ({first} if first >= 0 else set())
            keeps = [k for k in range(n_perm) if symmetric[k] and set(mapped[k, list(fixed)].tolist()) == fixed]
            if len(keeps) < 2:
                continue
            images = mapped[keeps]  # (valid, 52)
            best = images.argmin(axis=0)
            iso_card[first + 1] = images[best, cards]
            iso_id[first + 1] = np.asarray(keeps)[best]
    return iso_card, iso_id, (perm[0], perm[1])
