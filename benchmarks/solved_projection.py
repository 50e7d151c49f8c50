"""Projected CPU of solved endings for every chip spot of the sweep, priced from a measured run.

    .venv/bin/python benchmarks/solved_projection.py --calibration /path/to/rounds-run \
        [--configfile config/presets/solved-rounds-6max100.yaml] [--workdir .] [--cores 32 512 2048]
    .venv/bin/python benchmarks/solved_projection.py --method exchange --calibration . --resident-gb 18 \
        [--configfile config/presets/solved-exchange-hu100-pooled.yaml] [--workdir /path/to/sweep]

``--method exchange`` prices the in-process exchange the shipped tables come from: one job per spot that
holds every fitting flop solve of its endings. Its calibration is a finished ``solved_exchange_validation``
run of ``--calibration-spot``: the job's CPU (its log's total, else the report's over its exchanges), divided by the resident flop solves'
state cells (per hand) and postflop iterations, prices another spot's exchange by its own cells; the
held-out solves' job logs price its held-out check per cell; ``--resident-gb`` (the calibration's measured
memory) is scaled by the resident cells. It prints per format and table size the exchanges' and held-out
checks' CPU, the longest job on ``--threads`` cores and the largest memory, and the wall time on
``--cores`` cores: at least the total over the cores and at least the longest job.

The rest of this text is about ``--method rounds`` (the default).

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
import functools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

FLOP_HANDS = 1176  # the combos of 49 cards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--method", choices=("rounds", "exchange"), default="rounds",
                        help="price a rounds run (jobs per round) or the in-process exchange (one job per spot)")
    parser.add_argument("--calibration", required=True, help="working copy of a measured solved_rounds or "
                        "solved_exchange run of --calibration-spot")
    parser.add_argument("--calibration-spot", default="cash/2max/100bb")
    parser.add_argument("--rounds", type=int, nargs=2, default=[1, 10**6], metavar=("FIRST", "LAST"),
                        help="rounds: price from the calibration's rounds FIRST to LAST")
    parser.add_argument("--fixed-cpu", type=float, help="rounds: a flop job's fixed price in the calibration run, "
                        "CPU-s (default: pokerlab.solved.cost.FIXED_JOB_CPU_SECONDS)")
    parser.add_argument("--resident-gb", type=float, help="exchange: the calibration run's resident memory, GB "
                        "(scaled by each spot's resident flop cells)")
    parser.add_argument("--threads", type=int, default=2, help="exchange: cores per spot's job (default 2)")
    parser.add_argument("--configfile", help="the solved settings projected to every spot (merged over "
                        "config/config.yaml; default: solved-rounds-6max100.yaml for rounds, the shipped "
                        "solved-exchange-hu100-pooled.yaml for exchange)")
    parser.add_argument("--workdir", default=".", help="working copy with a finished sweep")
    parser.add_argument("--sheet", default="config/spots.tsv")
    parser.add_argument("--cores", type=int, nargs="+", default=[32, 512, 2048])
    parser.add_argument("--table", help="also write the per-spot projection here (TSV)")
    args = parser.parse_args()
    if args.configfile is None:
        args.configfile = {"rounds": "config/presets/solved-rounds-6max100.yaml",
                           "exchange": "config/presets/solved-exchange-hu100-pooled.yaml"}[args.method]

    from pokerlab.fit.endings import spot_endings
    from pokerlab.fit.plan import planned_endings
    from pokerlab.preflop.result_file import read_result
    from pokerlab.preflop.solve import read_solve_timing, solve_log_path
    from pokerlab.preflop.spot import load_sizing, spot_name
    from pokerlab.solved.cost import tree_cells
    from pokerlab.solved.settings import CHIP_FORMATS, SolvedSettings

    config = yaml.safe_load(Path("config/config.yaml").read_text())
    config["solved"].update(yaml.safe_load(Path(args.configfile).read_text())["solved"])
    settings = SolvedSettings.from_config(config["solved"])
    sizing = load_sizing(config["solve"]["sizing"])

    @functools.lru_cache(maxsize=None)  # the same endings recur across spots; a tree takes a while to build
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
    plan_cells = {int(e.rank): cells_of(e.node, e.pot_bb, e.behind_bb) for e in plan.itertuples()}
    price = (exchange_pricer if args.method == "exchange" else rounds_pricer)(args, settings, plan, plan_cells)
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
        extra_preflop = max(0.0, preflop_cpu_per_iteration(name) - reference_preflop)  # CPU-s per preflop iteration
        rows.append({"spot": name, "format": f, "seats": n, "covered": True, "endings": len(chosen),
                     "headsup_cover": sum(e.reach for e in chosen) / headsup if headsup > 0 else 0.0,
                     **price(cells, extra_preflop)})
    frame = pd.DataFrame(rows)
    if args.table:
        frame.to_csv(args.table, sep="\t", index=False)
    (print_exchange if args.method == "exchange" else print_rounds)(args, settings, frame[frame.covered], len(frame))


def rounds_pricer(args, settings, plan, plan_cells):
    """Print the rounds calibration; return the per-spot price of a rounds run (cells of its endings,
    extra preflop CPU-s per iteration) -> its row's figures."""
    from pokerlab.postflop.dcfr import REGRET_DTYPE, STATE_DTYPE, SUM_DTYPE
    from pokerlab.solved.cost import FIXED_JOB_CPU_SECONDS, price_flop_job, read_calibration
    from pokerlab.solved.rounds import round_iterations

    calibration = read_calibration(Path(args.calibration) / "logs/solved/rounds", args.calibration_spot, plan_cells,
                                   rounds=range(args.rounds[0], args.rounds[1] + 1),
                                   fixed_cpu=FIXED_JOB_CPU_SECONDS if args.fixed_cpu is None else args.fixed_cpu)
    print(f"calibration {calibration.spot}: {calibration.rounds} rounds on record from round {args.rounds[0]}, "
          f"preflop job "
          f"{calibration.preflop_job_cpu:.2f} CPU-s, flop job fixed price {calibration.fixed_cpu:.1f} CPU-s")
    for rank, cpu in calibration.flop_job_cpu.items():
        print(f"  e{rank} ({plan.node[rank]}, spr {plan.spr[rank]:.1f}): {calibration.flop_jobs[rank]} jobs, "
              f"{cpu:.2f} CPU-s each, {calibration.cells[rank]:,} state cells per hand")
    print(f"  variable: {calibration.variable_cpu_per_cell * 1e6:.2f} CPU-us per state cell per hand and flop job")
    rounds = len(round_iterations(settings.exchange_every, settings.exchange_iterations))
    flops = settings.boards + settings.heldout_boards
    # a flop's hands: every combo off the board (the floor keeps every class); a regret and a strategy sum each
    stored = (REGRET_DTYPE, SUM_DTYPE) if settings.compression else (STATE_DTYPE, STATE_DTYPE)
    state_bytes_per_cell = FLOP_HANDS * sum(np.dtype(t).itemsize for t in stored)

    def price(cells: list[int], extra_preflop: float) -> dict:
        jobs = [price_flop_job(calibration, c) for c in cells]
        preflop = calibration.preflop_job_cpu + settings.exchange_every * extra_preflop
        round_cpu = preflop + flops * sum(jobs)
        return {"rounds": rounds, "flop_jobs": flops * len(cells), "round_cpu_s": round_cpu,
                "run_cpu_h": rounds * round_cpu / 3600, "chain_h": rounds * (preflop + max(jobs, default=0.0)) / 3600,
                "state_gb": flops * sum(cells) * state_bytes_per_cell / 1e9}

    return price


