"""The fitting run's three steps as the workflow (and Python) calls them.

1. :func:`write_plan` (``rule fit_endings``): endings and boards from the solved spots.
2. :func:`solve_job` (``rule fit_solve``): one ending x board, played and control run.
3. :func:`fit_constants` (``rule fit_constants``): measurements, staged and joint fits with
   bootstrap standard errors, errors per hand, the aggressor split, the per-class realisation;
   ``constants.json`` and the report folder.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import sys
from pathlib import Path
from typing import Any, Callable

import numpy as np
import pandas as pd

from pokerlab.cards import parse_cards
from pokerlab.fit import measure
from pokerlab.fit.plan import read_job
from pokerlab.fit.settings import FitSettings
from pokerlab.fit.solves import empty_measurement, measure as measure_spot, read_measurement, write_measurement
from pokerlab.io import sha256_file, write_json_atomic
from pokerlab.postflop.game import PostflopSpot
from pokerlab.preflop.payoffs import PostflopModel, read_postflop_constants

FIGURE_DECIMALS = 6


def job_spot(job, settings: FitSettings) -> PostflopSpot:
    """The postflop game of a fit job (:func:`pokerlab.fit.plan.read_job`) with an ending: its
    ranges (classes under ``min_class_reach`` left out), pot and stack in bb, board and bet tree."""
    e = job.ending
    oop, ip = e.combo_ranges(settings.min_class_reach)
    return PostflopSpot(e.pot_bb, e.behind_bb, tuple(parse_cards(job.board)), oop, ip, settings.bet_tree)


def solve_job(endings_tsv: str | os.PathLike, boards_tsv: str | os.PathLike, key: str, settings: FitSettings,
              out_path: str | os.PathLike, threads: int | None = None,
              write_pack: Callable[[Any, Path], Any] | None = None) -> None:
    """Measure job ``key`` (``{spot}/e{rank}/b{board}``) and write its Parquet file, and (with
    ``write_pack``, builtin backend) have ``write_pack(solver, pack_dir)`` write its played solve
    beside it (``bN.pack/``, a side product that is not a declared workflow output; a re-run
    replaces it)."""
    import shutil

    from pokerlab.fit.solves import pack_path

    pack_dir = pack_path(out_path) if write_pack is not None and settings.backend == "builtin" else None
    if pack_dir is not None:
        shutil.rmtree(pack_dir, ignore_errors=True)  # never leave a pack of an earlier run beside a new measurement
    job = read_job(endings_tsv, boards_tsv, key)
    spot_name, _, _ = key.rsplit("/", 2)
    record: dict[str, Any] = {"key": key, "spot": spot_name, "rank": job.rank, "board_index": job.board_index,
                              "backend": settings.backend, "accuracy_pct_pot": settings.accuracy_pct_pot}
    if job.ending is None:
        write_measurement(out_path, empty_measurement(), {**record, "missing": True})
        return
    e = job.ending
    spot = job_spot(job, settings)
    print(f"{key}: ending {e.node} ({e.oop} vs {e.ip}) on {job.board}, pot {e.pot_bb:g}bb, {e.behind_bb:g}bb behind, "
          f"{int((spot.oop_range > 0).sum())} x {int((spot.ip_range > 0).sum())} combos, {settings.backend} to "
          f"{settings.accuracy_pct_pot:g}% of the pot", file=sys.stderr, flush=True)
    on_played = None if pack_dir is None else (lambda solver: write_pack(solver, pack_dir))
    frame, summary = measure_spot(spot, settings, threads, on_played)
    record.update({"missing": False, "node": e.node, "reach": e.reach, "pot_bb": e.pot_bb, "behind_bb": e.behind_bb,
                   "spr": e.spr, "oop": e.oop, "ip": e.ip, "aggressor": e.aggressor,
                   "aggressor_in_position": e.aggressor_in_position, "board": job.board, "stratum": job.stratum,
                   "board_weight": job.weight, "heldout": job.heldout, **summary})
    write_measurement(out_path, frame, record)


def _constants(theta: np.ndarray) -> dict[str, float]:
    return {k: round(float(v), FIGURE_DECIMALS) for k, v in zip(measure.NAMES, theta)}


def _se(samples: np.ndarray) -> dict[str, float]:
    return {k: round(float(v), FIGURE_DECIMALS) for k, v in zip(measure.NAMES, samples.std(axis=0, ddof=1))} \
        if len(samples) > 1 else {k: None for k in measure.NAMES}


def fit_constants(job_paths: list[str | os.PathLike], settings: FitSettings, shipped: PostflopModel,
                  plan_paths: dict[str, str | os.PathLike], out_json: str | os.PathLike,
                  report_dir: str | os.PathLike, fit_section: dict[str, Any] | None = None,
                  command: str | None = None) -> dict[str, Any]:
    """Fit the four constants from the jobs' measurements; write ``constants.json`` and the report.

    ``shipped``: the constants the charts use today (compared against). The staged fit's
    constants are the ones proposed for shipping (see :mod:`pokerlab.fit.measure` for why).
    ``fit_section`` (the config's ``fit`` section) and ``command`` (what reproduces the file) are
    recorded as its provenance, with the section's SHA-256 (of its sorted-key JSON).
    """
    from pokerlab.fit.report import write_report

    frames = [read_measurement(p) for p in job_paths]
    data = measure.build_measurements(frames)
    fitting, heldout = data.subset(False), data.subset(True)
    staged = measure.staged_fit(fitting, shipped)
    joint = measure.joint_fit(fitting, staged)
    boot = measure.bootstrap(fitting, shipped, staged, settings.bootstrap, settings.seed)
    theta_shipped = np.array([shipped.a, shipped.b, shipped.c2, shipped.cap])
    errors, rms_errors = {}, {}
    for name, part in (("fitting", fitting), ("heldout", heldout)):
        if len(part.per_measurement):
            candidates = (("shipped", theta_shipped), ("staged", staged), ("joint", joint))
            errors[name] = {label: round(measure.error_per_hand(t, part), FIGURE_DECIMALS) for label, t in candidates}
            rms_errors[name] = {label: round(measure.rms_error_per_hand(t, part), FIGURE_DECIMALS)
                                for label, t in candidates}
    per = data.per_measurement
    split = measure.split_by_aggressor(fitting.per_measurement)
    aggressor = measure.aggressor_edges(fitting.per_measurement)
    aggressor_term = None if aggressor is None else {
        "in_position": round(aggressor[0], FIGURE_DECIMALS), "out_of_position": round(aggressor[1], FIGURE_DECIMALS),
        "error_per_hand_bb": {name: {"staged": errors[name]["staged"],
                                     "staged_with_term": round(measure.error_per_hand(staged, part, aggressor),
                                                               FIGURE_DECIMALS)}
                              for name, part in (("fitting", fitting), ("heldout", heldout)) if name in errors}}
    classes = measure.class_realisation(fitting)
    spots = pd.read_csv(plan_paths["spots"], sep="\t")
    digests = {name: sha256_file(path) for name, path in sorted(plan_paths.items())}
    digests["measurements"] = hashlib.sha256("".join(sha256_file(p) for p in job_paths).encode()).hexdigest()
    result = {
        "constants": _constants(staged),
        "method": "staged fit (a from the measured commitments, b/c2/cap from the measured edges)",
        "staged": {"value": _constants(staged), "se": _se(boot["staged"])},
        "joint": {"value": _constants(joint), "se": _se(boot["joint"])},
        "shipped_before": _constants(theta_shipped),
        "error_per_hand_bb": errors,
        "rms_error_per_hand_bb": rms_errors,
        "counts": {"spots": int(per["spot"].nunique()), "endings": int(per.groupby(["spot", "rank"]).ngroups),
                   "measurements": int(len(per)), "fitting": int(len(fitting.per_measurement)),
                   "heldout": int(len(heldout.per_measurement)), "hands": int(len(data.combos)),
                   "missing_endings": int(sum(1 for f, r in frames if r.get("missing")))},
        "spots": _json_records(spots),
        "aggressor_split": _json_records(split),
        "aggressor_term": aggressor_term,
        "class_realisation_extremes": _extremes(classes),
        "backend": settings.backend,
        "accuracy_pct_pot": settings.accuracy_pct_pot,
        "bootstrap": settings.bootstrap,
        "seed": settings.seed,
        "inputs_sha256": digests,
    }
    if fit_section is not None:
        canonical = json.dumps(fit_section, sort_keys=True, separators=(",", ":"))
        result["provenance"] = {"fit_config_sha256": hashlib.sha256(canonical.encode()).hexdigest(),
                                "fit_config": fit_section, "command": command}
    write_report(report_dir, data, fitting, heldout, result, split, classes, theta_shipped, staged, joint)
    write_json_atomic(out_json, result)
    return result


def class_table_check(job_paths: list[str | os.PathLike], constants_path: str | os.PathLike,
                      class_table_path: str | os.PathLike, out_json: str | os.PathLike) -> dict[str, Any]:
    """Error per hand (bb) of model v1 (the fitted constants) and v2 (the same constants plus the
    class table, fitted on the fitting boards only) on the fitting and the held-out boards."""
    from pokerlab.preflop.class_edges import read_class_table

    data = measure.build_measurements([read_measurement(p) for p in job_paths])
    model = read_postflop_constants(constants_path)
    theta = np.array([model.a, model.b, model.c2, model.cap])
    edges = read_class_table(class_table_path)
    if len(edges.bands) != 1:
        raise ValueError(f"class table {class_table_path}: the check handles one spr band, found {len(edges.bands)}")
    out: dict[str, Any] = {"constants": _constants(theta), "class_table_sha256": edges.provenance["sha256"],
                           "classes_with_deviation": {"ip": int(np.count_nonzero(edges.ip[0])),
                                                      "oop": int(np.count_nonzero(edges.oop[0]))},
                           "error_per_hand_bb": {}}
    for name, part in (("fitting", data.subset(False)), ("heldout", data.subset(True))):
        if len(part.per_measurement):
            out["error_per_hand_bb"][name] = {
                "v1": round(measure.error_per_hand(theta, part), FIGURE_DECIMALS),
                "v2": round(measure.error_per_hand_v2(theta, part, edges.ip[0], edges.oop[0]), FIGURE_DECIMALS),
                "measurements": int(len(part.per_measurement)), "hands": int(len(part.combos))}
    write_json_atomic(out_json, out)
    return out


def _json_records(frame: pd.DataFrame) -> list[dict[str, Any]]:
    """A frame's rows for JSON: floats rounded, undefined ones (a standard error from one
    measurement) as ``null``."""
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else
                 round(v, FIGURE_DECIMALS) if isinstance(v, float) else v) for k, v in r.items()}
            for r in frame.to_dict(orient="records")]


def _extremes(classes, n: int = 5) -> dict[str, list[dict[str, Any]]]:
    """Per role, the ``n`` most and least realising classes with at least 20 hands behind them."""
    out = {}
    for role in ("ip", "oop"):
        sel = classes[(classes["role"] == role) & (classes["hands"] >= 20)].sort_values("realisation")
        pick = lambda f: [{"class": r["class"], "realisation": round(float(r["realisation"]), FIGURE_DECIMALS),
                           "se": round(float(r["se"]), FIGURE_DECIMALS) if np.isfinite(r["se"]) else None,
                           "hands": int(r["hands"])} for _, r in f.iterrows()]
        out[role] = {"lowest": pick(sel.head(n)), "highest": pick(sel.tail(n).iloc[::-1])}
    return out
