"""pokerkit hand histories (PHH files, and the objects pokerkit's site parsers return) to
:class:`~pokerlab.hands.model.Hand`, and back (the generator writes its hands as PHH).

pokerkit orders players SB, BB, ..., button (heads-up: BB, then the button/SB); actions are
``d dh pK cards`` (hole cards, ``????`` unknown), ``d db cards`` (board), ``pK f``, ``pK cc``
(check/call), ``pK cbr X`` (bet or raise to ``X`` on the street) and ``pK sm [cards]`` (show or
muck). Only No-Limit Hold'em (variant ``NT``) is imported.
"""

from __future__ import annotations

import io
import re
from decimal import Decimal

from pokerlab.hands.model import Hand, HandError, refund_uncalled, replay

_CARDS = re.compile(r"(?:[2-9TJQKA][shdc]){2}")


def preflop_index(k: int, n: int) -> int:
    """pokerkit player index -> preflop-order index."""
    return 1 - k if n == 2 else (k - 2) % n


def pokerkit_index(p: int, n: int) -> int:
    return 1 - p if n == 2 else (p + 2) % n


def _num(x) -> float:
    return float(Decimal(str(x))) if x is not None else 0.0


def from_pokerkit(hh, *, site: str, source_format: str, source: str, line: int, hand_id: str, bb_chips: float | None = None,
                  results_chips: list[float] | None = None, rake_chips: float = 0.0, tournament: bool = False,
                  stakes: str = "", seats: list[int] | None = None,
                  posts: dict[str, tuple[float, float]] | None = None) -> Hand:
    """A pokerkit ``HandHistory`` -> :class:`Hand`. ``results_chips`` (pokerkit order) overrides
    the finishing stacks (sites that rake: pokerkit's replay does not know the rake).
    ``posts``: player -> (live, dead) chips posted before the cards, read from the site's text
    (a new player's big blind from any seat, a returning player's dead small blind); it
    replaces pokerkit's blinds, which only know the two blind seats."""
    if hh.variant != "NT":
        raise HandError(f"variant {hh.variant!r} is not No-Limit Hold'em")
    n = len(hh.starting_stacks)
    if not 2 <= n <= 9:
        raise HandError(f"{n} players dealt in; expected 2..9")
    blinds_pk = [_num(b) for b in (hh.blinds_or_straddles or [0] * n)]
    antes_pk = [_num(a) for a in (hh.antes if isinstance(hh.antes, (list, tuple)) else [hh.antes] * n)]
    if len(blinds_pk) < n:
        blinds_pk += [0.0] * (n - len(blinds_pk))
    if len(antes_pk) < n:
        antes_pk += [0.0] * (n - len(antes_pk))
    names = list(hh.players) if hh.players else [f"p{k + 1}" for k in range(n)]
    if posts is not None:
        unknown = set(posts) - set(names)
        if unknown:
            raise HandError(f"a blind posted by {sorted(unknown)}, who is not dealt in")
    elif any(b != 0 for b in blinds_pk[2:]):
        raise HandError("a blind or straddle posted outside the two blinds (a straddle, or a late post by a new or returning player)")
    bb = bb_chips or max(abs(b) for b in blinds_pk[:2])
    if not bb or bb <= 0:
        raise HandError("no big blind")
    order = [pokerkit_index(p, n) for p in range(n)]  # preflop index -> pokerkit index
    if len(set(names)) != n:
        raise HandError(f"a player is listed twice: {names}")
    stacks = [_num(hh.starting_stacks[k]) / bb for k in order]
    if n == 2:
        sb_amt, bb_amt = sorted(blinds_pk[:2])
        blinds = [sb_amt / bb, bb_amt / bb]
        antes = [antes_pk[0] / bb, antes_pk[1] / bb]  # heads-up pokerkit lists blinds and antes SB first
    else:
        blinds = [0.0] * n
        blinds[n - 2], blinds[n - 1] = blinds_pk[0] / bb, blinds_pk[1] / bb
        antes = [antes_pk[k] / bb for k in order]
    if posts is not None:
        blinds = [posts.get(names[k], (0.0, 0.0))[0] / bb for k in order]
        antes = [antes[p] + posts.get(names[order[p]], (0.0, 0.0))[1] / bb for p in range(n)]
    hole: list[str | None] = [None] * n
    board = ""
    events: list[tuple] = []
    streets = 0
    for raw in hh.actions:
        tok = raw.split()
        if tok[0] == "d":
            if tok[1] == "dh":
                k = int(tok[2][1:]) - 1
                if len(tok) > 3 and _CARDS.fullmatch(tok[3]):
                    hole[preflop_index(k, n)] = tok[3]
            elif tok[1] == "db":
                board += tok[2]
                streets += 1
                events.append(("street",))
            continue
        k = int(tok[0][1:]) - 1
        if not 0 <= k < n:
            raise HandError(f"action {raw!r} names a player out of range")
        p = preflop_index(k, n)
        if tok[1] == "f":
            events.append((p, "f", 0.0))
        elif tok[1] == "cc":
            events.append((p, "c", 0.0))
        elif tok[1] == "cbr":
            events.append((p, "r", _num(tok[2]) / bb))
        elif tok[1] == "sm":
            if len(tok) > 2 and _CARDS.fullmatch(tok[2]):
                hole[p] = tok[2]
        else:
            raise HandError(f"action {raw!r} is not a No-Limit Hold'em betting action")
    # the board rounds dealt with nobody left to bet still count as streets
    acts, total, live, street = replay(n, stacks, blinds, antes, events)
    paid = refund_uncalled(total, live, antes)
    if results_chips is not None:
        results = [_num(results_chips[k]) / bb for k in order]
    elif hh.finishing_stacks is not None:
        results = [(_num(hh.finishing_stacks[k]) - _num(hh.starting_stacks[k])) / bb for k in order]
    else:
        state = tuple(hh)[-1]
        results = [_num(state.payoffs[k]) / bb for k in order]
    showdown = [live[p] and sum(live) > 1 for p in range(n)]
    seat_numbers = [int(hh.seats[k]) for k in order] if hh.seats else ([seats[k] for k in order] if seats else [0] * n)
    return Hand(hand_id=hand_id, site=site, source_format=source_format, source=source, line=line,
                stakes=stakes or f"{_num(blinds_pk[0]):g}/{bb:g}", bb_chips=bb, tournament=tournament,
                players=[names[k] for k in order], seats=seat_numbers, stacks=stacks, antes=antes, blinds=blinds,
                hole=hole, board=board, actions=acts, results=[round(r, 6) for r in results],
                rake=round(rake_chips / bb, 6), showdown=showdown, table=str(hh.table or ""), time=phh_time(hh))


