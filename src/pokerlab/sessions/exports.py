"""Hand-history exports in the data folder, read once and graded once per content digest.

``DATA_DIR/exports/`` holds the exports (any format :mod:`pokerlab.hands.importer` reads; a
dropped file is saved there). Each export is summarised in ``DATA_DIR/cache/<sha256>.json``,
keyed by the SHA-256 of its bytes: the import report (read, imported, skipped with reasons),
one small record per hand (id, time, stakes, players, results), and, when the equity table
is there, its push/fold grade (:func:`pokerlab.hands.backtest.backtest`, every player's
heads-up push/fold decisions). A grade records what it was made with (fee preset, the
equity table's digest); only an export whose bytes changed, or whose grade was made with
other inputs, is graded again. Reading the dashboard only reads these files: a page load never
solves (:func:`scan` with ``grade=False`` imports a new export but leaves it ungraded, with the
reason).

Settings (``DATA_DIR/settings.json``, every key optional)
    ``hero`` (``"Hero"``): the account's screen name in the exports;
    ``chip_value`` (1): currency per chip of the exports (PokerStars cash text is in currency);
    ``currency`` (``""``): a symbol for display;
    ``gap_minutes`` (30): a pause longer than this between two hands starts a new session;
    ``fees`` (``"none"``): the fee preset of the push/fold model (``pokerlab.pushfold.fees``);
    ``start_bankroll`` (0): the bankroll before the first session;
    ``equity_table``: path of ``equity_169.npz`` (default ``RESULTS_DIR/equity/equity_169.npz``).
"""

from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import asdict, dataclass
from pathlib import Path

from pokerlab.io import read_json, sha256_file, write_json_atomic

EXPORTS = "exports"
CACHE = "cache"
SETTINGS = "settings.json"
NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_. -]{0,120}$")
SUFFIXES = (".txt", ".log", ".phh", ".phhs")
CACHE_VERSION = 2  # 2: each hand record carries its duplicate key


@dataclass
class Settings:
    hero: str = "Hero"
    chip_value: float = 1.0
    currency: str = ""
    gap_minutes: float = 30.0
    fees: str = "none"
    start_bankroll: float = 0.0
    equity_table: str = ""

    @classmethod
    def load(cls, data_dir: str | os.PathLike, results_dir: str | os.PathLike | None = None) -> "Settings":
        path = Path(data_dir) / SETTINGS
        raw = read_json(path, "sessions settings") if path.exists() else {}
        if not isinstance(raw, dict):
            raise ValueError(f"{path}: expected a JSON object")
        unknown = sorted(set(raw) - set(cls.__dataclass_fields__))
        if unknown:
            raise ValueError(f"{path}: {unknown[0]!r} is not a setting ({', '.join(cls.__dataclass_fields__)})")
        for name in ("hero", "currency", "fees", "equity_table"):
            if name in raw and not isinstance(raw[name], str):
                raise ValueError(f"{path}: {name} = {raw[name]!r} is not text")
        s = cls(**raw)
        for name in ("chip_value", "gap_minutes", "start_bankroll"):
            v = getattr(s, name)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise ValueError(f"{path}: {name} = {v!r} is not a number")
        if s.chip_value <= 0 or s.gap_minutes <= 0:
            raise ValueError(f"{path}: chip_value and gap_minutes must be > 0")
        from pokerlab.pushfold.fees import fee_model

        fee_model(s.fees)  # an unknown preset is named here
        if not s.equity_table:
            s.equity_table = str(Path(results_dir or "results") / "equity" / "equity_169.npz")
        return s

    def as_dict(self) -> dict:
        return asdict(self)


def exports_dir(data_dir) -> Path:
    return Path(data_dir) / EXPORTS


def list_exports(data_dir) -> list[Path]:
    d = exports_dir(data_dir)
    if not d.is_dir():
        return []
    return sorted(p for p in d.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES and not p.name.startswith("."))


def save_export(data_dir, name: str, data: bytes) -> Path:
    """Store a dropped export under ``exports/`` (atomically); the name is checked, never
    joined as given. An existing file of that name with other bytes is not overwritten."""
    from pokerlab.hands.importer import detect_format, import_text
    from pokerlab.io import write_bytes_atomic
    from pokerlab.sessions.ledger import ensure_data_dir

    name = str(name)
    if not NAME_RE.match(name) or Path(name).suffix.lower() not in SUFFIXES:
        raise ValueError(f"export name {name!r}: expected letters, digits, '_', '.', '-' and a suffix {', '.join(SUFFIXES)}")
    text = data.decode("utf-8-sig", errors="replace")
    if detect_format(text) is None:
        raise ValueError(f"{name}: not a hand-history export pokerlab reads (PokerStars text, PHH, ACPC logs)")
    hands, report = import_text(text, name)
    if not hands:
        raise ValueError(f"{name}: no hand could be imported ({report.read} read)")
    ensure_data_dir(data_dir)
    dest = exports_dir(data_dir) / name
    if dest.exists() and dest.read_bytes() != data:
        raise ValueError(f"{name}: an export of that name with other content exists; rename the file")
    write_bytes_atomic(dest, data)
    return dest


