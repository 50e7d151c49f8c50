# Stage 5: chart documents of the shipped spots, viewers, report plots, and the release
# manifest (manifest.json + SHA256SUMS) over everything published.

from pokerlab.io import sha256_file
from pokerlab.publish import DEFAULT_SCHEMA as CHART_SCHEMA  # the JSON Schema the library ships

PUBLISHED_DIRS = ["charts", "viewer", "report"]
# What the release depends on, digested into the manifest: the config sections that feed it and
# the content of the files they name (spots sheet, sizing schedule, ICM payouts); other sections,
# e.g. kuhn, do not change a published byte.
RELEASE_CONFIG = {section: config[section] for section in ("equity", "solve", "sweep", "icm") if section in config}
RELEASE_CONFIG["spots_sheet_sha256"] = sha256_file(config["sweep"]["spots"])
RELEASE_CONFIG["sizing_sha256"] = sha256_file(config["solve"]["sizing"])
RELEASE_CONFIG["payouts_sha256"] = sha256_file(PAYOUTS)
if config["solve"]["postflop"].get("source") == "file":  # the committed constants file's content
    RELEASE_CONFIG["postflop_constants_sha256"] = sha256_file(config["solve"]["postflop"]["file"])


# One spot's chart alone (`snakemake results/charts/cash/6max/100bb.json.gz`); the release writes
# its charts with rule publish_table instead, the same bytes.
rule chart:
    input:
        result="results/solves/{format}/{seats}max/{depth}bb/result.json",
        arrays="results/solves/{format}/{seats}max/{depth}bb/result.npz",
        schema=str(CHART_SCHEMA),
    output:
        chart="results/charts/{format}/{seats}max/{depth}bb.json.gz",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/chart.py"


def results_of_table(wildcards, name="result.json"):
    """The solves' ``name`` files of every spot of one table size (format, seats) in the sheet."""
    prefix = f"{wildcards.format}/{wildcards.seats}max/"
    return [solve_paths(spot, name) for spot in SPOT_NAMES if spot.startswith(prefix)]


# The charts and viewer pages of one table size's shipped spots (a rejected spot publishes
# nothing), in one job; the listing names the files it wrote, for the manifest. It waits only for
# its own table size's solves, and its priority runs it as soon as they are done, so publishing
# overlaps the rest of the sweep instead of trailing it.
rule publish_table:
    input:
        results=results_of_table,
        arrays=lambda wildcards: results_of_table(wildcards, "result.npz"),
        schema=str(CHART_SCHEMA),
    output:
        listing="results/listings/{format}/{seats}max.json",
    params:
        results_dir="results",
    priority: 10
    threads: 1
    resources:
        mem_mb=2000,
        runtime=30,
    script:
        "../scripts/publish_table.py"


rule viewer_index:
    input:
        csv="results/summary.csv",
    output:
        html=report("results/viewer/index.html", caption="../report/viewer.rst", category="Charts"),
    threads: 1
    resources:
        mem_mb=500,
        runtime=5,
    script:
        "../scripts/viewer_index.py"


rule report_plots:
    input:
        csv="results/summary.csv",
        results=expand("results/solves/{name}/result.json", name=SPOT_NAMES),
    output:
        exploitability=report("results/report/exploitability.png", caption="../report/exploitability.rst", category="Sweep"),
        model_share=report("results/report/model_share.png", caption="../report/model_share.rst", category="Sweep"),
        rfi=report("results/report/rfi_by_seat.png", caption="../report/rfi_by_seat.rst", category="Sweep"),
    threads: 1
    resources:
        mem_mb=1000,
        runtime=10,
    script:
        "../scripts/report_plots.py"


# Every file of the release: the shipped spots' charts and viewer pages (named by the listings),
# the summary, the index and the report plots.
rule manifest:
    input:
        listings=expand("results/listings/{table}.json", table=SPOT_TABLES),
        published=["results/summary.csv", "results/summary.parquet", "results/viewer/index.html",
                   *rules.report_plots.output],
        equity_verified="results/equity/verified.json",  # no release from an unverified table
    output:
        manifest="results/manifest.json",
        sums="results/SHA256SUMS",
    params:
        published_dirs=PUBLISHED_DIRS,
        config=RELEASE_CONFIG,
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/manifest.py"


# The published chart set with its manifest, and the (unpublished) solve timings. A rule without
# outputs runs every time it is asked for: it moves anything the manifest does not list (a chart
# of a one-spot run, say) out of the published folders to results/unpublished/, so they always
# equal the manifest and `pokerlab audit` passes (the manifest step does the same when it runs).
rule release:
    input:
        manifest="results/manifest.json",
        sums="results/SHA256SUMS",
        timings="results/timings.csv",
    script:
        "../scripts/release.py"


localrules:
    viewer_index,
    report_plots,
    manifest,
    release,
