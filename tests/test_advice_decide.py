"""Decision reports: a solver-valued river call equals the showdown arithmetic of a hand-built
range, the replay of the hand gives the pot by hand, the equity path is consistent, and bad input
is named (exit code 2 on the command line)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cli import main
from pokerlab.advice.decide import Situation, decide, parse_history
from pokerlab.ranges.equity import hero_equity_vs_combos
from pokerlab.ranges.likelihood import ACTIONS, StrategyLikelihood
from pokerlab.cards import N_COMBOS, parse_combo

UNIFORM = StrategyLikelihood({a: np.ones(N_COMBOS) for a in ACTIONS if a != "allin"})
RIVER = Situation(
    hero="8c8d", hero_position="BB", villain_position="BTN", preflop="FFFRFC", board="Kc7s2d4h9c",
    history=tuple(parse_history("flop: hero check, villain bet 0.33, hero call; turn: hero check, villain check; "
                                "river: hero check, villain bet 1"))
)


def test_river_call_valued_by_the_solver_equals_showdown_arithmetic():
    # pot by hand: blinds + BTN open 2.2 + BB call = 4.9; flop bet 0.33 x 4.9 = 1.617 called -> 8.134;
    # river pot-sized bet 8.134 -> pot 16.268, 8.134 to call.
    # villain KK (3 combos left, Kc on the board) or 66 (6 combos): 88 beats 66 only -> equity 6/9,
    # a call wins 2/3 of 24.402 and costs 8.134: +8.134 bb.
    report = decide(RIVER, model=UNIFORM, villain_range="KK,66", alternatives=())
    s = report["situation"]
    assert s["pot_bb"] == pytest.approx(16.268) and s["to_call_bb"] == pytest.approx(8.134)
    assert report["method"]["kind"] == "solver"
    assert report["ev_bb"]["fold"] == 0.0
    assert report["ev_bb"]["call"] == pytest.approx(2 / 3 * (16.268 + 8.134) - 8.134, abs=1e-4)
    assert report["villain"]["live_combos"] == 9


def test_hero_equity_against_each_combo_by_hand():
    eq, count, exact = hero_equity_vs_combos("8c8d", "Kc7s2d4h9c")
    assert exact and count[parse_combo("KsKh")] == 1
    assert eq[parse_combo("KsKh")] == 0.0 and eq[parse_combo("6s6h")] == 1.0 and eq[parse_combo("8s8h")] == 0.5
    assert np.isnan(eq[parse_combo("KcKh")])  # blocked by the board


def test_equity_path_values_fold_call_and_all_in_consistently():
    sit = Situation(hero="Ah8c", hero_position="BB", villain_position="BTN", preflop="FFFRF")
    report = decide(sit, alternatives=("nit",), samples=2000, seed=3)
    ev = report["ev_bb"]
    eq = report["method"]["equity_vs_range"]
    pot, b = report["situation"]["pot_bb"], report["situation"]["to_call_bb"]
    assert pot == pytest.approx(3.7) and b == pytest.approx(1.2)
    assert ev["fold"] == 0.0
    assert ev["call"] == pytest.approx(eq * (pot + b) - b, abs=1e-3)
    assert set(ev) == {"fold", "call", "raise to 8.25", "allin"}
    again = decide(sit, alternatives=("nit",), samples=2000, seed=3)
    assert again["ev_bb"] == ev  # seeded
    assert set(report["uncertainty"]) == {"sampling_or_solve", "range_estimation", "abstraction"}


@pytest.mark.parametrize("board, history", [("", ""), ("Kc7s2d", "flop: hero check, villain bet 0.5")])
def test_a_default_decision_builds_the_preflop_tree_once(monkeypatch, board, history):
    import pokerlab.preflop.tree as tree_module

    builds = []
    real = tree_module.build_tree
    monkeypatch.setattr(tree_module, "build_tree", lambda *a, **k: builds.append(a) or real(*a, **k))
    preflop = "FFFR" if not board else "FFFRFC"
    report = decide(Situation("AhQd" if not board else "QhJh", "BB" if board else "SB", "BTN", preflop, board,
                              tuple(parse_history(history))), samples=200)
    assert len(report["uncertainty"]["range_estimation"]) == 5  # the default alternatives were analysed too
    assert len(builds) == 1


def test_bad_situations_are_named():
    with pytest.raises(ValueError, match="hero_position"):
        decide(Situation("AhKh", "DEALER", "BB", "FFFRF"), alternatives=())
    with pytest.raises(ValueError, match="villain's turn"):
        decide(Situation("AhKh", "BTN", "BB", "FFFRFC", "Kc7s2d"), alternatives=())
    with pytest.raises(ValueError, match="history"):
        parse_history("flop villain check")
    with pytest.raises(ValueError, match="betting is over"):
        decide(Situation("AhKh", "BB", "BTN", "FFFRFC", "Kc7s2d4h",
                         tuple(parse_history("flop: hero check, villain check; turn: hero check, villain check"))),
               alternatives=())
    with pytest.raises(ValueError, match="heads-up|alone"):
        decide(Situation("AhKh", "BB", "BTN", "FFFRCC", "Kc7s2d"), alternatives=())


def test_cli_exit_code_two_on_bad_input(capsys):
    code = main(["decide", "--hero", "AhKh", "--hero-position", "BB", "--villain-position", "BTN",
                 "--preflop", "FFFRFC", "--board", "Kc7s"])
    assert code == 2
    assert "board" in capsys.readouterr().err


def test_sensitivity_is_seeded_and_regret_is_defined_from_the_alternatives_evs():
    from pokerlab.advice.sensitivity import run_sensitivity, sensitivity_table

    spots = [RIVER]
    first = run_sensitivity(spots, alternatives=("calling_station", "maniac"), seed=5)
    assert run_sensitivity(spots, alternatives=("calling_station", "maniac"), seed=5) == first
    row = first["spots"][0]
    for alt, a in row["alternatives"].items():
        ev = a["ev_bb"]
        assert a["recommendation"] == max(ev, key=lambda k: (ev[k], k))
        assert a["regret_bb"] == pytest.approx(ev[a["recommendation"]] - ev[row["recommendation"]], abs=1e-4)
        assert a["flips"] == (a["recommendation"] != row["recommendation"])
        assert a["regret_bb"] >= 0
    assert first["summary"]["spots_changed"] == int(bool(row["flipped_by"]))
    assert "calling_station" in sensitivity_table(first)
