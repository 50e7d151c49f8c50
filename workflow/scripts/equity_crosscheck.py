"""Glue for rule equity_crosscheck: exact eval7 enumeration vs the table; fail past the bound."""

import sys

from pokerlab.equity import load_equity_table
from pokerlab.equity_check import crosscheck
from pokerlab.io import atomic_path

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
pairs = [tuple(p) for p in snakemake.params.pairs]  # noqa: F821
result = crosscheck(load_equity_table(snakemake.input.npz), pairs, snakemake.params.max_gap_pp, snakemake.threads)  # noqa: F821
print(result.rows.to_string(index=False), file=sys.stderr)
if not result.passed:
    raise SystemExit(
        f"equity cross-check failed: max gap {result.max_gap_pp:.4f} pp exceeds the bound "
        f"{result.bound_pp} pp (equity.crosscheck.max_gap_pp); see the log for every pair"
    )
with atomic_path(snakemake.output.csv) as tmp:  # noqa: F821
    result.rows.to_csv(tmp, index=False, float_format="%.9f")
