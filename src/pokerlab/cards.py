"""Cards, combos and the 169 preflop classes: the one place pokerlab's conventions live.

Card index
    ``card = 4 * rank + suit`` with ``rank`` 0..12 for ``2``..``A`` and ``suit`` 0..3 for
    ``c d h s``. So a larger index is a higher rank, and within a rank ``s > h > d > c``.

Combo
    One of the 1,326 two-card hands, numbered in ``itertools.combinations(range(52), 2)``
    order (``COMBO_CARDS[i] = (low, high)`` with ``low < high``). Its id writes the higher
    card first, which with the card order above gives ``AhAd``, ``KsQs``, ``AhKc``.

Class
    One of the 169 preflop classes (``AA``, ``AKs``, ``AKo``, ...), numbered row-major on the
    13x13 grid whose rows and columns run ``A`` to ``2``: ``row < col`` suited, ``row > col``
    offsuit, ``row == col`` a pair. ``CLASS_WEIGHTS`` counts combos: 6 for a pair, 4 suited,
    12 offsuit; they sum to 1,326.
"""

from __future__ import annotations

import itertools
from typing import Iterable

import numpy as np

RANKS = "23456789TJQKA"  # rank index 0..12
SUITS = "cdhs"  # suit index 0..3
GRID_RANKS = RANKS[::-1]  # grid rows/cols run A..2
N_CARDS = 52
N_COMBOS = 1326
N_CLASSES = 169


def card_index(rank: int, suit: int) -> int:
    """Card index of rank 0..12 (2..A) and suit 0..3 (c d h s)."""
    return 4 * rank + suit


def parse_card(token: str) -> int:
    """Parse a card such as ``As`` or ``td`` into its index; raise ``ValueError`` naming it."""
    if not isinstance(token, str) or len(token) != 2:
        raise ValueError(f"bad card {token!r}: expected a rank from {RANKS} and a suit from {SUITS}, e.g. 'As'")
    rank = RANKS.find(token[0].upper())
    suit = SUITS.find(token[1].lower())
    if rank < 0:
        raise ValueError(f"bad card {token!r}: unknown rank {token[0]!r} (expected one of {RANKS})")
    if suit < 0:
        raise ValueError(f"bad card {token!r}: unknown suit {token[1]!r} (expected one of {SUITS})")
    return card_index(rank, suit)


def card_str(card: int) -> str:
    """The two-character name of a card index (``51 -> 'As'``)."""
    if not 0 <= int(card) < N_CARDS:
        raise ValueError(f"bad card index {card!r}: expected 0..51")
    return RANKS[card >> 2] + SUITS[card & 3]


def parse_cards(text: str) -> list[int]:
    """Parse concatenated or space/comma separated cards (``'QsJh2h'``, ``'Qs Jh 2h'``).

    Raises ``ValueError`` for a bad token or a card given twice.
    """
    if not isinstance(text, str):
        raise ValueError(f"bad cards {text!r}: expected text such as 'QsJh2h'")
    compact = "".join(ch for ch in text if not ch.isspace() and ch != ",")
    if len(compact) % 2:
        raise ValueError(f"bad cards {text!r}: expected pairs of rank and suit characters")
    cards = [parse_card(compact[i : i + 2]) for i in range(0, len(compact), 2)]
    seen: set[int] = set()
    for card in cards:
        if card in seen:
            raise ValueError(f"bad cards {text!r}: card {card_str(card)!r} appears twice")
        seen.add(card)
    return cards


# --- combos -------------------------------------------------------------------------------

COMBO_CARDS = np.array(list(itertools.combinations(range(N_CARDS), 2)), dtype=np.int8)
"""(1326, 2) array of (low card, high card) in ``itertools.combinations`` order."""

_COMBO_INDEX = np.full((N_CARDS, N_CARDS), -1, dtype=np.int16)
for _i, (_a, _b) in enumerate(COMBO_CARDS):
    _COMBO_INDEX[_a, _b] = _i
    _COMBO_INDEX[_b, _a] = _i
COMBO_INDEX = _COMBO_INDEX
"""(52, 52) array: combo index of two distinct cards (either order), -1 on the diagonal."""

COMBO_IDS: tuple[str, ...] = tuple(card_str(int(b)) + card_str(int(a)) for a, b in COMBO_CARDS)
_COMBO_ID_INDEX = {cid: i for i, cid in enumerate(COMBO_IDS)}


def combo_id(combo: int) -> str:
    """Canonical id of combo index ``combo`` (higher card first): ``AhAd``, ``KsQs``."""
    return COMBO_IDS[combo]


