"""The postflop-constant fitting run: endings from a solve, the board sample, the control run, the
fit on synthetic endings with known constants, the TexasSolver backend and the settings."""

from __future__ import annotations

import hashlib
import json
import re
import stat
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pokerlab.cards import CLASS_PRIOR, COMBO_CARDS, COMBO_IDS, card_str, parse_cards
from pokerlab.fit import measure
from pokerlab.fit.boards import N_FLOPS, sample_flops, stratum_shares
from pokerlab.fit.endings import spot_endings
from pokerlab.fit.settings import FitSettings
from pokerlab.fit.solves import COLUMNS, measure as measure_spot
from pokerlab.postflop.game import BetTree, PostflopSpot
from pokerlab.postflop.texassolver import parse_texassolver_input, read_texassolver_input, texassolver_input_text
from pokerlab.postflop.tree import build_tree as build_postflop_tree
from pokerlab.preflop.payoffs import PostflopModel

DATA = Path(__file__).parent / "data" / "postflop"

BASE = {
    "spots": [{"format": "cash", "seats": 2, "depth": 20}],
    "preflop_model": {"a": 1.375, "b": -0.02, "c2": 0.0175, "cap": 0.07},
    "endings_per_spot": 2, "boards": 4, "heldout_boards": 1, "seed": 1,
    "bet_tree": {"flop": {"bets": [66], "allin": True}, "turn": {"bets": [75], "allin": True},
                 "river": {"bets": [75], "allin": True}, "raise_cap": 1, "allin_threshold": 0.67},
    "accuracy_pct_pot": 1.0, "max_iterations": 50, "backend": "builtin", "bootstrap": 5, "min_class_reach": 0.0,
}


# --- boards ---------------------------------------------------------------------------------


def test_board_sample_is_seeded_stratified_and_disjoint():
    a = sample_flops(7, 3, 40, 10)
    assert a == sample_flops(7, 3, 40, 10) and a != sample_flops(7, 4, 40, 10)
    assert len({b.cards for b in a}) == 50  # held-out boards never repeat a fitting board
    fit = [b for b in a if not b.heldout]
    assert sum(b.weight for b in fit) == pytest.approx(1.0)
    # systematic over the stratum-sorted list: each stratum gets its share to within one board
    shares = stratum_shares()
    for name, share in shares.items():
        assert abs(sum(b.stratum == name for b in fit) - 40 * share) <= 1.0 + 1e-9, name
    assert sum(shares.values()) == pytest.approx(1.0)


def test_stratum_shares_match_counting():
    shares = stratum_shares()
    # paired flops (two or three of a rank): 13 * C(4,2) * 48 + 13 * C(4,3) = 3,796
    paired = sum(v for k, v in shares.items() if k.startswith("paired/"))
    assert paired * N_FLOPS == pytest.approx(13 * 6 * 48 + 13 * 4)
    monotone = sum(v for k, v in shares.items() if k.startswith("monotone/"))
    assert monotone * N_FLOPS == pytest.approx(4 * 286)  # 4 suits x C(13,3)


# --- endings --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solved_hu(equity_table):
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.preflop.spot import Spot, load_sizing

    sizing = load_sizing()
    result = solve_spot(Spot("cash", 2, 20), sizing, equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(200,), bar_coefficient=10.0))
    return json.loads(json.dumps(result)), sizing  # as read back from result.json


def test_endings_walk_matches_the_readout(solved_hu):
    result, sizing = solved_hu
    found = spot_endings(result, sizing)
    # the flop-ending mass is the read-out's model share (computed inside the solver)
    assert found.flop_mass == pytest.approx(result["model_share"], abs=1e-5)
    assert found.three_way_mass == 0.0  # heads-up
    reaches = [e.reach for e in found.endings]
    assert reaches == sorted(reaches, reverse=True)
    nodes = {n["id"]: n for n in result["nodes"]}
    for ending in found.endings:
        parent = nodes[ending.node[:-1]]
        last = ending.node[-1]
        # the seat that closed the action arrives with the parent's arrive-with times its action
        closer = ending.ip if parent["actor"] == ending.ip else ending.oop
        reach = ending.ip_reach if closer == ending.ip else ending.oop_reach
        dist = CLASS_PRIOR * reach / (CLASS_PRIOR @ reach)
        expect = np.array(parent["arrive_with"]) * np.array(parent["strategy"][last])
        np.testing.assert_allclose(dist, expect / expect.sum(), atol=2e-5)
    limped = next(e for e in found.endings if e.node == "CC")
    assert (limped.pot_bb, limped.behind_bb, limped.oop, limped.ip, limped.aggressor) == (2.0, 19.0, "BB", "SB", "")
    raised = next(e for e in found.endings if e.node == "RC")
    assert raised.aggressor == "SB" and raised.aggressor_in_position is True


