"""ICM: Malmuth-Harville against a permutation sum, payout structures, ICM payoffs against an
outcome-by-outcome reference, prize conservation, and the ICM solver against brute-force CFR+."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.icm import (MAX_PLAYERS, PayoutStructure, hand_end_equity, icm_equity, icm_equity_batch,
                          load_payouts, parse_payouts)
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.payoffs_icm import icm_payoffs
from pokerlab.preflop.readout import read_out
from pokerlab.preflop.solve import SolveSettings, solve_spot
from pokerlab.preflop.solver import Solver
from pokerlab.preflop.solver_icm import IcmSolver, make_solver
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree, postflop_order
from test_payoffs import random_edges, random_tables
from test_solver import ReferenceCFRPlus, assert_matches_brute_force

SIZING = load_sizing()
MODEL = PostflopModel()
PAYOUTS = load_payouts()


def permutation_icm(stacks, payouts):
    """Malmuth-Harville by summing over every finishing order: P(order) = prod s_k / remaining."""
    stacks = np.asarray(stacks, dtype=float)
    n = stacks.size
    prizes = list(payouts) + [0.0] * n
    out = np.zeros(n)
    for order in itertools.permutations(range(n)):
        p, left = 1.0, stacks.sum()
        for i in order:
            p *= stacks[i] / left
            left -= stacks[i]
        for place, i in enumerate(order):
            out[i] += p * prizes[place]
    return out


# --- Malmuth-Harville --------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 6, 9, 10])
def test_equal_stacks_get_equal_shares(n):
    for payouts in ([1.0], [50, 30, 20], PAYOUTS["icm_bubble"].payouts, PAYOUTS["icm_final"].payouts):
        got = icm_equity(np.full(n, 17.5), payouts)
        assert got == pytest.approx(np.full(n, sum(list(payouts)[:n]) / n), rel=1e-12)


def test_a_player_with_all_the_chips_gets_first_prize():
    prizes = PAYOUTS["icm_final"].payouts
    got = icm_equity([0, 0, 90, 0, 0, 0, 0, 0, 0], prizes)
    assert got[2] == prizes[0]
    # the others tie for places 2..9
    assert np.delete(got, 2) == pytest.approx(np.full(8, np.mean(prizes[1:])))


def test_total_equity_is_the_prize_pool():
    rng = np.random.default_rng(5)
    for n in range(2, MAX_PLAYERS + 1):
        stacks = rng.uniform(0.5, 60, (20, n))
        payouts = np.sort(rng.uniform(0, 10, rng.integers(1, n + 3)))[::-1]
        got = icm_equity_batch(stacks, payouts)
        assert got.sum(axis=1) == pytest.approx(np.full(20, payouts[:n].sum()), rel=1e-12)
        assert np.all(got >= 0)


def test_winner_takes_all_is_chip_share():
    rng = np.random.default_rng(6)
    for _ in range(10):
        stacks = rng.uniform(0.1, 100, 2)
        assert icm_equity(stacks, [7.0]) == pytest.approx(7.0 * stacks / stacks.sum(), rel=1e-12)
    stacks = rng.uniform(0.1, 100, 7)
    assert icm_equity(stacks, [1.0]) == pytest.approx(stacks / stacks.sum(), rel=1e-12)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6])
def test_malmuth_harville_equals_the_permutation_sum(n):
    rng = np.random.default_rng(n)
    for _ in range(5):
        stacks = rng.uniform(0.5, 50, n)
        payouts = np.sort(rng.uniform(0, 100, rng.integers(1, n + 1)))[::-1]
        assert icm_equity(stacks, payouts) == pytest.approx(permutation_icm(stacks, payouts), rel=1e-11)


def test_the_big_stack_is_worth_less_than_its_chips_under_a_flat_payout():
    got = icm_equity([50, 25, 25], [50, 30, 20])
    assert got[0] < 50 and got[1] > 25 and got.sum() == pytest.approx(100)


def test_busted_players_are_ranked_by_their_stack_before_the_hand():
    # seats 0 and 2 bust in the same hand; seat 2 started bigger, so it takes 3rd, seat 0 4th
    got = hand_end_equity([10, 10, 11, 10], [[0, 31, 0, 10]], [50, 30, 20])[0]
    assert got[0] == 0 and got[2] == 20
    assert got[[1, 3]] == pytest.approx(permutation_icm([31, 10], [50, 30]))
    # equal starting stacks split the places they share
    got = hand_end_equity([10, 10, 10, 10], [[0, 30, 0, 10]], [50, 30, 20])[0]
    assert got[0] == got[2] == 10


def test_chop_is_worth_more_than_the_mean_of_win_and_lose_under_a_steep_payout():
    """Final table, all stacks 20bb: a heads-up all-in for the whole stack, valued three ways."""
    prizes = PAYOUTS["icm_final"].payouts
    start = np.full(9, 20.0)
    win, chop, lose = start.copy(), start.copy(), start.copy()
    win[[0, 1]] = [40, 0]
    lose[[0, 1]] = [0, 40]
    values = hand_end_equity(start, np.array([win, chop, lose]), prizes)[:, 0]
    assert values[1] > (values[0] + values[2]) / 2 + 1.0  # by more than a prize unit
    # the same statement inside the payoffs of an icm_final tree: for seat 0 the tie
    # coefficient (value of a chop over a loss) exceeds half the win coefficient
    tree = build_tree(Spot("mtt", 9, 20), SIZING)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS["icm_final"])
    z = int(np.flatnonzero(payoffs.nodes == tree.index["AFFFFFFFC"])[0])
    t = np.flatnonzero((payoffs.term_ending == z) & (payoffs.term_seat == 0))
    assert t.size == 1 and payoffs.term_tie[t[0]] > payoffs.term_win[t[0]] / 2 > 0


def test_bad_input_is_named():
    with pytest.raises(ValueError, match="limited to 10"):
        icm_equity(np.ones(11), [1.0])
    with pytest.raises(ValueError, match="stacks"):
        icm_equity([1.0, -1.0], [1.0])
    with pytest.raises(ValueError, match="positive stack"):
        icm_equity([0.0, 0.0], [1.0])
    with pytest.raises(ValueError, match="payouts"):
        icm_equity([1.0, 1.0], [])
    with pytest.raises(ValueError, match="non-increasing"):
        PayoutStructure("x", 3, (1.0, 2.0))
    with pytest.raises(ValueError, match="players_left"):
        parse_payouts({"x": {"players_left": 11, "prizes": [1]}})
    with pytest.raises(ValueError, match="paid places"):
        parse_payouts({"x": {"players_left": 2, "prizes": [3, 2, 1]}})
    with pytest.raises(ValueError, match="keys"):
        parse_payouts({"x": {"players": 2, "prizes": [1]}})
    with pytest.raises(ValueError, match="cannot fill"):
        icm_payoffs(build_tree(Spot("mtt", 6, 10), SIZING), MODEL, PayoutStructure("x", 4, (1.0,)))


def test_named_structures_have_the_documented_shape():
    bubble, final = PAYOUTS["icm_bubble"], PAYOUTS["icm_final"]
    assert bubble.players_left == 10 and len(bubble.payouts) == 9
    assert bubble.payouts[0] == 2 * bubble.payouts[-1]  # flat: first pays twice ninth
    assert final.players_left == 9 and len(final.payouts) == 9
    assert final.payouts[0] == 11 * final.payouts[-1]


# --- ICM payoffs --------------------------------------------------------------------------------


_ICM_CACHE: dict = {}


def reference_payoffs(tree, structure, hands, win, tie, edges=None):
    """Each ending valued outcome by outcome with the permutation ICM (no shared code below the
    tree): the random-duel rule for two or three seats, the edge moved onto a seat's outright win;
    ``edges`` (model v2's class table): each duel also moves (d_a - d_b) / pairs from b's outright
    win onto a's."""
    n, depth = tree.seats, tree.spot.depth
    start = np.full(structure.players_left, depth)
    start[n - 1] += tree.spot.ante
    scale = start.sum() / sum(structure.payouts)

    def value(final):
        alive = final > 0
        out = np.zeros(final.size)
        out[alive] = permutation_icm(final[alive], structure.payouts)
        if not alive.all():
            out[~alive] = np.mean((list(structure.payouts) + [0.0] * final.size)[alive.sum():final.size])
        return out

    def value_cached(final):
        key = (final.tobytes(), structure.payouts)
        if key not in _ICM_CACHE:
            _ICM_CACHE[key] = value(final)
        return _ICM_CACHE[key]

    before = value(start)
    rows = []
    for k in tree.endings:
        node = tree.nodes[k]
        base = start.copy()
        base[:n] -= node.contrib
        players = sorted(node.players_in, key=lambda s: postflop_order(s, n))
        outcomes = []  # (probability, final stacks)
        if node.kind == "fold":
            final = base.copy()
            final[players[0]] += node.pot
            outcomes.append((1.0, final))
        else:
            played, edge = node.pot, 0.0
            if node.kind == "flop":
                spr = node.behind / node.pot
                extra = MODEL.commitment(spr) * node.behind
                base[players] -= extra
                played += len(players) * extra
                edge = MODEL.edge(spr)
            pairs = list(itertools.combinations(players, 2))
            for a, b in pairs:
                w, t = win[hands[a], hands[b]], tie[hands[a], hands[b]]
                for p, shares in ((w, {a: 1}), (1 - w - t, {b: 1}), (t, {a: 0.5, b: 0.5})):
                    final = base.copy()
                    for s, x in shares.items():
                        final[s] += x * played
                    outcomes.append((p / len(pairs), final))
            for s, e in ((players[0], -edge), (players[-1], edge)):
                final = base.copy()
                final[s] += played
                outcomes.append((e, final))
            if edges is not None and node.kind == "flop":
                d = dict(zip(players, edges.vectors(spr, len(players))))
                for a, b in pairs:
                    shift = (d[a][hands[a]] - d[b][hands[b]]) / len(pairs)
                    for p, winner in ((shift, a), (-shift, b)):
                        final = base.copy()
                        final[winner] += played
                        outcomes.append((p, final))
        rows.append(sum(p * (value_cached(f) - before) for p, f in outcomes) * scale)
    rows = np.array(rows)
    return rows[:, :n], rows[:, n:].sum(axis=1)


@pytest.mark.parametrize("spot", [Spot("mtt", 2, 10), Spot("mtt", 3, 15), Spot("mtt", 4, 40)], ids=lambda s: s.name)
def test_payoffs_equal_the_outcome_by_outcome_reference(spot):
    tree = build_tree(spot, SIZING)
    structure = PayoutStructure("six_left", 6, (50.0, 30.0, 20.0))
    payoffs = icm_payoffs(tree, MODEL, structure)
    win, tie = random_tables(cards.N_CLASSES, 7)
    rng = np.random.default_rng(7)
    for _ in range(3):
        hands = rng.integers(0, cards.N_CLASSES, spot.seats)
        seats, field = reference_payoffs(tree, structure, hands, win, tie)
        np.testing.assert_allclose(payoffs.hand_payoffs(hands, win, tie), seats, rtol=0, atol=1e-9)
        np.testing.assert_allclose(payoffs.field_payoffs(hands, win, tie), field, rtol=0, atol=1e-9)
    assert set(np.unique(payoffs.tier)) >= {1, 2, 4}


@pytest.mark.parametrize("spot", [Spot("mtt", 2, 20), Spot("mtt", 6, 10), Spot("mtt", 9, 40)], ids=lambda s: s.name)
@pytest.mark.parametrize("name", ["icm_bubble", "icm_final"])
@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_prize_equity_is_conserved_at_every_ending(spot, name, v2):
    """Table seats (folded ones included) plus the players off the table gain nothing in total,
    under model v1 and under v2 with a random class table."""
    if PAYOUTS[name].players_left < spot.seats:
        pytest.skip("table larger than the field")
    tree = build_tree(spot, SIZING)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS[name], random_edges(cards.N_CLASSES, spot.seats) if v2 else None)
    assert not v2 or np.any(payoffs.term_class != 0)
    win, tie = random_tables(cards.N_CLASSES, spot.seats)
    rng = np.random.default_rng(0)
    for _ in range(5):
        hands = rng.integers(0, cards.N_CLASSES, spot.seats)
        total = payoffs.hand_payoffs(hands, win, tie).sum(axis=1) + payoffs.field_payoffs(hands, win, tie)
        assert np.abs(total).max() < 1e-9


