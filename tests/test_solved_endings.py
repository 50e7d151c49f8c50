"""Solved endings in the preflop payoffs: per-ending class corrections (bb) at heads-up flop endings.

Checked against the documented formula hand by hand, chip conservation pair by pair, brute-force
CFR+ on small games, v1's bytes with zero corrections, and the table file's checks."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.preflop.ending_corrections import (EndingCorrections, read_ending_corrections,
                                                 write_ending_corrections)
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.solve import SolveSettings, result_bytes, sizing_digest, solve_spot, solved_table_name
from pokerlab.preflop.solver_icm import make_solver
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree, postflop_order
from test_payoffs import random_tables
from test_solver import assert_matches_brute_force, random_prior

SIZING = load_sizing()
MODEL = PostflopModel()
ROOT = Path(__file__).resolve().parents[1]
M = cards.N_CLASSES


def headsup_flop_endings(tree) -> list[str]:
    return [tree.nodes[k].id for k in tree.endings
            if tree.nodes[k].kind == "flop" and len(tree.nodes[k].players_in) == 2]


def random_corrections(tree, m: int, seed: int, scale: float = 2.0, every: int = 1) -> EndingCorrections:
    """Random corrections (bb) at every ``every``-th heads-up flop ending of ``tree``."""
    rng = np.random.default_rng(seed)
    nodes = headsup_flop_endings(tree)[::every]
    return EndingCorrections(tree.spot.name, {n: (rng.normal(0, scale, m), rng.normal(0, scale, m)) for n in nodes})


@pytest.mark.parametrize("spot", [Spot("cash", 2, 100), Spot("cash", 6, 100), Spot("mtt", 3, 40)],
                         ids=lambda s: s.name)
def test_solved_payoff_is_the_model_plus_own_minus_opponent_correction(spot):
    tree = build_tree(spot, SIZING)
    table = random_corrections(tree, M, seed=spot.seats, every=2)  # half the endings solved, half modelled
    v1, solved = chip_ev_payoffs(tree, MODEL), chip_ev_payoffs(tree, MODEL, solved=table)
    win, tie = random_tables(M, seed=3)
    rng = np.random.default_rng(4)
    solved_rows = [z for z, k in enumerate(v1.nodes) if tree.nodes[k].id in table.endings]
    assert solved_rows and np.all(solved.tier[solved_rows] == 5)
    assert np.array_equal(np.delete(solved.tier, solved_rows), np.delete(v1.tier, solved_rows))
    for _ in range(5):
        hands = rng.integers(0, M, spot.seats)
        base, paid = v1.hand_payoffs(hands, win, tie), solved.hand_payoffs(hands, win, tie)
        np.testing.assert_allclose(paid.sum(axis=1), 0.0, atol=1e-9)  # chips conserved at every ending
        expected = np.zeros_like(base)
        for z in solved_rows:
            node = tree.nodes[v1.nodes[z]]
            oop, ip = sorted(node.players_in, key=lambda s: postflop_order(s, spot.seats))
            d_oop, d_ip = table.endings[node.id]
            surplus = d_ip[hands[ip]] - d_oop[hands[oop]]
            expected[z, ip], expected[z, oop] = surplus, -surplus
        np.testing.assert_allclose(paid - base, expected, rtol=0, atol=1e-9)


def test_a_common_shift_of_an_endings_corrections_changes_no_payoff():
    tree = build_tree(Spot("cash", 2, 60), SIZING)
    table = random_corrections(tree, M, seed=8)
    shifted = EndingCorrections(table.spot, {n: (a + 1.5, b + 1.5) for n, (a, b) in table.endings.items()})
    win, tie = random_tables(M, seed=9)
    hands = np.array([17, 101])
    np.testing.assert_allclose(chip_ev_payoffs(tree, MODEL, solved=table).hand_payoffs(hands, win, tie),
                               chip_ev_payoffs(tree, MODEL, solved=shifted).hand_payoffs(hands, win, tie), atol=1e-12)


@pytest.mark.parametrize("spot, m", [(Spot("cash", 2, 100), 3), (Spot("cash", 3, 40), 2)], ids=lambda x: str(x))
def test_solver_matches_brute_force_cfr_plus_on_solved_payoffs(spot, m):
    tree = build_tree(spot, SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL, solved=random_corrections(tree, m, seed=12, scale=0.5))
    assert np.any(payoffs.tier == 5)
    win, tie = random_tables(m, 11)
    assert_matches_brute_force(tree, payoffs, win, tie, random_prior(m, 11))


def _table_folder(tmp_path, spot, table, **provenance):
    tree = build_tree(spot, SIZING)
    meta = {"base_postflop": asdict(MODEL), "sizing_sha256": sizing_digest(tree.sizing), "settings_sha256": "s1",
            **provenance}
    write_ending_corrections(tmp_path / solved_table_name(spot), EndingCorrections(table.spot, table.endings, meta))
    return tmp_path


def _without_solved(result: dict) -> dict:
    out = json.loads(json.dumps(result))
    out["settings"].pop("postflop_model")
    out["settings"].pop("solved_endings")
    out["tier_shares"].pop("flop_solved")
    return out


def test_zero_corrections_reproduce_v1_result_bytes(tmp_path):
    spot = Spot("cash", 2, 30)
    tree = build_tree(spot, SIZING)
    zero = EndingCorrections(spot.name, {n: (np.zeros(M), np.zeros(M)) for n in headsup_flop_endings(tree)})
    folder = _table_folder(tmp_path, spot, zero)
    win, tie = random_tables(M, seed=5)
    v1 = solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(30, 60)))
    settings = SolveSettings(checkpoints=(30, 60), model="solved", solved_tables=str(folder), solved_settings_sha256="s1")
    solved = solve_spot(spot, SIZING, win, tie, settings)
    assert solved["settings"]["postflop_model"] == "solved"
    assert solved["settings"]["solved_endings"]["endings"] == sorted(zero.endings)
    # every flop ending of the heads-up tree is solved: the model share moves to the solved tier
    assert solved["model_share"] == 0.0 and solved["tier_shares"]["flop_solved"] == v1["tier_shares"]["flop"]
    out = _without_solved(solved)
    out["tier_shares"]["flop"], out["model_share"] = v1["tier_shares"]["flop"], v1["model_share"]
    assert result_bytes(out) == result_bytes(v1)
    # a spot without a table in the folder is solved as v1, to v1's bytes
    other = Spot("cash", 2, 20)
    assert result_bytes(solve_spot(other, SIZING, win, tie, settings)) == \
        result_bytes(solve_spot(other, SIZING, win, tie, SolveSettings(checkpoints=(30, 60))))
    # real corrections move the solve
    _table_folder(tmp_path, spot, random_corrections(tree, M, seed=1))
    moved = solve_spot(spot, SIZING, win, tie, settings)
    assert moved["nodes"] != solved["nodes"]


@pytest.mark.parametrize("provenance, message", [
    ({"base_postflop": {"a": 1.2, "b": 0.0, "c2": 0.01, "cap": 0.05}}, "model constants"),
    ({"sizing_sha256": "0" * 64}, "sizing schedule"),
    ({"settings_sha256": "s2"}, "solved settings"),
])
def test_a_table_whose_provenance_does_not_match_the_config_is_refused(tmp_path, provenance, message):
    spot = Spot("cash", 2, 30)
    tree = build_tree(spot, SIZING)
    folder = _table_folder(tmp_path, spot, random_corrections(tree, M, seed=2), **provenance)
    settings = SolveSettings(checkpoints=(30,), model="solved", solved_tables=str(folder), solved_settings_sha256="s1")
    with pytest.raises(ValueError, match=message):
        settings.solved_endings(spot, tree.sizing)


def test_a_table_of_another_spot_or_an_unknown_ending_is_refused(tmp_path):
    spot = Spot("cash", 2, 30)
    tree = build_tree(spot, SIZING)
    table = random_corrections(build_tree(Spot("cash", 2, 40), SIZING), M, seed=2)  # cash/2max/40bb's
    folder = _table_folder(tmp_path, spot, table)
    settings = SolveSettings(checkpoints=(30,), model="solved", solved_tables=str(folder))
    with pytest.raises(ValueError, match="measured for cash/2max/40bb"):
        settings.solved_endings(spot, tree.sizing)
    bad = EndingCorrections(spot.name, {"RRRC": (np.zeros(M), np.zeros(M)), "XX": (np.zeros(M), np.zeros(M))})
    with pytest.raises(ValueError, match="'XX' is not a flop ending"):
        chip_ev_payoffs(tree, MODEL, solved=bad)


def test_icm_formats_refuse_solved_endings():
    tree = build_tree(Spot("icm_bubble", 2, 30), SIZING)
    win, tie = random_tables(M, seed=5)
    with pytest.raises(ValueError, match="ICM format"):
        make_solver(tree, MODEL, win, tie, solved=random_corrections(tree, M, seed=3))


def test_table_file_round_trips_and_names_the_bad_line(tmp_path):
    tree = build_tree(Spot("cash", 2, 100), SIZING)
    table = EndingCorrections("cash/2max/100bb", random_corrections(tree, M, seed=4).endings,
                              {"settings_sha256": "abc", "command": "snakemake ..."})
    path = tmp_path / "t.tsv"
    write_ending_corrections(path, table)
    back = read_ending_corrections(path)
    assert back.spot == table.spot and back.provenance["settings_sha256"] == "abc"
    assert list(back.endings) == list(table.endings) and back.digest() == table.digest()
    for node, (oop, ip) in table.endings.items():
        np.testing.assert_allclose(back.endings[node][0], oop, atol=5e-7)
        np.testing.assert_allclose(back.endings[node][1], ip, atol=5e-7)
    lines = path.read_text().splitlines()
    for number, bad, message in [(4, lines[3].replace("\toop\t", "\tmid\t"), "line 4: role 'mid'"),
                                 (5, lines[4].rsplit("\t", 1)[0] + "\tnan", "line 5: correction 'nan'"),
                                 (6, "\t".join(lines[5].split("\t")[:2] + ["AXs"] + lines[5].split("\t")[3:]),
                                  "line 6: unknown class 'AXs'")]:
        edited = lines.copy()
        edited[number - 1] = bad
        (tmp_path / "bad.tsv").write_text("\n".join(edited) + "\n")
        with pytest.raises(ValueError, match=message):
            read_ending_corrections(tmp_path / "bad.tsv")
    (tmp_path / "short.tsv").write_text("\n".join(lines[:-1]) + "\n")
    with pytest.raises(ValueError, match="lists 168 of 169 classes"):
        read_ending_corrections(tmp_path / "short.tsv")


# --- the loop's arithmetic (pokerlab.solved.values, pokerlab.solved.loop) ------------------------

from pokerlab.solved import values as V  # noqa: E402
from pokerlab.solved.loop import strategy_change  # noqa: E402


def _ending(spot: Spot, node_id: str):
    tree = build_tree(spot, SIZING)
    node = tree.node(node_id)
    seats = tuple(sorted(node.players_in, key=lambda s: postflop_order(s, spot.seats)))
    z = [tree.nodes[k].id for k in tree.endings].index(node_id)
    return tree, node, seats, z


def test_model_class_values_are_the_payoffs_averaged_over_the_opponents_range():
    tree, node, seats, z = _ending(Spot("cash", 2, 100), "RC")
    win, tie = random_tables(M, seed=1)
    rng = np.random.default_rng(2)
    q_oop, q_ip = rng.uniform(0, 1, M) * cards.CLASS_PRIOR, rng.uniform(0, 1, M) * cards.CLASS_PRIOR
    for payoffs in (chip_ev_payoffs(tree, MODEL), chip_ev_payoffs(tree, MODEL, solved=random_corrections(tree, M, 3))):
        m_oop, m_ip = V.model_class_values(payoffs, z, seats, q_oop, q_ip, win, tie)
        for x in (0, 50, 168):  # brute force: every opponent class, weighted by its distribution
            hands = np.zeros(2, dtype=int)
            ip_vs = []
            oop_vs = []
            for y in range(M):
                hands[seats[1]], hands[seats[0]] = x, y
                ip_vs.append(payoffs.hand_payoffs(hands, win, tie)[z, seats[1]])
                hands[seats[0]], hands[seats[1]] = x, y
                oop_vs.append(payoffs.hand_payoffs(hands, win, tie)[z, seats[0]])
            assert m_ip[x] == pytest.approx(np.dot(ip_vs, q_oop) / q_oop.sum(), abs=1e-9)
            assert m_oop[x] == pytest.approx(np.dot(oop_vs, q_ip) / q_ip.sum(), abs=1e-9)
    # an opponent that brings no hand leaves nothing to value against: NaN, and no warning
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m_oop, m_ip = V.model_class_values(chip_ev_payoffs(tree, MODEL), z, seats, np.zeros(M), q_ip, win, tie)
    assert np.isnan(m_ip).all() and np.isfinite(m_oop).all()


def _modelled_ending(node_id: str, seed: int):
    """An ending of the heads-up 100bb tree with random ranges, its model class values and a random generator."""
    tree, node, seats, z = _ending(Spot("cash", 2, 100), node_id)
    win, tie = random_tables(M, seed=seed)
    rng = np.random.default_rng(seed + 1)
    q_oop, q_ip = rng.uniform(0, 1, M) * cards.CLASS_PRIOR, rng.uniform(0, 1, M) * cards.CLASS_PRIOR
    model = V.model_class_values(chip_ev_payoffs(tree, MODEL), z, seats, q_oop, q_ip, win, tie)
    return tree, seats, z, win, tie, q_oop, q_ip, model, rng


def _chip_conserving_solved(model, q_oop, q_ip, rng) -> V.ClassValues:
    """Solved values that differ from the model's by random class offsets, with range means that
    conserve chips as the model's do."""
    v_oop, v_ip = model[0] + rng.normal(0, 1.0, M), model[1] + rng.normal(0, 1.0, M)
    excess = np.dot(v_oop, q_oop) / q_oop.sum() + np.dot(v_ip, q_ip) / q_ip.sum()
    return V.ClassValues(v_oop - excess / 2, v_ip - excess / 2, q_oop, q_ip)


