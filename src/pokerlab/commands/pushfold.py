"""``pokerlab pushfold``: solve a shove-or-fold spot (heads-up exact, or 4-max Monte Carlo)."""

from __future__ import annotations

import argparse
import sys

from pokerlab import cards
from pokerlab.pushfold.fees import FEE_PRESETS, PushFoldGame
from pokerlab.pushfold.fourmax import INFOSETS, Settings, describe


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "pushfold",
        help="solve a shove-or-fold spot (heads-up exact, 4-max Monte Carlo) under a fee model",
        description="Damped best response (not CFR) on the shove-or-fold game: heads-up exactly from the "
        "equity table, 4-max with Monte Carlo multiway equity. Payoffs are objective nets (ledger + rakeback).",
    )
    parser.add_argument("--seats", type=int, required=True, help="2 (heads-up) or 4 (CO, BTN, SB, BB)")
    parser.add_argument("--depth", type=float, required=True, help="effective stack, bb (>= 1)")
    parser.add_argument("--fees", default="none", help=f"fee preset: {', '.join(sorted(FEE_PRESETS))} (default none)")
    parser.add_argument("--ante", type=float, default=0.0, help="dead ante posted by the big blind, bb (default 0)")
    parser.add_argument("--table", default="results/equity/equity_169.npz", help="equity table .npz")
    parser.add_argument("--out", default=None, help="write the result JSON here")
    parser.add_argument("--png", default=None, help="heatmaps: path prefix (heads-up) or folder (4-max)")
    hu = parser.add_argument_group("heads-up")
    hu.add_argument("--tolerance", type=float, default=1e-6, help="stop at this exploitability, bb (default 1e-6)")
    hu.add_argument("--thresholds", default="", help="comma-separated classes: print the deepest stack (1-25bb, 0.5bb grid) at which each is shoved / called")
    fm = parser.add_argument_group("4-max")
    fm.add_argument("--schedule", default="100x500,150x4000",
                    help="sweeps x samples per multiway estimate, stage after stage (default 100x500,150x4000)")
    fm.add_argument("--final-samples", type=int, default=40000, help="draws per estimate of the final measurement (also run at 2x)")
    fm.add_argument("--seed", type=int, default=20260801)
    fm.add_argument("--checkpoint", default=None, help="resumable state file")
    fm.add_argument("--warm", default=None, help="warm start from an earlier 4-max result JSON")
    fm.add_argument("--hands", choices=("classes", "combos"), default="classes",
                    help="classes (independent classes, Monte Carlo multiway estimates) or combos (card removal: "
                         "a sample game of joint deals from --combo-table)")
    fm.add_argument("--combo-table", default="results/equity/equity_1326.npz", help="1,326 x 1,326 equity table (--hands combos)")
    fm.add_argument("--deals", type=int, default=4_000_000, help="joint deals of the sample game (--hands combos)")
    fm.add_argument("--max-sweeps", type=int, default=150, help="sweeps at most (--hands combos)")
    parser.set_defaults(func=_run)


def _schedule(text: str) -> tuple[tuple[int, int], ...]:
    try:
        return tuple((int(a), int(b)) for a, b in (stage.split("x") for stage in text.split(",")))
    except ValueError:
        raise ValueError(f"--schedule {text!r}: expected stages like 100x500,150x4000") from None


def _run(args: argparse.Namespace) -> int:
    from pokerlab.pushfold import io

    from pokerlab.commands import check_outputs

    game = PushFoldGame(args.seats, args.depth, args.fees, args.ante)  # validates before any work
    check_outputs(out=args.out)
    if game.seats == 2:
        return _headsup(args, game, io)
    if args.hands == "combos":
        return _fourmax_combos(args, game, io)
    settings = Settings(schedule=_schedule(args.schedule), final_samples=args.final_samples, seed=args.seed)
    out = args.out or io.fourmax_result_path(game.depth_bb)

    def progress(sweep: int, figure: float) -> None:
        print(f"\rsweep {sweep}/{settings.sweeps}  noisy exploitability {figure:.5f} bb", end="", file=sys.stderr, flush=True)

    sol = io.write_fourmax(game, settings, args.table, out, png_dir=args.png, checkpoint=args.checkpoint,
                           warm_path=args.warm, progress=progress)
    print(file=sys.stderr)
    _print_fourmax(game, out, sol.shares, sol.reach)
    for m in sol.measurements:
        print(f"  exploitability at {m['samples']} samples per estimate: {m['exploitability_bb']:.5f} bb "
              f"({', '.join(f'{s} {v:.5f}' for s, v in m['per_seat'].items())})")
    return 0


