"""The ``solved:`` config section as validated data: which spots are measured, which of their endings
are re-valued, the flop subset, the postflop bet tree per pot type, the accuracy, and the outer loop.

Every check names the key and what was expected, and runs when the workflow loads.
"""

from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass, field
from typing import Any

from pokerlab.fit.settings import parse_bet_tree, parse_spot_list
from pokerlab.postflop.game import BetTree
from pokerlab.preflop.solve import SolveSettings
from pokerlab.preflop.spot import Spot

POT_TYPES = ("limped", "single_raised", "three_bet", "four_bet")
"""Pot types by the number of priced raises (``R``/``S``) before the flop: 0, 1, 2, 3 or more."""
CHIP_FORMATS = ("cash", "mtt")
MAX_BOARDS = 200  # flops per ending (fitting + held-out): far more than a measurement needs
MAX_OUTER_ITERATIONS = 20
MEASURING_KEYS = ("endings", "boards", "heldout_boards", "seed", "bet_trees", "accuracy_pct_pot", "max_iterations",
                  "compression", "floor_weight", "outer_iterations", "damping", "exchange")  # max_memory_mb and tolerance change no table
"""The keys that decide a spot's measured table (``spots``, ``tolerance``, ``max_memory_mb`` and
``validation_boards``, which only sizes the held-out check, do not). ``estimator`` decides it too, and
counts only when it is not ``per_class``, and ``exchange.average`` only when it is not ``whole_run``, so tables
measured before those keys existed keep their digest when a config names the defaults."""
EXCHANGE_AVERAGES = ("whole_run", "second_half")
"""Which preflop iterations an exchange's chart (and the start shipped with its table) averages: all of
them, or those of the second half, the exchanges the table averages (``solved.exchange.average``; the
in-process exchange only)."""
SPOT_KEYS = ("endings", "boards", "heldout_boards", "validation_boards")
"""The keys an entry of ``solved.spots`` may set for its own spot beside ``format``, ``seats`` and ``depth``:
what sizes a spot's measurement (a six-handed spot has more endings worth re-valuing than a heads-up one).
:func:`spot_section` merges them over the section's own."""
ESTIMATORS = ("per_class", "pooled")
"""How an ending's corrections are read from its flops: each class's own mean, or the control-variate
fit across classes (:func:`pokerlab.solved.values.pooled_class_values`)."""


def pot_type(node: str) -> str:
    """The pot type of a flop ending from its preflop action string (``SCR C`` ... see :data:`POT_TYPES`)."""
    raises = sum(node.count(a) for a in "RS")
    return POT_TYPES[min(raises, len(POT_TYPES) - 1)]


def _number(section: dict, key: str, low: float, high: float, integer: bool = False, where: str = "solved") -> Any:
    value = section.get(key)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if integer:
        ok = ok and isinstance(value, int)
    if not ok or not low <= value <= high:
        kind = "an integer" if integer else "a number"
        raise ValueError(f"{where}.{key}: {value!r} must be {kind} in [{low:g}, {high:g}]")
    return value