def test_corrections_make_the_model_pay_every_class_its_solved_value():
    tree, seats, z, win, tie, q_oop, q_ip, model, rng = _modelled_ending("CC", seed=4)
    assert np.dot(model[0], q_oop) / q_oop.sum() + np.dot(model[1], q_ip) / q_ip.sum() == pytest.approx(0, abs=1e-9)
    solved = _chip_conserving_solved(model, q_oop, q_ip, rng)
    d_oop, d_ip, residual = V.corrections(solved, model, q_oop, q_ip)
    assert residual == pytest.approx(0.0, abs=1e-9)
    paid = V.corrected_values(model, (d_oop, d_ip), q_oop, q_ip)
    np.testing.assert_allclose(paid[0], solved.oop, atol=1e-9)
    np.testing.assert_allclose(paid[1], solved.ip, atol=1e-9)
    assert V.valuation_gap(paid, solved, q_oop, q_ip) == pytest.approx(0.0, abs=1e-9)
    assert V.valuation_gap(model, solved, q_oop, q_ip) > 0.5
    # ... and the preflop payoffs with those corrections pay exactly that (the table goes through the solver's terms)
    table = EndingCorrections(tree.spot.name, {"CC": (d_oop, d_ip)})
    again = V.model_class_values(chip_ev_payoffs(tree, MODEL, solved=table), z, seats, q_oop, q_ip, win, tie)
    np.testing.assert_allclose(again[0], solved.oop, atol=1e-9)
    np.testing.assert_allclose(again[1], solved.ip, atol=1e-9)


