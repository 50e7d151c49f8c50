"""Reader of the Pluribus / ACPC ``STATE:`` lines (our own: pokerkit writes this format but does
not read it), and the conversion of a hand back to pokerkit for the round-trip test.

A line::

    STATE:<index>:<betting>:<hole cards>[/<flop>[/<turn>[/<river>]]]:<results>:<players>

* players are listed SB, BB, then the preflop order from the first seat to act to the button
  (postflop the SB acts first);
* betting rounds are separated by ``/``; ``f`` fold, ``c`` check or call, ``rN`` raise so that
  the seat has put ``N`` chips in **over the whole hand** (not the street's raise);
* after an all-in the remaining rounds are empty (``r10000fc///``);
* results are net chips per player (they sum to zero; split pots may be fractional).

The Pluribus games are six-handed, blinds 50/100, every hand starting at 10,000 chips; those
constants are parameters of :func:`parse_state_line`.
"""

from __future__ import annotations

import re
from pathlib import Path

from pokerlab.hands.model import Hand, HandError, refund_uncalled, replay

_ACTION = re.compile(r"f|c|r(\d+(?:\.\d+)?)")
_CARD = re.compile(r"[2-9TJQKA][shdc]")


def _cards(text: str, count: int, what: str) -> list[str]:
    found = _CARD.findall(text)
    if "".join(found) != text or len(found) != count:
        raise HandError(f"{what}: {text!r} is not {count} cards")
    return found


def parse_state_line(line: str, *, source: str = "", line_no: int = 0, small_blind: float = 50.0,
                     big_blind: float = 100.0, stack: float = 10000.0, session: str = "") -> Hand:
    """One ``STATE:`` line -> :class:`Hand` (amounts converted to bb). :class:`HandError` with
    the reason when the line is malformed or its betting is illegal."""
    parts = line.strip().split(":")
    if len(parts) != 6 or parts[0] != "STATE":
        raise HandError(f"expected 6 ':'-separated fields starting with STATE, got {len(parts)}")
    _, index, betting, cards, results, names = parts
    if not index.isdigit():
        raise HandError(f"hand index {index!r} is not a number")
    players_raw = names.split("|")
    n = len(players_raw)
    if not 2 <= n <= 9:
        raise HandError(f"{n} players; expected 2..9")
    if len(set(players_raw)) != n:
        raise HandError(f"a player is listed twice: {players_raw}")
    card_rounds = cards.split("/")
    holes_raw = card_rounds[0].split("|")
    if len(holes_raw) != n:
        raise HandError(f"{len(holes_raw)} hole-card pairs for {n} players")
    holes = ["".join(_cards(h, 2, "hole cards")) for h in holes_raw]
    board_parts = card_rounds[1:]
    if len(board_parts) > 3:
        raise HandError(f"{len(board_parts)} board rounds")
    for k, part in enumerate(board_parts):
        _cards(part, 3 if k == 0 else 1, ("flop", "turn", "river")[k])
    board = "".join(board_parts)
    try:
        result_chips = [float(x) for x in results.split("|")]
    except ValueError:
        raise HandError(f"results {results!r} are not numbers") from None
    if len(result_chips) != n:
        raise HandError(f"{len(result_chips)} results for {n} players")
    if abs(sum(result_chips)) > 1e-6:
        raise HandError(f"results sum to {sum(result_chips):g}, not 0")
    all_cards = "".join(holes) + board
    if len(set(_CARD.findall(all_cards))) != len(all_cards) // 2:
        raise HandError("a card is dealt twice")

    # file order SB, BB, first-to-act .. BTN  ->  preflop order first-to-act .. BTN, SB, BB
    perm = list(range(2, n)) + [0, 1] if n > 2 else [0, 1]
    players = [players_raw[i] for i in perm]
    hole = [holes[i] for i in perm]
    results_bb = [result_chips[i] / big_blind for i in perm]
    stacks = [stack / big_blind] * n
    blinds = [0.0] * n
    blinds[n - 2], blinds[n - 1] = small_blind / big_blind, 1.0
    antes = [0.0] * n

    events: list[tuple] = []
    rounds = betting.split("/")
    if len(rounds) > 4:
        raise HandError(f"{len(rounds)} betting rounds")
    for r, text in enumerate(rounds):
        if r > 0:
            events.append(("street",))
        pos = 0
        while pos < len(text):
            m = _ACTION.match(text, pos)
            if m is None:
                raise HandError(f"betting round {r + 1}: cannot read {text[pos:]!r}")
            pos = m.end()
            if m.group(0) == "f":
                events.append((None, "f", 0.0))
            elif m.group(0) == "c":
                events.append((None, "c", 0.0))
            else:
                events.append((None, "R", float(m.group(1)) / big_blind))
    acts, total, live, street = replay(n, stacks, blinds, antes, events)
    paid = refund_uncalled(total, live, antes)
    showdown = [live[p] and sum(live) > 1 for p in range(n)]
    net_check = [round(r, 6) for r in results_bb]
    hand = Hand(hand_id=f"{session}:{index}" if session else index, site="pluribus", source_format="pluribus",
                source=source, line=line_no, stakes=f"{small_blind:g}/{big_blind:g}", bb_chips=big_blind,
                tournament=False, players=players, seats=[0] * n, stacks=stacks, antes=antes, blinds=blinds,
                hole=hole, board=board, actions=acts, results=net_check, rake=0.0, showdown=showdown)
    # consistency: what a seat lost can never exceed what it put in
    for p in range(n):
        if results_bb[p] < -paid[p] - 1e-6:
            raise HandError(f"player {players[p]} lost {-results_bb[p]:g}bb but put in only {paid[p]:g}bb")
    return hand


