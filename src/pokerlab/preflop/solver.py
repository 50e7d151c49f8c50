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
With pairwise-linear payoffs (:mod:`pokerlab.preflop.payoffs`), at an ending
    V_i[z] = const[z,i] * prod_{k!=i} R_k + sum_terms coef * (TABLE @ q_j(z)) * prod_{k!=i,j} R_k,
so the endings need one matrix product per table per seat update: the distinct ``q_j`` (a seat's
reach at an ending is its reach just after its own last action there) are stacked into a
(columns x classes) matrix, refreshed whenever seat ``j``'s strategy changes.

Each seat walks only its *view* of the tree: the nodes where it is still in the hand, plus the
nodes just after its folds, whose value is ``-contribution * prod_{k!=i} R_k(h)`` (what it put
in, times the chance the others get there) - nothing below them depends on the seat.

Own edges and regions. A seat's reach changes only on its own edges (the children of its
decisions) and is copied down below them, so it is kept on those edges alone (row 0: the
root), and ``R_s(h)`` is read through the seat's last own edge above ``h``. The same edges cut
the seat's view into *regions* (the nodes whose last own edge above them is ``e``): the value
at edge ``e`` is the sum of the leaves and payoff terms of its region plus the values of the
seat's decisions in it. A leaf's value is a scalar (the same for every class of the seat)
plus, at showdowns, terms proportional to a table column, so CFR+ touches vectors of 169 only
on the seat's own edges and its payoff terms, never on the other seats' nodes.

Scheme: CFR+ with **alternating updates** - within iteration ``t`` the seats are updated in
preflop order 0..n-1, each against the current strategies of the others (so seat 1 already
sees seat 0's strategy of iteration t+1). A seat's update: its region values (leaf scalars and
terms, then its decisions children first), then one fused pass per decision group
(:func:`pokerlab.preflop.kernels.cfr_plus_update`: the primitives of :mod:`pokerlab.cfr` -
the average strategy accumulated with weight ``t * reach`` (linear averaging), instant regrets,
regret-matching+ - writing the new current strategy straight into ``sigma``), then a forward
pass for the seat's new reach, totals and table columns. What ships is the average strategy.

Best response: the same pass over the seat's decisions with a max over its actions per (node,
class), all other seats fixed at the average strategy. ``exploitability[i] = BR_i - value_i``
in bb/hand; the spot's figure is the maximum over seats. The read-out (:meth:`Solver.seat_values`)
values every node of the view instead, from the same leaves.

Class terms (postflop model v2, :mod:`pokerlab.preflop.class_edges`): a payoff term ``(i, z, j)``
may also carry ``coef * (d_own[c_i] - d_opp[c_j])``. In ``V_i[z]`` that is
``coef * prod_{k!=i,j} R_k * (R_j * d_own - d_opp . q_j(z))``: a constant 169-vector scaled by the
totals, and one dot product per table column and distinct class vector, computed with the
columns (one small product ``q @ vectors.T``). Without class terms nothing of this runs.

The tree is compiled into flat arrays in breadth-first order (parents before children,
siblings contiguous); the strategy lives on edges, indexed by the child node.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pokerlab import cards
from pokerlab.cfr import linear_average_weight
from pokerlab.preflop.payoffs import EndingPayoffs
from pokerlab.preflop.kernels import (add_class_terms, add_terms, backward_values, cfr_plus_update, forward_own_reach, gather_weighted,
                                     leaf_scalars, region_backward, scatter_scalars, sparse_products, weighted_totals,
                                     write_matched)
from pokerlab.preflop.tree import Tree

# The version of the solver's arithmetic: the order and kind of its floating-point operations.
# A saved state continues a solve to a fresh solve's bytes only under the arithmetic that wrote
# it, so it enters the state fingerprint; bump it with any change that moves a single bit of an
# iterate (1: table products by BLAS; 2: sparse products summed in class order).
ARITHMETIC_VERSION = 2


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


