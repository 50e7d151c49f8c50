"""``pokerlab chart``: draw one node of a published chart as a 13x13 heatmap."""

from __future__ import annotations

import argparse
from pathlib import Path

from pokerlab.charts import draw_node, find_node, node_image_name


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "chart",
        help="draw a node of a chart as a 13x13 heatmap (PNG or SVG)",
        description="Draw the 13x13 heatmap of one decision node of a published chart "
        "(results/charts/{format}/{n}max/{depth}bb.json.gz): action colours split each cell by the "
        "class's frequencies. The node is its action string: '' (the default) is the first "
        "decision, FFF is fold, fold, fold.",
    )
    parser.add_argument("chart", help="a chart document, e.g. results/charts/cash/6max/100bb.json.gz")
    parser.add_argument("--node", default="", help="action string of the node (default: the first decision)")
    parser.add_argument("--out", default=None,
                        help="output .png or .svg (default: <chart stem>_<node or root>.png in the current folder)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from pokerlab.commands import check_outputs
    from pokerlab.publish import load_valid_chart

    check_outputs(out=args.out)
    doc = load_valid_chart(args.chart)
    node = find_node(doc, args.node)
    path = draw_node(doc, args.node, Path(args.out or node_image_name(doc, args.node)))
    shares = ", ".join(f"{a} {100 * node['shares'][a]:.1f}%" for a in node["actions"])
    print(f"node {args.node or '(root)'} ({node['actor']} to act, reach {100 * node['reach']:.2f}%): {shares}")
    print(f"wrote {path}")
    return 0
