"""Grading hand-built decisions against a hand-built chart whose frequencies and EVs are known."""

import json

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.cli import main
from pokerlab.encoding import encode, encode_scaled
from pokerlab.hands.grading import ChartLibrary, grade_hands, grading_summary
from pokerlab.hands.pluribus import parse_state_line

AA, K_Q, SEVEN_TWO, QQ, AKO = (cards.parse_class(c) for c in ("AA", "KQo", "72o", "QQ", "AKo"))


def _node(node_id, actor, actions, strategy, ev, arrive=None):
    return {"id": node_id, "actor": actor, "actions": list(actions), "capped": False, "reach": 0.5,
            "shares": {a: 0.25 for a in actions},
            "strategy": {a: encode(strategy[a]) for a in actions},
            "ev_bb": {a: encode_scaled(ev[a]) for a in actions},
            "arrive_with": encode_scaled(cards.CLASS_PRIOR if arrive is None else arrive)}


def _arrays(actions, default):
    return {a: np.full(169, default[a], dtype=float) for a in actions}


@pytest.fixture
def chart_root(tmp_path):
    """cash 2-max 10bb. Root (SB): F C R A. AA raises (EV: F -0.5, C 0.2, R 1.0, A 0.5);
    72o folds (F -0.5 best, C -0.8, R -1.1, A -1.4); KQo calls or raises half and half (C = R = 0.3).
    Node R (BB facing the 2bb open): F C R A; QQ calls (F -1, C 0.7, R 0.4, A 0.1)."""
    root_actions = ("F", "C", "R", "A")
    strat = _arrays(root_actions, {"F": 1.0, "C": 0.0, "R": 0.0, "A": 0.0})
    ev = _arrays(root_actions, {"F": -0.5, "C": -0.8, "R": -1.1, "A": -1.4})
    for a, f, v in zip(root_actions, (0, 0, 1, 0), (-0.5, 0.2, 1.0, 0.5)):
        strat[a][AA], ev[a][AA] = f, v
    for a, f, v in zip(root_actions, (0, 0.5, 0.5, 0), (-0.5, 0.3, 0.3, -0.9)):
        strat[a][K_Q], ev[a][K_Q] = f, v
    bb_strat = _arrays(root_actions, {"F": 1.0, "C": 0.0, "R": 0.0, "A": 0.0})
    bb_ev = _arrays(root_actions, {"F": -1.0, "C": -1.5, "R": -2.0, "A": -3.0})
    for a, f, v in zip(root_actions, (0, 1, 0, 0), (-1.0, 0.7, 0.4, 0.1)):
        bb_strat[a][QQ], bb_ev[a][QQ] = f, v
    # AKo never reaches node R in this chart: its strategy there is a
    # meaningless fold, its EVs still say calling is best
    for a, v in zip(root_actions, (-1.0, 0.5, 0.2, 0.0)):
        bb_ev[a][AKO] = v
    bb_arrive = cards.CLASS_PRIOR.copy()
    bb_arrive[AKO] = 0.0
    doc = {"format": "pokerlab-chart/1",
           "spot": {"format": "cash", "seats": 2, "depth_bb": 10.0, "ante_bb": 0.0, "positions": ["SB", "BB"],
                    "shove_or_fold": False},
           "sizing": {"band": "short", "all_in_below": 0.1, "open": {"default": 2.0, "SB": 2.0}, "raise_over_limp": 3.0,
                      "three_bet_ip": 2.75, "three_bet_oop": 3.25, "per_caller": 1.0, "four_bet": 2.2},
           "classes": list(cards.CLASS_NAMES), "solve": {"bar_bb": 0.01},
           "nodes": [_node("", "SB", root_actions, strat, ev), _node("R", "BB", root_actions, bb_strat, bb_ev, bb_arrive)]}
    path = tmp_path / "charts" / "cash" / "2max" / "10bb.json.gz"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(doc))
    return tmp_path / "charts"


