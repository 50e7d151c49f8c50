"""Glue for rule solved_exchange_memory: what one spot's in-process exchange will hold, measured by
building its postflop solvers one at a time."""

import sys

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.joint import write_memory_report
from pokerlab.solved.rounds import spot_solve

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
i, w, config = snakemake.input, snakemake.wildcards, snakemake.config  # noqa: F821
solve = spot_solve(config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards, resident=False,
                   log=sys.stderr)
report = write_memory_report(solve, snakemake.output[0])  # noqa: F821
print(f"{len(report['flops_mib'])} flop solves hold {report['resident_mib']:.0f} MiB; the exchange's job asks for "
      f"{report['job_mem_mb']} MB", file=sys.stderr)
print(job_cpu_line(), file=sys.stderr)
