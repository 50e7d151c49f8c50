# The sweep: one solve per row of the spots sheet, and the summary (one outcome row per solve, read
# from its result.json).


wildcard_constraints:
    format="[a-z_]+",
    seats="[0-9]+",
    depth="[0-9]+(\\.[0-9]+)?",


# The table sizes of the sheet, "{format}/{n}max": the publishing rules write one table size per job.
SPOT_TABLES = sorted({name.rsplit("/", 1)[0] for name in SPOT_NAMES})


# Every attempted spot, shipped or rejected, with its figures; no times (see rule timings).
rule summary:
    input:
        results=expand("results/solves/{name}/result.json", name=SPOT_NAMES),
    output:
        csv=report("results/summary.csv", caption="../report/summary.rst", category="Sweep"),
        parquet="results/summary.parquet",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/summary.py"


# Solve seconds (wall and CPU) per spot from the solve logs: unpublished (times differ run to run).
rule timings:
    input:
        csv="results/summary.csv",
    output:
        csv="results/timings.csv",
    params:
        log_dir="logs/solves",  # where the solve jobs log each spot, its timing last
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/timings.py"


localrules:
    summary,
    timings,
