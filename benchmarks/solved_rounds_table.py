"""A rounds run's table per round, as Markdown: what the exchange moved, its valuation gaps, the joint
exploitability at measuring rounds, and the CPU of the round's jobs.

    .venv/bin/python benchmarks/solved_rounds_table.py --spot cash/2max/100bb \
        [--report results/solved/rounds/cash-2max-100bb-rounds.json] [--logs logs/solved/rounds]

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
    args = parser.parse_args()

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

    def number(value, digits: int = 3) -> str:
        return "" if value is None else f"{value:.{digits}f}"

    print("| round | iteration | corrections moved | gap fitting: table / model | gap held-out: table / model "
          "| joint exploitability per seat | average change max / mean (pp) | CPU-s: preflop + flops (jobs) |")
    print("|---:|---:|---:|---|---|---|---|---|")
    for row in report["rounds"]:
        r, history = row["round"], row.get("history", {})
        gain = ", ".join(f"{seat} {v:.3f}" for seat, v in history.get("joint_gain_bb", {}).items())
        change = history.get("average_change")
        moved = f"{change['max_pp']:.1f} / {change['mean_pp']:.2f}" if change else ""
        cpu = flops.get(r, [])
        print(f"| {r} | {row['iteration']} | {number(history.get('correction_change_bb'))} "
              f"| {number(row.get('gap_fitting_bb'))} / {number(row.get('model_gap_fitting_bb'))} "
              f"| {number(row.get('gap_heldout_bb'))} / {number(row.get('model_gap_heldout_bb'))} "
              f"| {gain} | {moved} | {number(preflop.get(r), 1)} + {sum(cpu):.0f} ({len(cpu)}) |")


if __name__ == "__main__":
    main()
