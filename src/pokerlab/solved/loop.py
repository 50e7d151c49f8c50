"""The solved-endings loop's steps as the workflow (and Python) calls them, per spot and outer iteration k.

1. The preflop solve under table k (k = 0: no table, the base model) is the sweep's own solve
   (:func:`pokerlab.preflop.solve.solve_spot_to_file` with model ``solved``).
2. :func:`write_ending_plan`: its most reached heads-up flop endings (at least ``min_reach`` of the
   deals, at most ``max_per_spot``) with both seats' own reach per class, and the flop subset of each
   (the fit's seeded, texture-stratified sampler: the same flops in every iteration).
3. :func:`solve_ending_job`: one ending on one flop, solved by the postflop solver with the arriving
   ranges (every class floored at ``floor_weight`` of own reach, so a class outside a range gets a
   value too: its value against the solved strategies with a near-zero weight, i.e. close to its
   best-response value) in the bet tree of the ending's pot type. Writes the per-combo values.
4. :func:`update_table`: the solved class values of every ending on its fitting flops, the corrections
   that make the model pay them (:mod:`pokerlab.solved.values`), damped against table k, written as
   table k+1; and the iteration's report (strategy change, valuation gaps on fitting and held-out
   flops, exploitability, CPU).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pokerlab.cards import CLASS_PRIOR, COMBO_CLASS, parse_cards, parse_combo
from pokerlab.fit.plan import read_job, write_plan
from pokerlab.fit.solves import read_measurement, write_measurement
from pokerlab.io import atomic_path, sha256_file, write_bytes_atomic, write_json_atomic
from pokerlab.postflop.game import PostflopSpot
from pokerlab.preflop.ending_corrections import EndingCorrections, read_ending_corrections, write_ending_corrections
from pokerlab.preflop.payoffs import chip_ev_payoffs
from pokerlab.preflop.result_file import read_result
from pokerlab.preflop.solve import SolveSettings, sizing_digest
from pokerlab.preflop.spot import Sizing, Spot
from pokerlab.preflop.tree import Tree, build_tree, postflop_order
from pokerlab.solved import values as V
from pokerlab.solved.settings import SolvedSettings, pot_type

COLUMNS = ("player", "combo", "class", "mass", "ev", "equity_bb")
"""A postflop measurement's per-combo table: the ``player`` (0 oop, 1 ip), ``combo`` and its ``class``, its
``mass`` (range weight times the opponent weight it does not block), ``ev`` (its share of the pot under the
solve, bb) and ``equity_bb`` (its checked-down share of the pot against the opponent's range, bb: the
control :func:`pokerlab.solved.values.pooled_class_values` takes)."""
FIGURE_DECIMALS = 6
MIN_NODE_REACH = 1e-3  # nodes reached less often than this are left out of the largest strategy change


def write_ending_plan(result_path: str | os.PathLike, spot: str, sizing: Sizing, settings: SolvedSettings,
                      spots_tsv: str | os.PathLike, endings_tsv: str | os.PathLike,
                      boards_tsv: str | os.PathLike) -> None:
    """Step 2 (see the module docstring): the plan tables of one spot's iteration."""
    write_plan({spot: result_path}, sizing, settings, spots_tsv, endings_tsv, boards_tsv, min_reach=settings.min_reach)


