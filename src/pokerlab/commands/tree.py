"""``pokerlab tree``: build a spot's preflop tree and print its node counts by kind."""

from __future__ import annotations

import argparse

from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree


def add_spot_arguments(parser: argparse.ArgumentParser) -> None:
    """The options naming a spot and its sizing schedule (shared with ``pokerlab solve``)."""
    parser.add_argument("--format", required=True, help="cash, mtt, icm_bubble or icm_final")
    parser.add_argument("--seats", required=True, type=int, help="table size, 2..9")
    parser.add_argument("--depth", required=True, type=float, help="every seat's stack, bb")
    parser.add_argument("--sizing", default=None, help="sizing schedule YAML (default: the shipped pokerlab/data/sizing.yaml)")
    parser.add_argument("--shove-or-fold", action="store_true", help="restrict every seat to fold or all-in")


def spot_from_args(args: argparse.Namespace) -> Spot:
    depth = int(args.depth) if float(args.depth).is_integer() else args.depth
    return Spot(args.format, args.seats, depth)


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "tree",
        help="build a spot's preflop tree and print node and ending counts",
        description="Build the preflop tree of one spot under the sizing schedule and print its "
        "decision nodes, endings by kind (fold / allin / flop), three-way all-ins and capped folds.",
    )
    add_spot_arguments(parser)
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    spot = spot_from_args(args)
    tree = build_tree(spot, load_sizing(args.sizing), shove_or_fold=args.shove_or_fold)
    counts = tree.counts()
    print(f"{spot.name}  sizing band {tree.sizing['band']}{'  (shove or fold)' if args.shove_or_fold else ''}")
    for key in ("nodes", "decision", "capped", "fold", "allin", "allin_3way", "flop"):
        print(f"  {key:<11}{counts[key]:>8}")
    return 0