def read_pluribus_text(text: str, source: str = "", first_line: int = 1) -> tuple[list[Hand], int, list[dict]]:
    """Every ``STATE:`` line of a log (``text`` starting at line ``first_line`` of its file):
    (hands, lines read as hands, skipped [{line, reason, hand}]). Comment lines (``#``) and blank
    lines are not hands."""
    session = Path(source).stem.replace("sample_game_", "") if source else ""
    session = session.rstrip("b") if session.endswith("b") and session[:-1].isdigit() else session
    hands, skipped, read = [], [], 0
    for k, raw in enumerate(text.splitlines(), start=first_line):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        read += 1
        try:
            hands.append(parse_state_line(line, source=source, line_no=k, session=session))
        except HandError as exc:
            skipped.append({"source": source, "line": k, "hand": line.split(":")[1] if line.count(":") > 1 else "",
                            "reason": str(exc)})
    return hands, read, skipped


def to_pokerkit(hand: Hand, small_blind: float = 50.0, big_blind: float = 100.0):
    """The hand as a pokerkit ``HandHistory`` in chips, players in the file's order (SB, BB,
    first to act .. BTN), so ``to_pluribus_protocol`` writes the original line back."""
    from pokerkit import HandHistory

    n = hand.n
    inv = list(range(n - 2, n)) + list(range(n - 2)) if n > 2 else [0, 1]  # file index -> preflop index
    pk_of = {pre: k for k, pre in enumerate(inv)}

    def chips(x: float):
        v = round(x * big_blind, 6)
        return int(v) if float(v).is_integer() else v

    actions = [f"d dh p{k + 1} {hand.hole[pre]}" for k, pre in enumerate(inv)]
    board = hand.board
    street = 0
    for act in hand.actions:
        while act.street > street:
            street += 1
            cards = board[0:6] if street == 1 else board[6 + 2 * (street - 2): 8 + 2 * (street - 2)]
            actions.append(f"d db {cards}")
        who = f"p{pk_of[act.player] + 1}"
        if act.kind == "F":
            actions.append(f"{who} f")
        elif act.kind in ("X", "C"):
            actions.append(f"{who} cc")
        else:
            actions.append(f"{who} cbr {chips(act.to)}")
    dealt = {0: 0, 6: 1, 8: 2, 10: 3}[len(board)]
    while street < dealt:
        street += 1
        cards = board[0:6] if street == 1 else board[6 + 2 * (street - 2): 8 + 2 * (street - 2)]
        actions.append(f"d db {cards}")
    hh = HandHistory(variant="NT", antes=[0] * n, blinds_or_straddles=[chips(small_blind / big_blind), chips(1.0)] + [0] * (n - 2),
                     min_bet=chips(1.0), starting_stacks=[chips(hand.stacks[pre]) for pre in inv], actions=actions,
                     players=[hand.players[pre] for pre in inv])
    hh.finishing_stacks = [chips(hand.stacks[pre] + hand.results[pre]) for pre in inv]
    return hh
