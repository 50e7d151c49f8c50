"""Solved endings by exchanging: the preflop CFR+ and a postflop solve of every re-valued ending on
every fitting flop run side by side in one process, each keeping its regrets.

Every ``exchange_every`` iterations:

1. the preflop solver runs that many CFR+ iterations on the game whose solved endings pay the model
   plus the current corrections (:mod:`pokerlab.preflop.ending_corrections`);
2. each ending's postflop solves take the ranges of the preflop **current** strategies (own reach per
   class, floored at ``floor_weight``, spread over the class's combos) and run that many iterations, or
   ``exchange.postflop_every`` if fewer (``SolvedSettings.postflop_iterations``);
3. the corrections are measured on the postflop **current** strategies against those ranges
   (:mod:`pokerlab.solved.values`, the same arithmetic as the re-solving loop's
   :func:`pokerlab.solved.loop.update_table`), and the preflop game takes them.

It is joint CFR split at the flop, with leaf values ``exchange_every`` iterations late. On the tiny
reference game (:func:`pokerlab.solved.reference.exchange_iteration`) its average profile converges to
the joint equilibrium when the exchanges are frequent, where re-solving both sides each outer iteration
cycles. The corrections themselves keep moving with the current strategies, so a run stops on an
iteration budget; its chart is the preflop average strategy, judged by the joint exploitability
(:meth:`JointSolve.joint_exploitability`), and its table the corrections averaged over the exchanges
of the run's second half (a record of the model's error: re-solving the preflop game under a fixed
table need not give the chart back). A run continued under a larger budget whose sums began before the
new half-way point starts them again, so the table never averages an exchange of the first half.

Everything is resumable: :meth:`JointSolve.save` writes the whole state (preflop and postflop regrets
and sums, corrections, history) atomically, and :meth:`JointSolve.load` continues bit for bit.
:mod:`pokerlab.solved.rounds` runs the same solve as rounds of jobs, the postflop solves outside this
process (``resident=False``).
"""

from __future__ import annotations

import dataclasses
import errno
import json
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator, TextIO

import numpy as np
import pandas as pd

from pokerlab.cards import CLASS_PRIOR, COMBO_CLASS, N_CLASSES, parse_cards
from pokerlab.fit.plan import read_job
from pokerlab.io import read_json, sha256_file, write_json_atomic, write_npz_streamed
from pokerlab.postflop.game import PostflopSpot
from pokerlab.postflop.solver import Mode, PostflopSolver
from pokerlab.preflop.ending_corrections import (EndingCorrections, start_path, write_ending_corrections,
                                                 write_solved_start)
from pokerlab.preflop.payoffs import chip_ev_payoffs
from pokerlab.preflop.result_file import write_result
from pokerlab.preflop.solve import SolveSettings, result_document, sizing_digest
from pokerlab.preflop.solver import Solver
from pokerlab.preflop.spot import Sizing, Spot
from pokerlab.preflop.tree import Tree, build_tree
from pokerlab.solved import values as V
from pokerlab.solved.loop import COLUMNS, MIN_NODE_REACH, ending_ranges, ending_roles, read_plan_endings, valued_ranges
from pokerlab.solved.settings import SolvedSettings, settings_sha256

STATE_VERSION = 2  # 2: each postflop solve's arrays as PostflopSolver.state() names them
WEIGHTS_AND_COUNT = ("weights0", "weights1", "iterations")  # saved beside a postflop solve's state
MEASURE_EVERY = 5  # exchanges between two measurements of the joint exploitability (each about two iterations' work)


@dataclass
class FlopSolve:
    """One re-valued ending on one fitting flop: its plan job ``key``, board and weight, its postflop
    ``spot`` (with the ranges of the plan: the combos every later range weighs) and, when the flop is
    solved in this process, its ``solver`` (None when its own jobs solve it: :mod:`.rounds`)."""

    key: str
    board: str
    weight: float
    spot: PostflopSpot
    solver: PostflopSolver | None = None

    def new_solver(self, settings: SolvedSettings) -> PostflopSolver:
        return PostflopSolver(self.spot, settings.max_memory_mb, compression=settings.compression)


Measured = dict[str, list[tuple[pd.DataFrame, dict]]]
"""Per re-valued ending (its node), one ``(frame, record)`` per fitting flop: per-combo values
(:func:`measurement`) with at least the record's ``board_weight``."""


