# Hand histories: import, statistics, grading against the published charts, population vs
# chart, exploit chart, and the push/fold backtest on generated short-stack hands; one report.
#   snakemake --cores 2 results/hands/report.html --configfile config/presets/hands-pluribus.yaml
# Charts and the equity table are read if they exist, never built here (params, not inputs):
# a missing chart leaves fewer graded decisions, with the reason in the report.

from pokerlab.hands.pipeline import expand_inputs

HANDS = config.get("hands", {})
HAND_FILES = expand_inputs(HANDS.get("inputs", []))


rule hands_import:
    input:
        HAND_FILES,
    output:
        hands="results/hands/tables/hands.parquet",
        decisions="results/hands/tables/decisions.parquet",
        report="results/hands/import.json",
    params:
        site=HANDS.get("site", "auto"),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_stats:
    input:
        HAND_FILES,
    output:
        "results/hands/stats.json",
    params:
        decay=HANDS.get("decay", 1.0),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_grade:
    input:
        HAND_FILES,
    output:
        csv="results/hands/grades.csv",
        summary="results/hands/grades.json",
    params:
        charts=HANDS.get("charts", "results/charts"),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_population:
    input:
        HAND_FILES,
    output:
        "results/hands/population.csv",
    params:
        charts=HANDS.get("charts", "results/charts"),
        min_count=HANDS.get("min_count", 30),
        exclude=[HANDS.get("hero", "")] if HANDS.get("population_without_hero", True) else [],
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_exploit:
    input:
        HAND_FILES,
    output:
        json="results/hands/exploit.json",
        png="results/hands/exploit.png",
    params:
        charts=HANDS.get("charts", "results/charts"),
        table="results/equity/equity_169.npz",
        seat=HANDS.get("exploit_seat", "BTN"),
        hero=HANDS.get("hero", ""),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_generate:
    input:
        table="results/equity/equity_169.npz",
    output:
        "results/hands/generated/shortstack.phhs",
    params:
        n_hands=HANDS.get("generated", {}).get("hands", 3000),
        seed=HANDS.get("generated", {}).get("seed", 20260801),
        ante_share=HANDS.get("generated", {}).get("ante_share", 0.5),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_backtest:
    input:
        hands="results/hands/generated/shortstack.phhs",
        table="results/equity/equity_169.npz",
    output:
        json="results/hands/backtest.json",
        csv="results/hands/backtest.csv",
    params:
        fees=HANDS.get("fees", "none"),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands_report:
    input:
        imported="results/hands/import.json",
        stats="results/hands/stats.json",
        grades="results/hands/grades.json",
        population="results/hands/population.csv",
        exploit="results/hands/exploit.json",
        exploit_png="results/hands/exploit.png",
        backtest="results/hands/backtest.json",
    output:
        "results/hands/report.html",
    params:
        hero=HANDS.get("hero", ""),
    localrule: True
    script:
        "../scripts/hands.py"


rule hands:
    input:
        "results/hands/report.html",
