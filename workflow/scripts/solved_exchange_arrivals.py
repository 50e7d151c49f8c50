"""Glue for rule solved_exchange_arrivals: the plan's endings with the exchange chart's ranges."""

from pokerlab.preflop.spot import load_sizing
from pokerlab.solved.validate import write_arrivals

i = snakemake.input  # noqa: F821 (snakemake injects it)
write_arrivals(i.chart, load_sizing(i.sizing), i.endings, snakemake.output.endings)  # noqa: F821
