"""A solved-endings run's table per round or exchange, as Markdown: what the exchange moved, its
valuation gaps, the joint exploitability at measuring rounds, and the CPU of the round's jobs.

    .venv/bin/python benchmarks/solved_rounds_table.py --spot cash/2max/100bb \
        [--report results/solved/rounds/cash-2max-100bb-rounds.json] [--logs logs/solved/rounds]
    .venv/bin/python benchmarks/solved_rounds_table.py --spot cash/2max/100bb \
        --exchange results/solved/exchange/cash-2max-100bb.json

With ``--exchange`` it reads the report of the exchange run in one process (``snakemake solved_exchange``)
instead: one row per exchange, with the gap of the corrections that paid it on the fitting flops (the
largest over the endings; the held-out flops are checked once, after the run) and the process's CPU.

The report is what ``snakemake solved_rounds_validation`` writes (every round's gaps, with the
exchange's history row); the CPU comes from the jobs' logs (``pokerlab.solved.cost.round_job_cpu``).
Columns: the round and the preflop iteration it ends at; how far the corrections moved (bb, the
largest class change); the valuation gap of the corrections that paid the round and of the model alone,
on the fitting and on the held-out flops (bb, reach-weighted over the endings); at measuring rounds the
joint exploitability per seat (bb) and the average strategy's largest and mean change since the last
measuring round (points); the round's CPU seconds (preflop job + flop jobs).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spot", required=True, help="e.g. cash/2max/100bb")
    parser.add_argument("--report", help="default: results/solved/rounds/{spot as a-b-c}-rounds.json")
    parser.add_argument("--logs", default="logs/solved/rounds")
    parser.add_argument("--exchange", help="the report of an exchange run in one process (its history)")
    args = parser.parse_args()
    if args.exchange:
        exchange_table(args.spot, json.loads(Path(args.exchange).read_text()))
        return

    from pokerlab.solved.cost import round_job_cpu

    spot_file = args.spot.replace("/", "-")
    report = json.loads(Path(args.report or f"results/solved/rounds/{spot_file}-rounds.json").read_text())
    if report["spot"] != args.spot:
        raise SystemExit(f"the report is of {report['spot']}, not {args.spot}")
    preflop: dict[int, float] = {}
    flops: dict[int, list[float]] = {}
    for job in round_job_cpu(args.logs, args.spot):
        if job.rank is None:
            preflop[job.round] = job.cpu_seconds
        else:
            flops.setdefault(job.round, []).append(job.cpu_seconds)

    print("| round | iteration | corrections moved | gap fitting: table / model | gap held-out: table / model "
          "| joint exploitability per seat | average change max / mean (pp) | CPU-s: preflop + flops (jobs) |")
    print("|---:|---:|---:|---|---|---|---|---|")
    for row in report["rounds"]:
        r, history = row["round"], row.get("history", {})
        gain, moved = measured_columns(history)
        cpu = flops.get(r, [])
        print(f"| {r} | {row['iteration']} | {number(history.get('correction_change_bb'))} "
              f"| {number(row.get('gap_fitting_bb'))} / {number(row.get('model_gap_fitting_bb'))} "
              f"| {number(row.get('gap_heldout_bb'))} / {number(row.get('model_gap_heldout_bb'))} "
              f"| {gain} | {moved} | {number(preflop.get(r), 1)} + {sum(cpu):.0f} ({len(cpu)}) |")


def number(value, digits: int = 3) -> str:
    return "" if value is None else f"{value:.{digits}f}"


def measured_columns(history: dict) -> tuple[str, str]:
    """A measuring row's joint exploitability per seat and average strategy change (blank elsewhere)."""
    gain = ", ".join(f"{seat} {v:.3f}" for seat, v in history.get("joint_gain_bb", {}).items())
    change = history.get("average_change")
    return gain, (f"{change['max_pp']:.1f} / {change['mean_pp']:.2f}" if change else "")


def exchange_table(spot: str, report: dict) -> None:
    if report["spot"] != spot:
        raise SystemExit(f"the report is of {report['spot']}, not {spot}")
    print("| iteration | corrections moved | gap paid, fitting (largest ending) | joint exploitability per seat "
          "| average change max / mean (pp) | CPU-s |")
    print("|---:|---:|---:|---|---|---:|")
    for history in report["history"]:
        gain, moved = measured_columns(history)
        print(f"| {history['iteration']} | {number(history['correction_change_bb'])} | "
              f"{number(history['gap_before_bb'])} | {gain} | {moved} | {number(history['cpu_seconds'], 0)} |")


if __name__ == "__main__":
    main()