def ending_ranges(oop_reach: np.ndarray, ip_reach: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """(oop, ip) 1,326-vectors of combo weights: each combo weighs its class's own reach, at least ``floor``."""
    return tuple(np.maximum(r, floor)[COMBO_CLASS].astype(np.float64) for r in (oop_reach, ip_reach))


def valued_ranges(estimator: str, oop_reach: np.ndarray, ip_reach: np.ndarray, floor: float
                  ) -> tuple[np.ndarray, np.ndarray]:
    """(q_oop, q_ip): the class distributions (prior x own reach) an ending's corrections are measured
    against. Under ``pooled`` each class's reach is floored at ``floor`` as :func:`ending_ranges` floors
    the postflop solves' ranges, so the model's class values and the solved ones face the same opponent
    range (a range that shrinks to a few classes is otherwise mostly floor in the solves but not in the
    model). ``per_class`` keeps the unfloored reach its shipped table was measured with."""
    if estimator == "pooled":
        oop_reach, ip_reach = np.maximum(oop_reach, floor), np.maximum(ip_reach, floor)
    return CLASS_PRIOR * oop_reach, CLASS_PRIOR * ip_reach


def empty_values() -> pd.DataFrame:
    """The per-combo values table (:data:`COLUMNS`) of an ending the spot does not have."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in zip(COLUMNS, ("int8", "int16", "int16", "float64",
                                                                         "float64", "float64"))})


def solve_ending_job(endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike, key: str,
                     settings: SolvedSettings, out_path: str | os.PathLike, threads: int | None = None) -> None:
    """Step 3: solve job ``key`` (``{spot}/e{rank}/b{board}``) and write its per-combo values (Parquet,
    the job's record in the metadata). A rank the spot does not have writes an empty table."""
    from pokerlab.postflop.solver import solve_spot

    cpu = sum(os.times()[:2])
    job = read_job(endings_tsv, boards_tsv, key)
    record: dict[str, Any] = {"key": key, "rank": job.rank, "board_index": job.board_index}
    if job.ending is None:
        write_measurement(out_path, empty_values(), {**record, "missing": True})
        return
    e = job.ending
    oop, ip = ending_ranges(e.oop_reach, e.ip_reach, settings.floor_weight)
    spot = PostflopSpot(e.pot_bb, e.behind_bb, tuple(parse_cards(job.board)), oop, ip, settings.bet_tree_for(e.node))
    print(f"{key}: ending {e.node} ({pot_type(e.node)}, {e.oop} vs {e.ip}) on {job.board}, pot {e.pot_bb:g}bb, "
          f"{e.behind_bb:g}bb behind, to {settings.accuracy_pct_pot:g}% of the pot", file=sys.stderr, flush=True)
    result = solve_spot(spot, settings.accuracy_pct_pot, settings.max_iterations, threads=threads,
                        max_memory_mb=settings.max_memory_mb, compression=settings.compression,
                        progress=lambda i, x: print(f"iteration {i}: exploitability {x:.4f}% of the pot",
                                                    file=sys.stderr, flush=True))
    rows = []
    for p, name in enumerate(("oop", "ip")):
        player = result.players[name]
        for cid, values in player.combos.items():
            combo = parse_combo(cid)
            rows.append((p, combo, int(COMBO_CLASS[combo]), player.weights[cid], values["ev"],
                         e.pot_bb * values["equity"]))
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS)).astype({"player": "int8", "combo": "int16",
                                                                            "class": "int16"})
    frame = frame.sort_values(["player", "combo"], kind="stable").reset_index(drop=True)
    record.update({"missing": False, "node": e.node, "reach": e.reach, "pot_type": pot_type(e.node),
                   "pot_bb": e.pot_bb, "behind_bb": e.behind_bb, "board": job.board, "board_weight": job.weight,
                   "heldout": job.heldout, "iterations": result.iterations,
                   "exploitability_pct_pot": result.exploitability_pct_pot,
                   "cpu_seconds": round(sum(os.times()[:2]) - cpu, 1)})
    write_measurement(out_path, frame, record)


def read_plan_endings(endings_tsv: str | os.PathLike) -> pd.DataFrame:
    return pd.read_csv(endings_tsv, sep="\t", keep_default_na=False)


def ending_roles(tree: Tree, node_id: str) -> tuple[tuple[int, int], tuple[float, float]]:
    """The (oop, ip) seats of heads-up flop ending ``node_id`` (first to act on the flop first) and
    their preflop contributions there, bb."""
    node = tree.node(node_id)
    oop, ip = sorted(node.players_in, key=lambda s: postflop_order(s, tree.seats))
    return (oop, ip), (node.contrib[oop], node.contrib[ip])


def measurements_by_rank(paths: list[str | os.PathLike]) -> dict[int, list[tuple[pd.DataFrame, dict]]]:
    """The postflop jobs' measurements (``(frame, record)``, :func:`solve_ending_job`'s files) grouped by
    ending rank; a job of a rank the spot does not have is left out."""
    by_rank: dict[int, list[tuple[pd.DataFrame, dict]]] = {}
    for path in paths:
        frame, record = read_measurement(path)
        if not record.get("missing"):
            by_rank.setdefault(int(record["rank"]), []).append((frame, record))
    return by_rank


