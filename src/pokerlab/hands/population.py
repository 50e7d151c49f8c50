"""The pool's play against the charts, node by node.

For every chart node the pool reaches at least ``min_count`` times (per chart and stakes), each
action's pool frequency with its binomial standard error, against what the chart would do:

* where the hole cards of every decision are known (``basis = held``), the chart's frequency
  averaged over the classes the pool actually held there (combo-weighted by construction:
  each decision is one dealt combo). The z-score divides the gap by the standard deviation
  the pool's frequency would have if it played the chart, ``sqrt(sum q(1-q)) / n``;
* where cards are unknown, the chart's own share of the action at the node (``basis =
  shares``: what a pool playing the chart would show over every deal reaching the node; its
  z-score uses the binomial error of that share), and, from the decisions whose cards were
  shown down, the held-class comparison again, flagged ``biased`` (only hands that reached a
  showdown show their cards).

``flag`` marks |z| >= 2.
"""

from __future__ import annotations

import math

import numpy as np

from pokerlab import cards
from pokerlab.hands.grading import ChartLibrary, grade_hands
from pokerlab.hands.model import Hand
from pokerlab.preflop.spot import parse_spot_name


def _rfi_node(node: str) -> bool:
    return set(node) <= {"F"}


def population_table(hands: list[Hand], library: ChartLibrary, nodes: str = "rfi", min_count: int = 30,
                     exclude=(), only=None):
    """One row per (chart, stakes, node, action, basis); see the module docstring."""
    import pandas as pd

    names = {p for h in hands for p in h.players}
    pool = set(only) if only else names - set(exclude)
    rows_df, _ = grade_hands(hands, library, players=pool, keep_unknown=True)
    out = []
    if rows_df.empty:
        return pd.DataFrame(out)
    if nodes == "rfi":
        rows_df = rows_df[rows_df["node"].map(_rfi_node)]
    for (chart_name, stakes, node_id), g in rows_df.groupby(["chart", "stakes", "node"], sort=True):
        if len(g) < min_count:
            continue
        spot = parse_spot_name(chart_name)
        chart = library.get(spot.format, spot.seats, spot.depth)
        node = chart.nodes[node_id]
        actor = node.actor
        known = g[g["class"].notna()]
        all_known = len(known) == len(g)
        cls = np.array([cards.parse_class(c) for c in known["class"]], dtype=np.int64)
        for k, action in enumerate(node.actions):
            taken = (g["action"] == action).to_numpy()
            n = len(g)
            p = taken.mean()
            se = math.sqrt(p * (1 - p) / n)
            bases = []
            if all_known:
                q = node.strategy[k, cls]
                bases.append(("held", n, p, se, float(q.mean()), math.sqrt(float((q * (1 - q)).sum())) / n, False))
            else:
                share = _share(chart, node_id, action)
                bases.append(("shares", n, p, se, share, math.sqrt(share * (1 - share) / n), False))
                if len(known) >= min_count:
                    tk = (known["action"] == action).to_numpy()
                    pk = tk.mean()
                    q = node.strategy[k, cls]
                    bases.append(("shown_down", len(known), pk, math.sqrt(pk * (1 - pk) / len(known)), float(q.mean()),
                                  math.sqrt(float((q * (1 - q)).sum())) / len(known), True))
            for basis, count, freq, se_pool, chart_freq, se_null, biased in bases:
                scale = se_null if se_null > 0 else se_pool
                gap = freq - chart_freq
                z = gap / scale if scale > 0 else (0.0 if abs(gap) < 1e-12 else math.copysign(math.inf, gap))
                out.append({"chart": chart_name, "stakes": stakes, "node": node_id or "(root)", "actor": actor,
                            "action": action, "basis": basis, "biased": biased, "decisions": int(count),
                            "pool_freq": round(freq, 4), "pool_se": round(se_pool, 4), "chart_freq": round(chart_freq, 4),
                            "z": round(z, 2), "flag": abs(z) >= 2})
    return pd.DataFrame(out)


def _share(chart, node_id: str, action: str) -> float:
    for node in chart.doc["nodes"]:
        if node["id"] == node_id:
            return float(node["shares"][action])
    raise ValueError(f"node {node_id!r} is not in chart {chart.name}")


def format_population(table) -> str:
    if table.empty:
        return "no chart node reached often enough"
    lines = [f"{'chart':18s} {'stakes':10s} {'node':8s} {'seat':4s} act basis       n   pool%  +-se   chart%     z"]
    for r in table.itertuples(index=False):
        lines.append(f"{r.chart:18s} {r.stakes:10s} {r.node:8s} {r.actor:4s} {r.action:3s} {r.basis:10s} {r.decisions:5d} "
                     f"{100 * r.pool_freq:6.1f} {100 * r.pool_se:5.1f} {100 * r.chart_freq:7.1f} {r.z:6.2f}{' *' if r.flag else ''}")
    return "\n".join(lines)
