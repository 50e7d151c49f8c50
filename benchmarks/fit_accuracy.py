"""How the fit's measurements move with the postflop solves' accuracy.

The fit measures, per ending and board, the pot actually played (hence the commitment) and the
positional edge from solves run to ``fit.accuracy_pct_pot`` or ``fit.max_iterations``. This
re-solves a few of a fit run's jobs with the same ranges, board and bet tree, continuing one
solver through increasing iteration counts, and prints at each count the exploitability reached
and the two measured quantities (:func:`pokerlab.fit.measure.build_measurements`), so one sees
whether the fit's iteration budget biases them and by how much.

    .venv/bin/python benchmarks/fit_accuracy.py --configfile config/presets/fit-shipped.yaml \\
        --jobs cash/6max/100bb/e0/b0 mtt/2max/20bb/e0/b0 --iterations 30 100 300

Reads the plan tables (``results/fit/endings.tsv``, ``boards.tsv``) of the run; ``--configfile``
names the fit config the run used (merged over ``config/config.yaml`` as Snakemake does).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import yaml


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", default=".", help="the workflow's directory (default: here)")
    parser.add_argument("--configfile", default=None, help="the fit config the run used (e.g. config/presets/fit-shipped.yaml)")
    parser.add_argument("--jobs", nargs="+", required=True, help="job keys {format}/{n}max/{depth}bb/e{rank}/b{board}")
    parser.add_argument("--iterations", nargs="+", type=int, default=[30, 100, 300],
                        help="cumulative iteration counts at which to measure (default 30 100 300)")
    parser.add_argument("--threads", type=int, default=None, help="Numba threads (default: all)")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))
    from pokerlab.fit import measure
    from pokerlab.fit.plan import read_job
    from pokerlab.fit.run import job_spot
    from pokerlab.fit.settings import FitSettings
    from pokerlab.fit.solves import measurement_table
    from pokerlab.postflop.solver import PostflopSolver, solve_spot

    with open(os.path.join(args.workdir, "config/config.yaml")) as fh:
        section = yaml.safe_load(fh)["fit"]
    if args.configfile:
        with open(args.configfile) as fh:
            section.update(yaml.safe_load(fh).get("fit", {}))
    settings = FitSettings.from_config(section)
    fit_dir = os.path.join(args.workdir, "results/fit")
    counts = sorted(set(args.iterations))
    print(f"{'job':<28}{'iterations':>11}{'expl %pot':>10}{'commitment':>11}{'edge':>9}{'cpu s':>8}   spr")
    for key in args.jobs:
        job = read_job(os.path.join(fit_dir, "endings.tsv"), os.path.join(fit_dir, "boards.tsv"), key)
        if job.ending is None:
            print(f"{key}: the spot has no such ending")
            continue
        e = job.ending
        spot = job_spot(job, settings)
        control = solve_spot(spot.without_stacks(), 0.0, 1, threads=args.threads)
        solver = PostflopSolver(spot)
        record = {"key": key, "spot": key.rsplit("/", 2)[0], "rank": job.rank, "heldout": job.heldout, "reach": e.reach,
                  "board_weight": job.weight, "pot_bb": e.pot_bb, "behind_bb": e.behind_bb,
                  "aggressor_in_position": e.aggressor_in_position}
        for count in counts:
            start = time.process_time()
            pct_pot = solver.solve(0.0, count, check_every=count)  # one measurement, at ``count``
            frame, _ = measurement_table(solver.result(), control)
            row = measure.build_measurements([(frame, record)]).per_measurement.iloc[0]
            print(f"{key:<28}{solver.iterations:>11}{pct_pot:>10.3f}"
                  f"{row['commitment']:>11.4f}{row['edge']:>9.4f}{time.process_time() - start:>8.1f}   {row['spr']:.2f}")
    print(f"load average now {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
