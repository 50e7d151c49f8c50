"""The ``fit:`` config section as validated data: which spots, how many endings and boards, the
postflop bet tree and accuracy, the backend, the bootstrap.

Every check names the key and what was expected, and runs before any job does.
"""

from __future__ import annotations

import math
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pokerlab.fit.boards import N_FLOPS
from pokerlab.postflop.game import STREET_NAMES, BetTree, StreetActions
from pokerlab.preflop.payoffs import PostflopModel
from pokerlab.preflop.spot import Spot

BACKENDS = ("builtin", "texassolver")
# The most postflop solves one fitting run plans (config/presets/fit-cluster-never-run.yaml has
# 504): beyond it the plan alone takes minutes and the run months.
MAX_SOLVES = 5000


def _positive_int(section: dict, key: str, minimum: int = 1) -> int:
    value = section.get(key)
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ValueError(f"fit.{key}: {value!r} must be an integer >= {minimum}")
    return value


def _finite(section: dict, key: str, minimum: float, strict: bool = True) -> float:
    value = section.get(key)
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or value < minimum or (strict and value == minimum):
        raise ValueError(f"fit.{key}: {value!r} must be a finite number {'>' if strict else '>='} {minimum}")
    return float(value)


def _street_actions(data: Any, where: str) -> StreetActions:
    if not isinstance(data, dict):
        raise ValueError(f"{where}: expected a mapping with bets, raises, allin")
    unknown = set(data) - {"bets", "raises", "allin"}
    if unknown:
        raise ValueError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected bets, raises, allin)")
    try:
        return StreetActions(bets=tuple(data.get("bets", ())), raises=tuple(data.get("raises", ())),
                             allin=bool(data.get("allin", False)))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


def parse_spot_list(spots: list, where: str) -> tuple[Spot, ...]:
    """Spots from a config list of ``{format, seats, depth}``, each once; errors name ``where[i]``."""
    parsed: list[Spot] = []
    for i, s in enumerate(spots):
        try:
            spot = Spot(s["format"], s["seats"], s["depth"])
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{where}[{i}]: {exc}") from None
        if spot.name in {p.name for p in parsed}:
            raise ValueError(f"{where}: {spot.name} is listed twice")
        parsed.append(spot)
    return tuple(parsed)


def parse_bet_tree(tree: Any, where: str) -> BetTree:
    """A postflop bet tree from config (``flop``/``turn``/``river``: ``{bets, raises, allin}`` for both
    players, sizes in % of the pot; ``raise_cap``; ``allin_threshold``); errors name ``where``."""
    if not isinstance(tree, dict):
        raise ValueError(f"{where}: expected a mapping with flop, turn, river, raise_cap, allin_threshold")
    unknown = set(tree) - {*STREET_NAMES, "raise_cap", "allin_threshold"}
    if unknown:
        raise ValueError(f"{where}: unknown key {sorted(unknown)[0]!r} (expected flop, turn, river, raise_cap, "
                         "allin_threshold)")
    streets = tuple((_street_actions(tree.get(s), f"{where}.{s}"),) * 2 for s in STREET_NAMES)
    try:
        return BetTree(streets=streets, allin_threshold=float(tree.get("allin_threshold", 1.0)),
                       raise_cap=tree.get("raise_cap", 1))
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{where}: {exc}") from None


