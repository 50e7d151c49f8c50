"""The per-spot chart pages of a release (offline export of the explorer) and an index of a sweep.

A page holds no copy of its chart: it reads the published chart file by its relative path
(``../../../charts/cash/6max/100bb.json.gz`` from ``viewer/cash/6max/100bb.html``; gzipped, the
page inflates it with the browser's DecompressionStream) and draws it
with the explorer's own drawing code (``pokerlab/serve/static/grid.js``) and chart reader
(``chart.js``), inlined into the page, so the release's charts are stored once. The 13x13 grid
shows the selected node: each cell is split into colour bands as wide as the class's action
frequencies, and hovering a cell gives its frequencies and EVs; buttons follow an action to the
next decision; the path above goes back. A browser reads the chart file over HTTP (any static
server over the results folder, or ``pokerlab serve``); opened from the disk the page says so.

The HTML is a pure function of the chart and the shared files: same inputs, same bytes.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path
from typing import Any, Iterable

from pokerlab.charts import load_chart
from pokerlab.io import write_bytes_atomic

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222;max-width:60em}
h1{font-size:1.25em;margin:0 0 .3em}
"""

STATIC_DIR = Path(__file__).resolve().parent / "serve" / "static"
SHARED = ("grid.js", "chart.js")
"""The explorer's drawing code and the chart reader, inlined into every page (one code path)."""


def _inline(name: str) -> str:
    text = (STATIC_DIR / name).read_text(encoding="utf-8")
    if "</script" in text.lower() or "</style" in text.lower():
        raise ValueError(f"viewer: {name} would close its own <script>/<style> block")
    return text


def viewer_html(doc: dict[str, Any], chart_href: str) -> str:
    """The page of a chart document that loads the chart from ``chart_href`` (relative URL)."""
    spot, solve = doc["spot"], doc["solve"]
    title = f"{spot['format']} {spot['seats']}-handed {spot['depth_bb']:g}bb"
    meta = (f"exploitability {solve['exploitability_bb']:.5f} bb/hand (bar {solve['bar_bb']:.4f}) after "
            f"{solve['iterations']} iterations; model share {100 * solve['model_share']:.1f}% of deals; "
            f"{len(doc['nodes'])} decision nodes; pokerlab {doc['code_version']}")
    scripts = "".join(f"<script>\n{_inline(name)}</script>\n" for name in SHARED)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>pokerlab chart: {html.escape(title)}</title><style>\n{_inline('style.css')}</style></head><body>\n"
        f"<main><h1>pokerlab chart: {html.escape(title)}</h1><div class=\"help\">{html.escape(meta)}</div>\n"
        "<nav id=\"crumbs\" aria-label=\"path back\"></nav><div id=\"status\" role=\"status\"></div>"
        "<section id=\"node\"></section><div id=\"actions\"></div>\n<div id=\"layout\">"
        "<div id=\"grid\" role=\"grid\" tabindex=\"0\"></div><aside id=\"side\"><div id=\"legend\"></div>"
        "<div id=\"info\" aria-live=\"polite\"></div></aside></div>\n"
        "<p class=\"help\">Cells: colour bands as wide as the class's action frequencies (the chart's 1/90 levels); "
        "the number is the class's share of the actor's deals at the node; empty: not held here; striped fold: forced "
        "by the three-entrant cap. Keys: 1-9 take an action, Backspace goes back. The page reads the chart file "
        f"{html.escape(chart_href)} (over HTTP, e.g. python3 -m http.server in the results folder).</p></main>\n"
        f"{scripts}<script>PLChart.mount({json.dumps(chart_href)});</script>\n</body></html>\n"
    )


def chart_href(chart_path: str | os.PathLike, page_path: str | os.PathLike) -> str:
    """The URL of a chart file relative to a page (``../../../charts/cash/6max/100bb.json.gz``)."""
    return Path(os.path.relpath(os.path.abspath(chart_path), os.path.dirname(os.path.abspath(page_path)))).as_posix()


def write_viewer(chart_path: str | os.PathLike, out_path: str | os.PathLike, doc: dict[str, Any] | None = None) -> None:
    """Write the page of a chart file; it loads the chart by its path relative to the page.
    ``doc`` is the chart's document when the caller has it (else the file is read)."""
    doc = load_chart(chart_path) if doc is None else doc
    write_bytes_atomic(out_path, viewer_html(doc, chart_href(chart_path, out_path)).encode("utf-8"))


def index_html(summary_rows: Iterable[dict[str, Any]], viewer_href: str = "{format}/{seats}max/{depth}bb.html") -> str:
    """An index page of a sweep: one table row per attempted spot, shipped ones linked to their viewer."""
    rows = []
    for r in summary_rows:
        name = f"{r['format']} {int(r['seats'])}-handed {float(r['depth_bb']):g}bb"
        if r["status"] == "shipped":
            href = viewer_href.format(format=r["format"], seats=int(r["seats"]), depth=f"{float(r['depth_bb']):g}")
            name = f'<a href="{html.escape(href)}">{html.escape(name)}</a>'
        joint = r.get("joint_exploitability_bb")
        joint = "" if joint is None or joint != joint else f"{float(joint):.3f}"  # NaN: the CSV's empty cell
        rows.append(f"<tr><td>{name}</td><td>{html.escape(str(r['status']))}</td><td>{float(r['exploitability_bb']):.5f}</td>"
                    f"<td>{float(r['bar_bb']):.4f}</td><td>{joint}</td><td>{int(r['iterations'])}</td>"
                    f"<td>{100 * float(r['model_share']):.1f}%</td></tr>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pokerlab charts</title>"
        f"<style>{_STYLE}table{{border-collapse:collapse}}td,th{{padding:.15em .7em;border-bottom:1px solid #ddd;"
        "text-align:right}td:first-child{text-align:left}</style></head><body>\n<h1>pokerlab charts</h1>\n"
        "<table><tr><th>spot</th><th>status</th><th>exploitability (bb)</th><th>bar (bb)</th>"
        "<th title=\"solved endings: the exchange's exploitability in the joint game at the chart's start\">"
        "joint game (bb)</th><th>iterations</th>"
        "<th>model share</th></tr>\n" + "\n".join(rows) + "\n</table>\n</body></html>\n"
    )


def write_index(summary_csv: str | os.PathLike, out_path: str | os.PathLike) -> None:
    """Write the index page of a sweep from its ``summary.csv``."""
    import pandas as pd

    write_bytes_atomic(out_path, index_html(pd.read_csv(summary_csv).to_dict("records")).encode("utf-8"))
