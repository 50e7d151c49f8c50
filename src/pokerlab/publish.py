"""Published chart documents and per-spot outcome rows, made from a solve's ``result.json``.

A chart document (``results/charts/{format}/{n}max/{depth}bb.json.gz``: compact canonical JSON,
gzipped byte-reproducibly, :func:`pokerlab.io.gzip_bytes`; read with
:func:`pokerlab.charts.load_chart`) is written only for a
spot whose solve cleared its bar (``status == "shipped"``). It holds the spot's settings, the
sizing used, the solve's evidence (exploitability overall and per seat, bar, iterations and
the measurement history, model share and tier shares) and every decision node:

* ``id`` (the action string), ``actor`` (seat name), ``actions``, ``capped`` (a fold that is
  only forced by the three-entrant cap), ``reach`` (share of deals reaching the node),
  ``shares`` (how those deals split over the actions);
* ``strategy``: per action, 169 characters (:mod:`pokerlab.encoding`, range 0..1) - the
  probability each class takes the action;
* ``ev_bb``: per action ``{"lo", "hi", "codes"}`` - the actor's EV of the action, bb, from the
  start of the hand, per class (a space where the class never arrives);
* ``arrive_with``: ``{"lo", "hi", "codes"}`` - the probability the actor holds each class given
  the node is reached (sums to 1 over classes, before quantisation).

Classes run in ``pokerlab.cards.CLASS_NAMES`` order (the 13x13 grid row-major, A..2). Nothing
published holds a time or a host name: the same result gives the same bytes.
JSON Schema: ``pokerlab/data/schemas/chart.schema.json``; :func:`validate_chart` checks it.

An outcome row (:func:`spot_outcome`) is what the summary keeps of every attempted spot,
shipped or rejected.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab import __version__, encoding
from pokerlab.cards import CLASS_NAMES
from pokerlab.charts import CHART_SUFFIX
from pokerlab.data import data_path
from pokerlab.io import compact_json_bytes, gzip_bytes, sha256_file, write_bytes_atomic, write_json_atomic
from pokerlab.preflop.result_file import read_result_matrices
from pokerlab.preflop.spot import spot_name

# Light imports only (no solver, no pandas): the outcome and chart jobs run once per spot.

CHART_FORMAT = "pokerlab-chart/1"
DEFAULT_SCHEMA = data_path("schemas/chart.schema.json")
RAISES = ("R", "S", "A")
"""Actions that count as raising first in (a small-blind completion ``C`` is a limp, not an open)."""


def chart_path(fmt: str, seats: int, depth: float) -> str:
    """``results/charts/cash/6max/100bb.json.gz`` for a spot (depth written with ``%g``)."""
    return f"results/charts/{spot_name(fmt, seats, depth)}{CHART_SUFFIX}"


def _encoding_note() -> dict[str, Any]:
    return {"alphabet": encoding.ALPHABET, "missing": encoding.MISSING, "steps": encoding.STEPS,
            "decode": "value = lo + (hi - lo) * alphabet.index(ch) / steps; missing = undefined; strategy: lo=0, hi=1"}


def _node_matrices(result: dict[str, Any]) -> dict[str, np.ndarray]:
    """The arrays carried inline by the nodes of ``result`` as the matrices of
    :func:`pokerlab.preflop.result_file.read_result_matrices` (None, undefined, becomes NaN)."""
    nodes = result["nodes"]

    def matrix(rows: list) -> np.ndarray:
        return np.array(rows, dtype=np.float64).reshape(-1, encoding.LENGTH)

    return {"strategy": matrix([n["strategy"][a] for n in nodes for a in n["actions"]]),
            "ev_bb": matrix([n["ev_bb"][a] for n in nodes for a in n["actions"]]),
            "arrive_with": matrix([n["arrive_with"] for n in nodes])}


def _chart_nodes(nodes: list[dict[str, Any]], arrays: dict[str, np.ndarray]) -> list[dict[str, Any]]:
    """The chart's nodes: every array encoded (:mod:`pokerlab.encoding`), all of a kind at once."""
    strategy = encoding.encode_rows(arrays["strategy"])
    ev_bb = encoding.encode_scaled_rows(arrays["ev_bb"])
    arrive_with = encoding.encode_scaled_rows(arrays["arrive_with"], decimals=6)
    out, row = [], 0
    for node, arrive in zip(nodes, arrive_with):
        actions = node["actions"]
        rows = slice(row, row + len(actions))
        out.append({"id": node["id"], "actor": node["actor"], "actions": actions, "capped": node["capped"],
                    "reach": node["reach"], "shares": node["shares"],
                    "strategy": dict(zip(actions, strategy[rows])), "ev_bb": dict(zip(actions, ev_bb[rows])),
                    "arrive_with": arrive})
        row += len(actions)
    return out


