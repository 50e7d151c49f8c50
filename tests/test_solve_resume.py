"""A saved solver state serves another schedule or bar when, and only when, the solve it
continues gives the bytes of a fresh solve under that schedule."""

from __future__ import annotations

import pytest

from pokerlab.preflop.solve import SolveSettings, _state_serves, result_bytes, solve_spot
from pokerlab.preflop.spot import Spot, load_sizing

SIZING = load_sizing()
SPOT = Spot("cash", 2, 20)


def _solve(table, checkpoints, bar, state=None, seen=None):
    settings = SolveSettings(checkpoints=checkpoints, bar_coefficient=bar, save_every=5)
    progress = None if seen is None else (lambda iteration, figure: seen.append(iteration))
    return solve_spot(SPOT, SIZING, table.win, table.tie, settings, state_path=state, progress=progress)


@pytest.mark.parametrize(
    "first, second, resumes",
    [
        (((10,), 0.0), ((10, 25), 0.0), True),  # rejected at 10, schedule extended: continues from 10
        (((10, 25), 0.0), ((10, 25, 40), 10.0), False),  # the new bar stops at 10, behind the state at 25
        (((10, 25), 0.0), ((15, 40), 0.0), False),  # 15 was never measured
        (((10, 25), 0.0), ((25, 40), 0.0), True),  # 25 was measured and does not clear a zero bar
        (((10, 25), 0.0), ((10,), 0.0), False),  # the new schedule ends behind the state
    ],
)
def test_a_state_continues_another_schedule_only_when_the_bytes_match_a_fresh_solve(equity_table, tmp_path, first,
                                                                                   second, resumes):
    state = tmp_path / "state.npz"
    _solve(equity_table, *first, state=state)
    seen: list[int] = []
    continued = _solve(equity_table, *second, state=state, seen=seen)
    fresh = _solve(equity_table, *second)
    assert result_bytes(continued) == result_bytes(fresh)
    assert (min(seen, default=None) != 5) == resumes  # a restart reports iteration 5 again


def test_a_state_written_under_other_arithmetic_starts_the_solve_over(equity_table, tmp_path, monkeypatch):
    """A state from a solver whose floating-point operations differ (another ARITHMETIC_VERSION)
    could not continue to a fresh solve's bytes: it is ignored and the solve starts over."""
    import pokerlab.preflop.solve as solve_module

    state = tmp_path / "state.npz"
    monkeypatch.setattr(solve_module, "ARITHMETIC_VERSION", solve_module.ARITHMETIC_VERSION - 1)
    _solve(equity_table, (10,), 0.0, state=state)
    monkeypatch.undo()
    seen: list[int] = []
    continued = _solve(equity_table, (10, 25), 0.0, state=state, seen=seen)
    assert min(seen) == 5  # started over: the first save's iteration is reported again
    assert result_bytes(continued) == result_bytes(_solve(equity_table, (10, 25), 0.0))
    seen.clear()
    _solve(equity_table, (10, 25, 40), 0.0, state=state, seen=seen)
    assert min(seen) > 25  # the state it wrote, under this arithmetic, is continued


def test_state_serves_rules():
    history = [{"iterations": 400, "exploitability_bb": 0.05}, {"iterations": 1200, "exploitability_bb": 0.008}]
    assert _state_serves(1200, history, (400, 1200, 3000), 0.01)  # stops at 1200, where the state is
    assert not _state_serves(1200, history, (400, 1200, 3000), 0.1)  # stops at 400, behind the state
    assert _state_serves(1200, history, (400, 1200, 3000), 0.001)  # continues to 3000
    assert not _state_serves(1200, history, (400, 800, 3000), 0.001)  # 800 never measured
    assert not _state_serves(1200, history, (400,), 0.001)  # ends behind the state
    assert _state_serves(1200, history, (5000,), 0.001)  # nothing measured yet under this schedule
    assert _state_serves(1000, history[:1], (400, 1200), 0.001)  # mid-way between checkpoints


