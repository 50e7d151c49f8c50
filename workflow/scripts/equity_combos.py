"""Glue for rule equity_combos: enumerate the exact 1,326 x 1,326 table and write it atomically."""

import sys

import numba

from pokerlab.equity_combos import exact_combo_counts, save_combo_table

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
wins, ties = exact_combo_counts(progress=lambda done, total: print(f"block {done}/{total}", file=sys.stderr, flush=True))
save_combo_table(wins, ties, snakemake.output.npz)  # noqa: F821