def flop_ranges(spot: PostflopSpot, own_reach: tuple[np.ndarray, np.ndarray], floor: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The (oop, ip) root weights a flop solve of ``spot`` takes from the seats' own reach per class
    (floored at ``floor``, spread over the class's combos, the board's combos removed)."""
    oop, ip = ending_ranges(own_reach[0], own_reach[1], floor)
    return dataclasses.replace(spot, oop_range=oop, ip_range=ip).ranges


@dataclass
class Ending:
    """A re-valued heads-up flop ending: its node, seats (oop, ip), their contributions (bb), the
    model payoffs' row, its flop solves, its rank in the plan and its held-out flops (never solved in
    this process and never measured into the corrections; the rounds' jobs can solve them alongside)."""

    node: str
    seats: tuple[int, int]
    contrib: tuple[float, float]
    row: int
    flops: list[FlopSolve]
    rank: int
    heldout: list[FlopSolve] = dataclasses.field(default_factory=list)


def measurement(solver: PostflopSolver, mode: Mode, equity: bool = False) -> pd.DataFrame:
    """Per-combo values (:data:`pokerlab.solved.loop.COLUMNS`) of a postflop solve under ``mode``:
    Mode.CURRENT is what the next CFR update sees and what the exchange prices the preflop endings by.
    ``equity``: with ``equity_bb``, the checked-down share of the pot, which depends on the ranges only
    (only the pooled estimator reads it; the first read-out builds the root run-out matrix, a few
    CPU-seconds a flop)."""
    rows = []
    for p in (0, 1):
        hands = solver.hands[p]
        rows.append(pd.DataFrame({"player": np.full(hands.size, p, np.int8), "combo": hands.astype(np.int16),
                                  "class": COMBO_CLASS[hands].astype(np.int16), "mass": solver.weights[p],
                                  "ev": solver.hand_ev(p, mode),
                                  **({"equity_bb": solver.spot.pot * solver.equity(p)} if equity else {})}))
    return pd.concat(rows, ignore_index=True)[[c for c in COLUMNS if equity or c != "equity_bb"]]


def sigma_change(tree: Tree, new: np.ndarray, old: np.ndarray, reach: np.ndarray) -> dict[str, float]:
    """How far two preflop edge strategies (n_nodes, 169) are apart, in percentage points, as
    :func:`pokerlab.solved.loop.strategy_change` measures two charts: per decision node, the mean over
    the acting seat's arriving classes (prior x its own ``reach`` under ``new``) of the total-variation
    distance; the largest over nodes reached by at least :data:`~pokerlab.solved.loop.MIN_NODE_REACH` of
    the deals, and the mean weighted by node reach."""
    worst = total = weight = 0.0
    for k in np.flatnonzero(tree.actor >= 0):
        seat = tree.actor[k]
        masses = CLASS_PRIOR @ reach[:, k].T
        node_reach = float(np.prod(masses))
        if masses[seat] <= 0:
            continue
        children = slice(tree.child_start[k], tree.child_start[k] + tree.n_children[k])
        distance = 0.5 * np.abs(new[children] - old[children]).sum(axis=0)
        change = 100.0 * float(CLASS_PRIOR * reach[seat, k] @ distance) / masses[seat]
        if node_reach >= MIN_NODE_REACH:
            worst = max(worst, change)
        total += node_reach * change
        weight += node_reach
    return {"max_pp": round(worst, 6), "mean_pp": round(total / weight if weight > 0 else 0.0, 6)}


def measured_after(exchanges: int, iteration: int, until: int) -> bool:
    """Whether the joint exploitability is measured after exchange number ``exchanges`` (1-based),
    which ended at preflop ``iteration`` of a run to ``until``: every :data:`MEASURE_EVERY` exchanges
    and after the last."""
    return exchanges % MEASURE_EVERY == 0 or iteration == until


class JointSolve:
    """The exchanging solve of one spot (see the module docstring). ``endings_tsv``/``boards_tsv``:
    the plan of the model's solve (which endings are re-valued, and their flop subsets); the
    held-out flops are built but never solved here (the validation jobs and the rounds solve them).
    ``log``: where progress lines go (None: nowhere)."""

    def __init__(self, spot: Spot, sizing: Sizing, base: SolveSettings, win: np.ndarray, tie: np.ndarray,
                 settings: SolvedSettings, endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike,
                 log: TextIO | None = None, resident: bool = True):
        if settings.floor_weight <= 0:
            raise ValueError("solved.floor_weight: the exchanging solve needs a positive floor (its postflop solves keep "
                             "the same combos while the ranges move)")
        self.spot, self.base, self.settings, self.win, self.tie, self.log = spot, base, settings, win, tie, log
        self.resident = resident
        self.tree = build_tree(spot, sizing)
        self.model_payoffs = chip_ev_payoffs(self.tree, base.postflop, base.class_edges, base.aggressor)
        row_of = {self.tree.nodes[k].id: z for z, k in enumerate(self.model_payoffs.nodes)}
        self.boards_sha256 = sha256_file(boards_tsv)
        self.endings: list[Ending] = []
        preflop = Solver(self.tree, self.model_payoffs, win, tie)
        reach = preflop.reach_under(preflop.sigma)
        for e in read_plan_endings(endings_tsv).itertuples(index=False):
            seats, contrib = ending_roles(self.tree, e.node)
            k = self.tree.index[e.node]
            oop, ip = ending_ranges(reach[seats[0], k], reach[seats[1], k], settings.floor_weight)
            flops, heldout = [], []
            for b in range(settings.boards + settings.heldout_boards):
                job = read_job(endings_tsv, boards_tsv, f"{spot.name}/e{e.rank}/b{b}")
                postflop_spot = PostflopSpot(e.pot_bb, e.behind_bb, tuple(parse_cards(job.board)), oop, ip,
                                             settings.bet_tree_for(e.node))
                flop = FlopSolve(job.key, job.board, job.weight, postflop_spot)
                if job.heldout:
                    heldout.append(flop)
                    continue
                if resident:
                    flop.solver = flop.new_solver(settings)
                flops.append(flop)
            self.endings.append(Ending(e.node, seats, contrib, row_of[e.node], flops, int(e.rank), heldout))
        self.corrections = {e.node: (np.zeros(N_CLASSES), np.zeros(N_CLASSES)) for e in self.endings}
        self._restart_sums()
        self.history: list[dict[str, Any]] = []
        self.measured_sigma: np.ndarray | None = None  # the average strategy at the last measurement
        # under exchange.average: second_half, the preflop strategy sums where the second half began
        self.sums_at_half: dict[str, np.ndarray] | None = None
        self.preflop = preflop
        self._rebuild_preflop()

    def flop_memory_bytes(self) -> dict[str, int]:
        """Per fitting flop solve (its plan key), the bytes its postflop solver holds
        (:attr:`PostflopSolver.memory_bytes`: state, showdown tables, the read-out's root run-out
        matrices). A solve that is not resident is built and dropped in turn, so this needs one flop's
        memory, not the sum: what the resident solve will hold."""
        return {f.key: (f.solver or f.new_solver(self.settings)).memory_bytes for e in self.endings for f in e.flops}

    # --- the exchange -------------------------------------------------------------------------

    def _table(self, endings: dict[str, tuple[np.ndarray, np.ndarray]]) -> EndingCorrections:
        return EndingCorrections(self.spot.name, endings)

    def _preflop_on(self, table: EndingCorrections) -> Solver:
        """A preflop solver on the game whose solved endings pay the model plus ``table``, holding
        the state of :attr:`preflop`."""
        solver = Solver(self.tree, chip_ev_payoffs(self.tree, self.base.postflop, self.base.class_edges,
                                                   self.base.aggressor, solved=table), self.win, self.tie)
        solver.load_state(self.preflop.state())
        return solver

    def _rebuild_preflop(self) -> None:
        """The preflop solver on the game paid by the current corrections, its state kept."""
        self.preflop = self._preflop_on(self._table(self.corrections))

    def own_reach(self, e: Ending, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The (oop, ip) seats' own reach per class at ending ``e`` under the preflop ``reach`` (seats,
        nodes, classes)."""
        k = self.tree.index[e.node]
        return reach[e.seats[0], k], reach[e.seats[1], k]

    def _arrive(self, e: Ending, reach: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Give ending ``e``'s resident postflop solves the ranges of the preflop own ``reach``; returns
        the (oop, ip) class distributions (prior x own reach)."""
        own = self.own_reach(e, reach)
        for f in e.flops:
            f.solver.set_ranges(flop_ranges(f.solver.spot, own, self.settings.floor_weight))
        return CLASS_PRIOR * own[0], CLASS_PRIOR * own[1]

    @property
    def iteration(self) -> int:
        return self.preflop.iteration

    def exchange(self, iterations: int) -> dict[str, Any]:
        """One exchange of ``iterations`` iterations on both sides (steps 1-3 of the module docstring),
        the postflop solves resident; returns its history row."""
        start = time.perf_counter()
        cpu = sum(os.times()[:2])
        reach = self.preflop_step(iterations)
        measured: Measured = {}
        for e in self.endings:
            self._arrive(e, reach)
            measured[e.node] = []
            for f in e.flops:
                f.solver.run(self.settings.postflop_iterations(iterations))
                measured[e.node].append((measurement(f.solver, Mode.CURRENT, self.settings.estimator == "pooled"),
                                         {"board_weight": f.weight}))
        return self.take_measurements(reach, measured, time.perf_counter() - start, sum(os.times()[:2]) - cpu)

    def _restart_sums(self) -> None:
        """No exchange summed into the averaged table yet."""
        self.correction_sums = {e.node: (np.zeros(N_CLASSES), np.zeros(N_CLASSES)) for e in self.endings}
        self.summed = 0

    def preflop_step(self, iterations: int) -> np.ndarray:
        """Step 1: the preflop iterations; returns the current strategy's reach (seats, nodes, classes).
        Under ``exchange.average: second_half``, a step that crosses the half-way point first keeps a copy
        of the strategy sums as they stand: its exchange is the first the table sums
        (:meth:`use_second_half_average`)."""
        half = self.settings.exchange_iterations // 2
        if self.settings.exchange_average == "second_half" and self.iteration <= half < self.iteration + iterations:
            self.sums_at_half = {k: v.copy() for k, v in self.preflop.state().items() if k.startswith("strategy_sum_")}
        self.preflop.iterate(iterations)
        return self.preflop.reach_under(self.preflop.sigma)

    def take_measurements(self, reach: np.ndarray, measured: Measured, wall_seconds: float,
                          cpu_seconds: float) -> dict[str, Any]:
        """Step 3: the corrections measured on the postflop current strategies (``measured``) against
        the ranges of ``reach`` (what :meth:`preflop_step` returned), the preflop game rebuilt on them;
        appends and returns the exchange's history row (with ``absent``: per ending a role whose current
        strategy brings no hand there, ``oop``, ``ip`` or ``both``, when there is one).

        CFR+'s current strategies can be pure, so a seat may bring no hand to an ending. Under ``pooled``
        such an ending is still measured: the absent seat's classes are valued at the floor weight, as the
        postflop solves face them, against the other seat's range, which is what decides whether the seat
        should come back (keeping the corrections of the exchange before it left froze the 6-max big blind
        out of calling: docs/pipeline/solved.md). An ending neither seat brings a hand to keeps its
        corrections, and under ``per_class`` (whose ranges are not floored) so does one a single seat
        does not reach.

        Under ``pooled`` the fit weighs the classes by the ranges the preflop *average* strategy brings
        (floored as the solves face them): the current strategy's ranges can move a class in or out at every
        exchange, and with them the whole fit (the swing measured in docs/pipeline/solved.md)."""
        change, gaps, absent = 0.0, [], {}
        average = self.preflop.reach_under(self.preflop.average_sigma()) if self.settings.estimator == "pooled" else None
        for e in self.endings:
            own = self.own_reach(e, reach)
            empty = [role for role, r in zip(V.ROLES, own) if not r.sum() > 0]
            if empty:
                absent[e.node] = "both" if len(empty) == 2 else empty[0]
            q_oop, q_ip = valued_ranges(self.settings.estimator, *own, self.settings.floor_weight)
            if len(empty) == 2 or not (q_oop.sum() > 0 and q_ip.sum() > 0):  # nobody arrives / per_class unfloored
                continue
            solved = V.solved_class_values(measured[e.node], e.contrib)
            model = V.model_class_values(self.model_payoffs, e.row, e.seats, q_oop, q_ip, self.win, self.tie)
            used = V.corrected_values(model, self.corrections[e.node], q_oop, q_ip)
            gaps.append(V.valuation_gap(used, solved, q_oop, q_ip))
            weights = None if average is None else valued_ranges("pooled", *self.own_reach(e, average),
                                                                 self.settings.floor_weight)
            fitted = V.estimated_class_values(self.settings.estimator, solved, measured[e.node], e.contrib, model, q_oop,
                                              q_ip, e.flops[0].spot.pot, self.win, self.tie, weights)
            d_oop, d_ip, _ = V.corrections(fitted, model, q_oop, q_ip)
            old = self.corrections[e.node]
            change = max(change, float(np.max(np.abs(np.r_[d_oop - old[0], d_ip - old[1]]))))
            self.corrections[e.node] = (d_oop, d_ip)
        half = self.settings.exchange_iterations // 2
        if self.iteration > half:
            if self.summed and self.history[-self.summed]["iteration"] <= half:
                # a run continued under a larger budget: its sums began before this budget's half-way point
                self._restart_sums()
            for node, (d_oop, d_ip) in self.corrections.items():
                s = self.correction_sums[node]
                self.correction_sums[node] = (s[0] + d_oop, s[1] + d_ip)
            self.summed += 1
        self._rebuild_preflop()
        row = {"iteration": self.iteration, "correction_change_bb": round(change, 6),
               "gap_before_bb": round(float(np.max(gaps)) if gaps else 0.0, 6),
               "wall_seconds": round(wall_seconds, 2), "cpu_seconds": round(cpu_seconds, 2)}
        if absent:
            row["absent"] = absent
        self.history.append(row)
        return row

    def profile_measurements(self) -> tuple[Measured, Measured]:
        """The resident postflop solves' per-combo values under the average profile, for
        :meth:`joint_exploitability` and :meth:`fitting_gaps`: each flop solve takes the ranges of the
        preflop average strategy and is read with its average strategy (Mode.EVALUATE) and with the
        best response to it (Mode.BEST_RESPONSE)."""
        reach = self.preflop.reach_under(self.preflop.average_sigma())
        evaluate: Measured = {}
        best: Measured = {}
        for e in self.endings:
            self._arrive(e, reach)
            evaluate[e.node] = [(measurement(f.solver, Mode.EVALUATE), {"board_weight": f.weight}) for f in e.flops]
            best[e.node] = [(measurement(f.solver, Mode.BEST_RESPONSE), {"board_weight": f.weight}) for f in e.flops]
        return evaluate, best

    def joint_exploitability(self, measured: tuple[Measured, Measured] | None = None) -> dict[str, Any]:
        """Each seat's gain (bb/hand) from a best response to the average profile in the game whose
        endings are played out on the fitting flops: preflop from :attr:`preflop`'s average, postflop
        from each flop solve's average (``measured``: :meth:`profile_measurements`, taken from the
        resident solves if None). At a solved ending the best-responding seat's class is worth its
        postflop best-response value against the other seat's average range and strategy, elsewhere the
        preflop payoffs hold. Exact up to the floor weight the postflop solves give absent classes."""
        evaluate, best = measured if measured is not None else self.profile_measurements()
        reach = self.preflop.reach_under(self.preflop.average_sigma())
        # per ending and role: the class values on the average profile and the best response's
        worth: dict[str, dict[str, list[np.ndarray]]] = {"profile": {}, "best": {}}
        for e in self.endings:
            q_oop, q_ip = (CLASS_PRIOR * r for r in self.own_reach(e, reach))
            model = V.model_class_values(self.model_payoffs, e.row, e.seats, q_oop, q_ip, self.win, self.tie)
            for kind, values in (("profile", evaluate), ("best", best)):
                solved = V.solved_class_values(values[e.node], e.contrib)
                worth[kind][e.node] = [np.nan_to_num(solved.role(V.ROLES[r]) - model[r]) for r in (0, 1)]
        zero = np.zeros(N_CLASSES)
        gains = {}
        for seat, position in enumerate(self.spot.positions):
            value = {}
            for kind in ("profile", "best"):
                # a seat's value at an ending is its own correction minus the mean of the other role's,
                # so the table carries the seat's role only (values.corrected_values)
                endings = {e.node: (worth[kind][e.node][0], zero) if e.seats[0] == seat else
                           (zero, worth[kind][e.node][1]) for e in self.endings}
                gain, profile = self._preflop_on(self._table(endings)).exploitability()
                value[kind] = (gain[seat] + profile[seat], profile[seat])
            gains[position] = round(float(value["best"][0] - value["profile"][1]), 6)
        return {"iteration": self.iteration, "gain_bb": gains}

    def fitting_gaps(self, table: EndingCorrections, evaluate: Measured | None = None) -> list[dict[str, Any]]:
        """Per ending, on its fitting flops under the average profile (preflop and postflop; ``evaluate``:
        the first of :meth:`profile_measurements`, taken from the resident solves if None): the mean
        absolute gap (bb, :func:`pokerlab.solved.values.valuation_gap`) between the solved class values
        and the model's (``model_gap_bb``), and the model plus ``table``'s (``gap_fitting_bb``), with the
        conservation residual of those flops; the ranges valued as the exchange values them
        (:func:`pokerlab.solved.loop.valued_ranges`)."""
        if evaluate is None:
            evaluate = self.profile_measurements()[0]
        reach = self.preflop.reach_under(self.preflop.average_sigma())
        rows = []
        for e in self.endings:
            q_oop, q_ip = valued_ranges(self.settings.estimator, *self.own_reach(e, reach), self.settings.floor_weight)
            model = V.model_class_values(self.model_payoffs, e.row, e.seats, q_oop, q_ip, self.win, self.tie)
            solved = V.solved_class_values(evaluate[e.node], e.contrib)
            gap, model_gap = V.valuation_gaps(model, table.endings[e.node], solved, q_oop, q_ip)
            rows.append({"node": e.node, "flops": [f.board for f in e.flops],
                         "model_gap_bb": round(model_gap, 6), "gap_fitting_bb": round(gap, 6),
                         "residual_bb": round(V.corrections(solved, model, q_oop, q_ip)[2], 6)})
        return rows

    def averaged_table(self, provenance: dict[str, Any]) -> EndingCorrections:
        """The corrections averaged over the exchanges of the run's second half (the last ones if
        none was summed yet), with ``provenance`` and what this solve adds to it."""
        if self.summed:
            endings = {n: (s[0] / self.summed, s[1] / self.summed) for n, s in self.correction_sums.items()}
        else:
            endings = dict(self.corrections)
        meta = {**provenance, "method": "exchange", "base_postflop": dataclasses.asdict(self.base.postflop),
                "sizing_sha256": sizing_digest(self.tree.sizing), "settings_sha256": self.settings.sha256(),
                "iterations": self.iteration, "exchange_every": self.settings.exchange_every,
                "exchanges_averaged": self.summed, "flop_subset_sha256": self.boards_sha256}
        return EndingCorrections(self.spot.name, endings, meta)

    def run(self, until: int, checkpoint: str | os.PathLike | None = None, checkpoint_seconds: float = 1800.0) -> None:
        """Exchange until ``until`` preflop iterations, saving to ``checkpoint`` every
        ``checkpoint_seconds`` and at the end."""
        last_save = time.perf_counter()
        while self.iteration < until:
            row = self.exchange(min(self.settings.exchange_every, until - self.iteration))
            if measured_after(len(self.history), self.iteration, until):
                self.record_profile(row)
            self.log_row(row, until)
            if checkpoint is not None and time.perf_counter() - last_save > checkpoint_seconds:
                self.save(checkpoint)
                last_save = time.perf_counter()
        if checkpoint is not None:
            self.save(checkpoint)

    def use_second_half_average(self) -> None:
        """Make the preflop average strategy that of the iterations since :meth:`preflop_step` kept the
        sums (the second half, which the averaged table's exchanges span): the sums less the kept ones,
        exact as sums of ``t * reach * strategy``. The regrets, and so the current strategy, stay."""
        if self.sums_at_half is None:
            raise ValueError("exchange.average: second_half, but the run never passed its half-way point")
        state = self.preflop.state()
        self.preflop.load_state({**state, **{k: state[k] - v for k, v in self.sums_at_half.items()}})
        self.sums_at_half = None

    def record_profile(self, row: dict[str, Any], measured: tuple[Measured, Measured] | None = None) -> None:
        """Add the joint exploitability (``measured``: as :meth:`joint_exploitability` takes it) and the
        average strategy's change since the last such row to history ``row``."""
        row["joint_gain_bb"] = self.joint_exploitability(measured)["gain_bb"]
        sigma = self.preflop.average_sigma()
        if self.measured_sigma is not None:
            row["average_change"] = sigma_change(self.tree, sigma, self.measured_sigma, self.preflop.reach_under(sigma))
        self.measured_sigma = sigma

    def minutes_left(self, until: int, recent: int = 5) -> float:
        """Wall minutes to iteration ``until`` at the pace of the last ``recent`` exchanges (their mean
        ``wall_seconds``); 0 when there is none left or no exchange to time."""
        rows = self.history[-recent:]
        if not rows or self.iteration >= until:
            return 0.0
        exchanges = -(-(until - self.iteration) // self.settings.exchange_every)
        return exchanges * sum(r["wall_seconds"] for r in rows) / len(rows) / 60.0

    def log_row(self, row: dict[str, Any], until: int) -> None:
        if self.log is not None:
            left = self.minutes_left(until)
            print(f"{self.spot.name}: iteration {row['iteration']}/{until}: corrections moved "
                  f"{row['correction_change_bb']:.3f} bb, gap {row['gap_before_bb']:.3f} bb "
                  f"({row['wall_seconds']:.1f} s" + (f"; about {left:.0f} min left at this pace)" if left else ")")
                  + (f", joint exploitability {row['joint_gain_bb']} bb" if "joint_gain_bb" in row else ""),
                  file=self.log, flush=True)

    # --- state --------------------------------------------------------------------------------

    def _fingerprint(self) -> str:
        """What a saved state must match to be continued: everything but the iteration budget, so a
        longer run continues a shorter one."""
        exchange = {"every": self.settings.exchange_every}
        if self.settings.exchange_postflop != self.settings.exchange_every:
            exchange["postflop_every"] = self.settings.exchange_postflop
        raw = {**self.settings.raw, "exchange": exchange}
        return json.dumps({"spot": self.spot.name, "settings": settings_sha256(raw), "boards": self.boards_sha256,
                           "endings": [[e.node, [f.board for f in e.flops]] for e in self.endings],
                           "postflop_inside": self.resident}, sort_keys=True)

    def save(self, path: str | os.PathLike) -> None:
        """Write the whole state (a NumPy ``.npz``, atomically), one postflop solve's arrays at a time so
        that saving needs memory for one solve's state on top of the run's, not for all of them."""
        meta = {"version": STATE_VERSION, "fingerprint": self._fingerprint(), "summed": self.summed,
                "history": self.history}
        write_npz_streamed(path, self._state_arrays(meta))

    def _state_arrays(self, meta: dict[str, Any]) -> Iterator[tuple[str, np.ndarray]]:
        yield from ((f"preflop/{name}", array) for name, array in self.preflop.state().items())
        for i, e in enumerate(self.endings):
            yield from ((f"d/{i}/oop", self.corrections[e.node][0]), (f"d/{i}/ip", self.corrections[e.node][1]),
                        (f"dsum/{i}/oop", self.correction_sums[e.node][0]),
                        (f"dsum/{i}/ip", self.correction_sums[e.node][1]))
            for j, f in enumerate(e.flops):
                if f.solver is None:
                    continue
                yield from ((f"post/{i}/{j}/{name}", array) for name, array in f.solver.state().items())
                yield from ((f"post/{i}/{j}/weights{p}", f.solver.weights[p]) for p in (0, 1))
                yield f"post/{i}/{j}/iterations", np.array(f.solver.iterations)
        if self.measured_sigma is not None:
            yield "measured_sigma", self.measured_sigma
        for name, array in (self.sums_at_half or {}).items():
            yield f"sums_at_half/{name}", array
        yield "meta", np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)

    def load(self, path: str | os.PathLike) -> bool:
        """Continue from :meth:`save`'s file if it exists and was written by this spot, settings and
        flop subset; returns whether it did."""
        if not Path(path).exists():
            return False
        with np.load(path) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if meta.get("version") != STATE_VERSION or meta.get("fingerprint") != self._fingerprint():
                if self.log is not None:
                    print(f"{path}: written by other settings or another plan; starting afresh", file=self.log,
                          flush=True)
                return False
            for i, e in enumerate(self.endings):
                self.corrections[e.node] = (data[f"d/{i}/oop"].copy(), data[f"d/{i}/ip"].copy())
                self.correction_sums[e.node] = (data[f"dsum/{i}/oop"].copy(), data[f"dsum/{i}/ip"].copy())
                for j, f in enumerate(e.flops):
                    if f.solver is None:
                        continue
                    prefix = f"post/{i}/{j}/"
                    f.solver.load_state({k[len(prefix):]: data[k] for k in data.files
                                         if k.startswith(prefix) and k[len(prefix):] not in WEIGHTS_AND_COUNT})
                    weights = [np.zeros(1326), np.zeros(1326)]
                    for p in (0, 1):
                        weights[p][f.solver.hands[p]] = data[f"{prefix}weights{p}"]
                    f.solver.set_ranges(tuple(weights))
                    f.solver.iterations = int(data[f"post/{i}/{j}/iterations"])
            self.preflop.load_state({k[len("preflop/"):]: data[k] for k in data.files if k.startswith("preflop/")})
            self.measured_sigma = data["measured_sigma"].copy() if "measured_sigma" in data.files else None
            kept = {k[len("sums_at_half/"):]: data[k].copy() for k in data.files if k.startswith("sums_at_half/")}
            self.sums_at_half = kept or None
        self.summed, self.history = int(meta["summed"]), list(meta["history"])
        self._rebuild_preflop()
        return True


def write_outputs(solve: JointSolve, provenance: dict[str, Any], table_path: str | os.PathLike,
                  chart_path: str | os.PathLike, report_path: str | os.PathLike,
                  evaluate: Measured | None = None) -> dict[str, Any]:
    """The run's outputs: the averaged corrections (:meth:`JointSolve.averaged_table`) and beside them
    their start (the preflop state at the last iteration, its average over the second half under
    ``exchange.average: second_half``, :func:`~pokerlab.preflop.ending_corrections.start_path`:
    a solve under the table continues it, so the two ship together), the chart (the
    preflop average strategy, judged by its joint exploitability, its values read under the averaged
    table; its nodes are written whatever its status, as a measurement) and the report (the exchange
    history, the joint exploitability and each ending's valuation gaps on its fitting flops, from
    ``evaluate`` if given: see :meth:`JointSolve.fitting_gaps`)."""
    table = solve.averaged_table(provenance)
    last_row = solve.history[-1] if solve.history else {}
    if solve.settings.exchange_average == "second_half":
        # the chart averages the second half: its joint exploitability and fitting gaps are measured anew
        solve.use_second_half_average()
        gains, evaluate = solve.joint_exploitability()["gain_bb"], None
    else:
        gains = last_row.get("joint_gain_bb") or solve.joint_exploitability()["gain_bb"]
    last = {"iterations": solve.iteration, "exploitability_bb": max(gains.values()), "exploitability_per_seat": gains}
    reader = solve._preflop_on(table)
    settings = dataclasses.replace(solve.base, model="solved", solved_tables=str(Path(table_path).parent))
    chart = result_document(solve.spot, solve.tree, settings, reader,
                            {"model": "chip_ev", "unit": "bb"}, table, solve.win, solve.tie, [last], last,
                            nodes=True)
    chart["settings"]["solved_method"] = {"method": "exchange", "every": solve.settings.exchange_every,
                                          "exploitability": "joint, over the fitting flops"}
    report = {"spot": solve.spot.name, "iterations": solve.iteration, "exploitability_per_seat": gains,
              "exchanges_averaged": solve.summed, "endings": solve.fitting_gaps(table, evaluate), "history": solve.history}
    write_ending_corrections(table_path, table)
    write_solved_start(start_path(table_path), reader.state(), table,
                       {"method": "exchange", "joint_exploitability_per_seat": gains})
    write_result(chart_path, chart)
    write_json_atomic(report_path, report)
    return report


PROCESS_MB = 2000
"""What the exchange's process holds besides its postflop solves (MB): the interpreter and compiled code,
the preflop solver, the measurements' frames."""


def write_memory_report(solve: JointSolve, path: str | os.PathLike) -> dict[str, Any]:
    """What the in-process exchange of ``solve`` (built ``resident=False``) will hold, written to ``path``
    (JSON): each fitting flop's postflop solver in MiB (:meth:`JointSolve.flop_memory_bytes`), their sum,
    the largest, and ``job_mem_mb``, the memory its job asks for: every solve resident, one more solve's
    state while the checkpoint writes it (the state file is written one solve at a time), and
    :data:`PROCESS_MB`."""
    per_flop = solve.flop_memory_bytes()
    total, largest = sum(per_flop.values()), max(per_flop.values(), default=0)
    report = {"spot": solve.spot.name, "flops_mib": {k: round(v / 2**20, 1) for k, v in per_flop.items()},
              "resident_mib": round(total / 2**20, 1), "largest_flop_mib": round(largest / 2**20, 1),
              "job_mem_mb": int(np.ceil((total + largest) / 2**20)) + PROCESS_MB}
    write_json_atomic(path, report)
    return report


def job_mem_mb(memory_report: str | os.PathLike) -> int:
    """The ``job_mem_mb`` of a report :func:`write_memory_report` wrote (an error names the file).
    ``FileNotFoundError`` (with the path as given) while the report is not written yet: Snakemake then
    leaves the job's resource to be evaluated once its input exists."""
    if not os.path.exists(memory_report):
        raise FileNotFoundError(errno.ENOENT, "exchange memory report not written yet", memory_report)
    report = read_json(memory_report, "exchange memory report")
    value = report.get("job_mem_mb") if isinstance(report, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ValueError(f"{memory_report}: job_mem_mb must be a positive whole number of MB, got {value!r};"
                         " delete the file to have it measured again")
    return value