def _damage(state, how):
    import io
    import zipfile

    import numpy as np

    data = state.read_bytes()
    if how == "truncated":
        state.write_bytes(data[: len(data) // 2])
    elif how == "empty":
        state.write_bytes(b"")
    elif how == "random":
        state.write_bytes(np.random.default_rng(3).bytes(len(data)))
    elif how in ("incomplete", "bad_history", "bad_shape"):
        with np.load(state) as npz:
            arrays = {k: npz[k] for k in npz.files}
        if how == "incomplete":
            arrays.pop(sorted(k for k in arrays if k.startswith("regrets_"))[-1])
        elif how == "bad_history":
            arrays["history"] = np.array("[{not json")
        else:
            name = sorted(k for k in arrays if k.startswith("strategy_sum_"))[-1]
            arrays[name] = np.zeros(3)
        buffer = io.BytesIO()
        np.savez(buffer, **arrays)
        state.write_bytes(buffer.getvalue())
    elif how == "not_npz_zip":
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w") as z:
            z.writestr("fingerprint.npy", b"garbage")
        state.write_bytes(buffer.getvalue())


@pytest.mark.parametrize("how", ["truncated", "empty", "random", "incomplete", "bad_history", "bad_shape", "not_npz_zip"])
def test_an_unreadable_state_starts_the_solve_over_with_a_warning(equity_table, tmp_path, how):
    """Reliability #2: a truncated, empty, random or incomplete solver_state.npz is treated like a
    state of another solve (fresh start, same bytes), with a warning naming its path."""
    state = tmp_path / "solver_state.npz"
    _solve(equity_table, (10, 25), 0.0, state=state)
    _damage(state, how)
    seen: list[int] = []
    with pytest.warns(UserWarning, match=f"solver state {state}: unreadable"):
        again = _solve(equity_table, (10, 25), 0.0, state=state, seen=seen)
    assert min(seen) == 5  # started over
    assert result_bytes(again) == result_bytes(_solve(equity_table, (10, 25), 0.0))
    resumed: list[int] = []
    _solve(equity_table, (10, 25, 30), 0.0, state=state, seen=resumed)  # the rewritten state is good again
    assert min(resumed) > 25


def test_a_shipped_spots_state_is_removed_and_a_longer_schedule_starts_over_saying_so(tmp_path):
    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import load_equity_table, save_equity_table
    from pokerlab.preflop.result_file import read_result
    from pokerlab.preflop.solve import solve_spot_to_file

    npz = tmp_path / "equity_169.npz"
    save_equity_table(sample_pair_counts(samples=200, seed=1), npz, tmp_path / "equity_169.parquet")
    spot, state, result = Spot("cash", 2, 10), tmp_path / "solver_state.npz", tmp_path / "result.json"
    marker = tmp_path / "solver_state.npz.removed"

    def run(checkpoints, bar, keep):
        return solve_spot_to_file(spot, npz, None, SolveSettings(checkpoints=checkpoints, bar_coefficient=bar),
                                  result, state_path=state, keep_state=keep)

    assert run((20,), 10.0, keep=True)["status"] == "shipped" and state.exists()  # kept on request
    state.unlink()
    assert run((20,), 10.0, keep=False)["status"] == "shipped"
    assert not state.exists() and "shipped at 20 iterations" in marker.read_text()
    # a longer schedule (this one never clears its bar) cannot continue: it says so and starts over
    with pytest.warns(UserWarning, match="removed after the spot shipped at 20 iterations.*solving from iteration 0"):
        longer = run((20, 40), 0.0, keep=False)
    table = load_equity_table(npz)
    fresh = solve_spot(spot, load_sizing(), table.win, table.tie, SolveSettings(checkpoints=(20, 40), bar_coefficient=0.0))
    assert longer["status"] == "rejected" and result_bytes(read_result(result)) == result_bytes(fresh)
    assert state.exists() and not marker.exists()  # a rejected spot keeps its state for a longer schedule


def test_the_saved_state_is_deflated_and_resumes(equity_table, tmp_path):
    """The state on disk is a deflated .npz (every member compressed, smaller than its arrays) that
    a longer schedule continues from (it does not report the first save's iteration again)."""
    import zipfile

    state = tmp_path / "state.npz"
    _solve(equity_table, (10,), 0.0, state=state)
    with zipfile.ZipFile(state) as archive:
        members = archive.infolist()
    assert members and all(m.compress_type == zipfile.ZIP_DEFLATED for m in members)
    assert sum(m.compress_size for m in members) < sum(m.file_size for m in members)
    seen: list[int] = []
    _solve(equity_table, (10, 25), 0.0, state=state, seen=seen)
    assert min(seen) > 10


def test_the_command_lines_default_paths_are_the_workflows_layout():
    from pokerlab.preflop.solve import default_result_path, state_path_beside
    from pokerlab.preflop.spot import Spot

    assert default_result_path(Spot("mtt", 6, 12.5)) == "results/solves/mtt/6max/12.5bb/result.json"
    assert state_path_beside("results/solves/cash/2max/20bb/result.json") == "results/solves/cash/2max/20bb/solver_state.npz"
    assert state_path_beside("result.json") == "./solver_state.npz"
