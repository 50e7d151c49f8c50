"""The sessions endpoints of ``pokerlab serve --sessions``: reads, the two writes and their guards,
and that without ``--sessions`` the API stays read-only."""

import json

import pytest
from sessions_fixtures import make_data_dir, timed_hands, write_equity_table
from starlette.testclient import TestClient

from pokerlab.sessions.ledger import read_ledger
from pokerlab.serve.app import create_app

LOCAL = "http://127.0.0.1:8765"


@pytest.fixture()
def served(tmp_path, equity_table):
    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    data = make_data_dir(tmp_path, eq, results)
    return TestClient(create_app(results, data), base_url=LOCAL), data, eq


def test_read_and_log_a_session(served):
    client, data, _ = served
    d = client.get("/api/v1/sessions").json()
    assert d["sessions"] == [] and [p["hands"] for p in d["proposals"]] == [30, 30]
    assert all(e["graded"] for e in d["exports"])  # graded once at start-up
    assert client.get("/sessions").text.count("sessions.js") == 1
    p = d["proposals"][0]
    body = {k: p[k] for k in ("start", "end", "hands", "stakes", "hh_net", "exports")} | {"rakeback_start": "1", "rakeback_end": "1.5"}
    r = client.post("/api/v1/sessions", json=body)
    assert r.status_code == 201 and r.json()["logged"]["id"] == 1
    d = client.get("/api/v1/sessions").json()
    assert [s["id"] for s in d["sessions"]] == [1] and d["proposals"][0]["logged"] == 1
    assert d["sessions"][0]["cards"]["grade"]["spots"] > 0
    assert d["curve"][-1]["bankroll"] == pytest.approx(100 + p["hh_net"] + 0.5)

    bad = client.post("/api/v1/sessions", json={**body, "start": "2026-13-01T10:00"})
    assert bad.status_code == 400 and bad.json()["error"]["message"].startswith("start: ")
    assert client.post("/api/v1/sessions", content=json.dumps(body), headers={"Content-Type": "text/plain"}).status_code == 415
    assert client.post("/api/v1/sessions", json=body, headers={"Origin": "http://evil.example"}).status_code == 403
    other = TestClient(client.app, base_url="http://rebound.example:8765")  # DNS rebinding: a foreign Host
    assert other.post("/api/v1/sessions", json=body).status_code == 403
    assert other.get("/api/v1/sessions").status_code == 403 and other.get("/sessions").status_code == 403
    assert len(read_ledger(data).sessions) == 1

    (data / "sessions.csv").write_text((data / "sessions.csv").read_text() + "2,broken\n")
    conflict = client.post("/api/v1/sessions", json=body)
    assert conflict.status_code == 409 and "line 3" in conflict.json()["error"]["message"]
    assert "line 3" in client.get("/api/v1/sessions").json()["problems"][0]


def test_drop_an_export(served, tmp_path):
    from datetime import datetime

    from pokerlab.hands.phh import write_phhs

    client, data, eq = served
    write_phhs(timed_hands(eq, 12, 21, datetime(2026, 3, 5, 19, 0)), tmp_path / "new.phhs")
    raw = (tmp_path / "new.phhs").read_bytes()
    url = "/api/v1/sessions/exports?name=new.phhs"
    assert client.post(url, content=raw).status_code == 400  # without the page's header
    r = client.post(url, content=raw, headers={"X-Pokerlab-Upload": "1"})
    assert r.status_code == 201 and r.json() == {"saved": "new.phhs", "read": 12, "imported": 12, "graded": True}
    assert (data / "exports" / "new.phhs").read_bytes() == raw
    assert [p["hands"] for p in client.get("/api/v1/sessions").json()["proposals"]] == [30, 30, 12]
    for name, content in (("../evil.phhs", raw), ("notes.txt", b"hello"), ("new.phhs", raw + b"\n")):
        r = client.post(f"/api/v1/sessions/exports?name={name}", content=content, headers={"X-Pokerlab-Upload": "1"})
        assert r.status_code == 400, name
    assert sorted(p.name for p in (data / "exports").iterdir()) == ["new.phhs", "table1.phhs", "table2.phhs"]


def test_without_sessions_the_api_has_no_writes(tmp_path):
    client = TestClient(create_app(tmp_path), base_url=LOCAL)
    assert client.post("/api/v1/sessions", json={}).status_code in (404, 405)
    assert client.get("/sessions").status_code == 404


def test_sessions_are_served_on_loopback_only(tmp_path, capsys):
    from pokerlab.cli import main

    assert main(["serve", str(tmp_path), "--sessions", str(tmp_path / "d"), "--host", "0.0.0.0", "--allow-public"]) == 2
    assert "--sessions" in capsys.readouterr().err


def test_an_oversized_notes_field_is_refused_and_one_on_disk_is_reported(served):
    from pokerlab.sessions.ledger import MAX_TEXT_CHARS

    client, data, _ = served
    body = {"start": "2026-03-02T20:00", "end": "2026-03-02T21:00"}
    r = client.post("/api/v1/sessions", json={**body, "notes": "x" * (MAX_TEXT_CHARS + 1)})
    assert r.status_code == 400 and r.json()["error"]["message"].startswith("notes: ")
    assert client.post("/api/v1/sessions", json=body).status_code == 201  # the ledger is still writable
    path = data / "sessions.csv"
    oversized = "2,2026-03-03T20:00:00,2026-03-03T21:00:00" + ",0" * 12 + "," + "y" * 300_000
    path.write_text(path.read_text() + oversized + "\n")
    d = client.get("/api/v1/sessions")
    assert d.status_code == 200 and "line 3" in d.json()["problems"][0]
    r = client.post("/api/v1/sessions", json=body)
    assert r.status_code == 409 and "line 3" in r.json()["error"]["message"]


