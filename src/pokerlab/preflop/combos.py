"""The preflop game over the 1,326 combos, with card removal (2 and 3 seats): CFR+, the exact
best response, the read-out by class, and a class chart measured in that game.

The class solver (:mod:`pokerlab.preflop.solver`) deals each seat a class independently, so a
hand never blocks the other seat's range. Here each seat holds one combo and the two hands are
dealt from one deck: every pair of combos that share no card is equally likely (probability
``1 / (n * live)``, ``n`` combos of which ``live`` miss a given one: 1,326 and 1,225). The tree,
the payoffs (:func:`pokerlab.preflop.payoffs.chip_ev_payoffs`, their trust tiers) and CFR+ are
the class solver's, run with ``m = n`` hands of prior ``1/n``; only the values at the leaves
change. Seat ``i`` holding combo ``c`` at a leaf with constant ``u`` and equity coefficient ``e``
(``j`` the other seat, ``q_j = reach_j / n`` its weighted reach there):

    V_i[c] = (n / live) * ( u * (R_j - B_j(c)) + e * (EQ @ q_j)[c] ),   R_j = sum(q_j),

where ``EQ`` is the combo equity table (0 where the hands collide) and ``B_j(c)`` the mass of
``q_j`` on the ``2 * 51 - 1`` combos that share a card with ``c``. By inclusion-exclusion over
the two cards, ``B_j(c) = Q_j[c1] + Q_j[c2] - q_j[c]`` with ``Q_j[x]`` the mass on the combos
holding card ``x``: 52 sums per reach vector instead of a 1,326 x 1,326 product. The class
solver's leaf scalars already give ``u * R_j``; this solver keeps, for each of the other
seat's own edges, the correction ``(n / live) * (R_j - B_j(c)) - R_j`` and adds ``u`` times it
at each leaf (:func:`add_leaf_blocking`). The equity term is the class solver's table product
(the same :func:`~pokerlab.preflop.kernels.sparse_products`, over 1,326 columns instead of 169)
on the scaled table ``(n / live) * EQ``. A seat's value summed with weights ``1/n`` is its
expected payoff per hand, so the exploitability is in bb/hand as in the class game.

Without blocking (``ComboDeck.cards`` None: the product deal) the corrections are zero and the
game is the class game with each class split into its combos, which the tests use.

Three seats (:class:`ThreeSeatComboSolver`): every triple of hands that share no card is equally
likely, and each leaf is summed over one opponent's hands with the third seat's mass from
inclusion-exclusion (:func:`three_seat_leaf_values`): exact, but O(n^2) per leaf.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from pokerlab import cards as C
from pokerlab.preflop.kernels import _weighted_total, region_backward
from pokerlab.preflop.payoffs import TIERS, EndingPayoffs
from pokerlab.preflop.readout import NodeReadout, Readout
from pokerlab.preflop.solver import EndingInputs, Solver
from pokerlab.preflop.tree import Tree

HANDS = ("classes", "combos")
"""What a seat's hand is in a solve (``solve.hands``): one of the 169 classes, or one of the 1,326 combos."""

COMBO_SEATS = (2, 3)
"""Table sizes the combo mode solves (three-handed: exact but slow, :class:`ThreeSeatComboSolver`)."""


