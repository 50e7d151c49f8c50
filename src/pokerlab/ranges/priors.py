"""Prior ranges by stack bucket, preflop line and position, generated from our solved charts.

Where a range comes from
    For a chart (one format, table size and depth), the prior of ``(line, position)`` is the
    class distribution of that seat given that it took that line, under the chart's
    equilibrium:

        prior(class)  proportional to  sum over edges (node, action) giving the seat that line
                                        of  reach(node) * arrive_with(node)[class] * strategy(node)[action][class]

    ``reach`` is the share of deals reaching the node, ``arrive_with`` the actor's class
    distribution there and ``strategy`` its frequency of the action (all decoded from the chart;
    :func:`pokerlab.ranges.lines.classify_preflop_line` names the line of ``node id + action``).
    With one edge (the BTN's open at ``FFF``) this is the arrive-with distribution the BTN carries
    into every later node of its own (e.g. ``FFFRFR``, facing the BB's 3-bet): the solver's
    classes are independent across seats, so other seats' actions do not move it. With several
    edges (the BB calling opens from any seat, any callers between) it is their reach-weighted
    mixture. ``unopened`` is the arrive-with at the seat's first decision (every class at its
    prior 6/4/12 out of 1,326). A class's probability is shared evenly by its combos.

The file (JSON, ``format: pokerlab-range-priors/1``)
    ``version``; ``source`` (``charts`` or ``hand-written fallback``) and a ``note``; ``buckets``
    (name, the chart's depth, ``up_to_bb``, the chart's spot and SHA-256); ``aliases``
    (position names mapped onto the six 6-max seats, e.g. ``UTG1 -> UTG``); ``defaults`` (the
    position used for a line when the asked one has no entry); ``class_equity`` (169 class
    equities vs a random hand, the preflop strength of :mod:`.likelihood`); ``ranges``:
    ``{bucket: {line: {position: {"lo", "hi", "codes", "edges"}}}}`` - the 169 class
    probabilities in the chart's own encoding (:mod:`pokerlab.encoding`, 1/90 of ``hi - lo`` per
    level) and the number of chart edges mixed.

Stack buckets are chosen by effective stack: the bucket whose chart depth is nearest on a log
scale (``up_to_bb`` is the geometric mean of neighbouring depths).
"""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable, Mapping

import numpy as np

from pokerlab.cards import CLASS_WEIGHTS, COMBO_CLASS, N_CLASSES
from pokerlab.encoding import decode, decode_scaled, encode_scaled
from pokerlab.ranges.lines import LINES, classify_preflop_line
from pokerlab.ranges.range import Range

__all__ = ["PRIORS_FORMAT", "DEFAULT_PRIORS_PATH", "RangePriors", "priors_from_charts", "class_equity_vs_random", "write_priors"]

PRIORS_FORMAT = "pokerlab-range-priors/1"
DEFAULT_PRIORS_PATH = Path(__file__).resolve().parent / "data" / "priors.json"
PRIOR_LINES = tuple(line for line in LINES if line != "folded")
POSITIONS_6MAX = ("UTG", "HJ", "CO", "BTN", "SB", "BB")
ALIASES = {
    "UTG1": "UTG", "UTG+1": "UTG", "UTG2": "UTG", "UTG+2": "UTG", "EP": "UTG", "LJ": "UTG",
    "MP": "HJ", "MP1": "HJ", "MP2": "HJ", "HJ": "HJ", "CO": "CO", "BTN": "BTN", "BU": "BTN", "BUTTON": "BTN",
    "D": "BTN", "UTG": "UTG", "SB": "SB", "BB": "BB",
}
"""Position names of other table sizes and sites, mapped onto the 6-max seats of the priors."""
DEFAULT_POSITION = {"open": "BTN", "limp": "SB", "check_option": "BB", "call_open": "BB", "3bet": "BB",
                    "call_3bet": "BTN", "4bet": "BTN", "call_4bet": "BB", "5bet": "BB", "call_5bet": "BTN",
                    "unopened": "BTN"}
"""When a (line, position) has no entry, the prior of the line at this position is used."""


def class_equity_vs_random(equity_npz: str | os.PathLike) -> np.ndarray:
    """Each class's equity (win + tie/2) against a random class, from the 169x169 table, the
    opponent's classes weighted 6/4/12 (card removal between the two hands ignored)."""
    with np.load(equity_npz) as table:
        eq = table["win"] + 0.5 * table["tie"]
    return eq @ CLASS_WEIGHTS / CLASS_WEIGHTS.sum()


