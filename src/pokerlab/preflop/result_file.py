"""A solve's result on disk: ``result.json`` and its per-class arrays in ``result.npz`` beside it.

The result document (:func:`pokerlab.preflop.solve.solve_spot`) of a shipped spot holds, per
decision node, 169-class arrays: ``strategy`` and ``ev_bb`` per action and ``arrive_with``. As
JSON text they were ~90% of a result (50 MB for nine-handed 200bb). On disk they are stored as
integers in a compressed sidecar and the JSON keeps the rest:

* ``result.json``: compact canonical JSON; every node keeps ``id``, ``actor``, ``actions``,
  ``capped``, ``reach`` and ``shares`` (what the summary and the report read); the key
  ``arrays`` names the sidecar (``file``, relative to the folder), its ``sha256`` and the
  encoding. The digest makes ``result.json``'s own SHA-256 cover the arrays too.
* ``result.npz``: a zip of ``.npy`` members readable by ``numpy.load``, written by
  :func:`pokerlab.io.deterministic_npz_bytes` (fixed member dates, sorted names, deflate), so the
  same result gives the same bytes:

  - ``strategy`` int32 (actions of all nodes, 169): probability x 10^6;
  - ``ev_bb`` int32 (actions of all nodes, 169): bb x 10^5, :data:`MISSING_EV` where undefined;
  - ``arrive_with`` int32 (decision nodes, 169): probability x 10^6.

  Rows follow the nodes in ``result.json`` order and, within a node, its actions in order.

The document's floats were rounded to 6 (probabilities) and 5 (EVs) decimals by ``numpy.round``,
which computes ``rint(x * 10^d) / 10^d``; storing ``rint(x * 10^d)`` and dividing by ``10^d`` on
reading gives back the very same floats, so :func:`read_result` returns the document the solve
made, bit for bit. A result without ``arrays`` (nodes inline, as written before the sidecar) reads
as it is.
"""

from __future__ import annotations

import io
import os
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.io import compact_json_bytes, deterministic_npz_bytes, read_json, sha256_bytes, write_bytes_atomic

ARRAYS_NAME = "result.npz"
PROBABILITY_SCALE = 10**6
"""Integer units per probability (the document rounds probabilities to 6 decimals)."""
EV_SCALE = 10**5
"""Integer units per bb (the document rounds EVs to 5 decimals)."""
MISSING_EV = np.iinfo(np.int32).min
"""The stored value of an undefined EV (a class that never reaches the node)."""
ARRAYS_ENCODING = (f"int32; strategy and arrive_with x {PROBABILITY_SCALE}, ev_bb x {EV_SCALE} ({MISSING_EV} = "
                   "undefined); rows: nodes in order, actions in order within a node")
RESULT_KEYS = ("spot", "status", "iterations", "exploitability_bb", "exploitability_per_seat", "bar_bb",
               "model_share", "tier_shares", "tree")
ARRAY_KEYS = ("strategy", "ev_bb", "arrive_with")
"""The per-node keys that live in the sidecar."""


def arrays_path(result_path: str | os.PathLike) -> Path:
    """The sidecar beside ``result_path`` (``.../result.npz``)."""
    return Path(result_path).with_name(ARRAYS_NAME)


def _scaled(values: list[list], scale: int, missing: int | None = None) -> np.ndarray:
    """Rows of rounded floats (None = undefined) as int32 multiples of ``1/scale``."""
    floats = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=np.float64).reshape(-1, 169)
    undefined = np.isnan(floats)
    if undefined.any() and missing is None:
        raise ValueError("result arrays: an undefined value where every value must be defined")
    scaled = np.rint(np.where(undefined, 0.0, floats) * scale)
    if np.abs(scaled).max(initial=0) >= np.iinfo(np.int32).max:
        raise ValueError(f"result arrays: a value beyond the int32 range at scale {scale}")
    out = scaled.astype(np.int32)
    if missing is not None:
        out[undefined] = missing
    return out


