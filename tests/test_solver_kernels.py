"""The preflop solver's fused Numba kernels equal the readable primitives of ``pokerlab.cfr``
bit for bit on random inputs (the brute-force CFR+ comparison in test_solver.py checks the
whole solve)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cfr import (accumulate_average, average_strategy, instant_regrets, regret_matching,
                          regret_matching_plus_update)
from pokerlab.icm import load_payouts
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.payoffs_icm import icm_payoffs
from pokerlab.preflop.solver import Solver, _forward_reach
from pokerlab.preflop.solver_icm import ICM_FORMATS, IcmSolver
from pokerlab.preflop.kernels import cfr_plus_update, forward_own_reach, sparse_products, weighted_totals, write_matched
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree
from test_payoffs import random_tables


def random_group(rng, k, d=40, m=23, n_nodes=300):
    """A decision group of ``d`` nodes with ``k`` actions on random edges, with regrets that are
    zero on whole rows (the uniform branch of regret matching), and arbitrary values."""
    edges = rng.permutation(np.arange(1, n_nodes))[:d * k].reshape(d, k)
    local = rng.permutation(np.arange(n_nodes))[:d * k].reshape(d, k)
    regrets = np.maximum(rng.normal(size=(d, m, k)), 0.0)
    regrets[rng.uniform(size=(d, m)) < 0.2] = 0.0
    sums = rng.uniform(size=(d, m, k)) * 10.0 ** rng.integers(-6, 3, (d, m, k))
    sigma = rng.uniform(size=(n_nodes, m))
    values = rng.normal(size=(n_nodes, m)) * 10.0 ** rng.integers(-3, 3, (n_nodes, m))
    reach = rng.uniform(size=(30, m))
    rows = rng.integers(0, 30, d)
    return edges, local, regrets, sums, sigma, values, reach, rows


def transposed(x):
    """(D, m, k), as the primitives hold a group, to the kernels' (D, k, m), C-contiguous."""
    return np.ascontiguousarray(x.transpose(0, 2, 1))


@pytest.mark.parametrize("k", [2, 3, 4, 5])
def test_fused_update_equals_the_primitive_chain(k):
    rng = np.random.default_rng(k)
    children, local, regrets, sums, sigma, values, reach, rows = random_group(rng, k)
    weight = 17.0
    # the primitives, as the solver used them before the fused kernel
    want_regrets, want_sums, want_sigma = regrets.copy(), sums.copy(), sigma.copy()
    strategy = want_sigma[children].transpose(0, 2, 1)
    action_values = values[local].transpose(0, 2, 1)
    accumulate_average(want_sums, strategy, weight * reach[rows])
    regret_matching_plus_update(want_regrets, instant_regrets(action_values, strategy))
    want_sigma[children] = regret_matching(want_regrets).transpose(0, 2, 1)

    # the kernel holds them (D, k, m): classes innermost
    got_regrets, got_sums, got_sigma = transposed(regrets), transposed(sums), sigma.copy()
    cfr_plus_update(got_regrets, got_sums, got_sigma, values, reach, children, local, rows, weight)
    assert np.array_equal(got_regrets, transposed(want_regrets))
    assert np.array_equal(got_sums, transposed(want_sums))
    assert np.array_equal(got_sigma, want_sigma)  # also untouched off the group's edges


@pytest.mark.parametrize("k", [2, 3, 4])
def test_strategy_writer_equals_regret_matching_and_the_average(k):
    rng = np.random.default_rng(10 + k)
    children, _, regrets, sums, sigma, *_ = random_group(rng, k)
    for x, primitive in ((regrets, regret_matching), (sums, average_strategy)):
        want, got = sigma.copy(), sigma.copy()
        want[children] = primitive(x).transpose(0, 2, 1)
        write_matched(transposed(x), children, got)
        assert np.array_equal(got, want)


