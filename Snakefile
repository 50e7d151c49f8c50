# pokerlab: solved preflop No-Limit Hold'em charts, published with the evidence that they are solved.
#
#   snakemake --cores all all                        # the whole default run (the 512-spot sweep)
#   snakemake --cores 2 release --configfile config/presets/quick.yaml   # a few-minute sweep
#   snakemake -n all                                 # list the DAG without running it
#   snakemake --cores 2 results/equity/equity_169.npz
#   snakemake --cores 2 results/fit/constants.json   # the fitting run's smoke test (config: fit)
#
# config/README.md says what each config file and preset is for.
#
# Logic lives in src/pokerlab; the rules below stay thin.

from snakemake.utils import min_version, validate

min_version("9.0")


configfile: "config/config.yaml"


validate(config, "config/schema.yaml")


include: "workflow/rules/common.smk"
include: "workflow/rules/equity.smk"
include: "workflow/rules/kuhn.smk"
include: "workflow/rules/solve.smk"
include: "workflow/rules/sweep.smk"
include: "workflow/rules/publish.smk"
include: "workflow/rules/pushfold.smk"
include: "workflow/rules/fit.smk"
include: "workflow/rules/solved.smk"
include: "workflow/rules/solved_rounds.smk"
include: "workflow/rules/ranges.smk"
include: "workflow/rules/hands.smk"


rule all:
    default_target: True
    input:
        "results/equity/equity_169.npz",
        "results/equity/equity_169.parquet",
        "results/equity/crosscheck.csv",
        "results/kuhn/convergence.csv",
        "results/kuhn/convergence_cfr_plus.csv",
        "results/kuhn/final_strategies.json",
        "results/kuhn/exploitability.png",
        "results/kuhn/SHA256SUMS",
        solve_result_paths(),
        rules.release.input,
        pushfold_headsup_paths(),
