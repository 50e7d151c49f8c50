# Stage 5: chart documents of the shipped spots, viewers, report plots, and the release
# manifest (manifest.json + SHA256SUMS) over everything published.

from pokerlab.io import sha256_file

PUBLISHED_DIRS = ["charts", "viewer", "report"]
# What the release depends on, digested into the manifest: the config sections that feed it and
# the content of the files they name (spots sheet, sizing schedule, ICM payouts); other sections,
# e.g. kuhn, do not change a published byte.
RELEASE_CONFIG = {section: config[section] for section in ("equity", "solve", "sweep", "icm") if section in config}
RELEASE_CONFIG["spots_sheet_sha256"] = sha256_file(config["sweep"]["spots"])
RELEASE_CONFIG["sizing_sha256"] = sha256_file(config["solve"]["sizing"])
RELEASE_CONFIG["payouts_sha256"] = sha256_file(config.get("icm", {}).get("payouts", "config/payouts.yaml"))
if config["solve"]["postflop"].get("source") == "file":  # the committed constants file's content
    RELEASE_CONFIG["postflop_constants_sha256"] = sha256_file(config["solve"]["postflop"]["file"])


rule chart:
    input:
        result="results/solves/{format}/{seats}max/{depth}bb/result.json",
        schema=workflow.source_path("../schemas/chart.schema.json"),
    output:
        chart="results/charts/{format}/{seats}max/{depth}bb.json",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/chart.py"


# A static, self-contained HTML page per chart set (click through the nodes).
rule viewer:
    input:
        chart="results/charts/{format}/{seats}max/{depth}bb.json",
    output:
        html="results/viewer/{format}/{seats}max/{depth}bb.html",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/viewer.py"


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
        outcomes=expand("results/outcomes/{name}.json", name=SPOT_NAMES),
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


def published_files(wildcards):
    """Every file of the release: the shipped spots' charts and viewers, the summary, the index
    and the report plots."""
    names = shipped_spot_names(wildcards)
    return (
        [f"results/charts/{name}.json" for name in names]
        + [f"results/viewer/{name}.html" for name in names]
        + ["results/summary.csv", "results/summary.parquet", "results/viewer/index.html"]
        + list(rules.report_plots.output)
    )


rule manifest:
    input:
        published=published_files,
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
    viewer,
    viewer_index,
    report_plots,
    manifest,
    release,
