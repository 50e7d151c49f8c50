"""Push/fold backtest on hand-built and generated short-stack hands (with antes)."""

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.hands.backtest import backtest
from pokerlab.hands.generate import _distribute, generate_hands
from pokerlab.hands.importer import import_paths
from pokerlab.hands.phh import write_phhs
from pokerlab.hands.pluribus import parse_state_line
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.headsup import solve_headsup


@pytest.fixture(scope="module")
def eq(equity_table):
    return equity_table.win + equity_table.tie / 2


def _hu(line, stack=1000.0):
    return parse_state_line(line, stack=stack)


def test_headsup_decisions_against_the_solver(eq):
    hands = [_hu("STATE:1:r1000f:AsAd|7c2d:100|-100:s|b"),  # SB shoves AA, BB folds 72o
             _hu("STATE:2:f:AsAd|7c2d:-50|50:s|b"),  # SB folds AA
             _hu("STATE:3:r1000c///:KsKd|7c2d/2h3h4s/9c/Jd:1000|-1000:s|b")]  # BB calls off with 72o
    report = backtest(hands, eq, fees="none")
    sol = solve_headsup(PushFoldGame(2, 10.0, "none"), eq, tolerance_bb=1e-6)
    aa, kk, seven_two = (cards.parse_class(c) for c in ("AA", "KK", "72o"))
    rows = report["rows"].set_index(["hand_id", "seat"])
    assert report["decisions"] == 5 and not report["skips"]
    assert rows.loc[("1", "SB"), "match"] and rows.loc[("1", "SB"), "ev_loss_bb"] == pytest.approx(0.0, abs=1e-9)
    assert not rows.loc[("2", "SB"), "match"]
    assert rows.loc[("2", "SB"), "ev_loss_bb"] == pytest.approx(sol.sb_shove_ev[aa] - sol.sb_fold_ev, abs=1e-5)
    assert rows.loc[("3", "BB"), "ev_loss_bb"] == pytest.approx(sol.bb_fold_ev - sol.bb_call_ev[seven_two], abs=1e-5)
    assert rows.loc[("1", "BB"), "match"] and rows.loc[("3", "SB"), "solver_freq"] == pytest.approx(sol.sb_shove[kk], abs=1e-4)
    assert report["ev_loss_total_bb"] == pytest.approx(rows["ev_loss_bb"].sum(), abs=1e-4)


def test_skip_reasons(eq):
    hands = [parse_state_line("STATE:1:r200ff:AsAd|7c2d|2c3c:-50|-100|150:s|b|u", stack=1000.0),  # UTG opened
             _hu("STATE:2:r1000f:AsAd|7c2d:100|-100:s|b", stack=5000.0),  # 50bb deep
             _hu("STATE:3:cc/cc/cc/cc:AsAd|7c2d/2h3h4s/9c/Jd:100|-100:s|b"),  # limp
             _hu("STATE:4:r300f:AsAd|7c2d:100|-100:s|b")]  # min-raise, not all-in
    report = backtest(hands, eq)
    assert report["decisions"] == 0
    assert report["skips"] == {"a player entered before the small blind": 1, "effective stack above 20bb": 1,
                               "the small blind limped": 1, "the small blind raised less than all-in": 1}


def test_side_pots_split_by_layers():
    # three all-in for 500, 1000, 1000; seat 0 has the best hand, seat 2 beats seat 1
    assert _distribute([500, 1000, 1000], [0, 1, 2], {0: 9, 1: 1, 2: 5}) == [1500, 0, 1000]
    # a folded seat's 300 is dead money in the main pot; a chop of the side pot
    assert _distribute([300, 800, 800, 800], [1, 2, 3], {1: 7, 2: 7, 3: 2}) == [0, 1350, 1350, 0]


def test_generated_hands_are_seeded_and_survive_phh(eq, tmp_path):
    a, b = generate_hands(120, 5, eq), generate_hands(120, 5, eq)
    write_phhs(a, tmp_path / "a.phhs")
    write_phhs(b, tmp_path / "b.phhs")
    assert (tmp_path / "a.phhs").read_bytes() == (tmp_path / "b.phhs").read_bytes()
    assert generate_hands(120, 6, eq)[0].hole != a[0].hole or generate_hands(120, 6, eq)[1].hole != a[1].hole
    for h in a:  # chips are conserved
        assert sum(h.results) == pytest.approx(0.0, abs=1e-9)
    result = import_paths([tmp_path / "a.phhs"])
    assert result.read == result.imported == 120
    for x, y in zip(a, result.hands):
        assert (y.players, y.results, y.antes, y.stacks, y.board) == (x.players, x.results, x.antes, x.stacks, x.board)

    report = backtest(result.hands, eq)
    with_ante = report["rows"][report["rows"]["ante_bb"] > 0]
    assert len(with_ante) > 5 and len(report["rows"]) - len(with_ante) > 5  # ante hands are graded, not skipped
    row = with_ante.iloc[0]
    sol = solve_headsup(PushFoldGame(2, row["depth_bb"], "none", ante_bb=row["ante_bb"]), eq, tolerance_bb=1e-6)
    c = cards.parse_class(row["class"])
    expected = sol.sb_shove[c] if row["seat"] == "SB" else sol.bb_call[c]
    assert row["solver_freq"] == pytest.approx(expected, abs=1e-4)
    assert (report["rows"]["ev_loss_bb"] >= 0).all()
    assert 0 < report["match_rate"] <= 1 and np.isfinite(report["ev_loss_total_bb"])
