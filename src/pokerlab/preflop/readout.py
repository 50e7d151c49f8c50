"""Read-out of a solve under its average strategy: what a chart shows, node by node.

One pass over the tree under the average strategy gives, per decision node:

* ``strategy`` (m x actions): the average strategy of the actor per class;
* ``action_ev`` (m x actions): the actor's EV of each action in bb, conditional on arriving at
  the node holding the class (the other seats' ranges at the node fixed by the average);
* ``node_ev`` (m,): the same for the node, equal to the strategy-weighted action EVs;
* ``arrive_with`` (m,): the probability the actor holds each class given the node is reached (the
  deal's prior at a node the actor's own strategy never plays to);
* ``class_reach`` (m,): the probability that the actor, holding the class, plays to the node
  (its own actions only; 1 for every class at its first decision);
* ``reach``: the probability the table reaches the node (a share of deals);
* ``action_shares()``: how the deals that reach the node split over its actions.

EVs are net results of the whole hand from the start (blinds and ante included), so folding
the small blind is worth -0.5bb. Spot-level shares: ``model_share`` is the share of deals (combo
weighted) that end at a ``flop`` ending; ``tier_shares`` splits all deals by trust tier.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.preflop.payoffs import TIERS
from pokerlab.preflop.solver import Solver


@dataclass(frozen=True)
class NodeReadout:
    id: str
    actor: int
    actions: tuple[str, ...]
    capped: bool
    reach: float
    strategy: np.ndarray  # (m, k)
    action_ev: np.ndarray  # (m, k); NaN where the node is never reached by the others
    node_ev: np.ndarray  # (m,)
    arrive_with: np.ndarray  # (m,)
    class_reach: np.ndarray  # (m,)

    def action_shares(self) -> np.ndarray:
        """(k,) share of the deals reaching the node that take each action (combo weighted)."""
        return self.arrive_with @ self.strategy


@dataclass(frozen=True)
class Readout:
    nodes: tuple[NodeReadout, ...]
    seat_ev: np.ndarray  # (seats,) each seat's EV of the hand, bb
    tier_shares: dict[str, float]
    model_share: float


def read_out(solver: Solver) -> Readout:
    """The read-out of ``solver``'s average strategy (see the module docstring)."""
    tree, prior = solver.tree, solver.prior
    sigma = solver.average_sigma()
    reach = solver.reach_under(sigma)
    totals = reach @ prior  # (seats, n_nodes): R_s(h), each seat's own probability of reaching h
    table_reach = totals.prod(axis=0)
    inputs = solver.ending_inputs(reach)
    values = [solver.seat_values(seat, sigma, reach, ending_inputs=inputs) for seat in range(solver.n_seats)]
    nodes = []
    for h in tree.decisions:
        node = tree.nodes[h]
        seat = node.actor
        children = tree.child_start[h] + np.arange(len(node.actions))
        others = np.delete(totals[:, h], seat).prod()
        with np.errstate(invalid="ignore", divide="ignore"):
            action_ev = values[seat][children].T / others
            node_ev = values[seat][h] / others
            # a node the actor's own strategy never plays to (a second-half average can leave one) arrives
            # with the deal's prior: the condition is impossible, and the chart needs a distribution
            arrive = prior * reach[seat, h] / totals[seat, h] if totals[seat, h] > 0 else prior.copy()
        nodes.append(NodeReadout(node.id, seat, node.actions, node.capped, float(table_reach[h]),
                                 sigma[children].T.copy(), action_ev, node_ev, arrive, reach[seat, h].copy()))
    ending_reach = table_reach[solver.payoffs.nodes]
    tiers = solver.payoffs.tier
    # flop_solved only where the payoffs have solved endings, so charts of the other models keep their bytes
    tier_shares = {name: float(ending_reach[tiers == t].sum()) for t, name in TIERS.items()
                   if name != "flop_solved" or (tiers == t).any()}
    seat_ev = np.array([prior @ v[0] for v in values])
    return Readout(tuple(nodes), seat_ev, tier_shares, tier_shares["flop"])
