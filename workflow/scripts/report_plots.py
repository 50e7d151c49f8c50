"""Glue for rule report_plots: exploitability vs bar, model share, raise-first-in by seat."""

from pokerlab.report import write_report_plots

out = snakemake.output  # noqa: F821 (snakemake injects it)
write_report_plots(snakemake.input.csv, snakemake.input.results, out.exploitability, out.model_share, out.rfi)  # noqa: F821