@dataclass(frozen=True)
class SolvedSettings:
    """The solved-endings loop's settings (see ``config/config.yaml``, section ``solved``)."""

    spots: tuple[Spot, ...]
    max_endings: int  # heads-up flop endings re-valued per spot, most reached first
    min_reach: float  # ... each reached by at least this share of deals
    boards: int  # fitting flops per ending
    heldout_boards: int  # held-out flops per ending (valuation gap only)
    validation_boards: int  # held-out flops per ending the validation solves (default heldout_boards; no table changes)
    seed: int
    bet_trees: dict[str, BetTree]  # by pot type
    accuracy_pct_pot: float  # target exploitability of each postflop solve, % of the pot
    max_iterations: int  # postflop solver iterations at most
    max_memory_mb: int  # the postflop solver refuses a tree that needs more
    compression: bool  # postflop state in 16 bits (half the memory; values within ~0.001% of the pot)
    floor_weight: float  # own reach given to a class a seat does not bring (so it gets a value too)
    outer_iterations: int  # rounds of postflop solves; the chart is solved once more under the last table
    damping: float  # table k+1 = table k + damping x (measured - table k)
    tolerance_strategy_pp: float  # converged when the largest node's strategy change is below this ...
    tolerance_gap_bb: float  # ... and the valuation gap below this
    exchange_every: int  # the exchanging solve: preflop iterations between exchanges ...
    exchange_iterations: int  # ... and in all
    exchange_postflop: int  # postflop iterations of each flop per exchange (at most exchange_every)
    estimator: str = "per_class"  # one of ESTIMATORS
    exchange_average: str = "whole_run"  # the chart's preflop average: one of EXCHANGE_AVERAGES
    raw: dict = field(repr=False, default_factory=dict)

    @classmethod
    def from_config(cls, section: Any) -> "SolvedSettings":
        """The section's settings; a spot's own (its entry's :data:`SPOT_KEYS` merged in) are
        :meth:`for_spot`'s. Every spot's merged settings are checked here, naming the entry."""
        if not isinstance(section, dict):
            raise ValueError("solved: expected a mapping")
        spots = section.get("spots")
        if not isinstance(spots, list):
            raise ValueError("solved.spots: expected a list of {format, seats, depth}")
        parsed = parse_spot_list(spots, "solved.spots")
        for i, spot in enumerate(parsed):
            if spot.format not in CHIP_FORMATS:
                raise ValueError(f"solved.spots[{i}]: format {spot.format!r}; solved endings are measured for the "
                                 f"chip formats {list(CHIP_FORMATS)} only")
            unknown = sorted(set(spots[i]) - {"format", "seats", "depth", *SPOT_KEYS})
            if unknown:
                raise ValueError(f"solved.spots[{i}]: unknown key {unknown[0]!r}; an entry names format, seats and "
                                 f"depth and may set {list(SPOT_KEYS)} for its spot")
            if set(spots[i]) & set(SPOT_KEYS):
                try:
                    cls.from_config(spot_section(section, spot.name))
                except ValueError as exc:
                    raise ValueError(f"solved.spots[{i}] ({spot.name}): {exc}") from None
        endings = section.get("endings")
        if not isinstance(endings, dict):
            raise ValueError("solved.endings: expected a mapping with max_per_spot and min_reach")
        trees = section.get("bet_trees")
        if not isinstance(trees, dict) or set(trees) != set(POT_TYPES):
            raise ValueError(f"solved.bet_trees: expected one bet tree for each pot type {list(POT_TYPES)}")
        tolerance = section.get("tolerance")
        if not isinstance(tolerance, dict):
            raise ValueError("solved.tolerance: expected a mapping with strategy_pp and gap_bb")
        exchange = section.get("exchange")
        if not isinstance(exchange, dict):
            raise ValueError("solved.exchange: expected a mapping with every and iterations")
        boards = _number(section, "boards", 1, MAX_BOARDS, integer=True)
        compression = section.get("compression")
        if not isinstance(compression, bool):
            raise ValueError(f"solved.compression: {compression!r} must be true or false")
        heldout = _number(section, "heldout_boards", 0, MAX_BOARDS - boards, integer=True)
        validation = (heldout if section.get("validation_boards") is None
                      else _number(section, "validation_boards", 1, MAX_BOARDS - boards, integer=True))
        every = _number(exchange, "every", 1, 1000, integer=True, where="solved.exchange")
        postflop = (_number(exchange, "postflop_every", 1, every, integer=True, where="solved.exchange")
                    if "postflop_every" in exchange else every)
        average = exchange.get("average", "whole_run")
        if average not in EXCHANGE_AVERAGES:
            raise ValueError(f"solved.exchange.average: {average!r} must be one of {list(EXCHANGE_AVERAGES)}")
        estimator = section.get("estimator", "per_class")
        if estimator not in ESTIMATORS:
            raise ValueError(f"solved.estimator: {estimator!r} must be one of {list(ESTIMATORS)}")
        return cls(
            spots=parsed,
            max_endings=_number(endings, "max_per_spot", 1, 50, integer=True, where="solved.endings"),
            min_reach=float(_number(endings, "min_reach", 0.0, 1.0, where="solved.endings")),
            boards=boards, heldout_boards=heldout, validation_boards=validation,
            seed=_number(section, "seed", 0, 2**63 - 1, integer=True),
            bet_trees={t: parse_bet_tree(trees[t], f"solved.bet_trees.{t}") for t in POT_TYPES},
            accuracy_pct_pot=float(_number(section, "accuracy_pct_pot", 1e-4, 100.0)),
            max_iterations=_number(section, "max_iterations", 1, 100_000, integer=True),
            max_memory_mb=_number(section, "max_memory_mb", 100, 1_000_000, integer=True),
            compression=compression,
            floor_weight=float(_number(section, "floor_weight", 0.0, 1.0)),
            outer_iterations=_number(section, "outer_iterations", 1, MAX_OUTER_ITERATIONS, integer=True),
            damping=float(_number(section, "damping", 1e-3, 1.0)),
            tolerance_strategy_pp=float(_number(tolerance, "strategy_pp", 0.0, 100.0, where="solved.tolerance")),
            tolerance_gap_bb=float(_number(tolerance, "gap_bb", 0.0, 1000.0, where="solved.tolerance")),
            exchange_every=every,
            exchange_iterations=_number(exchange, "iterations", 1, 1_000_000, integer=True, where="solved.exchange"),
            exchange_postflop=postflop,
            estimator=estimator,
            exchange_average=average,
            raw=section,
        )

    @classmethod
    def for_spot(cls, section: dict, name: str) -> "SolvedSettings":
        """The settings that measure spot ``name`` (``cash/6max/100bb``): the section with the spot's
        entry's :data:`SPOT_KEYS` merged in (:func:`spot_section`)."""
        cls.from_config(section)
        return cls.from_config(spot_section(section, name))

    def require_whole_run_average(self) -> None:
        """Raise a ValueError naming ``solved.exchange.average`` unless it is ``whole_run``: the rounds
        (the exchange split into jobs) measure the chart's joint exploitability as they go, on the whole
        run's average, so only the exchange in one process can average the second half."""
        if self.exchange_average != "whole_run":
            raise ValueError(f"solved.exchange.average: {self.exchange_average} needs the exchange in one process "
                             "(snakemake solved_exchange); the rounds need average: whole_run")

    def postflop_iterations(self, preflop_iterations: int) -> int:
        """The postflop iterations of each flop in an exchange of ``preflop_iterations`` preflop ones."""
        return min(self.exchange_postflop, preflop_iterations)

    @property
    def spot_names(self) -> list[str]:
        return [s.name for s in self.spots]

    @property
    def endings_per_spot(self) -> int:
        """The plan's ending ranks per spot (the name :func:`pokerlab.fit.plan.write_plan` reads)."""
        return self.max_endings

    def bet_tree_for(self, node: str) -> BetTree:
        """The postflop bet tree of the flop ending ``node`` (by its pot type)."""
        return self.bet_trees[pot_type(node)]

    def job_keys(self) -> list[str]:
        """``e{rank}/b{board}`` of one spot's postflop solve jobs in one outer iteration."""
        return [f"e{e}/b{b}" for e in range(self.max_endings) for b in range(self.boards + self.heldout_boards)]

    def sha256(self) -> str:
        """SHA-256 of the measuring settings (:data:`MEASURING_KEYS`, sorted-key JSON): what a table's
        provenance must match for a chart to use it."""
        return settings_sha256(self.raw)


