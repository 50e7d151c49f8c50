"""Glue for rule manifest: manifest.json and SHA256SUMS over every published file."""

from pathlib import Path

from pokerlab.manifest import publish_release

publish_release(Path(snakemake.output.manifest).parent, snakemake.input.published, snakemake.params.published_dirs,  # noqa: F821
                snakemake.params.config)  # noqa: F821
