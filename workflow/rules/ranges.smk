# Range inference: prior ranges generated from published 6-max cash charts (one per stack
# bucket), and the range-sensitivity experiment. The generated priors are what
# src/pokerlab/ranges/data/priors.json bundles (copy it there to update the package's default).

PRIOR_CHARTS = [f"results/charts/cash/6max/{depth}bb.json.gz" for depth in (20, 40, 100)]


rule range_priors:
    input:
        charts=PRIOR_CHARTS,
        equity="results/equity/equity_169.npz",
    output:
        priors="results/ranges/priors.json",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/range_priors.py"


# The range-sensitivity experiment: eight heads-up spots, the default analysis against five
# alternative opponent models (seeded; valued with the bundled priors and the postflop solver).
rule range_sensitivity:
    input:
        priors=workflow.source_path("../../src/pokerlab/ranges/data/priors.json"),
    output:
        json="results/validation/range_sensitivity.json",
        table="results/validation/range_sensitivity.md",
    params:
        seed=20261201,
        samples=4000,
    threads: 2
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/range_sensitivity.py"
