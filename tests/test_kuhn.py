"""Kuhn poker: the published convergence figures, exact best responses and their invariants.

Published figures: a deterministic 100,000-iteration vanilla-CFR experiment on Kuhn poker
(full-tree, simultaneous regret updates, owner-reach-weighted average; exploitability =
NashConv / 2 in antes per hand). They are pinned here to the printed precision.
"""

import itertools
from pathlib import Path

import numpy as np
import pytest

from pokerlab.games import kuhn
from pokerlab.games.kuhn_experiment import CSV_COLUMNS, report_lines, write_kuhn_experiment


# ---------------------------------------------------------------------------------------------
# An independent reference: scalar recursion over the rules as written, no NumPy vectorisation.
# ---------------------------------------------------------------------------------------------


def _reference_value(profile):
    """P0's expected value, walking each deal's tree by hand."""
    total = 0.0
    for c0, c1 in itertools.permutations(range(3), 2):
        win = 1.0 if c0 > c1 else -1.0
        p0_bet = profile[0, 0, c0, 1]
        p1_bet_after_check = profile[1, 0, c1, 1]
        p0_call = profile[0, 1, c0, 1]
        p1_call = profile[1, 1, c1, 1]
        after_check = (1 - p1_bet_after_check) * win + p1_bet_after_check * ((1 - p0_call) * -1.0 + p0_call * 2 * win)
        after_bet = (1 - p1_call) * 1.0 + p1_call * 2 * win
        total += ((1 - p0_bet) * after_check + p0_bet * after_bet) / 6.0
    return total


def _random_profile(rng, pure_share=0.0):
    bet = rng.random(kuhn.PROFILE_SHAPE[:3])
    pure = rng.random(bet.shape) < pure_share
    bet[pure] = np.round(bet[pure])
    return np.stack([1.0 - bet, bet], axis=-1)


def _profiles(n=40, seed=20260801):
    rng = np.random.default_rng(seed)
    return [_random_profile(rng, pure_share=i / n) for i in range(n)]


@pytest.fixture(scope="module")
def run_100k():
    return kuhn.solve(100_000)


@pytest.fixture(scope="module")
def rows_by_iteration(run_100k):
    return {row["iteration"]: row for row in run_100k[1]}


def _printed(x, decimals=9):
    return f"{x:.{decimals}f}"


# ---------------------------------------------------------------------------------------------
# The published figures
# ---------------------------------------------------------------------------------------------


def test_published_figures_at_1000_iterations(rows_by_iteration):
    row = rows_by_iteration[1000]
    assert _printed(row["avg_value"]) == "-0.055557220"
    assert _printed(row["avg_value_gap"]) == "0.000001664"
    assert _printed(row["avg_exploitability"]) == "0.007269106"
    assert _printed(row["avg_nashconv"]) == "0.014538213"


def test_published_figures_at_100000_iterations(rows_by_iteration):
    row = rows_by_iteration[100_000]
    assert _printed(row["avg_delta0"]) == "0.000784906"
    assert _printed(row["avg_delta1"]) == "0.000567533"
    assert _printed(row["avg_nashconv"]) == "0.001352439"
    assert _printed(row["avg_exploitability"]) == "0.000676220"


def test_published_final_average_frequencies(run_100k):
    average = run_100k[0].average_profile()
    assert _printed(100 * average[0, 0, 0, 1], 4) == "20.5332"  # P0 bluffs J
    assert _printed(100 * average[0, 0, 2, 1], 4) == "62.4364"  # P0 bets K
    assert _printed(100 * average[1, 0, 0, 1], 4) == "33.5669"  # P1 bets J after a check
    assert _printed(100 * average[1, 1, 1, 1], 4) == "33.3412"  # P1 calls a bet with Q


def test_published_current_strategy_remarks(rows_by_iteration):
    # "current at 20,000 more exploitable than at 10,000"; "at 100,000 about 395.6 times the average"
    assert rows_by_iteration[20_000]["cur_exploitability"] > rows_by_iteration[10_000]["cur_exploitability"]
    row = rows_by_iteration[100_000]
    assert f"{row['cur_exploitability'] / row['avg_exploitability']:.1f}" == "395.6"


def test_uniform_profile_matches_openspiel_exploitability():
    # OpenSpiel's exploitability of the uniform random Kuhn policy is 11/24 (NashConv 11/12).
    figures = kuhn.profile_figures(kuhn.uniform_profile())
    assert figures.exploitability == pytest.approx(11 / 24, abs=1e-15)
    assert figures.nashconv == pytest.approx(11 / 12, abs=1e-15)


