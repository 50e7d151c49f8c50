"""Everything the dashboard shows, as one JSON-ready dict, and its static HTML export.

:func:`dashboard` joins the ledger (money per session) with the hands of the exports (per
stake: hands, net, bb/100, only ever from the hand join) and the cached grades (cards). The web
page (``/sessions``), ``pokerlab sessions report`` and the static export all show this dict.
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path

from pokerlab.sessions.cards import grade_card, luck_card, population_card
from pokerlab.sessions.cluster import cluster, hands_in, hero_hands, mark_logged, unique_hands
from pokerlab.sessions.exports import Settings, scan
from pokerlab.sessions.ledger import bankroll_curve, derive, read_ledger

STATIC = Path(__file__).resolve().parent.parent / "serve" / "static"


def _iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%M:%S")


def dashboard(data_dir: str | os.PathLike, results_dir: str | os.PathLike | None = None, grade: bool = False,
              settings: Settings | None = None) -> dict:
    """The dashboard of ``data_dir``. ``grade=False`` (a page load) never grades: exports
    without a grade show fewer cards, with the reason."""
    settings = settings or Settings.load(data_dir, results_dir)
    ledger = read_ledger(data_dir)
    summaries, duplicates = unique_hands(scan(data_dir, settings, grade=grade))
    hands, untimed = hero_hands(summaries, settings.hero, settings.chip_value)
    cv = settings.chip_value

    equity_there = Path(settings.equity_table).is_file()
    rows_all, ungraded = [], []
    for s in summaries:
        if s.get("grade") is None:
            ungraded.append(s["name"])
            continue
        rows_all.extend({**r, "export": s["name"]} for r in s["grade"]["rows"])
    if not equity_there:
        card_reason = (f"no equity table at {settings.equity_table}: the push/fold grade, luck and population cards need "
                       "it (snakemake --cores 2 results/equity/equity_169.npz); nothing is solved on a page load")
    elif ungraded:
        card_reason = (f"not graded yet: {', '.join(ungraded)} (run `pokerlab sessions grade`, or restart the server, "
                       "which grades new exports at start-up)")
    else:
        card_reason = None
    hero_rows = [r for r in rows_all if r["player"] == settings.hero and r["time"]]

    sessions = sorted(ledger.sessions, key=lambda s: (s.start, s.id))
    table, stakes = [], {}
    for s in sessions:
        d = derive(s)
        mine = hands_in(hands, s.start, s.end)
        for h in mine:
            st = stakes.setdefault(h["stakes"], {"stakes": h["stakes"], "hands": 0, "net": 0.0, "result_bb": 0.0})
            st["hands"] += 1
            st["net"] += h["net"]
            st["result_bb"] += h["result_bb"]
        graded = [r for r in hero_rows if s.start <= datetime.fromisoformat(r["time"]) <= s.end]
        keys = {(r["export"], r["hand_id"]) for r in graded}
        others = [h for h in mine if (h["export"], h["id"]) not in keys]
        cards: dict = {}
        if card_reason is None or (graded and equity_there):
            cards["grade"] = grade_card(graded, cv)
            cards["luck"] = luck_card(graded, cv, others)
        if card_reason:
            cards["reason"] = card_reason
        row = s.as_json()
        row.update(d)
        row.update({"joined_hands": len(mine), "joined_net": round(sum(h["net"] for h in mine), 6),
                    "result_bb": round(sum(h["result_bb"] for h in mine), 6),
                    "hours": round((s.end - s.start).total_seconds() / 3600, 4), "cards": cards})
        table.append(row)

    curve = bankroll_curve(sessions, settings.start_bankroll)
    totals = [derive(s) for s in sessions]
    joined = sum(r["joined_hands"] for r in table)
    result_bb = sum(r["result_bb"] for r in table)
    hours = sum(r["hours"] for r in table)
    tiles = {"sessions": len(sessions), "hands": sum(s.hands for s in sessions),
             "table_net": round(sum(d["table_net"] for d in totals), 6),
             "rakeback": round(sum(d["rakeback"] for d in totals), 6),
             "total": round(sum(d["total"] for d in totals), 6),
             "bankroll": curve[-1]["bankroll"] if curve else settings.start_bankroll,
             "bb_per_100": round(100 * result_bb / joined, 3) if joined else None,
             "hours": round(hours, 3), "per_hour": round(sum(d["total"] for d in totals) / hours, 6) if hours else None}
    per_stake = []
    for st in sorted(stakes.values(), key=lambda x: x["stakes"]):
        per_stake.append({"stakes": st["stakes"], "hands": st["hands"], "net": round(st["net"], 6),
                          "bb_per_100": round(100 * st["result_bb"] / st["hands"], 3)})
    proposals = mark_logged(cluster(hands, settings.gap_minutes), sessions)
    population = population_card(rows_all, settings.hero) if rows_all else {"rows": []}
    if card_reason and not rows_all:
        population["reason"] = card_reason
    exports = [{"name": s["name"], "digest": s["digest"], "format": s["format"], "read": s["read"],
                "imported": s["imported"], "skipped": len(s["skips"]), "graded": s.get("grade") is not None,
                "no_time": s.get("no_time", 0)} for s in summaries]
    return {"settings": {k: v for k, v in settings.as_dict().items() if k != "equity_table"},
            "problems": [str(p) for p in ledger.problems], "ledger": str(ledger.path.name),
            "tiles": tiles, "curve": ([{"id": None, "end": table[0]["start"], "bankroll": settings.start_bankroll}] if table else []) + curve,
            "sessions": table, "stakes": per_stake, "proposals": proposals, "exports": exports,
            "population": population, "untimed_hands": untimed, "duplicate_hands": duplicates}


def propose_sessions(data_dir: str | os.PathLike, results_dir: str | os.PathLike | None = None) -> list[dict]:
    """The sessions proposed from the exports of ``data_dir`` (scanned without grading, each hand
    once, the hero's hands clustered by the settings' gap), each marked ``logged`` if it overlaps
    a session of the ledger; the proposals :func:`dashboard` shows."""
    settings = Settings.load(data_dir, results_dir)
    summaries, _ = unique_hands(scan(data_dir, settings, grade=False))
    hands, _ = hero_hands(summaries, settings.hero, settings.chip_value)
    return mark_logged(cluster(hands, settings.gap_minutes), read_ledger(data_dir).sessions)


def format_report(d: dict) -> str:
    cur = d["settings"]["currency"]
    m = lambda x: "-" if x is None else f"{cur}{x:,.2f}"  # noqa: E731
    t = d["tiles"]
    lines = [f"{t['sessions']} sessions, {t['hands']} hands, {t['hours']:.1f} h; table {m(t['table_net'])}, rakeback "
             f"{m(t['rakeback'])}, total {m(t['total'])}; bankroll {m(t['bankroll'])}"
             + (f"; {t['bb_per_100']:+.2f} bb/100 over the joined hands" if t["bb_per_100"] is not None else "")]
    for p in d["problems"]:
        lines.append(f"LEDGER PROBLEM {d['ledger']} {p}")
    if d.get("duplicate_hands"):
        lines.append(f"{d['duplicate_hands']} hands found in more than one export are counted once")
    lines.append("")
    lines.append(f"{'id':>3}  {'start':19}  {'end':19}  {'hands':>5}  {'table':>10}  {'rakeback':>9}  {'total':>10}  stakes")
    for s in d["sessions"]:
        lines.append(f"{s['id']:>3}  {s['start']:19}  {s['end']:19}  {s['hands']:>5}  {m(s['table_net']):>10}  "
                     f"{m(s['rakeback']):>9}  {m(s['total']):>10}  {s['stakes']}")
        c = s["cards"]
        if "grade" in c and c["grade"]["spots"]:
            g, lk = c["grade"], c["luck"]
            lines.append(f"     push/fold: {g['spots']} spots, {100 * g['match_rate']:.0f}% matching, EV lost "
                         f"{g['ev_lost_bb']:.2f}bb ({m(g['ev_lost'])}); luck {lk['luck_bb']:+.2f}bb ({m(lk['luck'])}): "
                         f"model {lk['model_ev_bb']:+.2f}bb, realised {lk['realised_bb']:+.2f}bb")
        if c.get("reason"):
            lines.append(f"     cards: {c['reason']}")
    if d["stakes"]:
        lines.append("")
        lines.append("per stake (hand join): " + "; ".join(
            f"{x['stakes']}: {x['hands']} hands, {m(x['net'])}, {x['bb_per_100']:+.2f} bb/100" for x in d["stakes"]))
    unlogged = [p for p in d["proposals"] if not p["logged"]]
    if unlogged:
        lines.append("")
        lines.append("proposed (not logged): " + "; ".join(
            f"{p['start']}..{p['end'][11:]} {p['hands']} hands {m(p['hh_net'])}" for p in unlogged))
    return "\n".join(lines)


def static_html(d: dict) -> str:
    """A self-contained, read-only page of the dashboard (the same script, the data inline)."""
    css = (STATIC / "style.css").read_text() + (STATIC / "sessions.css").read_text()
    js = (STATIC / "sessions.js").read_text()
    body = (STATIC / "sessions.html").read_text()
    body = body.split("<body>", 1)[1].split("<script", 1)[0]
    data = json.dumps(d, sort_keys=True).replace("</", "<\\/")
    return ("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>pokerlab sessions</title>\n"
            f"<style>{css}</style>\n</head>\n<body data-static=\"true\">{body}"
            f"<script>window.SESSIONS_DATA = {data};</script>\n<script>{js}</script>\n</body>\n</html>\n")
