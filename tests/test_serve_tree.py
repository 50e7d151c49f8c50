"""The tree tier: every node of a solved turn tree served as a NodeDocument, nodes after a deal
named by the dealt card, their ranges free of the dealt card, their EVs equal to those of the
river spot the deal produces re-solved with the same strategies imposed; and the fit's solves
written as root-tier packs that agree with the fit's own record."""

import warnings

import numpy as np
import pytest

from pokerlab.cards import COMBO_IDS, card_str, parse_cards
from pokerlab.postflop.game import BetTree, PostflopSpot
from pokerlab.postflop.solver import PostflopSolver
from pokerlab.ranges import Range
from pokerlab.serve.documents import validate_document
from pokerlab.serve.models import PackNodeList, PackStreetList
from pokerlab.serve.pack import Pack, pack_spot, write_pack

from model_checks import round_trips
from test_serve_documents import check_grid

BOARD = "KsTh7d4c"
TREE = BetTree.uniform((50,), ())  # bet half the pot, fold or call: four decisions per street
STREET_ACTIONS = ("root.check.check", "root.bet_50.call", "root.check.bet_50.call")  # the turn lines reaching the river
COMBO_NUMBER = {cid: i for i, cid in enumerate(COMBO_IDS)}


def vector(weights: dict) -> np.ndarray:
    out = np.zeros(len(COMBO_IDS))
    for cid, w in weights.items():
        out[COMBO_NUMBER[cid]] = w
    return out


@pytest.fixture(scope="module")
def turn_pack(tmp_path_factory):
    spot = PostflopSpot(10.0, 20.0, tuple(parse_cards(BOARD)), Range.parse("QQ+,AK,KQs,JTs,98s").weights,
                        Range.parse("TT+,AQs+,KJs,T9s").weights, TREE)
    solver = PostflopSolver(spot, isomorphism=False)
    solver.solve(0.5, 300)
    root = tmp_path_factory.mktemp("tree") / "results"
    write_pack(root / "packs" / "turn", [pack_spot(solver, 0.5, "turn_kt74", tier="tree")], campaign="test")
    write_pack(root / "packs" / "lazy", [pack_spot(solver, 0.5, "turn_kt74", tier="tree", lazy=True)], campaign="test")
    return root, Pack(root / "packs" / "turn"), solver


def test_every_node_of_a_turn_pack_is_a_valid_document(turn_pack):
    _, pack, solver = turn_pack
    entry = pack.spots["turn_kt74"]
    assert pack.index["tier"] == "tree"
    # 4 turn decisions, and 4 river decisions after each of the 48 unseen cards on each of 3 lines
    assert len(entry["nodes"]) == 4 + 3 * 48 * 4
    assert sorted(entry["deals"]) == sorted(STREET_ACTIONS)
    board = set(parse_cards(BOARD))
    for line, cards in entry["deals"].items():
        assert len(cards) == 48 and not {c for c in parse_cards("".join(cards))} & board
        assert all(f"{line}.{c}" in entry["nodes"] for c in cards)
    assert len(entry["parts"]) == 48  # one file per dealt card
    for path in entry["nodes"]:
        doc = pack.document("turn_kt74", path)
        validate_document(doc, strict=path in ("root", "root.check.check.2c"))
        assert doc["node_path"] == path and doc["meta"]["tier"] == "tree"
        segments = path.split(".")
        dealt = [s for s in segments if len(s) == 2 and s[1] in "shdc"]
        assert doc["street"] == ("river" if dealt else "turn")
        cards = [parse_cards(c)[0] for c in [BOARD[i:i + 2] for i in range(0, 8, 2)] + dealt]
        assert doc["board"] == "".join(card_str(c) for c in sorted(cards, reverse=True))  # canonical, dealt card in
        for seat in ("oop", "ip"):  # card removal: no combo holds a board card or the dealt card
            assert all(not set(parse_cards(c)) & set(cards) for c in doc["ranges"][seat])
        actor_range = doc["ranges"][doc["actor"]]
        assert set(doc["strategy"]) == set(actor_range) == set(doc["evs"])
        for probs in doc["strategy"].values():
            assert sum(probs) == pytest.approx(1.0, abs=1e-6)
        check_grid(doc, actor_range)
        ex = doc["exploitability"]
        assert ex["oop_ev_bb"] + ex["ip_ev_bb"] == pytest.approx(doc["pot_bb"], abs=1e-5)


