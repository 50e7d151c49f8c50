"""Heads-up push/fold with card removal: against an independent linear program (scipy's HiGHS)
on a reduced deck with hand-level equities, exploitability recomputed by brute force, and the
class game reproduced when the deal ignores blocking."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.optimize import linprog

from pokerlab import cards as C
from pokerlab.equity import canonical_boards
from pokerlab.equity_combos import collision_mask, exact_combo_counts
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.headsup import solve_headsup
from pokerlab.pushfold.headsup_combos import ComboDeal, solve_headsup_combos
from pokerlab.pushfold.io import headsup_combos_document

REDUCED_RANKS = "AK952"  # 20 cards, 190 combos


@pytest.fixture(scope="module")
def reduced_deal():
    """Every combo of the 20 cards of ranks A, K, 9, 5, 2, dealt uniformly over non-colliding
    pairs; equity ``(wins + ties/2) / boards`` counted on the orbits of 40 canonical boards (a
    hand-level table in which suits matter), 1/2 where no board of the sample is live."""
    keys, weights = canonical_boards()
    pick = np.linspace(0, keys.size - 1, 40).astype(np.int64)
    wins, ties = exact_combo_counts(keys[pick], weights[pick])
    ranks = [C.RANKS.index(r) for r in REDUCED_RANKS]
    combos = np.flatnonzero(np.isin(C.COMBO_CARDS[:, 0] >> 2, ranks) & np.isin(C.COMBO_CARDS[:, 1] >> 2, ranks))
    w, t = wins[np.ix_(combos, combos)], ties[np.ix_(combos, combos)]
    boards = w + t + w.T
    equity = np.divide(w + 0.5 * t, boards, out=np.full(w.shape, 0.5), where=boards > 0)
    live = ~collision_mask()[np.ix_(combos, combos)]
    return ComboDeal(live / live.sum(), np.where(live, equity, 0.0), C.COMBO_CLASS[combos].astype(np.int64))


def _payoff_tables(game: PushFoldGame, deal: ComboDeal):
    """SB's and BB's payoff of every (h, v) deal under each of the three endings, straight from
    the settlement's terminal coefficients (not from the solver's advantage matrices)."""
    _, fold = game.terminal_coefficients(())
    _, steal = game.terminal_coefficients((0,))
    award, showdown = game.terminal_coefficients((0, 1))
    eq = deal.equity
    sb = {"fold": np.full(eq.shape, fold[0]), "steal": np.full(eq.shape, steal[0]), "showdown": showdown[0] + award * eq}
    bb = {"fold": np.full(eq.shape, fold[1]), "steal": np.full(eq.shape, steal[1]), "showdown": showdown[1] + award * eq.T}
    return sb, bb


def _brute_force(game, deal, shove, call):
    """(SB value, BB value, SB best-response gain, BB best-response gain), explicit sums over deals."""
    sb, bb = _payoff_tables(game, deal)
    j = deal.joint
    x, y = shove[:, None], call[None, :]
    sb_shove = y * sb["showdown"] + (1 - y) * sb["steal"]
    bb_shoved = x * (y * bb["showdown"] + (1 - y) * bb["steal"])
    sb_value = np.sum(j * (x * sb_shove + (1 - x) * sb["fold"]))
    bb_value = np.sum(j * (bb_shoved + (1 - x) * bb["fold"]))
    sb_best = np.sum(np.maximum((j * sb_shove).sum(1), (j * sb["fold"]).sum(1)))
    bb_call_vs = (j * x * bb["showdown"]).sum(0) + (j * (1 - x) * bb["fold"]).sum(0)
    bb_fold_vs = (j * x * bb["steal"]).sum(0) + (j * (1 - x) * bb["fold"]).sum(0)
    bb_best = np.sum(np.maximum(bb_call_vs, bb_fold_vs))
    return sb_value, bb_value, sb_best - sb_value, bb_best - bb_value


def _linear_programs(game, deal):
    """Each seat's equilibrium value and one equilibrium strategy, from two LPs: the BB's call
    vector minimising the SB's best-response value, and the SB's shove vector minimising the
    BB's. Variables: per-hand best-response values t, then the strategy."""
    sb, bb = _payoff_tables(game, deal)
    j = deal.joint
    n = j.shape[0]
    eye = np.eye(n)
    # SB holding h: t_h >= fold value, t_h >= shove value = sum_v j (steal + y_v (showdown - steal))
    a_ub = np.vstack([np.hstack([-eye, np.zeros((n, n))]), np.hstack([-eye, j * (sb["showdown"] - sb["steal"])])])
    b_ub = np.concatenate([-(j * sb["fold"]).sum(1), -(j * sb["steal"]).sum(1)])
    res_sb = linprog(np.concatenate([np.ones(n), np.zeros(n)]), A_ub=a_ub, b_ub=b_ub,
                     bounds=[(None, None)] * n + [(0, 1)] * n, method="highs")
    # BB holding v: s_v >= its fold value and >= its call value, both linear in the SB's x
    jt = j.T
    a_fold = jt * (bb["steal"] - bb["fold"]).T
    a_call = jt * (bb["showdown"] - bb["fold"]).T
    a_ub = np.vstack([np.hstack([-eye, a_fold]), np.hstack([-eye, a_call])])
    b_ub = np.concatenate([-(jt * bb["fold"].T).sum(1)] * 2)
    res_bb = linprog(np.concatenate([np.ones(n), np.zeros(n)]), A_ub=a_ub, b_ub=b_ub,
                     bounds=[(None, None)] * n + [(0, 1)] * n, method="highs")
    assert res_sb.status == 0 and res_bb.status == 0
    return res_sb.fun, res_sb.x[n:], res_bb.fun, res_bb.x[n:]


