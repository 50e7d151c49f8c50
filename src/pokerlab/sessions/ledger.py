"""The session ledger: one account-level row per playing session, in a CSV file.

A session is a stretch of play on one account. Multi-tabling mixes stakes, so a balance
reading cannot be split by stake: the ledger keeps money per session, and anything per stake
(hands, net, bb/100) comes from the hand-history join (:mod:`pokerlab.sessions.dashboard`).

Fields (all money in the account's currency; empty = not given)

============================  ====================================================================
``id``                        1, 2, ... assigned when the row is added
``start``, ``end``            ``YYYY-MM-DDTHH:MM[:SS]`` in the site's clock, ``end >= start``
``hands``                     hands played (prefilled from the exports, may be typed)
``stakes``                    stakes played, ``;``-separated (prefilled)
``hh_net``                    **derived**: the hand histories' net of the session (no rakeback)
``rakeback_start|end``        typed: the claimable rakeback balance before and after
``rakeback_claimed``          typed: rakeback moved to the main balance during the session (0)
``rake_counter_start|end``    typed, optional: the site's "rake paid" counter before and after
``balance_start|end``         typed, optional: main balance readings (a cross-check)
``transfers``                 typed: deposits minus withdrawals during the session (0)
``exports``                   the export files the session's hands came from, ``;``-separated
``notes``                     free text
============================  ====================================================================

Text fields are one line of printable text: a character that a CSV reader or ``str.splitlines``
would take for a line break (``\n``, ``\r``, ``\v``, ``\f``, ``\x1c``-``\x1e``, U+0085, U+2028,
U+2029), any other control character and an unpaired surrogate are refused when the row is
written, naming the field and the character (tabs are kept). Years run from 1000 to 9999, the
four-digit years the reader parses. A text field holds at most :data:`MAX_TEXT_CHARS` characters
(far below the CSV reader's field limit); a longer field found on disk is reported with its line
like any malformed row.

The accounting identities (:func:`derive` is their only implementation)

* I1  ``rakeback     = rakeback_end - rakeback_start + rakeback_claimed``
      (the claimable balance grows by what is earned and shrinks by what is claimed);
* I2  ``balance_net  = balance_end - balance_start - transfers - rakeback_claimed``
      (the main balance moves by the table result, claimed rakeback and transfers);
* I3  ``table_net    = balance_net`` when both balance readings are given, else ``hh_net``
      (balance readings also catch play the exports do not contain);
* I4  ``unexplained  = balance_net - hh_net`` (the cross-check; 0 when the exports hold it all);
* I5  ``total        = table_net + rakeback``;
* I6  ``rake_paid    = rake_counter_end - rake_counter_start`` and the session's effective
      rakeback rate ``rho = rakeback / rake_paid`` (the empirical input of the fee model);
* I7  the bankroll after a session = the starting bankroll + the ``total`` of every session
      that started no later (sessions ordered by ``start``, then ``id``).

A pair of readings (``*_start``/``*_end``) is given whole or not at all. Without the
rakeback readings ``rakeback`` is 0 and the session's rakeback is unknown (``rakeback_known``).

Files: writes go to a temporary file that replaces the ledger (atomic), under an exclusive
lock on ``.sessions.lock`` beside it, so concurrent writers serialise and none is lost. A
malformed row is never dropped: reading reports it with its line and field, and no write
happens while the file holds one (the writer would otherwise have to drop it).
"""

from __future__ import annotations

import contextlib
import csv
import fcntl
import io
import os
import re
import unicodedata
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Iterator

from pokerlab.io import write_bytes_atomic

FIELDS = ("id", "start", "end", "hands", "stakes", "hh_net", "rakeback_start", "rakeback_end", "rakeback_claimed",
          "rake_counter_start", "rake_counter_end", "balance_start", "balance_end", "transfers", "exports", "notes")
MONEY = ("hh_net", "rakeback_start", "rakeback_end", "rakeback_claimed", "rake_counter_start", "rake_counter_end",
         "balance_start", "balance_end", "transfers")
PAIRS = (("rakeback_start", "rakeback_end"), ("rake_counter_start", "rake_counter_end"),
         ("balance_start", "balance_end"))
