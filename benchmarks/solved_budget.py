"""What a solved ending's class values owe to the postflop budget: accuracy, flop count, bet sizes.

    .venv/bin/python benchmarks/solved_budget.py --spot cash/2max/100bb --rank 1 \
        --arrivals results/solved/exchange/plan/cash/2max/100bb/endings.tsv \
        --boards results/solved/i0/plan/cash/2max/100bb/boards.tsv --flops 6 --out results/budget

One ending (plan rank ``--rank``) with the ranges of ``--arrivals`` (a plan endings table with reach
vectors: the exchange's arrivals, or the plan of the model's solve) is solved on its first
``--flops`` boards of ``--boards`` three ways, with the ``solved`` settings of ``config/config.yaml``
otherwise:

- **base**: ``accuracy_pct_pot`` as configured, the configured bet tree;
- **accurate**: half that exploitability target (and four times ``max_iterations``);
- **two sizes**: the base accuracy, a second bet size per street (``--second-sizes``, % of the pot).

Each solve is written to ``--out`` as the solved-endings jobs write theirs (Parquet with its record)
and skipped when present, so an interrupted run resumes. Then it prints, as mean absolute class-value
differences (bb, weighted by the arriving ranges, the valuation gap's measure):

- (a) base against accurate, all flops;
- (b) each half of the flops against all of them (accurate), and what the flop-to-flop spread
  predicts for half the flops (:func:`pokerlab.solved.values.flop_spread`);
- (c) base against two sizes;

against the effect being measured: the model's gap to the accurate solved values, the amount the
solved endings move the class values. CPU seconds per variant are summed from the solves' records.
"""

from __future__ import annotations

import argparse
import copy
import math
from pathlib import Path

import numpy as np
import yaml

from pokerlab.equity_table import load_equity_table
from pokerlab.fit.solves import read_measurement
from pokerlab.preflop.solve import SolveSettings
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved import values as V
from pokerlab.solved.loop import solve_ending_job
from pokerlab.solved.settings import POT_TYPES, SolvedSettings
from pokerlab.solved.validate import arrived_endings

REPO = Path(__file__).resolve().parents[1]
STREETS = ("flop", "turn", "river")


