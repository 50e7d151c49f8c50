"""Glue for rule publish_table: the charts and viewer pages of one table size's shipped spots."""

from pokerlab.publish import write_published_spots

write_published_spots(snakemake.input.results, snakemake.params.results_dir, snakemake.output.listing,  # noqa: F821
                      snakemake.input.schema)  # noqa: F821 (snakemake injects it)
