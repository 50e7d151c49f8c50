"""The two normalised tables, as pandas DataFrames and Parquet files.

``hands``: one row per hand - ``hand_id``, ``site``, ``format`` (source format), ``source``,
``line``, ``stakes``, ``bb_chips``, ``tournament``, ``n_players``, ``button`` (player name),
``players``, ``positions``, ``seats``, ``stacks_bb``, ``ante_bb`` (the largest ante posted),
``rake_bb``, ``board``, ``results_bb`` (list columns in preflop order), ``notes``.

``decisions``: one row per action - ``hand_id``, ``seq`` (order in the hand), ``street``,
``player``, ``position``, ``eff_stack_bb`` (the smaller of the actor's stack and the deepest
stack of the others still in), ``node`` (the chart node id of the preflop action prefix:
``F`` fold, ``C`` call/check/complete, ``R`` raise, ``A`` all-in; postflop rows carry the
preflop node their street started from), ``action`` (``F``, ``C``, ``R``, ``A`` for preflop
rows; ``F``, ``X``, ``C``, ``B``, ``R`` postflop), ``kind`` (``F X C B R``), ``to_bb`` (the
street total after the action), ``add_bb``, ``facing_bb``, ``allin``, ``hole`` (when known).

Both files are written a batch of hands at a time (:class:`TableWriter`, one Parquet row group
per batch, column types fixed by :func:`schemas`), so a large import never holds its tables.
"""

from __future__ import annotations

import contextlib
import os
from typing import TYPE_CHECKING

from pokerlab.hands.model import STREETS, Hand

if TYPE_CHECKING:
    from pokerlab.hands.importer import ImportResult


def chart_letter(kind: str, allin: bool) -> str:
    if kind == "F":
        return "F"
    if kind in ("X", "C"):
        return "C"
    return "A" if allin else "R"


def preflop_node_ids(hand: Hand) -> list[str]:
    """The chart node id before each preflop action of ``hand`` (same length as its preflop actions)."""
    out, prefix = [], ""
    for a in hand.actions:
        if a.street != 0:
            break
        out.append(prefix)
        prefix += chart_letter(a.kind, a.allin)
    return out


def hands_frame(hands: list[Hand]):
    import pandas as pd

    rows = []
    for h in hands:
        button = h.players[h.n - 3] if h.n > 2 else h.players[0]
        rows.append({
            "hand_id": h.hand_id, "site": h.site, "format": h.source_format, "source": h.source, "line": h.line,
            "stakes": h.stakes, "bb_chips": h.bb_chips, "tournament": h.tournament, "n_players": h.n,
            "button": button, "players": list(h.players), "positions": list(h.positions), "seats": list(h.seats),
            "stacks_bb": [round(s, 6) for s in h.stacks], "ante_bb": h.ante_bb, "rake_bb": h.rake, "board": h.board,
            "results_bb": list(h.results), "hole": [c or "" for c in h.hole], "notes": "; ".join(h.notes),
        })
    return pd.DataFrame(rows)


def decisions_frame(hands: list[Hand]):
    import pandas as pd

    rows = []
    for h in hands:
        live = [True] * h.n
        names = h.positions
        prefix = ""
        for seq, a in enumerate(h.actions):
            others = [h.stacks[q] for q in range(h.n) if q != a.player and live[q]]
            eff = min(h.stacks[a.player], max(others)) if others else h.stacks[a.player]
            letter = chart_letter(a.kind, a.allin)
            rows.append({
                "hand_id": h.hand_id, "seq": seq, "street": STREETS[a.street], "player": h.players[a.player],
                "position": names[a.player], "eff_stack_bb": round(eff, 6), "node": prefix,
                "action": letter if a.street == 0 else a.kind, "kind": a.kind, "to_bb": round(a.to, 6),
                "add_bb": round(a.add, 6), "facing_bb": round(a.facing, 6), "allin": a.allin,
                "hole": h.hole[a.player] or "",
            })
            if a.street == 0:
                prefix += letter
            if a.kind == "F":
                live[a.player] = False
    return pd.DataFrame(rows)


def schemas():
    """The Arrow schemas of the two tables (``hands``, ``decisions``): fixed, so every batch of
    a file, and every file, has the same column types whatever its hands hold."""
    import pyarrow as pa

    text, number, whole, flag = pa.string(), pa.float64(), pa.int64(), pa.bool_()
    hands = pa.schema([("hand_id", text), ("site", text), ("format", text), ("source", text), ("line", whole),
                       ("stakes", text), ("bb_chips", number), ("tournament", flag), ("n_players", whole),
                       ("button", text), ("players", pa.list_(text)), ("positions", pa.list_(text)),
                       ("seats", pa.list_(whole)), ("stacks_bb", pa.list_(number)), ("ante_bb", number),
                       ("rake_bb", number), ("board", text), ("results_bb", pa.list_(number)),
                       ("hole", pa.list_(text)), ("notes", text)])
    decisions = pa.schema([("hand_id", text), ("seq", whole), ("street", text), ("player", text), ("position", text),
                           ("eff_stack_bb", number), ("node", text), ("action", text), ("kind", text),
                           ("to_bb", number), ("add_bb", number), ("facing_bb", number), ("allin", flag),
                           ("hole", text)])
    return hands, decisions


class TableWriter:
    """``hands`` and ``decisions`` Parquet files written a batch of hands at a time; both appear
    (atomically) only when the ``with`` block ends without an error."""

    def __init__(self, hands_path: str | os.PathLike, decisions_path: str | os.PathLike):
        self.paths = (hands_path, decisions_path)

    def __enter__(self) -> "TableWriter":
        import pyarrow.parquet as pq

        from pokerlab.io import atomic_path

        self._stack = contextlib.ExitStack()
        with self._stack as stack:
            self._writers = []
            for path, schema in zip(self.paths, schemas()):
                tmp = stack.enter_context(atomic_path(path))
                self._writers.append((stack.enter_context(pq.ParquetWriter(tmp, schema)), schema))
            self._stack = stack.pop_all()
        return self

    def write(self, hands: list[Hand]) -> None:
        import pyarrow as pa

        for (writer, schema), frame in zip(self._writers, (hands_frame(hands), decisions_frame(hands))):
            writer.write_table(pa.Table.from_pandas(frame.reindex(columns=schema.names), schema=schema,
                                                    preserve_index=False))

    def __exit__(self, *exc) -> bool:
        return self._stack.__exit__(*exc)


def write_tables(hands: list[Hand], hands_path: str | os.PathLike, decisions_path: str | os.PathLike) -> None:
    """Both tables as Parquet (written atomically)."""
    with TableWriter(hands_path, decisions_path) as tables:
        tables.write(hands)


def import_to_tables(paths, out_dir: str | os.PathLike | None) -> "ImportResult":
    """Import ``paths`` a batch of hands at a time into ``out_dir``/``hands.parquet`` and
    ``decisions.parquet`` (None: import and count only). The tables appear only if some hand was
    read (:func:`pokerlab.hands.importer.check_read`); the result holds the file reports, not the
    hands, so memory stays bounded by a batch."""
    from pathlib import Path

    from pokerlab.hands.importer import ImportResult, check_read, import_batches

    files: list = []
    with contextlib.ExitStack() as stack:
        tables = (stack.enter_context(TableWriter(Path(out_dir) / "hands.parquet", Path(out_dir) / "decisions.parquet"))
                  if out_dir is not None else None)
        for batch in import_batches(paths, files):
            if tables is not None:
                tables.write(batch)
        return check_read(ImportResult([], files), paths)  # before the tables are kept
