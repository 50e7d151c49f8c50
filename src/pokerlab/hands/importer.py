"""Import hand-history files of any supported format, detected from the content.

``import_paths(paths)`` takes files or folders (walked recursively, sorted) and returns every
hand with a per-file report: hands read, imported and skipped, and each skipped hand's reason
and starting line, so that read = imported + skipped always holds and nothing is lost
silently. A file whose format is not recognised is reported as such (0 hands read).

A hand is imported once: a later hand with the same site and hand id (the same export under
two names, a file named twice, an id repeated inside a file) is skipped as a duplicate, naming
where the hand was first read. Only ids a site assigned count (:func:`hand_key`): PHH files
without a venue number their hands themselves, so theirs are never taken for duplicates.

Formats: ``pluribus`` (ACPC ``STATE:`` lines), ``pokerstars`` (text export), ``phh`` (pokerkit's
PHH / PHHS). Detection looks at the text, not the file name.

A file is read a batch at a time (:func:`import_file`, about :data:`CHUNK_CHARS` characters,
cut where a hand begins), so memory is bounded by a batch whatever the file's size; hands,
lines and skips are those of reading the whole text at once (:func:`import_text`).
"""

from __future__ import annotations

import codecs
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Generator, Iterator

from pokerlab.hands.model import Hand

SUFFIXES = {".txt", ".log", ".phh", ".phhs"}
CHUNK_CHARS = 1 << 20  # characters of a file read per batch (about 1,000 PokerStars hands)
UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")
# Where a hand begins, by format (a Pluribus log: at every line). A PHHS section line "[name]"
# has no character in its name that str.splitlines breaks at, as the PHH reader splits lines so.
_HAND_START = {"pokerstars": re.compile(r"^\ufeff?PokerStars (?:Zoom )?(?:Hand|Game) #", re.MULTILINE),
               "phh": re.compile("^[^\\S\\n]*\\[[^]\n\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]+\\][^\\S\\n]*$", re.MULTILINE)}


@dataclass
class FileReport:
    path: str
    format: str
    read: int
    imported: int
    skipped: list[dict] = field(default_factory=list)

    def as_dict(self) -> dict:
        return {"path": self.path, "format": self.format, "read": self.read, "imported": self.imported,
                "skipped": len(self.skipped), "skips": self.skipped}