def test_checkpoint_rows(run_100k):
    solver, rows = run_100k
    iterations = [row["iteration"] for row in rows]
    assert {1, 10, 100, 1000, 10_000, 20_000, 100_000} <= set(iterations)
    assert iterations == sorted(iterations) and iterations[-1] == solver.iteration == 100_000
    assert all(set(row) == set(CSV_COLUMNS) for row in rows)


def test_config_checkpoints_include_the_published_ones():
    import yaml

    with open(Path(__file__).resolve().parents[1] / "config" / "config.yaml") as fh:
        section = yaml.safe_load(fh)["kuhn"]
    assert section["iterations"] == 100_000
    assert {1, 10, 100, 1000, 10_000, 20_000, 100_000} <= set(section["checkpoints"])


# ---------------------------------------------------------------------------------------------
# The game and the best responses
# ---------------------------------------------------------------------------------------------


def test_expected_value_on_hand_worked_profiles():
    always = np.zeros(kuhn.PROFILE_SHAPE)
    always[..., 1] = 1.0  # everybody bets and calls: a called bet, zero by symmetry
    assert kuhn.expected_value(always) == 0.0
    bet_into_folds = always.copy()
    bet_into_folds[1, 1] = [1.0, 0.0]  # P1 folds to every bet: P0 wins the ante
    assert kuhn.expected_value(bet_into_folds) == 1.0
    check_fold = np.zeros(kuhn.PROFILE_SHAPE)
    check_fold[..., 0] = 1.0
    check_fold[1, 0] = [0.0, 1.0]  # P0 checks and folds, P1 always bets: P0 loses the ante
    assert kuhn.expected_value(check_fold) == -1.0


def test_expected_value_matches_scalar_reference():
    profiles = _profiles()
    batched = kuhn.expected_value(np.stack(profiles))
    for profile, value in zip(profiles, batched):
        assert value == pytest.approx(_reference_value(profile), abs=1e-15)


@pytest.mark.parametrize("alpha", np.linspace(0.0, 1.0 / 3.0, 7))
def test_equilibrium_family_is_unexploitable(alpha):
    profile = kuhn.equilibrium_profile(alpha)
    figures = kuhn.profile_figures(profile)
    assert abs(figures.value - kuhn.GAME_VALUE) < 1e-15
    assert abs(figures.exploitability) < 1e-12
    assert abs(figures.delta0) < 1e-12 and abs(figures.delta1) < 1e-12
    assert np.isclose(profile[0, 0, 2, 1], 3 * profile[0, 0, 0, 1])  # K bet = 3 x J bluff


def test_both_best_responses_agree_and_match_reference_enumeration():
    for profile in _profiles() + [kuhn.uniform_profile(), kuhn.equilibrium_profile(0.2)]:
        for player in (0, 1):
            tree = kuhn.best_response_value(profile, player)
            plans = kuhn.best_response_value_by_enumeration(profile, player)
            assert abs(tree - plans) < 1e-12
            sign = 1.0 if player == 0 else -1.0
            reference = max(
                sign * _reference_value(np.where(np.arange(2)[:, None, None, None] == player, plan, profile))
                for plan in kuhn.PURE_PLANS
            )
            assert abs(plans - reference) < 1e-12


def test_best_responses_agree_on_cfr_profiles(run_100k):
    solver = run_100k[0]
    for profile in (solver.average_profile(), solver.current_profile()):
        for player in (0, 1):
            assert abs(kuhn.best_response_value(profile, player) - kuhn.best_response_value_by_enumeration(profile, player)) < 1e-12


def test_pure_plans_are_all_distinct_pure_strategies():
    plans = kuhn.PURE_PLANS
    assert plans.shape == (64, 2, 3, 2)
    assert np.all(plans.sum(axis=-1) == 1.0)
    assert len({p.tobytes() for p in plans}) == 64


def test_exploitability_is_non_negative(rows_by_iteration):
    for profile in _profiles():
        figures = kuhn.profile_figures(profile)
        assert figures.delta0 >= -1e-15 and figures.delta1 >= -1e-15
        assert figures.exploitability >= 0.0
    for row in rows_by_iteration.values():
        for prefix in ("avg_", "cur_"):
            assert row[prefix + "delta0"] >= 0.0 and row[prefix + "delta1"] >= 0.0


def test_clairvoyant_response_is_strictly_larger(run_100k):
    # Seeing the hidden card must pay against an equilibrium (and against what CFR ships) ...
    for profile in [kuhn.equilibrium_profile(a) for a in (0.0, 1 / 6, 1 / 3)] + [run_100k[0].average_profile()]:
        for player in (0, 1):
            assert kuhn.clairvoyant_response_value(profile, player) > kuhn.best_response_value(profile, player) + 0.05
    # ... and can never pay less. (Against uniform P1 it gains P0 nothing: each card's best
    # action is the same whatever P1 holds.)
    for profile in _profiles(10) + [kuhn.uniform_profile()]:
        for player in (0, 1):
            assert kuhn.clairvoyant_response_value(profile, player) >= kuhn.best_response_value(profile, player) - 1e-15


