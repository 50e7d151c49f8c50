"""The exchanging solve of solved endings (pokerlab.solved.joint) on a small real spot: cash heads-up
8bb, its most reached flop ending re-valued on one flop, postflop all-in or check on every street."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import yaml

from pokerlab import cards
from pokerlab.io import read_arrays, sha256_file
from pokerlab.postflop.solver import Mode
from pokerlab.preflop.ending_corrections import read_ending_corrections
from pokerlab.preflop.result_file import read_result, write_result
from pokerlab.preflop.solve import SolveSettings, solve_spot
from pokerlab.preflop.spot import load_sizing, parse_spot_name
from pokerlab.solved import values as V
from pokerlab.solved.joint import PROCESS_MB, JointSolve, job_mem_mb, measurement, write_memory_report, write_outputs
from pokerlab.solved.loop import write_ending_plan
from pokerlab.solved.settings import POT_TYPES, SolvedSettings

REPO = Path(__file__).resolve().parents[1]
SPOT = parse_spot_name("cash/2max/8bb")
# all-in or check on every street ("bets": [] so that a workflow config, merged into the default
# trees key by key, keeps no default size)
ALLIN = {street: {"bets": [], "allin": True} for street in ("flop", "turn", "river")} | {"raise_cap": 0,
                                                                                       "allin_threshold": 0.67}
ALLIN_TREES = "\n".join(f"    {t}: {json.dumps(ALLIN)}" for t in POT_TYPES)  # a config's bet_trees lines


def workflow_copy(tmp_path) -> None:
    """A working copy of the workflow in ``tmp_path``: links to the repository and a small equity table."""
    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import save_equity_table

    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(REPO / name)
    save_equity_table(sample_pair_counts(samples=200, seed=1), tmp_path / "results/equity/equity_169.npz",
                      tmp_path / "results/equity/equity_169.parquet")


@pytest.fixture(scope="module")
def setting(equity_table, tmp_path_factory):
    """(sizing, base settings, solved settings, plan paths) of the spot."""
    config = yaml.safe_load((REPO / "config" / "config.yaml").read_text())
    folder = tmp_path_factory.mktemp("exchange")
    sizing = load_sizing(REPO / config["solve"]["sizing"])
    base = SolveSettings.from_config({**config["solve"], "checkpoints": [200]}, REPO / config["solve"]["postflop"]["file"])
    write_result(folder / "result.json", solve_spot(SPOT, sizing, equity_table.win, equity_table.tie, base))
    section = {**config["solved"], "boards": 1, "heldout_boards": 0, "endings": {"max_per_spot": 1, "min_reach": 0.01},
               "bet_trees": {t: ALLIN for t in POT_TYPES}, "exchange": {"every": 2, "iterations": 6},
               "estimator": "per_class"}  # the tests of the pooled estimator name it
    settings = SolvedSettings.from_config(section)
    plan = tuple(folder / f"{name}.tsv" for name in ("spots", "endings", "boards"))
    write_ending_plan(folder / "result.json", SPOT.name, sizing, settings, *plan)
    return sizing, base, settings, plan


def _solve(setting, equity_table, **change) -> JointSolve:
    sizing, base, settings, plan = setting
    if change:
        settings = SolvedSettings.from_config({**settings.raw, **change})
    return JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, settings, plan[1], plan[2], log=None)


def test_an_exchange_pays_every_class_its_measured_value(setting, equity_table):
    """After an exchange the preflop game pays each class, at the re-valued ending, its value under the
    postflop current strategies against the preflop current range (up to the conservation residual,
    split evenly: one constant per role)."""
    solve = _solve(setting, equity_table)
    solve.exchange(2)
    (e,) = solve.endings
    k = solve.tree.index[e.node]
    # the preflop current strategy is a function of the regrets, which the rebuild kept
    reach = solve.preflop.reach_under(solve.preflop.sigma)
    q = [cards.CLASS_PRIOR * reach[seat, k] for seat in e.seats]
    solver = e.flops[0].solver
    solved = V.solved_class_values([(measurement(solver, Mode.CURRENT), {"board_weight": 1.0})], e.contrib)
    z = solve.model_payoffs.nodes.tolist().index(k)
    payoffs = solve.preflop.payoffs
    for role in (0, 1):
        seat, opponent = e.seats[role], e.seats[1 - role]
        dist = q[1 - role] / q[1 - role].sum()
        paid = np.zeros(cards.N_CLASSES)
        for x in range(cards.N_CLASSES):
            hands = np.zeros(2, np.int64)
            hands[seat] = x
            for y in np.flatnonzero(dist > 0):
                hands[opponent] = y
                paid[x] += dist[y] * payoffs.hand_payoffs(hands, equity_table.win, equity_table.tie)[z, seat]
        difference = paid - solved.role(V.ROLES[role])
        assert np.ptp(difference) < 1e-9, role
        assert abs(difference[0]) < 0.5  # the residual of a chip-conserving solve is small
    assert solve.history[-1]["iteration"] == 2


def _measured(solve, e, mode, pooled):
    return {e.node: [(measurement(f.solver, mode, pooled), {"board_weight": f.weight}) for f in e.flops]}


@pytest.mark.parametrize("estimator", ["per_class", "pooled"])
def test_an_ending_the_current_strategies_do_not_reach_keeps_its_corrections(setting, equity_table, estimator):
    """Neither seat brings a hand (either estimator), or one does not under per_class (whose ranges are
    not floored): the corrections stay."""
    pooled = estimator == "pooled"
    solve = _solve(setting, equity_table, estimator=estimator)
    solve.exchange(2)
    (e,) = solve.endings
    before = [d.copy() for d in solve.corrections[e.node]]
    reach = solve.preflop.reach_under(solve.preflop.sigma)
    k = solve.tree.index[e.node]
    reach[list(e.seats) if pooled else e.seats[0], k] = 0.0
    row = solve.take_measurements(reach, _measured(solve, e, Mode.CURRENT, pooled), 0.0, 0.0)
    assert all(np.array_equal(a, b) for a, b in zip(solve.corrections[e.node], before))
    assert row["correction_change_bb"] == 0.0 and row["iteration"] == 2
    assert row["absent"] == {e.node: "both" if pooled else "oop"}  # the history says who left
    # ... and one they reach is re-measured by either estimator (here on the average strategy's values)
    solve.take_measurements(solve.preflop.reach_under(solve.preflop.sigma), _measured(solve, e, Mode.EVALUATE, pooled),
                            0.0, 0.0)
    assert not all(np.array_equal(a, b) for a, b in zip(solve.corrections[e.node], before))


@pytest.mark.parametrize("absent", [0, 1])
def test_under_pooled_a_seat_that_brings_no_hand_is_valued_at_the_floor(setting, equity_table, absent):
    """Under pooled an ending one seat does not reach is measured all the same: the absent seat's classes
    at the floor weight, as the postflop solves face them, against the other seat's range; the same
    corrections as when it brings every class at half the floor. Keeping the corrections of the exchange
    before the range emptied is a trap: the seat is priced out by a stale table and never comes back."""
    tables = []
    for share in (0.0, 0.5):
        solve = _solve(setting, equity_table, estimator="pooled")
        solve.exchange(2)
        (e,) = solve.endings
        before = np.concatenate(solve.corrections[e.node])
        reach = solve.preflop.reach_under(solve.preflop.sigma)
        reach[e.seats[absent], solve.tree.index[e.node]] = share * solve.settings.floor_weight
        row = solve.take_measurements(reach, _measured(solve, e, Mode.EVALUATE, True), 0.0, 0.0)
        tables.append(np.concatenate(solve.corrections[e.node]))
        assert row["correction_change_bb"] > 0 and not np.array_equal(tables[-1], before)
        assert row.get("absent") == ({e.node: ("oop", "ip")[absent]} if share == 0 else None)
    assert np.array_equal(tables[0], tables[1])


def test_pooled_measures_the_model_against_the_floored_ranges_the_solves_face(setting, equity_table):
    """Under pooled, a class whose own reach is below the floor weight is valued as the postflop solves
    face it, at the floor: how far below does not change the corrections (it does under per_class,
    whose shipped table was measured against the unfloored reach)."""
    for estimator, same in (("pooled", True), ("per_class", False)):
        tables = []
        for below in (0.0, 0.5):
            solve = _solve(setting, equity_table, estimator=estimator)
            solve.exchange(2)
            (e,) = solve.endings
            reach = solve.preflop.reach_under(solve.preflop.sigma)
            k, seat = solve.tree.index[e.node], e.seats[1]
            cut = np.argsort(reach[seat, k])[-20:]  # the seat's 20 most reached classes, brought below the floor
            reach[seat, k, cut] = below * solve.settings.floor_weight
            measured = {e.node: [(measurement(f.solver, Mode.CURRENT, estimator == "pooled"), {"board_weight": f.weight})
                                 for f in e.flops]}
            solve.take_measurements(reach, measured, 0.0, 0.0)
            tables.append(np.concatenate(solve.corrections[e.node]))
        assert np.array_equal(tables[0], tables[1]) == same, estimator


def test_pooled_fits_on_the_floored_ranges_of_the_preflop_average_strategy(setting, equity_table, monkeypatch):
    """Under pooled, the fit weighs the classes by the ranges the preflop *average* strategy brings to
    the ending (floored): they move slowly, where the current strategy's can flip a class in or out of
    a range at every exchange and swing the whole fit. The model is still priced on the current ranges."""
    from pokerlab.solved import joint
    from pokerlab.solved.loop import valued_ranges

    solve = _solve(setting, equity_table, estimator="pooled")
    solve.exchange(4)
    (e,) = solve.endings
    reach = solve.preflop.reach_under(solve.preflop.sigma)
    average = valued_ranges("pooled", *solve.own_reach(e, solve.preflop.reach_under(solve.preflop.average_sigma())),
                            solve.settings.floor_weight)
    current = valued_ranges("pooled", *solve.own_reach(e, reach), solve.settings.floor_weight)
    assert max(np.abs(a - c).max() for a, c in zip(average, current)) > 1e-3  # the two differ here
    calls = []
    fit = joint.V.estimated_class_values
    monkeypatch.setattr(joint.V, "estimated_class_values", lambda *args: calls.append(args) or fit(*args))
    measured = {e.node: [(measurement(f.solver, Mode.CURRENT, True), {"board_weight": f.weight}) for f in e.flops]}
    solve.take_measurements(reach, measured, 0.0, 0.0)
    (args,) = calls
    q_oop, q_ip, weights = args[5], args[6], args[-1]
    for got, want in zip((q_oop, q_ip, *weights), (*current, *average)):
        np.testing.assert_array_equal(got, want)

def test_the_log_says_how_long_the_rest_takes_at_the_recent_pace(setting, equity_table):
    """Each exchange's log line gives the minutes left to the budget: the exchanges still to run (the
    last one may be shorter) times the mean wall seconds of the last five; none after the last."""
    import io

    solve = _solve(setting, equity_table)
    solve.log = io.StringIO()
    solve.run(6)
    lines = solve.log.getvalue().splitlines()
    assert [("min left at this pace" in line) for line in lines] == [True, True, False]
    solve.history = [{"wall_seconds": w} for w in (600.0, 60.0, 120.0, 60.0, 60.0, 60.0, 120.0)]
    assert solve.iteration == 6
    assert solve.minutes_left(11) == pytest.approx(3 * 84.0 / 60.0)  # 3 exchanges (2, 2, 1) x the last five's mean
    assert solve.minutes_left(6) == 0.0


def test_the_fitting_gaps_value_the_ranges_as_the_exchange_does(setting, equity_table):
    """The report's gaps on the fitting flops value the model and the table against the ranges the
    exchange measured the corrections against: under pooled, each class's reach floored."""
    from pokerlab.solved.loop import valued_ranges

    floor = 0.3  # large, so the floored ranges differ from the chart's
    solve = _solve(setting, equity_table, estimator="pooled", floor_weight=floor)
    solve.run(6)
    table = solve.averaged_table({})
    evaluate = solve.profile_measurements()[0]
    (row,) = solve.fitting_gaps(table, evaluate)
    (e,) = solve.endings
    own = solve.own_reach(e, solve.preflop.reach_under(solve.preflop.average_sigma()))
    solved = V.solved_class_values(evaluate[e.node], e.contrib)

    def gaps(q_oop, q_ip):
        model = V.model_class_values(solve.model_payoffs, e.row, e.seats, q_oop, q_ip, equity_table.win,
                                     equity_table.tie)
        return V.valuation_gaps(model, table.endings[e.node], solved, q_oop, q_ip)

    gap, model_gap = gaps(*valued_ranges("pooled", *own, floor))
    assert (row["gap_fitting_bb"], row["model_gap_bb"]) == (round(gap, 6), round(model_gap, 6))
    assert abs(gaps(*(cards.CLASS_PRIOR * r for r in own))[0] - gap) > 1e-3  # unfloored, they differ


