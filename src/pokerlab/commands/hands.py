"""``pokerlab hands``: import real hands, count statistics, grade decisions against the charts."""

from __future__ import annotations

import argparse
import json
import sys

from pokerlab.commands import check_output_folder, check_outputs, positive_number


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hands", help="hand histories: import, statistics, grading against the charts, population, backtest",
        description="Hand histories (PokerStars text, PHH, Pluribus/ACPC STATE logs; detected from the content).")
    sub = parser.add_subparsers(dest="hands_command", metavar="SUBCOMMAND")

    p = sub.add_parser("import", help="import files or folders; print counts and skip reasons; write Parquet tables")
    p.add_argument("paths", nargs="+", help="files or folders")
    p.add_argument("--out", default=None, help="folder for hands.parquet and decisions.parquet")
    p.add_argument("--json", action="store_true", help="print the import report as JSON")
    p.set_defaults(func=_import)

    p = sub.add_parser("stats", help="player statistics (Beta posteriors with recency decay)")
    p.add_argument("paths", nargs="+", help="files or folders")
    p.add_argument("--json", action="store_true", help='print {"players": {name: {stat: {...}}}, "pool": ...}')
    p.add_argument("--player", action="append", default=[], help="only these players (repeatable)")
    p.add_argument("--decay", type=float, default=1.0, help="weight per newer hand of the player (default 1: no decay)")
    p.add_argument("--prior", default="1,1", help="Beta prior a,b (default 1,1)")
    p.add_argument("--credible", type=float, default=0.95, help="credible interval mass (default 0.95)")
    p.add_argument("--by-position", action="store_true", help="add per-position stats (players and pool)")
    p.add_argument("--pool-exclude", action="append", default=[], help="players left out of the pool (repeatable)")
    p.add_argument("--stat", action="append", default=[], help="stats to print in the table (default a short list)")
    p.set_defaults(func=_stats)

    p = sub.add_parser("grade", help="grade preflop decisions against the published charts")
    p.add_argument("paths", nargs="+", help="files or folders")
    p.add_argument("--charts", default="results/charts", help="chart folder (default results/charts)")
    p.add_argument("--player", action="append", default=[], help="only these players")
    p.add_argument("--out", default=None, help="write the graded decisions (CSV or Parquet by suffix)")
    p.add_argument("--json", action="store_true", help="print the per-player summary as JSON")
    p.add_argument("--top", type=int, default=5, help="costliest deviations and nodes to list")
    p.set_defaults(func=_grade)

    p = sub.add_parser("population", help="the pool's action frequencies vs the chart at each node")
    p.add_argument("paths", nargs="+")
    p.add_argument("--charts", default="results/charts")
    p.add_argument("--nodes", choices=("rfi", "all"), default="rfi", help="'rfi' (raise-first-in nodes) or 'all'")
    p.add_argument("--min-count", type=int, default=30)
    p.add_argument("--exclude", action="append", default=[], help="players left out of the pool")
    p.add_argument("--player", action="append", default=[], help="only these players form the pool")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_population)

    p = sub.add_parser("backtest", help="grade heads-up push/fold decisions (<= 20bb) against the push/fold solver")
    p.add_argument("paths", nargs="+")
    p.add_argument("--table", default="results/equity/equity_169.npz", help="equity table .npz")
    p.add_argument("--fees", default="none", help="fee preset (none, coinpoker)")
    p.add_argument("--player", action="append", default=[])
    p.add_argument("--csv", default=None, help="per-hand CSV")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_backtest)

    p = sub.add_parser("exploit", help="a seat's best response to the pool's measured strategy on a chart")
    p.add_argument("paths", nargs="+")
    p.add_argument("--chart", required=True, help="format/Nmax/DEPTHbb, e.g. cash/6max/100bb")
    p.add_argument("--seat", required=True, help="the exploiting seat (position name)")
    p.add_argument("--charts", default="results/charts")
    p.add_argument("--table", default="results/equity/equity_169.npz", help="the equity table the chart was solved with")
    p.add_argument("--exclude", action="append", default=[], help="players left out of the pool")
    p.add_argument("--player", action="append", default=[], help="only these players form the pool")
    p.add_argument("--shrink", type=positive_number, default=10.0, help="pseudo-decisions of the chart per class and node")
    p.add_argument("--node", default=None, help="draw this hero node (default: its raise-first-in node; the BB's most reached)")
    p.add_argument("--png", default=None, help="side-by-side grids (chart vs exploit)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=_exploit)

    p = sub.add_parser("pushfold-exploit", help="push/fold best responses (heads-up or 4-max) to the pool's ranges")
    p.add_argument("paths", nargs="+")
    p.add_argument("--seats", type=int, choices=(2, 4), default=2)
    p.add_argument("--depth", type=float, required=True, help="stack depth, bb (the pool's hands within x/1.25 of it, 4-max)")
    p.add_argument("--seat", default=None, help="4-max: the exploiting seat (CO, BTN, SB, BB)")
    p.add_argument("--strategy", default=None, help="4-max: the solved strategy JSON (results/pushfold/4max/{depth}bb.json)")
    p.add_argument("--ante", type=float, default=0.0)
    p.add_argument("--fees", default="none")
    p.add_argument("--table", default="results/equity/equity_169.npz")
    p.add_argument("--samples", type=int, default=20000, help="4-max: Monte Carlo draws per multiway estimate")
    p.add_argument("--seed", type=int, default=20260801)
    p.add_argument("--shrink", type=positive_number, default=10.0)
    p.add_argument("--png", default=None, help="side-by-side grids (heads-up: the BB's call; 4-max: the seat's first set)")
    p.set_defaults(func=_pushfold_exploit)

    p = sub.add_parser("generate", help="write seeded short-stack hands as PHH (through pokerkit)")
    p.add_argument("out", help="output .phhs file")
    p.add_argument("--hands", type=int, default=2000)
    p.add_argument("--seed", type=int, default=20260801)
    p.add_argument("--table", default="results/equity/equity_169.npz")
    p.add_argument("--ante-share", type=float, default=0.5, help="share of hands with a 1bb BB ante")
    p.add_argument("--players", default="2,2,3,4,6", help="table sizes drawn from (default 2,2,3,4,6)")
    p.add_argument("--stacks", default="3,30", help="stack range, bb (default 3,30)")
    p.set_defaults(func=_generate)
    parser.set_defaults(func=lambda args: (parser.print_help(), 0)[1])


def _load(paths):
    from pokerlab.hands.importer import import_hands

    return import_hands(paths)


def _charts(folder: str):
    from pokerlab.hands.grading import open_chart_library

    return open_chart_library(folder, "--charts")


def _import(args) -> int:
    """Streams: the files are read a batch of hands at a time, written as they come."""
    from pokerlab.hands.tables import import_to_tables

    check_output_folder("out", args.out, "hands.parquet")
    result = import_to_tables(args.paths, args.out)
    if args.json:
        print(json.dumps(result.report(), indent=1))
        return 0
    for f in result.files:
        print(f"{f.path}: {f.format}, read {f.read}, imported {f.imported}, skipped {len(f.skipped)}")
        for s in f.skipped:
            print(f"    line {s['line']} (hand {s['hand'] or '?'}): {s['reason']}")
    print(f"total: read {result.read}, imported {result.imported}, skipped {len(result.skipped)}")
    for reason, count in result.skip_reasons().items():
        print(f"  {count:6d}  {reason}")
    return 0


def _prior(text: str) -> tuple[float, float]:
    try:
        a, b = (float(x) for x in text.split(","))
    except ValueError:
        raise ValueError(f"--prior {text!r}: expected two numbers a,b") from None
    return a, b


def _stats(args) -> int:
    from pokerlab.hands.stats import StatSettings, stats_document

    a, b = _prior(args.prior)
    settings = StatSettings(decay=args.decay, prior_a=a, prior_b=b, credible=args.credible)
    result = _load(args.paths)
    doc = stats_document(result.hands, settings, by_position=args.by_position, players=args.player or None,
                         pool_exclude=args.pool_exclude)
    if args.json:
        print(json.dumps(doc, indent=1, sort_keys=True))
        return 0
    stats = args.stat or ["vpip", "pfr", "rfi", "three_bet", "fold_to_three_bet", "cbet_flop", "wtsd", "wsd"]
    print(f"{result.imported} hands ({len(result.skipped)} skipped); mean [{100 * settings.credible:g}% interval] count/opportunities")
    for name, row in sorted(doc["players"].items(), key=lambda kv: -kv[1].get("vpip", {}).get("opportunities", 0)):
        cells = []
        for s in stats:
            e = row.get(s)
            cells.append(f"{s} {100 * e['mean']:.1f} [{100 * e['lower']:.1f}-{100 * e['upper']:.1f}] {e['count']}/{e['opportunities']}"
                         if e else f"{s} -")
        print(f"{name}: " + "; ".join(cells))
    pool = doc["pool"]
    print("pool" + (f" (without {', '.join(args.pool_exclude)})" if args.pool_exclude else "") + ": " + "; ".join(
        f"{s} {100 * pool[s]['mean']:.1f} [{100 * pool[s]['lower']:.1f}-{100 * pool[s]['upper']:.1f}] {pool[s]['count']}/{pool[s]['opportunities']}"
        for s in stats if s in pool))
    if args.by_position:
        groups = {**{name: doc["by_position"][name] for name in sorted(doc["by_position"]) if not args.player or name in args.player},
                  "pool": doc["pool_by_position"]}
        for name, positions in groups.items():
            for pos, row in positions.items():
                print(f"  {name} {pos}: " + "; ".join(
                    f"{s} {100 * row[s]['mean']:.1f} [{100 * row[s]['lower']:.1f}-{100 * row[s]['upper']:.1f}] {row[s]['count']}/{row[s]['opportunities']}"
                    for s in stats if s in row))
    return 0


def _grade(args) -> int:
    from pokerlab.hands.grading import grade_hands, grading_summary, format_summary

    check_outputs(out=args.out)
    library = _charts(args.charts)
    result = _load(args.paths)
    graded, skips = grade_hands(result.hands, library, players=args.player or None)
    summary = grading_summary(graded, skips, top=args.top)
    if args.out:
        from pokerlab.io import write_frame

        write_frame(graded, args.out)
    if args.json:
        print(json.dumps(summary, indent=1, sort_keys=True))
    else:
        print(format_summary(summary))
    return 0


def _population(args) -> int:
    from pokerlab.hands.population import format_population, population_table

    library = _charts(args.charts)
    result = _load(args.paths)
    table = population_table(result.hands, library, nodes=args.nodes, min_count=args.min_count,
                             exclude=args.exclude, only=args.player or None)
    if args.json:
        print(table.to_json(orient="records", indent=1))
    else:
        print(format_population(table))
    return 0


def _backtest(args) -> int:
    from pokerlab.hands.backtest import backtest, format_backtest

    check_outputs(csv=args.csv)
    result = _load(args.paths)
    report = backtest(result.hands, args.table, fees=args.fees, players=args.player or None)
    if args.csv:
        from pokerlab.io import write_frame

        write_frame(report["rows"], args.csv, "csv")
    if args.json:
        print(json.dumps({k: v for k, v in report.items() if k != "rows"}, indent=1, sort_keys=True))
    else:
        print(format_backtest(report))
    return 0


def _exploit(args) -> int:
    from pokerlab.hands.exploit import draw_exploit, exploit_chart, exploit_summary

    check_outputs(png=args.png)
    from pokerlab.preflop.spot import parse_spot_name

    try:
        spot = parse_spot_name(args.chart)
    except ValueError as exc:
        raise ValueError(f"--chart: {exc}") from None
    key = (spot.format, spot.seats, spot.depth)
    library = _charts(args.charts)
    result = _load(args.paths)
    br = exploit_chart(result.hands, library, key, args.seat, args.table, pool_players=args.player or None,
                       exclude=args.exclude, shrink=args.shrink)
    chart = library.get(*key)
    summary = exploit_summary(chart, br, args.node, "--node")
    if args.png:
        draw_exploit(chart, br, summary["node"], args.png)
    if args.json:
        print(json.dumps(summary, indent=1))
    else:
        print(f"{br['chart']} {br['seat']}: best response to the pool ({br['pool_decisions']} pool decisions, shrink {br['shrink']:g}) "
              f"gains {br['gain_bb']:+.4f} bb per hand over the chart ({br['value_chart_bb']:+.4f} -> {br['value_best_response_bb']:+.4f})")
    return 0


def _pushfold_exploit(args) -> int:
    from pokerlab.equity_table import load_equity_table
    from pokerlab.hands import exploit

    check_outputs(png=args.png)
    eq = load_equity_table(args.table).equity
    hands = _load(args.paths).hands
    if args.seats == 2:
        out = exploit.headsup_pool_exploit(hands, eq, args.depth, args.ante, args.fees, args.shrink)
        print(f"heads-up {args.depth:g}bb (ante {args.ante:g}): pool decisions SB {out['pool_sb_decisions']}, BB "
              f"{out['pool_bb_decisions']}; best response gains SB {out['sb']['gain_bb']:+.4f}, BB {out['bb']['gain_bb']:+.4f} "
              "bb per hand over the solver's strategy")
        if args.png:
            exploit.draw_grids(out["bb"]["chart"], out["bb"]["exploit"], ("solver: BB call", "exploit: BB call"),
                               f"heads-up {args.depth:g}bb: BB best response to the pool's shoves, gain {out['bb']['gain_bb']:+.4f} bb",
                               args.png)
        return 0
    if not args.seat or not args.strategy:
        raise ValueError("4-max: --seat and --strategy (a solved 4-max JSON) are required")
    out = exploit.fourmax_pool_exploit(hands, args.strategy, args.seat, eq, args.depth, args.fees, args.ante,
                                       args.samples, args.seed, args.shrink)
    print(f"4-max {args.depth:g}bb {args.seat}: {out['pool_decisions']} pool decisions; best response gains "
          f"{out['gain_bb']:+.4f} bb per hand over the strategy ({args.samples} draws per estimate, seed {args.seed})")
    for h, e in out["sets"].items():
        print(f"  set {h or '(open)'}: goes in with {100 * e['exploit_share']:.1f}% of deals (strategy {100 * e['chart_share']:.1f}%), "
              f"gain {e['gain_bb']:+.4f} bb")
    if args.png:
        first = next(iter(out["sets"]))
        exploit.draw_grids(out["sets"][first]["chart"], out["sets"][first]["exploit"],
                           ("solved 4-max strategy", "exploit"), f"4-max {args.depth:g}bb {args.seat} set {first or '(open)'}: "
                           f"gain {out['gain_bb']:+.4f} bb per hand", args.png)
    return 0


def _generate(args) -> int:
    from pokerlab.hands.generate import check_settings, generate_hands
    from pokerlab.hands.phh import write_phhs
    from pokerlab.io import check_writable

    try:
        players = tuple(int(x) for x in args.players.split(","))
        low, high = (float(x) for x in args.stacks.split(","))
    except ValueError:
        raise ValueError(f"--players {args.players!r} / --stacks {args.stacks!r}: expected 2,4 and 3,30") from None
    try:
        check_settings(args.hands, args.ante_share, players, (low, high))
    except ValueError as exc:  # the setting's option, as typed
        name, _, reason = str(exc).partition(" ")
        typed = {"hands": args.hands, "ante_share": args.ante_share, "players": args.players, "stacks": args.stacks}
        raise ValueError(f"--{name.replace('_', '-')} {typed[name]!r}: {reason.partition(': ')[2]}") from None
    check_writable(args.out, "output file")
    hands = generate_hands(args.hands, args.seed, args.table, ante_share=args.ante_share, players=players,
                           stack_range=(low, high))
    write_phhs(hands, args.out)
    print(f"{len(hands)} hands written to {args.out}", file=sys.stderr)
    return 0