def variant_settings(section: dict, accuracy_factor: float, second_sizes: list[float] | None) -> SolvedSettings:
    raw = copy.deepcopy(section)
    raw["accuracy_pct_pot"] = section["accuracy_pct_pot"] * accuracy_factor
    raw["max_iterations"] = int(section["max_iterations"] / accuracy_factor ** 2)  # room to reach the target
    if second_sizes is not None:
        for pot in POT_TYPES:
            for street, size in zip(STREETS, second_sizes):
                actions = raw["bet_trees"][pot].setdefault(street, {})
                if actions.get("bets"):  # a street without bets (all-in only) stays so
                    actions["bets"] = sorted(set(actions["bets"]) | {size})
    return SolvedSettings.from_config(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spot", required=True)
    parser.add_argument("--rank", type=int, required=True)
    parser.add_argument("--arrivals", required=True)
    parser.add_argument("--boards", required=True)
    parser.add_argument("--flops", type=int, default=6)
    parser.add_argument("--second-sizes", type=float, nargs=3, default=[75.0, 125.0, 150.0],
                        metavar=("FLOP", "TURN", "RIVER"))
    parser.add_argument("--out", required=True)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--report-only", action="store_true",
                        help="solve nothing: print what the solves already in --out give (an unfinished variant is left out)")
    args = parser.parse_args()
    if args.flops < 2:
        parser.error("--flops: at least 2 (the flop comparison halves them)")

    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    spot = parse_spot_name(args.spot)
    variants = {"base": variant_settings(config["solved"], 1.0, None),
                "accurate": variant_settings(config["solved"], 0.5, None),
                "two sizes": variant_settings(config["solved"], 1.0, args.second_sizes)}
    out = Path(args.out)
    measured: dict[str, list] = {}
    for name, settings in variants.items():
        paths = [out / name.replace(" ", "_") / f"e{args.rank}" / f"b{b}.parquet" for b in range(args.flops)]
        if args.report_only and not all(p.exists() for p in paths):
            continue
        for b, path in enumerate(paths):
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                solve_ending_job(args.arrivals, args.boards, f"{spot.name}/e{args.rank}/b{b}", settings, path,
                                 threads=args.threads)
        measured[name] = [read_measurement(path) for path in paths]
    if "accurate" not in measured:
        raise SystemExit("the accurate variant is not finished: it is every comparison's reference")

    table = load_equity_table(REPO / "results" / "equity" / "equity_169.npz")
    base_settings = SolveSettings.from_config({**config["solve"], "checkpoints": [1]},
                                              REPO / config["solve"]["postflop"]["file"])
    (e,) = [a for a in arrived_endings(spot, load_sizing(REPO / config["solve"]["sizing"]), base_settings,
                                       table.win, table.tie, args.arrivals) if a.rank == args.rank]
    if e.model is None:
        raise SystemExit(f"{args.arrivals}: the chart does not reach ending {args.rank} ({e.node})")

    def values(measurements):
        v = V.solved_class_values(measurements, e.contrib)
        return v, (v.oop, v.ip)

    def gap(a, b):
        return V.valuation_gap(a[1], b[0], e.q_oop, e.q_ip)

    full = {name: values(m) for name, m in measured.items()}
    variants = {name: settings for name, settings in variants.items() if name in measured}
    accurate = measured["accurate"]
    half = args.flops // 2
    halves = [values(accurate[:half]), values(accurate[half:])]
    spread = V.role_mean(V.flop_spread(accurate, e.contrib), e.q_oop, e.q_ip)
    weights = np.array([r["board_weight"] for _, r in accurate])
    n_half = V.effective_flops(weights[:half])
    n_all = V.effective_flops(weights)
    # a half's mean against the whole's: the whole contains the half, so the difference's variance is
    # spread^2 (1/n_half - 1/n_all)
    predicted = math.sqrt(2 / math.pi * max(1 / n_half - 1 / n_all, 0.0)) * spread
    effect = V.valuation_gap(e.model, full["accurate"][0], e.q_oop, e.q_ip)
    cpu = {name: sum(r["cpu_seconds"] for _, r in m) for name, m in measured.items()}
    iterations = {name: [r["iterations"] for _, r in m] for name, m in measured.items()}
    reached = {name: [round(r["exploitability_pct_pot"], 2) for _, r in m] for name, m in measured.items()}
    print(f"{spot.name} ending {args.rank} ({e.node}), reach {e.reach:.3f}, {args.flops} flops: "
          + ", ".join(r["board"] for _, r in accurate))
    for name, settings in variants.items():
        print(f"- {name}: to {settings.accuracy_pct_pot:g}% of the pot (at most {settings.max_iterations} "
              f"iterations): iterations {iterations[name]}, reached {reached[name]}% of the pot, {cpu[name]:.0f} CPU-s")
    print("\n| what changes | mean absolute class-value change (bb) | against the effect |")
    print("|---|---|---|")
    rows = [(f"(b) flops: {half} vs {args.flops} (first half)", gap(halves[0], full["accurate"])),
            (f"(b) flops: {args.flops - half} vs {args.flops} (second half)", gap(halves[1], full["accurate"])),
            ("(b) flops, predicted by the spread", predicted)]
    if "base" in full:
        rows.insert(0, ("(a) accuracy: base vs accurate", gap(full["base"], full["accurate"])))
    if "base" in full and "two sizes" in full:
        rows.append(("(c) bet sizes: one vs two", gap(full["base"], full["two sizes"])))
    for label, value in rows:
        print(f"| {label} | {value:.3f} | {value / effect:.2f} |")
    print(f"| effect: model vs solved (accurate, {args.flops} flops) | {effect:.3f} | 1 |")
    print(f"\nflop-to-flop spread of class values: {spread:.3f} bb")


if __name__ == "__main__":
    main()
