"""CFR+ with ICM payoffs: the chip solver plus the value of seats outside a showdown.

Under chip EV a seat that folds has lost exactly what it put in, whatever happens next, so
:class:`pokerlab.preflop.solver.Solver` makes the node after a fold a leaf worth
``-contribution * P(the others reach it)``. Under ICM it is not: the folded seat's prize
equity moves with the other seats' showdowns (:class:`pokerlab.preflop.payoffs_icm.IcmPayoffs`). This
solver keeps the chip solver's tree views, tables and CFR+ unchanged and replaces the value
of each fold leaf ``f`` of seat ``s`` by the exact sum over the endings ``z`` below it:

    V_s(f) = sum_z [ const[z, s] * prod_{k != s} R_k(z)
                     + sum_{spectator terms (a, b)} coef * <q_a(z), TABLE q_b(z)> * prod_{k != s, a, b} R_k(z) ]

(a scalar per leaf: the folded seat's class no longer matters). The same spectator terms
reach a seat still in a three-way pot while one duel of the other two is played out (its
bust place depends on it); they are added to its row of the ending. ``TABLE q_b(z)`` is the
column the chip solver already keeps for seat ``b``'s reach at ``z`` (shared with the payoff
term ``(a, z, b)``). The dot products ``<q_a, TABLE q_b>`` are shared by every spectator of
the duel: they are kept with the ending inputs and recomputed when seat ``a`` or ``b`` has
changed its strategy, so a spectator term costs a few scalar products per seat update.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.icm import PayoutStructure, load_payouts
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.payoffs_icm import IcmPayoffs, icm_payoffs
from pokerlab.preflop.solver import EndingInputs, Solver
from pokerlab.preflop.tree import Tree

ICM_FORMATS = ("icm_bubble", "icm_final")
"""Formats valued by ICM; each uses the payout structure of the same name."""


@njit(cache=True, inline="always")
def _spectator_dot(own_reach, a, r, prior, columns, tab, col):
    """``<q_a, TABLE q_b> = sum_c own_reach[a, r, c] * prior[c] * columns[tab, col, c]`` in a
    fixed order (four interleaved partial sums, then the tail)."""
    m = prior.size
    s0 = s1 = s2 = s3 = 0.0
    c = 0
    while c + 4 <= m:
        s0 += own_reach[a, r, c] * prior[c] * columns[tab, col, c]
        s1 += own_reach[a, r, c + 1] * prior[c + 1] * columns[tab, col, c + 1]
        s2 += own_reach[a, r, c + 2] * prior[c + 2] * columns[tab, col, c + 2]
        s3 += own_reach[a, r, c + 3] * prior[c + 3] * columns[tab, col, c + 3]
        c += 4
    total = (s0 + s1) + (s2 + s3)
    while c < m:
        total += own_reach[a, r, c] * prior[c] * columns[tab, col, c]
        c += 1
    return total


@njit(cache=True)
def _duel_dots(dots, ids, duel_a, duel_row, duel_column, own_reach, prior, columns):
    """``dots[i, d] = <q_a, TABLE_i q_b>`` for the duels ``d`` in ``ids``: seat ``a``'s
    q-vector from its own-edge reach row ``duel_row[d]``, ``TABLE_i q_b`` the column ``duel_column[d]``."""
    for d in ids:
        for tab in range(columns.shape[0]):
            dots[tab, d] = _spectator_dot(own_reach, duel_a[d], duel_row[d], prior, columns, tab, duel_column[d])


@njit(cache=True)
def _fold_and_spectator_scalars(scalars, totals, seat, n_live, endings, leaf, const, s_node, s_leaf, s_duel, s_others,
                                s_coefs, dots):
    """Replace the scalars of the seat's fold leaves (``scalars[n_live:]``) by
    ``sum_z const[z] * prod_{k != seat} R_k(z)`` over the endings below each (``leaf[i]``: the
    fold leaf of ``endings[i]``), then add each spectator term
    ``coef * <q_a, TABLE q_b> * prod_{k in others} R_k`` to the scalar of its leaf."""
    scalars[n_live:] = 0.0
    for i in range(endings.size):
        product = 1.0
        for k in range(totals.shape[0]):
            if k != seat:
                product *= totals[k, endings[i]]
        scalars[leaf[i]] += const[i] * product
    for t in range(s_node.size):
        scale = 1.0
        for k in range(totals.shape[0]):
            if s_others[t, k]:
                scale *= totals[k, s_node[t]]
        weighted = 0.0
        for tab in range(dots.shape[0]):
            weighted += s_coefs[tab, t] * dots[tab, s_duel[t]]
        scalars[s_leaf[t]] += weighted * scale


class IcmSolver(Solver):
    """:class:`Solver` for :class:`IcmPayoffs` (see the module docstring)."""

    def __init__(self, tree: Tree, payoffs: IcmPayoffs, win: np.ndarray, tie: np.ndarray,
                 prior: np.ndarray | None = None):
        if not isinstance(payoffs, IcmPayoffs):
            raise ValueError(f"IcmSolver needs IcmPayoffs, got {type(payoffs).__name__}")
        super().__init__(tree, payoffs, win, tie, prior)

    def _make_extra_terms(self) -> None:
        p, tree, n_nodes = self.payoffs, self.tree, self.n_nodes
        # Coefficients of the spectator terms on the tables the chip solver chose.
        if len(self._tables_t) == 2:
            coefs = [p.spectator_win, p.spectator_tie]
        elif np.allclose(p.spectator_tie, 0.5 * p.spectator_win, rtol=0, atol=1e-12):
            coefs = [p.spectator_win]  # one equity table W + T/2
        else:
            raise ValueError("spectator terms weight ties apart from wins, but the solver kept one table")
        # the table column of seat b at ending z is the one the chip solver made for the term (a, z, b)
        n, n_endings = self.n_seats, p.nodes.size
        term_keys = (p.term_seat * n_endings + p.term_ending) * n + p.term_opponent  # sorted, as the terms are
        ending_row = np.full(n_nodes, -1)
        ending_row[p.nodes] = np.arange(p.nodes.size)
        self._parts, duel_keys = [], []
        for seat in range(self.n_seats):
            view = self.views[seat]
            out_endings = p.nodes[~tree.in_hand[p.nodes, seat]]
            # the fold leaf above each ending the seat is out of: the first node on the path without it
            leaf_of = np.full(n_nodes, -1)  # (index into view.leaves)
            leaf_of[view.leaves[view.n_live:]] = np.arange(view.n_live, view.leaves.size)
            for h in range(1, n_nodes):
                if leaf_of[h] < 0 and not tree.in_hand[h, seat]:
                    leaf_of[h] = leaf_of[tree.parent[h]]
            sel = np.flatnonzero(p.spectator_seat == seat)
            node = p.nodes[p.spectator_ending[sel]]
            a, b = p.spectator_a[sel], p.spectator_b[sel]
            keys = (a * n_endings + p.spectator_ending[sel]) * n + b
            term = np.minimum(np.searchsorted(term_keys, keys), term_keys.size - 1)
            if not np.array_equal(term_keys[term], keys):
                raise ValueError("a spectator pair (a, b) has no payoff term (a, z, b) to share its table column")
            column = self._term_column[term]
            # a spectator term lands on the seat's leaf at the ending if it is in the hand (the third
            # seat of a three-way pot watching one duel), else on the fold leaf above the ending
            in_hand = tree.in_hand[node, seat]
            leaf = np.searchsorted(view.leaves[:view.n_live], node)
            leaf[~in_hand] = leaf_of[node[~in_hand]]
            others = np.ones((sel.size, self.n_seats), dtype=bool)
            others[:, seat] = False
            others[np.arange(sel.size), a] = False
            others[np.arange(sel.size), b] = False
            # the duel's dot product depends on (a, a's reach row at z, b's column at z) only
            duel_keys.append(np.stack([a, self._source_row[a, node], column], axis=1))
            self._parts.append({
                "endings": out_endings, "leaf": leaf_of[out_endings], "const": p.const[ending_row[out_endings], seat],
                "s_node": node, "s_leaf": leaf, "s_others": others, "s_coefs": np.array([c[sel] for c in coefs])})
        duels, duel_index = np.unique(np.concatenate(duel_keys), axis=0, return_inverse=True)
        duel_index = duel_index.reshape(-1)
        for part, start in zip(self._parts, np.cumsum([0] + [k.shape[0] for k in duel_keys])):
            part["s_duel"] = duel_index[start:start + part["s_node"].size]
        self._duel_a, self._duel_row, self._duel_column = (np.ascontiguousarray(x) for x in duels.T)
        duel_b = self.column_seat[self._duel_column]
        self._seat_duels = [np.flatnonzero((self._duel_a == seat) | (duel_b == seat)) for seat in range(self.n_seats)]

    def _new_inputs(self) -> EndingInputs:
        inputs = super()._new_inputs()
        inputs.extra = np.zeros((len(self._tables_t), self._duel_a.size))  # the duels' dot products
        return inputs

    def _refresh_extra(self, seat: int, inputs: EndingInputs) -> None:
        _duel_dots(inputs.extra, self._seat_duels[seat], self._duel_a, self._duel_row, self._duel_column,
                   inputs.own_reach, self.prior, inputs.columns)

    def _leaf_scalars(self, seat: int, inputs: EndingInputs, out: np.ndarray) -> None:
        super()._leaf_scalars(seat, inputs, out)
        view, part = self.views[seat], self._parts[seat]
        _fold_and_spectator_scalars(out, inputs.totals, seat, view.n_live, part["endings"], part["leaf"], part["const"],
                                    part["s_node"], part["s_leaf"], part["s_duel"], part["s_others"], part["s_coefs"],
                                    inputs.extra)


def make_solver(tree: Tree, model: PostflopModel, win: np.ndarray, tie: np.ndarray,
                payouts: dict[str, PayoutStructure] | None = None, classes=None, aggressor=None,
                solved=None) -> tuple[Solver, dict]:
    """The solver for the format of ``tree.spot`` and a description of its payoffs for the result.

    ``cash`` and ``mtt`` are chip EV in bb; a format named like a payout structure
    (``icm_bubble``, ``icm_final``: ``pokerlab/data/payouts.yaml`` unless ``payouts`` is given) is
    valued by ICM in bb-equivalents (:mod:`pokerlab.preflop.payoffs_icm`). ``classes``: the class
    table of postflop model v2 (any format), ``aggressor`` the optional aggressor term and ``solved`` the
    solved-ending corrections (both chip formats only).
    """
    fmt = tree.spot.format
    if fmt not in ICM_FORMATS:
        return (Solver(tree, chip_ev_payoffs(tree, model, classes, aggressor, solved), win, tie),
                {"model": "chip_ev", "unit": "bb"})
    if aggressor is not None:
        raise ValueError(f"solve.postflop.aggressor: not implemented for the ICM format {fmt!r} (chip formats only)")
    if solved is not None:
        raise ValueError(f"solved endings: not implemented for the ICM format {fmt!r} (chip formats only)")
    structures = load_payouts() if payouts is None else payouts
    if fmt not in structures:
        raise ValueError(f"format {fmt!r}: no payout structure of that name (have {sorted(structures)})")
    payoffs = icm_payoffs(tree, model, structures[fmt], classes)
    return IcmSolver(tree, payoffs, win, tie), {
        "model": "icm_malmuth_harville",
        "unit": "bb-equivalent (prize equity x total chips / prize pool, net of the equity before the hand)",
        "structure": structures[fmt].as_dict(),
        "stacks": "every player left starts with the depth (the big blind's ante on top), off-table players too",
        "bb_per_prize": payoffs.bb_per_prize,
        "multiway_rule": "random duel: each pair settles the pot with probability 1/3, the third seat loses",
    }
