"""Malmuth-Harville ICM: prize equity of chip stacks, and named payout structures.

Malmuth-Harville: a player finishes first with probability ``stack / total``; given the set of
players already placed, the next place goes to each remaining player with probability
proportional to its stack among the remaining chips. A player's equity is the sum over places
of ``P(finishes at that place) * prize``. :func:`icm_equity` computes it exactly by dynamic
programming over subsets of players (``2^n * n`` steps), for up to :data:`MAX_PLAYERS` players.

Conventions:

* ``payouts[k]`` is the prize of place ``k + 1`` (first place first), in any unit (prize-pool
  share, currency). Places beyond the list pay nothing; prizes beyond the number of players
  are not awarded (they went to players who busted before).
* A stack of zero means the player is already out: zero-stack players take the bottom places
  and split their prizes equally (they are tied). :func:`hand_end_equity` applies the
  tournament rule for players busted in the same hand instead: the one who started the hand
  with more chips finishes higher.
* Equities always sum to the prizes of the top ``n`` places.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
from numba import njit

from pokerlab.data import data_path
from pokerlab.io import read_yaml

MAX_PLAYERS = 10
"""Largest number of players :func:`icm_equity` accepts (the subset DP holds 2^n floats)."""

DEFAULT_PAYOUTS_PATH = data_path("payouts.yaml")


@njit(cache=True)
def _mh_rows(stacks, payouts, out):
    """Malmuth-Harville equity of each row of ``stacks`` (all > 0) into ``out``.

    ``prob[mask]`` is the probability that the players in ``mask`` took the top ``popcount``
    places (in some order); ``chips[mask]`` their chips. Propagation stops at the last paid place.
    """
    rows, n = stacks.shape
    paid = min(payouts.size, n)
    size = 1 << n
    prob = np.empty(size)
    chips = np.empty(size)
    count = np.empty(size, dtype=np.int64)
    for r in range(rows):
        total = 0.0
        for i in range(n):
            total += stacks[r, i]
        chips[0] = 0.0
        count[0] = 0
        for mask in range(1, size):
            low = mask & -mask
            i = 0
            while (1 << i) != low:
                i += 1
            chips[mask] = chips[mask ^ low] + stacks[r, i]
            count[mask] = count[mask ^ low] + 1
        prob[:] = 0.0
        prob[0] = 1.0
        for i in range(n):
            out[r, i] = 0.0
        for mask in range(size):
            p = prob[mask]
            k = count[mask]
            if p == 0.0 or k >= paid:
                continue
            rest = total - chips[mask]
            prize = payouts[k]
            for i in range(n):
                if mask & (1 << i):
                    continue
                pi = p * stacks[r, i] / rest
                out[r, i] += pi * prize
                prob[mask | (1 << i)] += pi


def _check_payouts(payouts: Any) -> np.ndarray:
    pay = np.asarray(payouts, dtype=np.float64)
    if pay.ndim != 1 or pay.size == 0 or not np.all(np.isfinite(pay)) or np.any(pay < 0):
        raise ValueError(f"payouts: {payouts!r} must be a non-empty list of finite prizes >= 0")
    return pay


def icm_equity_batch(stacks: Any, payouts: Any) -> np.ndarray:
    """Malmuth-Harville equity of every row of ``stacks`` (rows, n): an array (rows, n) in the
    units of ``payouts``. Zero stacks take the bottom places and split them (see the module
    docstring). Identical rows are computed once."""
    pay = _check_payouts(payouts)
    s = np.asarray(stacks, dtype=np.float64)
    if s.ndim != 2 or s.shape[1] == 0:
        raise ValueError(f"stacks: expected a (rows, players) array, got shape {s.shape}")
    n = s.shape[1]
    if n > MAX_PLAYERS:
        raise ValueError(f"stacks: {n} players; exact ICM is limited to {MAX_PLAYERS} players still in")
    if not np.all(np.isfinite(s)) or np.any(s < 0):
        raise ValueError("stacks: every stack must be a finite number >= 0")
    if np.any(s.sum(axis=1) <= 0):
        raise ValueError("stacks: every row needs at least one positive stack")
    pay = np.concatenate([pay, np.zeros(max(0, n - pay.size))])[:n]
    unique, inverse = np.unique(s, axis=0, return_inverse=True)
    out = np.zeros_like(unique)
    alive = unique > 0
    for pattern in np.unique(alive, axis=0):  # rows with the same players still in
        rows = np.flatnonzero((alive == pattern).all(axis=1))
        m = int(pattern.sum())
        block = np.empty((rows.size, m))
        _mh_rows(np.ascontiguousarray(unique[np.ix_(rows, pattern)]), pay[:m], block)
        out[np.ix_(rows, pattern)] = block
        if m < n:  # players with no chips tie for the bottom places
            out[np.ix_(rows, ~pattern)] = pay[m:].mean()
    return out[inverse.reshape(-1)]


def icm_equity(stacks: Any, payouts: Any) -> np.ndarray:
    """Malmuth-Harville prize equity of each player, in the units of ``payouts``.

    ``stacks``: chips of every player still in the tournament (any unit, >= 0, at least one
    positive, at most :data:`MAX_PLAYERS`); ``payouts``: prize of place 1, 2, ...
    """
    s = np.asarray(stacks, dtype=np.float64)
    if s.ndim != 1:
        raise ValueError(f"stacks: expected a 1-d list of stacks, got shape {s.shape}")
    return icm_equity_batch(s[None, :], payouts)[0]


def hand_end_equity(start: Any, final: Any, payouts: Any) -> np.ndarray:
    """Prize equity after a hand, for each row of ``final`` (rows, n) stacks at the end of the
    hand; ``start`` (n,) the stacks when it began. Players at zero busted in this hand: they
    take the bottom places, ranked by starting stack (equal starting stacks split the prizes
    of the places they share); the survivors share the rest by Malmuth-Harville."""
    pay = _check_payouts(payouts)
    start = np.asarray(start, dtype=np.float64)
    final = np.atleast_2d(np.asarray(final, dtype=np.float64))
    n = start.size
    if final.shape[1] != n:
        raise ValueError(f"final stacks: {final.shape[1]} players, start has {n}")
    pay = np.concatenate([pay, np.zeros(max(0, n - pay.size))])[:n]
    out = icm_equity_batch(final, pay)
    busted = final <= 0
    for pattern in np.unique(busted[busted.any(axis=1)], axis=0):
        rows = np.flatnonzero((busted == pattern).all(axis=1))
        out_seats = np.flatnonzero(pattern)
        place = n - out_seats.size  # index of the best place left to the busted players
        values = np.empty(out_seats.size)
        for level in sorted(set(start[out_seats]), reverse=True):  # bigger starting stack, better place
            tied = start[out_seats] == level
            values[tied] = pay[place:place + tied.sum()].mean()
            place += int(tied.sum())
        out[np.ix_(rows, out_seats)] = values
    return out


@dataclass(frozen=True)
class PayoutStructure:
    """A named tournament situation: ``players_left`` players still in, ``payouts[k]`` the
    prize of place ``k + 1`` (relative units; only the shape matters), every player holding
    the same stack at the start of the hand."""

    name: str
    players_left: int
    payouts: tuple[float, ...]

    def __post_init__(self) -> None:
        where = f"payouts {self.name}"
        if isinstance(self.players_left, bool) or not isinstance(self.players_left, int) or not 2 <= self.players_left <= MAX_PLAYERS:
            raise ValueError(f"{where}.players_left: {self.players_left!r} must be an integer 2..{MAX_PLAYERS}")
        pay = list(self.payouts) if isinstance(self.payouts, (list, tuple)) else None
        if not pay or any(isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x < 0 for x in pay):
            raise ValueError(f"{where}.prizes: {self.payouts!r} must be a non-empty list of numbers >= 0")
        if len(pay) > self.players_left:
            raise ValueError(f"{where}.prizes: {len(pay)} paid places but only {self.players_left} players left")
        if any(a < b for a, b in zip(pay, pay[1:])) or pay[0] <= 0:
            raise ValueError(f"{where}.prizes: {pay!r} must be non-increasing with a positive first prize")
        object.__setattr__(self, "payouts", tuple(float(x) for x in pay))

    @property
    def pool(self) -> float:
        return float(sum(self.payouts))

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "players_left": self.players_left, "prizes": list(self.payouts)}


def parse_payouts(data: Any) -> dict[str, PayoutStructure]:
    """Validate the mapping read from ``payouts.yaml``: name -> {players_left, prizes}."""
    if not isinstance(data, dict) or not data:
        raise ValueError("payouts: expected a mapping of structure name -> {players_left, prizes}")
    out = {}
    for name, row in data.items():
        if not isinstance(row, dict) or set(row) != {"players_left", "prizes"}:
            raise ValueError(f"payouts {name}: expected exactly the keys players_left and prizes, got {row!r}")
        out[str(name)] = PayoutStructure(str(name), row["players_left"], row["prizes"])
    return out


def load_payouts(path: str | os.PathLike | None = None) -> dict[str, PayoutStructure]:
    """Read and validate the payout structures (default: the shipped ``pokerlab/data/payouts.yaml``)."""
    return parse_payouts(read_yaml(path if path is not None else DEFAULT_PAYOUTS_PATH, "payouts file"))
