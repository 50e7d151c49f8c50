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
