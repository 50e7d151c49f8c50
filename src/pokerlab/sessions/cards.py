"""Per-session cards: the push/fold grade, the luck check, and the pool against the model.

All three read graded rows made once per export (:func:`pokerlab.sessions.exports.grade_rows`);
nothing here solves.

Grade
    hero's heads-up push/fold decisions in the session: how many, the share matching the
    solver (a decision the solver mixes matches either way), the EV lost in bb and currency,
    and the costliest deviations.
Luck check
    over the same decisions, the model's EV of the decision taken (``ev_taken_bb``, the
    solver's objective EV: ledger net plus the fee model's rakeback) against what happened:
    the hand's exact ledger net from the export plus the model's rakeback of the ending that
    actually occurred (the walk, the uncalled shove or the showdown). ``luck = realised -
    model``: what the cards did beyond the decisions' worth. The session's other hands have
    no model EV; they are shown as realised only.
Population
    every other player's push/fold decisions across the exports, per seat: how often the
    pool shoved (small blind) or called (big blind) against the solver's frequency for the
    classes it held, with the standard error a pool playing the solver would show (at least the
    observed frequency's binomial error, as the solver is mostly pure) and the z-score
    (flagged at ``|z| >= 2``). Only decisions whose hole cards the export shows can be
    compared; where cards are shown only at showdowns the sample leans to hands that went
    to one.
"""

from __future__ import annotations

import math


def _money(x: float) -> float:
    return round(x, 6)


def grade_card(rows: list[dict], chip_value: float, top: int = 3) -> dict:
    if not rows:
        return {"spots": 0}
    loss_bb = sum(r["ev_loss_bb"] for r in rows)
    loss_cur = sum(r["ev_loss_bb"] * r["bb_chips"] * chip_value for r in rows)
    worst = sorted((r for r in rows if r["ev_loss_bb"] > 0), key=lambda r: (-r["ev_loss_bb"], r["time"], r["hand_id"]))[:top]
    return {"spots": len(rows), "matching": sum(r["match"] for r in rows),
            "match_rate": round(sum(r["match"] for r in rows) / len(rows), 4),
            "ev_lost_bb": round(loss_bb, 5), "ev_lost": _money(loss_cur),
            "worst": [{k: r[k] for k in ("hand_id", "time", "seat", "class", "depth_bb", "action", "solver_action",
                                         "solver_freq", "ev_loss_bb")} for r in worst]}


def luck_card(rows: list[dict], chip_value: float, other_hands: list[dict] | None = None) -> dict:
    """``rows``: hero's graded decisions; ``other_hands``: the session's hero hands without one
    (records of :func:`pokerlab.sessions.cluster.hero_hands`)."""
    model_bb = sum(r["ev_taken_bb"] for r in rows)
    realised_bb = sum(r["result_bb"] + r["model_rakeback_bb"] for r in rows)
    value = lambda key: sum(r[key] * r["bb_chips"] * chip_value for r in rows)  # noqa: E731
    model = value("ev_taken_bb")
    realised = sum((r["result_bb"] + r["model_rakeback_bb"]) * r["bb_chips"] * chip_value for r in rows)
    others = other_hands or []
    return {"spots": len(rows), "model_ev_bb": round(model_bb, 6), "realised_bb": round(realised_bb, 6),
            "luck_bb": round(realised_bb - model_bb, 6), "model_ev": _money(model), "realised": _money(realised),
            "luck": _money(realised - model), "other_hands": len(others),
            "other_net": _money(sum(h["net"] for h in others))}


def population_card(rows: list[dict], hero: str) -> dict:
    out = []
    for seat, aggressive in (("SB", "shove"), ("BB", "call")):
        rs = [r for r in rows if r["player"] != hero and r["seat"] == seat]
        if not rs:
            continue
        n = len(rs)
        pool = sum(r["action"] == aggressive for r in rs) / n
        q = [r["solver_freq"] for r in rs]
        chart = sum(q) / n
        # the spread a pool playing the model would show; where the model is (nearly) pure, at
        # least the observed binomial spread, so a pure model does not give an infinite z
        se = math.sqrt(max(sum(x * (1 - x) for x in q), n * pool * (1 - pool))) / n
        z = (pool - chart) / se if se > 0 else None
        out.append({"seat": seat, "action": aggressive, "decisions": n, "pool": round(pool, 4), "model": round(chart, 4),
                    "se": round(se, 4), "z": None if z is None else round(z, 2), "flag": bool(z is not None and abs(z) >= 2)})
    return {"rows": out}
