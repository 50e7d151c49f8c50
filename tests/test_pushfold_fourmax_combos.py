"""4-max shove-or-fold with card removal (the sample game of joint deals): the deal's law (blocking
between seats against exact probabilities), the values against a brute-force walk of the tree,
conservation, the class law against the class solver, the heads-up reduction against the exact
card-removal equilibrium, determinism on any thread count, the result file and the config keys."""

from __future__ import annotations

import json
from pathlib import Path

import numba
import numpy as np
import pytest

from pokerlab import cards
from pokerlab.equity_combos import collision_mask
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.fourmax import INFOSET_INDEX, INFOSETS, SEATS, FourMaxGame
from pokerlab.pushfold.fourmax_combos import (INFOSET_OF, PAIRS, ComboSettings, SampleGame, _PAIR_COLUMN, _share,
                                              deal_sample, solve_fourmax_combos, solve_sample_game)


@pytest.fixture(scope="module")
def combo_equity(equity_table):
    """The class table's equities expanded to the 1,326 combos, 0 where two hands collide (a
    stand-in for the exact combo table, which takes minutes to build)."""
    k = cards.COMBO_CLASS.astype(np.int64)
    return np.where(collision_mask(), 0.0, equity_table.equity[np.ix_(k, k)])


def _random_profile(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).uniform(size=(len(INFOSETS), cards.N_CLASSES))


def test_information_set_of_every_action_prefix():
    assert INFOSET_OF[0, 0] == INFOSET_INDEX[""]
    assert INFOSET_OF[3, 0] == -1  # folded round to the big blind: a walk
    assert INFOSET_OF[3, 0b101] == INFOSET_INDEX["AFC"]  # CO shoved, BTN folded, SB called
    assert INFOSET_OF[2, 0b10] == INFOSET_INDEX["FA"]
    assert sorted(int(k) for k in INFOSET_OF.ravel() if k >= 0) == list(range(len(INFOSETS)))


def test_the_joint_deal_blocks_between_seats_and_the_class_law_does_not(combo_equity, equity_table):
    """P(another seat holds an ace | a seat holds AA) is 1 - C(48,2)/C(50,2) = 97/1225 when the
    hands come from one deck, and 1 - C(48,2)/C(52,2) = 198/1326 when classes are independent."""
    has_ace = np.array(["A" in name for name in cards.CLASS_NAMES])
    aces = cards.parse_class("AA")
    for law, equity, expected in (("joint", combo_equity, 97 / 1225), ("independent", equity_table.equity, 198 / 1326)):
        sample = deal_sample(200_000, 5, equity, law)
        hits = trials = 0
        for s in range(SEATS):
            holds = sample.classes[:, s] == aces
            for t in range(SEATS):
                if t != s:
                    hits += int(has_ace[sample.classes[holds, t]].sum())
                    trials += int(holds.sum())
        assert hits / trials == pytest.approx(expected, abs=0.01), law
        # each seat's own class follows the prior (1,326 combos)
        freq = sample.class_counts() / sample.deals
        assert np.abs(freq - cards.CLASS_PRIOR).max() < 0.002


def test_pot_shares_sum_to_one_and_chips_are_conserved(combo_equity):
    sample = deal_sample(3000, 9, combo_equity)
    for n in range(200):
        for bits in range(2**SEATS):
            seats = [s for s in range(SEATS) if bits >> s & 1]
            if len(seats) >= 2:
                for pair_table in (True, False):
                    total = sum(_share(s, bits, n, _PAIR_COLUMN, sample.pair_equity, sample.strength, pair_table) for s in seats)
                    assert total == pytest.approx(1.0, abs=1e-12)
    # every pot pays the same fee, drop - rakeback = 0.16bb: the seats' values sum to minus it
    for pair_table in (True, False):
        ev = SampleGame(PushFoldGame(4, 12, "coinpoker", ante_bb=1.0), sample, pair_table).evaluate(_random_profile(1))
        assert sum(ev.seat_ev.values()) == pytest.approx(-0.16, abs=1e-12)


