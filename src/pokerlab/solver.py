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
so the endings need one matrix product per table per seat update: the distinct ``q_j`` (a seat's
reach at an ending is its reach just after its own last action there) are stacked into a
(columns x classes) matrix, refreshed whenever seat ``j``'s strategy changes.

Each seat walks only its *view* of the tree: the nodes where it is still in the hand, plus the
nodes just after its folds, whose value is ``-contribution * prod_{k!=i} R_k(h)`` (what it put
in, times the chance the others get there) - nothing below them depends on the seat.

Scheme: CFR+ with **alternating updates** - within iteration ``t`` the seats are updated in
preflop order 0..n-1, each against the current strategies of the others (so seat 1 already
sees seat 0's strategy of iteration t+1). A seat's update: leaf values, one backward pass
(numba), regret-matching+ on each decision group (``pokerlab.cfr``), the average strategy
accumulated with weight ``t * reach`` (linear averaging), then a forward pass for its new
reach and its table columns. What ships is the average strategy.

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
def _backward_values(parent, mine, sigma, nodes, values, best_response):
    """Sum leaf values up one seat's view of the tree, children to parents. ``parent`` is in
    view-local indices, ``nodes`` maps them to tree indices (to read ``sigma``), ``mine[h]``
    says whether the seat chose the edge into ``h``. Non-leaf rows must hold 0, or -inf at the
    seat's decisions when ``best_response``. At the seat's decisions: weight by its strategy
    (or take the max over actions); elsewhere add (the others' reach is in the leaf values)."""
    m = values.shape[1]
    for h in range(parent.size - 1, 0, -1):
        p = parent[h]
        if mine[h]:
            if best_response:
                for c in range(m):
                    if values[h, c] > values[p, c]:
                        values[p, c] = values[h, c]
            else:
                g = nodes[h]
                for c in range(m):
                    values[p, c] += sigma[g, c] * values[h, c]
        else:
            for c in range(m):
                values[p, c] += values[h, c]


@njit(cache=True)
def _add_terms(values, rows, columns, column, weight):
    """values[rows[t]] += weight[t] * columns[column[t]] for every term t (rows may repeat)."""
    for t in range(rows.size):
        r, k, w = rows[t], column[t], weight[t]
        for c in range(values.shape[1]):
            values[r, c] += w * columns[k, c]


@dataclass
class _SeatView:
    """The part of the tree a seat's values need: every node whose parent still has the seat
    in the hand. Below one of its folds a seat's value no longer depends on anything it does:
    it is ``-contribution * P(the others reach the fold node)``, so the fold node is a leaf."""

    nodes: np.ndarray  # tree indices, ascending (so parents come first)
    parent: np.ndarray  # view-local parent index, -1 at the root
    mine: np.ndarray  # the seat chose the edge into the node
    live: np.ndarray  # endings with the seat in the hand (tree indices) ...
    live_local: np.ndarray  # ... their view-local indices ...
    live_const: np.ndarray  # ... and the seat's constant payoff term there
    folded: np.ndarray  # nodes just after one of the seat's folds (tree indices) ...
    folded_local: np.ndarray
    folded_const: np.ndarray  # ... and minus what the seat had put in
    decisions_local: np.ndarray  # the seat's decision nodes


@dataclass
class _Group:
    """The decision nodes of one seat with the same number of actions ``k``."""

    nodes: np.ndarray  # (D,) tree indices
    children: np.ndarray  # (D, k) tree indices of the children, in action order
    children_local: np.ndarray  # (D, k) the children's indices in the seat's view
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
            tables = [(win + 0.5 * tie, payoffs.term_win)]
        else:
            tables = [(win, payoffs.term_win), (tie, payoffs.term_tie)]
        self._tables_t = [np.ascontiguousarray(table.T) for table, _ in tables]
        self._term_coefs = [coef for _, coef in tables]
        self.views = [self._make_view(seat) for seat in range(self.n_seats)]
        self.groups: list[list[_Group]] = [self._make_groups(seat) for seat in range(self.n_seats)]
        self._make_columns()
        self._seat_terms = [self._make_terms(seat) for seat in range(self.n_seats)]
        self.iteration = 0
        self.sigma = np.ones((self.n_nodes, m))
        self.reach = np.ones((self.n_seats, self.n_nodes, m))
        self._totals = np.ones((self.n_seats, self.n_nodes))
        self._columns = [np.zeros((self.column_node.size, m)) for _ in tables]
        self._refresh_all()

    # --- set-up -------------------------------------------------------------------------------

    def _make_groups(self, seat: int) -> list[_Group]:
        tree, m = self.tree, self.n_classes
        mine = tree.decisions[tree.actor[tree.decisions] == seat]
        groups = []
        for k in np.unique(tree.n_children[mine]):
            nodes = mine[tree.n_children[mine] == k]
            children = tree.child_start[nodes][:, None] + np.arange(k)[None, :]
            local = np.searchsorted(self.views[seat].nodes, children)
            groups.append(_Group(nodes, children, local, np.zeros((nodes.size, m, k)), np.zeros((nodes.size, m, k))))
        return groups

    def _make_view(self, seat: int) -> _SeatView:
        tree, p = self.tree, self.payoffs
        in_hand = tree.in_hand[:, seat]
        keep = np.r_[True, in_hand[tree.parent[1:]]]  # the seat was in the hand at the parent
        nodes = np.flatnonzero(keep)
        parent = np.r_[-1, np.searchsorted(nodes, tree.parent[nodes[1:]])]
        is_ending = np.zeros(self.n_nodes, dtype=bool)
        is_ending[p.nodes] = True
        ending_row = np.full(self.n_nodes, -1)
        ending_row[p.nodes] = np.arange(p.nodes.size)
        live = nodes[is_ending[nodes] & in_hand[nodes]]
        folded = nodes[~in_hand[nodes]]
        mine_decisions = tree.decisions[tree.actor[tree.decisions] == seat]
        return _SeatView(nodes=nodes, parent=parent, mine=tree.parent_actor[nodes] == seat,
                         live=live, live_local=np.searchsorted(nodes, live), live_const=p.const[ending_row[live], seat],
                         folded=folded, folded_local=np.searchsorted(nodes, folded),
                         folded_const=-tree.contrib[folded, seat],
                         decisions_local=np.searchsorted(nodes, mine_decisions))

    def _make_columns(self) -> None:
        """The distinct opponent vectors the endings need. Seat j's reach at an ending equals its
        reach just after its own last action on the way there (its "source" node), so endings
        sharing a source share the product ``TABLE @ q_j``: one column per (j, source)."""
        tree, p = self.tree, self.payoffs
        source = np.zeros((self.n_seats, self.n_nodes), dtype=np.int64)
        for h in range(1, self.n_nodes):  # cheap set-up loop, not in the solve
            source[:, h] = source[:, tree.parent[h]]
            source[tree.parent_actor[h], h] = h
        term_source = source[p.term_opponent, p.nodes[p.term_ending]]
        keys = p.term_opponent * self.n_nodes + term_source
        unique, self._term_column = np.unique(keys, return_inverse=True)
        self.column_seat, self.column_node = unique // self.n_nodes, unique % self.n_nodes
        self._seat_column_range = [np.flatnonzero(self.column_seat == seat) for seat in range(self.n_seats)]

    def _make_terms(self, seat: int) -> dict:
        """Per seat: the terms of its payoffs, with the view-local row of their ending and a mask
        of the seats whose reach scales them (everyone but the seat and its opponent)."""
        p = self.payoffs
        sel = np.flatnonzero(p.term_seat == seat)
        others = np.ones((sel.size, self.n_seats), dtype=bool)
        others[:, seat] = False
        others[np.arange(sel.size), p.term_opponent[sel]] = False
        node = p.nodes[p.term_ending[sel]]
        return {"node": node, "local": np.searchsorted(self.views[seat].nodes, node), "column": self._term_column[sel],
                "others": others, "coefs": [coef[sel] for coef in self._term_coefs]}

    # --- strategies ---------------------------------------------------------------------------

    def _write_sigma(self, sigma: np.ndarray, seat: int, average: bool) -> None:
        for g in self.groups[seat]:
            strat = average_strategy(g.strategy_sum) if average else regret_matching(g.regrets)
            sigma[g.children] = strat.transpose(0, 2, 1)

    def _refresh_reach(self, seat: int, sigma: np.ndarray, reach: np.ndarray, totals: np.ndarray,
                       columns: list[np.ndarray]) -> None:
        """Recompute ``seat``'s reach, its totals R_seat(h) = p . reach and its table columns."""
        _forward_reach(self.parent, self.parent_actor, sigma, seat, reach[seat])
        totals[seat] = reach[seat] @ self.prior
        cols = self._seat_column_range[seat]
        q = reach[seat][self.column_node[cols]] * self.prior
        for out, table_t in zip(columns, self._tables_t):
            out[cols] = q @ table_t

    def _refresh_all(self) -> None:
        for seat in range(self.n_seats):
            self._write_sigma(self.sigma, seat, average=False)
        for seat in range(self.n_seats):
            self._refresh_reach(seat, self.sigma, self.reach, self._totals, self._columns)

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

    def ending_inputs(self, reach: np.ndarray) -> tuple[np.ndarray, list[np.ndarray]]:
        """Totals R_s(h) (seats, n_nodes) and table columns for an arbitrary ``reach``."""
        totals = reach @ self.prior
        q = reach[self.column_seat, self.column_node, :] * self.prior
        return totals, [q @ table_t for table_t in self._tables_t]

    # --- values -------------------------------------------------------------------------------

    def leaf_values(self, seat: int, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(tree indices, values) at the leaves of ``seat``'s view: endings it is in and the
        nodes just after its folds; the others' reach taken from ``reach``."""
        view = self.views[seat]
        values = np.zeros((view.nodes.size, self.n_classes))
        self._leaf_values(seat, self.ending_inputs(reach), values)
        leaves = np.r_[view.live_local, view.folded_local]
        return view.nodes[leaves], values[leaves]

    def _leaf_values(self, seat: int, inputs: tuple[np.ndarray, list[np.ndarray]], values: np.ndarray) -> None:
        """Write the leaf rows of ``values`` (the seat's view) from totals and table columns."""
        view, t = self.views[seat], self._seat_terms[seat]
        totals, columns = inputs
        others = np.delete(totals, seat, axis=0)  # R_k(h) of every other seat
        values[view.live_local] = (view.live_const * others[:, view.live].prod(axis=0))[:, None]
        values[view.folded_local] = (view.folded_const * others[:, view.folded].prod(axis=0))[:, None]
        scale = np.where(t["others"], totals[:, t["node"]].T, 1.0).prod(axis=1)  # prod_{k != seat, j} R_k
        for coef, cols in zip(t["coefs"], columns):
            _add_terms(values, t["local"], cols, t["column"], coef * scale)

    def _view_values(self, seat: int, sigma: np.ndarray, inputs: tuple[np.ndarray, list[np.ndarray]],
                     best_response: bool = False) -> np.ndarray:
        view = self.views[seat]
        values = np.zeros((view.nodes.size, self.n_classes))
        if best_response:
            values[view.decisions_local] = -np.inf
        self._leaf_values(seat, inputs, values)
        _backward_values(view.parent, view.mine, sigma, view.nodes, values, best_response)
        return values

    def seat_values(self, seat: int, sigma: np.ndarray, reach: np.ndarray, best_response: bool = False,
                    ending_inputs: tuple[np.ndarray, list[np.ndarray]] | None = None) -> np.ndarray:
        """(n_nodes, m) counterfactual values of ``seat`` at every node: under ``sigma`` for the
        seat's own play, or its best response (max per node and class) when ``best_response``.
        Nodes below the seat's own folds are not valued (NaN). ``ending_inputs``: precomputed
        :meth:`ending_inputs` of ``reach`` (saves the products)."""
        inputs = ending_inputs if ending_inputs is not None else self.ending_inputs(reach)
        out = np.full((self.n_nodes, self.n_classes), np.nan)
        out[self.views[seat].nodes] = self._view_values(seat, sigma, inputs, best_response)
        return out

    # --- CFR+ ---------------------------------------------------------------------------------

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` CFR+ iterations (alternating updates, seats in preflop order)."""
        for _ in range(iterations):
            self.iteration += 1
            weight = linear_average_weight(self.iteration)
            for seat in range(self.n_seats):
                values = self._view_values(seat, self.sigma, (self._totals, self._columns))
                for g in self.groups[seat]:
                    strat = self.sigma[g.children].transpose(0, 2, 1)
                    action_values = values[g.children_local].transpose(0, 2, 1)
                    accumulate_average(g.strategy_sum, strat, weight * self.reach[seat][g.nodes])
                    regret_matching_plus_update(g.regrets, instant_regrets(action_values, strat))
                self._write_sigma(self.sigma, seat, average=False)
                self._refresh_reach(seat, self.sigma, self.reach, self._totals, self._columns)

    def exploitability(self) -> tuple[np.ndarray, np.ndarray]:
        """(per-seat exploitability, per-seat value) of the average strategy, bb/hand.

        For each seat: best-response value (max over its actions per node and class, all
        others at the average strategy) minus its value under the average profile.
        """
        sigma = self.average_sigma()
        reach = self.reach_under(sigma)
        inputs = self.ending_inputs(reach)
        gains, profile = np.zeros(self.n_seats), np.zeros(self.n_seats)
        for seat in range(self.n_seats):
            profile[seat] = self.prior @ self._view_values(seat, sigma, inputs)[0]
            gains[seat] = self.prior @ self._view_values(seat, sigma, inputs, best_response=True)[0] - profile[seat]
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
