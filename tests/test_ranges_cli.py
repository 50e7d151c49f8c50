"""The ``pokerlab range`` command: what it prints for a known range, and its errors."""

from __future__ import annotations

from pokerlab.cli import main


def test_range_command_prints_combos_share_and_grid(capsys):
    assert main(["range", "TT+,AQs+,AKo"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "range: TT+,AK,AQs"
    assert out[1] == "combos: 50 live, total weight 50"
    assert out[2] == "share of deals: 3.77%"  # 50 / 1326
    assert out[3].startswith("entropy: 5.644 bits")  # log2(50)
    grid = out[4:]
    assert len(grid) == 14
    assert grid[1].split() == ["A", "AA", "AKs", "AQs"] + ["."] * 10
    assert grid[2].split() == ["K", "AKo", "KK"] + ["."] * 11


def test_range_command_conditions_on_the_board(capsys):
    assert main(["range", "AA", "--board", "As7d2c"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "range: AhAd,AhAc,AdAc"
    assert out[1].startswith("combos: 3 live")
    assert out[5].split()[:2] == ["A", "50%"]


def test_range_command_reports_bad_notation(capsys):
    assert main(["range", "AA,A1s"]) == 2
    err = capsys.readouterr().err
    assert "\"A1s\" at position 4: unknown rank '1'" in err
