"""Glue for rule solved_exchange_validate: the exchange table's valuation gap on held-out flops."""

from pokerlab.equity_table import load_equity_table
from pokerlab.preflop.solve import SolveSettings
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved.validate import validation_report

i, w, config = snakemake.input, snakemake.wildcards, snakemake.config  # noqa: F821 (snakemake injects it)
constants = i.constants[0] if i.constants else None
base = SolveSettings.from_config({**config["solve"], "postflop": snakemake.params.base}, constants)  # noqa: F821
table = load_equity_table(i.table)
validation_report(parse_spot_name(f"{w.format}/{w.seats}max/{w.depth}bb"), load_sizing(i.sizing), base, table.win,
                  table.tie, i.corrections, i.arrivals, i.boards, list(i.measurements),
                  snakemake.output.report)  # noqa: F821