@pytest.mark.parametrize("compression", [True, False])
def test_a_saved_run_continues_bit_for_bit(setting, equity_table, tmp_path, compression):
    straight = _solve(setting, equity_table, compression=compression)
    straight.run(6)
    first = _solve(setting, equity_table, compression=compression)
    first.run(4, tmp_path / "state.npz")
    resumed = _solve(setting, equity_table, compression=compression)
    assert resumed.load(tmp_path / "state.npz") and resumed.iteration == 4
    resumed.run(6)
    for name, array in straight.preflop.state().items():
        np.testing.assert_array_equal(resumed.preflop.state()[name], array, err_msg=name)
    (e,), (back,) = straight.endings, resumed.endings
    postflop, resumed_postflop = e.flops[0].solver, back.flops[0].solver
    assert postflop.compression == compression and postflop.iterations == resumed_postflop.iterations == 6
    state = postflop.state()
    assert {a.dtype for a in state.values()} >= ({np.dtype(np.int16)} if compression else {np.dtype(np.float32)})
    for name, array in state.items():
        np.testing.assert_array_equal(resumed_postflop.state()[name], array, err_msg=name)
    for node, (d_oop, d_ip) in straight.corrections.items():
        np.testing.assert_array_equal(resumed.corrections[node][0], d_oop)
        np.testing.assert_array_equal(resumed.corrections[node][1], d_ip)
    assert [h["iteration"] for h in resumed.history] == [2, 4, 6]


