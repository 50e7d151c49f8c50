"""The sweep of spots: its sheet, the summary of what was attempted, and the solve timings.

The sheet (``config/spots.tsv``) is a tab-separated table with one row per spot and the
columns ``format``, ``seats`` (2..9) and ``depth`` (bb), then optionally any of the per-spot
override columns (:data:`OVERRIDE_COLUMNS`; an empty cell keeps the default):
``checkpoints`` (e.g. ``400,1200,3000,6000``) and ``bar_coefficient`` replace the ``solve:``
settings of that spot, ``mem_mb`` and ``runtime`` (minutes) replace the resources its solve job
asks a scheduler for (:func:`solve_resources`). It is validated by
``workflow/schemas/spots.schema.yaml`` in the workflow and by :func:`load_spots` everywhere.
The default sheet is the full sweep: 4 formats x 8 table sizes x 16 depths = 512 spots
(:func:`full_sweep`).

The summary (``results/summary.csv`` and ``.parquet``) has one row per attempted spot, shipped
or rejected, with the figures of :func:`pokerlab.publish.spot_outcome`, read straight from each
solve's ``result.json``; it holds no times. The
solve seconds come from Snakemake's ``benchmark:`` files and go to a separate, unpublished
``results/timings.csv`` (:func:`timings_table`).
"""

from __future__ import annotations

import math
import os
import re
from pathlib import Path
from typing import Iterable

import pandas as pd

from pokerlab.io import atomic_path, read_text
from pokerlab.preflop.spot import (FORMATS, MAX_SEATS, MIN_SEATS, PLANNED_FORMATS, SWEEP_DEPTHS, depth_label,
                                   parse_spot_name, spot_name)

SWEEP_FORMATS = ("cash", "mtt", "icm_bubble", "icm_final")
SWEEP_SEATS = tuple(range(2, 10))
SHEET_COLUMNS = ("format", "seats", "depth")
OVERRIDE_COLUMNS = ("checkpoints", "bar_coefficient", "mem_mb", "runtime")
# Default resources of one solve job by table size. Memory: the largest peak resident size of
# each table size in a full sweep (232 MB heads-up, 284 MB 5-handed, 557 MB 8-handed, 819 MB
# 9-handed: the interpreter, the table, the solver and writing result.json), with 1.5-2x headroom. Runtime (minutes)
# covers the whole 400/1,200/3,000 schedule at several times this machine's speed, so a slower
# cluster node does not time out.
SOLVE_MEM_MB = {2: 500, 3: 500, 4: 500, 5: 600, 6: 700, 7: 800, 8: 1000, 9: 1200}
SOLVE_RUNTIME_MIN = {2: 10, 3: 10, 4: 10, 5: 15, 6: 20, 7: 30, 8: 45, 9: 60}
MAX_CHECKPOINT = 1_000_000  # CFR+ iterations; config/schema.yaml bounds solve.checkpoints alike
KNOWN_FORMATS = tuple(dict.fromkeys((*FORMATS, *PLANNED_FORMATS, *SWEEP_FORMATS)))


def full_sweep() -> pd.DataFrame:
    """The 512 spots of the published sweep, format-major, then seats, then depth."""
    rows = [(f, n, d) for f in SWEEP_FORMATS for n in SWEEP_SEATS for d in SWEEP_DEPTHS]
    return pd.DataFrame(rows, columns=list(SHEET_COLUMNS))


_WHOLE = re.compile(r"[0-9]+")
_DECIMAL = re.compile(r"[0-9]+(\.[0-9]+)?")  # the depth wildcard's pattern: no sign, exponent or '_'
_REAL = re.compile(r"([0-9]+\.?[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")


def _override(column: str, text: str, where: str):
    """One override cell parsed to its value (``None`` for an empty cell)."""
    text = text.strip()
    if not text:
        return None
    if column == "checkpoints":
        parts = text.split(",")
        if not all(_WHOLE.fullmatch(p.strip()) for p in parts):
            raise ValueError(f"{where}: checkpoints {text!r} must be comma-separated iteration counts, e.g. 400,1200,3000")
        counts = [int(p) for p in parts]
        if counts[0] < 1 or counts != sorted(set(counts)) or counts[-1] > MAX_CHECKPOINT:
            raise ValueError(f"{where}: checkpoints {text!r} must be strictly increasing positive integers "
                             f"up to {MAX_CHECKPOINT}")
        return ",".join(map(str, counts))
    if column == "bar_coefficient":
        value = float(text) if _REAL.fullmatch(text) else math.nan
        if not math.isfinite(value) or value <= 0:
            raise ValueError(f"{where}: bar_coefficient {text!r} must be a number > 0 (bb)")
        return value
    if not _WHOLE.fullmatch(text) or int(text) < 1:  # mem_mb, runtime
        unit = "megabytes" if column == "mem_mb" else "minutes"
        raise ValueError(f"{where}: {column} {text!r} must be a positive whole number of {unit}")
    return int(text)