@dataclass(frozen=True)
class ComboDeck:
    """The hands of the combo game. ``win``/``tie`` (n, n): probability that the row hand wins
    or ties against the column hand (0 where they collide); ``combo_class`` (n,): each hand's
    class (for expanding a class strategy and reading a combo one by class); ``cards`` (n, 2):
    the two cards of each hand (any numbering), or None for the product deal with no blocking.
    With cards, every hand must miss the same number of the others (all the 2-card hands of a
    set of cards)."""

    win: np.ndarray
    tie: np.ndarray
    combo_class: np.ndarray
    cards: np.ndarray | None = None

    def __post_init__(self) -> None:
        n = self.combo_class.size
        if self.win.shape != (n, n) or self.tie.shape != (n, n):
            raise ValueError(f"combo deck: win {self.win.shape} and tie {self.tie.shape} must be ({n}, {n})")
        if self.cards is not None:
            if self.cards.shape != (n, 2):
                raise ValueError(f"combo deck: cards {self.cards.shape} must be ({n}, 2)")
            live = self.live.sum(axis=1)
            if np.any(live != live[0]):
                raise ValueError("combo deck: every hand must miss as many of the others (all the 2-card hands of a set of cards)")

    @classmethod
    def full(cls, table) -> "ComboDeck":
        """The real deck from the 1,326 x 1,326 table (:class:`pokerlab.equity_combos.ComboEquityTable`)."""
        from pokerlab.equity_combos import BOARDS_PER_PAIR

        return cls(np.asarray(table.wins, dtype=np.float64) / BOARDS_PER_PAIR,
                   np.asarray(table.ties, dtype=np.float64) / BOARDS_PER_PAIR,
                   C.COMBO_CLASS.astype(np.int64), C.COMBO_CARDS.astype(np.int64))

    @classmethod
    def expanded_classes(cls, class_win: np.ndarray, class_tie: np.ndarray) -> "ComboDeck":
        """The class game split into combos: each combo carries its class's equities and the deal
        is the product one (no blocking)."""
        k = C.COMBO_CLASS.astype(np.int64)
        return cls(np.asarray(class_win, dtype=np.float64)[np.ix_(k, k)],
                   np.asarray(class_tie, dtype=np.float64)[np.ix_(k, k)], k)

    @property
    def n(self) -> int:
        return self.combo_class.size

    @property
    def live(self) -> np.ndarray:
        """(n, n) bool: the pair can be dealt (no shared card); all True for the product deal."""
        if self.cards is None:
            return np.ones((self.n, self.n), dtype=bool)
        a, b = self.cards[:, 0], self.cards[:, 1]
        return ~((a[:, None] == a) | (a[:, None] == b) | (b[:, None] == a) | (b[:, None] == b))

    @property
    def scale(self) -> float:
        """n / (hands that miss a given hand): turns ``q = reach / n`` into the conditional deal's weights."""
        return 1.0 if self.cards is None else self.n / int(self.live[0].sum())

    @property
    def card_slots(self) -> np.ndarray:
        """(n, 2) the cards renumbered 0..k-1 (k cards in the deck)."""
        _, slots = np.unique(self.cards, return_inverse=True)
        return slots.reshape(self.n, 2).astype(np.int64)


@njit(cache=True)
def blocking_corrections(reach, rows, prior, slots, n_cards, scale, out):
    """``out[r, c] = scale * (R - B(c)) - R`` for the first ``rows`` rows of a seat's own-edge
    reach, with ``q = reach[r] * prior``, ``R`` its total (summed as the solver's totals are) and
    ``B(c) = Q[slots[c, 0]] + Q[slots[c, 1]] - q[c]`` its mass on the hands sharing a card with c
    (``Q[x]``: the mass on the hands holding card x, summed in hand order)."""
    m = prior.size
    mass = np.empty(n_cards)
    for r in range(rows):
        total = _weighted_total(reach, r, prior)
        mass[:] = 0.0
        for c in range(m):
            q = reach[r, c] * prior[c]
            mass[slots[c, 0]] += q
            mass[slots[c, 1]] += q
        for c in range(m):
            blocked = mass[slots[c, 0]] + mass[slots[c, 1]] - reach[r, c] * prior[c]
            out[r, c] = scale * (total - blocked) - total


@njit(cache=True)
def add_leaf_blocking(values, rows, leaf_const, opponent_rows, corrections):
    """``values[rows[i]] += leaf_const[i] * corrections[opponent_rows[i]]`` for every leaf ``i``:
    the part of a leaf's constant payoff that depends on which hands the other seat can hold."""
    m = values.shape[1]
    for i in range(rows.size):
        u = leaf_const[i]
        if u == 0.0:
            continue
        r, o = rows[i], opponent_rows[i]
        for c in range(m):
            values[r, c] += u * corrections[o, c]


