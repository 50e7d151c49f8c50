"""Range notation and the Range type: exact cases counted by hand, and property tests."""

from __future__ import annotations

import itertools
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.cards import CLASS_COMBOS, CLASS_INDEX, COMBO_CARDS, N_COMBOS, parse_cards, parse_combo
from pokerlab.ranges import Range

# --- parsing: combo counts and weights known by hand -------------------------------------


@pytest.mark.parametrize(
    "text, n_combos",
    [
        ("AA", 6),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("TT+", 5 * 6),
        ("A2s+", 12 * 4),
        ("KTo+", 3 * 12),
        ("AT+", 4 * 16),
        ("22-66", 5 * 6),
        ("66-22", 5 * 6),
        ("A5s-A2s", 4 * 4),
        ("A2s-A5s", 4 * 4),
        ("A5-A2", 4 * 16),
        ("AhKh", 1),
        ("KhAh", 1),
        ("random", 1326),
        ("RANDOM", 1326),
        ("tt+, aks", 34),
        ("AKS,QJO", 16),
        ("TT+,AQs+,AKo", 30 + 8 + 12),
        ("", 0),
    ],
)
def test_parse_counts_combos(text, n_combos):
    assert Range.parse(text).live_combos() == n_combos


def test_texassolver_style_weights():
    r = Range.parse("AA:1.0,KK:0.5,AKs,QJo:0.25")
    w = r.weights
    assert w.shape == (N_COMBOS,) and w.dtype == np.float64
    assert w[parse_combo("AsAh")] == 1.0
    assert w[parse_combo("KsKd")] == 0.5
    assert w[parse_combo("AdKd")] == 1.0
    assert w[parse_combo("QsJh")] == 0.25
    assert w[parse_combo("QsJs")] == 0.0
    assert r.total_weight() == pytest.approx(6 + 3 + 4 + 3)


def test_later_items_replace_earlier_weights():
    r = Range.parse("random:0.1,AA,AhAd:0")
    w = r.weights
    assert w[parse_combo("AsAc")] == 1.0
    assert w[parse_combo("AhAd")] == 0.0
    assert w[parse_combo("7c2d")] == 0.1
    assert r.live_combos() == 1325


def test_weights_are_read_only():
    r = Range.parse("AA")
    with pytest.raises(ValueError):
        r.weights[0] = 1.0


@pytest.mark.parametrize(
    "text, message",
    [
        ("AA,A1s", '"A1s" at position 4: unknown rank \'1\''),
        ("AAs", "a pair takes no suffix"),
        ("AKx", "unknown suffix 'x'"),
        ("AhKz", "unknown suit 'z'"),
        ("AhAh", "the same card twice"),
        ("A5s-K2s", "same top card"),
        ("22-A5s", "a span joins two pairs"),
        ("AA:half", "weight 'half' is not a number"),
        ("AA:-0.5", "must be a finite number >= 0"),
        ("AA:nan", "must be a finite number >= 0"),
        ("AA,,KK", '"" at position 4: empty item'),
        ("KK, QQ, A", '"A" at position 9'),
        (":0.5", "needs a hand before it"),
        ("AhKh+", "expected a class"),
    ],
)
def test_bad_notation_points_at_the_item(text, message):
    with pytest.raises(ValueError) as info:
        Range.parse(text)
    assert message in str(info.value)


# --- printing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, shortest",
    [
        ("TT+,AQs+,AKo", "TT+,AK,AQs"),
        ("AKs,AQs,AJs,ATs,AKo", "AK,ATs+"),  # overlap beats 'ATs+,AKo' by one character
        ("22,33,44,55,66", "66-22"),
        ("A2s,A3s,A4s,A5s", "A5s-A2s"),
        ("AKo,AQo,AJo,ATo", "ATo+"),
        ("ATs+,ATo+", "AT+"),
        ("AA:0.5,KK:0.5,QQ", "KK+:0.5,QQ"),
        ("random", "random"),
        ("random:0.25", "random:0.25"),
        ("", ""),
    ],
)
def test_printer_gives_the_shortest_notation(text, shortest):
    assert Range.parse(text).to_notation() == shortest


def test_split_class_prints_its_combos():
    r = Range.parse("AA").condition_on_board("As7d2c")
    assert r.to_notation() == "AhAd,AhAc,AdAc"


