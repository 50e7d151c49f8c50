"""Solving one spot until it clears its bar: schedule, resumable state and the result document.

The solve runs CFR+ to each checkpoint of the schedule (default 400, 1,200, 3,000 cumulative
iterations, warm continuation), measures the exact exploitability of the average strategy at
each, and stops at the first checkpoint where it is at most the bar
``bar_coefficient * sqrt(seats / 2)`` bb/hand. A spot that never clears is ``rejected``: the
result keeps its last figure and carries no read-out (no chart is made from it).

Resumption: the solver state (regrets, strategy sums, iteration, measurements so far) is saved
every ``save_every`` iterations and at each checkpoint, tagged with a fingerprint of everything
that determines the iterates (spot, sizing, postflop model, tables, restriction, payoffs, code
version and the solver's :data:`~pokerlab.preflop.solver.ARITHMETIC_VERSION`); a state with
another fingerprint is ignored and the solve starts over. The schedule
and the bar only decide where the iterates are measured and where the solve stops, so a state
also serves another schedule as long as the solve under that schedule would not have stopped
at, or measured at, an iteration the state has already passed (:func:`_state_serves`): a spot
rejected at 3,000 and re-run with ``400,1200,3000,6000`` continues from 3,000. A solve restarted
from a saved state computes exactly the same floating-point operations as an uninterrupted one,
so its ``result.json`` has the same bytes. Results hold no times or host names.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import warnings
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from pokerlab import __version__
from pokerlab.equity_combos import ComboEquityTable, load_combo_table
from pokerlab.equity_table import load_equity_table, table_digest
from pokerlab.icm import PayoutStructure, load_payouts
from pokerlab.io import check_writable, compact_json_bytes, deterministic_npz_bytes, write_bytes_atomic
from pokerlab.preflop.class_edges import ClassEdges, read_class_table
from pokerlab.preflop.combos import COMBO_SEATS, HANDS, ComboDeck, combo_solver, read_out_combos
from pokerlab.preflop.ending_corrections import (EndingCorrections, read_ending_corrections, read_solved_start,
                                                 start_path)
from pokerlab.preflop.payoffs import AggressorEdge, PostflopModel, chip_ev_payoffs, read_postflop_constants
from pokerlab.preflop.readout import Readout, read_out
from pokerlab.preflop.result_file import write_result
from pokerlab.preflop.solver import ARITHMETIC_VERSION, Solver
from pokerlab.preflop.solver_icm import ICM_FORMATS, make_solver
from pokerlab.preflop.spot import Sizing, Spot, load_sizing, spot_name
from pokerlab.preflop.tree import build_tree

MODELS = ("v1", "v2", "solved")
"""Postflop model versions (``solve.postflop.model``)."""

# Published floats are rounded so that the bytes never hinge on the last ulp: per-class arrays
# to 1e-6 (probabilities) and 1e-5 bb (EVs), spot-level figures (exploitability, shares) to 1e-10.
ARRAY_DECIMALS = 6
EV_DECIMALS = 5
FIGURE_DECIMALS = 10


def postflop_constants_file(postflop: dict[str, Any], results: str = "results") -> str | None:
    """The postflop-constants file the solves read: ``solve.postflop.file`` with ``source: file``, the
    fit's output under ``results`` with ``source: fit``, else None (the constants of the section)."""
    source = postflop.get("source", "config")
    return {"file": postflop.get("file", ""), "fit": f"{results}/fit/constants.json"}.get(source)


