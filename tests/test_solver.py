"""The CFR+ solver: an independent brute-force reference, exact exploitability, convergence,
the push/fold anchor, indifference of mixed hands, the read-out and resumable solves."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np
import pytest

from pokerlab import cards
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.readout import read_out
from pokerlab.preflop.solve import SolveSettings, result_bytes, solve_spot
from pokerlab.preflop.solver import Solver
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree
from test_payoffs import random_tables

SIZING = load_sizing()
MODEL = PostflopModel()


# --- an independent reference: CFR+ by walking every deal of a tiny game -------------------


class ReferenceCFRPlus:
    """CFR+ on explicit deals (every seat's hand drawn from ``prior``), dictionaries and
    recursion, no vectorisation: slow and obviously right. ``scheme`` is "alternating" (seats
    updated in order within an iteration) or "simultaneous"."""

    def __init__(self, tree, payoffs, win, tie, prior, scheme="alternating"):
        self.tree, self.prior, self.scheme = tree, prior, scheme
        self.n, self.m = tree.seats, prior.size
        self.deals = list(itertools.product(range(self.m), repeat=self.n))
        self.pay = {d: payoffs.hand_payoffs(np.array(d), win, tie) for d in self.deals}
        self.ending_row = {int(k): z for z, k in enumerate(payoffs.nodes)}
        self.regrets = {(k, c): np.zeros(len(tree.nodes[k].actions)) for k in tree.decisions for c in range(self.m)}
        self.sums = {key: np.zeros_like(r) for key, r in self.regrets.items()}
        self.t = 0

    def children(self, k):
        node = self.tree.nodes[k]
        return [self.tree.index[node.id + a] for a in node.actions]

    @staticmethod
    def matching(r):
        pos = np.maximum(r, 0)
        return pos / pos.sum() if pos.sum() > 0 else np.full(r.size, 1 / r.size)

    def current(self, k, c):
        return self.matching(self.regrets[(k, c)])

    def average(self, k, c):
        return self.matching(self.sums[(k, c)])

    def node_value(self, k, deal, seat, policy):
        """Seat's expected payoff below node k for a fixed deal, everyone playing ``policy``."""
        if k in self.ending_row:
            return self.pay[deal][self.ending_row[k], seat]
        strat = policy(k, deal[self.tree.nodes[k].actor])
        return sum(s * self.node_value(ch, deal, seat, policy) for s, ch in zip(strat, self.children(k)))

    def own_reach(self, k, seat, c, policy):
        reach, node_id = 1.0, self.tree.nodes[k].id
        for depth in range(len(node_id)):
            parent = self.tree.nodes[self.tree.index[node_id[:depth]]]
            if parent.actor == seat:
                reach *= policy(self.tree.index[parent.id], c)[parent.actions.index(node_id[depth])]
        return reach

    def counterfactual(self, k, seat, c, policy):
        """Action values at (k, seat's class c): expected payoff of each child weighted by the
        others' priors and reach to k (own prior left out)."""
        out = np.zeros(len(self.tree.nodes[k].actions))
        for deal in self.deals:
            if deal[seat] != c:
                continue
            w = np.prod([self.prior[deal[j]] * self.own_reach(k, j, deal[j], policy) for j in range(self.n) if j != seat])
            out += w * np.array([self.node_value(ch, deal, seat, policy) for ch in self.children(k)])
        return out

    def iterate(self):
        self.t += 1
        groups = [range(self.n)] if self.scheme == "simultaneous" else [[s] for s in range(self.n)]
        for group in groups:
            frozen = {key: self.current(*key) for key in self.regrets}
            policy = lambda k, c: frozen[(k, c)]  # noqa: E731
            updates = {}
            for k in self.tree.decisions:
                seat = self.tree.nodes[k].actor
                if seat not in group:
                    continue
                for c in range(self.m):
                    values = self.counterfactual(k, seat, c, policy)
                    strat = frozen[(k, c)]
                    updates[(k, c)] = (np.maximum(self.regrets[(k, c)] + values - strat @ values, 0),
                                       self.t * self.own_reach(k, seat, c, policy) * strat)
            for key, (regret, add) in updates.items():
                self.regrets[key] = regret
                self.sums[key] = self.sums[key] + add

    def exploitability(self, seat):
        policy = self.average

        def best(k, c):
            if k in self.ending_row:
                return self.cf_ending(k, seat, c, policy)
            vals = [best(ch, c) for ch in self.children(k)]
            return max(vals) if self.tree.nodes[k].actor == seat else sum(vals)

        br = sum(self.prior[c] * best(0, c) for c in range(self.m))
        value = sum(np.prod([self.prior[x] for x in d]) * self.node_value(0, d, seat, policy) for d in self.deals)
        return br - value, value

    def cf_ending(self, k, seat, c, policy):
        return sum(np.prod([self.prior[d[j]] * self.own_reach(k, j, d[j], policy) for j in range(self.n) if j != seat])
                   * self.pay[d][self.ending_row[k], seat] for d in self.deals if d[seat] == c)


TINY_GAMES = [
    (Spot("cash", 2, 100), False, 3),
    (Spot("cash", 3, 10), True, 3),
    (Spot("mtt", 3, 12), False, 2),
    (Spot("cash", 4, 8), True, 2),
]


def random_prior(m, seed):
    """A random class prior over ``m`` classes (sums to 1)."""
    prior = np.random.default_rng(seed).uniform(0.5, 1.5, m)
    return prior / prior.sum()


def tiny(spot, shove_or_fold, m, seed=11):
    tree = build_tree(spot, SIZING, shove_or_fold=shove_or_fold)
    payoffs = chip_ev_payoffs(tree, MODEL)
    win, tie = random_tables(m, seed)
    return tree, payoffs, win, tie, random_prior(m, seed)


def assert_matches_brute_force(tree, payoffs, win, tie, prior, iterations=3, solver_class=Solver):
    """The solver (``solver_class``) and the brute-force reference, run side by side, stay equal (see below)."""
    solver = solver_class(tree, payoffs, win, tie, prior)
    ref = ReferenceCFRPlus(tree, payoffs, win, tie, prior)
    for _ in range(iterations):
        solver.iterate()
        ref.iterate()
    assert_matches_reference(solver, ref)


def assert_matches_reference(solver, ref):
    """Regrets, strategy sums, values and exploitability of ``solver`` equal the reference's."""
    for groups in solver.groups:
        for g in groups:
            for row, k in enumerate(g.nodes):
                for c in range(ref.m):
                    np.testing.assert_allclose(g.regrets[row, :, c], ref.regrets[(k, c)], rtol=1e-10, atol=1e-12)
                    np.testing.assert_allclose(g.strategy_sum[row, :, c], ref.sums[(k, c)], rtol=1e-10, atol=1e-12)
    gains, values = solver.exploitability()
    for seat in range(ref.n):
        ref_gain, ref_value = ref.exploitability(seat)
        assert gains[seat] == pytest.approx(ref_gain, abs=1e-10)
        assert values[seat] == pytest.approx(ref_value, abs=1e-10)


@pytest.mark.parametrize("spot, shove_or_fold, m", TINY_GAMES, ids=lambda x: getattr(x, "name", str(x)))
def test_solver_matches_brute_force_alternating_cfr_plus(spot, shove_or_fold, m):
    assert_matches_brute_force(*tiny(spot, shove_or_fold, m))


def test_win_and_tie_weighted_apart_use_two_tables():
    """A payoff that values a tie other than half a win (as ICM will) takes the two-table path;
    it must still match the brute-force reference."""
    tree, payoffs, win, tie, prior = tiny(Spot("cash", 3, 10), True, 3)
    payoffs = dataclasses.replace(payoffs, term_tie=0.3 * payoffs.term_win)
    solver = Solver(tree, payoffs, win, tie, prior)
    assert len(solver._tables_t) == 2
    ref = ReferenceCFRPlus(tree, payoffs, win, tie, prior)
    for _ in range(3):
        solver.iterate()
        ref.iterate()
    for seat in range(3):
        assert solver.exploitability()[0][seat] == pytest.approx(ref.exploitability(seat)[0], abs=1e-12)


def test_update_scheme_is_alternating_not_simultaneous():
    """The reference run simultaneously disagrees with the solver: the test above can tell."""
    tree, payoffs, win, tie, prior = tiny(Spot("cash", 2, 100), False, 3)
    solver = Solver(tree, payoffs, win, tie, prior)
    ref = ReferenceCFRPlus(tree, payoffs, win, tie, prior, scheme="simultaneous")
    for _ in range(2):
        solver.iterate()
        ref.iterate()
    bb_group = solver.groups[1][0]
    k = int(bb_group.nodes[0])
    assert not np.allclose(bb_group.regrets[0, :, 0], ref.regrets[(k, 0)])


def test_leaf_values_are_linear_in_every_seats_range():
    """Counterfactual leaf values under arbitrary strategies equal the explicit average of the
    hand payoffs over all deals (the solver sees hands, never ranges); below a seat's fold its
    value is minus what it put in times the chance the others get there."""
    tree, payoffs, win, tie, prior = tiny(Spot("cash", 3, 15), False, 3)
    solver = Solver(tree, payoffs, win, tie, prior)
    rng = np.random.default_rng(5)
    sigma = rng.uniform(0, 1, (tree.n_nodes, 3))
    sums = np.zeros_like(sigma)
    np.add.at(sums, tree.parent[1:], sigma[1:])
    sigma[1:] /= sums[tree.parent[1:]]  # a behaviour strategy: sums to one at every node
    reach = solver.reach_under(sigma)
    deals = list(itertools.product(range(3), repeat=3))
    pay = {d: payoffs.hand_payoffs(np.array(d), win, tie) for d in deals}
    row = {int(k): z for z, k in enumerate(payoffs.nodes)}
    for seat in range(3):
        nodes, got = solver.leaf_values(seat, reach)
        assert nodes.size > 0
        for k, values in zip(nodes, got):
            want = np.zeros(3)
            for deal in deals:
                w = np.prod([prior[deal[j]] * reach[j][k, deal[j]] for j in range(3) if j != seat])
                if seat in tree.nodes[k].players_in:
                    want[deal[seat]] += w * pay[deal][row[int(k)], seat]
                else:
                    want[deal[seat]] -= w * tree.nodes[k].contrib[seat]
            np.testing.assert_allclose(values, want, rtol=1e-12, atol=1e-13)


# --- real 169-class solves ------------------------------------------------------------------


def make_solver(equity_table, spot, shove_or_fold=False):
    tree = build_tree(spot, SIZING, shove_or_fold=shove_or_fold)
    return Solver(tree, chip_ev_payoffs(tree, MODEL), equity_table.win, equity_table.tie)


@pytest.fixture(scope="module")
def pushfold_10bb(equity_table):
    solver = make_solver(equity_table, Spot("cash", 2, 10), shove_or_fold=True)
    solver.iterate(3000)
    return solver


def test_heads_up_shove_or_fold_10bb_solves_to_five_decimals(pushfold_10bb):
    gains, values = pushfold_10bb.exploitability()
    assert np.all(gains >= 0) and gains.max() < 1e-5
    assert values.sum() == pytest.approx(0.0, abs=1e-12)


def test_heads_up_pushing_range_has_the_published_shape(pushfold_10bb):
    push = pushfold_10bb.average_sigma()[pushfold_10bb.tree.index["A"]]  # SB's all-in frequency per class
    grid = push.reshape(13, 13)
    pairs = np.diag(grid)
    assert np.all(pairs > 0.999)  # every pair jams
    assert grid[0, 0] > 0.999 and push[cards.parse_class("72o")] < 1e-3
    aces = np.r_[grid[0, 1:], grid[1:, 0]]  # suited and offsuit aces
    assert np.mean(aces > 0.999) >= 0.9
    for hi in range(13):
        suited, offsuit = grid[hi, hi + 1:], grid[hi + 1:, hi]  # kickers from high to low
        assert np.all(np.diff(suited) <= 1e-3) and np.all(np.diff(offsuit) <= 1e-3)  # weaker kicker, no more pushing
        assert np.all(suited >= offsuit - 1e-3)  # suited at least as often as offsuit
    assert np.all(np.diff(pairs) <= 1e-3)


@pytest.fixture(scope="module")
def heads_up_100bb(equity_table):
    solver = make_solver(equity_table, Spot("cash", 2, 100))
    history = []
    for target in (400, 1200, 3000):
        solver.iterate(target - solver.iteration)
        history.append(solver.exploitability()[0])
    return solver, history


def test_exploitability_is_non_negative_and_falls(heads_up_100bb):
    _, history = heads_up_100bb
    assert all(np.all(g >= 0) for g in history)
    assert history[0].max() > history[1].max() > history[2].max()
    assert history[2].max() <= 0.010  # the heads-up bar


def check_mixed_hands_are_indifferent(solver, tolerance_bb=0.05, min_weight=1e-5):
    """Every class arriving at a node with >= 10% probability and playing two actions >= 5%
    each there has action EVs within ``tolerance_bb``. Returns the largest gap and the count.

    The tolerance and the exploitability: moving the >= 5% weight of the worse action to the
    better one at (node h, class c) alone gains at least 0.05 * gap * w bb/hand, where
    w = reach(h) * arrive_with(c) is the share of deals in which the actor holds c at h; a best
    response gains at least that, so gap <= exploitability / (0.05 * w). That inequality is
    asserted for every pair. The 0.05bb demand is checked where it is observable: at
    w >= ``min_weight`` (1e-5), a 0.05bb gap is worth 2.5e-8 bb/hand or more. Below that, a gap
    costs less than 1e-4 of a converged spot's exploitability (~5e-4 bb/hand), no best
    response can see it, and CFR's average strategy keeps early-iteration mixing there
    (at 6-max 1,200 iterations: gaps up to ~1bb at w ~ 1e-6, at nodes reached 1e-6 of deals)."""
    gains, _ = solver.exploitability()
    readout = read_out(solver)
    worst, checked = 0.0, 0
    for node in readout.nodes:
        if len(node.actions) < 2:
            continue
        for c in np.flatnonzero(node.arrive_with >= 0.10):
            played = np.flatnonzero(node.strategy[c] >= 0.05)
            weight = node.reach * node.arrive_with[c]
            if played.size >= 2 and np.isfinite(node.action_ev[c]).all():
                evs = node.action_ev[c, played]
                gap = evs.max() - evs.min()
                assert 0.05 * gap * weight <= gains[node.actor] + 1e-12
                if weight >= min_weight:
                    worst, checked = max(worst, gap), checked + 1
    assert worst < tolerance_bb
    return worst, checked


def test_a_mixed_hand_is_an_indifferent_hand_heads_up(heads_up_100bb):
    _, checked = check_mixed_hands_are_indifferent(heads_up_100bb[0])
    assert checked > 0


def test_readout_is_consistent(heads_up_100bb):
    solver, _ = heads_up_100bb
    readout = read_out(solver)
    gains, values = solver.exploitability()
    np.testing.assert_allclose(readout.seat_ev, values, atol=1e-12)
    assert readout.seat_ev.sum() == pytest.approx(0.0, abs=1e-12)  # chips conserved overall
    assert sum(readout.tier_shares.values()) == pytest.approx(1.0, abs=1e-12)
    assert readout.model_share == readout.tier_shares["flop"]
    root = readout.nodes[0]
    assert solver.prior @ root.node_ev == pytest.approx(readout.seat_ev[0], abs=1e-12)
    assert root.reach == pytest.approx(1.0) and np.allclose(root.arrive_with, solver.prior)
    for node in readout.nodes:
        np.testing.assert_allclose(node.strategy.sum(axis=1), 1.0, atol=1e-12)  # strategies sum to 1
        np.testing.assert_allclose((node.strategy * node.action_ev).sum(axis=1), node.node_ev, atol=1e-9)
        assert node.arrive_with.sum() == pytest.approx(1.0) and node.action_shares().sum() == pytest.approx(1.0)
    # the SB's fold is worth exactly -0.5bb whatever it holds
    assert np.allclose(root.action_ev[:, 0], -0.5)


def test_a_node_the_actor_never_plays_to_arrives_with_the_prior(equity_table, monkeypatch):
    """An average strategy that never limps (a second-half average can zero an action out) leaves the
    small blind's nodes after its limp unreached by its own play: they arrive with the deal's prior,
    where the division by its own reach gives 0 / 0; every node's arrival stays a distribution."""
    solver = make_solver(equity_table, Spot("cash", 2, 100))
    solver.iterate(20)
    sigma = solver.average_sigma()
    limp, raise_ = solver.tree.index["C"], solver.tree.index["R"]
    sigma[raise_] += sigma[limp]  # every limp becomes a raise
    sigma[limp] = 0.0
    monkeypatch.setattr(solver, "average_sigma", lambda: sigma)
    nodes = read_out(solver).nodes
    unreached = [node for node in nodes if node.id.startswith("C") and node.actor == 0]
    assert unreached and all(node.class_reach.max() == 0.0 for node in unreached)
    for node in unreached:
        np.testing.assert_array_equal(node.arrive_with, solver.prior)
    for node in nodes:
        assert np.isfinite(node.arrive_with).all() and node.arrive_with.sum() == pytest.approx(1.0)


def test_current_strategies_sum_to_one_on_a_six_max_tree(equity_table):
    solver = make_solver(equity_table, Spot("mtt", 6, 20))
    solver.iterate(3)
    decisions = solver.tree.decisions
    for sigma in (solver.sigma, solver.average_sigma()):
        sums = np.zeros((solver.n_nodes, solver.n_classes))
        np.add.at(sums, solver.tree.parent[1:], sigma[1:])
        np.testing.assert_allclose(sums[decisions], 1.0, atol=1e-12)


@pytest.mark.slow
def test_six_max_100bb_reaches_its_bar_and_mixed_hands_are_indifferent(equity_table):
    solver = make_solver(equity_table, Spot("cash", 6, 100))
    solver.iterate(1200)
    gains, values = solver.exploitability()
    assert np.all(gains >= 0) and gains.max() <= 0.010 * np.sqrt(3)
    assert values.sum() == pytest.approx(0.0, abs=1e-10)
    _, checked = check_mixed_hands_are_indifferent(solver)
    assert checked > 0


# --- the solve driver: bar, status, resumable state ------------------------------------------


def test_resumed_solve_gives_the_same_bytes(equity_table, tmp_path):
    spot = Spot("cash", 2, 20)
    win, tie = equity_table.win, equity_table.tie
    settings = SolveSettings(checkpoints=(20, 45), bar_coefficient=10.0, save_every=7)  # ships at 20
    fresh = result_bytes(solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(45,), bar_coefficient=10.0)))

    class Interrupt(Exception):
        pass

    def stop_at_14(iteration, figure):
        if iteration == 14:
            raise Interrupt

    state = tmp_path / "state.npz"
    with pytest.raises(Interrupt):
        solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(45,), bar_coefficient=10.0, save_every=7),
                   state_path=state, progress=stop_at_14)
    resumed = result_bytes(solve_spot(spot, SIZING, win, tie, SolveSettings(checkpoints=(45,), bar_coefficient=10.0,
                                                                            save_every=7), state_path=state))
    assert resumed == fresh
    shipped = solve_spot(spot, SIZING, win, tie, settings)
    assert shipped["status"] == "shipped" and shipped["iterations"] == 20 and "nodes" in shipped


def test_a_spot_that_never_clears_is_rejected_without_a_chart(equity_table):
    result = solve_spot(Spot("cash", 2, 20), SIZING, equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(5, 10), bar_coefficient=0.0))
    assert result["status"] == "rejected" and "nodes" not in result
    assert result["iterations"] == 10 and [h["iterations"] for h in result["history"]] == [5, 10]
    assert result["exploitability_bb"] == result["history"][-1]["exploitability_bb"] > 0


def test_bar_grows_with_the_square_root_of_the_table_size():
    settings = SolveSettings()
    assert settings.bar_bb(2) == pytest.approx(0.010)
    assert settings.bar_bb(6) == pytest.approx(0.01732, abs=1e-5) and settings.bar_bb(9) == pytest.approx(0.02121, abs=1e-5)
    with pytest.raises(ValueError, match="checkpoints"):
        SolveSettings(checkpoints=(400, 300))