@dataclass
class ImportResult:
    hands: list[Hand]
    files: list[FileReport]

    @property
    def read(self) -> int:
        return sum(f.read for f in self.files)

    @property
    def imported(self) -> int:
        return sum(f.imported for f in self.files)

    @property
    def skipped(self) -> list[dict]:
        return [s for f in self.files for s in f.skipped]

    def skip_reasons(self) -> dict[str, int]:
        """Skips grouped by reason (the text before any detail after a colon)."""
        out: dict[str, int] = {}
        for s in self.skipped:
            key = re.sub(r"\d+(\.\d+)?", "N", s["reason"])[:120]
            out[key] = out.get(key, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def report(self) -> dict:
        """The import report: hands read, imported and skipped, skips by reason, and each file's
        :meth:`FileReport.as_dict`."""
        return {"read": self.read, "imported": self.imported, "skipped": len(self.skipped),
                "reasons": self.skip_reasons(), "files": [f.as_dict() for f in self.files]}


def detect_format(text: str) -> str | None:
    head = text.lstrip("\ufeff \n\r\t")[:4000]
    if re.search(r"^PokerStars (?:Zoom )?(?:Hand|Game) #", head, re.MULTILINE):
        return "pokerstars"
    first = next((l for l in head.splitlines() if l.strip() and not l.startswith("#")), "")
    if first.startswith("STATE:"):  # a log is STATE lines (and # comments) from its first line on
        return "pluribus"
    if re.search(r"^\s*variant\s*=", head, re.MULTILINE) or re.match(r"\s*\[[^\]]+\]\s*\n\s*\w+\s*=", head):
        return "phh"
    return None


def decode(data: bytes) -> str:
    """Text of a hand-history file's bytes: UTF-16 when it starts with a UTF-16 byte-order mark
    (some sites' exports), else UTF-8 (BOM removed); undecodable bytes are replaced, not fatal."""
    if data[:2] in UTF16_BOMS:
        return data.decode("utf-16", errors="replace")
    return data.decode("utf-8-sig", errors="replace")


def read_text(path: str | os.PathLike) -> str:
    """:func:`decode` of a file's bytes; ``ValueError`` naming the file if it cannot be read."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None
    return decode(data)


def hand_key(hand: Hand) -> tuple[str, str] | None:
    """``(site, hand id)`` when the site assigned the id (PokerStars, PHH with a venue, the
    Pluribus logs, whose id is the session number of the log's name and the hand's index), else
    None: such a hand is never a duplicate of another."""
    if hand.site in ("phh", "generated") or not hand.hand_id:
        return None
    return hand.site, str(hand.hand_id)


def drop_duplicates(hands: list[Hand], source: str, seen: dict[tuple[str, str], str]) -> tuple[list[Hand], list[dict]]:
    """``hands`` without those whose :func:`hand_key` is in ``seen`` (which maps a key to where
    it was first read, and gains the keys of the hands kept), and a skip record for each."""
    kept, skipped = [], []
    for h in hands:
        key = hand_key(h)
        if key is None:
            kept.append(h)
        elif key in seen:
            skipped.append({"source": source, "line": h.line, "hand": str(h.hand_id),
                            "reason": f"duplicate: {key[0]} hand {key[1]} was read at {seen[key]}"})
        else:
            seen[key] = f"{source} line {h.line}"
            kept.append(h)
    return kept, skipped


def _reader(fmt: str) -> Callable:
    """The text reader of a format: ``(text, source, first_line) -> (hands, read, skipped)``."""
    if fmt == "pokerstars":
        from pokerlab.hands.pokerstars import read_pokerstars_text as reader
    elif fmt == "pluribus":
        from pokerlab.hands.pluribus import read_pluribus_text as reader
    else:
        from pokerlab.hands.phh import read_phh_text as reader
    return reader


class _Reading:
    """One file's hands read piece by piece: each piece ends where a hand begins (or at the end
    of the file), and is read at its line (PHH: and its hand index) in the file."""

    def __init__(self, fmt: str, source: str, seen: dict[tuple[str, str], str]):
        self.fmt, self.source, self.seen, self.reader = fmt, source, seen, _reader(fmt)
        self.line, self.read, self.imported, self.skipped = 1, 0, 0, []

    def cut(self, text: str) -> int:
        """Where the last hand of ``text``, which may continue in the next piece, begins."""
        if self.fmt == "pluribus":
            return text.rfind("\n") + 1
        starts = [match.start() for match in _HAND_START[self.fmt].finditer(text)]
        if self.fmt == "phh" and self.line == 1 and len(starts) < 2:
            return 0  # a PHHS file's text before its first section is no hand: read it with that section
        return starts[-1] if starts else 0

    def piece(self, text: str) -> list[Hand]:
        extra = (self.read,) if self.fmt == "phh" else ()  # the hand index of a PHH section without a number
        hands, read, skipped = self.reader(text, self.source, self.line, *extra)
        hands, duplicates = drop_duplicates(hands, self.source, self.seen)
        self.read += read
        self.imported += len(hands)
        self.skipped += skipped + duplicates
        self.line += text.count("\n") if self.fmt == "pokerstars" else len(text.splitlines())
        return hands

    def report(self) -> FileReport:
        skipped = sorted(self.skipped, key=lambda s: s["line"])
        assert self.read == self.imported + len(skipped), (self.source, self.read, self.imported, len(skipped))
        return FileReport(self.source, self.fmt, self.read, self.imported, skipped)


def import_text(text: str, source: str, seen: dict[tuple[str, str], str] | None = None) -> tuple[list[Hand], FileReport]:
    """Every hand of one file's text; ``seen`` (see :func:`drop_duplicates`) carries the hands
    of earlier files, so a hand read there is skipped here as a duplicate."""
    fmt = detect_format(text)
    if fmt is None:
        return [], FileReport(source, "unknown", 0, 0, [])
    reading = _Reading(fmt, source, {} if seen is None else seen)
    hands = reading.piece(text)
    return hands, reading.report()


def import_file(path: str | os.PathLike, seen: dict[tuple[str, str], str] | None = None,
                chunk_chars: int | None = None) -> Generator[list[Hand], None, FileReport]:
    """The hands of one file, a batch at a time (see the module docstring): yields lists of
    hands and returns the file's report (``report = yield from import_file(...)``). The same
    hands, lines and skips as :func:`import_text` of the file's whole text."""
    path = Path(path)
    seen = {} if seen is None else seen
    chunk_chars = chunk_chars or CHUNK_CHARS
    try:
        stream = path.open("rb")
    except OSError as exc:
        raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None

    def more(size: int) -> bytes:
        try:
            return stream.read(size)
        except OSError as exc:
            raise ValueError(f"{path}: cannot be read ({exc.strerror or exc})") from None

    with stream:
        data = more(max(chunk_chars, 2))
        decoder = codecs.getincrementaldecoder("utf-16" if data[:2] in UTF16_BOMS else "utf-8-sig")(errors="replace")
        text = decoder.decode(data, final=not data)
        while data and len(text) < 4096:  # what detect_format looks at
            data = more(chunk_chars)
            text += decoder.decode(data, final=not data)
        fmt = detect_format(text)
        if fmt is None:
            return FileReport(path.name, "unknown", 0, 0, [])
        reading = _Reading(fmt, path.name, seen)
        while True:
            cut = reading.cut(text) if data else len(text)  # at the end of the file, all that is left
            if cut:
                hands = reading.piece(text[:cut])
                text = text[cut:]
                if hands:
                    yield hands
            if not data:
                return reading.report()
            data = more(chunk_chars)
            text += decoder.decode(data, final=not data)


