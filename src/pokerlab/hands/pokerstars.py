"""PokerStars text exports through pokerkit's parser, one hand at a time.

The file is split at each ``PokerStars [Zoom] Hand #`` header (so every hand keeps the line it
starts at); each chunk is handed to ``pokerkit.HandHistory.from_pokerstars``. What pokerkit
cannot know is read from the text here: the stakes from the header, the rake from the summary,
the money each player collected (including an all-in "cash out", paid by the site, so such a
hand's results do not sum to minus the rake: the hand keeps a note), and players listed at a
seat while sitting out (dropped before parsing: they are not dealt in).

Only cash No-Limit Hold'em is imported; anything else is skipped with the reason. A hand cut
off (the end of a file copied or written only in part) is skipped as truncated: a whole hand
ends with a summary that lists every seat dealt in, its last line ended by a newline.
"""

from __future__ import annotations

import contextlib
import io
import re
import warnings

from pokerlab.hands.model import Hand, HandError
from pokerlab.hands.phh import from_pokerkit, pokerkit_index

HEADER = re.compile(r"^\ufeff?PokerStars (?:Zoom )?(?:Hand|Game) #(\d+):", re.MULTILINE)
_STAKES = re.compile(r"\((?P<cur>[$€£]?)(?P<sb>[\d.]+)/[$€£]?(?P<bb>[\d.]+)(?: [A-Z]{3})?\)")
_SEAT = re.compile(r"^Seat (\d+): (.+?) \([$€£]?[\d.]+ in chips(?:, [$€£]?[\d.]+ bounty)?\)(.*)$")
_COLLECT = re.compile(r"^(.+?) collected [$€£]?([\d.]+) from (?:side |main )?pot")
_CASHOUT = re.compile(r"^(.+?) cashed out the hand for [$€£]?([\d.]+)")
_POST = re.compile(r"^(.+?): posts (small blind|big blind|small & big blinds) [$€£]?([\d.]+)")
_RAKE = re.compile(r"Rake [$€£]?([\d.]+)")
_TIME = re.compile(r" - (\d{4})/(\d{1,2})/(\d{1,2}) (\d{1,2}):(\d{2}):(\d{2})")


def split_hands(text: str, first_line: int = 1) -> list[tuple[int, str, str]]:
    """(first line, hand number, text) of every hand in a PokerStars export (``text`` starting at
    line ``first_line`` of its file)."""
    starts = [(m.start(), m.group(1)) for m in HEADER.finditer(text)]
    out, line, counted = [], first_line, 0
    for j, (pos, number) in enumerate(starts):
        end = starts[j + 1][0] if j + 1 < len(starts) else len(text)
        line += text.count("\n", counted, pos)  # counted from the previous hand, not from the top
        counted = pos
        out.append((line, number, text[pos:end].lstrip("\ufeff")))
    return out


_SEAT_NUMBER = re.compile(r"^Seat (\d+): ")


def _whole(chunk: str) -> str:
    """The hand's text through its summary's last seat line; :class:`HandError` unless it is
    whole (see the module docstring). What follows (blank lines, or the cut-off start of a next
    hand at the end of a file) is no part of the hand."""
    lines = chunk.splitlines()
    summary = next((i for i, l in enumerate(lines) if l.startswith("*** SUMMARY")), None)
    if summary is None:
        raise HandError("truncated: no *** SUMMARY *** section (the file ends inside the hand?)")
    seated = {m.group(1) for l in lines[:summary] if (m := _SEAT.match(l)) and "out" not in m.group(3)}
    listed = {m.group(1) for l in lines[summary:] if (m := _SEAT_NUMBER.match(l))}
    missing = sorted(seated - listed, key=int)
    if missing or not listed or not any(l.startswith("Total pot") for l in lines[summary:]):
        what = f"seat {missing[0]}" if missing else "the total pot" if listed else "any seat"
        raise HandError(f"truncated: the summary does not list {what} (the file ends inside the hand?)")
    last = max(i for i, l in enumerate(lines) if i > summary and _SEAT_NUMBER.match(l))
    if last == len(lines) - 1 and not chunk.endswith("\n"):
        raise HandError("truncated: the summary's last line has no end (the file ends inside the hand?)")
    return "\n".join(lines[:last + 1]) + "\n"


def _drop_sitting_out(chunk: str) -> str:
    """Remove the Seat lines of players who sit out and do nothing in the hand."""
    lines = chunk.splitlines()
    summary = next((i for i, l in enumerate(lines) if l.startswith("*** SUMMARY")), len(lines))
    drop = set()
    for i, line in enumerate(lines[:summary]):
        m = _SEAT.match(line)
        if m and ("sitting out" in m.group(3) or "out of hand" in m.group(3)):
            name = m.group(2)
            acts = [l for l in lines[:summary] if l.startswith(name + ":") and "sits out" not in l and "sitting out" not in l]
            if not acts:
                drop.add(i)
    return "\n".join(l for i, l in enumerate(lines) if i not in drop) + "\n"


