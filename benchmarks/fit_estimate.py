"""The fitting run's measured cost, and an estimate of a larger fit's CPU-hours from it.

Reads a (finished or partial) fit run: each ``fit_solve`` job's ``benchmark:`` file
(``logs/benchmarks/fit/*.tsv``: wall and CPU seconds of the whole job, start-up included) and its
measurement (iterations run, exploitability reached). Prints per-solve CPU and the totals. CPU is
the job's own count from its log (``job cpu_seconds``, user + system since the job started) where
the log has it; otherwise the benchmark file's, which samples the job every 30 s and so misses up
to 30 s of each job's CPU (the total is then a lower bound, and says so).

With ``--target-config`` it projects another fit config (e.g. config/presets/fit-cluster-never-run.yaml) from these
measurements: per solve, CPU = iterations x CPU per iteration, where

* CPU per iteration is the measured one scaled by the ratio of the two bet trees' public node
  counts on the same board and pot (built, not guessed);
* iterations to reach the target accuracy scale as (measured % pot / target % pot)^(1/rate),
  rate 1 (exploitability ~ 1/iterations; the solver's docstring gives the measured rates).

It is an extrapolation from the measured solves' spots and ranges: a target config with much
wider ranges or deeper stacks costs more than it says. Everything assumed is printed.

    .venv/bin/python benchmarks/fit_estimate.py
    .venv/bin/python benchmarks/fit_estimate.py --target-config config/presets/fit-cluster-never-run.yaml
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

import pandas as pd
import yaml


def _tree_nodes(fit_section: dict, pot: float, behind: float) -> int:
    """Public nodes of the fit's bet tree on a dry flop at this pot and stack (ranges irrelevant)."""
    import numpy as np

    from pokerlab.cards import parse_cards
    from pokerlab.fit.settings import FitSettings
    from pokerlab.postflop.game import PostflopSpot
    from pokerlab.postflop.tree import build_tree

    settings = FitSettings.from_config(fit_section)
    ones = np.ones(1326)
    return build_tree(PostflopSpot(pot, behind, tuple(parse_cards("Ks7d2c")), ones, ones, settings.bet_tree)).n_nodes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", default=".", help="the workflow's directory (default: here)")
    parser.add_argument("--config", default="config/config.yaml", help="the config the run used")
    parser.add_argument("--target-config", help="a fit config to project (merged over --config)")
    parser.add_argument("--rate", type=float, default=1.0, help="exploitability ~ iterations^-rate")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
    from pokerlab.fit.solves import read_measurement
    from pokerlab.job_log import JOB_CPU

    rows = []
    for bench in sorted(glob.glob(os.path.join(args.workdir, "logs/benchmarks/fit/*.tsv"))):
        stem = os.path.basename(bench)[:-4]  # {format}_{seats}max_{depth}bb_e{rank}_b{board}
        fmt, seats, depth, rank, board = stem.split("_")  # fit spots are cash or mtt
        path = os.path.join(args.workdir, "results/fit/solves", fmt, seats, depth, rank, board + ".parquet")
        if not os.path.exists(path):
            continue
        frame, record = read_measurement(path)
        if record.get("missing"):
            continue
        b = pd.read_csv(bench, sep="\t").iloc[-1]
        log = os.path.join(args.workdir, "logs/fit", f"solve_{stem}.log")
        logged = JOB_CPU.findall(open(log, errors="replace").read()) if os.path.exists(log) else []
        rows.append({"job": stem, "wall_s": float(b["s"]),
                     "cpu_s": float(logged[-1]) if logged else float(b["cpu_time"]), "cpu_from": "log" if logged else "bench",
                     "iterations": record["iterations"], "pct_pot": record["exploitability_pct_pot"],
                     "combos": int(len(frame)), "pot": record["pot_bb"], "behind": record["behind_bb"]})
    if not rows:
        print("no finished fit_solve job found (run: snakemake --cores 2 results/fit/constants.json)")
        return 1
    jobs = pd.DataFrame(rows)
    with pd.option_context("display.width", 160, "display.max_rows", 200):
        print(jobs.to_string(index=False, float_format=lambda x: f"{x:.3g}"))
    print(f"\n{len(jobs)} solves: CPU {jobs['cpu_s'].sum():.0f} s ({jobs['cpu_s'].sum() / 3600:.2f} CPU-h), "
          f"mean {jobs['cpu_s'].mean():.1f} s, max {jobs['cpu_s'].max():.1f} s; wall sum {jobs['wall_s'].sum():.0f} s; "
          f"load average now {os.getloadavg()[0]:.1f}")
    sampled = int((jobs["cpu_from"] == "bench").sum())
    if sampled:
        print(f"{sampled} of {len(jobs)} jobs' CPU from benchmark files (sampled every 30 s): the total is a lower "
              f"bound, at most {sampled * 30 / 3600:.2f} CPU-h short")
    if not args.target_config:
        return 0
    base = yaml.safe_load(open(os.path.join(args.workdir, args.config)))["fit"]
    target = {**base, **yaml.safe_load(open(args.target_config))["fit"]}
    per_iter = jobs["cpu_s"] / jobs["iterations"]
    node_ratio = [_tree_nodes(target, p, s) / _tree_nodes(base, p, s) for p, s in zip(jobs["pot"], jobs["behind"])]
    iterations = jobs["iterations"] * (jobs["pct_pot"] / target["accuracy_pct_pot"]).clip(lower=1.0) ** (1.0 / args.rate)
    iterations = iterations.clip(upper=target["max_iterations"])
    cpu = per_iter * pd.Series(node_ratio) * iterations
    n_solves = len(target["spots"]) * target["endings_per_spot"] * (target["boards"] + target["heldout_boards"])
    print(f"\nprojection to {args.target_config}: {n_solves} solves; tree node ratio "
          f"{min(node_ratio):.2f}-{max(node_ratio):.2f}; iterations x{(iterations / jobs['iterations']).mean():.1f} "
          f"(rate {args.rate}); mean {cpu.mean():.0f} CPU-s per solve -> {n_solves * cpu.mean() / 3600:.1f} CPU-hours "
          f"({n_solves * cpu.mean() / 3600 / 2:.1f} h on 2 cores, {n_solves * cpu.mean() / 3600 / 32:.2f} h on 32)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
