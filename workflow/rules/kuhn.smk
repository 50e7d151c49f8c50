# Correctness anchor: vanilla CFR on Kuhn poker with exact best responses, reproducing the
# published convergence figures with the same CFR primitives the preflop solver uses;
# CFR+ (alternating updates) runs beside it for comparison.


rule kuhn_experiment:
    output:
        csv="results/kuhn/convergence.csv",
        cfr_plus_csv="results/kuhn/convergence_cfr_plus.csv",
        strategies="results/kuhn/final_strategies.json",
        plot="results/kuhn/exploitability.png",
        sums="results/kuhn/SHA256SUMS",
    params:
        iterations=config["kuhn"]["iterations"],
        checkpoints=config["kuhn"]["checkpoints"],
    priority: 5  # seconds of work: early, beside the solves, not trailing them
    threads: 1
    resources:
        mem_mb=500,
        runtime=10,
    benchmark:
        "logs/benchmarks/kuhn_experiment.tsv"
    script:
        "../scripts/kuhn_experiment.py"
