"""The fixed price of one solved_round_flop job: building its postflop solver and moving its state.

    .venv/bin/python benchmarks/solved_round_cost.py --configfile config/presets/solved-rounds-hu100.yaml \
        --key cash/2max/100bb/e0/b0 [--iterations 2]

Needs the plan of a rounds run (``results/solved/i0/plan/{spot}/endings.tsv`` and ``boards.tsv``, made
by ``snakemake solved_plan``-level jobs of ``solved_rounds``) and the equity table. For the flop of plan
job ``--key`` it prints CPU seconds (user + system) of each step a job takes besides its iterations:

- building the spot's exchanging solve (preflop tree, payoffs, plan) and the flop's postflop solver;
- writing its state as the rounds do (``pokerlab.io.write_arrays`` straight from the solver's arrays)
  and reading it back straight into a fresh solver (``read_arrays(into=...)``);
- the same with a ``.npz`` (a copy of the state written with ``write_npz_streamed``, then ``np.load``
  and ``load_state``), the format the rounds used before;
- ``--iterations`` postflop iterations, for scale.

The first touch of fresh memory (a new solver's arrays, new page-cache pages) costs page faults, more
so on a virtual machine, and a job pays them; so the two formats are measured in turn, twice (``#1``,
``#2``), and the pairs are compared within an attempt. Temporary files go to the system's temporary
folder and are removed.
"""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

import numpy as np
import yaml


def cpu() -> float:
    return sum(os.times()[:2])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configfile", required=True, help="the run's preset (its solved section)")
    parser.add_argument("--key", required=True, help="a plan job key: {format}/{seats}max/{depth}bb/e{rank}/b{board}")
    parser.add_argument("--iterations", type=int, default=2)
    parser.add_argument("--results", default="results", help="the run's results folder")
    args = parser.parse_args()

    from pokerlab.io import read_arrays, write_arrays, write_npz_streamed
    from pokerlab.preflop.solve import postflop_constants_file
    from pokerlab.solved.rounds import spot_solve
    from pokerlab.solved.settings import base_postflop

    config = yaml.safe_load(Path("config/config.yaml").read_text())
    config["solved"].update(yaml.safe_load(Path(args.configfile).read_text())["solved"])
    spot = "/".join(args.key.split("/")[:3])
    plan = Path(args.results) / "solved/i0/plan" / spot
    section = config["solve"]["postflop"]
    base, constants = base_postflop(section), postflop_constants_file(section, args.results)
    figures: dict[str, float] = {}

    t = cpu()
    solve = spot_solve(config, base, constants, spot, config["solve"]["sizing"],
                       Path(args.results) / "equity/equity_169.npz", plan / "endings.tsv", plan / "boards.tsv")
    figures["exchanging solve (plan, preflop tree)"] = cpu() - t
    found = [f for e in solve.endings for f in (*e.flops, *e.heldout) if f.key == args.key]
    if not found:
        raise SystemExit(f"--key {args.key}: not a flop of the plan in {plan}")
    t = cpu()
    solver = found[0].new_solver(solve.settings)
    figures["postflop solver (tree, showdown tables)"] = cpu() - t
    t = cpu()
    solver.run(args.iterations)
    figures[f"{args.iterations} postflop iterations"] = cpu() - t
    state_bytes = sum(a.nbytes for a in solver.state(copy=False).values())

    fresh, other = found[0].new_solver(solve.settings), found[0].new_solver(solve.settings)
    with tempfile.TemporaryDirectory() as folder:
        raw, npz = Path(folder) / "flop.state", Path(folder) / "flop.npz"
        for attempt in (1, 2):  # the first touch of memory and of the page cache costs extra: both orders
            t = cpu()
            write_arrays(raw, [*solver.state(copy=False).items(), ("iterations", np.array(solver.iterations))])
            figures[f"write state (.state records, no copy) #{attempt}"] = cpu() - t
            t = cpu()
            read_arrays(raw, into=fresh.state(copy=False))
            figures[f"read state into the solver (.state) #{attempt}"] = cpu() - t
            raw.unlink()
            t = cpu()
            write_npz_streamed(npz, [*solver.state().items(), ("iterations", np.array(solver.iterations))])
            figures[f"write state (.npz of a copy) #{attempt}"] = cpu() - t
            t = cpu()
            with np.load(npz) as data:
                other.load_state({k: data[k] for k in data.files if k != "iterations"})
            figures[f"read state into the solver (.npz, load_state) #{attempt}"] = cpu() - t
            npz.unlink()
    for name, array in solver.state(copy=False).items():
        if not (np.array_equal(fresh.state(copy=False)[name], array) and np.array_equal(other.state(copy=False)[name], array)):
            raise SystemExit(f"{name}: a state read back differs from the one written")
    print(f"{args.key}: state {state_bytes / 2**30:.2f} GiB ({'16-bit' if solver.compression else 'float32'}); "
          f"CPU seconds:")
    for name, seconds in figures.items():
        print(f"  {name:<52} {seconds:7.2f}")


if __name__ == "__main__":
    main()
