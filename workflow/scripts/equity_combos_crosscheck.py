"""Glue for rule equity_combos_crosscheck: eval7 enumeration vs the combo table; fail on any mismatch."""

import sys

from pokerlab.equity import load_equity_table
from pokerlab.equity_combos import crosscheck_combos, load_combo_table
from pokerlab.io import atomic_path

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
rows, gap = crosscheck_combos(load_combo_table(snakemake.input.combos), snakemake.params.pairs,  # noqa: F821
                              snakemake.params.seed, load_equity_table(snakemake.input.classes),  # noqa: F821
                              snakemake.params.mode, snakemake.threads)  # noqa: F821
print(rows.to_string(index=False), f"\nlargest gap to the 169 table: {gap:.3g}", file=sys.stderr)
if not rows["match"].all():
    raise SystemExit("combo equity cross-check failed: eval7 and the table disagree; see the log for every pair")
with atomic_path(snakemake.output.csv) as tmp:  # noqa: F821
    rows.to_csv(tmp, index=False)
