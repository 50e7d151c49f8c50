"""The exchanging solve as a chain of jobs: one job per exchange for the preflop side and one per
exchange and fitting flop for each postflop solve, so a cluster spreads the flops, memory holds one
postflop solve per job and every finished job is a checkpoint.

It computes what :class:`pokerlab.solved.joint.JointSolve` computes with every postflop solve in one
process, bit for bit. Exchange ``r`` (1-based, :func:`round_iterations` iterations each) is:

- :func:`preflop_round` ``r``: continue from round ``r - 1``'s preflop state, take round ``r - 1``'s
  measurements (the corrections, :meth:`JointSolve.take_measurements`, and at measuring rounds the
  joint exploitability), run the round's preflop iterations and write the ranges the postflop solves
  take (the seats' own reach per class at each re-valued ending: of the current strategy, and at a
  measuring round also of the average one);
- :func:`flop_round` ``r`` for every fitting flop: continue from its round ``r - 1`` state (a temporary
  file of ``.npy`` records, :func:`pokerlab.io.write_arrays`, read straight into the solver), take those
  ranges, run its postflop iterations (``SolvedSettings.postflop_iterations``: as many as the preflop
  side, or ``exchange.postflop_every``) and write its per-combo values under its current strategy (and
  at a measuring round, under the average ranges, its average strategy and the best response to it);
- after the last round, :func:`finish` takes the last measurements and writes the table, the chart and
  the report as :func:`pokerlab.solved.joint.write_outputs` does.

The held-out flops can run the same rounds (:func:`flop_round` takes their keys too): they take each
round's ranges and iterate like the fitting flops, but no preflop round reads them. :func:`round_gaps`
then gives, round by round, the valuation gap of the corrections in use on the fitting and on the
held-out flops, beside the model's (:func:`rounds_report`).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any, TextIO

import numpy as np
import pandas as pd

from pokerlab.cards import CLASS_PRIOR
from pokerlab.equity_table import load_equity_table
from pokerlab.fit.solves import read_measurement, write_measurement
from pokerlab.io import read_arrays, write_arrays, write_json_atomic, write_npz_streamed
from pokerlab.postflop.solver import Mode
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved import values as V
from pokerlab.solved.joint import JointSolve, Measured, flop_ranges, measured_after, measurement, write_outputs
from pokerlab.solved.loop import empty_values, valued_ranges
from pokerlab.solved.settings import SolvedSettings, base_settings

MODES = {"current": Mode.CURRENT, "evaluate": Mode.EVALUATE, "best_response": Mode.BEST_RESPONSE}
"""What a flop round's measurement holds (column ``mode``): the current strategy's values, and at a
measuring round the average profile's and the best response's."""


def round_iterations(every: int, iterations: int) -> list[int]:
    """The iterations of each round: ``every`` each, the last one what remains."""
    return [min(every, iterations - start) for start in range(0, iterations, every)]


def _meta_array(meta: dict[str, Any]) -> np.ndarray:
    return np.frombuffer(json.dumps(meta, sort_keys=True).encode(), dtype=np.uint8)


def _read_meta(data) -> dict[str, Any]:
    return json.loads(bytes(data["meta"]).decode())


def read_round_measurements(solve: JointSolve, paths: list[str | os.PathLike]) -> dict[str, Measured]:
    """The flop rounds' files, per :data:`MODES` key, grouped as :data:`~pokerlab.solved.joint.Measured`
    in the order of ``solve``'s endings and flops; ``ValueError`` naming what is missing."""
    by_key = {}
    for path in paths:
        frame, record = read_measurement(path)
        by_key[record["key"]] = (frame, record)
    out: dict[str, Measured] = {mode: {} for mode in MODES}
    for e in solve.endings:
        for mode in MODES:
            out[mode][e.node] = []
        for f in e.flops:
            if f.key not in by_key:
                raise ValueError(f"flop round measurements: none for {f.key} among {len(paths)} file(s)")
            frame, record = by_key[f.key]
            for mode in MODES:
                part = frame[frame["mode"] == mode].drop(columns="mode").reset_index(drop=True)
                if not part.empty:
                    out[mode][e.node].append((part, record))
    return out


