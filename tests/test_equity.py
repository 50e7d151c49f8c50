"""The equity table: exact enumeration, sampling, symmetry, determinism, files and errors."""

import itertools
import math

import numpy as np
import pytest

from pokerlab import cards as C
from pokerlab import equity as E
from pokerlab import evaluator as EV
from pokerlab.equity_check import crosscheck, eval7_exact_class_pair


def test_pair_indexing_covers_every_unordered_class_pair():
    assert E.N_CLASS_PAIRS == 14365 == 169 * 170 // 2
    assert np.all(E.PAIR_HERO <= E.PAIR_VILLAIN)
    assert len(set(zip(E.PAIR_HERO.tolist(), E.PAIR_VILLAIN.tolist()))) == 14365


def test_class_pair_index_inverts_the_pair_arrays_in_either_order():
    for pair in (0, 1, 168, 169, 5000, 14364):
        a, b = int(E.PAIR_HERO[pair]), int(E.PAIR_VILLAIN[pair])
        assert E.class_pair_index(a, b) == E.class_pair_index(b, a) == pair
    assert [E.class_pair_index(int(a), int(b)) for a, b in zip(E.PAIR_HERO, E.PAIR_VILLAIN)] == list(range(14365))
    with pytest.raises(ValueError, match="0..168"):
        E.class_pair_index(0, 169)


def test_sample_class_pair_is_the_tables_draws_seen_from_either_side():
    aks, qq = C.parse_class("AKs"), C.parse_class("QQ")
    counts = E.sample_pair_counts(3000, 5, [E.class_pair_index(aks, qq)])
    low_side = (int(counts.wins[0]), int(counts.ties[0]), 3000)  # the table's pair is (low index, high index)
    high_side = (int(counts.losses[0]), int(counts.ties[0]), 3000)
    ask_low, ask_high = sorted(("AKs", "QQ"), key=C.parse_class)
    assert E.sample_class_pair(ask_low, ask_high, 3000, 5) == low_side
    assert E.sample_class_pair(ask_high, ask_low, 3000, 5) == high_side


def test_aa_vs_kk_matches_the_published_exact_figures():
    # Published full-enumeration figures (e.g. PokerStove): AA wins 81.71%, ties 0.46%,
    # equity 81.95% against KK.
    wins, ties, deals = E.exact_class_pair("AA", "KK")
    assert deals == 36 * E.BOARDS_PER_COMBO_PAIR
    assert wins / deals == pytest.approx(0.8171, abs=5e-5)
    assert ties / deals == pytest.approx(0.0046, abs=5e-5)
    assert (wins + ties / 2) / deals == pytest.approx(0.8195, abs=5e-5)


def test_orbits_partition_the_combo_pairs_and_reproduce_the_plain_average():
    a, b = C.parse_class("AKs"), C.parse_class("AQs")
    plain = [
        (h, v)
        for h in C.CLASS_COMBOS[a]
        for v in C.CLASS_COMBOS[b]
        if not set(C.COMBO_CARDS[h].tolist()) & set(C.COMBO_CARDS[v].tolist())
    ]
    orbits = E.combo_pair_orbits(a, b)
    assert sum(size for _, size in orbits) == len(plain) == 4 * 3
    wins = ties = 0
    for h, v in plain:
        w, t, n = E._enumerate_boards(*C.COMBO_CARDS[h], *C.COMBO_CARDS[v], EV.CARD_BITS)
        assert n == E.BOARDS_PER_COMBO_PAIR
        wins, ties = wins + w, ties + t
    assert (wins, ties, len(plain) * E.BOARDS_PER_COMBO_PAIR) == E.exact_class_pair("AKs", "AQs")


def test_exact_counts_equal_eval7_enumeration():
    """A one-orbit pair: pokerlab's evaluator and eval7 count the very same wins and ties."""
    assert E.exact_class_pair("AA", "AA") == eval7_exact_class_pair("AA", "AA")


