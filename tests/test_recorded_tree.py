"""Every reader of a chart walks the tree the chart was solved on (:func:`recorded_tree`).

The hand grader, the served documents and the fit's endings each rebuilt that tree from the
chart's recorded spot and sizing, and the copies drifted: the documents dropped
``shove_or_fold``, and the grader and the documents both dropped a second 3-bet size, so a chart
with an ``S`` action could not be graded or served. Each case here is a chart whose tree differs
from the plain rebuild in one of those ways.
"""

from __future__ import annotations

import copy

import pytest

from pokerlab.io import read_yaml
from pokerlab.preflop.spot import DEFAULT_SIZING_PATH, Spot, load_sizing, parse_sizing
from pokerlab.preflop.tree import build_tree, recorded_tree

CASES = {
    # (spot, sizing, shove_or_fold)
    "shove_or_fold": (Spot("cash", 3, 15), None, True),
    "second_size": (Spot("cash", 2, 60), {"ip": 2.5, "oop": 3.0}, False),
}


def _sizing(second):
    data = read_yaml(DEFAULT_SIZING_PATH, "sizing")
    for band in data["bands"]:
        if second is not None:
            band["second_three_bet"] = copy.deepcopy(second)
    return parse_sizing(data) if second is not None else load_sizing()


@pytest.fixture(scope="module", params=sorted(CASES))
def solved(request, equity_table, tmp_path_factory):
    """(case, the tree solved on, the sizing, the result document, the chart document, its path)."""
    from pokerlab.charts import load_chart
    from pokerlab.preflop.result_file import read_result, write_result
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.publish import write_chart

    spot, second, shove_or_fold = CASES[request.param]
    sizing = _sizing(second)
    result = solve_spot(spot, sizing, equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(20,), bar_coefficient=10.0), shove_or_fold=shove_or_fold)
    root = tmp_path_factory.mktemp(request.param)
    write_result(root / "result.json", result)
    chart_path = root / "charts" / spot.format / f"{spot.seats}max" / f"{spot.depth:g}bb.json.gz"
    write_chart(root / "result.json", chart_path)
    tree = build_tree(spot, sizing, shove_or_fold=shove_or_fold)
    return request.param, tree, sizing, read_result(root / "result.json"), load_chart(chart_path), chart_path


def _decisions(tree) -> dict[str, tuple[str, ...]]:
    return {n.id: n.actions for n in tree.nodes if n.kind == "decision"}


def test_the_recorded_tree_is_the_tree_solved_on(solved):
    case, tree, _, result, chart, _ = solved
    assert chart["spot"]["shove_or_fold"] is (case == "shove_or_fold")
    assert ("second_three_bet" in chart["sizing"]) is (case == "second_size")
    for doc in (result, chart):
        rebuilt = recorded_tree(doc)
        assert rebuilt.nodes == tree.nodes and rebuilt.sizing == tree.sizing
    assert {n["id"]: tuple(n["actions"]) for n in chart["nodes"]} == _decisions(tree)
    letters = {a for actions in _decisions(tree).values() for a in actions}
    assert letters == ({"F", "C", "A"} if case == "shove_or_fold" else {"F", "C", "R", "S", "A"})


def test_recorded_tree_refuses_rows_that_do_not_rebuild(solved):
    _, _, _, _, chart, _ = solved
    with pytest.raises(ValueError, match="sizing"):
        recorded_tree({**chart, "sizing": {**chart["sizing"], "band": "no such band", "open": {"default": 0}}})


def test_the_grader_the_documents_and_the_fit_walk_the_same_tree(solved):
    from pokerlab.fit.endings import spot_endings
    from pokerlab.hands.grading import Chart
    from pokerlab.serve.documents import preflop_node_list

    case, tree, sizing, result, chart, chart_path = solved
    graded = Chart(chart_path)
    assert graded.tree.nodes == tree.nodes
    assert {k: n.actions for k, n in graded.nodes.items()} == _decisions(tree)
    from pokerlab.serve.app import Catalogue

    catalogue = Catalogue(chart_path.parents[3])
    (key,) = catalogue.charts
    assert catalogue.chart(key)["tree"].nodes == tree.nodes
    served = {n["node_path"]: n for n in preflop_node_list(chart)}
    assert len(served) == len(chart["nodes"])
    for node_id, node in graded.nodes.items():
        actions = served[node_id or "root"]["actions"]
        assert tuple(a["code"] for a in actions) == node.actions
        raise_to = [a["raise_to_bb"] for a in actions if a["code"] == "R"]
        assert raise_to == ([] if node.raise_to is None else [pytest.approx(node.raise_to, abs=1e-6)])
    endings = spot_endings(result, sizing)
    assert bool(endings.endings) is (case != "shove_or_fold")  # push/fold reaches no flop
    assert all(tree.node(e.node).kind == "flop" for e in endings.endings)


def test_every_served_document_of_the_chart_is_valid_under_its_schema(solved):
    """Including the nodes after a second raise size (``S``), which the schema's paths once refused."""
    from pokerlab.serve.documents import preflop_document, validate_document

    case, tree, _, _, chart, _ = solved
    ids = [n.id for n in tree.nodes if n.kind == "decision"]
    assert case != "second_size" or any("S" in node_id for node_id in ids)
    provenance = {"campaign": "t", "stamp": "s", "pack_sha256": "0" * 64, "manifest": {"listed": False}}
    for node_id in ids:
        validate_document(preflop_document(chart, node_id, tree, provenance), strict=True)