def test_endings_refuse_a_rejected_or_foreign_solve(solved_hu):
    result, sizing = solved_hu
    with pytest.raises(ValueError, match="only a shipped solve"):
        spot_endings({**result, "status": "rejected"}, sizing)
    with pytest.raises(ValueError, match="another sizing"):
        spot_endings({**result, "sizing": {**result["sizing"], "open": 9.9}}, sizing)


# --- the control run ------------------------------------------------------------------------


def _brute_equity(board, mine, theirs_weights):
    """Checked-down equity of combo ``mine`` against a weighted range on a full river board, by
    direct evaluation with eval7 (an evaluator pokerlab's solver does not use)."""
    import eval7

    def strength(cards):
        return eval7.evaluate([eval7.Card(card_str(int(c))) for c in cards])

    total = won = 0.0
    hero = strength(list(COMBO_CARDS[mine]) + list(board))
    for c, w in enumerate(theirs_weights):
        cards = set(int(x) for x in COMBO_CARDS[c])
        if w == 0 or cards & set(int(x) for x in COMBO_CARDS[mine]) or cards & set(board):
            continue
        villain = strength(list(COMBO_CARDS[c]) + list(board))
        total += w
        won += w * (1.0 if hero > villain else 0.5 if hero == villain else 0.0)
    return won / total


def test_control_run_values_every_hand_at_its_exact_equity():
    given = read_texassolver_input(DATA / "river_input.txt").spot
    settings = FitSettings.from_config({**BASE, "accuracy_pct_pot": 0.5, "max_iterations": 200})
    frame, summary = measure_spot(PostflopSpot(given.pot, given.stack, given.board, given.oop_range, given.ip_range,
                                               given.bet_tree), settings, threads=1)
    assert list(frame.columns) == list(COLUMNS)
    board = parse_cards("QsJh2h8d3c")
    for player, theirs in ((0, given.ip_range), (1, given.oop_range)):
        rows = frame[frame["player"] == player].head(12)
        for _, row in rows.iterrows():
            assert row["equity"] == pytest.approx(_brute_equity(board, int(row["combo"]), theirs), abs=1e-9)
    # the two ranges' values as played sum to the pot; the control run's do too
    for key in ("range_ev", "control_range_ev"):
        assert summary["players"]["oop"][key] + summary["players"]["ip"][key] == pytest.approx(given.pot)
    assert summary["players"]["ip"]["control_range_ev"] == pytest.approx(given.pot * summary["players"]["ip"]["range_equity"])


# --- the fit on synthetic endings -----------------------------------------------------------

TRUE = PostflopModel(a=1.2, b=0.01, c2=0.012, cap=0.06)


def _synthetic(n_endings=24, boards=6, noise=0.01, seed=5, flat=None, truth=TRUE):
    """Endings priced by the model itself with ``truth``'s constants plus Gaussian noise (share of pot).

    Odd endings are raised pots with the aggressor in position, even ones out of position;
    ``flat`` = (in position, out of position) prices them with the aggressor term's flat edges."""
    rng = np.random.default_rng(seed)
    frames = []
    for e in range(n_endings):
        pot = float(rng.choice([2.0, 5.5, 6.0, 20.0]))
        spr = float(np.exp(rng.uniform(np.log(0.3), np.log(60))))
        behind = pot * spr
        c, edge = truth.commitment(spr), truth.edge(spr) if flat is None else flat[0 if e % 2 else 1]
        played = pot + 2 * c * behind
        for b in range(boards + 1):
            rows = []
            for player, sign in ((0, -1.0), (1, 1.0)):
                n = 60
                q = rng.uniform(0.05, 0.95, n)
                q = q - q.mean() + 0.5 + sign * rng.uniform(-0.05, 0.05)  # the two ranges' equities
                ev = (q + sign * edge) * played - c * behind + rng.normal(0, noise * played, n)
                rows.append(pd.DataFrame({"player": player, "combo": np.arange(n), "class": np.arange(n),
                                          "mass": rng.uniform(0.5, 1.5, n), "ev": ev, "equity": q,
                                          "exp_pot": played, "p_showdown": 1.0}))
            record = {"key": f"s/e{e}/b{b}", "spot": "s", "rank": e, "heldout": b == boards,
                      "reach": float(rng.uniform(0.01, 0.1)), "board_weight": 1.0 / boards, "pot_bb": pot,
                      "behind_bb": behind, "aggressor_in_position": bool(e % 2)}
            frames.append((pd.concat(rows, ignore_index=True), record))
    return frames