def _edge_masses(doc: Mapping[str, Any]) -> dict[tuple[str, str], tuple[Any, int]]:
    """{(line, position): (summed reach * arrive * strategy per class, edges)} of one chart;
    for ``unopened`` the encoded arrive-with of the seat's first decision instead of a sum."""
    spot = doc["spot"]
    seats, positions = int(spot["seats"]), list(spot["positions"])
    out: dict[tuple[str, str], tuple[np.ndarray, int]] = {}
    first_seen: set[str] = set()
    for node in doc["nodes"]:  # breadth-first: a seat's first decision comes first
        actor = positions.index(node["actor"])
        arrive = decode_scaled(node["arrive_with"])
        if node["actor"] not in first_seen:
            first_seen.add(node["actor"])
            out[("unopened", node["actor"])] = (node["arrive_with"], 1)  # kept verbatim
        if node["capped"]:
            continue
        for action in node["actions"]:
            line = classify_preflop_line(node["id"] + action, actor, seats)
            if line == "folded":
                continue
            mass = node["reach"] * arrive * np.nan_to_num(decode(node["strategy"][action]), nan=0.0)
            total, edges = out.get((line, node["actor"]), (np.zeros(N_CLASSES), 0))
            out[(line, node["actor"])] = (total + mass, edges + 1)
    return out


def priors_from_charts(charts: Iterable[str | os.PathLike], class_equity: np.ndarray, version: int = 1) -> dict[str, Any]:
    """The priors document (see the module docstring) from published 6-max chart files, one per
    stack bucket, and the 169 class equities vs a random hand."""
    from pokerlab.charts import load_chart
    from pokerlab.io import sha256_file

    loaded = []
    for path in charts:
        doc = load_chart(path)
        if int(doc["spot"]["seats"]) != 6:
            raise ValueError(f"charts: {path} is {doc['spot']['seats']}-handed; the priors are keyed by 6-max seats")
        loaded.append((float(doc["spot"]["depth_bb"]), doc, sha256_file(path)))
    if not loaded:
        raise ValueError("charts: expected at least one chart file")
    loaded.sort(key=lambda item: item[0])
    if len({depth for depth, _, _ in loaded}) != len(loaded):
        raise ValueError("charts: two charts have the same depth; give one chart per stack bucket")
    buckets, ranges = [], {}
    for k, (depth, doc, digest) in enumerate(loaded):
        name = f"{depth:g}bb"
        up_to = math.sqrt(depth * loaded[k + 1][0]) if k + 1 < len(loaded) else None
        spot = doc["spot"]
        buckets.append({"name": name, "depth_bb": depth, "up_to_bb": None if up_to is None else round(up_to, 3),
                        "chart": f"{spot['format']}/{spot['seats']}max/{depth:g}bb", "chart_sha256": digest,
                        "chart_exploitability_bb": doc["solve"]["exploitability_bb"]})
        table: dict[str, dict[str, Any]] = {}
        for (line, position), (mass, edges) in sorted(_edge_masses(doc).items()):
            if isinstance(mass, dict):  # an arrive-with copied as the chart encodes it
                entry = {k: mass[k] for k in ("lo", "hi", "codes")}
            elif mass.sum() > 0:
                entry = encode_scaled(mass / mass.sum(), decimals=6)
            else:
                continue
            entry["edges"] = edges
            table.setdefault(line, {})[position] = entry
        ranges[name] = table
    return {
        "format": PRIORS_FORMAT,
        "version": int(version),
        "source": "charts",
        "note": "Each range is the class distribution of the seat after its line at the chart's equilibrium "
                "(reach-weighted arrive-with x strategy over the chart's edges with that line).",
        "buckets": buckets,
        "aliases": dict(sorted(ALIASES.items())),
        "defaults": dict(sorted(DEFAULT_POSITION.items())),
        "class_equity": [round(float(x), 6) for x in class_equity],
        "ranges": ranges,
    }


