"""The sweep as a workflow: its sheet, the 512-spot DAG, byte-identical releases whatever the
core count, and a run killed mid-solve that restarts to the same bytes."""

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
import yaml
from snakemake.utils import validate

from pokerlab.preflop.solve import SolveSettings
from pokerlab.sweep import (OVERRIDE_COLUMNS, SHEET_COLUMNS, SOLVE_MEM_MB, SOLVE_RUNTIME_MIN, batched_tables,
                            full_sweep, load_spots, sheet_overrides, solve_resources, solve_settings, summary_table,
                            timings_table)

ROOT = Path(__file__).resolve().parents[1]
SNAKEMAKE = [sys.executable, "-m", "snakemake"]


def test_default_sheet_is_the_512_spot_sweep_and_passes_its_schema():
    sheet = load_spots(ROOT / "config" / "spots.tsv")
    assert len(sheet) == 512 == 4 * 8 * 16
    assert sheet[list(SHEET_COLUMNS)].equals(full_sweep().astype({"depth": float}))
    assert sheet[list(OVERRIDE_COLUMNS)].isna().all().all()  # the default sheet overrides nothing
    assert sorted(sheet["format"].unique()) == ["cash", "icm_bubble", "icm_final", "mtt"]
    assert sorted(sheet["depth"].unique()) == [5, 8, 10, 12, 15, 20, 25, 30, 40, 50, 60, 75, 100, 125, 150, 200]
    validate(sheet, str(ROOT / "workflow" / "schemas" / "spots.schema.yaml"))
    for name in ("spots-quick.tsv", "spots-ci.tsv"):
        validate(load_spots(ROOT / "config" / name), str(ROOT / "workflow" / "schemas" / "spots.schema.yaml"))


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("format\tseats\tdepth\npoker\t2\t10\n", "line 2: format 'poker'"),
        ("format\tseats\tdepth\ncash\t2\t10\ncash\t10\t10\n", "line 3: seats '10'"),
        ("format\tseats\tdepth\ncash\t2\tdeep\n", "depth 'deep'"),
        ("format\tseats\tdepth\ncash\t2\t1\n", "exceed the 1bb"),
        ("format\tseats\tdepth\ncash\t2\t10\ncash\t2\t10.0\n", "cash/2max/10bb is listed twice"),
        ("format\tseats\tstack\ncash\t2\t10\n", "columns"),
        ("format\tseats\tdepth\n", "no spots"),
        ("format\tseats\tdepth\tpriority\ncash\t2\t10\t1\n", "optionally any of"),
        ("format\tseats\tdepth\tcheckpoints\ncash\t2\t10\t400;1200\n", "line 2: checkpoints '400;1200'"),
        ("format\tseats\tdepth\tcheckpoints\ncash\t2\t10\t1200,400\n", "strictly increasing"),
        ("format\tseats\tdepth\tbar_coefficient\ncash\t2\t10\t-1\n", "bar_coefficient '-1'"),
        ("format\tseats\tdepth\tmem_mb\ncash\t2\t10\t1.5G\n", "mem_mb '1.5G' must be a positive whole number of megabytes"),
        ("format\tseats\tdepth\truntime\ncash\t2\t10\t0\n", "runtime '0'"),
    ],
)
def test_bad_sheet_names_line_and_value(tmp_path, text, fragment):
    path = tmp_path / "spots.tsv"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(fragment)):
        load_spots(path)


def test_overrides_replace_settings_and_resources_of_their_spot_only(tmp_path):
    path = tmp_path / "spots.tsv"
    path.write_text("format\tseats\tdepth\truntime\tcheckpoints\tbar_coefficient\n"
                    "cash\t9\t200\t240\t 400,1200,3000,6000 \t\ncash\t2\t10\t\t\t0.02\nmtt\t6\t20\t\t\t\n")
    sheet = load_spots(path)
    validate(sheet, str(ROOT / "workflow" / "schemas" / "spots.schema.yaml"))
    overrides = sheet_overrides(sheet)
    assert overrides == {"cash/9max/200bb": {"checkpoints": "400,1200,3000,6000", "runtime": 240},
                         "cash/2max/10bb": {"bar_coefficient": 0.02}, "mtt/6max/20bb": {}}  # an empty row overrides nothing
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["solve"]
    constants = ROOT / config["postflop"]["file"] if config["postflop"].get("source") == "file" else None
    deep = SolveSettings.from_config(solve_settings(config, overrides["cash/9max/200bb"]), constants)
    assert deep.checkpoints == (400, 1200, 3000, 6000) and deep.bar_coefficient == config["bar_coefficient"]
    assert SolveSettings.from_config(solve_settings(config, {"bar_coefficient": 0.02}), constants).bar_coefficient == 0.02
    assert "spots" not in solve_settings(config, {})
    assert solve_resources(9, overrides["cash/9max/200bb"]) == {"mem_mb": SOLVE_MEM_MB[9], "runtime": 240}
    assert solve_resources("2", {}) == {"mem_mb": SOLVE_MEM_MB[2], "runtime": SOLVE_RUNTIME_MIN[2]}
    # bigger tables never ask for less
    for table in (SOLVE_MEM_MB, SOLVE_RUNTIME_MIN):
        assert list(table) == list(range(2, 10)) and list(table.values()) == sorted(table.values())