HANDS = [  # (line, expected SB verdict, action, EV loss)   players: SB "s", BB "b"; 10bb stacks
    ("STATE:1:r200f:AsAd|2c3c:100|-100:s|b", "pure", "R", 0.0),
    ("STATE:2:r1000f:AsAd|2c3c:100|-100:s|b", "deviation", "A", 0.5),
    ("STATE:3:f:7c2d|2c3c:-50|50:s|b", "pure", "F", 0.0),
    ("STATE:4:cc/cc/cc/cc:KcQd|2c3c/4h5h9s/Td/Jd:100|-100:s|b", "mixed", "C", 0.0),
    ("STATE:5:r250f:AsAd|2c3c:100|-100:s|b", "pure", "R", 0.0),  # 2.5bb maps to R (gap +0.5bb)
    ("STATE:6:r900f:AsAd|2c3c:100|-100:s|b", "deviation", "A", 0.5),  # 9bb is nearer the 10bb all-in
    ("STATE:7:r200c/cc/cc/cc:7c2d|QhQd/4h5h9s/Td/Jd:-200|200:s|b", "deviation", "R", 0.6),
]


@pytest.fixture
def hands():
    return [parse_state_line(line, stack=1000.0) for line, *_ in HANDS]


def test_grading_against_known_chart(chart_root, hands):
    graded, skipped = grade_hands(hands, ChartLibrary(chart_root))
    # the chart holds only the nodes "" and "R": the BB's decisions after A and C are not in it
    assert sorted(zip(skipped["hand_id"], skipped["node"])) == [("2", "A"), ("4", "C"), ("6", "A")]
    assert set(skipped["reason"]) == {"the chart has no node for this decision"}
    sb = graded[graded["player"] == "s"].set_index("hand_id")
    for line, verdict, action, loss in HANDS:
        row = sb.loc[line.split(":")[1]]
        assert (row["verdict"], row["action"]) == (verdict, action)
        assert row["ev_loss_bb"] == pytest.approx(loss, abs=1e-4)  # EVs sit on encoding levels (bounds rounded to 1e-5)
    assert sb.loc["5", "size_gap_bb"] == pytest.approx(0.5) and sb.loc["1", "size_gap_bb"] == pytest.approx(0.0)
    assert sb.loc["4", "chart_freqs"] == {"F": 0.0, "C": 0.5, "R": 0.5, "A": 0.0}
    bb = graded[graded["player"] == "b"].set_index("hand_id")
    # the BB decides only after the SB's R: hands 1, 5 (2c3c folds: pure), 7 (QQ calls: pure)
    assert sorted(bb.index) == ["1", "5", "7"]
    assert list(bb["verdict"]) == ["pure", "pure", "pure"] and bb.loc["7", "ev_loss_bb"] == pytest.approx(0.0)
    assert (graded["chart"] == "cash/2max/10bb").all() and (graded["depth_distance_bb"] == 0).all()

    summary = grading_summary(graded, skipped)
    s = summary["players"]["s"]
    assert (s["hands"], s["decisions"], s["deviation"]) == (7, 7, 3)
    assert s["match_rate"] == pytest.approx(4 / 7, abs=1e-4)
    assert s["ev_loss_per_100"] == pytest.approx(100 * 1.6 / 7, abs=1e-2)


def test_hands_off_the_tree_or_without_chart_are_skipped_with_reasons(chart_root):
    deep = parse_state_line("STATE:8:r200f:AsAd|2c3c:100|-100:s|b", stack=10000.0)  # 100bb: no chart
    unknown = parse_state_line("STATE:9:r200f:AsAd|2c3c:100|-100:s|b", stack=1000.0)
    unknown.hole[0] = None
    graded, skipped = grade_hands([deep, unknown], ChartLibrary(chart_root))
    reasons = sorted(skipped["reason"])
    assert any("no published chart cash/2max/100bb" in r for r in reasons)
    assert "hole cards unknown" in reasons
    assert list(graded["player"]) == ["b"]  # only the BB's fold in hand 9 is graded


def test_off_range_decisions_are_judged_by_ev(chart_root):
    calls = parse_state_line("STATE:11:r200c/cc/cc/cc:7c2d|AhKd/4h5h9s/Td/Jd:-200|200:s|b", stack=1000.0)
    folds = parse_state_line("STATE:12:r200f:7c2d|AhKd:100|-100:s|b", stack=1000.0)
    graded, _ = grade_hands([calls, folds], ChartLibrary(chart_root), players=["b"])
    rows = graded.set_index("hand_id")
    assert not rows["in_range"].any()
    assert rows.loc["11", "verdict"] == "pure" and rows.loc["11", "ev_loss_bb"] == pytest.approx(0.0, abs=1e-9)
    # 1.5bb up to the encoding: the call EVs span -1.5..0.7bb, half a level is 0.0122bb
    assert rows.loc["12", "verdict"] == "deviation" and rows.loc["12", "ev_loss_bb"] == pytest.approx(1.5, abs=0.0123)


