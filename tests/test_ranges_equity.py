"""Multiway equity against ranges: exact cases, independent enumerations, and the bias of
drawing opponents one after another."""

from __future__ import annotations

import itertools

import eval7
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.cards import COMBO_CARDS, COMBO_INDEX, card_str, parse_cards
from pokerlab.equity import exact_class_pair
from pokerlab.ranges import Range
from pokerlab.ranges.equity import format_equity, multiway_equity


def _eval7_strength(cards: list[int]) -> int:
    return eval7.evaluate([eval7.Card(card_str(c)) for c in cards])


def _showdown_shares(hands: list[list[int]], board: list[int]) -> np.ndarray:
    """Pot share of each hand on a full board, by eval7 (independent of pokerlab's evaluator)."""
    s = np.array([_eval7_strength(h + board) for h in hands])
    best = s == s.max()
    return best / best.sum()


def _brute_force_equity(ranges: list[Range], board: list[int], dead: tuple[int, ...] = ()) -> np.ndarray | None:
    """Pot share of each player under the exact joint law, by plain enumeration with eval7:
    every hand tuple with no shared card (nor a board or dead card), weighted by the product
    of weights, times every runout of the cards left. Only for tiny cases."""
    supports = [[(int(c), w) for c, w in enumerate(r.weights) if w > 0] for r in ranges]
    total, shares = 0.0, np.zeros(len(ranges))
    out = set(board) | set(dead)
    for tup in itertools.product(*supports):
        cards = [int(x) for c, _ in tup for x in COMBO_CARDS[c]]
        if len(set(cards) | out) != len(cards) + len(out):
            continue
        weight = float(np.prod([w for _, w in tup]))
        deck = [c for c in range(52) if c not in set(cards) | out]
        for runout in itertools.combinations(deck, 5 - len(board)):
            hands = [[int(x) for x in COMBO_CARDS[c]] for c, _ in tup]
            total += weight
            shares += weight * _showdown_shares(hands, board + list(runout))
    return shares / total if total else None  # None: no deal is possible


def _naive_sequential_equity(ranges: list[Range], board: list[int]) -> np.ndarray:
    """REFERENCE OF THE BIASED METHOD, not used by pokerlab: players are dealt one after
    another, each from their range with the cards dealt so far removed and renormalised.
    Its law is computed exactly (no sampling) on a full board."""

    def recurse(i: int, dealt: list[int], prob: float) -> np.ndarray:
        if i == len(ranges):
            hands = [dealt[2 * j : 2 * j + 2] for j in range(len(ranges))]
            return prob * _showdown_shares(hands, board)
        live = ranges[i].remove_cards(board + dealt).normalize()
        out = np.zeros(len(ranges))
        for c in np.flatnonzero(live.weights):
            out += recurse(i + 1, dealt + [int(x) for x in COMBO_CARDS[c]], prob * live.weights[c])
        return out

    return recurse(0, [], 1.0)


# --- the bias case ---------------------------------------------------------------------------

BIAS_BOARD = "2c7d9hJs3s"
BIAS_HERO = "8s8h"
BIAS_OPP1 = "AhKc,QcQd"  # a = AhKc, b = QcQd
BIAS_OPP2 = "AhAd,5h4h"  # c = AhAd, d = 5h4h


def test_sequential_dealing_is_biased_and_the_joint_law_is_not():
    """Opponent 1 holds a = AhKc or b = QcQd, opponent 2 holds c = AhAd or d = 5h4h, all at
    weight 1; hero holds 8s8h; the board 2c7d9hJs3s is complete. Only a and c collide (Ah).

    The joint law is uniform on the three possible deals (a, d), (b, c), (b, d): each 1/3.
    On this board hero's 88 wins (a, d) (AK high, 54 high), opponent 2's aces win (b, c),
    opponent 1's queens win (b, d). So every player's exact equity is 1/3.

    Dealing opponent 1 first from its range (1/2 a, 1/2 b) and then opponent 2 from what is
    left gives (a, d) with 1/2, (b, c) 1/4, (b, d) 1/4: opponent 2 gets 0.25, not 1/3.
    """
    board = parse_cards(BIAS_BOARD)
    ranges = [Range.parse(t) for t in (BIAS_HERO, BIAS_OPP1, BIAS_OPP2)]
    naive = _naive_sequential_equity(ranges, board)
    np.testing.assert_allclose(naive, [0.5, 0.25, 0.25], atol=1e-12)
    np.testing.assert_allclose(_brute_force_equity(ranges, board), [1 / 3] * 3, atol=1e-12)

    exact = multiway_equity(BIAS_HERO, [BIAS_OPP1, BIAS_OPP2], board=BIAS_BOARD, method="exact")
    np.testing.assert_allclose(exact.equity, [1 / 3] * 3, atol=1e-12)
    for method in ("rejection", "importance"):
        est = multiway_equity(BIAS_HERO, [BIAS_OPP1, BIAS_OPP2], board=BIAS_BOARD, trials=40_000, seed=3, method=method)
        third, se = est.equity[2], est.equity_se[2]
        assert abs(third - 1 / 3) < 4 * se, (method, third, se)
        assert abs(third - 0.25) > 20 * se, (method, third, se)


