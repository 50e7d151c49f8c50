"""The fit's report folder: figures, the class-realisation table and a short summary.

Files (``results/fit/report/``): ``commitment.png`` (measured share of the stack put in vs
spr with the shipped and fitted curves), ``edge.png`` (measured edge vs spr by aggressor side
with both edge curves), ``residuals.png`` (per-measurement error per hand of the shipped and
fitted constants vs spr), ``class_realisation.png`` (13x13 heatmaps per role) with
``class_realisation.tsv``, and ``summary.md`` / ``summary.html``.
"""

from __future__ import annotations

import html
import math
import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from pokerlab.cards import GRID_RANKS
from pokerlab.fit import measure
from pokerlab.io import atomic_path


def _save(fig, path: Path) -> None:
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", dpi=110, metadata={"Software": None})


def _finish(fig, ax, path: Path, title: str, ylabel: str) -> None:
    """Label a spr scatter figure, save it and close it."""
    import matplotlib.pyplot as plt

    ax.set_xlabel("spr at the flop (stack behind / pot)")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=7)
    _save(fig, path)
    plt.close(fig)


def _curves(ax, spr_max: float, thetas: dict[str, np.ndarray], which: str) -> None:
    s = np.linspace(0.0, max(spr_max, 1.0) * 1.05, 200)
    for (label, theta), style in zip(thetas.items(), ("--", "-", ":")):
        y = measure._commitment(theta[0], s) if which == "commitment" else measure._edge(*theta[1:], s)
        ax.plot(s, y, style, color="black", label=f"{label} ({', '.join(f'{v:.4g}' for v in theta)})")


def write_report(report_dir: str | os.PathLike, data: measure.Measurements, fitting: measure.Measurements,
                 heldout: measure.Measurements, result: dict[str, Any], split: pd.DataFrame, classes: pd.DataFrame,
                 shipped: np.ndarray, staged: np.ndarray, joint: np.ndarray) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out = Path(report_dir)
    out.mkdir(parents=True, exist_ok=True)
    per = fitting.per_measurement
    thetas = {"shipped": shipped, "staged fit": staged, "joint fit": joint}
    size = 20 + 400 * per["weight"] / per["weight"].max()

    fig, ax = plt.subplots(figsize=(7, 4.5))
    deep = per["behind"] > 0
    ax.scatter(per["spr"][deep], per["commitment"][deep], s=size[deep], alpha=0.5, label="measured (ending x board)")
    _curves(ax, float(per["spr"].max()), thetas, "commitment")
    _finish(fig, ax, out / "commitment.png", "Commitment: measured from the played pot (slope of value on equity)",
            "share of the stack behind put in, each")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for side, label in ((1, "aggressor in position"), (0, "aggressor out of position"), (-1, "limped pot")):
        sel = per["aggressor_ip"] == side
        if sel.any():
            ax.scatter(per["spr"][sel], per["edge"][sel], s=size[sel], alpha=0.5, label=label)
    _curves(ax, float(per["spr"].max()), thetas, "edge")
    ax.axhline(0.0, color="grey", lw=0.5)
    _finish(fig, ax, out / "edge.png", "Positional edge: half the gap between the seats' values net of equity",
            "in-position edge (share of the played pot)")

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for part, marker in ((fitting, "o"), (heldout, "x")):
        if not len(part.per_measurement):
            continue
        c = part.combos
        for label, theta in (("shipped", shipped), ("staged fit", staged)):
            err = np.abs(measure.predict(theta, part.per_measurement, c) - c["ev"].to_numpy()) * c["norm"].to_numpy()
            per_m = np.bincount(c["m"].to_numpy(), weights=err, minlength=len(part.per_measurement)) / 2.0
            kind = "held-out" if part is heldout else "fitting"
            ax.scatter(part.per_measurement["spr"], per_m, marker=marker, alpha=0.6, label=f"{label}, {kind} boards")
    _finish(fig, ax, out / "residuals.png", "Error per hand by measurement", "mean |model - solved| per hand, bb")

    fig, axes = plt.subplots(1, 2, figsize=(12, 5.5))
    grids = [measure.class_grid(classes, role) for role in ("ip", "oop")]
    limit = max(0.05, float(np.nanmax(np.abs(np.concatenate([g.ravel() for g in grids]))))) if classes.size else 0.05
    for ax, role, grid in zip(axes, ("in position", "out of position"), grids):
        im = ax.imshow(grid, cmap="coolwarm_r", vmin=-limit, vmax=limit)
        ax.set_xticks(range(13), list(GRID_RANKS))
        ax.set_yticks(range(13), list(GRID_RANKS))
        ax.set_title(f"Realisation above equity, {role}")
        for i in range(13):
            for j in range(13):
                if np.isfinite(grid[i, j]):
                    ax.text(j, i, f"{100 * grid[i, j]:.0f}", ha="center", va="center", fontsize=6)
    fig.colorbar(im, ax=axes, shrink=0.8, label="share of the played pot (x100 in cells)")
    _save(fig, out / "class_realisation.png")
    plt.close(fig)

    with atomic_path(out / "class_realisation.tsv") as tmp:
        classes.to_csv(tmp, sep="\t", index=False, lineterminator="\n", float_format="%.6g")
    md = _summary_markdown(result, split)
    with atomic_path(out / "summary.md") as tmp:
        tmp.write_text(md)
    with atomic_path(out / "summary.html") as tmp:
        tmp.write_text("<!doctype html><meta charset='utf-8'><title>pokerlab postflop fit</title>"
                       "<style>body{font-family:sans-serif;max-width:60em;margin:2em auto}"
                       "pre{white-space:pre-wrap}</style><pre>" + html.escape(md) + "</pre>"
                       + "".join(f"<p><img src='{name}' alt='{name}'></p>" for name in
                                 ("commitment.png", "edge.png", "residuals.png", "class_realisation.png")))