@pytest.mark.parametrize("estimator", ["per_class", "pooled"])
def test_a_run_continued_under_a_larger_budget_averages_only_its_second_half(setting, equity_table, tmp_path,
                                                                            estimator):
    """A run of 4 iterations sums its exchange at 4; continued to 8 its table averages the exchanges at 6
    and 8 alone, as a run of 8 from the start does (4 is in the first half of 8), bit for bit: the
    shorter budget's summing, its save and the resume leave the play as it was (pooled reads the
    preflop average strategy too)."""
    longer = {"every": 2, "iterations": 8}
    straight = _solve(setting, equity_table, exchange=longer, estimator=estimator)
    straight.run(8)
    first = _solve(setting, equity_table, exchange={"every": 2, "iterations": 4}, estimator=estimator)
    first.run(4, tmp_path / "state.npz")
    assert first.summed == 1
    extended = _solve(setting, equity_table, exchange=longer, estimator=estimator)
    assert extended.load(tmp_path / "state.npz")
    extended.run(8)
    assert extended.summed == straight.summed == 2
    played = ("iteration", "correction_change_bb", "gap_before_bb")
    assert [[h[k] for k in played] for h in extended.history] == [[h[k] for k in played] for h in straight.history]
    for name, array in straight.preflop.state().items():
        np.testing.assert_array_equal(extended.preflop.state()[name], array, err_msg=name)
    table, reference = extended.averaged_table({}), straight.averaged_table({})
    for node, (d_oop, d_ip) in reference.endings.items():
        np.testing.assert_array_equal(table.endings[node][0], d_oop)
        np.testing.assert_array_equal(table.endings[node][1], d_ip)


def test_a_state_of_other_settings_is_not_resumed(setting, equity_table, tmp_path):
    settings = setting[2]
    solve = _solve(setting, equity_table)
    solve.run(2, tmp_path / "state.npz")
    for change in ({"floor_weight": 0.01}, {"compression": not settings.compression}):
        fresh = _solve(setting, equity_table, **change)
        assert not fresh.load(tmp_path / "state.npz") and fresh.iteration == 0, change


def test_the_memory_report_gives_what_the_resident_solve_holds(setting, equity_table, tmp_path):
    """The exchange's job asks for what its solve will hold, measured one flop at a time: each flop's
    figure is what the resident solve's solver holds, and the job adds the largest once (the checkpoint
    writes one solve's state at a time) and the process."""
    sizing, base, settings, plan = setting
    two = SolvedSettings.from_config({**settings.raw, "boards": 2})
    paths = tuple(tmp_path / f"{name}.tsv" for name in ("spots", "endings", "boards"))
    write_ending_plan(plan[0].parent / "result.json", SPOT.name, sizing, two, *paths)
    solves = {resident: JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, two, paths[1], paths[2],
                                   resident=resident) for resident in (False, True)}
    held = {f.key: f.solver.memory_bytes for e in solves[True].endings for f in e.flops}
    assert len(held) == 2 and all(f.solver is None for e in solves[False].endings for f in e.flops)
    report = write_memory_report(solves[False], tmp_path / "memory.json")
    assert solves[False].flop_memory_bytes() == held
    assert report["flops_mib"] == {k: round(v / 2**20, 1) for k, v in held.items()}
    assert report["job_mem_mb"] == int(np.ceil((sum(held.values()) + max(held.values())) / 2**20)) + PROCESS_MB
    assert job_mem_mb(tmp_path / "memory.json") == report["job_mem_mb"]
    with pytest.raises(FileNotFoundError) as missing:  # Snakemake waits for the file rather than failing
        job_mem_mb(str(tmp_path / "none.json"))
    assert missing.value.filename == str(tmp_path / "none.json")
    for text in ('{"job_mem_mb": 0}', '{"job_mem_mb": 12.5}', "[]", "{"):
        (tmp_path / "bad.json").write_text(text)
        with pytest.raises(ValueError, match="bad.json"):
            job_mem_mb(tmp_path / "bad.json")


def test_the_exchange_needs_a_positive_floor(setting, equity_table):
    sizing, base, settings, plan = setting
    zero = SolvedSettings.from_config({**settings.raw, "floor_weight": 0.0})
    with pytest.raises(ValueError, match="solved.floor_weight: the exchanging solve needs a positive floor"):
        JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, zero, plan[1], plan[2])


