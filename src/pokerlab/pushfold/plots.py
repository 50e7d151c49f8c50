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