def test_a_dealt_card_removes_its_combos_and_keeps_the_reach(turn_pack):
    _, pack, _ = turn_pack
    before = pack.document("turn_kt74", "root.check")  # IP's turn decision after OOP checked
    after = pack.document("turn_kt74", "root.check.check.Qc")
    assert after["board"] == "KsQcTh7d4c" and after["street"] == "river" and after["actor"] == "oop"
    k = [a["id"] for a in before["actions"]].index("check")
    for cid, reach in before["ranges"]["ip"].items():
        if "Qc" in (cid[:2], cid[2:]):
            assert cid not in after["ranges"]["ip"]
        else:  # IP's reach is its reach at the turn decision times its check frequency
            assert after["ranges"]["ip"][cid] == pytest.approx(reach * before["strategy"][cid][k], abs=1e-7)
    assert "QcQs" not in after["ranges"]["oop"] and "QhQd" in after["ranges"]["oop"]


@pytest.mark.parametrize("line,card", [("root.bet_50.call", "2c"), ("root.check.check", "Ah")])
def test_river_node_evs_equal_the_river_spot_resolved_with_the_same_strategies(turn_pack, line, card):
    """The river spot a deal produces (board + card, pot and stacks after the turn's betting,
    ranges = the reach after the deal), with the turn solve's river strategies imposed, valued
    by its own root read-out: per-combo EVs and the node EVs must equal the turn pack's."""
    _, pack, _ = turn_pack
    check_against_river_resolve(pack, "turn_kt74", f"{line}.{card}", BOARD + card, TREE)


def check_against_river_resolve(pack, family: str, prefix: str, board: str, tree: BetTree) -> None:
    """Re-solve the river spot at ``prefix`` (a path ending with the river card) with the pack's
    strategies imposed and compare its root read-out and per-node documents with the pack's."""
    first = pack.document(family, prefix)
    spot = PostflopSpot(first["pot_bb"], first["effective_stack_bb"], tuple(parse_cards(board)),
                        vector(first["ranges"]["oop"]), vector(first["ranges"]["ip"]), tree)
    river = PostflopSolver(spot)
    paths = {0: prefix}
    for node in river.tree.decision_nodes():  # breadth-first: impose the pack's strategies node by node
        doc = pack.document(family, paths[int(node)])
        for k, child in enumerate(river.tree.children(int(node))):
            paths[int(child)] = f"{paths[int(node)]}.{doc['actions'][k]['id']}"
        actor = int(river.tree.actor[node])
        strategy = np.array([doc["strategy"][COMBO_IDS[int(c)]] for c in river.hands[actor]]).T
        river.set_average_strategy(int(node), (), strategy)
    result = river.result()
    for seat in ("oop", "ip"):
        assert result.players[seat].range_ev == pytest.approx(first["exploitability"][f"{seat}_ev_bb"], abs=2e-5)
    for cid, value in first["evs_current"].items():
        if cid in result.players["oop"].combos and result.players["oop"].weights[cid] > 0:
            assert value == pytest.approx(result.players["oop"].combos[cid]["ev"], abs=2e-5)
    # every river node of the line: the same documents from the river spot's own root-street read-out
    resolved = pack_spot(river, 0.5, "river", tier="root").documents
    assert len(resolved) == river.tree.decision_nodes().size
    for path, doc in resolved.items():
        served = pack.document(family, prefix + path[len("root"):])
        assert served["actions"] == doc["actions"] and served["pot_bb"] == pytest.approx(doc["pot_bb"])
        for cid, evs in doc["evs"].items():
            if doc["ranges"][doc["actor"]][cid] > 0:
                np.testing.assert_allclose(served["evs"][cid], evs, atol=5e-5)
        for seat in ("oop_ev_bb", "ip_ev_bb"):
            assert served["exploitability"][seat] == pytest.approx(doc["exploitability"][seat], abs=5e-5)


