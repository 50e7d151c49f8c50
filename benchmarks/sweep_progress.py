"""How long a sweep took so far and how long the rest will take, from a (partial) run's own files.

    .venv/bin/python benchmarks/sweep_progress.py                  # in the workflow's directory
    .venv/bin/python benchmarks/sweep_progress.py --workdir RUN --spots config/spots.tsv

For every spot of the sheet whose solve finished it reads the CPU and wall seconds its solve job
logged for it (``logs/solves/``, the job's start-up excluded) and the iterations and status from its
``result.json``. The spots still to solve are predicted from the solved
ones: CPU seconds fitted as a power law of the tree size (nodes x seats), separately for the chip
formats (cash, mtt) and the ICM formats, each spot costed at the iterations the solved spots of
its group needed on average (relative to the first checkpoint). Prints the measured table by
table size, the fits and the predicted totals: CPU-hours, and wall hours on 2 and 32 cores
(total / cores, at least the longest spot). CPU seconds measure the work; wall seconds on a
shared machine do not.
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd


def solved_spots(workdir: Path, sheet: pd.DataFrame) -> pd.DataFrame:
    from pokerlab.preflop.solve import read_solve_timing, solve_log_path
    from pokerlab.preflop.spot import spot_name

    rows = []
    for fmt, seats, depth in sheet[["format", "seats", "depth"]].itertuples(index=False):
        name = spot_name(fmt, seats, depth)
        wall, cpu = read_solve_timing(solve_log_path(workdir / "logs" / "solves", name))
        result = workdir / "results" / "solves" / name / "result.json"
        row = {"format": fmt, "seats": seats, "depth": depth, "solved": not math.isnan(cpu) and result.is_file()}
        if row["solved"]:
            r = json.loads(result.read_text())  # the arrays are in result.npz beside it
            row.update(cpu_s=cpu, wall_s=wall, iterations=int(r["iterations"]), status=r["status"])
        rows.append(row)
    return pd.DataFrame(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--workdir", type=Path, default=Path("."), help="the workflow's working directory")
    parser.add_argument("--spots", type=Path, default=None, help="the spots sheet (default: config/spots.tsv there)")
    args = parser.parse_args()

    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.sweep import load_spots
    from pokerlab.preflop.tree import build_tree

    sheet = load_spots(args.spots or args.workdir / "config" / "spots.tsv")
    spots = solved_spots(args.workdir, sheet)
    sizing, units = load_sizing(), {}
    for fmt, seats, depth in spots[["format", "seats", "depth"]].itertuples(index=False):
        key = ("cash" if fmt == "cash" else "mtt", seats, depth)  # the ICM formats use the mtt tree
        if key not in units:
            units[key] = build_tree(Spot(*key), sizing).counts()["nodes"] * seats
    spots["units"] = [units[("cash" if f == "cash" else "mtt", n, d)] for f, n, d in
                      spots[["format", "seats", "depth"]].itertuples(index=False)]
    spots["group"] = np.where(spots["format"].str.startswith("icm"), "icm", "chip")
    done = spots[spots["solved"]]
    print(f"{len(done)} of {len(spots)} spots solved; statuses {done['status'].value_counts().to_dict()}; "
          f"iterations {done['iterations'].value_counts().sort_index().to_dict()}")
    print(done.groupby("seats").agg(spots=("cpu_s", "size"), cpu_s_mean=("cpu_s", "mean"), cpu_s_max=("cpu_s", "max"),
                                    wall_s_mean=("wall_s", "mean")).round(1).to_string())
    predicted = spots["cpu_s"].copy()
    for group, part in spots.groupby("group"):
        known = part[part["solved"]]
        if len(known) < 3:
            raise SystemExit(f"too few solved {group} spots ({len(known)}) to fit")
        scale = known["iterations"].mean() / known["iterations"].min()  # mean work relative to a first-checkpoint solve
        per_400 = known["cpu_s"] * known["iterations"].min() / known["iterations"]
        fit = np.polyfit(np.log(known["units"]), np.log(per_400), 1)
        todo = part.index[~part["solved"]]
        predicted[todo] = scale * np.exp(np.polyval(fit, np.log(spots.loc[todo, "units"])))
        print(f"{group}: cpu s = {np.exp(fit[1]):.3g} * units^{fit[0]:.2f} at the first checkpoint; "
              f"mean iterations / first checkpoint = {scale:.3f}; {len(todo)} spots predicted")
    total, longest = predicted.sum(), predicted.max()
    print(f"solve CPU: measured {done['cpu_s'].sum() / 3600:.2f} h + predicted {predicted[~spots['solved']].sum() / 3600:.2f} h "
          f"= {total / 3600:.2f} CPU-hours; longest spot {longest / 60:.1f} min; "
          f"2 cores >= {max(total / 2, longest) / 3600:.2f} h; 32 cores >= {max(total / 32, longest) / 3600:.2f} h")


if __name__ == "__main__":
    main()