@pytest.mark.parametrize("v2", [False, True], ids=["v1", "v2"])
def test_winner_takes_all_payoffs_are_the_chip_ev_payoffs(v2):
    edges = random_edges(cards.N_CLASSES, 5) if v2 else None
    for spot in (Spot("mtt", 2, 10), Spot("mtt", 6, 20)):
        tree = build_tree(spot, SIZING)
        icm = icm_payoffs(tree, MODEL, PayoutStructure("wta", 8, (1.0,)), edges)
        chips = chip_ev_payoffs(tree, MODEL, edges)
        win, tie = random_tables(cards.N_CLASSES, 3)
        for hands in np.random.default_rng(3).integers(0, cards.N_CLASSES, (5, spot.seats)):
            np.testing.assert_allclose(icm.hand_payoffs(hands, win, tie), chips.hand_payoffs(hands, win, tie), atol=1e-9)


def test_payoffs_depend_only_on_the_hands_of_the_seats_in_the_hand():
    tree = build_tree(Spot("mtt", 6, 20), SIZING)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS["icm_bubble"])
    again = icm_payoffs(build_tree(Spot("mtt", 6, 20), SIZING), MODEL, PAYOUTS["icm_bubble"])
    win, tie = random_tables(cards.N_CLASSES, 1)
    hands = np.array([0, 14, 28, 100, 168, 5])
    first = payoffs.hand_payoffs(hands, win, tie)
    assert np.array_equal(first, again.hand_payoffs(hands.copy(), win, tie))
    other = hands.copy()
    other[0] = 1
    moved = np.any(payoffs.hand_payoffs(other, win, tie) != first, axis=1)
    in_showdown = np.array([0 in tree.nodes[k].players_in and len(tree.nodes[k].players_in) > 1 for k in payoffs.nodes])
    assert np.array_equal(moved, in_showdown)  # seat 0's hand moves exactly the showdowns it is in
    # ... and there it moves the folded seats' equity too (a bust on the bubble helps them)
    z = int(np.flatnonzero(payoffs.nodes == tree.index["AFFFFC"])[0])
    assert first[z, 1] != payoffs.hand_payoffs(other, win, tie)[z, 1]


