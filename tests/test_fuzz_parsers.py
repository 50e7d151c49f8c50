"""Property-based fuzzing of every parser of user input: range notation, card strings, TexasSolver
input files and dumps, spots sheets and hand-history files. Whatever the text, a parser returns a value or raises
``ValueError`` (pokerlab's error for bad user input, shown by the CLI as one line with exit code 2):
no other exception escapes, and nothing hangs (each example has a deadline).

The examples are derandomised (the same ones every run) and capped so that the whole file stays
within the fast suite's budget (about 25 s on 2 cores); set ``HYPOTHESIS_PROFILE=fuzz-long`` for a
longer, randomised search."""

from __future__ import annotations

import copy
import json
import os
import tempfile
from datetime import timedelta
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.cards import N_COMBOS, parse_card, parse_cards, parse_class, parse_combo
from pokerlab.postflop.texassolver import (parse_texassolver_input, read_texassolver_dump, read_texassolver_input,
                                           texassolver_result)
from pokerlab.ranges import Range
from pokerlab.sweep import OVERRIDE_COLUMNS, SHEET_COLUMNS, load_spots

DATA = Path(__file__).parent / "data" / "postflop"
RIVER_INPUT = (DATA / "river_input.txt").read_text()
RIVER_DUMP = json.loads((DATA / "texassolver_river_dump.json").read_text())

settings.register_profile("fuzz", max_examples=300, derandomize=True, database=None,
                          deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz-long", max_examples=5000, derandomize=False, database=None,
                          deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])
FUZZ = settings.get_profile(os.environ.get("HYPOTHESIS_PROFILE", "fuzz"))


def _only_value_error(call, *args, names=None):
    """Run ``call``; a ``ValueError`` is a clean refusal (one line, naming ``names`` if given: the
    file), anything else fails the test."""
    try:
        return call(*args)
    except ValueError as exc:
        message = str(exc)
        assert message.strip() and "\n" not in message.strip(), f"one line expected: {message!r}"
        assert names is None or names in message, f"{names} not named in {message!r}"
        return None


# --- range notation and card strings ---------------------------------------------------------

NOTATION_CHARS = "AKQJT98765432akqjt shdcoSHDCO+-:,.0123456789eE_ \t\n\u00a0\u0663random"
notation_tokens = st.sampled_from(["AA", "AKs", "AKo", "AK", "TT+", "A2s+", "KTo+", "22-66", "A5s-A2s", "A5-A2",
                                   "AhKh", "KhAh", "random", ":0.5", ":1e-3", ":inf", ":nan", ":-1", ":", ",", "+",
                                   "-", "AA+", "s", "o", "x", "1", "0", "1_0", "AhAh", "Zz", "  "])
notation_text = st.one_of(st.text(NOTATION_CHARS, max_size=40), st.text(max_size=20),
                          st.lists(notation_tokens, max_size=12).map("".join))


@FUZZ
@given(notation_text)
def test_range_notation_raises_only_value_error(text):
    r = _only_value_error(Range.parse, text)
    if r is not None:  # what parses is a valid range, and prints back to the same weights
        assert r.weights.shape == (N_COMBOS,) and np.all(np.isfinite(r.weights)) and np.all(r.weights >= 0)
        assert np.array_equal(Range.parse(r.to_notation()).weights, r.weights)


card_text = st.one_of(st.text("AKQJT98765432akqjtshdcSHDC ,\t10xX", max_size=16), st.text(max_size=8))


@FUZZ
@given(card_text)
def test_card_strings_raise_only_value_error(text):
    cards = _only_value_error(parse_cards, text)
    if cards is not None:
        assert len(set(cards)) == len(cards) and all(0 <= c < 52 for c in cards)
    for parse in (parse_card, parse_combo, parse_class):
        _only_value_error(parse, text)


@FUZZ
@given(st.one_of(st.none(), st.integers(), st.floats(), st.lists(st.integers(), max_size=3), st.binary(max_size=4)))
def test_card_parsers_given_non_text_raise_only_value_error(value):
    for parse in (parse_card, parse_combo, parse_class, parse_cards):
        with pytest.raises(ValueError):
            parse(value)