@dataclass(frozen=True)
class SolveSettings:
    """How a spot is solved: postflop model, checkpoint schedule and the bar."""

    postflop: PostflopModel = field(default_factory=PostflopModel)
    checkpoints: tuple[int, ...] = (400, 1200, 3000)
    bar_coefficient: float = 0.010
    save_every: int = 200
    # where the postflop constants came from when not written in the config: {"source", "path",
    # "sha256"}; recorded in the result's settings (None for constants from the config itself)
    postflop_source: dict[str, str] | None = None
    # postflop model version: "v1" (the seat-level edge) or "v2" (plus the class table's deviations,
    # pokerlab.preflop.class_edges); v1 results carry no trace of it, so their bytes are unchanged
    model: str = "v1"
    class_edges: ClassEdges | None = None
    # the optional aggressor term (off by default): flat edges by whether the last preflop raiser is in position
    aggressor: AggressorEdge | None = None
    # model "solved": the folder of per-spot solved-ending tables (pokerlab.preflop.ending_corrections),
    # one file per spot (solved_table_name), each with its start if one lies beside it; a spot without
    # a table is solved as v1, with v1's bytes
    solved_tables: str | None = None
    # SHA-256 of the config's measuring settings (section solved, pokerlab.solved.settings): a table
    # measured with other settings is refused; None skips that check (a table read on its own)
    solved_settings_sha256: str | None = None
    # a seat's hand: one of the 169 classes (no card removal between seats) or one of the 1,326 combos
    # (card removal, pokerlab.preflop.combos: 2 or 3 seats, chip formats, model v1); classes leave no trace in the result
    hands: str = "classes"

    def __post_init__(self) -> None:
        if self.hands not in HANDS:
            raise ValueError(f"solve.hands: {self.hands!r}; expected one of {list(HANDS)}")
        if self.hands == "combos" and self.model != "v1":
            raise ValueError(f"solve.hands: combos takes postflop model v1, not {self.model!r} (its class deviations "
                             "and solved endings are per class)")
        if self.model not in MODELS:
            raise ValueError(f"solve.postflop.model: {self.model!r}; expected one of {list(MODELS)}")
        if (self.model == "v2") != (self.class_edges is not None):
            raise ValueError("solve.postflop.class_table: model v2 needs a class table (and v1 takes none)")
        if (self.model == "solved") != (self.solved_tables is not None):
            raise ValueError("solve.postflop.solved_tables: model solved needs the folder of solved-ending tables "
                             "(and the other models take none)")
        cps = tuple(self.checkpoints)
        if not cps or any(isinstance(c, bool) or not isinstance(c, int) or c < 1 for c in cps) or list(cps) != sorted(set(cps)):
            raise ValueError(f"checkpoints: {self.checkpoints!r} must be strictly increasing positive integers")
        object.__setattr__(self, "checkpoints", cps)
        if not (isinstance(self.bar_coefficient, (int, float)) and math.isfinite(self.bar_coefficient) and self.bar_coefficient >= 0):
            raise ValueError(f"bar_coefficient: {self.bar_coefficient!r} must be a number >= 0 (bb)")
        if not isinstance(self.save_every, int) or self.save_every < 1:
            raise ValueError(f"save_every: {self.save_every!r} must be a positive integer")

    @classmethod
    def from_config(cls, section: dict[str, Any], constants_path: str | os.PathLike | None = None,
                    solved_sha256: str | None = None) -> "SolveSettings":
        """From the ``solve`` section of the workflow config.

        ``solve.postflop.source``: ``config`` (default) takes a, b, c2, cap from the section;
        ``file`` and ``fit`` read them from a constants file written by the fitting run
        (``constants_path``: ``solve.postflop.file``, or ``results/fit/constants.json``).
        ``solve.postflop.model``: ``v1`` (default) or ``v2``, which reads the class table named by
        ``solve.postflop.class_table`` (:func:`pokerlab.preflop.class_edges.read_class_table`), or
        ``solved``, which reads each spot's solved-ending table from the folder
        ``solve.postflop.solved_tables`` (:meth:`solved_endings`); ``solved_sha256`` is the digest of the
        config's measuring settings the tables must have been measured with.
        """
        postflop = dict(section["postflop"])
        source = postflop.pop("source", "config")
        postflop.pop("file", None)
        model = postflop.pop("model", "v1")
        table = postflop.pop("class_table", None)
        aggressor = postflop.pop("aggressor", None)
        solved_tables = postflop.pop("solved_tables", None)
        hands = section.get("hands", "classes")
        if model not in MODELS:
            raise ValueError(f"solve.postflop.model: {model!r}; expected one of {list(MODELS)}")
        version = {}
        if model == "v2":
            if not table:
                raise ValueError("solve.postflop.class_table: model v2 needs the path of a class table")
            version = {"model": "v2", "class_edges": read_class_table(table)}
        if model == "solved":
            if not solved_tables:
                raise ValueError("solve.postflop.solved_tables: model solved needs the folder of solved-ending tables")
            if not Path(solved_tables).is_dir():
                raise ValueError(f"solve.postflop.solved_tables: {solved_tables} is not a folder")
            version = {"model": "solved", "solved_tables": str(solved_tables), "solved_settings_sha256": solved_sha256}
        if aggressor is not None:
            if not isinstance(aggressor, dict) or set(aggressor) != {"in_position", "out_of_position"}:
                raise ValueError(f"solve.postflop.aggressor: {aggressor!r}; expected in_position and out_of_position")
            version["aggressor"] = AggressorEdge(**aggressor)
        if hands != "classes":
            version["hands"] = hands
        if source == "config":
            return cls(postflop=PostflopModel(**postflop), checkpoints=tuple(section["checkpoints"]),
                       bar_coefficient=float(section["bar_coefficient"]), **version)
        if constants_path is None:
            raise ValueError(f"solve.postflop.source: {source!r} needs the constants file")
        from pokerlab.io import sha256_file

        return cls(postflop=read_postflop_constants(constants_path), checkpoints=tuple(section["checkpoints"]),
                   bar_coefficient=float(section["bar_coefficient"]),
                   postflop_source={"source": source, "path": Path(constants_path).as_posix(),
                                    "sha256": sha256_file(constants_path)}, **version)

    def solved_endings(self, spot: Spot, sizing: dict) -> EndingCorrections | None:
        """The solved-ending table of ``spot`` under model ``solved`` (None: the model is another one,
        or the folder has no table for the spot), with its start (``{table}.start.npz``) if one lies beside it.
        A table measured for another spot, sizing schedule, base constants or measuring settings is
        refused, naming the difference, and so is a start written with other corrections."""
        if self.model != "solved":
            return None
        path = Path(self.solved_tables) / solved_table_name(spot)
        if not path.exists():
            return None
        table = read_ending_corrections(path)
        where = f"solved endings table {path.as_posix()}"
        p = table.provenance
        if table.spot != spot.name:
            raise ValueError(f"{where}: measured for {table.spot}, not {spot.name}")
        if p.get("base_postflop") != asdict(self.postflop):
            raise ValueError(f"{where}: measured against the model constants {p.get('base_postflop')}, but this solve "
                             f"uses {asdict(self.postflop)}; re-measure it (see its provenance's command)")
        if p.get("sizing_sha256") != sizing_digest(sizing):
            raise ValueError(f"{where}: measured on another sizing schedule; re-measure it (see its provenance's command)")
        if self.solved_settings_sha256 is not None and p.get("settings_sha256") != self.solved_settings_sha256:
            raise ValueError(f"{where}: measured with solved settings {p.get('settings_sha256')}, but the config's "
                             f"solved section is {self.solved_settings_sha256}; re-measure it (see its provenance's "
                             "command) or restore the settings it was measured with")
        if start_path(path).exists():
            table = replace(table, start=read_solved_start(start_path(path), table))
        return table

    def check_hands(self, spot: Spot) -> None:
        """``ValueError`` naming the spot when its table size or format has no combo mode."""
        if self.hands != "combos":
            return
        if spot.seats not in COMBO_SEATS:
            raise ValueError(f"solve.hands: combos solves {' or '.join(map(str, COMBO_SEATS))}-seat spots; "
                             f"{spot_name(spot.format, spot.seats, spot.depth)} has {spot.seats} seats "
                             "(set solve.hands: classes for it)")
        if spot.format in ICM_FORMATS:
            raise ValueError(f"solve.hands: combos solves chip formats; {spot.format!r} is valued by ICM")

    def bar_bb(self, seats: int) -> float:
        """The exploitability a chart must reach, bb/hand: coefficient * sqrt(seats / 2)."""
        return self.bar_coefficient * math.sqrt(seats / 2)


