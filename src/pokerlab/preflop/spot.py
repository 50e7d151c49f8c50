"""A spot (format, table size, stack depth) and the sizing schedule, validated up front.

Everything here raises ``ValueError`` naming the bad field and value, so a bad spot or a bad
sizing row is reported before any tree is built or any iteration is run.

Units: big blinds (bb). Seats are numbered in preflop action order (``0`` acts first; the
small blind is seat ``n-2`` and the big blind seat ``n-1``; heads-up the small blind is the
button and acts first preflop).
"""

from __future__ import annotations

import math
import os
import re
from dataclasses import dataclass
from typing import Any, Mapping

from pokerlab.data import data_path
from pokerlab.io import read_yaml


FORMATS: dict[str, float] = {"cash": 0.0, "mtt": 1.0, "icm_bubble": 1.0, "icm_final": 1.0}
"""Supported formats and the dead ante (bb) the big blind posts in each. ``mtt`` is chip EV;
the ICM formats value chips by the payout structure of the same name (``pokerlab/data/payouts.yaml``)."""

PLANNED_FORMATS: tuple[str, ...] = ()
MIN_SEATS, MAX_SEATS = 2, 9
SWEEP_DEPTHS = (5, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 125, 150, 200)
"""The stack depths (bb) the full sweep solves (:mod:`pokerlab.sweep`): the charts there are."""

