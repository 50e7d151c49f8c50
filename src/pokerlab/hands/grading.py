"""Grading preflop decisions against the published charts.

Each hand is mapped to one chart: the format from the ante / tournament flag (``cash`` without
an ante, ``mtt`` with one), the table size from the players dealt in, and the depth from the
hand's effective stack (the second-deepest starting stack) to the nearest depth of the sweep,
the distance being kept. A chart that was not published (not solved, or not shipped) leaves
the hand ungraded with that reason; nothing here ever solves.

The hand's preflop actions become a node id (``F`` fold, ``C`` call/check/complete, ``R``
the scheduled raise, ``A`` all-in). A raise maps to ``A`` when it puts the player all-in or
when it is nearer (in ratio) to the all-in than to the scheduled raise at that node, else to
``R``; the gap between the size taken and the scheduled size is kept (``size_gap_bb``).

Per decision, with the player's hole cards known: the chart's frequencies for the player's
class, the verdict (``pure`` - the chart plays the action taken at its top level, ``mixed`` -
the chart plays it sometimes, ``deviation`` - never), and the EV loss in bb: the best
action's EV minus the EV of the action taken, both from the chart's per-class EVs (quantised
by the chart's encoding: about 1/180 of the EV range of each action at the node). Where the
chart never holds the player's class at the node (earlier play left the chart's range;
``in_range`` False), the chart's frequencies there carry no meaning but its EVs do: the verdict
is then ``pure`` when the action is within 0.05bb of the best EV, else ``deviation``. A node the
chart reaches in fewer than ``bar / (2 x depth)`` of deals is not graded: even a whole stack
lost there moves the chart's exploitability less than its bar, so the solve does not pin its
play down (the 6-max 100bb chart holds nodes reached once in 10^9 deals). A decision
is skipped, with the reason, when it leaves the tree (a fourth entrant, a limp from a seat
other than the small blind, a sequence the schedule does not have), when it is a fold the
three-entrant cap forces, when the actor's stack is far from the chart's depth (outside
[depth / 1.5, depth x 1.5]), or when the hole cards are unknown. A hand whose posts the charts
do not model (a blind from a third seat, a dead small blind, antes other than the big blind's
1bb of the tournament formats) is not graded at all.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab import cards
from pokerlab.charts import CHART_SUFFIX, load_chart, node_frequencies
from pokerlab.encoding import decode_scaled
from pokerlab.hands.model import Hand
from pokerlab.hands.tables import chart_letter
from pokerlab.preflop.spot import SWEEP_DEPTHS

STACK_TOLERANCE = 1.5
PURE_LEVEL = 1.0 - 0.5 / 90  # a decoded frequency this high is the chart's top level: pure
PLAYED_LEVEL = 0.5 / 90  # below this the chart never takes the action (level 0)
EV_TOLERANCE = 0.05  # bb: off the chart's range, an action this close to the best EV counts as a match


def hand_class(hole: str | None) -> int | None:
    if not hole:
        return None
    return int(cards.COMBO_CLASS[cards.parse_combo(hole)])


def chart_format(hand: Hand) -> str:
    return "mtt" if (hand.tournament or hand.ante_bb > 0) else "cash"


def nearest_depth(eff: float) -> float:
    return float(min(SWEEP_DEPTHS, key=lambda d: (abs(math.log(d / eff)), d)))


@dataclass
class ChartNode:
    id: str
    actor: str
    actions: tuple[str, ...]
    capped: bool
    strategy: np.ndarray  # (k, 169)
    ev: np.ndarray  # (k, 169), NaN where undefined
    arrive: np.ndarray  # (169,) the chart's probability of holding each class here (decoded)
    reach: float  # the share of deals reaching the node
    raise_to: float | None  # the scheduled raise-to at this node, bb (None when R is not offered)


class Chart:
    """One published chart, decoded once, with the raise sizes of its tree."""

    def __init__(self, path: str | os.PathLike):
        from pokerlab.preflop.tree import recorded_tree

        self.path = Path(path)
        self.doc = load_chart(path)
        spot = self.doc["spot"]
        self.format, self.seats, self.depth = spot["format"], int(spot["seats"]), float(spot["depth_bb"])
        self.positions = tuple(spot["positions"])
        self.tree = recorded_tree(self.doc)
        bar = float(self.doc["solve"]["bar_bb"])
        self.min_reach = bar / (2 * self.depth)  # below it, losing a whole stack there stays under the bar
        self.nodes: dict[str, ChartNode] = {}
        for node in self.doc["nodes"]:
            freqs = node_frequencies(node)
            acts = tuple(node["actions"])
            raise_to = None
            if "R" in acts:
                child = self.tree.node(node["id"] + "R")
                seat = self.positions.index(node["actor"])
                raise_to = self.tree.live_contrib(child, seat)
            self.nodes[node["id"]] = ChartNode(node["id"], node["actor"], acts, bool(node["capped"]),
                                               np.stack([freqs[a] for a in acts]),
                                               np.stack([decode_scaled(node["ev_bb"][a]) for a in acts]),
                                               decode_scaled(node["arrive_with"]), float(node["reach"]), raise_to)

    @property
    def name(self) -> str:
        return f"{self.format}/{self.seats}max/{self.depth:g}bb"


class ChartLibrary:
    """Charts under a folder (``{format}/{n}max/{depth}bb.json.gz``), loaded on first use."""

    def __init__(self, root: str | os.PathLike = "results/charts"):
        self.root = Path(root)
        self._cache: dict[tuple, Chart | None] = {}

    def get(self, fmt: str, seats: int, depth: float) -> Chart | None:
        key = (fmt, seats, float(depth))
        if key not in self._cache:
            path = self.root / fmt / f"{seats}max" / f"{depth:g}bb{CHART_SUFFIX}"
            self._cache[key] = Chart(path) if path.is_file() else None
        return self._cache[key]

    def for_hand(self, hand: Hand) -> tuple[Chart | None, dict]:
        fmt = chart_format(hand)
        eff = hand.effective_stack()
        depth = nearest_depth(eff)
        info = {"chart": f"{fmt}/{hand.n}max/{depth:g}bb", "chart_depth_bb": depth, "eff_stack_bb": round(eff, 4),
                "depth_distance_bb": round(eff - depth, 4)}
        chart = self.get(fmt, hand.n, depth)
        return chart, info


def open_chart_library(folder: str | os.PathLike, what: str = "charts folder") -> ChartLibrary:
    """The charts under ``folder``, which must be a folder: a missing chart is reported where it
    is looked for, a missing folder is a mistake (``ValueError`` naming ``what``, e.g. an option)."""
    if not Path(folder).is_dir():
        raise ValueError(f"{what} {folder}: not a folder of charts (results/charts of a run)")
    return ChartLibrary(folder)


def map_raise(chart_node: ChartNode, to_bb: float, allin: bool, stack: float) -> str:
    """``R`` or ``A`` for a raise to ``to_bb`` at a node (see the module docstring)."""
    if allin or chart_node.raise_to is None:
        return "A"
    if "A" not in chart_node.actions:
        return "R"
    gap_r = abs(math.log(max(to_bb, 1e-9) / chart_node.raise_to))
    gap_a = abs(math.log(max(to_bb, 1e-9) / stack))
    return "A" if gap_a < gap_r else "R"


def _leaves_tree_reason(node_id: str, letter: str, a, hand: Hand, entrants: set, raised: bool) -> str:
    if letter == "C" and not raised and a.player not in (hand.n - 2, hand.n - 1):
        return "a limp from a seat other than the small blind"
    if letter != "F" and len(entrants) >= 3 and a.player not in entrants:
        return "a fourth entrant"
    return f"the sequence {node_id + letter!r} is not in the chart's tree"


def grade_hand(hand: Hand, chart: Chart, info: dict, players=None, keep_unknown: bool = False) -> tuple[list[dict], list[dict]]:
    """(graded decision rows, skipped decision rows) of one hand's preflop decisions.
    ``keep_unknown``: decisions without hole cards become rows too (``class`` None, no EV;
    what the population table needs)."""
    rows, skips = [], []
    prefix = ""
    entrants: set[int] = set()
    raised = False
    live = [True] * hand.n
    names = hand.positions
    base = {"hand_id": hand.hand_id, "source": hand.source, "line": hand.line, **info}
    for seq, a in enumerate(hand.actions):
        if a.street != 0:
            break
        node = chart.nodes.get(prefix)
        player = hand.players[a.player]
        others = [hand.stacks[q] for q in range(hand.n) if q != a.player and live[q]]
        eff = min(hand.stacks[a.player], max(others)) if others else hand.stacks[a.player]
        letter = chart_letter(a.kind, a.allin)
        wanted = players is None or player in players
        if node is None:
            in_tree = prefix in chart.tree.index and not chart.tree.node(prefix).is_ending
            if wanted:
                skips.append({**base, "player": player, "node": prefix,
                              "reason": "the chart has no node for this decision" if in_tree else "the tree ended before the hand did"})
            break
        if letter in ("R", "A"):
            letter = map_raise(node, a.to, a.allin, hand.stacks[a.player])
        if letter not in node.actions:
            reason = _leaves_tree_reason(prefix, letter, a, hand, entrants, raised)
            if wanted:
                skips.append({**base, "player": player, "node": prefix, "reason": reason})
            for b in hand.actions[seq + 1:]:  # the rest of the hand is off the tree
                if b.street == 0 and (players is None or hand.players[b.player] in players):
                    skips.append({**base, "player": hand.players[b.player], "node": "",
                                  "reason": "after the hand left the tree"})
            return rows, skips
        cls = hand_class(hand.hole[a.player])
        reason = None
        if node.capped:
            reason = "a fold forced by the three-entrant cap"
        elif node.reach < chart.min_reach:
            reason = "a node the chart reaches too rarely for the solve to pin its play down"
        elif not (chart.depth / STACK_TOLERANCE <= eff <= chart.depth * STACK_TOLERANCE):
            reason = f"stacks far from the chart's depth ({eff:.1f}bb vs {chart.depth:g}bb)"
        elif cls is None and not keep_unknown:
            reason = "hole cards unknown"
        if wanted and reason:
            skips.append({**base, "player": player, "node": prefix, "reason": reason})
        elif wanted and cls is None:
            rows.append({**base, "seq": seq, "player": player, "position": names[a.player], "node": prefix,
                         "decision_eff_bb": round(eff, 4), "hole": None, "class": None, "action": letter,
                         "to_bb": round(a.to, 4), "stakes": hand.stakes})
        elif wanted:
            k = node.actions.index(letter)
            freq = node.strategy[:, cls]
            ev = node.ev[:, cls]
            best = np.nanmax(ev) if np.isfinite(ev).any() else np.nan
            loss = float(best - ev[k]) if np.isfinite(ev[k]) and np.isfinite(best) else float("nan")
            in_range = bool(node.arrive[cls] > 0)
            if in_range:
                verdict = "pure" if freq[k] >= PURE_LEVEL else ("mixed" if freq[k] >= PLAYED_LEVEL else "deviation")
            else:  # the chart never holds this class here: its frequencies mean nothing, its EVs do
                verdict = "pure" if (math.isfinite(loss) and loss <= EV_TOLERANCE) else "deviation"
            rows.append({**base, "seq": seq, "player": player, "position": names[a.player], "node": prefix,
                         "decision_eff_bb": round(eff, 4), "hole": hand.hole[a.player], "class": cards.CLASS_NAMES[cls],
                         "action": letter, "to_bb": round(a.to, 4), "stakes": hand.stakes,
                         "size_gap_bb": round(a.to - node.raise_to, 4) if letter == "R" and node.raise_to else None,
                         "verdict": verdict, "match": verdict != "deviation", "in_range": in_range,
                         "freq_taken": round(float(freq[k]), 4),
                         "chart_freqs": {act: round(float(f), 4) for act, f in zip(node.actions, freq)},
                         "best_action": node.actions[int(np.nanargmax(ev))] if np.isfinite(ev).any() else None,
                         "ev_taken_bb": round(float(ev[k]), 5) if np.isfinite(ev[k]) else None,
                         "ev_loss_bb": round(max(loss, 0.0), 5) if math.isfinite(loss) else None})
        prefix += letter
        if letter != "F":
            if not (letter == "C" and a.player == hand.n - 1 and not raised):
                entrants.add(a.player)
            if letter in ("R", "A"):
                raised = True
        else:
            live[a.player] = False
    return rows, skips


def grade_hands(hands: list[Hand], library: ChartLibrary, players=None, keep_unknown: bool = False):
    """(graded decisions DataFrame, skipped rows DataFrame); hands without a chart give one
    skipped row per player with the reason."""
    import pandas as pd

    players = set(players) if players else None
    rows, skips, hand_rows = [], [], []
    for hand in hands:
        try:
            chart, info = library.for_hand(hand)
        except ValueError as exc:  # e.g. 10 players, or a broken chart file
            chart, info = None, {"chart": "", "reason": str(exc)}
        for p, name in enumerate(hand.players):
            if players is None or name in players:
                hand_rows.append({"hand_id": hand.hand_id, "player": name, "chart": info.get("chart"),
                                  "graded_chart": chart is not None})
        odd_posts = (any(b > 0 for b in hand.blinds[:-2]) or any(a > 0 for a in hand.antes[:-1])
                     or min(abs(hand.antes[-1]), abs(hand.antes[-1] - 1.0)) > 1e-9)
        if odd_posts:
            chart, info = None, {**info, "reason": "blinds or antes the charts do not have (a post from another seat, "
                                                   "a dead blind, or an ante other than the big blind's 1bb)"}
        if chart is None:
            reason = info.get("reason") or f"no published chart {info['chart']}"  # the stack is in the row
            for name in hand.players:
                if players is None or name in players:
                    skips.append({"hand_id": hand.hand_id, "source": hand.source, "line": hand.line, "player": name,
                                  "node": "", "reason": reason, **info})
            continue
        r, s = grade_hand(hand, chart, info, players, keep_unknown)
        rows.extend(r)
        skips.extend(s)
    graded = pd.DataFrame(rows)
    skipped = pd.DataFrame(skips)
    graded.attrs["hands"] = pd.DataFrame(hand_rows)
    return graded, skipped


def grading_summary(graded, skipped, top: int = 5) -> dict:
    """Per player and per node: decisions, match rate, EV loss (total, per decision, per 100
    hands played), verdict counts; the costliest deviations; skip reasons."""
    hands = graded.attrs.get("hands")
    out: dict = {"players": {}, "skips": {}}
    if len(skipped):
        out["skips"] = skipped.groupby("reason").size().sort_values(ascending=False).astype(int).to_dict()
    if graded.empty:
        return out
    per_hands = hands[hands["graded_chart"]].groupby("player").size() if hands is not None and len(hands) else {}
    loss_all = graded["ev_loss_bb"].astype(float)
    nodes = (graded.assign(loss=loss_all).groupby("node")
             .agg(decisions=("match", "size"), match_rate=("match", "mean"), ev_loss_bb=("loss", "sum"))
             .sort_values("ev_loss_bb", ascending=False))
    out["nodes"] = [{"node": node or "(root)", "decisions": int(r.decisions), "match_rate": round(float(r.match_rate), 4),
                     "ev_loss_bb": round(float(r.ev_loss_bb), 3)} for node, r in nodes.head(max(top, 20)).iterrows()]
    for player, g in graded.groupby("player", sort=True):
        n_hands = int(per_hands.get(player, 0)) if len(per_hands) else 0
        loss = g["ev_loss_bb"].astype(float)
        by_node = (g.assign(loss=loss).groupby("node")
                   .agg(decisions=("match", "size"), match_rate=("match", "mean"), ev_loss_bb=("loss", "sum"))
                   .sort_values("ev_loss_bb", ascending=False))
        worst = g.assign(loss=loss).sort_values("loss", ascending=False).head(top)
        out["players"][player] = {
            "hands": n_hands, "decisions": int(len(g)), "match_rate": round(float(g["match"].mean()), 4),
            "pure": int((g["verdict"] == "pure").sum()), "mixed": int((g["verdict"] == "mixed").sum()),
            "deviation": int((g["verdict"] == "deviation").sum()), "off_range": int((~g["in_range"]).sum()),
            "ev_loss_bb": round(float(np.nansum(loss)), 4),
            "ev_loss_per_100": round(100 * float(np.nansum(loss)) / n_hands, 3) if n_hands else None,
            "nodes": [{"node": node or "(root)", "decisions": int(r.decisions), "match_rate": round(float(r.match_rate), 3),
                       "ev_loss_bb": round(float(r.ev_loss_bb), 3)} for node, r in by_node.head(top).iterrows()],
            "worst": [{"hand_id": r.hand_id, "node": r.node or "(root)", "position": r.position, "class": r["class"],
                       "action": r.action, "best": r.best_action, "chart": r.chart_freqs, "ev_loss_bb": r.ev_loss_bb}
                      for _, r in worst.iterrows()],
        }
    return out


def format_summary(summary: dict) -> str:
    lines = ["player           hands  decisions  match   pure  mixed  dev   EV loss bb  per 100"]
    for name, p in sorted(summary["players"].items(), key=lambda kv: -(kv[1]["ev_loss_per_100"] or 0)):
        lines.append(f"{name:15s} {p['hands']:6d} {p['decisions']:10d} {100 * p['match_rate']:5.1f}% {p['pure']:6d} "
                     f"{p['mixed']:6d} {p['deviation']:4d} {p['ev_loss_bb']:11.2f} {p['ev_loss_per_100'] or 0:8.2f}")
    for name, p in sorted(summary["players"].items()):
        nodes = ", ".join(f"{n['node']} ({n['decisions']}, {n['ev_loss_bb']:.1f}bb)" for n in p["nodes"])
        lines.append(f"  {name}: costliest nodes {nodes}")
    if summary["skips"]:
        lines.append("skipped decisions:")
        lines.extend(f"  {count:7d}  {reason}" for reason, count in summary["skips"].items())
    return "\n".join(lines)