def print_rounds(args, settings, covered, spots):
    rounds = int(covered["rounds"].iloc[0])
    print(f"\nsettings ({args.configfile}): at most {settings.max_endings} endings per spot, each >= "
          f"{settings.min_reach:g} of deals; {settings.boards} + {settings.heldout_boards} flops; {rounds} rounds")
    print(f"{'spots':<12}{'n':>4}{'endings':>9}{'hu cover':>10}{'jobs/round':>12}{'CPU-h/round':>13}"
          f"{'CPU-h':>9}{'chain h':>9}{'state GB':>10}")
    for (f, n), g in covered.groupby(["format", "seats"]):
        print(f"{f + '/' + str(n) + 'max':<12}{len(g):>4}{int(g.endings.sum()):>9}{g.headsup_cover.mean():>10.2f}"
              f"{g.flop_jobs.sum() + len(g):>12}{g.round_cpu_s.sum() / 3600:>13.2f}{g.run_cpu_h.sum():>9.1f}"
              f"{g.chain_h.max():>9.2f}{g.state_gb.max():>10.0f}")
    total = covered.run_cpu_h.sum()
    jobs = rounds * int(covered.flop_jobs.sum() + len(covered))
    print(f"\n{len(covered)} chip spots: {total:,.0f} CPU-h, {jobs:,} jobs; {spots - len(covered)} ICM spots "
          f"not covered (their payoffs are not chips)")
    print(f"  flop states kept between rounds: up to {covered.state_gb.max():.0f} GB for one spot, "
          f"{covered.state_gb.sum() / 1000:.1f} TB for every spot at once (no suit isomorphism counted)")
    for cores in args.cores:
        wall = max(total / cores, covered.chain_h.max())
        print(f"  on {cores:>5} cores: at least {wall:,.1f} h")


