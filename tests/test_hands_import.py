"""Import of hand histories: the Pluribus reader (round trip through pokerkit's writer), PokerStars
text and PHH through pokerkit, and no hand ever lost silently (read = imported + skipped)."""

from pathlib import Path

import pytest

from pokerlab.hands.importer import detect_format, import_paths, import_text
from pokerlab.hands.model import HandError
from pokerlab.hands.phh import read_phh_text, write_phhs
from pokerlab.hands.pluribus import parse_state_line, read_pluribus_text, to_pokerkit

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "hands"

LINE = "STATE:7:fr225fffc/cr475c/cr1225c/cc:5hJc|Jd9h|6s5c|Ah7h|2s2d|3hTs/3sJh2h/Tc/Ks:-50|1275|0|-1225|0|0:Gogo|Budd|Eddie|Bill|Pluribus|MrWhite"


def test_pluribus_line_fields():
    h = parse_state_line(LINE)
    # preflop order UTG, HJ, CO, BTN, SB, BB = file order Eddie, Bill, Pluribus, MrWhite, Gogo, Budd
    assert h.players == ["Eddie", "Bill", "Pluribus", "MrWhite", "Gogo", "Budd"]
    assert h.positions == ("UTG", "HJ", "CO", "BTN", "SB", "BB")
    assert h.hole[1] == "Ah7h" and h.board == "3sJh2hTcKs"
    assert h.results == [0.0, -12.25, 0.0, 0.0, -0.5, 12.75]
    kinds = [(a.street, h.players[a.player], a.kind, a.to) for a in h.actions]
    assert kinds[:6] == [(0, "Eddie", "F", 0.0), (0, "Bill", "R", 2.25), (0, "Pluribus", "F", 0.0),
                         (0, "MrWhite", "F", 0.0), (0, "Gogo", "F", 0.5), (0, "Budd", "C", 2.25)]
    # flop: r475 is a total over the hand: 4.75 - 2.25 = a 2.5bb bet on the flop
    assert kinds[6:8] == [(1, "Budd", "X", 0.0), (1, "Bill", "B", 2.5)]
    # turn: r1225 -> 12.25 - 4.75 = 7.5bb
    assert kinds[9:11] == [(2, "Budd", "X", 0.0), (2, "Bill", "B", 7.5)]
    assert h.showdown == [False, True, False, False, False, True]


def test_pluribus_allin_and_split_pot():
    line = "STATE:3:r10000ffffc///:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c/QhJhTd/2d/3d:-50|-10000|10050|0|0|0:a|b|c|d|e|f"
    h = parse_state_line(line)
    assert h.actions[0].allin and h.actions[0].to == 100.0 and h.actions[-1].kind == "C" and h.actions[-1].allin
    assert to_pokerkit(h).to_pluribus_protocol(3) == line
    # a split pot (both play the board's straight): fractional results survive the round trip
    split = "STATE:4:ffffcc/cc/cc/cc:2s3d|KsKd|2c3c|4c5c|6c7c|8c9c/AhKhQd/Jc/Tc:0|0|0|0|0|0:a|b|c|d|e|f"
    assert to_pokerkit(parse_state_line(split)).to_pluribus_protocol(4) == split
    odd = "STATE:5:ffffr225c/cc/cc/cc:2s3d|KsKd|2c3c|4c5c|6c7c|8c9c/AhKhQd/Jc/Tc:112.5|-112.5|0|0|0|0:a|b|c|d|e|f"
    h = parse_state_line(odd)
    assert h.results[-2:] == [1.125, -1.125] and to_pokerkit(h).to_pluribus_protocol(5) == odd


@pytest.mark.parametrize("bad, reason", [
    ("STATE:1:r200x:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:0|0|0|0|0|0:a|b|c|d|e|f", "cannot read"),
    ("STATE:1:ffffc:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:0|0|0|0|0|1:a|b|c|d|e|f", "sum"),
    ("STATE:1:ffffc:AsAd|AsKd|2c3c|4c5c|6c7c|8c9c:0|0|0|0|0|0:a|b|c|d|e|f", "twice"),
    ("STATE:1:r50fffff:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:0|0|0|0|0|0:a|b|c|d|e|f", "does not exceed"),
    ("STATE:1:fffff:AsAd|KsKd|2c3c|4c5c:0|0|0|0|0|0:a|b|c|d|e|f", "hole-card"),
    ("STATE:1:ffff", "6 ':'"),
])
def test_pluribus_bad_lines_name_the_reason(bad, reason):
    with pytest.raises(HandError, match=reason):
        parse_state_line(bad)