def test_information_set_names_follow_openspiel():
    names = [kuhn.information_set_name(p, q, c) for p in range(2) for q in range(2) for c in range(3)]
    assert names == ["J", "Q", "K", "Jpb", "Qpb", "Kpb", "Jp", "Qp", "Kp", "Jb", "Qb", "Kb"]


# ---------------------------------------------------------------------------------------------
# CFR variants, artefacts and errors
# ---------------------------------------------------------------------------------------------


def test_cfr_plus_converges_faster_than_vanilla(rows_by_iteration):
    _, rows = kuhn.solve(1000, variant="cfr+", updates="alternating", checkpoints=())
    assert rows[-1]["avg_exploitability"] < 1e-3
    assert rows[-1]["avg_exploitability"] < rows_by_iteration[1000]["avg_exploitability"] / 10


def test_alternating_vanilla_cfr_differs_but_converges():
    _, rows = kuhn.solve(1000, updates="alternating", checkpoints=(100,))
    assert rows[-1]["avg_exploitability"] < rows[0]["avg_exploitability"] < 0.05


def test_solver_resumes_exactly():
    one_go = kuhn.KuhnSolver()
    one_go.run(300)
    in_steps = kuhn.KuhnSolver()
    for steps in (1, 99, 200):
        in_steps.run(steps)
    np.testing.assert_array_equal(one_go.strategy_sum, in_steps.strategy_sum)
    np.testing.assert_array_equal(one_go.regrets, in_steps.regrets)


def test_artefacts_are_byte_identical_on_rerun(tmp_path):
    import hashlib
    import json

    outputs = []
    for name in ("a", "b"):
        folder = tmp_path / name
        names = ("convergence.csv", "final_strategies.json", "exploitability.png", "SHA256SUMS", "plus.csv")
        paths = [folder / f for f in names]
        write_kuhn_experiment(
            csv=paths[0], strategies=paths[1], plot=paths[2], sums=paths[3], cfr_plus_csv=paths[4],
            iterations=500, checkpoints=[1, 10, 100],
        )
        outputs.append([p.read_bytes() for p in paths])
    assert outputs[0] == outputs[1]
    csv_lines = outputs[0][0].decode().splitlines()
    assert csv_lines[0] == ",".join(CSV_COLUMNS)
    assert [line.split(",")[0] for line in csv_lines[1:]] == ["1", "10", "100", "500"]
    strategies = json.loads(outputs[0][1])
    assert strategies["iterations"] == 500
    assert all(len(strategies[k]["strategy"][p]) == 6 for k in ("average", "current") for p in ("P0", "P1"))
    sums = outputs[0][3].decode().splitlines()
    digests = {line.split("  ")[1]: line.split("  ")[0] for line in sums}
    assert len(digests) == 4
    for p in paths[:3] + paths[4:]:
        assert digests[p.name] == hashlib.sha256((tmp_path / "b" / p.name).read_bytes()).hexdigest()


def test_bad_input_is_rejected_before_work():
    with pytest.raises(ValueError, match="iterations"):
        kuhn.solve(0)
    with pytest.raises(ValueError, match="checkpoints"):
        kuhn.solve(10, checkpoints=[5, -1])
    with pytest.raises(ValueError, match="variant"):
        kuhn.solve(10, variant="mccfr")
    with pytest.raises(ValueError, match="update scheme"):
        kuhn.solve(10, updates="sometimes")
    with pytest.raises(ValueError, match="shape"):
        kuhn.profile_figures(np.full((2, 3, 2), 0.5))
    with pytest.raises(ValueError, match="sum to 1"):
        kuhn.best_response_value(np.full(kuhn.PROFILE_SHAPE, 0.4), 0)
    with pytest.raises(ValueError, match="alpha"):
        kuhn.equilibrium_profile(0.5)


def test_command_prints_the_figures(capsys):
    import argparse
    import importlib

    parser = argparse.ArgumentParser()
    importlib.import_module("pokerlab.commands.kuhn").register(parser.add_subparsers())
    args = parser.parse_args(["kuhn", "--iterations", "1000", "--checkpoints", "10,1000"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "-0.055557220  0.000001664" in out and "0.014538213  0.007269106" in out


def test_report_lines_name_units_and_conventions(run_100k):
    text = "\n".join(report_lines(*run_100k))
    assert "antes per hand" in text and "NashConv / 2" in text
    assert "J  20.5332%" in text and "K  62.4364%" in text