def test_solved_values_that_do_not_conserve_chips_split_the_residual_evenly():
    _, _, _, _, _, q_oop, q_ip, model, rng = _modelled_ending("RC", seed=6)
    exact = _chip_conserving_solved(model, q_oop, q_ip, rng)
    off = V.ClassValues(exact.oop + 0.3, exact.ip + 0.3, q_oop, q_ip)  # 0.6 bb more than the pot in all
    d_oop, d_ip, residual = V.corrections(off, model, q_oop, q_ip)
    assert residual == pytest.approx(0.6, abs=1e-9)
    paid = V.corrected_values(model, (d_oop, d_ip), q_oop, q_ip)
    np.testing.assert_allclose(paid[0], exact.oop, atol=1e-9)
    np.testing.assert_allclose(paid[1], exact.ip, atol=1e-9)


def test_solved_class_values_weigh_combos_by_mass_and_flops_by_weight():
    import pandas as pd

    aa, aks = cards.CLASS_COMBOS[0], cards.CLASS_COMBOS[1]
    frames = []
    for weight, evs in ((1.0, (3.0, 5.0, 1.0)), (3.0, (7.0, 7.0, 2.0))):
        frame = pd.DataFrame({"player": [1, 1, 0], "combo": [aa[0], aa[1], aks[0]], "class": [0, 0, 1],
                              "mass": [1.0, 3.0, 2.0], "ev": list(evs)})
        frames.append((frame, {"board_weight": weight}))
    values = V.solved_class_values(frames, contrib=(1.0, 2.0))
    # AA in position: (1*1*3 + 1*3*5 + 3*1*7 + 3*3*7) / (1 + 3 + 3 + 9) minus its 2bb contribution
    assert values.ip[0] == pytest.approx((3 + 15 + 21 + 63) / 16 - 2.0)
    assert values.oop[1] == pytest.approx((2 * 1 + 6 * 2) / 8 - 1.0)
    assert np.isnan(values.ip[1]) and np.isnan(values.oop[0]) and values.mass_ip[0] == 16


