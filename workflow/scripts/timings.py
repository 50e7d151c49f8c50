"""Glue for rule timings: the solve seconds of every spot, from its log."""

import pandas as pd

from pokerlab.sweep import timings_table, write_table

summary = pd.read_csv(snakemake.input.csv)  # noqa: F821 (snakemake injects it)
write_table(timings_table(summary, snakemake.params.log_dir), csv_path=snakemake.output.csv)  # noqa: F821