def parse_reach(text: str) -> np.ndarray:
    """The class reaches of a plan table's ``oop_reach``/``ip_reach`` cell."""
    return np.array([float(v) for v in str(text).split(",")])


def strategy_change(new: dict, old: dict) -> dict[str, float]:
    """How far two results' average strategies are apart, in percentage points: per decision node the
    mean over the acting seat's arriving hands (``arrive_with`` of ``new``) of the total-variation
    distance between the two strategies; the largest over nodes reached at least :data:`MIN_NODE_REACH`
    of the deals, and the mean weighted by node reach."""
    before = {n["id"]: n for n in old["nodes"]}
    worst, total, weight = 0.0, 0.0, 0.0
    for node in new["nodes"]:
        prev = before[node["id"]]
        a = np.array([node["strategy"][k] for k in node["actions"]])
        b = np.array([prev["strategy"][k] for k in node["actions"]])
        change = 100.0 * float(np.asarray(node["arrive_with"]) @ (0.5 * np.abs(a - b).sum(axis=0)))
        if node["reach"] >= MIN_NODE_REACH:
            worst = max(worst, change)
        total += node["reach"] * change
        weight += node["reach"]
    return {"max_pp": worst, "mean_pp": total / weight if weight > 0 else 0.0}


def update_table(spot: Spot, sizing: Sizing, base: SolveSettings, win: np.ndarray, tie: np.ndarray,
                 settings: SolvedSettings, iteration: int, result_path: str | os.PathLike,
                 previous_result_path: str | os.PathLike | None, table_path: str | os.PathLike | None,
                 endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike,
                 measurement_paths: list[str | os.PathLike], out_table: str | os.PathLike,
                 out_report: str | os.PathLike, provenance: dict[str, Any]) -> dict[str, Any]:
    """Step 4 (see the module docstring). ``base``: the solve settings of the model the corrections are
    measured against; ``table_path``: table k (None at k = 0); ``provenance``: recorded in table k+1
    beside what this function adds (base constants, sizing and plan digests). Returns the report."""
    tree = build_tree(spot, sizing)
    payoffs = chip_ev_payoffs(tree, base.postflop, base.class_edges, base.aggressor)
    row_of = {tree.nodes[k].id: z for z, k in enumerate(payoffs.nodes)}
    previous = read_ending_corrections(table_path) if table_path is not None else None
    endings = read_plan_endings(endings_tsv)
    by_rank = measurements_by_rank(measurement_paths)
    table: dict[str, tuple[np.ndarray, np.ndarray]] = dict(previous.endings) if previous is not None else {}
    rows = []
    for e in endings.itertuples(index=False):
        seats, contrib = ending_roles(tree, e.node)
        q_oop, q_ip = valued_ranges(settings.estimator, parse_reach(e.oop_reach), parse_reach(e.ip_reach),
                                    settings.floor_weight)
        measured = by_rank.get(int(e.rank), [])
        fitting_flops = [m for m in measured if not m[1]["heldout"]]
        fitting = V.solved_class_values(fitting_flops, contrib)
        heldout = [m for m in measured if m[1]["heldout"]]
        model = V.model_class_values(payoffs, row_of[e.node], seats, q_oop, q_ip, win, tie)
        fitted = V.estimated_class_values(settings.estimator, fitting, fitting_flops, contrib, model, q_oop, q_ip,
                                          float(e.pot_bb), win, tie)
        d_oop, d_ip, residual = V.corrections(fitted, model, q_oop, q_ip)
        old = table.get(e.node, (np.zeros_like(d_oop), np.zeros_like(d_ip)))
        table[e.node] = (old[0] + settings.damping * (d_oop - old[0]), old[1] + settings.damping * (d_ip - old[1]))
        gap, model_gap = V.valuation_gaps(model, old, fitting, q_oop, q_ip)  # of what table k paid here
        row = {"node": e.node, "pot_type": pot_type(e.node), "reach": float(e.reach), "spr": float(e.spr),
               "oop": e.oop, "ip": e.ip, "flops": sum(not m[1]["heldout"] for m in measured),
               "heldout_flops": len(heldout), "model_gap_bb": model_gap, "gap_fitting_bb": gap, "residual_bb": residual,
               "postflop_exploitability_pct_pot": float(np.mean([m[1]["exploitability_pct_pot"] for m in measured])),
               "postflop_cpu_seconds": float(sum(m[1]["cpu_seconds"] for m in measured))}
        if heldout:
            row["gap_heldout_bb"] = V.valuation_gaps(model, old, V.solved_class_values(heldout, contrib), q_oop, q_ip)[0]
        rows.append(row)
    result = read_result(result_path)
    report: dict[str, Any] = {
        "spot": spot.name, "iteration": iteration,
        "exploitability_bb": result["exploitability_bb"], "status": result["status"],
        "tier_shares": result["tier_shares"], "model_share": result["model_share"],
        "strategy_change": strategy_change(result, read_result(previous_result_path)) if previous_result_path else None,
        "endings": [{k: (round(v, FIGURE_DECIMALS) if isinstance(v, float) else v) for k, v in r.items()} for r in rows],
    }
    weight = sum(r["reach"] for r in rows)
    for key in ("model_gap_bb", "gap_fitting_bb", "gap_heldout_bb"):
        part = [r for r in rows if key in r]
        if part and weight > 0:
            report[key] = round(sum(r["reach"] * r[key] for r in part) / sum(r["reach"] for r in part), FIGURE_DECIMALS)
    report["postflop_cpu_seconds"] = round(sum(r["postflop_cpu_seconds"] for r in rows), 1)
    report["converged"] = bool(report["strategy_change"] is not None
                               and report["strategy_change"]["max_pp"] <= settings.tolerance_strategy_pp
                               and report.get("gap_fitting_bb", 0.0) <= settings.tolerance_gap_bb)
    meta = {**provenance, "base_postflop": asdict(base.postflop), "sizing_sha256": sizing_digest(tree.sizing),
            "settings_sha256": settings.sha256(), "outer_iterations": iteration + 1,
            "flop_subset_sha256": sha256_file(boards_tsv)}
    write_ending_corrections(out_table, EndingCorrections(spot.name, table, meta))
    write_json_atomic(out_report, report)
    return report


