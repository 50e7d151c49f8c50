"""Glue for rule manifest: manifest.json and SHA256SUMS over every published file."""

from pathlib import Path

from pokerlab.manifest import listed_files, publish_release

root = Path(snakemake.output.manifest).parent  # noqa: F821 (snakemake injects it)
publish_release(root, listed_files(snakemake.input.listings, root) + list(snakemake.input.published),  # noqa: F821
                snakemake.params.published_dirs, snakemake.params.config)  # noqa: F821
