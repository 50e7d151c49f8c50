"""Glue for checkpoint summary: one row per attempted spot (read from its result.json), CSV and Parquet."""

from pokerlab.sweep import write_summary

write_summary(snakemake.input.results, snakemake.output.csv, snakemake.output.parquet)  # noqa: F821