def _rounded(array: np.ndarray, decimals: int = ARRAY_DECIMALS) -> list:
    """Nested lists of floats rounded to ``decimals``; NaN (undefined) becomes None."""
    out = np.round(np.asarray(array, dtype=np.float64), decimals) + 0.0  # +0.0 folds -0.0
    nan = np.isnan(out)
    if nan.any():
        out = out.astype(object)
        out[nan] = None
    return out.tolist()


def solved_table_name(spot: Spot) -> str:
    """File name of a spot's solved-ending table: ``cash-2max-100bb.tsv``."""
    return spot.name.replace("/", "-") + ".tsv"


def sizing_digest(sizing: dict) -> str:
    """SHA-256 of a tree's sizing schedule (its sorted-key JSON)."""
    return hashlib.sha256(json.dumps(sizing, sort_keys=True).encode()).hexdigest()


def _round(x: float) -> float:
    return round(float(x), FIGURE_DECIMALS) + 0.0


def _fingerprint(spot: Spot, sizing: dict, settings: SolveSettings, win: np.ndarray, tie: np.ndarray, shove_or_fold: bool,
                 payoff: dict, solved: EndingCorrections | None, combo_table: ComboEquityTable | None = None) -> str:
    digest = hashlib.sha256()
    what = {"spot": asdict(spot), "sizing": sizing, "postflop": asdict(settings.postflop),
            "shove_or_fold": shove_or_fold, "tables": fingerprint_tables(win, tie), "payoff": payoff, "code": __version__,
            "arithmetic": ARITHMETIC_VERSION}
    what.update(_model_settings(settings, solved))  # v2 and solved only: the model and its table's digest
    what.update(_hands_settings(settings, combo_table))  # combos only
    digest.update(json.dumps(what, sort_keys=True).encode())
    return digest.hexdigest()


