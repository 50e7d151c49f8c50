"""Glue for rule solved_round_flop: one fitting flop's postflop solve for one exchange round."""

import sys

import numba

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.rounds import flop_round, spot_solve

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
i, o, w = snakemake.input, snakemake.output, snakemake.wildcards  # noqa: F821
solve = spot_solve(snakemake.config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards)
flop_round(solve, snakemake.params.key, i.previous[0] if i.previous else None, i.arrivals,  # noqa: F821
           o.state, o.measurement)
print(job_cpu_line(), file=sys.stderr)
