"""The preflop game over combos (card removal): the best response against a brute force over every
dealt pair (heads-up) and triple (three seats), the class game reproduced when the deal ignores
blocking, the read-outs, the push/fold tree against the exact card-removal push/fold solver, and
``solve.hands``."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab import cards as C
from pokerlab.equity import canonical_boards
from pokerlab.equity_combos import exact_combo_counts
from pokerlab.preflop.combos import ComboDeck, ComboSolver, expand_class_strategy
from pokerlab.preflop.payoffs import PostflopModel, chip_ev_payoffs
from pokerlab.preflop.solver import Solver
from pokerlab.preflop.spot import Spot, load_sizing
from pokerlab.preflop.tree import build_tree


def _combos_of_ranks(ranks: str) -> np.ndarray:
    idx = [C.RANKS.index(r) for r in ranks]
    return np.flatnonzero(np.isin(C.COMBO_CARDS[:, 0] >> 2, idx) & np.isin(C.COMBO_CARDS[:, 1] >> 2, idx))


def _random_deck(ranks: str, seed: int) -> ComboDeck:
    """The combos of ``ranks`` with random but consistent hand-level outcomes (win + tie + loss = 1,
    ties symmetric, 0 where the hands collide)."""
    combos = _combos_of_ranks(ranks)
    cards = C.COMBO_CARDS[combos].astype(np.int64)
    n = combos.size
    rng = np.random.default_rng(seed)
    tie = np.triu(rng.uniform(0, 0.1, (n, n)), 1)
    tie = tie + tie.T
    win = np.triu(rng.uniform(0, 1, (n, n)), 1) * (1 - tie)
    win = win + np.tril((1 - tie - win.T), -1)
    deck = ComboDeck(win, tie, C.COMBO_CLASS[combos].astype(np.int64), cards)
    live = deck.live
    return ComboDeck(np.where(live, win, 0.0), np.where(live, tie, 0.0), deck.combo_class, cards)


def _random_sigma(tree, n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    sigma = np.ones((tree.n_nodes, n))
    for h in tree.decisions:
        children = tree.child_start[h] + np.arange(tree.n_children[h])
        x = rng.uniform(0, 1, (children.size, n)) ** 3
        sigma[children] = x / x.sum(axis=0)
    return sigma


def _brute_force(tree, payoffs, deck: ComboDeck, sigma: np.ndarray, seat: int, best_response: bool) -> float:
    """Seat ``seat``'s value (bb/hand) summed over every deal of one hand per seat in which no two
    hands share a card (all equally likely), each deal's payoffs from the ending's constants and
    terms; the tree walked node by node (2 or 3 seats)."""
    n, seats = deck.n, tree.seats
    live = deck.live
    valid = np.ones((n,) * seats, dtype=bool)
    for a in range(seats):
        for b in range(a + 1, seats):
            shape = [1] * seats
            shape[a], shape[b] = n, n
            valid &= live.reshape(shape)
    joint = valid / valid.sum()
    equity = deck.win + 0.5 * deck.tie
    reach = np.ones((seats, tree.n_nodes, n))
    for s in range(seats):
        for h in range(1, tree.n_nodes):
            reach[s, h] = reach[s, tree.parent[h]] * (sigma[h] if tree.parent_actor[h] == s else 1.0)

    def along(s, vector):  # a vector over seat s's hands, broadcast over the deal's axes
        shape = [1] * seats
        shape[s] = n
        return vector.reshape(shape)

    values = np.zeros((tree.n_nodes, n))
    ending = {int(k): z for z, k in enumerate(payoffs.nodes)}
    for h in range(tree.n_nodes - 1, -1, -1):
        if h in ending:
            z = ending[h]
            pay = np.full((n,) * seats, payoffs.const[z, seat])
            for t in np.flatnonzero((payoffs.term_ending == z) & (payoffs.term_seat == seat)):
                opp = payoffs.term_opponent[t]
                shape = [1] * seats
                shape[seat], shape[opp] = n, n
                pair = equity if seat < opp else equity.T  # rows: the lower seat's hand
                pay = pay + payoffs.term_win[t] * pair.reshape(shape)
            weight = joint
            for s in range(seats):
                if s != seat:
                    weight = weight * along(s, reach[s, h])
            values[h] = (weight * pay).sum(axis=tuple(a for a in range(seats) if a != seat))
            continue
        children = tree.child_start[h] + np.arange(tree.n_children[h])
        if tree.actor[h] != seat:
            values[h] = values[children].sum(axis=0)
        elif best_response:
            values[h] = values[children].max(axis=0)
        else:
            values[h] = (sigma[children] * values[children]).sum(axis=0)
    return float(values[0].sum())


@pytest.mark.parametrize("seats, depth", [(2, 10), (2, 40), (3, 15), (3, 60)])
def test_best_response_against_a_brute_force_over_dealt_hands(seats, depth):
    """Random combo strategies on a reduced deck (the 66 combos of A, 7, 2): each seat's value and
    best-response value equal the brute force's, which weighs every deal of hands that share no card."""
    from pokerlab.preflop.combos import combo_solver

    tree = build_tree(Spot("cash", seats, depth), load_sizing())
    payoffs = chip_ev_payoffs(tree, PostflopModel())
    assert {"fold", "allin", "flop"} <= {tree.nodes[k].kind for k in payoffs.nodes}
    assert seats in {len(tree.nodes[k].players_in) for k in payoffs.nodes}
    deck = _random_deck("A72", seed=depth)
    sigma = _random_sigma(tree, deck.n, seed=depth + 1)
    gains, values = combo_solver(tree, payoffs, deck).exploitability_of(sigma)
    for seat in range(seats):
        value = _brute_force(tree, payoffs, deck, sigma, seat, best_response=False)
        best = _brute_force(tree, payoffs, deck, sigma, seat, best_response=True)
        assert values[seat] == pytest.approx(value, abs=1e-12)
        assert gains[seat] == pytest.approx(best - value, abs=1e-12)
        assert gains[seat] > 0.01  # random play is exploitable: the comparison is not of zeros


