"""Push/fold backtest: heads-up shove-or-fold decisions graded against the push/fold solver.

A decision is a genuine heads-up push/fold spot when everyone before the small blind folded
and the effective stack between the blinds (the smaller live stack: a stack minus its own
ante) is at most :data:`MAX_DEPTH_BB`: the small blind's fold or all-in, and the big blind's
call or fold facing that all-in. The spot is solved by :func:`pokerlab.pushfold.headsup.solve_headsup`
at the effective stack rounded to the nearest 0.5bb, with the hand's dead antes in the pot
(the solver's big-blind ante is the total of the antes posted: the difference between a
call and a fold is unchanged by who posted the dead money) and the configured fee preset.
Solutions are cached per (depth, ante); nothing is solved twice.

Graded: the chart's frequency of the action taken, ``match`` (the solver takes the action
with frequency above 1%: a mixed decision matches either way), the EV loss in bb (the best
action's EV minus the taken action's, the solver's objective EVs), and the skip reasons of
everything else at the blinds (a player entered before the small blind, the small blind
limped or raised less than all-in, the stack is too deep, the hole cards are unknown, the
table has no small blind).
"""

from __future__ import annotations

import numpy as np

from pokerlab import cards
from pokerlab.hands.model import Hand

MAX_DEPTH_BB = 20.0
DEPTH_STEP = 0.5
MATCH_FREQ = 0.01


def _round_depth(x: float) -> float:
    return max(1.0, round(x / DEPTH_STEP) * DEPTH_STEP)


class Solutions:
    def __init__(self, eq: np.ndarray, fees: str):
        self.eq, self.fees, self._cache = eq, fees, {}

    def get(self, depth: float, ante: float):
        from pokerlab.pushfold.fees import PushFoldGame
        from pokerlab.pushfold.headsup import solve_headsup

        key = (depth, round(ante, 6))
        if key not in self._cache:
            self._cache[key] = solve_headsup(PushFoldGame(2, depth, self.fees, ante), self.eq, tolerance_bb=1e-6)
        return self._cache[key]


def hand_spots(hand: Hand) -> list[dict]:
    """The blinds' push/fold decisions of a hand, or one skip row with the reason."""
    n = hand.n
    sb, bb = n - 2, n - 1
    pre = [a for a in hand.actions if a.street == 0]
    base = {"hand_id": hand.hand_id, "source": hand.source, "line": hand.line, "players": n, "ante_bb": round(sum(hand.antes), 4)}
    if hand.blinds[sb] <= 0:
        return [{**base, "skip": "no small blind posted"}]
    before = [a for a in pre if a.player not in (sb, bb)]
    if any(a.kind != "F" for a in before):
        return [{**base, "skip": "a player entered before the small blind"}]
    rest = [a for a in pre if a.player in (sb, bb)]
    if not rest or rest[0].player != sb:
        return [{**base, "skip": "no small-blind decision"}]
    eff = min(hand.stacks[sb] - hand.antes[sb], hand.stacks[bb] - hand.antes[bb])
    if eff > MAX_DEPTH_BB:
        return [{**base, "skip": f"effective stack above {MAX_DEPTH_BB:g}bb"}]
    first = rest[0]
    if first.kind == "C":
        return [{**base, "skip": "the small blind limped"}]
    shove = first.kind == "R" and (first.allin or first.to >= eff - 1e-9)
    if first.kind == "R" and not shove:
        return [{**base, "skip": "the small blind raised less than all-in"}]
    out = [{**base, "player": hand.players[sb], "seat": "SB", "action": "shove" if shove else "fold", "eff_bb": eff,
            "hole": hand.hole[sb], "result_bb": hand.results[sb]}]
    if shove and len(rest) > 1 and rest[1].player == bb:
        out.append({**base, "player": hand.players[bb], "seat": "BB", "action": "call" if rest[1].kind == "C" else "fold",
                    "eff_bb": eff, "hole": hand.hole[bb], "result_bb": hand.results[bb]})
    return out


