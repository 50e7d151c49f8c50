"""Counter-free, reproducible random numbers for Numba kernels: SplitMix64 streams.

Every sampler in pokerlab draws from SplitMix64 (Steele, Lea and Flood, 2014): a 64-bit
state advanced by a fixed odd constant and passed through a mixing function. It is the same
on every machine and Numba version, cheap, and splits trivially: ``stream_state(seed, k)``
gives stream ``k`` of a seed its own starting point, so work divided into streams (one per
class pair, one per chunk) gives the same numbers however it is scheduled.

Functions take the state and return ``(new_state, value)``; states are ``np.uint64``.
An integer below ``n`` is ``((z >> 32) * n) >> 32``: its bias, below ``n / 2^32``, is far
under any sampling error pokerlab reports.
"""

from __future__ import annotations

import numpy as np
from numba import njit

GOLDEN = np.uint64(0x9E3779B97F4A7C15)


@njit(cache=True, inline="always")
def mix64(z):
    """SplitMix64's finaliser: a bijective scramble of 64 bits."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True, inline="always")
def next_u64(state):
    """Advance the state; return (state, 64 random bits)."""
    state = state + GOLDEN
    return state, mix64(state)


@njit(cache=True, inline="always")
def uniform(state):
    """Advance the state; return (state, a float in [0, 1) with 53 random bits)."""
    state, z = next_u64(state)
    return state, np.float64(z >> np.uint64(11)) * 2.0**-53


@njit(cache=True, inline="always")
def below(state, n):
    """Advance the state; return (state, an integer in [0, n))."""
    state, z = next_u64(state)
    return state, np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


@njit(cache=True, inline="always")
def below_pair(state, n, m):
    """Advance the state once; return (state, an integer in [0, n), an integer in [0, m)).

    The high and low 32 bits of one draw serve the two integers (both below 2^32).
    """
    state, z = next_u64(state)
    high = np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    low = np.int64(((z & np.uint64(0xFFFFFFFF)) * np.uint64(m)) >> np.uint64(32))
    return state, high, low


@njit(cache=True, inline="always")
def stream_state(seed, stream):
    """Starting state of stream ``stream`` (>= 0) of root seed ``seed`` (both < 2^64)."""
    root = mix64(np.uint64(seed) + GOLDEN)
    return mix64(root ^ ((np.uint64(stream) + np.uint64(1)) * GOLDEN))