def _hands_settings(settings: SolveSettings, combo_table: ComboEquityTable | None) -> dict[str, Any]:
    """What a result records of ``solve.hands`` (nothing for classes: their bytes stay as they were):
    ``combos`` and the SHA-256 of the combo table's counts."""
    if settings.hands == "classes":
        return {}
    return {"hands": settings.hands, "combo_table_sha256": table_digest(combo_table.wins, combo_table.ties)}


def _model_settings(settings: SolveSettings, solved: EndingCorrections | None) -> dict[str, Any]:
    """What a result records of the optional model parts (nothing for plain v1: its bytes stay as
    they were): the aggressor term's edges when it is on and, under v2, the version and the class
    table's provenance (path, SHA-256 of the file, its notes, bands) with the SHA-256 of its deviations;
    under ``solved`` with a table for the spot, the table's provenance, its endings and the SHA-256 of its
    corrections (a spot without a table is solved as v1 and records nothing). The same entries enter the
    state fingerprint."""
    out = {} if settings.aggressor is None else {"postflop_aggressor": asdict(settings.aggressor)}
    if settings.model == "solved" and solved is not None:
        start = {} if solved.start is None else {"start": {
            **{k: v for k, v in solved.start.record.items() if k not in ("spot", "corrections_sha256")},
            "sha256": solved.start.sha256}}
        return {**out, "postflop_model": "solved",
                "solved_endings": {**solved.provenance, "endings": list(solved.endings),
                                   "corrections_sha256": solved.digest(), **start}}
    if settings.model in ("v1", "solved"):
        return out
    edges = settings.class_edges
    digest = hashlib.sha256(np.ascontiguousarray(np.r_[edges.ip, edges.oop]).tobytes()).hexdigest()
    return {**out, "postflop_model": settings.model,
            "class_table": {**edges.provenance, "bands": [[lo, None if math.isinf(hi) else hi] for lo, hi in edges.bands],
                            "deviations_sha256": digest}}