def _take_round(solve: JointSolve, arrivals_path: str | os.PathLike, measurement_paths: list[str | os.PathLike],
                until: int) -> dict[str, Any]:
    """Take the measurements of the round whose ranges ``arrivals_path`` holds (the solve continues
    from that round's preflop state)."""
    with np.load(arrivals_path) as data:
        meta = _read_meta(data)
    measured = read_round_measurements(solve, measurement_paths)
    records = [r for m in measured["current"].values() for _, r in m]
    cpu = meta["cpu_seconds"] + sum(r["cpu_seconds"] for r in records)
    wall = meta["wall_seconds"] + max((r["wall_seconds"] for r in records), default=0.0)
    reach = solve.preflop.reach_under(solve.preflop.sigma)
    row = solve.take_measurements(reach, measured["current"], wall, cpu)
    if meta["measured"]:
        solve.record_profile(row, (measured["evaluate"], measured["best_response"]))
    solve.log_row(row, until)
    return measured


def preflop_round(solve: JointSolve, r: int, previous: tuple[str | os.PathLike, str | os.PathLike] | None,
                  measurement_paths: list[str | os.PathLike], out_state: str | os.PathLike,
                  out_arrivals: str | os.PathLike) -> None:
    """Round ``r`` of the preflop side (see the module docstring). ``solve``: a fresh
    ``JointSolve(..., resident=False)``; ``previous``: round ``r - 1``'s (state, arrivals) files (None
    for round 1) and ``measurement_paths`` its flop rounds' files."""
    solve.settings.require_whole_run_average()
    start, cpu = time.perf_counter(), sum(os.times()[:2])
    rounds = round_iterations(solve.settings.exchange_every, solve.settings.exchange_iterations)
    if not 1 <= r <= len(rounds):
        raise ValueError(f"preflop round {r}: the run has rounds 1 to {len(rounds)}")
    if (previous is None) != (r == 1):
        raise ValueError(f"preflop round {r}: {'no' if r > 1 else 'a'} previous round given")
    if previous is not None:
        if not solve.load(previous[0]):
            raise ValueError(f"{previous[0]}: not the state of this spot's exchange rounds (other settings or plan)")
        if solve.iteration != sum(rounds[:r - 1]):
            raise ValueError(f"{previous[0]}: at iteration {solve.iteration}, not round {r - 1}'s end")
        _take_round(solve, previous[1], measurement_paths, sum(rounds))
    reach = solve.preflop_step(rounds[r - 1])
    measuring = measured_after(r, solve.iteration, sum(rounds))
    arrays: dict[str, np.ndarray] = {}
    average = solve.preflop.reach_under(solve.preflop.average_sigma()) if measuring else None
    for e in solve.endings:
        for kind, of in (("current", reach), ("average", average)):
            if of is not None:
                arrays[f"{kind}/e{e.rank}/oop"], arrays[f"{kind}/e{e.rank}/ip"] = solve.own_reach(e, of)
    solve.save(out_state)
    arrays["meta"] = _meta_array({"round": r, "iteration": solve.iteration, "iterations": rounds[r - 1],
                                  "measured": measuring, "cpu_seconds": round(sum(os.times()[:2]) - cpu, 2),
                                  "wall_seconds": round(time.perf_counter() - start, 2)})
    write_npz_streamed(out_arrivals, arrays.items())