def test_calling_off_a_stack_on_the_bubble_gains_little_and_risks_much():
    """10bb 6-max on the bubble, UTG jams and the BB calls: doubling up gains far less than busting
    loses (in chips: +10.5bb against -11bb)."""
    tree = build_tree(Spot("mtt", 6, 10), SIZING)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS["icm_bubble"])
    z = int(np.flatnonzero(payoffs.nodes == tree.index["AFFFFC"])[0])
    win = np.array([[0.5, 1.0], [0.0, 0.5]])  # class 0 always beats class 1
    no_tie = np.zeros((2, 2))
    bb_wins = payoffs.hand_payoffs(np.array([1, 0, 0, 0, 0, 0]), win, no_tie)[z, 5]
    bb_loses = payoffs.hand_payoffs(np.array([0, 0, 0, 0, 0, 1]), win, no_tie)[z, 5]
    assert 0 < bb_wins < 10.5 / 2
    assert bb_loses < -2 * bb_wins


# --- the solver ---------------------------------------------------------------------------------


@pytest.mark.parametrize("spot, shove_or_fold, m, name", [
    (Spot("mtt", 2, 10), False, 3, "icm_bubble"),
    (Spot("mtt", 3, 10), True, 3, "icm_final"),
    (Spot("mtt", 3, 12), False, 2, "icm_bubble"),
    (Spot("mtt", 4, 8), True, 2, "icm_final"),
], ids=lambda x: getattr(x, "name", str(x)))
def test_icm_solver_matches_brute_force_cfr_plus(spot, shove_or_fold, m, name):
    """The reference walks every deal and reads every seat's payoff (folded seats' ICM
    included) from ``hand_payoffs``: regrets, sums, values and exploitability must agree."""
    tree = build_tree(spot, SIZING, shove_or_fold=shove_or_fold)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS[name])
    win, tie = random_tables(m, 11)
    prior = np.random.default_rng(11).uniform(0.5, 1.5, m)
    prior /= prior.sum()
    assert_matches_brute_force(tree, payoffs, win, tie, prior, solver_class=IcmSolver)