def _brute_force_board_counts(board_cards: list[int]) -> tuple[np.ndarray, np.ndarray]:
    """Win/tie counts of every ordered class pair on one board, over all live combo pairs."""
    live = np.flatnonzero(~C.combos_blocked_by(board_cards))
    hands = np.column_stack([C.COMBO_CARDS[live], np.tile(board_cards, (live.size, 1))])
    s = EV.evaluate_batch(hands).astype(np.int64)
    cc = C.COMBO_CARDS[live].astype(np.int64)
    disjoint = ~((cc[:, None, 0] == cc[None, :, 0]) | (cc[:, None, 0] == cc[None, :, 1])
                 | (cc[:, None, 1] == cc[None, :, 0]) | (cc[:, None, 1] == cc[None, :, 1]))
    cls = C.COMBO_CLASS[live].astype(np.int64)
    win = np.zeros((169, 169), np.int64)
    tie = np.zeros((169, 169), np.int64)
    i, j = np.nonzero(disjoint & (s[:, None] > s[None, :]))
    np.add.at(win, (cls[i], cls[j]), 1)
    i, j = np.nonzero(disjoint & (s[:, None] == s[None, :]))
    np.add.at(tie, (cls[i], cls[j]), 1)
    return win, tie


def test_board_sweep_equals_brute_force_on_sample_boards():
    keys, weights = E.canonical_boards()
    rng = np.random.default_rng(3)
    pick = np.sort(rng.choice(keys.size, 12, replace=False))
    counts = E.exact_pair_counts(keys[pick], weights[pick])
    win = np.zeros((169, 169), np.int64)
    tie = np.zeros((169, 169), np.int64)
    for key, w in zip(keys[pick], weights[pick]):
        board = [c for c in range(52) if (int(key) >> c) & 1]
        bw, bt = _brute_force_board_counts(board)
        win += w * bw
        tie += w * bt
    a, b = E.PAIR_HERO, E.PAIR_VILLAIN
    assert np.array_equal(counts.wins, win[a, b])
    assert np.array_equal(counts.ties, tie[a, b])
    assert np.array_equal(counts.losses, win.T[a, b])


def test_canonical_boards_cover_every_board_once():
    keys, weights = E.canonical_boards()
    assert keys.size == 134459
    assert weights.sum() == math.comb(52, 5)
    assert set(np.unique(weights).tolist()) <= {1, 2, 3, 4, 6, 8, 12, 24}


def test_table_is_consistent_and_conserves_probability():
    counts = E.sample_pair_counts(300, seed=11)
    table = counts.to_table()
    assert np.allclose(table.win + table.tie + table.loss, 1.0)
    assert np.array_equal(table.win, table.loss.T)  # exact, not approximate
    assert np.array_equal(table.tie, table.tie.T)
    assert np.all(table.samples == 300)
    assert np.array_equal(counts.samples, np.full(E.N_CLASS_PAIRS, 300))


def test_sampling_is_independent_of_chunking_and_threads():
    import numba

    ids = np.arange(0, E.N_CLASS_PAIRS, 97)
    whole = E.sample_pair_counts(500, seed=5, pair_ids=ids)
    parts = [E.sample_pair_counts(500, seed=5, pair_ids=chunk) for chunk in np.array_split(ids[::-1], 7)]
    rejoined = {int(p): (w, t) for chunk, part in zip(np.array_split(ids[::-1], 7), parts)
                for p, w, t in zip(chunk, part.wins, part.ties)}
    assert all(rejoined[int(p)] == (w, t) for p, w, t in zip(ids, whole.wins, whole.ties))
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        single = E.sample_pair_counts(500, seed=5, pair_ids=ids)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(single.wins, whole.wins) and np.array_equal(single.ties, whole.ties)
    other_seed = E.sample_pair_counts(500, seed=6, pair_ids=ids)
    assert not np.array_equal(other_seed.wins, whole.wins)


@pytest.mark.parametrize("hero, villain", [("AA", "KK"), ("AKo", "QJo"), ("22", "AKo"), ("76s", "76s")])
def test_sampled_agrees_with_exact_within_four_standard_errors(hero, villain):
    a, b = sorted((C.parse_class(hero), C.parse_class(villain)))
    pair = int(np.flatnonzero((E.PAIR_HERO == a) & (E.PAIR_VILLAIN == b))[0])
    n = 20000
    sampled = E.sample_pair_counts(n, seed=2026, pair_ids=[pair])
    wins, ties, deals = E.exact_class_pair(a, b)
    for observed, p in ((sampled.wins[0], wins / deals), (sampled.ties[0], ties / deals)):
        se = math.sqrt(p * (1 - p) / n)
        assert abs(observed / n - p) < 4 * se + 1e-12