POSITIONS: dict[int, tuple[str, ...]] = {
    2: ("SB", "BB"),
    3: ("BTN", "SB", "BB"),
    4: ("CO", "BTN", "SB", "BB"),
    5: ("HJ", "CO", "BTN", "SB", "BB"),
    6: ("UTG", "HJ", "CO", "BTN", "SB", "BB"),
    7: ("UTG", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
    8: ("UTG", "UTG1", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
    9: ("UTG", "UTG1", "UTG2", "LJ", "HJ", "CO", "BTN", "SB", "BB"),
}
"""Seat names in preflop action order, by table size."""

ALL_POSITIONS = frozenset(name for names in POSITIONS.values() for name in names)
SIZING_FIELDS = ("raise_over_limp", "three_bet_ip", "three_bet_oop", "per_caller", "four_bet")
DEFAULT_SIZING_PATH = data_path("sizing.yaml")


_DEPTH_LABEL = re.compile(r"[0-9]+(\.[0-9]+)?")  # the workflow's {depth} wildcard


def depth_label(depth: float) -> str:
    """``100`` for 100bb: the depth as it appears in file names (``{depth:g}``). ``ValueError`` if
    that name does not read back as exactly this depth (more than 6 significant digits, or an
    exponent the ``{depth}`` wildcard cannot match): the spot would be solved, published or looked
    up under another depth's name."""
    label = f"{float(depth):g}"
    if not _DEPTH_LABEL.fullmatch(label) or float(label) != float(depth):
        raise ValueError(f"depth: {depth!r}bb would be named {label}bb, which is not the same depth; give at most "
                         f"6 significant digits and no exponent (e.g. 12.3457, 100, 250)")
    return label


def spot_name(fmt: str, seats: int, depth: float) -> str:
    """``cash/6max/100bb``: the spot's folder/file stem everywhere in ``results/``."""
    return f"{fmt}/{int(seats)}max/{depth_label(depth)}bb"


def parse_spot_name(name: str) -> "Spot":
    """The spot of a :func:`spot_name` (``cash/6max/100bb``); ``ValueError`` naming what is wrong."""
    parts = name.split("/")
    if len(parts) != 3 or not parts[1].endswith("max") or not parts[2].endswith("bb"):
        raise ValueError(f"spot name {name!r}: expected {{format}}/{{n}}max/{{depth}}bb, e.g. cash/6max/100bb")
    try:
        return Spot(parts[0], int(parts[1][:-3]), float(parts[2][:-2]))
    except ValueError as exc:
        raise ValueError(f"spot name {name!r}: {exc}") from None


@dataclass(frozen=True)
class Spot:
    """One preflop situation: every seat starts with ``depth`` bb live, blinds 0.5/1bb.

    ``depth`` is each seat's stack available to the betting; in the tournament formats (``mtt``
    and the ICM formats) the big blind also posts a dead 1bb ante on top of it (counted in its
    contribution, so chips are conserved).
    """

    format: str
    seats: int
    depth: float

    def __post_init__(self) -> None:
        if self.format not in FORMATS:
            planned = f" ({self.format!r} is planned, not yet supported)" if self.format in PLANNED_FORMATS else ""
            raise ValueError(f"format: unknown format {self.format!r}{planned}; expected one of {sorted(FORMATS)}")
        if isinstance(self.seats, bool) or not isinstance(self.seats, int) or not MIN_SEATS <= self.seats <= MAX_SEATS:
            raise ValueError(f"seats: {self.seats!r} is not a table size; expected an integer {MIN_SEATS}..{MAX_SEATS}")
        if isinstance(self.depth, bool) or not isinstance(self.depth, (int, float)) or not math.isfinite(self.depth):
            raise ValueError(f"depth: {self.depth!r} is not a number of big blinds")
        if self.depth <= 1.0:
            raise ValueError(f"depth: {self.depth!r}bb must exceed the 1bb big blind")
        depth_label(self.depth)
        object.__setattr__(self, "depth", float(self.depth))

    @property
    def ante(self) -> float:
        """Dead ante posted by the big blind, bb."""
        return FORMATS[self.format]

    @property
    def positions(self) -> tuple[str, ...]:
        return POSITIONS[self.seats]

    @property
    def name(self) -> str:
        """``cash/6max/100bb`` (the results folder of the spot)."""
        return spot_name(self.format, self.seats, self.depth)


@dataclass(frozen=True)
class SizingBand:
    """The sizing rows used at one depth band (see ``pokerlab/data/sizing.yaml`` for their meaning)."""

    name: str
    up_to_depth: float
    open: Mapping[str, float]
    raise_over_limp: float
    three_bet_ip: float
    three_bet_oop: float
    per_caller: float
    four_bet: float
    # optional second priced 3-bet size (action ``S``): {"ip": x, "oop": x} multiples of the open
    # (plus per_caller as the scheduled one), and optionally "seats" / "versus": the positions that
    # may make it and the openers it may be made against (absent: every one). None: one size.
    second_three_bet: Mapping[str, Any] | None = None

    def open_size(self, position: str) -> float:
        return float(self.open.get(position, self.open["default"]))

    def second_size(self, position: str, opener: str, in_position: bool) -> float | None:
        """The second 3-bet multiple for ``position`` re-raising ``opener``, or None if not offered."""
        second = self.second_three_bet
        if second is None:
            return None
        if "seats" in second and position not in second["seats"]:
            return None
        if "versus" in second and opener not in second["versus"]:
            return None
        return float(second["ip" if in_position else "oop"])


@dataclass(frozen=True)
class Sizing:
    """The whole schedule: depth bands in increasing order and the all-in threshold."""

    bands: tuple[SizingBand, ...]
    all_in_below: float

    def band(self, depth: float) -> SizingBand:
        for band in self.bands:
            if depth <= band.up_to_depth:
                return band
        raise AssertionError("the last band is unbounded")  # guaranteed by parse_sizing

    def as_dict(self, depth: float) -> dict[str, Any]:
        """The rows used at ``depth``, for results and charts."""
        b = self.band(depth)
        out = {
            "band": b.name,
            "all_in_below": self.all_in_below,
            "open": dict(sorted(b.open.items())),
            **{f: getattr(b, f) for f in SIZING_FIELDS},
        }
        if b.second_three_bet is not None:  # only then: a one-size schedule's results keep their bytes
            out["second_three_bet"] = {k: (sorted(v) if isinstance(v, list) else v)
                                       for k, v in sorted(b.second_three_bet.items())}
        return out


def _positive_number(value: Any, where: str, minimum: float = 0.0, strict: bool = True) -> float:
    ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    if not ok or (value <= minimum if strict else value < minimum):
        bound = f"> {minimum:g}" if strict else f">= {minimum:g}"
        raise ValueError(f"sizing {where}: {value!r} is not a number {bound}")
    return float(value)


def _parse_second(data: Any, where: str) -> dict[str, Any]:
    """The optional second 3-bet size of a band: ip and oop multiples (> 1), optional position lists."""
    if not isinstance(data, dict):
        raise ValueError(f"sizing {where}: expected a mapping with 'ip' and 'oop' (and optional 'seats', 'versus')")
    missing, extra = {"ip", "oop"} - set(data), set(data) - {"ip", "oop", "seats", "versus"}
    if missing or extra:
        raise ValueError(f"sizing {where}: missing {sorted(missing)} / unknown {sorted(extra)}")
    out: dict[str, Any] = {k: _positive_number(data[k], f"{where}.{k}", 1.0) for k in ("ip", "oop")}
    for key in ("seats", "versus"):
        if key in data:
            names = data[key]
            if not isinstance(names, list) or not names or any(n not in ALL_POSITIONS for n in names):
                raise ValueError(f"sizing {where}.{key}: {names!r} must be a non-empty list of positions "
                                 f"({sorted(ALL_POSITIONS)})")
            out[key] = [str(n) for n in names]
    return out


def parse_sizing(data: Any) -> Sizing:
    """Validate the mapping read from ``sizing.yaml``; every error names the row."""
    if not isinstance(data, dict):
        raise ValueError(f"sizing: expected a mapping with 'all_in_below' and 'bands', got {type(data).__name__}")
    unknown = set(data) - {"all_in_below", "bands"}
    if unknown:
        raise ValueError(f"sizing: unknown key(s) {sorted(unknown)}")
    all_in_below = _positive_number(data.get("all_in_below"), "all_in_below", 0.0, strict=False)
    if all_in_below >= 1.0:
        raise ValueError(f"sizing all_in_below: {all_in_below!r} must be below 1 (a share of the stack)")
    rows = data.get("bands")
    if not isinstance(rows, list) or not rows:
        raise ValueError("sizing bands: expected a non-empty list of bands")
    bands: list[SizingBand] = []
    previous = 0.0
    for k, row in enumerate(rows):
        if not isinstance(row, dict):
            raise ValueError(f"sizing bands[{k}]: expected a mapping, got {row!r}")
        label = f"bands[{k}] ({row.get('name', '?')})"
        expected = {"name", "up_to_depth", "open", *SIZING_FIELDS}
        missing, extra = expected - set(row), set(row) - expected - {"second_three_bet"}
        if missing or extra:
            raise ValueError(f"sizing {label}: missing {sorted(missing)} / unknown {sorted(extra)}")
        last = k == len(rows) - 1
        if row["up_to_depth"] is None:
            if not last:
                raise ValueError(f"sizing {label}.up_to_depth: only the last band may be unbounded (null)")
            up_to = math.inf
        else:
            up_to = _positive_number(row["up_to_depth"], f"{label}.up_to_depth")
            if up_to <= previous:
                raise ValueError(f"sizing {label}.up_to_depth: {up_to:g} must exceed the previous band's {previous:g}")
            if last:
                raise ValueError(f"sizing {label}.up_to_depth: the last band must be unbounded (null)")
        previous = up_to
        opens = row["open"]
        if not isinstance(opens, dict) or "default" not in opens:
            raise ValueError(f"sizing {label}.open: expected a mapping of position -> raise-to bb with a 'default'")
        for pos, size in opens.items():
            if pos != "default" and pos not in ALL_POSITIONS:
                raise ValueError(f"sizing {label}.open: unknown position {pos!r}; expected one of {sorted(ALL_POSITIONS)}")
            _positive_number(size, f"{label}.open.{pos}", 1.0)
        values = {f: _positive_number(row[f], f"{label}.{f}", 1.0) for f in SIZING_FIELDS if f != "per_caller"}
        values["per_caller"] = _positive_number(row["per_caller"], f"{label}.per_caller", 0.0, strict=False)
        if row.get("second_three_bet") is not None:
            values["second_three_bet"] = _parse_second(row["second_three_bet"], f"{label}.second_three_bet")
        bands.append(SizingBand(name=str(row["name"]), up_to_depth=up_to, open={str(p): float(s) for p, s in opens.items()}, **values))
    return Sizing(bands=tuple(bands), all_in_below=all_in_below)


def load_sizing(path: str | os.PathLike | None = None) -> Sizing:
    """Read and validate a sizing schedule (default: the shipped ``pokerlab/data/sizing.yaml``)."""
    return parse_sizing(read_yaml(path if path is not None else DEFAULT_SIZING_PATH, "sizing file"))