def test_mangled_pluribus_file_loses_nothing():
    good = [LINE.replace("STATE:7:", f"STATE:{k}:") for k in range(5)]
    lines = ["# header comment", good[0], good[1][:40], good[2], "STATE:9:fffff/c:AsAd|KsKd|2c3c|4c5c|6c7c|8c9c:0|0|0|0|0|0:a|b|c|d|e|f",
             good[3], "", good[4], "garbage line"]
    hands, read, skipped = read_pluribus_text("\n".join(lines), "mangled.log")
    assert read == 7 and len(hands) == 4 and len(skipped) == 3
    assert [s["line"] for s in skipped] == [3, 5, 9]
    assert all(s["reason"] for s in skipped)
    assert [h.line for h in hands] == [2, 4, 6, 8]


PS_HAND = """PokerStars Hand #100000000001:  Hold'em No Limit ($0.01/$0.02 USD) - 2020/04/16 13:54:25 ET
Table 'Test' 9-max Seat #3 is the button
Seat 1: alice ($2 in chips)
Seat 3: bob ($1.50 in chips)
Seat 5: carol ($2.40 in chips)
Seat 7: dave ($0.80 in chips)
Seat 8: erin ($2 in chips) is sitting out
carol: posts small blind $0.01
dave: posts big blind $0.02
*** HOLE CARDS ***
Dealt to alice [Ah Kd]
alice: raises $0.04 to $0.06
bob: folds
carol: calls $0.05
dave: folds
*** FLOP *** [2c 7d Ts]
carol: checks
alice: bets $0.08
carol: calls $0.08
*** TURN *** [2c 7d Ts] [Qs]
carol: checks
alice: bets $0.20
carol: folds
Uncalled bet ($0.20) returned to alice
alice collected $0.29 from pot
*** SUMMARY ***
Total pot $0.30 | Rake $0.01
Board [2c 7d Ts Qs]
Seat 1: alice collected ($0.29)
Seat 3: bob (button) folded before Flop (didn't bet)
Seat 5: carol (small blind) folded on the Turn
Seat 7: dave (big blind) folded before Flop



"""


def test_pokerstars_hand_through_pokerkit():
    hands, report = import_text(PS_HAND, "ps.txt")
    assert report.format == "pokerstars" and (report.read, report.imported) == (1, 1)
    h = hands[0]
    assert h.players == ["alice", "bob", "carol", "dave"]  # erin sat out: not dealt in
    assert h.positions == ("CO", "BTN", "SB", "BB") and h.hole[0] == "AhKd"
    assert h.stacks == [100.0, 75.0, 120.0, 40.0]
    assert h.rake == pytest.approx(0.5)
    # alice put in 3 + 4 = 7bb, collected 14.5bb; carol lost 7bb; dave 1bb
    assert h.results == pytest.approx([7.5, 0.0, -7.0, -1.0])
    assert sum(h.results) + h.rake == pytest.approx(0.0)
    assert [(a.kind, a.to) for a in h.actions if a.street == 1] == [("X", 0.0), ("B", 4.0), ("C", 4.0)]


def test_mangled_pokerstars_file_loses_nothing():
    broken = PS_HAND.replace("100000000001", "100000000002").replace("carol: calls $0.05\n", "carol: calls $0.05\nzed: raises $0.10 to $0.16\n")
    other_game = PS_HAND.replace("100000000001", "100000000003").replace("Hold'em No Limit", "Omaha Pot Limit")
    truncated = PS_HAND.replace("100000000001", "100000000004")[:300] + "\n\n"
    twice = PS_HAND.replace("100000000001", "100000000006").replace("*** TURN ***", "*** FIRST TURN ***")
    text = "\ufeff" + PS_HAND + broken + other_game + truncated + PS_HAND.replace("100000000001", "100000000005") + twice
    hands, report = import_text(text, "mixed.txt")
    assert report.read == 6 and report.imported + len(report.skipped) == 6
    assert [h.hand_id for h in hands] == ["100000000001", "100000000005"]
    by_id = {s["hand"]: s for s in report.skipped}
    assert set(by_id) == {"100000000002", "100000000003", "100000000004", "100000000006"}
    assert "Omaha" in by_id["100000000003"]["reason"] and "run twice" in by_id["100000000006"]["reason"]
    starts = [i + 1 for i, l in enumerate(text.splitlines()) if "PokerStars Hand #" in l]
    assert [by_id[k]["line"] for k in sorted(by_id)] == starts[1:4] + starts[5:6]


