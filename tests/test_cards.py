"""Card, combo and class conventions (DESIGN.md "Conventions")."""

import itertools

import numpy as np
import pytest

from pokerlab import cards as C


def test_card_round_trip_and_order():
    names = [C.card_str(c) for c in range(52)]
    assert len(set(names)) == 52
    assert all(C.parse_card(n) == c for c, n in enumerate(names))
    assert C.parse_card("As") == 51 and C.parse_card("2c") == 0
    # a larger index is a higher rank; within a rank s > h > d > c
    assert C.parse_card("Kc") > C.parse_card("Qs")
    assert C.parse_card("As") > C.parse_card("Ah") > C.parse_card("Ad") > C.parse_card("Ac")
    assert C.parse_card("td") == C.parse_card("Td")


def test_combos_follow_itertools_order_and_ids():
    assert C.COMBO_CARDS.shape == (1326, 2)
    assert [tuple(map(int, p)) for p in C.COMBO_CARDS] == list(itertools.combinations(range(52), 2))
    assert len(set(C.COMBO_IDS)) == 1326
    for i, cid in enumerate(C.COMBO_IDS):
        assert C.parse_combo(cid) == i
        assert C.parse_combo(cid[2:] + cid[:2]) == i  # either card order
    # the design's examples: higher rank first, pairs s > h > d > c
    for cid in ("AhAd", "KsQs", "AhKc", "AsAc", "3d2c"):
        assert C.COMBO_IDS[C.parse_combo(cid)] == cid
    assert C.combo_id(C.parse_combo("AdAh")) == "AhAd"


def test_class_names_weights_and_grid():
    assert len(C.CLASS_NAMES) == 169 and len(set(C.CLASS_NAMES)) == 169
    assert C.CLASS_WEIGHTS.sum() == 1326
    assert np.isclose(C.CLASS_PRIOR.sum(), 1.0)
    assert C.CLASS_NAMES[0] == "AA" and C.CLASS_NAMES[1] == "AKs" and C.CLASS_NAMES[13] == "AKo"
    assert C.CLASS_NAMES[168] == "22" and C.CLASS_NAMES[12] == "A2s" and C.CLASS_NAMES[156] == "A2o"
    for k, name in enumerate(C.CLASS_NAMES):
        row, col = C.CLASS_ROW[k], C.CLASS_COL[k]
        kind = "pair" if row == col else ("suited" if row < col else "offsuit")
        assert name.endswith("s") == (kind == "suited") and name.endswith("o") == (kind == "offsuit")
        assert C.CLASS_WEIGHTS[k] == {"pair": 6, "suited": 4, "offsuit": 12}[kind]
        assert C.parse_class(name) == k


def test_combo_classes_are_consistent():
    counts = np.bincount(C.COMBO_CLASS, minlength=169)
    assert np.array_equal(counts, C.CLASS_WEIGHTS)
    for k, combos in enumerate(C.CLASS_COMBOS):
        name = C.CLASS_NAMES[k]
        for i in combos:
            lo, hi = (int(c) for c in C.COMBO_CARDS[i])
            ranks = {C.RANKS[hi >> 2], C.RANKS[lo >> 2]}
            assert ranks == set(name[:2])
            if name.endswith("s"):
                assert lo & 3 == hi & 3
            if name.endswith("o"):
                assert lo & 3 != hi & 3
    assert sorted(C.class_combo_ids("AA")) == sorted(["AsAh", "AsAd", "AsAc", "AhAd", "AhAc", "AdAc"])
    assert len(C.class_combo_ids("AKo")) == 12 and len(C.class_combo_ids("t9s")) == 4


def test_blocked_mask():
    mask = C.combos_blocked_by([C.parse_card("As")])
    assert mask.sum() == 51
    assert C.combos_blocked_by([]).sum() == 0
    assert C.combos_blocked_by(C.parse_cards("As Kd")).sum() == 51 + 51 - 1


@pytest.mark.parametrize(
    "token, fragment",
    [("Ax", "unknown suit 'x'"), ("1s", "unknown rank '1'"), ("A", "bad card 'A'"), ("Asd", "bad card")],
)
def test_bad_cards_name_the_token(token, fragment):
    with pytest.raises(ValueError, match=fragment):
        C.parse_card(token)


@pytest.mark.parametrize(
    "token, fragment",
    [("AX", "unknown rank 'X'"), ("AKx", "suffix"), ("AAs", "pair takes no"), ("AK", "suffix"), ("A", "bad class")],
)
def test_bad_classes_name_the_token(token, fragment):
    with pytest.raises(ValueError, match=fragment):
        C.parse_class(token)
    assert not C.is_class_name(token)


def test_class_names_are_told_from_hands_and_ranges():
    assert all(C.is_class_name(name) for name in C.CLASS_NAMES)
    assert C.is_class_name("t9o") and C.is_class_name(" 22 ")
    assert not any(C.is_class_name(text) for text in ("AhKh", "QQ+", "AK", "random", ""))


def test_duplicate_cards_rejected():
    with pytest.raises(ValueError, match="'As' appears twice"):
        C.parse_cards("AsKdAs")
    with pytest.raises(ValueError, match="same card twice"):
        C.parse_combo("AsAs")