# A hand-written table, used only if no generated file is available. Illustrative, not solved.
_FALLBACK_100BB = {
    "open": {"UTG": "77+,ATs+,KTs+,QTs+,JTs,T9s,98s,AJo+,KQo", "HJ": "55+,A8s+,A5s,K9s+,Q9s+,J9s+,T9s,98s,87s,ATo+,KJo+",
             "CO": "33+,A2s+,K8s+,Q9s+,J9s+,T8s+,97s+,86s+,76s,65s,A9o+,KTo+,QTo+,JTo",
             "BTN": "22+,A2s+,K4s+,Q6s+,J7s+,T7s+,96s+,85s+,75s+,64s+,54s,A4o+,K9o+,Q9o+,J9o+,T9o",
             "SB": "22+,A2s+,K5s+,Q7s+,J7s+,T7s+,97s+,86s+,76s,65s,A7o+,KTo+,QTo+,JTo"},
    "limp": {"SB": "22-66,A2s-A9s,K2s-K9s,Q2s-Q9s,J5s-J9s,T6s+,96s+,85s+,74s+,64s+,53s+,A2o-A9o,K5o-KJo,Q8o+,J8o+,T8o+"},
    "check_option": {"BB": "random"},
    "call_open": {"BB": "22-99,A2s-AJs,K2s-KJs,Q5s+,J7s+,T7s+,96s+,85s+,74s+,63s+,53s+,A2o-AJo,K8o-KQo,Q9o+,J9o+,T8o+,98o",
                  "BTN": "22-TT,A9s-AQs,KTs+,QTs+,J9s+,T9s,98s,87s,AJo-AQo,KQo"},
    "3bet": {"BB": "TT+,AQs+,AKo,A5s-A4s,K9s,QTs", "BTN": "JJ+,AQs+,AKo,A5s,KJs", "SB": "TT+,AJs+,AQo+,A5s-A4s,KQs"},
    "call_3bet": {"BTN": "88-QQ,ATs-AQs,KJs+,QJs,JTs,T9s,AQo", "CO": "99-QQ,AJs-AQs,KQs,AQo"},
    "4bet": {"BTN": "QQ+,AK,A5s", "CO": "QQ+,AK", "BB": "KK+,AK"},
    "call_4bet": {"BB": "QQ,JJ,AKs,AQs", "BTN": "QQ,JJ,AKs"},
    "5bet": {"BB": "KK+,AKs"},
    "call_5bet": {"BTN": "QQ+,AK"},
}


