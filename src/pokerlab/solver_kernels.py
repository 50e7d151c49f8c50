"""Numba kernels of the preflop CFR+ solver (:mod:`pokerlab.solver`): one pass each, no temporaries.

Layout (see :mod:`pokerlab.solver`): ``sigma[h, c]`` is the probability of the edge into node
``h`` for class ``c``; a decision group holds ``D`` nodes with ``k`` actions each, its
``regrets`` and ``strategy_sum`` are (D, m, k) and ``children[d, a]`` is the tree index of the
child reached by action ``a``. All arithmetic is float64 and performed in the order of the
readable primitives of :mod:`pokerlab.cfr` (sums over actions left to right, products over
seats in seat order), so the kernels reproduce them exactly; ``tests/test_solver_kernels.py``
checks that on random inputs.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _nonnegative(x):
    """``np.maximum(x, 0.0)`` bit for bit (keeps -0.0 and NaN as NumPy does)."""
    return x if (x >= 0.0 or x != x) else 0.0


@njit(cache=True, inline="always")
def _match_row(x, d, c, children, sigma):
    """Regret matching of ``x[d, c, :]`` written to ``sigma[children[d, a], c]``:
    proportional to the positive part, uniform if no entry is positive."""
    k = x.shape[2]
    total = _nonnegative(x[d, c, 0])
    for a in range(1, k):
        total += _nonnegative(x[d, c, a])
    if total > 0.0:
        for a in range(k):
            sigma[children[d, a], c] = _nonnegative(x[d, c, a]) / total
    else:
        for a in range(k):
            sigma[children[d, a], c] = 1.0 / k


@njit(cache=True)
def write_matched(x, children, sigma):
    """``sigma[children[d, a], c] = regret_matching(x)[d, c, a]`` for a group's regrets (the
    current strategy) or strategy sums (the average strategy)."""
    for d in range(x.shape[0]):
        for c in range(x.shape[1]):
            _match_row(x, d, c, children, sigma)


@njit(cache=True)
def cfr_plus_update(regrets, strategy_sum, sigma, values, reach, children, children_local, node_rows, weight):
    """One CFR+ update of a decision group of the seat being updated, in place.

    ``values``: the seat's counterfactual values on its view (row = view-local node, so the
    action values are ``values[children_local[d, a]]``); ``reach[node_rows[d]]``: the seat's own
    reach at node ``d``; ``weight``: the linear averaging weight ``t``. Equivalent to
    ``accumulate_average(strategy_sum, s, weight * reach)``, then
    ``regret_matching_plus_update(regrets, instant_regrets(action_values, s))`` and writing
    ``regret_matching(regrets)`` into ``sigma``, where ``s`` is the strategy in ``sigma``.
    """
    k = regrets.shape[2]
    for d in range(regrets.shape[0]):
        r = node_rows[d]
        for c in range(regrets.shape[1]):
            ev = sigma[children[d, 0], c] * values[children_local[d, 0], c]
            for a in range(1, k):
                ev += sigma[children[d, a], c] * values[children_local[d, a], c]
            w = weight * reach[r, c]
            for a in range(k):
                strategy_sum[d, c, a] += w * sigma[children[d, a], c]
                regrets[d, c, a] = _nonnegative(regrets[d, c, a] + (values[children_local[d, a], c] - ev))
            _match_row(regrets, d, c, children, sigma)


@njit(cache=True, inline="always")
def _weighted_total(x, r, prior):
    """``sum_c x[r, c] * prior[c]`` in a fixed order (four interleaved partial sums, then the
    tail), so the figure does not depend on the BLAS build or the array's shape."""
    m = prior.size
    s0 = s1 = s2 = s3 = 0.0
    c = 0
    while c + 4 <= m:
        s0 += x[r, c] * prior[c]
        s1 += x[r, c + 1] * prior[c + 1]
        s2 += x[r, c + 2] * prior[c + 2]
        s3 += x[r, c + 3] * prior[c + 3]
        c += 4
    total = (s0 + s1) + (s2 + s3)
    while c < m:
        total += x[r, c] * prior[c]
        c += 1
    return total


@njit(cache=True)
def weighted_totals(x, prior, out):
    """``out[r] = prior . x[r]`` for every row, summed as :func:`forward_own_reach` sums."""
    for r in range(x.shape[0]):
        out[r] = _weighted_total(x, r, prior)