def backtest(hands: list[Hand], eq, fees: str = "none", players=None, top: int = 10) -> dict:
    """Grade every push/fold decision of ``hands`` (``eq``: the 169x169 ``win + tie/2`` table or an
    equity table file). Returns the summary figures and ``rows`` (a DataFrame, one per decision)."""
    import pandas as pd

    if not isinstance(eq, np.ndarray):
        from pokerlab.equity_table import load_equity_table

        eq = load_equity_table(eq).equity
    sols = Solutions(eq, fees)
    rows, skips = [], {}
    for hand in hands:
        for spot in hand_spots(hand):
            if "skip" in spot:
                skips[spot["skip"]] = skips.get(spot["skip"], 0) + 1
                continue
            if players and spot["player"] not in players:
                continue
            if not spot["hole"]:
                skips["hole cards unknown"] = skips.get("hole cards unknown", 0) + 1
                continue
            depth = _round_depth(spot["eff_bb"])
            sol = sols.get(depth, spot["ante_bb"])
            c = int(cards.COMBO_CLASS[cards.parse_combo(spot["hole"])])
            if spot["seat"] == "SB":
                freq_aggr, ev_aggr, ev_fold = sol.sb_shove[c], sol.sb_shove_ev[c], sol.sb_fold_ev
                aggressive = spot["action"] == "shove"
            else:
                freq_aggr, ev_aggr, ev_fold = sol.bb_call[c], sol.bb_call_ev[c], sol.bb_fold_ev
                aggressive = spot["action"] == "call"
            freq_taken = freq_aggr if aggressive else 1 - freq_aggr
            ev_taken = ev_aggr if aggressive else ev_fold
            rows.append({**spot, "depth_bb": depth, "class": cards.CLASS_NAMES[c],
                         "solver_freq": round(float(freq_aggr), 4), "freq_taken": round(float(freq_taken), 4),
                         "solver_action": ("shove" if spot["seat"] == "SB" else "call") if freq_aggr >= 0.5 else "fold",
                         "match": bool(freq_taken > MATCH_FREQ), "mixed": bool(MATCH_FREQ < freq_aggr < 1 - MATCH_FREQ),
                         "ev_taken_bb": round(float(ev_taken), 5),
                         "ev_loss_bb": round(float(max(ev_aggr, ev_fold) - ev_taken), 5)})
    frame = pd.DataFrame(rows)
    out = {"hands": len(hands), "decisions": len(frame), "skips": dict(sorted(skips.items(), key=lambda kv: -kv[1])),
           "fees": fees, "rows": frame}
    if len(frame):
        out.update({
            "match_rate": round(float(frame["match"].mean()), 4),
            "ev_loss_total_bb": round(float(frame["ev_loss_bb"].sum()), 4),
            "ev_loss_mean_bb": round(float(frame["ev_loss_bb"].mean()), 5),
            "by_seat": {seat: {"decisions": int(len(g)), "match_rate": round(float(g["match"].mean()), 4),
                               "ev_loss_bb": round(float(g["ev_loss_bb"].sum()), 4)} for seat, g in frame.groupby("seat")},
            "with_ante": {str(bool(k)): {"decisions": int(len(g)), "match_rate": round(float(g["match"].mean()), 4),
                                         "ev_loss_bb": round(float(g["ev_loss_bb"].sum()), 4)}
                          for k, g in frame.groupby(frame["ante_bb"] > 0)},
            "worst": frame.sort_values("ev_loss_bb", ascending=False).head(top)[
                ["hand_id", "player", "seat", "class", "depth_bb", "ante_bb", "action", "solver_action", "solver_freq", "ev_loss_bb"]
            ].to_dict(orient="records"),
            "depths_solved": len(sols._cache),
        })
    return out


def format_backtest(report: dict) -> str:
    lines = [f"{report['hands']} hands, {report['decisions']} push/fold decisions graded (fees: {report['fees']})"]
    if report["decisions"]:
        lines.append(f"match {100 * report['match_rate']:.1f}% (a mixed decision matches either way); EV loss "
                     f"{report['ev_loss_total_bb']:.2f}bb total, {report['ev_loss_mean_bb']:.4f}bb per decision")
        for seat, s in report["by_seat"].items():
            lines.append(f"  {seat}: {s['decisions']} decisions, match {100 * s['match_rate']:.1f}%, EV loss {s['ev_loss_bb']:.2f}bb")
        for k, s in report["with_ante"].items():
            lines.append(f"  {'with' if k == 'True' else 'without'} ante: {s['decisions']} decisions, match "
                         f"{100 * s['match_rate']:.1f}%, EV loss {s['ev_loss_bb']:.2f}bb")
        lines.append("worst deviations:")
        for w in report["worst"]:
            lines.append(f"  hand {w['hand_id']} {w['player']} {w['seat']} {w['class']} at {w['depth_bb']:g}bb"
                         f"{' ante ' + format(w['ante_bb'], 'g') if w['ante_bb'] else ''}: {w['action']} "
                         f"(solver {w['solver_action']}, {100 * w['solver_freq']:.0f}%), loss {w['ev_loss_bb']:.3f}bb")
    lines.append("skipped:")
    lines.extend(f"  {count:6d}  {reason}" for reason, count in report["skips"].items())
    return "\n".join(lines)