def test_the_chip_solver_would_get_folded_seats_wrong():
    """Control: the chip solver, given the same ICM payoffs, disagrees with the reference (it
    values a fold as the lost contribution), so the test above can tell the two apart."""
    tree = build_tree(Spot("mtt", 3, 10), SIZING, shove_or_fold=True)
    payoffs = icm_payoffs(tree, MODEL, PAYOUTS["icm_bubble"])
    win, tie = random_tables(3, 11)
    prior = np.full(3, 1 / 3)
    ref = ReferenceCFRPlus(tree, payoffs, win, tie, prior)
    chip, icm = Solver(tree, payoffs, win, tie, prior), IcmSolver(tree, payoffs, win, tie, prior)
    assert icm.exploitability()[1][0] == pytest.approx(ref.exploitability(0)[1], abs=1e-12)
    assert abs(chip.exploitability()[1][0] - ref.exploitability(0)[1]) > 1e-3


def call_shares(tree, table, node_id, iterations, bar):
    """Share of deals (prior weighted) taking the edge into ``node_id`` under chip EV and on
    the bubble, each solved to ``iterations`` and checked against ``bar``."""
    shares = {}
    for name, solver in (("mtt", Solver(tree, chip_ev_payoffs(tree, MODEL), table.win, table.tie)),
                         ("bubble", IcmSolver(tree, icm_payoffs(tree, MODEL, PAYOUTS["icm_bubble"]), table.win, table.tie))):
        solver.iterate(iterations)
        assert solver.exploitability()[0].max() < bar
        shares[name] = float(cards.CLASS_PRIOR @ solver.average_sigma()[tree.index[node_id]])
    return shares


