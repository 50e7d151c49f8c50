"""``pokerlab equity``: showdown equity of a class against a class, or of a hand or range
against 1 to 8 ranges.

Two class names and no ``--board``/``--dead`` (``pokerlab equity AKs QQ``): win/tie/loss of
one preflop class against another from :mod:`pokerlab.equity`. Anything else
(``pokerlab equity AhKh "QQ+,AK" random --board Ks7s6s``): each player's win, tie and pot
share under the exact joint deal, from :func:`pokerlab.ranges.equity.multiway_equity`.
"""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "equity",
        help="equity of a class vs a class, or of a hand/range vs 1-8 ranges",
        description="With two class names and no board (AKs QQ): showdown win/tie/loss of the "
        "first class against the second, exact over every board and non-colliding combo pair "
        "unless --samples is given. Otherwise HERO (a hand or range) against 1 to 8 opponent "
        "ranges: each player's win, tie and pot share with standard errors, opponents dealt "
        "from the exact joint distribution (no two hands share a card).",
    )
    p.add_argument("players", nargs="+", metavar="RANGE", help="hero then opponents: classes, hands or range notation")
    p.add_argument("--board", default=None, help="0 to 5 board cards, e.g. Ks7s6s")
    p.add_argument("--dead", default=None, help="cards out of play, removed from every range and the deck")
    p.add_argument("--samples", type=_positive_int, default=None, help="sample this many deals instead of enumerating")
    p.add_argument("--seed", type=int, default=20260801, help="root seed for --samples (default %(default)s)")
    p.add_argument(
        "--method", choices=("auto", "rejection", "importance", "exact"), default="auto",
        help="ranges form: how deals are drawn (default auto: exact when small, else rejection)",
    )  # fmt: skip
    p.set_defaults(func=run)


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number >= 1, got {text!r}")
    return value


def run(args: argparse.Namespace) -> int:
    from pokerlab.cards import is_class_name

    if len(args.players) < 2:
        raise ValueError("players: give a hero and at least one opponent")
    if args.samples is not None and args.method == "exact":
        raise ValueError(f"--samples {args.samples} and --method exact: the exact method enumerates every deal; "
                         "drop one of them")
    if len(args.players) == 2 and not args.board and not args.dead and all(map(is_class_name, args.players)):
        return _class_vs_class(args.players[0], args.players[1], args)
    from pokerlab.ranges.equity import format_equity, multiway_equity

    trials = args.samples if args.samples is not None else 100_000
    method = "rejection" if args.samples is not None and args.method == "auto" else args.method  # asked to sample
    hero, *opponents = args.players
    result = multiway_equity(
        hero, opponents, board=args.board, dead=args.dead, trials=trials, seed=args.seed, method=method
    )
    print(format_equity(result))
    return 0


def _class_vs_class(hero: str, villain: str, args: argparse.Namespace) -> int:
    from pokerlab import cards as C
    from pokerlab import equity as E

    a, b = C.parse_class(hero), C.parse_class(villain)
    if args.samples is None:
        wins, ties, deals = E.exact_class_pair(a, b)
        how = f"exact, {deals:,} deals"
    else:
        wins, ties, deals = E.sample_class_pair(a, b, args.samples, args.seed)
        how = f"sampled, {deals:,} deals, seed {args.seed}"
    print(f"{C.CLASS_NAMES[a]} vs {C.CLASS_NAMES[b]} ({how})")
    print(f"  win  {100 * wins / deals:8.4f}%")
    print(f"  tie  {100 * ties / deals:8.4f}%")
    print(f"  loss {100 * (deals - wins - ties) / deals:8.4f}%")
    print(f"  equity (win + tie/2) {100 * (wins + ties / 2) / deals:8.4f}%")
    return 0