def spot_section(section: dict, name: str) -> dict:
    """The ``solved`` section as spot ``name`` is measured: its entry's :data:`SPOT_KEYS` merged over the
    section's own, and the spot list that spot alone (a spot not listed gets the section's own keys)."""
    for entry in section.get("spots") or []:
        if isinstance(entry, dict) and parse_spot_list([entry], "solved.spots")[0].name == name:
            own = {k: entry[k] for k in SPOT_KEYS if k in entry}
            return {**section, **own, "spots": [{k: entry[k] for k in ("format", "seats", "depth")}]}
    return dict(section)


def settings_sha256(section: dict) -> str:
    """SHA-256 of a ``solved`` config section's measuring keys (:data:`MEASURING_KEYS`)."""
    what = {k: section.get(k) for k in MEASURING_KEYS}
    if isinstance(what["exchange"], dict) and what["exchange"].get("average") == "whole_run":
        what["exchange"] = {k: v for k, v in what["exchange"].items() if k != "average"}  # the default, named
    if section.get("estimator", "per_class") != "per_class":
        what["estimator"] = section["estimator"]
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def base_postflop(postflop: dict[str, Any]) -> dict[str, Any]:
    """``solve.postflop`` as the model the corrections are measured against: with ``model: solved``
    its base model (the section without ``model`` and ``solved_tables``, so v1), else the section."""
    if postflop.get("model") != "solved":
        return dict(postflop)
    return {k: v for k, v in postflop.items() if k not in ("model", "solved_tables")}


def base_settings(config: dict[str, Any], base_postflop: dict[str, Any], constants: str | None) -> SolveSettings:
    """The preflop solve's settings under the base model: the workflow ``config``'s ``solve`` section with
    ``base_postflop`` (``solve.postflop`` without its solved tables) and the ``constants`` file (None: the
    section's own)."""
    return SolveSettings.from_config({**config["solve"], "postflop": base_postflop}, constants)


def table_provenance(config: dict[str, Any], command: str, spot: str) -> dict[str, Any]:
    """What the table of ``spot`` records of its making: the ``command`` that re-measures it and the
    workflow ``config``'s ``solved`` section as that spot is measured (:func:`spot_section`) but its spot list."""
    section = spot_section(config["solved"], spot)
    return {"command": command, "settings": {k: section.get(k) for k in sorted(section) if k != "spots"}}
