"""Snakemake glue for rule kuhn_experiment: run the Kuhn CFR experiment and write its artefacts."""

from pokerlab.games.kuhn_experiment import write_kuhn_experiment

write_kuhn_experiment(
    **dict(snakemake.output.items()),  # noqa: F821 (injected by Snakemake): csv, cfr_plus_csv, strategies, plot, sums
    iterations=snakemake.params.iterations,  # noqa: F821
    checkpoints=snakemake.params.checkpoints,  # noqa: F821
)