def test_flop_spread_is_the_sample_deviation_of_per_flop_class_values():
    """Equal board weights: the spread is NumPy's sample standard deviation of the per-flop class
    values (ddof=1); unequal weights: the reliability-weighted estimate; one flop: no spread."""
    import pandas as pd

    aa, aks = cards.CLASS_COMBOS[0], cards.CLASS_COMBOS[1]

    def flop(ev_aa, ev_aks, weight):
        frame = pd.DataFrame({"player": [1, 0], "combo": [aa[0], aks[0]], "class": [0, 1], "mass": [1.0, 1.0],
                              "ev": [ev_aa, ev_aks]})
        return frame, {"board_weight": weight}

    evs = [(3.0, -1.0), (7.0, 0.5), (4.0, 2.0)]
    oop, ip = V.flop_spread([flop(a, b, 0.25) for a, b in evs], contrib=(1.0, 2.0))
    assert ip[0] == pytest.approx(np.std([a for a, _ in evs], ddof=1))
    assert oop[1] == pytest.approx(np.std([b for _, b in evs], ddof=1))
    assert np.isnan(ip[1]) and np.isnan(oop[0])
    # weights 1 and 3 on values 3 and 7: mean 6, sum w (v - mean)^2 = 9 + 3 = 12, V1 - V2/V1 = 4 - 10/4
    oop, ip = V.flop_spread([flop(3.0, 0.0, 1.0), flop(7.0, 0.0, 3.0)], contrib=(0.0, 0.0))
    assert ip[0] == pytest.approx(np.sqrt(12 / 1.5))
    assert np.all(np.isnan(V.flop_spread([flop(3.0, 0.0, 1.0)], contrib=(0.0, 0.0))[1]))
    assert V.effective_flops(np.full(7, 0.3)) == pytest.approx(7.0)
    assert V.effective_flops(np.array([1.0, 3.0])) == pytest.approx(16 / 10)


def _flops_of_a_linear_truth(model, q_oop, q_ip, contrib, pot, win, tie, theta, beta, rng, flops=5):
    """Measurements (one combo per class) whose gap to ``model`` on each flop is a hand-shape term
    ``class_features() @ theta[role]`` plus ``beta[role]`` times the flop's checked-down share above the
    equity table's, that share drawn at random."""
    import pandas as pd

    features = V.class_features()
    combo = np.array([cards.CLASS_COMBOS[x][0] for x in range(cards.N_CLASSES)])
    out = []
    for f in range(flops):
        parts = []
        for r, q_opponent in enumerate((q_ip, q_oop)):
            share = V.model_equity_bb(pot, q_opponent, win, tie) + rng.normal(0.0, 1.0, cards.N_CLASSES)
            ev = contrib[r] + model[r] + features @ theta[r] + beta[r] * (share - V.model_equity_bb(pot, q_opponent,
                                                                                                     win, tie))
            parts.append(pd.DataFrame({"player": r, "combo": combo, "class": np.arange(cards.N_CLASSES),
                                       "mass": rng.uniform(0.5, 1.5, cards.N_CLASSES), "ev": ev, "equity_bb": share}))
        out.append((pd.concat(parts, ignore_index=True), {"board_weight": [0.1, 0.3, 0.2, 0.25, 0.15][f]}))
    return out


