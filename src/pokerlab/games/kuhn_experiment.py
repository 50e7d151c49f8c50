"""The Kuhn convergence experiment: run it, print it, and write its artefacts.

Artefacts (all byte-reproducible): a CSV with one row per checkpoint, a JSON with the final
average and current profiles and their figures, a log-log PNG of exploitability against
iterations, and a ``sha256sum -c`` compatible SHA256SUMS listing the three.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from pokerlab.games import kuhn
from pokerlab.io import atomic_path, write_bytes_atomic, write_json_atomic, write_sha256sums

FIGURE_NAMES = kuhn.FIGURE_NAMES
CSV_COLUMNS = ("iteration", *(f"avg_{n}" for n in FIGURE_NAMES), *(f"cur_{n}" for n in FIGURE_NAMES))
CONVENTIONS = {
    "unit": "antes per hand",
    "value": "P0's expected value of the profile played against itself",
    "value_gap": "|value - (-1/18)|",
    "delta": "delta0/delta1: gain of P0/P1 switching alone to an exact information-set-consistent best response",
    "nashconv": "delta0 + delta1",
    "exploitability": "nashconv / 2",
    "average": "owner-reach-weighted average of the strategies played (CFR+: weighted also by iteration number)",
    "current": "regret matching on the regrets after the last update",
}


def convergence_csv(rows: list[dict[str, float]]) -> str:
    """CSV text of checkpoint rows; floats in shortest round-trip form."""
    lines = [",".join(CSV_COLUMNS)]
    for row in rows:
        lines.append(",".join([str(int(row["iteration"]))] + [repr(float(row[c])) for c in CSV_COLUMNS[1:]]))
    return "\n".join(lines) + "\n"


def final_strategies(solver: kuhn.KuhnSolver, rows: list[dict[str, float]]) -> dict:
    """Both final profiles (12 information sets x 2 actions each) with their figures."""
    last = rows[-1]
    return {
        "game": "kuhn",
        "variant": solver.variant,
        "updates": solver.updates,
        "iterations": solver.iteration,
        "conventions": CONVENTIONS,
        "average": {
            "strategy": kuhn.strategy_table(solver.average_profile()),
            "figures": {n: last[f"avg_{n}"] for n in FIGURE_NAMES},
        },
        "current": {
            "strategy": kuhn.strategy_table(solver.current_profile()),
            "figures": {n: last[f"cur_{n}"] for n in FIGURE_NAMES},
        },
    }


def plot_exploitability(rows: list[dict[str, float]], path: str | os.PathLike, title: str) -> None:
    """Log-log PNG of average and current exploitability against iterations (written atomically)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    iterations = np.array([r["iteration"] for r in rows], dtype=float)
    fig = Figure(figsize=(6.4, 4.2), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for prefix, label, style in (("avg_", "average strategy", "o-"), ("cur_", "current strategy", "s--")):
        ax.loglog(iterations, [r[prefix + "exploitability"] for r in rows], style, markersize=3, label=label)
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability = NashConv / 2 (antes per hand)")
    ax.set_title(title)
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": None})


def write_kuhn_experiment(
    csv_path: str | os.PathLike,
    strategies_path: str | os.PathLike,
    plot_path: str | os.PathLike,
    sums_path: str | os.PathLike,
    *,
    iterations: int,
    checkpoints: list[int] | tuple[int, ...] = kuhn.DEFAULT_CHECKPOINTS,
    variant: str = "cfr",
    updates: str = "simultaneous",
) -> list[dict[str, float]]:
    """Run the experiment and write its four artefacts; return the checkpoint rows.

    The SHA256SUMS lists the other three files by paths relative to its own folder.
    """
    solver, rows = kuhn.solve(iterations, variant=variant, updates=updates, checkpoints=checkpoints)
    write_bytes_atomic(csv_path, convergence_csv(rows).encode("ascii"))
    write_json_atomic(strategies_path, final_strategies(solver, rows))
    plot_exploitability(rows, plot_path, f"Kuhn poker, {variant.upper()} ({updates} updates)")
    write_sha256sums(sums_path, [csv_path, strategies_path, plot_path], Path(sums_path).parent)
    return rows


def report_lines(solver: kuhn.KuhnSolver, rows: list[dict[str, float]]) -> list[str]:
    """Human-readable table of the checkpoints and the final average strategy's key frequencies."""
    lines = [
        f"Kuhn poker, {solver.variant.upper()} with {solver.updates} updates, {solver.iteration:,} iterations.",
        "Units: antes per hand. delta_i: gain of player i's exact best response; "
        "NashConv = delta0 + delta1; exploitability = NashConv / 2.",
        "",
        f"{'iteration':>9}  {'avg value':>12}  {'value gap':>11}  {'delta0':>11}  {'delta1':>11}"
        f"  {'NashConv':>11}  {'exploit.':>11}  {'cur exploit.':>12}",
    ]
    for r in rows:
        lines.append(
            f"{int(r['iteration']):>9}  {r['avg_value']:>12.9f}  {r['avg_value_gap']:>11.9f}  {r['avg_delta0']:>11.9f}"
            f"  {r['avg_delta1']:>11.9f}  {r['avg_nashconv']:>11.9f}  {r['avg_exploitability']:>11.9f}"
            f"  {r['cur_exploitability']:>12.9f}"
        )
    average = solver.average_profile()
    lines += [
        "",
        "Final average strategy (probability of bet / call):",
        "  P0 opens:                   " + _bet_shares(average[0, 0]),
        "  P0 calls after check-bet:   " + _bet_shares(average[0, 1]),
        "  P1 bets after a check:      " + _bet_shares(average[1, 0]),
        "  P1 calls a bet:             " + _bet_shares(average[1, 1]),
    ]
    return lines


def _bet_shares(decision: np.ndarray) -> str:
    return "  ".join(f"{kuhn.CARD_NAMES[c]} {100.0 * decision[c, 1]:8.4f}%" for c in range(3))