def test_files_round_trip_and_are_byte_reproducible(tmp_path):
    import hashlib

    import pandas as pd

    counts = E.sample_pair_counts(200, seed=1)
    digests = []
    for run in ("a", "b"):
        npz, parquet = tmp_path / run / "t.npz", tmp_path / run / "t.parquet"
        E.save_equity_table(counts, npz, parquet)
        digests.append([hashlib.sha256(p.read_bytes()).hexdigest() for p in (npz, parquet)])
    assert digests[0] == digests[1]
    table = E.load_equity_table(tmp_path / "a" / "t.npz")
    assert table.classes == C.CLASS_NAMES
    assert np.array_equal(table.win, counts.to_table().win)
    frame = pd.read_parquet(tmp_path / "a" / "t.parquet")
    assert list(frame.columns) == ["hero", "villain", "wins", "ties", "losses", "samples"]
    assert len(frame) == 14365 and (frame.wins + frame.ties + frame.losses == frame.samples).all()
    row = frame[(frame.hero == "AA") & (frame.villain == "AKs")].iloc[0]
    assert row.wins / row.samples == table.win[0, 1]
    assert not list(tmp_path.rglob("*.tmp"))


def test_bad_table_files_are_named(tmp_path):
    with pytest.raises(ValueError, match="missing.npz: file not found"):
        E.load_equity_table(tmp_path / "missing.npz")
    bad = tmp_path / "bad.npz"
    bad.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="bad.npz: unreadable"):
        E.load_equity_table(bad)
    wrong = tmp_path / "wrong.npz"
    np.savez(wrong, classes=np.array(C.CLASS_NAMES), win=np.zeros((3, 3)), tie=np.zeros((3, 3)), samples=np.zeros((3, 3)))
    with pytest.raises(ValueError, match="'win' has shape"):
        E.load_equity_table(wrong)


def test_bad_sampling_arguments():
    with pytest.raises(ValueError, match="equity.samples"):
        E.sample_pair_counts(0, seed=1)
    with pytest.raises(ValueError, match="equity.mode"):
        E.build_equity_counts("approximate", 10, 1)


def test_crosscheck_reports_gaps_against_eval7():
    table = E.sample_pair_counts(50, seed=3).to_table()
    result = crosscheck(table, [("AKs", "AKs")], bound_pp=0.2)
    row = result.rows.iloc[0]
    wins, ties, deals = E.exact_class_pair("AKs", "AKs")
    assert row.exact_deals == deals == 12 * E.BOARDS_PER_COMBO_PAIR  # each AKs meets three others
    assert (row.exact_win, row.exact_tie) == (wins / deals, ties / deals)
    k = C.parse_class("AKs")
    assert row.gap_pp == pytest.approx(100 * max(abs(table.win[k, k] - row.exact_win),
                                                 abs(table.tie[k, k] - row.exact_tie)))
    assert result.passed == (row.gap_pp <= 0.2)
    assert not crosscheck(table, [("AKs", "AKs")], bound_pp=1e-9).passed


@pytest.mark.slow
def test_full_exact_table():
    counts = E.exact_pair_counts()
    table = counts.to_table()
    assert np.array_equal(table.win, table.loss.T)
    from pokerlab.equity_table import EXACT_TABLES_SHA256, table_digest  # Reliability #3: the pin is this table

    assert table_digest(table.win, table.tie) == EXACT_TABLES_SHA256
    wins, ties, deals = E.exact_class_pair("AKo", "QJo")
    a, b = C.parse_class("AKo"), C.parse_class("QJo")
    assert table.samples[a, b] == deals
    assert table.win[a, b] == wins / deals and table.tie[a, b] == ties / deals
    # every deal counted: live combo pairs x C(48,5) boards
    for hero, villain in itertools.islice(zip(E.PAIR_HERO, E.PAIR_VILLAIN), 0, None, 997):
        n_pairs = sum(1 for h in C.CLASS_COMBOS[hero] for v in C.CLASS_COMBOS[villain]
                      if not set(C.COMBO_CARDS[h].tolist()) & set(C.COMBO_CARDS[v].tolist()))
        assert table.samples[hero, villain] == n_pairs * E.BOARDS_PER_COMBO_PAIR


