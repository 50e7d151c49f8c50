# Stages 2-4: solve one spot (format, table size, depth) with CFR+ until it clears its bar, with
# the solve: settings and the spots sheet's per-spot overrides.
# The solver state is kept beside the result (not a declared output, so Snakemake does not
# delete it before a re-run): an interrupted solve resumes where it last saved.


def solve_result_paths():
    """result.json of every spot listed under solve.spots in the config."""
    return [
        f"results/solves/{spot_name(s['format'], s['seats'], s['depth'])}/result.json"
        for s in config["solve"]["spots"]
    ]


def postflop_constants_input():
    """The constants file the solves read (solve.postflop.source file or fit), else nothing:
    with source fit every solve depends on the fit's output, so a new fit re-runs the solves."""
    section = config["solve"]["postflop"]
    source = section.get("source", "config")
    return {"file": [section.get("file", "")], "fit": ["results/fit/constants.json"]}.get(source, [])


def postflop_class_table_input():
    """The class table of postflop model v2 (solve.postflop.class_table), else nothing."""
    section = config["solve"]["postflop"]
    return [section["class_table"]] if section.get("model", "v1") == "v2" else []


rule solve_spot:
    input:
        table="results/equity/equity_169.npz",
        sizing=config["solve"]["sizing"],
        payouts=config.get("icm", {}).get("payouts", "config/payouts.yaml"),
        constants=postflop_constants_input(),
        class_table=postflop_class_table_input(),
    output:
        result="results/solves/{format}/{seats}max/{depth}bb/result.json",
        arrays="results/solves/{format}/{seats}max/{depth}bb/result.npz",  # per-class arrays (pokerlab.preflop.result_file)
    params:
        state="results/solves/{format}/{seats}max/{depth}bb/solver_state.npz",
        settings=lambda wildcards: solve_settings(config["solve"], overrides_of(wildcards)),
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:  # by table size, or the sheet's mem_mb / runtime columns (pokerlab.sweep.solve_resources)
        mem_mb=lambda wildcards: solve_resources(wildcards.seats, overrides_of(wildcards))["mem_mb"],
        runtime=lambda wildcards: solve_resources(wildcards.seats, overrides_of(wildcards))["runtime"],
    log:
        "logs/solves/{format}_{seats}max_{depth}bb.log",
    benchmark:
        "logs/benchmarks/solves/{format}_{seats}max_{depth}bb.tsv"
    script:
        "../scripts/solve_spot.py"
