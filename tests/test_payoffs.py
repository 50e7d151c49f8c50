"""The trust ladder: exact values at each tier, chip conservation, hands-only payoffs."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.preflop.class_edges import ClassEdges
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree

SIZING = load_sizing()
MODEL = PostflopModel()
SPOTS = [Spot("cash", 2, 100), Spot("cash", 3, 15), Spot("mtt", 6, 20), Spot("cash", 6, 100), Spot("cash", 9, 50),
         Spot("mtt", 4, 200)]


def random_tables(m: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A consistent random (win, tie) pair: win[a,b] == loss[b,a], tie symmetric."""
    rng = np.random.default_rng(seed)
    tie = rng.uniform(0, 0.2, (m, m))
    tie = (tie + tie.T) / 2
    win = rng.uniform(0, 1, (m, m)) * (1 - tie)
    upper = np.triu(np.ones((m, m), dtype=bool), 1)
    win = np.where(upper, win, (1 - tie - win).T)  # below the diagonal: the mirror's loss
    np.fill_diagonal(win, (1 - np.diag(tie)) / 2)
    return win, tie


def random_edges(m: int, seed: int, scale: float = 0.05) -> ClassEdges:
    """A model v2 class table with two spr bands of random deviations (the second band open-ended)."""
    rng = np.random.default_rng(seed)
    return ClassEdges(((0.0, 3.0), (3.0, math.inf)), rng.normal(0, scale, (2, m)), rng.normal(0, scale, (2, m)))


def class_index(name: str) -> int:
    return cards.parse_class(name)