_INTERRUPT_CHILD = r"""
import signal
import sys
import pokerlab.equity as E

# Python leaves SIGINT ignored when its parent ignored it (a job started with & by a
# non-interactive shell, as a CI runner may do); Ctrl-C must reach this child.
signal.signal(signal.SIGINT, signal.default_int_handler)

E.canonical_boards()
kernel = E._exact_counts
done = [0]

def counted(keys, *args):
    out = kernel(keys, *args)
    done[0] += keys.size
    print(f"boards {done[0]}", file=sys.stderr, flush=True)
    return out

E._exact_counts = counted
E.exact_pair_counts()
print("finished", flush=True)
"""


def test_ctrl_c_interrupts_the_exact_table_between_blocks(tmp_path):
    """Reliability #5: the exact table's parallel kernel is cut into blocks, so Ctrl-C (SIGINT) is
    seen after the block running when it arrives: the build stops with KeyboardInterrupt and most
    boards never swept (before, one kernel call swept every board first, then crashed)."""
    import signal
    import subprocess
    import sys

    total = E.canonical_boards()[0].size
    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPT_CHILD], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stderr.readline()  # the first kernel call has returned
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=600)
    swept = [int(line.split()[1]) for line in [first, *err.splitlines()] if line.startswith("boards ")]
    assert "finished" not in out and max(swept) < total / 4, (first, err[-2000:])
    assert "KeyboardInterrupt" in err and proc.returncode in (-signal.SIGINT, 1, 130), (proc.returncode, err[-2000:])


def _save_table(path, table, order=None):
    order = np.arange(C.N_CLASSES) if order is None else order
    np.savez(path, classes=np.array(C.CLASS_NAMES), win=table.win[order][:, order], tie=table.tie[order][:, order],
             samples=table.samples[order][:, order])


@pytest.mark.parametrize("a, b", [("AA", "72o"), ("AA", "KK"), ("KK", "22"), ("TT", "T9s")])
def test_a_table_with_two_classes_swapped_is_refused(equity_table, tmp_path, a, b):
    """Reliability #3: swapping AA and 72o (rows and columns) kept every consistency check true,
    so AA 'lost' to most hands and the charts shipped; the loader now checks hand-strength facts."""
    order = np.arange(C.N_CLASSES)
    i, j = C.parse_class(a), C.parse_class(b)
    order[i], order[j] = j, i
    path = tmp_path / "swapped.npz"
    _save_table(path, equity_table, order)
    with pytest.raises(ValueError, match=r"swapped.npz: .* (beat|against)"):
        E.load_equity_table(path)
    _save_table(path, equity_table)
    assert np.array_equal(E.load_equity_table(path).win, equity_table.win)


def test_the_exact_tables_digest_is_pinned(equity_table, tmp_path):
    """Reliability #3: in exact mode the release is made from the one exact table, whose content
    digest is pinned; any other table (here a sampled one that passes the loader) is refused."""
    from pokerlab.equity_table import EXACT_TABLES_SHA256, table_digest, verify_table

    path = tmp_path / "equity_169.npz"
    _save_table(path, equity_table)
    assert table_digest(equity_table.win, equity_table.tie) != EXACT_TABLES_SHA256
    with pytest.raises(ValueError, match="is not the exact table"):
        verify_table(path, "exact")
    record = verify_table(path, "sampled")
    assert record["mode"] == "sampled" and record["tables_sha256"] == table_digest(equity_table.win, equity_table.tie)


def test_ctrl_c_during_the_exact_build_is_a_plain_keyboard_interrupt():
    """Reliability round two, R21: Ctrl-C during the exact build ended in a chained
    ``SystemError: CPUDispatcher(...) returned a result with an exception set``."""
    import signal
    import subprocess
    import sys
    import time

    proc = subprocess.Popen([sys.executable, "-c", "from pokerlab.equity import exact_pair_counts; print('go', flush=True); "
                             "exact_pair_counts(); print('finished', flush=True)"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout.readline() == "go\n"
    time.sleep(3)  # inside the parallel kernels (the exact build takes about half a minute on 2 cores)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=300)
    assert "finished" not in out, "the build ended before the interrupt: the test did not test anything"
    assert proc.returncode != 0
    assert err.rstrip().endswith("KeyboardInterrupt") and "SystemError" not in err, err[-2000:]
