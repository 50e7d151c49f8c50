"""The hand-history report page: one self-contained HTML file (tables, the exploit grids
embedded as PNG), from the outputs of the ``hands`` rules. No times or host names in it."""

from __future__ import annotations

import base64
import html
from pathlib import Path

MAIN_STATS = ("vpip", "pfr", "rfi", "three_bet", "fold_to_three_bet", "cold_call", "limp", "cbet_flop",
              "fold_to_cbet", "wtsd", "wsd", "aggression")

_STYLE = """body{font-family:sans-serif;max-width:1200px;margin:2em auto;color:#222}
table{border-collapse:collapse;margin:.6em 0 1.4em}td,th{border:1px solid #ccc;padding:2px 6px;font-size:13px;text-align:right}
th{background:#f0f0f0}td.l,th.l{text-align:left}.flag{background:#fde2e2}h2{margin-top:1.6em}.note{color:#555;font-size:13px}"""


def _e(x) -> str:
    return html.escape(str(x))


def _table(header, rows, left=(0,)) -> str:
    out = ["<table><tr>" + "".join(f"<th class='{'l' if i in left else ''}'>{_e(h)}</th>" for i, h in enumerate(header)) + "</tr>"]
    for row in rows:
        cls = " class='flag'" if isinstance(row, tuple) and row and row[-1] == "*" else ""
        out.append(f"<tr{cls}>" + "".join(f"<td class='{'l' if i in left else ''}'>{_e(c)}</td>" for i, c in enumerate(row)) + "</tr>")
    return "".join(out) + "</table>"


def _stat_cell(e) -> str:
    if not e:
        return "-"
    return f"{100 * e['mean']:.1f} [{100 * e['lower']:.1f}-{100 * e['upper']:.1f}] {e['count']}/{e['opportunities']}"


