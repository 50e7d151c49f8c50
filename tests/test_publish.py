"""Chart documents: schema-valid, decode to the solve's read-out within half a level, nothing
for a rejected spot, same bytes twice; outcome rows and raise-first-in shares."""

import gzip
import json
import re

import numpy as np
import pytest

from pokerlab.cards import CLASS_PRIOR
from pokerlab.encoding import decode, decode_scaled
from pokerlab.io import sha256_file
from pokerlab.publish import (chart_document, chart_path, load_schema, spot_outcome, validate_chart, write_chart,
                              write_published_spots)
from pokerlab.preflop.result_file import arrays_path, read_result, write_result
from pokerlab.preflop.solve import SolveSettings, result_bytes, solve_spot
from pokerlab.preflop.spot import Spot, load_sizing

HALF_LEVEL = 0.5 / 90


@pytest.fixture(scope="module")
def shipped(equity_table, tmp_path_factory):
    """A 3-handed 15bb cash solve, 30 iterations, loose bar: shipped, with a read-out."""
    result = solve_spot(Spot("cash", 3, 15), load_sizing(None), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(30,), bar_coefficient=10.0))
    path = tmp_path_factory.mktemp("solve") / "result.json"
    write_result(path, result)
    return read_result(path), path


def test_chart_is_schema_valid_and_decodes_to_the_readout(shipped):
    result, path = shipped
    doc = chart_document(result, sha256_file(path))
    validate_chart(doc)
    assert doc["solve"]["exploitability_bb"] == result["exploitability_bb"]
    assert doc["inputs"]["result_sha256"] == sha256_file(path)
    assert [n["id"] for n in doc["nodes"]] == [n["id"] for n in result["nodes"]]
    for node, source in zip(doc["nodes"], result["nodes"]):
        for action in source["actions"]:
            exact = np.array(source["strategy"][action], dtype=float)
            assert np.abs(decode(node["strategy"][action]) - exact).max() <= HALF_LEVEL + 1e-12
            ev = np.array([np.nan if v is None else v for v in source["ev_bb"][action]], dtype=float)
            enc = node["ev_bb"][action]
            got = decode_scaled(enc)
            assert np.array_equal(np.isnan(got), np.isnan(ev))
            finite = ~np.isnan(ev)
            assert np.abs(got[finite] - ev[finite]).max() <= (enc["hi"] - enc["lo"]) / 180 + 1e-9


def test_root_shares_and_rfi_agree_with_the_prior_weighted_strategy(shipped):
    result, _ = shipped
    root = result["nodes"][0]
    assert root["id"] == "" and root["actor"] == "BTN"
    strategy = {a: np.array(v) for a, v in root["strategy"].items()}
    raise_first_in = float(CLASS_PRIOR @ (strategy["R"] + strategy["A"]))
    rfi = spot_outcome(result)["rfi"]
    assert rfi["BTN"] == pytest.approx(raise_first_in, abs=1e-5)
    assert set(rfi) == {"BTN", "SB"}


def test_rejected_spot_has_an_outcome_but_no_chart(equity_table):
    result = solve_spot(Spot("cash", 2, 8), load_sizing(None), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(3,), bar_coefficient=0.0))
    result = json.loads(result_bytes(result))
    outcome = spot_outcome(result)
    assert outcome["status"] == "rejected" and outcome["chart"] == "" and outcome["rfi"] == {}
    assert outcome["exploitability_bb"] == result["exploitability_bb"] > outcome["bar_bb"] == 0.0
    with pytest.raises(ValueError, match="rejected"):
        chart_document(result, "0" * 64)


def test_write_chart_twice_gives_the_same_bytes(shipped, tmp_path):
    _, path = shipped
    write_chart(path, tmp_path / "a.json.gz")
    write_chart(path, tmp_path / "b.json.gz")
    assert (tmp_path / "a.json.gz").read_bytes() == (tmp_path / "b.json.gz").read_bytes()
    assert b"\n" == gzip.decompress((tmp_path / "a.json.gz").read_bytes())[-1:]