def test_a_flop_pack_is_lazy_and_its_river_nodes_are_right(tmp_path):
    """``pokerlab postflop --pack`` on a flop root: a lazy tree tier; a river node two deals down
    is schema-valid, free of both dealt cards, and equals the river spot re-solved with the
    pack's strategies imposed."""
    from pokerlab.cli import main

    out = tmp_path / "flop"
    assert main(["postflop", "--pot", "10", "--stack", "10", "--board", "AsKd8c", "--oop", "AA,KK,AK",
                 "--ip", "QQ,AK,KQs", "--bets", "50", "--accuracy", "2", "--max-iterations", "40",
                 "--pack", str(out)]) == 0
    pack = Pack(out)
    (family,) = pack.spots
    entry = pack.spots[family]
    assert "lazy" in entry and pack.index["tier"] == "tree" and "parts" not in entry
    path = "root.check.check.2c.check.check.3d"
    assert pack.has_node(family, path) and not pack.has_node(family, "root.check.check.2c.check.check.2c")
    doc = pack.document(family, path)
    validate_document(doc, strict=True)
    assert doc["board"] == "AsKd8c3d2c" and doc["street"] == "river" and doc["node_path"] == path
    for seat in ("oop", "ip"):
        assert not any(c in ("2c", "3d") for combo in doc["ranges"][seat] for c in (combo[:2], combo[2:]))
    check_grid(doc, doc["ranges"][doc["actor"]])
    check_against_river_resolve(pack, family, path, "AsKd8c2c3d", BetTree.uniform((50,), ()))


def test_the_api_reaches_nodes_after_a_deal(turn_pack):
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from pokerlab.serve.app import create_app

    root, _, _ = turn_pack
    client = TestClient(create_app(root))
    listed = client.get("/api/v1/packs/turn/spots/turn_kt74/nodes").json()
    assert listed["tier"] == "tree" and len(listed["deals"]["root.check.check"]) == 48
    doc = client.get("/api/v1/packs/turn/spots/turn_kt74/nodes/root.check.check.Ah.check").json()
    validate_document(doc)
    assert doc["board"] == "AhKsTh7d4c" and doc["actor"] == "ip"
    bad = client.get("/api/v1/packs/turn/spots/turn_kt74/nodes/root.check.check.Xx")
    assert bad.status_code == 400
    gone = client.get("/api/v1/packs/turn/spots/turn_kt74/nodes/root.check.check.Ks")  # a board card cannot come
    assert gone.status_code == 404 and gone.json()["error"]["asked"]["node_path"] == "root.check.check.Ks"


def _without_pack_fields(doc: dict) -> dict:
    return {**doc, "meta": {k: v for k, v in doc["meta"].items() if k not in ("pack_sha256", "stamp")}}


def test_a_lazy_pack_builds_the_same_documents_on_request(turn_pack):
    """A lazy pack stores the root street's documents, the spot and the strategy sums; every
    later document it builds equals the eager pack's, and its street listings too."""
    root, eager, _ = turn_pack
    lazy = Pack(root / "packs" / "lazy")
    entry = lazy.spots["turn_kt74"]
    assert entry["nodes"] == ["root", "root.bet_50", "root.check", "root.check.bet_50"] and "parts" not in entry
    assert entry["deals"] == eager.spots["turn_kt74"]["deals"]
    assert lazy.sha256 != eager.sha256
    for path in eager.spots["turn_kt74"]["nodes"]:
        assert lazy.has_node("turn_kt74", path)
        assert _without_pack_fields(lazy.document("turn_kt74", path)) == _without_pack_fields(
            eager.document("turn_kt74", path)), path
    for line in STREET_ACTIONS:
        for card in ("Ah", "2c", "Qs"):
            after = f"{line}.{card}"
            a, b = lazy.street("turn_kt74", after), eager.street("turn_kt74", after)
            assert sorted(a["nodes"]) == sorted(b["nodes"]) and len(a["nodes"]) == 4 and a["deals"] == b["deals"] == {}
    for missing in ("root.check.check.Ks", "root.check.check.Ah.call", "root.check.check", "root.fold"):
        assert not lazy.has_node("turn_kt74", missing) and not eager.has_node("turn_kt74", missing)