LEDGER_NAME = "sessions.csv"
LOCK_NAME = ".sessions.lock"
MAX_TEXT_CHARS = 10_000  # per text field (notes, stakes, exports)
TIME_FORMATS = ("%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M")


class LedgerError(ValueError):
    """A ledger that cannot be read or a row that cannot be written; names file, line and field."""


@dataclass
class Session:
    start: datetime
    end: datetime
    hands: int = 0
    stakes: str = ""
    hh_net: float = 0.0
    rakeback_start: float | None = None
    rakeback_end: float | None = None
    rakeback_claimed: float = 0.0
    rake_counter_start: float | None = None
    rake_counter_end: float | None = None
    balance_start: float | None = None
    balance_end: float | None = None
    transfers: float = 0.0
    exports: str = ""
    notes: str = ""
    id: int = 0

    def as_row(self) -> dict[str, str]:
        out = {}
        for name in FIELDS:
            v = getattr(self, name)
            if isinstance(v, datetime):
                out[name] = v.strftime("%Y-%m-%dT%H:%M:%S")
            elif v is None:
                out[name] = ""
            elif isinstance(v, float):  # six decimals; a value that rounds to zero is "0", never "-0"
                v = round(v, 6)
                out[name] = format(v, ".6f").rstrip("0").rstrip(".") if v != 0 else "0"
            else:
                out[name] = str(v)
        return out

    def as_json(self) -> dict:
        """Typed values (numbers as numbers, times as text, ``None`` for a reading not given)."""
        out = {name: getattr(self, name) for name in FIELDS}
        out["start"], out["end"] = self.as_row()["start"], self.as_row()["end"]
        return out


@dataclass
class Problem:
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        return f"line {self.line}, field {self.field!r}: {self.message}"


@dataclass
class Ledger:
    path: Path
    sessions: list[Session] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    def check(self) -> None:
        if self.problems:
            raise LedgerError(f"{self.path}: " + "; ".join(map(str, self.problems)))


def parse_time(text: str, what: str) -> datetime:
    """A time in one of :data:`TIME_FORMATS`, year 1000 to 9999 (stored as four digits)."""
    text = str(text).strip()
    for fmt in TIME_FORMATS:
        try:
            value = datetime.strptime(text, fmt)
        except ValueError:
            continue
        if value.year < 1000:
            raise ValueError(f"{what}: {text!r}: the year must be 1000 to 9999")
        return value
    raise ValueError(f"{what}: {text!r} is not a time YYYY-MM-DDTHH:MM[:SS]")


def check_one_line(text: str, what: str) -> str:
    """``text`` if it is one line of printable text (tabs allowed), else ``ValueError`` naming
    ``what`` and the first offending character: a line break of any kind (what ``str.splitlines``
    or a CSV reader would split on), another control character or an unpaired surrogate; or a
    text longer than :data:`MAX_TEXT_CHARS`."""
    if len(text) > MAX_TEXT_CHARS:
        raise ValueError(f"{what}: {len(text)} characters, at most {MAX_TEXT_CHARS} characters allowed")
    for ch in text:
        if ch != "\t" and unicodedata.category(ch) in ("Cc", "Cs", "Zl", "Zp"):
            kind = "a line break" if len(f"a{ch}b".splitlines()) > 1 else "a control character"
            raise ValueError(f"{what}: one line of text expected, found {kind} (U+{ord(ch):04X})")
    return text


MONEY_TEXT = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
"""A money amount as written: ASCII digits, an optional sign, decimal point and exponent (no ``1_000``, no ``1,000``)."""
MAX_MONEY = 1e12  # far above any account; keeps every difference of the invariants finite
NON_NEGATIVE = ("rakeback_start", "rakeback_end", "rakeback_claimed", "rake_counter_start", "rake_counter_end",
                "balance_start", "balance_end")
"""Balances and counters cannot go below zero (``hh_net`` and ``transfers`` can)."""