def test_summary_is_in_sweep_order_and_timings_read_the_solve_logs(tmp_path):
    rows = [
        {"format": "mtt", "seats": 2, "depth_bb": 5.0, "status": "shipped", "iterations": 400, "decision_nodes": 12, "rfi": {}},
        {"format": "cash", "seats": 3, "depth_bb": 10.0, "status": "rejected", "iterations": 3000, "decision_nodes": 46, "rfi": {}},
        {"format": "cash", "seats": 2, "depth_bb": 100.0, "status": "shipped", "iterations": 1200, "decision_nodes": 9, "rfi": {}},
    ]
    summary = summary_table(rows)
    assert list(summary["format"]) == ["cash", "cash", "mtt"] and list(summary["seats"]) == [2, 3, 2]
    assert list(summary.columns[:4]) == ["format", "seats", "depth_bb", "status"] and "rfi" not in summary
    (tmp_path / "cash_2max_100bb.log").write_text("iteration 200 exploitability None\n"
                                                  "solve wall_seconds 12.500 cpu_seconds 11.250\njob cpu_seconds 13.000\n")
    (tmp_path / "cash_3max_10bb.log").write_text("iteration 200 exploitability None\n")  # killed mid-solve
    timings = timings_table(summary, tmp_path)
    assert timings["solve_seconds"].iloc[0] == 12.5 and timings["solve_cpu_seconds"].iloc[0] == 11.25
    assert timings["solve_seconds"].iloc[1:].isna().all() and timings["solve_cpu_seconds"].iloc[1:].isna().all()