def _brute_force(game: PushFoldGame, sample, strategy: np.ndarray):
    """Counterfactual sums (in, fold, reach) per (set, class) by walking the tree deal by deal."""
    out = np.zeros((3, len(INFOSETS), cards.N_CLASSES))

    def history_of(ins: list[int], upto: int) -> str:
        return "".join("F" if t not in ins else ("A" if t == ins[0] else "C") for t in range(upto))

    def net(n: int, seat: int, ins: list[int]) -> float:
        award, const = game.terminal_coefficients(ins or [SEATS - 1])
        if len(ins) < 2:
            return float(const[seat])
        if len(ins) == 2:
            i, j = ins
            e = sample.pair_equity[n, PAIRS.index((i, j))]
            share = (e if seat == i else 1 - e) if seat in ins else 0.0
        else:
            best = max(sample.strength[n, t] for t in ins)
            winners = [t for t in ins if sample.strength[n, t] == best]
            share = 1 / len(winners) if seat in winners else 0.0
        return float(award * share + const[seat])

    def walk(n: int, seat: int, hero: int, ins: list[int], weight: float) -> float:
        """Value to ``hero`` of the seats from ``seat`` on acting, weighted by the others' probabilities."""
        if seat == SEATS:
            return weight * net(n, hero, ins)
        if seat == SEATS - 1 and not ins:
            return weight * net(n, hero, [])
        p = strategy[INFOSET_INDEX[history_of(ins, seat)], sample.classes[n, seat]]
        total = 0.0
        for went_in, q in ((True, p), (False, 1 - p)):
            if seat == hero:
                value = walk(n, seat + 1, hero, ins + [seat] if went_in else ins, weight)
                out[0 if went_in else 1, INFOSET_INDEX[history_of(ins, seat)], sample.classes[n, seat]] += value
                total += q * value
            else:
                total += walk(n, seat + 1, hero, ins + [seat] if went_in else ins, weight * q)
        return total

    def reach(n: int, seat: int, ins: list[int], weight: float, hero: int) -> None:
        if seat == hero:
            if hero < SEATS - 1 or ins:
                out[2, INFOSET_INDEX[history_of(ins, seat)], sample.classes[n, seat]] += weight
            return
        p = strategy[INFOSET_INDEX[history_of(ins, seat)], sample.classes[n, seat]]
        reach(n, seat + 1, ins + [seat], weight * p, hero)
        reach(n, seat + 1, ins, weight * (1 - p), hero)

    for n in range(sample.deals):
        for hero in range(SEATS):
            walk(n, 0, hero, [], 1.0)
            reach(n, 0, [], 1.0, hero)
    return out


def test_values_equal_a_brute_force_walk_of_the_tree(combo_equity):
    game = PushFoldGame(4, 10, "coinpoker")
    sample = deal_sample(150, 2, combo_equity)
    strategy = _random_profile(4)
    cf_in, cf_fold, cf_reach = _brute_force(game, sample, strategy)
    ev = SampleGame(game, sample).evaluate(strategy)
    seen = cf_reach > 0
    np.testing.assert_allclose(ev.ev_in[seen], cf_in[seen] / cf_reach[seen], rtol=1e-10, atol=1e-10)
    np.testing.assert_allclose(ev.ev_fold[seen], cf_fold[seen] / cf_reach[seen], rtol=1e-10, atol=1e-10)
    gain = (np.maximum(cf_in, cf_fold) - strategy * cf_in - (1 - strategy) * cf_fold) / sample.deals
    np.testing.assert_allclose(ev.gain, gain, atol=1e-12)
    seat_of = np.array([len(h) for h in INFOSETS])
    np.testing.assert_allclose(ev.reach[seen], (cf_reach / sample.class_counts()[seat_of].clip(1))[seen], atol=1e-12)


def test_the_class_law_gives_the_class_solvers_values(equity_table):
    """(a) at the level of values: with BTN and SB never in, every pot has at most two seats and
    the class solver's values are exact; the sample game of the class law must agree within its
    sampling error (about 0.01bb for a seat's EV over 300,000 deals)."""
    game = PushFoldGame(4, 8, "coinpoker")
    strategy = _random_profile(7)
    for h in INFOSETS:
        if len(h) in (1, 2):
            strategy[INFOSET_INDEX[h]] = 0.0
    four = FourMaxGame(game, equity_table.equity)
    exact = four.evaluate(strategy, four.multiway_estimates(strategy, 10, seed=0))
    sampled = SampleGame(game, deal_sample(300_000, 3, equity_table.equity, "independent")).evaluate(strategy)
    for seat in ("CO", "BB"):
        assert sampled.seat_ev[seat] == pytest.approx(exact.seat_ev[seat], abs=0.03), seat
    for history in ("", "AFF"):  # the CO's and the BB's set, values averaged over the classes
        k = INFOSET_INDEX[history]
        weights = cards.CLASS_PRIOR
        assert sampled.ev_in[k] @ weights == pytest.approx(exact.ev_in[k] @ weights, abs=0.03)
        assert sampled.reach[k] @ weights == pytest.approx(exact.reach[k], abs=0.005)


