"""Generated (never real) session fixtures: short-stack hands from the seeded generator, given
time stamps and a player named Hero, written as PHH exports into a data folder."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np

CHIP_VALUE = 0.0002  # 100 chips to the big blind in the PHH files: a $0.02 big blind


def write_equity_table(table, path: Path) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    from pokerlab import cards

    np.savez(path, classes=np.array(cards.CLASS_NAMES), win=table.win, tie=table.tie, samples=table.samples)
    return path


def timed_hands(eq, count: int, seed: int, start: datetime, minutes_apart: float = 1.0, players=(2,), stacks=(7.0, 12.0)):
    from pokerlab.hands.generate import generate_hands

    hands = generate_hands(count, seed, eq, players=players, stack_range=stacks)
    for k, h in enumerate(hands):
        if "Hero" not in h.players:
            h.players[k % h.n] = "Hero"
        h.time = (start + timedelta(minutes=minutes_apart * k)).strftime("%Y-%m-%dT%H:%M:%S")
        h.hand_id = f"{seed}{k + 1:04d}"
    return hands


def make_data_dir(root: Path, eq, results: Path | None = None) -> Path:
    """Two evenings of play in two exports (the second evening spread over both files)."""
    from pokerlab.hands.phh import write_phhs

    data = root / "data"
    (data / "exports").mkdir(parents=True)
    a = timed_hands(eq, 30, 11, datetime(2026, 3, 2, 20, 0))
    b = timed_hands(eq, 20, 12, datetime(2026, 3, 3, 21, 0))
    c = timed_hands(eq, 10, 13, datetime(2026, 3, 3, 21, 0, 30))
    write_phhs(a + b, data / "exports" / "table1.phhs")
    write_phhs(c, data / "exports" / "table2.phhs")
    settings = {"hero": "Hero", "chip_value": CHIP_VALUE, "currency": "$", "gap_minutes": 30, "start_bankroll": 100.0}
    if results is not None:
        settings["equity_table"] = str(results / "equity" / "equity_169.npz")
    (data / "settings.json").write_text(json.dumps(settings))
    return data
