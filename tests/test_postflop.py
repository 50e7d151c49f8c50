"""The postflop solver: tree, showdown sweep, control run, degenerate spots, reference solves."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import numba
import numpy as np
import pytest

from pokerlab.cards import COMBO_CARDS, COMBO_CLASS, COMBO_IDS, N_CLASSES, parse_cards, parse_combo
from pokerlab.evaluator import evaluate, evaluate_batch
from pokerlab.postflop.arrays import table_bytes
from pokerlab.postflop.game import BetTree, PostflopSpot, StreetActions
from pokerlab.postflop.showdown import board_tables, showdown_accumulate
from pokerlab.postflop.solver import DCFR, Mode, PostflopSolver, Quantity, dcfr_discounts, solve_spot
from pokerlab.postflop.tree import CHANCE, build_tree
from pokerlab.postflop.walk import require_member
from pokerlab.ranges import Range

DATA = Path(__file__).parent / "data" / "postflop"
IP_RANGE = "AA,KK,QQ,JJ,AK,AQs,KQ,QJs,JTs,T9s,98s,A5s"
OOP_RANGE = "QQ:0.5,JJ,TT,99,88,AQ,AJs,KQs,KJs,QTs,JTs,T9s,87s,76s"
REFERENCE_SIZES = dict(bets=(50,), raises=(100,), allin=True)


def reference_spot(board: str, allin_threshold: float) -> PostflopSpot:
    """The spot of the reference solves (pot 100, stack 200, bet 50%, raise 100%, all-in)."""
    return PostflopSpot(
        pot=100.0,
        stack=200.0,
        board=tuple(parse_cards(board)),
        oop_range=Range.parse(OOP_RANGE).weights,
        ip_range=Range.parse(IP_RANGE).weights,
        bet_tree=BetTree.uniform(**REFERENCE_SIZES, allin_threshold=allin_threshold),
    )


def combos_spot(board: str, oop: list[str], ip: list[str], stack: float = 200.0) -> PostflopSpot:
    return PostflopSpot(100.0, stack, tuple(parse_cards(board)), Range.from_combos(oop).weights,
                        Range.from_combos(ip).weights, BetTree.uniform(**REFERENCE_SIZES))


# --- the tree -----------------------------------------------------------------------------


def test_reference_river_tree_matches_texassolver_actions():
    tree = build_tree(reference_spot("QsJh2h8d3c", 0.67))
    assert tree.actions(0) == ["CHECK", "BET 50", "BET 200"]
    facing = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    assert facing[("BET 50",)] == ["FOLD", "CALL", "RAISE 200"]
    assert facing[("CHECK", "BET 50")] == ["FOLD", "CALL", "RAISE 200"]
    assert facing[("BET 50", "RAISE 200")] == ["FOLD", "CALL"]
    assert facing[("CHECK",)] == ["CHECK", "BET 50", "BET 200"]
    assert len(facing) == 8


def test_turn_tree_has_one_chance_node_per_continuing_line_and_river_sizes_follow_the_pot():
    tree = build_tree(reference_spot("QsJh2h8d", 1.0))
    chances = [tuple(tree.line(n)) for n in range(tree.n_nodes) if tree.kind[n] == CHANCE]
    assert sorted(chances) == [("BET 50", "CALL"), ("CHECK", "BET 50", "CALL"), ("CHECK", "CHECK")]
    lines = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    # after bet 50 / call the pot is 200 and 150 is behind: bet 100, all-in 150
    assert lines[("BET 50", "CALL", "DEAL")] == ["CHECK", "BET 100", "BET 150"]
    assert lines[("BET 50", "CALL", "DEAL", "BET 100")] == ["FOLD", "CALL", "RAISE 150"]


def test_allin_threshold_turns_large_bets_into_allin_and_raise_cap_stops_raising():
    # TexasSolver's rule: stake = half the pot + chips put in; starting stake 50 + 200 = 250
    spot = reference_spot("QsJh2h8d3c", 0.35)  # bet 50 takes the stake to 100 > 87.5
    assert build_tree(spot).actions(0) == ["CHECK", "BET 200"]
    assert build_tree(reference_spot("QsJh2h8d3c", 0.4)).actions(0) == ["CHECK", "BET 50", "BET 200"]
    capped = PostflopSpot(100.0, 10000.0, spot.board, spot.oop_range, spot.ip_range,
                          BetTree.uniform(bets=(50,), raises=(50,), raise_cap=1))
    tree = build_tree(capped)
    lines = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    assert lines[("BET 50",)] == ["FOLD", "CALL", "RAISE 150"]  # call 50 + 50% of the 200 after calling
    assert lines[("BET 50", "RAISE 150")] == ["FOLD", "CALL"]


def test_donk_sizes_apply_when_oop_called_the_previous_street():
    sizes = StreetActions(bets=(50,), allin=True, donks=())
    spot = reference_spot("QsJh2h8d", 1.0)
    spot = PostflopSpot(spot.pot, spot.stack, spot.board, spot.oop_range, spot.ip_range,
                        BetTree(streets=((sizes, sizes),) * 3))
    tree = build_tree(spot)
    lines = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    assert lines[("CHECK", "BET 50", "CALL", "DEAL")] == ["CHECK", "BET 150"]
    assert lines[("BET 50", "CALL", "DEAL")] == ["CHECK", "BET 100", "BET 150"]


def test_control_tree_is_a_check_down():
    tree = build_tree(reference_spot("QsJh2h8d", 1.0).without_stacks())
    for node in tree.decision_nodes():
        assert tree.actions(node) == ["CHECK"]


# --- showdown sweep against a pairwise loop -----------------------------------------------


def test_showdown_sweep_equals_pairwise_loop_with_card_removal():
    rng = np.random.default_rng(7)
    board = tuple(parse_cards("Kd9h4c4s2h"))
    hands_t = np.sort(rng.choice(1326, 150, replace=False))  # some collide with the board
    hands_o = np.sort(rng.choice(1326, 180, replace=False))
    reach = rng.random(hands_o.size)
    cards_t, cards_o = COMBO_CARDS[hands_t].astype(np.int64), COMBO_CARDS[hands_o].astype(np.int64)
    same = np.array([int(np.flatnonzero(hands_o == h)[0]) if h in hands_o else -1 for h in hands_t])
    (tab_t, nv_t), (tab_o, nv_o) = board_tables(np.array([board]), (cards_t, cards_o))
    out = np.zeros(hands_t.size)
    showdown_accumulate(tab_t[0], nv_t[0], tab_o[0], nv_o[0], reach, same, 3.0, 5.0, 1.0, out, np.zeros(52))
    expected = np.zeros(hands_t.size)
    for i, h in enumerate(hands_t):
        if set(COMBO_CARDS[h]) & set(board):
            continue
        vh = evaluate(list(board) + list(COMBO_CARDS[h]))
        for j, o in enumerate(hands_o):
            if set(COMBO_CARDS[o]) & (set(COMBO_CARDS[h]) | set(board)):
                continue
            vo = evaluate(list(board) + list(COMBO_CARDS[o]))
            expected[i] += reach[j] * (3.0 + 5.0 * np.sign(vh - vo))
    assert (expected == 0).sum() > 5  # the board blocks some hands
    np.testing.assert_allclose(out, expected, rtol=1e-12, atol=1e-12)


# --- control run and degenerate spots -----------------------------------------------------


def brute_force_equity(board: tuple[int, ...], hand: int, opp_weights: np.ndarray) -> float:
    """Equity share of ``hand`` against weighted combos: every (opponent, run-out) listed, each
    run-out equally likely, hands valued by the evaluator's batch entry point."""
    mine = list(COMBO_CARDS[hand])
    rows_mine, rows_theirs, weights = [], [], []
    for o in np.flatnonzero(opp_weights):
        theirs = list(COMBO_CARDS[o])
        if set(theirs) & (set(mine) | set(board)):
            continue
        deck = [c for c in range(52) if c not in set(board) | set(mine) | set(theirs)]
        runs = list(itertools.combinations(deck, 5 - len(board)))
        for run in runs:
            full = list(board) + list(run)
            rows_mine.append(full + mine)
            rows_theirs.append(full + theirs)
            weights.append(opp_weights[o] / len(runs))
    a, b = evaluate_batch(np.array(rows_mine)), evaluate_batch(np.array(rows_theirs))
    share = np.where(a > b, 1.0, np.where(a == b, 0.5, 0.0))
    return float(np.dot(weights, share) / np.sum(weights))