def expand_paths(paths) -> list[Path]:
    """Files named, and the files under folders named (sorted, hidden files left out)."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in SUFFIXES
                              and not any(part.startswith(".") for part in f.relative_to(p).parts)))
        elif p.is_file():
            out.append(p)
        else:
            from pokerlab.io import not_a_file

            raise ValueError(f"{p}: {not_a_file(p)}")
    return out


def import_batches(paths, files: list[FileReport], chunk_chars: int | None = None) -> Iterator[list[Hand]]:
    """The hands of every file of ``paths`` (:func:`expand_paths`), a batch at a time, each hand
    once (:func:`drop_duplicates` across the files); each file's report is appended to ``files``
    once the file is read."""
    seen: dict[tuple[str, str], str] = {}
    for path in expand_paths(paths):
        files.append((yield from import_file(path, seen, chunk_chars)))


def import_paths(paths) -> ImportResult:
    """Every hand of ``paths`` in memory, with the per-file reports."""
    files: list[FileReport] = []
    hands = [h for batch in import_batches(paths, files) for h in batch]
    return ImportResult(hands, files)


def check_read(result: ImportResult, paths) -> ImportResult:
    """``result``, unless not one hand was read from ``paths``: then ``ValueError`` naming the
    files in no format pokerlab reads (or saying there was no hand-history file)."""
    if result.read == 0:
        unknown = [f.path for f in result.files if f.format == "unknown"]
        raise ValueError(f"no hand read from {' '.join(map(str, paths))}: "
                         + (f"{len(unknown)} file(s) in no format pokerlab reads ({', '.join(unknown[:3])}"
                            f"{', ...' if len(unknown) > 3 else ''}); " if unknown else "no hand-history file; ")
                         + "expected PokerStars text, PHH or Pluribus logs (UTF-8 or UTF-16)")
    return result


def import_hands(paths) -> ImportResult:
    """:func:`import_paths`, refusing ``paths`` from which no hand at all was read (:func:`check_read`)."""
    return check_read(import_paths(paths), paths)
