"""CFR+ over a preflop tree, vectorised over hand classes, with an exact best response.

Model. Each seat's class is drawn independently with prior ``p`` (``cards.CLASS_PRIOR`` for the
169 classes; no card removal between ranges). An information set is (decision node, class of
the actor): the action string is public, the other seats' classes are not.

Notation (all arrays float64, values in bb):
    ``reach[s, h, c]``  seat ``s``'s own probability of playing to node ``h`` holding class c;
    ``q_s(z) = p * reach[s, z]`` and ``R_s(z) = sum(q_s(z))`` at an ending ``z``;
    ``V_i[h, c]``       seat ``i``'s counterfactual value at ``h`` holding ``c``: its expected
                        payoff below ``h`` weighted by every *other* seat's probability of
                        reaching each ending (and their priors), and its own play below ``h``.
With pairwise-linear payoffs (:mod:`pokerlab.payoffs`), at an ending
    V_i[z] = const[z,i] * prod_{k!=i} R_k + sum_terms coef * (TABLE @ q_j(z)) * prod_{k!=i,j} R_k,
so all endings of one seat need one matrix product per table: the ``q_j`` are stacked into a
(terms x classes) matrix.

Scheme: CFR+ with **alternating updates** - within iteration ``t`` the seats are updated in
preflop order 0..n-1, each against the current strategies of the others (so seat 1 already
sees seat 0's strategy of iteration t+1). A seat's update: one ending-value evaluation, one
backward pass (numba), regret-matching+ on each decision group (``pokerlab.cfr``), the
average strategy accumulated with weight ``t * reach`` (linear averaging), then a forward
pass for its new reach. What ships is the average strategy.

Best response: the same backward pass with a max over the seat's actions per (node, class),
all other seats fixed at the average strategy. ``exploitability[i] = BR_i - value_i`` in
bb/hand; the spot's figure is the maximum over seats.

The tree is compiled into flat arrays in breadth-first order (parents before children,
siblings contiguous); the strategy lives on edges, indexed by the child node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pokerlab import cards
from pokerlab.cfr import (accumulate_average, average_strategy, instant_regrets, linear_average_weight,
                          regret_matching, regret_matching_plus_update)
from pokerlab.payoffs import EndingPayoffs
from pokerlab.tree import Tree


@njit(cache=True)
def _forward_reach(parent, parent_actor, sigma, seat, reach):
    """reach[h] = reach[parent] * (sigma[h] if the parent's actor is ``seat`` else 1)."""
    reach[0, :] = 1.0
    for h in range(1, parent.size):
        p = parent[h]
        if parent_actor[h] == seat:
            for c in range(reach.shape[1]):
                reach[h, c] = reach[p, c] * sigma[h, c]
        else:
            for c in range(reach.shape[1]):
                reach[h, c] = reach[p, c]


@njit(cache=True)
def _backward_values(parent, parent_actor, sigma, seat, values, best_response):
    """Sum ending values up the tree, children to parents (values of decision rows must be 0,
    or -inf at ``seat``'s decisions when ``best_response``): at ``seat``'s decisions weight by
    its strategy (or take the max over actions), elsewhere add (the others' reach is already
    inside the ending values)."""
    m = values.shape[1]
    for h in range(parent.size - 1, 0, -1):
        p = parent[h]
        if parent_actor[h] == seat:
            if best_response:
                for c in range(m):
                    if values[h, c] > values[p, c]:
                        values[p, c] = values[h, c]
            else:
                for c in range(m):
                    values[p, c] += sigma[h, c] * values[h, c]
        else:
            for c in range(m):
                values[p, c] += values[h, c]


@dataclass
class _Group:
    """The decision nodes of one seat with the same number of actions ``k``."""

    nodes: np.ndarray  # (D,) tree indices
    children: np.ndarray  # (D, k) tree indices of the children, in action order
    regrets: np.ndarray  # (D, m, k) regret-matching+ values
    strategy_sum: np.ndarray  # (D, m, k) sum of t * reach * strategy


class Solver:
    """CFR+ state for one tree, one payoff structure and one pair of showdown tables.

    ``win``/``tie``: (m, m) tables (row = the seat's class); ``prior``: (m,) class prior.
    ``m`` is 169 for real solves; tests use small synthetic games.
    """

    def __init__(self, tree: Tree, payoffs: EndingPayoffs, win: np.ndarray, tie: np.ndarray,
                 prior: np.ndarray | None = None):
        self.tree = tree
        self.payoffs = payoffs
        self.prior = np.asarray(cards.CLASS_PRIOR if prior is None else prior, dtype=np.float64)
        m = self.prior.size
        win, tie = np.asarray(win, dtype=np.float64), np.asarray(tie, dtype=np.float64)
        if win.shape != (m, m) or tie.shape != (m, m):
            raise ValueError(f"tables must be {m}x{m} to match the prior, got {win.shape} and {tie.shape}")
        self.n_seats, self.n_classes, self.n_nodes = tree.seats, m, tree.n_nodes
        self.parent, self.parent_actor = tree.parent, tree.parent_actor
        # One table per distinct (win, tie) weighting: chip EV weights a tie as half a win, so one
        # equity table serves every term; otherwise win and tie are multiplied separately.
        if np.array_equal(payoffs.term_tie, 0.5 * payoffs.term_win):
            self._tables = [(win + 0.5 * tie, payoffs.term_win)]
        else:
            self._tables = [(win, payoffs.term_win), (tie, payoffs.term_tie)]
        self._tables_t = [np.ascontiguousarray(table.T) for table, _ in self._tables]
        self.groups: list[list[_Group]] = [self._make_groups(seat) for seat in range(self.n_seats)]
        self._seat_terms = [self._make_terms(seat) for seat in range(self.n_seats)]
        self.iteration = 0
        self.sigma = np.ones((self.n_nodes, m))
        self.reach = np.ones((self.n_seats, self.n_nodes, m))
        self._refresh_all()

    # --- set-up -------------------------------------------------------------------------------

    def _make_groups(self, seat: int) -> list[_Group]:
        tree, m = self.tree, self.n_classes
        mine = tree.decisions[tree.actor[tree.decisions] == seat]
        groups = []
        for k in np.unique(tree.n_children[mine]):
            nodes = mine[tree.n_children[mine] == k]
            children = tree.child_start[nodes][:, None] + np.arange(k)[None, :]
            groups.append(_Group(nodes, children, np.zeros((nodes.size, m, k)), np.zeros((nodes.size, m, k))))
        return groups

    def _make_terms(self, seat: int) -> dict:
        """Per seat: its terms split into slots in which every ending appears at most once, so
        their contributions can be added with plain fancy indexing."""
        p = self.payoffs
        sel = np.flatnonzero(p.term_seat == seat)
        ending, opponent = p.term_ending[sel], p.term_opponent[sel]
        others = np.ones((sel.size, self.n_seats), dtype=bool)
        others[:, seat] = False
        others[np.arange(sel.size), opponent] = False
        slot = np.zeros(sel.size, dtype=np.int64)  # position of the term among its ending's terms
        if sel.size:
            first = np.r_[True, ending[1:] != ending[:-1]]
            start = np.maximum.accumulate(np.where(first, np.arange(sel.size), 0))
            slot = np.arange(sel.size) - start
        return {"sel": sel, "ending": ending, "node": p.nodes[ending], "opponent": opponent,
                "others": others, "slots": [np.flatnonzero(slot == s) for s in range(int(slot.max(initial=-1)) + 1)]}

    # --- strategies ---------------------------------------------------------------------------

    def _write_sigma(self, sigma: np.ndarray, seat: int, average: bool) -> None:
        for g in self.groups[seat]:
            strat = average_strategy(g.strategy_sum) if average else regret_matching(g.regrets)
            sigma[g.children] = strat.transpose(0, 2, 1)

    def _refresh_all(self) -> None:
        for seat in range(self.n_seats):
            self._write_sigma(self.sigma, seat, average=False)
        for seat in range(self.n_seats):
            _forward_reach(self.parent, self.parent_actor, self.sigma, seat, self.reach[seat])

    def average_sigma(self) -> np.ndarray:
        """(n_nodes, m) average strategy on each edge (row = child node; root row = 1)."""
        sigma = np.ones((self.n_nodes, self.n_classes))
        for seat in range(self.n_seats):
            self._write_sigma(sigma, seat, average=True)
        return sigma

    def reach_under(self, sigma: np.ndarray) -> np.ndarray:
        """(seats, n_nodes, m) every seat's own reach under the edge strategies ``sigma``."""
        reach = np.ones((self.n_seats, self.n_nodes, self.n_classes))
        for seat in range(self.n_seats):
            _forward_reach(self.parent, self.parent_actor, sigma, seat, reach[seat])
        return reach

    # --- values -------------------------------------------------------------------------------

    def ending_values(self, seat: int, reach: np.ndarray) -> np.ndarray:
        """(Z, m) counterfactual values of ``seat`` at every ending, others' reach from ``reach``."""
        p, t = self.payoffs, self._seat_terms[seat]
        total = reach[:, p.nodes, :] @ self.prior  # (seats, Z): R_s(z)
        others = np.delete(total, seat, axis=0).prod(axis=0)  # prod_{k != seat} R_k(z)
        values = (p.const[:, seat] * others)[:, None] * np.ones((1, self.n_classes))
        if t["sel"].size:
            q = reach[t["opponent"], t["node"], :] * self.prior  # (K, m)
            scale = np.where(t["others"], total[:, t["ending"]].T, 1.0).prod(axis=1)  # prod_{k != seat, j}
            contrib = np.zeros_like(q)
            for (_, coef), table_t in zip(self._tables, self._tables_t):
                contrib += (coef[t["sel"]] * scale)[:, None] * (q @ table_t)
            for idx in t["slots"]:
                values[t["ending"][idx]] += contrib[idx]
        return values

    def seat_values(self, seat: int, sigma: np.ndarray, reach: np.ndarray, best_response: bool = False) -> np.ndarray:
        """(n_nodes, m) counterfactual values of ``seat`` at every node: under ``sigma`` for the
        seat's own play, or its best response (max per node and class) when ``best_response``."""
        values = np.zeros((self.n_nodes, self.n_classes))
        if best_response:
            values[self.tree.decisions[self.tree.actor[self.tree.decisions] == seat]] = -np.inf
        values[self.payoffs.nodes] = self.ending_values(seat, reach)
        _backward_values(self.parent, self.parent_actor, sigma, seat, values, best_response)
        return values

    # --- CFR+ ---------------------------------------------------------------------------------

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` CFR+ iterations (alternating updates, seats in preflop order)."""
        for _ in range(iterations):
            self.iteration += 1
            weight = linear_average_weight(self.iteration)
            for seat in range(self.n_seats):
                values = self.seat_values(seat, self.sigma, self.reach)
                for g in self.groups[seat]:
                    strat = self.sigma[g.children].transpose(0, 2, 1)
                    action_values = values[g.children].transpose(0, 2, 1)
                    accumulate_average(g.strategy_sum, strat, weight * self.reach[seat][g.nodes])
                    regret_matching_plus_update(g.regrets, instant_regrets(action_values, strat))
                self._write_sigma(self.sigma, seat, average=False)
                _forward_reach(self.parent, self.parent_actor, self.sigma, seat, self.reach[seat])

    def exploitability(self) -> tuple[np.ndarray, np.ndarray]:
        """(per-seat exploitability, per-seat value) of the average strategy, bb/hand.

        For each seat: best-response value (max over its actions per node and class, all
        others at the average strategy) minus its value under the average profile.
        """
        sigma = self.average_sigma()
        reach = self.reach_under(sigma)
        gains, profile = np.zeros(self.n_seats), np.zeros(self.n_seats)
        for seat in range(self.n_seats):
            profile[seat] = self.prior @ self.seat_values(seat, sigma, reach)[0]
            gains[seat] = self.prior @ self.seat_values(seat, sigma, reach, best_response=True)[0] - profile[seat]
        return gains, profile

    # --- state --------------------------------------------------------------------------------

    def state(self) -> dict[str, np.ndarray]:
        """Everything needed to continue the solve bit-for-bit (see :meth:`load_state`)."""
        out = {"iteration": np.array(self.iteration, dtype=np.int64)}
        for seat, groups in enumerate(self.groups):
            for g in groups:
                k = g.children.shape[1]
                out[f"regrets_{seat}_{k}"] = g.regrets
                out[f"strategy_sum_{seat}_{k}"] = g.strategy_sum
        return out

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state` output; current strategies and reaches are recomputed from the
        regrets exactly as the uninterrupted solve computed them."""
        for seat, groups in enumerate(self.groups):
            for g in groups:
                k = g.children.shape[1]
                for name in ("regrets", "strategy_sum"):
                    array = np.asarray(state[f"{name}_{seat}_{k}"], dtype=np.float64)
                    if array.shape != getattr(g, name).shape:
                        raise ValueError(f"solver state {name}_{seat}_{k}: shape {array.shape} does not match the tree")
                    setattr(g, name, array.copy())
        self.iteration = int(state["iteration"])
        self._refresh_all()