class ComboSolver(Solver):
    """CFR+ and the exact best response of the heads-up combo game (see the module docstring).
    ``deck``: the hands, their equities and cards; the payoffs are the class solver's (chip EV,
    postflop model v1: class deviations are per class and would need their own blocking)."""

    def __init__(self, tree: Tree, payoffs: EndingPayoffs, deck: ComboDeck):
        if tree.seats != 2:
            raise ValueError(f"ComboSolver: 2 seats, not {tree.seats} (three: ThreeSeatComboSolver)")
        if payoffs.class_vectors is not None:
            raise ValueError("solve.hands: combos takes postflop model v1 (class deviations and solved endings "
                             "are per class)")
        self.deck = deck
        self._scale = deck.scale
        self._slots = deck.card_slots if deck.cards is not None else None
        super().__init__(tree, payoffs, deck.win * self._scale, deck.tie * self._scale,
                         prior=np.full(deck.n, 1.0 / deck.n))

    def _new_inputs(self) -> EndingInputs:
        inputs = super()._new_inputs()
        if self._slots is not None:
            inputs.extra = np.zeros_like(inputs.own_reach)
        return inputs

    def _make_extra_terms(self) -> None:
        """Per seat: its leaves' rows, constants and the other seat's own-edge row at each."""
        self._leaf_blocking = []
        for seat, view in enumerate(self.views):
            opponent_rows = self._source_row[1 - seat, view.leaves]
            self._leaf_blocking.append({"local": view.leaf_local, "region": view.leaf_region,
                                        "const": np.ascontiguousarray(view.leaf_const), "opponent": opponent_rows})

    def _refresh_extra(self, seat: int, inputs: EndingInputs) -> None:
        if self._slots is not None:
            rows = self._edge_node[seat].size
            blocking_corrections(inputs.own_reach[seat], rows, self.prior, self._slots, int(self._slots.max()) + 1,
                                 self._scale, inputs.extra[seat])

    def others_mass(self, inputs: EndingInputs) -> np.ndarray:
        """(seats, n_nodes, n): at every node, the chance that the other seat plays to it given
        that the seat holds each hand (its reach over the hands the deal leaves it)."""
        live = np.empty((2, self.n_nodes, self.deck.n))
        for seat in range(2):
            other = 1 - seat
            live[seat] = inputs.totals[other][:, None]
            if inputs.extra is not None:
                live[seat] += inputs.extra[other][self._source_row[other]]
        return live

    def _add_terms(self, seat: int, inputs: EndingInputs, values: np.ndarray, rows: str) -> None:
        super()._add_terms(seat, inputs, values, rows)
        if self._slots is not None:
            leaves = self._leaf_blocking[seat]
            add_leaf_blocking(values, leaves[rows], leaves["const"], leaves["opponent"], inputs.extra[1 - seat])


@njit(cache=True, inline="always")
def _sum_over_one_seat(c, r, nonzero, count, r_third, total_third, b_third, equity, slots, pair_index):
    """For hand c: ``sum over d`` (the ``count`` hands in ``nonzero`` that miss c) of
    ``w = r[d] * (the third seat's mass missing c and d)``, and of ``w * EQ(c, d)``."""
    a, b = slots[c, 0], slots[c, 1]
    mass = weighted = 0.0
    for i in range(count):
        d = nonzero[i]
        x, y = slots[d, 0], slots[d, 1]
        if x == a or x == b or y == a or y == b:
            continue
        overlap = r_third[pair_index[a, x]] + r_third[pair_index[a, y]] + r_third[pair_index[b, x]] \
            + r_third[pair_index[b, y]]
        w = r[d] * (total_third - b_third[c] - b_third[d] + overlap)
        mass += w
        weighted += w * equity[c, d]
    return mass, weighted