def test_fit_recovers_known_constants_within_its_standard_errors():
    data = measure.build_measurements(_synthetic())
    fitting, heldout = data.subset(False), data.subset(True)
    start = PostflopModel()
    staged = measure.staged_fit(fitting, start)
    joint = measure.joint_fit(fitting, staged)
    boot = measure.bootstrap(fitting, start, staged, 30, seed=3)
    truth = np.array([TRUE.a, TRUE.b, TRUE.c2, TRUE.cap])
    for name, theta in (("staged", staged), ("joint", joint)):
        se = boot[name].std(axis=0, ddof=1)
        assert np.all(np.abs(theta - truth) <= 4 * se + 1e-3), (name, theta, se)
    # the measured per-ending quantities are the model's own (the noise averages out)
    per = fitting.per_measurement
    expect_c = np.array([TRUE.commitment(s) for s in per["spr"]])
    np.testing.assert_allclose(per["commitment"], expect_c, atol=0.02)
    # fitted constants predict held-out boards better than the text's constants
    shipped = np.array([start.a, start.b, start.c2, start.cap])
    assert measure.error_per_hand(staged, heldout) < measure.error_per_hand(shipped, heldout)
    assert measure.error_per_hand(truth, heldout) <= measure.error_per_hand(staged, heldout) * 1.05


def test_joint_fit_minimises_the_rms_error_per_hand():
    fitting = measure.build_measurements(_synthetic(n_endings=12, boards=3)).subset(False)
    start = PostflopModel()
    staged = measure.staged_fit(fitting, start)
    joint = measure.joint_fit(fitting, staged)
    for other in (staged, np.array([start.a, start.b, start.c2, start.cap]), np.array([TRUE.a, TRUE.b, TRUE.c2, TRUE.cap])):
        assert measure.rms_error_per_hand(joint, fitting) <= measure.rms_error_per_hand(other, fitting) + 1e-9


@pytest.mark.parametrize("start_cap", [0.07, 0.3])
def test_a_cap_the_measurements_never_reach_is_the_edge_at_the_deepest_spr(start_cap):
    """With the true cap above every measured edge, any higher cap fits as well: both fits
    report the smallest one (the edge at the deepest measured spr), whatever they started from."""
    truth = PostflopModel(a=1.2, b=0.01, c2=0.012, cap=0.45)
    fitting = measure.build_measurements(_synthetic(n_endings=8, boards=2, noise=0.0, truth=truth)).subset(False)
    deepest = truth.edge(float(fitting.per_measurement["spr"].max()))
    assert deepest < 0.2
    start = PostflopModel(cap=start_cap)
    staged = measure.staged_fit(fitting, start)
    joint = measure.joint_fit(fitting, staged)
    for theta in (staged, joint):
        assert theta[3] == pytest.approx(deepest, abs=1e-4)
        assert measure.error_per_hand(theta, fitting) == pytest.approx(0.0, abs=1e-3)


def test_aggressor_term_recovers_flat_edges_and_its_error_gain():
    data = measure.build_measurements(_synthetic(n_endings=16, boards=3, noise=0.0, flat=(0.05, -0.01)))
    fitting, heldout = data.subset(False), data.subset(True)
    flat = measure.aggressor_edges(fitting.per_measurement)
    assert flat == pytest.approx((0.05, -0.01), abs=1e-9)
    truth = [TRUE.a, TRUE.b, TRUE.c2, TRUE.cap]
    assert measure.error_per_hand(truth, heldout, flat) == pytest.approx(0.0, abs=1e-9)
    assert measure.error_per_hand(truth, heldout) > 0.01
    limped = fitting.per_measurement.assign(aggressor_ip=-1)
    assert measure.aggressor_edges(limped) is None  # no raised pot measured: no term


