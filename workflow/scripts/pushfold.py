"""Snakemake glue for the push/fold rules: solve one spot and write its JSON and heatmaps."""

from pokerlab.pushfold.io import write_spot_from_config

write_spot_from_config(
    snakemake.params.section,  # noqa: F821 (injected by Snakemake)
    seats=snakemake.params.seats,  # noqa: F821
    depth=float(snakemake.wildcards.depth),  # noqa: F821
    table_path=snakemake.input.get("table"),  # noqa: F821 (not read with card removal at 4-max)
    json_path=snakemake.output.json,  # noqa: F821
    png=snakemake.params.png,  # noqa: F821
    checkpoint=snakemake.params.checkpoint,  # noqa: F821
    combo_table_path=snakemake.input.get("combos"),  # noqa: F821 (set by the card-removal rules)
)
