"""Priors generated from a chart: each entry is the chart's own arrive-with distribution (exactly
for ``unopened``, within the encoding's quantisation where a later node witnesses it), every
entry equals an independent recomputation from the chart's edges, and look-ups resolve buckets,
aliases and defaults."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pokerlab.cards import CLASS_PRIOR, CLASS_WEIGHTS
from pokerlab.encoding import decode, decode_scaled
from pokerlab.io import sha256_file
from pokerlab.charts import load_chart
from pokerlab.preflop.result_file import write_result
from pokerlab.preflop.solve import SolveSettings, solve_spot
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.publish import write_chart
from pokerlab.ranges.lines import replay_actors
from pokerlab.ranges.priors import DEFAULT_PRIORS_PATH, RangePriors, priors_from_charts

LINE_OF_RAISE = {1: "open", 2: "3bet", 3: "4bet"}


@pytest.fixture(scope="module")
def chart(equity_table, tmp_path_factory):
    """A 6-handed 30bb cash solve (60 iterations, loose bar) published as a chart."""
    result = solve_spot(Spot("cash", 6, 30), load_sizing(None), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(60,), bar_coefficient=10.0))
    folder = tmp_path_factory.mktemp("chart")
    write_result(folder / "result.json", result)
    write_chart(folder / "result.json", folder / "30bb.json.gz")
    return folder / "30bb.json.gz"


@pytest.fixture(scope="module")
def priors(chart):
    equity = np.linspace(0.3, 0.85, 169)
    return RangePriors(priors_from_charts([chart], equity))


def test_unopened_is_the_charts_arrive_with_exactly(chart, priors):
    doc = load_chart(chart)
    first = {}
    for node in doc["nodes"]:
        first.setdefault(node["actor"], node)
    for position, node in first.items():
        dist, info = priors.lookup("unopened", position, 30)
        expected = decode_scaled(node["arrive_with"])
        np.testing.assert_array_equal(dist, expected / expected.sum())
        half = (node["arrive_with"]["hi"] - node["arrive_with"]["lo"]) / 180
        assert np.abs(dist - CLASS_PRIOR).max() <= 1.05 * half  # nobody has acted: the deal's prior
    assert priors.document["buckets"][0]["chart_sha256"] == sha256_file(chart)


def test_single_edge_lines_equal_a_later_nodes_arrive_with(chart, priors):
    """Where a line comes from one edge, the seat carries that range into its next decision:
    the chart's arrive-with there is the prior, up to the encoding's quantisation."""
    doc = load_chart(chart)
    positions = doc["spot"]["positions"]
    checked = 0
    for node in doc["nodes"]:
        seat = positions.index(node["actor"])
        actors = replay_actors(node["id"], 6)
        own = [k for k, a in enumerate(actors) if a == seat]
        if not own:
            continue
        from pokerlab.ranges.lines import classify_preflop_line

        line = classify_preflop_line(node["id"], seat, 6)
        dist, info = priors.lookup(line, node["actor"], 30)
        if info["edges"] != 1 or info["defaulted"]:
            continue
        witness = decode_scaled(node["arrive_with"])
        witness = witness / witness.sum()
        level = witness.max() / 90
        assert np.abs(dist - witness).max() <= 2.5 * level, (node["id"], line)
        checked += 1
    assert checked >= 2  # at 30bb most lines mix a raise and an all-in (two edges)


def test_every_entry_equals_an_independent_mixture(chart, priors):
    """Recompute each (line, position) from the chart: edges found by counting raises in the
    node ids (no line classifier), mass = reach x arrive-with x strategy."""
    doc = load_chart(chart)
    masses: dict[tuple[str, str], np.ndarray] = {}
    for node in doc["nodes"]:
        if node["capped"]:
            continue
        raises = sum(ch in "RA" for ch in node["id"])
        arrive = decode_scaled(node["arrive_with"])
        for action in node["actions"]:
            if action == "F":
                continue
            if action in "RA":
                line = LINE_OF_RAISE.get(raises + 1, "5bet")
            elif raises == 0:
                line = "check_option" if node["actor"] == "BB" else "limp"
            else:
                line = {1: "call_open", 2: "call_3bet", 3: "call_4bet"}.get(raises, "call_5bet")
            # a later own action supersedes: skip edges whose actor acts again is not needed,
            # since the line names the *last* action and each edge is one such last action
            mass = node["reach"] * arrive * np.nan_to_num(decode(node["strategy"][action]))
            key = (line, node["actor"])
            masses[key] = masses.get(key, 0) + mass
    assert len(masses) >= 30
    for (line, position), mass in masses.items():
        if mass.sum() == 0:
            continue
        dist, info = priors.lookup(line, position, 30)
        assert info["position"] == position
        expected = mass / mass.sum()
        level = priors.document["ranges"]["30bb"][line][position]
        half = (level["hi"] - level["lo"]) / 180
        assert np.abs(dist * decode_scaled(level).sum() - expected).max() <= half + 1e-9, (line, position)


def test_lookups_aliases_buckets_and_defaults(priors):
    r = priors.range("open", "UTG+1", 30)
    assert r.total_weight() == pytest.approx(1.0)
    _, info = priors.lookup("open", "UTG1", 30)
    assert info["position"] == "UTG" and not info["defaulted"]
    _, info = priors.lookup("limp", "BTN", 30)  # only the SB limps: the default position is used
    assert info["position"] == "SB" and info["defaulted"]
    with pytest.raises(ValueError, match="position"):
        priors.lookup("open", "DEALER", 30)
    with pytest.raises(ValueError, match="line"):
        priors.lookup("squeeze", "BTN", 30)
    with pytest.raises(ValueError, match="stack_bb"):
        priors.bucket(-5)


def test_bundled_priors_are_generated_and_say_so():
    bundled = RangePriors.load(DEFAULT_PRIORS_PATH)
    assert bundled.source == "charts"
    assert [b["name"] for b in bundled.document["buckets"]] == ["20bb", "40bb", "100bb"]
    assert all(len(b["chart_sha256"]) == 64 for b in bundled.document["buckets"])
    assert bundled.bucket(25) == "20bb" and bundled.bucket(50) == "40bb" and bundled.bucket(250) == "100bb"
    assert RangePriors.fallback().source == "hand-written fallback"
    assert len(bundled.class_equity) == 169
    # AA is the strongest class against a random hand, 32o the weakest
    from pokerlab.cards import parse_class
    assert np.argmax(bundled.class_equity) == parse_class("AA")
    assert np.argmin(bundled.class_equity) == parse_class("32o")


def test_load_rejects_other_documents(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a pokerlab-range-priors"):
        RangePriors.load(path)
    with pytest.raises(ValueError, match="missing.json does not exist"):
        RangePriors.load(tmp_path / "missing.json")


def test_chart_node_policy_is_the_decoded_class_frequency(chart):
    from pokerlab.cards import COMBO_CLASS, parse_combo
    from pokerlab.ranges import Range
    from pokerlab.ranges.likelihood import StrategyLikelihood, update_range_for_action

    doc = load_chart(chart)
    node = next(n for n in doc["nodes"] if n["id"] == "FFF")  # the BTN, folded to
    policy = StrategyLikelihood.from_chart_node(doc, "FFF")
    for letter, name in (("F", "fold"), ("R", "raise")):
        if letter in node["actions"]:
            expected = decode(node["strategy"][letter])[COMBO_CLASS]
            np.testing.assert_array_equal(policy.likelihood(name, True), expected)
    # the BTN's range after opening: the deal's prior times the chart's raise frequency, by class
    post = update_range_for_action("random", "R", True, model=policy)
    freq = decode(node["strategy"]["R"])
    k = COMBO_CLASS[parse_combo("AsKs")]
    assert post.weights[parse_combo("AsKs")] == pytest.approx(freq[k] / (freq[COMBO_CLASS]).sum(), rel=1e-12)
