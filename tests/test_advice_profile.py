"""The villain's archetype from its measured statistics: hand-built hands whose VPIP, PFR and
aggression factor are counted by hand, through the library and ``pokerlab decide --villain-stats``."""

from __future__ import annotations

import json

import pytest

from pokerlab.cli import main
from pokerlab.ranges.likelihood import archetype_from_stats
from pokerlab.advice.profile import villain_profile

# file order SB, BB, UTG, HJ, CO, BTN; the villain "v" is on the button in every hand
NAMES = "a|b|c|d|e|v"
CARDS = "AsAd|KsKd|2c3c|4c5c|6c7c|8c9c"
BOARD = "/2d7dTs/Jc/Qh"
HANDS = "\n".join([
    # v limps, the BB checks; the BB bets every street, v calls three times
    f"STATE:1:fffcfc/r200c/r300c/r400c:{CARDS}{BOARD}:-50|450|0|0|0|-400:{NAMES}",
    # v limps, checked down
    f"STATE:2:fffcfc/cc/cc/cc:{CARDS}{BOARD}:-50|150|0|0|0|-100:{NAMES}",
    # CO opens, v calls, the BB calls; the BB bets the flop, the CO folds, v calls; checked down
    f"STATE:3:ffr250cfc/r500fc/cc/cc:{CARDS}{BOARD}:-50|-500|0|0|-250|800:{NAMES}",
    # v folds in an unopened pot
    f"STATE:4:fffff:{CARDS}:-50|50|0|0|0|0:{NAMES}",
    # v folds to the CO's open
    f"STATE:5:ffr250fff:{CARDS}:-50|-100|0|0|150|0:{NAMES}",
    # v limps; the BB checks the flop, v bets, the BB calls; checked down
    f"STATE:6:fffcfc/cr200c/cc/cc:{CARDS}{BOARD}:-50|250|0|0|0|-200:{NAMES}",
])


@pytest.fixture()
def hand_file(tmp_path):
    path = tmp_path / "villain.log"
    path.write_text(HANDS)
    return path


def test_profile_counts_by_hand(hand_file):
    prof = villain_profile([hand_file], "v")
    # VPIP: limp, limp, call, -, -, limp = 4 of 6; PFR 0 of 6
    assert prof["hands"] == 6
    assert (prof["vpip"]["count"], prof["vpip"]["opportunities"]) == (4, 6)
    assert (prof["pfr"]["count"], prof["pfr"]["opportunities"]) == (0, 6)
    assert prof["vpip_pct"] == pytest.approx(100 * 4 / 6, abs=0.01) and prof["pfr_pct"] == 0.0
    # AF: one postflop bet (hand 6) over four postflop calls (3 in hand 1, 1 in hand 3)
    assert (prof["postflop_bets_raises"], prof["postflop_calls"]) == (1, 4)
    assert prof["aggression_factor"] == 0.25
    assert prof["archetype"] == "calling_station" == archetype_from_stats(400 / 6, 0.0, 0.25).name
    # Beta(1 + 4, 1 + 2) mean for VPIP
    assert prof["vpip"]["mean"] == pytest.approx(5 / 8, abs=1e-6)


def test_profile_errors_are_named(hand_file):
    with pytest.raises(ValueError, match="no hand of 'nobody'.*players: a, b, c, d, e, v"):
        villain_profile([hand_file], "nobody")
    # the CO opened twice and never bet, raised or called after the flop
    with pytest.raises(ValueError, match="aggression factor is not measured"):
        villain_profile([hand_file], "e")


def test_decide_with_villain_stats_uses_the_chosen_archetype(hand_file, capsys):
    argv = ["decide", "--hero", "Ah8c", "--hero-position", "BB", "--villain-position", "BTN", "--preflop", "FFFRF",
            "--villain-stats", str(hand_file.parent), "--villain", "v", "--alternatives", "nit", "--json"]
    assert main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["villain"]["model"] == "calling_station"
    assert report["villain_profile"]["archetype"] == "calling_station"
    assert report["villain_profile"]["postflop_calls"] == 4
    assert list(report["uncertainty"]["range_estimation"]) == ["nit"]


@pytest.mark.parametrize("extra, message", [
    (["--villain", "v"], "go together"),
    (["--villain-stats", "PATH", "--villain", "v", "--model", "nit"], "give one"),
    (["--villain-stats", "PATH", "--villain", "zed"], "no hand of 'zed'"),
])
def test_decide_villain_stats_bad_input_exits_2(hand_file, capsys, extra, message):
    extra = [str(hand_file) if x == "PATH" else x for x in extra]
    argv = ["decide", "--hero", "Ah8c", "--hero-position", "BB", "--villain-position", "BTN", "--preflop", "FFFRF",
            "--alternatives", "nit", *extra]
    assert main(argv) == 2
    assert message in capsys.readouterr().err