def convergence_table(reports: list[dict]) -> pd.DataFrame:
    """One row per outer iteration of a spot: strategy change, valuation gaps, exploitability, CPU."""
    rows = []
    for r in reports:
        change = r.get("strategy_change") or {}
        rows.append({"iteration": r["iteration"], "strategy_change_max_pp": change.get("max_pp"),
                     "strategy_change_mean_pp": change.get("mean_pp"), "model_gap_bb": r.get("model_gap_bb"),
                     "gap_fitting_bb": r.get("gap_fitting_bb"), "gap_heldout_bb": r.get("gap_heldout_bb"),
                     "exploitability_bb": r["exploitability_bb"], "solved_share": r["tier_shares"].get("flop_solved", 0.0),
                     "model_share": r["model_share"], "postflop_cpu_seconds": r["postflop_cpu_seconds"],
                     "converged": r["converged"]})
    return pd.DataFrame(rows)


def finish_spot(table_path: str | os.PathLike, report_paths: list[str | os.PathLike], chart_path: str | os.PathLike,
                previous_path: str | os.PathLike, out_table: str | os.PathLike,
                out_convergence: str | os.PathLike) -> pd.DataFrame:
    """A spot's last table (copied as it is) and its convergence table: one row per outer iteration,
    then the chart solved under the last table (its strategy change against the last iteration's)."""
    reports = [json.loads(Path(p).read_text()) for p in report_paths]
    chart = read_result(chart_path)
    final = {"iteration": len(reports), "exploitability_bb": chart["exploitability_bb"],
             "tier_shares": chart["tier_shares"], "model_share": chart["model_share"], "postflop_cpu_seconds": 0.0,
             "strategy_change": strategy_change(chart, read_result(previous_path)), "converged": None}
    frame = convergence_table(reports + [final])
    write_bytes_atomic(out_table, Path(table_path).read_bytes())
    with atomic_path(out_convergence) as tmp:
        frame.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6g")
    return frame
