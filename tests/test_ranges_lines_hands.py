"""Preflop line classification on imported hands, cross-checked against the hand-history module.

Every player's line in every hand is named by ``classify_preflop_line`` from the hand's chart
letters, and compared with code written independently of it: the seat that took each action
(``pokerlab.hands.model.replay`` walks the betting with chip amounts), and the statistics of
``pokerlab.hands.stats`` (raise first in, limp, VPIP, PFR, 3-bet, 4-bet, cold call, counted from
the chip-level actions, not from the letters). Hands built by hand (fresh clone), and the shared
Pluribus and PokerStars hands (skipped when ``../shared/hands`` is absent).
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from pokerlab.hands.importer import import_paths
from pokerlab.hands.stats import hand_observations
from pokerlab.hands.tables import chart_letter
from pokerlab.ranges.lines import LINES, classify_preflop_line, replay_actors

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "hands"

VOLUNTARY = {"open", "limp", "call_open", "3bet", "call_3bet", "4bet", "call_4bet", "5bet", "call_5bet"}
RAISES = {"open", "3bet", "4bet", "5bet"}


def hand_lines(hand) -> tuple[list[str], list[list[str]]]:
    """Per seat (preflop order): the final line, and the line after each of its preflop actions.
    Also checks that the letters' replay names the same actor as the chip-level replay."""
    pre = [a for a in hand.actions if a.street == 0]
    letters = "".join(chart_letter(a.kind, a.allin) for a in pre)
    actors = replay_actors(letters, hand.n)
    assert actors == [a.player for a in pre], (hand.hand_id, letters)
    # a live big blind posted from another seat (a player joining): its check is an option, not a limp
    posted = [p for p in range(hand.n - 1) if hand.blinds[p] >= hand.blinds[hand.n - 1] > 0]
    final = [classify_preflop_line(letters, seat, hand.n, posted) for seat in range(hand.n)]
    history = [[classify_preflop_line(letters[: k + 1], seat, hand.n, posted) for k, p in enumerate(actors)
                if p == seat] for seat in range(hand.n)]
    return final, history


def cross_check(hands) -> dict[str, Counter]:
    """Every cross-check between the lines and the hand-history module; returns the counts per
    kind (final lines, lines after a seat's first decision) and per position."""
    final_lines: Counter = Counter()
    first_lines: Counter = Counter()
    by_position: Counter = Counter()  # (line kind, position) -> lines, and (stat, position) -> count
    for hand in hands:
        final, history = hand_lines(hand)
        obs = hand_observations(hand)
        yes = {(p, stat) for p, stat, y in obs if y}
        opp = {(p, stat) for p, stat, _ in obs}
        pre = [a for a in hand.actions if a.street == 0]
        raised = any(a.kind == "R" for a in pre)
        assert sum("open" in h for h in history) == int(raised), hand.hand_id  # one opener per raised pot
        for seat, (line, hist) in enumerate(zip(final, history)):
            pos = hand.positions[seat]
            assert line in LINES and set(hist) <= set(LINES) - {"unopened"}, (hand.hand_id, seat, line, hist)
            assert line == (hist[-1] if hist else "unopened")
            final_lines[line] += 1
            if hist:
                first_lines[hist[0]] += 1
            # a player with a line acted: exactly VPIP's opportunities
            assert bool(hist) == ((seat, "vpip") in opp), (hand.hand_id, seat)
            # a voluntary line at any point: exactly VPIP's successes; a raise line: PFR's
            assert bool(VOLUNTARY & set(hist)) == ((seat, "vpip") in yes), (hand.hand_id, seat, hist)
            assert bool(RAISES & set(hist)) == ((seat, "pfr") in yes), (hand.hand_id, seat, hist)
            # folded: a preflop fold in the chip-level actions
            assert (line == "folded") == any(a.player == seat and a.kind == "F" for a in pre)
            # raise first in: an open made at the first decision with only folds before it
            rfi = bool(hist) and hist[0] == "open" and all(
                a.kind == "F" for a in pre[: next(k for k, a in enumerate(pre) if a.player == seat)])
            assert rfi == ((seat, "rfi") in yes), (hand.hand_id, seat, hist)
            # limp at the first decision (never the big blind: its call there is check_option)
            assert (bool(hist) and hist[0] == "limp") == ((seat, "limp") in yes), (hand.hand_id, seat, hist)
            # 3-bet and 4-bet: the stats' re-raise facing exactly one / two raises
            assert ("3bet" in hist) == ((seat, "three_bet") in yes), (hand.hand_id, seat, hist)
            assert ("4bet" in hist) == ((seat, "four_bet") in yes), (hand.hand_id, seat, hist)
            # cold call: call_open as the seat's first voluntary line
            first_vol = next((l for l in hist if l in VOLUNTARY), None)
            assert (first_vol == "call_open") == ((seat, "cold_call") in yes), (hand.hand_id, seat, hist)
            by_position[("open_first", pos)] += bool(hist) and hist[0] == "open"
            # a first raise over a limp (or a posted big blind's check), from the chip-level actions
            by_position[("raise_over_limp", pos)] += any(
                a.player == seat and a.kind == "R" and a.raise_level == 0 and any(b.kind != "F" for b in pre[:k])
                for k, a in enumerate(pre))
            by_position[("rfi", pos)] += (seat, "rfi") in yes
            by_position[("3bet_any", pos)] += "3bet" in hist
            by_position[("three_bet", pos)] += (seat, "three_bet") in yes
    return {"final": final_lines, "first": first_lines, "by_position": by_position}


