"""The Numba evaluator against eval7, an independent C evaluator: same order on every hand;
and its fast path against the bitmask reference it is built from: same values on every hand."""

import itertools
import warnings

import eval7
import numpy as np
import pytest
from numba import njit

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


@njit(cache=True)
def _both_paths(packed, popcount, highbit, straight_high):
    """Fast-path and reference strengths of packed masks."""
    fast = np.empty(packed.size, dtype=np.int64)
    reference = np.empty(packed.size, dtype=np.int64)
    for i in range(packed.size):
        p = packed[i]
        fast[i] = E.rank_of_packed(p)
        reference[i] = E.bitmask_rank_of_packed(p, popcount, highbit, straight_high)
    return fast, reference


def assert_fast_equals_reference(packed: np.ndarray) -> None:
    fast, reference = _both_paths(packed, E.POPCOUNT, E.HIGHBIT, E.STRAIGHT_HIGH)
    assert np.array_equal(fast, reference)


def rank_multisets(max_cards: int = 7) -> list[tuple[int, ...]]:
    """Every multiset of 0..max_cards ranks with each rank at most 4 times (sorted rank tuples)."""
    return [
        ms
        for n in range(max_cards + 1)
        for ms in itertools.combinations_with_replacement(range(13), n)
        if all(ms.count(r) <= 4 for r in set(ms))
    ]


def test_rank_keys_separate_every_multiset_of_up_to_seven_cards():
    multisets = rank_multisets()
    assert len(multisets) == E.N_RANK_MULTISETS == 76_155
    sums = {sum(int(E.RANK_KEYS[r]) for r in ms) for ms in multisets}
    assert len(sums) == len(multisets)


def test_fast_path_equals_reference_on_every_rank_multiset_in_random_suits():
    """Each 5..7-card rank multiset, dealt three times to random suits (some deals make flushes)."""
    counts = np.array([np.bincount(ms, minlength=13) for ms in rank_multisets() if len(ms) >= 5])
    counts = np.repeat(counts, 3, axis=0)  # (n, 13) cards per rank
    rng = np.random.default_rng(7)
    suits = np.argsort(rng.random((counts.shape[0], 13, 4)), axis=2)  # a random suit order per rank
    cards = 4 * np.arange(13)[None, :, None] + suits
    dealt = np.arange(4)[None, None, :] < counts[:, :, None]  # the first count[r] suits of rank r
    packed = (E.CARD_BITS[cards] * dealt).sum(axis=(1, 2))  # distinct bits: the sum is the OR
    assert_fast_equals_reference(packed)


def test_fast_path_equals_reference_on_every_suited_mask_with_off_suit_cards():
    """Every 5..7 suited cards of each suit, topped up to 7 cards with random cards of other suits."""
    rng = np.random.default_rng(11)
    masks = np.flatnonzero(E.POPCOUNT >= 5)
    masks = masks[E.POPCOUNT[masks] <= 7]
    packed = []
    for suit in range(4):
        others = np.array([c for c in range(52) if c & 3 != suit])
        for m in masks:
            p = int(m) << (16 * suit)
            for c in rng.choice(others, size=7 - int(E.POPCOUNT[m]), replace=False):
                p |= int(E.CARD_BITS[c])
            packed.append(p)
    assert_fast_equals_reference(np.array(packed, dtype=np.int64))


def test_fast_path_equals_reference_on_random_hands_of_five_to_seven_cards():
    rng = np.random.default_rng(3)
    for k in (5, 6, 7):
        hands = np.argsort(rng.random((200_000, 52)), axis=1)[:, :k]
        assert_fast_equals_reference(np.bitwise_or.reduce(E.CARD_BITS[hands], axis=1))


def test_table_arguments_are_accepted_and_ignored():
    hand = C.parse_cards("AsKdQh7c5s3d2h")
    packed = np.int64(np.bitwise_or.reduce(E.CARD_BITS[hand]))
    masks = [(int(packed) >> (16 * s)) & 0x1FFF for s in range(4)]
    tables = (E.POPCOUNT, E.HIGHBIT, E.STRAIGHT_HIGH)
    expected = E.bitmask_rank_of_packed(packed, *tables)
    assert E.rank_of_packed(packed) == E.rank_of_packed(packed, *tables) == expected
    assert E.rank_from_suit_masks(*masks) == E.rank_from_suit_masks(*masks, *tables) == expected


@njit(cache=True)
def _count_mismatches_over_all_seven_card_hands(card_bits, popcount, highbit, straight_high):
    hands = mismatches = 0
    for a in range(46):
        ma = card_bits[a]
        for b in range(a + 1, 47):
            mb = ma | card_bits[b]
            for c in range(b + 1, 48):
                mc = mb | card_bits[c]
                for d in range(c + 1, 49):
                    md = mc | card_bits[d]
                    for e in range(d + 1, 50):
                        me = md | card_bits[e]
                        for f in range(e + 1, 51):
                            mf = me | card_bits[f]
                            for g in range(f + 1, 52):
                                p = mf | card_bits[g]
                                reference = E.bitmask_rank_of_packed(p, popcount, highbit, straight_high)
                                mismatches += E.rank_of_packed(p) != reference
                                hands += 1
    return hands, mismatches


@pytest.mark.slow
def test_fast_path_equals_reference_on_every_seven_card_hand():
    hands, mismatches = _count_mismatches_over_all_seven_card_hands(E.CARD_BITS, E.POPCOUNT, E.HIGHBIT,
                                                                    E.STRAIGHT_HIGH)
    assert (hands, mismatches) == (133_784_560, 0)


def test_corrupt_table_cache_is_rebuilt_with_a_warning(tmp_path):
    built = E._fast_tables(tmp_path)  # nothing cached yet: built and written
    (cached,) = tmp_path.glob("evaluator-tables-*.npz")
    cached.write_bytes(b"not a zip archive")
    with pytest.warns(RuntimeWarning, match="corrupt table cache"):
        rebuilt = E._fast_tables(tmp_path)
    assert all(np.array_equal(a, b) for a, b in zip(built, rebuilt))
    cached.write_bytes(cached.read_bytes()[:-100])  # the rewritten cache, truncated
    with pytest.warns(RuntimeWarning, match="corrupt table cache"):
        E._fast_tables(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        reread = E._fast_tables(tmp_path)  # rewritten again: read back without a warning
    assert all(np.array_equal(a, b) for a, b in zip(built, reread))
