"""Range notation: parse text into 1,326 combo weights, and print weights back as short text.

Grammar (comma-separated items, each optionally followed by ``:weight``)::

    AA  AKs  AKo  AK         one class; ``AK`` is both ``AKs`` and ``AKo``
    TT+  A2s+  KTo+  AT+      a pair and every higher pair; a kicker and every higher kicker
                              below the top card (``A2s+`` = ``A2s`` .. ``AQs``)
    22-66  A5s-A2s  A5-A2     an inclusive span of pairs, or of kickers under one top card
    AhKh                      one specific combo (either card order)
    random                    all 1,326 combos
    AA:0.5  TT+:0.25          the weight of every combo the item names (default 1)

Ranks are ``AKQJT98765432``, suits ``s h d c``, class suffixes ``s`` and ``o``, all in either
case. Weights are non-negative finite numbers. Items are applied left to
right and a later item **replaces** the weight of every combo it names, so
``random:0.1,AA`` is every combo at 0.1 except the six aces at 1. The empty string is the
empty range. A bad item raises ``ValueError`` naming the item and its 1-based character
position in the text, e.g. ``"A1s" at position 4: unknown rank '1'``.

The printer (:func:`format_range`) writes the shortest text in this grammar that names every
combo with its own weight once per weight (items of one weight may overlap; items of
different weights never do), so ``parse_range(format_range(w))`` returns exactly ``w``:
weights other than 1 are written with Python's shortest round-trip float repr.
"""

from __future__ import annotations

import math

import numpy as np

from pokerlab.cards import (
    CLASS_COMBOS,
    CLASS_INDEX,
    COMBO_CLASS,
    COMBO_IDS,
    N_CLASSES,
    N_COMBOS,
    RANKS,
    SUITS,
    parse_combo,
)

__all__ = ["parse_range", "format_range"]

_SUFFIXES = ("s", "o")


class _ItemError(ValueError):
    """A problem with one item; :func:`parse_range` adds the item and its position."""


def _rank(ch: str) -> int:
    r = RANKS.find(ch.upper()) if ch else -1
    if r < 0:
        raise _ItemError(f"unknown rank {ch!r} (expected one of {RANKS[::-1]})")
    return r


def _class_id(hi: int, lo: int, suffix: str) -> int:
    """Grid class index of ranks ``hi >= lo`` (0..12 = 2..A) with suffix '', 's' or 'o'."""
    if hi == lo:
        return CLASS_INDEX[RANKS[hi] * 2]
    return CLASS_INDEX[RANKS[hi] + RANKS[lo] + suffix]


def _classes_of(hi: int, lo: int, suffix: str) -> list[int]:
    """Classes named by ranks and suffix: '' on a non-pair means both suited and offsuit."""
    if hi == lo or suffix:
        return [_class_id(hi, lo, suffix)]
    return [_class_id(hi, lo, "s"), _class_id(hi, lo, "o")]


def _parse_class(body: str) -> tuple[int, int, str]:
    """(high rank, low rank, suffix) of ``AA``, ``AK``, ``AKs``, ``AKo`` (ranks in any order)."""
    if len(body) not in (2, 3):
        raise _ItemError("expected a class such as 'AA', 'AK', 'AKs' or 'AKo', or a combo such as 'AhKh'")
    r1, r2 = _rank(body[0]), _rank(body[1])
    suffix = body[2].lower() if len(body) == 3 else ""
    if suffix and suffix not in _SUFFIXES:
        raise _ItemError(f"unknown suffix {body[2]!r} (expected 's' for suited or 'o' for offsuit)")
    if r1 == r2 and suffix:
        raise _ItemError(f"a pair takes no suffix, got {suffix!r}")
    return max(r1, r2), min(r1, r2), suffix


def _item_combos(body: str) -> np.ndarray:
    """Combo indices named by one item (without its weight)."""
    if body.lower() == "random":
        return np.arange(N_COMBOS)
    if "-" in body:
        left, _, right = body.partition("-")
        (h1, l1, s1), (h2, l2, s2) = _parse_class(left), _parse_class(right)
        if (h1 == l1) != (h2 == l2):
            raise _ItemError("a span joins two pairs ('22-66') or two hands with one top card ('A5s-A2s')")
        if h1 == l1:
            classes = [_class_id(r, r, "") for r in range(min(h1, h2), max(h1, h2) + 1)]
        else:
            if h1 != h2 or s1 != s2:
                raise _ItemError(f"both ends of a span need the same top card and suffix, got {left!r} and {right!r}")
            classes = [c for lo in range(min(l1, l2), max(l1, l2) + 1) for c in _classes_of(h1, lo, s1)]
    elif body.endswith("+"):
        hi, lo, suffix = _parse_class(body[:-1])
        if hi == lo:
            classes = [_class_id(r, r, "") for r in range(hi, 13)]
        else:
            classes = [c for k in range(lo, hi) for c in _classes_of(hi, k, suffix)]
    elif len(body) == 4:
        for ch in (body[0], body[2]):
            _rank(ch)
        for ch in (body[1], body[3]):
            if ch.lower() not in SUITS:
                raise _ItemError(f"unknown suit {ch!r} (expected one of {SUITS[::-1]})")
        try:
            return np.array([parse_combo(body)])
        except ValueError as exc:  # the same card twice
            raise _ItemError(str(exc)) from None
    else:
        classes = _classes_of(*_parse_class(body))
    return np.concatenate([CLASS_COMBOS[c] for c in classes])