def _print_fourmax(game: PushFoldGame, out: str, shares, reach) -> None:
    print(f"4-max {game.depth_bb:g}bb, fees {game.fees.name}: {out}")
    for k, history in enumerate(INFOSETS):
        print(f"  {history or '-':<4} {describe(history):<36} {100 * shares[k]:6.2f}%  reach {reach[k]:.4f}")


def _fourmax_combos(args: argparse.Namespace, game: PushFoldGame, io) -> int:
    from pokerlab.pushfold.fourmax_combos import ComboSettings

    settings = ComboSettings(deals=args.deals, max_sweeps=args.max_sweeps, seed=args.seed)
    out = args.out or io.fourmax_result_path(game.depth_bb, "combos")

    def progress(sweep: int, figure: float) -> None:
        print(f"\rsweep {sweep}/{settings.max_sweeps}  exploitability in the sample game {figure:.6f} bb", end="",
              file=sys.stderr, flush=True)

    sol = io.write_fourmax_combos(game, settings, args.combo_table, out, png_dir=args.png, warm_path=args.warm,
                                  progress=progress)
    print(file=sys.stderr)
    _print_fourmax(game, out, sol.shares, sol.measured.set_reach)
    for name, ev in (("the sample game", sol.solving), ("an independent sample", sol.measured)):
        print(f"  exploitability in {name} ({settings.deals} deals): {ev.exploitability_bb:.5f} bb "
              f"({', '.join(f'{s} {v:.5f}' for s, v in ev.exploitability_per_seat.items())})")
    return 0


def _headsup(args: argparse.Namespace, game: PushFoldGame, io) -> int:
    from pokerlab.equity import load_equity_table
    from pokerlab.pushfold.headsup import THRESHOLD_DEPTHS_BB, depth_thresholds, solve_headsup

    classes = [cards.parse_class(c) for c in args.thresholds.split(",") if c.strip()]
    table = load_equity_table(args.table)
    if args.out:
        sol = io.write_headsup(game, args.table, args.out, png_prefix=args.png, tolerance_bb=args.tolerance)
    else:
        sol = solve_headsup(game, table.equity, tolerance_bb=args.tolerance)
    print(f"heads-up {game.depth_bb:g}bb, fees {game.fees.name}, ante {game.ante_bb:g}bb: "
          f"SB shoves {100 * sol.sb_shove_share:.4f}% of deals, BB calls {100 * sol.bb_call_share:.4f}%")
    print(f"  exploitability {sol.exploitability_bb:.3g} bb/hand after {sol.iterations} iterations "
          f"(SB {sol.exploitability_per_seat['SB']:.3g}, BB {sol.exploitability_per_seat['BB']:.3g})")
    print(f"  EV per hand: SB {sol.seat_ev['SB']:+.5f} bb, BB {sol.seat_ev['BB']:+.5f} bb; "
          f"folds: SB {sol.sb_fold_ev:+.4f}, BB {sol.bb_fold_ev:+.4f}")
    for seat, c, x in sol.mixed_classes():
        print(f"  mixed: {seat} {cards.CLASS_NAMES[c]} {100 * x:.2f}%")
    if classes:
        thr = depth_thresholds(table.equity, game.fees, THRESHOLD_DEPTHS_BB, game.ante_bb, args.tolerance)

        def depth(value: float) -> str:  # the grid's last depth means "at least that deep"
            return f"{value:g}bb" + ("+" if value == THRESHOLD_DEPTHS_BB[-1] else "")

        for c in classes:
            here = f"SB {100 * sol.sb_shove[c]:.1f}% / BB {100 * sol.bb_call[c]:.1f}% at {game.depth_bb:g}bb"
            print(f"  {cards.CLASS_NAMES[c]:<4} shove up to {depth(thr['sb_shove'][c])}, call up to {depth(thr['bb_call'][c])}  ({here})")
    return 0
