"""The arrays a walk works in, one row per level of its explicit stack (see :mod:`.walk`)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit


class Workspace(NamedTuple):
    """Scratch of a walk by a traverser with ``n_own`` hands against ``n_opp``, for a tree
    ``depth`` levels deep with at most ``max_actions`` actions per node."""

    opp_reach: np.ndarray  # (depth, n_opp): the opponent's reach arriving at each level's node
    own_reach: np.ndarray  # (depth, n_own): the traverser's reach
    values: np.ndarray  # (depth, n_own): the values each level returns to its parent
    action_values: np.ndarray  # (depth, max_actions, n_own): the traverser's value of each of its actions
    strategy: np.ndarray  # (depth, max_actions + 1, max(n_own, n_opp)): the actor's strategy; last row scratch
    card_acc: np.ndarray  # (52,): per-card reach sums of the showdown and fold sums
    frames: np.ndarray  # (6, depth) int64: per level its node, step, dealt cards, card being dealt, state block
    dealt_values: np.ndarray  # (depth, 52, n_own): a chance node's values per dealt card
    deal_weight: np.ndarray  # (depth,): a chance node's weight of each dealt card's values
    sampled: np.ndarray  # (depth, 52) bool: a chance node's sampled cards (see sampling.sample_deal)
    walked: np.ndarray  # (depth, 52) bool: the representatives of its sampled cards


@njit(cache=True)
def new_workspace(n_own, n_opp, depth, max_actions):
    """A :class:`Workspace`, allocated once per pass and thread, not once per walk (a turn
    root's ~150 jobs per pass are each a river street of a few microseconds). Nothing in it
    needs clearing between walks."""
    n_wide = max(n_own, n_opp)
    return Workspace(np.empty((depth, n_opp)), np.empty((depth, n_own)), np.empty((depth, n_own)),
                     np.empty((depth, max_actions, n_own)), np.empty((depth, max_actions + 1, n_wide)),
                     np.empty(52), np.empty((6, depth), np.int64), np.empty((depth, 52, n_own)),
                     np.empty(depth), np.zeros((depth, 52), np.bool_), np.zeros((depth, 52), np.bool_))
