"""Glue for rule release: keep the published folders equal to the manifest."""

from pokerlab.manifest import prune_published

prune_published(snakemake.input.manifest)  # noqa: F821 (snakemake injects it)
