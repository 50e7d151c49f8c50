"""Range inference: Bayes' rule on hand-built cases, the behavioural model's invariants, and
preflop line classification on every line of a 6-max tree."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards import COMBO_CLASS, N_COMBOS, combos_blocked_by, parse_cards, parse_class, parse_combo
from pokerlab.ranges import Range
from pokerlab.ranges.likelihood import (
    ARCHETYPES,
    BehaviorModel,
    StrategyLikelihood,
    archetype_from_stats,
    canonical_action,
    defence_factor,
    postflop_strength,
    preflop_strength,
    required_equity,
    update_range_for_action,
)
from pokerlab.ranges.lines import classify_preflop_line, replay_actors

# --- Bayes' rule ------------------------------------------------------------------------------


def _class_policy(action: str, probs: dict[str, float]) -> StrategyLikelihood:
    vec = np.zeros(N_COMBOS)
    for name, p in probs.items():
        vec[COMBO_CLASS == parse_class(name)] = p
    return StrategyLikelihood({action: vec})


def test_posterior_is_likelihood_times_prior_by_hand():
    # prior: AA at weight 1, KK at 0.5; P(raise): AA 0.8, KK 0.4, nothing else raises.
    # posterior mass: AA 6 x 0.8 = 4.8, KK 6 x 0.5 x 0.4 = 1.2 -> each AA combo 0.8/6, each KK 0.2/6
    prior = Range.parse("AA,KK:0.5")
    post = update_range_for_action(prior, "raise", True, model=_class_policy("raise", {"AA": 0.8, "KK": 0.4}))
    assert post.weights[parse_combo("AsAh")] == pytest.approx(0.8 / 6, abs=1e-15)
    assert post.weights[parse_combo("KdKc")] == pytest.approx(0.2 / 6, abs=1e-15)
    assert post.total_weight() == pytest.approx(1.0, abs=1e-15)
    assert post.live_combos() == 12


def test_board_removes_combos_before_the_update():
    # Kh on the board: 3 KK combos left; masses AA 4.8, KK 3 x 0.5 x 0.4 = 0.6
    prior = Range.parse("AA,KK:0.5")
    post = update_range_for_action(prior, "call", True, board="Kh7c2d",
                                   model=_class_policy("call", {"AA": 0.8, "KK": 0.4}))
    assert post.weights[parse_combo("KdKc")] == pytest.approx(0.2 / 5.4, abs=1e-15)
    assert post.weights[parse_combo("KhKd")] == 0.0


def test_impossible_observation_raises():
    with pytest.raises(ValueError, match="impossible observation"):
        update_range_for_action("72o", "raise", True, model=_class_policy("raise", {"AA": 1.0}))


def test_uniform_likelihood_is_a_no_op():
    prior = Range.parse("QQ+:0.7,AK,T9s:0.2")
    post = update_range_for_action(prior, "bet", False, model=StrategyLikelihood({"bet": np.full(N_COMBOS, 0.3)}))
    np.testing.assert_allclose(post.weights, prior.normalize().weights, rtol=0, atol=1e-16)


def test_policy_fallback_fills_undefined_combos():
    vec = np.full(N_COMBOS, np.nan)
    vec[COMBO_CLASS == parse_class("AA")] = 0.5
    model = StrategyLikelihood({"call": vec}, fallback=BehaviorModel("flat", 0.0, 0.0, 0.5, width=1e-9))
    lik = model.likelihood("call", True, board="2c3d4h")
    assert lik[parse_combo("AsAh")] == 0.5
    # the fallback (continue and raise thresholds at 0) raises with every live combo: its call share is 0
    assert lik[parse_combo("KsKh")] == 0.0


def test_bad_actions_are_named():
    with pytest.raises(ValueError, match="action"):
        canonical_action("shove it", True)
    with pytest.raises(ValueError, match="check"):
        canonical_action("check", True)
    assert canonical_action("A", True) == "raise" and canonical_action("A", False) == "bet"
    assert canonical_action("C", False) == "check"


# --- the behavioural model ----------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(ARCHETYPES))
@pytest.mark.parametrize("facing, size", [(False, 0.0), (True, 0.33), (True, 1.0), (True, 3.0)])
def test_action_probabilities_are_a_distribution(name, facing, size):
    s = np.linspace(0, 1, 201)
    probs = ARCHETYPES[name].action_probabilities(s, facing, size)
    total = sum(probs.values())
    np.testing.assert_allclose(total, 1.0, atol=1e-12)
    for p in probs.values():
        assert np.all(p >= -1e-12) and np.all(p <= 1 + 1e-12)
    if facing:
        assert np.all(np.diff(probs["fold"]) <= 1e-12)  # stronger hands never fold more


def test_required_equity_and_vanishing_raise_bluffs():
    assert required_equity(0.5) == pytest.approx(0.25)
    assert required_equity(1.0) == pytest.approx(1 / 3)
    model = ARCHETYPES["maniac"]
    weakest = np.array([0.0])
    half_pot = model.action_probabilities(weakest, True, 0.5)["raise"][0]
    huge = model.action_probabilities(weakest, True, 1e6)["raise"][0]
    # r = 0.25: half the bluffs survive, from the hands that would not continue (1 - sigmoid(-5))
    would_fold = 1 - 1 / (1 + np.exp((model.continue_at - 0.0) / model.width))
    value = 1 / (1 + np.exp(model.raise_at / model.width))
    assert half_pot == pytest.approx(value + model.bluff_raise * 0.5 * would_fold, rel=1e-9)
    assert huge < 1e-6
    # a bigger bet makes a middling hand continue less
    mid = np.array([0.6])
    assert (model.action_probabilities(mid, True, 2.0)["fold"][0]
            > model.action_probabilities(mid, True, 0.33)["fold"][0])


def test_thresholds_follow_the_minimum_defence_frequency():
    assert defence_factor(0.25) == 1.0 and defence_factor(1 / 3) == pytest.approx(0.75) and defence_factor(0.5) == 0.0
    with pytest.raises(ValueError, match="required equity"):
        defence_factor(0.6)
    # facing a pot bet (r = 1/3, d = 0.75) the regular's continue threshold is 1 - 0.55 x 0.75 = 0.5875:
    # there c = 1/2 and the raise-bluffs take 0.08 x (1 - 2/3) of the other half
    model = ARCHETYPES["regular"]
    at = np.array([1 - (1 - model.continue_at) * 0.75])
    assert at[0] == pytest.approx(0.5875)
    probs = model.action_probabilities(at, True, 1.0)
    assert probs["fold"][0] == pytest.approx(0.5 - 0.5 * 0.08 / 3, abs=1e-12)
    # at a half-pot bet the thresholds are the archetype's own (d = 1)
    half = model.action_probabilities(np.array([model.continue_at]), True, 0.5)
    assert half["fold"][0] == pytest.approx(0.5 - 0.5 * 0.08 * 0.5, abs=1e-12)


def test_a_shove_is_called_by_few_hands():
    # a 100bb shove over a 2.5bb open (about 18x the pot): every archetype continues with a few
    # percent of the deck, the strongest pairs always, and the order of the archetypes holds
    s = ARCHETYPES["regular"].strength()
    share = {n: float((1 - m.action_probabilities(s, True, 18.0)["fold"]).mean()) for n, m in ARCHETYPES.items()}
    assert all(0.02 < v < 0.07 for v in share.values()), share
    assert share["calling_station"] > share["regular"] > share["nit"]
    aa = COMBO_CLASS == parse_class("AA")
    for m in ARCHETYPES.values():
        assert np.all(1 - m.action_probabilities(s[aa], True, 18.0)["fold"] > 0.99)
    assert np.all(ARCHETYPES["nit"].action_probabilities(s, True, 1e9)["fold"] > 1 - 1e-6)


def test_archetypes_order_their_continuing_ranges():
    s = np.linspace(0, 1, 1001)
    cont = {n: 1 - m.action_probabilities(s, True, 0.75)["fold"] for n, m in ARCHETYPES.items()}
    assert cont["calling_station"].mean() > cont["regular"].mean() > cont["nit"].mean()
    bet = {n: m.action_probabilities(s, False)["bet"].mean() for n, m in ARCHETYPES.items()}
    assert bet["maniac"] > bet["regular"] > bet["nit"]


def test_archetype_from_stats_picks_the_nearest_profile():
    assert archetype_from_stats(45, 6, 0.6).name == "calling_station"
    assert archetype_from_stats(12, 9, 1.8).name == "nit"
    assert archetype_from_stats(55, 40, 5).name == "maniac"
    with pytest.raises(ValueError, match="pfr"):
        archetype_from_stats(10, 20, 1)


def test_postflop_strength_by_hand():
    s = postflop_strength("AcKcQc2d3h")
    blocked = combos_blocked_by(parse_cards("AcKcQc2d3h"))
    assert np.all(s[blocked] == 0)
    assert s[parse_combo("JcTc")] == 1.0  # the only royal flush
    assert s[~blocked].mean() == pytest.approx(0.5, abs=1e-12)  # mid-ranks average one half
    board_plays = postflop_strength("AsKsQsJsTs")  # everybody plays the board: all tie
    assert np.all(board_plays[~combos_blocked_by(parse_cards("AsKsQsJsTs"))] == 0.5)


def test_preflop_strength_is_a_percentile():
    eq = np.arange(169, dtype=float)  # distinct class equities: class 168 strongest
    s = preflop_strength(eq)
    assert s.mean() == pytest.approx(0.5, abs=1e-12)
    assert s[COMBO_CLASS == 168].max() == pytest.approx(1 - (CLASS_168_WEIGHT - 1) / 2 / (N_COMBOS - 1))


CLASS_168_WEIGHT = 6  # grid cell 168 is the pair 22


# --- line classification ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "actions, seat, line",
    [
        ("", "BTN", "unopened"),
        ("FFFR", "BTN", "open"),
        ("FFFRFC", "BB", "call_open"),
        ("FFFRFR", "BB", "3bet"),
        ("FFFRFRC", "BTN", "call_3bet"),
        ("FFFRFRR", "BTN", "4bet"),
        ("FFFRFRRC", "BB", "call_4bet"),
        ("FFFRFRRA", "BB", "5bet"),
        ("FFFRFRRAC", "BTN", "call_5bet"),
        ("FFFFC", "SB", "limp"),
        ("FFFFCC", "BB", "check_option"),
        ("FFFFCR", "BB", "open"),
        ("FFFFCRC", "SB", "call_open"),
        ("RC", "HJ", "call_open"),
        ("RCR", "CO", "3bet"),
        ("RCRFFFC", "UTG", "call_3bet"),
        ("RCRFFFC", "HJ", "call_open"),
        ("RCRFFFCF", "HJ", "folded"),
        ("FFFRFC", "UTG", "folded"),
    ],
)
def test_named_lines(actions, seat, line):
    assert classify_preflop_line(actions, seat, seats=6) == line


def test_heads_up_lines():
    assert classify_preflop_line("C", "SB", seats=2) == "limp"
    assert classify_preflop_line("CC", "BB", seats=2) == "check_option"
    assert classify_preflop_line("RC", "BB", seats=2) == "call_open"
    with pytest.raises(ValueError, match="betting is over"):
        replay_actors("RCC", seats=2)
    with pytest.raises(ValueError, match="seat"):
        classify_preflop_line("R", "UTG", seats=2)


def _expected_line(tree, node_id: str, seat: int) -> str:
    """The line from the tree's chip counts (independent of the letters' meaning): an action
    that lifts the largest contribution is a raise; one that matches it is a call, a limp or
    the BB's check; the raise level counts the lifts."""
    line, level = "unopened", 0
    for k in range(len(node_id)):
        parent, child = tree.node(node_id[:k]), tree.node(node_id[: k + 1])
        actor = parent.actor
        before, after = max(parent.contrib), child.contrib[actor]
        lifted = after > before + 1e-9
        if actor == seat:
            if actor not in child.players_in:
                return "folded"
            if lifted:
                line = {0: "open", 1: "3bet", 2: "4bet"}.get(level, "5bet")
            elif level == 0:
                line = "check_option" if seat == tree.seats - 1 else "limp"
            else:
                line = {1: "call_open", 2: "call_3bet", 3: "call_4bet"}.get(level, "call_5bet")
        level += lifted
    return line


