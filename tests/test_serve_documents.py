"""NodeDocument v1: schema-valid postflop and preflop documents, grid169 as the reach-weighted
mean of the per-combo data, strategies summing to 1, EVs valued at the node (folds worth 0,
the two seats' node EVs adding up to the pot), amounts from the chart's sizing, and packs that
are written once and checked against their digest."""

import json

import numpy as np
import pytest

from pokerlab.charts import load_chart
from pokerlab.cards import COMBO_IDS, parse_cards
from pokerlab.cli import main
from pokerlab.encoding import decode
from pokerlab.preflop.tree import recorded_tree
from pokerlab.serve.documents import grid169, preflop_document, validate_document
from pokerlab.serve.pack import Pack, write_pack

RANKS = "AKQJT98765432"


def class_of(combo: str) -> str:
    """The class of a combo id, written here from the card characters (not pokerlab.cards)."""
    a, b = combo[0], combo[2]
    if a == b:
        return a + b
    hi, lo = sorted((a, b), key=RANKS.index)
    return hi + lo + ("s" if combo[1] == combo[3] else "o")


def expected_grid(doc: dict, weights: dict) -> dict:
    """class -> (weight, strategy mean, ev mean) from the document's per-combo data."""
    n = len(doc["actions"])
    out = {}
    for combo, w in weights.items():
        if combo not in doc["strategy"] or w <= 0:
            continue
        total, strat, ev = out.get(class_of(combo), (0.0, np.zeros(n), np.zeros(n)))
        out[class_of(combo)] = (total + w, strat + w * np.array(doc["strategy"][combo]),
                                ev + w * np.array(doc["evs"][combo], dtype=float))
    return {k: (t, s / t, e / t) for k, (t, s, e) in out.items()}


def check_grid(doc: dict, weights: dict) -> None:
    expected = expected_grid(doc, weights)
    assert len(doc["grid169"]) == 169
    for cell in doc["grid169"]:
        assert (cell["row"] < cell["col"]) == cell["class"].endswith("s")
        assert (cell["row"] > cell["col"]) == cell["class"].endswith("o")
        assert RANKS[cell["row"]] == cell["class"][0 if cell["row"] <= cell["col"] else 1]
        if cell["class"] not in expected:
            assert cell["weight"] == 0 and not any(cell["strategy"]) and not any(cell["ev"])
            continue
        weight, strat, ev = expected[cell["class"]]
        assert cell["weight"] == pytest.approx(weight, abs=1e-8)
        np.testing.assert_allclose(cell["strategy"], strat, atol=1e-6)
        np.testing.assert_allclose(cell["ev"], ev, atol=1e-5)


@pytest.fixture(scope="module")
def pack_docs(served_release):
    root, made = served_release
    pack = Pack(made["pack"])
    family = next(iter(pack.spots))
    return pack, {path: pack.document(family, path) for path in pack.spots[family]["nodes"]}


def test_grid169_is_the_reach_weighted_mean():
    weights = {"AsKs": 1.0, "AhKh": 3.0, "AdKd": 0.0, "QsQh": 2.0}
    strategy = {"AsKs": [1.0, 0.0], "AhKh": [0.0, 1.0], "AdKd": [1.0, 0.0], "QsQh": [0.5, 0.5]}
    evs = {"AsKs": [2.0, 4.0], "AhKh": [6.0, 8.0], "AdKd": [None, None], "QsQh": [1.0, -1.0]}
    cells = {c["class"]: c for c in grid169(weights, strategy, evs, 2)}
    assert cells["AKs"]["weight"] == 4.0
    assert cells["AKs"]["strategy"] == [0.25, 0.75]
    assert cells["AKs"]["ev"] == [5.0, 7.0]
    assert cells["QQ"]["strategy"] == [0.5, 0.5] and cells["QQ"]["ev"] == [1.0, -1.0]
    assert cells["AKo"] == {"class": "AKo", "row": 1, "col": 0, "weight": 0.0, "strategy": [0.0, 0.0], "ev": [0.0, 0.0]}
    with pytest.raises(ValueError, match="AdKd"):
        grid169({"AdKd": 1.0}, strategy, evs, 2)