def render_report(imported: dict, stats: dict, grades: dict, population_csv, exploit: dict, exploit_png,
                  backtest: dict, hero: str = "") -> str:
    import pandas as pd

    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>pokerlab hands report</title><style>{_STYLE}</style></head><body>",
             "<h1>Hand histories</h1>"]
    # import
    parts.append("<h2>Import</h2>")
    parts.append(f"<p>read {imported['read']}, imported {imported['imported']}, skipped {imported['skipped']} "
                 "(read = imported + skipped; every skip has a reason and the line its hand starts at).</p>")
    parts.append(_table(["file", "format", "read", "imported", "skipped"],
                        [(f["path"], f["format"], f["read"], f["imported"], f["skipped"]) for f in imported["files"]], left=(0, 1)))
    if imported["reasons"]:
        parts.append(_table(["skip reason", "hands"], list(imported["reasons"].items())))
    # stats
    players = stats.get("players", {})
    parts.append("<h2>Statistics</h2><p class='note'>mean of the Beta posterior, [95% credible interval], raw count / "
                 f"opportunities; decay {stats['settings']['decay']:g} per newer hand of the player.</p>")
    ordered = sorted(players, key=lambda p: (p != hero, -players[p].get("vpip", {}).get("opportunities", 0), p))[:25]
    parts.append(_table(["player", *MAIN_STATS], [(p, *(_stat_cell(players[p].get(s)) for s in MAIN_STATS)) for p in ordered]))
    parts.append(_table(["pool", *MAIN_STATS], [("all players", *(_stat_cell(stats["pool"].get(s)) for s in MAIN_STATS))]))
    if hero and hero in stats.get("by_position", {}):
        pos = stats["by_position"][hero]
        parts.append(f"<h3>{_e(hero)} by position</h3>")
        parts.append(_table(["position", "vpip", "pfr", "rfi", "three_bet"],
                            [(p, *(_stat_cell(pos[p].get(s)) for s in ("vpip", "pfr", "rfi", "three_bet"))) for p in pos]))
    # grading
    parts.append("<h2>Preflop decisions graded against the charts</h2>")
    gp = grades.get("players", {})
    parts.append(_table(["player", "hands", "decisions", "match %", "pure", "mixed", "deviation", "EV loss bb", "per 100 hands"],
                        [(p, g["hands"], g["decisions"], f"{100 * g['match_rate']:.1f}", g["pure"], g["mixed"], g["deviation"],
                          f"{g['ev_loss_bb']:.2f}", f"{g['ev_loss_per_100'] or 0:.2f}")
                         for p, g in sorted(gp.items(), key=lambda kv: -(kv[1]["ev_loss_per_100"] or 0))]))
    if grades.get("nodes"):
        parts.append(_table(["node", "decisions", "match %", "EV loss bb"],
                            [(n["node"], n["decisions"], f"{100 * n['match_rate']:.1f}", f"{n['ev_loss_bb']:.2f}") for n in grades["nodes"]]))
    if grades.get("skips"):
        parts.append(_table(["decisions not graded", "count"], list(grades["skips"].items())))
    # population
    parts.append("<h2>Population vs chart</h2><p class='note'>pool frequency ± standard error against the chart "
                 "(averaged over the classes held, or the chart's share of deals where cards are unknown); |z| ≥ 2 flagged.</p>")
    pop = pd.read_csv(population_csv) if Path(population_csv).stat().st_size > 1 else pd.DataFrame()
    if len(pop):
        parts.append(_table(["chart", "stakes", "node", "seat", "action", "basis", "decisions", "pool %", "± se", "chart %", "z", ""],
                            [(r.chart, r.stakes, r.node, r.actor, r.action, r.basis + (" (biased)" if r.biased else ""), r.decisions,
                              f"{100 * r.pool_freq:.1f}", f"{100 * r.pool_se:.1f}", f"{100 * r.chart_freq:.1f}", f"{r.z:.2f}",
                              "*" if r.flag else "") for r in pop.head(400).itertuples(index=False)], left=(0, 1, 2, 3, 4, 5)))
    else:
        parts.append("<p>no chart node reached often enough.</p>")
    # exploit
    parts.append("<h2>Exploit chart</h2>")
    if "skipped" in exploit:
        parts.append(f"<p>{_e(exploit['skipped'])}</p>")
    else:
        parts.append(f"<p>{_e(exploit['chart'])}, {_e(exploit['seat'])}: best response to the pool "
                     f"({exploit['pool_decisions']} decisions) gains {exploit['gain_bb']:+.4f} bb per hand over the chart.</p>")
        data = base64.b64encode(Path(exploit_png).read_bytes()).decode()
        parts.append(f"<img alt='chart vs exploit' style='max-width:100%' src='data:image/png;base64,{data}'>")
    # backtest
    parts.append("<h2>Push/fold backtest (generated short-stack hands)</h2><p class='note'>generated by a seeded "
                 "noisy policy, not played by people; heads-up push/fold decisions graded against the push/fold solver, "
                 "antes in the pot.</p>")
    if backtest.get("decisions"):
        parts.append(f"<p>{backtest['decisions']} decisions from {backtest['hands']} hands, fees {backtest['fees']}: "
                     f"match {100 * backtest['match_rate']:.1f}%, EV loss {backtest['ev_loss_total_bb']:.2f}bb total, "
                     f"{backtest['ev_loss_mean_bb']:.4f}bb per decision.</p>")
        parts.append(_table(["", "decisions", "match %", "EV loss bb"],
                            [(k, v["decisions"], f"{100 * v['match_rate']:.1f}", f"{v['ev_loss_bb']:.2f}") for k, v in backtest["by_seat"].items()]
                            + [("ante" if k == "True" else "no ante", v["decisions"], f"{100 * v['match_rate']:.1f}", f"{v['ev_loss_bb']:.2f}")
                               for k, v in backtest["with_ante"].items()]))
        parts.append(_table(["hand", "player", "seat", "class", "depth", "ante", "action", "solver", "solver freq", "EV loss bb"],
                            [(w["hand_id"], w["player"], w["seat"], w["class"], w["depth_bb"], w["ante_bb"], w["action"], w["solver_action"],
                              f"{w['solver_freq']:.2f}", f"{w['ev_loss_bb']:.3f}") for w in backtest["worst"]]))
    parts.append(_table(["not a push/fold decision", "hands"], list(backtest.get("skips", {}).items())))
    parts.append("</body></html>\n")
    return "\n".join(parts)
