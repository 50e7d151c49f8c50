"""Solved endings: per-ending class corrections that make a heads-up flop ending pay what real
postflop solves of the equilibrium's own ranges measured there.

At a heads-up flop ending ``e`` the model (v1) pays the in-position seat, holding class ``x``
against the out-of-position seat's class ``y``, ``M_e(x, y)`` bb. A *solved* ending pays

    M_e(x, y) + d_ip[x] - d_oop[y]

to the seat in position and exactly the negative of that surplus change to the other seat, so
chips are conserved for every pair of hands, and the payoff depends on the hands and the tree
only (the corrections are constants of the table): CFR+, the exact best response and the bar
are unchanged. ``d_ip`` and ``d_oop`` are 169-vectors in **bb** (not shares of the pot), one pair
per re-valued ending, measured by :mod:`pokerlab.solved` so that every class's value against the
opponent's actual range equals its solved value. Adding one number to both vectors of an ending
changes no payoff (the corrections are fixed up to that common shift).

The table file (TSV, UTF-8): ``#`` lines first, one of which is ``# provenance: {json}`` (what
measured the table: the spot, the settings' digest, the command that reproduces it), then
columns ``node``, ``role`` (``oop``/``ip``), ``class`` (e.g. ``AKs``) and ``correction_bb``,
all 169 classes of both roles for every ending listed. :func:`read_ending_corrections` checks all
of it and names the file and row of any fault.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pokerlab.cards import N_CLASSES, class_name, parse_class
from pokerlab.io import atomic_path, deterministic_npz_bytes, sha256_file, write_bytes_atomic

COLUMNS = ("node", "role", "class", "correction_bb")
ROLES = ("oop", "ip")
PROVENANCE_PREFIX = "# provenance: "
MAX_CORRECTION_BB = 1000.0  # far beyond any real correction; catches a unit mistake (chips for bb)
DECIMALS = 6  # bb, as written
START_SUFFIX = ".start.npz"
START_META = "start"  # the start file's member holding its JSON record


@dataclass(frozen=True, eq=False)
class EndingCorrections:
    """The corrections of one spot: ``endings[node] = (d_oop, d_ip)``, two 169-vectors in bb per
    re-valued heads-up flop ending (its preflop action string). ``provenance``: what measured them;
    ``start``: the preflop state a solve under them starts from (None: from zero)."""

    spot: str
    endings: dict[str, tuple[np.ndarray, np.ndarray]]
    provenance: dict = field(default_factory=dict)
    start: SolvedStart | None = None
    n_classes: int = field(init=False, default=N_CLASSES)

    def __post_init__(self) -> None:
        clean = {}
        m = len(next(iter(self.endings.values()))[0]) if self.endings else N_CLASSES  # 169; small games in tests
        for node, pair in sorted(self.endings.items()):
            if not isinstance(node, str) or not node:
                raise ValueError(f"solved endings of {self.spot}: bad ending id {node!r}")
            vectors = tuple(np.asarray(v, dtype=np.float64) for v in pair)
            for role, v in zip(ROLES, vectors):
                if v.shape != (m,) or not np.all(np.isfinite(v)) or np.any(np.abs(v) > MAX_CORRECTION_BB):
                    raise ValueError(f"solved endings of {self.spot}, ending {node!r} {role}: expected {m} "
                                     f"finite corrections within +-{MAX_CORRECTION_BB:g} bb")
            clean[node] = vectors
        object.__setattr__(self, "endings", clean)
        object.__setattr__(self, "n_classes", m)

    def vectors(self, node: str) -> tuple[np.ndarray, np.ndarray] | None:
        """(d_oop, d_ip) of ending ``node``, None if it is not re-valued."""
        return self.endings.get(node)

    def digest(self) -> str:
        """SHA-256 of the endings and their corrections as written (rounded to :data:`DECIMALS`)."""
        h = hashlib.sha256()
        for node, (oop, ip) in self.endings.items():
            h.update(node.encode() + b"\0")
            h.update(np.round(np.r_[oop, ip], DECIMALS).astype("<f8").tobytes())
        return h.hexdigest()


def write_ending_corrections(path: str | os.PathLike, table: EndingCorrections) -> None:
    """Write ``table`` (see the module docstring), atomically."""
    lines = [f"# solved-ending corrections of {table.spot} (bb; in-position payoff M + d_ip[x] - d_oop[y])",
             PROVENANCE_PREFIX + json.dumps({**_measured_provenance(table.provenance), "spot": table.spot},
                                            sort_keys=True),
             "\t".join(COLUMNS)]
    for node, pair in table.endings.items():
        for role, vector in zip(ROLES, pair):
            lines.extend(f"{node}\t{role}\t{class_name(c)}\t{round(float(vector[c]), DECIMALS) + 0.0!r}"
                         for c in range(N_CLASSES))
    with atomic_path(path) as tmp:
        Path(tmp).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _measured_provenance(provenance: dict) -> dict:
    """What measured a table, without where a copy of it was read from (path and digest of that file)."""
    return {k: v for k, v in provenance.items() if k not in ("path", "sha256")}


def read_ending_corrections(path: str | os.PathLike) -> EndingCorrections:
    """Read a table written by :func:`write_ending_corrections`. Errors name the file and line."""
    path = Path(path)
    where = path.as_posix()
    if not path.is_file():
        raise ValueError(f"solved endings table {where}: not a file")
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"solved endings table {where}: not UTF-8 text") from None
    provenance = None
    rows: dict[str, dict[str, dict[int, float]]] = {}
    header_seen = False
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(PROVENANCE_PREFIX):
            try:
                provenance = json.loads(line[len(PROVENANCE_PREFIX):])
            except ValueError:
                raise ValueError(f"{where} line {number}: the provenance is not JSON") from None
            continue
        if line.startswith("#") or not line.strip():
            continue
        fields = line.split("\t")
        if not header_seen:
            if tuple(fields) != COLUMNS:
                raise ValueError(f"{where} line {number}: expected the columns {' '.join(COLUMNS)}")
            header_seen = True
            continue
        if len(fields) != len(COLUMNS):
            raise ValueError(f"{where} line {number}: expected {len(COLUMNS)} tab-separated fields")
        node, role, cls, value = fields
        if role not in ROLES:
            raise ValueError(f"{where} line {number}: role {role!r} must be one of {ROLES}")
        try:
            c = parse_class(cls)
        except (KeyError, ValueError):
            raise ValueError(f"{where} line {number}: unknown class {cls!r}") from None
        try:
            x = float(value)
        except ValueError:
            x = math.nan
        if not math.isfinite(x):
            raise ValueError(f"{where} line {number}: correction {value!r} is not a finite number (bb)")
        cell = rows.setdefault(node, {r: {} for r in ROLES})[role]
        if c in cell:
            raise ValueError(f"{where} line {number}: {node} {role} {cls} is listed twice")
        cell[c] = x
    if provenance is None or not isinstance(provenance, dict) or not isinstance(provenance.get("spot"), str):
        raise ValueError(f"{where}: no '{PROVENANCE_PREFIX.strip()}' line naming the spot")
    endings = {}
    for node, by_role in rows.items():
        for role in ROLES:
            if len(by_role[role]) != N_CLASSES:
                raise ValueError(f"{where}: ending {node!r} {role} lists {len(by_role[role])} of {N_CLASSES} classes")
        endings[node] = tuple(np.array([by_role[r][c] for c in range(N_CLASSES)]) for r in ROLES)
    spot = provenance.pop("spot")
    try:
        return EndingCorrections(spot, endings, {**provenance, "path": where,
                                                 "sha256": hashlib.sha256(path.read_bytes()).hexdigest()})
    except ValueError as exc:
        raise ValueError(f"{where}: {exc}") from None


@dataclass(frozen=True, eq=False)
class SolvedStart:
    """The preflop state a solve under a table starts from (:func:`read_solved_start`): ``state`` as
    :meth:`pokerlab.preflop.solver.Solver.load_state` takes it, at preflop ``iteration``; ``record``:
    what the exchange measured there (its joint exploitability per seat, bb) and what it was written
    from; ``sha256``: of the file."""

    state: dict[str, np.ndarray]
    iteration: int
    record: dict
    sha256: str


def start_path(table_path: str | os.PathLike) -> Path:
    """The start beside a table: ``cash-2max-100bb.tsv`` -> ``cash-2max-100bb.start.npz``."""
    path = Path(table_path)
    return path.with_name(path.name.removesuffix(".tsv") + START_SUFFIX)


def write_solved_start(path: str | os.PathLike, state: dict[str, np.ndarray], table: EndingCorrections,
                       record: dict) -> None:
    """Write the preflop ``state`` (with its ``iteration``) a solve under ``table`` starts from,
    atomically, with ``record`` and the spot and digest of ``table``'s corrections."""
    meta = {**record, "spot": table.spot, "corrections_sha256": table.digest(), "iteration": int(state["iteration"])}
    arrays = {**state, START_META: np.array(json.dumps(meta, sort_keys=True))}
    write_bytes_atomic(path, deterministic_npz_bytes(arrays, compresslevel=1))


def read_solved_start(path: str | os.PathLike, table: EndingCorrections) -> SolvedStart:
    """Read :func:`write_solved_start`'s file and check it belongs to ``table`` (its spot and the digest
    of its corrections: a table re-measured without its start, or a start copied beside another table,
    is refused). Errors name the file; the state's shapes are checked when a solver loads it."""
    where = f"solved start {Path(path).as_posix()}"
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data[START_META]))
            state = {k: data[k] for k in data.files if k != START_META}
    except Exception as exc:  # noqa: BLE001 - any unreadable file gets one message naming it
        raise ValueError(f"{where}: unreadable ({type(exc).__name__}: {exc})") from None
    if not isinstance(meta, dict) or "iteration" not in state:
        raise ValueError(f"{where}: not a solved start (no record or no iteration)")
    if meta.get("spot") != table.spot:
        raise ValueError(f"{where}: written for {meta.get('spot')}, not {table.spot}")
    if meta.get("corrections_sha256") != table.digest():
        raise ValueError(f"{where}: written with other corrections than the table beside it "
                         f"({meta.get('corrections_sha256')} against {table.digest()}); ship the two together")
    return SolvedStart(state, int(state["iteration"]), meta, sha256_file(path))