def test_the_pooled_estimator_recovers_a_hand_shape_correction_under_flop_noise():
    """Where each flop's gap is a hand-shape correction plus a multiple of the flop's equity luck, the
    control variate removes the luck exactly and the fit returns the correction for every class;
    each class's own mean does not (it keeps the flops' luck)."""
    _, _, _, win, tie, q_oop, q_ip, model, rng = _modelled_ending("RC", seed=8)
    contrib, pot = (2.5, 2.5), 5.0
    theta = (np.array([0.2, 1.0, 0.4, -0.3, 0.5, -0.6, 0.3]), np.array([-0.1, 0.7, 0.2, 0.4, -0.2, -0.5, 0.1]))
    flops = _flops_of_a_linear_truth(model, q_oop, q_ip, contrib, pot, win, tie, theta, (1.8, 2.4), rng)
    pooled = V.pooled_class_values(flops, contrib, model, q_oop, q_ip, pot, win, tie)
    features = V.class_features()
    np.testing.assert_allclose(pooled.oop, model[0] + features @ theta[0], atol=1e-9)
    np.testing.assert_allclose(pooled.ip, model[1] + features @ theta[1], atol=1e-9)
    own = V.solved_class_values(flops, contrib)
    assert np.max(np.abs(own.oop - pooled.oop)) > 0.5
    np.testing.assert_allclose(pooled.mass_oop, own.mass_oop, rtol=1e-12)
    # the estimator switch: per_class is the solved values themselves, pooled the fit
    assert V.estimated_class_values("per_class", own, flops, contrib, model, q_oop, q_ip, pot, win, tie) is own
    switched = V.estimated_class_values("pooled", own, flops, contrib, model, q_oop, q_ip, pot, win, tie)
    np.testing.assert_array_equal(switched.ip, pooled.ip)


def test_the_pooled_fit_weighs_classes_by_the_given_ranges_not_the_current_ones():
    """With ``fit_weights`` (the exchange passes the preflop average strategy's ranges) a role's fit
    does not follow its current range: OOP's values stay put when only OOP's current range moves,
    while without them they follow it. Where the measurements are not linear in the hand shapes, the
    fit's weights decide which classes it matches best, so the weights change the result."""
    _, _, _, win, tie, q_oop, q_ip, model, rng = _modelled_ending("RC", seed=8)
    contrib, pot = (2.5, 2.5), 5.0
    theta = (np.array([0.2, 1.0, 0.4, -0.3, 0.5, -0.6, 0.3]), np.array([-0.1, 0.7, 0.2, 0.4, -0.2, -0.5, 0.1]))
    flops = _flops_of_a_linear_truth(model, q_oop, q_ip, contrib, pot, win, tie, theta, (1.8, 2.4), rng)
    for frame, _ in flops:  # a per-class term no hand-shape fit captures
        frame["ev"] += np.where(frame["player"] == 0, rng.normal(0.0, 0.5, len(frame)), 0.0)
    narrowed = np.where(np.arange(cards.N_CLASSES) % 3 == 0, q_oop * 1e-3, q_oop)
    weights = (q_oop, q_ip)
    kept = [V.pooled_class_values(flops, contrib, model, q, q_ip, pot, win, tie, fit_weights=weights).oop
            for q in (q_oop, narrowed)]
    np.testing.assert_array_equal(kept[0], kept[1])
    followed = [V.pooled_class_values(flops, contrib, model, q, q_ip, pot, win, tie).oop for q in (q_oop, narrowed)]
    np.testing.assert_array_equal(followed[0], kept[0])
    assert np.max(np.abs(followed[1] - followed[0])) > 0.05

def test_class_features_describe_the_hand_shapes():
    features = V.class_features()
    row = {name: features[cards.parse_class(name)] for name in ("AA", "AKs", "T9o", "72o", "J8s")}
    # constant, pair, suited, high, low, gap (0..1), connected
    np.testing.assert_allclose(row["AA"], [1, 1, 0, 1, 1, 0, 0])
    np.testing.assert_allclose(row["AKs"], [1, 0, 1, 1, 11 / 12, 0, 1])
    np.testing.assert_allclose(row["T9o"], [1, 0, 0, 8 / 12, 7 / 12, 0, 1])
    np.testing.assert_allclose(row["72o"], [1, 0, 0, 5 / 12, 0, 1, 0])
    np.testing.assert_allclose(row["J8s"], [1, 0, 1, 9 / 12, 6 / 12, 0.5, 0])


def test_a_measurement_without_the_checked_down_shares_is_refused_by_name():
    import pandas as pd

    frame = pd.DataFrame({"player": [0], "combo": [cards.CLASS_COMBOS[0][0]], "class": [0], "mass": [1.0], "ev": [1.0]})
    with pytest.raises(ValueError, match="cash/2max/100bb/e0/b3: no 'equity_bb' column"):
        V.solved_class_values([(frame, {"board_weight": 1.0, "key": "cash/2max/100bb/e0/b3"})], (0.0, 0.0), "equity_bb")


def test_strategy_change_is_the_arriving_hands_total_variation_in_points():
    def result(strategy):
        return {"nodes": [{"id": "", "actions": ["F", "R"], "reach": 1.0, "arrive_with": [0.25, 0.75],
                           "strategy": {"F": strategy[0], "R": strategy[1]}}]}

    same = result(([0.5, 0.0], [0.5, 1.0]))
    moved = result(([0.5, 0.2], [0.5, 0.8]))
    assert strategy_change(same, same) == {"max_pp": 0.0, "mean_pp": 0.0}
    assert strategy_change(moved, same)["max_pp"] == pytest.approx(0.75 * 20.0)