def test_blocking_matters_on_a_reduced_deck():
    """The same strategies and hand outcomes, dealt with and without blocking, are worth different amounts."""
    tree = build_tree(Spot("cash", 2, 10), load_sizing())
    payoffs = chip_ev_payoffs(tree, PostflopModel())
    deck = _random_deck("A72", seed=3)
    unblocked = ComboDeck(deck.win, deck.tie, deck.combo_class)
    sigma = _random_sigma(tree, deck.n, seed=4)
    with_blocking = ComboSolver(tree, payoffs, deck).exploitability_of(sigma)[1]
    without = ComboSolver(tree, payoffs, unblocked).exploitability_of(sigma)[1]
    assert np.abs(with_blocking - without).max() > 1e-3


def test_a_deal_that_ignores_blocking_reproduces_the_class_mode(equity_table):
    """Class equities expanded to the 1,326 combos and the product deal: CFR+ over combos gives
    every combo its class's strategy, the exploitability and values of the class mode, and its
    read-out by class is the class read-out (reach, shares, arrival, strategies, EVs, tiers)."""
    from pokerlab.preflop.combos import read_out_combos
    from pokerlab.preflop.readout import read_out

    tree = build_tree(Spot("cash", 2, 20), load_sizing())
    payoffs = chip_ev_payoffs(tree, PostflopModel())
    classes = Solver(tree, payoffs, equity_table.win, equity_table.tie)
    combos = ComboSolver(tree, payoffs, ComboDeck.expanded_classes(equity_table.win, equity_table.tie))
    classes.iterate(150)
    combos.iterate(150)
    expanded = expand_class_strategy(classes.average_sigma(), combos.deck)
    assert np.abs(combos.average_sigma() - expanded).max() < 1e-9
    class_gains, class_values = classes.exploitability()
    combo_gains, combo_values = combos.exploitability()
    assert combo_gains == pytest.approx(class_gains, abs=1e-10)
    assert combo_values == pytest.approx(class_values, abs=1e-10)
    # and the class strategy expanded is evaluated as the class mode evaluates it
    assert combos.exploitability_of(expanded)[0] == pytest.approx(class_gains, abs=1e-10)
    # the read-out by class is the class read-out
    a, b = read_out(classes), read_out_combos(combos)
    assert b.seat_ev == pytest.approx(a.seat_ev, abs=1e-10)
    assert b.tier_shares == pytest.approx(a.tier_shares, abs=1e-10)
    for x, y in zip(a.nodes, b.nodes):
        assert (x.id, x.actor, x.actions) == (y.id, y.actor, y.actions)
        assert y.reach == pytest.approx(x.reach, abs=1e-10)
        for field in ("strategy", "arrive_with", "class_reach", "action_ev", "node_ev"):
            np.testing.assert_allclose(getattr(y, field), getattr(x, field), atol=1e-9, err_msg=f"{x.id} {field}")