def test_phh_round_trip(tmp_path):
    hands, _, _ = read_pluribus_text("\n".join([LINE, LINE.replace(":7:", ":8:")]), "x.log")
    write_phhs(hands, tmp_path / "two.phhs")
    text = (tmp_path / "two.phhs").read_text()
    assert detect_format(text) == "phh"
    back, read, skipped = read_phh_text(text, "two.phhs")
    assert read == 2 and not skipped
    for a, b in zip(hands, back):
        assert b.players == a.players and b.results == a.results and b.board == a.board and b.hole == a.hole
        assert [(x.street, x.player, x.kind, x.to) for x in b.actions] == [(x.street, x.player, x.kind, x.to) for x in a.actions]


def test_folder_import_skips_unknown_files(tmp_path):
    (tmp_path / "a.log").write_text(LINE + "\n")
    (tmp_path / "notes.txt").write_text("nothing to see\n")
    result = import_paths([tmp_path])
    assert result.imported == 1 and result.read == 1
    assert {f.path: f.format for f in result.files} == {"a.log": "pluribus", "notes.txt": "unknown"}


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_shared_pluribus_round_trips_through_pokerkit():
    files = sorted((SHARED / "pluribus").glob("*.log"))
    total = checked = 0
    for path in files:
        text = path.read_text()
        hands, read, skipped = read_pluribus_text(text, path.name)
        assert not skipped and read == len(hands)
        total += len(hands)
        raw = text.splitlines()
        for h in hands[::4]:  # a quarter of them (pokerkit's replay is slow); all pass offline
            line = raw[h.line - 1].strip()
            assert to_pokerkit(h).to_pluribus_protocol(int(line.split(":")[1])) == line
            checked += 1
    assert total == 4717 and checked > 1000


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_shared_pokerstars_files_lose_nothing():
    files = sorted((SHARED / "pokerstars-nl2-9max").glob("*.txt"))[:3]
    result = import_paths(files)
    assert result.read == result.imported + len(result.skipped)
    headers = sum(sum(1 for l in f.read_text(encoding="utf-8-sig").splitlines() if " Hand #" in l and l.lstrip("\ufeff").startswith("PokerStars"))
                  for f in files)
    assert result.read == headers


# --- the same hand twice is imported once (reliability round two, R4) ------------------------

PS_TWO = PS_HAND + PS_HAND.replace("100000000001", "100000000005")


def test_the_same_export_under_two_names_is_imported_once_and_reported(tmp_path):
    (tmp_path / "ps.txt").write_text(PS_TWO)
    (tmp_path / "copy.txt").write_text(PS_TWO)
    result = import_paths([tmp_path / "ps.txt", tmp_path / "copy.txt"])
    assert (result.read, result.imported, len(result.skipped)) == (4, 2, 2)
    assert [h.hand_id for h in result.hands] == ["100000000001", "100000000005"]
    second = PS_HAND.count("\n") + 1
    assert [(s["source"], s["line"], s["hand"], s["reason"]) for s in result.files[1].skipped] == [
        ("copy.txt", 1, "100000000001", "duplicate: pokerstars hand 100000000001 was read at ps.txt line 1"),
        ("copy.txt", second, "100000000005", f"duplicate: pokerstars hand 100000000005 was read at ps.txt line {second}")]
    assert list(result.skip_reasons().values()) == [2]
    same = import_paths([tmp_path / "ps.txt", tmp_path / "ps.txt"])  # `hands stats ps.txt ps.txt`
    assert (same.imported, len(same.skipped)) == (2, 2)


def test_a_hand_id_repeated_inside_one_file_counts_once():
    hands, report = import_text(PS_TWO + PS_HAND, "x.txt")
    assert (report.read, report.imported) == (3, 2) and [h.hand_id for h in hands] == ["100000000001", "100000000005"]
    third = 2 * PS_HAND.count("\n") + 1
    assert report.skipped == [{"source": "x.txt", "line": third, "hand": "100000000001",
                               "reason": "duplicate: pokerstars hand 100000000001 was read at x.txt line 1"}]


