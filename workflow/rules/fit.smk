# Stage 6: the postflop-constant fitting run (results/fit/).
#   snakemake --cores 2 results/fit/constants.json
# fit_preflop solves the fit's preflop spots under fit.preflop_model (its own folder, so the fit
# never depends on the constants it produces); fit_endings walks them to their most reached
# heads-up flop endings and samples boards; fit_solve measures one ending x board (played and
# control run; with the builtin backend it also writes the played solve as a root-tier pack
# bN.pack/ beside bN.parquet, not a declared output); fit_constants fits the four constants and
# writes the report.

from pokerlab.fit.settings import FitSettings

FIT = FitSettings.from_config(config["fit"]) if "fit" in config else None  # errors name the key
FIT_DIR = "results/fit"
# What each step's output depends on in the fit section (a change re-runs that step and what
# follows; e.g. a new bootstrap count re-runs only the fit, not the solves).
FIT_PLAN_KEYS = ("spots", "preflop_model", "endings_per_spot", "boards", "heldout_boards", "seed")
FIT_SOLVE_KEYS = ("bet_tree", "accuracy_pct_pot", "max_iterations", "backend", "texassolver", "min_class_reach")
FIT_REPORT = [
    ("commitment.png", "Commitment"),
    ("edge.png", "Edge"),
    ("residuals.png", "Residuals"),
    ("class_realisation.png", "Class realisation"),
]


def fit_param(keys):
    return json.dumps({k: config["fit"].get(k) for k in keys}, sort_keys=True)


def fit_preflop_paths():
    return {name: f"{FIT_DIR}/preflop/{name}/result.json" for name in FIT.spot_names} if FIT else {}


rule fit_preflop:
    input:
        table="results/equity/equity_169.npz",
        sizing=config["solve"]["sizing"],
        payouts=PAYOUTS,
    output:  # the same names as rule solve_spot's: both run solve_spot.py (a list of spots per job)
        results=[f"{FIT_DIR}/preflop/{{format}}/{{seats}}max/{{depth}}bb/result.json"],
        arrays=f"{FIT_DIR}/preflop/{{format}}/{{seats}}max/{{depth}}bb/result.npz",
    params:
        spots=lambda wildcards: [spot_name(wildcards.format, wildcards.seats, wildcards.depth)],
        states=lambda wildcards: [f"{FIT_DIR}/preflop/{wildcards.format}/{wildcards.seats}max/{wildcards.depth}bb/"
                                  "solver_state.npz"],
        settings=lambda wildcards: [{**solve_settings(config["solve"], {}), "postflop": config["fit"]["preflop_model"]}],
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=lambda wildcards: solve_resources(wildcards.seats, {})["mem_mb"],
        runtime=lambda wildcards: solve_resources(wildcards.seats, {})["runtime"],
    log:
        f"logs/fit/preflop_{{format}}_{{seats}}max_{{depth}}bb.log",
    script:
        "../scripts/solve_spot.py"


rule fit_endings:
    input:
        results=lambda wildcards: list(fit_preflop_paths().values()),
        sizing=config["solve"]["sizing"],
    output:
        spots=f"{FIT_DIR}/spots.tsv",
        endings=f"{FIT_DIR}/endings.tsv",
        boards=f"{FIT_DIR}/boards.tsv",
    params:
        fit=fit_param(FIT_PLAN_KEYS),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/fit_endings.py"


rule fit_solve:
    input:
        endings=f"{FIT_DIR}/endings.tsv",
        boards=f"{FIT_DIR}/boards.tsv",
    output:
        measurement=f"{FIT_DIR}/solves/{{format}}/{{seats}}max/{{depth}}bb/e{{rank}}/b{{board}}.parquet",
    params:
        fit=fit_param(FIT_SOLVE_KEYS),
    wildcard_constraints:
        rank="[0-9]+",
        board="[0-9]+",
    threads: 1  # jobs in parallel use the cores better than one solve's threads (same bytes on any count)
    resources:
        mem_mb=4000,
        runtime=120,
    log:
        f"logs/fit/solve_{{format}}_{{seats}}max_{{depth}}bb_e{{rank}}_b{{board}}.log",
    benchmark:
        f"logs/benchmarks/fit/{{format}}_{{seats}}max_{{depth}}bb_e{{rank}}_b{{board}}.tsv"
    script:
        "../scripts/fit_solve.py"


rule fit_constants:
    input:
        spots=f"{FIT_DIR}/spots.tsv",
        endings=f"{FIT_DIR}/endings.tsv",
        boards=f"{FIT_DIR}/boards.tsv",
        measurements=lambda wildcards: [f"{FIT_DIR}/solves/{key}.parquet" for key in FIT.job_keys()],
    output:
        constants=f"{FIT_DIR}/constants.json",
        figures=[report(f"{FIT_DIR}/report/{name}", caption="../report/fit.rst", category="Postflop fit",
                        subcategory=label) for name, label in FIT_REPORT],
        classes=f"{FIT_DIR}/report/class_realisation.tsv",
        summary=report(f"{FIT_DIR}/report/summary.html", caption="../report/fit.rst", category="Postflop fit"),
        summary_md=f"{FIT_DIR}/report/summary.md",
    params:
        fit=config_digest_param("fit"),
        shipped=lambda wildcards: config["fit"]["preflop_model"],
        command=rerun_command_param(f"{FIT_DIR}/constants.json"),
    threads: 1
    resources:
        mem_mb=4000,
        runtime=60,
    log:
        f"logs/fit/constants.log",
    script:
        "../scripts/fit_constants.py"


# Model v2's class table from the fit's per-class realisation (shrunk toward the seat-level edge;
# pokerlab.preflop.class_edges.fit_class_table). Point solve.postflop.class_table at it (or at a
# committed copy) and set solve.postflop.model: v2.
rule fit_class_table:
    input:
        classes=f"{FIT_DIR}/report/class_realisation.tsv",
    output:
        table=f"{FIT_DIR}/class_table.tsv",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/fit_class_table.py"


# Error per hand of v1 (fitted constants) and v2 (plus the class table) on the fitting and held-out boards.
rule fit_class_check:
    input:
        constants=f"{FIT_DIR}/constants.json",
        table=f"{FIT_DIR}/class_table.tsv",
        measurements=lambda wildcards: [f"{FIT_DIR}/solves/{key}.parquet" for key in FIT.job_keys()],
    output:
        check=f"{FIT_DIR}/report/class_table_check.json",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/fit_class_check.py"