def test_a_chart_file_is_deterministic_gzip_of_the_compact_document(shipped, tmp_path):
    """The published bytes: gzip with no name and time 0 in its header around the compact
    canonical JSON, so the bytes do not depend on when or where they were written; every reader
    (load_chart) gets the document back, and reads a plain JSON chart file as well."""
    import time

    from pokerlab.charts import load_chart
    from pokerlab.io import compact_json_bytes

    result, path = shipped
    doc = write_chart(path, tmp_path / "c.json.gz")
    data = (tmp_path / "c.json.gz").read_bytes()
    assert data[:10] == b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xff"  # no name, mtime 0, default level flag (6), OS unknown
    assert gzip.decompress(data) == compact_json_bytes(doc) and load_chart(tmp_path / "c.json.gz") == doc
    time.sleep(1.1)
    write_chart(path, tmp_path / "d.json.gz")
    assert (tmp_path / "d.json.gz").read_bytes() == data
    (tmp_path / "plain.json").write_bytes(compact_json_bytes(doc))
    assert load_chart(tmp_path / "plain.json") == doc


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d["nodes"][0]["strategy"].update(R="!" * 168), "nodes/0/strategy/R"),
        (lambda d: d["nodes"][0]["strategy"].update(R='"' * 169), "nodes/0/strategy/R"),
        (lambda d: d["solve"].update(status="rejected"), "solve/status"),
        (lambda d: d.update(generated_at="today"), "generated_at"),
        (lambda d: d["nodes"][1].update(id="FX"), "nodes/1/id"),
    ],
)
def test_schema_names_the_broken_field(shipped, mutate, fragment):
    result, path = shipped
    doc = json.loads(json.dumps(chart_document(result, sha256_file(path))))
    mutate(doc)
    with pytest.raises(ValueError, match=fragment):
        validate_chart(doc, load_schema())


def test_a_chart_file_is_loaded_only_when_schema_valid(shipped, tmp_path):
    from pokerlab.publish import load_valid_chart

    result, path = shipped
    doc = json.loads(json.dumps(chart_document(result, sha256_file(path))))
    (tmp_path / "good.json").write_text(json.dumps(doc))
    assert load_valid_chart(tmp_path / "good.json") == doc
    doc["solve"]["status"] = "rejected"
    (tmp_path / "bad.json").write_text(json.dumps(doc))
    with pytest.raises(ValueError, match=r"^chart .*bad.json: chart schema: .*solve/status"):
        load_valid_chart(tmp_path / "bad.json")


def test_chart_path():
    assert chart_path("cash", 6, 100.0) == "results/charts/cash/6max/100bb.json.gz"
    assert chart_path("mtt", 9, 12.5) == "results/charts/mtt/9max/12.5bb.json.gz"


# --- pictures: heatmap, viewer, index -------------------------------------------------------


@pytest.fixture(scope="module")
def chart_doc(shipped):
    result, path = shipped
    return json.loads(json.dumps(chart_document(result, sha256_file(path))))


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_heatmap_is_drawn_with_the_same_bytes_twice(chart_doc, tmp_path, suffix):
    from pokerlab.charts import draw_node

    a, b = draw_node(chart_doc, "F", tmp_path / f"a{suffix}"), draw_node(chart_doc, "F", tmp_path / f"b{suffix}")
    assert a.read_bytes() == b.read_bytes() and a.stat().st_size > 10_000
    if suffix == ".svg":
        text = a.read_text()
        assert "AKs" in text and "<dc:date>" not in text


def test_heatmap_cells_split_by_frequency(chart_doc):
    from pokerlab.charts import _cell_segments, node_frequencies

    node = chart_doc["nodes"][0]
    segments = _cell_segments(node_frequencies(node))
    assert len(segments) == 169
    for k, cell in enumerate(segments):
        assert sum(w for _, w in cell) == pytest.approx(1.0)
        order = [a for a, _ in cell]
        assert order == [a for a in ("A", "R", "C", "F") if a in order]  # aggressive actions on the left