# --- hypothesis strategies ------------------------------------------------------------------

weights_st = st.sampled_from([1.0, 0.5, 0.25, 0.1, 1 / 3, 0.123456789, 2.0])


@st.composite
def ranges(draw):
    """Chart-like ranges: random classes at a few weights, some single combos, maybe a board."""
    w = np.zeros(N_COMBOS)
    classes = draw(st.lists(st.integers(0, 168), max_size=60))
    for k in classes:
        w[CLASS_COMBOS[k]] = draw(weights_st)
    combos = draw(st.lists(st.integers(0, N_COMBOS - 1), max_size=8))
    for c in combos:
        w[c] = draw(weights_st)
    if draw(st.booleans()):
        w[:] = np.where(w > 0, w, draw(st.sampled_from([0.0, 0.05])))
    r = Range(w)
    board = draw(st.lists(st.integers(0, 51), max_size=5, unique=True))
    return r.condition_on_board(board) if board and draw(st.booleans()) else r


@settings(max_examples=150, deadline=None)
@given(ranges())
def test_parse_of_print_is_identity(r):
    assert Range.parse(r.to_notation()) == r


@settings(max_examples=100, deadline=None)
@given(ranges(), st.lists(st.integers(0, 51), min_size=1, max_size=7, unique=True))
def test_conditioning_never_leaves_a_blocked_combo(r, cards):
    conditioned = r.remove_cards(cards)
    for cid in conditioned.combos():
        c = parse_combo(cid)
        assert not set(COMBO_CARDS[c].tolist()) & set(cards)
    # and it keeps every combo that does not touch the cards
    untouched = [i for i in range(N_COMBOS) if not set(COMBO_CARDS[i].tolist()) & set(cards)]
    np.testing.assert_array_equal(conditioned.weights[untouched], r.weights[untouched])


@settings(max_examples=100, deadline=None)
@given(ranges())
def test_class_masses_sum_to_total_weight(r):
    mass = r.class_mass()
    assert mass.shape == (169,)
    assert mass.sum() == pytest.approx(r.total_weight(), rel=1e-12, abs=1e-12)
    if r.total_weight() > 0:
        assert r.class_distribution().sum() == pytest.approx(1.0)


@settings(max_examples=20, deadline=None)
@given(ranges().filter(lambda r: r.live_combos() > 0), st.integers(0, 2**32 - 1))
def test_sampling_frequencies_converge_to_weights(r, seed):
    """The L1 distance between the empirical frequencies of n draws and the normalised
    weights has mean at most sum_i sqrt(p_i (1 - p_i) / n), and moving one draw changes it by
    at most 2/n, so (McDiarmid) exceeding that mean by t has probability <= exp(-n t^2 / 2):
    with t = sqrt(2 * 23.1 / n) that is 1e-10, whatever the seed. The allowance shrinks like
    1/sqrt(n), so a sampler that is off by a fixed amount fails at the larger n."""
    p = r.normalize().weights
    bound = np.sqrt(p * (1 - p)).sum()
    for n in (2_000, 20_000):
        freq = np.bincount(r.sample(n, seed=seed), minlength=N_COMBOS) / n
        assert np.all(freq[p == 0] == 0)
        assert np.abs(freq - p).sum() <= (bound + np.sqrt(2 * 23.1)) / np.sqrt(n)


@settings(max_examples=30, deadline=None)
@given(ranges().filter(lambda r: r.live_combos() > 0), st.lists(st.integers(0, 51), max_size=6, unique=True))
def test_sampling_never_returns_a_blocked_combo(r, dead):
    if r.remove_cards(dead).live_combos() == 0:
        with pytest.raises(ValueError, match="empty"):
            r.sample(10, seed=1, dead=dead)
        return
    draws = r.sample(500, seed=7, dead=dead)
    assert not np.isin(COMBO_CARDS[draws], dead).any()
    assert np.all(r.weights[draws] > 0)


# --- Range operations --------------------------------------------------------------------------


