"""Glue for rule solved_rounds_report: every round's valuation gaps on the fitting and held-out flops."""

import json

from pokerlab.preflop.spot import spot_name
from pokerlab.solved.rounds import rounds_report, spot_solve

i, o, w = snakemake.input, snakemake.output, snakemake.wildcards  # noqa: F821
solve = spot_solve(snakemake.config, snakemake.params.base, i.constants[0] if i.constants else None,  # noqa: F821
                   spot_name(w.format, w.seats, w.depth), i.sizing, i.table, i.endings, i.boards)
with open(i.report) as fh:
    history = json.load(fh)["history"]
rounds_report(solve, snakemake.params.folder, history, o.report)  # noqa: F821