@njit(cache=True)
def three_seat_leaf_values(reach_j, rows_j, reach_k, rows_k, const, coef_j, coef_k, equity, slots, pair_index, norm,
                           out):
    """Seat i's value at each leaf ``l`` of its view in the three-seat combo game, for every hand
    ``c`` it may hold: ``out[l, c] = norm * sum over the hands (d_j, d_k) of the other two seats
    that share no card with c nor with each other of r_j(d_j) r_k(d_k) (const[l] + coef_j[l]
    EQ(c, d_j) + coef_k[l] EQ(c, d_k))``, with ``r_j = reach_j[rows_j[l]]`` (own reach) and
    ``norm`` one over the number of such pairs. The sum runs over the hands one seat still plays
    (its nonzero reach: a few percent deep in a converged tree); the other seat's mass that
    collides with neither hand comes from inclusion-exclusion:
    ``R - B(c) - B(d) + O(c, d)``, ``B`` the mass on the hands sharing a card with one hand
    (per-card sums) and ``O`` the mass on the (at most 4) hands made of a card of each."""
    n, n_cards = equity.shape[0], pair_index.shape[0]
    qj, qk = np.empty(n_cards), np.empty(n_cards)
    bj, bk = np.empty(n), np.empty(n)
    nonzero_j, nonzero_k = np.empty(n, dtype=np.int64), np.empty(n, dtype=np.int64)
    qs = np.empty(n_cards)
    for leaf in range(const.size):
        u, ej, ek = const[leaf], coef_j[leaf], coef_k[leaf]
        if u == 0.0 and ej == 0.0 and ek == 0.0:
            out[leaf, :] = 0.0  # e.g. after a fold that lost nothing
            continue
        rj, rk = reach_j[rows_j[leaf]], reach_k[rows_k[leaf]]
        qj[:] = 0.0
        qk[:] = 0.0
        total_j = total_k = 0.0
        count_j = count_k = 0
        for c in range(n):
            a, b = slots[c, 0], slots[c, 1]
            qj[a] += rj[c]
            qj[b] += rj[c]
            qk[a] += rk[c]
            qk[b] += rk[c]
            total_j += rj[c]
            total_k += rk[c]
            if rj[c] != 0.0:  # the hands each opponent still plays: deep in the tree, a few percent
                nonzero_j[count_j] = c
                count_j += 1
            if rk[c] != 0.0:
                nonzero_k[count_k] = c
                count_k += 1
        for c in range(n):
            a, b = slots[c, 0], slots[c, 1]
            bj[c] = qj[a] + qj[b] - rj[c]
            bk[c] = qk[a] + qk[b] - rk[c]
        if ej == 0.0 and ek == 0.0:
            _constant_leaf(rj, rk, qj, bj, bk, total_j, total_k, slots, pair_index, qs, u * norm, out[leaf])
            continue
        for c in range(n):
            mass, with_j = _sum_over_one_seat(c, rj, nonzero_j, count_j, rk, total_k, bk, equity, slots, pair_index)
            with_k = 0.0
            if ek != 0.0:
                _, with_k = _sum_over_one_seat(c, rk, nonzero_k, count_k, rj, total_j, bj, equity, slots, pair_index)
            out[leaf, c] = norm * (u * mass + ej * with_j + ek * with_k)


@njit(cache=True)
def _constant_leaf(rj, rk, qj, bj, bk, total_j, total_k, slots, pair_index, qs, scale, out):
    """A leaf with no equity term: ``out[c] = scale * sum over d_j missing c of r_j(d_j) *
    (k's mass missing c and d_j)``, in closed form: ``(R_k - B_k(c)) (R_j - B_j(c)) - (S - B_s(c))
    + X(c)`` with ``s = r_j B_k`` (``S`` its total, ``B_s`` its mass on the hands sharing a card
    with c) and ``X(c) = sum over x in c, y not in c of r_k({x, y}) (Q_j[y] - r_j({y, c1}) -
    r_j({y, c2}))``, the mass of k's hands made of a card of c and a card of d_j (O(cards) per hand)."""
    n, n_cards = rj.size, qj.size
    qs[:] = 0.0
    total_s = 0.0
    for d in range(n):
        v = rj[d] * bk[d]
        qs[slots[d, 0]] += v
        qs[slots[d, 1]] += v
        total_s += v
    for c in range(n):
        a, b = slots[c, 0], slots[c, 1]
        cross = 0.0
        for y in range(n_cards):
            if y == a or y == b:
                continue
            with_y = qj[y] - rj[pair_index[y, a]] - rj[pair_index[y, b]]  # j's mass on hands with y, missing c
            cross += (rk[pair_index[a, y]] + rk[pair_index[b, y]]) * with_y
        blocked_s = qs[a] + qs[b] - rj[c] * bk[c]
        out[c] = scale * ((total_k - bk[c]) * (total_j - bj[c]) - (total_s - blocked_s) + cross)


@njit(cache=True)
def scatter_rows(values, rows, leaf_values):
    """``values[r] = sum of leaf_values[i] over rows[i] == r`` (in order); other rows 0."""
    values[:] = 0.0
    for i in range(rows.size):
        r = rows[i]
        for c in range(values.shape[1]):
            values[r, c] += leaf_values[i, c]


