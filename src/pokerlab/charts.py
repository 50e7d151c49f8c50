"""13x13 heatmaps of one node of a published chart (matplotlib, PNG or SVG).

Each cell is a hand class (rows and columns A..2; suited above the diagonal, offsuit below,
pairs on it) split left to right into one band per action, as wide as the class's frequency
of that action: all-in, raise, call/check/complete, fold. The cell's label is the class and
the percentage of its deals that enter the pot (every action but fold). A class the actor
(almost) never holds at the node - its decoded arrive-with level is 0 - is drawn faded.
The legend gives each action's share of the deals reaching the node (combo weighted).

The same chart gives the same image bytes (no dates in the files; SVG ids are seeded).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab.encoding import decode, decode_scaled

ACTION_ORDER = ("A", "R", "S", "C", "F")
ACTION_COLOURS = {"A": "#8c1c13", "R": "#e4572e", "S": "#f4a259", "C": "#4caf50", "F": "#a9bcd0"}
ACTION_LABELS = {"A": "all-in", "R": "raise", "S": "raise (second size)", "C": "call / check / complete", "F": "fold"}


CHART_SUFFIX = ".json.gz"
"""A published chart file is ``charts/{format}/{n}max/{depth}bb.json.gz``: compact JSON, gzipped
(:func:`pokerlab.io.gzip_bytes`, byte-reproducible)."""
GZIP_MAGIC = b"\x1f\x8b"


def parse_chart(data: bytes, where: str | os.PathLike) -> dict[str, Any]:
    """A chart document from a chart file's bytes, gzipped (as published) or plain JSON;
    ``ValueError`` naming ``where`` if it is not a pokerlab chart. Every reader of a chart file
    comes here (pictures, the server, hand grading, range priors, the manifest)."""
    import gzip
    import json
    import zlib

    try:
        text = gzip.decompress(data) if data[:2] == GZIP_MAGIC else data
        doc = json.loads(text)
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"chart: {where} is not a chart file ({type(exc).__name__}: {exc})") from None
    if not isinstance(doc, dict) or not str(doc.get("format", "")).startswith("pokerlab-chart/"):
        raise ValueError(f"chart: {where} is not a pokerlab chart document")
    return doc


def load_chart(path: str | os.PathLike) -> dict[str, Any]:
    """Read a chart file (:func:`parse_chart`); ``ValueError`` if it is missing or not a pokerlab chart."""
    from pokerlab.io import not_a_file

    path = Path(path)
    if not path.is_file():
        raise ValueError(f"chart: {path} {not_a_file(path)}")
    return parse_chart(path.read_bytes(), path)


def find_node(doc: dict[str, Any], node_id: str) -> dict[str, Any]:
    """The node with this action string; ``ValueError`` naming the node ids that do exist nearby."""
    for node in doc["nodes"]:
        if node["id"] == node_id:
            return node
    ids = {n["id"] for n in doc["nodes"]}
    parent = node_id[:-1]
    while parent and parent not in ids:
        parent = parent[:-1]
    children = sorted(i for i in ids if len(i) == len(parent) + 1 and i.startswith(parent))
    raise ValueError(f"node: {node_id!r} is not a decision node of this chart; the decisions after "
                     f"{parent!r} are {children}")


def node_frequencies(node: dict[str, Any]) -> dict[str, np.ndarray]:
    """Decoded strategy: action -> 169 frequencies (class order of the chart)."""
    return {a: decode(node["strategy"][a]) for a in node["actions"]}


def _cell_segments(freqs: dict[str, np.ndarray]) -> list[list[tuple[str, float]]]:
    """Per class, the (action, width) bands of its cell, left to right, widths normalised to 1."""
    actions = [a for a in ACTION_ORDER if a in freqs]
    stack = np.stack([freqs[a] for a in actions], axis=1)
    totals = stack.sum(axis=1, keepdims=True)
    widths = np.divide(stack, totals, out=np.zeros_like(stack), where=totals > 0)
    return [[(a, float(w)) for a, w in zip(actions, row) if w > 0] for row in widths]


def node_image_name(doc: dict[str, Any], node_id: str) -> str:
    """The default file name of a node's heatmap: ``{format}_{n}max_{depth}bb_{node or root}.png``."""
    spot = doc["spot"]
    return f"{spot['format']}_{spot['seats']}max_{spot['depth_bb']:g}bb_{node_id or 'root'}.png"


def draw_node(doc: dict[str, Any], node_id: str, out_path: str | os.PathLike) -> Path:
    """Draw the heatmap of ``node_id`` to ``out_path`` (``.png`` or ``.svg``); return the path."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch, Rectangle

    out_path = Path(out_path)
    suffix = out_path.suffix.lower()
    if suffix not in (".png", ".svg"):
        raise ValueError(f"out: {out_path.name} must end in .png or .svg")
    node = find_node(doc, node_id)
    freqs = node_frequencies(node)
    segments = _cell_segments(freqs)
    present = decode_scaled(node["arrive_with"]) > 0
    enter = 1.0 - freqs.get("F", np.zeros(169))

    matplotlib.rcParams["svg.hashsalt"] = "pokerlab"
    fig, ax = plt.subplots(figsize=(9.2, 10.2), dpi=100)
    for k, name in enumerate(doc["classes"]):
        row, col = divmod(k, 13)
        x0, y0 = col, 12 - row
        alpha = 1.0 if present[k] else 0.25
        left = 0.0
        for action, width in segments[k]:
            ax.add_patch(Rectangle((x0 + left, y0), width, 1, facecolor=ACTION_COLOURS[action], edgecolor="none", alpha=alpha))
            left += width
        ax.add_patch(Rectangle((x0, y0), 1, 1, fill=False, edgecolor="white", linewidth=1.0))
        ax.text(x0 + 0.5, y0 + 0.62, name, ha="center", va="center", fontsize=8.5, weight="bold", alpha=max(alpha, 0.5))
        ax.text(x0 + 0.5, y0 + 0.28, f"{100 * enter[k]:.0f}", ha="center", va="center", fontsize=7, alpha=max(alpha, 0.5))
    ax.set_xlim(0, 13)
    ax.set_ylim(0, 13)
    ax.set_aspect("equal")
    ax.axis("off")
    spot, solve = doc["spot"], doc["solve"]
    title = (f"{spot['format']} {spot['seats']}-handed {spot['depth_bb']:g}bb - node {node['id'] or '(root)'}: "
             f"{node['actor']} to act\nreach {100 * node['reach']:.2f}% of deals; exploitability "
             f"{solve['exploitability_bb']:.5f} bb (bar {solve['bar_bb']:.4f}); model share {100 * solve['model_share']:.1f}%")
    if node["capped"]:
        title += "\nfold forced by the three-entrant cap, not chosen"
    ax.set_title(title, fontsize=10)
    handles = [Patch(facecolor=ACTION_COLOURS[a], label=f"{ACTION_LABELS[a]} {100 * node['shares'][a]:.1f}%")
               for a in ACTION_ORDER if a in node["actions"]]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.01), ncol=len(handles), fontsize=9, frameon=False)
    ax.text(0.5, -0.075, "cell: class and % of its deals entering the pot; bands: action frequencies; faded: not held here",
            ha="center", fontsize=8, transform=ax.transAxes)
    out_path.parent.mkdir(parents=True, exist_ok=True)
    metadata = {"Date": None} if suffix == ".svg" else {"Software": None}
    fig.savefig(out_path, format=suffix[1:], metadata=metadata, bbox_inches="tight")
    plt.close(fig)
    return out_path
