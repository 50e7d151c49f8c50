"""Glue for rule fit_solve: one ending x board, solved as played and as the control run."""

import sys

from pokerlab.fit.run import solve_job
from pokerlab.fit.settings import FitSettings
from pokerlab.preflop.solve import job_cpu_line

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
w = snakemake.wildcards  # noqa: F821
solve_job(snakemake.input.endings, snakemake.input.boards,  # noqa: F821
          f"{w.format}/{w.seats}max/{w.depth}bb/e{w.rank}/b{w.board}",
          FitSettings.from_config(snakemake.config["fit"]), snakemake.output.measurement,  # noqa: F821
          threads=snakemake.threads)  # noqa: F821
print(job_cpu_line(), file=sys.stderr)  # the job's own CPU, which benchmark: files undersample
