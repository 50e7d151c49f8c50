"""Glue for rule fit_constants: fit the postflop constants and write constants.json and the report."""

import sys
from pathlib import Path

from pokerlab.fit.run import fit_constants
from pokerlab.fit.settings import FitSettings
from pokerlab.preflop.payoffs import PostflopModel

sys.stderr = open(snakemake.log[0], "w")  # noqa: F821 (snakemake injects it)
fit_constants(list(snakemake.input.measurements), FitSettings.from_config(snakemake.config["fit"]),  # noqa: F821
              PostflopModel(**snakemake.params.shipped),  # noqa: F821
              {"spots": snakemake.input.spots, "endings": snakemake.input.endings,  # noqa: F821
               "boards": snakemake.input.boards},  # noqa: F821
              snakemake.output.constants, Path(snakemake.output.summary).parent,  # noqa: F821
              fit_section=snakemake.config["fit"], command=snakemake.params.command)  # noqa: F821