def _position_counts_agree(counts: dict, hands) -> None:
    """The per-position figures through the stats document (its own aggregation)."""
    from pokerlab.hands.stats import stats_document

    doc = stats_document(hands, by_position=True)
    pool = doc["pool_by_position"]
    for pos in {p for _, p in counts["by_position"]}:
        rfi = pool.get(pos, {}).get("rfi", {}).get("count", 0)
        three = pool.get(pos, {}).get("three_bet", {}).get("count", 0)
        assert counts["by_position"][("rfi", pos)] == rfi
        assert counts["by_position"][("3bet_any", pos)] == three
        # an open line is a raise first in or a first raise over a limp, never anything else
        assert counts["by_position"][("open_first", pos)] == rfi + counts["by_position"][("raise_over_limp", pos)]


# --- hand-built hands (fresh clone) ---------------------------------------------------------------

# Pluribus lines: file order SB, BB, UTG, HJ, CO, BTN; players a..f
NAMES = "a|b|c|d|e|f"
BUILT_LOG = "\n".join([
    # UTG opens, HJ 3-bets, CO cold 4-bets, the rest fold, UTG folds, HJ calls the 4-bet
    f"STATE:1:r250r800r2000ffffc/cc/cc/cc:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs/Jc/Qh:-50|-100|-250|-2000|2400|0:{NAMES}",
    # UTG limps, BTN raises over the limp, BB calls, UTG calls
    f"STATE:2:cffr400fcc/ccc/ccc/ccc:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs/Jc/Qh:-50|850|-400|0|0|-400:{NAMES}",
    # everybody folds to the SB, who completes; the BB checks its option
    f"STATE:3:ffffcc/cc/cc/cc:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs/Jc/Qh:100|-100|0|0|0|0:{NAMES}",
    # CO opens, BB 3-bets all in, CO calls all in
    f"STATE:4:ffr250ffr10000c///:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs/Jc/Qh:-50|10050|0|0|-10000|0:{NAMES}",
    # everybody folds to the BB: it never acts
    f"STATE:5:fffff:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:-50|50|0|0|0|0:{NAMES}",
])

# a heads-up PHH hand: the SB/button (p2 in pokerkit's order) opens, the BB 3-bets, the SB calls
BUILT_PHH = """variant = "NT"
antes = [0, 0]
blinds_or_straddles = [1, 2]
min_bet = 2
starting_stacks = [200, 200]
actions = ["d dh p1 AsAd", "d dh p2 KsKd", "p2 cbr 6", "p1 cbr 18", "p2 cc", "d db 2d7dTs", "p1 cc", "p2 cc", "d db Jc", "p1 cc", "p2 cc", "d db Qh", "p1 cc", "p2 cc"]
players = ["bb", "sb"]
finishing_stacks = [218, 182]
"""

# four-handed, uneven stacks (chips, blinds 1/2; pokerkit's order SB, BB, CO, BTN): the CO opens
# all in for 20bb, the BTN raises to 60bb, the SB re-raises to 150bb, the BB folds, the BTN calls.
# The all-in CO is never asked again: the BTN, not the CO, acts after the BB.
SHORT_PHH = """variant = "NT"
antes = [0, 0, 0, 0]
blinds_or_straddles = [1, 2, 0, 0]
min_bet = 2
starting_stacks = [400, 200, 40, 400]
actions = ["d dh p1 AsAd", "d dh p2 2c7h", "d dh p3 KsKd", "d dh p4 QsQd", "p3 cbr 40", "p4 cbr 120", "p1 cbr 300", "p2 f", "p4 cc", "d db 2d7dTs", "p1 cc", "p4 cc", "d db Jc", "p1 cc", "p4 cc", "d db 3h", "p1 cc", "p4 cc"]
players = ["s", "b", "co", "btn"]
finishing_stacks = [742, 198, 0, 100]
"""

EXPECTED = {
    # preflop order UTG, HJ, CO, BTN, SB, BB = c, d, e, f, a, b
    "1": ["folded", "call_4bet", "4bet", "folded", "folded", "folded"],
    "2": ["call_open", "folded", "folded", "open", "folded", "call_open"],
    "3": ["folded", "folded", "folded", "folded", "limp", "check_option"],
    "4": ["folded", "folded", "call_3bet", "folded", "folded", "3bet"],
    "5": ["folded", "folded", "folded", "folded", "folded", "unopened"],
}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    folder = tmp_path_factory.mktemp("built")
    (folder / "built.log").write_text(BUILT_LOG)
    (folder / "hu.phh").write_text(BUILT_PHH)
    (folder / "short.phh").write_text(SHORT_PHH)
    result = import_paths([folder])
    assert result.read == 7 and not result.skipped, result.skipped
    return result.hands


