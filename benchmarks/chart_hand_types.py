"""Print charts side by side by hand type, and the classes whose main action changed.

    .venv/bin/python benchmarks/chart_hand_types.py --run v1 A/result.json --run solved B/result.json \
        --node "" --node R

For each ``--node`` (a preflop action path such as ``""`` for the first decision, ``R`` for the
player facing a raise, ``FFFRF`` for the 6-max big blind against the button's open): per hand type
(:mod:`pokerlab.hand_types`), the share of the arriving combos taking each action in each run, in
percent, and the type's share of the hands arriving there. Then, for every run after the first, the classes whose most likely
action differs from the first run's, where the new action gained at least ``--min-pp`` points. The
runs must be charts of the same spot and sizing (the same actions at the node).
"""

from __future__ import annotations

import argparse

import numpy as np

from pokerlab.hand_types import HAND_TYPES, main_action_changes, shares_by_hand_type
from pokerlab.preflop.result_file import read_result


def node_of(result: dict, node_id: str, label: str) -> dict:
    for node in result["nodes"]:
        if node["id"] == node_id:
            return node
    raise SystemExit(f"{label}: no decision node {node_id!r} in this chart")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", nargs=2, action="append", metavar=("LABEL", "RESULT_JSON"), required=True)
    parser.add_argument("--node", action="append", required=True, help="a preflop action path; repeat")
    parser.add_argument("--min-pp", type=float, default=10.0)
    args = parser.parse_args()
    charts = [(label, read_result(path)) for label, path in args.run]
    for node_id in args.node:
        nodes = [(label, node_of(chart, node_id, label)) for label, chart in charts]
        actions = nodes[0][1]["actions"]
        print(f"\n## node {node_id!r} ({nodes[0][1]['actor']}), shares in % of the arriving combos: "
              + " / ".join(actions))
        print("| hand type | " + " | ".join(label for label, _ in nodes) + " | share of arriving hands (%) |")
        print("|---" * (len(nodes) + 2) + "|")
        shares = [shares_by_hand_type({a: np.array(n["strategy"][a]) for a in actions}, np.array(n["arrive_with"]))
                  for _, n in nodes]
        for hand_type in HAND_TYPES:
            cells = [" / ".join(f"{100 * s[hand_type][a]:.0f}" for a in actions) if hand_type in s else "-"
                     for s in shares]
            combos = " / ".join(f"{100 * s[hand_type]['arriving']:.1f}" if hand_type in s else "0" for s in shares)
            print(f"| {hand_type} | " + " | ".join(cells) + f" | {combos} |")
        base_label, base = nodes[0]
        for label, node in nodes[1:]:
            changes = main_action_changes({a: np.array(base["strategy"][a]) for a in actions},
                                          {a: np.array(node["strategy"][a]) for a in actions},
                                          np.array(node["arrive_with"]), args.min_pp)
            print(f"\nmain action changed, {base_label} -> {label} (at least {args.min_pp:g} points):")
            for hand_type in HAND_TYPES:
                if hand_type in changes:
                    print(f"- {hand_type}: " + ", ".join(f"{c} {a}->{b} (+{p:g})" for c, a, b, p in changes[hand_type]))
            if not changes:
                print("- none")


if __name__ == "__main__":
    main()