def test_a_nodes_default_image_name_names_the_spot_and_the_node(chart_doc):
    from pokerlab.charts import node_image_name

    spot = chart_doc["spot"]
    stem = f"{spot['format']}_{spot['seats']}max_{spot['depth_bb']:g}bb"
    assert node_image_name(chart_doc, "") == f"{stem}_root.png"
    assert node_image_name(chart_doc, "FR") == f"{stem}_FR.png"
    assert node_image_name({"spot": {"format": "mtt", "seats": 9, "depth_bb": 12.5}}, "F") == "mtt_9max_12.5bb_F.png"


def test_unknown_node_names_the_existing_ones(chart_doc, tmp_path, capsys):
    from pokerlab.charts import find_node
    from pokerlab.cli import main

    # 3-handed: after the button folds, a small-blind fold ends the hand, so FF is no decision
    with pytest.raises(ValueError, match=r"'FX' is not a decision node.*after 'F' are \['FA', 'FC', 'FR'\]"):
        find_node(chart_doc, "FX")
    path = tmp_path / "chart.json"
    path.write_text(json.dumps(chart_doc))
    assert main(["chart", str(path), "--node", "F", "--out", str(tmp_path / "f.png")]) == 0
    assert "SB to act" in capsys.readouterr().out and (tmp_path / "f.png").is_file()
    assert main(["chart", str(path), "--node", "F", "--out", str(tmp_path / "f.pdf")]) == 2


def test_viewer_page_loads_its_chart_file_and_draws_with_the_explorer_code(chart_doc, tmp_path):
    import re

    from pokerlab.viewer import STATIC_DIR, index_html, viewer_html, write_viewer

    chart = tmp_path / "results" / "charts" / "cash" / "3max" / "15bb.json.gz"
    chart.parent.mkdir(parents=True)
    chart.write_text(json.dumps(chart_doc))
    out = tmp_path / "results" / "viewer" / "cash" / "3max" / "15bb.html"
    write_viewer(chart, out)
    page = out.read_text()
    assert 'PLChart.mount("../../../charts/cash/3max/15bb.json.gz")' in page
    assert chart_doc["encoding"]["alphabet"] not in page  # no copy of the chart in the page
    assert (STATIC_DIR / "grid.js").read_text() in page and (STATIC_DIR / "chart.js").read_text() in page
    assert len(page) < 40_000 and "src=" not in page and not re.search(r"https?://", page)  # nothing fetched from the web
    assert viewer_html(chart_doc, "../../../charts/cash/3max/15bb.json.gz") == page
    rows = [{"format": "cash", "seats": 3, "depth_bb": 15.0, "status": "shipped", "exploitability_bb": 0.001,
             "bar_bb": 0.012, "iterations": 400, "model_share": 0.2},
            {"format": "mtt", "seats": 9, "depth_bb": 200.0, "status": "rejected", "exploitability_bb": 0.05,
             "bar_bb": 0.021, "iterations": 3000, "model_share": 0.1}]
    index = index_html(rows)
    assert '<a href="cash/3max/15bb.html">' in index and "mtt/9max" not in index and "rejected" in index
    # the joint game's column: empty without a solved start (None, or NaN as read back from the CSV)
    assert "<td>0.0120</td><td></td><td>400</td>" in index and "<td>0.0210</td><td></td><td>3000</td>" in index
    rows[0]["joint_exploitability_bb"], rows[1]["joint_exploitability_bb"] = 0.4114, float("nan")
    index = index_html(rows)
    assert "<td>0.0120</td><td>0.411</td><td>400</td>" in index and "<td>0.0210</td><td></td><td>3000</td>" in index


