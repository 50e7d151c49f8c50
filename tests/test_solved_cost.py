"""The price of solved endings (pokerlab.solved.cost): tree cells counted by hand, calibration from job logs."""

import pytest

from pokerlab.postflop.game import BetTree
from pokerlab.solved.cost import Calibration, price_flop_job, read_calibration, tree_cells


def test_tree_cells_of_an_allin_only_tree_count_by_hand():
    # per street: OOP check/all-in, IP after a check check/all-in, and fold/call facing each all-in:
    # 4 decision nodes of 2 actions; the check-check line reaches the turn (49 cards) and the river
    # (49 x 48 card paths)
    tree = BetTree.uniform(allin=True, raise_cap=0)
    assert tree_cells(10.0, 90.0, tree) == 8 * (1 + 49 + 49 * 48)


def test_a_deeper_tree_has_more_cells_and_a_shallow_one_fewer():
    tree = BetTree.uniform(bets=(50,), allin=True, raise_cap=0)
    assert tree_cells(10.0, 2.0, tree) < tree_cells(10.0, 200.0, tree)


def write_log(path, lines):
    path.write_text("".join(f"{line}\n" for line in lines))


def test_calibration_reads_each_jobs_own_cpu_from_the_round_logs(tmp_path):
    write_log(tmp_path / "cash-2max-100bb_r1_preflop.log", ["iteration 10/400", "job cpu_seconds 3.000"])
    write_log(tmp_path / "cash-2max-100bb_r2_preflop.log", ["job cpu_seconds 5.000"])
    write_log(tmp_path / "cash-2max-100bb_r1_e0_b0.log", ["job cpu_seconds 20.000"])
    write_log(tmp_path / "cash-2max-100bb_r2_e0_b0.log", ["job cpu_seconds 30.000"])
    write_log(tmp_path / "cash-2max-100bb_r1_e1_b3.log", ["job cpu_seconds 41.000"])
    write_log(tmp_path / "cash-2max-100bb_r2_e1_b3.log", ["still running"])  # unfinished: left out
    write_log(tmp_path / "cash-2max-100bb_r1_e2_b0.log", ["job cpu_seconds 1.000"])  # a rank the plan lacks
    write_log(tmp_path / "cash-6max-100bb_r1_e0_b0.log", ["job cpu_seconds 99.000"])  # another spot
    cal = read_calibration(tmp_path, "cash/2max/100bb", {0: 1000, 1: 2000}, fixed_cpu=10.0)
    assert (cal.rounds, cal.preflop_job_cpu) == (2, 4.0)
    assert cal.flop_job_cpu == {0: 25.0, 1: 41.0} and cal.flop_jobs == {0: 2, 1: 1}
    # job-weighted: two jobs at (25 - 10) / 1000 and one at (41 - 10) / 2000
    assert cal.variable_cpu_per_cell == pytest.approx((2 * 0.015 + 0.0155) / 3)
    assert price_flop_job(cal, 4000, iterations_scale=0.5) == pytest.approx(10.0 + cal.variable_cpu_per_cell * 2000)
    later = read_calibration(tmp_path, "cash/2max/100bb", {0: 1000}, fixed_cpu=10.0, rounds=range(2, 3))
    assert (later.rounds, later.preflop_job_cpu, later.flop_job_cpu, later.flop_jobs) == (1, 5.0, {0: 30.0}, {0: 1})


def test_calibration_without_jobs_for_an_ending_names_the_folder(tmp_path):
    write_log(tmp_path / "cash-2max-100bb_r1_preflop.log", ["job cpu_seconds 3.000"])
    write_log(tmp_path / "cash-2max-100bb_r1_e0_b0.log", ["job cpu_seconds 20.000"])
    with pytest.raises(ValueError, match=str(tmp_path)):
        read_calibration(tmp_path, "cash/2max/100bb", {0: 1000, 1: 2000})


def test_a_calibration_prices_a_job_of_its_own_tree_at_its_measured_mean():
    cal = Calibration("s", 3, {0: 27.0}, {0: 54}, {0: 5000}, 2.5, fixed_cpu=11.0)
    assert price_flop_job(cal, 5000) == pytest.approx(27.0)


def test_an_exchange_calibration_prices_a_cell_iteration_from_the_jobs_cpu(tmp_path):
    import json

    from pokerlab.solved.cost import read_exchange_calibration

    report = tmp_path / "cash-2max-100bb.json"
    report.write_text(json.dumps({"history": [{"iteration": 10, "cpu_seconds": 100.0},
                                              {"iteration": 20, "cpu_seconds": 140.0}]}))
    logs = tmp_path / "logs"
    logs.mkdir()
    write_log(logs / "heldout_cash-2max-100bb_e0_b6.log", ["job cpu_seconds 30.000"])
    write_log(logs / "heldout_cash-2max-100bb_e1_b6.log", ["job cpu_seconds 80.000"])
    write_log(logs / "heldout_cash-2max-100bb_e1_b7.log", ["still running"])  # unfinished: left out
    write_log(logs / "heldout_cash-6max-100bb_e0_b6.log", ["job cpu_seconds 99.000"])  # another spot
    job = tmp_path / "exchange.log"
    write_log(job, ["cash/2max/100bb: iteration 10/20: ...", "job cpu_seconds 300.000"])
    cells = {0: 1000, 1: 2000}
    cal = read_exchange_calibration(report, job, 2, 3, cells, logs, "cash/2max/100bb")
    # the job's 300 CPU-s over 2 exchanges of 2 postflop iterations on 3 flops of each ending (9,000 cells)
    assert (cal.exchanges, cal.exchange_cpu, cal.resident_cells) == (2, 300.0, 9000)
    assert cal.cpu_per_cell_iteration == pytest.approx(300.0 / (2 * 2 * 9000))
    assert (cal.heldout_solves, cal.heldout_cpu_per_cell) == (2, pytest.approx((30 / 1000 + 80 / 2000) / 2))
    # a resumed job's log holds its last part only: the exchanges' own CPU is priced instead
    write_log(job, ["resumed at iteration 10", "job cpu_seconds 150.000"])
    assert read_exchange_calibration(report, job, 2, 3, cells, logs, "cash/2max/100bb").exchange_cpu == 240.0
