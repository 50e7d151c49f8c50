"""Per-node read-out of a solved postflop spot: every decision of the root street.

For each decision node reached before any card is dealt (the whole tree of a river root; the
first street of a flop or turn root) :func:`root_street_nodes` gives, under the average
strategies:

* ``reach[p]`` (per hand of player ``p``, ``solver.hands[p]`` order): its range weight times
  the probability that its own actions on the path lead here (card removal against the board
  is already applied: colliding combos are not in the hand lists);
* ``strategy`` (actions x actor's hands): the actor's average strategy;
* ``action_ev`` (actions x actor's hands, chips): the actor's expected chips at the end of the
  hand minus its stack at this node, holding the hand and taking the action, against the
  opponent's range at this node (0 where no opponent combo can be dealt against the hand);
* ``node_ev`` (per player, chips): each player's range value at the node in the same
  convention, weighting each hand pair by both reaches, so ``node_ev[0] + node_ev[1]`` is the
  pot at the node.

Units: the solve's chips. ``pot`` and ``behind`` are the pot at the node and the effective
stack still behind (the smaller of the two players' remaining chips).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.postflop.solver import PostflopSolver
from pokerlab.postflop.tree import DECISION


@dataclass(frozen=True)
class NodeReadout:
    """One root-street decision node (see the module docstring for units)."""

    node: int  # index in the solver's public tree
    line: tuple[int, ...]  # child indices taken from the root: the node's path
    actor: int
    pot: float
    behind: float
    invest: tuple[float, float]
    actions: tuple[str, ...]  # the tree's labels: CHECK, CALL, FOLD, BET x, RAISE x (x = chips added)
    reach: tuple[np.ndarray, np.ndarray]
    strategy: np.ndarray
    action_ev: np.ndarray
    node_ev: tuple[float, float]


def root_street_nodes(solver: PostflopSolver) -> list[NodeReadout]:
    """Every decision node of the root street, parents before children (breadth-first)."""
    tree, spot = solver.tree, solver.spot
    reach: dict[int, list[np.ndarray]] = {0: [w.copy() for w in solver.weights]}
    line: dict[int, tuple[int, ...]] = {0: ()}
    out = []
    for node in range(tree.n_nodes):  # breadth-first: a parent's reach is set before its children
        if tree.kind[node] != DECISION or node not in reach:
            continue
        actor, other = int(tree.actor[node]), 1 - int(tree.actor[node])
        sigma = solver.average_strategy(node)  # (actions, actor hands)
        children = list(tree.children(node))
        invest = (float(tree.invest[node, 0]), float(tree.invest[node, 1]))
        pot = spot.pot + invest[0] + invest[1]
        compat = solver.compatible_reach(actor, reach[node][other])
        safe = np.where(compat > 0, compat, 1.0)
        base = 0.5 * spot.pot + invest[actor]  # walk sums are net of half the root pot
        cfv = np.stack([solver.subtree_values(child, actor, reach[node][other]) for child in children])
        action_ev = np.where(compat > 0, cfv / safe + base, 0.0)
        # both range values over the same hand pairs: the actor's from its actions, the other's from one walk
        pair_mass = float(reach[node][actor] @ compat)
        other_cfv = solver.subtree_values(node, other, reach[node][actor])
        other_compat = solver.compatible_reach(other, reach[node][actor])
        if pair_mass > 0:
            actor_ev = float(reach[node][actor] @ ((sigma * cfv).sum(axis=0) + base * compat)) / pair_mass
            other_ev = float(reach[node][other] @ (other_cfv + (0.5 * spot.pot + invest[other]) * other_compat)) / pair_mass
        else:
            actor_ev = other_ev = 0.0
        node_ev = [0.0, 0.0]
        node_ev[actor], node_ev[other] = actor_ev, other_ev
        out.append(NodeReadout(
            node=node, line=line[node], actor=actor, pot=pot, behind=spot.stack - max(invest), invest=invest,
            actions=tuple(tree.labels[c] for c in children), reach=(reach[node][0], reach[node][1]),
            strategy=sigma, action_ev=action_ev, node_ev=(node_ev[0], node_ev[1]),
        ))
        for k, child in enumerate(children):
            if tree.kind[child] != DECISION:  # fold, showdown, or a deal (CHANCE): the street ends
                continue
            child_reach = [reach[node][0], reach[node][1]]
            child_reach[actor] = reach[node][actor] * sigma[k]
            reach[child] = child_reach
            line[child] = line[node] + (k,)
    return out