def _result_bytes_on_1_and_2_cores(script: str, tmp_path) -> list[tuple[bytes, bytes]]:
    """Run ``script`` (which writes a result to ``sys.argv[1]``) with 1 and then 2 Numba threads; the
    bytes of each run's result.json and result.npz."""
    import os
    import subprocess
    import sys

    outputs = []
    for cores in (1, 2):
        out = tmp_path / f"c{cores}" / "result.json"
        out.parent.mkdir()
        run = subprocess.run([sys.executable, "-c", script, str(out)], capture_output=True, text=True, timeout=300,
                             env={**os.environ, "NUMBA_NUM_THREADS": str(cores)})
        assert run.returncode == 0, run.stderr[-2000:]
        outputs.append((out.read_bytes(), out.with_suffix(".npz").read_bytes()))
    return outputs


@pytest.mark.parametrize("spot, solved_share, deal_share", [
    (Spot("cash", 2, 100), 0.9, 0.4),  # three endings hold most of the deals that see a flop
    (Spot("cash", 6, 100), 0.4, 0.1),  # six of the many heads-up endings, and the multiway ones stay modelled
], ids=["cash-2max-100bb", "cash-6max-100bb"])
def test_a_shipped_table_gives_one_chart_on_1_and_2_cores(tmp_path, spot, solved_share, deal_share):
    """Each committed table and start, under the default config, give the same result bytes on 1 and 2
    cores, read from the start (measured at its own iteration only) and naming both files."""
    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import save_equity_table
    from pokerlab.io import sha256_file
    from pokerlab.preflop.ending_corrections import start_path
    from pokerlab.solved.settings import settings_sha256, spot_section

    config = _default_config()
    postflop = config["solve"]["postflop"]
    save_equity_table(sample_pair_counts(samples=200, seed=1), tmp_path / "eq.npz", tmp_path / "eq.parquet")
    script = (
        "import sys\n"
        "from pokerlab.preflop.solve import SolveSettings, solve_spot_to_file\n"
        "from pokerlab.preflop.spot import Spot\n"
        f"section = {{**{config['solve']!r}, 'postflop': {{**{postflop!r}, "
        f"'solved_tables': {str(ROOT / postflop['solved_tables'])!r}}}}}\n"
        f"settings = SolveSettings.from_config(section, {str(ROOT / postflop['file'])!r}, "
        f"{settings_sha256(spot_section(config['solved'], spot.name))!r})\n"
        f"solve_spot_to_file({spot!r}, {str(tmp_path / 'eq.npz')!r}, "
        f"{str(ROOT / config['solve']['sizing'])!r}, settings, sys.argv[1])\n")
    outputs = _result_bytes_on_1_and_2_cores(script, tmp_path)
    assert outputs[0] == outputs[1]
    result = json.loads(outputs[0][0])
    solved = result["settings"]["solved_endings"]
    assert [h["iterations"] for h in result["history"]] == [800]
    shipped = ROOT / "config/solved-endings" / solved_table_name(spot)
    assert solved["start"]["sha256"] == sha256_file(start_path(shipped))
    assert solved["corrections_sha256"] == read_ending_corrections(shipped).digest()
    shares = result["tier_shares"]
    assert shares["flop_solved"] > deal_share
    assert shares["flop_solved"] > solved_share * (shares["flop_solved"] + shares["flop"])


@pytest.mark.parametrize("with_start", [False, True])
def test_a_table_gives_the_same_result_bytes_on_1_and_2_cores(tmp_path, with_start):
    """A committed table (and its start, the preflop state a shipped table carries) gives one result's
    bytes whatever the core count."""
    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import load_equity_table, save_equity_table
    from pokerlab.preflop.ending_corrections import start_path, write_solved_start
    from pokerlab.preflop.solver import Solver

    spot = Spot("cash", 2, 30)
    (tmp_path / "tables").mkdir()
    folder = _table_folder(tmp_path / "tables", spot, random_corrections(build_tree(spot, SIZING), M, seed=6))
    save_equity_table(sample_pair_counts(samples=200, seed=1), tmp_path / "eq.npz", tmp_path / "eq.parquet")
    if with_start:  # 20 iterations of the corrected game as the start, which the solve judges as it stands
        table = read_ending_corrections(folder / solved_table_name(spot))
        eq = load_equity_table(tmp_path / "eq.npz")
        tree = build_tree(spot, SIZING)
        solver = Solver(tree, chip_ev_payoffs(tree, MODEL, solved=table), eq.win, eq.tie)
        solver.iterate(20)
        write_solved_start(start_path(folder / solved_table_name(spot)), solver.state(), table, {"method": "test"})
    script = (
        "import sys\n"
        "from pokerlab.preflop.solve import SolveSettings, solve_spot_to_file\n"
        "from pokerlab.preflop.spot import Spot\n"
        f"settings = SolveSettings(checkpoints=(30, 60), model='solved', solved_tables={str(folder)!r},"
        " solved_settings_sha256='s1')\n"
        f"solve_spot_to_file(Spot('cash', 2, 30), {str(tmp_path / 'eq.npz')!r}, None, settings, sys.argv[1])\n")
    outputs = _result_bytes_on_1_and_2_cores(script, tmp_path)
    assert outputs[0] == outputs[1]
    result = json.loads(outputs[0][0])
    assert result["settings"]["postflop_model"] == "solved"
    measured_at = [h["iterations"] for h in result["history"]]
    assert measured_at == [20] if with_start else measured_at[0] == 30
    assert ("start" in result["settings"]["solved_endings"]) == with_start


def _default_config() -> dict:
    """The workflow's default config, ``config/config.yaml``."""
    import yaml

    return yaml.safe_load((ROOT / "config/config.yaml").read_text())


