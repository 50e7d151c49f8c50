"""The Kuhn convergence experiment: run it, print it, and write its artefacts.

Artefacts (all byte-reproducible): for vanilla CFR, a CSV with one row per checkpoint and a
JSON with the final average and current profiles and their figures; the same CSV for CFR+;
a log-log PNG of exploitability against iterations; and a ``sha256sum -c`` compatible
SHA256SUMS listing them.
"""

from __future__ import annotations

import os
from pathlib import Path

from pokerlab.games import kuhn
from pokerlab.io import atomic_path, write_bytes_atomic, write_json_atomic, write_sha256sums

CSV_COLUMNS = ("iteration", *(f"avg_{n}" for n in kuhn.FIGURE_NAMES), *(f"cur_{n}" for n in kuhn.FIGURE_NAMES))
PLUS_UPDATES = "alternating"  # CFR+'s usual schedule (Tammelin et al.)
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
            "figures": {n: last[f"avg_{n}"] for n in kuhn.FIGURE_NAMES},
        },
        "current": {
            "strategy": kuhn.strategy_table(solver.current_profile()),
            "figures": {n: last[f"cur_{n}"] for n in kuhn.FIGURE_NAMES},
        },
    }


def plot_exploitability(
    rows: list[dict[str, float]], plus_rows: list[dict[str, float]], path: str | os.PathLike
) -> None:
    """Log-log PNG of exploitability against iterations (written atomically): vanilla CFR's
    average and current profiles, and CFR+'s average for comparison."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 4.2), dpi=120)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    for series, column, label, style in (
        (rows, "avg_exploitability", "CFR, average strategy", "o-"),
        (rows, "cur_exploitability", "CFR, current strategy", "s--"),
        (plus_rows, "avg_exploitability", f"CFR+ ({PLUS_UPDATES} updates), average", "^-"),
    ):
        ax.loglog([r["iteration"] for r in series], [r[column] for r in series], style, markersize=3, label=label)
    ax.set_xlabel("iterations")
    ax.set_ylabel("exploitability = NashConv / 2 (antes per hand)")
    ax.set_title("Kuhn poker: full-tree CFR (simultaneous updates) vs CFR+")
    ax.grid(True, which="both", linewidth=0.3)
    ax.legend()
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": None})


def write_kuhn_experiment(
    *,
    csv: str | os.PathLike,
    cfr_plus_csv: str | os.PathLike,
    strategies: str | os.PathLike,
    plot: str | os.PathLike,
    sums: str | os.PathLike,
    iterations: int,
    checkpoints: list[int] | tuple[int, ...] = kuhn.DEFAULT_CHECKPOINTS,
) -> list[dict[str, float]]:
    """Run the experiment and write its artefacts; return vanilla CFR's checkpoint rows.

    The experiment: vanilla CFR with simultaneous updates (``csv``, ``strategies``), and CFR+
    with alternating updates over the same iterations for comparison (``cfr_plus_csv``); both
    in ``plot``. ``sums`` lists the other files by paths relative to its own folder.
    """
    solver, rows = kuhn.solve(iterations, checkpoints=checkpoints)
    _, plus_rows = kuhn.solve(iterations, variant="cfr+", updates=PLUS_UPDATES, checkpoints=checkpoints)
    write_bytes_atomic(csv, convergence_csv(rows).encode("ascii"))
    write_bytes_atomic(cfr_plus_csv, convergence_csv(plus_rows).encode("ascii"))
    write_json_atomic(strategies, final_strategies(solver, rows))
    plot_exploitability(rows, plus_rows, plot)
    write_sha256sums(sums, [csv, cfr_plus_csv, strategies, plot], Path(sums).parent)
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
