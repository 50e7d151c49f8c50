"""Glue for rule range_sensitivity: the experiment's JSON and its table."""

from pathlib import Path

from pokerlab.advice.sensitivity import sensitivity_table, write_sensitivity

doc = write_sensitivity(snakemake.output.json, seed=snakemake.params.seed, samples=snakemake.params.samples)  # noqa: F821
Path(snakemake.output.table).write_text(sensitivity_table(doc) + "\n")  # noqa: F821