@pytest.fixture(scope="module")
def reduced_table():
    """The 190 combos of ranks A, K, 9, 5, 2 with hand-level counts on the orbits of 40 boards
    (as the push/fold card-removal tests use them)."""
    keys, weights = canonical_boards()
    pick = np.linspace(0, keys.size - 1, 40).astype(np.int64)
    wins, ties = exact_combo_counts(keys[pick], weights[pick])
    combos = _combos_of_ranks("AK952")
    w, t = wins[np.ix_(combos, combos)], ties[np.ix_(combos, combos)]
    boards = w + t + w.T
    equity = np.divide(w + 0.5 * t, boards, out=np.full(w.shape, 0.5), where=boards > 0)
    return combos, equity


@pytest.mark.parametrize("depth", [10, 15])
def test_the_push_fold_tree_reproduces_the_card_removal_push_fold_solver(reduced_table, depth):
    """The tree restricted to fold or all-in is heads-up push/fold with card removal: the exact
    equilibrium of :func:`pokerlab.pushfold.headsup_combos.solve_headsup_combos` has no best
    response gain here and the same seat values, and CFR+ over combos converges to its values."""
    from pokerlab.pushfold.fees import PushFoldGame
    from pokerlab.pushfold.headsup_combos import ComboDeal, solve_headsup_combos

    combos, equity = reduced_table
    deck = ComboDeck(np.where(equity > 0, equity, 0.0), np.zeros_like(equity), C.COMBO_CLASS[combos].astype(np.int64),
                     C.COMBO_CARDS[combos].astype(np.int64))
    equity = np.where(deck.live, equity, 0.0)
    deck = ComboDeck(equity, np.zeros_like(equity), deck.combo_class, deck.cards)
    spot = Spot("cash", 2, depth)
    tree = build_tree(spot, load_sizing(), shove_or_fold=True)
    payoffs = chip_ev_payoffs(tree, PostflopModel())
    exact = solve_headsup_combos(PushFoldGame(2, depth, "none", ante_bb=spot.ante),
                                 ComboDeal(deck.live / deck.live.sum(), equity, deck.combo_class))
    assert exact.exploitability_bb <= 1e-12
    sigma = np.ones((tree.n_nodes, deck.n))
    for node, x in (("A", exact.sb_shove), ("F", 1 - exact.sb_shove), ("AC", exact.bb_call), ("AF", 1 - exact.bb_call)):
        sigma[tree.index[node]] = x
    solver = ComboSolver(tree, payoffs, deck)
    gains, values = solver.exploitability_of(sigma)
    assert gains.max() <= 1e-12
    assert values == pytest.approx([exact.seat_ev["SB"], exact.seat_ev["BB"]], abs=1e-12)
    solver.iterate(2000)
    gains, cfr_values = solver.exploitability()
    assert gains.max() < 1e-4
    assert cfr_values == pytest.approx(values, abs=1e-4)