def test_control_run_returns_exact_equity_share():
    spot = reference_spot("QsJh2h8d", 1.0).without_stacks()
    result = solve_spot(spot, target_pct_pot=0.0, max_iterations=2, check_every=1)
    assert result.exploitability_chips == pytest.approx(0.0, abs=1e-9)
    for name in ("oop", "ip"):
        player = result.players[name]
        for combo in player.combos.values():
            assert combo["ev"] == pytest.approx(spot.pot * combo["equity"], abs=1e-9)
            assert combo["exp_pot"] == pytest.approx(spot.pot, abs=1e-9)
            assert combo["p_showdown"] == pytest.approx(1.0, abs=1e-12)
        assert player.range_ev == pytest.approx(spot.pot * player.range_equity, abs=1e-9)
    # equities against an independent loop over opponents and rivers
    for cid in ("QhQc", "8c7c", "TsTd"):
        got = result.players["oop"].combos[cid]["equity"]
        assert got == pytest.approx(brute_force_equity(spot.board, parse_combo(cid), spot.ip_range), abs=1e-12)
    got = result.players["ip"].combos["AhKh"]["equity"]
    assert got == pytest.approx(brute_force_equity(spot.board, parse_combo("AhKh"), spot.oop_range), abs=1e-12)


def test_flop_control_run_walks_turn_and_river_with_true_probabilities():
    spot = reference_spot("QsJh2h", 1.0).without_stacks()
    expected = {cid: brute_force_equity(spot.board, parse_combo(cid), spot.ip_range) for cid in ("QhQc", "9s9h")}
    for isomorphism in (True, False):
        result = solve_spot(spot, target_pct_pot=0.0, max_iterations=1, isomorphism=isomorphism)
        for cid, equity in expected.items():
            combo = result.players["oop"].combos[cid]
            assert combo["equity"] == pytest.approx(equity, abs=1e-12)
            assert combo["ev"] == pytest.approx(100.0 * equity, abs=1e-9)  # through both chance nodes


