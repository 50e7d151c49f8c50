"""The arrays a walk works in."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def _workspace(n_t, n_o, max_depth, max_actions):
    """The arrays a walk of a traverser with ``n_t`` hands against ``n_o`` works in (see ``_walk``):
    allocated once per pass and thread, not once per walk (a turn root's ~150 jobs per pass are
    each a river street of a few microseconds). Nothing in them needs clearing between walks."""
    n_wide = max(n_t, n_o)
    return (np.empty((max_depth, n_o)), np.empty((max_depth, n_t)), np.empty((max_depth, n_t)),
            np.empty((max_depth, max_actions, n_t)), np.empty((max_depth, max_actions + 1, n_wide)),
            np.empty(52), np.empty((6, max_depth), np.int64), np.empty((max_depth, 52, n_t)))