def test_heads_up_reduction_reaches_the_exact_card_removal_equilibrium(combo_equity):
    """(b) CO and BTN always fold: the SB and BB solved in the sample game must land on
    headsup_combos' equilibrium of the same deck and equities, within the sample's error."""
    from pokerlab.pushfold.headsup_combos import ComboDeal, solve_headsup_combos

    frozen = np.zeros(len(INFOSETS), bool)
    frozen[[INFOSET_INDEX[""], INFOSET_INDEX["F"]]] = True
    warm = np.full((len(INFOSETS), cards.N_CLASSES), 0.5)
    warm[frozen] = 0.0
    game = PushFoldGame(4, 10, "none")
    sol = solve_fourmax_combos(game, combo_equity, ComboSettings(deals=200_000, max_sweeps=60, seed=3), warm=warm,
                               frozen=frozen)
    assert np.all(sol.strategy[frozen] == 0.0)
    exact = solve_headsup_combos(PushFoldGame(2, 10, "none"), ComboDeal.full_deck(combo_equity), refinements=0)
    assert sol.shares[INFOSET_INDEX["FF"]] == pytest.approx(exact.sb_shove_share, abs=0.015)
    assert sol.shares[INFOSET_INDEX["FFA"]] == pytest.approx(exact.bb_call_share, abs=0.015)
    # the classes far from either threshold play as in the exact equilibrium
    for k, exact_class in ((INFOSET_INDEX["FF"], exact.sb_shove_class), (INFOSET_INDEX["FFA"], exact.bb_call_class)):
        clear = np.abs(exact_class - 0.5) == 0.5
        agree = np.abs(sol.strategy[k] - exact_class)[clear] < 0.5
        assert agree.mean() > 0.93
    assert sol.measured.exploitability_per_seat["SB"] < 0.01 and sol.measured.exploitability_per_seat["BB"] < 0.01


