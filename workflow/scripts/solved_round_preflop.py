"""Glue for rule solved_round_preflop: the preflop side of one exchange round."""

import sys

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.rounds import preflop_round, spot_solve

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
i, o, w = snakemake.input, snakemake.output, snakemake.wildcards  # noqa: F821
solve = spot_solve(snakemake.config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards, log=sys.stderr)
previous = (i.state, i.arrivals) if int(w.r) > 1 else None
preflop_round(solve, int(w.r), previous, list(i.measurements) if previous else [], o.state, o.arrivals)
print(job_cpu_line(), file=sys.stderr)