def _save_state(path: Path, solver: Solver, fingerprint: str, history: list[dict]) -> None:
    """Write the solver state, deflated at zlib level 1: a 9-handed 100bb state goes from 41 MB to
    19 MB in half a CPU-second (regrets floored at zero compress; level 6 saves 2% more in twice the time)."""
    arrays = {"fingerprint": np.array(fingerprint), "history": np.array(json.dumps(history)), **solver.state()}
    write_bytes_atomic(path, deterministic_npz_bytes(arrays, compresslevel=1))


def _state_serves(iteration: int, history: list[dict], checkpoints: tuple[int, ...], bar: float) -> bool:
    """Whether a state saved at ``iteration`` with measurements ``history`` can continue a solve
    with this schedule and bar and give the bytes of a fresh one: every checkpoint at or before
    the state's iteration must have been measured, and the checkpoint where this schedule stops
    (the first that clears the bar, else the last) must not lie behind the state (the read-out is
    of the average strategy *at* the stop)."""
    measured = {h["iterations"]: h["exploitability_bb"] for h in history}
    for target in checkpoints:
        if target > iteration:
            return True
        if target not in measured:
            return False
        if measured[target] <= bar:
            return target == iteration
    return checkpoints[-1] == iteration  # the schedule ends behind or at the state, rejected there


def _load_state(path: Path, solver: Solver, fingerprint: str, checkpoints: tuple[int, ...], bar: float) -> list[dict] | None:
    """Restore a saved state into ``solver``; None (and nothing restored) if it is for another
    solve or cannot continue this schedule (:func:`_state_serves`), or if it cannot be read
    (truncated, empty, not an ``.npz``, a key missing or of the wrong shape): then a warning names
    the file and the solve starts over, as for another solve's state."""
    try:
        with np.load(path, allow_pickle=False) as data:
            stored = data["fingerprint"]
            if not isinstance(stored, np.ndarray):  # a zip member that is not an .npy array
                raise ValueError("'fingerprint' is not an array")
            if str(stored) != fingerprint:
                return None
            history = json.loads(str(data["history"]))
            iteration = int(data["iteration"])
            if not (isinstance(history, list) and all(isinstance(h, dict) and isinstance(h.get("iterations"), int)
                                                      and isinstance(h.get("exploitability_bb"), float) for h in history)):
                raise ValueError("history is not a list of measurements")
            if not _state_serves(iteration, history, checkpoints, bar):
                return None
            solver.load_state({k: data[k] for k in data.files if k not in ("fingerprint", "history")})
            return history
    except Exception as exc:  # noqa: BLE001 - any unreadable state means: start over
        warnings.warn(f"solver state {path}: unreadable ({type(exc).__name__}: {exc}); starting the solve over",
                      stacklevel=2)
        return None


def _readout_document(readout: Readout, spot: Spot) -> list[dict]:
    names = spot.positions
    return [{
        "id": node.id,
        "actor": names[node.actor],
        "actions": list(node.actions),
        "capped": node.capped,
        "reach": _round(node.reach),
        "shares": dict(zip(node.actions, (_round(x) for x in node.action_shares()))),
        "strategy": dict(zip(node.actions, _rounded(node.strategy.T))),
        "ev_bb": dict(zip(node.actions, _rounded(node.action_ev.T, EV_DECIMALS))),
        "arrive_with": _rounded(node.arrive_with),
    } for node in readout.nodes]