def _table(header: list[str], rows: list[list[Any]]) -> str:
    def fmt(x):  # an undefined figure (a standard error from one measurement) prints as a dash
        if isinstance(x, float):
            return f"{x:.4g}" if math.isfinite(x) else "-"
        return "" if x is None else str(x)

    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(fmt(x) for x in row) + " |" for row in rows]
    return "\n".join(lines)


def _summary_markdown(result: dict[str, Any], split: pd.DataFrame) -> str:
    names = measure.NAMES
    rows = [[n, result["shipped_before"][n], result["staged"]["value"][n], result["staged"]["se"][n],
             result["joint"]["value"][n], result["joint"]["se"][n]] for n in names]
    errors = [[f"{part}, {kind}", v["shipped"], v["staged"], v["joint"]]
              for kind, key in (("mean abs", "error_per_hand_bb"), ("rms", "rms_error_per_hand_bb"))
              for part, v in result[key].items()]
    spots = [[s["spot"], s["flop_mass"], s["three_way_share"], s["measured_share"]] for s in result.get("spots", [])]
    agg = [[r["spr_band"], r["aggressor"], r["edge"], r["se"], r["measurements"]] for r in split.to_dict(orient="records")]
    c = result["counts"]
    parts = [
        "# Postflop model fit",
        f"{c['spots']} spots, {c['endings']} endings, {c['fitting']} fitting and {c['heldout']} held-out "
        f"board solves ({c['hands']} hand values), backend {result['backend']}, target accuracy "
        f"{result['accuracy_pct_pot']}% of the pot, {result['bootstrap']} bootstrap resamples.",
        "## Constants (standard errors from the bootstrap over boards)",
        _table(["constant", "shipped", "staged", "se", "joint", "se"], rows),
        "## Error per hand, bb (weighted mean |model - solved| and its root-mean-square, the joint fit's criterion)",
        _table(["boards", "shipped", "staged", "joint"], errors),
        "## Flop-ending mass per spot (three-way endings are not measured)",
        _table(["spot", "flop mass", "three-way share", "measured share"], spots),
        "## Measured edge by aggressor side",
        _table(["spr band", "aggressor", "edge", "se", "measurements"], agg),
    ]
    term = result.get("aggressor_term")
    if term:
        parts += [
            f"## The aggressor term (not shipped): flat edges {term['in_position']:.4g} in position, "
            f"{term['out_of_position']:.4g} out of position, in raised pots, beside the staged constants",
            _table(["boards", "staged", "staged with the term"],
                   [[part, v["staged"], v["staged_with_term"]] for part, v in term["error_per_hand_bb"].items()]),
        ]
    return "\n\n".join(parts) + "\n"