def _money(text, what: str, optional: bool) -> float | None:
    if text is None or str(text).strip() == "":
        if optional:
            return None
        return 0.0
    written = str(text).strip()
    if not MONEY_TEXT.fullmatch(written):
        raise ValueError(f"{what}: {text!r} is not a number (digits with an optional sign, '.' and exponent)")
    value = float(written)
    if not abs(value) <= MAX_MONEY:
        raise ValueError(f"{what}: {text!r} is beyond +-{MAX_MONEY:g}")
    if what in NON_NEGATIVE and value < 0:
        raise ValueError(f"{what}: {text!r} is below zero (a balance or counter)")
    return value


def session_from_fields(values: dict, *, strict_id: bool = False) -> Session:
    """A :class:`Session` from text or numbers (a CSV row, a form, the command line);
    ``ValueError`` names the first bad field (the message starts with the field's name)."""
    unknown = sorted(set(values) - set(FIELDS))
    if unknown:
        raise ValueError(f"{unknown[0]}: not a ledger field (fields: {', '.join(FIELDS)})")
    kw: dict = {}
    for name in ("start", "end"):
        if not str(values.get(name) or "").strip():
            raise ValueError(f"{name}: missing")
        kw[name] = parse_time(values[name], name)
    if kw["end"] < kw["start"]:
        raise ValueError(f"end: {values['end']} is before start {values['start']}")
    hands = str(values.get("hands") if values.get("hands") is not None else "").strip() or "0"
    if not (hands.isascii() and hands.isdigit()):
        raise ValueError(f"hands: {hands!r} is not a whole number >= 0")
    kw["hands"] = int(hands)
    for name in MONEY:
        optional = any(name in pair for pair in PAIRS)
        kw[name] = _money(values.get(name), name, optional)
    for a, b in PAIRS:
        if (kw[a] is None) != (kw[b] is None):
            missing = a if kw[a] is None else b
            raise ValueError(f"{missing}: {a} and {b} are given together or not at all")
    if kw["rake_counter_start"] is not None and kw["rake_counter_end"] < kw["rake_counter_start"]:
        raise ValueError("rake_counter_end: the rake counter went down")
    for name in ("stakes", "exports", "notes"):
        kw[name] = check_one_line(str(values.get(name) or ""), name).strip()
    ident = str(values.get("id") if values.get("id") is not None else "").strip()
    if ident:
        if not (ident.isascii() and ident.isdigit()) or int(ident) < 1:
            raise ValueError(f"id: {ident!r} is not a whole number >= 1")
        kw["id"] = int(ident)
    elif strict_id:
        raise ValueError("id: missing")
    return Session(**kw)


def derive(s: Session) -> dict:
    """The derived figures of one session (identities I1-I6 of the module docstring)."""
    rakeback_known = s.rakeback_start is not None
    rakeback = (s.rakeback_end - s.rakeback_start + s.rakeback_claimed) if rakeback_known else 0.0  # I1
    balance_net = None
    if s.balance_start is not None:
        balance_net = s.balance_end - s.balance_start - s.transfers - s.rakeback_claimed  # I2
    table_net = balance_net if balance_net is not None else s.hh_net  # I3
    unexplained = balance_net - s.hh_net if balance_net is not None else None  # I4
    rake_paid = s.rake_counter_end - s.rake_counter_start if s.rake_counter_start is not None else None  # I6
    rho = rakeback / rake_paid if (rake_paid and rakeback_known) else None
    r = lambda x: None if x is None else round(x, 9)  # noqa: E731
    return {"rakeback": r(rakeback), "rakeback_known": rakeback_known, "balance_net": r(balance_net),
            "table_net": r(table_net), "unexplained": r(unexplained), "total": r(table_net + rakeback),  # I5
            "rake_paid": r(rake_paid), "rho": r(rho), "table_net_source": "balance" if balance_net is not None else "hands"}


def bankroll_curve(sessions: list[Session], start_bankroll: float = 0.0) -> list[dict]:
    """I7: the bankroll after each session, sessions in (start, id) order."""
    out, bank = [], start_bankroll
    for s in sorted(sessions, key=lambda s: (s.start, s.id)):
        bank += derive(s)["total"]
        out.append({"id": s.id, "end": s.end.strftime("%Y-%m-%dT%H:%M:%S"), "bankroll": round(bank, 9)})
    return out


