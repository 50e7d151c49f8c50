"""Postflop model v2 (hand-dependent edge): still a game payoff, v1 when the table is zero, the
solver still matches brute-force CFR+, and the class table's fit and file format."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from pokerlab import cards
from pokerlab.icm import PayoutStructure, load_payouts
from pokerlab.preflop.class_edges import (ClassEdges, class_table_from_file, fit_class_table, read_class_table,
                                          write_class_table)
from pokerlab.preflop.payoffs import AggressorEdge, PostflopModel, chip_ev_payoffs
from pokerlab.preflop.payoffs_icm import icm_payoffs
from pokerlab.preflop.solve import SolveSettings, result_bytes, solve_spot
from pokerlab.preflop.solver_icm import IcmSolver, make_solver
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree, postflop_order
from test_icm import reference_payoffs
from test_payoffs import random_edges, random_tables
from test_solver import assert_matches_brute_force, random_prior

SIZING = load_sizing()
MODEL = PostflopModel()
M = cards.N_CLASSES
SPOTS = [Spot("cash", 2, 100), Spot("cash", 3, 15), Spot("mtt", 6, 20), Spot("cash", 6, 100), Spot("mtt", 4, 200)]


@pytest.mark.parametrize("spot", SPOTS, ids=lambda s: s.name)
def test_v2_conserves_chips_at_every_ending(spot):
    tree = build_tree(spot, SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL, random_edges(M, spot.seats))
    assert payoffs.class_vectors is not None and np.any(payoffs.term_class > 0)
    win, tie = random_tables(M, seed=spot.seats)
    rng = np.random.default_rng(1)
    for _ in range(20):
        hands = rng.integers(0, M, spot.seats)
        assert np.abs(payoffs.hand_payoffs(hands, win, tie).sum(axis=1)).max() < 1e-9


def test_v2_payoff_is_the_documented_formula_heads_up_and_three_way():
    """Exact values: heads-up share = EQ + edge + d_own - d_opp; three-way the random-duel rule."""
    edges = random_edges(M, 3)
    win, tie = random_tables(M, seed=4)
    eq = win + 0.5 * tie
    checked = set()
    for spot in (Spot("cash", 6, 100), Spot("cash", 2, 40)):
        tree = build_tree(spot, SIZING)
        v1, v2 = chip_ev_payoffs(tree, MODEL), chip_ev_payoffs(tree, MODEL, edges)
        hands = np.random.default_rng(spot.seats).integers(0, M, spot.seats)
        diff = v2.hand_payoffs(hands, win, tie) - v1.hand_payoffs(hands, win, tie)
        for z, k in enumerate(v2.nodes):
            node = tree.nodes[k]
            if node.kind != "flop":
                assert np.all(diff[z] == 0)  # v2 changes only flop endings
                continue
            players = sorted(node.players_in, key=lambda s: postflop_order(s, spot.seats))
            spr = node.behind / node.pot
            played = node.pot + len(players) * MODEL.commitment(spr) * node.behind
            d = dict(zip(players, edges.vectors(spr, len(players))))
            pairs = len(players) * (len(players) - 1) / 2
            for i in players:
                expect = sum(d[i][hands[i]] - d[j][hands[j]] for j in players if j != i) * played / pairs
                assert diff[z, i] == pytest.approx(expect, abs=1e-12)
            checked.add(len(players))
            # and the v2 share itself, heads-up: EQ + edge + d_ip - d_oop for the seat in position
            if len(players) == 2:
                oop, ip = players
                extra = MODEL.commitment(spr) * node.behind
                share = (v2.hand_payoffs(hands, win, tie)[z, ip] + node.contrib[ip] + extra) / played
                band = edges.band_of(spr)
                assert share == pytest.approx(eq[hands[ip], hands[oop]] + MODEL.edge(spr) + edges.ip[band, hands[ip]]
                                              - edges.oop[band, hands[oop]], abs=1e-12)
    assert checked == {2, 3}
    assert eq.shape == (M, M)


def test_v2_payoffs_depend_on_the_hands_only():
    """Rebuilt from the same inputs: the same payoffs; another class for one seat moves only the
    endings it contests. No strategy or range enters (the builder takes none)."""
    spot = Spot("cash", 6, 100)
    edges = random_edges(M, 8)
    tree = build_tree(spot, SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL, edges)
    win, tie = random_tables(M, seed=1)
    hands = np.array([0, 14, 28, 100, 168, 5])
    first = payoffs.hand_payoffs(hands, win, tie)
    again = chip_ev_payoffs(build_tree(spot, SIZING), MODEL, edges).hand_payoffs(hands.copy(), win, tie)
    assert np.array_equal(first, again)
    other = hands.copy()
    other[0] = 1
    moved = np.any(payoffs.hand_payoffs(other, win, tie) != first, axis=1)
    contested = np.array([0 in tree.nodes[k].players_in and len(tree.nodes[k].players_in) > 1 for k in payoffs.nodes])
    assert np.array_equal(moved, contested)


def test_v2_with_a_zero_table_has_v1_payoffs():
    tree = build_tree(Spot("cash", 6, 100), SIZING)
    win, tie = random_tables(M, seed=2)
    v1, v2 = chip_ev_payoffs(tree, MODEL), chip_ev_payoffs(tree, MODEL, ClassEdges.zero())
    for seed in range(5):
        hands = np.random.default_rng(seed).integers(0, M, 6)
        assert np.array_equal(v1.hand_payoffs(hands, win, tie), v2.hand_payoffs(hands, win, tie))


V2_TINY = [
    (Spot("cash", 2, 100), False, 3),
    (Spot("mtt", 3, 12), False, 2),  # three-way flop endings
    (Spot("cash", 2, 30), False, 3),
]


@pytest.mark.parametrize("spot, shove_or_fold, m", V2_TINY, ids=lambda x: getattr(x, "name", str(x)))
def test_solver_matches_brute_force_cfr_plus_on_v2_payoffs(spot, shove_or_fold, m):
    tree = build_tree(spot, SIZING, shove_or_fold=shove_or_fold)
    payoffs = chip_ev_payoffs(tree, MODEL, random_edges(m, 12, scale=0.1))
    assert any(tree.nodes[k].kind == "flop" for k in payoffs.nodes)
    win, tie = random_tables(m, 11)
    assert_matches_brute_force(tree, payoffs, win, tie, random_prior(m, 11))


# --- ICM formats: the same shift of the duel's win probability, valued by prize equity --------

ICM_STRUCTURE = PayoutStructure("six_left", 6, (50.0, 30.0, 20.0))


@pytest.mark.parametrize("spot", [Spot("mtt", 2, 10), Spot("mtt", 3, 15), Spot("mtt", 4, 40)], ids=lambda s: s.name)
def test_icm_v2_payoffs_equal_the_outcome_by_outcome_reference(spot):
    tree = build_tree(spot, SIZING)
    edges = random_edges(M, spot.seats + 20)
    payoffs = icm_payoffs(tree, MODEL, ICM_STRUCTURE, edges)
    win, tie = random_tables(M, 7)
    v1 = icm_payoffs(tree, MODEL, ICM_STRUCTURE)
    rng = np.random.default_rng(7)
    for _ in range(3):
        hands = rng.integers(0, M, spot.seats)
        seats, field = reference_payoffs(tree, ICM_STRUCTURE, hands, win, tie, edges)
        np.testing.assert_allclose(payoffs.hand_payoffs(hands, win, tie), seats, rtol=0, atol=1e-9)
        np.testing.assert_allclose(payoffs.field_payoffs(hands, win, tie), field, rtol=0, atol=1e-9)
        # the table moves the flop endings, for the seats in them only (the reference values the
        # others' prize equity outcome by outcome: a duel of equal stacks leaves it where it was)
        diff = payoffs.hand_payoffs(hands, win, tie) - v1.hand_payoffs(hands, win, tie)
        flop = np.array([tree.nodes[k].kind == "flop" for k in payoffs.nodes])
        in_hand = np.array([[s in tree.nodes[k].players_in for s in range(spot.seats)] for k in payoffs.nodes])
        assert np.any(diff != 0) and not np.any(diff[~flop]) and not np.any(diff[~in_hand])


@pytest.mark.parametrize("spot, shove_or_fold, m, name", [
    (Spot("mtt", 2, 30), False, 3, "icm_bubble"),
    (Spot("mtt", 3, 12), False, 2, "icm_final"),  # three-way flop endings: a seat in the hand watches a duel
    (Spot("mtt", 4, 15), False, 2, "icm_bubble"),  # folded seats watch flop duels
], ids=lambda x: getattr(x, "name", str(x)))
def test_icm_solver_matches_brute_force_cfr_plus_on_v2_payoffs(spot, shove_or_fold, m, name):
    tree = build_tree(spot, SIZING, shove_or_fold=shove_or_fold)
    payoffs = icm_payoffs(tree, MODEL, load_payouts()[name], random_edges(m, 12, scale=0.1))
    assert any(tree.nodes[k].kind == "flop" for k in payoffs.nodes)
    win, tie = random_tables(m, 11)
    assert_matches_brute_force(tree, payoffs, win, tie, random_prior(m, 11), solver_class=IcmSolver)


def _without_model(result: dict) -> dict:
    out = json.loads(json.dumps(result))
    out["settings"].pop("postflop_model")
    out["settings"].pop("class_table")
    return out


@pytest.mark.parametrize("spot", [Spot("cash", 2, 100), Spot("cash", 6, 40), Spot("icm_bubble", 4, 25)],
                         ids=lambda s: s.name)
def test_v2_with_a_zero_table_reproduces_v1_result_bytes(spot):
    """The class terms run (with zeros) and every byte but the model's own label is v1's."""
    win, tie = random_tables(M, seed=5)
    v1 = solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(30, 60)))
    settings = SolveSettings(checkpoints=(30, 60), model="v2", class_edges=ClassEdges.zero())
    v2 = solve_spot(spot, SIZING, win, tie, settings)
    assert v2["settings"]["postflop_model"] == "v2" and "postflop_model" not in v1["settings"]
    assert result_bytes(_without_model(v2)) == result_bytes(v1)
    # a real table moves the solve
    moved = solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(30, 60), model="v2",
                                                             class_edges=random_edges(M, 1)))
    assert result_bytes(_without_model(moved)) != result_bytes(v1)


def test_settings_name_the_bad_key(tmp_path):
    section = {"postflop": {"a": 1.375, "b": -0.02, "c2": 0.0175, "cap": 0.07, "model": "v3"},
               "checkpoints": [400], "bar_coefficient": 0.01}
    with pytest.raises(ValueError, match="solve.postflop.model"):
        SolveSettings.from_config(section)
    section["postflop"]["model"] = "v2"
    with pytest.raises(ValueError, match="solve.postflop.class_table"):
        SolveSettings.from_config(section)
    section["postflop"]["class_table"] = str(tmp_path / "missing.tsv")
    with pytest.raises(ValueError, match="solve.postflop.class_table"):
        SolveSettings.from_config(section)
    tree = build_tree(Spot("icm_final", 6, 20), SIZING)
    win, tie = random_tables(M, seed=5)
    solver, _ = make_solver(tree, MODEL, win, tie, classes=ClassEdges.zero())  # v2 prices ICM spots too
    assert isinstance(solver, IcmSolver) and solver.payoffs.class_vectors is not None
    with pytest.raises(ValueError, match="solve.postflop.aggressor"):  # the aggressor term does not
        make_solver(tree, MODEL, win, tie, aggressor=AggressorEdge(0.02, -0.01))


def _realisation(rows):
    return pd.DataFrame(rows, columns=["class", "role", "realisation", "se", "hands", "measurements"])


def test_fit_class_table_shrinks_by_the_empirical_bayes_factor():
    """Four in-position classes with known means and errors: the deviations are the centred means
    times tau^2 / (tau^2 + se^2), tau^2 the weighted spread minus the mean squared error."""
    rows = [("AA", "ip", 0.10, 0.01, 10, 5), ("72o", "ip", -0.02, 0.02, 10, 5), ("T9s", "ip", 0.06, 0.01, 20, 5),
            ("AKo", "ip", 0.02, 0.03, 10, 5), ("KK", "ip", 0.5, float("nan"), 3, 1), ("AA", "oop", -0.05, 0.5, 10, 4),
            ("72o", "oop", -0.06, 0.5, 10, 4)]
    table = fit_class_table(_realisation(rows))
    ip = table[table["role"] == "ip"].set_index("class")
    w = np.array([10, 10, 20, 10.0])
    r = np.array([0.10, -0.02, 0.06, 0.02])
    se = np.array([0.01, 0.02, 0.01, 0.03])
    raw = r - w @ r / w.sum()
    tau2 = w @ raw ** 2 / w.sum() - w @ se ** 2 / w.sum()
    dev = raw * tau2 / (tau2 + se ** 2)
    dev -= w @ dev / w.sum()
    got = ip.loc[["AA", "72o", "T9s", "AKo"], "deviation"].to_numpy()
    np.testing.assert_allclose(got, dev, rtol=0, atol=1e-15)
    assert ip.loc["KK", "deviation"] == 0.0 and ip.loc["KK", "shrink"] == 0.0  # one measurement: no evidence
    assert ip.loc["QQ", "deviation"] == 0.0  # never measured
    # out of position the spread is all noise: every class shrinks to the seat-level edge
    assert (table[table["role"] == "oop"]["deviation"] == 0).all()
    assert len(table) == 2 * M


def test_class_table_file_round_trip_and_errors(tmp_path):
    src = tmp_path / "class_realisation.tsv"
    _realisation([("AA", "ip", 0.10, 0.01, 10, 5), ("72o", "ip", -0.02, 0.01, 10, 5),
                  ("AA", "oop", -0.01, 0.01, 10, 5), ("72o", "oop", -0.09, 0.01, 10, 5)]).to_csv(src, sep="\t",
                                                                                                index=False)
    table = class_table_from_file(src, tmp_path / "class_table.tsv")
    edges = read_class_table(tmp_path / "class_table.tsv")
    assert edges.bands == ((0.0, math.inf),)
    assert edges.ip[0, cards.parse_class("AA")] == pytest.approx(table.set_index(["role", "class"]).loc[("ip", "AA"),
                                                                                                        "deviation"])
    assert edges.ip[0, cards.parse_class("AA")] > 0 > edges.oop[0, cards.parse_class("72o")]
    assert any("sha256" in note for note in edges.provenance["notes"]) and len(edges.provenance["sha256"]) == 64
    bad = table.copy()
    bad.loc[0, "class"] = "AXs"
    write_class_table(bad, tmp_path / "bad.tsv", [])
    with pytest.raises(ValueError, match="row .*AXs"):
        read_class_table(tmp_path / "bad.tsv")
    bad = table.copy()
    bad.loc[0, "role"] = "button"
    write_class_table(bad, tmp_path / "bad.tsv", [])
    with pytest.raises(ValueError, match="role"):
        read_class_table(tmp_path / "bad.tsv")


def test_aggressor_term_sets_the_edge_by_the_raisers_position():
    """Off by default; on, a raised pot's edge is the flat band of the last raiser's position, a
    limped pot keeps edge(spr), and chips are still conserved."""
    from pokerlab.preflop.payoffs import AggressorEdge

    tree = build_tree(Spot("cash", 6, 100), SIZING)
    win, tie = random_tables(M, seed=9)
    term = AggressorEdge(0.08, 0.01)
    base, agg = chip_ev_payoffs(tree, MODEL), chip_ev_payoffs(tree, MODEL, aggressor=term)
    hands = np.array([3, 40, 77, 90, 120, 150])
    b, a = base.hand_payoffs(hands, win, tie), agg.hand_payoffs(hands, win, tie)
    assert np.abs(a.sum(axis=1)).max() < 1e-9
    for node_id, raiser_ip in (("FFFRFC", True), ("FFFRFRC", False), ("FFFFCC", None)):
        z = int(np.flatnonzero(agg.nodes == tree.index[node_id])[0])
        node = tree.nodes[agg.nodes[z]]
        players = sorted(node.players_in, key=lambda s: postflop_order(s, 6))
        spr = node.behind / node.pot
        played = node.pot + 2 * MODEL.commitment(spr) * node.behind
        want = MODEL.edge(spr) if raiser_ip is None else (0.08 if raiser_ip else 0.01)
        assert a[z, players[-1]] - b[z, players[-1]] == pytest.approx((want - MODEL.edge(spr)) * played, abs=1e-12)
    with pytest.raises(ValueError, match="aggressor.in_position"):
        AggressorEdge(0.7, 0.0)


def _v2_measurements(ip, oop, n_endings=8, boards=3, seed=2):
    """Endings priced by model v2 itself (the fit's TRUE constants plus class deviations), no noise."""
    from pokerlab.fit import measure
    from test_fit import TRUE

    rng = np.random.default_rng(seed)
    frames = []
    n = ip.size
    for e in range(n_endings):
        pot, spr = float(rng.choice([2.0, 5.5, 6.0])), float(rng.uniform(0.5, 20))
        behind = pot * spr
        c, edge = TRUE.commitment(spr), TRUE.edge(spr)
        played = pot + 2 * c * behind
        for b in range(boards + 1):
            mass = {p: rng.uniform(0.5, 1.5, n) for p in (0, 1)}
            dev = {0: oop, 1: ip}
            mean_dev = {p: float(mass[p] @ dev[p] / mass[p].sum()) for p in (0, 1)}
            rows = []
            for player, sign in ((0, -1.0), (1, 1.0)):
                q = rng.uniform(0.05, 0.95, n)
                ev = (q + sign * edge + dev[player] - mean_dev[1 - player]) * played - c * behind
                rows.append(pd.DataFrame({"player": player, "combo": np.arange(n), "class": np.arange(n),
                                          "mass": mass[player], "ev": ev, "equity": q, "exp_pot": played,
                                          "p_showdown": 1.0}))
            record = {"key": f"s/e{e}/b{b}", "spot": "s", "rank": e, "heldout": b == boards, "reach": 0.05,
                      "board_weight": 1.0 / boards, "pot_bb": pot, "behind_bb": behind, "aggressor_in_position": True}
            frames.append((pd.concat(rows, ignore_index=True), record))
    return measure.build_measurements(frames), np.array([TRUE.a, TRUE.b, TRUE.c2, TRUE.cap])


def test_v2_fit_chain_recovers_class_deviations_and_prices_held_out_boards():
    """Measurements made by v2 itself: v2's error per hand is zero where v1's is not, and the
    class realisation -> class table chain recovers the deviations it was made with."""
    from pokerlab.fit import measure

    rng = np.random.default_rng(4)
    n = 40
    truth_ip, truth_oop = np.zeros(M), np.zeros(M)
    truth_ip[:n], truth_oop[:n] = rng.normal(0, 0.03, n), rng.normal(0, 0.03, n)
    data, theta = _v2_measurements(truth_ip[:n], truth_oop[:n])
    heldout = data.subset(True)
    assert measure.error_per_hand_v2(theta, heldout, truth_ip, truth_oop) == pytest.approx(0.0, abs=1e-9)
    assert measure.error_per_hand(theta, heldout) > 0.05
    # zero deviations: v2's prediction is v1's
    np.testing.assert_array_equal(measure.predict_v2(theta, data.per_measurement, data.combos, np.zeros(M), np.zeros(M)),
                                  measure.predict(theta, data.per_measurement, data.combos))
    table = fit_class_table(measure.class_realisation(data.subset(False)))
    for role, truth in (("ip", truth_ip), ("oop", truth_oop)):
        got = table[table["role"] == role]["deviation"].to_numpy()[:n]
        centred = truth[:n] - truth[:n].mean()
        assert np.abs(got - centred).max() < 0.01, role
        assert np.corrcoef(got, truth[:n])[0, 1] > 0.95