def test_the_root_run_out_matrix_is_built_for_root_all_ins_or_at_the_read_out():
    # the flop tree without all-ins trains without the root board's run-out matrix and builds it
    # for the read-out's equities, the same bytes as the tree whose flop all-ins train on it
    allins = reference_spot("QsJh2h", 1.0)
    bets_only = PostflopSpot(allins.pot, allins.stack, allins.board, allins.oop_range, allins.ip_range,
                             BetTree.uniform(bets=(50,), raise_cap=0))
    trained, lazy = PostflopSolver(allins), PostflopSolver(bets_only)
    assert trained._game.deals.runout_index[0] == 0 and lazy._game.deals.runout_index[0] == -1
    for player in (0, 1):
        assert np.array_equal(lazy.per_combo(player)["equity"], trained.per_combo(player)["equity"])
    # the memory stated at construction counts the matrices the read-out built
    assert sum(m.nbytes for m in lazy._root_runouts) == lazy.memory_bytes - table_bytes(lazy._game) - sum(
        a.nbytes for a in lazy.state().values() if a.size > 1)


def test_the_check_schedule_grows_its_gaps_and_stops_at_the_first_check_under_the_target():
    """solve(): checks at least check_every apart, each gap at most the iterations already run, and a
    stop at the first check at or under the target, whose figure it returns; exploitability checks
    leave the training untouched, so a solve that stops at n iterations equals a plain run of n."""
    spot = reference_spot("QsJh2h8d", 1.0)
    checks = []
    solver = PostflopSolver(spot)
    pct = solver.solve(0.05, 1000, 10, progress=lambda n, x: checks.append((n, x)))
    counts = [n for n, _ in checks]
    assert counts[0] == 10 and all(b - a >= 10 and b - a <= max(10, a) for a, b in zip(counts, counts[1:]))
    assert pct == checks[-1][1] <= 0.05 and all(x > 0.05 for _, x in checks[:-1])
    plain = PostflopSolver(spot)
    plain.run(counts[-1])
    assert 100.0 * plain.exploitability() / spot.pot == pct