def _sheet_lines(path: Path) -> list[tuple[int, list[str]]]:
    """(line number, tab-separated cells) of every line that is not blank or a comment (``#`` to
    the end of the line is ignored)."""
    text = read_text(path, "spots sheet")
    rows = []
    for number, line in enumerate(text.lstrip("\ufeff").splitlines(), 1):
        line = line.split("#", 1)[0]
        if line.strip():
            rows.append((number, line.split("\t")))
    return rows


def load_spots(path: str | os.PathLike) -> pd.DataFrame:
    """Read and check a spots sheet; ``ValueError`` names the sheet, the bad line, column and value.

    Returns the columns ``format``, ``seats``, ``depth`` and every override column (missing
    where the sheet leaves a cell empty or has no such column)."""
    path = Path(path)
    lines = _sheet_lines(path)
    if not lines:
        raise ValueError(f"spots sheet {path.name}: empty file, expected a header line {'<tab>'.join(SHEET_COLUMNS)}")
    columns = tuple(lines[0][1])
    extra = columns[len(SHEET_COLUMNS):]
    if columns[:len(SHEET_COLUMNS)] != SHEET_COLUMNS or not set(extra) <= set(OVERRIDE_COLUMNS) or len(set(extra)) < len(extra):
        raise ValueError(f"spots sheet {path.name}: columns {list(columns)} must be {list(SHEET_COLUMNS)}, "
                         f"then optionally any of {list(OVERRIDE_COLUMNS)}")
    if len(lines) == 1:
        raise ValueError(f"spots sheet {path.name}: no spots")
    rows = []
    for number, cells_list in lines[1:]:
        where = f"spots sheet {path.name} line {number}"
        if len(cells_list) != len(columns):
            raise ValueError(f"{where}: {len(cells_list)} cells, the header has {len(columns)} ({'<tab>'.join(columns)})")
        fmt, seats, depth = cells_list[:3]
        if fmt not in KNOWN_FORMATS:
            raise ValueError(f"{where}: format {fmt!r} is not one of {list(KNOWN_FORMATS)}")
        if not _WHOLE.fullmatch(seats) or not MIN_SEATS <= int(seats) <= MAX_SEATS:
            raise ValueError(f"{where}: seats {seats!r} is not a table size {MIN_SEATS}..{MAX_SEATS}")
        if not _DECIMAL.fullmatch(depth):
            raise ValueError(f"{where}: depth {depth!r} is not a number of big blinds (digits, optionally a "
                             f"decimal point and more digits)")
        depth_bb = float(depth)
        if depth_bb <= 1:
            raise ValueError(f"{where}: depth {depth!r} must exceed the 1bb big blind")
        try:
            depth_label(depth_bb)
        except ValueError as exc:
            raise ValueError(f"{where}: depth {depth!r}: {str(exc).removeprefix('depth: ')}") from None
        cells = dict(zip(extra, cells_list[3:]))
        rows.append((fmt, int(seats), depth_bb,
                     *(_override(c, cells[c], where) if c in cells else None for c in OVERRIDE_COLUMNS)))
    out = pd.DataFrame(rows, columns=[*SHEET_COLUMNS, *OVERRIDE_COLUMNS], dtype=object)
    out = out.astype({"seats": int, "depth": float, "format": str})
    names = [spot_name(*row[:3]) for row in rows]
    dup = pd.Series(names)[pd.Series(names).duplicated()]
    if not dup.empty:
        raise ValueError(f"spots sheet {path.name}: spot {dup.iloc[0]} is listed twice")
    return out


def sheet_overrides(sheet: pd.DataFrame) -> dict[str, dict]:
    """Each spot's non-empty override cells (``{}`` for none), keyed by :func:`spot_name`: built
    once, so the workflow looks a spot up instead of scanning the sheet for every job."""
    return {spot_name(row["format"], row["seats"], row["depth"]): {c: row[c] for c in OVERRIDE_COLUMNS if pd.notna(row[c])}
            for row in sheet.to_dict("records")}