def _parse_weight(text: str) -> float:
    try:
        weight = float(text)
    except ValueError:
        raise _ItemError(f"weight {text!r} is not a number") from None
    if not math.isfinite(weight) or weight < 0:
        raise _ItemError(f"weight {text!r} must be a finite number >= 0")
    return weight


def parse_range(text: str) -> np.ndarray:
    """Combo weights (float64, length 1,326, ``itertools.combinations`` order) of range text."""
    if not isinstance(text, str):
        raise ValueError(f"range notation must be a string, got {type(text).__name__}")
    weights = np.zeros(N_COMBOS)
    if not text.strip():
        return weights
    start = 0
    for raw in text.split(","):
        item = raw.strip()
        position = start + (len(raw) - len(raw.lstrip())) + 1  # 1-based column of the item
        start += len(raw) + 1
        try:
            if not item:
                raise _ItemError("empty item (two commas in a row, or a comma at an end)")
            body, colon, weight_text = item.partition(":")
            body = body.strip()
            weight = _parse_weight(weight_text.strip()) if colon else 1.0
            if not body:
                raise _ItemError("a weight needs a hand before it, as in 'AA:0.5'")
            weights[_item_combos(body)] = weight
        except _ItemError as exc:
            shown = item if item.isprintable() else item.encode("unicode_escape").decode("ascii")  # one line
            raise ValueError(f'"{shown}" at position {position}: {exc}') from None
    return weights


# --- printing -------------------------------------------------------------------------------


def _weight_suffix(weight: float) -> str:
    return "" if weight == 1.0 else ":" + repr(float(weight))


def _pair_items(class_weight: np.ndarray, live: np.ndarray) -> list[tuple[int, str, float]]:
    """Items for the pairs: maximal runs of equal weight, ``TT+`` when a run reaches aces."""
    items = []
    r = 12
    while r >= 0:
        k = _class_id(r, r, "")
        if not live[k]:
            r -= 1
            continue
        w, top = class_weight[k], r
        while r - 1 >= 0 and live[_class_id(r - 1, r - 1, "")] and class_weight[_class_id(r - 1, r - 1, "")] == w:
            r -= 1
        if top == r:
            text = RANKS[r] * 2
        elif top == 12:
            text = RANKS[r] * 2 + "+"
        else:
            text = f"{RANKS[top] * 2}-{RANKS[r] * 2}"
        items.append((_class_id(top, top, ""), text, w))
        r -= 1
    return items


# One run of kickers per item type: 'b' (both suited and offsuit, written 'AK'), 's', 'o'.
_TYPES = ("b", "s", "o")
_BASE_LEN = {"b": 2, "s": 3, "o": 3}
# Per-type state: 0 idle, 1/2 a run that started at the top kicker (length 1 / >= 2),
# 3/4 a run that started lower (length 1 / >= 2).
_IDLE, _TOP1, _TOP2, _LOW1, _LOW2 = range(5)