@pytest.mark.slow
def test_flop_solve_converges_and_conserves_chips():
    solver = PostflopSolver(reference_spot("QsJh2h", 1.0))
    pct = solver.solve(target_pct_pot=0.5, max_iterations=400)
    assert pct <= 0.5
    result = solver.result()
    # Suit isomorphism gives a turn card the values of its representative with the hands
    # permuted, which is exact only if suit-symmetric hands play alike. Their values are summed
    # in different orders, so they differ in the last bits, and the delayed schedule (DCFR's
    # default) turns such bits into different strategies: a hand that played one action purely
    # at iteration 2 has that action's regret zeroed, so its sign, and with it a pure or a
    # uniform strategy at iteration 3, is left to rounding. The two players' totals then miss
    # the pot by up to ~1e-4 chips (measured at 20-200 iterations; ~1e-9 without the delay). A
    # lost or doubled terminal would be whole chips.
    assert result.players["oop"].range_ev + result.players["ip"].range_ev == pytest.approx(100.0, abs=1e-3)
    # every turn card walked: the chips are conserved to the rounding of float64 sums
    walked = PostflopSolver(reference_spot("QsJh2h", 1.0), isomorphism=False)
    walked.run(20)
    result = walked.result()
    assert result.players["oop"].range_ev + result.players["ip"].range_ev == pytest.approx(100.0, abs=1e-9)


def test_always_win_spot():
    # OOP holds the royal flush; IP's hands cannot beat it on any river
    result = solve_spot(combos_spot("AhKhQhJh2c", ["Th9c"], ["3c3d", "4c4d", "5s5d"]), target_pct_pot=0.001)
    oop, ip = result.players["oop"], result.players["ip"]
    assert oop.range_equity == 1.0 and ip.range_equity == 0.0
    assert oop.range_ev == pytest.approx(100.0, abs=0.05)  # IP never pays anything off
    assert ip.range_ev == pytest.approx(0.0, abs=0.05)


def test_always_tie_spot():
    # the board is a royal flush: every hand plays the board and splits
    result = solve_spot(combos_spot("AhKhQhJhTh", ["2c3c", "4d5d"], ["6s7s", "8c9d"]), target_pct_pot=0.001)
    for player in result.players.values():
        assert player.range_equity == 0.5
        assert player.range_ev == pytest.approx(50.0, abs=0.01)  # folding a tie is the only way to lose
        for combo in player.combos.values():
            assert combo["ev"] == pytest.approx(50.0, abs=0.05)


def test_always_lose_spot_on_the_turn():
    # IP holds quad aces with the board's ace; OOP's pairs can never catch up
    result = solve_spot(combos_spot("AcAd2s7h", ["3c3d", "4c4d"], ["AhAs"]), target_pct_pot=0.001)
    oop, ip = result.players["oop"], result.players["ip"]
    assert oop.range_equity == 0.0 and ip.range_equity == pytest.approx(1.0, abs=1e-12)
    assert oop.range_ev == pytest.approx(0.0, abs=0.05)
    assert ip.range_ev == pytest.approx(100.0, abs=0.05)


# --- invariants and the reference solves --------------------------------------------------


def test_shares_sum_to_pot_and_exploitability_falls():
    solver = PostflopSolver(reference_spot("QsJh2h8d", 1.0))
    figures = []
    for iterations in (5, 40, 200):
        solver.run(iterations - solver.iterations)
        figures.append(solver.exploitability())
    assert figures[0] > figures[1] > figures[2] > 0
    result = solver.result()
    assert result.players["oop"].range_ev + result.players["ip"].range_ev == pytest.approx(100.0, abs=1e-9)
    br = solver.best_response_values()
    assert br[0] >= result.players["oop"].range_ev and br[1] >= result.players["ip"].range_ev


@pytest.mark.parametrize("street,board,threshold", [("river", "QsJh2h8d3c", 0.67), ("turn", "QsJh2h8d", 1.0)])
def test_reference_solve_agrees_with_postflop_solver(street, board, threshold):
    reference = json.loads((DATA / f"postflop_solver_{street}.json").read_text())
    result = solve_spot(reference_spot(board, threshold), target_pct_pot=0.05)
    assert result.exploitability_pct_pot <= 0.05
    for name in ("oop", "ip"):
        ours, theirs = result.players[name], reference["players"][name]
        assert set(ours.combos) == set(theirs["combos"])
        assert ours.range_ev == pytest.approx(theirs["range_ev"], abs=0.1)
        assert ours.range_equity == pytest.approx(theirs["range_equity"], abs=1e-6)
        gaps = [abs(ours.combos[c]["ev"] - v[0]) for c, v in theirs["combos"].items()]
        assert np.median(gaps) <= 1.0
        for cid, (_, equity, _) in theirs["combos"].items():
            assert ours.combos[cid]["equity"] == pytest.approx(equity, abs=1e-6)


