"""Session ledger: accounting identities, malformed rows, concurrent writes, clustering, the
grade and luck cards on hands whose outcomes are known, the dashboard and the CLI."""

import json
import multiprocessing
from datetime import datetime

import pytest
from sessions_fixtures import CHIP_VALUE, make_data_dir, write_equity_table

from pokerlab import cards
from pokerlab.cli import main
from pokerlab.sessions.cluster import cluster, hero_hands, mark_logged
from pokerlab.sessions.ledger import (FIELDS, LedgerError, Session, add_session, bankroll_curve, derive, read_ledger,
                                      session_from_fields)


def _session(**kw):
    base = {"start": "2026-03-02T20:00", "end": "2026-03-02T22:00"}
    return session_from_fields({**base, **kw})


# --- accounting identities --------------------------------------------------------------------

def test_identities_with_every_reading():
    s = _session(hh_net="12.50", rakeback_start="3.00", rakeback_end="4.10", rakeback_claimed="2.00",
                 rake_counter_start="100", rake_counter_end="110", balance_start="500", balance_end="530",
                 transfers="20")
    d = derive(s)
    assert d["rakeback"] == pytest.approx(3.10)  # I1: 4.10 - 3.00 + 2.00 claimed
    assert d["balance_net"] == pytest.approx(8.00)  # I2: 530 - 500 - 20 transfers - 2 claimed
    assert d["table_net"] == pytest.approx(8.00) and d["table_net_source"] == "balance"  # I3
    assert d["unexplained"] == pytest.approx(-4.50)  # I4: 8 - 12.5
    assert d["total"] == pytest.approx(11.10)  # I5
    assert d["rake_paid"] == pytest.approx(10.0) and d["rho"] == pytest.approx(0.31)  # I6


def test_identities_without_balances_use_the_hand_histories():
    d = derive(_session(hh_net="-7.25", rakeback_start="1", rakeback_end="1.75"))
    assert (d["table_net"], d["table_net_source"], d["balance_net"], d["unexplained"]) == (-7.25, "hands", None, None)
    assert d["rakeback"] == pytest.approx(0.75) and d["total"] == pytest.approx(-6.5)
    assert d["rake_paid"] is None and d["rho"] is None
    bare = derive(_session(hh_net="4"))
    assert (bare["rakeback"], bare["rakeback_known"], bare["total"]) == (0.0, False, 4.0)


def test_bankroll_curve_orders_by_start():
    late = _session(start="2026-03-05T10:00", end="2026-03-05T11:00", hh_net="-3")
    early = _session(hh_net="10", rakeback_start="0", rakeback_end="1")
    late.id, early.id = 1, 2
    curve = bankroll_curve([late, early], start_bankroll=50.0)
    assert [(c["id"], c["bankroll"]) for c in curve] == [(2, 61.0), (1, 58.0)]  # I7


@pytest.mark.parametrize("values, field", [
    ({"end": "2026-03-02T19:00"}, "end"),
    ({"hands": "12.5"}, "hands"),
    ({"hh_net": "ten"}, "hh_net"),
    ({"rakeback_start": "1"}, "rakeback_end"),
    ({"balance_end": "5"}, "balance_start"),
    ({"rake_counter_start": "10", "rake_counter_end": "9"}, "rake_counter_end"),
    ({"start": "yesterday"}, "start"),
    ({"notes": "two\nlines"}, "notes"),
])
def test_bad_fields_are_named(values, field):
    with pytest.raises(ValueError, match=f"^{field}: "):
        _session(**values)


# --- the file: atomic, locked, malformed rows reported -----------------------------------------

