"""How well each estimator reads an ending's corrections from a few flops: cross-validation on one
validation run's held-out solves, which all face the same ranges.

For every way of splitting each ending's held-out flops into ``k`` fitting and the rest testing, the
corrections are read from the fitting flops by each estimator (``model``: none; ``per_class``: each
class's own mean; ``pooled``: the control variate and the fit on hand shape,
:func:`pokerlab.solved.values.pooled_class_values`) and paid on top of the model; the figure is their
gap to the testing flops' solved class values, averaged over the splits. Printed per ending and fitting
size: the mean absolute gap per class (bb, as the validation report's) and the mean squared gap (bb²).
The testing flops' own noise adds the same amount to every estimator's squared gap, so differences
between estimators in the squared column are differences in their error against the flop population.

    python benchmarks/solved_estimators.py [--run results/solved/exchange] [--spot cash/2max/100bb]
        [--fit 2 4 6]

Held-out measurements solved before the ``equity_bb`` column existed get it here: each flop's
checked-down shares against the ranges its solve had (the run's arrivals, floored as the solve floors
them), about two seconds a flop.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from pokerlab.cards import parse_cards
from pokerlab.equity_table import load_equity_table
from pokerlab.postflop.game import PostflopSpot
from pokerlab.postflop.solver import PostflopSolver
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved import values as V
from pokerlab.solved.loop import ending_ranges, measurements_by_rank, parse_reach, read_plan_endings
from pokerlab.solved.settings import base_postflop, base_settings
from pokerlab.solved.validate import arrived_endings

REPO = Path(__file__).resolve().parents[1]
ESTIMATORS = ("model", "per_class", "pooled")


def squared_gap(values: tuple[np.ndarray, np.ndarray], solved: V.ClassValues, q_oop: np.ndarray,
                q_ip: np.ndarray) -> float:
    """:func:`pokerlab.solved.values.valuation_gap` with squared instead of absolute differences (bb²)."""
    return V.role_mean(((values[0] - solved.oop) ** 2, (values[1] - solved.ip) ** 2), q_oop, q_ip)


def with_checked_down_shares(frame: pd.DataFrame, record: dict, oop_reach: np.ndarray, ip_reach: np.ndarray,
                             floor: float) -> pd.DataFrame:
    """``frame`` with its ``equity_bb`` column computed: the flop's checked-down shares of the pot (bb)
    against the ranges of the seats' own reach (floored at ``floor``), as the solve had them."""
    oop, ip = ending_ranges(oop_reach, ip_reach, floor)
    pot = float(record["pot_bb"])
    solver = PostflopSolver(PostflopSpot(pot, 0.0, tuple(parse_cards(record["board"])), oop, ip))
    shares = [pd.DataFrame({"player": p, "combo": solver.hands[p], "equity_bb": pot * solver.equity(p)})
              for p in (0, 1)]
    return frame.merge(pd.concat(shares).astype({"player": frame["player"].dtype, "combo": frame["combo"].dtype}),
                       on=["player", "combo"], how="left", validate="one_to_one")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--run", default="results/solved/exchange", help="the validation run's folder")
    parser.add_argument("--spot", default="cash/2max/100bb")
    parser.add_argument("--fit", type=int, nargs="+", default=[2, 4, 6], help="fitting flops per split")
    args = parser.parse_args()
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    postflop = base_postflop(config["solve"]["postflop"])
    base = base_settings(config, postflop, str(REPO / postflop["file"]))
    table = load_equity_table(REPO / "results" / "equity" / "equity_169.npz")
    spot = parse_spot_name(args.spot)
    spot_path = spot.name
    run = Path(args.run)
    endings = arrived_endings(spot, load_sizing(REPO / config["solve"]["sizing"]), base, table.win, table.tie,
                              run / "plan" / spot_path / "endings.tsv")
    by_rank = measurements_by_rank(sorted((run / "heldout" / spot_path).glob("e*/b*.parquet")))
    plan = read_plan_endings(run / "plan" / spot_path / "endings.tsv").set_index("rank")
    floor = float(config["solved"]["floor_weight"])
    for rank, flops in by_rank.items():
        reach = (parse_reach(plan.loc[rank, "oop_reach"]), parse_reach(plan.loc[rank, "ip_reach"]))
        by_rank[rank] = [(frame if "equity_bb" in frame.columns else
                          with_checked_down_shares(frame, record, *reach, floor), record) for frame, record in flops]
    print(f"{'ending':8} {'fit/test':>8} {'splits':>6}  " + "  ".join(f"{name:>17}" for name in ESTIMATORS))
    print(f"{'':8} {'':>8} {'':>6}  " + "  ".join(f"{'|gap| bb  gap² bb²':>17}" for _ in ESTIMATORS))
    for e in endings:
        flops = by_rank.get(e.rank, [])
        if e.model is None or len(flops) < 2:
            continue
        pot = float(flops[0][1]["pot_bb"])
        for k in (k for k in args.fit if 0 < k < len(flops)):
            figures = {name: [] for name in ESTIMATORS}
            splits = list(itertools.combinations(range(len(flops)), k))
            for fitting in splits:
                fit = [flops[i] for i in fitting]
                test = V.solved_class_values([flops[i] for i in range(len(flops)) if i not in fitting], e.contrib)
                for name in ESTIMATORS:
                    if name == "model":
                        paid = e.model
                    else:
                        fitted = V.estimated_class_values(name, V.solved_class_values(fit, e.contrib), fit, e.contrib,
                                                          e.model, e.q_oop, e.q_ip, pot, table.win, table.tie)
                        d = V.corrections(fitted, e.model, e.q_oop, e.q_ip)[:2]
                        paid = V.corrected_values(e.model, d, e.q_oop, e.q_ip)
                    figures[name].append((V.valuation_gap(paid, test, e.q_oop, e.q_ip),
                                          squared_gap(paid, test, e.q_oop, e.q_ip)))
            cells = [f"{np.mean([a for a, _ in f]):8.3f} {np.mean([s for _, s in f]):8.3f}" for f in figures.values()]
            print(f"{e.node:8} {f'{k}/{len(flops) - k}':>8} {len(splits):>6}  " + "  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