def flop_round(solve: JointSolve, key: str, previous_state: str | os.PathLike | None,
               arrivals_path: str | os.PathLike, out_state: str | os.PathLike,
               out_measurement: str | os.PathLike) -> None:
    """Round ``r`` of fitting or held-out flop ``key`` (its plan job key; ``r`` is the arrivals' round):
    see the module docstring. ``solve``: a ``JointSolve(..., resident=False)`` of the spot (for the flop's
    postflop spot, built as the in-process solve builds it); ``previous_state``: this flop's round
    ``r - 1`` state (None for round 1)."""
    start, cpu = time.perf_counter(), sum(os.times()[:2])
    found = [(e, f) for e in solve.endings for f in (*e.flops, *e.heldout) if f.key == key]
    if not found:  # the spot has fewer endings than the plan's ranks (the workflow asks for every rank)
        write_arrays(out_state, [("meta", _meta_array({"key": key, "missing": True}))])
        write_measurement(out_measurement, empty_values().assign(mode=pd.Series(dtype=str)),
                          {"key": key, "missing": True})
        return
    ending, flop = found[0]
    rank = f"e{ending.rank}"
    with np.load(arrivals_path) as data:
        meta = _read_meta(data)
        own = {kind: (data[f"{kind}/{rank}/oop"], data[f"{kind}/{rank}/ip"]) for kind in ("current", "average")
               if f"{kind}/{rank}/oop" in data.files}
    r = meta["round"]
    if (previous_state is None) != (r == 1):
        raise ValueError(f"flop round {r} of {key}: {'no' if r > 1 else 'a'} previous state given")
    solver = flop.new_solver(solve.settings)
    if previous_state is not None:  # read straight into the solver's arrays
        stored = solver.state(copy=False)
        arrays = read_arrays(previous_state, into=stored)
        if not set(stored) <= set(arrays) or "iterations" not in arrays:
            raise ValueError(f"{previous_state}: not a flop state of this solve (it lacks "
                             f"{sorted(set(stored) - set(arrays)) or ['iterations']})")
        solver.iterations = int(arrays["iterations"])
    settings = solve.settings
    before = sum(map(settings.postflop_iterations, round_iterations(settings.exchange_every,
                                                                    settings.exchange_iterations)[:r - 1]))
    if solver.iterations != before:
        raise ValueError(f"flop round {r} of {key}: the state is at postflop iteration {solver.iterations}, the round "
                         f"starts at {before}")
    solver.set_ranges(flop_ranges(flop.spot, own["current"], settings.floor_weight))
    solver.run(settings.postflop_iterations(meta["iterations"]))
    frames = [measurement(solver, Mode.CURRENT, settings.estimator == "pooled").assign(mode="current")]
    if meta["measured"]:
        solver.set_ranges(flop_ranges(flop.spot, own["average"], settings.floor_weight))
        frames += [measurement(solver, MODES[m]).assign(mode=m) for m in ("evaluate", "best_response")]
    write_arrays(out_state, [*solver.state(copy=False).items(), ("iterations", np.array(solver.iterations))])
    write_measurement(out_measurement, pd.concat(frames, ignore_index=True),
                      {"key": key, "round": r, "board_weight": flop.weight, "iterations": solver.iterations,
                       "cpu_seconds": round(sum(os.times()[:2]) - cpu, 2),
                       "wall_seconds": round(time.perf_counter() - start, 2)})


def finish(solve: JointSolve, last: tuple[str | os.PathLike, str | os.PathLike],
           measurement_paths: list[str | os.PathLike], provenance: dict[str, Any], table_path: str | os.PathLike,
           chart_path: str | os.PathLike, report_path: str | os.PathLike) -> dict[str, Any]:
    """After the last round: take its measurements and write the outputs (see
    :func:`pokerlab.solved.joint.write_outputs`)."""
    rounds = round_iterations(solve.settings.exchange_every, solve.settings.exchange_iterations)
    if not solve.load(last[0]) or solve.iteration != sum(rounds):
        raise ValueError(f"{last[0]}: not the last round's state of this spot's exchange rounds")
    measured = _take_round(solve, last[1], measurement_paths, sum(rounds))
    return write_outputs(solve, provenance, table_path, chart_path, report_path, measured["evaluate"])