def test_rarely_reached_nodes_are_not_graded(chart_root):
    path = chart_root / "cash" / "2max" / "10bb.json.gz"
    doc = json.loads(path.read_text())
    doc["nodes"][1]["reach"] = 0.01 / (2 * 10) * 0.99  # node R, just under bar / (2 x depth)
    path.write_text(json.dumps(doc))
    graded, skipped = grade_hands([parse_state_line("STATE:1:r200f:AsAd|2c3c:100|-100:s|b", stack=1000.0)],
                                  ChartLibrary(chart_root))
    assert list(graded["player"]) == ["s"]
    assert list(skipped["reason"]) == ["a node the chart reaches too rarely for the solve to pin its play down"]


def test_hands_with_posts_the_charts_do_not_model_are_skipped(chart_root):
    # a third player's big blind in a heads-up chart's world: grade nothing, say why
    h = parse_state_line("STATE:10:r200f:AsAd|2c3c:100|-100:s|b", stack=1000.0)
    h.antes = [0.5, 0.0]  # a dead small blind posted by the SB seat's player
    graded, skipped = grade_hands([h], ChartLibrary(chart_root))
    assert graded.empty and skipped["reason"].str.contains("blinds or antes the charts do not have").all()


def test_grade_cli(chart_root, tmp_path, capsys):
    log = tmp_path / "h.log"
    log.write_text("\n".join(line for line, *_ in HANDS))
    # the CLI reads logs at 100bb: no chart -> every decision skipped with the reason
    assert main(["hands", "grade", str(log), "--charts", str(chart_root), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["players"] == {} and list(out["skips"]) == ["no published chart cash/2max/100bb"]


def test_population_against_known_chart(chart_root, hands):
    from pokerlab.hands.population import population_table

    table = population_table(hands, ChartLibrary(chart_root), nodes="rfi", min_count=5, only=["s"])
    root = table[table["node"] == "(root)"].set_index("action")
    assert set(root["basis"]) == {"held"} and (root["decisions"] == 7).all()
    # held: AA x4 (R 1), KQo (C .5, R .5), 72o x2 (F 1); taken: R R A A C F R
    assert root.loc["R", "pool_freq"] == pytest.approx(3 / 7, abs=1e-4)
    assert root.loc["R", "chart_freq"] == pytest.approx(4.5 / 7, abs=1e-4)
    null_sd = (0.25 ** 0.5) / 7  # only KQo mixes: q(1-q) = 1/4
    assert root.loc["R", "z"] == pytest.approx((3 / 7 - 4.5 / 7) / null_sd, abs=0.01)
    p = 2 / 7  # the chart never shoves these classes: the pool's binomial error scales the gap
    assert root.loc["A", "z"] == pytest.approx(p / (p * (1 - p) / 7) ** 0.5, abs=0.01)
    assert root.loc["R", "flag"] and not root.loc["A", "flag"]  # z = -3 and 1.67

    for h in hands:  # unknown cards: compared with the chart's share of deals (0.25 each here)
        h.hole[0] = None
    table = population_table(hands, ChartLibrary(chart_root), nodes="rfi", min_count=5, only=["s"])
    root = table[table["node"] == "(root)"].set_index("action")
    assert set(root["basis"]) == {"shares"} and (root["chart_freq"] == 0.25).all()


def test_a_chart_library_must_be_a_folder(tmp_path):
    from pokerlab.hands.grading import ChartLibrary, open_chart_library

    library = open_chart_library(tmp_path)
    assert isinstance(library, ChartLibrary) and library.get("cash", 6, 100) is None  # a missing chart is no error
    (tmp_path / "file").write_text("")
    for path in (tmp_path / "file", tmp_path / "nope"):
        with pytest.raises(ValueError, match=rf"^--charts {path}: not a folder of charts"):
            open_chart_library(path, "--charts")
