# Stage 7: solved endings (results/solved/; not part of `all`).
#   snakemake --cores 2 solved_tables      # measure the tables of the spots under solved.spots
# Per spot and outer iteration k (k = 0 .. solved.outer_iterations - 1):
#   solved_preflop  i{k}/preflop/...    the preflop solve under table k (k = 0: the base model)
#   solved_plan     i{k}/plan/...       its most reached heads-up flop endings and their flop subsets
#   solved_postflop i{k}/solves/...     one postflop solve per ending x flop (its own job: resumable, spread on SLURM)
#   solved_update   i{k}/measured/...   table k+1: corrections measured on the fitting flops, damped against
#                                       table k (which is i{k-1}/measured/...);
#                   i{k}/report/...     the iteration's strategy change, valuation gaps, exploitability, CPU
# then solved_table copies the last table (K = outer_iterations) to results/solved/tables/ with its
# provenance, solves the chart under it (i{K}/preflop/...) and writes the convergence table.
# `pokerlab solved ship SPOT` copies a checked table and its start into solve.postflop.solved_tables (config/solved-endings/).
#
# The exchanging solve (converges where the re-solving chain above need not; docs/pipeline/solved.md):
#   snakemake --cores 2 solved_exchange
#   solved_exchange_memory exchange/.../memory.json  what the solve below holds, each flop's solver built in turn
#                                         (its job asks for that much memory)
#   solved_exchange_solve  exchange/...   one job per spot: preflop CFR+ and every ending x fitting-flop postflop
#                                         solve side by side (the plan of iteration 0), checkpointed in state.npz
#                                         (a killed job resumes from it); writes the averaged table, the chart
#                                         (the preflop average strategy) and the report with the joint exploitability
#   snakemake --cores 2 solved_exchange_validation   (solved_rounds_validation: the same for solved_rounds)
#   solved_exchange_arrivals  {method}/plan/...     the plan's endings with the ranges the chart brings there
#   solved_validation_boards  validation/...        the held-out flops to solve: solved.validation_boards per
#                                                   ending (default heldout_boards: the plan's own held-out flops)
#   solved_exchange_heldout   {method}/heldout/...  each held-out flop solved once with those ranges (its own job)
#   solved_exchange_validate  {method}/...-heldout.json  the table's valuation gap on the held-out flops
#   snakemake --cores 2 solved_exchange_check   the ship check: the spot solved as the default run would
#   solved_check      {method}/check/...  solve it with this table and its start (in the table's game, judged at
#                                         the start's iteration): result.json's status says whether the pair ships

import functools

from pokerlab.solved.joint import job_mem_mb
from pokerlab.solved.settings import SolvedSettings, base_postflop, spot_section
from pokerlab.solved.validate import heldout_keys, write_validation_boards

SOLVED = SolvedSettings.from_config(config["solved"]) if "solved" in config else None  # errors name the key
# Per spot: an entry of solved.spots may size its own measurement (endings, boards, ...: SPOT_KEYS).
SOLVED_DIR = "results/solved"
SPOT_PATH = "{format}/{seats}max/{depth}bb"
SPOT_FILE = "{format}-{seats}max-{depth}bb"
# What each step's output depends on in the solved section (a change re-runs that step and what follows).
SOLVED_PLAN_KEYS = ("endings", "boards", "heldout_boards", "seed")
SOLVED_SOLVE_KEYS = ("bet_trees", "accuracy_pct_pot", "max_iterations", "compression", "floor_weight")


@functools.lru_cache(maxsize=None)
def solved_for_spot(name):
    """The solved settings that measure spot ``name`` (its entry's own keys merged in), built once per spot:
    the input and resource functions of every job ask for them while the DAG is built."""
    return SolvedSettings.for_spot(config["solved"], name)


def solved_for(wildcards):
    """:func:`solved_for_spot` of the spot of ``wildcards``."""
    return solved_for_spot(spot_name(wildcards.format, wildcards.seats, wildcards.depth))


def solved_param(keys):
    def param(wildcards):
        section = spot_section(config["solved"], spot_name(wildcards.format, wildcards.seats, wildcards.depth))
        return json.dumps({k: section.get(k) for k in keys}, sort_keys=True)
    return param


def solved_base_postflop():
    """solve.postflop as the model the corrections are measured against (model solved -> v1)."""
    return base_postflop(config["solve"]["postflop"])


def solved_table_input(wildcards):
    """Table k of iteration k (measured by iteration k - 1); none at k = 0."""
    k = int(wildcards.k)
    return [f"{SOLVED_DIR}/i{k - 1}/measured/{SPOT_FILE}.tsv".format(**wildcards)] if k > 0 else []