def test_the_api_lists_a_lazy_pack_street_by_street(turn_pack):
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from pokerlab.serve.app import create_app

    root, _, _ = turn_pack
    client = TestClient(create_app(root))
    base = "/api/v1/packs/lazy/spots/turn_kt74/nodes"
    listed = client.get(base)
    assert listed.json()["lazy"] is True and len(listed.json()["deals"]["root.bet_50.call"]) == 48
    street = client.get(base, params={"after": "root.bet_50.call.9s"})
    assert street.status_code == 200 and street.json()["nodes"][0] == "root.bet_50.call.9s"
    round_trips(PackNodeList, listed.content)
    round_trips(PackStreetList, street.content)
    assert client.get(base, params={"after": "root.bet_50.call.9s"}, headers={"If-None-Match": street.headers["etag"]}).status_code == 304
    for path in street.json()["nodes"]:
        r = client.get(f"{base}/{path}")
        assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
        validate_document(r.json())
        assert r.json()["board"] == "KsTh9s7d4c"
    assert client.get(base, params={"after": "root.bet_50.call.Ks"}).status_code == 404
    assert client.get(base, params={"after": "root..x"}).status_code == 400
    assert client.get(f"{base}/root.bet_50.call.Ks.check").status_code == 404


# --- the fit's solves are packs -------------------------------------------------------------


def test_a_fit_job_writes_a_root_tier_pack_agreeing_with_its_record(tmp_path):
    from pokerlab.fit.settings import FitSettings
    from pokerlab.fit.solves import FIT_CAMPAIGN, measure
    from pokerlab.serve.pack import replace_root_pack

    from test_fit import BASE

    settings = FitSettings.from_config({**BASE, "accuracy_pct_pot": 1.0, "max_iterations": 100})
    spot = PostflopSpot(6.0, 12.0, tuple(parse_cards("QsJh2h8d3c")), Range.parse("QQ,JJ,AQ,KQs,T9s").weights,
                        Range.parse("AA,KK,QJs,AJs,98s").weights, settings.bet_tree)
    pack_dir = tmp_path / "results" / "fit" / "solves" / "cash" / "2max" / "20bb" / "e0" / "b0.pack"
    frame, record = measure(spot, settings, threads=1, on_played=lambda solver: replace_root_pack(
        solver, settings.accuracy_pct_pot, pack_dir, FIT_CAMPAIGN))
    plain, plain_record = measure(spot, settings, threads=1)
    assert frame.equals(plain) and record == plain_record  # the pack does not change the measurement
    pack = Pack(pack_dir)
    assert pack.index["tier"] == "root" and pack.index["campaign"] == "pokerlab-fit"
    (family,) = pack.spots
    for path in pack.spots[family]["nodes"]:
        validate_document(pack.document(family, path))
    root = pack.document(family, "root")
    for seat in ("oop", "ip"):
        assert root["exploitability"][f"{seat}_ev_bb"] == pytest.approx(record["players"][seat]["range_ev"], abs=1e-5)
    assert root["exploitability"]["exploitability_pct_pot"] == pytest.approx(record["exploitability_pct_pot"], rel=1e-5)
    oop = frame[frame["player"] == 0]
    for _, row in oop.head(10).iterrows():
        assert root["evs_current"][COMBO_IDS[int(row["combo"])]] == pytest.approx(row["ev"], abs=1e-5)
    # pokerlab serve lists it
    from pokerlab.serve.app import Catalogue

    catalogue = Catalogue(tmp_path / "results")
    assert list(catalogue.packs) == ["fit.cash.2max.20bb.e0.b0"]
    assert sum(f.stat().st_size for f in pack_dir.rglob("*") if f.is_file()) < 200_000  # root tier only: small


def test_a_tree_tier_refuses_a_solve_that_stores_one_deal_per_suit_class():
    # no diamond and no club on the board: a diamond river card stands for its club twin
    spot = PostflopSpot(10.0, 20.0, tuple(parse_cards("KsTh7s4h")), Range.parse("QQ+,AK").weights,
                        Range.parse("TT+,AQs+").weights, TREE)
    solver = PostflopSolver(spot)
    assert not np.array_equal(solver.iso_card, np.tile(np.arange(52), (53, 1)))
    with pytest.raises(ValueError, match="isomorphism=False"):
        pack_spot(solver, 1.0, "iso", tier="tree")
    assert pack_spot(solver, 1.0, "iso", tier="root").documents["root"]["street"] == "turn"