@pytest.mark.parametrize("spot", SPOTS, ids=lambda s: s.name)
def test_chips_are_conserved_at_every_ending(spot):
    tree = build_tree(spot, SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    win, tie = random_tables(cards.N_CLASSES, seed=spot.seats)
    rng = np.random.default_rng(0)
    for _ in range(20):
        hands = rng.integers(0, cards.N_CLASSES, spot.seats)
        totals = payoffs.hand_payoffs(hands, win, tie).sum(axis=1)
        assert np.abs(totals).max() < 1e-9


def test_payoffs_are_a_function_of_hands_only():
    """Same hands, same payoffs, whatever else changes; other hands, other payoffs."""
    tree = build_tree(Spot("cash", 6, 100), SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    win, tie = random_tables(cards.N_CLASSES, seed=1)
    hands = np.array([0, 14, 28, 100, 168, 5])
    first = payoffs.hand_payoffs(hands, win, tie)
    again = chip_ev_payoffs(build_tree(Spot("cash", 6, 100), SIZING), MODEL).hand_payoffs(hands.copy(), win, tie)
    assert np.array_equal(first, again)
    # only endings where the changed seat is still in with an opponent can move
    other = hands.copy()
    other[0] = 1
    moved = np.any(payoffs.hand_payoffs(other, win, tie) != first, axis=1)
    contested = np.array([0 in tree.nodes[k].players_in and len(tree.nodes[k].players_in) > 1 for k in payoffs.nodes])
    assert np.array_equal(moved, contested)
    # the payoff carries no input other than the tree, the model and the hands
    assert not hasattr(payoffs, "strategy") and payoffs.const.shape == (payoffs.nodes.size, 6)


def test_tier_1_fold_is_arithmetic():
    for fmt in ("cash", "mtt"):
        tree = build_tree(Spot(fmt, 6, 100), SIZING)
        payoffs = chip_ev_payoffs(tree, MODEL)
        z = int(np.flatnonzero(payoffs.nodes == tree.index["FFFFF"])[0])
        assert payoffs.tier[z] == 1
        win, tie = random_tables(cards.N_CLASSES, 2)
        got = payoffs.hand_payoffs(np.arange(6), win, tie)[z]
        # the BB wins the SB's 0.5 (and takes its own blind and ante back)
        assert got.tolist() == pytest.approx([0, 0, 0, 0, -0.5, 0.5])


def test_tier_2_heads_up_all_in_is_pot_times_equity():
    tree = build_tree(Spot("cash", 2, 100), SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    win, tie = random_tables(cards.N_CLASSES, 3)
    z = int(np.flatnonzero(payoffs.nodes == tree.index["AC"])[0])
    a, b = class_index("AA"), class_index("72o")
    got = payoffs.hand_payoffs(np.array([a, b]), win, tie)[z]
    assert payoffs.tier[z] == 2
    assert got[0] == pytest.approx(200 * (win[a, b] + tie[a, b] / 2) - 100)
    assert got[1] == pytest.approx(200 * (win[b, a] + tie[b, a] / 2) - 100)


def test_tier_3_three_way_all_in_is_pairwise_mean_rescaled():
    spot = Spot("mtt", 6, 20)
    tree = build_tree(spot, SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    k = tree.index["AFFFCC"]  # UTG jams, SB and BB call
    z = int(np.flatnonzero(payoffs.nodes == k)[0])
    assert payoffs.tier[z] == 3 and tree.nodes[k].players_in == (0, 4, 5)
    win, tie = random_tables(cards.N_CLASSES, 4)
    eq = win + tie / 2
    hands = np.array([10, 0, 0, 0, 50, 120])
    got = payoffs.hand_payoffs(hands, win, tie)[z]
    pot, contrib = 20 * 3 + 1, [20, 0, 0, 0, 20, 21]
    in_hand = [0, 4, 5]
    for i in in_hand:
        mean_pairwise = np.mean([eq[hands[i], hands[j]] for j in in_hand if j != i])
        assert got[i] == pytest.approx(pot * mean_pairwise * 2 / 3 - contrib[i])
    # the rescaled shares sum to one
    shares = [np.mean([eq[hands[i], hands[j]] for j in in_hand if j != i]) * 2 / 3 for i in in_hand]
    assert sum(shares) == pytest.approx(1.0)


def test_tier_4_heads_up_flop_uses_commitment_and_additive_edge():
    tree = build_tree(Spot("cash", 2, 100), SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    k = tree.index["RC"]  # SB (the button, in position) opens 3bb, BB calls
    z = int(np.flatnonzero(payoffs.nodes == k)[0])
    assert payoffs.tier[z] == 4
    win, tie = random_tables(cards.N_CLASSES, 5)
    a, b = class_index("AKs"), class_index("T9o")
    eq = win[a, b] + tie[a, b] / 2
    pot, behind = 6.0, 97.0
    spr = behind / pot
    commit = 1 / (1 + spr**1.375)
    edge = min(0.07, max(0.0, -0.02 + 0.0175 * math.log2(1 + spr)))
    played = pot + 2 * commit * behind
    got = payoffs.hand_payoffs(np.array([a, b]), win, tie)[z]
    assert got[0] == pytest.approx((eq + edge) * played - 3 - commit * behind)
    assert got[1] == pytest.approx((1 - eq - edge) * played - 3 - commit * behind)
    assert 0 < edge < 0.07 and 0 < commit < 1


def test_three_way_flop_edges_by_position_sum_to_zero():
    tree = build_tree(Spot("cash", 6, 100), SIZING)
    payoffs = chip_ev_payoffs(tree, MODEL)
    k = tree.index["FFRCFC"]  # CO opens, BTN calls, SB folds, BB calls: BB first, CO middle, BTN last
    z = int(np.flatnonzero(payoffs.nodes == k)[0])
    node = tree.nodes[k]
    assert node.kind == "flop" and node.players_in == (2, 3, 5)
    win = tie = np.zeros((cards.N_CLASSES, cards.N_CLASSES))
    const = payoffs.hand_payoffs(np.zeros(6, dtype=int), win, tie)[z]  # the edge part alone
    spr = node.behind / node.pot
    extra = MODEL.commitment(spr) * node.behind
    played = node.pot + 3 * extra
    e = MODEL.edge(spr)
    assert const[5] == pytest.approx(-e * played - node.contrib[5] - extra)  # BB acts first
    assert const[2] == pytest.approx(-node.contrib[2] - extra)  # CO in the middle
    assert const[3] == pytest.approx(e * played - node.contrib[3] - extra)  # BTN acts last


def test_postflop_model_shape_and_validation():
    assert MODEL.commitment(0.0) == 1.0 and MODEL.commitment(1.0) == 0.5
    assert MODEL.edge(0.5) == 0.0 and MODEL.edge(1e9) == 0.07
    with pytest.raises(ValueError, match="cap"):
        PostflopModel(cap=0.6)
    with pytest.raises(ValueError, match="a:"):
        PostflopModel(a=0)
