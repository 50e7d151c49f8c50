"""What solved endings cost: a measured rounds run's job CPU, and the price of another spot's run from it.

A rounds run (:mod:`pokerlab.solved.rounds`) spends its CPU in two kinds of jobs per round: one preflop
job (the preflop side's ``exchange.every`` iterations) and one flop job per re-valued ending and flop
(fitting and held-out), each a fixed price (starting the process, building the postflop solver, moving
its state: :data:`FIXED_JOB_CPU_SECONDS`) plus its postflop iterations. An iteration's work grows with
the postflop tree: :func:`tree_cells` counts the state cells a flop solve stores per hand (every
decision node's actions times the turn and river cards that reach it), which is what regret matching
and the update touch and what the river showdowns under them follow. Every class is in a solved
ending's ranges (floored at ``floor_weight``), so the hands per board are the same for every ending and
the cells per hand are what sets the work.

:func:`read_calibration` reads a finished (or partly finished) run's job logs; :func:`price_flop_job`
scales its flop jobs' variable part by the cells of another ending's tree.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.io import read_json
from pokerlab.job_log import JOB_CPU
from pokerlab.postflop.game import BetTree, PostflopSpot
from pokerlab.postflop.tree import DECISION, build_tree

DEALS_BELOW = {3: 1, 4: 49, 5: 49 * 48}
"""Card paths a node on a board of 3, 4 or 5 cards stands for under a flop root (turn, then river card)."""
CELLS_BOARD = (0, 5, 10)  # any flop: the tree's shape does not depend on its cards
FIXED_JOB_CPU_SECONDS = 7.0
"""A flop job's price besides its iterations: starting the process (about 1.5 CPU-s), the spot's solve
(1.1-1.4), the postflop solver (0.4) and its state written and read (3-4.5);
``docs/benchmarks/2026-12-03-solved-job-root-runouts.md``."""


def tree_cells(pot_bb: float, behind_bb: float, bet_tree: BetTree) -> int:
    """State cells per hand of a flop solve with pot ``pot_bb`` and ``behind_bb`` behind: the sum over
    decision nodes of their actions times the card paths reaching them (:data:`DEALS_BELOW`; suit
    isomorphism, which depends on the flop, left out)."""
    full = np.ones(1326)
    tree = build_tree(PostflopSpot(pot_bb, behind_bb, CELLS_BOARD, full, full, bet_tree))
    nodes = np.flatnonzero(tree.kind == DECISION)
    return int(sum(int(tree.n_children[n]) * DEALS_BELOW[int(tree.board_len[n])] for n in nodes))


@dataclass(frozen=True)
class Calibration:
    """A measured rounds run's prices (CPU seconds): per ending rank its flop jobs' mean and tree cells,
    and the preflop jobs' mean."""

    spot: str
    rounds: int  # finished preflop jobs on record
    flop_job_cpu: dict[int, float]  # rank -> mean CPU-s per flop job over every round and flop
    flop_jobs: dict[int, int]  # rank -> flop jobs on record
    cells: dict[int, int]  # rank -> tree_cells of the ending
    preflop_job_cpu: float
    fixed_cpu: float = FIXED_JOB_CPU_SECONDS

    @property
    def variable_cpu_per_cell(self) -> float:
        """CPU-s per state cell per hand of a flop job's iterations, job-weighted over the endings."""
        jobs = sum(self.flop_jobs.values())
        return sum(n * (self.flop_job_cpu[r] - self.fixed_cpu) / self.cells[r] for r, n in self.flop_jobs.items()) / jobs


@dataclass(frozen=True)
class JobCpu:
    """One finished job of a rounds run, from its log: its round, the ending rank of a flop job (None
    for the preflop job) and its own CPU seconds (imports included)."""

    round: int
    rank: int | None
    cpu_seconds: float


def round_job_cpu(logs_dir: str | os.PathLike, spot: str) -> list[JobCpu]:
    """The finished jobs of ``spot``'s rounds run from their logs in ``logs_dir``
    (``{spot}_r{k}_preflop.log`` and ``{spot}_r{k}_e{rank}_b{board}.log``, ``/`` in the spot's name
    written ``-``), each with the CPU its last :data:`pokerlab.job_log.JOB_CPU` line gives; a job still
    running (no such line) is left out."""
    prefix = spot.replace("/", "-")
    job_name = re.compile(re.escape(prefix) + r"_r(\d+)_(?:preflop|e(\d+)_b\d+)\.log")
    jobs = []
    for path in sorted(Path(logs_dir).glob(f"{prefix}_r*.log")):
        name, found = job_name.fullmatch(path.name), JOB_CPU.findall(path.read_text(errors="replace"))
        if name is not None and found:
            rank = None if name.group(2) is None else int(name.group(2))
            jobs.append(JobCpu(int(name.group(1)), rank, float(found[-1])))
    return jobs


