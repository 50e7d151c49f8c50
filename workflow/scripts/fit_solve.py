"""Glue for rule fit_solve: one ending x board, solved as played and as the control run; the
played solve is also written as a root-tier pack beside the measurement."""

import sys

from pokerlab.fit.run import solve_job
from pokerlab.fit.settings import FitSettings
from pokerlab.fit.solves import FIT_CAMPAIGN
from pokerlab.job_log import job_cpu_line
from pokerlab.serve.pack import replace_root_pack

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
w = snakemake.wildcards  # noqa: F821
settings = FitSettings.from_config(snakemake.config["fit"])  # noqa: F821
solve_job(snakemake.input.endings, snakemake.input.boards,  # noqa: F821
          f"{w.format}/{w.seats}max/{w.depth}bb/e{w.rank}/b{w.board}", settings,
          snakemake.output.measurement, threads=snakemake.threads,  # noqa: F821
          write_pack=lambda solver, pack_dir: replace_root_pack(solver, settings.accuracy_pct_pot, pack_dir,
                                                                FIT_CAMPAIGN))
print(job_cpu_line(), file=sys.stderr)  # the job's own CPU, which benchmark: files undersample
