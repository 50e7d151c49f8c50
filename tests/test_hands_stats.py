"""Statistics on hand-built hands whose values are counted by hand (see pokerlab.hands.stats)."""

import json

import pytest

from pokerlab.cli import main
from pokerlab.hands.pluribus import read_pluribus_text
from pokerlab.hands.stats import StatSettings, posterior, stats_document

# file order SB=a, BB=b, UTG=c, HJ=d, CO=e, BTN=f
NAMES = "a|b|c|d|e|f"
HANDS = "\n".join([
    # UTG opens, everybody folds
    f"STATE:1:r200fffff:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:-50|-100|150|0|0|0:{NAMES}",
    # CO opens, BTN cold-calls, SB 3-bets, BB folds, CO folds to the 3-bet, BTN calls;
    # flop: SB (the preflop aggressor) c-bets, BTN folds to it
    f"STATE:2:ffr250cr1000ffc/r1500f:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs:1350|-100|0|0|-250|-1000:{NAMES}",
    # BTN limps, SB completes, BB checks; flop SB checks, BB bets, both call; checked down; BB wins
    f"STATE:3:fffccc/cr300cc/ccc/ccc:5c6d|AsAd|2s3s|4s5s|6s7s|3c4d/7h8h2d/Kc/Qs:-300|600|0|0|0|-300:{NAMES}",
])


@pytest.fixture(scope="module")
def doc():
    hands, _, skipped = read_pluribus_text(HANDS, "built.log")
    assert not skipped
    return stats_document(hands, StatSettings())


def counts(doc, player, stat):
    e = doc["players"][player].get(stat)
    return (e["count"], e["opportunities"]) if e else None


@pytest.mark.parametrize("player, stat, expected", [
    ("f", "vpip", (2, 3)), ("f", "pfr", (0, 3)), ("f", "rfi", (0, 1)), ("f", "cold_call", (1, 2)),
    ("f", "limp", (1, 1)), ("f", "three_bet", (0, 2)), ("f", "four_bet", (0, 1)), ("f", "fold_to_cbet", (1, 1)),
    ("f", "wtsd", (1, 2)), ("f", "wsd", (0, 1)),
    ("c", "rfi", (1, 3)), ("c", "vpip", (1, 3)), ("c", "pfr", (1, 3)),
    ("e", "rfi", (1, 2)), ("e", "fold_to_three_bet", (1, 1)), ("e", "fold_to_raise", (1, 1)),
    ("a", "three_bet", (1, 2)), ("a", "pfr", (1, 3)), ("a", "cbet_flop", (1, 1)), ("a", "limp", (1, 1)),
    ("a", "check_raise", (0, 1)), ("a", "check_raise_flop", (0, 1)), ("a", "wtsd", (1, 2)),
    ("b", "vpip", (0, 3)), ("b", "aggression_flop", (1, 1)), ("b", "wsd", (1, 1)), ("b", "limp", None),
    ("d", "cold_call", (0, 1)), ("d", "cbet_flop", None),
])
def test_stat_counts(doc, player, stat, expected):
    assert counts(doc, player, stat) == expected


def test_pool_vpip(doc):
    assert (doc["pool"]["vpip"]["count"], doc["pool"]["vpip"]["opportunities"]) == (6, 18)


def test_posterior_is_beta_with_uniform_prior():
    mean, lo, hi = posterior([3, 300], [4, 400], StatSettings())
    assert mean[0] == pytest.approx(4 / 6) and mean[1] == pytest.approx(301 / 402)
    assert (hi[0] - lo[0]) > 5 * (hi[1] - lo[1])  # same raw rate, very different certainty
    # Beta(4, 2) has the CDF 5x^4 - 4x^5: the 95% interval's ends sit at 2.5% and 97.5%
    cdf = lambda x: 5 * x**4 - 4 * x**5
    assert cdf(lo[0]) == pytest.approx(0.025, abs=1e-9) and cdf(hi[0]) == pytest.approx(0.975, abs=1e-9)
    assert 0.70 < lo[1] < 0.75 < hi[1] < 0.80


def test_recency_decay_weights_newer_hands():
    hands, _, _ = read_pluribus_text(HANDS, "built.log")
    doc = stats_document(hands, StatSettings(decay=0.5))
    # SB "a": pfr no, yes, no in hands 1..3 -> weights 1/4, 1/2, 1 -> (1 + 1/2) / (2 + 7/4)
    assert doc["players"]["a"]["pfr"]["mean"] == pytest.approx(1.5 / 3.75, abs=1e-6)
    assert doc["players"]["a"]["pfr"]["count"] == 1  # raw counts stay raw


def test_stats_cli_json(tmp_path, capsys):
    path = tmp_path / "built.log"
    path.write_text(HANDS)
    assert main(["hands", "stats", str(tmp_path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    entry = out["players"]["f"]["vpip"]
    assert set(entry) == {"opportunities", "count", "mean", "lower", "upper"}
    assert (entry["count"], entry["opportunities"]) == (2, 3) and entry["mean"] == pytest.approx(3 / 5)
    assert {"pfr", "three_bet", "cbet_flop", "wtsd", "wsd"} <= set(out["players"]["a"])
    assert "fold_to_three_bet" in out["players"]["e"]


def test_stats_cli_bad_path_exits_2(capsys):
    assert main(["hands", "stats", "no/such/folder", "--json"]) == 2
    assert "no/such/folder" in capsys.readouterr().err


SHARED = __import__("pathlib").Path(__file__).resolve().parents[1].parent / "shared" / "hands"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_pluribus_vpip_and_rfi_agree_with_the_decisions_table():
    """VPIP and raise-first-in counted a second way, from the normalised decisions table."""
    from pokerlab.hands.importer import import_paths
    from pokerlab.hands.tables import decisions_frame

    hands = import_paths([SHARED / "pluribus"]).hands
    doc = stats_document(hands)
    pre = decisions_frame(hands).query("street == 'preflop'")
    vol = pre.assign(v=pre["kind"].isin(["C", "R"])).groupby(["hand_id", "player"])["v"].any().groupby("player").agg(["sum", "size"])
    first = pre[pre["node"].str.fullmatch("F*")].groupby(["hand_id", "player"]).first()
    rfi = first.assign(r=first["action"].isin(["R", "A"])).groupby("player")["r"].agg(["sum", "size"])
    for name in ("Pluribus", "MrBlue", "Joe"):
        assert (doc["players"][name]["vpip"]["count"], doc["players"][name]["vpip"]["opportunities"]) == tuple(vol.loc[name])
        assert (doc["players"][name]["rfi"]["count"], doc["players"][name]["rfi"]["opportunities"]) == tuple(rfi.loc[name])
    assert len(hands) == 4717
