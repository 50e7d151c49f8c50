"""The solved-endings loop against a joint solve on a tiny game (pokerlab.solved.reference)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.solved.reference import (FLOP_ENDINGS, CfrPlus, ending_ranges, exchange_iteration, exploitability,
                                       joint_corrections, leaf_payoffs, measured_corrections, model_payoff, postflop_tree,
                                       preflop_tree, values)

M, STACK = 5, 6.0
PRIOR = np.full(M, 1.0 / M)


@pytest.fixture(scope="module")
def joint():
    root = preflop_tree(M, STACK)
    return root, CfrPlus(root, PRIOR, PRIOR).iterate(3000)


def test_joint_cfr_plus_reaches_an_equilibrium(joint):
    root, solver = joint
    assert exploitability(root, solver.average, PRIOR) < 2e-4
    # the best responses are really best: a uniform profile is far from equilibrium
    assert exploitability(root, lambda node: np.full((M, len(node.children)), 1 / len(node.children)), PRIOR) > 0.3


def test_the_model_alone_is_not_the_joint_game(joint):
    root, solver = joint
    leaf = preflop_tree(M, STACK, {e: model_payoff(M, c) for e, c in FLOP_ENDINGS.items()})
    assert exploitability(leaf, solver.average, PRIOR) > 0.05  # the joint solution is no solution of the model


def test_the_joint_equilibrium_is_a_fixed_point_of_the_loop(joint):
    root, solver = joint
    d = joint_corrections(root, solver.average, M)
    leaf = preflop_tree(M, STACK, leaf_payoffs(M, d))
    # its preflop strategy is an equilibrium of the leaf game with the corrections measured on it ...
    assert exploitability(leaf, solver.average, PRIOR) < 2e-4
    # ... whose endings pay every class its joint-game value against the opponent's range
    for e, contrib in FLOP_ENDINGS.items():
        q_oop, q_ip = ending_ranges(root, solver.average, e, M, PRIOR)
        sub = next(n for n in (root.children["C"].children["C"], root.children["R"].children["C"]) if n.key == e)
        _, _, solved = measured_corrections(sub, solver.average, contrib, q_oop, q_ip)
        ending = next(n for n in (leaf.children["C"].children["C"], leaf.children["R"].children["C"]) if n.key == e)
        r_ip, r_oop = solved.mass_ip, solved.mass_oop
        paid_ip, paid_oop = values(ending, solver.average, r_ip, r_oop)
        np.testing.assert_allclose(paid_ip / r_oop.sum(), solved.ip, atol=1e-9)
        np.testing.assert_allclose(paid_oop / r_ip.sum(), solved.oop, atol=1e-9)
    # measuring again on the same ranges and postflop play returns the same corrections
    for e, (d_oop, d_ip) in joint_corrections(root, solver.average, M).items():
        np.testing.assert_allclose(d_oop, d[e][0], atol=1e-12)
        np.testing.assert_allclose(d_ip, d[e][1], atol=1e-12)


def test_the_leaf_game_has_other_equilibria_that_the_joint_game_exploits(joint):
    """Why the loop's fixed point is not unique: separable corrections are right on the measured ranges only."""
    root, solver = joint
    leaf_root = preflop_tree(M, STACK, leaf_payoffs(M, joint_corrections(root, solver.average, M)))
    leaf = CfrPlus(leaf_root, PRIOR, PRIOR).iterate(3000)
    assert exploitability(leaf_root, leaf.average, PRIOR) < 2e-4

    def composed(node):  # the leaf game's preflop play with the joint equilibrium's postflop play
        return (solver if node.key[:2] in FLOP_ENDINGS else leaf).average(node)

    assert exploitability(root, composed, PRIOR) > 0.02


def test_postflop_tree_conserves_chips_and_pays_the_pot():
    sub = postflop_tree("RC", 4.0, 4.0, 2.0, 3)
    stack = [sub]
    while stack:
        node = stack.pop()
        if node.player < 0 and np.ptp(node.payoff) > 0:  # a showdown: swapping the hands swaps the result
            np.testing.assert_allclose(node.payoff + node.payoff.T, 0.0)
            assert node.payoff.max() in (2.0, 6.0) and node.payoff.min() in (-2.0, -6.0)
        elif node.player < 0:  # a fold: the folder loses what it put in (2, or 2 + 4 after an all-in bet)
            assert abs(node.payoff[0, 0]) == 2.0
        stack.extend(node.children.values())


def test_exchanging_often_reaches_the_joint_equilibrium():
    """Both solvers keep their regrets; corrections re-measured every iteration converge, stale ones do not."""
    root = preflop_tree(M, STACK)
    often = exchange_iteration(M, STACK, iterations=600, exchange=1)
    assert exploitability(root, often.strategy, PRIOR) < 1e-3
    rarely = exchange_iteration(M, STACK, iterations=600, exchange=100)
    assert exploitability(root, rarely.strategy, PRIOR) > 0.05
    assert len(often.changes) == 600 and len(rarely.changes) == 6


def test_exchange_iteration_refuses_an_exchange_outside_the_run():
    with pytest.raises(ValueError, match="exchange must be in"):
        exchange_iteration(M, STACK, iterations=10, exchange=20)


def test_a_start_ships_the_exchanges_chart_and_continuing_it_under_the_table_leaves_the_joint_equilibrium():
    """Why a solve under a shipped table and its start stops at the start: the exchange's average profile
    is an equilibrium of both the joint game and the game its averaged table defines, but CFR+ continued
    in the latter drifts to another of that game's equilibria, which the joint game exploits."""
    from pokerlab.solved.reference import FixedPoint, warm_start

    root = preflop_tree(M, STACK)
    fp = exchange_iteration(M, STACK, iterations=600, exchange=1)
    start = warm_start(fp, M, STACK)
    assert exploitability(root, fp.strategy, PRIOR) < 1e-3
    assert exploitability(start.root, start.average, PRIOR) < 1e-3
    start.iterate(600)
    assert exploitability(start.root, start.average, PRIOR) < 1e-3  # still an equilibrium of the table's game ...
    assert exploitability(root, FixedPoint(fp.averaged, start, fp.postflop, []).strategy, PRIOR) > 0.01  # ... not the joint one
