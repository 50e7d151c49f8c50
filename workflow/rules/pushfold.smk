# Independent push/fold solver: heads-up exact at every configured depth (in `all`), 4-max by
# Monte Carlo (minutes per depth, so only through its own target: snakemake pushfold_fourmax, which
# builds results/pushfold/4max/ or, with pushfold.fourmax.hands: combos, results/pushfold/4max_combos/).

from pokerlab.pushfold.io import FOURMAX_DIRS, fourmax_hands


def pushfold_headsup_paths():
    """JSON and heatmaps of every heads-up depth listed under pushfold.headsup.depths (and, when
    pushfold.headsup_combos is configured, the card-removal solves' summary, which needs them all)."""
    out = []
    for depth in config["pushfold"]["headsup"]["depths"]:
        stem = f"results/pushfold/hu/{depth_label(depth)}bb"
        out += [f"{stem}.json", f"{stem}_sb_shove.png", f"{stem}_bb_call.png"]
    if "headsup_combos" in config["pushfold"]:
        out += ["results/pushfold/hu_combos/summary.csv", "results/pushfold/hu_combos/shares.png",
                "results/equity/crosscheck_1326.csv"]
    return out


def pushfold_headsup_combos_jsons():
    return [f"results/pushfold/hu_combos/{depth_label(d)}bb.json"
            for d in config["pushfold"].get("headsup_combos", {}).get("depths", [])]


rule pushfold_headsup:
    input:
        table="results/equity/equity_169.npz",
    output:
        json="results/pushfold/hu/{depth}bb.json",
        sb_png="results/pushfold/hu/{depth}bb_sb_shove.png",
        bb_png="results/pushfold/hu/{depth}bb_bb_call.png",
    params:
        section=config["pushfold"],
        seats=2,
        png="results/pushfold/hu/{depth}bb",
        checkpoint=None,
    wildcard_constraints:
        depth="[0-9]+(\\.[0-9]+)?",
    priority: 5  # seconds of work: early, beside the solves, not trailing them
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    benchmark:
        "logs/benchmarks/pushfold/hu_{depth}bb.tsv"
    script:
        "../scripts/pushfold.py"


# Heads-up with card removal: the 1,326 combos of each seat, blocking between them (and the class
# game beside it for comparison); per-class frequencies are the combo-weighted means.
rule pushfold_headsup_combos:
    input:
        table="results/equity/equity_169.npz",
        combos="results/equity/equity_1326.npz",
    output:
        json="results/pushfold/hu_combos/{depth}bb.json",
        sb_png="results/pushfold/hu_combos/{depth}bb_sb_shove.png",
        bb_png="results/pushfold/hu_combos/{depth}bb_bb_call.png",
    params:
        section=config["pushfold"],
        seats=2,
        png="results/pushfold/hu_combos/{depth}bb",
        checkpoint=None,
    wildcard_constraints:
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    benchmark:
        "logs/benchmarks/pushfold/hu_combos_{depth}bb.tsv"
    script:
        "../scripts/pushfold.py"


rule pushfold_headsup_combos_summary:
    input:
        pushfold_headsup_combos_jsons(),
    output:
        csv="results/pushfold/hu_combos/summary.csv",
        png="results/pushfold/hu_combos/shares.png",
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    run:
        from pokerlab.pushfold.io import write_headsup_combos_summary

        write_headsup_combos_summary(list(input), output.csv, output.png)


rule pushfold_fourmax_spot:
    input:
        table="results/equity/equity_169.npz",
    output:
        json="results/pushfold/4max/{depth}bb.json",
        png=directory("results/pushfold/4max/{depth}bb_png"),
    params:
        section=config["pushfold"],
        seats=4,
        png="results/pushfold/4max/{depth}bb_png",
        checkpoint="results/pushfold/4max/{depth}bb_state.npz",  # not an output: kept for resuming
    wildcard_constraints:
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=1000,
        runtime=60,
    log:
        "logs/pushfold/4max_{depth}bb.log",
    benchmark:
        "logs/benchmarks/pushfold/4max_{depth}bb.tsv"
    script:
        "../scripts/pushfold.py"


rule pushfold:
    input:
        pushfold_headsup_paths(),


# With card removal (pushfold.fourmax.hands: combos): the sample game of joint deals, from the 1,326 table;
# its own folder, so the class mode's results stay as they are.
rule pushfold_fourmax_combos_spot:
    input:
        combos="results/equity/equity_1326.npz",
    output:
        json="results/pushfold/4max_combos/{depth}bb.json",
        png=directory("results/pushfold/4max_combos/{depth}bb_png"),
    params:
        section=config["pushfold"],
        seats=4,
        png="results/pushfold/4max_combos/{depth}bb_png",
        checkpoint=None,
    wildcard_constraints:
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=60,
    log:
        "logs/pushfold/4max_combos_{depth}bb.log",
    benchmark:
        "logs/benchmarks/pushfold/4max_combos_{depth}bb.tsv"
    script:
        "../scripts/pushfold.py"


rule pushfold_fourmax:
    input:
        [f"results/pushfold/{FOURMAX_DIRS[fourmax_hands(config['pushfold'])]}/{depth_label(d)}bb.json"
         for d in config["pushfold"]["fourmax"]["depths"]],