def exchange_pricer(args, settings, plan, plan_cells):
    """Print the exchange calibration; return the per-spot price of an in-process exchange (one job per
    spot holding every fitting flop solve) and of its held-out check."""
    from pokerlab.preflop.ending_corrections import read_ending_corrections
    from pokerlab.solved.cost import read_exchange_calibration

    run, spot_file = Path(args.calibration), args.calibration_spot.replace("/", "-")
    measured = read_ending_corrections(run / "results/solved/exchange" / f"{spot_file}.tsv").provenance["settings"]
    calibration = read_exchange_calibration(run / "results/solved/exchange" / f"{spot_file}.json",
                                            run / "logs/solved" / f"exchange_{spot_file}.log",
                                            measured["exchange"].get("postflop_every", measured["exchange"]["every"]),
                                            measured["boards"], plan_cells, run / "logs/solved/exchange",
                                            args.calibration_spot)
    print(f"calibration {calibration.spot}: {calibration.exchanges} exchanges, {calibration.exchange_cpu:,.0f} CPU-s, "
          f"{measured['boards']} fitting flops on each of {len(plan_cells)} endings ({calibration.resident_cells:,} "
          f"resident state cells per hand), {calibration.postflop_iterations} postflop iterations per flop and "
          f"exchange: {calibration.cpu_per_cell_iteration * 1e6:.3f} CPU-us per state cell per hand and postflop "
          f"iteration; held out: {calibration.heldout_solves} solves, "
          f"{calibration.heldout_cpu_per_cell * 1e6:.1f} CPU-us per cell each")
    exchanges = -(-settings.exchange_iterations // settings.exchange_every)
    heldout = settings.validation_boards if settings.validation_boards is not None else settings.heldout_boards

    def price(cells: list[int], extra_preflop: float) -> dict:
        resident = settings.boards * sum(cells)
        cpu = (exchanges * settings.postflop_iterations(settings.exchange_every) * resident
               * calibration.cpu_per_cell_iteration + settings.exchange_iterations * extra_preflop)
        return {"exchange_cpu_h": cpu / 3600, "heldout_cpu_h": heldout * sum(cells) * calibration.heldout_cpu_per_cell / 3600,
                "job_h": cpu / 3600 / args.threads,
                "resident_gb": (args.resident_gb or math.nan) * resident / calibration.resident_cells}

    return price


def print_exchange(args, settings, covered, spots):
    heldout = settings.validation_boards if settings.validation_boards is not None else settings.heldout_boards
    print(f"\nsettings ({args.configfile}): at most {settings.max_endings} endings per spot, each >= "
          f"{settings.min_reach:g} of deals; {settings.boards} fitting flops resident, {heldout} held out; "
          f"{settings.exchange_iterations} preflop iterations exchanging every {settings.exchange_every}")
    print(f"{'spots':<12}{'n':>4}{'endings':>9}{'hu cover':>10}{'CPU-h':>9}{'held-out CPU-h':>16}"
          f"{'longest job h':>15}{'memory GB':>11}")
    for (f, n), g in covered.groupby(["format", "seats"]):
        print(f"{f + '/' + str(n) + 'max':<12}{len(g):>4}{int(g.endings.sum()):>9}{g.headsup_cover.mean():>10.2f}"
              f"{g.exchange_cpu_h.sum():>9.1f}{g.heldout_cpu_h.sum():>16.1f}{g.job_h.max():>15.2f}"
              f"{g.resident_gb.max():>11.0f}")
    total = covered.exchange_cpu_h.sum() + covered.heldout_cpu_h.sum()
    print(f"\n{len(covered)} chip spots: {covered.exchange_cpu_h.sum():,.0f} CPU-h of exchanges and "
          f"{covered.heldout_cpu_h.sum():,.0f} of held-out checks, {total:,.0f} in all; {spots - len(covered)} ICM "
          f"spots not covered (their payoffs are not chips); {int((covered.endings > 0).sum())} jobs of "
          f"{args.threads} cores, the largest holding {covered.resident_gb.max():.0f} GB")
    for cores in args.cores:
        wall = max(total / cores, covered.job_h.max())
        print(f"  on {cores:>5} cores: at least {wall:,.1f} h")


if __name__ == "__main__":
    main()