def chart_document(result: dict[str, Any], result_sha256: str,
                   arrays: dict[str, np.ndarray] | None = None) -> dict[str, Any]:
    """The chart document of a shipped ``result`` (``result_sha256``: digest of its file). Its
    per-class arrays are inline in its nodes (:func:`pokerlab.preflop.result_file.read_result`)
    or given apart as ``arrays`` (:func:`pokerlab.preflop.result_file.read_result_matrices`)."""
    if result.get("status") != "shipped" or "nodes" not in result:
        spot = result.get("spot", {})
        raise ValueError(f"status: spot {spot.get('format')}/{spot.get('seats')}max/{spot.get('depth_bb')}bb is "
                         f"{result.get('status')!r} (exploitability {result.get('exploitability_bb')} bb > bar "
                         f"{result.get('bar_bb')} bb); no chart is published for it")
    solve_keys = ("status", "iterations", "exploitability_bb", "exploitability_per_seat", "bar_bb", "history",
                  "model_share", "tier_shares", "seat_ev_bb", "tree")
    return {
        "format": CHART_FORMAT,
        "spot": result["spot"],
        "sizing": result["sizing"],
        "settings": result["settings"],
        "solve": {k: result[k] for k in solve_keys},
        "classes": list(CLASS_NAMES),
        "encoding": _encoding_note(),
        "nodes": _chart_nodes(result["nodes"], _node_matrices(result) if arrays is None else arrays),
        "inputs": {"result_sha256": result_sha256, **result["inputs"]},
        "code_version": __version__,
    }


def load_schema(path: str | os.PathLike | None = None) -> dict[str, Any]:
    return json.loads(Path(path or DEFAULT_SCHEMA).read_text())


def validate_chart(doc: dict[str, Any], schema: dict[str, Any] | None = None) -> None:
    """Raise ``ValueError`` naming the first place ``doc`` breaks the chart schema
    (:func:`pokerlab.schema_check.first_problem`)."""
    from pokerlab.schema_check import first_problem

    problem = first_problem(doc, schema or load_schema())
    if problem is not None:
        raise ValueError(f"chart schema: {problem}")


def load_valid_chart(path: str | os.PathLike) -> dict[str, Any]:
    """A chart file read (:func:`pokerlab.charts.load_chart`) and checked against the schema
    (:func:`validate_chart`); ``ValueError`` ``chart {path}: chart schema: ...`` naming the file."""
    from pokerlab.charts import load_chart

    doc = load_chart(path)
    try:
        validate_chart(doc)
    except ValueError as exc:
        raise ValueError(f"chart {path}: {exc}") from None
    return doc


def rfi_shares(result: dict[str, Any]) -> dict[str, float]:
    """Raise-first-in share per seat: at the node where every earlier seat folded, the share of
    the seat's deals that raise or go all-in (shares of deals, combo weighted). Empty when the
    result carries no read-out (a rejected spot)."""
    nodes = {node["id"]: node for node in result.get("nodes", ())}
    out = {}
    for i, seat in enumerate(result["spot"]["positions"][:-1]):
        node = nodes.get("F" * i)
        if node is not None:
            out[seat] = round(sum(node["shares"].get(a, 0.0) for a in RAISES), 10) + 0.0
    return out


