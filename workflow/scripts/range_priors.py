"""Glue for rule range_priors: prior ranges by stack bucket, line and position from charts."""

from pokerlab.ranges.priors import write_priors

write_priors(snakemake.input.charts, snakemake.input.equity, snakemake.output.priors)  # noqa: F821 (snakemake injects it)
