"""Glue for checkpoint summary: one row per attempted spot, CSV and Parquet."""

from pokerlab.sweep import write_summary

write_summary(snakemake.input.outcomes, snakemake.output.csv, snakemake.output.parquet)  # noqa: F821
