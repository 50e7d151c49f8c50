"""Reliability #8: bad files given on the command line are one line naming the file and what was
expected, exit code 2, never a traceback."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pokerlab.cli import main

DATA = Path(__file__).parent / "data" / "postflop"
INPUT = str(DATA / "river_input.txt")


def _one_clear_line(capsys, code: int, *needles: str) -> str:
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert code == 2, captured.err
    assert len(lines) == 1 and lines[0].startswith("pokerlab "), captured.err
    for needle in needles:
        assert needle in lines[0]
    return lines[0]


@pytest.mark.parametrize("make", ["missing", "directory", "binary"])
def test_texassolver_input_that_cannot_be_read(tmp_path, capsys, make):
    path = tmp_path / "input.txt"
    if make == "directory":
        path.mkdir()
    elif make == "binary":
        path.write_bytes(b"\xff\xfe\x00garbage\x80")
    code = main(["postflop", "--texassolver-input", str(path)])
    _one_clear_line(capsys, code, str(path), "TexasSolver input")


@pytest.mark.parametrize("content,expected", [
    (b"[1, 2, 3]", "a JSON object"),
    (b"{}", "node_type"),
    (b"\x00\x01\xff\xfe binary", "not JSON"),
    (b"{\"node_type\": \"action_node\", \"player\"", "not JSON"),
    (b"{\"node_type\": \"action_node\", \"player\": 1, \"actions\": 5}", "TexasSolver dump"),
])
def test_texassolver_dump_that_is_not_a_dump(tmp_path, capsys, content, expected):
    path = tmp_path / "dump.json"
    path.write_bytes(content)
    code = main(["postflop", "--texassolver-input", INPUT, "--texassolver-dump", str(path)])
    _one_clear_line(capsys, code, str(path), expected)


def test_texassolver_dump_missing(tmp_path, capsys):
    path = tmp_path / "nothing.json"
    code = main(["postflop", "--texassolver-input", INPUT, "--texassolver-dump", str(path)])
    _one_clear_line(capsys, code, str(path), "does not exist")


@pytest.mark.parametrize("manifest,expected", [
    ([1, 2], "a JSON object"),
    ({"format": "pokerlab-manifest/1"}, "missing key"),
    ({"format": "pokerlab-manifest/1", "published_dirs": [], "files": [{"path": "a"}], "config": {},
      "config_sha256": ""}, "files[0]"),
])
def test_audit_of_a_malformed_manifest(tmp_path, capsys, manifest, expected):
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(manifest))
    code = main(["audit", str(path)])
    _one_clear_line(capsys, code, str(path), expected)


def test_solve_out_unwritable_fails_before_solving(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    out = blocker / "result.json"
    code = main(["solve", "--format", "cash", "--seats", "2", "--depth", "10", "--table", str(tmp_path / "no_table.npz"),
                 "--out", str(out)])
    _one_clear_line(capsys, code, str(out), "cannot be written")


# --- accepted quietly before -------------------------------------------------------------------

@pytest.mark.parametrize("notation", ["", "   "])
def test_range_of_empty_notation_is_an_error(capsys, notation):
    code = main(["range", notation])
    _one_clear_line(capsys, code, "empty range notation")


def test_range_with_a_card_both_dead_and_on_the_board(capsys):
    code = main(["range", "AA,KK", "--board", "Ks7s6s", "--dead", "Ah7s"])
    _one_clear_line(capsys, code, "--dead", "7s", "--board")


@pytest.mark.parametrize("bets", ["50,,", ",50", "50,,75", "50, ,75", ",", "nan", "inf", "50,-inf"])
def test_postflop_size_lists_with_empty_or_non_finite_items(capsys, bets):
    with pytest.raises(SystemExit) as info:
        main(["postflop", "--pot", "100", "--stack", "200", "--board", "QsJh2h8d3c", "--ip", "AA", "--oop", "KK",
              "--bets", bets])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--bets" in err and repr(bets) in err


# --- every OS error is one line naming the path (reliability round two, R11) -------------------

def _hand_file(tmp_path) -> str:
    from test_hands_import import PS_HAND

    path = tmp_path / "ps.txt"
    path.write_text(PS_HAND)
    return str(path)


UNREADABLE = "/proc/self/mem"  # a file whose read fails with an OS error, whoever runs the tests


@pytest.mark.parametrize("argv", [
    ["hands", "import", UNREADABLE],
    ["hands", "stats", UNREADABLE],
    ["hands", "grade", UNREADABLE, "--charts", "."],
    ["hands", "backtest", UNREADABLE],
    ["audit", UNREADABLE],
])
def test_an_unreadable_input_is_one_line_naming_it(capsys, argv):
    _one_clear_line(capsys, main(argv), UNREADABLE)


@pytest.mark.parametrize("make_argv", [
    lambda hands, out: ["hands", "import", hands, "--out", out],
    lambda hands, out: ["hands", "grade", hands, "--out", out],
    lambda hands, out: ["hands", "backtest", hands, "--csv", out],
    lambda hands, out: ["hands", "exploit", hands, "--chart", "cash/6max/100bb", "--seat", "BTN", "--png", out],
    lambda hands, out: ["hands", "pushfold-exploit", hands, "--depth", "10", "--png", out],
    lambda hands, out: ["hands", "generate", out, "--hands", "5"],
    lambda hands, out: ["chart", "c.json.gz", "--out", out],
    lambda hands, out: ["pushfold", "--seats", "2", "--depth", "10", "--out", out],
    lambda hands, out: ["postflop", "--pot", "10", "--stack", "10", "--board", "QsJh2h8d3c", "--ip", "AA", "--oop", "KK",
                        "--pack", out],
    lambda hands, out: ["sessions", "report", "--data", str(Path(hands).parent / "data"), "--html", out],
])
@pytest.mark.parametrize("where", ["a folder", "under /proc", "under a file"])
def test_an_output_that_cannot_be_written_is_refused_before_any_work(tmp_path, capsys, make_argv, where):
    hands = _hand_file(tmp_path)
    out = {"a folder": str(tmp_path), "under /proc": "/proc/nope/x.out", "under a file": f"{hands}/x.out"}[where]
    argv = make_argv(hands, out)
    if argv[:2] in (["postflop", "--pot"], ["hands", "import"]) and where == "a folder":
        out = hands  # these options name a folder: an existing file is the folder case
        argv[-1] = out
    _one_clear_line(capsys, main(argv), out)


def test_a_data_folder_that_is_a_file_is_one_line(capsys):
    code = main(["sessions", "add", "--data", "/etc/passwd", "--start", "2026-03-02T20:00", "--end", "2026-03-02T21:00",
                 "--hands", "10"])
    _one_clear_line(capsys, code, "/etc/passwd")


# --- tracebacks on impossible input (reliability round two, R12) -------------------------------

DECIDE = ["decide", "--hero", "AhQd", "--hero-position", "BB", "--villain-position", "BTN", "--preflop", "FFFRFC"]


def test_decide_with_a_six_card_board(capsys):
    _one_clear_line(capsys, main(DECIDE + ["--board", "Kc7s2d3h4h5h"]), "board", "6")


def test_a_texassolver_dump_nested_too_deep(tmp_path, capsys):
    path = tmp_path / "dump.json"
    path.write_text('{"node_type": "action_node", "childrens": ' + "[" * 100_000 + "]" * 100_000 + "}")
    code = main(["postflop", "--texassolver-input", INPUT, "--texassolver-dump", str(path)])
    _one_clear_line(capsys, code, str(path), "nested")


@pytest.mark.parametrize("stacks", ["nan,inf", "3,inf", "nan,30", "-5,30"])
def test_generate_with_stacks_that_are_not_finite(tmp_path, capsys, stacks):
    code = main(["hands", "generate", str(tmp_path / "g.phhs"), "--hands", "3", f"--stacks={stacks}"])
    _one_clear_line(capsys, code, "--stacks", stacks)
    assert not (tmp_path / "g.phhs").exists()


def test_chart_of_a_node_without_actions(served_release, tmp_path, capsys):
    import gzip

    chart = next(iter(served_release[1]["charts"].values()))
    doc = json.loads(gzip.decompress(Path(chart).read_bytes()))
    del doc["nodes"][0]["actions"]
    path = tmp_path / "broken.json"
    path.write_text(json.dumps(doc))
    code = main(["chart", str(path), "--out", str(tmp_path / "x.png")])
    _one_clear_line(capsys, code, str(path), "actions")
    assert not (tmp_path / "x.png").exists()


@pytest.mark.parametrize("setting, value", [("equity_table", 5), ("hero", ["a"]), ("fees", None), ("currency", 1.5)])
def test_sessions_settings_of_the_wrong_type(tmp_path, capsys, setting, value):
    data = tmp_path / "data"
    data.mkdir()
    (data / "settings.json").write_text(json.dumps({setting: value}))
    _one_clear_line(capsys, main(["sessions", "grade", "--data", str(data)]), "settings.json", setting)


# --- NaN printed with exit 0 (reliability round two, R13) ---------------------------------------

@pytest.mark.parametrize("size", ["nan", "inf", "-0.5"])
def test_decide_refuses_a_bet_size_that_is_not_a_finite_positive_number(capsys, size):
    code = main(DECIDE + ["--board", "Kc7s2d", "--history", f"flop: hero check, villain bet {size}"])
    _one_clear_line(capsys, code, "history", size)


@pytest.mark.parametrize("stack", ["1e300", "1e10"])
def test_postflop_refuses_a_stack_beyond_what_the_solver_holds(capsys, stack):
    code = main(["postflop", "--pot", "10", "--stack", stack, "--allin", "--board", "QsJh2h8d3c", "--ip", "AA",
                 "--oop", "KK"])
    _one_clear_line(capsys, code, "stack", "at most")


def test_a_texassolver_input_with_a_huge_stack(tmp_path, capsys):
    path = tmp_path / "input.txt"
    path.write_text((DATA / "river_input.txt").read_text().replace("set_effective_stack 200", "set_effective_stack 1e300"))
    _one_clear_line(capsys, main(["postflop", "--texassolver-input", str(path)]), str(path), "at most")


@pytest.mark.parametrize("shrink", ["-1", "nan", "0", "inf"])
@pytest.mark.parametrize("command", [["exploit", "--chart", "cash/6max/100bb", "--seat", "BTN"],
                                     ["pushfold-exploit", "--depth", "10"]])
def test_exploit_refuses_a_shrink_that_is_not_a_finite_positive_number(tmp_path, capsys, command, shrink):
    with pytest.raises(SystemExit) as info:
        main(["hands", command[0], _hand_file(tmp_path), *command[1:], f"--shrink={shrink}"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--shrink" in err and shrink in err and "Traceback" not in err


def test_the_exploit_library_refuses_such_a_shrink_too():
    from pokerlab.hands.exploit import pushfold_exploit

    with pytest.raises(ValueError, match="shrink nan: expected a finite number > 0"):
        pushfold_exploit(None, None, 10.0, shrink=float("nan"))


# --- a bet of nothing (reliability round two, R14) ----------------------------------------------

@pytest.mark.parametrize("sizes", ["0", "0.5,0", "-1"])
def test_decide_refuses_a_hero_size_of_zero_or_less(capsys, sizes):
    with pytest.raises(SystemExit) as info:
        main(DECIDE + ["--board", "Kc7s2d", "--history", "flop: hero check, villain bet 0.5", f"--sizes={sizes}"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--sizes" in err and sizes in err and "Traceback" not in err


def test_the_decide_library_refuses_a_size_of_zero():
    from pokerlab.advice.decide import Situation, decide

    sit = Situation(hero="AhQd", hero_position="BB", villain_position="BTN", preflop="FFFRFC", board="Kc7s2d",
                    hero_sizes=(0.5, 0.0))
    with pytest.raises(ValueError, match=r"hero_sizes: 0\.0 is not a pot fraction > 0"):
        decide(sit)


# --- a release that points outside itself (reliability round two, R17) ---------------------------

def _release_listing(root: Path, target: str, in_sums: str | None = None, published: str = "charts") -> Path:
    """A release in ``root`` whose manifest lists ``target`` (and SHA256SUMS ``in_sums``), with
    the true size and digest of the file it reaches, so that only the path can be wrong."""
    from pokerlab.io import sha256_file
    from pokerlab.manifest import MANIFEST_FORMAT, config_sha256

    reached = (root / target) if not target.startswith("/") else Path(target)
    manifest = {"format": MANIFEST_FORMAT, "published_dirs": [published], "config": {}, "config_sha256": config_sha256({}),
                "files": [{"path": target, "bytes": reached.stat().st_size, "sha256": sha256_file(reached)}]}
    path = root / "manifest.json"
    path.write_text(json.dumps(manifest))
    (root / "SHA256SUMS").write_text(f"{sha256_file(reached)}  {in_sums or target}\n{sha256_file(path)}  manifest.json\n")
    return path


@pytest.mark.parametrize("target", ["../../../../../../../etc/hostname", "/etc/hostname", "charts/../../outside.txt"])
def test_audit_refuses_a_manifest_path_outside_the_release(tmp_path, capsys, target):
    root = tmp_path / "a" / "release"
    (root / "charts").mkdir(parents=True)
    (tmp_path / "a" / "outside.txt").write_text("not published\n")
    path = _release_listing(root, target)
    _one_clear_line(capsys, main(["audit", str(path)]), str(path), repr(target), "outside the release")


def test_audit_refuses_a_checksum_line_outside_the_release(tmp_path, capsys):
    root = tmp_path / "release"
    (root / "charts").mkdir(parents=True)
    (root / "charts" / "a.json").write_text("{}\n")
    path = _release_listing(root, "charts/a.json", in_sums="../release/charts/a.json")
    _one_clear_line(capsys, main(["audit", str(path)]), "SHA256SUMS line 1", "outside the release")


def test_audit_refuses_a_published_folder_outside_the_release(tmp_path, capsys):
    root = tmp_path / "release"
    (root / "charts").mkdir(parents=True)
    (root / "charts" / "a.json").write_text("{}\n")
    path = _release_listing(root, "charts/a.json", published="../..")
    _one_clear_line(capsys, main(["audit", str(path)]), str(path), "published_dirs", "outside the release")


# --- unclear errors (reliability round two, R18) -------------------------------------------------

@pytest.mark.parametrize("make", ["/dev/null", "fifo"])
def test_hands_from_a_device_or_a_pipe(tmp_path, capsys, make):
    import os

    path = make
    if make == "fifo":
        path = str(tmp_path / "fifo")
        os.mkfifo(path)
    _one_clear_line(capsys, main(["hands", "import", path]), path, "a device or a pipe")


def test_chart_and_audit_of_a_folder(tmp_path, capsys):
    _one_clear_line(capsys, main(["chart", str(tmp_path)]), str(tmp_path), "is a folder")
    _one_clear_line(capsys, main(["audit", str(tmp_path)]), str(tmp_path), "is a folder")


def test_a_binary_checksum_file(tmp_path, capsys):
    root = tmp_path / "release"
    (root / "charts").mkdir(parents=True)
    (root / "charts" / "a.json").write_text("{}\n")
    path = _release_listing(root, "charts/a.json")
    (root / "SHA256SUMS").write_bytes(b"\xff\xfe\x00\x81binary")
    _one_clear_line(capsys, main(["audit", str(path)]), str(root / "SHA256SUMS"), "not a text file")


def test_a_binary_priors_file(tmp_path, capsys):
    path = tmp_path / "priors.json"
    path.write_bytes(b"\xff\xfe\x00\x81binary")
    code = main(DECIDE + ["--board", "Kc7s2d", "--history", "flop: hero check, villain bet 0.5", "--priors", str(path)])
    _one_clear_line(capsys, code, str(path), "not")


def test_a_table_that_is_not_an_equity_table_is_not_to_be_deleted(tmp_path, capsys):
    code = main(["hands", "backtest", _hand_file(tmp_path), "--table", "/etc/passwd"])
    line = _one_clear_line(capsys, code, "/etc/passwd", "expected an equity_169.npz written by the equity_table rule")
    assert "delete" not in line


@pytest.mark.parametrize("option, value", [("--players", "1"), ("--players", "2,12"), ("--stacks", "30,3")])
def test_generate_names_the_option(tmp_path, capsys, option, value):
    code = main(["hands", "generate", str(tmp_path / "g.phhs"), "--hands", "3", f"{option}={value}"])
    _one_clear_line(capsys, code, option, value)


def test_a_utf16_export_is_read(tmp_path, capsys):
    from test_hands_import import PS_HAND

    for encoding in ("utf-16", "utf-16-le", "utf-16-be"):
        path = tmp_path / f"{encoding}.txt"
        data = PS_HAND.encode(encoding)
        path.write_bytes(data if encoding == "utf-16" else {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[encoding] + data)
        assert main(["hands", "import", str(path)]) == 0
        assert "read 1, imported 1" in capsys.readouterr().out


def test_no_hand_read_at_all_is_an_error(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("nothing to see\n")
    _one_clear_line(capsys, main(["hands", "import", str(tmp_path)]), str(tmp_path), "no hand")


@pytest.mark.parametrize("command", ["grade", "population"])
def test_grading_against_a_chart_folder_that_is_not_there(tmp_path, capsys, command):
    code = main(["hands", command, _hand_file(tmp_path), "--charts", str(tmp_path / "nope")])
    _one_clear_line(capsys, code, "--charts", str(tmp_path / "nope"))


def test_a_texassolver_input_with_a_byte_order_mark(tmp_path, capsys):
    path = tmp_path / "input.txt"
    path.write_bytes(b"\xef\xbb\xbf" + (DATA / "river_input.txt").read_bytes())
    from pokerlab.postflop.texassolver import read_texassolver_input

    with_bom, without = read_texassolver_input(path), read_texassolver_input(DATA / "river_input.txt")
    assert (with_bom.spot.pot, with_bom.spot.stack, with_bom.spot.board) == (without.spot.pot, without.spot.stack,
                                                                            without.spot.board)
    assert (with_bom.spot.oop_range == without.spot.oop_range).all()


def test_serve_binds_a_bracketed_ipv6_loopback(tmp_path):
    import subprocess
    import sys

    (tmp_path / "results").mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(tmp_path / "results"), "--host", "[::1]",
                             "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=60)
    assert "at http://[::1]:" in line, err


# --- impossible input accepted (reliability round two, R20) --------------------------------------

@pytest.mark.parametrize("option, value", [("--hands", "-5"), ("--hands", "0"), ("--ante-share", "2"),
                                           ("--ante-share", "-0.1"), ("--ante-share", "nan")])
def test_generate_refuses_impossible_counts_and_shares(tmp_path, capsys, option, value):
    code = main(["hands", "generate", str(tmp_path / "g.phhs"), f"{option}={value}"])
    _one_clear_line(capsys, code, option, value)
    assert not (tmp_path / "g.phhs").exists()


def test_the_generator_refuses_them_too():
    from pokerlab.hands.generate import generate_hands

    with pytest.raises(ValueError, match="ante_share 2"):
        generate_hands(3, 1, None, ante_share=2)
    with pytest.raises(ValueError, match="hands -5"):
        generate_hands(-5, 1, None)


def test_population_refuses_an_unknown_node_set(tmp_path, capsys):
    with pytest.raises(SystemExit) as info:
        main(["hands", "population", _hand_file(tmp_path), "--charts", str(tmp_path), "--nodes", "bogus"])
    assert info.value.code == 2 and "--nodes" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["nan", "0", "-1", "inf"])
def test_postflop_refuses_a_memory_limit_that_is_no_limit(capsys, value):
    with pytest.raises(SystemExit) as info:
        main(["postflop", "--pot", "10", "--stack", "10", "--board", "QsJh2h8d3c", "--ip", "AA", "--oop", "KK",
              f"--max-memory-mb={value}"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "--max-memory-mb" in err and value in err


def test_equity_with_samples_samples(capsys):
    assert main(["equity", "AhKh", "QQ", "--samples", "1000"]) == 0
    out = capsys.readouterr().out
    assert "exact" not in out and "1,000" in out


@pytest.mark.parametrize("value", ["0", "-5"])
def test_equity_refuses_samples_that_are_not_positive(capsys, value):
    with pytest.raises(SystemExit) as info:
        main(["equity", "AhKh", "QQ", f"--samples={value}"])
    assert info.value.code == 2 and "--samples" in capsys.readouterr().err


def test_equity_refuses_samples_with_the_exact_method(capsys):
    _one_clear_line(capsys, main(["equity", "AhKh", "QQ", "--samples", "1000", "--method", "exact"]), "--samples", "exact")


@pytest.mark.parametrize("chart, message", [("cash-6max-100bb", "expected {format}/{n}max/{depth}bb"),
                                            ("poker/6max/100bb", "poker"), ("cash/12max/100bb", "12")])
def test_hands_exploit_names_a_bad_chart_spot(tmp_path, capsys, chart, message):
    code = main(["hands", "exploit", _hand_file(tmp_path), "--charts", str(tmp_path), "--chart", chart, "--seat", "BTN"])
    _one_clear_line(capsys, code, "--chart", message)
