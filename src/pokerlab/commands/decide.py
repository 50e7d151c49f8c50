"""``pokerlab decide``: the villain's inferred range and the EV of each of the hero's actions.

``pokerlab decide --hero KhJh --hero-position BB --villain-position BTN --preflop FFFRFC
--board Kc7s2d4h9c --history "flop: hero check, villain bet 0.33, hero call; turn: hero check,
villain check; river: hero check, villain bet 1"`` prints the villain's range summary (line, live
and effective combos, entropy, top classes, model), the EV of each action in bb and the
recommendation, then the uncertainties kept apart: sampling or solve error, the same decision
under the alternative villain models, and what the valuation abstracts away. ``--json`` prints
the whole report. ``--villain-stats PATH --villain NAME`` chooses the villain's archetype from its
VPIP, PFR and aggression factor measured in hand-history files (:mod:`pokerlab.advice.profile`).
"""

from __future__ import annotations

import argparse
import json

from pokerlab.commands import comma_separated


def _pot_fraction(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise ValueError(text)
    return value


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "decide",
        help="a heads-up decision: the villain's inferred range and EV per action",
        description="Infer the villain's range (prior from the charts for its preflop line, Bayes updates "
        "on its postflop actions under a behavioural model), value each of the hero's actions (postflop "
        "solver on turn/river, equity with a one-response continuation model otherwise) and report the "
        "recommendation with its uncertainties kept apart. Chips in bb; 6-max cash preflop tree.",
    )
    p.add_argument("--hero", required=True, help="the hero's hand, e.g. KhJh")
    p.add_argument("--hero-position", required=True, help="the hero's 6-max seat (UTG HJ CO BTN SB BB)")
    p.add_argument("--villain-position", required=True, help="the villain's 6-max seat")
    p.add_argument("--preflop", required=True, help="preflop actions as chart letters, e.g. FFFRFC")
    p.add_argument("--board", default="", help="board cards, e.g. Kc7s2d4h")
    p.add_argument("--history", default="",
                   help="postflop actions: 'flop: hero check, villain bet 0.5, hero call; turn: ...' "
                   "(sizes: fractions of the pot)")
    p.add_argument("--stack", type=float, default=100.0, help="starting stacks, bb (default %(default)s)")
    p.add_argument("--model", default=None,
                   help="the villain's archetype (regular, nit, calling_station, maniac; default regular)")
    p.add_argument("--villain-stats", nargs="+", default=None, metavar="PATH",
                   help="hand-history files or folders (any supported format): the villain's archetype is chosen "
                   "from its measured VPIP, PFR and postflop aggression factor (instead of --model)")
    p.add_argument("--villain", default=None, help="the villain's player name in the --villain-stats hands")
    p.add_argument("--villain-range", default=None, help="an explicit villain prior (notation) instead of the chart's")
    p.add_argument("--sizes", type=comma_separated(_pot_fraction, "pot fractions > 0"), default=(0.5, 1.0),
                   help="hero bet/raise sizes as fractions of the pot (default 0.5,1)")
    p.add_argument("--alternatives", type=comma_separated(str, "model names"), default=None,
                   help="alternative villain models for the range-estimation uncertainty (default nit, "
                   "calling_station, maniac, tight, wide; with --villain-stats the chosen archetype is replaced "
                   "by regular)")
    p.add_argument("--priors", default=None, help="a priors JSON file (default: the bundled one)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sampled preflop boards")
    p.add_argument("--json", action="store_true", help="print the whole report as JSON")
    p.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    from pokerlab.advice.decide import ALTERNATIVES, Situation, decide, format_report, parse_history
    from pokerlab.ranges.priors import RangePriors

    sit = Situation(hero=args.hero, hero_position=args.hero_position, villain_position=args.villain_position,
                    preflop=args.preflop, board=args.board, history=tuple(parse_history(args.history)),
                    stack_bb=args.stack, hero_sizes=tuple(args.sizes))
    priors = RangePriors.load(args.priors) if args.priors else None
    model, profile = args.model or "regular", None
    alternatives = args.alternatives
    if args.villain_stats is not None or args.villain is not None:
        if args.villain_stats is None or args.villain is None:
            raise ValueError("--villain-stats PATH and --villain NAME go together")
        if args.model is not None:
            raise ValueError("--model and --villain-stats both choose the villain's model; give one")
        from pokerlab.advice.profile import villain_profile

        profile = villain_profile(args.villain_stats, args.villain)
        model = profile["archetype"]
        if alternatives is None:
            alternatives = tuple("regular" if a == model else a for a in ALTERNATIVES)
    report = decide(sit, model=model, villain_range=args.villain_range, priors=priors,
                    alternatives=alternatives if alternatives is not None else ALTERNATIVES, seed=args.seed)
    if profile is not None:
        report["villain_profile"] = profile
    print(json.dumps(report, indent=1, sort_keys=True) if args.json else format_report(report))
    return 0