def parse_hand(chunk: str, *, source: str, line: int, number: str) -> Hand:
    """One PokerStars hand -> :class:`Hand`; :class:`HandError` with the reason otherwise."""
    from pokerkit import HandHistory

    chunk = _whole(chunk)
    header = chunk.splitlines()[0]
    if "Hold'em No Limit" not in header:
        game = header.split(":", 1)[1].split("-")[0].strip() if ":" in header else header
        raise HandError(f"not No-Limit Hold'em ({game})")
    tournament = "Tournament #" in header
    m = _STAKES.search(header)
    if m is None:
        raise HandError("no stakes (small/big blind) in the header")
    sb_amt, bb_amt = float(m.group("sb")), float(m.group("bb"))
    if "*** FIRST " in chunk or "*** SECOND " in chunk:
        raise HandError("the board was run twice (two boards); one board per hand is supported")
    text = _drop_sitting_out(chunk)
    err = io.StringIO()
    with warnings.catch_warnings(), contextlib.redirect_stderr(err):
        warnings.simplefilter("ignore")
        try:
            parsed = list(HandHistory.from_pokerstars(text, error_status=True))
        except ValueError as exc:
            detail = err.getvalue().strip().splitlines()
            cause = detail[-1] if detail else str(exc)
            raise HandError(f"pokerkit could not replay it: {cause[:200]}") from None
    if len(parsed) != 1:
        raise HandError(f"pokerkit read {len(parsed)} hands from one hand's text")
    hh = parsed[0]
    lines = text.splitlines()
    summary = next((i for i, l in enumerate(lines) if l.startswith("*** SUMMARY")), len(lines))
    names = list(hh.players)
    n = len(names)
    got = [0.0] * n
    cashed = False
    for l in lines[:summary]:
        for pattern in (_COLLECT, _CASHOUT):
            c = pattern.match(l)
            if c and c.group(1) in names:
                got[names.index(c.group(1))] += float(c.group(2))
                cashed = cashed or pattern is _CASHOUT
    posts: dict[str, tuple[float, float]] = {}
    for l in lines[:summary]:
        c = _POST.match(l)
        if c:
            amount = float(c.group(3))
            live, dead = posts.get(c.group(1), (0.0, 0.0))
            if c.group(2) == "small & big blinds":  # the big blind live, the small blind dead
                live, dead = live + bb_amt, dead + amount - bb_amt
            else:
                live += amount
            posts[c.group(1)] = (live, dead)
    rake_m = _RAKE.search("\n".join(lines[summary:]))
    rake = float(rake_m.group(1)) if rake_m else 0.0
    # results = collected - put in; put in comes from the replay (done in from_pokerkit), so
    # pass the collected amounts and fix up after
    hand = from_pokerkit(hh, site="pokerstars", source_format="pokerstars", source=source, line=line, hand_id=number,
                         bb_chips=bb_amt, results_chips=[0.0] * n, rake_chips=rake, tournament=tournament,
                         stakes=f"{m.group('cur')}{sb_amt:g}/{m.group('cur')}{bb_amt:g}", posts=posts)
    from pokerlab.hands.model import refund_uncalled
    paid = [0.0] * n
    for a in hand.actions:
        paid[a.player] += a.add
    total = [paid[p] + hand.blinds[p] + hand.antes[p] for p in range(n)]
    live = [True] * n
    for a in hand.actions:
        if a.kind == "F":
            live[a.player] = False
    put_in = refund_uncalled(total, live, hand.antes)
    collected = [got[pokerkit_index(p, n)] / bb_amt for p in range(n)]
    hand.results = [round(collected[p] - put_in[p], 6) for p in range(n)]
    t = _TIME.search(header)  # the first clock of the header (the site's own time zone)
    if t:
        y, mo, d, h, mi, sec = map(int, t.groups())
        hand.time = f"{y:04d}-{mo:02d}-{d:02d}T{h:02d}:{mi:02d}:{sec:02d}"
    balance = sum(hand.results) + hand.rake
    if abs(balance) > 1e-6:
        hand.notes.append(("cashed out: " if cashed else "") + f"results + rake = {balance:+.4f}bb")
    return hand


def read_pokerstars_text(text: str, source: str = "", first_line: int = 1) -> tuple[list[Hand], int, list[dict]]:
    """Every hand of a PokerStars export (``text`` starting at line ``first_line`` of its file):
    (hands, read, skipped [{source, line, hand, reason}])."""
    hands, skipped = [], []
    chunks = split_hands(text, first_line)
    for line, number, chunk in chunks:
        try:
            hands.append(parse_hand(chunk, source=source, line=line, number=number))
        except HandError as exc:
            skipped.append({"source": source, "line": line, "hand": number, "reason": str(exc)})
        except Exception as exc:  # pokerkit internals on malformed text
            skipped.append({"source": source, "line": line, "hand": number,
                            "reason": f"unreadable ({type(exc).__name__}: {str(exc)[:150]})"})
    return hands, len(chunks), skipped
