"""13x13 heatmaps of push/fold ranges, the frequency written in every cell."""

from __future__ import annotations

import os

import numpy as np

from pokerlab import cards
from pokerlab.io import atomic_path


def range_heatmap(frequency: np.ndarray, title: str, path: str | os.PathLike) -> None:
    """Write a PNG of a (169,) frequency vector on the class grid (rows/cols A..2, suited above
    the diagonal), each cell labelled with its class and its frequency in percent."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    freq = np.asarray(frequency, dtype=np.float64).reshape(13, 13)
    fig, ax = plt.subplots(figsize=(8.6, 8.6), dpi=100)
    ax.imshow(freq, cmap="RdYlGn", vmin=0.0, vmax=1.0)
    for k, name in enumerate(cards.CLASS_NAMES):
        r, c = divmod(k, 13)
        value = 100 * freq[r, c]
        label = "100" if value >= 99.95 else ("0" if value < 0.05 else f"{value:.1f}")
        ax.text(c, r - 0.17, name, ha="center", va="center", fontsize=7.5, fontweight="bold")
        ax.text(c, r + 0.22, label, ha="center", va="center", fontsize=7)
    ax.set_xticks(range(13), list(cards.GRID_RANKS))
    ax.set_yticks(range(13), list(cards.GRID_RANKS))
    share = float(cards.CLASS_PRIOR @ np.asarray(frequency))
    ax.set_title(f"{title}\n{100 * share:.2f}% of deals (frequency %, per class)", fontsize=10)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": None})
    plt.close(fig)


HRC_HEADSUP_SHARES = {10.0: (0.5829, 0.3738), 15.0: (0.4566, 0.2855)}
"""HoldemResources' heads-up push/fold Nash chart (computed with card removal), aggregated from
its published raw data: share of the 1,326 combos the SB shoves and the BB calls, chip EV, no
ante, by depth in bb."""


def shares_by_depth(depths, combos: dict[str, list[float]], classes: dict[str, list[float]],
                    title: str, path: str | os.PathLike, reference: dict | None = None) -> None:
    """Write a PNG of the SB shove and BB call shares (percent of deals) against depth, with card
    removal (solid) and without (dashed), and the reference points (e.g. :data:`HRC_HEADSUP_SHARES`)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 5), dpi=100)
    for key, color, label in (("sb_shove", "tab:red", "SB shove"), ("bb_call", "tab:blue", "BB call")):
        ax.plot(depths, 100 * np.asarray(combos[key]), "-o", color=color, ms=3, label=f"{label}, card removal (combos)")
        ax.plot(depths, 100 * np.asarray(classes[key]), "--", color=color, alpha=0.6, label=f"{label}, classes")
    for i, (depth, shares) in enumerate(sorted((reference or {}).items())):
        ax.plot([depth, depth], [100 * shares[0], 100 * shares[1]], "k*", ms=9, label="HRC (published)" if i == 0 else None)
    ax.set_xlabel("effective stack (bb)")
    ax.set_ylabel("share of the 1,326 combos (%)")
    ax.set_title(title, fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    with atomic_path(path) as tmp:
        fig.savefig(tmp, format="png", metadata={"Software": None})
    plt.close(fig)
