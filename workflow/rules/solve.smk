# Stages 2-4: solve one spot (format, table size, depth) with CFR+ until it clears its bar, with
# the solve: settings and the spots sheet's per-spot overrides.
# The solver state is kept beside the result (not a declared output, so Snakemake does not
# delete it before a re-run): an interrupted solve resumes where it last saved.

from pokerlab.preflop.solve import postflop_constants_file


# The spots listed under solve.spots in the config (solved by `all` beside the sheet's).
EXTRA_SPOT_NAMES = [spot_name(s["format"], s["seats"], s["depth"]) for s in config["solve"]["spots"]]


def solve_result_paths():
    """result.json of every spot listed under solve.spots in the config."""
    return [solve_paths(name, "result.json") for name in EXTRA_SPOT_NAMES]


def postflop_constants_input():
    """The constants file the solves read (solve.postflop.source file or fit), else nothing:
    with source fit every solve depends on the fit's output, so a new fit re-runs the solves."""
    path = postflop_constants_file(config["solve"]["postflop"])
    return [] if path is None else [path]


def postflop_class_table_input():
    """The class table of postflop model v2 (solve.postflop.class_table), else nothing."""
    section = config["solve"]["postflop"]
    return [section["class_table"]] if section.get("model", "v1") == "v2" else []


def solved_table_inputs(names):
    """Under model solved, the solved-ending tables of the spots ``names`` that the folder holds, and
    their starts (a new table or start re-runs its spot's solve; a spot without a table is solved as v1)."""
    section = config["solve"]["postflop"]
    if section.get("model") != "solved":
        return []
    from pathlib import Path

    from pokerlab.preflop.ending_corrections import start_path
    from pokerlab.preflop.solve import solved_table_name

    tables = [Path(section["solved_tables"]) / solved_table_name(parse_spot_name(n)) for n in names]
    return [p.as_posix() for t in tables for p in (t, start_path(t)) if p.is_file()]


def solve_inputs():
    """What every solve job reads (rules solve_spot and solve_table)."""
    return dict(
        table="results/equity/equity_169.npz",
        sizing=config["solve"]["sizing"],
        payouts=PAYOUTS,
        constants=postflop_constants_input(),
        class_table=postflop_class_table_input(),
        combo_table=["results/equity/equity_1326.npz"] if config["solve"].get("hands") == "combos" else [],
    )


def solve_paths(name, file):
    """``results/solves/{name}/{file}`` of the spot ``name`` (``cash/6max/100bb``)."""
    return f"results/solves/{name}/{file}"


# One spot per job: every spot not batched below, and any spot asked for by its path.
rule solve_spot:
    input:
        **solve_inputs(),
        solved=lambda wildcards: solved_table_inputs([spot_name(wildcards.format, wildcards.seats, wildcards.depth)]),
    output:
        results=["results/solves/{format}/{seats}max/{depth}bb/result.json"],
        arrays="results/solves/{format}/{seats}max/{depth}bb/result.npz",  # per-class arrays (pokerlab.preflop.result_file)
    params:
        spots=lambda wildcards: [spot_name(wildcards.format, wildcards.seats, wildcards.depth)],
        states=lambda wildcards: [solve_paths(spot_name(wildcards.format, wildcards.seats, wildcards.depth),
                                              "solver_state.npz")],
        settings=lambda wildcards: [solve_settings(config["solve"], overrides_of(wildcards))],
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
    script:
        "../scripts/solve_spot.py"


# The spots of the table sizes in sweep.batch_seats (sheet and solve.spots), one job per format
# and table size, solved one after the other in one process: the same bytes as one job per spot,
# without a second of start-up per spot. A rule per table size (its outputs are that table's
# spots); for those files it takes precedence over solve_spot.
for _table, _names in batched_tables(SPOT_NAMES + EXTRA_SPOT_NAMES, config["sweep"].get("batch_seats", [])).items():
    _rule = f"solve_table_{_table.replace('/', '_')}"
    _resources = [solve_resources(parse_spot_name(n).seats, OVERRIDES.get(n, {})) for n in _names]

    rule:
        name:
            _rule
        input:
            **solve_inputs(),
            solved=solved_table_inputs(_names),
        output:
            results=[solve_paths(n, "result.json") for n in _names],
            arrays=[solve_paths(n, "result.npz") for n in _names],
        params:
            spots=_names,
            states=[solve_paths(n, "solver_state.npz") for n in _names],
            settings=[solve_settings(config["solve"], OVERRIDES.get(n, {})) for n in _names],
        threads: 1
        resources:
            mem_mb=max(r["mem_mb"] for r in _resources),
            runtime=sum(r["runtime"] for r in _resources),
        log:
            [f"logs/solves/{n.replace('/', '_')}.log" for n in _names],
        script:
            "../scripts/solve_spot.py"

    workflow.ruleorder(_rule, "solve_spot")
