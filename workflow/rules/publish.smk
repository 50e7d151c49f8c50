# Stage 5: chart documents of the shipped spots, viewers, report plots, and the release
# manifest (manifest.json + SHA256SUMS) over everything published.

PUBLISHED_DIRS = ["charts"]


rule chart:
    input:
        result="results/solves/{format}/{seats}max/{depth}bb/result.json",
        schema=workflow.source_path("../schemas/chart.schema.json"),
    output:
        chart="results/charts/{format}/{seats}max/{depth}bb.json",
    wildcard_constraints:
        format="[a-z_]+",
        seats="[0-9]+",
        depth="[0-9]+(\\.[0-9]+)?",
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/chart.py"


def published_files(wildcards):
    """Every file of the release: the shipped spots' charts and the summary."""
    names = shipped_spot_names(wildcards)
    return [f"results/charts/{name}.json" for name in names] + ["results/summary.csv", "results/summary.parquet"]


rule manifest:
    input:
        published_files,
    output:
        manifest="results/manifest.json",
        sums="results/SHA256SUMS",
    params:
        published_dirs=PUBLISHED_DIRS,
        config=config,
    threads: 1
    resources:
        mem_mb=2000,
        runtime=10,
    script:
        "../scripts/manifest.py"


# The published chart set with its manifest, and the (unpublished) solve timings.
rule release:
    input:
        "results/manifest.json",
        "results/SHA256SUMS",
        "results/timings.csv",


localrules:
    manifest,
    release,