def solve_settings(solve_section: dict, overrides: dict) -> dict:
    """The ``solve:`` config section (without its ``spots`` list) with a spot's overrides applied."""
    settings = {k: v for k, v in solve_section.items() if k not in ("spots", "keep_states")}  # no effect on results
    if settings.get("hands") == "classes":
        del settings["hands"]  # the default: the params of existing solves stay as they were (no re-run)
    if "checkpoints" in overrides:
        settings["checkpoints"] = [int(c) for c in overrides["checkpoints"].split(",")]
    if "bar_coefficient" in overrides:
        settings["bar_coefficient"] = float(overrides["bar_coefficient"])
    return settings


def batched_tables(spot_names: Iterable[str], batch_seats: Iterable[int]) -> dict[str, list[str]]:
    """The spots solved together, by table size (``{"cash/2max": ["cash/2max/5bb", ...]}``): every
    spot named (``{format}/{n}max/{depth}bb``) whose table has one of ``batch_seats`` seats, in
    the order given, each once; table sizes in order of first appearance."""
    seats = {int(n) for n in batch_seats}
    out: dict[str, list[str]] = {}
    for name in spot_names:
        table = name.rsplit("/", 1)[0]
        if parse_spot_name(name).seats in seats and name not in out.get(table, []):
            out.setdefault(table, []).append(name)
    return out


def solve_resources(seats: int, overrides: dict) -> dict:
    """``mem_mb`` and ``runtime`` (minutes) for one spot's solve job: the table-size defaults
    (:data:`SOLVE_MEM_MB`, :data:`SOLVE_RUNTIME_MIN`) unless the sheet overrides them."""
    return {"mem_mb": int(overrides.get("mem_mb", SOLVE_MEM_MB[int(seats)])),
            "runtime": int(overrides.get("runtime", SOLVE_RUNTIME_MIN[int(seats)]))}


def write_table(frame: pd.DataFrame, csv_path: str | os.PathLike | None = None,
                parquet_path: str | os.PathLike | None = None) -> None:
    """Write ``frame`` as CSV (LF, no index, floats as Python reprs) and/or Parquet, atomically."""
    if csv_path is not None:
        with atomic_path(csv_path) as tmp:
            frame.to_csv(tmp, index=False, lineterminator="\n")
    if parquet_path is not None:
        with atomic_path(parquet_path) as tmp:
            frame.to_parquet(tmp, index=False, engine="pyarrow", compression="zstd")


def summary_table(outcomes: Iterable[dict]) -> pd.DataFrame:
    """One row per attempted spot (outcome rows of :func:`pokerlab.publish.spot_outcome`),
    in sweep order (format as in the sweep, then seats, then depth). RFI shares stay out: they
    have a column per seat name."""
    rows = [{k: v for k, v in o.items() if k != "rfi"} for o in outcomes]
    if not rows:
        raise ValueError("summary: no outcomes")
    frame = pd.DataFrame(rows)
    order = {f: i for i, f in enumerate(KNOWN_FORMATS)}
    frame = frame.sort_values(["format", "seats", "depth_bb"], key=lambda c: c.map(order) if c.name == "format" else c,
                              kind="stable").reset_index(drop=True)
    first = ["format", "seats", "depth_bb", "status"]
    return frame[first + sorted(c for c in frame.columns if c not in first)]


def write_summary(result_paths: Iterable[str | os.PathLike], csv_path: str | os.PathLike,
                  parquet_path: str | os.PathLike) -> pd.DataFrame:
    """Read every solve's ``result.json`` (not its arrays) and write ``summary.csv`` and
    ``summary.parquet``: one outcome row (:func:`pokerlab.publish.spot_outcome`) per spot."""
    from pokerlab.preflop.result_file import read_result
    from pokerlab.publish import spot_outcome

    frame = summary_table(spot_outcome(read_result(p, arrays=False)) for p in result_paths)
    write_table(frame, csv_path, parquet_path)
    return frame


def timings_table(summary: pd.DataFrame, log_dir: str | os.PathLike) -> pd.DataFrame:
    """The summary's spot columns with each spot's solve wall and CPU seconds, read from
    ``{log_dir}/{format}_{n}max_{depth}bb.log`` (NaN where there is none)."""
    # the solver's module, imported here and not at the workflow's parse
    from pokerlab.preflop.solve import read_solve_timing, solve_log_path

    frame = summary[["format", "seats", "depth_bb", "status", "iterations", "decision_nodes"]].copy()
    times = [read_solve_timing(solve_log_path(log_dir, spot_name(f, n, d)))
             for f, n, d in zip(frame["format"], frame["seats"], frame["depth_bb"])]
    frame["solve_seconds"] = [wall for wall, _ in times]
    frame["solve_cpu_seconds"] = [cpu for _, cpu in times]
    return frame
