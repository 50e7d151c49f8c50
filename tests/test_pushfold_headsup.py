"""Heads-up push/fold: exploitability, structure, rake monotonicity, and the cross-check against
the CFR+ solver restricted to shove-or-fold (an independent algorithm on the same game)."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.headsup import HeadsUpPayoffs, evaluate_profile, solve_headsup


@pytest.fixture(scope="module")
def eq(equity_table):
    return equity_table.equity


@pytest.mark.parametrize("depth", [2, 10, 20])
def test_solves_to_one_millionth_of_a_big_blind(eq, depth):
    sol = solve_headsup(PushFoldGame(2, depth, "none"), eq, tolerance_bb=1e-6)
    assert sol.converged and sol.exploitability_bb <= 1e-6
    # the reported figure is recomputed from scratch, independently of the kernel's sums
    _, _, gains = evaluate_profile(HeadsUpPayoffs.of(sol.game), eq, cards.CLASS_PRIOR, sol.sb_shove, sol.bb_call)
    assert max(gains.values()) == pytest.approx(sol.exploitability_bb, abs=1e-12)


def test_strategies_are_thresholds_on_ev(eq):
    sol = solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=1e-6)
    aa, k72 = cards.parse_class("AA"), cards.parse_class("72o")
    assert sol.sb_shove[aa] > 1 - 1e-6 and sol.bb_call[aa] > 1 - 1e-6
    assert sol.bb_call[k72] < 1e-6
    # a class with a clear best response (EV gap > 0.05bb) is played (almost) purely; the
    # returned profile may be the linear average, which keeps a trace of the first iterates
    clear_shove = sol.sb_shove_ev - sol.sb_fold_ev > 0.05
    clear_fold = sol.sb_shove_ev - sol.sb_fold_ev < -0.05
    assert clear_shove.sum() > 50 and clear_fold.sum() > 40
    assert np.all(sol.sb_shove[clear_shove] > 1 - 1e-3) and np.all(sol.sb_shove[clear_fold] < 1e-3)


def test_mixed_classes_are_those_strictly_between_pure_actions(eq):
    from dataclasses import replace

    sol = solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=1e-6)
    shove, call = np.zeros(cards.N_CLASSES), np.ones(cards.N_CLASSES)
    shove[[3, 40]] = 0.25, 1 - 1e-5  # 1 - 1e-5 is within the margin of a pure shove
    call[7] = 0.5
    made = replace(sol, sb_shove=shove, bb_call=call)
    assert made.mixed_classes() == [("SB shove", 3, 0.25), ("BB call", 7, 0.5)]
    assert made.mixed_classes(margin=1e-6) == [("SB shove", 3, 0.25), ("SB shove", 40, 1 - 1e-5), ("BB call", 7, 0.5)]
    # an equilibrium mixes few classes: the indifferent ones at the edge of each range
    assert len(sol.mixed_classes()) <= 6


def test_threshold_grid_is_the_published_charts_half_big_blind_steps():
    from pokerlab.pushfold.headsup import THRESHOLD_DEPTHS_BB

    assert THRESHOLD_DEPTHS_BB[0] == 1.0 and THRESHOLD_DEPTHS_BB[-1] == 25.0 and len(THRESHOLD_DEPTHS_BB) == 49
    assert np.all(np.diff(THRESHOLD_DEPTHS_BB) == 0.5)


def test_depth_one_everyone_is_all_in(eq):
    # at 1bb the big blind is all-in already: calling costs nothing, so it always calls
    sol = solve_headsup(PushFoldGame(2, 1, "none"), eq, tolerance_bb=1e-6)
    assert sol.bb_call_share > 1 - 1e-6


@pytest.mark.parametrize("depth", [6, 12])
def test_rake_makes_both_ranges_tighter(eq, depth):
    free = solve_headsup(PushFoldGame(2, depth, "none"), eq, tolerance_bb=1e-6)
    raked = solve_headsup(PushFoldGame(2, depth, "coinpoker"), eq, tolerance_bb=1e-6)
    assert raked.sb_shove_share < free.sb_shove_share - 0.01
    assert raked.bb_call_share < free.bb_call_share - 0.01
    # class by class, up to the few mixed boundary classes
    assert np.sum(raked.sb_shove > free.sb_shove + 1e-3) <= 2
    assert np.sum(raked.bb_call > free.bb_call + 1e-3) <= 2


def test_fold_values_in_the_solution_are_the_settlement_baselines(eq):
    sol = solve_headsup(PushFoldGame(2, 8, "coinpoker"), eq, tolerance_bb=1e-5)
    assert sol.sb_fold_ev == pytest.approx(-0.44, abs=1e-12)
    assert sol.bb_fold_ev == pytest.approx(-0.94, abs=1e-12)


def test_ante_loosens_both_ranges(eq):
    plain = solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=1e-6)
    ante = solve_headsup(PushFoldGame(2, 10, "none", ante_bb=1.0), eq, tolerance_bb=1e-6)
    assert ante.sb_shove_share > plain.sb_shove_share + 0.02
    assert ante.bb_call_share > plain.bb_call_share + 0.02


def test_zero_sum_seat_values_without_fees(eq):
    sol = solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=1e-6)
    assert sol.seat_ev["SB"] + sol.seat_ev["BB"] == pytest.approx(0.0, abs=1e-12)
    raked = solve_headsup(PushFoldGame(2, 10, "coinpoker"), eq, tolerance_bb=1e-6)
    assert raked.seat_ev["SB"] + raked.seat_ev["BB"] == pytest.approx(-0.16, abs=1e-12)


def test_bad_input(eq):
    with pytest.raises(ValueError, match="seats must be 2"):
        solve_headsup(PushFoldGame(4, 10, "none"), eq)
    with pytest.raises(ValueError, match="tolerance_bb"):
        solve_headsup(PushFoldGame(2, 10, "none"), eq, tolerance_bb=0)
    with pytest.raises(ValueError, match="shape"):
        solve_headsup(PushFoldGame(2, 10, "none"), eq[:10])


# --- the cross-check against CFR+ ---------------------------------------------------------------

CFR_TOLERANCE_BB = 1e-6
PUSHFOLD_TOLERANCE_BB = 1e-6
AGREEMENT_PP = 0.1


@pytest.mark.parametrize("fmt, depth", [("cash", 6), ("cash", 10), ("cash", 15), ("mtt", 10)])
def test_cross_check_against_cfr_plus_restricted_to_shove_or_fold(equity_table, fmt, depth):
    """Two algorithms on the same game: the CFR+ chart solver on its tree restricted to
    {fold, all-in} and the damped best response here. Their SB shove and BB call shares (shares
    of deals) agree within 0.1 percentage points and both are exploitable by at most 1e-5bb
    (each run to a tighter figure, so that the shares are pinned down: at 1e-5bb a mixed
    boundary class can still be off by a few tenths). ``mtt``: the big blind posts a dead 1bb
    ante in both."""
    from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
    from pokerlab.preflop.solver import Solver
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.preflop.tree import build_tree

    spot = Spot(fmt, 2, depth)
    tree = build_tree(spot, load_sizing(), shove_or_fold=True)
    assert tree.node("").actions == ("F", "A") and tree.node("A").actions == ("F", "C")
    cfr = Solver(tree, chip_ev_payoffs(tree, PostflopModel()), equity_table.win, equity_table.tie)
    while True:
        cfr.iterate(250)
        gains, _ = cfr.exploitability()
        if gains.max() <= CFR_TOLERANCE_BB or cfr.iteration >= 6000:
            break
    assert gains.max() <= CFR_TOLERANCE_BB
    sigma = cfr.average_sigma()
    cfr_shove = cards.CLASS_PRIOR @ sigma[tree.index["A"]]
    cfr_call = cards.CLASS_PRIOR @ sigma[tree.index["AC"]]

    ours = solve_headsup(PushFoldGame(2, depth, "none", ante_bb=spot.ante), equity_table.equity,
                         tolerance_bb=PUSHFOLD_TOLERANCE_BB)
    assert ours.converged and ours.exploitability_bb <= PUSHFOLD_TOLERANCE_BB
    print(f"{fmt} {depth}bb: CFR+ {100 * cfr_shove:.4f}% / {100 * cfr_call:.4f}% after {cfr.iteration} iterations; "
          f"push/fold {100 * ours.sb_shove_share:.4f}% / {100 * ours.bb_call_share:.4f}%")
    assert 100 * abs(ours.sb_shove_share - cfr_shove) <= AGREEMENT_PP
    assert 100 * abs(ours.bb_call_share - cfr_call) <= AGREEMENT_PP