def _kicker_items(hi: int, suited: np.ndarray, offsuit: np.ndarray, suffix_len: int) -> list[tuple[int, int, str]]:
    """Shortest cover of the kickers under top rank ``hi`` (all of one weight).

    ``suited[p]`` / ``offsuit[p]`` say whether the class with kicker ``hi - 1 - p`` is in the
    group. Runs of type 'b' may only cover kickers in both sets, 's' only suited ones, 'o'
    only offsuit ones; every member must be covered. Cost is the printed length of the items
    (``AKs`` 3, ``AQs+`` 4, ``A5s-A2s`` 7, each plus a comma and the weight suffix); a small
    dynamic programme over the kickers, top down, finds the minimum. Returns
    (top kicker, bottom kicker, type) runs.
    """
    n = hi
    per_item = 1 + suffix_len
    frontier: dict[tuple[int, int, int], tuple[int, tuple]] = {(_IDLE,) * 3: (0, ())}
    history = []
    for p in range(n):
        allowed = {"b": suited[p] and offsuit[p], "s": suited[p], "o": offsuit[p]}
        nxt: dict[tuple[int, int, int], tuple[int, tuple]] = {}
        for state, (cost, back) in frontier.items():
            for choice in range(8):
                act = [(choice >> t) & 1 for t in range(3)]
                if any(a and not allowed[t] for a, t in zip(act, _TYPES)):
                    continue
                if suited[p] and not (act[0] or act[1]) or offsuit[p] and not (act[0] or act[2]):
                    continue
                new_state, add = [], 0
                for a, t, st in zip(act, _TYPES, state):
                    base = _BASE_LEN[t]
                    if not a:
                        new_state.append(_IDLE)
                    elif st == _IDLE:
                        new_state.append(_TOP1 if p == 0 else _LOW1)
                        add += base + per_item
                    elif st == _TOP1:
                        new_state.append(_TOP2)
                        add += 1  # 'AKs' -> 'AQs+'
                    elif st == _LOW1:
                        new_state.append(_LOW2)
                        add += base + 1  # 'A5s' -> 'A5s-A4s'
                    else:
                        new_state.append(st)
                key = tuple(new_state)
                if key not in nxt or cost + add < nxt[key][0]:
                    nxt[key] = (cost + add, (state, tuple(act)))
        history.append(nxt)
        frontier = nxt
    # Walk back the cheapest path, then turn each type's active positions into runs.
    state = min(frontier, key=lambda s: (frontier[s][0], s))
    acts = []
    for p in range(n - 1, -1, -1):
        prev, act = history[p][state][1]
        acts.append(act)
        state = prev
    acts.reverse()
    runs = []
    for t_index, t in enumerate(_TYPES):
        p = 0
        while p < n:
            if acts[p][t_index]:
                q = p
                while q + 1 < n and acts[q + 1][t_index]:
                    q += 1
                runs.append((hi - 1 - p, hi - 1 - q, t))
                p = q + 1
            else:
                p += 1
    return runs


def _nonpair_items(class_weight: np.ndarray, live: np.ndarray) -> list[tuple[int, str, float]]:
    items = []
    for hi in range(12, 0, -1):
        keys = [(_class_id(hi, lo, "s"), _class_id(hi, lo, "o")) for lo in range(hi - 1, -1, -1)]
        for w in sorted({class_weight[k] for pair in keys for k in pair if live[k]}, reverse=True):
            suited = np.array([bool(live[s] and class_weight[s] == w) for s, _ in keys])
            offsuit = np.array([bool(live[o] and class_weight[o] == w) for _, o in keys])
            for top, bottom, t in _kicker_items(hi, suited, offsuit, len(_weight_suffix(w))):
                suffix = "" if t == "b" else t
                first = RANKS[hi] + RANKS[top] + suffix
                if top == bottom:
                    text = first
                elif top == hi - 1:
                    text = RANKS[hi] + RANKS[bottom] + suffix + "+"
                else:
                    text = f"{first}-{RANKS[hi]}{RANKS[bottom]}{suffix}"
                kind = "so".find(suffix)  # both (-1) before suited before offsuit
                items.append((_class_id(hi, top, "s") * 4 + kind, text, w))
    return items


def format_range(weights: np.ndarray) -> str:
    """The shortest notation (see the module docstring) for a 1,326-vector of weights.

    Items come out chart-ordered: pairs from aces down, then hands by top card and kicker,
    then single combos of the classes whose combos do not all share one weight.
    """
    weights = np.asarray(weights, dtype=np.float64)
    if weights.shape != (N_COMBOS,):
        raise ValueError(f"weights must have shape ({N_COMBOS},), got {weights.shape}")
    if not weights.any():
        return ""
    if np.all(weights == weights[0]):
        return "random" + _weight_suffix(weights[0])
    class_weight = np.full(N_CLASSES, -np.inf)  # the largest weight in each class
    smallest = np.full(N_CLASSES, np.inf)
    np.maximum.at(class_weight, COMBO_CLASS, weights)
    np.minimum.at(smallest, COMBO_CLASS, weights)
    uniform = class_weight == smallest
    live = uniform & (class_weight > 0)
    items = [(key, text, w) for key, text, w in _pair_items(class_weight, live)]
    items += sorted(_nonpair_items(class_weight, live))
    combo_items = [
        (COMBO_IDS[c], weights[c])
        for k in np.flatnonzero(~uniform)
        for c in CLASS_COMBOS[k][::-1]
        if weights[c] > 0
    ]
    parts = [text + _weight_suffix(w) for _, text, w in items]
    parts += [cid + _weight_suffix(w) for cid, w in combo_items]
    return ",".join(parts)
