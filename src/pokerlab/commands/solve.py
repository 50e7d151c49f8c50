"""``pokerlab solve``: solve one spot until it clears its bar, with a progress bar."""

from __future__ import annotations

import argparse
import sys

from pokerlab.commands.tree import add_spot_arguments, spot_from_args
from pokerlab.preflop.payoffs import PostflopModel
from pokerlab.preflop.solve import SolveSettings, default_result_path, solve_spot_to_file, state_path_beside


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "solve",
        help="solve one spot with CFR+ until its exploitability clears the bar",
        description="Solve one spot: CFR+ to each checkpoint (warm continuation), exact exploitability "
        "at each, stop at the first one under the bar 0.010*sqrt(seats/2) bb. Writes result.json "
        "(status, exploitability, model share, read-out); a saved state lets an interrupted solve resume.",
    )
    add_spot_arguments(parser)
    parser.add_argument("--table", default="results/equity/equity_169.npz", help="equity table .npz")
    parser.add_argument("--out", default=None, help="result path (default results/solves/<spot>/result.json)")
    parser.add_argument("--state", default=None, help="solver state path for resuming (default beside the result)")
    parser.add_argument("--checkpoints", type=int, nargs="+", default=SolveSettings().checkpoints,
                        help="cumulative iterations at which to measure (default 400 1200 3000)")
    parser.add_argument("--bar-coefficient", type=float, default=SolveSettings().bar_coefficient,
                        help="bar = coefficient * sqrt(seats/2) bb (default 0.010)")
    parser.set_defaults(func=_run)


class _ProgressBar:
    """One stderr line: iterations done of the last checkpoint and the latest measured figure."""

    def __init__(self, total: int, bar_bb: float):
        self.total, self.bar_bb, self.figure = total, bar_bb, "not measured yet"

    def __call__(self, iteration: int, exploitability: float | None) -> None:
        if exploitability is not None:
            self.figure = f"exploitability {exploitability:.5f} bb (bar {self.bar_bb:.5f})"
        filled = int(30 * min(iteration, self.total) / self.total)
        end = "\n" if exploitability is not None else ""
        print(f"\r[{'#' * filled}{'.' * (30 - filled)}] {iteration:>6}/{self.total} iterations  {self.figure}",
              end=end, file=sys.stderr, flush=True)


def _run(args: argparse.Namespace) -> int:
    spot = spot_from_args(args)
    settings = SolveSettings(postflop=PostflopModel(), checkpoints=tuple(args.checkpoints), bar_coefficient=args.bar_coefficient)
    out = args.out or default_result_path(spot)
    state = args.state or state_path_beside(out)
    progress = _ProgressBar(settings.checkpoints[-1], settings.bar_bb(spot.seats))
    result = solve_spot_to_file(spot, args.table, args.sizing, settings, out, state_path=state,
                                shove_or_fold=args.shove_or_fold, progress=progress)
    print(f"{spot.name}: {result['status']} after {result['iterations']} iterations, exploitability "
          f"{result['exploitability_bb']:.5f} bb (bar {result['bar_bb']:.5f}), model share {result['model_share']:.3f}")
    print(f"wrote {out}")
    return 0
