"""Glue for rule fit_class_check: v1 vs v2 error per hand on the fitting and held-out boards."""

from pokerlab.fit.run import class_table_check

class_table_check(list(snakemake.input.measurements), snakemake.input.constants,  # noqa: F821 (snakemake injects it)
                  snakemake.input.table, snakemake.output.check)  # noqa: F821
