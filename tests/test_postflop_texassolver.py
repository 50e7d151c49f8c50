"""TexasSolver input files and dumped strategies, read into pokerlab's postflop objects; the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pokerlab.cards import COMBO_IDS, parse_cards, parse_combo
from pokerlab.cli import main
from pokerlab.postflop.texassolver import parse_texassolver_input, read_texassolver_input, texassolver_result
from pokerlab.postflop.tree import build_tree
from pokerlab.ranges import Range

DATA = Path(__file__).parent / "data" / "postflop"


def test_river_input_is_read_with_texassolver_meanings():
    given = read_texassolver_input(DATA / "river_input.txt")
    spot = given.spot
    assert (spot.pot, spot.stack, spot.board) == (100.0, 200.0, tuple(parse_cards("QsJh2h8d3c")))
    assert (given.accuracy_pct_pot, given.max_iterations) == (0.05, 300)
    assert spot.bet_tree.allin_threshold == 0.67
    assert spot.oop_range[parse_combo("QhQc")] == 0.5 and spot.oop_range[parse_combo("JdJc")] == 1.0
    assert spot.oop_range[parse_combo("QsQh")] == 0.0  # the board's Qs
    np.testing.assert_array_equal(spot.ip_range > 0, Range.parse("AA,KK,QQ,JJ,AK,AQs,KQ,QJs,JTs,T9s,98s,A5s")
                                  .remove_cards("QsJh2h8d3c").weights > 0)
    assert build_tree(spot).actions(0) == ["CHECK", "BET 50", "BET 200"]


def test_turn_input_keeps_texassolver_donk_rule():
    # TexasSolver's dump: after check / bet 50 / call, OOP may only check or shove the river
    tree = build_tree(read_texassolver_input(DATA / "turn_input.txt").spot)
    lines = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    assert lines[("CHECK", "BET 50", "CALL", "DEAL")] == ["CHECK", "BET 150"]
    assert lines[("BET 50", "CALL", "DEAL")] == ["CHECK", "BET 100", "BET 150"]
    assert lines[("CHECK", "BET 50", "CALL", "DEAL", "CHECK")] == ["CHECK", "BET 100", "BET 150"]


def test_texassolver_sizes_are_whole_chips():
    text = (DATA / "river_input.txt").read_text().replace("set_pot 100", "set_pot 55")
    tree = build_tree(parse_texassolver_input(text).spot)
    assert tree.actions(0) == ["CHECK", "BET 28", "BET 200"]  # 50% of 55 = 27.5 -> 28
    lines = {tuple(tree.line(n)): tree.actions(n) for n in tree.decision_nodes()}
    assert lines[("BET 28",)] == ["FOLD", "CALL", "RAISE 200"]


def test_texassolver_combo_keys_are_pokerlab_combo_ids():
    dump = json.loads((DATA / "texassolver_river_dump.json").read_text())
    keys = list(dump["strategy"]["strategy"])
    assert "8h8c" in keys and "AhQc" in keys
    for key in keys:  # higher card first, pair suits high to low: exactly our id
        assert COMBO_IDS[parse_combo(key)] == key


def test_texassolver_dump_reads_out_to_the_derived_values():
    spot = read_texassolver_input(DATA / "river_input.txt").spot
    dump = json.loads((DATA / "texassolver_river_dump.json").read_text())
    result = texassolver_result(dump, spot, iterations=300)
    derived = json.loads((DATA / "river_derived_ev.json").read_text())
    assert result.solver == "texassolver"
    for name in ("oop", "ip"):
        ours, theirs = result.players[name], derived["players"][name]
        assert ours.range_ev == pytest.approx(theirs["range_ev_share_of_pot"], abs=1e-5)
        assert ours.range_value("exp_pot") == pytest.approx(theirs["range_expected_final_pot"], abs=1e-5)
        for cid, v in theirs["combos"].items():  # the derived file rounds to 4 decimals
            assert ours.combos[cid]["ev"] == pytest.approx(v["ev_share"], abs=1e-3)
            assert ours.combos[cid]["exp_pot"] == pytest.approx(v["exp_pot"], abs=1e-3)
            assert ours.combos[cid]["p_showdown"] == pytest.approx(v["p_showdown"], abs=1e-4)
    # TexasSolver stopped near its own 0.05% target; our best response measures its strategy
    assert 0.0 < result.exploitability_pct_pot < 0.1


def test_dump_of_a_different_tree_is_rejected():
    spot = read_texassolver_input(DATA / "river_input.txt").spot
    dump = json.loads((DATA / "texassolver_river_dump.json").read_text())
    dump["actions"] = ["CHECK", "BET 60.000000", "BET 200.000000"]
    with pytest.raises(ValueError, match="tree settings differ"):
        texassolver_result(dump, spot)


def test_a_dump_file_reads_out_as_its_result_or_names_the_file(tmp_path):
    from pokerlab.postflop.texassolver import read_texassolver_result

    spot = read_texassolver_input(DATA / "river_input.txt").spot
    dump = json.loads((DATA / "texassolver_river_dump.json").read_text())
    result = read_texassolver_result(DATA / "texassolver_river_dump.json", spot)
    assert result.to_json() == texassolver_result(dump, spot).to_json()
    dump["actions"] = ["CHECK", "BET 60.000000", "BET 200.000000"]
    (tmp_path / "other.json").write_text(json.dumps(dump))
    with pytest.raises(ValueError, match=r"^\S*other.json: .*tree settings differ"):
        read_texassolver_result(tmp_path / "other.json", spot)


@pytest.mark.parametrize(
    "text,message",
    [
        ("set_pot 100\nset_effective_stack 200\nset_board Qs,Jh,2h\nset_range_ip AA\n", "missing set_range_oop"),
        ("set_pot abc\n", "set_pot expects a number"),
        ("frobnicate 1\n", "line 1: unknown command 'frobnicate'"),
        ("set_bet_sizes oop,preflop,bet,50\n", "line 1: expected set_bet_sizes"),
        ("set_pot 100\nset_effective_stack 200\nset_board Qs,Qs,2h\nset_range_ip AA\nset_range_oop KK\n", "twice"),
    ],
)
def test_bad_texassolver_input_fails_clearly(text, message):
    with pytest.raises(ValueError, match=message):
        parse_texassolver_input(text)


def test_cli_solves_a_texassolver_input_and_prints_the_record(capsys):
    assert main(["postflop", "--texassolver-input", str(DATA / "river_input.txt"), "--json"]) == 0
    captured = capsys.readouterr()
    record = json.loads(captured.out)
    assert "exploitability" in captured.err  # the progress line
    assert record["exploitability_pct_pot"] <= 0.05
    for name in ("oop", "ip"):
        player = record["players"][name]
        assert set(player) >= {"range_ev", "range_equity", "combos"}
        assert set(next(iter(player["combos"].values()))) == {"ev", "equity", "exp_pot", "p_showdown"}
    assert record["players"]["oop"]["range_ev"] + record["players"]["ip"]["range_ev"] == pytest.approx(100.0)


def test_cli_flags_and_bad_input(capsys):
    args = ["postflop", "--pot", "100", "--stack", "200", "--board", "QsJh2h8d3c", "--ip", "AA,KK",
            "--oop", "QQ,JJ", "--bets", "50", "--allin", "--accuracy", "0.5"]
    assert main(args) == 0
    assert "exploitability" in capsys.readouterr().out
    assert main(args + ["--threads", "1"]) == 0
    assert "on 1 thread(s)" in capsys.readouterr().out
    assert main(args + ["--threads", "0"]) == 2
    assert "bad threads 0" in capsys.readouterr().err
    assert main(args[:5] + ["--board", "QsQs2h", "--ip", "AA", "--oop", "KK", "--bets", "50"]) == 2
    assert "appears twice" in capsys.readouterr().err
    assert main(["postflop", "--pot", "100"]) == 2
    assert "missing --stack" in capsys.readouterr().err


def test_cli_reads_out_a_texassolver_dump(capsys):
    args = ["postflop", "--texassolver-input", str(DATA / "river_input.txt"),
            "--texassolver-dump", str(DATA / "texassolver_river_dump.json"), "--json"]
    assert main(args) == 0
    record = json.loads(capsys.readouterr().out)
    derived = json.loads((DATA / "river_derived_ev.json").read_text())
    assert record["solver"] == "texassolver"
    assert record["players"]["ip"]["range_ev"] == pytest.approx(derived["players"]["ip"]["range_ev_share_of_pot"], abs=1e-5)
    assert main(args[:1] + args[3:]) == 2
    assert "needs the --texassolver-input" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["set_max_iteration", "set_raise_limit"])
@pytest.mark.parametrize("value", ["inf", "-inf", "nan", "1e400", "2.5", "-3"])
def test_texassolver_counts_must_be_whole_numbers(command, value):
    """Reliability #7: an infinite, NaN, fractional or negative count is a clear error, not OverflowError."""
    text = (DATA / "river_input.txt").read_text() + f"{command} {value}\n"
    lineno = text.count("\n")
    with pytest.raises(ValueError, match=f"line {lineno}: {command} expects a whole number >= 0, got '{value}'"):
        parse_texassolver_input(text)


@pytest.mark.parametrize("probs", [[1e308, 0.0, 0.0], [0.5, 0.5], [-0.5, 1.0, 0.5], [0.5, 0.5, 0.5], ["a", 1, 0]])
def test_a_dumped_strategy_must_be_probabilities(probs):
    """Found by the fuzz suite: 1e308 was cast to float32 infinity and read out as a strategy."""
    spot = read_texassolver_input(DATA / "river_input.txt").spot
    dump = json.loads((DATA / "texassolver_river_dump.json").read_text())
    combo = next(iter(dump["strategy"]["strategy"]))
    dump["strategy"]["strategy"][combo] = probs
    with pytest.raises(ValueError, match=f"the strategy of {combo}"):
        texassolver_result(dump, spot)
