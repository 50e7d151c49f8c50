# The exchanging solve as a chain of jobs (snakemake --cores 2 solved_rounds; docs/pipeline/solved.md):
# what solved_exchange computes in one process per spot, bit for bit, with each exchange a round of jobs:
#   solved_round_preflop  rounds/{spot}/r{r}/preflop.npz, arrivals.npz   the preflop side: takes round r-1's
#                         measurements, runs round r's preflop iterations, writes the ranges of each ending
#   solved_round_flop     rounds/{spot}/r{r}/e{rank}/b{board}.parquet    one job per fitting flop and round:
#                         its postflop solve continued from round r-1 (state in a temporary .state file) on those ranges
#   solved_rounds_finish  rounds/{spot}.tsv, .json, {spot}/result.json   the table, the report and the chart
# A SLURM run spreads the flops of a round; memory per job is one postflop solve; finished jobs are checkpoints.

from pokerlab.solved.rounds import round_iterations

ROUNDS = round_iterations(SOLVED.exchange_every, SOLVED.exchange_iterations) if SOLVED is not None else []
ROUNDS_DIR = f"{SOLVED_DIR}/rounds/{SPOT_PATH}"
ROUND_WILDCARDS = {"format": "[a-z_]+", "seats": "[0-9]+", "depth": "[0-9]+(\\.[0-9]+)?", "r": "[0-9]+",
                   "rank": "[0-9]+", "board": "[0-9]+"}


def round_flop_names(wildcards, heldout=False):
    """e{rank}/b{board} of every fitting flop the plan can hold (ranks a spot lacks write empty files),
    and with ``heldout`` of every held-out flop too."""
    settings = solved_for(wildcards)
    boards = settings.boards + (settings.heldout_boards if heldout else 0)
    return [f"e{e}/b{b}" for e in range(settings.max_endings) for b in range(boards)]


def round_measurements(wildcards, r):
    return [f"{ROUNDS_DIR}/r{r}/{name}.parquet".format(**wildcards) for name in round_flop_names(wildcards)] if r >= 1 else []


def previous_round(wildcards):
    SOLVED.require_whole_run_average()  # refused while the jobs are planned, before any of them runs
    r = int(wildcards.r)
    if r == 1:
        return {}
    return {"state": f"{ROUNDS_DIR}/r{r - 1}/preflop.npz".format(**wildcards),
            "arrivals": f"{ROUNDS_DIR}/r{r - 1}/arrivals.npz".format(**wildcards),
            "measurements": round_measurements(wildcards, r - 1)}


def previous_flop_state(wildcards):
    r = int(wildcards.r)
    return [f"{ROUNDS_DIR}/r{r - 1}/e{wildcards.rank}/b{wildcards.board}.state".format(**wildcards)] if r > 1 else []


rule solved_rounds:
    input:
        [f"{SOLVED_DIR}/rounds/{s.name.replace('/', '-')}.json" for s in SOLVED.spots] if SOLVED is not None else [],


rule solved_round_preflop:
    input:
        unpack(previous_round),
        **solved_joint_inputs(),
    output:
        state=f"{ROUNDS_DIR}/r{{r}}/preflop.npz",
        arrivals=f"{ROUNDS_DIR}/r{{r}}/arrivals.npz",
    params:
        base=solved_base_postflop(),
        solved=solved_param(SOLVED_SOLVE_KEYS + ("exchange",)),
    wildcard_constraints:
        **ROUND_WILDCARDS,
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        f"logs/solved/rounds/{SPOT_FILE}_r{{r}}_preflop.log",
    script:
        "../scripts/solved_round_preflop.py"


rule solved_round_flop:
    input:
        previous=previous_flop_state,
        arrivals=f"{ROUNDS_DIR}/r{{r}}/arrivals.npz",
        **solved_joint_inputs(),
    output:
        state=temp(f"{ROUNDS_DIR}/r{{r}}/e{{rank}}/b{{board}}.state"),
        measurement=f"{ROUNDS_DIR}/r{{r}}/e{{rank}}/b{{board}}.parquet",
    params:
        base=solved_base_postflop(),
        key=lambda w: f"{spot_name(w.format, w.seats, w.depth)}/e{w.rank}/b{w.board}",
        solved=solved_param(SOLVED_SOLVE_KEYS + ("exchange",)),
    wildcard_constraints:
        **ROUND_WILDCARDS,
    threads: 1  # a round's flops run side by side; the result is the same on any thread count
    resources:
        mem_mb=lambda w: SOLVED.max_memory_mb + 1000,
        runtime=360,
    log:
        f"logs/solved/rounds/{SPOT_FILE}_r{{r}}_e{{rank}}_b{{board}}.log",
    script:
        "../scripts/solved_round_flop.py"


rule solved_rounds_finish:
    input:
        **solved_joint_inputs(),
        state=f"{ROUNDS_DIR}/r{len(ROUNDS)}/preflop.npz",
        arrivals=f"{ROUNDS_DIR}/r{len(ROUNDS)}/arrivals.npz",
        measurements=lambda w: round_measurements(w, len(ROUNDS)),
    output:
        table=f"{SOLVED_DIR}/rounds/{SPOT_FILE}.tsv",
        start=f"{SOLVED_DIR}/rounds/{SPOT_FILE}.start.npz",
        chart=f"{ROUNDS_DIR}/result.json",
        arrays=f"{ROUNDS_DIR}/result.npz",
        report=f"{SOLVED_DIR}/rounds/{SPOT_FILE}.json",
    params:
        base=solved_base_postflop(),
        command=rerun_command_param("solved_rounds"),
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        f"logs/solved/rounds/{SPOT_FILE}_finish.log",
    script:
        "../scripts/solved_rounds_finish.py"


def round_files(wildcards):
    """Every round's preflop state, arrivals and flop measurements, held-out flops included (their own
    chain of solved_round_flop jobs, which no preflop round reads)."""
    return [f"{ROUNDS_DIR}/r{r}/{name}".format(**wildcards) for r in range(1, len(ROUNDS) + 1)
            for name in ["preflop.npz", "arrivals.npz"] + [f"{n}.parquet" for n in round_flop_names(wildcards, heldout=True)]]


rule solved_rounds_report:
    input:
        **solved_joint_inputs(),
        report=f"{SOLVED_DIR}/rounds/{SPOT_FILE}.json",
        rounds=round_files,
    output:
        report=f"{SOLVED_DIR}/rounds/{SPOT_FILE}-rounds.json",
    params:
        base=solved_base_postflop(),
        folder=lambda w: ROUNDS_DIR.format(**w),
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    script:
        "../scripts/solved_rounds_report.py"
