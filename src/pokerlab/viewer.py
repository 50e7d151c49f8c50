"""A static, self-contained HTML viewer of one chart set (one spot), and an index of a sweep.

The page embeds the chart document itself (as JSON in a ``<script type="application/json">``
block) and a few lines of JavaScript that decode the 169-character strings in the browser; it
needs no server and no network. The 13x13 grid shows the selected node: each cell is split
into colour bands as wide as the class's action frequencies (so a mixed hand shows every
action it takes), and hovering a cell gives its frequencies and EVs. Buttons under the grid
follow an action to the next decision; the path above it goes back.

The HTML is a pure function of the chart: same chart, same bytes.
"""

from __future__ import annotations

import html
import json
import os
from typing import Any, Iterable

from pokerlab.charts import ACTION_COLOURS, ACTION_LABELS, ACTION_ORDER, load_chart
from pokerlab.io import write_bytes_atomic

_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.2em;color:#222;max-width:60em}
h1{font-size:1.25em;margin:0 0 .3em}
.meta{font-size:.9em;color:#444;margin-bottom:.8em}
#grid{display:grid;grid-template-columns:repeat(13,3.2em);gap:1px;background:#fff}
.cell{height:2.6em;position:relative;font-size:.72em;text-align:center;line-height:1.25em;
 padding-top:.35em;box-sizing:border-box;cursor:default}
.cell.out{opacity:.25}
.cell b{display:block}
#path button,#next button{margin:.15em;padding:.25em .6em;border:1px solid #999;background:#f6f6f6;cursor:pointer}
#next button{color:#fff;border:none}
#info{font-size:.85em;margin-top:.6em;min-height:3em;white-space:pre}
.legend span{display:inline-block;padding:.1em .5em;margin-right:.3em;color:#fff;font-size:.85em}
"""

_SCRIPT = """
const doc = JSON.parse(document.getElementById('chart').textContent);
const enc = doc.encoding, ORDER = %(order)s, COLOUR = %(colours)s, LABEL = %(labels)s;
const byId = new Map(doc.nodes.map(n => [n.id, n]));
function decode(codes, lo = 0, hi = 1) {
  return Array.from(codes, ch => ch === enc.missing ? NaN : lo + (hi - lo) * enc.alphabet.indexOf(ch) / enc.steps);
}
const pct = x => (100 * x).toFixed(1) + '%%';
function show(id) {
  const node = byId.get(id);
  const acts = ORDER.filter(a => node.actions.includes(a));
  const freq = Object.fromEntries(acts.map(a => [a, decode(node.strategy[a])]));
  const ev = Object.fromEntries(acts.map(a => [a, decode(node.ev_bb[a].codes, node.ev_bb[a].lo, node.ev_bb[a].hi)]));
  const held = decode(node.arrive_with.codes, node.arrive_with.lo, node.arrive_with.hi);
  const grid = document.getElementById('grid');
  grid.textContent = '';
  doc.classes.forEach((name, k) => {
    const total = acts.reduce((s, a) => s + freq[a][k], 0) || 1;
    let at = 0;
    const stops = acts.map(a => { const from = at; at += 100 * freq[a][k] / total; return `${COLOUR[a]} ${from}%% ${at}%%`; });
    const cell = document.createElement('div');
    cell.className = 'cell' + (held[k] > 0 ? '' : ' out');
    cell.style.background = `linear-gradient(to right, ${stops.join(', ')})`;
    const enter = 1 - (freq.F ? freq.F[k] : 0);
    cell.innerHTML = `<b>${name}</b>${Math.round(100 * enter)}`;
    cell.onmouseenter = () => {
      document.getElementById('info').textContent = `${name}: ` + acts.map(a =>
        `${LABEL[a]} ${pct(freq[a][k])} (EV ${isNaN(ev[a][k]) ? 'n/a' : ev[a][k].toFixed(2) + ' bb'})`).join('   ');
    };
    grid.appendChild(cell);
  });
  const path = document.getElementById('path');
  path.textContent = '';
  for (let i = 0; i <= id.length; i++) {
    const prefix = id.slice(0, i);
    if (!byId.has(prefix)) continue;
    const b = document.createElement('button');
    b.textContent = prefix === '' ? 'root' : prefix;
    b.onclick = () => show(prefix);
    path.appendChild(b);
  }
  const next = document.getElementById('next');
  next.textContent = '';
  acts.forEach(a => {
    const b = document.createElement('button');
    b.style.background = COLOUR[a];
    b.textContent = `${LABEL[a]} ${pct(node.shares[a])}`;
    if (byId.has(id + a)) b.onclick = () => show(id + a); else { b.disabled = true; b.title = 'no later decision'; }
    next.appendChild(b);
  });
  document.getElementById('node').textContent = `node ${id === '' ? '(root)' : id}: ${node.actor} to act, reach ` +
    `${pct(node.reach)} of deals` + (node.capped ? ' (fold forced by the three-entrant cap)' : '');
  document.getElementById('info').textContent = 'hover a cell for its frequencies and EVs';
}
show('');
"""


def _embedded_json(doc: dict[str, Any]) -> str:
    """The chart as JSON that cannot close its ``<script>`` block."""
    text = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def viewer_html(doc: dict[str, Any]) -> str:
    """The self-contained HTML page of a chart document."""
    spot, solve = doc["spot"], doc["solve"]
    title = f"{spot['format']} {spot['seats']}-handed {spot['depth_bb']:g}bb"
    meta = (f"exploitability {solve['exploitability_bb']:.5f} bb/hand (bar {solve['bar_bb']:.4f}) after "
            f"{solve['iterations']} iterations; model share {100 * solve['model_share']:.1f}% of deals; "
            f"{len(doc['nodes'])} decision nodes; pokerlab {doc['code_version']}")
    # the second raise size appears only in charts whose tree has it (a one-size chart's page is unchanged)
    second = any("S" in node["actions"] for node in doc["nodes"])
    order = [a for a in ACTION_ORDER if a != "S" or second]
    legend = "".join(f'<span style="background:{ACTION_COLOURS[a]}">{ACTION_LABELS[a]}</span>' for a in order)
    script = _SCRIPT % {"order": json.dumps(order), "colours": json.dumps({a: ACTION_COLOURS[a] for a in order}, sort_keys=True),
                        "labels": json.dumps({a: ACTION_LABELS[a] for a in order}, sort_keys=True)}
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>pokerlab chart: {html.escape(title)}</title><style>{_STYLE}</style></head><body>\n"
        f"<h1>pokerlab chart: {html.escape(title)}</h1><div class=\"meta\">{html.escape(meta)}</div>\n"
        f"<div class=\"legend\">{legend}</div><div id=\"path\"></div><div id=\"node\"></div>"
        "<div id=\"grid\"></div><div id=\"next\"></div><div id=\"info\"></div>\n"
        "<p class=\"meta\">Cells: class and the % of its deals that enter the pot; colour bands: how often the class "
        "takes each action; faded: a class the actor does not hold here. Frequencies are quantised to 1/90.</p>\n"
        f"<script type=\"application/json\" id=\"chart\">{_embedded_json(doc)}</script>\n"
        f"<script>{script}</script>\n</body></html>\n"
    )


def write_viewer(chart_path: str | os.PathLike, out_path: str | os.PathLike) -> None:
    """Write the viewer page of a chart file."""
    write_bytes_atomic(out_path, viewer_html(load_chart(chart_path)).encode("utf-8"))


def index_html(summary_rows: Iterable[dict[str, Any]], viewer_href: str = "{format}/{seats}max/{depth}bb.html") -> str:
    """An index page of a sweep: one table row per attempted spot, shipped ones linked to their viewer."""
    rows = []
    for r in summary_rows:
        name = f"{r['format']} {int(r['seats'])}-handed {float(r['depth_bb']):g}bb"
        if r["status"] == "shipped":
            href = viewer_href.format(format=r["format"], seats=int(r["seats"]), depth=f"{float(r['depth_bb']):g}")
            name = f'<a href="{html.escape(href)}">{html.escape(name)}</a>'
        rows.append(f"<tr><td>{name}</td><td>{html.escape(str(r['status']))}</td><td>{float(r['exploitability_bb']):.5f}</td>"
                    f"<td>{float(r['bar_bb']):.4f}</td><td>{int(r['iterations'])}</td><td>{100 * float(r['model_share']):.1f}%</td></tr>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>pokerlab charts</title>"
        f"<style>{_STYLE}table{{border-collapse:collapse}}td,th{{padding:.15em .7em;border-bottom:1px solid #ddd;"
        "text-align:right}td:first-child{text-align:left}</style></head><body>\n<h1>pokerlab charts</h1>\n"
        "<table><tr><th>spot</th><th>status</th><th>exploitability (bb)</th><th>bar (bb)</th><th>iterations</th>"
        "<th>model share</th></tr>\n" + "\n".join(rows) + "\n</table>\n</body></html>\n"
    )


def write_index(summary_csv: str | os.PathLike, out_path: str | os.PathLike) -> None:
    """Write the index page of a sweep from its ``summary.csv``."""
    import pandas as pd

    write_bytes_atomic(out_path, index_html(pd.read_csv(summary_csv).to_dict("records")).encode("utf-8"))
