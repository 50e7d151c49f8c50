"""Glue for rule viewer: the self-contained HTML viewer of one chart set."""

from pokerlab.viewer import write_viewer

write_viewer(snakemake.input.chart, snakemake.output.html)  # noqa: F821 (snakemake injects it)