@pytest.mark.parametrize("seats, depth, iterations", [(2, 40, 30), (3, 15, 5)])
def test_read_out_with_blocking_adds_up(seats, depth, iterations):
    """With blocking, the read-out's deal shares are those of the dealt hands: the endings' shares
    sum to one, every node's arrival sums to one, a node's reach splits over its children as its
    action shares say, and the seat EVs are the solver's values (the brute force's, above)."""
    from pokerlab.preflop.combos import combo_solver, read_out_combos

    tree = build_tree(Spot("cash", seats, depth), load_sizing())
    solver = combo_solver(tree, chip_ev_payoffs(tree, PostflopModel()), _random_deck("A72", seed=5))
    solver.iterate(iterations)
    readout = read_out_combos(solver)
    assert sum(readout.tier_shares.values()) == pytest.approx(1.0, abs=1e-12)
    assert readout.seat_ev == pytest.approx(solver.exploitability()[1], abs=1e-12)
    reach = {node.id: node.reach for node in readout.nodes}
    for node in readout.nodes:
        assert node.arrive_with.sum() == pytest.approx(1.0, abs=1e-12)
        shares = node.arrive_with @ np.nan_to_num(node.strategy)  # classes with no hand in this deck: NaN
        assert shares.sum() == pytest.approx(1.0, abs=1e-9)
        for a, share in zip(node.actions, shares):
            if node.id + a in reach:
                assert reach[node.id + a] == pytest.approx(node.reach * share, abs=1e-12)


def test_a_node_no_deal_reaches_arrives_with_the_deals_classes(monkeypatch):
    """An average strategy that never limps leaves the nodes after the small blind's limp unreached: their
    arrival is the deal's class distribution, where dividing by their zero reach gives 0 / 0."""
    from pokerlab.preflop.combos import combo_solver, read_out_combos

    tree = build_tree(Spot("cash", 2, 40), load_sizing())
    solver = combo_solver(tree, chip_ev_payoffs(tree, PostflopModel()), _random_deck("A72", seed=5))
    solver.iterate(10)
    sigma = solver.average_sigma()
    limp, raise_ = tree.index["C"], tree.index["R"]
    sigma[raise_] += sigma[limp]  # every limp becomes a raise
    sigma[limp] = 0.0
    monkeypatch.setattr(solver, "average_sigma", lambda: sigma)
    nodes = read_out_combos(solver).nodes
    unreached = [node for node in nodes if node.id.startswith("C")]
    assert unreached and all(node.reach == 0.0 for node in unreached)
    deal = np.bincount(solver.deck.combo_class, weights=solver.prior, minlength=169) / solver.prior.sum()
    for node in unreached:
        np.testing.assert_allclose(node.arrive_with, deal, atol=1e-15)
    for node in nodes:
        assert np.isfinite(node.arrive_with).all() and node.arrive_with.sum() == pytest.approx(1.0)


def test_solve_hands_settings_and_errors(equity_table, tmp_path):
    """``solve.hands``: classes leave no trace in the result; combos are recorded with the combo
    table's digest; the seat counts, formats and models without a combo mode are refused by name."""
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.workflow_config import check_config

    with pytest.raises(ValueError, match="solve.hands: 'cards'; expected one of"):
        SolveSettings(hands="cards")
    section = {"postflop": {"model": "v1"}, "checkpoints": [10], "bar_coefficient": 0.01, "hands": "combos"}
    assert SolveSettings.from_config(section).hands == "combos"
    with pytest.raises(ValueError, match="cash/4max/20bb has 4 seats"):
        solve_spot(Spot("cash", 4, 20), load_sizing(), equity_table.win, equity_table.tie, SolveSettings(hands="combos"))
    with pytest.raises(ValueError, match="'icm_final' is valued by ICM"):
        solve_spot(Spot("icm_final", 2, 20), load_sizing(), equity_table.win, equity_table.tie, SolveSettings(hands="combos"))
    with pytest.raises(ValueError, match="needs the combo equity table"):
        solve_spot(Spot("cash", 2, 20), load_sizing(), equity_table.win, equity_table.tie, SolveSettings(hands="combos"))
    with pytest.raises(ValueError, match=r"solve.spots\[1\]: 6 seats; solve.hands combos solves 2 or 3-seat spots"):
        check_config({"solve": {"hands": "combos", "spots": [{"format": "cash", "seats": 3, "depth": 10},
                                                             {"format": "cash", "seats": 6, "depth": 10}]}})
    with pytest.raises(ValueError, match="combos takes postflop model v1, not 'v2'"):
        check_config({"solve": {"hands": "combos", "postflop": {"model": "v2"}, "spots": []}})
    # the default leaves the solve rules' parameters as they were (no re-run of existing solves)
    from pokerlab.sweep import solve_settings

    assert "hands" not in solve_settings({"checkpoints": [10], "hands": "classes"}, {})
    assert solve_settings({"checkpoints": [10], "hands": "combos"}, {})["hands"] == "combos"