def asgi_post(app, path: str, chunks: int, chunk: bytes, headers: list[tuple[bytes, bytes]]) -> tuple[int, dict, int]:
    """POST a body of ``chunks`` x ``chunk`` straight into the ASGI app; returns the status, the
    JSON answer and how many chunks the app read (the client never sends more than is read)."""
    import anyio

    sent, answer = [0], {}

    async def receive():
        sent[0] += 1
        return {"type": "http.request", "body": chunk, "more_body": sent[0] < chunks}

    async def send(message):
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
        elif message["type"] == "http.response.body":
            answer["body"] = answer.get("body", b"") + message.get("body", b"")

    path, _, query = path.partition("?")
    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8765"), *headers], "client": ("127.0.0.1", 1),
             "server": ("127.0.0.1", 8765)}
    anyio.run(app, scope, receive, send)
    return answer["status"], json.loads(answer["body"]), sent[0]


def test_a_large_body_is_refused_after_reading_at_most_the_limit(served):
    from pokerlab.sessions.web import MAX_SESSION_BODY

    client, data, _ = served
    chunk = b" " * (64 << 10)  # 64 KiB of JSON whitespace, 4 MiB in all
    json_type = [(b"content-type", b"application/json")]
    for headers in (json_type, json_type + [(b"content-length", str(64 * len(chunk)).encode())]):
        status, answer, read = asgi_post(client.app, "/api/v1/sessions", 64, chunk, headers)
        assert status == 413 and f"{MAX_SESSION_BODY >> 10} KiB" in answer["error"]["message"]
        assert read * len(chunk) <= MAX_SESSION_BODY + len(chunk)  # stopped at the limit
    r = client.post("/api/v1/sessions", json={"start": "2026-03-02T20:00", "end": "2026-03-02T21:00",
                                              "notes": "x" * (2 << 20)})
    assert r.status_code == 413 and not (data / "sessions.csv").exists()
    upload = [(b"x-pokerlab-upload", b"1"), (b"content-length", str(200 << 20).encode())]
    status, answer, read = asgi_post(client.app, "/api/v1/sessions/exports?name=big.phhs", 64, chunk, upload)
    assert status == 413 and read <= 1  # a declared length over the limit is refused before reading


def test_405_answers_list_every_method_of_the_path(served):
    client, _, _ = served
    r = client.put("/api/v1/sessions", json={})
    assert r.status_code == 405 and {m.strip() for m in r.headers["allow"].split(",")} == {"GET", "HEAD", "POST"}
    r = client.get("/api/v1/sessions/exports")
    assert r.status_code == 405 and r.headers["allow"] == "POST"


def test_other_requests_are_answered_while_an_upload_is_graded(tmp_path, equity_table, monkeypatch):
    """The upload's import and grading run off the event loop: a GET sent while the (held)
    grading runs is answered before the grading goes on. Events order the two; the wait is only
    a guard against hanging when the loop is blocked."""
    import threading
    from datetime import datetime

    from pokerlab.hands.phh import write_phhs
    from pokerlab.sessions import exports

    eq = equity_table.win + equity_table.tie / 2
    results = tmp_path / "results"
    write_equity_table(equity_table, results / "equity" / "equity_169.npz")
    data = make_data_dir(tmp_path, eq, results)
    write_phhs(timed_hands(eq, 12, 21, datetime(2026, 3, 5, 19, 0)), tmp_path / "new.phhs")
    grading, answered, seen = threading.Event(), threading.Event(), {}
    real_scan = exports.scan

    def held_scan(*args, **kwargs):
        if seen.get("armed"):
            grading.set()
            seen["answered_meanwhile"] = answered.wait(timeout=30)
        return real_scan(*args, **kwargs)

    monkeypatch.setattr(exports, "scan", held_scan)
    with TestClient(create_app(results, data), base_url=LOCAL) as client:  # one event loop for every request
        seen["armed"] = True
        uploads = []
        poster = threading.Thread(target=lambda: uploads.append(client.post(
            "/api/v1/sessions/exports?name=new.phhs", content=(tmp_path / "new.phhs").read_bytes(),
            headers={"X-Pokerlab-Upload": "1"})))
        poster.start()
        assert grading.wait(timeout=30)
        assert client.get("/api/v1/sets").status_code == 200
        progress = client.get("/api/v1/sessions/exports/progress").json()  # what the page shows meanwhile
        answered.set()
        poster.join()
        assert client.get("/api/v1/sessions/exports/progress").json() == {"stage": "idle"}
    assert progress["stage"] == "grading" and progress["name"] == "new.phhs" and progress["seconds"] >= 0
    assert seen["answered_meanwhile"] is True
    assert uploads[0].status_code == 201 and uploads[0].json()["imported"] == 12