@dataclass
class _SeatView:
    """The part of the tree a seat's values need: every node whose parent still has the seat
    in the hand. Below one of its folds a seat's value no longer depends on anything it does:
    it is ``-contribution * P(the others reach the fold node)``, so the fold node is a leaf.

    The leaves are the endings the seat is in (the first ``n_live``) then the nodes just after
    its folds. A leaf's value is a scalar (the same for every class of the seat) plus, at
    endings, payoff terms proportional to a table column. The seat's values are kept per
    *region*: row ``r`` of the region values gathers the leaves and terms whose last own edge
    above them is ``r`` (the rows of :meth:`Solver._make_own_edges`), so a region's value
    is its leaves plus the values of the seat's decisions inside it."""

    nodes: np.ndarray  # tree indices, ascending (so parents come first)
    child_start: np.ndarray  # view-local index of the first child (siblings stay contiguous) ...
    n_children: np.ndarray  # ... and their number, 0 at the view's leaves
    acts: np.ndarray  # the seat decides at the node
    leaves: np.ndarray  # tree indices of the leaves (live endings, then fold nodes) ...
    leaf_local: np.ndarray  # ... their view-local indices ...
    leaf_region: np.ndarray  # ... their regions ...
    leaf_const: np.ndarray  # ... and the seat's constant payoff there (minus its contribution after a fold)
    n_live: int
    decision_region: np.ndarray  # the seat's decisions, children last: the region holding each ...
    first_child_row: np.ndarray  # ... and the region rows of its children (contiguous)
    decision_n_children: np.ndarray


@dataclass
class _Group:
    """The decision nodes of one seat with the same number of actions ``k``."""

    nodes: np.ndarray  # (D,) tree indices
    children: np.ndarray  # (D, k) tree indices of the children, in action order
    child_rows: np.ndarray  # (D, k) the children's rows in the seat's own-edge arrays (reach, region values)
    reach_rows: np.ndarray  # (D,) rows of the seat's own-edge reach holding its reach at the nodes
    regrets: np.ndarray  # (D, k, m) regret-matching+ values
    strategy_sum: np.ndarray  # (D, k, m) sum of t * reach * strategy


