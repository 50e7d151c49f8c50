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


def test_equity_command_ranges_form_prints_every_player_with_errors(capsys):
    argv = ["equity", "AhKh", "QQ+,AK", "random", "--board", "Ks7s6s", "--method", "rejection", "--samples", "4000"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split()[:2] for line in out[1:4]] == [["hero", "AhKh"], ["opponent", "1"], ["opponent", "2"]]
    assert all(line.count("±") == 3 for line in out[1:4])
    assert out[-1].startswith("method: rejection, 4,000 deals")


def test_equity_command_keeps_the_class_form(capsys):
    assert main(["equity", "AKs", "QQ", "--samples", "2000"]) == 0
    assert capsys.readouterr().out.startswith("AKs vs QQ (sampled, 2,000 deals")
    # a board sends even two class names to the ranges form
    assert main(["equity", "AKs", "QQ", "--board", "2c7d9h", "--method", "exact"]) == 0
    assert "hero AKs" in capsys.readouterr().out


def test_equity_command_needs_an_opponent(capsys):
    assert main(["equity", "AA"]) == 2
    assert "at least one opponent" in capsys.readouterr().err
