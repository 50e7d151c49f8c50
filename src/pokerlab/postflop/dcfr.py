"""Discounted CFR: the discount schedule, regret matching and the per-node update.

Discounted CFR (Brown & Sandholm 2019) with alternating updates (OOP, then IP, each
iteration). Before iteration ``t`` adds its regrets, positive cumulative regrets are scaled
by ``s^alpha / (s^alpha + 1)`` and negative ones by ``s^beta / (s^beta + 1)`` (``s = t - 1``);
the average strategy is the reach-weighted sum of the strategies played, the running sum
scaled by ``(s / (s + 1))^gamma`` each iteration. The defaults are ``alpha = 1.5, beta = 0,
gamma = 3`` (:data:`DCFR`); docs/postflop-solver.md records the runs that chose them. What
the solver reports is the average strategy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


class DcfrParams(NamedTuple):
    """The parameters of :func:`dcfr_discounts`."""

    alpha: float  # exponent of the discount on positive regrets
    beta: float  # exponent of the discount on negative regrets
    gamma: float  # exponent of the discount on the strategy sum
    reset: bool  # restart the strategy sum at powers of 4 (postflop-solver's scheme)


DCFR = DcfrParams(1.5, 0.0, 3.0, False)
STATE_DTYPE = np.float32  # regrets and strategy sums


def dcfr_discounts(t_start: int, n_iterations: int, alpha: float, beta: float, gamma: float,
                   reset: bool) -> np.ndarray:
    """(n, 3) discounts of DCFR iterations ``t_start ..`` (1-based): the factor on positive
    regrets ``s^alpha / (s^alpha + 1)``, on negative ones ``s^beta / (s^beta + 1)`` and on the
    strategy sum ``(u / (u + 1))^gamma``, with ``s = t - 1`` and ``u = s``, or with ``reset``
    ``u = s - `` the largest power of 4 not above ``s`` (the sum restarts at iterations 2, 5,
    17, 65, 257, ...: early strategies leave the average, as in postflop-solver)."""
    s = np.arange(t_start - 1, t_start - 1 + n_iterations, dtype=np.float64)
    u = s.copy()
    if reset:
        power = np.where(s >= 1, 4.0 ** np.floor(np.log(np.maximum(s, 1)) / np.log(4) + 1e-9), 0.0)
        u = s - power
    out = np.empty((n_iterations, 3))
    out[:, 0] = s**alpha / (s**alpha + 1.0)
    out[:, 1] = s**beta / (s**beta + 1.0)
    out[:, 2] = (u / (u + 1.0)) ** gamma
    return out


@njit(cache=True, fastmath=True)
def regret_matching(table, base, n_actions, n_hands, strategy):
    """Regret matching on the positive part of ``table``'s (actions x hands) block starting at
    ``base`` (regrets, or a strategy sum for the average strategy); uniform where nothing is
    positive. Writes ``strategy[:n_actions, :n_hands]`` (row ``n_actions`` is scratch). Loops
    run over hands innermost, so they vectorise."""
    total = strategy[n_actions]
    total[:n_hands] = 0.0
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            total[h] += max(row[h], 0.0)
    uniform = 1.0 / n_actions
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            strategy[a, h] = max(row[h], 0.0) / total[h] if total[h] > 0.0 else uniform


@njit(cache=True, fastmath=True, inline="always")
def discount_and_add(regrets, strategy_sums, base, n_actions, n_hands, action_values, node_values, reach,
                     strategy, discount):
    """One DCFR update of a decision node's (actions x hands) blocks starting at ``base``:
    regrets discounted (``discount`` = factors on positive regrets, negative regrets, the
    strategy sum; a row of :func:`dcfr_discounts`) plus each action's value minus the node's;
    the strategy sum discounted plus the acting player's ``reach`` times its ``strategy``.
    Inlined into the walk by Numba (``inline="always"``), as the loop it was part of."""
    positive, negative, average = discount
    for a in range(n_actions):
        regret = regrets[base + a * n_hands:base + (a + 1) * n_hands]
        strategy_sum = strategy_sums[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            r = regret[h]
            regret[h] = r * (positive if r > 0.0 else negative) + (action_values[a, h] - node_values[h])
            strategy_sum[h] = strategy_sum[h] * average + reach[h] * strategy[a, h]
