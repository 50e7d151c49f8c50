"""Snakemake glue for the hands rules: one library call per rule (pokerlab.hands.pipeline)."""

from pokerlab.hands import pipeline

sm = snakemake  # noqa: F821 (injected by Snakemake)
files = list(sm.input) if sm.rule not in ("hands_generate", "hands_backtest", "hands_report") else []

if sm.rule == "hands_import":
    pipeline.run_import(files, sm.output.hands, sm.output.decisions, sm.output.report, site=sm.params.site)
elif sm.rule == "hands_stats":
    pipeline.run_stats(files, sm.output[0], decay=sm.params.decay)
elif sm.rule == "hands_grade":
    pipeline.run_grade(files, sm.params.charts, sm.output.csv, sm.output.summary)
elif sm.rule == "hands_population":
    pipeline.run_population(files, sm.params.charts, sm.output[0], sm.params.min_count, sm.params.exclude)
elif sm.rule == "hands_exploit":
    pipeline.run_exploit(files, sm.params.charts, sm.params.table, sm.params.seat, sm.params.hero, sm.output.json, sm.output.png)
elif sm.rule == "hands_generate":
    pipeline.run_generate(sm.input.table, sm.output[0], sm.params.n_hands, sm.params.seed, sm.params.ante_share)
elif sm.rule == "hands_backtest":
    pipeline.run_backtest([sm.input.hands], sm.input.table, sm.params.fees, sm.output.json, sm.output.csv)
elif sm.rule == "hands_report":
    pipeline.write_report(sm.output[0], sm.input.imported, sm.input.stats, sm.input.grades, sm.input.population,
                          sm.input.exploit, sm.input.exploit_png, sm.input.backtest, hero=sm.params.hero)
else:
    raise ValueError(f"hands.py: no step for rule {sm.rule}")
