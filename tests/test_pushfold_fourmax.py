"""4-max shove-or-fold: information sets, multiway shares against an independent estimator,
exact accounting on two-handed profiles, determinism, checkpoint/resume, and a tiny solve."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.fourmax import INFOSET_INDEX, INFOSETS, FourMaxGame, Settings, describe, solve_fourmax
from pokerlab.pushfold.multiway import multiway_shares


def test_fourteen_information_sets_in_acting_order():
    assert INFOSETS == ("", "F", "A", "FF", "FA", "AF", "AC",
                        "FFA", "FAF", "FAC", "AFF", "AFC", "ACF", "ACC")
    assert describe("ACF") == "BB vs CO shove, BTN call"
    assert describe("F") == "BTN open"


def test_multiway_shares_agree_with_the_exact_joint_sampler():
    # With one class per opponent the class law and the exact joint combo law coincide, so
    # the ranges package's rejection sampler is an independent estimate of the same number.
    from pokerlab.ranges.equity import multiway_equity

    ranges = np.zeros((2, cards.N_CLASSES))
    ranges[0, cards.parse_class("QQ")] = 1.0
    ranges[1, cards.parse_class("JTs")] = 1.0
    ours = multiway_shares(ranges, 40_000, seed=3)
    for hero in ("AKs", "22", "T9o"):
        ref = multiway_equity(hero, ["QQ", "JTs"], trials=100_000, seed=5)
        got = ours[cards.parse_class(hero)]
        assert abs(got - ref.equity[0]) < 0.015, (hero, got, ref.equity[0])
    # same seed, same numbers; another seed, other numbers
    assert np.array_equal(ours, multiway_shares(ranges, 40_000, seed=3))
    assert not np.array_equal(ours, multiway_shares(ranges, 40_000, seed=4))


def test_impossible_class_tuples_are_redrawn_not_looped_on():
    ranges = np.zeros((3, cards.N_CLASSES))
    ranges[0, cards.parse_class("AA")] = ranges[1, cards.parse_class("AA")] = 1.0
    ranges[2, cards.parse_class("AKs")] = 1.0
    ranges[2, cards.parse_class("KK")] = 0.05  # the only dealable completion
    shares = multiway_shares(ranges, 50, seed=1)
    assert np.isfinite(shares[cards.parse_class("72o")])
    ranges[2, cards.parse_class("KK")] = 0.0
    with pytest.raises(ValueError, match="no deal found"):
        multiway_shares(ranges, 1, seed=1)


def test_seat_values_sum_to_minus_the_fee_when_no_pot_is_multiway(equity_table):
    # BTN and SB never go in: every pot has at most two seats, valued exactly with the table,
    # and every hand pays the same fee drop - rakeback = 0.16bb.
    four = FourMaxGame(PushFoldGame(4, 8, "coinpoker"), equity_table.equity)
    rng = np.random.default_rng(0)
    strategy = rng.uniform(size=(len(INFOSETS), cards.N_CLASSES))
    for h in INFOSETS:
        if len(h) in (1, 2):
            strategy[INFOSET_INDEX[h]] = 0.0
    ev = four.evaluate(strategy, four.multiway_estimates(strategy, 10, seed=0))  # valued, never played
    assert sum(ev.seat_ev.values()) == pytest.approx(-0.16, abs=1e-12)
    assert ev.reach[INFOSET_INDEX[""]] == 1.0


def test_tiny_solve_is_deterministic_resumable_and_improves(equity_table, tmp_path):
    game = PushFoldGame(4, 8, "coinpoker")
    eq = equity_table.equity
    short = Settings(schedule=((4, 60),), final_samples=200, seed=11, checkpoint_every=2)
    full = Settings(schedule=((4, 60), (4, 120)), final_samples=200, seed=11, checkpoint_every=2)
    straight = solve_fourmax(game, eq, full)
    solve_fourmax(game, eq, short, checkpoint=tmp_path / "state.npz")
    resumed = solve_fourmax(game, eq, full, checkpoint=tmp_path / "state.npz")
    assert np.array_equal(straight.strategy, resumed.strategy)
    assert [row[0] for row in resumed.history] == list(range(1, 9))
    assert [m["samples"] for m in straight.measurements] == [200, 400]
    start = straight.history[0][2]  # the half-shove start, measured by the first sweep
    assert all(m["exploitability_bb"] < start / 4 for m in straight.measurements)
    assert np.isclose(straight.strategy[INFOSET_INDEX["ACC"], cards.parse_class("AA")], 1.0, atol=0.1)
    # the share of deals going in weights a class by its combos: the 13 pairs are 78 of the 1,326
    in_pairs_only = np.where(cards.CLASS_ROW == cards.CLASS_COL, 1.0, 0.0)
    assert replace(straight, strategy=np.tile(in_pairs_only, (14, 1))).shares == pytest.approx(np.full(14, 78 / 1326))
    assert np.all((0 <= straight.shares) & (straight.shares <= 1))


def test_bad_input(equity_table):
    with pytest.raises(ValueError, match="seats must be 4"):
        FourMaxGame(PushFoldGame(2, 8, "none"), equity_table.equity)
    with pytest.raises(ValueError, match="schedule"):
        Settings(schedule=((10, 0),))
    with pytest.raises(ValueError, match="warm start"):
        solve_fourmax(PushFoldGame(4, 8, "none"), equity_table.equity, Settings(schedule=((1, 10),)),
                      warm=np.zeros((3, 3)))


def test_blind_battle_with_folding_co_and_btn_is_the_heads_up_game(equity_table):
    # CO and BTN post nothing; when they always fold, SB vs BB is exactly the heads-up game, so
    # the 4-max enumeration must reproduce the heads-up solver's values and exploitability.
    from pokerlab.pushfold.headsup import solve_headsup

    hu = solve_headsup(PushFoldGame(2, 8, "coinpoker"), equity_table.equity, tolerance_bb=1e-4)
    four = FourMaxGame(PushFoldGame(4, 8, "coinpoker"), equity_table.equity)
    strategy = np.full((len(INFOSETS), cards.N_CLASSES), 0.3)
    strategy[INFOSET_INDEX[""]] = strategy[INFOSET_INDEX["F"]] = 0.0
    strategy[INFOSET_INDEX["FF"]] = hu.sb_shove
    strategy[INFOSET_INDEX["FFA"]] = hu.bb_call
    ev = four.evaluate(strategy, four.multiway_estimates(strategy, 10, seed=0))
    np.testing.assert_allclose(ev.ev_in[INFOSET_INDEX["FF"]], hu.sb_shove_ev, atol=1e-12)
    np.testing.assert_allclose(ev.ev_in[INFOSET_INDEX["FFA"]], hu.bb_call_ev, atol=1e-12)
    assert ev.ev_fold[INFOSET_INDEX["FF"]] == pytest.approx(hu.sb_fold_ev, abs=1e-12)
    assert ev.exploitability_per_seat["SB"] == pytest.approx(hu.exploitability_per_seat["SB"], abs=1e-12)
    assert ev.exploitability_per_seat["BB"] == pytest.approx(hu.exploitability_per_seat["BB"], abs=1e-12)
    assert ev.seat_ev["SB"] == pytest.approx(hu.seat_ev["SB"], abs=1e-12)


def test_the_command_lines_default_result_is_where_the_workflow_writes_it():
    from pathlib import Path

    from pokerlab.pushfold.io import fourmax_result_path

    assert fourmax_result_path(8.0) == "results/pushfold/4max/8bb.json"
    assert fourmax_result_path(12.5) == "results/pushfold/4max/12.5bb.json"
    rules = (Path(__file__).parent.parent / "workflow" / "rules" / "pushfold.smk").read_text()
    assert 'json="results/pushfold/4max/{depth}bb.json"' in rules
