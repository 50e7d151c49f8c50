"""The Numba evaluator against eval7, an independent C evaluator: same order on every hand."""

import itertools

import eval7
import numpy as np
import pytest

from pokerlab import cards as C
from pokerlab import evaluator as E

EVAL7_DECK = [eval7.Card(C.card_str(c)) for c in range(52)]


def eval7_strengths(hands: np.ndarray) -> np.ndarray:
    return np.array([eval7.evaluate([EVAL7_DECK[c] for c in hand]) for hand in hands], dtype=np.int64)


def assert_same_order(ours: np.ndarray, theirs: np.ndarray) -> None:
    """Both evaluators must induce the same weak order: equal where equal, same sign elsewhere."""
    order = np.argsort(ours, kind="stable")
    a, b = ours[order], theirs[order]
    assert np.array_equal(np.sign(np.diff(a)), np.sign(np.diff(b)))


# one hand of every category, with a near-miss of the next one up where it is easy to get wrong
CATEGORY_EXAMPLES = {
    E.HIGH_CARD: "AsKd9h7c5s3d2h",
    E.PAIR: "AsAd9h7c5s3d2h",
    E.TWO_PAIR: "AsAd9h9c5s5d2h",  # three pairs: the kicker is the best remaining card
    E.TRIPS: "AsAdAh7c5s3d2h",
    E.STRAIGHT: "Ah2d3c4s5hKdQc",  # the wheel
    E.FLUSH: "AhKh9h7h2h3d4c",
    E.FULL_HOUSE: "AsAdAhKcKsKd2h",  # two sets
    E.QUADS: "AsAdAhAcKsKdKh",
    E.STRAIGHT_FLUSH: "Ah2h3h4h5h6d7c",  # steel wheel
}


@pytest.mark.parametrize("category", sorted(CATEGORY_EXAMPLES))
def test_every_category_is_recognised(category):
    hand = CATEGORY_EXAMPLES[category]
    strength = E.evaluate(hand)
    assert E.category(strength) == category
    eval7_type = eval7.handtype(eval7.evaluate([eval7.Card(hand[i : i + 2]) for i in range(0, 14, 2)]))
    assert eval7_type == E.CATEGORY_NAMES[category].title()


def test_category_examples_order_matches_eval7():
    hands = np.array([C.parse_cards(h) for h in CATEGORY_EXAMPLES.values()])
    assert_same_order(E.evaluate_batch(hands), eval7_strengths(hands))


def test_all_five_card_hands_of_a_short_deck_match_eval7():
    """Every 5-card hand from 20 cards (all categories but quads of a missing rank) in one order."""
    cards = [C.parse_card(r + s) for r in "AK5432" for s in "shdc"][:20]
    hands = np.array(list(itertools.combinations(cards, 5)))
    assert_same_order(E.evaluate_batch(hands), eval7_strengths(hands))


def test_one_million_random_seven_card_hands_match_eval7():
    rng = np.random.default_rng(20260801)
    n = 1_000_000
    hands = np.argsort(rng.random((n, 52)), axis=1)[:, :7]
    ours = E.evaluate_batch(hands)
    theirs = eval7_strengths(hands)
    assert_same_order(ours, theirs)
    # every category appears, in its known 7-card frequency range
    freq = np.bincount(ours >> E.CATEGORY_SHIFT, minlength=9) / n
    known = [0.1741, 0.4383, 0.2350, 0.0483, 0.0462, 0.0303, 0.0260, 0.00168, 0.000311]
    assert np.all(np.abs(freq - known) < 5 * np.sqrt(np.array(known) / n) + 1e-4)


def test_six_and_five_card_hands_and_errors():
    assert E.evaluate("AsKsQsJsTs") > E.evaluate("KsQsJsTs9s") > E.evaluate("AsAdAhAcKs")
    assert E.evaluate("AsKsQsJsTs9d") == E.evaluate("AsKsQsJsTs")
    with pytest.raises(ValueError, match="5 to 7 cards"):
        E.evaluate("AsKs")
    with pytest.raises(ValueError, match="appears twice"):
        E.evaluate("AsAsKsQsJs")
    with pytest.raises(ValueError, match="shape"):
        E.evaluate_batch(np.zeros((3, 4), dtype=int))