def phh_time(hh) -> str:
    """The hand's ``YYYY-MM-DDTHH:MM:SS`` from PHH's ``year``/``month``/``day``/``time`` ("" when absent)."""
    if not (hh.year and hh.month and hh.day):
        return ""
    clock = hh.time.strftime("%H:%M:%S") if hh.time is not None else "00:00:00"
    return f"{int(hh.year):04d}-{int(hh.month):02d}-{int(hh.day):02d}T{clock}"


def to_pokerkit(hand: Hand, chips_per_bb: int = 100):
    """A :class:`Hand` as a pokerkit ``HandHistory`` (integer chips, ``chips_per_bb`` to the bb),
    pokerkit's player order. Unknown hole cards are written as ``????``. The finishing stacks
    are written from the hand's results (pokerkit's own showdown is not consulted)."""
    from datetime import datetime

    from pokerkit import HandHistory

    n = hand.n
    order = [preflop_index(k, n) for k in range(n)]  # pokerkit index -> preflop index
    when = {}
    if hand.time:  # written as PHH's year, month, day and time
        t = datetime.fromisoformat(hand.time)
        when = {"year": t.year, "month": t.month, "day": t.day, "time": t.time()}

    def chips(x: float) -> int:
        return int(round(x * chips_per_bb))

    actions = [f"d dh p{k + 1} {hand.hole[p] or '????'}" for k, p in enumerate(order)]
    street = 0

    def deal_to(target: int) -> None:
        nonlocal street
        while street < target:
            street += 1
            cards = hand.board[0:6] if street == 1 else hand.board[6 + 2 * (street - 2): 8 + 2 * (street - 2)]
            actions.append(f"d db {cards}")

    for act in hand.actions:
        deal_to(act.street)
        who = f"p{pokerkit_index(act.player, n) + 1}"
        actions.append(f"{who} f" if act.kind == "F" else f"{who} cc" if act.kind in ("X", "C") else f"{who} cbr {chips(act.to)}")
    deal_to({0: 0, 6: 1, 8: 2, 10: 3}[len(hand.board)])
    if n == 2:
        blinds = [chips(hand.blinds[0]), chips(hand.blinds[1])]
    else:
        blinds = [chips(hand.blinds[n - 2]), chips(hand.blinds[n - 1])] + [0] * (n - 2)
    antes = [chips(a) for a in hand.antes] if n == 2 else [chips(hand.antes[p]) for p in order]  # HU: SB first
    return HandHistory(variant="NT", antes=antes, blinds_or_straddles=blinds, min_bet=chips(1.0),
                       starting_stacks=[chips(hand.stacks[p]) for p in order], actions=actions,
                       finishing_stacks=[chips(hand.stacks[p] + hand.results[p]) for p in order],
                       players=[hand.players[p] for p in order], hand=hand.hand_id if str(hand.hand_id).isdigit() else None,
                       seats=[hand.seats[p] for p in order] if any(hand.seats) else None, **when)


