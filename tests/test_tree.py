"""The preflop tree: rules, sizes, ending classification, flat arrays, bad input."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import yaml

from pokerlab.preflop.spot import DEFAULT_SIZING_PATH, Spot, load_sizing, parse_sizing
from pokerlab.preflop.tree import build_tree, postflop_order

SIZING = load_sizing()
SPOTS = [Spot("cash", 2, 100), Spot("cash", 2, 10), Spot("cash", 3, 15), Spot("mtt", 6, 20), Spot("cash", 6, 100),
         Spot("cash", 9, 200), Spot("mtt", 9, 5)]


@pytest.fixture(scope="module", params=SPOTS, ids=lambda s: s.name)
def tree(request):
    return build_tree(request.param, SIZING)


def test_positions_and_postflop_order():
    assert [postflop_order(s, 2) for s in range(2)] == [1, 0]  # heads-up the BB acts first on the flop
    six = Spot("cash", 6, 100).positions
    order = sorted(range(6), key=lambda s: postflop_order(s, 6))
    assert [six[s] for s in order] == ["SB", "BB", "UTG", "HJ", "CO", "BTN"]


def test_heads_up_100bb_top_of_tree():
    t = build_tree(Spot("cash", 2, 100), SIZING)
    assert t.node("").actions == ("F", "C", "R", "A")  # the SB may limp
    assert t.node("C").actions == ("C", "R", "A")  # the BB checks its option, no fold
    assert t.node("R").contrib == (3.0, 1.0)  # SB open 3bb at 100bb
    assert t.node("CR").contrib == (1.0, 3.5)  # BB raise over the limp: 3.5 x 1bb
    assert t.node("RR").contrib == (3.0, 11.25)  # BB 3-bet out of position: 3.75 x 3bb
    assert t.node("RRR").contrib == (25.87, 11.25)  # SB 4-bet: 2.3 x 11.25 = 25.87499.., to the cent
    assert t.node("RRR").actions == ("F", "C", "A")  # no priced 5-bet: all-in only
    assert t.node("CC").kind == "flop" and t.node("F").kind == "fold" and t.node("AC").kind == "allin"


def test_six_max_limp_rule_squeeze_and_cap():
    t = build_tree(Spot("cash", 6, 100), SIZING)
    assert t.node("").actions == ("F", "R", "A")  # UTG may not limp
    assert t.node("FFFF").actions == ("F", "C", "R", "A")  # the SB may
    assert t.node("FFFFF").kind == "fold"
    assert t.node("FFFR").contrib[3] == 2.2  # BTN opens 2.2bb
    assert t.node("RCR").contrib[2] == pytest.approx((3.0 + 1.0) * 2.5)  # CO squeezes in position over 1 caller
    assert t.node("RCFFR").contrib[4] == pytest.approx(11.88)  # SB squeeze out of position, (3.75+1) x 2.5
    assert t.node("RRFFFFR").contrib[0] == pytest.approx(2.3 * 7.5)  # UTG 4-bet
    capped = t.node("RCC")  # three seats in: the BTN may only fold
    assert capped.actions == ("F",) and capped.capped
    assert t.node("RCCF").capped and t.node("RCCFF").capped
    assert t.node("RCCFFF").kind == "flop" and len(t.node("RCCFFF").players_in) == 3


def test_mtt_ante_is_dead_money_of_the_big_blind():
    t = build_tree(Spot("mtt", 6, 20), SIZING)
    assert t.node("").contrib == (0, 0, 0, 0, 0.5, 2.0)
    assert t.node("FFFFF").pot == 2.5
    assert t.node("FFFFCC").behind == 19.0  # the ante does not come out of the live stack


def test_priced_raise_leaving_under_ten_percent_is_dealt_as_all_in():
    assert build_tree(Spot("cash", 2, 8), SIZING).node("R").actions == ("F", "C", "R", "A")  # 3-bet to 6.5, 1.5 behind
    assert build_tree(Spot("cash", 2, 7), SIZING).node("R").actions == ("F", "C", "A")  # 0.5 behind < 0.7


def test_shove_or_fold_restriction():
    t = build_tree(Spot("cash", 2, 10), SIZING, shove_or_fold=True)
    assert [n.id for n in t.nodes] == ["", "F", "A", "AF", "AC"]
    assert t.node("").actions == ("F", "A") and t.node("A").actions == ("F", "C")


def test_every_node_obeys_the_rules(tree):
    spot = tree.spot
    for node in tree.nodes:
        assert set(node.actions) <= set("FCRA") and len(set(node.actions)) == len(node.actions)
        live = np.array(node.contrib) - np.eye(spot.seats)[-1] * spot.ante
        assert live.max() <= spot.depth + 1e-9
        if node.id:
            assert node.id[:-1] in tree.index and node.id[-1] in tree.node(node.id[:-1]).actions
        if node.is_ending:
            assert node.kind in ("fold", "allin", "flop") and not node.actions
            still_in = live[list(node.players_in)]
            if node.kind == "fold":
                assert len(node.players_in) == 1
            else:
                assert 2 <= len(node.players_in) <= 3 and np.ptp(still_in) < 1e-9
                assert (node.behind == 0.0) == (node.kind == "allin")
                assert node.behind == pytest.approx(spot.depth - still_in[0])
        else:
            assert node.actions and node.actor in node.players_in
            if node.capped:
                assert node.actions == ("F",)
            if node.actor not in (spot.seats - 2, spot.seats - 1) and max(live) == 1.0:
                assert "C" not in node.actions  # nobody but the SB limps an unopened pot


def test_flat_arrays_are_breadth_first_with_contiguous_children(tree):
    parent, start, count = tree.parent, tree.child_start, tree.n_children
    assert parent[0] == -1 and np.all(parent[1:] < np.arange(1, tree.n_nodes))
    for k in tree.decisions:
        kids = np.arange(start[k], start[k] + count[k])
        assert np.all(parent[kids] == k)
        assert [tree.nodes[c].id[-1] for c in kids] == list(tree.nodes[k].actions)
    assert np.array_equal(np.sort(np.r_[tree.endings, tree.decisions]), np.arange(tree.n_nodes))
    assert np.all(tree.parent_actor[1:] == tree.actor[parent[1:]])


def test_counts_add_up(tree):
    counts = tree.counts()
    assert counts["decision"] + counts["fold"] + counts["allin"] + counts["flop"] == counts["nodes"] == tree.n_nodes
    assert int(tree.n_children.sum()) == tree.n_nodes - 1


@pytest.mark.parametrize("kwargs, message", [
    (dict(format="icm_main_event", seats=6, depth=20), "format"),
    (dict(format="limit", seats=6, depth=20), "format"),
    (dict(format="cash", seats=1, depth=20), "seats"),
    (dict(format="cash", seats=10, depth=20), "seats"),
    (dict(format="cash", seats=6, depth=0), "depth"),
    (dict(format="cash", seats=6, depth=-5), "depth"),
    (dict(format="cash", seats=6, depth="100"), "depth"),
])
def test_bad_spot_is_refused_with_the_field_named(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Spot(**kwargs)


def _broken(edit):
    data = yaml.safe_load(DEFAULT_SIZING_PATH.read_text())
    data = copy.deepcopy(data)
    edit(data)
    return data


@pytest.mark.parametrize("edit, message", [
    (lambda d: d["bands"][1].__setitem__("three_bet_ip", "3x"), r"bands\[1\] \(middle\)\.three_bet_ip"),
    (lambda d: d["bands"][0].__setitem__("four_bet", 0.5), r"bands\[0\] \(short\)\.four_bet"),
    (lambda d: d["bands"][2]["open"].__setitem__("BUTTON", 2.5), "unknown position 'BUTTON'"),
    (lambda d: d["bands"][2].pop("per_caller"), "missing \\['per_caller'\\]"),
    (lambda d: d["bands"][2].__setitem__("up_to_depth", 10), "must exceed the previous"),
    (lambda d: d.__setitem__("all_in_below", 1.5), "all_in_below"),
])
def test_bad_sizing_row_is_refused_with_the_row_named(edit, message):
    with pytest.raises(ValueError, match=message):
        parse_sizing(_broken(edit))


def test_sizing_band_by_depth():
    assert SIZING.band(20).name == "short" and SIZING.band(20.5).name == "middle"
    assert SIZING.band(100).name == "deep" and SIZING.band(1000).name == "very_deep"


def test_tree_command_prints_counts(capsys):
    from pokerlab.cli import main

    assert main(["tree", "--format", "cash", "--seats", "6", "--depth", "100"]) == 0
    out = capsys.readouterr().out
    counts = build_tree(Spot("cash", 6, 100), SIZING).counts()
    assert "cash/6max/100bb" in out and f"{counts['flop']}" in out and "capped" in out


@pytest.mark.parametrize("argv, message", [
    (["--format", "icm_main_event", "--seats", "6", "--depth", "20"], "format"),
    (["--format", "cash", "--seats", "1", "--depth", "20"], "seats"),
    (["--format", "cash", "--seats", "10", "--depth", "20"], "seats"),
    (["--format", "cash", "--seats", "6", "--depth", "0"], "depth"),
])
@pytest.mark.parametrize("command", ["tree", "solve"])
def test_commands_refuse_bad_spots_before_any_work(command, argv, message, capsys, tmp_path):
    from pokerlab.cli import main

    extra = ["--table", str(tmp_path / "missing.npz")] if command == "solve" else []
    assert main([command, *argv, *extra]) == 2
    assert message in capsys.readouterr().err


def test_solve_command_refuses_a_bad_sizing_file_before_any_work(tmp_path, capsys):
    from pokerlab.cli import main

    bad = tmp_path / "sizing.yaml"
    bad.write_text(yaml.safe_dump(_broken(lambda d: d["bands"][2].__setitem__("four_bet", "big"))))
    assert main(["solve", "--format", "cash", "--seats", "2", "--depth", "100", "--sizing", str(bad),
                 "--table", str(tmp_path / "missing.npz"), "--out", str(tmp_path / "r.json")]) == 2
    assert "bands[2] (deep).four_bet" in capsys.readouterr().err
    assert not (tmp_path / "r.json").exists()