def solved_spot_settings(tables=None):
    """The default run's solve settings on the base model, or under the solved tables in folder ``tables``."""
    postflop = solved_base_postflop()
    if tables is not None:
        postflop = {**postflop, "model": "solved", "solved_tables": tables}
    return [{**solve_settings(config["solve"], {}), "postflop": postflop}]


def solved_spot_inputs():
    """What a solve of the spot on the base model reads (rules solved_preflop and solved_check)."""
    base = solved_base_postflop()
    return {**{k: v for k, v in solve_inputs().items() if k != "class_table"},
            "class_table": [base["class_table"]] if base.get("model") == "v2" else []}


def solved_joint_inputs():
    """What the exchanging solve of a spot reads (:func:`pokerlab.solved.rounds.spot_solve`), for every rule
    that builds it: the in-process exchange, its memory job, and the rounds' jobs."""
    return {"table": "results/equity/equity_169.npz", "sizing": config["solve"]["sizing"],
            "constants": postflop_constants_input(),
            "endings": f"{SOLVED_DIR}/i0/plan/{SPOT_PATH}/endings.tsv",
            "boards": f"{SOLVED_DIR}/i0/plan/{SPOT_PATH}/boards.tsv"}


def solved_iteration_settings(wildcards):
    k = int(wildcards.k)
    return solved_spot_settings(f"{SOLVED_DIR}/i{k - 1}/measured" if k > 0 else None)


def solved_measurements(wildcards):
    return [f"{SOLVED_DIR}/i{wildcards.k}/solves/{SPOT_PATH}/{key}.parquet".format(**wildcards)
            for key in solved_for(wildcards).job_keys()]


def solved_final_paths():
    if SOLVED is None:
        return []
    return [f"{SOLVED_DIR}/tables/{s.name.replace('/', '-')}.tsv" for s in SOLVED.spots]


rule solved_tables:
    input:
        solved_final_paths(),


rule solved_exchange:
    input:
        [f"{SOLVED_DIR}/exchange/{s.name.replace('/', '-')}.json" for s in SOLVED.spots] if SOLVED is not None else [],


rule solved_exchange_memory:
    input:
        **solved_joint_inputs(),
    output:
        f"{SOLVED_DIR}/exchange/{SPOT_PATH}/memory.json",
    params:
        base=solved_base_postflop(),
        solved=solved_param(SOLVED_SOLVE_KEYS),
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=lambda w: SOLVED.max_memory_mb + 1000,  # one flop's solver at a time
    log:
        f"logs/solved/exchange_memory_{SPOT_FILE}.log",
    script:
        "../scripts/solved_exchange_memory.py"


rule solved_exchange_solve:
    input:
        **solved_joint_inputs(),
        memory=f"{SOLVED_DIR}/exchange/{SPOT_PATH}/memory.json",
    output:
        table=f"{SOLVED_DIR}/exchange/{SPOT_FILE}.tsv",
        start=f"{SOLVED_DIR}/exchange/{SPOT_FILE}.start.npz",
        chart=f"{SOLVED_DIR}/exchange/{SPOT_PATH}/result.json",
        arrays=f"{SOLVED_DIR}/exchange/{SPOT_PATH}/result.npz",
        report=f"{SOLVED_DIR}/exchange/{SPOT_FILE}.json",
    params:
        base=solved_base_postflop(),
        state=lambda w: f"{SOLVED_DIR}/exchange/{SPOT_PATH}/state.npz".format(**w),
        solved=solved_param(SOLVED_SOLVE_KEYS + ("exchange",)),
        command=rerun_command_param("solved_exchange"),
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 64  # scaled down to --cores; the postflop solves give the same bytes on any thread count
    resources:
        mem_mb=lambda w, input: job_mem_mb(input.memory),  # measured by solved_exchange_memory (evaluated once it ran)
        runtime=7 * 24 * 60,
    log:
        f"logs/solved/exchange_{SPOT_FILE}.log",
    script:
        "../scripts/solved_exchange.py"


def solved_validation_reports(method):
    return [f"{SOLVED_DIR}/{method}/{s.name.replace('/', '-')}-heldout.json" for s in SOLVED.spots] if SOLVED is not None else []


rule solved_exchange_validation:
    input:
        solved_validation_reports("exchange"),


rule solved_rounds_validation:
    input:
        solved_validation_reports("rounds"),
        [f"{SOLVED_DIR}/rounds/{s.name.replace('/', '-')}-rounds.json" for s in SOLVED.spots] if SOLVED is not None else [],


