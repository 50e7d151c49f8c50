"""The heads-up class charts in the combo game (card removal), the combo mode's cost, and how far
the two modes' charts are apart.

    nice .venv/bin/python benchmarks/card_removal_preflop.py                  # heads-up cash 10, 20, 50, 100bb
    nice .venv/bin/python benchmarks/card_removal_preflop.py --spots cash/2max/20bb --tight 20000
    nice .venv/bin/python benchmarks/card_removal_preflop.py --spots cash/3max/20bb cash/3max/100bb --timed 10

For each spot, with the settings of ``config/config.yaml`` (sizing, postflop constants,
checkpoints, bar):

1. the class chart as the pipeline ships it (``solve_spot``, ``solve.hands: classes``), its
   exploitability in the class game (the result's figure) and in the combo game (each combo
   plays its class's frequencies; the exact best response over the 1,326 combos with blocking,
   :func:`pokerlab.preflop.combos.chart_in_combo_game`), in bb/hand and in bars;
2. the CPU milliseconds per iteration of both modes (after ``--timed`` warm-up iterations, the
   mean over ``--timed`` more) and, without ``--no-combo-solve``, the combo chart
   (``solve.hands: combos``): its exploitability in the combo game, its iterations and the CPU
   seconds of both solves (read-out included);
3. the change in action frequencies between the two charts
   (:func:`pokerlab.preflop.combos.frequency_changes`, nodes reached by at least 1% of deals).

``--course 10 100 400`` only times the combo mode from a cold start over each stretch of
iterations (its reaches thin out as CFR+ zeroes actions, and the three-seat leaves skip the
hands an opponent no longer plays). ``--tight N`` also solves both modes with one checkpoint at N iterations (far below the bar),
so that the changes are those of the games and not of where CFR+ stopped, and evaluates the
combo chart (by class) in the class game: how much of the change the class game itself prices.
Needs ``results/equity/equity_169.npz`` and ``results/equity/equity_1326.npz``.
"""

from __future__ import annotations

import argparse
import dataclasses
import time

import yaml

from pokerlab.equity_combos import load_combo_table
from pokerlab.equity_table import load_equity_table
from pokerlab.preflop.combos import (ComboDeck, chart_in_combo_game, class_strategy_from_result, combo_solver,
                                     frequency_changes)
from pokerlab.preflop.payoffs import chip_ev_payoffs
from pokerlab.preflop.solve import SolveSettings, solve_spot
from pokerlab.preflop.solver import Solver
from pokerlab.preflop.spot import load_sizing, parse_spot_name, spot_name
from pokerlab.preflop.tree import build_tree


def _seconds_per_iteration(solver, warm: int, timed: int) -> float:
    solver.iterate(warm)
    start = time.process_time()
    solver.iterate(timed)
    return (time.process_time() - start) / timed