def test_bubble_calls_tighter_than_chip_ev(equity_table):
    """Heads-up push/fold at 10bb with eight players off the table: the big blind calls a
    shove with fewer hands on the bubble than in chips."""
    shares = call_shares(build_tree(Spot("mtt", 2, 10), SIZING, shove_or_fold=True), equity_table, "AC", 300, 0.005)
    assert shares["bubble"] < shares["mtt"] - 0.1


def test_readout_of_an_icm_solve_agrees_with_its_values(equity_table):
    tree = build_tree(Spot("mtt", 3, 10), SIZING)
    solver = IcmSolver(tree, icm_payoffs(tree, MODEL, PAYOUTS["icm_final"]), equity_table.win, equity_table.tie)
    solver.iterate(30)
    readout = read_out(solver)
    _, profile = solver.exploitability()
    np.testing.assert_allclose(readout.seat_ev, profile, rtol=0, atol=1e-12)
    for node in readout.nodes:
        reached = ~np.isnan(node.node_ev)
        np.testing.assert_allclose((node.strategy * node.action_ev).sum(axis=1)[reached], node.node_ev[reached], atol=1e-9)


def test_make_solver_keeps_chip_formats_on_the_chip_solver():
    win, tie = random_tables(cards.N_CLASSES, 2)
    solver, info = make_solver(build_tree(Spot("mtt", 2, 10), SIZING), MODEL, win, tie)
    assert type(solver) is Solver and info == {"model": "chip_ev", "unit": "bb"}


@pytest.mark.slow
def test_six_max_bubble_blind_battle_is_tighter_than_chip_ev(equity_table):
    """6-max 10bb, folded to the small blind's all-in: the big blind calls less on the bubble."""
    shares = call_shares(build_tree(Spot("mtt", 6, 10), SIZING), equity_table, "FFFFAC", 400, 0.0173)
    assert shares["bubble"] < shares["mtt"] / 2


def test_icm_formats_run_through_solve_spot(equity_table):
    """Same schedule, read-out and result document as chip EV; the payoff model is stated."""
    settings = SolveSettings(checkpoints=(100, 200))
    chip = solve_spot(Spot("mtt", 2, 10), SIZING, equity_table.win, equity_table.tie, settings, shove_or_fold=True)
    icm = solve_spot(Spot("icm_bubble", 2, 10), SIZING, equity_table.win, equity_table.tie, settings, shove_or_fold=True)
    assert icm["status"] == "shipped" and icm["spot"]["ante_bb"] == 1.0
    assert chip["settings"]["payoff"] == {"model": "chip_ev", "unit": "bb"}
    payoff = icm["settings"]["payoff"]
    assert payoff["model"] == "icm_malmuth_harville" and payoff["unit"].startswith("bb-equivalent")
    assert payoff["structure"] == PAYOUTS["icm_bubble"].as_dict()
    call_share = lambda result: next(n for n in result["nodes"] if n["id"] == "A")["shares"]["C"]  # noqa: E731
    assert call_share(icm) < call_share(chip) / 2
    solver, _ = make_solver(build_tree(Spot("icm_final", 3, 10), SIZING), MODEL, equity_table.win, equity_table.tie)
    assert isinstance(solver, IcmSolver)
