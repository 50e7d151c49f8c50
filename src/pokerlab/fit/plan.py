"""The fit's plan: which endings and boards are measured (``endings.tsv``, ``boards.tsv``,
``spots.tsv``), written from the config and the solved preflop spots, and read back by the jobs.

* ``spots.tsv``: per preflop spot, its flop-ending mass (share of deals), the share of that
  mass at three-way endings (not measurable by a two-player solver) and at the measured endings.
* ``endings.tsv``: per spot, the ``endings_per_spot`` most reached heads-up flop endings
  (``rank`` 0 = most reached) with pot, stack behind and spr in bb, positions, the preflop
  aggressor, and each seat's own reach per class (169 comma-separated numbers, grid order).
* ``boards.tsv``: per ending, ``boards`` fitting flops then ``heldout_boards`` held-out flops
  (:func:`pokerlab.fit.boards.sample_flops`, seeded by ``fit.seed`` and the ending's name).

All three are pure functions of the config and the solves' bytes.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from pokerlab.cards import N_CLASSES
from pokerlab.fit.boards import sample_flops
from pokerlab.fit.endings import FlopEnding, SpotEndings, spot_endings
from pokerlab.fit.settings import FitSettings
from pokerlab.io import atomic_path
from pokerlab.preflop.result_file import read_result
from pokerlab.preflop.spot import Sizing

REACH_DECIMALS = 6


def _stream(spot: str, rank: int) -> int:
    """A board-sampling stream number from the ending's name (independent of config order)."""
    return int.from_bytes(hashlib.sha256(f"{spot}/e{rank}".encode()).digest()[:8], "little")


def reach_text(values: np.ndarray) -> str:
    """A plan table's class-reach column: comma-separated, rounded to ``REACH_DECIMALS``."""
    return ",".join(repr(round(float(v), REACH_DECIMALS)) for v in values)


def _vector(text: str, where: str) -> np.ndarray:
    values = np.array([float(v) for v in str(text).split(",")])
    if values.shape != (N_CLASSES,) or not np.all(np.isfinite(values)) or np.any(values < 0):
        raise ValueError(f"{where}: expected {N_CLASSES} class reaches >= 0")
    return values


def planned_endings(found: SpotEndings, max_endings: int, min_reach: float = 0.0) -> list[FlopEnding]:
    """The endings a plan measures: of the ``max_endings`` most reached heads-up flop endings, those at
    least ``min_reach`` of the deals reach."""
    return [e for e in found.endings[:max_endings] if e.reach >= min_reach]


def flop_rows(spot: str, rank: int, seed: int, boards: int, heldout: int) -> list[dict]:
    """The boards table's rows of ending ``rank`` of ``spot``: its ``boards`` fitting and ``heldout``
    held-out flops (:func:`~pokerlab.fit.boards.sample_flops`; the fitting rows do not depend on
    ``heldout``)."""
    return [{"spot": spot, "rank": rank, "board_index": b.index, "board": b.text, "stratum": b.stratum,
             "weight": b.weight, "heldout": b.heldout}
            for b in sample_flops(seed, _stream(spot, rank), boards, heldout)]


def write_plan(result_paths: dict[str, str | os.PathLike], sizing: Sizing, settings: FitSettings,
               spots_tsv: str | os.PathLike, endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike,
               min_reach: float = 0.0) -> None:
    """Walk each spot's solve (the spots of ``result_paths``) to its flop endings and write the three
    plan tables (see module): the ``settings.endings_per_spot`` most reached heads-up flop endings
    that at least ``min_reach`` of the deals reach. ``settings`` may be any object with the fit's
    ``endings_per_spot``, ``boards``, ``heldout_boards`` and ``seed`` (the solved-endings loop's too)."""
    spot_rows, ending_rows, board_rows = [], [], []
    for name in result_paths:
        found = spot_endings(read_result(result_paths[name]), sizing)
        chosen = planned_endings(found, settings.endings_per_spot, min_reach)
        measured = sum(e.reach for e in chosen)
        spot_rows.append({"spot": name, "flop_mass": found.flop_mass, "three_way_share": found.three_way_share,
                          "headsup_endings": len(found.endings), "measured_endings": len(chosen),
                          "measured_share": measured / found.flop_mass if found.flop_mass > 0 else 0.0})
        for rank, e in enumerate(chosen):
            ending_rows.append({
                "spot": name, "rank": rank, "node": e.node, "reach": e.reach, "pot_bb": e.pot_bb,
                "behind_bb": e.behind_bb, "spr": e.spr, "oop": e.oop, "ip": e.ip, "aggressor": e.aggressor,
                "aggressor_in_position": "" if e.aggressor_in_position is None else str(e.aggressor_in_position).lower(),
                "oop_reach": reach_text(e.oop_reach), "ip_reach": reach_text(e.ip_reach)})
            board_rows += flop_rows(name, rank, settings.seed, settings.boards, settings.heldout_boards)
    for path, rows in ((spots_tsv, spot_rows), (endings_tsv, ending_rows), (boards_tsv, board_rows)):
        write_tsv(pd.DataFrame(rows), path)


def write_tsv(frame: pd.DataFrame, path: str | os.PathLike) -> None:
    with atomic_path(path) as tmp:
        frame.to_csv(tmp, sep="\t", index=False, lineterminator="\n")


@dataclass(frozen=True)
class Job:
    """One fit_solve job: an ending and one of its boards (``ending`` None if the spot has
    fewer heads-up flop endings than asked)."""

    key: str
    ending: FlopEnding | None
    board: str
    stratum: str
    weight: float
    heldout: bool
    rank: int
    board_index: int


def read_job(endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike, key: str) -> Job:
    """The ending and board of job ``key`` (``{spot}/e{rank}/b{board}``) from the plan tables."""
    spot, e, b = key.rsplit("/", 2)
    rank, index = int(e[1:]), int(b[1:])
    endings = pd.read_csv(endings_tsv, sep="\t", keep_default_na=False)
    row = endings[(endings["spot"] == spot) & (endings["rank"] == rank)]
    if row.empty:
        return Job(key, None, "", "", 0.0, False, rank, index)
    r = row.iloc[0]
    where = f"{endings_tsv}: {spot} ending {rank}"
    ending = FlopEnding(spot, r["node"], float(r["reach"]), float(r["pot_bb"]), float(r["behind_bb"]), r["oop"], r["ip"],
                        r["aggressor"], _vector(r["oop_reach"], where), _vector(r["ip_reach"], where))
    boards = pd.read_csv(boards_tsv, sep="\t", keep_default_na=False)
    brow = boards[(boards["spot"] == spot) & (boards["rank"] == rank) & (boards["board_index"] == index)]
    if brow.empty:
        raise ValueError(f"{boards_tsv}: no board {index} for {spot} ending {rank}: the plan and the config disagree")
    br = brow.iloc[0]
    return Job(key, ending, br["board"], br["stratum"], float(br["weight"]), str(br["heldout"]) == "True", rank, index)


def job_output(results_dir: str | os.PathLike, key: str) -> Path:
    return Path(results_dir) / "solves" / f"{key}.parquet"