@pytest.mark.parametrize("depth, fees, ante", [(3, "none", 0.0), (10, "none", 0.0), (15, "none", 0.0), (12, "none", 1.0),
                                               (8, "coinpoker", 0.0)])
def test_reduced_deck_against_linear_programs(reduced_deal, depth, fees, ante):
    game = PushFoldGame(2, depth, fees, ante)
    sol = solve_headsup_combos(game, reduced_deal, tolerance_bb=1e-6, max_iterations=300_000)
    assert sol.converged
    sb_value, bb_value, sb_gain, bb_gain = _brute_force(game, reduced_deal, sol.sb_shove, sol.bb_call)
    assert max(sb_gain, bb_gain) <= 1e-6 + 1e-12
    assert max(sb_gain, bb_gain) == pytest.approx(sol.exploitability_bb, abs=1e-12)
    assert sol.seat_ev["SB"] == pytest.approx(sb_value, abs=1e-12)
    lp_sb, lp_call, lp_bb, lp_shove = _linear_programs(game, reduced_deal)
    # the game's values: each seat's guaranteed value, which the solution gets within its exploitability
    assert sb_value == pytest.approx(lp_sb, abs=2e-6) and bb_value == pytest.approx(lp_bb, abs=2e-6)
    # an equilibrium strategy is a best response to every equilibrium strategy of the other seat
    _, _, sb_gain_vs_lp, _ = _brute_force(game, reduced_deal, sol.sb_shove, lp_call)
    _, _, _, bb_gain_vs_lp = _brute_force(game, reduced_deal, lp_shove, sol.bb_call)
    assert sb_gain_vs_lp <= 3e-6 and bb_gain_vs_lp <= 3e-6


def test_blocking_changes_the_reduced_game(reduced_deal):
    """With so few ranks, who holds which card matters: the solution is not the one of the same
    equities dealt as if hands never collided."""
    game = PushFoldGame(2, 10, "none")
    n = reduced_deal.joint.shape[0]
    unblocked = ComboDeal(np.full((n, n), 1.0 / n**2), reduced_deal.equity, reduced_deal.combo_class)
    a = solve_headsup_combos(game, reduced_deal, refinements=0, max_iterations=50_000)
    b = solve_headsup_combos(game, unblocked, refinements=0, max_iterations=50_000)
    assert max(a.exploitability_bb, b.exploitability_bb) < 1e-4
    assert abs(a.bb_call_share - b.bb_call_share) > 0.01