def test_numbers_a_file_gives_its_hands_are_not_site_ids(tmp_path):
    """PHH without a venue numbers its hands itself (the generator writes 1, 2, ...): two such
    files are different hands even where their numbers agree."""
    hands, _, _ = read_pluribus_text("\n".join([LINE, LINE.replace(":7:", ":8:")]), "x.log")
    write_phhs(hands, tmp_path / "a.phhs")
    write_phhs(hands[::-1], tmp_path / "b.phhs")
    result = import_paths([tmp_path / "a.phhs", tmp_path / "b.phhs"])
    assert (result.read, result.imported) == (4, 4)


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_a_session_proposal_counts_an_export_stored_twice_once(tmp_path):
    """R4: the same export under two names doubled the proposal (34 hands, +1.38 instead of 17, +0.69)."""
    from pokerlab.sessions.dashboard import dashboard

    source = SHARED / "pokerstars-nl2-9max" / "nl2-9max-03.txt"
    proposals = {}
    for names in (["a.txt"], ["a.txt", "b.txt"]):
        data = tmp_path / str(len(names)) / "data"
        (data / "exports").mkdir(parents=True)
        for name in names:
            (data / "exports" / name).symlink_to(source)
        d = dashboard(data, grade=False)
        proposals[len(names)] = [(p["start"], p["end"], p["hands"], p["hh_net"]) for p in d["proposals"]]
        assert d["duplicate_hands"] == 17 * (len(names) - 1)
    assert sum(p[2] for p in proposals[1]) == 17 and sum(p[3] for p in proposals[1]) == pytest.approx(0.69)
    assert proposals[2] == proposals[1]


# --- a hand cut off at the end of a file is skipped (reliability round two, R5) ---------------


def test_a_hand_cut_off_anywhere_is_skipped_as_truncated():
    """Every prefix of a hand that ends before its summary's last seat line is refused, with the
    line the hand starts at; only the whole hand imports."""
    second = PS_HAND.count("\n") + 1
    text = PS_HAND + PS_HAND.replace("100000000001", "100000000002")
    last_seat = text.rindex("Seat 7: dave")
    for cut in range(len(PS_HAND) + 40, len(text), 7):
        hands, report = import_text(text[:cut], "cut.txt")
        if cut > last_seat + len("Seat 7: dave (big blind) folded before Flop"):
            assert report.imported == 2, cut
            continue
        assert [h.hand_id for h in hands] == ["100000000001"], cut
        assert [(s["line"], s["hand"]) for s in report.skipped] == [(second, "100000000002")], cut
        assert report.skipped[0]["reason"].startswith("truncated: "), (cut, report.skipped[0]["reason"])


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_the_truncated_last_hand_of_a_real_export_is_skipped(tmp_path):
    """R5: `head -c 8552 nl2-9max-03.txt` imported the cut hand (Hero at -5 bb, a note only)."""
    text = (SHARED / "pokerstars-nl2-9max" / "nl2-9max-03.txt").read_bytes()[:8552].decode()
    hands, report = import_text(text, "cut.txt")
    starts = [i + 1 for i, l in enumerate(text.splitlines()) if l.startswith("PokerStars Hand #")]
    assert (report.read, report.imported) == (7, 6)
    assert [(s["line"], s["hand"]) for s in report.skipped] == [(starts[-1], "212113412965")]
    assert report.skipped[0]["reason"] == "truncated: no *** SUMMARY *** section (the file ends inside the hand?)"


# --- a file is read a batch at a time (reliability round two, R8) -----------------------------


def _batched(path, chunk):
    from pokerlab.hands.importer import import_batches

    files = []
    batches = list(import_batches([path], files, chunk_chars=chunk))
    return [h for b in batches for h in b], files[0], len(batches)


def _same_import(a, b):
    (hands_a, report_a), (hands_b, report_b) = a, b
    assert [(h.hand_id, h.line, h.results, h.players) for h in hands_a] == [(h.hand_id, h.line, h.results, h.players)
                                                                            for h in hands_b]
    assert report_a.as_dict() == report_b.as_dict()


def _samples(tmp_path) -> dict[str, bytes]:
    hands, _, _ = read_pluribus_text("\n".join([LINE, LINE.replace(":7:", ":8:"), LINE.replace(":7:", ":9:")]), "x.log")
    write_phhs(hands, tmp_path / "three.phhs")
    phhs = (tmp_path / "three.phhs").read_text()
    ps = PS_TWO + PS_HAND.replace("100000000001", "100000000007")[:700] + "\n\n" + PS_HAND  # a cut hand, a repeated id
    return {"ps.txt": ("some preamble\r\n" + ps).encode(), "ps16.txt": ps.encode("utf-16"),
            "log.log": ("# comment\n" + LINE + "\n\n" + LINE.replace(":7:", ":8:")[:-9] + "\n" + LINE.replace(":7:", ":9:")).encode(),
            "three.phhs": phhs.encode(), "unnumbered.phhs": phhs.replace("hand = ", "# hand = ").encode()}


