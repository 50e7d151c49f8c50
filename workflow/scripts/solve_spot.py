"""Glue for rules solve_spot (one spot) and solve_table (every listed spot of a table size, one
after the other in this process): solve each spot and write its result.json and result.npz,
its progress and timing in its own log."""

import os
import sys
import time

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.solve import SolveSettings, solve_spot_to_file, solve_timing_line
from pokerlab.preflop.spot import parse_spot_name
from pokerlab.solved.settings import settings_sha256, spot_section

constants = snakemake.input.get("constants")  # noqa: F821 (snakemake injects it; only with solve.postflop.source file or fit)
constants = (constants[0] if constants else None) if isinstance(constants, list) else constants
solved = snakemake.config.get("solved")  # noqa: F821
# read here, not a rule parameter, so that changing it re-runs no solve
keep_state = bool(snakemake.config["solve"].get("keep_states", False))  # noqa: F821
jobs = zip(snakemake.params.spots, snakemake.params.settings, snakemake.output.results,  # noqa: F821
           snakemake.params.states, snakemake.log)  # noqa: F821
for name, settings, result_path, state_path, log_path in jobs:
    if sys.stderr is not sys.__stderr__:
        sys.stderr.close()  # the previous spot's log
    sys.stderr = open(log_path, "w")
    wall, cpu = time.perf_counter(), sum(os.times()[:2])
    # model solved: a table is refused unless measured with the settings the config's solved section gives its spot
    solved_sha256 = settings_sha256(spot_section(solved, name)) if solved is not None else None
    solve_spot_to_file(
        parse_spot_name(name), snakemake.input.table, snakemake.input.sizing,  # noqa: F821
        SolveSettings.from_config(settings, constants, solved_sha256), result_path, state_path=state_path,
        payouts_path=snakemake.input.payouts, keep_state=keep_state,  # noqa: F821
        combo_table_path=(snakemake.input.get("combo_table") or [None])[0],  # noqa: F821 (solve.hands combos only)
        progress=lambda iteration, figure: print(f"iteration {iteration} exploitability {figure}", file=sys.stderr,
                                                 flush=True),
    )
    print(solve_timing_line(time.perf_counter() - wall, sum(os.times()[:2]) - cpu), file=sys.stderr, flush=True)
# What benchmarks/sweep_run.py reads: Snakemake's benchmark files sample the process and miss
# much of a short job's CPU.
print(job_cpu_line(), file=sys.stderr)