def _in_class_game(tree, payoffs, table, result) -> float:
    """Exploitability (bb/hand, max over seats) of a result's chart, by class, in the class game:
    for a combo chart, how much the class game itself prices the change."""
    gains, _ = Solver(tree, payoffs, table.win, table.tie).exploitability_of(class_strategy_from_result(tree, result))
    return float(gains.max())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spots", nargs="+", default=[f"cash/2max/{d}bb" for d in (10, 20, 50, 100)])
    parser.add_argument("--no-combo-solve", action="store_true", help="only evaluate the class chart and time both modes")
    parser.add_argument("--config", default="config/config.yaml")
    parser.add_argument("--timed", type=int, default=200, help="iterations timed per mode (after as many warm-up ones)")
    parser.add_argument("--tight", type=int, default=0, help="also compare both modes solved to this many iterations")
    parser.add_argument("--course", type=int, nargs="+", default=[],
                        help="only time the combo mode from a cold start, per stretch of iterations up to each of these")
    args = parser.parse_args()

    config = yaml.safe_load(open(args.config))
    section = config["solve"]
    settings = SolveSettings.from_config(section, section["postflop"].get("file"))
    sizing = load_sizing(section["sizing"])
    table = load_equity_table("results/equity/equity_169.npz")
    combo_table = load_combo_table("results/equity/equity_1326.npz")
    deck = ComboDeck.full(combo_table)
    if args.course:
        for name in args.spots:
            tree = build_tree(parse_spot_name(name), sizing)
            solver = combo_solver(tree, chip_ev_payoffs(tree, settings.postflop, aggressor=settings.aggressor), deck)
            for target in args.course:
                first, start = solver.iteration + 1, time.process_time()
                solver.iterate(target - solver.iteration)
                ms = 1e3 * (time.process_time() - start) / (target - first + 1)
                print(f"{name} combo mode, iterations {first}-{target}: {ms:.0f} ms/iteration", flush=True)
        return
    print(f"checkpoints {list(settings.checkpoints)}; exploitability in bb/hand (max over seats), and in bars")
    print("| spot | class chart: class game | class chart: combo game | (bars) | combo chart: combo game "
          "| combo chart: class game | iterations "
          "class / combo | CPU s to the stop class / combo | ms/iteration class / combo | ratio "
          "| share change max / mean (pp) | class change max / mean (pp) |")
    rows = []
    for name in args.spots:
        spot = parse_spot_name(name)
        bar = settings.bar_bb(spot.seats)
        tree = build_tree(spot, sizing)
        payoffs = chip_ev_payoffs(tree, settings.postflop, aggressor=settings.aggressor)
        results = {}
        for hands in ("classes",) if args.no_combo_solve else ("classes", "combos"):
            start = time.process_time()
            results[hands] = solve_spot(spot, sizing, table.win, table.tie, dataclasses.replace(settings, hands=hands),
                                        combo_table=combo_table)
            results[hands]["cpu_seconds"] = time.process_time() - start
        gains, _ = chart_in_combo_game(tree, payoffs, results["classes"], deck)
        class_ms = 1e3 * _seconds_per_iteration(Solver(tree, payoffs, table.win, table.tie), args.timed, args.timed)
        combo_ms = 1e3 * _seconds_per_iteration(combo_solver(tree, payoffs, deck), args.timed, args.timed)
        head = (f"| {name} | {results['classes']['exploitability_bb']:.5f} | {gains.max():.5f} | {gains.max() / bar:.3f} ")
        timing = f"{class_ms:.3f} / {combo_ms:.2f} | {combo_ms / class_ms:.0f}"
        if args.no_combo_solve:
            print(f"{head}| | | {results['classes']['iterations']} / | {results['classes']['cpu_seconds']:.1f} / "
                  f"| {timing} | | |", flush=True)
            continue
        change = frequency_changes(results["classes"], results["combos"])
        back = _in_class_game(tree, payoffs, table, results["combos"])
        print(f"{head}| {results['combos']['exploitability_bb']:.5f} | {back:.5f} | {results['classes']['iterations']} / "
              f"{results['combos']['iterations']} | {results['classes']['cpu_seconds']:.1f} / "
              f"{results['combos']['cpu_seconds']:.1f} | {timing} "
              f"| {change['share_max']:.2f} ({change['share_max_node']}) / {change['share_mean']:.2f} "
              f"| {change['class_max']:.1f} ({change['class_max_node']}) / {change['class_mean']:.2f} |", flush=True)
        rows.append((spot, tree, payoffs))
    if not args.tight:
        return
    print(f"\nboth modes solved to {args.tight} iterations:")
    print("| spot | class chart: class game | class chart: combo game | combo chart: combo game | combo chart: class game "
          "| CPU s class / combo | share change max / mean (pp) | class change max / mean (pp) |")
    for spot, tree, payoffs in rows:
        tight = dataclasses.replace(settings, checkpoints=(args.tight,))
        results = {}
        for hands in ("classes", "combos"):
            start = time.process_time()
            results[hands] = solve_spot(spot, sizing, table.win, table.tie, dataclasses.replace(tight, hands=hands),
                                        combo_table=combo_table)
            results[hands]["cpu_seconds"] = time.process_time() - start
        gains, _ = chart_in_combo_game(tree, payoffs, results["classes"], deck)
        back = _in_class_game(tree, payoffs, table, results["combos"])
        change = frequency_changes(results["classes"], results["combos"])
        print(f"| {spot_name(spot.format, spot.seats, spot.depth)} | {results['classes']['exploitability_bb']:.6f} | {gains.max():.6f} "
              f"| {results['combos']['exploitability_bb']:.6f} | {back:.6f} | {results['classes']['cpu_seconds']:.1f} / "
              f"{results['combos']['cpu_seconds']:.1f} "
              f"| {change['share_max']:.2f} ({change['share_max_node']}) / {change['share_mean']:.2f} "
              f"| {change['class_max']:.1f} ({change['class_max_node']}) / {change['class_mean']:.2f} |", flush=True)


if __name__ == "__main__":
    main()