def test_the_outputs_name_the_method_and_the_joint_exploitability(setting, equity_table, tmp_path):
    solve = _solve(setting, equity_table)
    solve.run(6)
    report = write_outputs(solve, {"command": "test"}, tmp_path / "table.tsv", tmp_path / "result.json",
                           tmp_path / "report.json")
    gains = report["exploitability_per_seat"]
    assert set(gains) == set(SPOT.positions) and all(g > -1e-6 for g in gains.values())
    table = read_ending_corrections(tmp_path / "table.tsv")
    assert table.provenance["method"] == "exchange" and table.provenance["iterations"] == 6
    assert table.provenance["exchanges_averaged"] == 2  # iterations 4 and 6: the run's second half
    chart = read_result(tmp_path / "result.json")
    assert chart["settings"]["postflop_model"] == "solved"
    assert chart["exploitability_bb"] == pytest.approx(max(gains.values()))
    assert chart["tier_shares"]["flop_solved"] > 0
    assert len(chart["nodes"]) == sum(n.kind == "decision" for n in solve.tree.nodes)  # whatever its status
    report = json.loads((tmp_path / "report.json").read_text())
    assert report["history"][-1]["iteration"] == 6
    (ending,) = report["endings"]
    assert ending["gap_fitting_bb"] < ending["model_gap_bb"]


def test_a_second_half_chart_averages_the_iterations_the_table_spans(setting, equity_table, tmp_path):
    """Under ``exchange.average: second_half`` the run itself is unchanged (same table, same regrets),
    and its chart and start average the preflop iterations after the half-way point: the whole run's
    strategy sums less those of a run stopped there. A run continued under a larger budget keeps the
    sums where its new half begins, as a run of that budget from the start does; the rounds refuse it."""
    budget = {"every": 2, "iterations": 8}
    whole, half = _solve(setting, equity_table, exchange=budget), _solve(setting, equity_table, exchange=budget)
    second = _solve(setting, equity_table, exchange={**budget, "average": "second_half"})
    whole.run(8)
    second.run(8)
    half.run(4)
    sums = {k: v for k, v in whole.preflop.state().items() if k.startswith("strategy_sum_")}
    for name, array in half.preflop.state().items():
        if name.startswith("strategy_sum_"):
            np.testing.assert_array_equal(second.sums_at_half[name], array, err_msg=name)
    for name, array in whole.preflop.state().items():
        np.testing.assert_array_equal(second.preflop.state()[name], array, err_msg=name)
    kept = dict(second.sums_at_half)
    outputs = {}
    for label, solve in (("whole", whole), ("second", second)):
        folder = tmp_path / label
        folder.mkdir()
        write_outputs(solve, {"command": "test"}, folder / "table.tsv", folder / "chart.json", folder / "report.json")
        outputs[label] = folder
    tables = [read_ending_corrections(outputs[label] / "table.tsv") for label in ("whole", "second")]
    assert tables[0].digest() == tables[1].digest()  # the same corrections (the settings digests differ)
    start = dict(np.load(outputs["second"] / "table.start.npz"))
    assert int(start["iteration"]) == 8
    for name, array in sums.items():
        np.testing.assert_array_equal(start[name], array - half.preflop.state()[name], err_msg=name)
    assert not np.array_equal(np.load(outputs["whole"] / "table.start.npz")[name], start[name])
    report = json.loads((outputs["second"] / "report.json").read_text())
    start_record = read_result(outputs["second"] / "chart.json")
    assert start_record["exploitability_per_seat"] == report["exploitability_per_seat"]

    shorter = _solve(setting, equity_table, exchange={"every": 2, "iterations": 4, "average": "second_half"})
    shorter.run(4, tmp_path / "state.npz")
    continued = _solve(setting, equity_table, exchange={**budget, "average": "second_half"})
    assert continued.load(tmp_path / "state.npz") and continued.iteration == 4
    continued.run(8)
    for name, array in kept.items():
        np.testing.assert_array_equal(continued.sums_at_half[name], array, err_msg=name)

    from pokerlab.solved.rounds import preflop_round

    sizing, base, settings, plan = setting
    rounds_settings = SolvedSettings.from_config({**settings.raw, "exchange": {**budget, "average": "second_half"}})
    with pytest.raises(ValueError, match="exchange.average: second_half needs the exchange in one process"):
        preflop_round(JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, rounds_settings, plan[1],
                                 plan[2], resident=False), 1, None, [], tmp_path / "r1.npz", tmp_path / "a1.npz")
    assert not (tmp_path / "r1.npz").exists() and not (tmp_path / "a1.npz").exists()
    with pytest.raises(ValueError, match=r"solved.exchange.average: 'third' must be one of"):
        SolvedSettings.from_config({**settings.raw, "exchange": {**budget, "average": "third"}})

def test_a_shipped_table_and_its_start_solve_to_the_exchanges_chart(setting, equity_table, tmp_path):
    """The exchange's table and start, read as a committed folder: the solve measures the start only,
    and its chart has the exchange's chart's strategies (the same average strategy), shipped or rejected
    by the bar as it stands; a start beside other corrections is refused."""
    import dataclasses

    from pokerlab.preflop.ending_corrections import start_path
    from pokerlab.preflop.solve import solved_table_name

    sizing, base, settings, _ = setting
    solve = _solve(setting, equity_table)
    solve.run(6)
    table_path = tmp_path / solved_table_name(SPOT)
    report = write_outputs(solve, {"command": "test"}, table_path, tmp_path / "exchange.json", tmp_path / "report.json")
    exchange = read_result(tmp_path / "exchange.json")
    shipped = dataclasses.replace(base, model="solved", solved_tables=str(tmp_path),
                                  solved_settings_sha256=settings.sha256(), checkpoints=(6,), bar_coefficient=100.0)
    chart = solve_spot(SPOT, sizing, equity_table.win, equity_table.tie, shipped)
    assert [n["strategy"] for n in chart["nodes"]] == [n["strategy"] for n in exchange["nodes"]]
    assert chart["history"][0]["iterations"] == 6
    start = chart["settings"]["solved_endings"]["start"]
    assert start["iteration"] == 6 and start["joint_exploitability_per_seat"] == report["exploitability_per_seat"]
    # the summary and the index page carry the joint figure beside the status
    from pokerlab.publish import spot_outcome
    from pokerlab.viewer import index_html
    outcome = spot_outcome(chart)
    assert outcome["joint_exploitability_bb"] == max(report["exploitability_per_seat"].values()) > 0
    assert f"<td>{outcome['joint_exploitability_bb']:.3f}</td>" in index_html([outcome])
    assert spot_outcome(exchange)["joint_exploitability_bb"] is None  # the exchange's own chart has no start
    strict = solve_spot(SPOT, sizing, equity_table.win, equity_table.tie,
                        dataclasses.replace(shipped, checkpoints=(6, 20), bar_coefficient=base.bar_coefficient))
    assert [h["iterations"] for h in strict["history"]] == [6]  # judged as it stands, never continued
    assert strict["status"] == "rejected" and strict["exploitability_bb"] == chart["exploitability_bb"]
    other = read_ending_corrections(table_path)
    node = next(iter(other.endings))
    from pokerlab.preflop.ending_corrections import write_ending_corrections
    write_ending_corrections(table_path, dataclasses.replace(
        other, endings={**other.endings, node: (other.endings[node][0] + 0.5, other.endings[node][1])}))
    assert start_path(table_path).exists()
    with pytest.raises(ValueError, match="written with other corrections than the table beside it"):
        solve_spot(SPOT, sizing, equity_table.win, equity_table.tie, shipped)