def test_postflop_documents_follow_the_contract(pack_docs, served_release):
    pack, docs = pack_docs
    solver = served_release[1]["solver"]
    board = set(parse_cards("KsTh7d4c2s"))
    # the river tree is all root street: one document per decision node
    assert len(docs) == solver.tree.decision_nodes().size
    for path, doc in docs.items():
        validate_document(doc, strict=True)
        assert doc["node_path"] == path and doc["board"] == "KsTh7d4c2s" and doc["street"] == "river"
        assert doc["meta"]["pack_sha256"] == pack.sha256 and doc["meta"]["ip_weights_uniform"] is False
        for seat in ("oop", "ip"):
            for combo in doc["ranges"][seat]:  # card removal: nothing holds a board card
                assert not set(parse_cards(combo)) & board
        actor_range = doc["ranges"][doc["actor"]]
        assert set(doc["strategy"]) == set(actor_range) == set(doc["evs"]) == set(doc["evs_current"])
        for combo, probs in doc["strategy"].items():
            assert len(probs) == len(doc["actions"]) == len(doc["evs"][combo])
            assert sum(probs) == pytest.approx(1.0, abs=1e-6)
            assert doc["evs_current"][combo] == pytest.approx(np.dot(probs, doc["evs"][combo]), abs=1e-4)
        check_grid(doc, actor_range)
        ex = doc["exploitability"]
        assert ex["oop_ev_bb"] + ex["ip_ev_bb"] == pytest.approx(doc["pot_bb"], abs=1e-5)  # chips conserved
        ids = [a["id"] for a in doc["actions"]]
        assert len(set(ids)) == len(ids)
        if "fold" in ids:  # a fold is worth exactly nothing from the node on
            k = ids.index("fold")
            assert max(abs(ev[k]) for ev in doc["evs"].values()) < 1e-6


def test_postflop_sizes_paths_and_root_values(pack_docs, served_release):
    _, docs = pack_docs
    solver = served_release[1]["solver"]
    root = docs["root"]
    assert root["actor"] == "oop" and root["pot_bb"] == 10.0 and root["effective_stack_bb"] == 20.0
    assert root["actions"] == [{"id": "check", "kind": "check"},
                               {"id": "bet_50", "kind": "bet", "amount_bb": 5.0, "fraction_pot": 0.5},
                               {"id": "allin", "kind": "allin", "amount_bb": 20.0, "fraction_pot": 2.0}]
    facing = docs["root.bet_50"]
    assert facing["actor"] == "ip" and facing["pot_bb"] == 15.0 and facing["effective_stack_bb"] == 15.0
    call = next(a for a in facing["actions"] if a["id"] == "call")
    assert call["amount_bb"] == 5.0
    assert "root.check.bet_50" in docs and "root.bet_50.call" not in docs  # a call closes the river
    # the root's current EVs are the solver's per-combo root values (its own multi-threaded read-out)
    result = solver.result()
    for combo, value in root["evs_current"].items():
        assert value == pytest.approx(result.players["oop"].combos[combo]["ev"], abs=2e-5)
    assert root["exploitability"]["exploitability_bb"] == pytest.approx(result.exploitability_chips, rel=1e-6)


