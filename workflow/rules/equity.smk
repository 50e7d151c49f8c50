# Stage 1: the 169x169 preflop equity table and its exact cross-check.

from pokerlab.equity_table import check_existing_table

# A damaged table stops the workflow here, naming it and how to rebuild it, before any job could
# delete outputs that depend on it.
check_existing_table("results/equity/equity_169.npz")


rule equity_table:
    output:
        npz="results/equity/equity_169.npz",
        parquet="results/equity/equity_169.parquet",
    params:
        mode=config["equity"]["mode"],
        samples=config["equity"]["samples"],
        seed=config["equity"]["seed"],
    priority: 20  # every solve waits for it
    threads: 64
    resources:
        mem_mb=2000,
        runtime=120,
    log:
        "logs/equity/equity_table.log",
    benchmark:
        "logs/benchmarks/equity_table.tsv"
    script:
        "../scripts/equity_table.py"


rule equity_crosscheck:
    input:
        npz="results/equity/equity_169.npz",
    output:
        csv="results/equity/crosscheck.csv",
    params:
        pairs=config["equity"]["crosscheck"]["pairs"],
        max_gap_pp=config["equity"]["crosscheck"]["max_gap_pp"],
    # One process (about 80 CPU-s), early, beside the solves: claiming every core it ran alone, in
    # the full sweep's tail, for 36 s of wall while nothing else could start.
    priority: 5
    threads: 1
    resources:
        mem_mb=1000,
        runtime=120,
    log:
        "logs/equity/equity_crosscheck.log",
    benchmark:
        "logs/benchmarks/equity_crosscheck.tsv"
    script:
        "../scripts/equity_crosscheck.py"


# What a release rests on (an input of the manifest): the table loads with its hand-strength
# invariants and, in exact mode, is the exact table (its pinned digest). Seconds, unlike the
# eval7 cross-check above (minutes), which stays in `all`.
rule equity_verify:
    input:
        npz="results/equity/equity_169.npz",
    output:
        json="results/equity/verified.json",
    params:
        mode=config["equity"]["mode"],
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/equity_verify.py"


localrules:
    equity_verify,


# The exact 1,326 x 1,326 hand-against-hand table (card removal at the combo level): a few
# minutes on 2 cores, built once for the push/fold solver with card removal.
rule equity_combos:
    output:
        npz="results/equity/equity_1326.npz",
    priority: 10
    threads: 64
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        "logs/equity/equity_combos.log",
    benchmark:
        "logs/benchmarks/equity_combos.tsv"
    script:
        "../scripts/equity_combos.py"


rule equity_combos_crosscheck:
    input:
        combos="results/equity/equity_1326.npz",
        classes="results/equity/equity_169.npz",
    output:
        csv="results/equity/crosscheck_1326.csv",
    params:
        pairs=config["equity"].get("combos", {}).get("crosscheck_pairs", 8),
        seed=config["equity"].get("combos", {}).get("crosscheck_seed", 0),
        mode=config["equity"]["mode"],
    threads: 2
    resources:
        mem_mb=1000,
        runtime=30,
    log:
        "logs/equity/equity_combos_crosscheck.log",
    script:
        "../scripts/equity_combos_crosscheck.py"