def test_a_deal_that_ignores_blocking_reproduces_the_class_game(equity_table):
    """Class equities expanded to combos and dealt independently (colliding pairs allowed): the
    combo solver's class means are the class solver's strategy and values."""
    expanded = equity_table.equity[C.COMBO_CLASS[:, None], C.COMBO_CLASS[None, :]]
    p = np.full(C.N_COMBOS, 1.0 / C.N_COMBOS)
    deal = ComboDeal(np.outer(p, p), expanded, C.COMBO_CLASS.astype(np.int64))
    for depth in (6, 12):
        game = PushFoldGame(2, depth, "none")
        combo = solve_headsup_combos(game, deal, refinements=0)
        cls = solve_headsup(game, equity_table.equity)
        assert combo.seat_ev["SB"] == pytest.approx(cls.seat_ev["SB"], abs=2e-6)
        assert combo.sb_shove_share == pytest.approx(cls.sb_shove_share, abs=1e-3)
        # away from the few mixed classes (where an equilibrium may mix differently), the same chart
        pure = (np.minimum(cls.sb_shove, 1 - cls.sb_shove) < 1e-4) & (np.abs(cls.sb_shove_ev - cls.sb_fold_ev) > 1e-3)
        np.testing.assert_allclose(combo.sb_shove_class[pure], cls.sb_shove[pure], atol=1e-3)
        pure = (np.minimum(cls.bb_call, 1 - cls.bb_call) < 1e-4) & (np.abs(cls.bb_call_ev - cls.bb_fold_ev) > 1e-3)
        np.testing.assert_allclose(combo.bb_call_class[pure], cls.bb_call[pure], atol=1e-3)
        # the class chart played combo by combo in this game is the class game itself
        doc = headsup_combos_document(combo, cls)["class_game"]
        for seat, gain in cls.exploitability_per_seat.items():
            assert doc["exploitability_in_combo_game_per_seat"][seat] == pytest.approx(gain, abs=1e-9)


def test_bad_input(reduced_deal):
    with pytest.raises(ValueError, match="seats must be 2"):
        solve_headsup_combos(PushFoldGame(4, 10, "none"), reduced_deal)
    with pytest.raises(ValueError, match="sum to 1"):
        ComboDeal(reduced_deal.joint * 2, reduced_deal.equity, reduced_deal.combo_class)
    with pytest.raises(ValueError, match="expected \\(1326, 1326\\)"):
        ComboDeal.full_deck(reduced_deal.equity)


@pytest.mark.slow
def test_full_deck_against_the_linear_program_and_hrc():
    """The real game (the whole combo table, minutes to build): the solver's profile is exact,
    its values are the LP's, and its shares are HRC's published aggregates (within 0.01 pp: they
    print two decimals)."""
    from pokerlab.equity_combos import BOARDS_PER_PAIR
    from pokerlab.pushfold.plots import HRC_HEADSUP_SHARES

    wins, ties = exact_combo_counts()
    deal = ComboDeal.full_deck((wins + 0.5 * ties) / BOARDS_PER_PAIR)
    for depth, (shove, call) in HRC_HEADSUP_SHARES.items():
        game = PushFoldGame(2, depth, "none")
        sol = solve_headsup_combos(game, deal)
        assert sol.exploitability_bb <= 1e-12
        lp_sb, _, lp_bb, _ = _linear_programs(game, deal)
        assert sol.seat_ev["SB"] == pytest.approx(lp_sb, abs=1e-6) and sol.seat_ev["BB"] == pytest.approx(lp_bb, abs=1e-6)
        assert sol.sb_shove_share == pytest.approx(shove, abs=1e-4) and sol.bb_call_share == pytest.approx(call, abs=1e-4)
