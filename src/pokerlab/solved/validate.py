"""Held-out validation of an exchanging solve: does its table value flops it never saw?

The exchange (:mod:`pokerlab.solved.joint`) measures its corrections on each ending's fitting flops.
Its plan also holds ``heldout_boards`` flops per ending that no exchange touches; the check solves
``validation_boards`` of them (:func:`write_validation_boards`; by default as many). After the run:

1. :func:`write_arrivals`: the plan's endings (same ranks, so the same held-out flops) with the ranges
   that arrive there under the exchange's chart (its preflop average strategy) instead of the
   model's solve;
2. each held-out flop is solved once with those ranges (:func:`pokerlab.solved.loop.solve_ending_job`,
   one job per ending x flop, like the re-solving loop's);
3. :func:`validation_report`: per ending, the mean absolute gap (bb) between the class values the
   table pays (model plus corrections, against the arriving ranges) and the held-out solved values,
   beside the gap of the model alone. A table that generalises closes most of the model's gap on
   held-out flops; one fitted to the noise of a few flops does not. Its ``verdict``
   (:func:`validation_verdict`) says whether the table may ship.

Class values differ from flop to flop, so even a table exact for the ending's whole flop population
shows a gap on a few held-out flops. With two or more held-out flops the report also gives that
spread (:func:`pokerlab.solved.values.flop_spread`) and the gap it alone would cause between a table
fitted on the ending's fitting flops and the held-out ones (``sampling_gap_bb``): a table near that
figure is as good as its flop subset allows, and the spread says how many flops a smaller gap needs.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from pokerlab.cards import CLASS_PRIOR
from pokerlab.fit.endings import spot_endings
from pokerlab.fit.plan import flop_rows, reach_text, write_tsv
from pokerlab.io import atomic_path, sha256_file, write_json_atomic
from pokerlab.preflop.ending_corrections import read_ending_corrections
from pokerlab.preflop.payoffs import chip_ev_payoffs
from pokerlab.preflop.result_file import read_result
from pokerlab.preflop.solve import SolveSettings
from pokerlab.preflop.spot import Sizing, Spot
from pokerlab.preflop.tree import build_tree
from pokerlab.solved import values as V
from pokerlab.solved.loop import (FIGURE_DECIMALS, ending_roles, measurements_by_rank, parse_reach, read_plan_endings,
                                  valued_ranges)
from pokerlab.solved.settings import SolvedSettings


def write_arrivals(chart_path: str | os.PathLike, sizing: Sizing, plan_endings_tsv: str | os.PathLike,
                   out_tsv: str | os.PathLike) -> pd.DataFrame:
    """Step 1: ``plan_endings_tsv``'s rows with ``reach``, ``oop_reach`` and ``ip_reach`` read from the
    chart at ``chart_path`` (shipped or not: an exchange's chart is a measurement either way). An ending
    the chart no longer reaches keeps its row with zero reach."""
    plan = read_plan_endings(plan_endings_tsv)
    found = {e.node: e for e in spot_endings(read_result(chart_path), sizing, rejected=True).endings}
    rows = plan.copy()
    for i, node in enumerate(plan["node"]):
        e = found.get(node)
        rows.loc[i, "reach"] = e.reach if e is not None else 0.0
        rows.loc[i, "oop_reach"] = reach_text(e.oop_reach if e is not None else np.zeros(CLASS_PRIOR.size))
        rows.loc[i, "ip_reach"] = reach_text(e.ip_reach if e is not None else np.zeros(CLASS_PRIOR.size))
    with atomic_path(out_tsv) as tmp:
        rows.to_csv(tmp, sep="\t", index=False, lineterminator="\n")
    return rows


def write_validation_boards(plan_endings_tsv: str | os.PathLike, settings: SolvedSettings,
                            out_tsv: str | os.PathLike) -> pd.DataFrame:
    """The boards table the validation solves: for each planned ending its ``settings.boards`` fitting flops
    (the plan's own) and ``settings.validation_boards`` held-out ones, drawn as the plan draws its
    ``heldout_boards`` (the same flops when the two counts are equal). A larger count gives the check
    more flops without changing the plan, the exchange or the table."""
    plan = read_plan_endings(plan_endings_tsv)
    rows = [row for spot, rank in zip(plan["spot"], plan["rank"])
            for row in flop_rows(spot, int(rank), settings.seed, settings.boards, settings.validation_boards)]
    frame = pd.DataFrame(rows)
    write_tsv(frame, out_tsv)
    return frame


def heldout_keys(spot_name: str, endings: int, boards: int, heldout: int) -> list[str]:
    """Job keys ``{spot}/e{rank}/b{board}`` of the held-out flops (board indices ``boards`` onwards)."""
    return [f"{spot_name}/e{e}/b{b}" for e in range(endings) for b in range(boards, boards + heldout)]


@dataclass(frozen=True)
class ArrivedEnding:
    """A planned ending with the ranges a chart brings there: its ``rank`` and ``node``, ``reach``
    (share of deals), the (oop, ip) ``seats`` and their ``contrib`` (bb), the class distributions
    ``q_oop``/``q_ip`` (prior x own reach, as :func:`pokerlab.solved.loop.valued_ranges` values them
    for the table's estimator) and the ``model``'s (oop, ip) class values against them
    (:func:`pokerlab.solved.values.model_class_values`; None if the chart does not reach it)."""

    rank: int
    node: str
    reach: float
    seats: tuple[int, int]
    contrib: tuple[float, float]
    q_oop: np.ndarray
    q_ip: np.ndarray
    model: tuple[np.ndarray, np.ndarray] | None


def arrived_endings(spot: Spot, sizing: Sizing, base: SolveSettings, win: np.ndarray, tie: np.ndarray,
                    arrivals_tsv: str | os.PathLike, estimator: str = "per_class", floor_weight: float = 0.0
                    ) -> list[ArrivedEnding]:
    """The endings of ``arrivals_tsv`` (:func:`write_arrivals`'s table) with what valuing them needs,
    the ranges valued as a table measured with ``estimator`` and ``floor_weight`` values them."""
    tree = build_tree(spot, sizing)
    payoffs = chip_ev_payoffs(tree, base.postflop, base.class_edges, base.aggressor)
    row_of = {tree.nodes[k].id: z for z, k in enumerate(payoffs.nodes)}
    out = []
    for e in read_plan_endings(arrivals_tsv).itertuples(index=False):
        seats, contrib = ending_roles(tree, e.node)
        q_oop, q_ip = valued_ranges(estimator, parse_reach(e.oop_reach), parse_reach(e.ip_reach), floor_weight)
        model = V.model_class_values(payoffs, row_of[e.node], seats, q_oop, q_ip, win, tie) if e.reach > 0 else None
        out.append(ArrivedEnding(int(e.rank), e.node, float(e.reach), seats, contrib, q_oop, q_ip, model))
    return out


def validation_report(spot: Spot, sizing: Sizing, base: SolveSettings, win: np.ndarray, tie: np.ndarray,
                      table_path: str | os.PathLike, arrivals_tsv: str | os.PathLike, boards_tsv: str | os.PathLike,
                      measurement_paths: list[str | os.PathLike], out_path: str | os.PathLike) -> dict[str, Any]:
    """Step 3 (see the module docstring); writes and returns the report. Endings the table does not
    value, or with no held-out measurement, are listed with their reason. The model and the table are
    valued against the ranges the table's corrections were measured against: under the estimator and
    floor weight its provenance records (a table without them was measured ``per_class``)."""
    table = read_ending_corrections(table_path)
    measured_with = table.provenance.get("settings", {})
    by_rank = measurements_by_rank(measurement_paths)
    boards = pd.read_csv(boards_tsv, sep="\t", keep_default_na=False)
    fitting_weights = boards[(boards["spot"] == spot.name) & (boards["heldout"].astype(str) != "True")] \
        .groupby("rank")["weight"].apply(lambda w: w.to_numpy(dtype=np.float64))
    rows = []
    for e in arrived_endings(spot, sizing, base, win, tie, arrivals_tsv, measured_with.get("estimator", "per_class"),
                             measured_with.get("floor_weight", 0.0)):
        row: dict[str, Any] = {"node": e.node, "reach": e.reach}
        measured = by_rank.get(e.rank, [])
        if e.node not in table.endings or not measured or e.model is None:
            row["skipped"] = ("not in the table" if e.node not in table.endings else
                              "not reached by the chart" if e.model is None else "no held-out flop")
            rows.append(row)
            continue
        solved = V.solved_class_values(measured, e.contrib)
        gap, model_gap = V.valuation_gaps(e.model, table.endings[e.node], solved, e.q_oop, e.q_ip)
        row.update({"flops": [m[1]["board"] for m in measured],
                    "model_gap_heldout_bb": model_gap,
                    "gap_heldout_bb": gap,
                    "postflop_exploitability_pct_pot": float(np.mean([m[1]["exploitability_pct_pot"]
                                                                      for m in measured])),
                    "postflop_cpu_seconds": float(sum(m[1]["cpu_seconds"] for m in measured))})
        if len(measured) >= 2 and e.rank in fitting_weights.index:
            spread = V.role_mean(V.flop_spread(measured, e.contrib), e.q_oop, e.q_ip)
            n = V.effective_flops(fitting_weights[e.rank])
            m = V.effective_flops(np.array([r["board_weight"] for _, r in measured]))
            row.update({"flop_spread_bb": spread, "sampling_gap_bb": math.sqrt(2 / math.pi * (1 / n + 1 / m)) * spread,
                        "fitting_flops_effective": n, "heldout_flops_effective": m})
        rows.append(row)
    valued = [r for r in rows if "skipped" not in r]
    report: dict[str, Any] = {"spot": spot.name, "table_sha256": sha256_file(table_path), "flop_subset": str(boards_tsv),
                              "endings": [{k: round(v, FIGURE_DECIMALS) if isinstance(v, float) else v
                                           for k, v in r.items()} for r in rows]}
    weight = sum(r["reach"] for r in valued)
    for key in ("model_gap_heldout_bb", "gap_heldout_bb", "flop_spread_bb", "sampling_gap_bb"):
        if weight > 0 and all(key in r for r in valued):
            report[key] = round(sum(r["reach"] * r[key] for r in valued) / weight, FIGURE_DECIMALS)
    report["verdict"] = validation_verdict(report)
    write_json_atomic(out_path, report)
    return report


def validation_verdict(report: dict[str, Any]) -> dict[str, Any]:
    """Whether the held-out check lets the table ship, and why not: every ending the table values must be
    reached by its own chart (the corrections at an ending it does not reach were measured against no
    range it brings), and over the endings valued, reach-weighted, the table must value the held-out flops
    better than the model. The ship check (the chart under the bar in the table's game) is the other gate."""
    reasons = [f"{r['node']}: in the table but not reached by the chart" for r in report["endings"]
               if r.get("skipped") == "not reached by the chart"]
    gap, model_gap = report.get("gap_heldout_bb"), report.get("model_gap_heldout_bb")
    if gap is None or model_gap is None:
        reasons.append("no ending valued on held-out flops")
    elif gap >= model_gap:
        reasons.append(f"the table's held-out gap {gap:g} bb is not below the model's {model_gap:g} bb")
    return {"ships": not reasons, "reasons": reasons}