@dataclass(frozen=True)
class FitSettings:
    """The fitting run's settings (see ``config/config.yaml``, section ``fit``)."""

    spots: tuple[Spot, ...]
    preflop_model: PostflopModel  # the constants the fit's own preflop solves are made with
    endings_per_spot: int
    boards: int  # fitting boards per ending
    heldout_boards: int  # extra boards per ending kept out of the fit
    seed: int
    bet_tree: BetTree
    accuracy_pct_pot: float  # target exploitability of each postflop solve, % of the pot
    max_iterations: int
    backend: str
    texassolver_binary: str
    chips_per_bb: float  # TexasSolver rounds sizes to whole chips: amounts are scaled by this
    bootstrap: int  # resamples of the boards for standard errors
    min_class_reach: float  # classes a seat brings with a smaller own reach are left out of the solve
    raw: dict = field(repr=False, default_factory=dict)

    @classmethod
    def from_config(cls, section: dict) -> "FitSettings":
        if not isinstance(section, dict):
            raise ValueError("fit: expected a mapping")
        spots = section.get("spots")
        if not isinstance(spots, list) or not spots:
            raise ValueError("fit.spots: expected a non-empty list of {format, seats, depth}")
        parsed = parse_spot_list(spots, "fit.spots")
        try:
            model = PostflopModel(**section.get("preflop_model", {}))
        except (TypeError, ValueError) as exc:
            raise ValueError(f"fit.preflop_model: {exc}") from None
        bet_tree = parse_bet_tree(section.get("bet_tree"), "fit.bet_tree")
        streets = bet_tree.streets
        backend = section.get("backend", "builtin")
        if backend not in BACKENDS:
            raise ValueError(f"fit.backend: {backend!r} is not a backend; expected one of {list(BACKENDS)}")
        ts = section.get("texassolver", {}) or {}
        binary = str(ts.get("binary", "") or "")
        if backend == "texassolver":
            if any(not a.allin for pair in streets for a in pair):
                raise ValueError("fit.bet_tree: the texassolver backend needs allin: true on every street "
                                 "(TexasSolver always offers the all-in)")
        out = cls(
            spots=tuple(parsed), preflop_model=model,
            endings_per_spot=_positive_int(section, "endings_per_spot"),
            boards=_positive_int(section, "boards", 2), heldout_boards=_positive_int(section, "heldout_boards", 0),
            seed=_positive_int(section, "seed", 0), bet_tree=bet_tree,
            accuracy_pct_pot=_finite(section, "accuracy_pct_pot", 0.0),
            max_iterations=_positive_int(section, "max_iterations"), backend=backend,
            texassolver_binary=binary, chips_per_bb=float(ts.get("chips_per_bb", 100)),
            bootstrap=_positive_int(section, "bootstrap", 0),
            min_class_reach=_finite(section, "min_class_reach", 0.0, strict=False), raw=section,
        )
        per_ending = out.boards + out.heldout_boards
        if per_ending > N_FLOPS // 2:
            raise ValueError(f"fit.boards + fit.heldout_boards: {per_ending} boards per ending; at most "
                             f"{N_FLOPS // 2} (half of the {N_FLOPS:,} flops, a systematic sample's limit)")
        solves = len(out.spots) * out.endings_per_spot * per_ending
        if solves > MAX_SOLVES:
            raise ValueError(f"fit: {solves:,} postflop solves ({len(out.spots)} spots x {out.endings_per_spot} endings x "
                             f"({out.boards} + {out.heldout_boards}) boards); at most {MAX_SOLVES:,}")
        if not math.isfinite(out.chips_per_bb) or out.chips_per_bb <= 0:
            raise ValueError(f"fit.texassolver.chips_per_bb: {ts.get('chips_per_bb')!r} must be a positive number")
        return out

    @property
    def spot_names(self) -> list[str]:
        return [s.name for s in self.spots]

    def job_keys(self) -> list[str]:
        """``{spot}/e{rank}/b{board}`` of every postflop solve job (rank and board from 0)."""
        return [f"{s}/e{e}/b{b}" for s in self.spot_names for e in range(self.endings_per_spot)
                for b in range(self.boards + self.heldout_boards)]

    def check_backend(self) -> None:
        """Fail at once, saying how to fix it, when the texassolver backend's binary is not usable."""
        if self.backend != "texassolver":
            return
        hint = ("install TexasSolver's console solver and set fit.texassolver.binary in the config to its path "
                "(e.g. --config 'fit={...}' or a config file), or set fit.backend: builtin")
        if not self.texassolver_binary:
            raise RuntimeError(f"fit.texassolver.binary is not set: {hint}")
        path = shutil.which(self.texassolver_binary)
        if path is None or not Path(path).is_file():
            raise RuntimeError(f"fit.texassolver.binary {self.texassolver_binary!r} is not an executable file: {hint}")