def test_the_average_strategys_change_is_the_charts(setting, equity_table, tmp_path):
    """sigma_change on the solver's arrays equals loop.strategy_change on the two charts written from them."""
    from pokerlab.solved.joint import sigma_change
    from pokerlab.solved.loop import strategy_change

    solve = _solve(setting, equity_table)
    charts, sigmas = [], []
    for until in (2, 6):
        solve.run(until)
        write_outputs(solve, {"command": "test"}, tmp_path / "t.tsv", tmp_path / f"{until}.json", tmp_path / "r.json")
        charts.append(read_result(tmp_path / f"{until}.json"))
        sigmas.append(solve.preflop.average_sigma())
    expected = strategy_change(charts[1], charts[0])
    found = sigma_change(solve.tree, sigmas[1], sigmas[0], solve.preflop.reach_under(sigmas[1]))
    assert expected["max_pp"] > 1.0
    assert found["max_pp"] == pytest.approx(expected["max_pp"], abs=1e-2)  # the charts round to 1e-6
    assert found["mean_pp"] == pytest.approx(expected["mean_pp"], abs=1e-2)
    assert sigma_change(solve.tree, sigmas[1], sigmas[1], solve.preflop.reach_under(sigmas[1]))["max_pp"] == 0


@pytest.mark.slow
@pytest.mark.snakemake
def test_the_workflow_runs_the_exchange_and_resumes_a_killed_job(tmp_path):
    """solved_exchange runs the spot's model solve, its plan and the exchanging solve as jobs; the
    solve job's state file lets a second run continue from it (here: a longer run reusing it)."""
    import subprocess
    import sys

    workflow_copy(tmp_path)

    def run(iterations: int, target="solved_exchange"):
        (tmp_path / "over.yaml").write_text(
            "solve:\n  checkpoints: [200]\n"
            "solved:\n  spots: [{format: cash, seats: 2, depth: 8}]\n  estimator: per_class\n  endings: {max_per_spot: 1, min_reach: 0.01}\n"
            f"  boards: 1\n  heldout_boards: 0\n  exchange: {{every: 2, iterations: {iterations}, average: whole_run}}\n"
            f"  bet_trees:\n{ALLIN_TREES}\n")
        return subprocess.run([sys.executable, "-m", "snakemake", target, "--cores", "1",
                               "--configfile", "over.yaml"], cwd=tmp_path, capture_output=True, text=True, timeout=900)

    out = run(4)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads((tmp_path / "results/solved/exchange/cash-2max-8bb.json").read_text())
    assert [h["iteration"] for h in report["history"]] == [2, 4]
    # the solve's job asked for the memory its flop solves measured in the job before it
    memory = job_mem_mb(tmp_path / "results/solved/exchange/cash/2max/8bb/memory.json")
    assert re.search(rf"rule solved_exchange_solve:(?:\n    .*)*\n    resources: .*\bmem_mb={memory}\b", out.stderr)
    out = run(6)  # a longer run: the job re-runs and continues from the state of the shorter one
    assert out.returncode == 0, out.stderr[-2000:]
    log = (tmp_path / "logs/solved/exchange_cash-2max-8bb.log").read_text()
    assert "resumed at iteration 4" in log
    report = json.loads((tmp_path / "results/solved/exchange/cash-2max-8bb.json").read_text())
    assert [h["iteration"] for h in report["history"]] == [2, 4, 6]
    chart = read_result(tmp_path / "results/solved/exchange/cash/2max/8bb/result.json")
    assert chart["settings"]["solved_method"]["method"] == "exchange" and "history" in report, log
    # the ship check: the spot solved as the default run would, under the exchange's table and start
    out = run(6, "solved_exchange_check")
    assert out.returncode == 0, out.stderr[-2000:]
    check = read_result(tmp_path / "results/solved/exchange/check/cash/2max/8bb/result.json")
    start = check["settings"]["solved_endings"]["start"]
    assert start["sha256"] == sha256_file(tmp_path / "results/solved/exchange/cash-2max-8bb.start.npz")
    assert start["iteration"] == 6 and [h["iterations"] for h in check["history"]] == [6]
    assert start["joint_exploitability_per_seat"] == report["exploitability_per_seat"]
    assert check["settings"]["solved_endings"]["corrections_sha256"] == read_ending_corrections(
        tmp_path / "results/solved/exchange/cash-2max-8bb.tsv").digest()
    assert check["status"] in ("shipped", "rejected") and check["exploitability_bb"] > 0
    # shipping reads this check as written: it names the table and start the run left, so no refusal but the
    # check's own status can come from it (the held-out report is stood in for: this run holds no flop out)
    from pokerlab.solved.ship import MeasuredPair, ship_refusals
    from pokerlab.io import read_merged_yaml

    pair = MeasuredPair.of("cash/2max/8bb", tmp_path / "results/solved")
    pair.heldout_report.write_text(json.dumps({"table_sha256": sha256_file(pair.table), "verdict": {"ships": True}}))
    section = read_merged_yaml([tmp_path / "config/config.yaml", tmp_path / "over.yaml"], "config file")["solved"]
    assert ship_refusals(pair, section) == ([] if check["status"] == "shipped" else [
        f"{pair.check_result.as_posix()}: the ship check says 'rejected', not 'shipped' (exploitability "
        f"{check['exploitability_bb']} bb against the bar {check['bar_bb']} bb)"])