def test_add_and_read_round_trip(tmp_path):
    data = tmp_path / "d"
    a = add_session(data, {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00", "hands": "40", "hh_net": "1.5",
                           "stakes": "0.01/0.02", "notes": "comma, and \"quotes\""})
    b = add_session(data, {"start": "2026-03-03T20:00", "end": "2026-03-03T21:00", "balance_start": "10",
                           "balance_end": "12"})
    assert (a.id, b.id) == (1, 2)
    ledger = read_ledger(data)
    assert not ledger.problems and [s.id for s in ledger.sessions] == [1, 2]
    assert ledger.sessions[0].notes == 'comma, and "quotes"' and ledger.sessions[1].balance_end == 12.0
    assert (data / ".gitignore").read_text().splitlines()[-1] == "*"  # the data folder ignores itself
    assert not [p for p in data.iterdir() if p.name.endswith(".tmp")]
    path = data / "sessions.csv"
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes().replace(b"\n", b"\r\n"))  # saved by a spreadsheet
    again = read_ledger(data)
    assert not again.problems and [s.as_json() for s in again.sessions] == [s.as_json() for s in ledger.sessions]


def test_malformed_rows_are_reported_with_their_line_and_block_writes(tmp_path):
    data = tmp_path / "d"
    add_session(data, {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00"})
    add_session(data, {"start": "2026-03-03T20:00", "end": "2026-03-03T21:00"})
    path = data / "sessions.csv"
    lines = path.read_text().splitlines()
    lines[2] = lines[2].replace("2026-03-03T21:00:00", "2026-03-03T25:00:00")  # line 3: a bad end
    lines.append("3,2026-03-04T20:00:00,2026-03-04T21:00:00,10")  # line 4: too few columns
    lines.append(lines[1])  # line 5: id 1 again
    before = "\n".join(lines) + "\n"
    path.write_text(before)
    ledger = read_ledger(data)
    assert [s.id for s in ledger.sessions] == [1]
    assert [(p.line, p.field) for p in ledger.problems] == [(3, "end"), (4, "row"), (5, "id")]
    assert "line 3, field 'end'" in str(ledger.problems[0])
    with pytest.raises(LedgerError, match=r"line 3, field 'end'.*line 4.*line 5, field 'id'"):
        add_session(data, {"start": "2026-03-05T20:00", "end": "2026-03-05T21:00"})
    assert path.read_text() == before  # nothing dropped, nothing rewritten
    assert main(["sessions", "list", "--data", str(data)]) == 2


def _add_many(args):
    data, worker = args
    for k in range(8):
        add_session(data, {"start": f"2026-04-{worker + 1:02d}T{10 + k:02d}:00", "end": f"2026-04-{worker + 1:02d}T{10 + k:02d}:30",
                           "notes": f"w{worker}k{k}"})


def test_concurrent_writers_lose_nothing(tmp_path):
    data = tmp_path / "d"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.map(_add_many, [(data, w) for w in range(4)])
    ledger = read_ledger(data)
    assert not ledger.problems
    assert sorted(s.id for s in ledger.sessions) == list(range(1, 33))
    assert sorted(s.notes for s in ledger.sessions) == sorted(f"w{w}k{k}" for w in range(4) for k in range(8))


# --- clustering -------------------------------------------------------------------------------

def _hand(t, net, stakes="$0.01/$0.02", export="a.txt", ident="1"):
    return {"time": datetime.fromisoformat(t), "export": export, "id": ident, "stakes": stakes, "position": "BB",
            "result_bb": net, "bb_value": 0.02, "net": net * 0.02}


def test_clustering_by_time_gap():
    hands = [_hand("2026-03-02T20:00", 1.0), _hand("2026-03-02T20:29", -2.0, "$0.02/$0.05", "b.txt"),
             _hand("2026-03-02T20:59", 0.5),  # 30 minutes after: the same session (the gap must be exceeded)
             _hand("2026-03-02T21:30", 4.0),  # 31 minutes: a new one
             _hand("2026-03-03T09:00", -1.0)]
    got = cluster(hands, gap_minutes=30)
    assert [(p["start"], p["end"], p["hands"]) for p in got] == [
        ("2026-03-02T20:00:00", "2026-03-02T20:59:00", 3), ("2026-03-02T21:30:00", "2026-03-02T21:30:00", 1),
        ("2026-03-03T09:00:00", "2026-03-03T09:00:00", 1)]
    assert got[0]["stakes"] == "$0.01/$0.02;$0.02/$0.05" and got[0]["exports"] == "a.txt;b.txt"
    assert got[0]["hh_net"] == pytest.approx(-0.01) and got[0]["result_bb"] == pytest.approx(-0.5)
    assert [p["hands"] for p in cluster(hands, gap_minutes=45)] == [4, 1]
    logged = Session(start=datetime(2026, 3, 2, 21, 0), end=datetime(2026, 3, 2, 21, 40), id=7)
    assert [p["logged"] for p in mark_logged(got, [logged])] == [None, 7, None]


def test_exports_are_clustered_across_files(tmp_path, equity_table):
    from pokerlab.sessions.exports import Settings, scan

    eq = equity_table.win + equity_table.tie / 2
    data = make_data_dir(tmp_path, eq)
    settings = Settings.load(data)
    summaries = scan(data, settings, grade=False)
    assert [(s["name"], s["read"], s["imported"]) for s in summaries] == [("table1.phhs", 50, 50), ("table2.phhs", 10, 10)]
    hands, untimed = hero_hands(summaries, "Hero", CHIP_VALUE)
    assert untimed == 0 and len(hands) == 60
    got = cluster(hands, settings.gap_minutes)
    assert [(p["start"], p["end"], p["hands"], p["exports"]) for p in got] == [
        ("2026-03-02T20:00:00", "2026-03-02T20:29:00", 30, "table1.phhs"),
        ("2026-03-03T21:00:00", "2026-03-03T21:19:00", 30, "table1.phhs;table2.phhs")]
    assert got[0]["stakes"] == "0.01/0.02"
    assert got[0]["hh_net"] == pytest.approx(0.02 * got[0]["result_bb"])


# --- cards ------------------------------------------------------------------------------------

def test_grade_and_luck_on_hands_with_known_outcomes(tmp_path, equity_table):
    """Three heads-up 10bb hands of Hero whose outcomes are known, graded and luck-checked against
    the solver's own figures."""
    from pokerlab.hands.pluribus import parse_state_line
    from pokerlab.pushfold.fees import PushFoldGame
    from pokerlab.pushfold.headsup import solve_headsup
    from pokerlab.sessions.cards import grade_card, luck_card
    from pokerlab.sessions.exports import Settings, grade_rows

    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    lines = ["STATE:1:r1000f:AsAd|7c2d:100|-100:Hero|Villain",  # Hero (SB) shoves AA, the villain folds: +1bb
             "STATE:2:f:AsAd|7c2d:-50|50:Hero|Villain",  # Hero folds AA: -0.5bb, a deviation
             "STATE:3:r1000c///:Kh7h|AcKd/2h3h4s/9c/Jh:1000|-1000:Villain|Hero"]  # Hero (BB) calls with AKo, loses 10bb
    hands = [parse_state_line(l, stack=1000.0) for l in lines]
    for k, h in enumerate(hands):
        h.time = f"2026-03-02T20:0{k}:00"
    settings = Settings.load(tmp_path / "data", results)
    settings.fees = "coinpoker"
    rows = [r for r in grade_rows(hands, settings) if r["player"] == "Hero"]
    assert [(r["hand_id"], r["seat"], r["action"]) for r in rows] == [("1", "SB", "shove"), ("2", "SB", "fold"), ("3", "BB", "call")]
    sol = solve_headsup(PushFoldGame(2, 10.0, "coinpoker"), eq, tolerance_bb=1e-6)
    aa, ako = cards.parse_class("AA"), cards.parse_class("AKo")
    game = PushFoldGame(2, 10.0, "coinpoker")
    rb_steal, rb_walk, rb_showdown = (float(game.terminal(live).rakeback[s]) for live, s in (((0,), 0), ((), 0), ((0, 1), 1)))
    assert rb_walk == pytest.approx(0.06) and rb_showdown == pytest.approx(0.03)  # pro rata: SB's 0.5 of the dead 1.5; half of 20
    assert [r["model_rakeback_bb"] for r in rows] == pytest.approx([rb_steal, rb_walk, rb_showdown])

    luck = luck_card(rows, chip_value=0.02)  # 100 chips to the big blind at 0.02 a chip: a 2.00 big blind
    model = sol.sb_shove_ev[aa] + sol.sb_fold_ev + sol.bb_call_ev[ako]
    realised = (1.0 + rb_steal) + (-0.5 + rb_walk) + (-10.0 + rb_showdown)
    assert luck["model_ev_bb"] == pytest.approx(model, abs=1e-5)
    assert luck["realised_bb"] == pytest.approx(realised, abs=1e-9)
    assert luck["luck_bb"] == pytest.approx(realised - model, abs=1e-5)
    assert luck["luck"] == pytest.approx((realised - model) * 100 * 0.02, abs=1e-4)  # 100 chips to the bb

    grade = grade_card(rows, chip_value=0.02)
    assert (grade["spots"], grade["matching"]) == (3, 2)
    assert grade["ev_lost_bb"] == pytest.approx(sol.sb_shove_ev[aa] - sol.sb_fold_ev, abs=1e-4)
    assert [w["hand_id"] for w in grade["worst"]] == ["2"]


def test_dashboard_degrades_without_the_equity_table_and_grades_with_it(tmp_path, equity_table):
    from pokerlab.sessions.dashboard import dashboard, format_report, static_html

    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    data = make_data_dir(tmp_path, eq, results)
    proposals = dashboard(data, grade=False)["proposals"]
    add_session(data, {**{k: proposals[0][k] for k in ("start", "end", "hands", "stakes", "hh_net", "exports")},
                       "rakeback_start": "1.00", "rakeback_end": "1.20"})
    d = dashboard(data, grade=True)
    assert "no equity table" in d["sessions"][0]["cards"]["reason"] and "grade" not in d["sessions"][0]["cards"]
    assert d["exports"][0]["graded"] is False

    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    assert dashboard(data, grade=False)["sessions"][0]["cards"]["reason"].startswith("not graded yet")  # a page load never grades
    d = dashboard(data, grade=True)
    s = d["sessions"][0]
    assert "reason" not in s["cards"] and s["cards"]["grade"]["spots"] > 0
    assert s["cards"]["luck"]["spots"] + s["cards"]["luck"]["other_hands"] == s["joined_hands"] == 30
    cache = sorted((data / "cache").glob("*.json"))
    stamps = [p.stat().st_mtime_ns for p in cache]
    dashboard(data, grade=True)  # unchanged exports are not regraded
    assert [p.stat().st_mtime_ns for p in cache] == stamps
    assert d["tiles"]["total"] == pytest.approx(proposals[0]["hh_net"] + 0.20)
    assert d["tiles"]["bankroll"] == pytest.approx(100.0 + proposals[0]["hh_net"] + 0.20)
    assert d["stakes"] == [{"stakes": "0.01/0.02", "hands": 30, "net": pytest.approx(proposals[0]["hh_net"]),
                            "bb_per_100": pytest.approx(100 * proposals[0]["result_bb"] / 30, abs=1e-3)}]
    assert [p["logged"] for p in d["proposals"]] == [1, None]
    assert d["population"]["rows"] and {r["seat"] for r in d["population"]["rows"]} <= {"SB", "BB"}
    assert "push/fold:" in format_report(d)
    page = static_html(d)
    assert "window.SESSIONS_DATA" in page and "/app/" not in page


def test_proposals_from_a_data_folder_and_the_fields_a_chosen_one_fills_in(tmp_path, equity_table):
    from pokerlab.sessions.cluster import PROPOSAL_FIELDS, proposal_fields
    from pokerlab.sessions.dashboard import dashboard, propose_sessions

    data = make_data_dir(tmp_path, equity_table.equity)
    proposals = propose_sessions(data)
    assert proposals == dashboard(data, grade=False)["proposals"]
    # two evenings: 30 hands one minute apart, then 20 + 10 interleaved across both exports
    assert [(p["hands"], p["exports"], p["logged"]) for p in proposals] == [(30, "table1.phhs", None),
                                                                             (30, "table1.phhs;table2.phhs", None)]
    fields = proposal_fields(proposals, 2)
    assert set(fields) == set(PROPOSAL_FIELDS) and fields["start"] == "2026-03-03T21:00:00"
    add_session(data, fields)
    assert [p["logged"] for p in propose_sessions(data)] == [None, 1]
    with pytest.raises(ValueError, match=r"^--proposal 2: overlaps logged session 1$"):
        proposal_fields(propose_sessions(data), 2, "--proposal")
    for number in (0, 3):
        with pytest.raises(ValueError, match=rf"^proposal {number}: there are 2 proposals$"):
            proposal_fields(proposals, number)


def test_grading_the_exports_needs_the_equity_table_and_grades_each_export(tmp_path, equity_table):
    from pokerlab.sessions.exports import grade_exports

    results = tmp_path / "results"
    data = make_data_dir(tmp_path, equity_table.equity, results)
    with pytest.raises(ValueError, match=r"^equity table .*equity_169.npz: file not found"):
        grade_exports(data)
    assert not (data / "cache").exists() or not list((data / "cache").glob("*.json"))  # nothing read before the check
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    summaries = grade_exports(data)
    assert [(s["name"], s["imported"]) for s in summaries] == [("table1.phhs", 50), ("table2.phhs", 10)]
    assert all(s["grade"]["rows"] for s in summaries)


def test_cli_add_from_a_proposal_and_report(tmp_path, equity_table, capsys):
    eq = equity_table.win + equity_table.tie / 2
    data = make_data_dir(tmp_path, eq)
    assert main(["sessions", "list", "--data", str(data), "--proposals"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 2 and out[0].startswith("  1  2026-03-02T20:00:00 .. 2026-03-02T20:29:00     30 hands")
    assert main(["sessions", "add", "--data", str(data), "--proposal", "2", "--rakeback-start", "2", "--rakeback-end",
                 "2.5", "--notes", "evening"]) == 0
    assert main(["sessions", "add", "--data", str(data), "--proposal", "2"]) == 2
    assert "overlaps logged session 1" in capsys.readouterr().err
    assert main(["sessions", "add", "--data", str(data), "--start", "2026-03-09T10:00", "--end", "2026-03-09T09:00"]) == 2
    assert "--end: " in capsys.readouterr().err
    assert main(["sessions", "report", "--data", str(data), "--json", "--results", str(tmp_path / "none")]) == 0
    d = json.loads(capsys.readouterr().out)
    assert [(s["id"], s["start"], s["hands"], s["notes"]) for s in d["sessions"]] == [(1, "2026-03-03T21:00:00", 30, "evening")]
    assert d["sessions"][0]["rakeback"] == pytest.approx(0.5)
    html = tmp_path / "dash.html"
    assert main(["sessions", "report", "--data", str(data), "--html", str(html)]) == 0
    assert "SESSIONS_DATA" in html.read_text()
    assert tuple(read_ledger(data).path.read_text().splitlines()[0].split(",")) == FIELDS


def test_population_card_against_the_model():
    from pokerlab.sessions.cards import population_card

    def row(player, seat, action, freq):
        return {"player": player, "seat": seat, "action": action, "solver_freq": freq}

    rows = ([row("V1", "SB", "shove", 0.5)] * 30 + [row("V2", "SB", "fold", 0.5)] * 10  # pool 75% vs 50%
            + [row("V1", "BB", "call", 1.0)] * 3 + [row("V2", "BB", "fold", 1.0)]  # a pure model: the pool's own spread
            + [row("Hero", "SB", "fold", 0.5)] * 50)  # hero is not the pool
    sb, bb = population_card(rows, "Hero")["rows"]
    assert (sb["decisions"], sb["pool"], sb["model"]) == (40, 0.75, 0.5)
    assert sb["se"] == pytest.approx(0.5 * 40 ** 0.5 / 40, abs=1e-4) and sb["z"] == pytest.approx(3.16, abs=0.01) and sb["flag"]
    assert (bb["decisions"], bb["pool"], bb["model"]) == (4, 0.75, 1.0)
    assert bb["se"] == pytest.approx((4 * 0.75 * 0.25) ** 0.5 / 4, abs=1e-4) and bb["z"] == pytest.approx(-1.15, abs=0.01)
    assert not bb["flag"]


SHARED = __import__("pathlib").Path(__file__).resolve().parents[1].parent / "shared" / "hands" / "pokerstars-nl2-9max"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands is absent")
def test_shared_pokerstars_exports_cluster_into_five_sessions(tmp_path):
    """The shared PokerStars set (linked, never copied): five days of play by Hero."""
    from pokerlab.sessions.exports import Settings, scan

    data = tmp_path / "data"
    (data / "exports").mkdir(parents=True)
    for f in sorted(SHARED.glob("*.txt")):
        (data / "exports" / f.name).symlink_to(f)
    summaries = scan(data, Settings.load(data), grade=False)
    hands, untimed = hero_hands(summaries, "Hero", 1.0)
    assert untimed == 0 and len(hands) == sum(s["imported"] for s in summaries)
    got = cluster(hands, 30)
    assert [(p["start"][:10], p["hands"]) for p in got] == [
        ("2020-04-16", 80), ("2020-04-17", 267), ("2020-04-19", 189), ("2020-04-21", 425), ("2020-04-22", 419)]
    assert [p["hh_net"] for p in got] == pytest.approx([0.03, 7.0, -1.85, 0.52, -1.65], abs=1e-9)
    assert {p["stakes"] for p in got} == {"$0.01/$0.02"}
    assert got[0]["start"] == "2020-04-16T13:54:11"  # the header's clock, as the site wrote it


def test_cli_grade_needs_the_equity_table_and_grades_once(tmp_path, equity_table, capsys):
    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    data = make_data_dir(tmp_path, eq)
    assert main(["sessions", "grade", "--data", str(data), "--results", str(results)]) == 2
    assert "equity_169.npz: file not found" in capsys.readouterr().err
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    assert main(["sessions", "grade", "--data", str(data), "--results", str(results)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in out] == ["table1.phhs", "table2.phhs"]
    assert out[0].startswith("table1.phhs: 50/50 hands imported, ") and "push/fold decisions graded" in out[0]
    first = {p.name: p.read_bytes() for p in (data / "cache").iterdir()}
    assert main(["sessions", "grade", "--data", str(data), "--results", str(results)]) == 0
    assert {p.name: p.read_bytes() for p in (data / "cache").iterdir()} == first and len(first) == 2


# --- what the writer accepts, the reader reads back -------------------------------------------

LINE_BREAKS = ["\n", "\r", "\v", "\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]


@pytest.mark.parametrize("char", LINE_BREAKS + ["\x00", "\x1b", "\ud800"])
@pytest.mark.parametrize("name", ["notes", "stakes", "exports"])
def test_line_breaks_and_control_characters_are_refused_on_write(tmp_path, name, char):
    data = tmp_path / "d"
    add_session(data, {"start": "2026-03-01T20:00", "end": "2026-03-01T21:00", "notes": "fine"})
    with pytest.raises(ValueError, match=f"^{name}: .*U\\+{ord(char):04X}"):
        add_session(data, {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00", name: f"a{char}b"})
    ledger = read_ledger(data)  # the ledger stays readable and writable
    assert not ledger.problems and [s.notes for s in ledger.sessions] == ["fine"]
    assert add_session(data, {"start": "2026-03-03T20:00", "end": "2026-03-03T21:00", name: "a\tb"}).id == 2


@pytest.mark.parametrize("start", ["0226-03-02T20:00", "0999-12-31T23:59", "0001-01-01T00:00"])
def test_years_before_1000_are_refused_on_write(tmp_path, start):
    with pytest.raises(ValueError, match="^start: .*year"):
        add_session(tmp_path / "d", {"start": start, "end": "2026-03-02T21:00"})
    assert not (tmp_path / "d" / "sessions.csv").exists()


def test_the_cli_refuses_a_line_separator_and_the_ledger_stays_usable(tmp_path, capsys):
    data = str(tmp_path / "d")
    add = ["sessions", "add", "--data", data, "--start", "2026-03-02T20:00", "--end", "2026-03-02T21:00"]
    assert main(add + ["--notes", "a\u2028b"]) == 2
    assert "--notes" in capsys.readouterr().err
    assert main(add + ["--start", "0226-03-02T20:00"]) == 2
    assert main(add + ["--notes", "ok"]) == 0 and main(["sessions", "list", "--data", data]) == 0


def test_money_is_read_back_as_written(tmp_path):
    data = tmp_path / "d"
    s = add_session(data, {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00", "hh_net": "-1e-7",
                           "transfers": "0.1234565", "balance_start": "-0", "balance_end": "1e11"})
    (read,) = read_ledger(data).sessions
    assert read.as_row() == s.as_row() and s.as_row()["hh_net"] == "0" and s.as_row()["balance_start"] == "0"


@pytest.mark.parametrize("field, text, message", [
    ("hh_net", "1_000", "is not a number"),
    ("hh_net", "1,000", "is not a number"),
    ("transfers", "\u0661\u0662", "is not a number"),  # Arabic-Indic digits, which float() reads
    ("rakeback_claimed", "-3", "below zero"),
    ("balance_end", "-5", "below zero"),
    ("hh_net", "1e300", "beyond"),
])
def test_impossible_amounts_are_refused_naming_the_field(tmp_path, field, text, message):
    """Reliability round two, R20: these were accepted (and 1e300 balances made the report print Infinity)."""
    values = {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00", "balance_start": "10", "balance_end": "20",
              field: text}
    with pytest.raises(ValueError, match=f"^{field}: .*{message}"):
        add_session(tmp_path / "d", values)
    assert not (tmp_path / "d" / "ledger.csv").exists() or not read_ledger(tmp_path / "d").sessions


@pytest.mark.parametrize("command", ["list", "report"])
def test_a_data_folder_that_is_a_file_is_refused(tmp_path, capsys, command):
    """Reliability round two: `sessions list --data /etc/passwd` printed an empty ledger with exit 0."""
    not_a_folder = tmp_path / "file"
    not_a_folder.write_text("x\n")
    assert main(["sessions", command, "--data", str(not_a_folder)]) == 2
    assert "not a folder" in capsys.readouterr().err


def test_text_fields_have_a_size_limit_and_an_oversized_field_on_disk_is_reported(tmp_path, capsys):
    from pokerlab.sessions.ledger import MAX_TEXT_CHARS

    data = tmp_path / "d"
    base = {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00"}
    with pytest.raises(ValueError, match=f"^notes: .*at most {MAX_TEXT_CHARS} characters"):
        add_session(data, {**base, "notes": "x" * (2 << 20)})
    assert add_session(data, {**base, "notes": "é" * MAX_TEXT_CHARS}).id == 1  # the limit itself is accepted
    assert len(read_ledger(data).sessions[0].notes) == MAX_TEXT_CHARS
    path = data / "sessions.csv"
    oversized = "2,2026-03-03T20:00:00,2026-03-03T21:00:00" + ",0" * 12 + "," + "y" * 300_000
    path.write_text(path.read_text() + oversized + "\n")
    ledger = read_ledger(data)  # written by hand or by an older version: reported, never a csv.Error
    assert [s.id for s in ledger.sessions] == [1]
    assert [(p.line, p.field) for p in ledger.problems] == [(3, "row")] and "larger than" in str(ledger.problems[0])
    with pytest.raises(LedgerError, match="line 3"):
        add_session(data, base)
    assert main(["sessions", "list", "--data", str(data)]) == 2
    assert "line 3" in capsys.readouterr().err
