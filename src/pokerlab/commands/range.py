"""``pokerlab range NOTATION``: a range's combos, share of deals, width and 13x13 grid."""

from __future__ import annotations

import argparse

from pokerlab.cards import card_str
from pokerlab.ranges import Range
from pokerlab.ranges.range import as_cards


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "range",
        help="show a range: combos, share of deals, entropy and a 13x13 grid",
        description="Parse range notation (e.g. 'TT+,AQs+,AKo' or 'AA:1.0,KK:0.5,QJo:0.25'), "
        "optionally remove the combos blocked by a board or dead cards, and print its live "
        "combos, total weight, share of all deals, entropy and effective combos, and a 13x13 "
        "grid (rows and columns A..2, suited above the diagonal).",
    )
    parser.add_argument("notation", help="range notation, quoted, e.g. \"TT+,AQs+,AKo\"")
    parser.add_argument("--board", default=None, help="board cards whose combos are removed, e.g. Ks7s6s")
    parser.add_argument("--dead", default=None, help="other known cards whose combos are removed")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    if not args.notation.strip():
        raise ValueError("empty range notation: give at least one item, e.g. \"TT+,AQs+,AKo\" (or 'random')")
    if args.board and args.dead:
        shared = set(as_cards(args.board)) & set(as_cards(args.dead))
        if shared:
            raise ValueError(f"--dead {args.dead}: {''.join(card_str(c) for c in sorted(shared))} also on --board {args.board}")
    r = Range.parse(args.notation)
    if args.board:
        r = r.condition_on_board(args.board)
    if args.dead:
        r = r.remove_cards(args.dead)
    print(f"range: {r.to_notation() or '(empty)'}")
    print(f"combos: {r.live_combos()} live, total weight {r.total_weight():g}")
    print(f"share of deals: {100 * r.share_of_deals():.2f}%")
    if r.live_combos():
        print(f"entropy: {r.entropy_bits():.3f} bits ({r.effective_combos():.1f} effective combos)")
    print(r.grid_text())
    return 0