def test_held_out_flops_are_valued_with_the_charts_ranges(setting, equity_table, tmp_path):
    """validate: the arrivals carry the chart's own reach at each planned ending; a table of zero
    corrections leaves the held-out gap at the model's; a table measured on the held-out flop itself
    leaves only the conservation residual, half of it per role."""
    from pokerlab.solved.loop import solve_ending_job
    from pokerlab.solved.validate import heldout_keys, validation_report, write_arrivals
    from pokerlab.preflop.ending_corrections import EndingCorrections, write_ending_corrections
    from pokerlab.fit.solves import read_measurement

    sizing, base, settings, plan = setting
    settings = SolvedSettings.from_config({**settings.raw, "heldout_boards": 1})
    held_plan = tuple(tmp_path / f"{name}.tsv" for name in ("spots", "endings", "boards"))
    write_ending_plan(plan[1].parent / "result.json", SPOT.name, sizing, settings, *held_plan)
    solve = JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, settings, held_plan[1], held_plan[2])
    assert sum(len(e.flops) for e in solve.endings) == 1  # the held-out flop stays out of the exchange
    solve.run(6)
    write_outputs(solve, {"command": "test"}, tmp_path / "table.tsv", tmp_path / "result.json", tmp_path / "report.json")
    arrivals = write_arrivals(tmp_path / "result.json", sizing, held_plan[1], tmp_path / "arrivals.tsv")
    (e,) = solve.endings
    k = solve.tree.index[e.node]
    reach = solve.preflop.reach_under(solve.preflop.average_sigma())
    np.testing.assert_allclose([float(v) for v in arrivals.loc[0, "oop_reach"].split(",")], reach[e.seats[0], k],
                               atol=1e-5)
    np.testing.assert_allclose([float(v) for v in arrivals.loc[0, "ip_reach"].split(",")], reach[e.seats[1], k],
                               atol=1e-5)

    (key,) = heldout_keys(SPOT.name, 1, settings.boards, settings.heldout_boards)
    assert key.endswith("/e0/b1")
    solve_ending_job(tmp_path / "arrivals.tsv", held_plan[2], key, settings, tmp_path / "held.parquet")
    frame, record = read_measurement(tmp_path / "held.parquet")
    assert record["heldout"] and record["board"] != e.flops[0].board

    def report_with(endings, provenance=None):
        write_ending_corrections(tmp_path / "t.tsv", EndingCorrections(SPOT.name, endings, provenance or {}))
        return validation_report(SPOT, sizing, base, equity_table.win, equity_table.tie, tmp_path / "t.tsv",
                                 tmp_path / "arrivals.tsv", held_plan[2], [tmp_path / "held.parquet"],
                                 tmp_path / "validation.json")

    zero = np.zeros(cards.N_CLASSES)
    plain = report_with({e.node: (zero, zero)})
    assert plain["gap_heldout_bb"] == plain["model_gap_heldout_bb"] > 0
    assert plain["verdict"] == {"ships": False, "reasons": [
        f"the table's held-out gap {plain['gap_heldout_bb']:g} bb is not below the model's "
        f"{plain['model_gap_heldout_bb']:g} bb"]}
    assert "sampling_gap_bb" not in plain and "flop_spread_bb" not in plain["endings"][0]  # one flop: no spread
    q_oop, q_ip = (cards.CLASS_PRIOR * reach[s, k] for s in e.seats)
    solved = V.solved_class_values([(frame, record)], e.contrib)
    model = V.model_class_values(solve.model_payoffs, e.row, e.seats, q_oop, q_ip, equity_table.win, equity_table.tie)
    d_oop, d_ip, residual = V.corrections(solved, model, q_oop, q_ip)
    fitted = report_with({e.node: (d_oop, d_ip)})
    assert fitted["gap_heldout_bb"] == pytest.approx(abs(residual) / 2, abs=1e-4)
    assert fitted["gap_heldout_bb"] < 0.2 * plain["model_gap_heldout_bb"]
    assert fitted["verdict"] == {"ships": True, "reasons": []}
    assert fitted["table_sha256"] == sha256_file(tmp_path / "t.tsv") != plain["table_sha256"]  # what ship checks
    # a chart that no longer reaches an ending of its table: that table may not ship, however it values the rest
    kept = (tmp_path / "arrivals.tsv").read_bytes()
    arrived = pd.read_csv(tmp_path / "arrivals.tsv", sep="\t", keep_default_na=False)
    arrived.loc[0, "reach"] = 0.0
    arrived.to_csv(tmp_path / "arrivals.tsv", sep="\t", index=False)
    unreached = report_with({e.node: (d_oop, d_ip)})
    assert unreached["endings"][0]["skipped"] == "not reached by the chart"
    assert unreached["verdict"] == {"ships": False, "reasons": [f"{e.node}: in the table but not reached by the chart",
                                                                "no ending valued on held-out flops"]}
    (tmp_path / "arrivals.tsv").write_bytes(kept)
    assert report_with({"X": (zero, zero)})["endings"][0]["skipped"] == "not in the table"
    # a pooled table was measured against the floored ranges its provenance names: valued against them
    from pokerlab.solved.loop import valued_ranges
    floor = 0.3  # large, so the floored ranges differ from the chart's
    f_oop, f_ip = valued_ranges("pooled", reach[e.seats[0], k], reach[e.seats[1], k], floor)
    f_model = V.model_class_values(solve.model_payoffs, e.row, e.seats, f_oop, f_ip, equity_table.win, equity_table.tie)
    fd_oop, fd_ip, f_residual = V.corrections(solved, f_model, f_oop, f_ip)
    pooled = report_with({e.node: (fd_oop, fd_ip)}, {"settings": {"estimator": "pooled", "floor_weight": floor}})
    assert pooled["gap_heldout_bb"] == pytest.approx(abs(f_residual) / 2, abs=1e-4)
    unfloored, _ = V.valuation_gaps(model, (fd_oop, fd_ip), solved, q_oop, q_ip)  # as a per_class table is valued
    assert report_with({e.node: (fd_oop, fd_ip)})["gap_heldout_bb"] == pytest.approx(unfloored, abs=1e-4)
    assert abs(unfloored - pooled["gap_heldout_bb"]) > 0.005


