"""Glue for rule solved_plan: an iteration's re-valued endings and their flop subsets."""

from pokerlab.preflop.spot import load_sizing
from pokerlab.solved.loop import write_ending_plan
from pokerlab.solved.settings import SolvedSettings

write_ending_plan(snakemake.input.result, snakemake.params.spot, load_sizing(snakemake.input.sizing),  # noqa: F821
                  SolvedSettings.for_spot(snakemake.config["solved"], snakemake.params.spot),  # noqa: F821
                  snakemake.output.spots, snakemake.output.endings, snakemake.output.boards)  # noqa: F821