# --- TexasSolver input files -------------------------------------------------------------------

COMMANDS = ["set_pot", "set_effective_stack", "set_board", "set_range_ip", "set_range_oop", "set_bet_sizes",
            "set_allin_threshold", "set_raise_limit", "set_accuracy", "set_max_iteration", "build_tree",
            "set_thread_num", "dump_result", "frobnicate", "#", ""]
ARGS = st.one_of(st.sampled_from(["100", "0", "-5", "inf", "nan", "1e400", "1e-400", "abc", "", "Qs,Jh,2h", "QsQs",
                                  "Qs,Jh,2h,8d,3c,4c", "AA,KK:0.5", "oop,river,bet,50", "ip,flop,raise,100,allin",
                                  "oop,turn,donk", "ip,river,allin", "oop,preflop,bet,1", "oop,river,bet,inf",
                                  "oop,river,bet,-50", "ip,river,bet,1e400", "2.5", "4"]),
                 st.text(max_size=12))
input_lines = st.lists(st.tuples(st.sampled_from(COMMANDS), ARGS).map(lambda t: f"{t[0]} {t[1]}"), max_size=10)


@FUZZ
@given(input_lines, st.booleans())
def test_texassolver_input_raises_only_value_error(lines, on_top_of_a_valid_file):
    text = (RIVER_INPUT if on_top_of_a_valid_file else "") + "\n".join(lines) + "\n"
    _only_value_error(parse_texassolver_input, text)


NUMERIC_COMMANDS = ["set_pot", "set_effective_stack", "set_allin_threshold", "set_raise_limit", "set_accuracy",
                    "set_max_iteration"]
numbers = st.one_of(st.sampled_from(["inf", "-inf", "nan", "1e400", "-0", "1_0", "0x10", "\u0663"]),
                    st.floats().map(repr), st.integers(-10**30, 10**30).map(str))


@FUZZ
@given(st.sampled_from(NUMERIC_COMMANDS), numbers)
def test_one_numeric_setting_raises_only_value_error(command, value):
    _only_value_error(parse_texassolver_input, f"{RIVER_INPUT}{command} {value}\n")


@FUZZ
@given(st.binary(max_size=64))
def test_texassolver_input_file_of_any_bytes_raises_only_value_error(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "input.txt"
        path.write_bytes(data)
        _only_value_error(read_texassolver_input, path, names=str(path))


# --- TexasSolver dumps -------------------------------------------------------------------------

json_values = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=True), st.text(max_size=6),
              st.sampled_from(["CHECK", "BET 50.000000", "CALL", "FOLD", "action_node", "chance_node"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(
        ["actions", "childrens", "node_type", "player", "strategy", "dealcards", "AhKh", "KdKc", "x"]), inner,
        max_size=4)),
    max_leaves=12,
)