def test_the_validation_draws_its_held_out_flops_as_the_plan_does(setting, tmp_path):
    """write_validation_boards: as many held-out flops as the plan gives the plan's own board rows, byte for
    byte; more keep the plan's fitting flops and add held-out ones that are new, distinct and equally weighted."""
    from pokerlab.solved.validate import write_validation_boards

    sizing, _, settings, plan = setting
    planned = tuple(tmp_path / f"{name}.tsv" for name in ("spots", "endings", "boards"))
    with_two = SolvedSettings.from_config({**settings.raw, "boards": 3, "heldout_boards": 2})
    write_ending_plan(plan[1].parent / "result.json", SPOT.name, sizing, with_two, *planned)
    write_validation_boards(planned[1], with_two, tmp_path / "same.tsv")
    assert (tmp_path / "same.tsv").read_bytes() == planned[2].read_bytes()

    more = write_validation_boards(planned[1], SolvedSettings.from_config({**with_two.raw, "validation_boards": 7}),
                                   tmp_path / "more.tsv")
    plan_boards = pd.read_csv(planned[2], sep="\t", keep_default_na=False)
    fitting = more[~more["heldout"]].reset_index(drop=True)
    pd.testing.assert_frame_equal(fitting, plan_boards[plan_boards["heldout"].astype(str) != "True"]
                                  .reset_index(drop=True), check_dtype=False)
    held = more[more["heldout"]]
    assert list(held["board_index"]) == list(range(3, 10)) and np.allclose(held["weight"], 1 / 7)
    assert len(set(more["board"])) == len(more)  # no flop twice


@pytest.mark.parametrize("postflop_every", [2, 1])
def test_the_exchange_as_rounds_of_jobs_computes_the_in_process_solve(setting, equity_table, tmp_path, postflop_every):
    """pokerlab.solved.rounds: the preflop side and each flop solve as their own jobs per exchange,
    through files, give the in-process solve's corrections, preflop state, postflop state, joint
    exploitability, table and chart, bit for bit (measuring rounds included: 6 rounds, measured after
    the 5th and the 6th), with the flops iterating as often as the preflop side or half as often."""
    from pokerlab.solved.rounds import finish, flop_round, preflop_round, round_iterations

    sizing, base, settings, plan = setting
    settings = SolvedSettings.from_config({**settings.raw, "exchange": {"every": 2, "iterations": 12,
                                                                        "postflop_every": postflop_every}})

    def fresh(resident):
        return JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, settings, plan[1], plan[2],
                          resident=resident)

    inside = fresh(True)
    inside.run(12)
    write_outputs(inside, {"command": "test"}, tmp_path / "a.tsv", tmp_path / "a" / "result.json", tmp_path / "a.json")

    rounds = round_iterations(settings.exchange_every, settings.exchange_iterations)
    assert rounds == [2] * 6
    keys = [f.key for e in fresh(False).endings for f in e.flops]
    previous, measurements, flop_states = None, [], {}
    for r in range(1, len(rounds) + 1):
        folder = tmp_path / f"r{r}"
        preflop_round(fresh(False), r, previous, measurements, folder / "preflop.npz", folder / "arrivals.npz")
        measurements = []
        for key in keys:
            name = key.split("/", 3)[3]
            state, measured = folder / f"{name}.state", folder / f"{name}.parquet"
            state.parent.mkdir(parents=True, exist_ok=True)
            flop_round(fresh(False), key, flop_states.get(key), folder / "arrivals.npz", state, measured)
            flop_states[key] = state
            measurements.append(measured)
        previous = (folder / "preflop.npz", folder / "arrivals.npz")
    outside = fresh(False)
    report = finish(outside, previous, measurements, {"command": "test"}, tmp_path / "b.tsv",
                    tmp_path / "b" / "result.json", tmp_path / "b.json")

    for name, array in inside.preflop.state().items():
        np.testing.assert_array_equal(outside.preflop.state()[name], array, err_msg=name)
    for node, (d_oop, d_ip) in inside.corrections.items():
        np.testing.assert_array_equal(outside.corrections[node][0], d_oop)
        np.testing.assert_array_equal(outside.corrections[node][1], d_ip)
    (e,) = inside.endings
    assert e.flops[0].solver.iterations == 6 * postflop_every
    data = read_arrays(flop_states[e.flops[0].key])
    assert int(data["iterations"]) == 6 * postflop_every
    for name, array in e.flops[0].solver.state().items():
        np.testing.assert_array_equal(data[name], array, err_msg=name)
    timing = ("wall_seconds", "cpu_seconds")
    strip = [{k: v for k, v in row.items() if k not in timing} for row in inside.history]
    assert [{k: v for k, v in row.items() if k not in timing} for row in outside.history] == strip
    assert [i for i, row in enumerate(strip) if "joint_gain_bb" in row] == [4, 5]
    assert (tmp_path / "a.tsv").read_bytes() == (tmp_path / "b.tsv").read_bytes()
    assert (tmp_path / "a" / "result.json").read_bytes() == (tmp_path / "b" / "result.json").read_bytes()
    assert report["endings"] == json.loads((tmp_path / "a.json").read_text())["endings"]


def test_the_workflow_runs_the_rounds_as_jobs_and_matches_the_exchange(tmp_path):
    """solved_rounds: each exchange a round of jobs (a preflop job, one job per fitting flop; the plan
    asks for two endings of which the spot has one, so the second rank's jobs write empty files) gives
    the table's corrections and the chart's arrays of solved_exchange, byte for byte; the flops' states
    are temporary."""
    import subprocess
    import sys

    workflow_copy(tmp_path)
    (tmp_path / "over.yaml").write_text(
        "solve:\n  checkpoints: [200]\n"
        "solved:\n  spots: [{format: cash, seats: 2, depth: 8}]\n  estimator: per_class\n  endings: {max_per_spot: 2, min_reach: 0.01}\n"
        f"  boards: 1\n  heldout_boards: 0\n  exchange: {{every: 2, iterations: 6, postflop_every: 1, average: whole_run}}\n"
        f"  bet_trees:\n{ALLIN_TREES}\n")
    for target in ("solved_rounds", "solved_exchange"):
        out = subprocess.run([sys.executable, "-m", "snakemake", target, "--cores", "2", "--configfile", "over.yaml"],
                             cwd=tmp_path, capture_output=True, text=True, timeout=900)
        assert out.returncode == 0, out.stderr[-3000:]
    solved = tmp_path / "results/solved"

    def rows(path):  # the table without its provenance comments (they name the command)
        return [line for line in path.read_text().splitlines() if not line.startswith("#")]

    assert rows(solved / "rounds/cash-2max-8bb.tsv") == rows(solved / "exchange/cash-2max-8bb.tsv")
    assert (solved / "rounds/cash/2max/8bb/result.npz").read_bytes() == \
        (solved / "exchange/cash/2max/8bb/result.npz").read_bytes()  # every node's strategy, reach and values
    rounds = solved / "rounds/cash/2max/8bb"
    assert sorted(p.relative_to(rounds).as_posix() for p in rounds.glob("r*/e*/*")) == \
        [f"r{r}/e{e}/b0.parquet" for r in (1, 2, 3) for e in (0, 1)]
    report = json.loads((solved / "rounds/cash-2max-8bb.json").read_text())
    assert [h["iteration"] for h in report["history"]] == [2, 4, 6] and "joint_gain_bb" in report["history"][-1]


