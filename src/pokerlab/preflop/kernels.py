"""Numba kernels of the preflop CFR+ solver (:mod:`pokerlab.preflop.solver`): one pass each, no temporaries.

Layout (see :mod:`pokerlab.preflop.solver`): ``sigma[h, c]`` is the probability of the edge into node
``h`` for class ``c``; a decision group holds ``D`` nodes with ``k`` actions each, its
``regrets`` and ``strategy_sum`` are (D, k, m) (classes innermost, so every loop runs along
contiguous rows) and ``children[d, a]`` is the tree index of the
child reached by action ``a``. All arithmetic is float64. The CFR+ update and the strategy
writer follow the order of the readable primitives of :mod:`pokerlab.cfr` (sums over actions
left to right) and reproduce them bit for bit (``tests/test_solver_kernels.py`` checks it on
random inputs); products over seats run in seat order, and sums over classes in one fixed
order of their own (the table columns included: :func:`sparse_products` sums in class order), so
a kernel's figure depends only on its inputs, never on an array's shape or a BLAS library.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, inline="always")
def _nonnegative(x):
    """``np.maximum(x, 0.0)`` bit for bit (keeps -0.0 and NaN as NumPy does)."""
    return x if (x >= 0.0 or x != x) else 0.0


@njit(cache=True, inline="always")
def _write_matched_node(x, d, children, sigma, total):
    """``sigma[children[d, a]] = x[d, a]^+ / total`` (uniform where ``total`` is not positive):
    regret matching of ``x[d]`` (k, m) given ``total[c] = sum_a x[d, a, c]^+`` (summed in action
    order)."""
    k, m = x.shape[1], x.shape[2]
    for a in range(k):
        row = children[d, a]
        for c in range(m):
            sigma[row, c] = _nonnegative(x[d, a, c]) / total[c] if total[c] > 0.0 else 1.0 / k


@njit(cache=True, inline="always")
def _match_node(x, d, children, sigma, total):
    """Regret matching of ``x[d]`` (k, m) written to ``sigma[children[d, a]]``: proportional to
    the positive part, uniform where no entry is positive. ``total``: (m,) scratch."""
    k, m = x.shape[1], x.shape[2]
    for c in range(m):
        total[c] = _nonnegative(x[d, 0, c])
    for a in range(1, k):
        for c in range(m):
            total[c] += _nonnegative(x[d, a, c])
    _write_matched_node(x, d, children, sigma, total)


@njit(cache=True)
def write_matched(x, children, sigma):
    """``sigma[children[d, a], c] = regret_matching(x)[d, a, c]`` (over ``a``) for a group's
    regrets (the current strategy) or strategy sums (the average strategy)."""
    total = np.empty(x.shape[2])
    for d in range(x.shape[0]):
        _match_node(x, d, children, sigma, total)


@njit(cache=True)
def cfr_plus_update(regrets, strategy_sum, sigma, values, reach, children, value_rows, node_rows, weight):
    """One CFR+ update of a decision group of the seat being updated, in place.

    ``values``: the seat's counterfactual values, the action values being
    ``values[value_rows[d, a]]``; ``reach[node_rows[d]]``: the seat's own reach at node ``d``;
    ``weight``: the linear averaging weight ``t``. Equivalent to
    ``accumulate_average(strategy_sum, s, weight * reach)``, then
    ``regret_matching_plus_update(regrets, instant_regrets(action_values, s))`` and writing
    ``regret_matching(regrets)`` into ``sigma``, where ``s`` is the strategy in ``sigma``.
    Loops run over the classes innermost (contiguous rows of ``sigma`` and ``values``).
    """
    k, m = regrets.shape[1], regrets.shape[2]
    ev, scratch = np.empty(m), np.empty(m)
    for d in range(regrets.shape[0]):
        row, vrow = children[d, 0], value_rows[d, 0]
        for c in range(m):
            ev[c] = sigma[row, c] * values[vrow, c]
        for a in range(1, k):
            row, vrow = children[d, a], value_rows[d, a]
            for c in range(m):
                ev[c] += sigma[row, c] * values[vrow, c]
        r = node_rows[d]
        for a in range(k):
            row, vrow = children[d, a], value_rows[d, a]
            for c in range(m):
                strategy_sum[d, a, c] += (weight * reach[r, c]) * sigma[row, c]
                regret = _nonnegative(regrets[d, a, c] + (values[vrow, c] - ev[c]))
                regrets[d, a, c] = regret
                # the regret-matching total, summed in action order as _match_node sums it
                scratch[c] = regret if a == 0 else scratch[c] + regret
        _write_matched_node(regrets, d, children, sigma, scratch)


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


@njit(cache=True)
def sparse_products(q, table_t, out):
    """``out[i] = q[i] @ table_t``, summed over the classes in ascending order and skipping the
    classes with ``q[i, c] == 0``: regret matching+ plays most classes with probability exactly 0
    at deep endings (typically 3-7% of the q entries are nonzero after 100 iterations), so
    skipping them does a twentieth of the dense product's work, with the value of a sequential
    dense sum (adding ``0 * x`` changes nothing for finite ``x``). Nonzero classes are taken
    four at a time, added left to right in one expression (the same roundings, a quarter of the
    loads and stores of ``out``)."""
    k = table_t.shape[1]
    nonzero = np.empty(q.shape[1], dtype=np.int64)
    for i in range(q.shape[0]):
        n = 0
        for c in range(q.shape[1]):
            if q[i, c] != 0.0:
                nonzero[n] = c
                n += 1
        for j in range(k):
            out[i, j] = 0.0
        b = 0
        while b + 4 <= n:
            c0, c1, c2, c3 = nonzero[b], nonzero[b + 1], nonzero[b + 2], nonzero[b + 3]
            v0, v1, v2, v3 = q[i, c0], q[i, c1], q[i, c2], q[i, c3]
            for j in range(k):
                out[i, j] = (((out[i, j] + v0 * table_t[c0, j]) + v1 * table_t[c1, j]) + v2 * table_t[c2, j]) \
                    + v3 * table_t[c3, j]
            b += 4
        while b < n:
            c0 = nonzero[b]
            v0 = q[i, c0]
            for j in range(k):
                out[i, j] += v0 * table_t[c0, j]
            b += 1


@njit(cache=True)
def leaf_scalars(totals, seat, leaves, leaf_const, out):
    """``out[i] = leaf_const[i] * prod_{k != seat} totals[k, leaves[i]]`` (products in seat
    order): the part of a leaf's value that does not depend on the seat's class."""
    for i in range(leaves.size):
        product = 1.0
        for k in range(totals.shape[0]):
            if k != seat:
                product *= totals[k, leaves[i]]
        out[i] = leaf_const[i] * product


@njit(cache=True)
def scatter_scalars(values, rows, scalars):
    """``values[r] = sum of scalars[i] over rows[i] == r`` (summed in order), broadcast over
    the classes; rows that receive no scalar are set to 0."""
    total = np.zeros(values.shape[0])
    for i in range(rows.size):
        total[rows[i]] += scalars[i]
    for r in range(values.shape[0]):
        for c in range(values.shape[1]):
            values[r, c] = total[r]


@njit(cache=True)
def add_terms(values, rows, totals, term_node, term_column, term_others, term_coefs, columns):
    """``values[rows[t]] += sum_i term_coefs[i, t] * prod_{k in others[t]} R_k * columns[i, term_column[t]]``
    for every payoff term ``t`` and table ``i`` (the class-dependent part of the leaf values)."""
    n_tables, m = columns.shape[0], values.shape[1]
    for t in range(rows.size):
        scale = 1.0
        for k in range(totals.shape[0]):
            if term_others[t, k]:
                scale *= totals[k, term_node[t]]
        r, col = rows[t], term_column[t]
        w0 = term_coefs[0, t] * scale
        if n_tables == 1:
            for c in range(m):
                values[r, c] += w0 * columns[0, col, c]
        else:
            w1 = term_coefs[1, t] * scale
            for c in range(m):
                values[r, c] += w0 * columns[0, col, c] + w1 * columns[1, col, c]


@njit(cache=True)
def add_class_terms(values, rows, totals, term_node, term_column, term_others, term_opponent, class_coef, own, opp,
                    vectors_t, dots):
    """The class terms of model v2: for every payoff term ``t`` with ``class_coef[t] != 0``,
    ``values[rows[t], c] += w * (R_j * vectors_t[c, own[t]] - dots[term_column[t], opp[t]])`` with
    ``w = class_coef[t] * prod_{k in others[t]} R_k`` and ``j`` the term's opponent (``dots``: each
    class vector dotted with the column's q-vector). Added after :func:`add_terms`."""
    m = values.shape[1]
    for t in range(rows.size):
        if class_coef[t] == 0.0:
            continue
        node = term_node[t]
        scale = 1.0
        for k in range(totals.shape[0]):
            if term_others[t, k]:
                scale *= totals[k, node]
        w = class_coef[t] * scale
        mine = w * totals[term_opponent[t], node]
        theirs = w * dots[term_column[t], opp[t]]
        r, v = rows[t], own[t]
        for c in range(m):
            values[r, c] += mine * vectors_t[c, v] - theirs


@njit(cache=True)
def region_backward(values, decision_region, first_child_row, n_children, edge_node, sigma, best_response):
    """Complete a seat's values on its own edges. Row ``r`` of ``values`` holds the sum of the
    leaves and terms whose last own edge above them is ``r`` (row 0: the root); the seat's
    decisions are given children last (descending tree order), each with the row of its region
    and the rows of its children (its own edges, contiguous). Each decision's value - the
    strategy-weighted sum over its actions, or their max when ``best_response`` - is added to
    its region; children are summed last to first."""
    m = values.shape[1]
    v = np.empty(m)
    for d in range(decision_region.size):
        s, n = first_child_row[d], n_children[d]
        if best_response:
            v[:] = -np.inf
            for a in range(n - 1, -1, -1):
                for c in range(m):
                    if values[s + a, c] > v[c]:
                        v[c] = values[s + a, c]
        else:
            v[:] = 0.0
            for a in range(n - 1, -1, -1):
                g = edge_node[s + a]
                for c in range(m):
                    v[c] += sigma[g, c] * values[s + a, c]
        r = decision_region[d]
        for c in range(m):
            values[r, c] += v[c]


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
