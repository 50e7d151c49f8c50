"""Shipping a measured pair (pokerlab.solved.ship, ``pokerlab solved ship``): it is copied only when the
held-out verdict, the ship check and the config's settings digest all allow it, and never in part."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from pokerlab.cards import N_CLASSES
from pokerlab.cli import main
from pokerlab.io import sha256_file
from pokerlab.preflop.ending_corrections import (EndingCorrections, read_ending_corrections, start_path,
                                                 write_ending_corrections, write_solved_start)
from pokerlab.solved.settings import settings_sha256, spot_section
from pokerlab.solved.ship import MeasuredPair, ship_pair, ship_refusals

ROOT = Path(__file__).resolve().parents[1]
SPOT = "cash/6max/100bb"


def _section(**spot_keys) -> dict:
    section = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())["solved"]
    return {**section, "spots": [{"format": "cash", "seats": 6, "depth": 100, **spot_keys}]}


def _measured(results: Path, section: dict, *, ships: bool = True, status: str = "shipped") -> MeasuredPair:
    """A pair as solved_exchange_validation and solved_exchange_check leave it, measured under ``section``."""
    pair = MeasuredPair.of(SPOT, results)
    d = np.linspace(-0.5, 0.5, N_CLASSES)
    table = EndingCorrections(SPOT, {"FFFRFC": (d, -d)},
                              {"command": "test", "settings_sha256": settings_sha256(spot_section(section, SPOT))})
    write_ending_corrections(pair.table, table)
    write_solved_start(pair.start, {"iteration": np.array(800)}, read_ending_corrections(pair.table), {"method": "exchange"})
    verdict = {"ships": ships, "reasons": [] if ships else ["FFRFFC: in the table but not reached by the chart"]}
    pair.heldout_report.write_text(json.dumps({"spot": SPOT, "table_sha256": sha256_file(pair.table), "verdict": verdict}))
    pair.check_result.parent.mkdir(parents=True)
    pair.check_result.write_text(json.dumps({
        "status": status, "exploitability_bb": 0.001 if status == "shipped" else 0.4, "bar_bb": 0.017,
        "settings": {"solved_endings": {"sha256": sha256_file(pair.table), "start": {"sha256": sha256_file(pair.start)}}}}))
    return pair


def test_a_pair_that_passes_every_gate_is_copied_whole(tmp_path):
    section = _section(boards=3)
    pair = _measured(tmp_path / "results", section)
    assert ship_refusals(pair, section) == []
    written = ship_pair(pair, section, tmp_path / "shipped")
    assert sorted(p.name for p in written) == ["cash-6max-100bb.start.npz", "cash-6max-100bb.tsv"]
    assert [p.read_bytes() for p in written] == [pair.table.read_bytes(), pair.start.read_bytes()]


@pytest.mark.parametrize("defect, reason", [
    ("verdict", "the verdict refuses the table: FFRFFC: in the table but not reached by the chart"),
    ("check", "the ship check says 'rejected', not 'shipped' (exploitability 0.4 bb against the bar 0.017 bb)"),
    ("settings", "the default run would refuse it"),
    ("other table", "-heldout.json: checks another table"),
    ("other start", "check/cash/6max/100bb/result.json: solved with another table or start"),
])
def test_a_pair_is_refused_with_its_reason_and_nothing_is_copied(tmp_path, defect, reason):
    section = _section(boards=3)
    pair = _measured(tmp_path / "results", section, ships=defect != "verdict",
                     status="rejected" if defect == "check" else "shipped")
    if defect == "other table":  # the held-out report of an earlier table
        report = json.loads(pair.heldout_report.read_text())
        pair.heldout_report.write_text(json.dumps({**report, "table_sha256": "0" * 64}))
    if defect == "other start":  # a start re-written after the check (same table, another iteration)
        write_solved_start(pair.start, {"iteration": np.array(900)}, read_ending_corrections(pair.table),
                           {"method": "exchange"})
    shipped_for = _section() if defect == "settings" else section  # the config measures the spot otherwise
    with pytest.raises(ValueError) as refused:
        ship_pair(pair, shipped_for, tmp_path / "shipped")
    assert reason in str(refused.value)
    assert len(ship_refusals(pair, shipped_for)) == 1
    assert not (tmp_path / "shipped").exists() or not any((tmp_path / "shipped").iterdir())


def test_a_missing_report_is_named_with_the_target_that_writes_it(tmp_path):
    section = _section()
    pair = _measured(tmp_path / "results", section)
    pair.heldout_report.unlink()
    with pytest.raises(ValueError, match=r"cash-6max-100bb-heldout.json: missing; check the table on held-out flops "
                                         r"first \(snakemake --cores 2 .*/exchange/cash-6max-100bb-heldout.json"):
        ship_refusals(pair, section)
    pair.heldout_report.write_text("{not json")
    with pytest.raises(ValueError, match=r"cash-6max-100bb-heldout.json is not JSON"):
        ship_refusals(pair, section)


def test_the_command_ships_into_the_configs_folder_or_says_why_not(tmp_path, monkeypatch, capsys):
    """``pokerlab solved ship`` reads config/config.yaml with --configfile merged over it, as snakemake does,
    and copies into its solve.postflop.solved_tables."""
    (tmp_path / "config").mkdir()
    config = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    (tmp_path / "config" / "config.yaml").write_text(yaml.safe_dump(config))
    (tmp_path / "shipped").mkdir()
    over = {"solve": {"postflop": {"solved_tables": "shipped"}},
            "solved": {"spots": [{"format": "cash", "seats": 6, "depth": 100, "boards": 3}]}}
    (tmp_path / "over.yaml").write_text(yaml.safe_dump(over))
    monkeypatch.chdir(tmp_path)
    merged = {**config["solved"], **over["solved"]}
    _measured(tmp_path / "results/solved", merged, ships=False)
    assert main(["solved", "ship", SPOT, "--configfile", "over.yaml"]) == 2
    assert "does not ship" in capsys.readouterr().err and not any((tmp_path / "shipped").iterdir())
    _measured(tmp_path / "results/solved2", merged)
    assert main(["solved", "ship", SPOT, "--configfile", "over.yaml", "--results", "results/solved2"]) == 0
    assert "shipped shipped/cash-6max-100bb.tsv" in capsys.readouterr().out
    assert (tmp_path / "shipped" / "cash-6max-100bb.tsv").read_bytes() == \
        (tmp_path / "results/solved2/exchange/cash-6max-100bb.tsv").read_bytes()
    assert start_path(tmp_path / "shipped" / "cash-6max-100bb.tsv").is_file()
