"""Glue for rule solved_postflop: one ending on one flop, solved with the arriving ranges."""

import sys

from pokerlab.job_log import job_cpu_line
from pokerlab.preflop.spot import spot_name
from pokerlab.solved.loop import solve_ending_job
from pokerlab.solved.settings import SolvedSettings

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
w = snakemake.wildcards  # noqa: F821
solve_ending_job(snakemake.input.endings, snakemake.input.boards, snakemake.params.key,  # noqa: F821
                 SolvedSettings.for_spot(snakemake.config["solved"], spot_name(w.format, w.seats, w.depth)),  # noqa: F821
                 snakemake.output.measurement, threads=snakemake.threads)  # noqa: F821
print(job_cpu_line(), file=sys.stderr)