def test_built_hands_lines_by_hand(built):
    pluribus = [h for h in built if h.source_format == "pluribus"]
    assert {h.hand_id: hand_lines(h)[0] for h in pluribus} == {f"built:{k}": v for k, v in EXPECTED.items()}
    (hu,) = [h for h in built if h.source_format == "phh" and h.n == 2]
    (short,) = [h for h in built if h.source_format == "phh" and h.n == 4]
    assert short.positions == ("CO", "BTN", "SB", "BB") and short.players == ["co", "btn", "s", "b"]
    assert hand_lines(short) == (["open", "call_4bet", "4bet", "folded"],
                                 [["open"], ["3bet", "call_4bet"], ["4bet"], ["folded"]])
    assert classify_preflop_line("ARRFC", "CO", seats=4) == "open"  # the all-in open
    assert hu.positions == ("SB", "BB") and hu.players == ["sb", "bb"]
    final, history = hand_lines(hu)
    assert final == ["call_3bet", "3bet"] and history == [["open", "call_3bet"], ["3bet"]]
    # the HJ of hand 1: 3-bet, then called the 4-bet
    assert hand_lines(pluribus[0])[1][1] == ["3bet", "call_4bet"]


def test_built_hands_cross_check_the_hand_statistics(built):
    counts = cross_check(built)
    assert counts["final"] == Counter({"folded": 21, "call_3bet": 2, "3bet": 2, "call_open": 2, "open": 2,
                                       "4bet": 2, "call_4bet": 2, "limp": 1, "check_option": 1, "unopened": 1})
    # opens per position: UTG (hand 1), BTN (over a limp: not raise first in), CO (hand 4 and the
    # four-handed all-in), SB (heads-up)
    by = counts["by_position"]
    assert [by[("open_first", p)] for p in ("UTG", "CO", "BTN", "SB")] == [1, 2, 1, 1]
    assert [by[("rfi", p)] for p in ("UTG", "CO", "BTN", "SB")] == [1, 2, 0, 1]
    assert by[("raise_over_limp", "BTN")] == 1
    _position_counts_agree(counts, built)


def test_a_posted_big_blind_checks_its_option():
    # UTG posted a live big blind (a player joining the table): its C in an unopened pot is a check
    assert classify_preflop_line("CFFFFC", "UTG", 6) == "limp"
    assert classify_preflop_line("CFFFFC", "UTG", 6, posted=["UTG"]) == "check_option"
    assert classify_preflop_line("CFFRFFC", "UTG", 6, posted=[0]) == "call_open"
    assert classify_preflop_line("CFFFFC", "BB", 6, posted=[0]) == "check_option"


# --- the shared real hands ----------------------------------------------------------------------


# per position UTG, HJ, CO, BTN, SB, BB: open lines (at a seat's first decision), and raises first in
OPENS = [844, 815, 937, 940, 440, 111]
RFI = [844, 812, 935, 936, 439, 0]


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_every_line_of_the_pluribus_hands_agrees_with_the_hand_statistics():
    result = import_paths([SHARED / "pluribus"])
    hands = result.hands
    assert len(hands) == 4717 and not result.skipped
    counts = cross_check(hands)
    _position_counts_agree(counts, hands)
    final, first = counts["final"], counts["first"]
    assert sum(final.values()) == 6 * 4717
    # figures of this set (pinned: a change in the importer or the classifier shows here)
    assert final == Counter({"folded": 20749, "open": 3171, "call_open": 2211, "3bet": 763, "unopened": 474,
                             "call_3bet": 385, "limp": 162, "check_option": 156, "4bet": 116, "call_4bet": 51,
                             "5bet": 37, "call_5bet": 27})
    assert first["open"] == 4087 and first["limp"] == 284 and first["3bet"] == 911
    by = counts["by_position"]
    positions = ("UTG", "HJ", "CO", "BTN", "SB", "BB")
    assert [by[("open_first", p)] for p in positions] == OPENS
    assert [by[("rfi", p)] for p in positions] == RFI
    assert by[("rfi", "BB")] == 0  # the big blind never opens into folds only (the hand is over)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_every_line_of_the_pokerstars_hands_agrees_with_the_hand_statistics():
    # 5- to 9-handed, uneven stacks, all-ins, and 93 hands with a big blind posted from another seat
    result = import_paths([SHARED / "pokerstars-nl2-9max"])
    hands = result.hands
    assert len(hands) == 1380 and len(result.skipped) == 1  # the skip: a board run twice
    assert sum(any(h.blinds[p] >= h.blinds[h.n - 1] > 0 for p in range(h.n - 1)) for h in hands) == 93
    counts = cross_check(hands)
    _position_counts_agree(counts, hands)
    assert counts["final"] == Counter({"folded": 8215, "call_open": 870, "open": 868, "limp": 550,
                                       "check_option": 321, "3bet": 126, "call_3bet": 113, "unopened": 75,
                                       "4bet": 21, "call_4bet": 16, "5bet": 1, "call_5bet": 1})
    assert counts["first"]["open"] == 1011 and counts["first"]["limp"] == 920