@pytest.mark.parametrize("chunk", [1, 13, 400, 1 << 20])
def test_a_file_read_in_batches_gives_what_its_whole_text_gives(tmp_path, chunk):
    from pokerlab.hands.importer import decode

    for name, data in _samples(tmp_path).items():
        path = tmp_path / name
        path.write_bytes(data)
        hands, report, batches = _batched(path, chunk)
        _same_import((hands, report), import_text(decode(data), name))
        assert report.read >= 3


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_real_files_read_in_batches_give_what_their_whole_text_gives():
    from pokerlab.hands.importer import read_text

    for path in sorted((SHARED / "pokerstars-nl2-9max").glob("*.txt"))[:2] + [SHARED / "pluribus" / "sample_game_40b.log"]:
        hands, report, batches = _batched(path, 4096)
        assert batches > 2
        _same_import((hands, report), import_text(read_text(path), path.name))


def test_the_streamed_tables_are_the_tables_of_all_hands_at_once(tmp_path, monkeypatch):
    """R8: `hands import --out` writes the tables a batch at a time; they read back as the tables
    of every hand at once (the way they were written before)."""
    import pandas as pd

    from pokerlab.cli import main
    from pokerlab.hands import importer
    from pokerlab.hands.tables import decisions_frame, hands_frame

    for name, data in _samples(tmp_path).items():
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_bytes(data)
    monkeypatch.setattr(importer, "CHUNK_CHARS", 300)
    assert main(["hands", "import", str(tmp_path / "in"), "--out", str(tmp_path / "out")]) == 0
    hands = import_paths([tmp_path / "in"]).hands
    assert len(hands) == 10
    for name, frame in (("hands", hands_frame(hands)), ("decisions", decisions_frame(hands))):
        frame.to_parquet(tmp_path / f"{name}-at-once.parquet", index=False)
        pd.testing.assert_frame_equal(pd.read_parquet(tmp_path / "out" / f"{name}.parquet"),
                                      pd.read_parquet(tmp_path / f"{name}-at-once.parquet"))


def test_importing_tables_directly_writes_them_only_when_some_hand_was_read(tmp_path, monkeypatch):
    from pokerlab.hands import importer
    from pokerlab.hands.tables import import_to_tables

    for name, data in _samples(tmp_path).items():
        (tmp_path / "in").mkdir(exist_ok=True)
        (tmp_path / "in" / name).write_bytes(data)
    monkeypatch.setattr(importer, "CHUNK_CHARS", 300)
    result = import_to_tables([tmp_path / "in"], tmp_path / "out")
    whole = import_paths([tmp_path / "in"])
    assert result.hands == [] and result.report() == whole.report()  # the reports, not the hands, are kept
    assert (tmp_path / "out" / "hands.parquet").is_file() and (tmp_path / "out" / "decisions.parquet").is_file()
    assert import_to_tables([tmp_path / "in"], None).report() == whole.report()  # counting only
    (tmp_path / "junk").mkdir()
    (tmp_path / "junk" / "notes.txt").write_text("nothing to see\n")
    with pytest.raises(ValueError, match="no hand read from"):
        import_to_tables([tmp_path / "junk"], tmp_path / "out2")
    assert not list((tmp_path / "out2").glob("*.parquet"))


def test_the_import_report_adds_up_and_nothing_read_is_refused(tmp_path):
    from pokerlab.hands.importer import import_hands

    (tmp_path / "a.log").write_text(LINE + "\n" + LINE + "\n")  # the second copy is a duplicate
    (tmp_path / "notes.txt").write_text("nothing to see\n")
    report = import_hands([tmp_path]).report()
    assert (report["read"], report["imported"], report["skipped"]) == (2, 1, 1)
    assert sum(report["reasons"].values()) == report["skipped"]
    assert [(f["path"], f["format"], f["read"]) for f in report["files"]] == [("a.log", "pluribus", 2), ("notes.txt", "unknown", 0)]
    for k in range(5):
        (tmp_path / "junk" / f"n{k}.txt").parent.mkdir(exist_ok=True)
        (tmp_path / "junk" / f"n{k}.txt").write_text("no hand\n")
    with pytest.raises(ValueError, match=r"5 file\(s\) in no format pokerlab reads \(n0.txt, n1.txt, n2.txt, \.\.\.\)"):
        import_hands([tmp_path / "junk"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="no hand-history file"):
        import_hands([tmp_path / "empty"])
