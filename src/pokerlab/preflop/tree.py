"""The preflop game tree under a fixed sizing schedule, and its flat-array form for the solver.

Rules (see ``pokerlab/data/sizing.yaml`` for the sizes):

* Blinds 0.5/1bb; seat 0 acts first (heads-up: the small blind). Every seat starts with the
  same ``spot.depth`` bb of live stack; in ``mtt`` the big blind also posts a dead ante.
* Actions: ``F`` fold, ``C`` call / check / complete, ``R`` the scheduled raise, ``A`` all-in,
  and ``S`` the second priced 3-bet size when the band has one (``second_three_bet``; offered
  beside ``R`` at 3-bet nodes, to the seats and against the openers it names, when it differs
  from the scheduled size and leaves ``all_in_below`` behind). A node's id is the string of
  actions that reaches it; ``""`` is the first decision. Action order at a node: F, C, R, S, A.
* Fold is offered only when facing a bet; only the small blind may limp (complete); the big
  blind may check its option. All-in is always offered while it is a raise. ``R`` is offered
  for the open, 3-bet and 4-bet when its size leaves at least ``all_in_below`` x the stack
  behind; otherwise the all-in stands in for it. 5-bets are all-in.
* At most three seats enter voluntarily (limp, call or raise; the big blind's check is not
  an entry). After that, every other seat may only fold: a one-action node flagged
  ``capped`` so no chart shows it as a chosen fold.
* Endings: ``fold`` (one seat left), ``allin`` (everyone left is all-in; 2 or 3 seats),
  ``flop`` (betting closed with chips behind).

Units: bb. ``contrib`` is each seat's total chips put in (blinds, ante and bets); ``pot`` is
their sum. ``behind`` is the chips each seat still in has left behind (stacks are equal, so
one number). Seats are in preflop order; :func:`postflop_order` gives flop acting order.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Mapping

import numpy as np

from pokerlab.preflop.spot import SIZING_FIELDS, Sizing, SizingBand, Spot, parse_sizing

ACTIONS = "FCRSA"
KINDS = ("decision", "fold", "allin", "flop")
MAX_ENTRANTS = 3
MAX_PRICED_RAISES = 3  # open, 3-bet, 4-bet; later raises are all-in only
_EPS = 1e-9


def postflop_order(seat: int, seats: int) -> int:
    """Flop acting order of a preflop seat: 0 acts first. SB first and BTN last; heads-up the
    big blind acts first (the small blind is the button)."""
    if seats == 2:
        return 1 - seat
    return (seat - (seats - 2)) % seats


@dataclass(frozen=True)
class Node:
    """One node of the tree. Endings have ``actor == -1`` and no actions."""

    id: str
    kind: str  # "decision" | "fold" | "allin" | "flop"
    actor: int
    actions: tuple[str, ...]
    capped: bool  # the actor's only option is a fold forced by the three-entrant cap
    contrib: tuple[float, ...]
    players_in: tuple[int, ...]
    behind: float

    @property
    def pot(self) -> float:
        return float(sum(self.contrib))

    @property
    def is_ending(self) -> bool:
        return self.actor < 0


@dataclass
class _State:
    contrib: list[float]  # live chips per seat (ante excluded)
    folded: list[bool]
    allin: list[bool]
    to_act: list[int]
    facing: float  # the live amount to match
    increment: float  # the last raise increment (minimum-raise size)
    raises: int  # voluntary raises so far (open = 1)
    entrants: frozenset[int]
    callers: int  # seats that called the current raise
    limped: bool  # the small blind completed an unopened pot
    last_raiser: int = -1

    def copy(self) -> "_State":
        return _State(list(self.contrib), list(self.folded), list(self.allin), list(self.to_act), self.facing,
                      self.increment, self.raises, self.entrants, self.callers, self.limped, self.last_raiser)


@dataclass(frozen=True)
class Tree:
    """A built tree: nodes in breadth-first order (parents before children, siblings
    contiguous, in the order of the parent's ``actions``) and the flat arrays the solver uses.

    Flat arrays (length ``n_nodes`` unless said otherwise):
        ``parent`` (-1 at the root), ``actor`` (-1 at endings), ``parent_actor`` (actor of the
        parent, -1 at the root), ``child_start``/``n_children`` (children occupy
        ``child_start .. child_start+n_children-1``),
        ``contrib`` (n_nodes, seats), ``in_hand`` (n_nodes, seats) bool.
    """

    spot: Spot
    sizing: dict
    shove_or_fold: bool
    nodes: tuple[Node, ...]
    index: dict[str, int] = field(repr=False)

    @property
    def n_nodes(self) -> int:
        return len(self.nodes)

    @property
    def seats(self) -> int:
        return self.spot.seats

    def node(self, node_id: str) -> Node:
        try:
            return self.nodes[self.index[node_id]]
        except KeyError:
            raise ValueError(f"node {node_id!r} is not in the tree") from None

    def live_contrib(self, node: Node, seat: int) -> float:
        """Chips (bb) of ``seat``'s contribution at ``node`` that are live: the contribution
        minus the dead ante the big blind (the last seat) posts. A raise-to is a live amount."""
        return node.contrib[seat] - (self.spot.ante if seat == self.seats - 1 else 0.0)

    @cached_property
    def parent(self) -> np.ndarray:
        out = np.full(self.n_nodes, -1, dtype=np.int64)
        for k, node in enumerate(self.nodes):
            if node.id:
                out[k] = self.index[node.id[:-1]]
        return out

    @cached_property
    def actor(self) -> np.ndarray:
        return np.array([n.actor for n in self.nodes], dtype=np.int64)

    @cached_property
    def parent_actor(self) -> np.ndarray:
        out = np.full(self.n_nodes, -1, dtype=np.int64)
        out[1:] = self.actor[self.parent[1:]]
        return out

    @cached_property
    def n_children(self) -> np.ndarray:
        return np.array([len(n.actions) for n in self.nodes], dtype=np.int64)

    @cached_property
    def child_start(self) -> np.ndarray:
        out = np.zeros(self.n_nodes, dtype=np.int64)
        for k, node in enumerate(self.nodes):
            if node.actions:
                out[k] = self.index[node.id + node.actions[0]]
        return out

    @cached_property
    def contrib(self) -> np.ndarray:
        return np.array([n.contrib for n in self.nodes], dtype=np.float64)

    @cached_property
    def in_hand(self) -> np.ndarray:
        out = np.zeros((self.n_nodes, self.seats), dtype=bool)
        for k, node in enumerate(self.nodes):
            out[k, list(node.players_in)] = True
        return out

    @cached_property
    def endings(self) -> np.ndarray:
        """Indices of the ending nodes, ascending."""
        return np.flatnonzero(self.actor < 0)

    @cached_property
    def decisions(self) -> np.ndarray:
        """Indices of the decision nodes, ascending."""
        return np.flatnonzero(self.actor >= 0)

    def counts(self) -> dict[str, int]:
        """Node counts by kind, plus ``capped`` (forced-fold decisions) and ``allin_3way``."""
        out = {k: 0 for k in KINDS}
        out["capped"] = out["allin_3way"] = 0
        for n in self.nodes:
            out[n.kind] += 1
            out["capped"] += n.capped
            out["allin_3way"] += n.kind == "allin" and len(n.players_in) == 3
        out["nodes"] = self.n_nodes
        return out


def _priced_raise(spot: Spot, band: SizingBand, state: _State, seat: int) -> float:
    """The scheduled raise-to amount (live bb) for ``seat``, before the all-in rule."""
    if state.raises == 0:
        size = band.raise_over_limp * state.facing if state.limped else band.open_size(spot.positions[seat])
    else:
        in_position = postflop_order(seat, spot.seats) > postflop_order(state.last_raiser, spot.seats)
        if state.raises == 1:
            mult = band.three_bet_ip if in_position else band.three_bet_oop
        else:
            mult = band.four_bet
        size = (mult + band.per_caller * state.callers) * state.facing
    return round(max(size, state.facing + state.increment), 2)  # whole cents of a bb


def _second_raise(spot: Spot, band: SizingBand, state: _State, seat: int) -> float | None:
    """The second 3-bet size (raise-to, live bb) for ``seat``, or None where the band offers none."""
    if state.raises != 1:  # 3-bet nodes only (the raise being re-raised may be over a limp)
        return None
    in_position = postflop_order(seat, spot.seats) > postflop_order(state.last_raiser, spot.seats)
    mult = band.second_size(spot.positions[seat], spot.positions[state.last_raiser], in_position)
    if mult is None:
        return None
    size = (mult + band.per_caller * state.callers) * state.facing
    return round(max(size, state.facing + state.increment), 2)


def _legal_actions(spot: Spot, sizing: Sizing, band: SizingBand, state: _State, seat: int, shove_or_fold: bool) -> tuple[tuple[str, ...], bool]:
    to_call = state.facing - state.contrib[seat]
    if len(state.entrants) >= MAX_ENTRANTS and seat not in state.entrants:
        return (("F",) if to_call > _EPS else ("C",)), to_call > _EPS
    actions: list[str] = []
    if to_call > _EPS:
        actions.append("F")
    unopened = state.raises == 0
    is_sb, is_bb = seat == spot.seats - 2, seat == spot.seats - 1
    if not (unopened and not is_sb and not is_bb):  # only the SB limps; the BB checks
        if not (shove_or_fold and to_call > _EPS and state.facing < spot.depth - _EPS):
            actions.append("C")
    if state.facing < spot.depth - _EPS:
        if not shove_or_fold and state.raises < MAX_PRICED_RAISES:
            raise_to = _priced_raise(spot, band, state, seat)
            if spot.depth - raise_to >= sizing.all_in_below * spot.depth - _EPS:
                actions.append("R")
            second = _second_raise(spot, band, state, seat)
            if (second is not None and abs(second - raise_to) > _EPS
                    and spot.depth - second >= sizing.all_in_below * spot.depth - _EPS):
                actions.append("S")
        actions.append("A")
    return tuple(actions), False


def _apply(spot: Spot, band: SizingBand, state: _State, seat: int, action: str) -> _State:
    s = state.copy()
    s.to_act.remove(seat)
    if action == "F":
        s.folded[seat] = True
        return s
    if action == "C":
        if state.facing - state.contrib[seat] > _EPS or seat != spot.seats - 1:
            s.entrants = s.entrants | {seat}  # a call or the SB's limp; the BB's check is not an entry
            if state.raises == 0:
                s.limped = True
            else:
                s.callers += 1
        s.contrib[seat] = state.facing
        s.allin[seat] = state.facing >= spot.depth - _EPS
        return s
    if action == "A":
        raise_to = spot.depth
    elif action == "S":
        raise_to = _second_raise(spot, band, state, seat)
    else:
        raise_to = _priced_raise(spot, band, state, seat)
    s.increment = max(state.increment, raise_to - state.facing)
    s.facing = raise_to
    s.contrib[seat] = raise_to
    s.allin[seat] = action == "A"
    s.raises += 1
    s.callers = 0
    s.entrants = s.entrants | {seat}
    s.last_raiser = seat
    n = spot.seats
    s.to_act = [(seat + k) % n for k in range(1, n) if not s.folded[(seat + k) % n] and not s.allin[(seat + k) % n]]
    return s


def build_tree(spot: Spot, sizing: Sizing, shove_or_fold: bool = False) -> Tree:
    """Every action sequence of ``spot`` under ``sizing``.

    ``shove_or_fold`` restricts every seat to fold or all-in (and call an all-in): the classic
    push/fold game, used as an exactly solvable check of the solver.
    """
    n = spot.seats
    band = sizing.band(spot.depth)
    live = [0.0] * n
    live[n - 2], live[n - 1] = 0.5, 1.0
    root = _State(contrib=live, folded=[False] * n, allin=[False] * n, to_act=list(range(n)), facing=1.0,
                  increment=1.0, raises=0, entrants=frozenset(), callers=0, limped=False)
    ante = [0.0] * n
    ante[n - 1] = spot.ante
    by_id: dict[str, Node] = {}
    frontier: list[tuple[str, _State]] = [("", root)]
    order: list[str] = []
    while frontier:  # breadth-first, so that ids come out parents first and siblings together
        next_frontier: list[tuple[str, _State]] = []
        for node_id, state in frontier:
            players_in = tuple(k for k in range(n) if not state.folded[k])
            contrib = tuple(state.contrib[k] + ante[k] for k in range(n))
            behind = spot.depth - state.facing
            order.append(node_id)
            if len(players_in) == 1 or not state.to_act:
                kind = "fold" if len(players_in) == 1 else ("allin" if behind <= _EPS else "flop")
                by_id[node_id] = Node(node_id, kind, -1, (), False, contrib, players_in, max(behind, 0.0))
                continue
            seat = state.to_act[0]
            actions, capped = _legal_actions(spot, sizing, band, state, seat, shove_or_fold)
            by_id[node_id] = Node(node_id, "decision", seat, actions, capped, contrib, players_in, behind)
            next_frontier.extend((node_id + a, _apply(spot, band, state, seat, a)) for a in actions)
        frontier = next_frontier
    nodes = tuple(by_id[i] for i in order)
    return Tree(spot=spot, sizing=sizing.as_dict(spot.depth), shove_or_fold=shove_or_fold, nodes=nodes,
                index={node.id: k for k, node in enumerate(nodes)})


def recorded_tree(document: Mapping[str, Any]) -> Tree:
    """The tree a result or chart document was solved on, rebuilt from the ``spot`` (with its
    ``shove_or_fold``) and the ``sizing`` rows it records (a second 3-bet size included).
    ``ValueError`` if those rows do not rebuild to themselves."""
    recorded = document["sizing"]
    band = {"name": recorded["band"], "up_to_depth": None, "open": recorded["open"],
            **{f: recorded[f] for f in SIZING_FIELDS}}
    if "second_three_bet" in recorded:
        band["second_three_bet"] = recorded["second_three_bet"]
    spot = document["spot"]
    tree = build_tree(Spot(spot["format"], int(spot["seats"]), float(spot["depth_bb"])),
                      parse_sizing({"all_in_below": recorded["all_in_below"], "bands": [band]}),
                      shove_or_fold=bool(spot.get("shove_or_fold", False)))
    if tree.sizing != recorded:
        raise ValueError(f"sizing: the recorded rows {recorded} rebuild to {tree.sizing}")
    return tree
