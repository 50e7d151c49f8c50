"""Glue for rule equity_verify: check the table the release rests on and record how."""

from pokerlab.equity_table import verify_table
from pokerlab.io import write_json_atomic

write_json_atomic(snakemake.output.json, verify_table(snakemake.input.npz, snakemake.params.mode))  # noqa: F821