def round_gaps(solve: JointSolve, state_path: str | os.PathLike, arrivals_path: str | os.PathLike,
               measurement_paths: list[str | os.PathLike]) -> dict[str, Any]:
    """Round ``r``'s valuation gaps (bb, as :func:`pokerlab.solved.values.valuation_gap` measures them):
    per ending, of the corrections that paid the round's preflop iterations (measured at round ``r - 1``,
    zero in round 1; what the history's ``gap_before_bb`` measures on the fitting flops) and of the model
    alone, against the round's solved values under the postflop current strategies, on the fitting flops
    and on the held-out flops (``measurement_paths``: the round's flop files, held-out ones included), with
    the ranges of the preflop current strategy (valued as the exchange values them:
    :func:`pokerlab.solved.loop.valued_ranges`). ``state_path``/``arrivals_path``: the round's preflop files;
    the means are weighted by each ending's reach (the product of the seats' arriving class masses)."""
    if not solve.load(state_path):
        raise ValueError(f"{state_path}: not the state of this spot's exchange rounds")
    with np.load(arrivals_path) as data:
        meta = _read_meta(data)
        own = {e.node: (data[f"current/e{e.rank}/oop"], data[f"current/e{e.rank}/ip"]) for e in solve.endings}
    frames: dict[str, tuple[pd.DataFrame, dict]] = {}
    for path in measurement_paths:
        frame, record = read_measurement(path)
        frames[record["key"]] = (frame[frame["mode"] == "current"].drop(columns="mode").reset_index(drop=True), record)
    rows = []
    for e in solve.endings:
        q_oop, q_ip = valued_ranges(solve.settings.estimator, *own[e.node], solve.settings.floor_weight)
        model = V.model_class_values(solve.model_payoffs, e.row, e.seats, q_oop, q_ip, solve.win, solve.tie)
        reach = float((CLASS_PRIOR * own[e.node][0]).sum() * (CLASS_PRIOR * own[e.node][1]).sum())
        row: dict[str, Any] = {"node": e.node, "reach": reach}
        for kind, flops in (("fitting", e.flops), ("heldout", e.heldout)):
            found = [frames[f.key] for f in flops if f.key in frames]
            if found:
                solved = V.solved_class_values(found, e.contrib)
                row[f"gap_{kind}_bb"], row[f"model_gap_{kind}_bb"] = V.valuation_gaps(
                    model, solve.corrections[e.node], solved, q_oop, q_ip)
        rows.append(row)
    out: dict[str, Any] = {"round": meta["round"], "iteration": meta["iteration"]}
    weight = sum(r["reach"] for r in rows)
    for key in ("gap_fitting_bb", "model_gap_fitting_bb", "gap_heldout_bb", "model_gap_heldout_bb"):
        if weight > 0 and all(key in r for r in rows):
            out[key] = round(sum(r["reach"] * r[key] for r in rows) / weight, 6)
    out["endings"] = [{k: round(v, 6) if isinstance(v, float) else v for k, v in r.items()} for r in rows]
    return out


def rounds_report(solve: JointSolve, rounds_dir: str | os.PathLike, history: list[dict[str, Any]],
                  out_path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every round's :func:`round_gaps` (its files under ``rounds_dir``: ``r{r}/preflop.npz``,
    ``r{r}/arrivals.npz`` and the flops' ``r{r}/e{rank}/b{board}.parquet``, held-out ones where they
    exist), each with the exchange ``history``'s row of the same iteration (the report's: its
    corrections' move, CPU and, at measuring rounds, the joint exploitability and the average strategy's
    change), written as JSON; returns the rows."""
    rounds_dir = Path(rounds_dir)
    n = len(round_iterations(solve.settings.exchange_every, solve.settings.exchange_iterations))
    taken = {row["iteration"]: row for row in history}
    rows = []
    for r in range(1, n + 1):
        folder = rounds_dir / f"r{r}"
        paths = [folder / f"{f.key.split('/', 3)[3]}.parquet" for e in solve.endings for f in (*e.flops, *e.heldout)]
        row = round_gaps(solve, folder / "preflop.npz", folder / "arrivals.npz", [p for p in paths if p.exists()])
        if row["iteration"] in taken:
            row["history"] = taken[row["iteration"]]
        rows.append(row)
    write_json_atomic(out_path, {"spot": solve.spot.name, "rounds": rows})
    return rows


def spot_solve(config: dict[str, Any], base_postflop: dict[str, Any], constants: str | os.PathLike | None,
               spot_name: str, sizing_path: str | os.PathLike, equity_path: str | os.PathLike,
               endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike, resident: bool = False,
               log: TextIO | None = None) -> JointSolve:
    """The exchanging solve of ``spot_name`` from the workflow's config and inputs: the base model
    ``base_postflop`` (``solve.postflop`` without the solved tables), the plan's endings and boards."""
    base, table = base_settings(config, base_postflop, constants), load_equity_table(equity_path)
    return JointSolve(parse_spot_name(spot_name), load_sizing(sizing_path), base, table.win, table.tie,
                      SolvedSettings.for_spot(config["solved"], spot_name), endings_tsv, boards_tsv, log=log,
                      resident=resident)