class ThreeSeatComboSolver(Solver):
    """The three-seat combo game, exact: every pairwise-linear payoff of the class solver's tree,
    with every triple of hands that share no card equally likely. Each leaf of a seat's view is
    valued by :func:`three_seat_leaf_values`, a sum over the hands of one opponent (O(n^2) per
    leaf, no table product); the best response, the values and CFR+ are the class solver's on
    those leaf values. Slow (seconds per iteration): the structured form of the three-seat leaves
    is not built (docs/card-removal.md)."""

    def __init__(self, tree: Tree, payoffs: EndingPayoffs, deck: ComboDeck):
        if tree.seats != 3:
            raise ValueError(f"ThreeSeatComboSolver: 3 seats, not {tree.seats}")
        if payoffs.class_vectors is not None or not np.array_equal(payoffs.term_tie, 0.5 * payoffs.term_win):
            raise ValueError("combo mode: chip EV payoffs of postflop model v1 only")
        if deck.cards is None:
            raise ValueError("ThreeSeatComboSolver: the deck needs its cards (blocking)")
        self.deck = deck
        self._equity = np.ascontiguousarray(deck.win + 0.5 * deck.tie)
        super().__init__(tree, payoffs, deck.win, deck.tie, prior=np.full(deck.n, 1.0 / deck.n))

    def _make_extra_terms(self) -> None:
        slots = self.deck.card_slots
        n_cards = int(slots.max()) + 1
        self._slots = slots
        self._pair_index = np.zeros((n_cards, n_cards), dtype=np.int64)
        self._pair_index[slots[:, 0], slots[:, 1]] = np.arange(self.deck.n)
        self._pair_index[slots[:, 1], slots[:, 0]] = np.arange(self.deck.n)
        self._norm = 1.0 / (math.comb(n_cards - 2, 2) * math.comb(n_cards - 4, 2))
        p = self.payoffs
        self._leaves = []
        for seat, view in enumerate(self.views):
            j, k = (s for s in range(3) if s != seat)
            leaf_of = {int(h): i for i, h in enumerate(view.leaves)}
            sel = np.flatnonzero(p.term_seat == seat)
            coef = np.zeros((2, view.leaves.size))
            for t in sel:
                coef[0 if p.term_opponent[t] == j else 1, leaf_of[int(p.nodes[p.term_ending[t]])]] += p.term_win[t]
            self._leaves.append((j, k, self._source_row[j, view.leaves], self._source_row[k, view.leaves],
                                 np.ascontiguousarray(view.leaf_const), coef[0], coef[1]))

    def _seat_columns(self, seat: int, inputs: EndingInputs) -> None:
        """No table columns: the leaves sum over the hands themselves."""

    def _leaf_values(self, seat: int, inputs: EndingInputs) -> np.ndarray:
        j, k, rows_j, rows_k, const, coef_j, coef_k = self._leaves[seat]
        out = np.empty((const.size, self.deck.n))
        three_seat_leaf_values(inputs.own_reach[j], rows_j, inputs.own_reach[k], rows_k, const, coef_j, coef_k,
                               self._equity, self._slots, self._pair_index, self._norm, out)
        return out

    def others_mass(self, inputs: EndingInputs) -> np.ndarray:
        """(seats, n_nodes, n): at every node, the chance that the other two seats play to it
        given that the seat holds each hand."""
        live = np.empty((3, self.n_nodes, self.deck.n))
        nodes = np.arange(self.n_nodes)
        ones, zeros = np.ones(self.n_nodes), np.zeros(self.n_nodes)
        for seat in range(3):
            j, k = (s for s in range(3) if s != seat)
            three_seat_leaf_values(inputs.own_reach[j], self._source_row[j, nodes], inputs.own_reach[k],
                                   self._source_row[k, nodes], ones, zeros, zeros, self._equity, self._slots,
                                   self._pair_index, self._norm, live[seat])
        return live

    def _view_leaf_values(self, seat: int, inputs: EndingInputs) -> np.ndarray:
        view = self.views[seat]
        values = np.zeros((view.nodes.size, self.n_classes))
        values[view.leaf_local] = self._leaf_values(seat, inputs)
        return values

    def _region_values(self, seat: int, sigma: np.ndarray, inputs: EndingInputs,
                       best_response: bool = False) -> np.ndarray:
        view, values = self.views[seat], self._values[seat]
        scatter_rows(values, view.leaf_region, self._leaf_values(seat, inputs))
        region_backward(values, view.decision_region, view.first_child_row, view.decision_n_children,
                        self._edge_node[seat], sigma, best_response)
        return values