def test_the_sample_and_its_values_are_the_same_on_any_thread_count(combo_equity):
    if numba.config.NUMBA_NUM_THREADS < 2:
        pytest.skip("needs two Numba threads")
    game = PushFoldGame(4, 15, "none")
    before = numba.get_num_threads()
    runs = []
    try:
        for threads in (1, 2):
            numba.set_num_threads(threads)
            sample = deal_sample(40_000, 8, combo_equity)
            runs.append((sample, SampleGame(game, sample).evaluate(_random_profile(2))))
    finally:
        numba.set_num_threads(before)
    (a, ev_a), (b, ev_b) = runs
    for name in ("classes", "pair_equity", "strength"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert np.array_equal(ev_a.gain, ev_b.gain) and ev_a.seat_ev == ev_b.seat_ev
    assert not np.array_equal(deal_sample(40_000, 9, combo_equity).classes, a.classes)


def test_the_sweep_improves_and_stops_on_the_tolerance(combo_equity):
    game = SampleGame(PushFoldGame(4, 8, "none"), deal_sample(20_000, 1, combo_equity))
    strategy, ev, history = solve_sample_game(game, ComboSettings(deals=20_000, max_sweeps=40, tolerance_bb=1e-9))
    assert [row[0] for row in history] == list(range(41))
    assert history[-1][1] < history[0][1] / 20
    assert ev.exploitability_bb == history[-1][1]
    loose = history[5][1]
    _, _, stopped = solve_sample_game(game, ComboSettings(deals=20_000, max_sweeps=40, tolerance_bb=loose))
    assert stopped[-1][1] <= loose and len(stopped) <= 6


def test_bad_input(combo_equity, equity_table):
    with pytest.raises(ValueError, match="law"):
        deal_sample(10, 1, combo_equity, "shuffled")
    with pytest.raises(ValueError, match=r"expected \(1326, 1326\)"):
        deal_sample(10, 1, equity_table.equity)
    with pytest.raises(ValueError, match="deals"):
        deal_sample(0, 1, combo_equity)
    with pytest.raises(ValueError, match="deals"):
        ComboSettings(deals=0)
    with pytest.raises(ValueError, match="tolerance_bb"):
        ComboSettings(tolerance_bb=0)
    with pytest.raises(ValueError, match="seats must be 4"):
        SampleGame(PushFoldGame(2, 8, "none"), deal_sample(10, 1, combo_equity))
    game = SampleGame(PushFoldGame(4, 8, "none"), deal_sample(10, 1, combo_equity))
    with pytest.raises(ValueError, match="warm start"):
        solve_sample_game(game, ComboSettings(deals=10), warm=np.zeros((3, 3)))


def _combo_table_file(path, equity_table):
    """The class table expanded to combos as board counts, written as an equity_1326.npz."""
    from pokerlab.equity_combos import BOARDS_PER_PAIR, save_combo_table

    k = cards.COMBO_CLASS.astype(np.int64)
    live = ~collision_mask()
    wins = np.where(live, np.round(equity_table.win[np.ix_(k, k)] * BOARDS_PER_PAIR), 0)
    ties = np.where(live, BOARDS_PER_PAIR - wins - wins.T, 0)
    save_combo_table(wins.astype(np.int32), ties.astype(np.int32), path)


def test_the_workflow_entry_point_writes_the_combo_mode_apart(equity_table, tmp_path):
    import yaml

    from pokerlab.pushfold.io import fourmax_result_path, load_fourmax_strategy, write_spot_from_config
    from pokerlab.workflow_config import check_config

    assert fourmax_result_path(8.0, "combos") == "results/pushfold/4max_combos/8bb.json"
    assert fourmax_result_path(8.0) == "results/pushfold/4max/8bb.json"
    _combo_table_file(tmp_path / "equity_1326.npz", equity_table)
    config = yaml.safe_load((Path(__file__).parent.parent / "config" / "config.yaml").read_text())
    section = config["pushfold"]
    assert section["fourmax"]["hands"] == "classes"  # the default keeps the class mode's results
    section["fourmax"]["combos"] = {"deals": 5000, "max_sweeps": 3}
    out = tmp_path / "8bb.json"
    sol = write_spot_from_config(section, 4, 8.0, None, out, tmp_path / "png", combo_table_path=tmp_path / "equity_1326.npz")
    doc = json.loads(out.read_text())
    assert doc["hands"] == "combos" and doc["settings"]["deals"] == 5000
    assert [m["sample"] for m in doc["exploitability"]] == ["solving", "independent"]
    assert doc["exploitability"][1]["exploitability_bb"] == pytest.approx(sol.measured.exploitability_bb, abs=1e-9)
    np.testing.assert_allclose(load_fourmax_strategy(out), sol.strategy, atol=1e-6)
    assert len(list((tmp_path / "png").glob("*.png"))) == len(INFOSETS)
    # the keys are checked by name
    for changes, message in (({"hands": "combo"}, "pushfold.fourmax.hands"),
                             ({"combos": {"deals": 0}}, "pushfold.fourmax.combos"),
                             ({"combos": {"draws": 10}}, "pushfold.fourmax.combos")):
        bad = json.loads(json.dumps(config))
        bad["pushfold"]["fourmax"].update(changes)
        with pytest.raises(ValueError, match=message):
            check_config(bad)


@pytest.mark.parametrize("changes, where", [
    ({"hands": "combo"}, "pushfold/fourmax/hands"),
    ({"combos": {"deals": 10**12}}, "pushfold/fourmax/combos/deals"),
    ({"combos": {"draws": 10}}, "pushfold/fourmax/combos"),
])
def test_the_schema_names_the_new_keys(changes, where):
    import yaml

    from pokerlab.schema_check import first_problem

    root = Path(__file__).parent.parent
    config = yaml.safe_load((root / "config" / "config.yaml").read_text())
    schema = yaml.safe_load((root / "config" / "schema.yaml").read_text())
    assert first_problem(config, schema, strict=True) is None
    config["pushfold"]["fourmax"].update(changes)
    assert first_problem(config, schema, strict=True).startswith(where)