def _hand_record(h) -> dict:
    from pokerlab.hands.importer import hand_key

    key = hand_key(h)
    return {"id": str(h.hand_id), "key": list(key) if key else None, "time": h.time, "stakes": h.stakes, "bb_chips": h.bb_chips, "players": list(h.players),
            "positions": list(h.positions), "results_bb": [round(r, 6) for r in h.results], "line": h.line}


def _grader_key(settings: Settings) -> dict | None:
    path = Path(settings.equity_table)
    if not path.is_file():
        return None
    return {"fees": settings.fees, "equity_sha256": sha256_file(path)}


def grade_rows(hands, settings: Settings) -> list[dict]:
    """Every player's heads-up push/fold decisions of ``hands`` graded by the backtest, with
    what the luck check needs: the realised ledger net of the hand and the model's rakeback
    of the leaf that happened."""
    from pokerlab.hands.backtest import backtest
    from pokerlab.pushfold.fees import PushFoldGame

    report = backtest(hands, settings.equity_table, fees=settings.fees)
    frame = report["rows"]
    if not len(frame):
        return []
    by_id = {(h.source, str(h.hand_id)): h for h in hands}
    rows = []
    for rec in frame.to_dict(orient="records"):
        h = by_id[(rec["source"], str(rec["hand_id"]))]
        sb_shoved = rec["seat"] == "BB" or rec["action"] == "shove"
        bb_called = any(a.street == 0 and a.player == h.n - 1 and a.kind == "C" for a in h.actions) if sb_shoved else False
        live = (0, 1) if (sb_shoved and bb_called) else ((0,) if sb_shoved else ())
        game = PushFoldGame(2, rec["depth_bb"], settings.fees, rec["ante_bb"])
        seat = 0 if rec["seat"] == "SB" else 1
        rows.append({"hand_id": str(rec["hand_id"]), "time": h.time, "player": rec["player"], "seat": rec["seat"],
                     "class": rec["class"], "hole": rec["hole"], "depth_bb": rec["depth_bb"], "ante_bb": rec["ante_bb"],
                     "action": rec["action"], "solver_action": rec["solver_action"], "solver_freq": rec["solver_freq"],
                     "freq_taken": rec["freq_taken"], "match": bool(rec["match"]), "mixed": bool(rec["mixed"]),
                     "ev_taken_bb": rec["ev_taken_bb"], "ev_loss_bb": rec["ev_loss_bb"],
                     "result_bb": round(float(rec["result_bb"]), 6),
                     "model_rakeback_bb": round(float(game.terminal(live).rakeback[seat]), 6),
                     "bb_chips": h.bb_chips, "stakes": h.stakes})
    return rows


def grade_exports(data_dir, results_dir=None) -> list[dict]:
    """Import and grade the new or changed exports of ``data_dir`` (:func:`scan` with grading);
    ``ValueError`` first if the settings' equity table, which the push/fold grade needs, is missing."""
    settings = Settings.load(data_dir, results_dir)
    if not Path(settings.equity_table).is_file():
        raise ValueError(f"equity table {settings.equity_table}: file not found (snakemake --cores 2 "
                         "results/equity/equity_169.npz, or set equity_table in settings.json)")
    return scan(data_dir, settings, grade=True)


def scan(data_dir, settings: Settings, grade: bool = True) -> list[dict]:
    """The summary of every export (read from its cache; imported, and graded when ``grade``,
    if the cache is missing or stale). Returns the summaries in file-name order."""
    from pokerlab.hands.importer import import_text, read_text

    out = []
    grader = _grader_key(settings) if grade else None
    for path in list_exports(data_dir):
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        cache_path = Path(data_dir) / CACHE / f"{digest}.json"
        summary = read_json(cache_path, "export cache") if cache_path.exists() else None
        if summary is not None and summary.get("version") != CACHE_VERSION:
            summary = None
        hands = None
        if summary is None:
            hands, report = import_text(read_text(path), path.name)
            summary = {"version": CACHE_VERSION, "digest": digest, "format": report.format, "read": report.read,
                       "imported": report.imported, "skips": report.skipped, "hands": [_hand_record(h) for h in hands],
                       "grade": None}
            summary["no_time"] = sum(1 for h in hands if not h.time)
            write_json_atomic(cache_path, summary)
        if grade and grader is not None and (summary.get("grade") or {}).get("key") != grader:
            if hands is None:
                hands, _ = import_text(read_text(path), path.name)
            summary["grade"] = {"key": grader, "rows": grade_rows(hands, settings)}
            write_json_atomic(cache_path, summary)
        summary = dict(summary)
        summary["name"] = path.name
        out.append(summary)
    return out