# --- exact cases -------------------------------------------------------------------------------


def test_aa_vs_kk_preflop_matches_the_equity_table_exactly():
    """Our exact enumeration (every runout of 52 cards, every non-colliding combo pair)
    against the equity table's exact mode (suit-isomorphic orbits, its own kernel)."""
    result = multiway_equity("AA", ["KK"], method="exact")
    wins, ties, deals = exact_class_pair("AA", "KK")
    assert result.win[0] == pytest.approx(wins / deals, abs=1e-12)
    assert result.tie[0] == pytest.approx(ties / deals, abs=1e-12)
    assert result.trials == deals == 36 * 1_712_304
    # The long-published figure for AA against KK (equity 81.95%, e.g. PokerStove).
    assert result.equity[0] == pytest.approx(0.8195, abs=5e-5)
    assert result.equity[0] + result.equity[1] == pytest.approx(1.0)
    assert result.win_se == (0.0, 0.0)


def test_flush_vs_set_on_the_flop_exact_and_sampled():
    """A made nut flush (AsKs on Ts7s2s) against the three combos of a set of sevens."""
    board = "Ts7s2s"
    exact = multiway_equity("AsKs", ["77"], board=board, method="exact")
    # independent: both cards to come, by eval7, for each of the three live 77 combos
    hero = parse_cards("AsKs")
    shares = []
    for villain in ("7h7d", "7h7c", "7d7c"):
        v = parse_cards(villain)
        deck = [c for c in range(52) if c not in hero + v + parse_cards(board)]
        for runout in itertools.combinations(deck, 2):
            shares.append(_showdown_shares([hero, v], parse_cards(board) + list(runout))[0])
    assert exact.equity[0] == pytest.approx(np.mean(shares), abs=1e-12)
    assert exact.trials == 3 * 990
    for method in ("rejection", "importance"):
        est = multiway_equity("AsKs", ["77"], board=board, trials=50_000, seed=11, method=method)
        for field in ("win", "tie", "equity"):
            got, se = getattr(est, field)[0], getattr(est, field + "_se")[0]
            assert abs(got - getattr(exact, field)[0]) <= 4 * se, (method, field)


def test_three_way_with_card_removal_against_brute_force():
    """Three overlapping weighted ranges on a turn: exact equals plain enumeration with eval7,
    and both samplers land within 4 standard errors of it."""
    board = parse_cards("Kd9s4c2h")
    specs = ["AA,AKs:0.5", "KK:0.3,AK,A9s", "AA:0.25,QQ,AhQh"]
    ranges = [Range.parse(t) for t in specs]
    truth = _brute_force_equity(ranges, board)
    exact = multiway_equity(specs[0], specs[1:], board="Kd9s4c2h", method="exact")
    np.testing.assert_allclose(exact.equity, truth, atol=1e-12)
    for method in ("rejection", "importance"):
        est = multiway_equity(specs[0], specs[1:], board="Kd9s4c2h", trials=30_000, seed=5, method=method)
        assert np.all(np.abs(np.array(est.equity) - truth) <= 4 * np.array(est.equity_se)), method


