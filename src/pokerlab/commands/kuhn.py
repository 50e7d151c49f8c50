"""``pokerlab kuhn``: run CFR on Kuhn poker and print the convergence figures."""

from __future__ import annotations

import argparse

from pokerlab.commands import comma_separated
from pokerlab.games import kuhn
from pokerlab.games.kuhn_experiment import report_lines


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "kuhn",
        help="CFR on Kuhn poker with exact best responses (the solver's correctness anchor)",
        description="Run full-tree CFR on Kuhn poker and print, per checkpoint, the average profile's "
        "self-play value, both players' exact best-response gains, NashConv and exploitability "
        "(antes per hand), and the final average strategy.",
    )
    parser.add_argument("--iterations", type=int, default=100_000, help="iterations to run (default 100000)")
    parser.add_argument("--variant", choices=kuhn.VARIANTS, default="cfr", help="cfr (vanilla) or cfr+ (default cfr)")
    parser.add_argument(
        "--updates", choices=("simultaneous", "alternating"), default="simultaneous",
        help="regret update schedule (default simultaneous)",
    )
    parser.add_argument(
        "--checkpoints", type=comma_separated(int, "iterations"), default=list(kuhn.DEFAULT_CHECKPOINTS),
        help="comma-separated iterations at which to measure (the last iteration is always measured)",
    )
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    solver, rows = kuhn.solve(args.iterations, variant=args.variant, updates=args.updates, checkpoints=args.checkpoints)
    print("\n".join(report_lines(solver, rows)))
    return 0