@pytest.mark.snakemake
def test_the_workflow_runs_the_outer_loop_and_each_table_feeds_the_next_solve(tmp_path):
    """solved_tables, two outer iterations: the postflop jobs of iteration k measure table k+1
    (solved_update), the preflop solve of iteration k+1 reads it, and solved_table keeps the last table
    and one convergence row per iteration; the tables name the command that re-measures them."""
    import subprocess
    import sys

    import pandas as pd

    workflow_copy(tmp_path)
    (tmp_path / "over.yaml").write_text(
        "solve:\n  checkpoints: [200]\n"
        "solved:\n  spots: [{format: cash, seats: 2, depth: 8}]\n  estimator: per_class\n  endings: {max_per_spot: 1, min_reach: 0.01}\n"
        f"  boards: 1\n  heldout_boards: 0\n  outer_iterations: 2\n  max_iterations: 20\n  bet_trees:\n{ALLIN_TREES}\n")
    out = subprocess.run([sys.executable, "-m", "snakemake", "solved_tables", "--cores", "2", "--configfile", "over.yaml"],
                         cwd=tmp_path, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    solved = tmp_path / "results/solved"
    first, last = (read_ending_corrections(solved / f"i{k}/measured/cash-2max-8bb.tsv") for k in (0, 1))
    assert (solved / "tables/cash-2max-8bb.tsv").read_text() == (solved / "i1/measured/cash-2max-8bb.tsv").read_text()
    assert first.endings.keys() == last.endings.keys() and len(first.endings) == 1
    assert '"command": "snakemake --cores 2 solved_tables --configfile over.yaml"' in \
        (solved / "tables/cash-2max-8bb.tsv").read_text()
    chart = read_result(solved / "i1/preflop/cash/2max/8bb/result.json")
    assert chart["settings"]["postflop_model"] == "solved" and chart["tier_shares"]["flop_solved"] > 0
    assert read_result(solved / "i0/preflop/cash/2max/8bb/result.json")["tier_shares"].get("flop_solved", 0) == 0
    convergence = pd.read_csv(solved / "report/cash-2max-8bb-convergence.tsv", sep="\t")
    # a row per outer iteration, and one for the chart solved under the last table (no postflop solves)
    assert list(convergence["iteration"]) == [0, 1, 2] and list(convergence["postflop_cpu_seconds"] > 0) == [True, True, False]
    assert convergence["strategy_change_max_pp"].isna().tolist() == [True, False, False]


def test_held_out_flops_run_the_rounds_and_the_report_gives_their_gap(setting, equity_table, tmp_path):
    """A held-out flop runs the rounds beside the fitting one without entering the corrections; the
    rounds report's fitting gap is the history's gap_before_bb (two code paths), round 1 (no corrections
    yet) pays the model's gaps on both kinds of flop, and the held-out gap is reported every round."""
    from pokerlab.solved.rounds import finish, flop_round, preflop_round, rounds_report

    sizing, base, settings, plan = setting
    settings = SolvedSettings.from_config({**settings.raw, "heldout_boards": 1, "exchange": {"every": 2, "iterations": 6}})
    paths = tuple(tmp_path / f"{name}.tsv" for name in ("spots", "endings", "boards"))
    write_ending_plan(plan[0].parent / "result.json", SPOT.name, sizing, settings, *paths)

    def fresh():
        return JointSolve(SPOT, sizing, base, equity_table.win, equity_table.tie, settings, paths[1], paths[2],
                          resident=False)

    (ending,) = fresh().endings
    assert len(ending.flops) == 1 and len(ending.heldout) == 1 and ending.heldout[0].board != ending.flops[0].board
    fitting, heldout = ending.flops[0].key, ending.heldout[0].key
    previous, states = None, {}
    for r in (1, 2, 3):
        folder = tmp_path / f"r{r}"
        preflop_round(fresh(), r, previous, [tmp_path / f"r{r - 1}" / "e0" / "b0.parquet"] if r > 1 else [],
                      folder / "preflop.npz", folder / "arrivals.npz")
        for key in (fitting, heldout):
            name = key.split("/", 3)[3]
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            flop_round(fresh(), key, states.get(key), folder / "arrivals.npz", folder / f"{name}.state",
                       folder / f"{name}.parquet")
            states[key] = folder / f"{name}.state"
        previous = (folder / "preflop.npz", folder / "arrivals.npz")
    report = finish(fresh(), previous, [tmp_path / "r3" / "e0" / "b0.parquet"], {"command": "test"},
                    tmp_path / "t.tsv", tmp_path / "c" / "result.json", tmp_path / "report.json")
    rows = rounds_report(fresh(), tmp_path, report["history"], tmp_path / "rounds.json")
    assert [row["iteration"] for row in rows] == [2, 4, 6]
    assert json.loads((tmp_path / "rounds.json").read_text())["rounds"] == rows
    for row in rows:
        (e,) = row["endings"]
        assert e["gap_fitting_bb"] == pytest.approx(row["history"]["gap_before_bb"], abs=2e-6)
        assert e["gap_heldout_bb"] > 0 and row["gap_heldout_bb"] == e["gap_heldout_bb"]
    first = rows[0]["endings"][0]
    assert first["gap_fitting_bb"] == first["model_gap_fitting_bb"]
    assert first["gap_heldout_bb"] == first["model_gap_heldout_bb"]
    assert rows[1]["gap_heldout_bb"] != rows[1]["model_gap_heldout_bb"]  # corrections in use from round 2 on
    assert "joint_gain_bb" in rows[-1]["history"]  # the last round measures