def solve_spot(spot: Spot, sizing: Sizing, win: np.ndarray, tie: np.ndarray, settings: SolveSettings | None = None,
               state_path: str | os.PathLike | None = None, shove_or_fold: bool = False,
               progress: Callable[[int, float | None], None] | None = None,
               payouts: dict[str, PayoutStructure] | None = None,
               combo_table: ComboEquityTable | None = None) -> dict[str, Any]:
    """Solve ``spot`` until it clears its bar (or the schedule ends); return the result document.

    ``win``/``tie``: the 169x169 showdown tables. ``state_path``: where the resumable state is
    kept (resumed from if it holds a state of this very solve). Under a solved-ending table with a
    start, the solve takes the start's state and judges it as it stands (:func:`checkpoint_schedule`).
    ``progress(iteration, figure)``
    is called every ``save_every`` iterations (figure None) and at each checkpoint. ``payouts``:
    the ICM payout structures (default ``pokerlab/data/payouts.yaml``; chip formats ignore them).
    ``combo_table``: the 1,326 x 1,326 table, which ``solve.hands: combos`` solves over (``win``/``tie``
    then only enter the fingerprint).
    """
    settings = settings or SolveSettings()
    settings.check_hands(spot)
    tree = build_tree(spot, sizing, shove_or_fold=shove_or_fold)
    solved = settings.solved_endings(spot, tree.sizing)
    if settings.hands == "combos":
        if combo_table is None:
            raise ValueError("solve.hands: combos needs the combo equity table (rule equity_combos)")
        solver = combo_solver(tree, chip_ev_payoffs(tree, settings.postflop, aggressor=settings.aggressor),
                              ComboDeck.full(combo_table))
        payoff = {"model": "chip_ev", "unit": "bb"}
    else:
        solver, payoff = make_solver(tree, settings.postflop, win, tie, payouts,  # chip EV or ICM, by format
                                     classes=settings.class_edges, aggressor=settings.aggressor, solved=solved)
    fingerprint = _fingerprint(spot, tree.sizing, settings, win, tie, shove_or_fold, payoff, solved, combo_table)
    start = solved.start if solved is not None else None
    schedule = checkpoint_schedule(settings.checkpoints, start.iteration if start is not None else 0)
    state_path = Path(state_path) if state_path is not None else None
    history: list[dict] = []
    bar = settings.bar_bb(spot.seats)
    if state_path is not None and state_path.exists():
        history = _load_state(state_path, solver, fingerprint, schedule, bar) or []  # else start over
    if not history and start is not None:
        solver.load_state(start.state)
    measured = {h["iterations"]: h for h in history}
    history = [h for h in history if h["iterations"] in schedule]  # what this schedule measures
    last: dict = {}
    for target in schedule:
        if target in measured:
            last = measured[target]
        else:
            while solver.iteration < target:
                solver.iterate(min(settings.save_every - solver.iteration % settings.save_every, target - solver.iteration))
                if state_path is not None and solver.iteration < target:
                    _save_state(state_path, solver, fingerprint, history)
                if progress is not None and solver.iteration < target:
                    progress(solver.iteration, None)
            gains, _ = solver.exploitability()
            last = {"iterations": target, "exploitability_bb": _round(gains.max()),
                    "exploitability_per_seat": dict(zip(spot.positions, (_round(g) for g in gains)))}
            history.append(last)
            if state_path is not None:
                _save_state(state_path, solver, fingerprint, history)
            if progress is not None:
                progress(target, last["exploitability_bb"])
        if last["exploitability_bb"] <= bar:
            break
    return result_document(spot, tree, settings, solver, payoff, solved, win, tie, history, last, shove_or_fold,
                           combo_table=combo_table)


def checkpoint_schedule(checkpoints: tuple[int, ...], start: int) -> tuple[int, ...]:
    """Where a solve measures its exploitability: from zero, at the checkpoints; from a solved start at
    iteration ``start``, there only. The start's average strategy is the exchange's chart, an equilibrium
    of the joint game; CFR+ continued under the fixed table drifts to another equilibrium of the table's
    game, which the joint game exploits (``tests/test_solved_reference.py``), so a start is shipped or
    rejected as it stands."""
    return checkpoints if start == 0 else (start,)


