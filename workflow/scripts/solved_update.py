"""Glue for rule solved_update: table k+1 and the report of iteration k."""

from pokerlab.equity_table import load_equity_table
from pokerlab.preflop.spot import load_sizing, parse_spot_name, spot_name
from pokerlab.solved.loop import update_table
from pokerlab.solved.settings import SolvedSettings, base_settings, table_provenance

i, w = snakemake.input, snakemake.wildcards  # noqa: F821 (snakemake injects it)
config = snakemake.config  # noqa: F821
base = base_settings(config, snakemake.params.base, i.constants[0] if i.constants else None)  # noqa: F821
table, spot = load_equity_table(i.table), spot_name(w.format, w.seats, w.depth)
update_table(parse_spot_name(spot), load_sizing(i.sizing), base, table.win, table.tie,
             SolvedSettings.for_spot(config["solved"], spot), int(w.k), i.result,
             i.previous_result[0] if i.previous_result else None, i.corrections[0] if i.corrections else None,
             i.endings, i.boards, list(i.measurements), snakemake.output.table, snakemake.output.report,  # noqa: F821
             table_provenance(config, snakemake.params.command, spot))  # noqa: F821
