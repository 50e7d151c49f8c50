"""Fee model and settlement: exact values by hand, fold baselines, conservation, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.pushfold.fees import FEE_PRESETS, FeeModel, PushFoldGame, fee_model, fold_baselines, settle


def test_coinpoker_heads_up_fold_baselines_follow_from_settlement():
    # The folder's blind is the whole raked pot (the winner takes its own chips back), so the
    # whole 0.06bb rakeback is credited to the folder.
    game = PushFoldGame(2, 10, "coinpoker")
    assert fold_baselines(game) == pytest.approx({"SB": -0.44, "BB": -0.94}, abs=1e-12)
    assert fold_baselines(PushFoldGame(2, 10, "none")) == pytest.approx({"SB": -0.5, "BB": -1.0}, abs=1e-12)
    # independent of depth
    assert fold_baselines(PushFoldGame(2, 3, "coinpoker")) == pytest.approx({"SB": -0.44, "BB": -0.94}, abs=1e-12)


def test_settle_by_hand_showdown_and_ledger_excludes_rakeback():
    fees = FEE_PRESETS["coinpoker"]
    s = settle(fees, [10.0, 10.0], [0.25, 0.75])  # pot 20, drop 0.22, 19.78 awarded
    assert s.pot_bb == 20.0
    np.testing.assert_allclose(s.ledger_net, [0.25 * 19.78 - 10, 0.75 * 19.78 - 10], atol=1e-12)
    np.testing.assert_allclose(s.rakeback, [0.03, 0.03], atol=1e-12)
    np.testing.assert_allclose(s.objective_net, s.ledger_net + 0.03, atol=1e-12)
    # chips: ledger nets sum to minus the drop; objective nets to minus (drop - rakeback)
    assert s.ledger_net.sum() == pytest.approx(-0.22, abs=1e-12)
    assert s.objective_net.sum() == pytest.approx(-0.16, abs=1e-12)


def test_every_ending_costs_the_same_fee_so_the_game_stays_constant_sum():
    for seats in (2, 4):
        game = PushFoldGame(seats, 8, "coinpoker", ante_bb=1.0)
        for bits in range(2**seats):
            live = [s for s in range(seats) if bits >> s & 1]
            award, const = game.terminal_coefficients(live)
            shares = np.full(seats, 0.0)
            if len(live) >= 2:
                shares[live] = 1.0 / len(live)
            total = (award * shares + const).sum()
            assert total == pytest.approx(-0.16, abs=1e-12), (seats, live)


def test_steal_and_walk_values():
    game = PushFoldGame(4, 8, "coinpoker")
    # CO shoves, everybody folds: SB and BB blinds (1.5bb) are the pot, the drop leaves it
    _, const = game.terminal_coefficients([0])
    assert const[0] == pytest.approx(1.5 - 0.22)
    assert const[2] == pytest.approx(-0.5 + 0.06 * 0.5 / 1.5)
    assert const[3] == pytest.approx(-1.0 + 0.06 * 1.0 / 1.5)
    assert const[1] == 0.0
    # folded round to the big blind: a walk, only the small blind is in the pot
    _, const = game.terminal_coefficients([])
    assert const[3] == pytest.approx(0.5 - 0.22)
    assert const[2] == pytest.approx(-0.44)


def test_bad_input_fails_clearly():
    with pytest.raises(ValueError, match="depth_bb"):
        PushFoldGame(2, -5, "none")
    with pytest.raises(ValueError, match="unknown preset 'pokerstars'"):
        PushFoldGame(2, 10, "pokerstars")
    with pytest.raises(ValueError, match="seats: 3"):
        PushFoldGame(3, 10, "none")
    with pytest.raises(ValueError, match="ante_bb"):
        PushFoldGame(2, 10, "none", ante_bb=-1)
    with pytest.raises(ValueError, match="rakeback_bb"):
        FeeModel("x", rake_bb=0.05, rakeback_bb=0.06)
    with pytest.raises(ValueError, match="rake_bb"):
        fee_model({"rake_bb": -0.1})
    with pytest.raises(ValueError, match="unknown field"):
        fee_model({"rake": 0.1})


@pytest.mark.parametrize("argv, message", [
    (["--seats", "2", "--depth", "-3"], "depth_bb"),
    (["--seats", "2", "--depth", "10", "--fees", "partypoker"], "unknown preset 'partypoker'"),
    (["--seats", "3", "--depth", "10"], "seats: 3"),
])
def test_command_line_rejects_bad_input_before_any_work(argv, message, capsys):
    from pokerlab.cli import main

    assert main(["pushfold", "--table", "no-such-table.npz", *argv]) == 2
    assert message in capsys.readouterr().err
