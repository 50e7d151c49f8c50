"""A heads-up postflop spot and its bet tree, as validated data.

Conventions
    * Players: ``OOP = 0`` (acts first on every street), ``IP = 1``.
    * Chips: ``pot`` is the pot at the root (dead money, owned by nobody); ``stack`` is the
      effective stack behind at the root. Every amount in the tree is in the same chips.
    * Streets: ``FLOP, TURN, RIVER = 0, 1, 2``; the root street follows from the board length.
    * Ranges: weight vectors over the 1,326 combos in :data:`pokerlab.cards.COMBO_CARDS` order.
      Combos that collide with the board carry no weight in the solve (they are dropped).

Bet sizing (per street and player, as in TexasSolver's input language)
    * ``bets``: sizes of an opening bet, in % of the pot at the moment of betting.
    * ``raises``: a raise of ``x`` % puts in the amount to call plus ``x`` % of the pot after
      that call (the pot-sized-raise convention of TexasSolver and postflop-solver).
    * ``donks``: opening sizes for OOP when it called IP's bet on the previous street
      (TexasSolver's donk bet); ``None`` uses ``bets``.
    * ``allin``: whether moving all-in is an action.
    * A sized bet or raise that needs the whole stack becomes the all-in, and so does one that
      would take the bettor's stake in the pot above ``allin_threshold`` x its starting stake,
      a stake being its half of the root pot plus what it has put in since (TexasSolver's
      rule, which drops such a bet and keeps the all-in it always offers).
    * ``raise_cap``: the number of raises (all-ins included) allowed after a street's opening
      bet (TexasSolver's ``set_raise_limit`` counts the bet too: its default 4 is a cap of 3).
    * ``whole_chips``: round the pot fraction of every sized bet or raise to the nearest chip
      (TexasSolver's trees); otherwise amounts are exact.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from pokerlab.cards import COMBO_CARDS, N_COMBOS, card_str, combos_blocked_by

OOP, IP = 0, 1
PLAYER_NAMES = ("oop", "ip")
FLOP, TURN, RIVER = 0, 1, 2
STREET_NAMES = ("flop", "turn", "river")


def _sizes(name: str, values) -> tuple[float, ...]:
    out = tuple(float(v) for v in values)
    for v in out:
        if not math.isfinite(v) or v <= 0:
            raise ValueError(f"bad {name} size {v!r}: sizes are positive % of the pot")
    return out


@dataclass(frozen=True)
class StreetActions:
    """The bet sizes one player may use on one street (sizes in % of the pot)."""

    bets: tuple[float, ...] = ()
    raises: tuple[float, ...] = ()
    allin: bool = False
    donks: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "bets", _sizes("bet", self.bets))
        object.__setattr__(self, "raises", _sizes("raise", self.raises))
        if self.donks is not None:
            object.__setattr__(self, "donks", _sizes("donk", self.donks))

    @property
    def has_actions(self) -> bool:
        """True if this player can ever put chips in on this street."""
        return bool(self.bets or self.raises or self.allin or self.donks)


@dataclass(frozen=True)
class BetTree:
    """Bet sizes per ``[street][player]`` plus the all-in threshold and the raise cap."""

    streets: tuple[tuple[StreetActions, StreetActions], ...]
    allin_threshold: float = 1.0
    raise_cap: int = 3
    whole_chips: bool = False  # round each size's pot fraction to whole chips, as TexasSolver does

    def __post_init__(self) -> None:
        if len(self.streets) != 3 or any(len(s) != 2 for s in self.streets):
            raise ValueError("bet tree: streets must be 3 (flop, turn, river) pairs of (oop, ip) actions")
        if not math.isfinite(self.allin_threshold) or self.allin_threshold <= 0:
            raise ValueError(f"bad allin_threshold {self.allin_threshold!r}: expected a positive number")
        if int(self.raise_cap) != self.raise_cap or self.raise_cap < 0:
            raise ValueError(f"bad raise_cap {self.raise_cap!r}: expected an integer >= 0")

    @classmethod
    def uniform(
        cls,
        bets=(),
        raises=(),
        allin: bool = False,
        allin_threshold: float = 1.0,
        raise_cap: int = 3,
    ) -> "BetTree":
        """The same sizes for both players on every street (donk bets = bets)."""
        actions = StreetActions(bets=tuple(bets), raises=tuple(raises), allin=allin)
        return cls(streets=((actions, actions),) * 3, allin_threshold=allin_threshold, raise_cap=raise_cap)

    def actions(self, street: int, player: int) -> StreetActions:
        return self.streets[street][player]

    def has_actions(self, first_street: int) -> bool:
        """True if anybody can bet on some street from ``first_street`` on."""
        return any(a.has_actions for s in self.streets[first_street:] for a in s)


def _range_vector(name: str, weights) -> np.ndarray:
    arr = np.asarray(weights, dtype=np.float64)
    if arr.shape != (N_COMBOS,):
        raise ValueError(f"bad {name} range: expected {N_COMBOS} combo weights, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)) or np.any(arr < 0):
        raise ValueError(f"bad {name} range: weights must be finite and >= 0")
    return arr


MAX_CHIPS = 1e9
"""The largest pot or stack a spot takes: beyond it the solver's sums lose the pot's own
precision (a 1e300 stack gave NaN values)."""


@dataclass(frozen=True)
class PostflopSpot:
    """A validated heads-up postflop spot: who holds what, on which board, for how much."""

    pot: float
    stack: float
    board: tuple[int, ...]
    oop_range: np.ndarray = field(repr=False)
    ip_range: np.ndarray = field(repr=False)
    bet_tree: BetTree = field(default_factory=lambda: BetTree.uniform())

    def __post_init__(self) -> None:
        if not math.isfinite(self.pot) or not 0 < self.pot <= MAX_CHIPS:
            raise ValueError(f"bad pot {self.pot!r}: expected a positive number of chips, at most {MAX_CHIPS:g}")
        if not math.isfinite(self.stack) or not 0 <= self.stack <= MAX_CHIPS:
            raise ValueError(f"bad stack {self.stack!r}: expected a number of chips >= 0, at most {MAX_CHIPS:g}")
        board = tuple(int(c) for c in self.board)
        if not 3 <= len(board) <= 5:
            raise ValueError(f"bad board {board!r}: a postflop board has 3, 4 or 5 cards")
        if any(not 0 <= c < 52 for c in board):
            raise ValueError(f"bad board {board!r}: card indices are 0..51")
        if len(set(board)) != len(board):
            dup = next(card_str(c) for c in board if board.count(c) > 1)
            raise ValueError(f"bad board {' '.join(card_str(c) for c in board)}: card {dup} appears twice")
        object.__setattr__(self, "board", board)
        blocked = combos_blocked_by(board)
        for name in PLAYER_NAMES:
            arr = _range_vector(name, getattr(self, f"{name}_range")).copy()
            arr[blocked] = 0.0
            if not arr.any():
                raise ValueError(f"bad {name} range: empty after removing combos that use a board card")
            arr.setflags(write=False)
            object.__setattr__(self, f"{name}_range", arr)
        if self.stack > 0 and not self.bet_tree.has_actions(self.street):
            raise ValueError("bad bet tree: no bet, raise or all-in on any street (use stack 0 for a check-down)")
        if self.pair_mass() <= 0:
            raise ValueError("bad ranges: every oop combo collides with every ip combo")

    @property
    def street(self) -> int:
        """Street of the root: FLOP (3 board cards), TURN (4) or RIVER (5)."""
        return len(self.board) - 3

    @property
    def ranges(self) -> tuple[np.ndarray, np.ndarray]:
        """(oop, ip) weight vectors with board-colliding combos zeroed."""
        return self.oop_range, self.ip_range

    def pair_mass(self) -> float:
        """Sum of ``w_oop(a) * w_ip(b)`` over combo pairs sharing no card: the deal's normaliser."""
        oop, ip = self.ranges
        card_mass = np.zeros(52)
        np.add.at(card_mass, COMBO_CARDS[:, 0], ip)
        np.add.at(card_mass, COMBO_CARDS[:, 1], ip)
        compatible = ip.sum() - card_mass[COMBO_CARDS[:, 0]] - card_mass[COMBO_CARDS[:, 1]] + ip
        return float(oop @ compatible)

    def without_stacks(self) -> "PostflopSpot":
        """The control spot: the same pot, board and ranges with nothing behind (a check-down)."""
        return PostflopSpot(self.pot, 0.0, self.board, self.oop_range, self.ip_range, self.bet_tree)