def test_sparse_table_products_equal_a_sequential_dense_sum():
    """Skipping the zero entries of q changes nothing: every entry equals the dense sum over the
    classes in ascending order (a plain loop), bit for bit, and agrees with BLAS to rounding."""
    rng = np.random.default_rng(7)
    m, k = 31, 17
    q = rng.uniform(size=(12, m)) * (rng.uniform(size=(12, m)) < 0.15)
    q[3] = 0.0  # a column nobody reaches
    q[5] = rng.uniform(size=m)  # a dense one
    table_t = rng.uniform(-1.0, 1.0, size=(m, k))
    out = np.full((12, k), np.nan)
    sparse_products(q, table_t, out)
    expected = np.zeros((12, k))
    for i in range(12):
        for j in range(k):
            for c in range(m):
                expected[i, j] += q[i, c] * table_t[c, j]
    assert np.array_equal(out, expected)
    assert np.array_equal(out[3], np.zeros(k))
    np.testing.assert_allclose(out, q @ table_t, rtol=1e-13, atol=1e-15)


def test_own_edge_reach_and_totals_equal_the_full_forward_pass():
    """A seat's reach kept on its own edges only equals the reach at every node of the full
    pass (copied down below them), and its totals equal prior . reach."""
    rng = np.random.default_rng(3)
    n_nodes, m, seat = 200, 17, 1
    parent = np.r_[-1, [rng.integers(0, h) for h in range(1, n_nodes)]]
    actor = rng.integers(0, 3, n_nodes)
    parent_actor = np.r_[-1, actor[parent[1:]]]
    sigma, prior = rng.uniform(size=(n_nodes, m)), rng.dirichlet(np.ones(m))
    full = np.zeros((n_nodes, m))
    _forward_reach(parent, parent_actor, sigma, seat, full)

    edges = np.r_[0, np.flatnonzero(parent_actor == seat)]
    source = np.zeros(n_nodes, dtype=np.int64)
    for h in range(1, n_nodes):
        source[h] = h if parent_actor[h] == seat else source[parent[h]]
    source_row = np.searchsorted(edges, source)
    own, own_totals = np.zeros((edges.size, m)), np.zeros(edges.size)
    forward_own_reach(edges, np.r_[0, source_row[parent[edges[1:]]]], sigma, prior, own, own_totals)
    assert np.array_equal(own[source_row], full)
    totals = np.zeros(n_nodes)
    weighted_totals(full, prior, totals)
    assert np.array_equal(own_totals[source_row], totals)
    np.testing.assert_allclose(totals, full @ prior, rtol=1e-14)


@pytest.mark.parametrize("fmt, seats, depth",
                         [("cash", 4, 12), ("cash", 3, 100), ("icm_final", 4, 10), ("icm_bubble", 3, 15)])
def test_region_values_equal_the_values_on_the_whole_view(fmt, seats, depth):
    """CFR+ and the exploitability value each seat per region of its own edges; the read-out
    walks the seat's whole view. Both must give the same values at every own edge (the action
    values) and at the root, under a random profile and under the best response."""
    tree = build_tree(Spot(fmt, seats, depth), load_sizing())
    win, tie, prior = *random_tables(4, 2), np.random.default_rng(2).dirichlet(np.ones(4))
    if fmt in ICM_FORMATS:
        solver = IcmSolver(tree, icm_payoffs(tree, PostflopModel(), load_payouts()[fmt]), win, tie, prior)
    else:
        solver = Solver(tree, chip_ev_payoffs(tree, PostflopModel()), win, tie, prior)
    rng = np.random.default_rng(9)
    sigma = rng.uniform(0, 1, (tree.n_nodes, 4))
    sums = np.zeros_like(sigma)
    np.add.at(sums, tree.parent[1:], sigma[1:])
    sigma[1:] /= sums[tree.parent[1:]]
    reach = solver.reach_under(sigma)
    inputs = solver.ending_inputs(reach)
    for seat in range(seats):
        for best_response in (False, True):
            whole = solver.seat_values(seat, sigma, reach, best_response, ending_inputs=inputs)
            regions = solver._region_values(seat, sigma, inputs, best_response)
            np.testing.assert_allclose(regions, whole[solver._edge_node[seat]], rtol=1e-12, atol=1e-14)