def test_suit_isomorphism_changes_nothing_but_the_work():
    # clubs and diamonds are interchangeable on this board and in these ranges
    spot = reference_spot("QsJh2h8s", 1.0)
    with_iso, without = PostflopSolver(spot), PostflopSolver(spot, isomorphism=False)
    iso_card = with_iso.iso_card
    assert iso_card[0, parse_cards("7d")[0]] == parse_cards("7c")[0]
    assert (iso_card[0] == np.arange(52)).sum() == 52 - 13
    assert with_iso.memory_bytes < 0.8 * without.memory_bytes  # only representatives are stored
    with_iso.run(30)
    # give the full solver the same strategy: after river card c, hand h plays as the image of
    # h does after c's representative (training itself may differ by rounding where a hand is
    # indifferent, so compare the values of one strategy)
    tree, iso_id = without.tree, with_iso._game.deals.iso_id
    perm = [p.suit_images for p in with_iso._game.players]
    for node in tree.decision_nodes():
        player = int(tree.actor[node])
        if tree.board_len[node] == 4:
            without.set_average_strategy(node, (), with_iso.average_strategy(node))
            continue
        for c in set(range(52)) - set(spot.board):
            canon = with_iso.average_strategy(node, (int(iso_card[0, c]),))
            without.set_average_strategy(node, (c,), canon[:, perm[player][iso_id[0, c]]])
    a, b = with_iso.result(), without.result()  # (strategies are stored as float32)
    assert a.exploitability_chips == pytest.approx(b.exploitability_chips, abs=1e-6)
    for name in ("oop", "ip"):
        for cid, values in a.players[name].combos.items():
            for field in ("ev", "exp_pot", "p_showdown"):
                assert values[field] == pytest.approx(b.players[name].combos[cid][field], rel=1e-7, abs=1e-9)


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
@pytest.mark.parametrize("board,compression", [("QsJh2h8s", False), ("QsJh2h", False), ("QsJh2h8s", True),
                                               ("QsJh2h", True)])
def test_threads_give_the_same_bytes(board, compression):
    # the dealt subtrees are walked in parallel; each writes only its own state and values,
    # summed in a fixed order, so the thread count must not change a single bit
    spot = reference_spot(board, 1.0)
    states = []
    for threads in (1, 2):
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            solver = PostflopSolver(spot, compression=compression)
            solver.run(3 if board == "QsJh2h" else 20)
            best = solver.best_response_values()
        finally:
            numba.set_num_threads(previous)
        states.append((b"".join(a.tobytes() for a in solver.state().values()), best))
    assert states[0] == states[1]


def test_compression_halves_the_state_and_keeps_the_range_evs():
    spot = reference_spot("QsJh2h8d", 1.0)
    plain, compressed = PostflopSolver(spot), PostflopSolver(spot, compression=True)
    stored = compressed.state()
    assert stored["regrets0"].dtype == np.int16 and stored["strategy_sums1"].dtype == np.uint16
    state_bytes = [sum(a.nbytes for a in s.state().values()) for s in (plain, compressed)]
    assert state_bytes[1] < 0.52 * state_bytes[0]
    assert plain.memory_bytes - compressed.memory_bytes == state_bytes[0] - state_bytes[1]
    results = [solve_spot(spot, 0.05), solve_spot(spot, 0.05, compression=True)]
    assert results[1].exploitability_pct_pot <= 0.05
    for name in ("oop", "ip"):  # within 0.01% of the pot of the float32 solve
        assert results[1].players[name].range_ev == pytest.approx(results[0].players[name].range_ev, abs=0.01)


def test_compressed_block_is_the_float_block_rounded_to_its_scale():
    # after one iteration from zero the first traverser's (OOP's) regrets and strategy sums are
    # what the float32 solver stores, each block rounded to 16 bits of its largest magnitude
    spot = reference_spot("QsJh2h8d", 1.0)
    plain, compressed = PostflopSolver(spot), PostflopSolver(spot, compression=True)
    plain.run(1)
    compressed.run(1)
    exact, stored = plain.state(), compressed.state()
    sizes = compressed._block_sizes[0]
    for field, scales, steps in (("regrets0", "regret_scales0", 32767), ("strategy_sums0", "sum_scales0", 65535)):
        step = np.repeat(stored[scales].astype(np.float64) / steps, sizes)
        decoded = stored[field] * step
        assert np.all(np.abs(decoded - exact[field]) <= 0.5 * step + 1e-6 * np.abs(exact[field]))
        starts = np.concatenate(([0], np.cumsum(sizes)[:-1]))
        largest = np.maximum.reduceat(np.abs(exact[field]), starts)
        assert stored[scales] == pytest.approx(largest, rel=1e-6)


