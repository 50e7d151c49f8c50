"""Fees as data, and the one settlement function every push/fold payoff comes from.

A fee structure takes three amounts (bb) from every pot, whatever its size:

``rake_bb``
    kept by the house;
``splash_bb``
    skimmed into a jackpot that is later dropped into random, unrelated pots. What a player
    gets back from it does not depend on anybody's strategy at this table, so for range
    solving it is exactly a second flat drop;
``rakeback_bb``
    a share of the rake paid back *outside the hand* to the seats that paid into the pot,
    pro rata to what each left in it.

Two nets, kept apart on purpose:

* the **ledger net** is what the hand history shows: pot share after the drop
  (rake + splash) minus what the seat put in. Rakeback never appears in it;
* the **objective net** = ledger net + rakeback is what a player earns from the decision and
  what the solvers maximise. Rakeback is strategy-dependent (a seat only earns it by putting
  chips in), so leaving it out would optimise the wrong number.

Contributions follow the chips that are really contested. A seat that wins uncalled takes
its own blind, ante and bet back before the pot is raked, so its contribution is 0 and the
raked pot is the dead money of the seats that folded. A folder forfeits its blind (and the
big blind its ante) and so earns a pro-rata share of the rakeback on it: heads-up with the
CoinPoker-style fees, folding the small blind nets -0.5 + 0.06 = -0.44bb and folding the big
blind to a shove nets -1 + 0.06 = -0.94bb (``fold_baselines`` derives both).

Every pot carries the same fee ``drop_bb - rakeback_bb``, so the objective game stays
constant-sum and exploitability keeps its meaning.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import Any, Mapping

import numpy as np

SMALL_BLIND_BB = 0.5
BIG_BLIND_BB = 1.0


@dataclass(frozen=True)
class FeeModel:
    """Per-pot fees in bb (see the module docstring). ``name`` labels results."""

    name: str
    rake_bb: float = 0.0
    splash_bb: float = 0.0
    rakeback_bb: float = 0.0

    def __post_init__(self) -> None:
        for field in ("rake_bb", "splash_bb", "rakeback_bb"):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value < 0:
                raise ValueError(f"fees {self.name!r} {field}: {value!r} is not a number >= 0 (bb per pot)")
            object.__setattr__(self, field, float(value))
        if self.rakeback_bb > self.rake_bb:
            raise ValueError(f"fees {self.name!r} rakeback_bb: {self.rakeback_bb:g} exceeds the rake {self.rake_bb:g} it is paid from")
        if self.drop_bb > SMALL_BLIND_BB:
            raise ValueError(f"fees {self.name!r}: the drop {self.drop_bb:g}bb exceeds the smallest pot ({SMALL_BLIND_BB:g}bb, a walk)")

    @property
    def drop_bb(self) -> float:
        """What leaves every pot before it is awarded: rake plus splash, bb."""
        return self.rake_bb + self.splash_bb

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "drop_bb": self.drop_bb}


FEE_PRESETS: dict[str, FeeModel] = {
    "none": FeeModel("none"),
    "coinpoker": FeeModel("coinpoker", rake_bb=0.12, splash_bb=0.10, rakeback_bb=0.06),
}
"""Named fee structures: rake-free, and a CoinPoker-style flat drop with rakeback."""


def fee_model(spec: str | Mapping[str, Any] | FeeModel) -> FeeModel:
    """A preset by name, a mapping ``{name, rake_bb, splash_bb, rakeback_bb}`` (from config), or
    a model as is. Raises ``ValueError`` naming an unknown preset or a bad field."""
    if isinstance(spec, FeeModel):
        return spec
    if isinstance(spec, str):
        try:
            return FEE_PRESETS[spec]
        except KeyError:
            raise ValueError(f"fees: unknown preset {spec!r}; expected one of {sorted(FEE_PRESETS)}") from None
    if isinstance(spec, Mapping):
        unknown = set(spec) - {"name", "rake_bb", "splash_bb", "rakeback_bb"}
        if unknown:
            raise ValueError(f"fees: unknown field(s) {sorted(unknown)}")
        return FeeModel(**{"name": "custom", **spec})
    raise ValueError(f"fees: {spec!r} is neither a preset name nor a mapping of fee amounts")


def fee_model_from_table(table: Mapping[str, Mapping[str, Any]], name: str) -> FeeModel:
    """The fee structure ``name`` of a config table ``{name: {rake_bb, splash_bb, rakeback_bb}}``."""
    if name not in table:
        raise ValueError(f"fees: unknown preset {name!r}; the config defines {sorted(table)}")
    return fee_model({"name": name, **table[name]})


@dataclass(frozen=True)
class Settlement:
    """Per-seat outcome of one finished pot, bb. ``objective_net = ledger_net + rakeback``."""

    pot_bb: float
    ledger_net: np.ndarray
    rakeback: np.ndarray

    @property
    def objective_net(self) -> np.ndarray:
        return self.ledger_net + self.rakeback


def settle(fees: FeeModel, contributions, shares) -> Settlement:
    """Settle one pot.

    ``contributions[i]``: chips seat ``i`` leaves in the pot (0 for a seat that never put any
    in, or that wins uncalled and takes its chips back). ``shares[i]``: seat ``i``'s share of
    the pot after the drop (its showdown equity; 1 for an uncalled winner; 0 for a folder);
    the shares sum to 1. The drop leaves the pot, the rest is awarded by share, and the
    rakeback is credited by contribution.
    """
    contributions = np.asarray(contributions, dtype=np.float64)
    shares = np.asarray(shares, dtype=np.float64)
    pot = float(contributions.sum())
    if pot < fees.drop_bb:
        raise ValueError(f"settle: pot {pot:g}bb is smaller than the drop {fees.drop_bb:g}bb")
    ledger = shares * (pot - fees.drop_bb) - contributions
    rakeback = fees.rakeback_bb * contributions / pot if pot > 0 else np.zeros_like(contributions)
    return Settlement(pot, ledger, rakeback)


@dataclass(frozen=True)
class PushFoldGame:
    """Shove-or-fold with ``seats`` (2 or 4) equal live stacks of ``depth_bb``, blinds 0.5/1bb,
    an optional dead ante ``ante_bb`` posted by the big blind on top of its stack, and ``fees``.

    Seats in preflop order (``CO BTN SB BB`` four-handed; ``SB BB`` heads-up). The first seat
    to go all-in shoves, later seats call or fold; folding to the big blind is a walk.
    """

    seats: int
    depth_bb: float
    fees: FeeModel
    ante_bb: float = 0.0

    def __post_init__(self) -> None:
        if isinstance(self.seats, bool) or self.seats not in (2, 4):
            raise ValueError(f"seats: {self.seats!r} is not supported; push/fold is solved heads-up (2) or 4-max (4)")
        for field, low in (("depth_bb", BIG_BLIND_BB), ("ante_bb", 0.0)):
            value = getattr(self, field)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{field}: {value!r} is not a number of big blinds")
            object.__setattr__(self, field, float(value))
        if self.depth_bb < BIG_BLIND_BB:
            raise ValueError(f"depth_bb: {self.depth_bb:g} is below the 1bb big blind (stacks must cover the blinds)")
        if self.ante_bb < 0:
            raise ValueError(f"ante_bb: {self.ante_bb:g} is negative")
        object.__setattr__(self, "fees", fee_model(self.fees))

    @property
    def positions(self) -> tuple[str, ...]:
        return ("SB", "BB") if self.seats == 2 else ("CO", "BTN", "SB", "BB")

    def blind(self, seat: int) -> float:
        """Chips seat ``seat`` has in the pot before acting: blind plus (big blind) the ante."""
        if seat == self.seats - 2:
            return SMALL_BLIND_BB
        if seat == self.seats - 1:
            return BIG_BLIND_BB + self.ante_bb
        return 0.0

    def terminal(self, live: tuple[int, ...] | frozenset[int]) -> Settlement:
        """Settlement of the ending where exactly the seats ``live`` went all-in, the others
        folded (or, for an empty ``live``, everybody folded to the big blind), with every live
        seat's share set to 0 (see :meth:`terminal_coefficients`)."""
        live = frozenset(live)
        contributions = np.array([self.blind(s) for s in range(self.seats)])
        shares = np.zeros(self.seats)
        if len(live) >= 2:
            for s in live:
                contributions[s] = self.depth_bb + (self.ante_bb if s == self.seats - 1 else 0.0)
        else:  # an uncalled winner (the big blind on a walk) takes its own chips back
            winner = next(iter(live)) if live else self.seats - 1
            contributions[winner] = 0.0
            shares[winner] = 1.0
        return settle(self.fees, contributions, shares)

    def terminal_coefficients(self, live) -> tuple[float, np.ndarray]:
        """``(award, const)`` of an ending: seat ``i``'s objective net is
        ``award * share_i + const[i]`` where ``share_i`` is its showdown equity (0 for a
        folder). Uncalled endings are already settled: ``award`` is 0 there."""
        live = frozenset(live)
        settled = self.terminal(live)
        if len(live) >= 2:
            return settled.pot_bb - self.fees.drop_bb, settled.objective_net
        return 0.0, settled.objective_net


def fold_baselines(game: PushFoldGame) -> dict[str, float]:
    """Heads-up objective nets of the two folds, bb: ``SB`` folding its blind, ``BB`` folding
    to a shove. Both come from :func:`settle` (via :meth:`PushFoldGame.terminal`)."""
    if game.seats != 2:
        raise ValueError(f"fold_baselines: heads-up only (seats=2), got seats={game.seats}")
    return {"SB": float(game.terminal(()).objective_net[0]), "BB": float(game.terminal((0,)).objective_net[1])}