def test_noiseless_measurements_are_exact():
    data = measure.build_measurements(_synthetic(n_endings=6, boards=2, noise=0.0))
    per = data.per_measurement
    np.testing.assert_allclose(per["edge"], [TRUE.edge(s) for s in per["spr"]], atol=1e-9)
    np.testing.assert_allclose(per["played_pot"], per["pot"] + 2 * per["behind"] * [TRUE.commitment(s) for s in per["spr"]])
    assert measure.error_per_hand([TRUE.a, TRUE.b, TRUE.c2, TRUE.cap], data) == pytest.approx(0.0, abs=1e-9)
    classes = measure.class_realisation(data)
    assert set(classes["role"]) == {"ip", "oop"}
    # each role's realisation, range-weighted, is its signed edge; per class the noise-free model
    # gives every hand exactly the seat's edge
    for role, sign in (("ip", 1.0), ("oop", -1.0)):
        sel = classes[classes["role"] == role]
        assert np.all(np.sign(sel["realisation"]) == sign)


def _fit_section_sha256(section: dict) -> str:
    """SHA-256 of a fit config section as its provenance records it, computed here independently
    of ``pokerlab.fit.run``: sorted keys, no whitespace."""
    return hashlib.sha256(json.dumps(section, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def test_fit_constants_writes_the_staged_fit_with_its_provenance(tmp_path):
    """The whole fit_constants step on synthetic measurement files: the shipped constants are the
    staged fit's, within its bootstrap errors of the truth, and the provenance names the config."""
    from pokerlab.fit.run import fit_constants
    from pokerlab.preflop.payoffs import read_postflop_constants as read_constants
    from pokerlab.fit.solves import write_measurement

    paths = []
    for frame, record in _synthetic(n_endings=12, boards=4):
        path = tmp_path / "solves" / f"{record['key']}.parquet"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_measurement(path, frame, record)
        paths.append(path)
    plan = {name: tmp_path / f"{name}.tsv" for name in ("spots", "endings", "boards")}
    pd.DataFrame([{"spot": "s", "flop_mass": 0.3, "headsup_endings": 12, "measured_endings": 12,
                   "measured_share": 0.9, "three_way_share": 0.1}]).to_csv(plan["spots"], sep="\t", index=False)
    plan["endings"].write_text("spot\trank\n")
    plan["boards"].write_text("spot\trank\tboard\n")
    section = {"seed": 7, "bootstrap": 40, "spots": [{"format": "cash", "seats": 2, "depth": 20}]}
    settings = FitSettings.from_config({**BASE, "bootstrap": 40, "seed": 7})
    result = fit_constants(paths, settings, PostflopModel(), plan, tmp_path / "constants.json", tmp_path / "report",
                           fit_section=section, command="snakemake --cores 2 results/fit/constants.json")
    assert result["provenance"]["fit_config_sha256"] == _fit_section_sha256(section)
    assert json.loads((tmp_path / "constants.json").read_text()) == result
    shipped = read_constants(tmp_path / "constants.json")
    assert [shipped.a, shipped.b, shipped.c2, shipped.cap] == [result["staged"]["value"][k] for k in measure.NAMES]
    for name in measure.NAMES:
        assert abs(result["staged"]["value"][name] - getattr(TRUE, name)) <= 4 * result["staged"]["se"][name] + 1e-3
    assert result["counts"] == {"spots": 1, "endings": 12, "measurements": 60, "fitting": 48, "heldout": 12,
                                "hands": 60 * 120, "missing_endings": 0}
    assert result["error_per_hand_bb"]["heldout"]["staged"] < result["error_per_hand_bb"]["heldout"]["shipped"]
    rms = result["rms_error_per_hand_bb"]["fitting"]
    assert rms["joint"] <= min(rms["staged"], rms["shipped"])
    assert (tmp_path / "report" / "summary.html").is_file()


def test_aggressor_split_of_one_measurement_has_no_standard_error_in_json():
    """A band and side measured once has an undefined standard error: ``null`` in constants.json,
    not a NaN that stops the JSON writer (a partial or small fit has such groups)."""
    from pokerlab.fit.run import _json_records
    from pokerlab.io import dumps_json

    per = pd.DataFrame({"spr": [1.0, 1.5, 30.0], "aggressor_ip": [1, 1, 0], "weight": [1.0, 3.0, 2.0],
                        "edge": [0.02, 0.04, -0.01]})
    records = _json_records(measure.split_by_aggressor(per))
    by_side = {r["aggressor"]: r for r in records}
    assert by_side["out of position"]["se"] is None and by_side["out of position"]["measurements"] == 1
    assert by_side["in position"]["edge"] == 0.035 and by_side["in position"]["se"] > 0
    json.loads(dumps_json(records))


# --- TexasSolver backend --------------------------------------------------------------------


def test_texassolver_input_round_trips_to_the_same_game():
    given = read_texassolver_input(DATA / "turn_input.txt").spot
    text = texassolver_input_text(given, 0.3, 150, "/tmp/out.json", threads=2)
    back = parse_texassolver_input(text)
    assert (back.accuracy_pct_pot, back.max_iterations) == (0.3, 150)
    spot = back.spot
    assert (spot.pot, spot.stack, spot.board) == (given.pot, given.stack, given.board)
    np.testing.assert_array_equal(spot.oop_range, given.oop_range)
    np.testing.assert_array_equal(spot.ip_range, given.ip_range)
    ours, theirs = build_postflop_tree(given), build_postflop_tree(spot)
    assert ours.n_nodes == theirs.n_nodes
    assert [ours.line(n) for n in range(ours.n_nodes)] == [theirs.line(n) for n in range(theirs.n_nodes)]


def test_texassolver_input_refuses_what_texassolver_cannot_express():
    given = read_texassolver_input(DATA / "river_input.txt").spot
    ragged = given.oop_range.copy()
    ragged[np.flatnonzero(ragged)[0]] = 0.25
    with pytest.raises(ValueError, match="per class"):
        texassolver_input_text(PostflopSpot(given.pot, given.stack, given.board, ragged, given.ip_range,
                                            given.bet_tree), 0.5, 10, "x")
    exact = BetTree.uniform(bets=(50,), allin=True)
    with pytest.raises(ValueError, match="whole chips"):
        texassolver_input_text(PostflopSpot(given.pot, given.stack, given.board, given.oop_range, given.ip_range,
                                            exact), 0.5, 10, "x")


def _fake_texassolver(tmp_path: Path, dump: Path) -> Path:
    """A stand-in console solver: reads the input file it is given and writes ``dump`` where the
    input's dump_result line asks (the plumbing is real; the strategy is TexasSolver's own)."""
    script = tmp_path / "console_solver"
    script.write_text(f"""#!{sys.executable}
import shutil, sys
text = open(sys.argv[sys.argv.index('-i') + 1]).read()
target = [l.split(' ', 1)[1] for l in text.splitlines() if l.startswith('dump_result ')][0]
shutil.copyfile({str(dump)!r}, target)
""")
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


def test_texassolver_backend_reads_its_dump_to_the_derived_values(tmp_path):
    binary = _fake_texassolver(tmp_path, DATA / "texassolver_river_dump.json")
    given = read_texassolver_input(DATA / "river_input.txt").spot
    settings = FitSettings.from_config({**BASE, "backend": "texassolver", "accuracy_pct_pot": 0.05,
                                        "texassolver": {"binary": str(binary), "chips_per_bb": 1}})
    spot = PostflopSpot(given.pot, given.stack, given.board, given.oop_range, given.ip_range,
                        BetTree(given.bet_tree.streets, given.bet_tree.allin_threshold, given.bet_tree.raise_cap))
    frame, summary = measure_spot(spot, settings, threads=1)
    derived = json.loads((DATA / "river_derived_ev.json").read_text())
    for player, name in ((0, "oop"), (1, "ip")):
        theirs = derived["players"][name]
        assert summary["players"][name]["range_ev"] == pytest.approx(theirs["range_ev_share_of_pot"], abs=1e-5)
        rows = frame[frame["player"] == player]
        for _, row in rows.iterrows():
            assert row["ev"] == pytest.approx(theirs["combos"][COMBO_IDS[int(row["combo"])]]["ev_share"], abs=1e-3)


def test_missing_texassolver_binary_fails_at_once_saying_how_to_fix_it(tmp_path):
    settings = FitSettings.from_config({**BASE, "backend": "texassolver",
                                        "texassolver": {"binary": str(tmp_path / "nope")}})
    with pytest.raises(RuntimeError, match="fit.texassolver.binary .* is not an executable file: install TexasSolver"):
        settings.check_backend()
    unset = FitSettings.from_config({**BASE, "backend": "texassolver"})
    with pytest.raises(RuntimeError, match="fit.texassolver.binary is not set"):
        unset.check_backend()


# --- settings -------------------------------------------------------------------------------


@pytest.mark.parametrize("change,message", [
    ({"spots": []}, "fit.spots"),
    ({"spots": [{"format": "cash", "seats": 12, "depth": 20}]}, r"fit.spots\[0\]"),
    ({"boards": 1}, "fit.boards"),
    ({"accuracy_pct_pot": float("nan")}, "fit.accuracy_pct_pot"),
    ({"backend": "pio"}, "fit.backend"),
    ({"preflop_model": {"a": -1, "b": 0, "c2": 0, "cap": 0}}, "fit.preflop_model"),
    ({"bet_tree": {**BASE["bet_tree"], "flop": {"bets": [-5]}}}, "fit.bet_tree.flop"),
    ({"backend": "texassolver", "bet_tree": {**BASE["bet_tree"], "turn": {"bets": [75]}}}, "needs allin"),
])
def test_bad_fit_settings_name_the_key(change, message):
    with pytest.raises(ValueError, match=message):
        FitSettings.from_config({**BASE, **change})


def test_job_keys_cover_every_ending_and_board():
    settings = FitSettings.from_config(BASE)
    keys = settings.job_keys()
    assert len(keys) == 2 * 5 and keys[0] == "cash/2max/20bb/e0/b0" and keys[-1] == "cash/2max/20bb/e1/b4"


# --- the workflow: a new fit re-runs the solves and nothing upstream -----------------------


def _snakemake(workdir: Path, *args: str) -> str:
    import subprocess

    out = subprocess.run([sys.executable, "-m", "snakemake", *args, "--cores", "1", "--configfile", "over.yaml"],
                         cwd=workdir, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout


@pytest.mark.snakemake
def test_new_constants_rerun_the_solves_and_nothing_else(tmp_path):
    import time

    _fit_workdir(tmp_path, "solve:\n  postflop: {source: fit}\n"
                           "fit:\n  spots: [{format: cash, seats: 2, depth: 20}]\n  endings_per_spot: 1\n  boards: 2\n"
                           "  heldout_boards: 0\n")
    target = "results/solves/cash/6max/10bb/result.json"  # a spot of its own job (not in sweep.batch_seats)
    plan = _snakemake(tmp_path, target, "-n", "--forceall")
    outputs = [p.strip() for line in plan.splitlines() if line.startswith("    output: ")
               for p in line[len("    output: "):].split(",")]
    assert "results/fit/constants.json" in outputs  # the solve depends on the fit
    for path in outputs:  # pretend every job ran, in DAG order (touch keeps the real equity table's bytes)
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).touch()
    _snakemake(tmp_path, target, "--touch")
    assert "Nothing to be done" in _snakemake(tmp_path, target, "-n")
    time.sleep(1.1)
    (tmp_path / "results/fit/constants.json").write_text('{"constants": "refitted"}')  # a new fit: new bytes
    rerun = _snakemake(tmp_path, target, "-n")
    jobs = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)$", rerun, re.MULTILINE)}
    assert jobs == {"solve_spot": 1, "total": 1}, rerun


def _fit_workdir(tmp_path: Path, overlay: str) -> None:
    """A run folder with the workflow linked in, ``overlay`` as over.yaml and a small sampled equity table
    (the workflow loads an existing table before any job)."""
    from pokerlab.equity import sample_pair_counts
    from pokerlab.equity_table import save_equity_table

    root = Path(__file__).resolve().parents[1]
    for name in ("Snakefile", "workflow", "config", "src"):
        (tmp_path / name).symlink_to(root / name)
    (tmp_path / "over.yaml").write_text(overlay)
    save_equity_table(sample_pair_counts(samples=200, seed=1), tmp_path / "results/equity/equity_169.npz",
                      tmp_path / "results/equity/equity_169.parquet")


def test_the_fit_runs_its_preflop_solve_and_walks_it_to_endings(tmp_path):
    """The fit's first links for real (rule fit_preflop, then fit_endings) on a tiny spot: the preflop rule
    runs the solve script that the sweep's batched solves also run, so a change to that script's
    parameters must reach this rule too."""
    _fit_workdir(tmp_path, "solve: {checkpoints: [30], bar_coefficient: 100.0}\n"
                           "fit:\n  spots: [{format: cash, seats: 2, depth: 10}]\n  endings_per_spot: 1\n"
                           "  boards: 2\n  heldout_boards: 0\n")
    _snakemake(tmp_path, "results/fit/endings.tsv")
    result = json.loads((tmp_path / "results/fit/preflop/cash/2max/10bb/result.json").read_text())
    assert result["iterations"] == 30
    # solved under fit.preflop_model, not the shipped constants of solve.postflop
    assert result["settings"]["postflop"] == {"a": 1.375, "b": -0.02, "c2": 0.0175, "cap": 0.07}
    endings = pd.read_csv(tmp_path / "results/fit/endings.tsv", sep="\t")
    boards = pd.read_csv(tmp_path / "results/fit/boards.tsv", sep="\t")
    assert list(endings["spot"]) == ["cash/2max/10bb"] and len(boards) == 2


def test_plan_tables_round_trip_to_the_jobs(solved_hu, tmp_path):
    from pokerlab.fit.plan import read_job, write_plan

    result, sizing = solved_hu
    path = tmp_path / "result.json"
    path.write_text(json.dumps(result))
    settings = FitSettings.from_config({**BASE, "endings_per_spot": 9})  # more than the spot has
    paths = {k: tmp_path / f"{k}.tsv" for k in ("spots", "endings", "boards")}
    write_plan({"cash/2max/20bb": path}, sizing, settings, paths["spots"], paths["endings"], paths["boards"])
    first = paths["endings"].read_bytes()
    write_plan({"cash/2max/20bb": path}, sizing, settings, paths["spots"], paths["endings"], paths["boards"])
    assert paths["endings"].read_bytes() == first  # a pure function of the solve and the config
    found = spot_endings(result, sizing)
    spots = pd.read_csv(paths["spots"], sep="\t")
    assert spots.loc[0, "headsup_endings"] == len(found.endings) < 9
    assert spots.loc[0, "measured_share"] == pytest.approx(1.0)  # every heads-up flop ending is measured
    job = read_job(paths["endings"], paths["boards"], "cash/2max/20bb/e0/b4")
    best = found.endings[0]
    assert (job.ending.node, job.ending.pot_bb, job.ending.behind_bb, job.heldout) == (best.node, best.pot_bb, best.behind_bb, True)
    np.testing.assert_allclose(job.ending.oop_reach, best.oop_reach, atol=5e-7)
    assert read_job(paths["endings"], paths["boards"], f"cash/2max/20bb/e{len(found.endings)}/b0").ending is None


def test_the_shipped_constants_file_is_the_fit_its_provenance_names():
    """The default config prices flop endings with a committed constants file. It must be the
    output of a fit this repository can re-run: its recorded fit section is the one the command it
    names would use (config/config.yaml merged with the named --configfile), the digest matches,
    and the constants it ships are that fit's staged values."""
    import yaml
    from snakemake.utils import update_config

    from pokerlab.preflop.payoffs import read_postflop_constants as read_constants

    root = Path(__file__).resolve().parents[1]
    config = yaml.safe_load((root / "config" / "config.yaml").read_text())
    postflop = config["solve"]["postflop"]
    if postflop.get("source", "config") != "file":
        pytest.skip("the default config does not ship a constants file")
    shipped = json.loads((root / postflop["file"]).read_text())
    provenance = shipped["provenance"]
    overlay = re.search(r"--configfile (\S+)", provenance["command"])
    if overlay:  # merged as Snakemake merges a --configfile
        # the command as it was run: the presets had their former names then (config/README.md)
        path = {"config/fit-large.yaml": "config/presets/fit-shipped.yaml"}.get(overlay.group(1), overlay.group(1))
        update_config(config, yaml.safe_load((root / path).read_text()))
    section = config["fit"]
    assert provenance["fit_config"] == section
    assert provenance["fit_config_sha256"] == _fit_section_sha256(section)
    model = read_constants(root / postflop["file"])
    assert [model.a, model.b, model.c2, model.cap] == [shipped["staged"]["value"][k] for k in measure.NAMES]
