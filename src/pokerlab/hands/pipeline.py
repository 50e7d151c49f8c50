"""What the workflow's ``hands`` rules do, one function per rule (the scripts only call these).

Every step re-imports the configured hand files (the Parquet tables are the normalised output
for users, not the working format). Nothing here solves a preflop spot: charts are read from
the charts folder if they were published, and a missing chart or equity table leaves fewer
graded decisions, or no exploit chart, with the reason written down.
"""

from __future__ import annotations

import glob
import json
from pathlib import Path

from pokerlab.io import atomic_path, write_frame, write_json_atomic
from pokerlab.preflop.spot import parse_spot_name


def expand_inputs(patterns) -> list[str]:
    """Files matched by the configured globs (sorted, duplicates removed)."""
    out: list[str] = []
    for pattern in patterns or ():
        out.extend(sorted(glob.glob(pattern, recursive=True)))
    return list(dict.fromkeys(out))


def _hands(inputs):
    from pokerlab.hands.importer import import_paths

    return import_paths(inputs)


def run_import(inputs, hands_path, decisions_path, report_path, site: str = "auto") -> None:
    """Import, write both tables and the import report. ``site`` other than ``auto`` names the
    format every file should have: a file detected as something else is listed under
    ``unexpected_format`` (its hands are still imported as what they are)."""
    from pokerlab.hands.tables import write_tables

    result = _hands(inputs)
    write_tables(result.hands, hands_path, decisions_path)
    unexpected = [f.path for f in result.files if site not in ("auto", f.format)]
    write_json_atomic(report_path, {**result.report(), "unexpected_format": unexpected})  # keys sorted on writing


def run_stats(inputs, out_path, decay: float = 1.0) -> None:
    from pokerlab.hands.stats import StatSettings, stats_document

    write_json_atomic(out_path, stats_document(_hands(inputs).hands, StatSettings(decay=decay), by_position=True))


def run_grade(inputs, charts, csv_path, summary_path) -> None:
    from pokerlab.hands.grading import ChartLibrary, grade_hands, grading_summary

    graded, skipped = grade_hands(_hands(inputs).hands, ChartLibrary(charts))
    write_frame(graded, csv_path, "csv")
    write_json_atomic(summary_path, grading_summary(graded, skipped, top=8))


def run_population(inputs, charts, csv_path, min_count: int, exclude=()) -> None:
    from pokerlab.hands.grading import ChartLibrary
    from pokerlab.hands.population import population_table

    table = population_table(_hands(inputs).hands, ChartLibrary(charts), nodes="all", min_count=min_count,
                             exclude=[e for e in exclude if e])
    write_frame(table, csv_path, "csv")


def run_exploit(inputs, charts, table_path, seat: str, hero: str, json_path, png_path) -> None:
    """The seat's best response against everyone but the hero on the chart most hands map to;
    an explanation instead when no chart or no equity table is there (the PNG then says so)."""
    from collections import Counter

    from pokerlab.hands.exploit import default_node, draw_exploit, exploit_chart
    from pokerlab.hands.grading import ChartLibrary

    hands = _hands(inputs).hands
    library = ChartLibrary(charts)
    doc: dict = {"seat": seat}
    keys = Counter()
    for h in hands:
        try:
            _, info = library.for_hand(h)
            keys[info["chart"]] += 1
        except ValueError:
            continue
    reason = None
    if not keys:
        reason = "no hands"
    else:
        name = keys.most_common(1)[0][0]
        spot = parse_spot_name(name)
        key = (spot.format, spot.seats, spot.depth)
        chart = library.get(*key)
        if chart is None:
            reason = f"chart {name} is not published"
        elif not Path(table_path).is_file():
            reason = f"the equity table {table_path} is missing"
        elif seat not in chart.positions:
            reason = f"seat {seat} is not at a {chart.seats}-handed table"
        else:
            br = exploit_chart(hands, library, key, seat, table_path, exclude=[hero] if hero else ())
            node = default_node(chart, seat)
            draw_exploit(chart, br, node, png_path)
            doc.update({k: br[k] for k in ("chart", "gain_bb", "value_chart_bb", "value_best_response_bb", "pool_decisions", "shrink")})
            doc["node"] = node
    if reason:
        doc["skipped"] = reason
        _placeholder_png(png_path, f"no exploit chart: {reason}")
    write_json_atomic(json_path, doc)


def _placeholder_png(path, text: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 1))
    ax.axis("off")
    ax.text(0.5, 0.5, text, ha="center", va="center")
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def run_generate(table_path, out_path, count: int, seed: int, ante_share: float) -> None:
    from pokerlab.hands.generate import generate_hands
    from pokerlab.hands.phh import write_phhs

    write_phhs(generate_hands(count, seed, table_path, ante_share=ante_share), out_path)


def run_backtest(inputs, table_path, fees: str, json_path, csv_path, players=None) -> None:
    from pokerlab.hands.backtest import backtest

    report = backtest(_hands(inputs).hands, table_path, fees=fees, players=players)
    write_frame(report.pop("rows"), csv_path, "csv")
    write_json_atomic(json_path, report)


def write_report(out_path, import_json, stats_json, grade_json, population_csv, exploit_json, exploit_png,
                 backtest_json, hero: str = "") -> None:
    from pokerlab.hands.report import render_report

    html = render_report(
        imported=json.loads(Path(import_json).read_text()), stats=json.loads(Path(stats_json).read_text()),
        grades=json.loads(Path(grade_json).read_text()), population_csv=population_csv,
        exploit=json.loads(Path(exploit_json).read_text()), exploit_png=exploit_png,
        backtest=json.loads(Path(backtest_json).read_text()), hero=hero)
    with atomic_path(out_path) as tmp:
        Path(tmp).write_text(html)


