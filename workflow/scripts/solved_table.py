"""Glue for rule solved_table: a spot's last table and its convergence table."""

from pokerlab.solved.loop import finish_spot

finish_spot(snakemake.input.table, list(snakemake.input.reports), snakemake.input.chart,  # noqa: F821
            snakemake.input.previous, snakemake.output.table, snakemake.output.convergence)  # noqa: F821
