"""Glue for rule solve_spot: solve the spot named by the wildcards and write result.json."""

import os
import sys

from pokerlab.preflop.solve import SolveSettings, solve_spot_to_file
from pokerlab.preflop.spot import Spot

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
w = snakemake.wildcards  # noqa: F821
constants = snakemake.input.get("constants")  # noqa: F821 (only when solve.postflop.source is file or fit)
constants = (constants[0] if constants else None) if isinstance(constants, list) else constants
solve_spot_to_file(
    Spot(w.format, int(w.seats), float(w.depth)),
    snakemake.input.table,  # noqa: F821
    snakemake.input.sizing,  # noqa: F821
    SolveSettings.from_config(snakemake.params.settings, constants),  # noqa: F821
    snakemake.output.result,  # noqa: F821
    state_path=snakemake.params.state,  # noqa: F821
    payouts_path=snakemake.input.payouts,  # noqa: F821
    # read here, not a rule parameter, so that changing it re-runs no solve
    keep_state=bool(snakemake.config["solve"].get("keep_states", False)),  # noqa: F821
    progress=lambda iteration, figure: print(f"iteration {iteration} exploitability {figure}", file=sys.stderr, flush=True),
)
# The job's own CPU seconds since its start (imports included), which benchmarks/sweep_run.py
# reads: Snakemake's benchmark files sample the process and miss much of a short job's CPU.
print(f"job cpu_seconds {sum(os.times()[:2]):.3f}", file=sys.stderr)
