"""The exact 1,326 x 1,326 combo equity table: its kernel on subsets of boards against eval7
(an independent evaluator, board by board) and against the class table's own kernel; the file;
and, marked slow, the full table against eval7's enumeration of all 1,712,304 boards."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab import cards as C
from pokerlab import equity_combos as E
from pokerlab.equity import PAIR_HERO, PAIR_VILLAIN, SUIT_PERMUTATIONS, canonical_boards, exact_pair_counts

# a spread of canonical boards: paired, monotone, rainbow, the first and last keys
BOARD_SAMPLE = np.array([0, 1, 17, 4_000, 33_333, 70_001, 101_010, 134_458])


@pytest.fixture(scope="module")
def boards():
    keys, weights = canonical_boards()
    return keys[BOARD_SAMPLE], weights[BOARD_SAMPLE]


@pytest.fixture(scope="module")
def subset_counts(boards):
    return E.exact_combo_counts(*boards)


def _orbit_boards(key: int) -> list[tuple[int, ...]]:
    """Every board a suit permutation makes of the board with card mask ``key``."""
    cards = [c for c in range(52) if (key >> c) & 1]
    return sorted({tuple(sorted(4 * (c >> 2) + int(p[c & 3]) for c in cards)) for p in SUIT_PERMUTATIONS})


def test_orbit_sizes_are_the_weights(boards):
    keys, weights = boards
    assert [len(_orbit_boards(int(k))) for k in keys] == list(weights)


def test_subset_matches_eval7_board_by_board(boards, subset_counts):
    """Win and tie counts of 300 random combo pairs (and every collision being 0) against eval7
    evaluating every board of the eight orbits, one by one."""
    import eval7

    wins, ties = subset_counts
    deck = [eval7.Card(C.card_str(c)) for c in range(52)]
    all_boards = [b for k in boards[0] for b in _orbit_boards(int(k))]
    rng = np.random.default_rng(31)
    pairs = rng.integers(0, C.N_COMBOS, size=(300, 2))
    collide = E.collision_mask()
    checked = 0
    for h, v in pairs:
        if collide[h, v]:
            assert wins[h, v] == 0 and ties[h, v] == 0
            continue
        hero, villain = C.COMBO_CARDS[h].tolist(), C.COMBO_CARDS[v].tolist()
        w = t = n = 0
        for board in all_boards:
            if set(board) & set(hero + villain):
                continue
            hs = eval7.evaluate([deck[c] for c in (*board, *hero)])
            vs = eval7.evaluate([deck[c] for c in (*board, *villain)])
            w += hs > vs
            t += hs == vs
            n += 1
        assert (wins[h, v], ties[h, v], wins[v, h]) == (w, t, n - w - t), (C.combo_id(h), C.combo_id(v))
        checked += 1
    assert checked > 200


def test_collisions_are_zero_and_outcomes_add_up(boards, subset_counts):
    wins, ties = subset_counts
    collide = E.collision_mask()
    assert collide.sum() == C.N_COMBOS * 101  # a combo collides with itself and 100 others
    assert not wins[collide].any() and not ties[collide].any()
    np.testing.assert_array_equal(ties, ties.T)
    # on the non-colliding pairs, win + tie + loss = the orbit boards that miss both hands
    cards_of = [set(C.COMBO_CARDS[h].tolist()) for h in range(C.N_COMBOS)]
    all_boards = [set(b) for k in boards[0] for b in _orbit_boards(int(k))]
    rng = np.random.default_rng(5)
    for h, v in rng.integers(0, C.N_COMBOS, size=(200, 2)):
        if not collide[h, v]:
            live = sum(1 for b in all_boards if not b & (cards_of[h] | cards_of[v]))
            assert wins[h, v] + ties[h, v] + wins[v, h] == live


def test_class_aggregates_equal_the_class_kernel(boards, subset_counts):
    """Summed over the combos of each class pair, the counts are the 169 table's (its own
    kernel, which counts per class with card-removal corrections, on the same boards)."""
    wins, ties, deals = E.class_counts(*subset_counts)
    reference = exact_pair_counts(*boards)
    np.testing.assert_array_equal(wins[PAIR_HERO, PAIR_VILLAIN], reference.wins)
    np.testing.assert_array_equal(ties[PAIR_HERO, PAIR_VILLAIN], reference.ties)
    # deals of the full table: non-colliding combo pairs x 1,712,304 (AA vs AA: 6 pairs of disjoint aces)
    aa = C.parse_class("AA")
    assert deals[aa, aa] == 6 * E.BOARDS_PER_PAIR


def test_suit_relabelling_is_a_symmetry(subset_counts):
    """A suit permutation maps the table onto itself (the boards of whole orbits were counted)."""
    wins, _ = subset_counts
    maps = E.suit_permutation_combo_maps()
    assert sorted(maps[5].tolist()) == list(range(C.N_COMBOS))
    for k in (3, 17, 23):
        m = maps[k]
        np.testing.assert_array_equal(wins[np.ix_(m, m)], wins)


def test_file_round_trip_and_damage(tmp_path, subset_counts):
    wins, ties = subset_counts
    # a real table has the same total on every pair; give the subset one (ties absorb the rest)
    ties = np.where(E.collision_mask(), 0, E.BOARDS_PER_PAIR - wins - wins.T)
    path = tmp_path / "equity_1326.npz"
    E.save_combo_table(wins, ties, path)
    first = path.read_bytes()
    E.save_combo_table(wins, ties, path)
    assert path.read_bytes() == first  # bytes depend only on the counts
    table = E.load_combo_table(path)
    np.testing.assert_array_equal(table.wins, wins)
    assert table.equity[0, 1] == 0.0  # combos 0 and 1 (2d2c, 2h2c) share the 2c
    damaged = wins.copy()
    damaged[0, 1] = 7  # a count on a colliding pair
    E.save_combo_table(damaged, ties, path)
    with pytest.raises(ValueError, match="colliding pairs"):
        E.load_combo_table(path)
    with pytest.raises(ValueError, match="file not found"):
        E.load_combo_table(tmp_path / "missing.npz")


@pytest.mark.slow
def test_full_table_against_eval7_enumeration_and_the_class_table():
    """The whole build (minutes): exact against eval7 on 6 random pairs over all boards, and its
    class means equal to the exact 169 table (pinned digest) to the last bit of the counts."""
    from pokerlab.equity import exact_pair_counts as class_counts
    from pokerlab.equity_check import eval7_enumerate_boards

    wins, ties = E.exact_combo_counts()
    reference = class_counts()
    agg_w, agg_t, _ = E.class_counts(wins, ties)
    np.testing.assert_array_equal(agg_w[PAIR_HERO, PAIR_VILLAIN], reference.wins)
    np.testing.assert_array_equal(agg_t[PAIR_HERO, PAIR_VILLAIN], reference.ties)
    rng = np.random.default_rng(2026)
    collide = E.collision_mask()
    for h, v in itertools.islice((p for p in rng.integers(0, C.N_COMBOS, size=(50, 2)) if not collide[p[0], p[1]]), 6):
        w, t, n = eval7_enumerate_boards(tuple(C.COMBO_CARDS[h].tolist()), tuple(C.COMBO_CARDS[v].tolist()))
        assert (wins[h, v], ties[h, v], wins[v, h]) == (w, t, n - w - t)


def test_progress_counts_the_blocks(boards):
    """The rule's progress callback gets (block done, blocks in all); it raised on the block
    generator, which has no length."""
    keys, weights = boards
    calls = []
    E.exact_combo_counts(keys[:3], weights[:3], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]