def test_a_solve_in_pieces_with_checks_between_is_the_solve_in_one_run():
    # the schedule depends on the iteration number only, and exploitability checks and read-outs
    # leave the state alone: a benchmark that measures at several counts measures one solve
    spot = reference_spot("QsJh2h8s", 1.0)
    whole, pieces = PostflopSolver(spot), PostflopSolver(spot)
    whole.run(9)
    for n in (1, 3, 5):
        pieces.run(n)
        pieces.exploitability()
        pieces.result()
    assert pieces.iterations == whole.iterations == 9
    assert all(np.array_equal(a, b) for a, b in zip(whole.state().values(), pieces.state().values()))


def test_state_saves_and_restores_a_compressed_solve():
    spot = reference_spot("QsJh2h8s", 1.0)
    first = PostflopSolver(spot, compression=True)
    first.run(5)
    second = PostflopSolver(spot, compression=True)
    second.load_state(first.state())
    second.iterations = first.iterations
    first.run(5)
    second.run(5)
    assert all(np.array_equal(a, b) for a, b in zip(first.state().values(), second.state().values()))
    with pytest.raises(ValueError, match="expected the arrays"):
        PostflopSolver(spot).load_state(first.state())  # an uncompressed solver has no scales
    wrong = {**first.state(), "regrets0": first.state()["regrets0"].astype(np.float32)}
    with pytest.raises(ValueError, match="regrets0 must be int16"):
        second.load_state(wrong)


