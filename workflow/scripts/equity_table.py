"""Glue for rule equity_table: build the 169x169 table and write .npz + .parquet atomically."""

import sys

import numba

from pokerlab.equity import build_equity_counts, save_equity_table

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
numba.set_num_threads(min(snakemake.threads, numba.config.NUMBA_NUM_THREADS))  # noqa: F821
counts = build_equity_counts(snakemake.params.mode, snakemake.params.samples, snakemake.params.seed)  # noqa: F821
save_equity_table(counts, snakemake.output.npz, snakemake.output.parquet)  # noqa: F821
