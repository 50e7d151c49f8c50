"""Glue for rule fit_endings: the fit's plan tables from its solved preflop spots."""

from pokerlab.fit.plan import write_plan
from pokerlab.fit.settings import FitSettings
from pokerlab.preflop.spot import load_sizing

settings = FitSettings.from_config(snakemake.config["fit"])  # noqa: F821 (snakemake injects it)
write_plan(dict(zip(settings.spot_names, snakemake.input.results)), load_sizing(snakemake.input.sizing),  # noqa: F821
           settings, snakemake.output.spots, snakemake.output.endings, snakemake.output.boards)  # noqa: F821