def test_compressed_strategy_sums_travel_as_float32():
    spot = reference_spot("QsJh2h8s", 1.0)
    solver = PostflopSolver(spot, compression=True)
    solver.run(10)
    reader = PostflopSolver(spot)
    reader.load_strategy_sums(solver.strategy_sums())
    again = PostflopSolver(spot, compression=True)
    again.load_strategy_sums(solver.strategy_sums())
    for node in solver.tree.decision_nodes()[:5]:
        np.testing.assert_allclose(reader.average_strategy(node), solver.average_strategy(node), rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(again.average_strategy(node), solver.average_strategy(node), rtol=1e-6, atol=1e-9)


def test_no_isomorphism_when_a_range_breaks_the_symmetry():
    spot = reference_spot("QsJh2h8s", 1.0)
    oop = spot.oop_range.copy()
    oop[parse_combo("AcQc")] = 0.3  # its club/diamond image AdQd keeps weight 1
    lopsided = PostflopSpot(spot.pot, spot.stack, spot.board, oop, spot.ip_range, spot.bet_tree)
    assert (PostflopSolver(lopsided).iso_card == np.arange(52)).all()


def _class_weights(support: np.ndarray, seed: int) -> np.ndarray:
    """Weights on ``support``'s combos that depend on the class only (so every suit symmetry holds)."""
    per_class = np.random.default_rng(seed).uniform(0.1, 1.0, N_CLASSES)
    return np.where(support > 0, per_class[COMBO_CLASS], 0.0)


def test_set_ranges_continues_as_a_solver_built_with_those_ranges():
    spot = reference_spot("QsJh2h8s", 1.0)
    oop, ip = _class_weights(spot.oop_range, 1), _class_weights(spot.ip_range, 2)
    moved = PostflopSolver(spot)
    moved.set_ranges((oop, ip))
    moved.run(10)
    built = PostflopSolver(PostflopSpot(spot.pot, spot.stack, spot.board, oop, ip, spot.bet_tree))
    built.run(10)
    assert all(np.array_equal(a, b) for a, b in zip(moved._state.regrets + moved._state.strategy_sums,
                                                    built._state.regrets + built._state.strategy_sums))
    assert moved.pair_mass == pytest.approx(built.pair_mass, rel=1e-12)


def test_set_ranges_refuses_other_combos_and_broken_symmetry():
    spot = reference_spot("QsJh2h8s", 1.0)
    solver = PostflopSolver(spot)
    wider = spot.oop_range.copy()
    wider[parse_combo("2c2d")] = 1.0
    with pytest.raises(ValueError, match="player 0's range must weigh exactly"):
        solver.set_ranges((wider, spot.ip_range))
    lopsided = spot.oop_range.copy()
    lopsided[parse_combo("AcQc")] = 0.3  # its club/diamond image AdQd keeps weight 1
    with pytest.raises(ValueError, match="player 0's weights break a suit symmetry"):
        solver.set_ranges((lopsided, spot.ip_range))


def test_current_mode_values_the_current_strategies():
    # EVALUATE regret-matches the strategy sums: with the regrets copied there it must give CURRENT's values
    solver = PostflopSolver(reference_spot("QsJh2h8s", 1.0))
    solver.run(7)
    current = [solver.root_values(p, Mode.CURRENT) for p in (0, 1)]
    average = [solver.root_values(p, Mode.EVALUATE) for p in (0, 1)]
    assert not np.allclose(current[0], average[0])  # after 7 iterations the two strategies differ
    for p in (0, 1):
        solver._state.strategy_sums[p][:] = solver._state.regrets[p]
    for p in (0, 1):
        np.testing.assert_array_equal(solver.root_values(p, Mode.EVALUATE), current[p])



def test_the_delayed_schedule_drops_the_first_iterations_positive_regrets():
    # postflop-solver's indexing: the positive-regret factor of iteration t is s^1.5 / (s^1.5 + 1)
    # with s = max(t - 2, 0), so iterations 1 and 2 both multiply by 0; the other columns are the
    # undelayed schedule's (s = t - 1). The delayed one is the default.
    params = DCFR._replace(delay=True)
    assert params == DCFR
    plain, delayed = dcfr_discounts(1, 5, *DCFR._replace(delay=False)), dcfr_discounts(1, 5, *params)
    np.testing.assert_allclose(delayed[:, 0], [0.0, 0.0, 0.5, 2**1.5 / (2**1.5 + 1), 3**1.5 / (3**1.5 + 1)], rtol=1e-15)
    np.testing.assert_array_equal(delayed[2:, 0], plain[1:-1, 0])
    np.testing.assert_array_equal(delayed[:, 1:], plain[:, 1:])
    # a continued run's rows are the same rows (the schedule depends on t only)
    np.testing.assert_array_equal(dcfr_discounts(7, 3, *params), dcfr_discounts(1, 9, *params)[6:])

def test_unweighted_averaging_sums_the_strategies_played_whatever_the_reach():
    # with by_reach off every hand's column of a strategy-sum block adds one strategy (summing to
    # 1) per iteration, discounted as DCFR's schedule says; weighted by reach, the root's column
    # is that count times the hand's weight (OOP's reach at the root in every iteration)
    iterations = 5
    count = 0.0
    for average in dcfr_discounts(1, iterations, *DCFR)[:, 2]:
        count = count * average + 1.0
    for by_reach in (False, True):
        solver = PostflopSolver(reference_spot("QsJh2h8d3c", 0.67), dcfr=DCFR._replace(by_reach=by_reach))
        solver.run(iterations)
        for node in solver.tree.decision_nodes():
            _, base, (n_actions, n_hands) = solver._block(int(node), ())
            sums = solver._state.strategy_sums[int(solver.tree.actor[node])][base:base + n_actions * n_hands]
            columns = sums.reshape(n_actions, n_hands).astype(np.float64).sum(axis=0)
            if not by_reach:
                np.testing.assert_allclose(columns, count, rtol=1e-6)
            elif node == 0:
                np.testing.assert_allclose(columns, count * solver.weights[0], rtol=1e-6)


def test_modes_and_quantities_cannot_be_swapped():
    # both enums number their members from 0: a swap must fail, in Python and when compiling
    solver = PostflopSolver(reference_spot("QsJh2h8d3c", 0.67))
    with pytest.raises(TypeError, match="Mode member"):
        solver.root_values(0, Quantity.VALUE, Mode.EVALUATE)
    with pytest.raises(TypeError, match="Quantity member"):
        solver.root_values(0, Mode.EVALUATE, 0)
    with pytest.raises(ValueError, match="TRAIN"):
        solver.root_values(0, Mode.TRAIN, Quantity.VALUE)

    @numba.njit
    def compiled(mode):
        require_member(mode, Mode)
        return mode == Mode.TRAIN

    assert compiled(Mode.TRAIN)
    with pytest.raises(numba.core.errors.TypingError, match="Mode member"):
        compiled(Quantity.VALUE)


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs,message",
    [
        (dict(board=(0, 0, 5)), "appears twice"),
        (dict(stack=-1.0), "bad stack"),
        (dict(pot=0.0), "bad pot"),
        (dict(board=(0, 1)), "3, 4 or 5 cards"),
        (dict(oop_range=np.where(np.arange(1326) == parse_combo("QsQh"), 1.0, 0.0)), "empty after removing"),
        (dict(bet_tree=BetTree.uniform()), "no bet, raise or all-in"),
    ],
)
def test_bad_input_fails_clearly(kwargs, message):
    base = dict(pot=100.0, stack=200.0, board=tuple(parse_cards("QsJh2h")),
                oop_range=np.ones(1326), ip_range=np.ones(1326), bet_tree=BetTree.uniform(bets=(50,)))
    base.update(kwargs)
    with pytest.raises(ValueError, match=message):
        PostflopSpot(**base)