@pytest.mark.snakemake
def test_dry_run_of_all_lists_512_spot_solves():
    out = subprocess.run(SNAKEMAKE + ["-n", "--forceall", "all"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    counts = dict(re.findall(r"^(\w+)\s+(\d+)$", out.stdout, re.M))
    # 2- to 4-handed spots (sweep.batch_seats) are solved one job per format and table size
    tables = {rule: n for rule, n in counts.items() if rule.startswith("solve_table_")}
    assert counts["solve_spot"] == "320" and len(tables) == 12 and set(tables.values()) == {"1"}
    assert "solve_table_cash_2max" in tables and "solve_table_icm_final_4max" in tables
    assert counts["summary"] == "1" and "spot_outcome" not in counts
    assert counts["publish_table"] == "32"  # charts and pages: one job per format and table size


# --- whole runs on a tiny configuration --------------------------------------------------------

TINY_SPOTS = "format\tseats\tdepth\ncash\t2\t5\ncash\t3\t10\n"
LONG_3MAX_SPOTS = "format\tseats\tdepth\tcheckpoints\ncash\t2\t5\t\ncash\t3\t10\t30000\n"


def tiny_workdir(path: Path, spots: str = TINY_SPOTS) -> Path:
    """A working directory running this checkout's workflow on two small spots (the sheet
    ``spots``) and a small sampled equity table (the release, not the equity cross-check)."""
    path.mkdir(parents=True)
    for name in ("Snakefile", "workflow", "config", "src"):
        (path / name).symlink_to(ROOT / name)
    (path / "tiny.tsv").write_text(spots)
    (path / "tiny.yaml").write_text(yaml.safe_dump({
        "equity": {"mode": "sampled", "samples": 100},
        "sweep": {"spots": "tiny.tsv"},
        "solve": {"spots": []},
    }))
    return path


def run_release(workdir: Path, cores: int, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(SNAKEMAKE + ["--cores", str(cores), *extra, "release", "--configfile", "tiny.yaml"],
                          capture_output=True, text=True, cwd=workdir, timeout=900)


@pytest.mark.snakemake
def test_a_sheet_override_reaches_the_solve_and_its_job(tmp_path):
    """One spot of a sheet with override columns: its solve runs the sheet's schedule and bar,
    and its job asks for the sheet's resources."""
    work = tiny_workdir(tmp_path / "w")
    (work / "tiny.tsv").write_text("format\tseats\tdepth\tcheckpoints\tbar_coefficient\tmem_mb\n"
                                   "cash\t2\t5\t30,60\t100\t321\ncash\t3\t10\t\t\t\n")
    out = subprocess.run(SNAKEMAKE + ["--cores", "1", "results/solves/cash/2max/5bb/result.json", "--configfile", "tiny.yaml"],
                         capture_output=True, text=True, cwd=work, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    assert "mem_mb=321" in out.stderr
    result = json.loads((work / "results/solves/cash/2max/5bb/result.json").read_text())
    assert result["settings"]["checkpoints"] == [30, 60] and result["settings"]["bar_coefficient"] == 100
    assert result["iterations"] == 30 and result["status"] == "shipped"  # a 100bb bar clears at the first checkpoint


@pytest.mark.snakemake
@pytest.mark.slow
def test_release_is_byte_identical_on_1_and_2_cores_and_after_a_kill_mid_solve(tmp_path):
    """Run A: 2 cores, uninterrupted. Run B: 1 core, killed (SIGKILL to the whole process
    group) while the 3-handed spot is mid-solve with a saved state, then restarted. Both
    releases, and an audit of each, must agree byte for byte.

    The 3-handed spot measures only at 30,000 iterations: its state exists from iteration 200 until
    the spot ships, seconds later. At the default 400 that window was about 0.15 s, and a busy
    machine could miss it between two looks."""
    a = tiny_workdir(tmp_path / "a", LONG_3MAX_SPOTS)
    out = run_release(a, 2)
    assert out.returncode == 0, out.stderr[-3000:]

    b = tiny_workdir(tmp_path / "b", LONG_3MAX_SPOTS)
    state = b / "results/solves/cash/3max/10bb/solver_state.npz"
    proc = subprocess.Popen(SNAKEMAKE + ["--cores", "1", "release", "--configfile", "tiny.yaml"], cwd=b,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.monotonic() + 600
    while not state.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert state.exists() and proc.poll() is None, "the solve finished before it could be interrupted"
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (b / "results/solves/cash/3max/10bb/result.json").exists()
    unlock = subprocess.run(SNAKEMAKE + ["--unlock", "release", "--configfile", "tiny.yaml"], cwd=b, capture_output=True)
    assert unlock.returncode == 0  # a killed run leaves its lock, as after a power loss
    out = run_release(b, 1, "--rerun-incomplete")
    assert out.returncode == 0, out.stderr[-3000:]

    # the restarted solve resumed from a saved state (no progress line for iteration 200). Which
    # one depends on when the kill landed: a state saved every 200 iterations, or the one saved with
    # the checkpoint's measurement at 30,000 just before the result is written (then it prints nothing).
    log_a, log_b = ((d / "logs/solves/cash_3max_10bb.log").read_text() for d in (a, b))
    assert "iteration 200 " in log_a and "iteration 30000 " in log_a and "iteration 200 " not in log_b
    sums_a, sums_b = (d / "results/SHA256SUMS" for d in (a, b))
    assert sums_a.read_bytes() == sums_b.read_bytes()
    assert len(sums_a.read_text().splitlines()) == 2 * 2 + 6 + 1  # charts, viewers, 6 aggregates, manifest
    for d in (a, b):
        audit = subprocess.run([sys.executable, "-m", "pokerlab.cli", "audit", "results/manifest.json"], cwd=d,
                               capture_output=True, text=True)
        assert audit.returncode == 0, audit.stdout
    if shutil.which("sha256sum"):
        assert subprocess.run(["sha256sum", "--quiet", "-c", "SHA256SUMS"], cwd=b / "results").returncode == 0
    summary = pd.read_csv(b / "results/summary.csv")
    assert list(summary["status"]) == ["shipped", "shipped"]


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("", "spots sheet spots.tsv: empty file, expected a header line"),
        ("# only a comment\n\n", "spots sheet spots.tsv: empty file, expected a header line"),
        ("format\tseats\tdepth\ncash\t2\t10\t7\n", "spots sheet spots.tsv line 2: 4 cells, the header has 3"),
        ("format\tseats\tdepth\n# note\ncash\t2\t10\nmtt\t2\n", "spots sheet spots.tsv line 4: 2 cells, the header has 3"),
    ],
)
def test_sheet_shape_errors_name_the_sheet_and_line(tmp_path, text, fragment):
    """Reliability #10: a 0-byte sheet and a row with a cell too many or too few name the sheet and
    its line (pandas gave EmptyDataError, or took the first column as the index and blamed 'format')."""
    path = tmp_path / "spots.tsv"
    path.write_text(text)
    with pytest.raises(ValueError, match=re.escape(fragment)):
        load_spots(path)


@pytest.mark.parametrize("column, cell", [("depth", "1_0"), ("depth", "1e1"), ("depth", " 10"), ("seats", "٣"),
                                          ("mem_mb", "1_000"), ("runtime", "٣"), ("bar_coefficient", "1_0"),
                                          ("checkpoints", "4_00"), ("depth", "0x10"), ("bar_coefficient", "infinity")])
def test_sheet_numbers_are_plain_decimals(tmp_path, column, cell):
    """Accepted quietly before: Python's float() and isdigit() take '1_0', '1e1', Arabic-Indic digits."""
    cells = {"format": "cash", "seats": "2", "depth": "10", "mem_mb": "", "runtime": "", "bar_coefficient": "",
             "checkpoints": ""}
    cells[column] = cell
    path = tmp_path / "spots.tsv"
    path.write_text("\t".join(cells) + "\n" + "\t".join(cells.values()) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape(f"line 2: {column} {cell!r}")):
        load_spots(path)


@pytest.mark.snakemake
@pytest.mark.slow
def test_a_one_spot_chart_is_moved_out_of_the_published_folders_by_the_next_release(tmp_path):
    """Reliability #4, through the workflow: the README's one-spot command after a release left a
    chart the manifest does not list, and `pokerlab audit` failed the release; `release` now moves
    it to results/unpublished/ without touching the manifest."""
    from pokerlab.manifest import audit

    work = tiny_workdir(tmp_path / "w")
    out = run_release(work, 2)
    assert out.returncode == 0, out.stderr[-3000:]
    manifest = (work / "results/manifest.json").read_bytes()
    adhoc = subprocess.run(SNAKEMAKE + ["--cores", "2", "results/charts/cash/2max/8bb.json.gz", "--configfile", "tiny.yaml"],
                           capture_output=True, text=True, cwd=work, timeout=900)
    assert adhoc.returncode == 0, adhoc.stderr[-3000:]
    assert [p.path for p in audit(work / "results/manifest.json")[0]] == ["charts/cash/2max/8bb.json.gz"]
    again = run_release(work, 2)
    assert again.returncode == 0, again.stderr[-3000:]
    assert "moved charts/cash/2max/8bb.json.gz to unpublished/charts/cash/2max/8bb.json.gz" in again.stderr
    assert audit(work / "results/manifest.json")[0] == []
    assert (work / "results/manifest.json").read_bytes() == manifest
    assert (work / "results/unpublished/charts/cash/2max/8bb.json.gz").is_file()


def test_batched_tables_group_the_listed_spots_of_the_batched_table_sizes():
    names = ["cash/2max/5bb", "cash/6max/5bb", "mtt/2max/8bb", "cash/2max/8bb", "cash/2max/5bb", "cash/3max/10bb"]
    assert batched_tables(names, [2, 3]) == {"cash/2max": ["cash/2max/5bb", "cash/2max/8bb"],
                                             "mtt/2max": ["mtt/2max/8bb"], "cash/3max": ["cash/3max/10bb"]}
    assert batched_tables(names, []) == {}


@pytest.mark.snakemake
def test_a_table_job_writes_the_bytes_of_one_job_per_spot(tmp_path):
    """With sweep.batch_seats the spots of a 2-handed table are solved in one job (rule
    solve_table_cash_2max), each with its own log and timing line, and give the same result files
    as one solve_spot job per spot."""
    runs = {}
    for name, batch in (("table", [2]), ("spots", [])):
        work = tiny_workdir(tmp_path / name)
        (work / "tiny.tsv").write_text("format\tseats\tdepth\ncash\t2\t5\ncash\t2\t8\n")
        config = yaml.safe_load((work / "tiny.yaml").read_text())
        config["sweep"]["batch_seats"] = batch
        (work / "tiny.yaml").write_text(yaml.safe_dump(config))
        out = subprocess.run(SNAKEMAKE + ["--cores", "2", "results/solves/cash/2max/5bb/result.json",
                                          "results/solves/cash/2max/8bb/result.json", "--configfile", "tiny.yaml"],
                             capture_output=True, text=True, cwd=work, timeout=900)
        assert out.returncode == 0, out.stderr[-3000:]
        runs[name] = (work, out.stdout + out.stderr)
    assert "rule solve_table_cash_2max:" in runs["table"][1] and "rule solve_spot:" not in runs["table"][1]
    assert runs["spots"][1].count("rule solve_spot:") == 2
    for depth in ("5bb", "8bb"):
        for file in ("result.json", "result.npz"):
            paths = [work / "results/solves/cash/2max" / depth / file for work, _ in runs.values()]
            assert paths[0].read_bytes() == paths[1].read_bytes(), (depth, file)
        log = (runs["table"][0] / f"logs/solves/cash_2max_{depth}.log").read_text()
        assert "iteration 400 " in log and "solve wall_seconds " in log