def split_arrays(result: dict[str, Any]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """The JSON part of a result document (nodes without their arrays) and the sidecar's arrays."""
    nodes = result.get("nodes", [])
    arrays = {
        "strategy": _scaled([n["strategy"][a] for n in nodes for a in n["actions"]], PROBABILITY_SCALE),
        "ev_bb": _scaled([n["ev_bb"][a] for n in nodes for a in n["actions"]], EV_SCALE, MISSING_EV),
        "arrive_with": _scaled([n["arrive_with"] for n in nodes], PROBABILITY_SCALE),
    }
    lean = dict(result)
    if "nodes" in result:
        lean["nodes"] = [{k: v for k, v in n.items() if k not in ARRAY_KEYS} for n in nodes]
    return lean, arrays


def write_result(result_path: str | os.PathLike, result: dict[str, Any]) -> None:
    """Write a result document as ``result.json`` and ``result.npz`` (both atomically, the
    sidecar first, so a ``result.json`` never names arrays that are not there)."""
    lean, arrays = split_arrays(result)
    data = deterministic_npz_bytes(arrays)
    lean["arrays"] = {"file": ARRAYS_NAME, "sha256": sha256_bytes(data), "encoding": ARRAYS_ENCODING}
    write_bytes_atomic(arrays_path(result_path), data)
    write_bytes_atomic(result_path, compact_json_bytes(lean))


def _decoded_arrays(result: dict[str, Any], data: bytes) -> dict[str, np.ndarray]:
    """The sidecar's arrays as float64 matrices (NaN where undefined), checked against the nodes
    of ``result``: ``strategy`` and ``ev_bb`` one row per node and action (nodes in order, actions
    in order within a node), ``arrive_with`` one row per node."""
    with np.load(io.BytesIO(data), allow_pickle=False) as npz:
        strategy, ev, arrive = npz["strategy"], npz["ev_bb"], npz["arrive_with"]
    nodes = result.get("nodes", [])
    if strategy.shape != ev.shape or len(strategy) != sum(len(n["actions"]) for n in nodes) or len(arrive) != len(nodes):
        raise ValueError("its arrays do not match its nodes")
    ev_bb = ev / EV_SCALE
    ev_bb[ev == MISSING_EV] = np.nan
    return {"strategy": strategy / PROBABILITY_SCALE, "ev_bb": ev_bb, "arrive_with": arrive / PROBABILITY_SCALE}


def _join_arrays(result: dict[str, Any], arrays: dict[str, np.ndarray]) -> None:
    """Put the arrays back into the nodes of ``result`` (floats; None where undefined)."""
    strategy = arrays["strategy"].tolist()
    ev_values = arrays["ev_bb"].astype(object)
    ev_values[np.isnan(arrays["ev_bb"])] = None
    ev = ev_values.tolist()
    arrive = arrays["arrive_with"].tolist()
    row = 0
    for node, arrive_with in zip(result.get("nodes", []), arrive):
        actions = node["actions"]
        node["strategy"] = dict(zip(actions, strategy[row:row + len(actions)]))
        node["ev_bb"] = dict(zip(actions, ev[row:row + len(actions)]))
        node["arrive_with"] = arrive_with
        row += len(actions)


def read_result(result_path: str | os.PathLike, arrays: bool = True) -> dict[str, Any]:
    """A solve's result document; ``arrays=False`` skips the sidecar (nodes without their
    per-class arrays: enough for the summary, the outcome row and the report).

    ``ValueError`` naming the file and how to re-solve the spot if ``result.json`` is damaged
    (truncated, not JSON, or without a result's keys) or its sidecar is missing, altered or does
    not match it. The workflow cannot heal such a file by itself: it exists, so Snakemake does
    not re-run the solve that wrote it."""
    result, matrices = _read(Path(result_path), arrays)
    if matrices is not None:
        _join_arrays(result, matrices)
    return result


def read_result_matrices(result_path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, np.ndarray] | None]:
    """A solve's result document with its nodes' arrays apart, as float64 matrices (NaN where
    undefined; rows as :func:`_decoded_arrays` says): what the chart writer encodes in bulk.
    ``None`` for a document without a sidecar (its arrays, if any, are inline). The same checks
    and errors as :func:`read_result`."""
    return _read(Path(result_path), True)


def _read(path: Path, arrays: bool) -> tuple[dict[str, Any], dict[str, np.ndarray] | None]:
    heal = "delete it and re-run to solve the spot again (its solver_state.npz, if any, resumes the solve)"
    try:
        result = read_json(path, "result")
    except ValueError as exc:
        raise ValueError(f"{exc}; {heal}") from None
    if not isinstance(result, dict) or any(k not in result for k in RESULT_KEYS):
        missing = [k for k in RESULT_KEYS if not isinstance(result, dict) or k not in result]
        raise ValueError(f"result: {path} is not a solve result (missing {', '.join(missing)}); {heal}")
    sidecar = result.pop("arrays", None)
    if sidecar is None or not arrays:
        return result, None
    side_path = path.parent / sidecar["file"]
    try:
        data = side_path.read_bytes()
        if sha256_bytes(data) != sidecar["sha256"]:
            raise ValueError("its SHA-256 is not the one result.json records")
        return result, _decoded_arrays(result, data)
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"result: {side_path} (the arrays of {path}) cannot be used ({exc}); "
                         f"delete {path} and re-run to solve the spot again") from None
