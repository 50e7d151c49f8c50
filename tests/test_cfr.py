"""The shared regret-minimisation primitives: exact values on hand-worked cases, and a matrix
game whose unique equilibrium is known, solved with both CFR and CFR+ schedules."""

import numpy as np
import pytest

from pokerlab.cfr import (
    accumulate_average,
    average_strategy,
    instant_regrets,
    linear_average_weight,
    regret_matching,
    regret_matching_plus_update,
    update_groups,
)


def test_regret_matching_is_proportional_to_positive_regret():
    np.testing.assert_array_equal(regret_matching(np.array([1.0, 3.0])), [0.25, 0.75])
    np.testing.assert_array_equal(regret_matching(np.array([-1.0, 2.0, 0.0])), [0.0, 1.0, 0.0])


def test_regret_matching_is_uniform_without_positive_regret_and_batches():
    regrets = np.array([[[-1.0, -2.0, 0.0], [2.0, 2.0, -5.0]], [[0.0, 0.0, 0.0], [0.0, 0.0, 4.0]]])
    expected = np.array([[[1 / 3] * 3, [0.5, 0.5, 0.0]], [[1 / 3] * 3, [0.0, 0.0, 1.0]]])
    np.testing.assert_allclose(regret_matching(regrets), expected, rtol=0, atol=1e-15)
    assert regret_matching(regrets).shape == regrets.shape


def test_regret_matching_plus_floors_in_place():
    regrets = np.array([[1.0, -0.0, 3.0], [0.5, 0.5, 0.5]])
    out = regret_matching_plus_update(regrets, np.array([[-3.0, 1.0, -1.0], [-1.0, 0.25, 0.0]]))
    assert out is regrets
    np.testing.assert_array_equal(regrets, [[0.0, 1.0, 2.0], [0.0, 0.75, 0.5]])


def test_instant_regrets_weights_the_gap_to_the_mixed_value():
    # node value 0.25 * 1 + 0.75 * 3 = 2.5; weight 2
    np.testing.assert_allclose(instant_regrets(np.array([1.0, 3.0]), np.array([0.25, 0.75]), 2.0), [-3.0, 1.0])
    values = np.array([[1.0, 3.0], [4.0, 0.0]])
    strategy = np.array([[0.25, 0.75], [0.5, 0.5]])
    np.testing.assert_allclose(instant_regrets(values, strategy, np.array([2.0, 0.5])), [[-3.0, 1.0], [1.0, -1.0]])


def test_average_strategy_weights_and_unreached_sets():
    strategy_sum = np.zeros((2, 2))
    accumulate_average(strategy_sum, np.array([[1.0, 0.0], [0.5, 0.5]]), np.array([1.0, 0.0]))
    accumulate_average(strategy_sum, np.array([[0.0, 1.0], [1.0, 0.0]]), np.array([3.0, 0.0]))
    np.testing.assert_allclose(average_strategy(strategy_sum), [[0.25, 0.75], [0.5, 0.5]])


def test_linear_average_weight():
    assert [linear_average_weight(t) for t in (1, 2, 7)] == [1.0, 2.0, 7.0]
    with pytest.raises(ValueError, match="iteration"):
        linear_average_weight(0)


def test_update_groups():
    assert update_groups("simultaneous", 3) == (range(0, 3),)
    assert update_groups("alternating", 3) == (range(0, 1), range(1, 2), range(2, 3))
    with pytest.raises(ValueError, match="scheme"):
        update_groups("random", 2)


# A 2x2 zero-sum game, row player's payoff; unique equilibrium p = q = (2/5, 3/5), value 1/5.
PAYOFF = np.array([[2.0, -1.0], [-1.0, 1.0]])


def _solve_matrix_game(iterations, plus, scheme):
    regrets = np.zeros((2, 2))  # player, action
    strategy_sum = np.zeros((2, 2))
    for t in range(1, iterations + 1):
        for players in update_groups(scheme, 2):
            strategy = regret_matching(regrets)
            values = np.stack([PAYOFF @ strategy[1], -(strategy[0] @ PAYOFF)])
            new = instant_regrets(values, strategy)
            weight = linear_average_weight(t) if plus else 1.0
            for p in players:
                if plus:
                    regret_matching_plus_update(regrets[p], new[p])
                else:
                    regrets[p] += new[p]
                accumulate_average(strategy_sum[p], strategy[p], weight)
    return average_strategy(strategy_sum)


@pytest.mark.parametrize(
    "plus, scheme, atol",  # plain regret matching converges like 1/sqrt(T); alternating RM+ much faster
    [(False, "simultaneous", 2e-2), (True, "simultaneous", 2e-2), (True, "alternating", 1e-3)],
)
def test_primitives_solve_a_matrix_game(plus, scheme, atol):
    average = _solve_matrix_game(3000, plus, scheme)
    np.testing.assert_allclose(average, [[0.4, 0.6], [0.4, 0.6]], rtol=0, atol=atol)