def result_document(spot: Spot, tree, settings: SolveSettings, solver, payoff: dict, solved: EndingCorrections | None,
                    win: np.ndarray, tie: np.ndarray, history: list[dict], last: dict,
                    shove_or_fold: bool = False, nodes: bool | None = None,
                    combo_table: ComboEquityTable | None = None) -> dict[str, Any]:
    """The result document of ``solver``'s average strategy: ``last`` is the measurement it is judged by
    (``iterations``, ``exploitability_bb``, ``exploitability_per_seat``), ``history`` every one made.
    ``nodes``: whether the per-node read-out is included (None: when the result ships); ``combo_table``:
    the 1,326 table a ``solve.hands: combos`` solve ran over."""
    bar = settings.bar_bb(spot.seats)
    shipped = last["exploitability_bb"] <= bar
    readout = read_out_combos(solver) if settings.hands == "combos" else read_out(solver)
    result: dict[str, Any] = {
        "spot": {"format": spot.format, "seats": spot.seats, "depth_bb": spot.depth, "ante_bb": spot.ante,
                 "positions": list(spot.positions), "shove_or_fold": shove_or_fold},
        "sizing": tree.sizing,
        "settings": {"postflop": asdict(settings.postflop), "checkpoints": list(settings.checkpoints),
                     "bar_coefficient": settings.bar_coefficient, "update_scheme": "alternating",
                     "averaging": "linear (weight = iteration)", "payoff": payoff,
                     **({"postflop_source": settings.postflop_source} if settings.postflop_source else {}),
                     **_model_settings(settings, solved), **_hands_settings(settings, combo_table)},
        "tree": tree.counts(),
        "status": "shipped" if shipped else "rejected",
        "iterations": last["iterations"],
        "exploitability_bb": last["exploitability_bb"],
        "exploitability_per_seat": last["exploitability_per_seat"],
        "bar_bb": _round(bar),
        "history": history,
        "model_share": _round(readout.model_share),
        "tier_shares": {k: _round(v) for k, v in readout.tier_shares.items()},
        "seat_ev_bb": dict(zip(spot.positions, (_round(v) for v in readout.seat_ev))),
        "inputs": {"tables_sha256": fingerprint_tables(win, tie)},
    }
    if shipped if nodes is None else nodes:
        result["nodes"] = _readout_document(readout, spot)
    return result


def fingerprint_tables(win: np.ndarray, tie: np.ndarray) -> str:
    """SHA-256 of the float64 bytes of the win and tie tables (which tables a solve used)."""
    return table_digest(win, tie)


def result_bytes(result: dict[str, Any]) -> bytes:
    """The canonical bytes of a whole result document, per-class arrays inline: compact JSON
    (:func:`pokerlab.io.compact_json_bytes`). What two solves are compared by; on disk the
    document is split into ``result.json`` and ``result.npz`` (:mod:`pokerlab.preflop.result_file`)."""
    return compact_json_bytes(result)


SOLVE_TIMING = re.compile(r"^solve wall_seconds (\S+) cpu_seconds (\S+)$", re.MULTILINE)
"""The line a solve job writes to a spot's log once the spot is solved (:func:`solve_timing_line`)."""


def solve_timing_line(wall_seconds: float, cpu_seconds: float) -> str:
    """What a solve job logs for one spot: wall and CPU seconds (user + system) of its solve,
    the job's start-up excluded (Snakemake's ``benchmark:`` files sample a job's processes and
    missed about half of a solve's CPU)."""
    return f"solve wall_seconds {wall_seconds:.3f} cpu_seconds {cpu_seconds:.3f}"


def solve_log_path(log_dir: str | os.PathLike, name: str) -> Path:
    """The log of spot ``name`` (``cash/2max/100bb``) in the sweep's ``log_dir`` (``logs/solves``):
    ``cash_2max_100bb.log``, as the solve rules name it."""
    return Path(log_dir) / (name.replace("/", "_") + ".log")