def test_bad_sizes_and_memory_cap_fail_clearly():
    with pytest.raises(ValueError, match="bad bet size"):
        StreetActions(bets=(-50,))
    with pytest.raises(ValueError, match="allin_threshold"):
        BetTree.uniform(bets=(50,), allin_threshold=0)
    with pytest.raises(ValueError, match="max_memory_mb"):
        PostflopSolver(reference_spot("QsJh2h", 1.0), max_memory_mb=1)


def test_combo_ids_of_results_are_ours():
    # every combo key is a canonical pokerlab id (higher card first, pair suits s > h > d > c)
    result = solve_spot(reference_spot("QsJh2h8d3c", 0.67), target_pct_pot=1.0)
    assert set(result.players["oop"].combos) <= set(COMBO_IDS)
    assert "QhQc" in result.players["oop"].combos and "QcQh" not in result.players["oop"].combos


# --- public chance sampling -----------------------------------------------------------------


def test_sampling_every_card_is_the_full_walk():
    # sampling all 48 (turn root) cards weighs each by 48/48: the same arithmetic as the full walk
    spot = reference_spot("QsJh2h8s", 1.0)
    full, sampled = PostflopSolver(spot), PostflopSolver(spot, sampled_cards=52, seed=7)
    full.run(15)
    sampled.run(15)
    assert all(np.array_equal(a, b) for a, b in zip(full.state().values(), sampled.state().values()))


def test_sampled_walk_values_are_unbiased():
    # a training walk's root values are an estimate of the full walk's on the current
    # strategies (Mode.CURRENT): their mean over many samples must match within its noise
    from pokerlab.postflop.passes import iterate

    spot = reference_spot("QsJh2h8d", 1.0)
    solver = PostflopSolver(spot)
    solver.run(20)
    saved = solver.state()
    exact = solver.root_values(1, Mode.CURRENT) - 0.5 * spot.pot * solver._compat[1]  # the walk's net values
    samples = []
    for seed in range(400):
        values = iterate(solver._plain_game, solver._plain_state, solver.weights, np.ones((1, 3)), int(Mode.TRAIN),
                         int(Quantity.VALUE), np.array([1]), solver._limits, 1, solver.ticks, (2, seed, 21))
        samples.append(values)
        solver.load_state(saved)  # the walk trained: undo it
    samples = np.array(samples)
    error = np.abs(samples.mean(axis=0) - exact)
    noise = samples.std(axis=0) / np.sqrt(len(samples))
    assert np.all(error <= 4.5 * noise + 1e-9)
    assert noise.max() > 0  # two river cards of 44 per walk: the samples do differ


@pytest.mark.skipif(numba.config.NUMBA_NUM_THREADS < 2, reason="needs 2 Numba threads")
def test_sampling_gives_the_same_bytes_on_any_thread_count():
    spot = reference_spot("QsJh2h", 1.0)
    states = []
    for threads in (1, 2):
        previous = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            solver = PostflopSolver(spot, sampled_cards=3, seed=11)
            solver.run(10)
        finally:
            numba.set_num_threads(previous)
        states.append(b"".join(a.tobytes() for a in solver.state().values()))
    assert states[0] == states[1]


def test_sampled_solve_approaches_the_full_solve():
    spot = reference_spot("QsJh2h8d", 1.0)
    full = solve_spot(spot, 0.05)
    solver = PostflopSolver(spot, sampled_cards=4, seed=3)
    solver.run(3000)
    assert 100 * solver.exploitability() / spot.pot < 2.0
    for name, p in (("oop", 0), ("ip", 1)):
        range_ev = float(solver.weights[p] @ solver.root_values(p)) / solver.pair_mass
        assert range_ev == pytest.approx(full.players[name].range_ev, abs=0.5)