@njit(cache=True)
def forward_own_reach(edge_node, edge_parent_row, sigma, prior, reach, totals):
    """A seat's reach on its own edges and its totals there: ``reach[0] = 1`` (the root) and,
    for edge ``e >= 1`` into tree node ``edge_node[e]``,
    ``reach[e] = reach[edge_parent_row[e]] * sigma[edge_node[e]]`` where the parent row is the
    seat's last own edge above the edge's parent (its reach there); ``totals[e] = prior . reach[e]``."""
    reach[0, :] = 1.0
    totals[0] = _weighted_total(reach, 0, prior)
    for e in range(1, edge_node.size):
        h, p = edge_node[e], edge_parent_row[e]
        for c in range(reach.shape[1]):
            reach[e, c] = reach[p, c] * sigma[h, c]
        totals[e] = _weighted_total(reach, e, prior)


@njit(cache=True)
def gather_weighted(reach, seat, rows, prior, out):
    """``out[i] = reach[seat[i], rows[i]] * prior`` (the q-vectors of table columns)."""
    for i in range(rows.size):
        s, r = seat[i], rows[i]
        for c in range(prior.size):
            out[i, c] = reach[s, r, c] * prior[c]


@njit(cache=True, inline="always")
def _others_product(totals, seat, h):
    """prod_{k != seat} totals[k, h], in seat order."""
    out = 1.0
    for k in range(totals.shape[0]):
        if k != seat:
            out *= totals[k, h]
    return out


@njit(cache=True)
def leaf_values(values, totals, seat, live, live_local, live_const, folded, folded_local, folded_const,
                term_local, term_node, term_column, term_others, term_coefs, columns):
    """Write the leaf rows of ``seat``'s view values (chip payoffs, see :mod:`pokerlab.solver`).

    Endings the seat is in: ``const * prod_{k != seat} R_k`` plus, per payoff term ``t`` and
    table ``i``, ``term_coefs[i, t] * prod_{k in others[t]} R_k * columns[i, term_column[t]]``;
    the nodes just after its folds: ``-contribution * prod_{k != seat} R_k``.
    """
    m = values.shape[1]
    for i in range(live.size):
        v = live_const[i] * _others_product(totals, seat, live[i])
        for c in range(m):
            values[live_local[i], c] = v
    for i in range(folded.size):
        v = folded_const[i] * _others_product(totals, seat, folded[i])
        for c in range(m):
            values[folded_local[i], c] = v
    for tab in range(columns.shape[0]):
        for t in range(term_local.size):
            scale = 1.0
            for k in range(totals.shape[0]):
                if term_others[t, k]:
                    scale *= totals[k, term_node[t]]
            w = term_coefs[tab, t] * scale
            r, col = term_local[t], term_column[t]
            for c in range(m):
                values[r, c] += w * columns[tab, col, c]


@njit(cache=True)
def backward_values(child_start, n_children, acts, nodes, sigma, values, best_response):
    """Fill the non-leaf rows of a seat's view values from their children (leaves already
    written), children before parents. ``child_start``/``n_children`` are view-local (0
    children: a leaf), ``acts[h]``: the seat decides at ``h``, ``nodes`` maps view rows to tree
    indices (to read ``sigma``). At the seat's decisions: the strategy-weighted sum over its
    actions, or the max when ``best_response``; elsewhere the plain sum (the others' reach is
    in the leaf values). Children are summed last to first, starting from 0."""
    m = values.shape[1]
    for h in range(child_start.size - 1, -1, -1):
        n = n_children[h]
        if n == 0:
            continue
        s = child_start[h]
        if acts[h] and best_response:
            for c in range(m):
                values[h, c] = -np.inf
            for a in range(n - 1, -1, -1):
                for c in range(m):
                    if values[s + a, c] > values[h, c]:
                        values[h, c] = values[s + a, c]
        elif acts[h]:
            for c in range(m):
                values[h, c] = 0.0
            for a in range(n - 1, -1, -1):
                g = nodes[s + a]
                for c in range(m):
                    values[h, c] += sigma[g, c] * values[s + a, c]
        else:
            for c in range(m):
                values[h, c] = 0.0
            for a in range(n - 1, -1, -1):
                for c in range(m):
                    values[h, c] += values[s + a, c]
