# The sweep: one solve per row of the spots sheet, one outcome row per solve, and the summary
# checkpoint through which the publishing rules learn which spots shipped.

import pandas as pd


wildcard_constraints:
    format="[a-z_]+",
    seats="[0-9]+",
    depth="[0-9]+(\\.[0-9]+)?",


def shipped_spot_names(wildcards):
    """Spots whose solve cleared its bar, read from the summary (a checkpoint: only known after the solves ran)."""
    summary = pd.read_csv(checkpoints.summary.get().output.csv)
    return [spot_name(r.format, r.seats, r.depth_bb) for r in summary.itertuples() if r.status == "shipped"]


rule spot_outcome:
    input:
        result="results/solves/{format}/{seats}max/{depth}bb/result.json",
    output:
        outcome="results/outcomes/{format}/{seats}max/{depth}bb.json",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=5,
    script:
        "../scripts/spot_outcome.py"


# Every attempted spot, shipped or rejected, with its figures; no times (see rule timings).
checkpoint summary:
    input:
        outcomes=expand("results/outcomes/{name}.json", name=SPOT_NAMES),
    output:
        csv=report("results/summary.csv", caption="../report/summary.rst", category="Sweep"),
        parquet="results/summary.parquet",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/summary.py"


# Solve seconds per spot from the benchmark files: unpublished (times differ run to run).
rule timings:
    input:
        csv="results/summary.csv",
    output:
        csv="results/timings.csv",
    params:
        benchmark_dir="logs/benchmarks/solves",  # where rule solve_spot writes its benchmark files
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/timings.py"


localrules:
    spot_outcome,
    summary,
    timings,
