"""4-max push/fold with card removal against the class law: shares, per-class changes, noise, checks.

    NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/pushfold_fourmax_combos.py \\
        [--depths 10 15 20] [--deals 3000000] [--max-sweeps 120] [--fees none] [--ante 0] \\
        [--class-results DIR]   # class-mode JSONs {depth}bb.json (solve_fourmax), for check (a)
        [--save DIR]            # keep each profile as DIR/{depth}bb_{solve}.npy
    .venv/bin/python benchmarks/pushfold_fourmax_combos.py --compare DIR --class-results DIR2 [--depths ...]
        # no solving: the saved joint profiles beside the class solver's, set by set
    NUMBA_NUM_THREADS=1 .venv/bin/python benchmarks/pushfold_fourmax_combos.py --headsup-only --seed N [...]
        # check (b) alone, e.g. on another seed

Per depth, with the same estimator (a sample game of ``--deals`` deals, the damped best response):

* ``joint`` (card removal) solved on two seeds, ``independent`` (the class law) on one;
* per information set: each seat's share going in under both laws, the change, and the largest
  and the mean (combo weighted) change of a class's frequency, beside the same figures between
  the two joint seeds (the Monte Carlo noise);
* each solve's exploitability in its sample game and on an independent sample (the noise floor),
  its time, and the process's peak memory;
* check (a): the independent law's profile beside the class solver's (``--class-results``), and
  the class solver's profile measured in the independent law's sample game;
* check (b): CO and BTN always fold; the SB and BB solved in the joint sample game beside the
  exact heads-up card-removal equilibrium (``headsup_combos``) and the heads-up class game;
* what valuing two-seat showdowns by the combo table (boards of 48 cards) rather than on the
  deal's board (44 cards, folded hands removed) changes: the joint profile's exploitability in
  the second sample game.
"""

from __future__ import annotations

import argparse
import json
import resource
import time
from pathlib import Path

import numpy as np