# The validation rules below serve both methods: {method} is exchange or rounds (same file layout).
rule solved_exchange_arrivals:
    input:
        chart=f"{SOLVED_DIR}/{{method}}/{SPOT_PATH}/result.json",
        sizing=config["solve"]["sizing"],
        endings=f"{SOLVED_DIR}/i0/plan/{SPOT_PATH}/endings.tsv",
    output:
        endings=f"{SOLVED_DIR}/{{method}}/plan/{SPOT_PATH}/endings.tsv",
    wildcard_constraints:
        method="exchange|rounds",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/solved_exchange_arrivals.py"


rule solved_validation_boards:
    input:
        endings=f"{SOLVED_DIR}/i0/plan/{SPOT_PATH}/endings.tsv",
    output:
        boards=f"{SOLVED_DIR}/validation/{SPOT_PATH}/boards.tsv",
    params:
        solved=solved_param(("boards", "seed", "heldout_boards", "validation_boards")),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    run:
        write_validation_boards(input.endings, solved_for(wildcards), output.boards)


rule solved_exchange_heldout:
    input:
        endings=f"{SOLVED_DIR}/{{method}}/plan/{SPOT_PATH}/endings.tsv",
        boards=f"{SOLVED_DIR}/validation/{SPOT_PATH}/boards.tsv",
    output:
        measurement=f"{SOLVED_DIR}/{{method}}/heldout/{SPOT_PATH}/e{{rank}}/b{{board}}.parquet",
    params:
        key=lambda w: f"{spot_name(w.format, w.seats, w.depth)}/e{w.rank}/b{w.board}",
        solved=solved_param(SOLVED_SOLVE_KEYS),
    wildcard_constraints:
        method="exchange|rounds",
        rank="[0-9]+",
        board="[0-9]+",
    threads: 1
    resources:
        mem_mb=lambda w: SOLVED.max_memory_mb + 1000,
        runtime=360,
    log:
        f"logs/solved/{{method}}/heldout_{SPOT_FILE}_e{{rank}}_b{{board}}.log",
    script:
        "../scripts/solved_postflop.py"


def solved_heldout_measurements(wildcards):
    spot, settings = spot_name(wildcards.format, wildcards.seats, wildcards.depth), solved_for(wildcards)
    return [f"{SOLVED_DIR}/{{method}}/heldout/{SPOT_PATH}/{key.split('/', 3)[3]}.parquet".format(**wildcards)
            for key in heldout_keys(spot, settings.max_endings, settings.boards, settings.validation_boards)]


rule solved_exchange_validate:
    input:
        table="results/equity/equity_169.npz",
        sizing=config["solve"]["sizing"],
        constants=postflop_constants_input(),
        corrections=f"{SOLVED_DIR}/{{method}}/{SPOT_FILE}.tsv",
        arrivals=f"{SOLVED_DIR}/{{method}}/plan/{SPOT_PATH}/endings.tsv",
        boards=f"{SOLVED_DIR}/validation/{SPOT_PATH}/boards.tsv",
        measurements=solved_heldout_measurements,
    output:
        report=f"{SOLVED_DIR}/{{method}}/{SPOT_FILE}-heldout.json",
    params:
        base=solved_base_postflop(),
    wildcard_constraints:
        method="exchange|rounds",
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/solved_exchange_validate.py"


rule solved_exchange_check:
    input:
        [f"{SOLVED_DIR}/exchange/check/{s.name}/result.json" for s in SOLVED.spots] if SOLVED is not None else [],


rule solved_check:
    input:
        **solved_spot_inputs(),
        solved=[f"{SOLVED_DIR}/{{method}}/{SPOT_FILE}.tsv", f"{SOLVED_DIR}/{{method}}/{SPOT_FILE}.start.npz"],
    output:
        results=[f"{SOLVED_DIR}/{{method}}/check/{SPOT_PATH}/result.json"],
        arrays=f"{SOLVED_DIR}/{{method}}/check/{SPOT_PATH}/result.npz",
    params:
        spots=lambda w: [spot_name(w.format, w.seats, w.depth)],
        states=lambda w: [f"{SOLVED_DIR}/{w.method}/check/{SPOT_PATH}/solver_state.npz".format(**w)],
        settings=lambda w: solved_spot_settings(f"{SOLVED_DIR}/{w.method}"),
    wildcard_constraints:
        method="exchange|rounds",
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=lambda w: solve_resources(w.seats, {})["mem_mb"],
        runtime=lambda w: solve_resources(w.seats, {})["runtime"],
    log:
        f"logs/solved/{{method}}/check_{SPOT_FILE}.log",
    script:
        "../scripts/solve_spot.py"


