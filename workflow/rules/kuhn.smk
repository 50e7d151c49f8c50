# Correctness anchor: vanilla CFR on Kuhn poker with exact best responses, reproducing the
# published convergence figures with the same CFR primitives the preflop solver uses.


rule kuhn_experiment:
    output:
        csv="results/kuhn/convergence.csv",
        strategies="results/kuhn/final_strategies.json",
        plot="results/kuhn/exploitability.png",
        sums="results/kuhn/SHA256SUMS",
    params:
        iterations=config["kuhn"]["iterations"],
        checkpoints=config["kuhn"]["checkpoints"],
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    log:
        "logs/kuhn/kuhn_experiment.log",
    benchmark:
        "logs/benchmarks/kuhn_experiment.tsv"
    script:
        "../scripts/kuhn_experiment.py"
