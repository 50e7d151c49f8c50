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
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from pokerlab.hands.model import Hand

SUFFIXES = {".txt", ".log", ".phh", ".phhs"}


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
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
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


def import_text(text: str, source: str, seen: dict[tuple[str, str], str] | None = None) -> tuple[list[Hand], FileReport]:
    """Every hand of one file's text; ``seen`` (see :func:`drop_duplicates`) carries the hands
    of earlier files, so a hand read there is skipped here as a duplicate."""
    fmt = detect_format(text)
    if fmt == "pokerstars":
        from pokerlab.hands.pokerstars import read_pokerstars_text as reader
    elif fmt == "pluribus":
        from pokerlab.hands.pluribus import read_pluribus_text as reader
    elif fmt == "phh":
        from pokerlab.hands.phh import read_phh_text as reader
    else:
        return [], FileReport(source, "unknown", 0, 0, [])
    hands, read, skipped = reader(text, source)
    hands, duplicates = drop_duplicates(hands, source, {} if seen is None else seen)
    skipped = sorted(skipped + duplicates, key=lambda s: s["line"])
    assert read == len(hands) + len(skipped), (source, read, len(hands), len(skipped))
    return hands, FileReport(source, fmt, read, len(hands), skipped)


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


def import_paths(paths) -> ImportResult:
    hands: list[Hand] = []
    files: list[FileReport] = []
    seen: dict[tuple[str, str], str] = {}
    for path in expand_paths(paths):
        got, report = import_text(read_text(path), path.name, seen)
        hands.extend(got)
        files.append(report)
    return ImportResult(hands, files)