@dataclass(frozen=True)
class RangePriors:
    """Prior ranges keyed by stack bucket, line and position (see the module docstring)."""

    document: Mapping[str, Any]
    path: str | None = None

    def __post_init__(self) -> None:
        doc = self.document
        if not isinstance(doc, Mapping) or doc.get("format") != PRIORS_FORMAT:
            raise ValueError(f"priors: {self.path or 'document'} is not a {PRIORS_FORMAT} document")
        for key in ("version", "source", "buckets", "ranges"):
            if key not in doc:
                raise ValueError(f"priors: {self.path or 'document'} has no {key!r}")
        names = [b["name"] for b in doc["buckets"]]
        if sorted(names) != sorted(doc["ranges"]):
            raise ValueError(f"priors: buckets {names} do not match the range tables {sorted(doc['ranges'])}")
        for bucket, table in doc["ranges"].items():
            for line in table:
                if line not in PRIOR_LINES:
                    raise ValueError(f"priors: bucket {bucket!r} has unknown line {line!r}; expected one of "
                                     f"{', '.join(PRIOR_LINES)}")

    # --- loading -------------------------------------------------------------------------------

    @classmethod
    def load(cls, path: str | os.PathLike) -> "RangePriors":
        """Priors from a JSON file (the bundled one, or a user's file in the same format)."""
        from pokerlab.io import read_json

        return cls(read_json(path, "priors"), str(path))

    @classmethod
    def default(cls) -> "RangePriors":
        """The bundled priors (generated from our charts); the hand-written fallback if absent."""
        return _default_priors()

    @classmethod
    def fallback(cls) -> "RangePriors":
        """A hand-written 100bb table: illustrative, **not solver output** (``source`` says so)."""
        ranges = {}
        for line, by_position in _FALLBACK_100BB.items():
            ranges[line] = {}
            for position, text in by_position.items():
                dist = Range.parse(text).class_distribution()
                entry = encode_scaled(dist, decimals=6)
                entry["edges"] = 0
                ranges[line][position] = entry
        ranges["unopened"] = {p: {**encode_scaled(CLASS_WEIGHTS / CLASS_WEIGHTS.sum(), decimals=6), "edges": 0}
                              for p in POSITIONS_6MAX}
        doc = {
            "format": PRIORS_FORMAT, "version": 1, "source": "hand-written fallback",
            "note": "Hand-written, illustrative ranges at 100bb; not generated from solved charts.",
            "buckets": [{"name": "100bb", "depth_bb": 100.0, "up_to_bb": None, "chart": None, "chart_sha256": None}],
            "aliases": ALIASES, "defaults": DEFAULT_POSITION, "class_equity": None, "ranges": {"100bb": ranges},
        }
        return cls(doc, None)

    # --- look-ups ------------------------------------------------------------------------------

    @property
    def source(self) -> str:
        return str(self.document["source"])

    @property
    def version(self) -> int:
        return int(self.document["version"])

    @property
    def class_equity(self) -> np.ndarray:
        values = self.document.get("class_equity")
        if values is None:
            raise ValueError("priors: this table carries no class equities (use the generated priors)")
        return np.asarray(values, dtype=np.float64)

    def bucket(self, stack_bb: float) -> str:
        """The bucket name for an effective stack in bb."""
        if not (isinstance(stack_bb, (int, float)) and math.isfinite(stack_bb) and stack_bb > 0):
            raise ValueError(f"stack_bb: expected a positive effective stack in bb, got {stack_bb!r}")
        for b in self.document["buckets"]:
            if b["up_to_bb"] is None or stack_bb <= b["up_to_bb"]:
                return b["name"]
        return self.document["buckets"][-1]["name"]

    def position(self, name: str) -> str:
        """A position name resolved through the aliases (``UTG+1`` -> ``UTG``)."""
        aliases = self.document.get("aliases", ALIASES)
        key = str(name).strip().upper()
        if key not in aliases:
            raise ValueError(f"position: unknown position {name!r}; expected one of {', '.join(sorted(aliases))}")
        return aliases[key]

    def lookup(self, line: str, position: str, stack_bb: float = 100.0) -> tuple[np.ndarray, dict[str, Any]]:
        """(169 class probabilities, where they came from) for a line and position."""
        if line not in PRIOR_LINES:
            raise ValueError(f"line: expected one of {', '.join(PRIOR_LINES)}, got {line!r}")
        bucket = self.bucket(stack_bb)
        seat = self.position(position)
        table = self.document["ranges"][bucket].get(line, {})
        used, defaulted = seat, False
        if seat not in table:
            used = self.document.get("defaults", DEFAULT_POSITION).get(line)
            defaulted = True
            if used not in table:
                raise ValueError(f"priors: no {line!r} range for {seat} (or a default) in bucket {bucket}")
        entry = table[used]
        dist = decode_scaled(entry)
        return dist / dist.sum(), {"bucket": bucket, "line": line, "position": used, "asked_position": seat,
                                   "defaulted": defaulted, "edges": entry.get("edges", 0), "source": self.source}

    def range(self, line: str, position: str, stack_bb: float = 100.0) -> Range:
        """The prior range (weights sum to 1; each class's probability shared by its combos)."""
        dist, _ = self.lookup(line, position, stack_bb)
        return Range((dist / CLASS_WEIGHTS)[COMBO_CLASS])

    def describe(self) -> dict[str, Any]:
        return {"source": self.source, "version": self.version, "path": self.path,
                "buckets": [{k: b.get(k) for k in ("name", "chart", "chart_sha256")} for b in self.document["buckets"]]}


def write_priors(charts: Iterable[str | os.PathLike], equity_npz: str | os.PathLike, out_path: str | os.PathLike,
                 version: int = 1) -> dict[str, Any]:
    """Generate the priors document from chart files and the equity table; write it as canonical
    JSON atomically (rule ``range_priors``); return it."""
    from pokerlab.io import write_json_atomic

    doc = priors_from_charts(charts, class_equity_vs_random(equity_npz), version)
    RangePriors(doc)  # validate before writing
    write_json_atomic(out_path, doc)
    return doc


@lru_cache(maxsize=1)
def _default_priors() -> RangePriors:
    if DEFAULT_PRIORS_PATH.exists():
        return RangePriors.load(DEFAULT_PRIORS_PATH)
    return RangePriors.fallback()