@dataclass
class EndingInputs:
    """What the leaf values need from a profile's reach (all seats)."""

    totals: np.ndarray  # (seats, n_nodes) R_s(h) = prior . reach_s(h)
    columns: np.ndarray  # (tables, columns, m) TABLE @ q for every column
    own_reach: np.ndarray  # (seats, rows, m) each seat's reach on its own edges (rows past them unused)
    extra: np.ndarray | None = None  # what a subclass derives from the above (ICM: spectator dot products)
    dots: np.ndarray | None = None  # (columns, vectors) class vector . q for every column (model v2 only)


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
        self._class_vectors_t = None if payoffs.class_vectors is None else np.ascontiguousarray(payoffs.class_vectors.T)
        if self._class_vectors_t is not None and self._class_vectors_t.shape[0] != m:
            raise ValueError(f"class vectors have {self._class_vectors_t.shape[0]} classes, the prior {m}")
        self._term_coefs = [coef for _, coef in tables]
        self._make_own_edges()
        self.views = [self._make_view(seat) for seat in range(self.n_seats)]
        self.groups: list[list[_Group]] = [self._make_groups(seat) for seat in range(self.n_seats)]
        self._make_columns()
        self._seat_terms = [self._make_terms(seat) for seat in range(self.n_seats)]
        self._make_extra_terms()
        self.iteration = 0
        self.sigma = np.ones((self.n_nodes, m))
        self._inputs = self._new_inputs()  # of the current strategies, kept up to date seat by seat
        self._own_totals = np.zeros(self._inputs.own_reach.shape[1])  # one seat's totals on its own edges
        self._q = np.zeros((max(r.size for r in self._seat_column_range), m))  # one seat's q-vectors
        self._values = [np.zeros((edges.size, m)) for edges in self._edge_node]  # region values
        self._scalars = [np.zeros(view.leaves.size) for view in self.views]
        self._refresh_all()

    # --- set-up -------------------------------------------------------------------------------

    def _make_own_edges(self) -> None:
        """Seat j's reach changes only on its own edges (the children of its decisions): below
        them it is copied down. So it is kept on those edges alone, row 0 being the root:
        ``_edge_node[j]`` (tree indices, ascending), ``_edge_parent_row[j][e]`` (the row of the
        seat's last own edge above edge e's parent) and ``_source_row[j, h]`` (the row holding
        the seat's reach at any node h: its last own edge on the way to h)."""
        tree, n = self.tree, self.n_nodes
        source = np.zeros((self.n_seats, n), dtype=np.int64)  # the seat's last own edge above h (0: root)
        for h in range(1, n):  # cheap set-up loop, not in the solve
            source[:, h] = source[:, tree.parent[h]]
            source[tree.parent_actor[h], h] = h
        self._source = source
        self._edge_node, self._edge_parent_row = [], []
        self._source_row = np.zeros((self.n_seats, n), dtype=np.int64)
        for seat in range(self.n_seats):
            edges = np.r_[0, np.flatnonzero(tree.parent_actor == seat)]
            self._source_row[seat] = np.searchsorted(edges, source[seat])
            self._edge_node.append(edges)
            self._edge_parent_row.append(np.r_[0, self._source_row[seat, tree.parent[edges[1:]]]])

    def _new_inputs(self) -> EndingInputs:
        rows = max(e.size for e in self._edge_node)
        dots = None if self._class_vectors_t is None else np.zeros((self.column_node.size, self._class_vectors_t.shape[1]))
        return EndingInputs(np.zeros((self.n_seats, self.n_nodes)),
                            np.zeros((len(self._tables_t), self.column_node.size, self.n_classes)),
                            np.zeros((self.n_seats, rows, self.n_classes)), dots=dots)

    def _make_groups(self, seat: int) -> list[_Group]:
        tree, m = self.tree, self.n_classes
        mine = tree.decisions[tree.actor[tree.decisions] == seat]
        groups = []
        for k in np.unique(tree.n_children[mine]):
            nodes = mine[tree.n_children[mine] == k]
            children = tree.child_start[nodes][:, None] + np.arange(k)[None, :]
            groups.append(_Group(nodes, children, self._source_row[seat, children], self._source_row[seat, nodes],
                                 np.zeros((nodes.size, k, m)), np.zeros((nodes.size, k, m))))
        return groups

    def _make_view(self, seat: int) -> _SeatView:
        tree, p = self.tree, self.payoffs
        in_hand = tree.in_hand[:, seat]
        keep = np.r_[True, in_hand[tree.parent[1:]]]  # the seat was in the hand at the parent
        nodes = np.flatnonzero(keep)
        n_children = np.where(in_hand[nodes], tree.n_children[nodes], 0)
        is_ending = np.zeros(self.n_nodes, dtype=bool)
        is_ending[p.nodes] = True
        ending_row = np.full(self.n_nodes, -1)
        ending_row[p.nodes] = np.arange(p.nodes.size)
        live = nodes[is_ending[nodes] & in_hand[nodes]]
        leaves = np.r_[live, nodes[~in_hand[nodes]]]
        region = self._source_row[seat]
        decisions = tree.decisions[tree.actor[tree.decisions] == seat][::-1]
        return _SeatView(nodes=nodes, child_start=np.searchsorted(nodes, tree.child_start[nodes]),
                         n_children=n_children,
                         acts=tree.actor[nodes] == seat, leaves=leaves, leaf_local=np.searchsorted(nodes, leaves),
                         leaf_region=region[leaves],
                         leaf_const=np.r_[p.const[ending_row[live], seat], -tree.contrib[leaves[live.size:], seat]],
                         n_live=live.size, decision_region=region[decisions],
                         first_child_row=region[tree.child_start[decisions]],
                         decision_n_children=tree.n_children[decisions])

    def _make_columns(self) -> None:
        """The distinct opponent vectors the endings need. Seat j's reach at an ending equals its
        reach just after its own last action on the way there (its "source" node), so endings
        sharing a source share the product ``TABLE @ q_j``: one column per (j, source). Columns
        are sorted by seat, so each seat's are a contiguous block."""
        p = self.payoffs
        term_source = self._source[p.term_opponent, p.nodes[p.term_ending]]
        keys = p.term_opponent * self.n_nodes + term_source
        unique, self._term_column = np.unique(keys, return_inverse=True)
        self.column_seat, self.column_node = unique // self.n_nodes, unique % self.n_nodes
        self._column_row = self._source_row[self.column_seat, self.column_node]
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
        out = {"node": node, "local": np.searchsorted(self.views[seat].nodes, node),
               "region": self._source_row[seat, node],
               "column": self._term_column[sel],
               "others": others, "coefs": np.array([coef[sel] for coef in self._term_coefs])}
        if p.class_vectors is not None:
            out.update(opponent=p.term_opponent[sel], class_coef=p.term_class[sel], own=p.term_own[sel],
                       opp=p.term_opp[sel])
        return out

    # --- strategies ---------------------------------------------------------------------------

    def _write_sigma(self, sigma: np.ndarray, seat: int, average: bool) -> None:
        for g in self.groups[seat]:
            write_matched(g.strategy_sum if average else g.regrets, g.children, sigma)

    def _refresh_reach(self, seat: int, sigma: np.ndarray, inputs: EndingInputs) -> None:
        """Recompute ``seat``'s part of ``inputs`` under ``sigma``: its own-edge reach, its totals
        R_seat(h) = p . reach(h) at every node, its table columns ``TABLE @ q`` and what derives
        from them."""
        edges = self._edge_node[seat]
        own_totals = self._own_totals[:edges.size]
        forward_own_reach(edges, self._edge_parent_row[seat], sigma, self.prior, inputs.own_reach[seat, :edges.size],
                          own_totals)
        np.take(own_totals, self._source_row[seat], out=inputs.totals[seat])
        self._seat_columns(seat, inputs)
        self._refresh_extra(seat, inputs)

    def _seat_columns(self, seat: int, inputs: EndingInputs) -> None:
        """``seat``'s block of the table columns from its own-edge reach."""
        cols = self._seat_column_range[seat]
        if cols.size:
            q = self._q[:cols.size]
            gather_weighted(inputs.own_reach, self.column_seat[cols], self._column_row[cols], self.prior, q)
            for out, table_t in zip(inputs.columns, self._tables_t):
                sparse_products(q, table_t, out[cols[0]:cols[-1] + 1])
            if inputs.dots is not None:
                sparse_products(q, self._class_vectors_t, inputs.dots[cols[0]:cols[-1] + 1])

    def _make_extra_terms(self) -> None:
        """Hook for subclasses whose payoffs have more than the chip terms (called once the views,
        columns and terms exist, before the first strategies are valued)."""

    def _refresh_extra(self, seat: int, inputs: EndingInputs) -> None:
        """Hook for subclasses: update ``inputs.extra`` after ``seat``'s reach and columns changed."""

    def _refresh_all(self) -> None:
        for seat in range(self.n_seats):
            self._write_sigma(self.sigma, seat, average=False)
        for seat in range(self.n_seats):
            self._refresh_reach(seat, self.sigma, self._inputs)

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

    def _inputs_under(self, sigma: np.ndarray) -> EndingInputs:
        """:meth:`ending_inputs` of the reach under ``sigma``, computed on the own edges only."""
        inputs = self._new_inputs()
        for seat in range(self.n_seats):
            self._refresh_reach(seat, sigma, inputs)
        return inputs

    def ending_inputs(self, reach: np.ndarray) -> EndingInputs:
        """What the leaf values need from a full ``reach`` (seats, n_nodes, m)."""
        inputs = self._new_inputs()
        for seat, edges in enumerate(self._edge_node):
            inputs.own_reach[seat, :edges.size] = reach[seat, edges]
            weighted_totals(reach[seat], self.prior, inputs.totals[seat])
            self._seat_columns(seat, inputs)
            self._refresh_extra(seat, inputs)
        return inputs

    # --- values -------------------------------------------------------------------------------

    def _leaf_scalars(self, seat: int, inputs: EndingInputs, out: np.ndarray) -> None:
        """The class-independent part of the value of each leaf of ``seat``'s view."""
        view = self.views[seat]
        leaf_scalars(inputs.totals, seat, view.leaves, view.leaf_const, out)

    def _add_terms(self, seat: int, inputs: EndingInputs, values: np.ndarray, rows: str) -> None:
        t = self._seat_terms[seat]
        add_terms(values, t[rows], inputs.totals, t["node"], t["column"], t["others"], t["coefs"], inputs.columns)
        if inputs.dots is not None:
            add_class_terms(values, t[rows], inputs.totals, t["node"], t["column"], t["others"], t["opponent"],
                            t["class_coef"], t["own"], t["opp"], self._class_vectors_t, inputs.dots)

    def _view_leaf_values(self, seat: int, inputs: EndingInputs) -> np.ndarray:
        """(view nodes, m) the seat's view with its leaf rows valued (other rows 0)."""
        view = self.views[seat]
        scalars, values = np.zeros(view.leaves.size), np.zeros((view.nodes.size, self.n_classes))
        self._leaf_scalars(seat, inputs, scalars)
        scatter_scalars(values, view.leaf_local, scalars)
        self._add_terms(seat, inputs, values, "local")
        return values

    def leaf_values(self, seat: int, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(tree indices, values) at the leaves of ``seat``'s view: endings it is in and the
        nodes just after its folds; the others' reach taken from ``reach``."""
        view = self.views[seat]
        return view.leaves, self._view_leaf_values(seat, self.ending_inputs(reach))[view.leaf_local]

    def _region_values(self, seat: int, sigma: np.ndarray, inputs: EndingInputs,
                       best_response: bool = False) -> np.ndarray:
        """The seat's values on its own edges (row 0: the root), in its reused buffer (valid
        until the next call for the seat): its action values under ``sigma`` for its own play,
        or under its best response."""
        view, values, scalars = self.views[seat], self._values[seat], self._scalars[seat]
        self._leaf_scalars(seat, inputs, scalars)
        scatter_scalars(values, view.leaf_region, scalars)
        self._add_terms(seat, inputs, values, "region")
        region_backward(values, view.decision_region, view.first_child_row, view.decision_n_children,
                        self._edge_node[seat], sigma, best_response)
        return values

    def seat_values(self, seat: int, sigma: np.ndarray, reach: np.ndarray, best_response: bool = False,
                    ending_inputs: EndingInputs | None = None) -> np.ndarray:
        """(n_nodes, m) counterfactual values of ``seat`` at every node: under ``sigma`` for the
        seat's own play, or its best response (max per node and class) when ``best_response``.
        Nodes below the seat's own folds are not valued (NaN). ``ending_inputs``: precomputed
        :meth:`ending_inputs` of ``reach`` (saves the products)."""
        view = self.views[seat]
        values = self._view_leaf_values(seat, ending_inputs if ending_inputs is not None else self.ending_inputs(reach))
        backward_values(view.child_start, view.n_children, view.acts, view.nodes, sigma, values, best_response)
        out = np.full((self.n_nodes, self.n_classes), np.nan)
        out[view.nodes] = values
        return out

    # --- CFR+ ---------------------------------------------------------------------------------

    def iterate(self, iterations: int = 1) -> None:
        """Run ``iterations`` CFR+ iterations (alternating updates, seats in preflop order; see
        the module docstring for a seat's update)."""
        inputs = self._inputs
        for _ in range(iterations):
            self.iteration += 1
            weight = linear_average_weight(self.iteration)
            for seat in range(self.n_seats):
                values = self._region_values(seat, self.sigma, inputs)
                reach = inputs.own_reach[seat]
                for g in self.groups[seat]:
                    cfr_plus_update(g.regrets, g.strategy_sum, self.sigma, values, reach, g.children,
                                    g.child_rows, g.reach_rows, weight)
                self._refresh_reach(seat, self.sigma, inputs)

    def exploitability(self) -> tuple[np.ndarray, np.ndarray]:
        """(per-seat exploitability, per-seat value) of the average strategy, bb/hand.

        For each seat: best-response value (max over its actions per node and class, all
        others at the average strategy) minus its value under the average profile.
        """
        return self.exploitability_of(self.average_sigma())

    def exploitability_of(self, sigma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(per-seat exploitability, per-seat value) of the edge strategies ``sigma`` (n_nodes, m), bb/hand."""
        inputs = self._inputs_under(sigma)
        gains, profile = np.zeros(self.n_seats), np.zeros(self.n_seats)
        for seat in range(self.n_seats):
            profile[seat] = self.prior @ self._region_values(seat, sigma, inputs)[0]
            gains[seat] = self.prior @ self._region_values(seat, sigma, inputs, best_response=True)[0] - profile[seat]
        return gains, profile

    # --- state --------------------------------------------------------------------------------

    def state(self) -> dict[str, np.ndarray]:
        """Everything needed to continue the solve bit-for-bit (see :meth:`load_state`). Regrets
        and strategy sums are stored (D, m, k), actions innermost, as the primitives of
        :mod:`pokerlab.cfr` hold them (the solver works on them transposed)."""
        out = {"iteration": np.array(self.iteration, dtype=np.int64)}
        for seat, groups in enumerate(self.groups):
            for g in groups:
                k = g.children.shape[1]
                out[f"regrets_{seat}_{k}"] = np.ascontiguousarray(g.regrets.transpose(0, 2, 1))
                out[f"strategy_sum_{seat}_{k}"] = np.ascontiguousarray(g.strategy_sum.transpose(0, 2, 1))
        return out

    def load_state(self, state: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state` output; current strategies and reaches are recomputed from the
        regrets exactly as the uninterrupted solve computed them."""
        loaded = []  # everything is read and checked before anything is replaced
        for seat, groups in enumerate(self.groups):
            for g in groups:
                k = g.children.shape[1]
                for name in ("regrets", "strategy_sum"):
                    key = f"{name}_{seat}_{k}"
                    if key not in state:
                        raise ValueError(f"solver state: {key} is missing")
                    array = np.asarray(state[key], dtype=np.float64)
                    d, k_, m = getattr(g, name).shape
                    if array.shape != (d, m, k_):
                        raise ValueError(f"solver state {key}: shape {array.shape} does not match the tree")
                    loaded.append((g, name, np.ascontiguousarray(array.transpose(0, 2, 1))))
        iteration = int(state["iteration"])
        for g, name, array in loaded:
            setattr(g, name, array)
        self.iteration = iteration
        self._refresh_all()
