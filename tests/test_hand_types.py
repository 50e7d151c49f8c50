"""Hand types (pokerlab.hand_types): the grouping against hand-written lists, and the per-type
shares and main-action changes against direct sums."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab.cards import CLASS_INDEX, CLASS_PRIOR, N_CLASSES
from pokerlab.hand_types import HAND_TYPES, classes_of, main_action_changes, shares_by_hand_type


def test_the_groups_partition_the_169_classes_as_written():
    members = [c for t in HAND_TYPES for c in classes_of(t)]
    assert sorted(members) == sorted(CLASS_INDEX) and len(members) == N_CLASSES
    assert classes_of("big pairs") == ["AA", "KK", "QQ", "JJ", "TT"]
    assert classes_of("small pairs") == ["55", "44", "33", "22"]
    assert set(classes_of("suited broadway")) == {"KQs", "KJs", "KTs", "QJs", "QTs", "JTs"}
    assert set(classes_of("offsuit connectors")) == {"T9o", "98o", "87o", "76o", "65o", "54o", "43o", "32o"}
    assert set(classes_of("suited one-gappers")) == {"J9s", "T8s", "97s", "86s", "75s", "64s", "53s", "42s"}
    assert len(classes_of("suited aces")) == len(classes_of("offsuit aces")) == 12
    assert "K9s" in classes_of("other suited") and "72o" in classes_of("other offsuit")
    with pytest.raises(ValueError, match="unknown hand type 'connectors': expected one of big pairs"):
        classes_of("connectors")


def test_shares_by_hand_type_weigh_classes_by_their_arriving_probability():
    fold = np.zeros(N_CLASSES)
    fold[CLASS_INDEX["22"]], fold[CLASS_INDEX["33"]] = 1.0, 0.5
    strategy = {"F": fold, "C": 1.0 - fold}
    arrive = CLASS_PRIOR.copy()
    arrive[CLASS_INDEX["44"]] = 0.0  # 44 does not arrive
    arrive[CLASS_INDEX["22"]] /= 2
    arrive /= arrive.sum()
    shares = shares_by_hand_type(strategy, arrive)
    # small pairs: 22 (3 combos' worth arriving, folds), 33 (6, folds half), 55 (6, calls)
    assert shares["small pairs"]["F"] == pytest.approx((3 * 1.0 + 6 * 0.5) / 15)
    assert shares["small pairs"]["arriving"] == pytest.approx(15 / (1326 - 6 - 3))
    assert shares["big pairs"] == {"F": 0.0, "C": 1.0, "arriving": pytest.approx(30 / (1326 - 9))}
    assert sum(s["arriving"] for s in shares.values()) == pytest.approx(1.0)


def test_main_action_changes_list_classes_whose_top_action_moved():
    old = {"F": np.full(N_CLASSES, 0.6), "C": np.full(N_CLASSES, 0.4)}
    new = {"F": old["F"].copy(), "C": old["C"].copy()}
    for name, call in (("76s", 0.9), ("KJo", 0.45), ("22", 0.55)):
        new["C"][CLASS_INDEX[name]], new["F"][CLASS_INDEX[name]] = call, 1 - call
    arrive = np.ones(N_CLASSES)
    changes = main_action_changes(old, new, arrive, min_pp=10.0)
    assert changes == {"suited connectors": [("76s", "F", "C", 50.0)], "small pairs": [("22", "F", "C", 15.0)]}
    arrive[CLASS_INDEX["76s"]] = 0.0
    assert "suited connectors" not in main_action_changes(old, new, arrive)
    with pytest.raises(ValueError, match="different actions"):
        main_action_changes(old, {"F": new["F"]}, arrive)