def ledger_path(data_dir: str | os.PathLike) -> Path:
    return Path(data_dir) / LEDGER_NAME


def ensure_data_dir(data_dir: str | os.PathLike) -> Path:
    """Create the data folder with a ``.gitignore`` that ignores everything in it (personal
    financial data stays out of any repository it happens to sit in)."""
    d = Path(data_dir)
    d.mkdir(parents=True, exist_ok=True)
    ignore = d / ".gitignore"
    if not ignore.exists():
        write_bytes_atomic(ignore, b"# personal financial data: never committed\n*\n")
    return d


def parse_ledger_text(text: str, path: Path) -> Ledger:
    ledger = Ledger(path)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        if text.strip():
            ledger.problems.append(Problem(1, "header", "empty header line"))
        return ledger
    try:
        header = next(csv.reader([lines[0]]))
    except csv.Error as exc:
        ledger.problems.append(Problem(1, "header", f"not a CSV header ({exc})"))
        return ledger
    if tuple(h.strip() for h in header) != FIELDS:
        missing = [f for f in FIELDS if f not in header]
        extra = [h for h in header if h not in FIELDS]
        ledger.problems.append(Problem(1, "header", f"expected the columns {','.join(FIELDS)}"
                                       + (f"; missing {missing}" if missing else "") + (f"; unknown {extra}" if extra else "")))
        return ledger
    seen: dict[int, int] = {}
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        try:
            row = next(csv.reader([line]))
        except csv.Error as exc:  # e.g. a field beyond the reader's limit, written by hand
            ledger.problems.append(Problem(number, "row", f"not a CSV row ({exc}; a text field holds at most "
                                                           f"{MAX_TEXT_CHARS} characters)"))
            continue
        if len(row) != len(FIELDS):
            ledger.problems.append(Problem(number, "row", f"{len(row)} columns, expected {len(FIELDS)}"))
            continue
        try:
            s = session_from_fields(dict(zip(FIELDS, row)), strict_id=True)
        except ValueError as exc:
            name, _, msg = str(exc).partition(": ")
            ledger.problems.append(Problem(number, name, msg))
            continue
        if s.id in seen:
            ledger.problems.append(Problem(number, "id", f"{s.id} is also the id of line {seen[s.id]}"))
            continue
        seen[s.id] = number
        ledger.sessions.append(s)
    return ledger


def read_ledger(data_dir: str | os.PathLike) -> Ledger:
    """The ledger with every malformed row reported (never dropped silently): an absent file
    is an empty ledger; a data folder that is a file is refused."""
    if Path(data_dir).exists() and not Path(data_dir).is_dir():
        raise ValueError(f"sessions data folder {Path(data_dir).as_posix()}: not a folder")
    path = ledger_path(data_dir)
    if not path.exists():
        return Ledger(path)
    return parse_ledger_text(path.read_bytes().decode("utf-8-sig", errors="replace"), path)  # a spreadsheet's BOM


def ledger_bytes(sessions: list[Session]) -> bytes:
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=FIELDS, lineterminator="\n")
    w.writeheader()
    for s in sorted(sessions, key=lambda s: s.id):
        w.writerow(s.as_row())
    return buf.getvalue().encode("utf-8")


@contextlib.contextmanager
def locked(data_dir: str | os.PathLike) -> Iterator[None]:
    """An exclusive lock on the data folder's lock file (blocks until it is free)."""
    d = ensure_data_dir(data_dir)
    with open(d / LOCK_NAME, "a+b") as fh:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)


def add_session(data_dir: str | os.PathLike, values: dict | Session) -> Session:
    """Validate and append one session (its ``id`` is assigned here); atomic and locked.
    Refuses while the ledger holds a malformed row, naming it."""
    s = values if isinstance(values, Session) else session_from_fields({k: v for k, v in values.items() if k != "id"})
    with locked(data_dir):
        ledger = read_ledger(data_dir)
        ledger.check()
        s.id = max((x.id for x in ledger.sessions), default=0) + 1
        write_bytes_atomic(ledger.path, ledger_bytes(ledger.sessions + [s]))
    return s
