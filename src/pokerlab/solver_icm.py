"""CFR+ with ICM payoffs: the chip solver plus the value of seats outside a showdown.

Under chip EV a seat that folds has lost exactly what it put in, whatever happens next, so
:class:`pokerlab.solver.Solver` makes the node after a fold a leaf worth
``-contribution * P(the others reach it)``. Under ICM it is not: the folded seat's prize
equity moves with the other seats' showdowns (:class:`pokerlab.payoffs_icm.IcmPayoffs`). This
solver keeps the chip solver's tree views, tables and CFR+ unchanged and replaces the value
of each fold leaf ``f`` of seat ``s`` by the exact sum over the endings ``z`` below it:

    V_s(f) = sum_z [ const[z, s] * prod_{k != s} R_k(z)
                     + sum_{spectator terms (a, b)} coef * <q_a(z), TABLE q_b(z)> * prod_{k != s, a, b} R_k(z) ]

(a scalar per leaf: the folded seat's class no longer matters). The same spectator terms
reach a seat still in a three-way pot while one duel of the other two is played out (its
bust place depends on it); they are added to its row of the ending. ``TABLE q_b(z)`` is the
column the chip solver already keeps for seat ``b``'s reach at ``z`` (shared with the payoff
term ``(a, z, b)``), so each spectator term costs one dot product of length m per seat update.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.icm import PayoutStructure, load_payouts
from pokerlab.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.payoffs_icm import IcmPayoffs, icm_payoffs
from pokerlab.solver import Solver
from pokerlab.tree import Tree

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
def _fold_and_spectator_scalars(scalars, totals, seat, n_live, endings, leaf, const, s_node, s_leaf, s_a, s_reach_row,
                                s_column, s_others, s_coefs, columns, own_reach, prior):
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
        dots = 0.0
        for tab in range(columns.shape[0]):
            dots += s_coefs[tab, t] * _spectator_dot(own_reach, s_a[t], s_reach_row[t], prior, columns, tab, s_column[t])
        scalars[s_leaf[t]] += dots * scale


class IcmSolver(Solver):
    """:class:`Solver` for :class:`IcmPayoffs` (see the module docstring)."""

    def __init__(self, tree: Tree, payoffs: IcmPayoffs, win: np.ndarray, tie: np.ndarray,
                 prior: np.ndarray | None = None):
        if not isinstance(payoffs, IcmPayoffs):
            raise ValueError(f"IcmSolver needs IcmPayoffs, got {type(payoffs).__name__}")
        super().__init__(tree, payoffs, win, tie, prior)
        p, n_nodes = payoffs, self.n_nodes
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
        self._parts = []
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
            self._parts.append({
                "endings": out_endings, "leaf": leaf_of[out_endings], "const": p.const[ending_row[out_endings], seat],
                "s_node": node, "s_leaf": leaf, "s_a": a, "s_reach_row": self._source_row[a, node], "s_column": column,
                "s_others": others, "s_coefs": np.array([c[sel] for c in coefs])})

    def _leaf_scalars(self, seat: int, inputs: tuple, out: np.ndarray) -> None:
        super()._leaf_scalars(seat, inputs, out)
        totals, columns, own_reach = inputs
        view, part = self.views[seat], self._parts[seat]
        _fold_and_spectator_scalars(out, totals, seat, view.n_live, part["endings"], part["leaf"], part["const"],
                                    part["s_node"], part["s_leaf"], part["s_a"], part["s_reach_row"], part["s_column"],
                                    part["s_others"], part["s_coefs"], columns, own_reach, self.prior)


def make_solver(tree: Tree, model: PostflopModel, win: np.ndarray, tie: np.ndarray,
                payouts: dict[str, PayoutStructure] | None = None) -> tuple[Solver, dict]:
    """The solver for the format of ``tree.spot`` and a description of its payoffs for the result.

    ``cash`` and ``mtt`` are chip EV in bb; a format named like a payout structure
    (``icm_bubble``, ``icm_final``: ``config/payouts.yaml`` unless ``payouts`` is given) is
    valued by ICM in bb-equivalents (:mod:`pokerlab.payoffs_icm`).
    """
    fmt = tree.spot.format
    if fmt not in ICM_FORMATS:
        return Solver(tree, chip_ev_payoffs(tree, model), win, tie), {"model": "chip_ev", "unit": "bb"}
    structures = load_payouts() if payouts is None else payouts
    if fmt not in structures:
        raise ValueError(f"format {fmt!r}: no payout structure of that name (have {sorted(structures)})")
    payoffs = icm_payoffs(tree, model, structures[fmt])
    return IcmSolver(tree, payoffs, win, tie), {
        "model": "icm_malmuth_harville",
        "unit": "bb-equivalent (prize equity x total chips / prize pool, net of the equity before the hand)",
        "structure": structures[fmt].as_dict(),
        "stacks": "every player left starts with the depth (the big blind's ante on top), off-table players too",
        "bb_per_prize": payoffs.bb_per_prize,
        "multiway_rule": "random duel: each pair settles the pot with probability 1/3, the third seat loses",
    }
