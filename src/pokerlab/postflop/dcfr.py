"""Discounted CFR: the discount schedule and regret matching."""

from __future__ import annotations

import numpy as np
from numba import njit

DCFR = (1.5, 0.0, 3.0, False)  # alpha, beta, gamma, reset of the average (see dcfr_discounts)
STATE_DTYPE = np.float32  # regrets and strategy sums


@njit(cache=True, fastmath=True)
def _regret_strategy(table, base, n_actions, n_hands, sigma):
    """Regret matching on the positive part of ``table``'s block (regrets, or a strategy sum for
    the average strategy); uniform where nothing is positive. Writes ``sigma[:n_actions, :n_hands]``
    (row ``n_actions`` is scratch). Loops run over hands innermost, so they vectorise."""
    total = sigma[n_actions]
    total[:n_hands] = 0.0
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            total[h] += max(row[h], 0.0)
    uniform = 1.0 / n_actions
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            sigma[a, h] = max(row[h], 0.0) / total[h] if total[h] > 0.0 else uniform



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