def combo_solver(tree: Tree, payoffs: EndingPayoffs, deck: ComboDeck) -> Solver:
    """The combo game's solver for the tree's table size: :class:`ComboSolver` heads-up,
    :class:`ThreeSeatComboSolver` three-handed."""
    if tree.seats == 3:
        return ThreeSeatComboSolver(tree, payoffs, deck)
    return ComboSolver(tree, payoffs, deck)


def expand_class_strategy(class_sigma: np.ndarray, deck: ComboDeck) -> np.ndarray:
    """(n_nodes, n) edge strategies of every hand from (n_nodes, 169) class strategies: each
    combo plays its class's strategy."""
    return np.ascontiguousarray(np.asarray(class_sigma)[:, deck.combo_class])


def _class_sums(x: np.ndarray, combo_class: np.ndarray) -> np.ndarray:
    """(..., 169) sums of (..., n) over each class's hands."""
    out = np.zeros(x.shape[:-1] + (C.N_CLASSES,))
    np.add.at(out.T, combo_class, np.moveaxis(x, -1, 0))
    return out


def _class_mean(x: np.ndarray, weight: np.ndarray, fallback: np.ndarray, combo_class: np.ndarray) -> np.ndarray:
    """(..., 169) means of (..., n) over each class's hands weighted by ``weight`` (n,); a class
    with no weight takes the ``fallback``-weighted mean (NaN if that has none either)."""
    num, den = _class_sums(x * weight, combo_class), _class_sums(weight, combo_class)
    num2, den2 = _class_sums(x * fallback, combo_class), _class_sums(fallback, combo_class)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), num2 / den2)


def read_out_combos(solver: ComboSolver | ThreeSeatComboSolver) -> Readout:
    """The read-out of a combo solve by class (the fields of
    :class:`pokerlab.preflop.readout.NodeReadout`, 169 classes), with the deal's blocking:

    * ``reach``: the share of deals reaching the node, ``sum_c P(c) reach_0(c) live_0(c)`` where
      ``live_s(c)`` is the chance that the other seats play to it given that seat ``s`` holds ``c``
      (``others_mass`` of the solver);
    * ``arrive_with``, ``strategy``: the classes of the deals reaching the node (at a node no deal
      reaches, those of the deal itself) and each class's frequencies, its combos weighted by their
      share of those deals (a class that never arrives: its combos' plain mean);
    * ``action_ev``, ``node_ev``: a class's EV given the node is reached, its combos weighted by
      the chance the others get there with them (NaN where they never do);
    * ``class_reach``: the mean over the class's combos of the actor's own reach.
    """
    tree, prior, k = solver.tree, solver.prior, solver.deck.combo_class
    sigma = solver.average_sigma()
    reach = solver.reach_under(sigma)
    inputs = solver.ending_inputs(reach)
    values = [solver.seat_values(seat, sigma, reach, ending_inputs=inputs) for seat in range(solver.n_seats)]
    live = solver.others_mass(inputs)  # live[s, h, c]: P(the others reach h | seat s holds c)
    deals = prior * reach * live  # the deals (c, any other hand) reaching h with seat s holding c
    table_reach = deals[0].sum(axis=1)
    uniform = np.ones(solver.deck.n)
    unreached = _class_sums(prior, k) / prior.sum()  # a node no deal reaches arrives with the deal's classes
    nodes = []
    for h in tree.decisions:
        node = tree.nodes[h]
        seat = node.actor
        children = tree.child_start[h] + np.arange(len(node.actions))
        others = prior * live[seat, h]
        with np.errstate(invalid="ignore", divide="ignore"):
            action_ev = np.where(live[seat, h] > 0, values[seat][children] / live[seat, h], np.nan)
            node_ev = np.where(live[seat, h] > 0, values[seat][h] / live[seat, h], np.nan)
            arrive = _class_sums(deals[seat, h], k) / table_reach[h] if table_reach[h] > 0 else unreached
        nodes.append(NodeReadout(node.id, seat, node.actions, node.capped, float(table_reach[h]),
                                 _class_mean(sigma[children], deals[seat, h], uniform, k).T,
                                 _class_mean(np.nan_to_num(action_ev), others, others, k).T,
                                 _class_mean(np.nan_to_num(node_ev), others, others, k),
                                 arrive, _class_mean(reach[seat, h], uniform, uniform, k)))
    ending_reach = table_reach[solver.payoffs.nodes]
    tiers = solver.payoffs.tier
    tier_shares = {name: float(ending_reach[tiers == t].sum()) for t, name in TIERS.items() if name != "flop_solved"}
    seat_ev = np.array([prior @ v[0] for v in values])
    return Readout(tuple(nodes), seat_ev, tier_shares, tier_shares["flop"])