def test_preflop_documents_for_every_node(served_release):
    _, made = served_release
    for path in made["charts"].values():
        chart = load_chart(path)
        positions = chart["spot"]["positions"]
        provenance = {"campaign": "t", "stamp": "s", "pack_sha256": "0" * 64, "manifest": {"listed": False}}
        tree = recorded_tree(chart)
        for node in chart["nodes"]:
            doc = preflop_document(chart, node["id"], tree, provenance)
            validate_document(doc, strict=node["id"] == "")
            assert doc["actor"] == node["actor"] and doc["capped"] == node["capped"] and doc["reach"] == node["reach"]
            assert [a["code"] for a in doc["actions"]] == node["actions"]
            freq = np.stack([decode(node["strategy"][c]) for c in node["actions"]])
            freq = freq / freq.sum(axis=0)
            for combo in ("AsAh", "Ah2c", "7d6d", "KcQc"):
                k = chart["classes"].index(class_of(combo))
                np.testing.assert_allclose(doc["strategy"][combo], freq[:, k], atol=1e-6)
            assert all(abs(sum(p) - 1.0) <= 1e-6 for p in doc["strategy"].values())
            assert sum(doc["ranges"]["actor"].values()) == pytest.approx(1.0, abs=1e-6)
            check_grid(doc, doc["ranges"]["actor"])
            if "F" in node["actions"]:  # the chart's EVs run from the start of the hand; a document's from the node
                k = node["actions"].index("F")
                assert {ev[k] for ev in doc["evs"].values() if ev[k] is not None} == {0.0}
        root = preflop_document(chart, "", provenance=provenance)
        first = positions[0]
        raise_ = next(a for a in root["actions"] if a["code"] == "R")
        open_size = chart["sizing"]["open"].get(first, chart["sizing"]["open"]["default"])
        assert raise_["amount_bb"] == pytest.approx(open_size) and raise_["raise_to_bb"] == pytest.approx(open_size)
        assert root["node_path"] == "root" and root["pot_bb"] == pytest.approx(1.5 + chart["spot"]["ante_bb"])


def test_schema_names_the_broken_field(pack_docs):
    _, docs = pack_docs
    doc = json.loads(json.dumps(docs["root"]))
    combo = next(iter(doc["strategy"]))
    doc["strategy"][combo][0] = 1.5
    with pytest.raises(ValueError, match=f"strategy/{combo}/0"):
        validate_document(doc)
    doc = json.loads(json.dumps(docs["root"]))
    doc["ranges"]["oop"]["Xx2c"] = 0.5
    with pytest.raises(ValueError, match="ranges/oop"):
        validate_document(doc)


def test_pack_is_written_once_and_checked(pack_docs, tmp_path):
    pack, _ = pack_docs
    family = next(iter(pack.spots))
    from pokerlab.serve.pack import PackSpot

    entry = pack.spots[family]
    spot = PackSpot(family, entry["board"], entry["street"], pack._spot(family))
    first = write_pack(tmp_path / "a", [spot], campaign="test")
    again = write_pack(tmp_path / "b", [spot], campaign="test")
    other = write_pack(tmp_path / "c", [spot], campaign="another")
    assert first["pack_sha256"] == again["pack_sha256"] == pack.sha256
    assert (tmp_path / "a" / "pack.json").read_bytes() == (tmp_path / "b" / "pack.json").read_bytes()
    assert other["pack_sha256"] != first["pack_sha256"]
    with pytest.raises(ValueError, match="written once"):
        write_pack(tmp_path / "a", [spot])
    spot_file = tmp_path / "b" / entry["file"]
    spot_file.write_bytes(spot_file.read_bytes().replace(b'"root"', b'"rooT"', 1))
    with pytest.raises(ValueError, match="does not match its listed SHA-256"):
        Pack(tmp_path / "b").document(family, "root")


def test_postflop_command_writes_a_pack(tmp_path, capsys):
    args = ["postflop", "--pot", "10", "--stack", "10", "--board", "AsKd8c5h2s", "--oop", "AA,KK,QQ,AK",
            "--ip", "AA,QQ,JJ,AQ", "--bets", "100", "--accuracy", "1", "--pack", str(tmp_path / "p")]
    assert main(args) == 0
    pack = Pack(tmp_path / "p")
    (family,) = pack.spots
    assert family == "river_AsKd8c5h2s_p10_s10"
    for path in pack.spots[family]["nodes"]:
        validate_document(pack.document(family, path))
    assert pack.document(family, "root")["actions"][1] == {"id": "allin", "kind": "allin", "amount_bb": 10.0,
                                                            "fraction_pot": 1.0}
    assert main(args) == 2
    assert "already exists and is not empty" in capsys.readouterr().err
