"""A seat's preflop line, named from the observed actions.

Actions are the chart letters (``F`` fold, ``C`` call/check/complete, ``R`` a raise, ``A``
all-in), in preflop order, as in a chart's node ids (``"FFFRFC"``: UTG, HJ and CO fold, the BTN
opens, the SB folds, the BB calls). Who made each action is replayed from the table size: seats
act in preflop order (``pokerlab.preflop.spot.POSITIONS``), a raise reopens the action for every
other seat still in and not all-in, and a call or fold closes the seat's turn.

The line of a seat is what its **last** voluntary action says about its range:

=============  =====================================================================
``unopened``   the seat has not acted yet (its range is every hand it was dealt)
``open``       it made the first raise (also a raise over the SB's limp)
``limp``       it (the SB) completed an unopened pot
``check_option`` it (the BB, or a seat that posted a live big blind) checked its option after limps or folds
``call_open``  it called the first raise
``3bet``       it made the second raise; ``call_3bet`` it called it
``4bet``       the third raise; ``call_4bet`` it called it
``5bet``       the fourth raise or later (all-in in our trees); ``call_5bet`` it called it
``folded``     it folded (no range)
=============  =====================================================================

The first nine are the keys of :class:`pokerlab.ranges.priors.RangePriors`; a seat that opened
and then called a 3-bet is ``call_3bet``.
"""

from __future__ import annotations

from typing import Iterable

from pokerlab.preflop.spot import POSITIONS

__all__ = ["LINES", "classify_preflop_line", "replay_actors"]

LINES = ("unopened", "open", "limp", "check_option", "call_open", "3bet", "call_3bet", "4bet", "call_4bet",
         "5bet", "call_5bet", "folded")
_RAISE_LINES = {1: "open", 2: "3bet", 3: "4bet"}
_CALL_LINES = {1: "call_open", 2: "call_3bet", 3: "call_4bet"}


def _letters(actions: str | Iterable[str]) -> str:
    text = actions if isinstance(actions, str) else "".join(actions)
    bad = [ch for ch in text if ch not in "FCRSA"]
    if bad:
        raise ValueError(f"actions: expected letters F, C, R, S, A (fold, call/check, raise, second raise size, "
                         f"all-in), got {bad[0]!r} "
                         f"in {text!r}")
    return text


def _seat_index(seat: int | str, seats: int) -> int:
    names = POSITIONS[seats]
    if isinstance(seat, str):
        if seat.upper() not in names:
            raise ValueError(f"seat: {seat!r} is not a position at a {seats}-handed table ({', '.join(names)})")
        return names.index(seat.upper())
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
        raise ValueError(f"seat: expected a position name or an index 0..{seats - 1}, got {seat!r}")
    return seat


def replay_actors(actions: str | Iterable[str], seats: int = 6) -> list[int]:
    """The seat (preflop order, 0 first) that took each action; ``ValueError`` if an action comes
    after the betting closed."""
    if seats not in POSITIONS:
        raise ValueError(f"seats: expected a table size 2..9, got {seats!r}")
    text = _letters(actions)
    folded = [False] * seats
    allin = [False] * seats
    to_act = list(range(seats))
    actors = []
    for k, letter in enumerate(text):
        if not to_act or sum(not f for f in folded) < 2:
            raise ValueError(f"actions: the betting is over after {text[:k]!r}; {text[k:]!r} cannot follow")
        seat = to_act.pop(0)
        actors.append(seat)
        if letter == "F":
            folded[seat] = True
        elif letter in "RSA":
            allin[seat] = letter == "A"
            to_act = [(seat + j) % seats for j in range(1, seats)
                      if not folded[(seat + j) % seats] and not allin[(seat + j) % seats]]
    return actors


def classify_preflop_line(actions: str | Iterable[str], seat: int | str, seats: int = 6,
                          posted: Iterable[int | str] = ()) -> str:
    """The line (see the module docstring) of ``seat`` (index in preflop order or position name)
    after the preflop ``actions`` at a ``seats``-handed table.

    ``posted``: seats besides the big blind that posted a live big blind before the cards (a
    player joining the table, in real hand histories). Like the big blind, such a seat's ``C``
    in an unopened pot is a check of its option (``check_option``), not a limp: the letters
    alone cannot tell the two apart."""
    text = _letters(actions)
    who = _seat_index(seat, seats)
    option = {seats - 1} | {_seat_index(s, seats) for s in posted}
    actors = replay_actors(text, seats)
    raises = 0
    line = "unopened"
    for letter, actor in zip(text, actors):
        if actor == who:
            if letter == "F":
                return "folded"
            if letter in "RSA":
                line = _RAISE_LINES.get(raises + 1, "5bet")
            elif raises == 0:
                line = "check_option" if who in option else "limp"
            else:
                line = _CALL_LINES.get(raises, "call_5bet")
        if letter in "RSA":
            raises += 1
    return line
