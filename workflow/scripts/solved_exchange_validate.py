"""Glue for rule solved_exchange_validate: the exchange table's valuation gap on held-out flops."""

from pokerlab.equity_table import load_equity_table
from pokerlab.preflop.spot import load_sizing, parse_spot_name, spot_name
from pokerlab.solved.settings import base_settings
from pokerlab.solved.validate import validation_report

i, w, config = snakemake.input, snakemake.wildcards, snakemake.config  # noqa: F821 (snakemake injects it)
base = base_settings(config, snakemake.params.base, i.constants[0] if i.constants else None)  # noqa: F821
table = load_equity_table(i.table)
validation_report(parse_spot_name(spot_name(w.format, w.seats, w.depth)), load_sizing(i.sizing), base, table.win,
                  table.tie, i.corrections, i.arrivals, i.boards, list(i.measurements),
                  snakemake.output.report)  # noqa: F821
