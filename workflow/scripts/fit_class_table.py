"""Glue for rule fit_class_table: the v2 class table from the fit's class realisation."""

from pokerlab.preflop.class_edges import class_table_from_file

class_table_from_file(snakemake.input.classes, snakemake.output.table)  # noqa: F821 (snakemake injects it)