def parse_combo(token: str) -> int:
    """Combo index of a two-card string in either card order (``'AhKc'`` or ``'KcAh'``)."""
    if not isinstance(token, str) or len(token) != 4:
        raise ValueError(f"bad combo {token!r}: expected two cards such as 'AhKc'")
    a, b = parse_card(token[:2]), parse_card(token[2:])
    if a == b:
        raise ValueError(f"bad combo {token!r}: the same card twice")
    return int(COMBO_INDEX[a, b])


def combos_blocked_by(cards: Iterable[int]) -> np.ndarray:
    """Boolean mask over the 1,326 combos: True where the combo uses any of ``cards``."""
    cards = np.asarray(list(cards), dtype=np.int64)
    if cards.size == 0:
        return np.zeros(N_COMBOS, dtype=bool)
    return np.isin(COMBO_CARDS[:, 0], cards) | np.isin(COMBO_CARDS[:, 1], cards)


# --- the 169 classes ----------------------------------------------------------------------


def _class_name(row: int, col: int) -> str:
    hi, lo = GRID_RANKS[min(row, col)], GRID_RANKS[max(row, col)]
    if row == col:
        return hi + lo
    return hi + lo + ("s" if row < col else "o")


CLASS_NAMES: tuple[str, ...] = tuple(_class_name(r, c) for r in range(13) for c in range(13))
"""The 169 class names in grid row-major order (index = 13*row + col)."""

CLASS_INDEX: dict[str, int] = {name: i for i, name in enumerate(CLASS_NAMES)}
CLASS_ROW = np.arange(N_CLASSES) // 13
CLASS_COL = np.arange(N_CLASSES) % 13
CLASS_WEIGHTS = np.where(CLASS_ROW == CLASS_COL, 6, np.where(CLASS_ROW < CLASS_COL, 4, 12)).astype(np.int64)
"""Combos per class: 6 pair, 4 suited, 12 offsuit (sums to 1,326)."""
CLASS_PRIOR = CLASS_WEIGHTS / N_COMBOS
"""Probability that a random deal is in each class."""


def _combo_class(low: int, high: int) -> int:
    r_hi, r_lo = 12 - (high >> 2), 12 - (low >> 2)  # grid rows run A..2
    if r_hi == r_lo:
        return 13 * r_hi + r_hi
    if (high & 3) == (low & 3):
        return 13 * r_hi + r_lo  # suited: row < col
    return 13 * r_lo + r_hi  # offsuit: row > col


COMBO_CLASS = np.array([_combo_class(int(a), int(b)) for a, b in COMBO_CARDS], dtype=np.int16)
"""(1326,) class index of each combo."""

CLASS_COMBOS: tuple[np.ndarray, ...] = tuple(np.flatnonzero(COMBO_CLASS == k) for k in range(N_CLASSES))
"""For each class, the indices of its combos (ascending)."""


def parse_class(token: str) -> int:
    """Class index of a class name (``'AKs'``, ``'t9o'``, ``'22'``); raise ``ValueError`` naming it."""
    if not isinstance(token, str):
        raise ValueError(f"bad class {token!r}: expected a name such as 'AKs', 'QQ' or 'T9o'")
    text = token.strip()
    if len(text) not in (2, 3):
        raise ValueError(f"bad class {token!r}: expected a name such as 'AKs', 'QQ' or 'T9o'")
    r1, r2 = RANKS.find(text[0].upper()), RANKS.find(text[1].upper())
    for ch, r in ((text[0], r1), (text[1], r2)):
        if r < 0:
            raise ValueError(f"bad class {token!r}: unknown rank {ch!r} (expected one of {RANKS})")
    hi, lo = max(r1, r2), min(r1, r2)
    if hi == lo:
        if len(text) == 3:
            raise ValueError(f"bad class {token!r}: a pair takes no 's' or 'o' suffix")
        return CLASS_INDEX[RANKS[hi] * 2]
    if len(text) == 2 or text[2].lower() not in "so":
        raise ValueError(f"bad class {token!r}: a non-pair needs the suffix 's' (suited) or 'o' (offsuit)")
    return CLASS_INDEX[RANKS[hi] + RANKS[lo] + text[2].lower()]


def is_class_name(token: str) -> bool:
    """Whether ``token`` names a preflop class (:func:`parse_class` accepts it)."""
    try:
        parse_class(token)
    except ValueError:
        return False
    return True


def class_name(index: int) -> str:
    """Name of class ``index`` (0..168)."""
    return CLASS_NAMES[index]


def class_combo_ids(name: str) -> list[str]:
    """The combo ids of a class, e.g. the six of ``'AA'``."""
    return [COMBO_IDS[i] for i in CLASS_COMBOS[parse_class(name)]]