def _paths(node, prefix=()):
    """Every (container, key) position in a JSON document."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield prefix + (key,)
        yield from _paths(value, prefix + (key,))


DUMP_PATHS = list(_paths(RIVER_DUMP))


@pytest.fixture(scope="module")
def river_spot():
    spot = read_texassolver_input(DATA / "river_input.txt").spot
    texassolver_result(RIVER_DUMP, spot)  # compile once, outside the examples' deadline
    return spot


@FUZZ
@given(st.lists(st.tuples(st.integers(0, len(DUMP_PATHS) - 1), json_values, st.booleans()), min_size=1, max_size=3))
def test_a_mutated_texassolver_dump_raises_only_value_error(river_spot, mutations):
    dump = copy.deepcopy(RIVER_DUMP)
    for index, value, delete in mutations:
        *parents, key = DUMP_PATHS[index]
        node = dump
        try:
            for part in parents:
                node = node[part]
            if delete and isinstance(node, dict):
                node.pop(key, None)
            else:
                node[key] = value
        except (KeyError, IndexError, TypeError):  # an earlier mutation removed the path
            continue
    _only_value_error(texassolver_result, dump, river_spot)


@FUZZ
@given(st.one_of(json_values, st.binary(max_size=40)))
def test_a_texassolver_dump_file_of_anything_raises_only_value_error(river_spot, content):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "dump.json"
        path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
        dump = _only_value_error(read_texassolver_dump, path, names=str(path))
        if dump is not None:
            _only_value_error(texassolver_result, dump, river_spot)


# --- spots sheets ------------------------------------------------------------------------------

cells = st.one_of(st.sampled_from(["cash", "mtt", "icm_bubble", "icm_final", "poker", "2", "9", "10", "1", "0",
                                   "5", "12.5", "100.0001", "1e6", "1_0", "-3", "nan", "inf", "400,1200", "1200,400",
                                   "0.01", "", " ", "#", "\u0663", "\ufeff"]),
                  st.text(max_size=6))
header = st.lists(st.sampled_from([*SHEET_COLUMNS, *OVERRIDE_COLUMNS, "stack", ""]), max_size=7)
sheet_rows = st.lists(st.lists(cells, max_size=8), max_size=5)


@FUZZ
@given(st.booleans(), header, sheet_rows, st.sampled_from(["\n", "\r\n"]))
def test_spots_sheet_raises_only_value_error(valid_header, columns, rows, newline):
    columns = [*SHEET_COLUMNS, *OVERRIDE_COLUMNS] if valid_header else columns
    text = newline.join("\t".join(line) for line in [columns, *rows]) + newline
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spots.tsv"
        path.write_text(text, encoding="utf-8")
        sheet = _only_value_error(load_spots, path, names="spots.tsv")
    if sheet is not None:
        assert len(sheet) == sum(1 for row in rows if "".join(row).split("#", 1)[0].strip())
        assert sheet["depth"].gt(1).all() and sheet["seats"].between(2, 9).all()


@FUZZ
@given(st.binary(max_size=80))
def test_spots_sheet_of_any_bytes_raises_only_value_error(data):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "spots.tsv"
        path.write_bytes(data)
        _only_value_error(load_spots, path, names="spots.tsv")


# --- hand-history files ---------------------------------------------------------------------

def _hand_samples() -> list[str]:
    """A Pluribus log, a PokerStars export and a PHH file, all hand-built (the hands tests' samples;
    the PHH file is the Pluribus hand written through pokerkit)."""
    from test_hands_import import LINE, PS_HAND

    from pokerlab.hands.phh import write_phhs
    from pokerlab.hands.pluribus import read_pluribus_text

    hands, _, _ = read_pluribus_text(LINE + "\n", "sample")
    with tempfile.TemporaryDirectory() as tmp:
        write_phhs(hands, Path(tmp) / "sample.phhs")
        phh = (Path(tmp) / "sample.phhs").read_text()
    return [LINE + "\n" + LINE.replace("STATE:7:", "STATE:8:") + "\n", PS_HAND + "\n\n\n" + PS_HAND, phh]


HAND_SAMPLES = _hand_samples()


@st.composite
def mangled_hand_text(draw):
    text = draw(st.sampled_from(HAND_SAMPLES))
    for _ in range(draw(st.integers(0, 4))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 40)))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "truncate"]))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.text(":/|,\n 0123456789cfrkbAKQJT2shdc$.()#[]=-", max_size=12)) + text[i:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        else:
            text = text[:i]
    return text


@FUZZ
@given(mangled_hand_text())
def test_hand_history_import_never_crashes_and_never_loses_a_hand(text):
    from pokerlab.hands.importer import import_text

    result = _only_value_error(import_text, text, "fuzz.txt")
    if result is None:
        return
    hands, report = result
    assert report.read == report.imported + len(report.skipped) == len(hands) + len(report.skipped)
    for skip in report.skipped:  # every skipped hand says why and where it started
        assert skip.get("reason") and "line" in skip, skip


# --- the session ledger -------------------------------------------------------------------------

LEDGER_HEADER = ("id,start,end,hands,stakes,hh_net,rakeback_start,rakeback_end,rakeback_claimed,rake_counter_start,"
                 "rake_counter_end,balance_start,balance_end,transfers,exports,notes")
LEDGER_SPECIALS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029\x00\x1b\t\",;'\ufeff\ud800²٣ "
ledger_text = st.one_of(st.text(max_size=30), st.text(LEDGER_SPECIALS + "ab1.-_e", max_size=12),
                        st.integers(9_995, 10_005).map(lambda n: "é" * n))
ledger_time = st.one_of(st.datetimes().map(lambda t: t.isoformat(timespec="minutes")),
                        st.datetimes().map(lambda t: t.strftime("%Y-%m-%dT%H:%M:%S")), ledger_text)
ledger_number = st.one_of(st.floats().map(repr), st.integers(-10**30, 10**30).map(str), ledger_text,
                          st.sampled_from(["-1e-7", "4e-7", "-0.0", "1e300", "0.1234565"]))


@FUZZ
@given(st.fixed_dictionaries({"start": ledger_time, "end": ledger_time},
                             optional={"hands": st.one_of(st.integers(0, 10**6).map(str), ledger_text),
                                       "hh_net": ledger_number, "balance_start": ledger_number,
                                       "balance_end": ledger_number, "transfers": ledger_number,
                                       "stakes": ledger_text, "exports": ledger_text, "notes": ledger_text}))
def test_what_the_ledger_writer_accepts_the_reader_reads_back(values):
    """A row is refused naming its field, or the reader reads it back as written (and the ledger
    stays readable and writable)."""
    from pokerlab.sessions.ledger import FIELDS, add_session, read_ledger

    with tempfile.TemporaryDirectory() as tmp:
        try:
            written = add_session(tmp, values)
        except ValueError as exc:
            message = str(exc)
            assert "\n" not in message and message.split(":")[0] in FIELDS, message
            return
        ledger = read_ledger(tmp)
        assert not ledger.problems, ledger.problems
        (read,) = ledger.sessions
        assert read.as_row() == written.as_row()
        for name in ("stakes", "exports", "notes"):
            assert getattr(read, name) == values.get(name, "").strip()
        add_session(tmp, {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00"})
        assert len(read_ledger(tmp).sessions) == 2


ledger_field = st.one_of(st.text(LEDGER_SPECIALS + "ab1.-:T", max_size=10),
                         st.integers(131_000, 131_100).map(lambda n: "y" * n))  # around the CSV reader's field limit
ledger_rows = st.lists(st.lists(ledger_field, min_size=1, max_size=17).map(",".join), max_size=4)


@FUZZ
@given(st.one_of(st.binary(max_size=400),
                 ledger_rows.map(lambda rows: "\n".join([LEDGER_HEADER, *rows]).encode("utf-8", "surrogatepass"))))
def test_a_ledger_file_of_anything_is_read_with_problems_named_never_an_exception(content):
    from pokerlab.sessions.ledger import read_ledger

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "sessions.csv").write_bytes(content)
        ledger = read_ledger(tmp)
        for problem in ledger.problems:
            assert problem.line >= 1 and "\n" not in str(problem)


@pytest.fixture(scope="module")
def sessions_client(tmp_path_factory):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from pokerlab.serve.app import create_app

    root = tmp_path_factory.mktemp("fuzz-sessions")
    (root / "results").mkdir()
    return TestClient(create_app(root / "results", root / "data"), base_url="http://127.0.0.1:8765")


@settings(FUZZ, max_examples=60)
@given(st.integers(-300, 300), st.sampled_from(["notes", "stakes", "exports", "padding"]),
       st.sampled_from(["x", "é", "\u2028"]))
def test_a_logged_session_of_any_size_is_answered_201_400_or_413_never_500(sessions_client, offset, name, char):
    """Bodies around both limits (a text field's characters, the request's bytes): 413 exactly
    when the body is over MAX_SESSION_BODY, a 400 naming the field when a text field is over
    MAX_TEXT_CHARS or holds a line break; the ledger stays readable."""
    from pokerlab.sessions.ledger import MAX_TEXT_CHARS
    from pokerlab.sessions.web import MAX_SESSION_BODY

    base = {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00"}
    if name == "padding":  # JSON whitespace: the body's size alone decides
        body = json.dumps(base).encode() + b" " * (MAX_SESSION_BODY - len(json.dumps(base)) + offset)
    else:
        body = json.dumps({**base, name: char * (MAX_TEXT_CHARS + offset // 10)}).encode()
    r = sessions_client.post("/api/v1/sessions", content=body, headers={"Content-Type": "application/json"})
    if len(body) > MAX_SESSION_BODY:
        assert r.status_code == 413, r.text[:200]
    elif name != "padding" and (char == "\u2028" or MAX_TEXT_CHARS + offset // 10 > MAX_TEXT_CHARS):
        assert r.status_code == 400 and r.json()["error"]["message"].startswith(f"{name}: ")
    else:
        assert r.status_code == 201, r.text[:200]
    assert sessions_client.get("/api/v1/sessions").status_code == 200


@FUZZ
@given(mangled_hand_text())
def test_hand_history_files_read_twice_import_each_hand_once(text):
    """Reliability round two, R4: whatever the text, no two imported hands share a site and hand
    id, and a second copy of the file imports nothing more (each of its hands is a skip)."""
    from pokerlab.hands.importer import hand_key, import_paths

    with tempfile.TemporaryDirectory() as tmp:
        copies = [Path(tmp) / folder / "sample_game_7.log" for folder in ("a", "b")]  # a Pluribus log's id is its name's
        for path in copies:
            path.parent.mkdir()
            path.write_text(text)
        once = _only_value_error(import_paths, copies[:1])
        twice = _only_value_error(import_paths, copies)
    if once is None:
        return
    keys = [hand_key(h) for h in twice.hands if hand_key(h) is not None]
    assert len(keys) == len(set(keys))
    assert twice.read == 2 * once.read and twice.read == twice.imported + len(twice.skipped)
    site_ids = [h for h in once.hands if hand_key(h) is not None]
    assert twice.imported == once.imported + len(once.hands) - len(site_ids)


@FUZZ
@given(st.integers(0, 2 * len(HAND_SAMPLES[1])))
def test_a_pokerstars_export_cut_anywhere_imports_only_whole_hands(cut):
    """Reliability round two, R5: a hand cut off by the end of the file is skipped as truncated."""
    from test_hands_import import PS_HAND

    from pokerlab.hands.importer import import_text

    text = PS_HAND.replace("100000000001", "100000000002") + "\n\n\n" + PS_HAND
    hands, report = import_text(text[:cut], "cut.txt")
    whole = [m for m in ("100000000002", "100000000001")
             if text.index("Seat 7: dave (big blind) folded before Flop\n", text.index(m)) + 45 <= cut]
    assert [h.hand_id for h in hands] == whole
    assert all(s["reason"].startswith("truncated: ") for s in report.skipped)


@settings(max_examples=20, derandomize=True, database=None, deadline=None)
@given(st.integers(1, 200_000), st.sampled_from(['[', '{"a": ', '[{"b": ']))
def test_a_json_file_nested_at_any_depth_raises_only_value_error(depth, opening):
    """Reliability round two, R12: a TexasSolver dump nested 100,000 deep raised RecursionError."""
    closing = {"[": "]", '{"a": ': "}", '[{"b": ': "}]"}[opening]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "dump.json"
        path.write_text(opening * depth + "0" + closing * depth)
        _only_value_error(read_texassolver_dump, path, names=str(path))


# --- decide's action history -------------------------------------------------------------------

history_items = st.tuples(st.sampled_from(["hero", "villain", "Hero", "x"]),
                          st.sampled_from(["check", "bet", "raise", "call", "fold"]),
                          st.one_of(st.just(""), st.sampled_from(["nan", "inf", "-inf", "-0.5", "1e308", "0", "0.33",
                                                                  "1_0", "½"]), st.floats().map(repr)))
history_text = st.lists(st.tuples(st.sampled_from(["flop", "turn", "river", "preflop", ""]),
                                  st.lists(history_items, max_size=4)), max_size=3).map(
    lambda streets: "; ".join(f"{s}: " + ", ".join(" ".join(filter(None, a)) for a in acts) for s, acts in streets))


@FUZZ
@given(history_text)
def test_decide_history_raises_only_value_error_and_keeps_finite_sizes(text):
    """Reliability round two, R13: 'villain bet nan' was read as a bet of NaN pots."""
    from pokerlab.advice.decide import parse_history

    actions = _only_value_error(parse_history, text)
    for action in actions or []:
        assert np.isfinite(action.size) and action.size >= 0, action


# --- release paths -------------------------------------------------------------------------------

@FUZZ
@given(st.lists(st.sampled_from(["..", ".", "", "charts", "a.json", "/", "~", "\\\\", "..\\\\x", "etc", "C:"]), max_size=6)
       .map("/".join))
def test_a_release_path_the_audit_accepts_stays_inside_the_release(path):
    """Reliability round two, R17: the audit followed '../../../etc/hostname' out of the release."""
    import os.path

    from pokerlab.manifest import _inside

    if _inside(path):
        root = "/release/root"
        assert os.path.normpath(os.path.join(root, path)).startswith(root + "/") or os.path.normpath(
            os.path.join(root, path)) == root


@FUZZ
@given(mangled_hand_text(), st.sampled_from(["utf-16", "utf-16-le", "utf-16-be"]))
def test_a_utf16_hand_history_imports_as_its_utf8_text(text, encoding):
    """Reliability round two, R18: a UTF-16 export read 0 hands."""
    from pokerlab.hands.importer import decode, import_text

    bom = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[encoding]
    data = bom + text.encode(encoding, errors="surrogatepass")
    assert decode(data) == text.removeprefix("\ufeff") or decode(data) == text
    once = _only_value_error(import_text, text, "a.txt")
    again = _only_value_error(import_text, decode(data), "a.txt")
    assert (once is None) == (again is None)
    if once is not None:
        assert [h.hand_id for h in once[0]] == [h.hand_id for h in again[0]]


# --- the hand generator's settings ------------------------------------------------------------------

@FUZZ
@given(st.one_of(st.integers(-10, 10), st.floats(), st.booleans()), st.one_of(st.floats(), st.integers(-2, 2)),
       st.lists(st.integers(-1, 12), max_size=4), st.tuples(st.floats(), st.floats()))
def test_generator_settings_raise_only_value_error(count, ante_share, players, stacks):
    """Reliability round two, R12, R18 and R20: --hands -5, --ante-share 2, --players 1 and
    --stacks nan,inf were accepted or raised another error."""
    from pokerlab.hands.generate import check_settings

    try:
        check_settings(count, ante_share, players, stacks)
    except ValueError as exc:
        assert str(exc).split(" ")[0] in ("hands", "ante_share", "players", "stacks") and "\n" not in str(exc)
        return
    assert count >= 1 and 0 <= ante_share <= 1 and all(2 <= n <= 9 for n in players) and 0 < stacks[0] <= stacks[1]


@FUZZ
@given(mangled_hand_text(), st.integers(1, 600), st.booleans())
def test_a_hand_history_read_in_batches_gives_what_its_whole_text_gives(text, chunk, utf16):
    """Reliability round two, R8: a file is read a batch at a time; whatever the text and the
    batch size, the hands, lines and skips are those of the whole text."""
    from pokerlab.hands.importer import decode, import_batches, import_text

    data = text.encode("utf-16" if utf16 else "utf-8", errors="surrogatepass")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "fuzz.txt"
        path.write_bytes(data)
        files = []
        batched = _only_value_error(lambda: [h for b in import_batches([path], files, chunk_chars=chunk) for h in b])
    whole = _only_value_error(import_text, decode(data), "fuzz.txt")
    assert (batched is None) == (whole is None)
    if whole is not None:
        assert [(h.hand_id, h.line, h.results) for h in batched] == [(h.hand_id, h.line, h.results) for h in whole[0]]
        assert files[0].as_dict() == whole[1].as_dict()