def test_importance_handles_ranges_that_rarely_fit_together():
    """Opponent 1 puts almost all weight on the aces hero holds: independent draws almost
    never fit (rejection gives up), while importance sampling draws the live part directly."""
    opponent = "AsAh:1000000,KsKh,QdQc"
    exact = multiway_equity("AsAh", [opponent], board="2c7d9h", method="exact")
    est = multiway_equity("AsAh", [opponent], board="2c7d9h", method="importance", trials=20_000, seed=4)
    assert np.all(np.abs(np.array(est.equity) - exact.equity) <= 4 * np.array(est.equity_se))
    with pytest.raises(ValueError, match="use method='importance'"):
        multiway_equity("AsAh", [opponent], board="2c7d9h", trials=100, max_attempts=10_000)


@st.composite
def small_deals(draw):
    """2-3 players with 1-5 weighted combos each, drawn from 14 cards so that hands often
    collide, and a turn or river board from the rest of the deck."""
    pool = draw(st.lists(st.integers(0, 51), min_size=14, max_size=14, unique=True))
    ranges = []
    for _ in range(draw(st.integers(2, 3))):
        w = np.zeros(1326)
        for _ in range(draw(st.integers(1, 5))):
            a, b = draw(st.lists(st.sampled_from(pool), min_size=2, max_size=2, unique=True))
            w[COMBO_INDEX[a, b]] = draw(st.sampled_from([1.0, 0.5, 0.2]))
        ranges.append(Range(w))
    rest = [c for c in range(52) if c not in pool]
    board = draw(st.lists(st.sampled_from(rest), min_size=4, max_size=5, unique=True))
    return ranges, board


@settings(max_examples=12, deadline=None)
@given(small_deals())
def test_exact_enumeration_equals_brute_force_on_random_small_deals(deal):
    ranges, board = deal
    truth = _brute_force_equity(ranges, board)
    if truth is None:
        with pytest.raises(ValueError, match="no deal is possible"):
            multiway_equity(ranges[0], ranges[1:], board=board, method="exact")
        return
    exact = multiway_equity(ranges[0], ranges[1:], board=board, method="exact")
    np.testing.assert_allclose(exact.equity, truth, atol=1e-12)


# --- invariants and interface ----------------------------------------------------------------


@pytest.mark.parametrize("method", ["rejection", "importance", "exact"])
def test_shares_are_consistent_and_seeded(method):
    args = dict(board="Ks7s6s", trials=5_000, method=method)
    a = multiway_equity("AhKh", ["QQ+,AK", "JJ-99,KQs"], seed=9, **args)
    b = multiway_equity("AhKh", ["QQ+,AK", "JJ-99,KQs"], seed=9, **args)
    assert a == b
    assert sum(a.equity) == pytest.approx(1.0)
    assert all(t <= 1 and w + t <= 1 + 1e-12 for w, t in zip(a.win, a.tie))
    assert a.players == ("AhKh", "QQ+,AK", "JJ-99,KQs")


def test_dead_cards_leave_the_ranges_and_the_deck():
    board, dead = parse_cards("Jd8c3h2s"), tuple(parse_cards("KcQs"))
    specs = ["AA,QQ", "KK,QJs", "JTs"]
    truth = _brute_force_equity([Range.parse(t) for t in specs], board, dead)
    exact = multiway_equity(specs[0], specs[1:], board=board, dead="KcQs", method="exact")
    np.testing.assert_allclose(exact.equity, truth, atol=1e-12)


