"""``pokerlab solved ship``: copy a measured solved-endings table and its start into the folder the
default run reads, only if its held-out verdict and its ship check allow it."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("solved", help="solved endings: ship a measured table",
                                   description="Solved endings (docs/pipeline/solved.md).")
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    ship = actions.add_parser(
        "ship", help="copy a measured table and its start into solve.postflop.solved_tables if they may ship",
        description="Copy the table and start a measuring run left for SPOT into the config's "
        "solve.postflop.solved_tables folder, if the held-out report of that table gives the verdict 'ships', "
        "the ship check solved the spot with that table and start and says 'shipped', and the config measures "
        "the spot with the settings the table was measured with. Otherwise nothing is copied and every reason is "
        "printed (exit 2).")
    ship.add_argument("spot", help="the spot, e.g. cash/6max/100bb")
    ship.add_argument("--method", choices=("exchange", "rounds"), default="exchange",
                      help="the measuring run (default exchange: snakemake solved_exchange_validation solved_exchange_check)")
    ship.add_argument("--results", default="results/solved", help="where the run left its outputs (default results/solved)")
    ship.add_argument("--configfile", action="append", default=[],
                      help="merged over config/config.yaml as snakemake merges it (repeatable): the config the pair "
                      "is shipped for")
    ship.set_defaults(func=_ship)


def _ship(args: argparse.Namespace) -> int:
    from pokerlab.io import read_merged_yaml
    from pokerlab.preflop.spot import parse_spot_name
    from pokerlab.solved.ship import MeasuredPair, ship_pair

    spot = parse_spot_name(args.spot).name
    config = read_merged_yaml(["config/config.yaml", *args.configfile], "config file")
    folder = config.get("solve", {}).get("postflop", {}).get("solved_tables")
    if not folder or "solved" not in config:
        raise ValueError("the config has no solve.postflop.solved_tables folder or no solved section to ship for")
    for path in ship_pair(MeasuredPair.of(spot, args.results, args.method), config["solved"], folder):
        print(f"shipped {path.as_posix()}")
    return 0