def read_phh_text(text: str, source: str = "", first_line: int = 1, first_index: int = 0) -> tuple[list[Hand], int, list[dict]]:
    """A PHH file (one hand) or a PHHS file (``[k]`` sections): (hands, read, skipped); ``text``
    starts at line ``first_line`` of its file, with its ``first_index``-th hand (counted from 0)."""
    from pokerkit import HandHistory

    sections = _phh_sections(text)
    hands, skipped = [], []
    for k, (start, body) in enumerate(sections, start=first_index):
        start += first_line - 1
        try:
            hh = HandHistory.loads(body)
            hand_id = str(hh.hand) if hh.hand is not None else f"{source}#{k + 1}"
            ante = max((_num(a) for a in (hh.antes or [0])), default=0.0)
            hands.append(from_pokerkit(hh, site=str(hh.venue or "phh"), source_format="phh", source=source, line=start,
                                       hand_id=hand_id, tournament=bool(getattr(hh, "event", None)) or ante > 0))
        except HandError as exc:
            skipped.append({"source": source, "line": start, "hand": "", "reason": str(exc)})
        except Exception as exc:  # pokerkit's own checks (illegal action, bad field)
            skipped.append({"source": source, "line": start, "hand": "", "reason": f"pokerkit: {type(exc).__name__}: {exc}"[:300]})
    return hands, len(sections), skipped


def _phh_sections(text: str) -> list[tuple[int, str]]:
    """(first line, text) of each hand: the whole file, or each ``[name]`` section of a .phhs."""
    lines = text.splitlines()
    heads = [i for i, l in enumerate(lines) if re.fullmatch(r"\s*\[[^\]]+\]\s*", l)]
    if not heads:
        return [(1, text)] if text.strip() else []
    out = []
    for j, i in enumerate(heads):
        end = heads[j + 1] if j + 1 < len(heads) else len(lines)
        out.append((i + 1, "\n".join(lines[i + 1:end])))
    return out


def write_phhs(hands: list[Hand], path, chips_per_bb: int = 100) -> None:
    """Write hands as one PHHS file (each hand checked by pokerkit's replay first)."""
    from pokerlab.io import write_bytes_atomic

    buf = io.StringIO()
    for k, hand in enumerate(hands, start=1):
        hh = to_pokerkit(hand, chips_per_bb)
        tuple(hh)  # pokerkit replays the hand: an illegal action raises here
        buf.write(f"[{k}]\n{hh.dumps()}\n")
    write_bytes_atomic(path, buf.getvalue().encode())
