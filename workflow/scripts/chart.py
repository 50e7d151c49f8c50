"""Glue for rule chart: the published chart document of one shipped spot (schema-validated)."""

from pokerlab.publish import write_chart

write_chart(snakemake.input.result, snakemake.output.chart, snakemake.input.schema)  # noqa: F821 (snakemake injects it)
