"""Snakemake glue for rule kuhn_experiment: run the Kuhn CFR experiment and write its artefacts."""

from pokerlab.games.kuhn_experiment import write_kuhn_experiment

write_kuhn_experiment(
    snakemake.output.csv,  # noqa: F821 (injected by Snakemake)
    snakemake.output.strategies,  # noqa: F821
    snakemake.output.plot,  # noqa: F821
    snakemake.output.sums,  # noqa: F821
    iterations=snakemake.params.iterations,  # noqa: F821
    checkpoints=snakemake.params.checkpoints,  # noqa: F821
)
