"""Glue for rule viewer_index: the index page of the sweep's viewers."""

from pokerlab.viewer import write_index

write_index(snakemake.input.csv, snakemake.output.html)  # noqa: F821 (snakemake injects it)