def test_eight_opponents_and_acceptance_rate():
    result = multiway_equity("AA", ["random"] * 8, trials=2_000, seed=1)
    assert len(result.equity) == 9 and sum(result.equity) == pytest.approx(1.0)
    assert 0 < result.acceptance_rate < 1
    tight = multiway_equity("AA", ["AA,KK"] * 3, trials=2_000, seed=1)
    assert tight.acceptance_rate < result.acceptance_rate


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(hero="AA", opponents=["KK"] * 9), "1 to 8"),
        (dict(hero="AA", opponents=[]), "1 to 8"),
        (dict(hero="AA", opponents=["KK"], board="2c3c4c5c6c7c"), "at most 5"),
        (dict(hero="AA", opponents=["KK"], board="2c3c4c", dead="2c"), "also on the board"),
        (dict(hero="AA", opponents=["KK"], board="AsAhAd"), "hero: no combo"),
        (dict(hero="AA", opponents=["K1"]), "opponent 1:"),
        (dict(hero="AA", opponents=["KK"], method="magic"), "method"),
        (dict(hero="AA", opponents=["KK"], trials=0), "trials"),
        (dict(hero="AsAh", opponents=["AsAd", "AhAd"], method="exact"), "no deal is possible"),
        (dict(hero="AsAh", opponents=["AsAd", "AhAd"], trials=10, max_attempts=1_000), "use method='importance'"),
        (dict(hero="AsAh", opponents=["AsAd", "AhAd"], method="importance", trials=10), "no deal is possible"),
        (dict(hero="random", opponents=["random"] * 2, method="exact", max_work=1e6), "exact enumeration here needs"),
        (dict(hero="random", opponents=["random"] * 2, board="2c3d4h5s6c", method="exact"), "2,000,000 hand tuples"),
    ],
)
def test_bad_input_is_named(kwargs, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        multiway_equity(**kwargs)


def test_auto_enumerates_small_spaces_and_samples_large_ones():
    assert multiway_equity("AsKs", ["77"], board="Ts7s2s", method="auto").method == "exact"
    assert multiway_equity("AK", ["random"], trials=1_000, method="auto").method == "rejection"


def test_format_lists_every_player():
    text = format_equity(multiway_equity("AhKh", ["QQ+,AK", "random"], board="Ks7s6s", trials=2_000))
    lines = text.splitlines()
    assert lines[0].split() == ["player", "win", "%", "tie", "%", "equity", "%"]
    assert lines[1].startswith("hero AhKh") and lines[3].startswith("opponent 2 random")
    assert "±" in lines[1] and "acceptance rate" in lines[-1]


# --- side pots -----------------------------------------------------------------------------------


def test_side_pots_by_hand_on_a_full_board():
    # the short hero (10 chips in) holds the best hand; the two 50-chip stacks contest the side pot
    board = "Ah Kd 7c 4s 2h"
    # hero AsAc: set of aces (best); opponent 1 KsKc: set of kings (second); opponent 2 QsQc: a pair
    r = multiway_equity("AsAc", ["KsKc", "QsQc"], board=board, method="exact", contributions=[10, 50, 50])
    # main pot 30 to the hero; side pot 80 between the kings and queens goes to the kings
    assert r.equity == pytest.approx((30 / 110, 80 / 110, 0.0), abs=1e-15)
    plain = multiway_equity("AsAc", ["KsKc", "QsQc"], board=board, method="exact")
    assert plain.equity == pytest.approx((1.0, 0.0, 0.0))


def test_side_pots_with_an_uncalled_excess_and_dead_money():
    # the short stack (hero) loses; the big stack put in 80 but only 50 can be called: 30 returns
    r = multiway_equity("2s3c", ["KsKc", "QsQc"], board="Ah Kd 7c 4s 9h", method="exact",
                        contributions=[10, 50, 80], dead_money=5)
    total = 145
    assert r.equity == pytest.approx((0.0, (35 + 80) / total, 30 / total), abs=1e-15)


@pytest.mark.parametrize("method", ["exact", "rejection", "importance"])
def test_side_pot_shares_sum_to_one_and_equal_contributions_change_nothing(method):
    kwargs = dict(board="Ks7s6s", method=method, trials=4000, seed=3)
    hero, villains = "AhAd", ["QQ+,AK", "87s,65s,T9s"]
    side = multiway_equity(hero, villains, contributions=[20, 60, 100], **kwargs)
    assert sum(side.equity) == pytest.approx(1.0, abs=1e-12)
    equal = multiway_equity(hero, villains, contributions=[40, 40, 40], **kwargs)
    plain = multiway_equity(hero, villains, **kwargs)
    assert equal.equity == plain.equity  # the same deals, one layer: bit for bit
    assert side.equity != plain.equity


def test_pot_layers_reject_bad_contributions():
    from pokerlab.ranges.equity import pot_layers

    with pytest.raises(ValueError, match="contributions"):
        pot_layers([10, 20], 3)
    with pytest.raises(ValueError, match="contributions"):
        pot_layers([10, 0, 20], 3)
    amounts, eligible = pot_layers([10, 50, 50], 3)
    np.testing.assert_allclose(amounts, [30 / 110, 80 / 110])
    assert eligible.tolist() == [[True, True, True], [False, True, True]]
