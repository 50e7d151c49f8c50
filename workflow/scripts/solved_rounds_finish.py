"""Glue for rule solved_rounds_finish: the table, chart and report of an exchange run in rounds."""

import sys

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.rounds import finish, spot_solve
from pokerlab.solved.settings import table_provenance

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
i, o, w, config = snakemake.input, snakemake.output, snakemake.wildcards, snakemake.config  # noqa: F821
solve = spot_solve(config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards, log=sys.stderr)
finish(solve, (i.state, i.arrivals), list(i.measurements), table_provenance(config, snakemake.params.command, solve.spot.name),  # noqa: F821
       o.table, o.chart, o.report)
print(job_cpu_line(), file=sys.stderr)
