"""Per-node read-out of a solved postflop spot: every decision of the tree, street by street.

For each decision node :func:`street_nodes` reads one street (the root street, or the street
that follows a deal) and :func:`tree_nodes` the whole tree, every dealt card included; under
the average strategies each read-out holds:

* ``reach[p]`` (per hand of player ``p``, ``solver.hands[p]`` order): its range weight times
  the probability that its own actions on the path lead here (card removal against the root
  board is already applied: colliding combos are not in the hand lists; combos holding a card
  dealt on the path have reach 0 and ``live[p]`` False);
* ``strategy`` (actions x actor's hands): the actor's average strategy;
* ``action_ev`` (actions x actor's hands, chips): the actor's expected chips at the end of the
  hand minus its stack at this node, holding the hand and taking the action, against the
  opponent's range at this node (0 where no opponent combo can be dealt against the hand);
* ``node_ev`` (per player, chips): each player's range value at the node in the same
  convention, weighting each hand pair by both reaches, so ``node_ev[0] + node_ev[1]`` is the
  pot at the node.

Values after a deal are conditional on the dealt cards (the node is reached with them on the
board). The solver stores strategies only for the deals it walks: with suit isomorphism on, a
non-representative deal has none, and reading it raises ``ValueError`` (solve with
``isomorphism=False`` to read every deal).

Units: the solve's chips. ``pot`` and ``behind`` are the pot at the node and the effective
stack still behind (the smaller of the two players' remaining chips).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import numpy as np

from pokerlab.postflop.solver import PostflopSolver
from pokerlab.postflop.tree import CHANCE, DECISION


@dataclass(frozen=True)
class NodeReadout:
    """One decision node (see the module docstring for units)."""

    node: int  # index in the solver's public tree
    line: tuple  # from the root: child indices (int) and dealt cards (card index as str, e.g. "c17")
    actor: int
    pot: float
    behind: float
    invest: tuple[float, float]
    actions: tuple[str, ...]  # the tree's labels: CHECK, CALL, FOLD, BET x, RAISE x (x = chips added)
    reach: tuple[np.ndarray, np.ndarray]
    strategy: np.ndarray
    action_ev: np.ndarray
    node_ev: tuple[float, float]
    dealt: tuple[int, ...] = ()  # cards dealt since the root, in order
    live: tuple[np.ndarray, np.ndarray] | None = None  # hands holding no dealt card (None: all)
    deals: tuple[int, ...] = ()  # action indices whose child is a deal (the street ends)


@dataclass(frozen=True)
class ChancePoint:
    """A deal reached by an action of a street: the node, its line and the reach arriving there."""

    node: int
    line: tuple
    dealt: tuple[int, ...]
    reach: tuple[np.ndarray, np.ndarray]

    def cards(self, solver: PostflopSolver) -> list[int]:
        """The cards that can come: not on the board, not dealt before."""
        used = set(solver.spot.board) | set(self.dealt)
        return [c for c in range(52) if c not in used]


def _holding(solver: PostflopSolver, player: int, cards: tuple[int, ...]) -> np.ndarray:
    from pokerlab.cards import COMBO_CARDS

    hand_cards = COMBO_CARDS[solver.hands[player]]
    return np.isin(hand_cards, np.asarray(cards, dtype=hand_cards.dtype)).any(axis=1)


def street_nodes(solver: PostflopSolver, start: int = 0, dealt: tuple[int, ...] = (),
                 reach: tuple[np.ndarray, np.ndarray] | None = None,
                 line: tuple = ()) -> tuple[list[NodeReadout], list[ChancePoint]]:
    """Every decision of the street beginning at decision ``start`` (the root, or the first node
    after a deal), reached after the ``dealt`` cards with ``reach`` (default: the range weights),
    parents before children; and the deals its actions lead to."""
    tree, spot = solver.tree, solver.spot
    dealt = tuple(int(c) for c in dealt)
    start_reach = [w.copy() for w in solver.weights] if reach is None else [np.asarray(r, float).copy() for r in reach]
    live = None
    if dealt:
        live = tuple(~_holding(solver, p, dealt) for p in range(2))
        for p in range(2):
            start_reach[p][~live[p]] = 0.0
    reach_of: dict[int, list[np.ndarray]] = {start: start_reach}
    line_of: dict[int, tuple] = {start: tuple(line)}
    out, chance = [], []
    queue = [start]
    for node in queue:  # breadth-first: a parent's reach is set before its children
        r = reach_of[node]
        readout = node_readout(solver, node, dealt, r, line_of[node], live)
        actor = readout.actor
        for k, child in enumerate(solver.tree.children(node)):
            child_reach = [r[0], r[1]]
            child_reach[actor] = r[actor] * readout.strategy[k]
            if tree.kind[child] == DECISION:
                reach_of[child] = child_reach
                line_of[child] = line_of[node] + (k,)
                queue.append(child)
            elif tree.kind[child] == CHANCE:  # the street ends with a deal
                chance.append(ChancePoint(int(child), line_of[node] + (k,), dealt,
                                          (child_reach[0].copy(), child_reach[1].copy())))
        out.append(readout)
    return out, chance


def node_readout(solver: PostflopSolver, node: int, dealt: tuple[int, ...], reach, line: tuple = (),
                 live: tuple[np.ndarray, np.ndarray] | None = None) -> NodeReadout:
    """The read-out of one decision ``node`` reached after the ``dealt`` cards with ``reach``
    (per player, hands holding a dealt card already zeroed; ``live`` marks the others)."""
    tree, spot = solver.tree, solver.spot
    r = reach
    actor, other = int(tree.actor[node]), 1 - int(tree.actor[node])
    sigma = solver.average_strategy(node, dealt)  # (actions, actor hands)
    children = list(tree.children(node))
    invest = (float(tree.invest[node, 0]), float(tree.invest[node, 1]))
    pot = spot.pot + invest[0] + invest[1]
    compat = solver.compatible_reach(actor, r[other])
    safe = np.where(compat > 0, compat, 1.0)
    base = 0.5 * spot.pot + invest[actor]  # walk sums are net of half the root pot
    cfv = np.stack([solver.subtree_values(child, actor, r[other], dealt) for child in children])
    action_ev = np.where(compat > 0, cfv / safe + base, 0.0)
    # both range values over the same hand pairs: the actor's from its actions, the other's from one walk
    pair_mass = float(r[actor] @ compat)
    other_cfv = solver.subtree_values(node, other, r[actor], dealt)
    other_compat = solver.compatible_reach(other, r[actor])
    if pair_mass > 0:
        actor_ev = float(r[actor] @ ((sigma * cfv).sum(axis=0) + base * compat)) / pair_mass
        other_ev = float(r[other] @ (other_cfv + (0.5 * spot.pot + invest[other]) * other_compat)) / pair_mass
    else:
        actor_ev = other_ev = 0.0
    node_ev = [0.0, 0.0]
    node_ev[actor], node_ev[other] = actor_ev, other_ev
    deals = tuple(k for k, child in enumerate(children) if tree.kind[child] == CHANCE)
    return NodeReadout(
        node=node, line=tuple(line), actor=actor, pot=pot, behind=spot.stack - max(invest), invest=invest,
        actions=tuple(tree.labels[c] for c in children), reach=(r[0], r[1]),
        strategy=sigma, action_ev=action_ev, node_ev=(node_ev[0], node_ev[1]),
        dealt=tuple(dealt), live=live, deals=deals,
    )


def reach_along(solver: PostflopSolver, steps: list) -> tuple[int, tuple[int, ...], list[np.ndarray], tuple]:
    """Follow ``steps`` from the root - child indices at decisions, card indices at deals - under
    the average strategies; return the node reached, the dealt cards, the reach (hands holding a
    dealt card zeroed) and ``live`` (None before any deal). ``ValueError`` for a step that does
    not exist (a card on the board or already dealt, an index past the node's children)."""
    tree = solver.tree
    node, dealt = 0, ()
    reach = [w.copy() for w in solver.weights]
    for step in steps:
        if tree.kind[node] == DECISION:
            if not 0 <= step < int(tree.n_children[node]):
                raise ValueError(f"step {step}: node {node} has {int(tree.n_children[node])} actions")
            actor = int(tree.actor[node])
            reach[actor] = reach[actor] * solver.average_strategy(node, dealt)[step]
            node = int(tree.first_child[node]) + step
        elif tree.kind[node] == CHANCE:
            if step in solver.spot.board or step in dealt or not 0 <= step < 52:
                raise ValueError(f"card {step}: on the board or dealt before; it cannot come at node {node}")
            dealt = dealt + (int(step),)
            for p in range(2):
                reach[p] = np.where(_holding(solver, p, (int(step),)), 0.0, reach[p])
            node = int(tree.first_child[node])
        else:
            raise ValueError(f"step {step}: node {node} ends the hand")
    live = tuple(~_holding(solver, p, dealt) for p in range(2)) if dealt else None
    return node, dealt, reach, live


def root_street_nodes(solver: PostflopSolver) -> list[NodeReadout]:
    """Every decision node of the root street, parents before children (breadth-first)."""
    return street_nodes(solver)[0]


def after_deal(solver: PostflopSolver, point: ChancePoint, card: int) -> tuple[list[NodeReadout], list[ChancePoint]]:
    """The street that ``card`` dealt at ``point`` begins (see :func:`street_nodes`)."""
    if card not in point.cards(solver):
        raise ValueError(f"card {card}: on the board or dealt before; it cannot come at node {point.node}")
    return street_nodes(solver, int(solver.tree.first_child[point.node]), point.dealt + (int(card),), point.reach,
                        point.line + (f"c{int(card)}",))


def tree_nodes(solver: PostflopSolver) -> Iterator[NodeReadout]:
    """Every decision of the solved tree: the root street, then street by street after each deal
    (cards in index order)."""
    nodes, chance = street_nodes(solver)
    yield from nodes
    stack = list(reversed(chance))
    while stack:
        point = stack.pop()
        for card in point.cards(solver):
            nodes, more = after_deal(solver, point, card)
            yield from nodes
            stack.extend(reversed(more))