rule solved_preflop:
    input:
        **solved_spot_inputs(),
        solved=solved_table_input,
    output:
        results=[f"{SOLVED_DIR}/i{{k}}/preflop/{SPOT_PATH}/result.json"],
        arrays=f"{SOLVED_DIR}/i{{k}}/preflop/{SPOT_PATH}/result.npz",
    params:
        spots=lambda w: [spot_name(w.format, w.seats, w.depth)],
        states=lambda w: [f"{SOLVED_DIR}/i{w.k}/preflop/{SPOT_PATH}/solver_state.npz".format(**w)],
        settings=solved_iteration_settings,
    wildcard_constraints:
        k="[0-9]+",
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=lambda w: solve_resources(w.seats, {})["mem_mb"],
        runtime=lambda w: solve_resources(w.seats, {})["runtime"],
    log:
        f"logs/solved/i{{k}}/preflop_{SPOT_FILE}.log",
    script:
        "../scripts/solve_spot.py"


rule solved_plan:
    input:
        result=f"{SOLVED_DIR}/i{{k}}/preflop/{SPOT_PATH}/result.json",
        sizing=config["solve"]["sizing"],
    output:
        spots=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/spots.tsv",
        endings=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/endings.tsv",
        boards=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/boards.tsv",
    params:
        spot=lambda w: spot_name(w.format, w.seats, w.depth),
        solved=solved_param(SOLVED_PLAN_KEYS),
    wildcard_constraints:
        k="[0-9]+",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/solved_plan.py"


rule solved_postflop:
    input:
        endings=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/endings.tsv",
        boards=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/boards.tsv",
    output:
        measurement=f"{SOLVED_DIR}/i{{k}}/solves/{SPOT_PATH}/e{{rank}}/b{{board}}.parquet",
    params:
        key=lambda w: f"{spot_name(w.format, w.seats, w.depth)}/e{w.rank}/b{w.board}",
        solved=solved_param(SOLVED_SOLVE_KEYS),
    wildcard_constraints:
        k="[0-9]+",
        rank="[0-9]+",
        board="[0-9]+",
    threads: 1  # jobs in parallel use the cores better than one solve's threads (same bytes on any count)
    resources:
        mem_mb=lambda w: SOLVED.max_memory_mb + 1000,
        runtime=360,
    log:
        f"logs/solved/i{{k}}/postflop_{SPOT_FILE}_e{{rank}}_b{{board}}.log",
    script:
        "../scripts/solved_postflop.py"


rule solved_update:
    input:
        table="results/equity/equity_169.npz",
        sizing=config["solve"]["sizing"],
        constants=postflop_constants_input(),
        result=f"{SOLVED_DIR}/i{{k}}/preflop/{SPOT_PATH}/result.json",
        previous_result=lambda w: [f"{SOLVED_DIR}/i{int(w.k) - 1}/preflop/{SPOT_PATH}/result.json".format(**w)]
        if int(w.k) > 0 else [],
        corrections=solved_table_input,
        endings=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/endings.tsv",
        boards=f"{SOLVED_DIR}/i{{k}}/plan/{SPOT_PATH}/boards.tsv",
        measurements=solved_measurements,
    output:
        table=f"{SOLVED_DIR}/i{{k}}/measured/{SPOT_FILE}.tsv",
        report=f"{SOLVED_DIR}/i{{k}}/report/{SPOT_FILE}.json",
    params:
        base=solved_base_postflop(),
        solved=solved_param(("damping", "tolerance")),
        command=rerun_command_param("solved_tables"),
    wildcard_constraints:
        k="[0-9]+",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/solved_update.py"


rule solved_table:
    input:
        table=lambda w: f"{SOLVED_DIR}/i{SOLVED.outer_iterations - 1}/measured/{SPOT_FILE}.tsv".format(**w),
        reports=lambda w: [f"{SOLVED_DIR}/i{k}/report/{SPOT_FILE}.json".format(**w)
                           for k in range(SOLVED.outer_iterations)],
        chart=lambda w: f"{SOLVED_DIR}/i{SOLVED.outer_iterations}/preflop/{SPOT_PATH}/result.json".format(**w),
        previous=lambda w: f"{SOLVED_DIR}/i{SOLVED.outer_iterations - 1}/preflop/{SPOT_PATH}/result.json".format(**w),
    output:
        table=f"{SOLVED_DIR}/tables/{SPOT_FILE}.tsv",
        convergence=f"{SOLVED_DIR}/report/{SPOT_FILE}-convergence.tsv",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/solved_table.py"