def test_a_published_node_reads_back_as_a_range(shipped, tmp_path):
    """Range.from_chart decodes a chart node's action to the solved frequencies (half a level)."""
    from pokerlab.ranges import Range

    result, path = shipped
    chart = tmp_path / "chart.json"
    chart.write_text(json.dumps(chart_document(result, sha256_file(path))))
    root = result["nodes"][0]
    opening = Range.from_chart(chart, "", "R")
    exact = Range.from_chart_row(np.array(root["strategy"]["R"], dtype=float))
    assert np.abs(opening.weights - exact.weights).max() <= HALF_LEVEL + 1e-12
    with pytest.raises(ValueError, match="'XYZ' is not a decision"):
        Range.from_chart(chart, "XYZ", "R")
    with pytest.raises(ValueError, match="action 'Q' is not taken"):
        Range.from_chart(chart, "", "Q")


@pytest.mark.parametrize("damage", ["truncate", "empty", "list", "no_status"])
def test_a_damaged_result_is_named_with_how_to_resolve(shipped, tmp_path, damage):
    """Reliability #9: a truncated result.json names the file and says how to re-solve it."""
    data = shipped[1].read_bytes()
    path = tmp_path / "cash" / "3max" / "15bb" / "result.json"
    path.parent.mkdir(parents=True)
    path.write_bytes({"truncate": data[: len(data) // 2], "empty": b"", "list": b"[1]\n",
                      "no_status": b'{"spot": {}}\n'}[damage])
    for write in (lambda: spot_outcome(read_result(path, arrays=False)), lambda: write_chart(path, tmp_path / "c.json")):
        with pytest.raises(ValueError) as info:
            write()
        message = str(info.value)
        assert str(path) in message and "delete it" in message and "\n" not in message
    assert not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("damage", ["missing", "altered"])
def test_a_damaged_arrays_file_is_named_with_how_to_resolve(shipped, tmp_path, damage):
    """result.json records its sidecar's SHA-256: a missing or altered result.npz is refused."""
    path = tmp_path / "result.json"
    path.write_bytes(shipped[1].read_bytes())
    if damage == "altered":
        data = bytearray(arrays_path(shipped[1]).read_bytes())
        data[len(data) // 2] ^= 1
        arrays_path(path).write_bytes(bytes(data))
    with pytest.raises(ValueError, match="result.npz") as info:
        write_chart(path, tmp_path / "c.json")
    assert str(path) in str(info.value) and "re-run" in str(info.value)
    assert spot_outcome(read_result(path, arrays=False))["status"] == "shipped"  # the summary needs no arrays


def test_result_file_round_trips_the_document_bit_for_bit(equity_table, shipped, tmp_path):
    """result.json + result.npz read back to the very document the solve made (every float, every
    undefined EV), a rejected result too, and the same document gives the same bytes."""
    result = solve_spot(Spot("cash", 3, 15), load_sizing(None), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(30,), bar_coefficient=10.0))
    assert result_bytes(read_result(shipped[1])) == result_bytes(result)
    write_result(tmp_path / "result.json", result)
    assert (tmp_path / "result.json").read_bytes() == shipped[1].read_bytes()
    assert arrays_path(tmp_path / "result.json").read_bytes() == arrays_path(shipped[1]).read_bytes()
    lean = json.loads(shipped[1].read_text())
    assert "strategy" not in lean["nodes"][0] and lean["arrays"]["file"] == "result.npz"
    rejected = solve_spot(Spot("cash", 2, 8), load_sizing(None), equity_table.win, equity_table.tie,
                          SolveSettings(checkpoints=(3,), bar_coefficient=0.0))
    write_result(tmp_path / "rejected" / "result.json", rejected)
    assert result_bytes(read_result(tmp_path / "rejected" / "result.json")) == result_bytes(rejected)
    undefined = json.loads(result_bytes(result))  # a class that never reaches a node: EV undefined (None)
    node = undefined["nodes"][-1]
    node["ev_bb"][node["actions"][0]][5] = None
    write_result(tmp_path / "undefined" / "result.json", undefined)
    assert result_bytes(read_result(tmp_path / "undefined" / "result.json")) == result_bytes(undefined)


def test_a_result_with_inline_arrays_still_reads(shipped, tmp_path):
    """A result.json written before the sidecar (arrays inline) reads as it is."""
    path = tmp_path / "result.json"
    path.write_bytes(result_bytes(shipped[0]))
    assert read_result(path) == shipped[0]


def test_one_job_per_table_writes_the_bytes_of_one_job_per_spot(equity_table, shipped, tmp_path):
    """write_published_spots (rule publish_table) gives each shipped spot the chart and page that
    write_chart and write_viewer give it alone, publishes nothing of a rejected one, and lists
    what it wrote for the manifest. The chart is the same made from inline arrays or apart."""
    from pokerlab.preflop.result_file import read_result_matrices
    from pokerlab.viewer import write_viewer

    other = solve_spot(Spot("cash", 3, 10), load_sizing(None), equity_table.win, equity_table.tie,
                       SolveSettings(checkpoints=(20,), bar_coefficient=10.0))
    rejected = solve_spot(Spot("cash", 3, 8), load_sizing(None), equity_table.win, equity_table.tie,
                          SolveSettings(checkpoints=(3,), bar_coefficient=0.0))
    assert rejected["status"] == "rejected"
    paths = [shipped[1], tmp_path / "solves" / "cash" / "3max" / "10bb" / "result.json",
             tmp_path / "solves" / "cash" / "3max" / "8bb" / "result.json"]
    write_result(paths[1], other)
    write_result(paths[2], rejected)
    lean, arrays = read_result_matrices(paths[1])
    assert chart_document(lean, "0" * 64, arrays) == chart_document(read_result(paths[1]), "0" * 64)
    written = write_published_spots(paths, tmp_path / "batch", tmp_path / "listing.json")
    assert written == ["charts/cash/3max/15bb.json.gz", "viewer/cash/3max/15bb.html",
                       "charts/cash/3max/10bb.json.gz", "viewer/cash/3max/10bb.html"]
    assert json.loads((tmp_path / "listing.json").read_text()) == {"files": written}
    assert not (tmp_path / "batch" / "charts" / "cash" / "3max" / "8bb.json.gz").exists()
    for path, name in zip(paths, ("cash/3max/15bb", "cash/3max/10bb")):
        alone = tmp_path / "alone"
        write_chart(path, alone / "charts" / f"{name}.json.gz")
        write_viewer(alone / "charts" / f"{name}.json.gz", alone / "viewer" / f"{name}.html")
        for rel in (f"charts/{name}.json.gz", f"viewer/{name}.html"):
            assert (tmp_path / "batch" / rel).read_bytes() == (alone / rel).read_bytes()


@pytest.mark.parametrize("fast", [True, False])
def test_chart_check_gives_jsonschemas_verdict_with_or_without_the_compiled_validator(shipped, monkeypatch, fast):
    """validate_chart passes a valid chart and names the first problem of a broken one, the same
    with fastjsonschema's compiled validator in front as with jsonschema alone."""
    import copy
    import sys

    from pokerlab import schema_check

    monkeypatch.setattr(schema_check, "_COMPILED", {})
    if not fast:
        monkeypatch.setitem(sys.modules, "fastjsonschema", None)  # import fails: jsonschema alone
    doc = json.loads(json.dumps(chart_document(shipped[0], "0" * 64)))
    validate_chart(doc)
    assert all(v is None for v in schema_check._COMPILED.values()) != fast
    node = doc["nodes"][1]
    breakages = {
        "nodes/1/strategy/" + node["actions"][0]: lambda d: d["nodes"][1]["strategy"].__setitem__(node["actions"][0], "x" * 168),
        "inputs/result_sha256": lambda d: d["inputs"].__setitem__("result_sha256", "x"),
        "(document)": lambda d: d.__setitem__("extra", 1),
        "nodes/1": lambda d: d["nodes"][1].__setitem__("extra", 1),
    }
    for where, breakage in breakages.items():
        broken = copy.deepcopy(doc)
        breakage(broken)
        with pytest.raises(ValueError, match=f"^chart schema: {re.escape(where)}: "):
            validate_chart(broken)