def _solved_section():
    return _default_config()["solved"]


def test_the_shipped_tables_are_taken_under_the_default_config(monkeypatch):
    """Every table in the folder the default config names was measured for its spot with the config's
    solved section, sizing schedule and constants, and its start lies beside it: the default solve takes
    both (a changed measuring key would refuse them)."""

    from pokerlab.preflop.solve import postflop_constants_file
    from pokerlab.preflop.spot import parse_spot_name
    from pokerlab.solved.settings import settings_sha256, spot_section

    monkeypatch.chdir(ROOT)
    config = _default_config()
    solve = config["solve"]
    tables = sorted(Path(solve["postflop"]["solved_tables"]).glob("*.tsv"))
    assert [t.name for t in tables] == ["cash-2max-100bb.tsv", "cash-6max-100bb.tsv"]
    for path in tables:
        spot = parse_spot_name(read_ending_corrections(path).spot)
        settings = SolveSettings.from_config(solve, postflop_constants_file(solve["postflop"]),
                                             settings_sha256(spot_section(config["solved"], spot.name)))
        sizing = load_sizing(solve["sizing"]).as_dict(spot.depth)
        table = settings.solved_endings(spot, sizing)
        assert table is not None and table.start is not None and table.start.iteration == 800
        assert table.provenance["command"].startswith("snakemake --cores 2 solved_exchange")
    changed = SolveSettings.from_config(solve, postflop_constants_file(solve["postflop"]),
                                        settings_sha256({**config["solved"], "boards": 5}))
    with pytest.raises(ValueError, match="measured with solved settings"):
        changed.solved_endings(spot, sizing)


@pytest.mark.parametrize("change, message", [
    ({"boards": 0}, "solved.boards: 0 must be an integer in"),
    ({"damping": 0.0}, "solved.damping"),
    ({"spots": [{"format": "icm_final", "seats": 2, "depth": 10}]}, "chip formats"),
    ({"spots": [{"format": "cash", "seats": 2, "depth": 100}] * 2}, "listed twice"),
    ({"endings": {"max_per_spot": 3}}, "solved.endings.min_reach"),
    ({"bet_trees": {"limped": {}}}, "one bet tree for each pot type"),
    ({"tolerance": {"strategy_pp": -1, "gap_bb": 0.1}}, "solved.tolerance.strategy_pp"),
    ({"compression": "yes"}, "solved.compression: 'yes' must be true or false"),
    ({"exchange": {"every": 10, "iterations": 100, "postflop_every": 20}}, "solved.exchange.postflop_every: 20"),
    ({"validation_boards": 0}, "solved.validation_boards: 0 must be an integer in"),
    ({"validation_boards": "8"}, "solved.validation_boards: '8' must be an integer in"),
    ({"estimator": "shrunk"}, "solved.estimator: 'shrunk' must be one of"),
    ({"spots": [{"format": "cash", "seats": 6, "depth": 100, "seed": 3}]}, r"solved.spots\[0\]: unknown key 'seed'"),
    ({"spots": [{"format": "cash", "seats": 6, "depth": 100, "boards": 0}]},
     r"solved.spots\[0\] \(cash/6max/100bb\): solved.boards: 0 must be an integer in"),
])
def test_solved_settings_name_the_bad_key(change, message):
    from pokerlab.solved.settings import SolvedSettings

    with pytest.raises(ValueError, match=message):
        SolvedSettings.from_config({**_solved_section(), **change})


def test_pot_types_and_the_measuring_digest():
    from pokerlab.solved.settings import SolvedSettings, pot_type

    assert [pot_type(n) for n in ("CC", "RC", "CRC", "RRC", "RRRC", "FRSC")] == \
        ["limped", "single_raised", "single_raised", "three_bet", "four_bet", "three_bet"]
    base = SolvedSettings.from_config(_solved_section())
    assert base.bet_tree_for("RRC") is base.bet_trees["three_bet"]
    # the spots list and the tolerance change no table; a measuring key does
    assert SolvedSettings.from_config({**_solved_section(), "spots": [], "tolerance": {"strategy_pp": 1, "gap_bb": 1}}
                                      ).sha256() == base.sha256()
    assert SolvedSettings.from_config({**_solved_section(), "boards": 5}).sha256() != base.sha256()
    assert SolvedSettings.from_config({**_solved_section(), "compression": not base.compression}).sha256() \
        != base.sha256()
    # the validation's flop count sizes the held-out check only; null means the plan's held-out count
    more = SolvedSettings.from_config({**_solved_section(), "validation_boards": 8})
    assert more.validation_boards == 8 and more.sha256() == base.sha256()
    assert base.validation_boards == base.heldout_boards == _solved_section()["heldout_boards"]
    # the estimator decides the table; per_class, the original, keeps the digest tables had before the key
    without = {k: v for k, v in _solved_section().items() if k != "estimator"}
    assert SolvedSettings.from_config({**without, "estimator": "per_class"}).sha256() == \
        SolvedSettings.from_config(without).sha256()
    assert SolvedSettings.from_config({**without, "estimator": "pooled"}).sha256() != \
        SolvedSettings.from_config(without).sha256()
    # so does the chart's average; whole_run, the original, named or not, keeps the digest too
    exchange = {k: v for k, v in _solved_section()["exchange"].items() if k != "average"}
    plain = SolvedSettings.from_config({**without, "exchange": exchange}).sha256()
    assert SolvedSettings.from_config({**without, "exchange": {**exchange, "average": "whole_run"}}).sha256() == plain
    assert SolvedSettings.from_config({**without, "exchange": {**exchange, "average": "second_half"}}).sha256() != plain



