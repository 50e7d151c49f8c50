"""Print a before/after chart table (postflop constants, model v2) from solved result.json files.

    .venv/bin/python benchmarks/chart_table.py --run before results/solves --run "second size" DIR ...

Each ``--run LABEL DIR`` names a folder laid out as ``results/solves`` (``{format}/{n}max/{depth}bb/
result.json``). Rows: cash 6-max 100bb raise-first-in by seat, the big blind against the button's
open (fold / call / 3-bet, the second 3-bet size ``S`` shown apart when the tree has it), the small
blind against the button's open, heads-up 100bb (the small blind's fold / limp / raise, the big blind
against the open and against the limp, the small blind against the 3-bet), six- and nine-handed
200bb UTG open, and each spot's model share, status and exploitability. Shares of deals (combo
weighted) at the node, in percent. A missing file prints as a dash.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

ROWS = [
    ("cash/6max/100bb", "RFI UTG", "", "RSA"), ("cash/6max/100bb", "RFI HJ", "F", "RSA"),
    ("cash/6max/100bb", "RFI CO", "FF", "RSA"), ("cash/6max/100bb", "RFI BTN", "FFF", "RSA"),
    ("cash/6max/100bb", "RFI SB", "FFFF", "RSA"), ("cash/6max/100bb", "SB limp", "FFFF", "C"),
    ("cash/6max/100bb", "BB vs BTN fold", "FFFRF", "F"), ("cash/6max/100bb", "BB vs BTN call", "FFFRF", "C"),
    ("cash/6max/100bb", "BB vs BTN 3-bet R+A", "FFFRF", "RA"), ("cash/6max/100bb", "BB vs BTN 3-bet S", "FFFRF", "S"),
    ("cash/6max/100bb", "SB vs BTN fold", "FFFR", "F"), ("cash/6max/100bb", "SB vs BTN call", "FFFR", "C"),
    ("cash/6max/100bb", "SB vs BTN 3-bet R+A", "FFFR", "RA"), ("cash/6max/100bb", "SB vs BTN 3-bet S", "FFFR", "S"),
    ("cash/2max/100bb", "HU SB fold", "", "F"), ("cash/2max/100bb", "HU SB limp", "", "C"),
    ("cash/2max/100bb", "HU SB raise R+A", "", "RA"), ("cash/2max/100bb", "HU BB vs open 3-bet S", "R", "S"),
    ("cash/2max/100bb", "HU BB vs open 3-bet R+A", "R", "RA"), ("cash/2max/100bb", "HU BB vs open fold", "R", "F"),
    ("cash/2max/100bb", "HU BB vs open call", "R", "C"),
    ("cash/2max/100bb", "HU BB vs limp check", "C", "C"), ("cash/2max/100bb", "HU BB vs limp raise R+A", "C", "RA"),
    ("cash/2max/100bb", "HU SB vs 3-bet fold", "RR", "F"), ("cash/2max/100bb", "HU SB vs 3-bet call", "RR", "C"),
    ("cash/2max/100bb", "HU SB vs 3-bet 4-bet R+A", "RR", "RA"),
    ("cash/6max/200bb", "6max 200bb UTG open", "", "RSA"),
    ("cash/9max/200bb", "9max UTG open", "", "RSA"),
]
SPOTS = ("cash/6max/100bb", "cash/2max/100bb", "cash/6max/200bb", "cash/9max/200bb")


def _load(folder: Path, spot: str) -> dict | None:
    path = folder / spot / "result.json"
    return json.loads(path.read_text()) if path.is_file() else None


def _share(result: dict | None, node_id: str, actions: str) -> str:
    if result is None or "nodes" not in result:
        return "-"
    node = next((n for n in result["nodes"] if n["id"] == node_id), None)
    if node is None:
        return "-"
    present = [a for a in actions if a in node["shares"]]
    return f"{100 * sum(node['shares'][a] for a in present):.1f}" if present else "n/a"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", nargs=2, action="append", metavar=("LABEL", "DIR"), required=True)
    args = parser.parse_args()
    runs = [(label, {spot: _load(Path(folder), spot) for spot in SPOTS}) for label, folder in args.run]
    width = max(14, *(len(label) + 2 for label, _ in runs))
    print(f"{'row':<28}" + "".join(f"{label:>{width}}" for label, _ in runs))
    for spot, label, node_id, actions in ROWS:
        print(f"{label:<28}" + "".join(f"{_share(res[spot], node_id, actions):>{width}}" for _, res in runs))
    for spot in SPOTS:
        cells = []
        for _, res in runs:
            r = res[spot]
            cells.append("-" if r is None else f"{100 * r['model_share']:.1f}")
        print(f"{'model share ' + spot:<28}" + "".join(f"{c:>{width}}" for c in cells))
        cells = []
        for _, res in runs:
            r = res[spot]
            cells.append("-" if r is None else f"{r['exploitability_bb']:.4f}{'' if r['status'] == 'shipped' else '!'}")
        print(f"{'exploit bb ' + spot:<28}" + "".join(f"{c:>{width}}" for c in cells))


if __name__ == "__main__":
    main()