def test_counts_shares_and_entropy_by_hand():
    aa = Range.parse("AA")
    assert aa.share_of_deals() == pytest.approx(6 / 1326)
    assert aa.entropy_bits() == pytest.approx(np.log2(6))
    assert aa.effective_combos() == pytest.approx(6)
    mixed = Range.parse("AA,KK:0.5")  # p = 1/9 (six times), 1/18 (six times)
    h = -6 * (1 / 9) * np.log2(1 / 9) - 6 * (1 / 18) * np.log2(1 / 18)
    assert mixed.entropy_bits() == pytest.approx(h)
    assert 6 < mixed.effective_combos() < 12
    assert Range.parse("random").effective_combos() == pytest.approx(1326)
    assert Range.parse("TT+,AQs+,AKo").share_of_deals() == pytest.approx(50 / 1326)


def test_condition_on_board_counts():
    # Ace on board: 3 of 6 AA combos left; a king: 3 of 6 KK combos; AKs loses the spade one
    # and the diamond-king one.
    r = Range.parse("AA,KK,AKs").condition_on_board("AsKd2c")
    assert r.live_combos() == 3 + 3 + 2
    with pytest.raises(ValueError, match="at most 5"):
        Range.parse("AA").condition_on_board("2c3c4c5c6c7c")


def test_class_mass_and_chart_row_round_trip():
    r = Range.parse("AA:0.5,AKs,72o:0.25")
    mass = r.class_mass()
    assert mass[CLASS_INDEX["AA"]] == pytest.approx(3.0)
    assert mass[CLASS_INDEX["AKs"]] == pytest.approx(4.0)
    assert mass[CLASS_INDEX["72o"]] == pytest.approx(3.0)
    row = r.to_chart_row()
    assert row[CLASS_INDEX["AA"]] == 0.5 and row[CLASS_INDEX["72o"]] == 0.25
    assert Range.from_chart_row(row) == r
    assert Range.from_chart_row({"AA": 0.5, "AKs": 1.0, "72o": 0.25}) == r
    with pytest.raises(ValueError, match="169"):
        Range.from_chart_row(np.ones(13))


def test_from_node_takes_one_action_column():
    strategy = np.zeros((169, 3))
    strategy[:, 0] = 1.0  # fold everything ...
    strategy[CLASS_INDEX["AA"]] = [0.0, 0.25, 0.75]  # ... except aces
    node = SimpleNamespace(actions=("F", "C", "R"), strategy=strategy)
    assert Range.from_node(node, "R") == Range.parse("AA:0.75")
    assert Range.from_node(node, "F").live_combos() == 1326 - 6
    with pytest.raises(ValueError, match="'A' is not taken"):
        Range.from_node(node, "A")


def test_update_is_bayes_rule_and_rejects_impossible_observations():
    prior = Range.parse("AA,KK")
    likelihood = np.zeros(N_COMBOS)
    likelihood[Range.parse("AA").weights > 0] = 0.9
    likelihood[Range.parse("KK").weights > 0] = 0.3
    post = prior.update(likelihood)
    assert post.total_weight() == pytest.approx(1.0)
    # P(AA | obs) = 0.9 / (0.9 + 0.3)
    assert post.class_distribution()[CLASS_INDEX["AA"]] == pytest.approx(0.75)
    impossible = np.zeros(N_COMBOS)
    impossible[Range.parse("QQ").weights > 0] = 1.0
    with pytest.raises(ValueError, match="impossible observation"):
        prior.update(impossible)
    with pytest.raises(ValueError, match="shape"):
        prior.update(np.ones(5))


def test_bad_weights_and_empty_ranges_are_rejected():
    with pytest.raises(ValueError, match=">= 0"):
        Range(-np.ones(N_COMBOS))
    with pytest.raises(ValueError, match="shape"):
        Range(np.ones(10))
    with pytest.raises(ValueError, match="empty"):
        Range.parse("").normalize()
    with pytest.raises(ValueError, match="empty"):
        Range.parse("AA").remove_cards(parse_cards("AsAh")).remove_cards("AdAc").entropy_bits()


def test_grid_marks_full_partial_and_absent_classes():
    lines = Range.parse("AA,AKs:0.5").grid_text().splitlines()
    assert lines[0].split() == list("AKQJT98765432")
    assert lines[1].split()[:4] == ["A", "AA", "50%", "."]
    assert len(lines) == 14


def test_combos_mapping_round_trip():
    r = Range.parse("AhKh,QQ:0.5")
    combos = r.combos()
    assert combos["AhKh"] == 1.0 and len(combos) == 7
    assert Range.from_combos(combos) == r
    assert list(itertools.islice(Range.from_combos(["AsAh"]).combos(), 1)) == ["AsAh"]
