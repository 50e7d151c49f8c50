"""Glue for rule spot_outcome: the summary row of one attempted spot."""

from pokerlab.publish import write_outcome

write_outcome(snakemake.input.result, snakemake.output.outcome)  # noqa: F821 (snakemake injects it)