def test_a_spot_entry_sizes_its_own_measurement():
    """An entry of solved.spots may set the keys that size its spot's measurement: that spot is measured
    (and its table's digest taken) with them merged in, the other spots with the section's own, and a
    spot measured alone under a section with those keys gets the same digest (so a preset that measures
    one spot gives the table a default listing several spots takes)."""
    from pokerlab.solved.settings import SolvedSettings, settings_sha256, spot_section, table_provenance

    six = {"endings": {"max_per_spot": 6, "min_reach": 0.01}, "boards": 3, "heldout_boards": 1, "validation_boards": 4}
    section = {**_solved_section(), "spots": [{"format": "cash", "seats": 2, "depth": 100},
                                              {"format": "cash", "seats": 6, "depth": 100, **six}]}
    heads_up = SolvedSettings.for_spot(section, "cash/2max/100bb")
    six_max = SolvedSettings.for_spot(section, "cash/6max/100bb")
    assert heads_up.sha256() == settings_sha256(_solved_section())
    assert (heads_up.max_endings, heads_up.boards) == (_solved_section()["endings"]["max_per_spot"],
                                                       _solved_section()["boards"])
    assert (six_max.max_endings, six_max.boards, six_max.heldout_boards, six_max.validation_boards) == (6, 3, 1, 4)
    assert six_max.spot_names == ["cash/6max/100bb"] and len(six_max.job_keys()) == 6 * (3 + 1)
    alone = {**_solved_section(), **six, "spots": [{"format": "cash", "seats": 6, "depth": 100}]}
    assert six_max.sha256() == settings_sha256(spot_section(section, "cash/6max/100bb")) == settings_sha256(alone)
    assert six_max.sha256() != heads_up.sha256()
    assert table_provenance({"solved": section}, "cmd", "cash/6max/100bb")["settings"]["boards"] == 3
    assert table_provenance({"solved": section}, "cmd", "cash/2max/100bb")["settings"]["boards"] == \
        _solved_section()["boards"]
    # a spot the section does not list is measured with the section's own keys
    assert SolvedSettings.for_spot(section, "cash/9max/100bb").sha256() == heads_up.sha256()


def test_the_base_model_and_the_constants_file_of_a_postflop_section():
    from pokerlab.preflop.solve import postflop_constants_file
    from pokerlab.solved.settings import base_postflop

    solved = {"model": "solved", "solved_tables": "tables", "source": "fit", "cap": 0.9}
    assert base_postflop(solved) == {"source": "fit", "cap": 0.9}
    assert base_postflop({"model": "v2", "class_table": "t.tsv"}) == {"model": "v2", "class_table": "t.tsv"}
    assert postflop_constants_file(solved, "out") == "out/fit/constants.json"
    assert postflop_constants_file({"source": "file", "file": "c.json"}) == "c.json"
    assert postflop_constants_file({}) is None and postflop_constants_file({"source": "config"}) is None


@pytest.mark.snakemake
def test_the_workflow_solves_a_spot_with_its_table_and_refuses_one_of_other_settings(tmp_path):
    """Under model solved a spot's table is an input of its solve job (a new table re-runs it), and the job
    refuses a table measured with other settings than the config's solved section."""
    import subprocess
    import sys
    from pathlib import Path

    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import save_equity_table
    from pokerlab.solved.settings import settings_sha256

    root = Path(__file__).resolve().parents[1]
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(root / name)
    save_equity_table(sample_pair_counts(samples=200, seed=1), tmp_path / "results/equity/equity_169.npz",
                      tmp_path / "results/equity/equity_169.parquet")
    (tmp_path / "tables").mkdir()
    (tmp_path / "over.yaml").write_text("solve:\n  checkpoints: [30]\n  bar_coefficient: 100.0\n"
                                        "  postflop: {model: solved, solved_tables: tables}\n")
    spot = Spot("cash", 6, 10)  # a spot of its own job (not in sweep.batch_seats)
    table = random_corrections(build_tree(spot, SIZING), M, seed=3)
    constants = json.loads((root / "src/pokerlab/data/postflop-constants.json").read_text())["constants"]
    base = asdict(PostflopModel(**{k: constants[k] for k in ("a", "b", "c2", "cap")}))
    target = "results/solves/cash/6max/10bb/result.json"

    def run(*args):
        return subprocess.run([sys.executable, "-m", "snakemake", target, "--cores", "1", "--configfile", "over.yaml",
                               *args], cwd=tmp_path, capture_output=True, text=True, timeout=600)

    for sha, ok in (("0" * 64, False), (settings_sha256(_solved_section()), True)):
        _table_folder(tmp_path / "tables", spot, table, base_postflop=base, settings_sha256=sha)
        plan = run("-n")
        assert plan.returncode == 0 and "tables/cash-6max-10bb.tsv" in plan.stdout, plan.stderr[-2000:]
        out = run()
        log = (tmp_path / "logs/solves/cash_6max_10bb.log").read_text()
        assert (out.returncode == 0) == ok, out.stderr[-2000:]
        assert ok or "measured with solved settings " + "0" * 64 in log + out.stderr
    result = json.loads((tmp_path / target).read_text())
    assert result["settings"]["postflop_model"] == "solved" and result["tier_shares"]["flop_solved"] > 0, log
