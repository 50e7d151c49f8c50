"""Glue for rule solved_exchange_solve: one spot's exchanging solve, resumed from its state file."""

import sys

import numba

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.joint import write_outputs
from pokerlab.solved.rounds import spot_solve
from pokerlab.solved.settings import table_provenance

sys.stderr = open(snakemake.log[0], "a")  # noqa: F821 (snakemake injects it; a resumed job appends)
numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
i, o, w, config = snakemake.input, snakemake.output, snakemake.wildcards, snakemake.config  # noqa: F821
solve = spot_solve(config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards, resident=True,
                   log=sys.stderr)
if solve.load(snakemake.params.state):  # noqa: F821
    print(f"resumed at iteration {solve.iteration}", file=sys.stderr, flush=True)
solve.run(solve.settings.exchange_iterations, snakemake.params.state)  # noqa: F821
write_outputs(solve, table_provenance(config, snakemake.params.command, solve.spot.name), o.table, o.chart, o.report)  # noqa: F821
print(job_cpu_line(), file=sys.stderr)
