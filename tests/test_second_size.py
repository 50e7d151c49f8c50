"""The optional second 3-bet size (action ``S``): absent by default, offered only at 3-bet nodes
at its configured size and positions, a variant schedule that differs from the default in that
key alone, the solver still exact on trees with it, and charts/viewer that carry the action."""

from __future__ import annotations

import copy

import pytest

from pokerlab.io import read_yaml
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.spot import DEFAULT_SIZING_PATH, Spot, load_sizing, parse_sizing
from pokerlab.preflop.tree import build_tree
from pokerlab.publish import chart_document, validate_chart
from pokerlab.viewer import viewer_html
from test_payoffs import random_tables
from test_solver import assert_matches_brute_force, random_prior

VARIANT = DEFAULT_SIZING_PATH.with_name("sizing-second-3bet.yaml")


def sizing_with(second: dict | None, bands=("short", "middle", "deep", "very_deep")):
    data = read_yaml(DEFAULT_SIZING_PATH, "sizing")
    for band in data["bands"]:
        if band["name"] in bands and second is not None:
            band["second_three_bet"] = copy.deepcopy(second)
    return parse_sizing(data)


@pytest.mark.parametrize("spot", [Spot("cash", 2, 100), Spot("cash", 6, 100), Spot("mtt", 9, 30), Spot("cash", 9, 200)],
                         ids=lambda s: s.name)
def test_default_schedule_has_no_second_size(spot):
    tree = build_tree(spot, load_sizing())
    assert not any("S" in node.actions for node in tree.nodes)
    assert "second_three_bet" not in tree.sizing


def test_variant_file_differs_from_the_default_only_by_the_second_size():
    default, variant = read_yaml(DEFAULT_SIZING_PATH, "sizing"), read_yaml(VARIANT, "sizing")
    seconds = [band.pop("second_three_bet", None) for band in variant["bands"]]
    assert variant == default
    assert seconds[0] is None and all(s is not None for s in seconds[1:])
    load_sizing(VARIANT)  # and it parses


def test_second_size_is_offered_at_three_bet_nodes_at_its_price():
    sizing = sizing_with({"ip": 2.5, "oop": 3.0})
    tree = build_tree(Spot("cash", 6, 100), sizing)
    with_s = [node for node in tree.nodes if "S" in node.actions]
    assert with_s
    for node in with_s:
        assert node.actions[-2:] == ("S", "A") and "R" in node.actions  # order F, C, R, S, A
        raises = sum(a in "RSA" for a in node.id)
        assert raises == 1  # a 3-bet node: exactly one raise before it
    # BB facing the BTN's 2.2bb open, SB folded: scheduled 3.75x = 8.25, second 3.0x = 6.6 (out of position)
    assert tree.node("FFFRF").actions == ("F", "C", "R", "S", "A")
    assert tree.node("FFFRFS").contrib[5] == pytest.approx(6.6)
    assert tree.node("FFFRFR").contrib[5] == pytest.approx(8.25)
    # BTN 3-betting the CO's 2.5bb open in position: 2.5x = 6.25; a squeeze adds one open per caller
    assert tree.node("FFRS").contrib[3] == pytest.approx(6.25)
    assert tree.node("FFRCS").contrib[4] == pytest.approx((3.0 + 1.0) * 2.5)
    # after S the 4-bet is priced off the smaller 3-bet: 2.3 x 6.6
    assert tree.node("FFFRFSR").contrib[3] == pytest.approx(round(2.3 * 6.6, 2))


def test_second_size_respects_seats_versus_and_the_all_in_rule():
    sizing = sizing_with({"ip": 2.5, "oop": 3.0, "seats": ["BB"], "versus": ["BTN"]})
    tree = build_tree(Spot("cash", 6, 100), sizing)
    with_s = {node.id for node in tree.nodes if "S" in node.actions}
    assert "FFFRF" in with_s and "FFFR" not in with_s  # the SB may not
    assert all(tree.nodes[tree.index[i]].actor == 5 for i in with_s)
    assert "FFRFF" not in with_s  # BB against the CO's open: not listed
    # equal to the scheduled size: no duplicate action
    same = sizing_with({"ip": 3.0, "oop": 3.75})
    assert "S" not in build_tree(Spot("cash", 6, 100), same).node("FFFRF").actions
    # at 12bb a 3x 3-bet of a 2bb open leaves less than 10% behind only if it is near the stack: 11bb of 12
    short = sizing_with({"ip": 5.5, "oop": 5.5}, bands=("short",))
    assert "S" not in build_tree(Spot("cash", 6, 12), short).node("FFFRF").actions


@pytest.mark.parametrize("key, value, match", [("ip", 0.5, "second_three_bet.ip"), ("seats", ["XX"], "seats"),
                                               ("extra", 1, "unknown")])
def test_bad_second_size_rows_name_the_key(key, value, match):
    second = {"ip": 2.5, "oop": 3.0, key: value}
    with pytest.raises(ValueError, match=match):
        sizing_with(second)


def test_solver_matches_brute_force_on_a_tree_with_the_second_size():
    sizing = sizing_with({"ip": 2.5, "oop": 3.0})
    tree = build_tree(Spot("cash", 2, 60), sizing)
    assert any("S" in node.actions for node in tree.nodes)
    payoffs = chip_ev_payoffs(tree, PostflopModel())
    m = 3
    win, tie = random_tables(m, 13)
    assert_matches_brute_force(tree, payoffs, win, tie, random_prior(m, 13))


def test_charts_and_viewer_carry_the_second_size(equity_table):
    from pokerlab.preflop.solve import SolveSettings, solve_spot

    sizing = sizing_with({"ip": 2.5, "oop": 3.0})
    result = solve_spot(Spot("cash", 2, 60), sizing, equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(20,), bar_coefficient=10.0))
    doc = chart_document(result, "0" * 64)
    validate_chart(doc)
    assert doc["sizing"]["second_three_bet"] == {"ip": 2.5, "oop": 3.0}
    node = next(n for n in doc["nodes"] if "S" in n["actions"])
    assert set(node["strategy"]) == set(node["actions"])
    # the page loads its chart and draws it with the explorer's code, which labels S apart from R
    page = viewer_html(doc, "60bb.json")
    assert "S: 'raise'" in page and "raise (second size)" in page
