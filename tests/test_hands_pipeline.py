"""The hands rules' steps end to end on hand-built hands, and the workflow's DAG for the report."""

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from pokerlab.hands import pipeline

ROOT = Path(__file__).resolve().parents[1]
LINES = [
    "STATE:1:r200fffff:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:-50|-100|150|0|0|0:a|b|c|d|e|f",
    "STATE:2:ffr250cr1000ffc/r1500f:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/2d7dTs:1350|-100|0|0|-250|-1000:a|b|c|d|e|f",
    "STATE:3:fffccc/cr300cc/ccc/ccc:5c6d|AsAd|2s3s|4s5s|6s7s|3c4d/7h8h2d/Kc/Qs:-300|600|0|0|0|-300:a|b|c|d|e|f",
]


def test_steps_degrade_without_charts_or_table(tmp_path, equity_table):
    log = tmp_path / "in" / "s.log"
    log.parent.mkdir()
    log.write_text("\n".join(LINES) + "\nSTATE:4:broken\n")
    files = pipeline.expand_inputs([str(tmp_path / "in" / "*.log")])
    out = tmp_path / "out"
    pipeline.run_import(files, out / "h.parquet", out / "d.parquet", out / "import.json", site="pokerstars")
    imported = json.loads((out / "import.json").read_text())
    assert (imported["read"], imported["imported"], imported["skipped"]) == (4, 3, 1)
    assert imported["unexpected_format"] == ["s.log"]
    hands, decisions = pd.read_parquet(out / "h.parquet"), pd.read_parquet(out / "d.parquet")
    assert list(hands["hand_id"]) == ["s:1", "s:2", "s:3"] and list(hands.loc[0, "positions"]) == ["UTG", "HJ", "CO", "BTN", "SB", "BB"]
    first = decisions[decisions["hand_id"] == "s:2"].head(8)
    assert list(first["node"]) == ["", "F", "FF", "FFR", "FFRC", "FFRCR", "FFRCRF", "FFRCRFF"]
    assert list(first["action"]) == ["F", "F", "R", "C", "R", "F", "F", "C"]

    pipeline.run_stats(files, out / "stats.json")
    assert json.loads((out / "stats.json").read_text())["players"]["f"]["vpip"]["count"] == 2
    pipeline.run_grade(files, tmp_path / "no-charts", out / "g.csv", out / "g.json")
    skips = json.loads((out / "g.json").read_text())["skips"]
    assert list(skips) == ["no published chart cash/6max/100bb"]
    pipeline.run_population(files, tmp_path / "no-charts", out / "p.csv", 1)
    pipeline.run_exploit(files, tmp_path / "no-charts", tmp_path / "none.npz", "BTN", "", out / "x.json", out / "x.png")
    assert json.loads((out / "x.json").read_text())["skipped"] == "chart cash/6max/100bb is not published"
    eq = equity_table.win + equity_table.tie / 2
    pipeline.run_generate(eq, out / "gen.phhs", 60, 3, 0.5)
    pipeline.run_backtest([out / "gen.phhs"], eq, "none", out / "b.json", out / "b.csv")
    pipeline.write_report(out / "report.html", out / "import.json", out / "stats.json", out / "g.json", out / "p.csv",
                          out / "x.json", out / "x.png", out / "b.json", hero="f")
    page = (out / "report.html").read_text()
    assert "read 4, imported 3, skipped 1" in page and "no published chart cash/6max/100bb" in page
    assert "chart cash/6max/100bb is not published" in page and "Push/fold backtest" in page


@pytest.mark.snakemake
def test_dry_run_lists_the_hands_report(tmp_path):
    config = tmp_path / "hands.yaml"
    (tmp_path / "a.log").write_text(LINES[0] + "\n")
    config.write_text(yaml.safe_dump({"hands": {"inputs": [str(tmp_path / "*.log")], "hero": "c"}}))
    out = subprocess.run(
        [sys.executable, "-m", "snakemake", "-n", "--directory", str(ROOT), "--snakefile", str(ROOT / "Snakefile"),
         "--configfile", str(config), "--forceall", "results/hands/report.html"],
        capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    for rule in ("hands_import", "hands_stats", "hands_grade", "hands_population", "hands_exploit", "hands_backtest", "hands_report"):
        assert rule in out.stdout
    stats = out.stdout.split("Job stats:")[1].split("total")[0]
    jobs = {line.split()[0] for line in stats.splitlines()[3:] if line.strip()}
    # nothing on the report's path solves a spot or publishes a chart (charts are read if present)
    assert not jobs & {"solve_spot", "chart", "spot_outcome"} and not any(j.startswith("solve_table") for j in jobs), jobs
