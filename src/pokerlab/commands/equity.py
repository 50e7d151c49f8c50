"""``pokerlab equity HERO VILLAIN``: showdown win/tie/loss of one preflop class against another."""

from __future__ import annotations

import argparse


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "equity",
        help="win/tie/loss of a class against a class (exact, or sampled with --samples)",
        description="Showdown win/tie/loss of preflop class HERO against class VILLAIN, "
        "exact over every board and non-colliding combo pair unless --samples is given.",
    )
    p.add_argument("hero", help="hero class, e.g. AKs")
    p.add_argument("villain", help="villain class, e.g. QQ")
    p.add_argument("--samples", type=int, default=None, help="sample this many deals instead of enumerating")
    p.add_argument("--seed", type=int, default=20260801, help="root seed for --samples (default %(default)s)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import numpy as np

    from pokerlab import cards as C
    from pokerlab import equity as E

    a, b = C.parse_class(args.hero), C.parse_class(args.villain)
    if args.samples is None:
        wins, ties, deals = E.exact_class_pair(a, b)
        how = f"exact, {deals:,} deals"
    else:
        lo, hi = min(a, b), max(a, b)
        pair = int(np.flatnonzero((E.PAIR_HERO == lo) & (E.PAIR_VILLAIN == hi))[0])
        counts = E.sample_pair_counts(args.samples, args.seed, [pair])
        wins, ties, deals = int(counts.wins[0]), int(counts.ties[0]), int(counts.samples[0])
        if a > b:  # the table samples (low index, high index); flip to the asked orientation
            wins = deals - wins - ties
        how = f"sampled, {deals:,} deals, seed {args.seed}"
    print(f"{C.CLASS_NAMES[a]} vs {C.CLASS_NAMES[b]} ({how})")
    print(f"  win  {100 * wins / deals:8.4f}%")
    print(f"  tie  {100 * ties / deals:8.4f}%")
    print(f"  loss {100 * (deals - wins - ties) / deals:8.4f}%")
    print(f"  equity (win + tie/2) {100 * (wins + ties / 2) / deals:8.4f}%")
    return 0