def read_calibration(logs_dir: str | os.PathLike, spot: str, cells: dict[int, int],
                     fixed_cpu: float = FIXED_JOB_CPU_SECONDS, rounds: range = range(1, 10**6)) -> Calibration:
    """The prices of ``spot``'s rounds run from its jobs' logs in ``logs_dir`` (:func:`round_job_cpu`) for
    the endings whose ``cells`` are given by rank (the plan's; the jobs of ranks the spot lacks are left
    out), of the ``rounds`` given (a run whose code got cheaper on the way). A run still going counts
    with the jobs it has finished."""
    jobs = [j for j in round_job_cpu(logs_dir, spot) if j.round in rounds]
    preflop = [j.cpu_seconds for j in jobs if j.rank is None]
    per_rank = {r: [j.cpu_seconds for j in jobs if j.rank == r] for r in cells}
    if not preflop or not all(per_rank.values()):
        raise ValueError(f"{logs_dir}: no finished preflop job, or none for some ending {sorted(cells)}, of {spot}'s "
                         "rounds run")
    return Calibration(spot, len(preflop), {r: float(np.mean(v)) for r, v in sorted(per_rank.items())},
                       {r: len(v) for r, v in sorted(per_rank.items())}, dict(sorted(cells.items())),
                       float(np.mean(preflop)), fixed_cpu)


def price_flop_job(calibration: Calibration, cells: int, iterations_scale: float = 1.0) -> float:
    """Projected CPU-s of one flop job of an ending whose tree has ``cells`` state cells per hand, at
    ``iterations_scale`` times the calibration run's postflop iterations per job."""
    return calibration.fixed_cpu + calibration.variable_cpu_per_cell * cells * iterations_scale


@dataclass(frozen=True)
class ExchangeCalibration:
    """A measured in-process exchange's prices (:mod:`pokerlab.solved.joint`, one job per spot): the
    exchange's CPU per state cell per hand and postflop iteration of its resident flop solves (the
    preflop iterations, the measurements, the checkpoints and the outputs included, as the job paid them),
    and its held-out solves' CPU per cell (each solved once, to the accuracy target)."""

    spot: str
    exchanges: int
    exchange_cpu: float  # CPU-s of the exchange's job (or of its exchanges alone, when its log has no total)
    resident_cells: int  # sum over the resident flop solves of their cells per hand
    postflop_iterations: int  # per flop solve and exchange
    heldout_solves: int
    heldout_cpu_per_cell: float  # mean over the held-out solves of CPU-s / cells per hand (NaN: none on record)

    @property
    def cpu_per_cell_iteration(self) -> float:
        """CPU-s per state cell per hand and postflop iteration of a resident flop solve."""
        return self.exchange_cpu / (self.exchanges * self.postflop_iterations * self.resident_cells)


def read_exchange_calibration(report_path: str | os.PathLike, job_log: str | os.PathLike, postflop_iterations: int,
                              fitting_flops: int, cells: dict[int, int], heldout_logs: str | os.PathLike,
                              spot: str) -> ExchangeCalibration:
    """The prices of ``spot``'s in-process exchange: the job's CPU from its log ``job_log`` (its last
    :data:`pokerlab.job_log.JOB_CPU` line: building the solves, the exchanges, the checkpoints and the
    outputs) if the job ran in one go, else the exchanges' own (``cpu_seconds`` of the report's history); its
    ``postflop_iterations`` per flop and exchange, its ``fitting_flops`` per ending and the ``cells`` of
    its endings by rank (the plan's); the held-out solves' CPU from their job logs in ``heldout_logs``
    (``heldout_{spot}_e{rank}_b{board}.log``, ``/`` in the spot's name written ``-``)."""
    history = read_json(report_path, "exchange report")["history"]
    if not history:
        raise ValueError(f"{report_path}: no exchange on record")
    text = Path(job_log).read_text(errors="replace") if Path(job_log).is_file() else ""
    job = [] if "resumed at iteration" in text else JOB_CPU.findall(text)  # a resumed job's log holds its last part
    prefix = spot.replace("/", "-")
    name = re.compile(re.escape(f"heldout_{prefix}_e") + r"(\d+)_b\d+\.log")
    per_cell = []
    for path in sorted(Path(heldout_logs).glob(f"heldout_{prefix}_e*_b*.log")):
        found, match = JOB_CPU.findall(path.read_text(errors="replace")), name.fullmatch(path.name)
        if found and match and int(match.group(1)) in cells:
            per_cell.append(float(found[-1]) / cells[int(match.group(1))])
    return ExchangeCalibration(spot, len(history), float(job[-1]) if job else float(sum(h["cpu_seconds"] for h in history)),
                               fitting_flops * sum(cells.values()), postflop_iterations, len(per_cell),
                               float(np.mean(per_cell)) if per_cell else float("nan"))