from pokerlab import cards
from pokerlab.equity import load_equity_table
from pokerlab.equity_combos import load_combo_table
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.fourmax import INFOSET_INDEX, INFOSETS, describe
from pokerlab.pushfold.fourmax_combos import ComboSettings, SampleGame, deal_sample, solve_fourmax_combos
from pokerlab.pushfold.headsup import solve_headsup
from pokerlab.pushfold.headsup_combos import ComboDeal, solve_headsup_combos
from pokerlab.pushfold.io import load_fourmax_strategy


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def class_changes(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Largest and combo-weighted mean |a - b| over the 169 classes, percentage points."""
    d = np.abs(a - b)
    return 100 * float(d.max()), 100 * float(d @ cards.CLASS_PRIOR)


def timed_solve(game, equity, settings, law, **kw):
    start = time.perf_counter()
    sol = solve_fourmax_combos(game, equity, settings, law=law, **kw)
    return sol, time.perf_counter() - start


def headsup_reduction(game: PushFoldGame, combo_eq: np.ndarray, class_eq: np.ndarray, settings: ComboSettings) -> None:
    """Check (b): CO and BTN always fold; the SB and BB solved in the joint sample game beside the
    exact heads-up card-removal equilibrium and the heads-up class game."""
    frozen = np.zeros(len(INFOSETS), bool)
    frozen[[INFOSET_INDEX[""], INFOSET_INDEX["F"]]] = True
    warm = np.full((len(INFOSETS), cards.N_CLASSES), 0.5)
    warm[frozen] = 0.0
    hu_sol, seconds = timed_solve(game, combo_eq, settings, "joint", warm=warm, frozen=frozen)
    hu_game = PushFoldGame(2, game.depth_bb, game.fees, game.ante_bb)
    exact = solve_headsup_combos(hu_game, ComboDeal.full_deck(combo_eq))
    classes = solve_headsup(hu_game, class_eq, tolerance_bb=1e-6)
    print(f"\n(b) {game.depth_bb:g}bb, seed {settings.seed}: CO and BTN fold ({seconds:.0f} s; SB/BB exploitability on the "
          f"independent sample {hu_sol.measured.exploitability_per_seat['SB']:.5f} / "
          f"{hu_sol.measured.exploitability_per_seat['BB']:.5f} bb)")
    for label, k, exact_class, exact_share, class_share in (
            ("SB shove", INFOSET_INDEX["FF"], exact.sb_shove_class, exact.sb_shove_share, classes.sb_shove_share),
            ("BB call", INFOSET_INDEX["FFA"], exact.bb_call_class, exact.bb_call_share, classes.bb_call_share)):
        mx, mean = class_changes(hu_sol.strategy[k], exact_class)
        print(f"    {label}: sample game {100 * hu_sol.shares[k]:.2f}%, headsup_combos {100 * exact_share:.2f}%, "
              f"class game {100 * class_share:.2f}%; per class vs headsup_combos: max {mx:.1f} pp, mean {mean:.2f} pp",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=float, nargs="+", default=[10, 15, 20])
    parser.add_argument("--deals", type=int, default=3_000_000)
    parser.add_argument("--max-sweeps", type=int, default=120)
    parser.add_argument("--seed", type=int, default=20260801)
    parser.add_argument("--fees", default="none")
    parser.add_argument("--ante", type=float, default=0.0)
    parser.add_argument("--table", default="results/equity/equity_169.npz")
    parser.add_argument("--combo-table", default="results/equity/equity_1326.npz")
    parser.add_argument("--class-results", default=None, help="folder of class-mode 4-max JSONs {depth}bb.json")
    parser.add_argument("--save", default=None, help="folder to write each profile (.npy) to")
    parser.add_argument("--compare", default=None, help="folder of saved profiles: print them beside --class-results")
    parser.add_argument("--headsup-only", action="store_true", help="run only check (b), the heads-up reduction")
    args = parser.parse_args()
    if args.compare:
        return compare_saved(Path(args.compare), Path(args.class_results), args.depths)
    class_eq = load_equity_table(args.table).equity
    combo_eq = load_combo_table(args.combo_table).equity
    if args.headsup_only:
        for depth in args.depths:
            headsup_reduction(PushFoldGame(4, depth, args.fees, args.ante), combo_eq, class_eq,
                              ComboSettings(deals=args.deals, max_sweeps=args.max_sweeps, seed=args.seed))
        return None
    print(f"deals {args.deals}, max sweeps {args.max_sweeps}, fees {args.fees}, ante {args.ante}, seed {args.seed}")
    for depth in args.depths:
        game = PushFoldGame(4, depth, args.fees, args.ante)
        settings = ComboSettings(deals=args.deals, max_sweeps=args.max_sweeps, seed=args.seed)
        other_seed = ComboSettings(deals=args.deals, max_sweeps=args.max_sweeps, seed=args.seed + 1)
        runs = {"joint": timed_solve(game, combo_eq, settings, "joint"),
                "joint, 2nd seed": timed_solve(game, combo_eq, other_seed, "joint"),
                "independent": timed_solve(game, class_eq, settings, "independent")}
        print(f"\n=== {depth:g}bb ===")
        print(f"{'solve':<16} {'sweeps':>6} {'seconds':>8} {'expl. in sample':>16} {'expl. independent sample':>25}  per seat (independent sample)")
        for name, (sol, seconds) in runs.items():
            print(f"{name:<16} {sol.history[-1][0]:>6} {seconds:>8.1f} {sol.solving.exploitability_bb:>16.5f} "
                  f"{sol.measured.exploitability_bb:>25.5f}  "
                  + ", ".join(f"{k} {v:.5f}" for k, v in sol.measured.exploitability_per_seat.items()))
        print(f"peak memory so far: {peak_mb():.0f} MB")
        joint, joint2, indep = (runs[k][0].strategy for k in ("joint", "joint, 2nd seed", "independent"))
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            for name, (sol, _) in runs.items():
                np.save(Path(args.save) / f"{depth:g}bb_{name.replace(', ', '_').replace(' ', '_')}.npy", sol.strategy)
        print("\nshares going in (% of the seat's 1,326 combos); per-class change, pp (largest / combo-weighted mean)")
        print(f"{'set':<4} {'':<34} {'classes':>8} {'combos':>8} {'change':>7} {'class max':>9} {'mean':>6}"
              f" | {'2nd seed':>8} {'noise max':>9} {'mean':>6}")
        for k, history in enumerate(INFOSETS):
            share = [100 * float(s[k] @ cards.CLASS_PRIOR) for s in (indep, joint, joint2)]
            change, noise = class_changes(joint[k], indep[k]), class_changes(joint[k], joint2[k])
            print(f"{history or '-':<4} {describe(history):<34} {share[0]:>8.2f} {share[1]:>8.2f} {share[1] - share[0]:>+7.2f} "
                  f"{change[0]:>9.1f} {change[1]:>6.2f} | {share[2]:>8.2f} {noise[0]:>9.1f} {noise[1]:>6.2f}")
        sol = runs["joint"][0]
        board_game = SampleGame(game, deal_sample(args.deals, settings.measuring_seed, combo_eq), pair_table=False)
        on_board = board_game.evaluate(sol.strategy)
        print(f"\njoint profile, independent sample, two-seat showdowns on the deal's board (folded cards off it): "
              f"exploitability {on_board.exploitability_bb:.5f} bb (with the table: {sol.measured.exploitability_bb:.5f}); "
              f"seat EVs " + ", ".join(f"{k} {v:+.4f}/{sol.measured.seat_ev[k]:+.4f}" for k, v in on_board.seat_ev.items()))
        del board_game
        if args.class_results:
            path = Path(args.class_results) / f"{depth:g}bb.json"
            class_mode = load_fourmax_strategy(path)
            doc = json.loads(path.read_text())
            indep_game = SampleGame(game, deal_sample(args.deals, settings.measuring_seed, class_eq, "independent"))
            cm = indep_game.evaluate(class_mode)
            print(f"\n(a) class solver ({path}, its own exploitability {doc['exploitability'][-1]['exploitability_bb']:.5f} bb) "
                  f"in the independent law's sample game: exploitability {cm.exploitability_bb:.5f} bb "
                  f"(the independent-law profile: {runs['independent'][0].measured.exploitability_bb:.5f})")
            worst = max(range(len(INFOSETS)), key=lambda k: abs(float((indep[k] - class_mode[k]) @ cards.CLASS_PRIOR)))
            for k in sorted({INFOSET_INDEX[""], INFOSET_INDEX["F"], INFOSET_INDEX["FF"], INFOSET_INDEX["FFA"], worst}):
                a, b = 100 * float(class_mode[k] @ cards.CLASS_PRIOR), 100 * float(indep[k] @ cards.CLASS_PRIOR)
                mx, mean = class_changes(indep[k], class_mode[k])
                print(f"    {INFOSETS[k] or '-':<4} {describe(INFOSETS[k]):<34} class solver {a:6.2f}  independent law {b:6.2f}"
                      f"  class max {mx:5.1f}  mean {mean:5.2f}")
            del indep_game
        headsup_reduction(game, combo_eq, class_eq, settings)
        print(f"peak memory: {peak_mb():.0f} MB", flush=True)


def compare_saved(saved: Path, class_results: Path, depths: list[float]) -> None:
    """Per set: the class solver's share, the two joint seeds' shares, and the per-class change
    between the class solver and each seed (largest / combo-weighted mean, pp)."""
    for depth in depths:
        class_mode = load_fourmax_strategy(class_results / f"{depth:g}bb.json")
        seeds = [np.load(saved / f"{depth:g}bb_{name}.npy") for name in ("joint", "joint_2nd_seed")]
        print(f"\n=== {depth:g}bb: class solver against card removal (two seeds) ===")
        print(f"{'set':<4} {'':<34} {'class solver':>12} {'combos':>7} {'2nd seed':>8} {'class max':>9} {'mean':>6} {'2nd: max':>8} {'mean':>6}")
        for k, history in enumerate(INFOSETS):
            share = [100 * float(s[k] @ cards.CLASS_PRIOR) for s in (class_mode, *seeds)]
            first, second = (class_changes(s[k], class_mode[k]) for s in seeds)
            print(f"{history or '-':<4} {describe(history):<34} {share[0]:>12.2f} {share[1]:>7.2f} {share[2]:>8.2f} "
                  f"{first[0]:>9.1f} {first[1]:>6.2f} {second[0]:>8.1f} {second[1]:>6.2f}")


if __name__ == "__main__":
    main()
