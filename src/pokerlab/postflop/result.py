"""The normalised record of a postflop solve, shared by pokerlab's solver and TexasSolver's results.

Units and conventions
    * ``ev``: the chips a player ends the hand with minus the chips it put in after the root,
      i.e. its share of the pot; the two players' range EVs sum to the root pot. (TexasSolver
      prints ``ev - pot/2``.)
    * ``equity``: the share of the pot a hand wins when the hand is checked down (ties split),
      against the opponent's range with exact card removal and every run-out equally likely.
    * ``exp_pot``: the expected pot at the end of the hand (a folded-to bet is returned, so a
      fold leaves ``pot + 2 x`` the folder's chips put in).
    * ``p_showdown``: the probability that the hand reaches a showdown.
    * Per-combo values are conditional on holding the combo; range values weight each combo by
      its range weight times the opponent weight it does not block.
    * ``exploitability_chips = (BR_oop + BR_ip - pot) / 2`` with ``BR_p`` the best-response
      value (share of the pot) of player ``p``; ``exploitability_pct_pot`` = that / pot x 100.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from pokerlab.cards import COMBO_IDS, card_str
from pokerlab.postflop.game import PLAYER_NAMES

COMBO_FIELDS = ("ev", "equity", "exp_pot", "p_showdown")
EXPLOITABILITY_CONVENTION = "(BR_oop + BR_ip - pot) / 2, BR = best-response value as a share of the pot"


@dataclass
class PlayerResult:
    """One player's root values: per combo (conditional on the combo) and for the range."""

    combos: dict[str, dict[str, float]]
    weights: dict[str, float]  # combo id -> range weight x compatible opponent weight

    def range_value(self, name: str) -> float:
        total = sum(self.weights[c] for c in self.combos)
        return sum(self.weights[c] * self.combos[c][name] for c in self.combos) / total

    @property
    def range_ev(self) -> float:
        return self.range_value("ev")

    @property
    def range_equity(self) -> float:
        return self.range_value("equity")

    def to_json(self) -> dict[str, Any]:
        return {
            "range_ev": self.range_ev,
            "range_equity": self.range_equity,
            "range_exp_pot": self.range_value("exp_pot"),
            "range_p_showdown": self.range_value("p_showdown"),
            "combos": {c: dict(v) for c, v in sorted(self.combos.items())},
        }


@dataclass
class PostflopResult:
    """A solve's root values for both players plus how well and how fast it was solved."""

    solver: str
    pot: float
    stack: float
    board: tuple[int, ...]
    players: dict[str, PlayerResult]
    exploitability_chips: float
    iterations: int
    seconds: float
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def exploitability_pct_pot(self) -> float:
        return 100.0 * self.exploitability_chips / self.pot

    def to_json(self) -> dict[str, Any]:
        return {
            "solver": self.solver,
            "pot": self.pot,
            "stack": self.stack,
            "board": "".join(card_str(c) for c in self.board),
            "players": {name: self.players[name].to_json() for name in PLAYER_NAMES},
            "exploitability_chips": self.exploitability_chips,
            "exploitability_pct_pot": self.exploitability_pct_pot,
            "exploitability_convention": EXPLOITABILITY_CONVENTION,
            "iterations": self.iterations,
            "seconds": self.seconds,
            **self.extra,
        }


def player_result(hands: np.ndarray, weights: np.ndarray, compatible: np.ndarray,
                  values: dict[str, np.ndarray]) -> PlayerResult:
    """Build a :class:`PlayerResult` from per-hand arrays aligned with ``hands`` (combo indices).

    Hands that no opponent combo can be dealt against (``compatible == 0``) are left out.
    """
    combos, mass = {}, {}
    for i, combo in enumerate(hands):
        if compatible[i] <= 0:
            continue
        cid = COMBO_IDS[int(combo)]
        combos[cid] = {name: float(values[name][i]) for name in COMBO_FIELDS}
        mass[cid] = float(weights[i] * compatible[i])
    return PlayerResult(combos=combos, weights=mass)
