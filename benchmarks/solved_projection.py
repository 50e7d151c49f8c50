"""Projected CPU of solved endings for every chip spot of the sweep, priced from a measured rounds run.

    .venv/bin/python benchmarks/solved_projection.py --calibration /path/to/rounds-run \
        [--configfile config/presets/solved-rounds-6max100.yaml] [--workdir .] [--cores 32 512 2048]

``--workdir`` holds a finished sweep (``results/solves/{spot}/result.json`` and the solve logs
``logs/solves/*.log``, as ``snakemake all`` leaves them). ``--calibration`` is a working copy that ran
``snakemake solved_rounds`` for ``--calibration-spot`` (its plan under ``results/solved/i0/plan/`` and its
jobs' logs under ``logs/solved/rounds/``; a run still going counts with its finished jobs).

For every cash and tournament spot of the sheet (the ICM formats have no solved endings) it plans the
endings a rounds run of ``--configfile``'s ``solved`` settings would re-value (the plan's rule: the
``max_per_spot`` most reached heads-up flop endings, each reached by ``min_reach`` of the deals), then
prices a round as one preflop job plus one flop job per ending and flop (fitting and held-out):

- a flop job costs the calibration's fixed price plus its variable CPU per state cell times the
  ending's tree cells (:mod:`pokerlab.solved.cost`);
- a preflop job costs the calibration's preflop job plus ``exchange.every`` times what a preflop
  iteration of the spot costs more than one of the calibration spot in the sweep (the solve logs' CPU
  over the iterations).

It prints the calibration, one row per format and table size (spots, endings, their mean share of the
heads-up flop-ending mass, jobs and CPU per round, CPU of the run, the longest chain, the most flop state
one spot keeps on disk between rounds), the totals, and the wall time on
``--cores`` cores: at least the total CPU over the cores, and at least the longest spot's chain of
rounds (each round waits for its slowest job).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

FLOP_HANDS = 1176  # the combos of 49 cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calibration", required=True, help="working copy of a solved_rounds run")
    parser.add_argument("--calibration-spot", default="cash/2max/100bb")
    parser.add_argument("--rounds", type=int, nargs=2, default=[1, 10**6], metavar=("FIRST", "LAST"),
                        help="price from the calibration's rounds FIRST to LAST")
    parser.add_argument("--fixed-cpu", type=float, help="a flop job's fixed price in the calibration run, CPU-s "
                        "(default: pokerlab.solved.cost.FIXED_JOB_CPU_SECONDS)")
    parser.add_argument("--configfile", default="config/presets/solved-rounds-6max100.yaml",
                        help="the solved settings projected to every spot (merged over config/config.yaml)")
    parser.add_argument("--workdir", default=".", help="working copy with a finished sweep")
    parser.add_argument("--sheet", default="config/spots.tsv")
    parser.add_argument("--cores", type=int, nargs="+", default=[32, 512, 2048])
    parser.add_argument("--table", help="also write the per-spot projection here (TSV)")
    args = parser.parse_args()

    from pokerlab.fit.endings import spot_endings
    from pokerlab.fit.plan import planned_endings
    from pokerlab.postflop.dcfr import REGRET_DTYPE, STATE_DTYPE, SUM_DTYPE
    from pokerlab.preflop.result_file import read_result
    from pokerlab.preflop.solve import read_solve_timing, solve_log_path
    from pokerlab.preflop.spot import load_sizing, spot_name
    from pokerlab.solved.cost import FIXED_JOB_CPU_SECONDS, price_flop_job, read_calibration, tree_cells
    from pokerlab.solved.rounds import round_iterations
    from pokerlab.solved.settings import CHIP_FORMATS, SolvedSettings

    config = yaml.safe_load(Path("config/config.yaml").read_text())
    config["solved"].update(yaml.safe_load(Path(args.configfile).read_text())["solved"])
    settings = SolvedSettings.from_config(config["solved"])
    sizing = load_sizing(config["solve"]["sizing"])
    rounds = len(round_iterations(settings.exchange_every, settings.exchange_iterations))
    flops = settings.boards + settings.heldout_boards
    # a flop's hands: every combo off the board (the floor keeps every class); a regret and a strategy sum each
    stored = (REGRET_DTYPE, SUM_DTYPE) if settings.compression else (STATE_DTYPE, STATE_DTYPE)
    state_bytes_per_cell = FLOP_HANDS * sum(np.dtype(t).itemsize for t in stored)

    def cells_of(node: str, pot_bb: float, behind_bb: float) -> int:
        return tree_cells(pot_bb, behind_bb, settings.bet_tree_for(node))

    def result_path(name: str) -> Path:
        path = Path(args.workdir) / "results/solves" / name / "result.json"
        if not path.is_file():
            raise SystemExit(f"{path}: missing; solve the sweep's chip spots first "
                             f"(snakemake --cores N -- {path.relative_to(args.workdir)} ...)")
        return path

    def preflop_cpu_per_iteration(name: str) -> float:
        work = Path(args.workdir)
        result = json.loads(result_path(name).read_text())
        cpu = read_solve_timing(solve_log_path(work / "logs/solves", name))[1]
        if math.isnan(cpu):
            raise SystemExit(f"{name}: no solve timing in logs/solves/ of {work}")
        return cpu / result["iterations"]

    run = Path(args.calibration)
    plan = pd.read_csv(run / "results/solved/i0/plan" / args.calibration_spot / "endings.tsv", sep="\t")
    calibration = read_calibration(run / "logs/solved/rounds", args.calibration_spot,
                                   {int(e.rank): cells_of(e.node, e.pot_bb, e.behind_bb) for e in plan.itertuples()},
                                   rounds=range(args.rounds[0], args.rounds[1] + 1),
                                   fixed_cpu=FIXED_JOB_CPU_SECONDS if args.fixed_cpu is None else args.fixed_cpu)
    print(f"calibration {calibration.spot}: {calibration.rounds} rounds on record from round {args.rounds[0]}, "
          f"preflop job "
          f"{calibration.preflop_job_cpu:.2f} CPU-s, flop job fixed price {calibration.fixed_cpu:.1f} CPU-s")
    for rank, cpu in calibration.flop_job_cpu.items():
        print(f"  e{rank} ({plan.node[rank]}, spr {plan.spr[rank]:.1f}): {calibration.flop_jobs[rank]} jobs, "
              f"{cpu:.2f} CPU-s each, {calibration.cells[rank]:,} state cells per hand")
    print(f"  variable: {calibration.variable_cpu_per_cell * 1e6:.2f} CPU-us per state cell per hand and flop job")
    reference_preflop = preflop_cpu_per_iteration(args.calibration_spot)

    sheet = pd.read_csv(Path(args.workdir) / args.sheet, sep="\t", comment="#")
    rows = []
    for f, n, d in sheet[["format", "seats", "depth"]].itertuples(index=False):
        name = spot_name(f, n, d)
        if f not in CHIP_FORMATS:
            rows.append({"spot": name, "format": f, "seats": n, "covered": False})
            continue
        found = spot_endings(read_result(result_path(name)), sizing)
        chosen = planned_endings(found, settings.max_endings, settings.min_reach)
        headsup = found.flop_mass - found.three_way_mass
        cells = [cells_of(e.node, e.pot_bb, e.behind_bb) for e in chosen]
        jobs = [price_flop_job(calibration, c) for c in cells]
        extra = settings.exchange_every * max(0.0, preflop_cpu_per_iteration(name) - reference_preflop)
        preflop = calibration.preflop_job_cpu + extra
        round_cpu = preflop + flops * sum(jobs)
        state_gb = flops * sum(cells) * state_bytes_per_cell / 1e9
        rows.append({"spot": name, "format": f, "seats": n, "covered": True, "endings": len(chosen),
                     "headsup_cover": sum(e.reach for e in chosen) / headsup if headsup > 0 else 0.0,
                     "flop_jobs": flops * len(chosen), "round_cpu_s": round_cpu, "run_cpu_h": rounds * round_cpu / 3600,
                     "chain_h": rounds * (preflop + max(jobs, default=0.0)) / 3600, "state_gb": state_gb})
    frame = pd.DataFrame(rows)
    if args.table:
        frame.to_csv(args.table, sep="\t", index=False)
    covered = frame[frame.covered]
    print(f"\nsettings ({args.configfile}): at most {settings.max_endings} endings per spot, each >= "
          f"{settings.min_reach:g} of deals; {settings.boards} + {settings.heldout_boards} flops; {rounds} rounds")
    print(f"{'spots':<12}{'n':>4}{'endings':>9}{'hu cover':>10}{'jobs/round':>12}{'CPU-h/round':>13}"
          f"{'CPU-h':>9}{'chain h':>9}{'state GB':>10}")
    for (f, n), g in covered.groupby(["format", "seats"]):
        print(f"{f + '/' + str(n) + 'max':<12}{len(g):>4}{g.endings.sum():>9}{g.headsup_cover.mean():>10.2f}"
              f"{g.flop_jobs.sum() + len(g):>12}{g.round_cpu_s.sum() / 3600:>13.2f}{g.run_cpu_h.sum():>9.1f}"
              f"{g.chain_h.max():>9.2f}{g.state_gb.max():>10.0f}")
    total = covered.run_cpu_h.sum()
    jobs = rounds * int(covered.flop_jobs.sum() + len(covered))
    print(f"\n{len(covered)} chip spots: {total:,.0f} CPU-h, {jobs:,} jobs; {len(frame) - len(covered)} ICM spots "
          f"not covered (their payoffs are not chips)")
    print(f"  flop states kept between rounds: up to {covered.state_gb.max():.0f} GB for one spot, "
          f"{covered.state_gb.sum() / 1000:.1f} TB for every spot at once (no suit isomorphism counted)")
    for cores in args.cores:
        wall = max(total / cores, covered.chain_h.max())
        print(f"  on {cores:>5} cores: at least {wall:,.1f} h")


if __name__ == "__main__":
    main()
