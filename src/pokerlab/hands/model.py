"""The normalised hand: one record per hand, whatever site or file format it came from.

Every reader (:mod:`pokerlab.hands.pluribus`, :mod:`pokerlab.hands.pokerstars`,
:mod:`pokerlab.hands.phh`) produces :class:`Hand` records through :func:`replay`, which walks
the betting and checks that every action is legal and made by the seat whose turn it is, so
the three formats end up with the same fields computed the same way.

Conventions:

* ``players`` are in **preflop action order**, as the charts number seats: seat ``0`` acts
  first and the small blind is ``n-2``, the big blind ``n-1`` (heads-up the small blind is the
  button and seat 0). Position names come from :data:`pokerlab.preflop.spot.POSITIONS`.
* Amounts are in big blinds. ``Act.to`` is the seat's total on the current street after the
  action (a call or a raise), ``Act.add`` the chips it added with this action.
* ``kind``: ``F`` fold, ``X`` check, ``C`` call (the small blind completing unopened is a call
  too), ``B`` bet (first chips in on a street after the flop), ``R`` raise (preflop every
  voluntary increase is a raise; the blinds are not bets).
* Streets: 0 preflop, 1 flop, 2 turn, 3 river.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pokerlab.preflop.spot import POSITIONS

STREETS = ("preflop", "flop", "turn", "river")
_EPS = 1e-9


class HandError(ValueError):
    """A hand that cannot be imported; the message is the skip reason."""


@dataclass(frozen=True)
class Act:
    street: int
    player: int
    kind: str  # F X C B R
    to: float  # the seat's street total after the action, bb
    add: float  # chips put in by this action, bb
    allin: bool
    facing: float  # the amount to call before the action, bb
    raise_level: int  # raises on this street before the action (preflop: the blind counts as none)


@dataclass
class Hand:
    hand_id: str
    site: str
    source_format: str  # pluribus | pokerstars | phh
    source: str  # file name
    line: int  # line the hand starts at (1-based)
    stakes: str
    bb_chips: float  # chips (or currency units) per big blind
    tournament: bool
    players: list[str]  # preflop action order
    seats: list[int]  # site seat numbers, same order (0 when the format has none)
    stacks: list[float]  # starting stacks, bb
    antes: list[float]  # antes posted, bb
    blinds: list[float]  # blinds posted, bb
    hole: list[str | None]  # "AhKd" when known
    board: str
    actions: list[Act]
    results: list[float]  # net result of the hand per player, bb
    rake: float  # bb
    showdown: list[bool]  # still in when the hand reached a showdown
    table: str = ""
    time: str = ""
    notes: list[str] = field(default_factory=list)

    @property
    def n(self) -> int:
        return len(self.players)

    @property
    def positions(self) -> tuple[str, ...]:
        return position_names(self.n)

    @property
    def ante_bb(self) -> float:
        return float(max(self.antes, default=0.0))

    def effective_stack(self, players: list[int] | None = None) -> float:
        """The second-largest starting stack among ``players`` (default everyone): what can be won
        or lost between the two deepest of them."""
        group = sorted((self.stacks[p] for p in (players if players is not None else range(self.n))), reverse=True)
        return group[1] if len(group) > 1 else group[0]


def position_names(n: int) -> tuple[str, ...]:
    """Seat names in preflop order for ``n`` players dealt in (2..9); 10 seats add ``UTG3``...
    never needed by the shared sets, so more than 9 raises."""
    if n not in POSITIONS:
        raise HandError(f"{n} players dealt in; positions are defined for 2..9")
    return POSITIONS[n]


def postflop_first(n: int) -> list[int]:
    """Preflop seat indices in postflop acting order (SB first, button last; heads-up BB first)."""
    if n == 2:
        return [1, 0]
    return [n - 2, n - 1] + list(range(n - 2))


def replay(n: int, stacks: list[float], blinds: list[float], antes: list[float],
           events: list[tuple], board_cards: int = 0) -> tuple[list[Act], list[float], list[bool], int]:
    """Walk the betting of one hand and return (actions, total put in per player, in-hand flags
    at the end, last street reached).

    ``events``: ``("street",)`` at each new street, or ``(player | None, kind, amount)`` with
    ``kind`` one of ``f`` (fold), ``c`` (check or call), ``r`` (bet or raise to ``amount``,
    the seat's street total), ``R`` (the same with ``amount`` the seat's total over the hand); ``player`` None means "whoever is due", otherwise it must be
    that seat. Amounts in bb. Raises :class:`HandError` naming the first illegal step.
    The uncalled part of the last bet is *not* returned here (see :func:`refund_uncalled`).
    """
    total = [blinds[p] + antes[p] for p in range(n)]
    street_in = list(blinds)
    live = [True] * n
    allin = [stacks[p] - total[p] <= _EPS for p in range(n)]
    acts: list[Act] = []
    street = 0
    order = list(range(n))  # preflop order
    facing = max(blinds)
    raises = 0
    # seats still to act on this street, in order
    pending = [p for p in order if not allin[p]]
    pointer = 0

    def next_due() -> int | None:
        nonlocal pending
        return pending[0] if pending else None

    for k, ev in enumerate(events):
        if ev[0] == "street":
            if pending and sum(live) > 1 and sum(1 for p in range(n) if live[p] and not allin[p]) > 1:
                raise HandError(f"{STREETS[street]} ended with {[p for p in pending]} still to act")
            street += 1
            if street > 3:
                raise HandError("more than four betting rounds")
            street_in = [0.0] * n
            facing = 0.0
            raises = 0
            can_act = [p for p in postflop_first(n) if live[p] and not allin[p]]
            pending = can_act if len(can_act) > 1 else []
            continue
        player, kind, amount = ev
        due = next_due()
        if due is None:
            raise HandError(f"action {k + 1} ({kind}) on the {STREETS[street]} when nobody is due to act")
        if player is not None and player != due:
            raise HandError(f"action {k + 1} on the {STREETS[street]}: player {player} acted, player {due} was due")
        p = due
        pending.pop(0)
        to_call = facing - street_in[p]
        behind = stacks[p] - total[p]
        if kind == "f":
            live[p] = False
            acts.append(Act(street, p, "F", street_in[p], 0.0, False, max(to_call, 0.0), raises))
        elif kind == "c":
            add = min(max(to_call, 0.0), behind)
            street_in[p] += add
            total[p] += add
            is_allin = stacks[p] - total[p] <= _EPS and add > 0
            allin[p] = allin[p] or is_allin
            acts.append(Act(street, p, "C" if to_call > _EPS else "X", street_in[p], add, is_allin, max(to_call, 0.0), raises))
        elif kind in ("r", "R"):
            if kind == "R":  # amount is the seat's total over the hand (antes aside)
                amount = amount - (total[p] - antes[p] - street_in[p])
            add = amount - street_in[p]
            if amount <= facing + _EPS:
                raise HandError(f"action {k + 1}: raise to {amount:g}bb does not exceed {facing:g}bb")
            if add > behind + 1e-6:
                raise HandError(f"action {k + 1}: raise to {amount:g}bb is more than the {behind + street_in[p]:g}bb the seat has")
            add = min(add, behind)
            street_in[p] += add
            total[p] += add
            is_allin = stacks[p] - total[p] <= 1e-6
            allin[p] = is_allin
            kind_out = "B" if (street > 0 and facing <= _EPS) else "R"
            acts.append(Act(street, p, kind_out, street_in[p], add, is_allin, max(to_call, 0.0), raises))
            facing = street_in[p]
            raises += 1
            seq = order if street == 0 else postflop_first(n)
            i = seq.index(p)
            pending = [q for q in seq[i + 1:] + seq[:i] if live[q] and not allin[q]]
        else:
            raise HandError(f"action {k + 1}: unknown action {kind!r}")
        if sum(live) == 1:
            pending = []
        elif not pending or (len([q for q in range(n) if live[q] and not allin[q]]) <= 1
                             and all(street_in[q] >= facing - _EPS or allin[q] for q in range(n) if live[q])):
            pending = []
    return acts, total, live, street


def refund_uncalled(total: list[float], live: list[bool], dead: list[float] | None = None) -> list[float]:
    """Contributions after the uncalled part of the largest one goes back to its owner; ``dead``
    money (antes, a dead small blind) is in ``total`` but never calls anything."""
    dead = dead or [0.0] * len(total)
    out = [t - d for t, d in zip(total, dead)]
    top = max(range(len(out)), key=lambda p: out[p])
    second = max((out[p] for p in range(len(out)) if p != top), default=0.0)
    if out[top] > second:
        out[top] = second
    return [o + d for o, d in zip(out, dead)]