def test_every_line_of_a_six_max_tree():
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.preflop.tree import build_tree

    tree = build_tree(Spot("cash", 6, 100.0), load_sizing())
    seen = set()
    for node in tree.nodes:
        actors = replay_actors(node.id, 6)
        assert actors == [tree.node(node.id[:k]).actor for k in range(len(node.id))]
        for seat in range(6):
            line = classify_preflop_line(node.id, seat, 6)
            assert line == _expected_line(tree, node.id, seat), (node.id, seat)
            seen.add(line)
    assert seen == {"unopened", "open", "limp", "check_option", "call_open", "3bet", "call_3bet", "4bet",
                    "call_4bet", "5bet", "call_5bet", "folded"}


def test_postflop_solver_policy_updates_by_the_solved_strategy():
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver

    board = parse_cards("Kc7s2d4h9c")
    oop, ip = Range.parse("KQ,99,76s,A5s"), Range.parse("AA,KJ,88,T8s")
    solver = PostflopSolver(PostflopSpot(pot=10.0, stack=20.0, board=tuple(board), oop_range=oop.weights,
                                         ip_range=ip.weights, bet_tree=BetTree.uniform(bets=[75], allin=True)))
    solver.run(30)
    policy = StrategyLikelihood.from_postflop_solver(solver, 0)
    strategy = solver.average_strategy(0)
    hands = solver.hands[0]
    total = policy.policy["check"][hands] + policy.policy["bet"][hands] + policy.policy["allin"][hands]
    labels = solver.tree.actions(0)
    assert labels[0] == "CHECK" and labels[1].startswith("BET")
    np.testing.assert_allclose(policy.likelihood("check", False)[hands], strategy[0])
    np.testing.assert_allclose(policy.likelihood("bet", False)[hands], strategy[1])
    np.testing.assert_allclose(total, 1.0, atol=1e-6)
    post = update_range_for_action(oop, "bet", False, board=board, model=policy)
    expected = oop.condition_on_board(board).weights[hands] * strategy[1]
    np.testing.assert_allclose(post.weights[hands], expected / expected.sum(), rtol=1e-12)