def read_solve_timing(log_path: str | os.PathLike) -> tuple[float, float]:
    """(wall, CPU) seconds of the last :func:`solve_timing_line` in a spot's log; NaN if none."""
    path = Path(log_path)
    found = SOLVE_TIMING.findall(path.read_text(errors="replace")) if path.is_file() else []
    return (float(found[-1][0]), float(found[-1][1])) if found else (float("nan"), float("nan"))


STATE_NAME = "solver_state.npz"
"""The solver state's file name, beside the spot's ``result.json``."""


def default_result_path(spot: Spot) -> str:
    """``results/solves/{format}/{n}max/{depth}bb/result.json``: where the workflow keeps a spot's result."""
    return f"results/solves/{spot.name}/result.json"


def state_path_beside(result_path: str) -> str:
    """The solver state in the folder of ``result_path`` (``./solver_state.npz`` for a bare file name)."""
    return f"{result_path.rsplit('/', 1)[0] if '/' in result_path else '.'}/{STATE_NAME}"


def _removed_marker(state_path: Path) -> Path:
    """The note left where a shipped spot's state was removed (``solver_state.npz.removed``)."""
    return state_path.with_name(state_path.name + ".removed")


def solve_spot_to_file(spot: Spot, table_path: str | os.PathLike, sizing_path: str | os.PathLike | None,
                       settings: SolveSettings, result_path: str | os.PathLike, state_path: str | os.PathLike | None = None,
                       shove_or_fold: bool = False, progress: Callable[[int, float | None], None] | None = None,
                       payouts_path: str | os.PathLike | None = None, keep_state: bool = True,
                       combo_table_path: str | os.PathLike | None = None) -> dict[str, Any]:
    """Load the equity table, the sizing schedule and the payout structures (``payouts_path``,
    default ``pokerlab/data/payouts.yaml``), solve ``spot`` and write ``result.json`` and its arrays
    ``result.npz`` atomically (:func:`pokerlab.preflop.result_file.write_result`; the
    rule and the command line both come here). Inputs, and that the outputs can be written, are
    checked first.

    ``keep_state=False`` removes the solver state once the spot has shipped (a rejected spot keeps
    it, so a longer schedule continues it) and leaves a one-line note in its place; a later solve
    that finds the note instead of a state warns that it starts from iteration 0.
    ``combo_table_path``: the combo equity table, read under ``solve.hands: combos`` only.
    """
    settings.check_hands(spot)
    check_writable(result_path, "result")
    if state_path is not None:
        state_path = Path(state_path)
        check_writable(state_path, "solver state")
        marker = _removed_marker(state_path)
        if marker.exists() and not state_path.exists():
            warnings.warn(f"solver state {state_path}: {marker.read_text().strip()}; solving from iteration 0",
                          stacklevel=2)
    sizing = load_sizing(sizing_path)
    payouts = load_payouts(payouts_path)
    table = load_equity_table(table_path)
    combos = None
    if settings.hands == "combos":
        if combo_table_path is None:
            raise ValueError("solve.hands: combos needs the combo equity table (results/equity/equity_1326.npz)")
        combos = load_combo_table(combo_table_path)
    result = solve_spot(spot, sizing, table.win, table.tie, settings, state_path=state_path,
                        shove_or_fold=shove_or_fold, progress=progress, payouts=payouts, combo_table=combos)
    write_result(result_path, result)
    if state_path is not None:
        marker = _removed_marker(state_path)
        if not keep_state and result["status"] == "shipped" and state_path.exists():
            write_bytes_atomic(marker, f"removed after the spot shipped at {result['iterations']} iterations "
                                       "(solve.keep_states: false)\n".encode())
            state_path.unlink()
        elif marker.exists() and state_path.exists():
            marker.unlink()
    return result