def joint_exploitability_bb(result: dict[str, Any]) -> float | None:
    """The largest per-seat exploitability (bb/hand) the exchanging solve measured in the joint game
    (preflop plus the solved endings' postflop solves) at the start a solve under a solved table began
    from; None for a solve without such a start. The status judges the chart in its table's game only,
    so this is the figure that says how far the chart is from an equilibrium of the game it stands for."""
    start = result["settings"].get("solved_endings", {}).get("start")
    if start is None:
        return None
    return max(float(g) for g in start["joint_exploitability_per_seat"].values())


def spot_outcome(result: dict[str, Any]) -> dict[str, Any]:
    """What the summary keeps of an attempted spot: settings, status and its figures
    (``joint_exploitability_bb``: :func:`joint_exploitability_bb`, empty where there is none)."""
    spot = result["spot"]
    tiers = result["tier_shares"]
    per_seat = result["exploitability_per_seat"]
    return {
        "format": spot["format"],
        "seats": spot["seats"],
        "depth_bb": spot["depth_bb"],
        "status": result["status"],
        "iterations": result["iterations"],
        "exploitability_bb": result["exploitability_bb"],
        "bar_bb": result["bar_bb"],
        "worst_seat": max(per_seat, key=lambda s: (per_seat[s], s)),
        "joint_exploitability_bb": joint_exploitability_bb(result),
        "model_share": result["model_share"],
        **{f"share_{tier}": tiers[tier] for tier in sorted(tiers)},
        "decision_nodes": result["tree"]["decision"],
        "chart": chart_path(spot["format"], spot["seats"], spot["depth_bb"]) if result["status"] == "shipped" else "",
        "rfi": rfi_shares(result),
    }


def write_chart(result_path: str | os.PathLike, out_path: str | os.PathLike,
                schema_path: str | os.PathLike | None = None, schema: dict[str, Any] | None = None) -> dict[str, Any]:
    """Make the chart document of ``result.json`` (with its arrays), validate it against the schema
    (``schema``, else the file ``schema_path``) and write it (compact canonical JSON, ASCII,
    trailing newline, gzipped with a fixed header) atomically."""
    result, arrays = read_result_matrices(result_path)
    return _write_chart_of(result, arrays, result_path, out_path, schema or load_schema(schema_path))


def _write_chart_of(result: dict[str, Any], arrays: dict[str, np.ndarray] | None, result_path: str | os.PathLike,
                    out_path: str | os.PathLike, schema: dict[str, Any]) -> dict[str, Any]:
    doc = chart_document(result, sha256_file(result_path), arrays)
    validate_chart(doc, schema)
    write_bytes_atomic(out_path, gzip_bytes(compact_json_bytes(doc)))
    return doc


def write_published_spots(result_paths: list[str | os.PathLike], results_dir: str | os.PathLike,
                          listing_path: str | os.PathLike, schema_path: str | os.PathLike | None = None) -> list[str]:
    """The published files of one table size's spots, in one process: for each ``result.json``
    of a shipped spot its chart ``charts/{spot}.json.gz`` and its page ``viewer/{spot}.html``
    under ``results_dir``, the same bytes as one :func:`write_chart` and one
    :func:`pokerlab.viewer.write_viewer` per spot; a rejected spot publishes nothing.
    ``listing_path`` gets the paths written (relative to ``results_dir``, canonical JSON
    ``{"files": [...]}``), which the manifest step reads; they are returned too."""
    from pokerlab.viewer import write_viewer

    root = Path(results_dir)
    schema = load_schema(schema_path)
    written = []
    for result_path in result_paths:
        result, arrays = read_result_matrices(result_path)
        if result["status"] != "shipped":
            continue
        spot = result["spot"]
        name = spot_name(spot["format"], spot["seats"], spot["depth_bb"])
        chart, page = root / "charts" / f"{name}{CHART_SUFFIX}", root / "viewer" / f"{name}.html"
        doc = _write_chart_of(result, arrays, result_path, chart, schema)
        write_viewer(chart, page, doc)
        written += [f"charts/{name}{CHART_SUFFIX}", f"viewer/{name}.html"]
    write_json_atomic(listing_path, {"files": written})
    return written