def class_strategy_from_result(tree: Tree, result: dict) -> np.ndarray:
    """(n_nodes, 169) edge strategies of a result document's chart (its per-class read-out, as
    shipped: rounded, so each node's frequencies are rescaled to sum to one)."""
    sigma = np.ones((tree.n_nodes, C.N_CLASSES))
    for node in result["nodes"]:
        h = tree.index[node["id"]]
        children = tree.child_start[h] + np.arange(len(node["actions"]))
        sigma[children] = [node["strategy"][a] for a in node["actions"]]
        sigma[children] /= sigma[children].sum(axis=0)
    return sigma


def chart_in_combo_game(tree: Tree, payoffs: EndingPayoffs, result: dict, deck: ComboDeck) -> tuple[np.ndarray, np.ndarray]:
    """(per-seat exploitability, per-seat value), bb/hand, of a class chart played combo by combo
    (every combo of a class plays the class's frequencies) in the combo game of ``deck``: what
    the chart gives away to a player who accounts for card removal."""
    solver = combo_solver(tree, payoffs, deck)
    return solver.exploitability_of(expand_class_strategy(class_strategy_from_result(tree, result), deck))


def frequency_changes(base: dict, other: dict, min_reach: float = 0.01) -> dict[str, float | str]:
    """How far two result documents of one tree are apart, in percentage points, node by node
    (decisions reached by at least ``min_reach`` of the deals in ``base``):

    * ``share_max`` / ``share_mean``: the largest change of a node's action share (the share of
      the deals reaching it that take the action), over the nodes and actions, and the mean over
      the nodes of each node's largest one, weighted by the node's reach;
    * ``class_max`` / ``class_mean``: per class, half the sum over the actions of the changes of
      its frequencies (the share of its hands that play differently); the largest over nodes and
      the classes that reach them, and the mean over each node's arriving classes (weighted by
      ``base``'s arrival), then over the nodes by reach;
    * ``share_max_node`` / ``class_max_node``: where the largest ones are (node id, and class).
    """
    others = {node["id"]: node for node in other["nodes"]}
    out: dict[str, float | str] = {"share_max": 0.0, "class_max": 0.0, "share_max_node": "", "class_max_node": ""}
    weight = share_sum = class_sum = 0.0
    for node in base["nodes"]:
        if node["reach"] < min_reach:
            continue
        twin = others[node["id"]]
        shares = np.array([abs(node["shares"][a] - twin["shares"][a]) for a in node["actions"]]) * 100
        strategy = np.array([node["strategy"][a] for a in node["actions"]])
        twin_strategy = np.array([twin["strategy"][a] for a in node["actions"]])
        per_class = 50 * np.abs(strategy - twin_strategy).sum(axis=0)
        arrive = np.array(node["arrive_with"], dtype=np.float64)
        per_class = np.where(arrive > 0, per_class, 0.0)
        weight += node["reach"]
        share_sum += node["reach"] * shares.max()
        class_sum += node["reach"] * float(arrive @ per_class)
        if shares.max() > out["share_max"]:
            out["share_max"] = float(shares.max())
            out["share_max_node"] = f"{node['id'] or 'root'} {node['actions'][int(shares.argmax())]}"
        if per_class.max() > out["class_max"]:
            out["class_max"] = float(per_class.max())
            out["class_max_node"] = f"{node['id'] or 'root'} {C.CLASS_NAMES[int(per_class.argmax())]}"
    out["share_mean"] = share_sum / weight
    out["class_mean"] = class_sum / weight
    return out
