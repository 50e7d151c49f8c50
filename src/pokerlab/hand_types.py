"""Hand types: the 169 preflop classes in the groups players and solver write-ups speak of, and a
chart node's strategy summed over them.

Ranks are the cards' (``T`` is ten). A class belongs to the first group of the list that takes it:

- pairs: **big** TT-AA, **middle** 66-99, **small** 22-55;
- suited (then offsuit): **aces** A2-AK; **broadway**, both cards T or higher; **connectors**, ranks
  one apart (32-T9; JT is broadway); **one-gappers**, ranks two apart (42-J9; QT is broadway);
  everything else **other**.
"""

from __future__ import annotations

from typing import Mapping

import numpy as np

from pokerlab.cards import CLASS_COL, CLASS_NAMES, CLASS_ROW, N_CLASSES, RANKS

HAND_TYPES = ("big pairs", "middle pairs", "small pairs",
              "suited aces", "suited broadway", "suited connectors", "suited one-gappers", "other suited",
              "offsuit aces", "offsuit broadway", "offsuit connectors", "offsuit one-gappers", "other offsuit")
"""The groups, in display order."""
_TEN, _ACE = RANKS.index("T"), RANKS.index("A")


def _hand_type(k: int) -> str:
    high, low = 12 - min(CLASS_ROW[k], CLASS_COL[k]), 12 - max(CLASS_ROW[k], CLASS_COL[k])  # rank indices, 2 = 0
    if high == low:
        return "big pairs" if low >= _TEN else "middle pairs" if low >= RANKS.index("6") else "small pairs"
    suit = "suited" if CLASS_ROW[k] < CLASS_COL[k] else "offsuit"
    if high == _ACE:
        return f"{suit} aces"
    if low >= _TEN:
        return f"{suit} broadway"
    if high - low == 1:
        return f"{suit} connectors"
    if high - low == 2:
        return f"{suit} one-gappers"
    return f"other {suit}"


CLASS_HAND_TYPE = np.array([HAND_TYPES.index(_hand_type(k)) for k in range(N_CLASSES)], dtype=np.int64)
"""(169,) each class's index into :data:`HAND_TYPES`."""


def classes_of(hand_type: str) -> list[str]:
    """The class names of one hand type, in grid order; ``ValueError`` naming the known types."""
    if hand_type not in HAND_TYPES:
        raise ValueError(f"unknown hand type {hand_type!r}: expected one of {', '.join(HAND_TYPES)}")
    return [CLASS_NAMES[k] for k in np.flatnonzero(CLASS_HAND_TYPE == HAND_TYPES.index(hand_type))]


def shares_by_hand_type(strategy: Mapping[str, np.ndarray], arrive_with: np.ndarray) -> dict[str, dict[str, float]]:
    """Per hand type, the share of the hands arriving at a node that take each action (``strategy``:
    action -> (169,) probabilities) and, under ``"arriving"``, the type's share of the arriving
    hands. ``arrive_with``: (169,) the probability that the acting seat holds each class given the
    node is reached (a chart node's ``arrive_with``). Types that never arrive are left out."""
    arriving = np.asarray(arrive_with, dtype=np.float64)
    out: dict[str, dict[str, float]] = {}
    for t, name in enumerate(HAND_TYPES):
        members = CLASS_HAND_TYPE == t
        mass = float(arriving[members].sum())
        if mass <= 0:
            continue
        out[name] = {a: float(arriving[members] @ np.asarray(p, dtype=np.float64)[members]) / mass
                     for a, p in strategy.items()}
        out[name]["arriving"] = mass / float(arriving.sum())
    return out


def main_action_changes(old: Mapping[str, np.ndarray], new: Mapping[str, np.ndarray], arrive_with: np.ndarray,
                        min_pp: float = 10.0) -> dict[str, list[tuple[str, str, str, float]]]:
    """Per hand type, the arriving classes (``arrive_with`` > 0) whose most likely action differs
    between two strategies of one node (action -> (169,) probabilities, the same actions) and whose
    probability of the new one grew by at least ``min_pp`` points: ``(class, old action, new
    action, points)``, largest move first."""
    if set(old) != set(new):
        raise ValueError(f"the two strategies have different actions: {sorted(old)} and {sorted(new)}")
    actions = list(old)
    before = np.array([old[a] for a in actions], dtype=np.float64)
    after = np.array([new[a] for a in actions], dtype=np.float64)
    was, now = before.argmax(axis=0), after.argmax(axis=0)
    out: dict[str, list[tuple[str, str, str, float]]] = {}
    for k in np.flatnonzero((np.asarray(arrive_with) > 0) & (was != now)):
        points = 100.0 * float(after[now[k], k] - before[now[k], k])
        if points >= min_pp:
            out.setdefault(HAND_TYPES[CLASS_HAND_TYPE[k]], []).append((CLASS_NAMES[k], actions[was[k]],
                                                                      actions[now[k]], round(points, 1)))
    return {t: sorted(v, key=lambda m: -m[3]) for t, v in out.items()}
