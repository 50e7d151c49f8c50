"""Plots of a sweep for ``results/report/`` (matplotlib PNGs, the same bytes on every rerun).

* :func:`plot_exploitability`: every attempted spot's exploitability against its bar
  (bb/hand, log scale), shipped and rejected marked apart;
* :func:`plot_model_share`: the share of deals priced by the postflop model, by depth, one line
  per table size, one panel per format (it should rise with depth and fall with table size);
* :func:`plot_rfi`: raise-first-in share by seat (share of deals, combo weighted) for cash
  6-max and 9-max, one line per depth.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Iterable

import pandas as pd

RFI_TABLES = ((6, "cash 6-max"), (9, "cash 9-max"))


def _pyplot():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _save(fig, out_path: str | os.PathLike) -> None:
    Path(out_path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out_path, format="png", dpi=100, metadata={"Software": None}, bbox_inches="tight")
    _pyplot().close(fig)


def plot_exploitability(summary: pd.DataFrame, out_path: str | os.PathLike) -> None:
    """Exploitability of every spot (sweep order) and its bar, bb/hand, log scale."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=(10, 4.5))
    x = range(len(summary))
    ax.step(x, summary["bar_bb"], where="mid", color="black", linewidth=1, label="bar 0.010*sqrt(n/2)")
    for status, marker, colour in (("shipped", "o", "#2a7ab0"), ("rejected", "x", "#c0392b")):
        rows = summary[summary["status"] == status]
        ax.scatter(rows.index, rows["exploitability_bb"].clip(lower=1e-7), marker=marker, color=colour, s=14,
                   label=f"{status} ({len(rows)})", zorder=3)
    ax.set_yscale("log")
    ax.set_ylabel("exploitability, bb/hand")
    formats = summary["format"].tolist()
    starts = [i for i, f in enumerate(formats) if i == 0 or formats[i - 1] != f]
    ax.set_xticks(starts, [formats[i] for i in starts])
    ax.set_xlabel("spots in sweep order (format, then table size, then depth)")
    ax.legend(fontsize=8)
    ax.set_title("Exploitability of each attempted spot against its bar")
    _save(fig, out_path)


def plot_model_share(summary: pd.DataFrame, out_path: str | os.PathLike) -> None:
    """Model share by depth, one line per table size, one panel per format."""
    plt = _pyplot()
    formats = list(dict.fromkeys(summary["format"]))
    fig, axes = plt.subplots(1, len(formats), figsize=(4.2 * len(formats), 4), squeeze=False, sharey=True)
    for ax, fmt in zip(axes[0], formats):
        rows = summary[summary["format"] == fmt]
        for seats, group in rows.groupby("seats", sort=True):
            group = group.sort_values("depth_bb")
            ax.plot(group["depth_bb"], 100 * group["model_share"], marker=".", label=f"{seats}-max")
        ax.set_xscale("log")
        depths = sorted(rows["depth_bb"].unique())
        ax.set_xticks(depths, [f"{d:g}" for d in depths], fontsize=7)
        ax.minorticks_off()
        ax.set_title(fmt)
        ax.set_xlabel("depth, bb")
        ax.legend(fontsize=7)
    axes[0][0].set_ylabel("deals ending at a modelled flop, %")
    fig.suptitle("Model share by depth and table size")
    _save(fig, out_path)


def plot_rfi(outcomes: Iterable[dict[str, Any]], out_path: str | os.PathLike) -> None:
    """Raise-first-in share by seat for cash 6-max and 9-max, one line per depth (shipped spots)."""
    plt = _pyplot()
    outcomes = [o for o in outcomes if o["format"] == "cash" and o["status"] == "shipped"]
    fig, axes = plt.subplots(1, len(RFI_TABLES), figsize=(10, 4), squeeze=False, sharey=True)
    for ax, (seats, title) in zip(axes[0], RFI_TABLES):
        rows = sorted((o for o in outcomes if o["seats"] == seats), key=lambda o: o["depth_bb"])
        for o in rows:
            names = list(o["rfi"])
            ax.plot(names, [100 * o["rfi"][n] for n in names], marker="o", label=f"{o['depth_bb']:g}bb")
        if rows:
            ax.legend(fontsize=7)
        else:
            ax.text(0.5, 0.5, "not in this run", ha="center", va="center", transform=ax.transAxes)
        ax.set_title(title)
        ax.set_xlabel("seat (first to act when everyone before folded)")
    axes[0][0].set_ylabel("raise first in, % of deals")
    fig.suptitle("Raise-first-in share by seat")
    _save(fig, out_path)


def write_report_plots(summary_csv: str | os.PathLike, result_paths: Iterable[str | os.PathLike],
                       exploitability_png: str | os.PathLike, model_share_png: str | os.PathLike,
                       rfi_png: str | os.PathLike) -> None:
    """The three report plots of a sweep from its summary and its solves' ``result.json`` files
    (their outcome rows, :func:`pokerlab.publish.spot_outcome`; the arrays are not read)."""
    from pokerlab.preflop.result_file import read_result
    from pokerlab.publish import spot_outcome

    summary = pd.read_csv(summary_csv)
    plot_exploitability(summary, exploitability_png)
    plot_model_share(summary, model_share_png)
    plot_rfi((spot_outcome(read_result(p, arrays=False)) for p in result_paths), rfi_png)
