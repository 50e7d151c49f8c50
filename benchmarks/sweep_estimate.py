"""Estimate the wall time of the 512-spot sweep from a few measured spots.

    .venv/bin/python benchmarks/sweep_estimate.py
    .venv/bin/python benchmarks/sweep_estimate.py --measure cash/2max/100bb cash/6max/100bb --iterations 20

For each measured spot it times (CPU seconds) CFR+ iterations and one exact exploitability measurement
(tree building and compilation excluded) and expresses both per unit of work = tree nodes x
seats (every seat keeps its own view of the tree). Seconds per iteration and per measurement
are fitted as power laws of the units (least squares in log-log: small trees pay a fixed cost
per iteration, so the cost is not proportional to size). Every spot of the sweep is then
predicted from its own tree size: job overhead (interpreter, imports, table load, tree) +
iterations x seconds per iteration + measurements x seconds per measurement. Two cases:
every spot ships at its first checkpoint (400 iterations, one measurement) and every spot needs
the whole schedule (3,000 iterations, three measurements). The ICM formats solve the mtt tree
(same tree, same ante) but their payoffs cost more (win and tie tables apart, the folded seats'
spectator terms), so they get their own fit from measured ICM spots.

Wall time on C cores is at least (total CPU seconds) / C and at least the longest single spot.
Figures depend on the machine and its load: say which when quoting them.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

DEFAULT_MEASURE = ["cash/2max/100bb", "cash/3max/40bb", "cash/4max/100bb", "cash/6max/20bb", "cash/6max/100bb",
                   "mtt/6max/40bb", "cash/9max/20bb", "cash/9max/100bb", "cash/9max/200bb",
                   "icm_final/3max/40bb", "icm_bubble/6max/20bb", "icm_final/6max/60bb", "icm_final/9max/20bb"]
SCHEDULE = (400, 1200, 3000)


def _units(tree, seats: int) -> int:
    return tree.counts()["nodes"] * seats


def _model(fmt: str) -> str:
    """The cost model of a format: ``icm`` (ICM payoffs) or ``chip`` (cash and mtt)."""
    from pokerlab.preflop.solver_icm import ICM_FORMATS

    return "icm" if fmt in ICM_FORMATS else "chip"


def measure(name: str, iterations: int, win, tie) -> dict:
    from pokerlab.preflop.payoffs import PostflopModel
    from pokerlab.preflop.solver_icm import make_solver
    from pokerlab.preflop.spot import load_sizing, parse_spot_name
    from pokerlab.preflop.tree import build_tree

    spot = parse_spot_name(name)
    tree = build_tree(spot, load_sizing())
    solver, _ = make_solver(tree, PostflopModel(), win, tie)
    solver.iterate(2)  # compile
    solver.exploitability()
    start = time.process_time()
    solver.iterate(iterations)
    per_iteration = (time.process_time() - start) / iterations
    start = time.process_time()
    solver.exploitability()
    per_measure = time.process_time() - start
    units = _units(tree, spot.seats)
    return {"spot": name, "model": _model(spot.format), "units": units, "s_it": per_iteration, "s_measure": per_measure}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--measure", nargs="*", default=DEFAULT_MEASURE, help="spots to time, format/NNmax/DEPTHbb")
    parser.add_argument("--iterations", type=int, default=20, help="iterations timed per measured spot")
    parser.add_argument("--overhead", type=float, default=3.0,
                        help="seconds per solve job outside the solve: interpreter, imports, table, tree, read-out, "
                             "result (`pokerlab solve` of cash/2max/10bb takes 2.5-2.9 s wall, its solve < 0.3 s; "
                             "Snakemake's benchmark files give 1.4-2.8 s for whole 2-max jobs)")
    args = parser.parse_args()

    from pokerlab.equity import sampled_equity_table
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.sweep import full_sweep
    from pokerlab.preflop.tree import build_tree

    table = sampled_equity_table(samples=200, seed=7)  # speed does not depend on the table's values
    rows = [measure(name, args.iterations, table.win, table.tie) for name in args.measure]
    print("seconds are this process's CPU time (less sensitive than wall time to a shared machine)")
    print(f"{'spot':<22}{'units':>10}{'ms/it':>9}{'ms/measure':>12}{'ns/unit/it':>12}")
    for r in rows:
        print(f"{r['spot']:<22}{r['units']:>10}{r['s_it'] * 1e3:>9.1f}{r['s_measure'] * 1e3:>12.1f}"
              f"{r['s_it'] / r['units'] * 1e9:>12.1f}")
    fits = {}
    for model in ("chip", "icm"):
        sel = [r for r in rows if r["model"] == model]
        if len({r["units"] for r in sel}) < 2:
            raise ValueError(f"--measure needs at least two {model} spots of different sizes to fit their cost")
        log_units = np.log([r["units"] for r in sel])
        fits[model] = (np.polyfit(log_units, np.log([r["s_it"] for r in sel]), 1),
                       np.polyfit(log_units, np.log([r["s_measure"] for r in sel]), 1))
        print(f"{model} fit: s/iteration = {np.exp(fits[model][0][1]):.3g} * units^{fits[model][0][0]:.2f}; "
              f"s/measurement = {np.exp(fits[model][1][1]):.3g} * units^{fits[model][1][0]:.2f}")

    sizing = load_sizing()
    sweep = full_sweep()
    units = {}
    start = time.perf_counter()
    for fmt, seats, depth in sweep.itertuples(index=False):
        key = ("cash" if fmt == "cash" else "mtt", seats, depth)  # the ICM formats play the mtt tree
        if key not in units:
            units[key] = _units(build_tree(Spot(*key), sizing), seats)
    print(f"built {len(units)} distinct trees in {time.perf_counter() - start:.1f} s")
    spot_units = np.array([units[("cash" if f == "cash" else "mtt", n, d)] for f, n, d in sweep.itertuples(index=False)])
    spot_model = np.array([_model(f) for f in sweep["format"]])
    for label, iterations, measurements in (("every spot ships at 400", SCHEDULE[0], 1),
                                            ("every spot runs to 3000", SCHEDULE[-1], len(SCHEDULE))):
        seconds = np.full(spot_units.size, args.overhead)
        for model, (fit_it, fit_measure) in fits.items():
            sel = spot_model == model
            log_units = np.log(spot_units[sel])
            seconds[sel] += (iterations * np.exp(np.polyval(fit_it, log_units))
                             + measurements * np.exp(np.polyval(fit_measure, log_units)))
        total = seconds.sum()
        longest = seconds.max()
        icm_share = seconds[spot_model == "icm"].sum() / total
        print(f"{label}: {total / 3600:.1f} CPU-hours for {len(seconds)} spots ({icm_share:.0%} in the ICM formats); "
              f"longest spot {longest / 60:.1f} min; "
              f"2 cores >= {max(total / 2, longest) / 3600:.1f} h; 32 cores >= {max(total / 32, longest) / 3600:.2f} h")
    by_seats = {n: int(np.mean([units[("cash", n, d)] for d in sweep["depth"].unique()])) for n in range(2, 10)}
    print("mean units per cash spot by table size:", by_seats)


if __name__ == "__main__":
    main()
