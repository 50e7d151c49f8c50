"""Regret-minimisation primitives shared by every solver in pokerlab.

All functions work on arrays whose **last axis is the actions** of one decision and whose
leading axes are anything the caller batches over (information sets, the 169 classes, ...).
They are written once here and used by the Kuhn anchor (``pokerlab.games.kuhn``) and the
preflop CFR+ solver, so the code that reproduces the published Kuhn figures is the code that
solves the charts.

Conventions
    * ``regrets``: cumulative counterfactual regrets (vanilla CFR) or regret-matching+ values.
    * ``strategy``: a behaviour strategy, non-negative, summing to one along the last axis.
    * ``strategy_sum``: the running weighted sum of played strategies; the **average
      strategy** is its normalisation. What a solver ships is the average.
"""

from __future__ import annotations

import numpy as np


def regret_matching(regrets: np.ndarray) -> np.ndarray:
    """Current strategy from regrets: proportional to the positive part, uniform if none is positive."""
    positive = np.maximum(regrets, 0.0)
    total = np.add.reduce(positive, axis=-1, keepdims=True)
    strategy = np.full(positive.shape, 1.0 / regrets.shape[-1])
    np.divide(positive, total, out=strategy, where=total > 0.0)
    return strategy


def regret_matching_plus_update(regrets: np.ndarray, instant_regrets: np.ndarray) -> np.ndarray:
    """Regret-matching+: add this iteration's regrets and floor the result at zero (in place)."""
    regrets += instant_regrets
    np.maximum(regrets, 0.0, out=regrets)
    return regrets


def instant_regrets(action_values: np.ndarray, strategy: np.ndarray, weight: np.ndarray | float = 1.0) -> np.ndarray:
    """Regret of each action against the mixed strategy: ``weight * (v(a) - sum_b s(b) v(b))``.

    ``weight`` is the counterfactual reach (opponents' and chance's), broadcast over actions.
    """
    regrets = action_values - np.add.reduce(strategy * action_values, axis=-1, keepdims=True)
    w = np.asarray(weight, dtype=float)
    return (w[..., None] if w.ndim else w) * regrets


def accumulate_average(strategy_sum: np.ndarray, strategy: np.ndarray, weight: np.ndarray | float) -> np.ndarray:
    """Add ``weight * strategy`` to the running sum (in place).

    For vanilla CFR ``weight`` is the owner's reach probability; CFR+ multiplies it by the
    iteration number (linear averaging). ``weight`` broadcasts over the action axis.
    """
    w = np.asarray(weight, dtype=float)
    strategy_sum += (w[..., None] if w.ndim else w) * strategy
    return strategy_sum


def average_strategy(strategy_sum: np.ndarray) -> np.ndarray:
    """Normalise a strategy sum; an information set never reached gets the uniform strategy."""
    return regret_matching(strategy_sum)


def linear_average_weight(iteration: int) -> float:
    """CFR+ averaging weight of iteration ``t`` (1-based): ``t``."""
    if iteration < 1:
        raise ValueError(f"iteration must be >= 1, got {iteration}")
    return float(iteration)


UPDATE_SCHEMES = ("simultaneous", "alternating")


def update_groups(scheme: str, n_players: int) -> tuple[range, ...]:
    """The order in which players' regrets are updated within one iteration.

    Each group is a contiguous ``range`` of players whose regrets (and average strategies) are
    updated together from the same current profile; the next group sees the profile after that
    update. ``"simultaneous"``: one group holding every player (vanilla CFR as in Zinkevich et
    al.). ``"alternating"``: one group per player, in seat order (the usual CFR+ schedule).
    """
    if scheme not in UPDATE_SCHEMES:
        raise ValueError(f"bad update scheme {scheme!r}: expected one of {UPDATE_SCHEMES}")
    if n_players < 1:
        raise ValueError(f"n_players must be >= 1, got {n_players}")
    if scheme == "simultaneous":
        return (range(n_players),)
    return tuple(range(p, p + 1) for p in range(n_players))