def test_solve_spot_over_combos_records_its_mode(equity_table):
    """A combo solve through ``solve_spot`` on a table whose combos carry their class's equities:
    the product deal is not what it plays (it blocks), so its chart differs from the class one,
    and it records the mode and the table it read."""
    from pokerlab.equity_combos import BOARDS_PER_PAIR, ComboEquityTable
    from pokerlab.preflop.solve import SolveSettings, solve_spot

    k = C.COMBO_CLASS.astype(np.int64)
    live = ComboDeck(np.zeros((C.N_COMBOS,) * 2), np.zeros((C.N_COMBOS,) * 2), k, C.COMBO_CARDS.astype(np.int64)).live
    wins = np.where(live, np.round(equity_table.win[np.ix_(k, k)] * BOARDS_PER_PAIR), 0)
    ties = np.where(live, BOARDS_PER_PAIR - wins - wins.T, 0)
    table = ComboEquityTable(wins.astype(np.int32), ties.astype(np.int32))
    settings = SolveSettings(checkpoints=(50,), bar_coefficient=10.0)
    classes = solve_spot(Spot("cash", 2, 20), load_sizing(), equity_table.win, equity_table.tie, settings)
    combos = solve_spot(Spot("cash", 2, 20), load_sizing(), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(50,), bar_coefficient=10.0, hands="combos"), combo_table=table)
    assert "hands" not in classes["settings"]
    assert combos["settings"]["hands"] == "combos" and len(combos["settings"]["combo_table_sha256"]) == 64
    assert combos["status"] == "shipped" and sum(combos["tier_shares"].values()) == pytest.approx(1.0, abs=1e-9)
    assert combos["nodes"][0]["shares"] != classes["nodes"][0]["shares"]


def test_a_result_chart_back_to_strategies_and_the_change_between_charts(equity_table):
    """A shipped result's per-class strategies are the solver's average strategy (to its rounding);
    a chart differs from itself by nothing, and from a copy with one class moved by that class's
    change at that node."""
    import copy

    from pokerlab.preflop.combos import class_strategy_from_result, frequency_changes
    from pokerlab.preflop.solve import SolveSettings, solve_spot

    spot = Spot("cash", 2, 10)
    tree = build_tree(spot, load_sizing())
    result = solve_spot(spot, load_sizing(), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(50,), bar_coefficient=10.0))
    solver = Solver(tree, chip_ev_payoffs(tree, PostflopModel()), equity_table.win, equity_table.tie)
    solver.iterate(50)
    assert np.abs(class_strategy_from_result(tree, result) - solver.average_sigma()).max() < 5e-6
    same = frequency_changes(result, result)
    assert same["share_max"] == same["share_mean"] == same["class_max"] == same["class_mean"] == 0.0
    moved = copy.deepcopy(result)
    node = next(n for n in moved["nodes"] if n["id"] == "")
    aa = C.CLASS_INDEX["AA"]
    top = max(node["actions"], key=lambda a: node["strategy"][a][aa])  # AA's most played action ...
    other = next(a for a in node["actions"] if a != top)  # ... moved whole to another one
    shift = node["strategy"][top][aa]
    node["strategy"][top][aa], node["strategy"][other][aa] = 0.0, node["strategy"][other][aa] + shift
    assert shift >= 0.25
    change = frequency_changes(result, moved)
    assert change["class_max"] == pytest.approx(100 * shift) and change["class_max_node"] == "root AA"
    assert change["share_max"] == 0.0  # the shares were not recomputed: only the strategies moved
