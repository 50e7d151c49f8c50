"""The read-only API: schema-valid documents for every node of a chart set and of a pack,
stable ETags and 304s, JSON error bodies naming what was asked, no path out of the results
directory (raw encoded and double-encoded requests to a live server), loopback-only binding."""

import http.client
import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("httpx")
with warnings.catch_warnings():  # starlette's notice that httpx is to be replaced by httpx2
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from pokerlab.charts import load_chart
from pokerlab.cli import main  # noqa: E402
from pokerlab.serve.app import STATIC_DIR, bind_address, check_bind_address, create_app  # noqa: E402
from pokerlab.serve.documents import validate_document  # noqa: E402


@pytest.fixture(scope="module")
def client(served_release):
    root, _ = served_release
    return TestClient(create_app(root))


def test_sets_list_charts_and_packs(client, served_release):
    body = client.get("/api/v1/sets").json()
    assert [c["id"] for c in body["chart_sets"]] == ["cash/3max/15bb", "mtt/3max/15bb"]
    (pack,) = body["packs"]
    assert pack["id"] == "river" and pack["campaign"] == "test"
    assert pack["spots"] == [{"family_id": "river_kt742", "board": "KsTh7d4c2s", "street": "river",
                              "nodes": len(served_release[1]["solver"].tree.decision_nodes())}]


def test_every_chart_node_is_served_as_a_valid_document(client, served_release):
    _, made = served_release
    chart = load_chart(made["charts"]["cash/3max/15bb"])
    listed = client.get("/api/v1/charts/cash/3max/15bb/nodes").json()
    assert [n["node_path"] for n in listed["nodes"]] == [n["id"] or "root" for n in chart["nodes"]]
    for node in listed["nodes"]:
        r = client.get(f"/api/v1/charts/cash/3max/15bb/nodes/{node['node_path']}")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-cache"
        doc = r.json()
        validate_document(doc)
        assert doc["meta"]["manifest"]["listed"] is True  # the fixture's manifest lists the chart with this digest
        assert doc["meta"]["pack_sha256"] == __import__("hashlib").sha256(
            made["charts"]["cash/3max/15bb"].read_bytes()).hexdigest()
        for action in doc["actions"]:  # `next` names a decision the list holds, or nothing
            assert action["next"] is None or action["next"] in {n["node_path"] for n in listed["nodes"]}


def test_every_pack_node_is_served_as_a_valid_document(client):
    listed = client.get("/api/v1/packs/river/spots/river_kt742/nodes").json()
    assert listed["nodes"][0] == "root"
    for path in listed["nodes"]:
        r = client.get(f"/api/v1/packs/river/spots/river_kt742/nodes/{path}")
        assert r.status_code == 200 and r.headers["cache-control"] == "public, max-age=31536000, immutable"
        doc = r.json()
        validate_document(doc)
        assert doc["node_path"] == path and doc["meta"]["campaign"] == "test"


def test_etags_are_stable_and_answer_304(client, served_release):
    other = TestClient(create_app(served_release[0]))  # a second server over the same files
    for url in ("/api/v1/charts/cash/3max/15bb/nodes/root", "/api/v1/packs/river/spots/river_kt742/nodes/root",
                "/api/v1/sets", "/api/v1/charts/mtt/3max/15bb/nodes"):
        first, again = client.get(url), other.get(url)
        etag = first.headers["etag"]
        assert re.fullmatch(r'"[0-9a-f]{40}"', etag) and again.headers["etag"] == etag
        assert first.content == again.content
        cached = client.get(url, headers={"If-None-Match": etag})
        assert cached.status_code == 304 and cached.content == b"" and cached.headers["etag"] == etag
        assert client.get(url, headers={"If-None-Match": '"0000"'}).status_code == 200
    tags = {client.get(f"/api/v1/charts/{s}/nodes/{p}").headers["etag"]
            for s in ("cash/3max/15bb", "mtt/3max/15bb") for p in ("root", "F")}
    assert len(tags) == 4


@pytest.mark.parametrize("url, status, message, asked", [
    ("/api/v1/charts/cash/3max/15bb/nodes/FFFF", 404, "no decision node 'FFFF'", {"node_path": "FFFF"}),
    ("/api/v1/charts/cash/3max/40bb/nodes/root", 404, "no chart set cash/3max/40bb", {"depth": "40bb"}),
    ("/api/v1/charts/cash/3max/15bb/nodes/FXR", 400, "'FXR' is not 'root'", {"node_path": "FXR"}),
    ("/api/v1/charts/cash/three/15bb/nodes/root", 400, "malformed chart set id", {"table": "three"}),
    ("/api/v1/packs/nopack/spots/river_kt742/nodes/root", 404, "no pack 'nopack'", {"pack": "nopack"}),
    ("/api/v1/packs/river/spots/flop_x/nodes", 404, "has no spot 'flop_x'", {"family_id": "flop_x"}),
    ("/api/v1/packs/river/spots/river_kt742/nodes/root.bet_75", 404, "has no node 'root.bet_75'",
     {"node_path": "root.bet_75"}),
    ("/api/v1/packs/river/spots/river_kt742/nodes/root..call", 400, "malformed node_path", {"node_path": "root..call"}),
    ("/api/v1/nothing", 404, "Not Found", {"path": "/api/v1/nothing"}),
])
def test_errors_are_json_naming_what_was_asked(client, url, status, message, asked):
    r = client.get(url)
    assert r.status_code == status and r.headers["content-type"] == "application/json"
    error = r.json()["error"]
    assert error["status"] == status and message in error["message"]
    assert asked.items() <= error["asked"].items()


def test_openapi_and_web_app(client):
    spec = client.get("/openapi.json").json()
    assert spec["openapi"].startswith("3.") and set(spec["paths"]) == {
        "/api/v1/sets", "/api/v1/charts/{format}/{table}/{depth}/nodes",
        "/api/v1/charts/{format}/{table}/{depth}/nodes/{node_path}",
        "/api/v1/packs/{pack}/spots/{family_id}/nodes", "/api/v1/packs/{pack}/spots/{family_id}/nodes/{node_path}"}
    page = client.get("/")
    assert page.status_code == 200 and "/app/app.js" in page.text
    for name in ("app.js", "grid.js", "style.css", "strength-order.json"):
        assert client.get(f"/app/{name}").status_code == 200
    # nothing is fetched from the internet: no absolute URL in the web app
    for path in STATIC_DIR.iterdir():
        assert not re.search(r"(https?:)?//[a-z0-9-]+\.[a-z]", path.read_text()), path.name
    assert client.post("/api/v1/sets").status_code == 405  # read-only


def test_bind_address_needs_the_flag_unless_loopback(tmp_path, capsys):
    for host in ("127.0.0.1", "127.0.0.2", "::1", "localhost"):
        check_bind_address(host, allow_public=False)
    for host in ("0.0.0.0", "::", "192.168.1.20", "example.org"):
        with pytest.raises(ValueError, match="--allow-public"):
            check_bind_address(host, allow_public=False)
        check_bind_address(host, allow_public=True)
    # the address as bound: URL brackets dropped; sessions only on loopback; a real port
    assert bind_address("[::1]", 0, allow_public=False, sessions=True) == "::1"
    with pytest.raises(ValueError, match="--sessions: the sessions dashboard is personal data"):
        bind_address("[::]", 8765, allow_public=True, sessions=True)
    with pytest.raises(ValueError, match="--port 65536: expected 0..65535"):
        bind_address("127.0.0.1", 65536, allow_public=False, sessions=False)
    assert main(["serve", str(tmp_path), "--host", "0.0.0.0"]) == 2
    assert "--host 0.0.0.0: not a loopback address" in capsys.readouterr().err
    assert main(["serve", str(tmp_path / "missing")]) == 2
    assert "is not a directory" in capsys.readouterr().err


@pytest.fixture(scope="module")
def live_server(served_release):
    """``pokerlab serve`` in a subprocess on a free loopback port; yields (host, port)."""
    root, _ = served_release
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match, f"serve did not start: {line!r} {proc.stderr.read() if proc.poll() is not None else ''}"
        yield "127.0.0.1", int(match.group(1))
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def raw_get(server, path: str) -> tuple[int, bytes]:
    """GET ``path`` byte for byte (no client-side normalisation of dots or escapes)."""
    conn = http.client.HTTPConnection(*server, timeout=10)
    conn.putrequest("GET", path, skip_host=False, skip_accept_encoding=True)
    conn.endheaders()
    r = conn.getresponse()
    body = r.read()
    conn.close()
    return r.status, body


TRAVERSALS = [
    "/app/../../../../../../etc/passwd",
    "/app/..%2f..%2f..%2f..%2f..%2fetc%2fpasswd",
    "/app/%2e%2e/%2e%2e/app.py",
    "/app/%2e%2e%2fapp.py",
    "/app/%252e%252e%252fapp.py",
    "/app/..%252f..%252fapp.py",
    "/app//etc/passwd",
    "/app/..\\..\\app.py",
    "/api/v1/charts/..%2f..%2f..%2fetc/3max/15bb/nodes/root",
    "/api/v1/charts/cash/..%2f..%2fsecret/15bb/nodes/root",
    "/api/v1/charts/cash/3max/..%252f..%252fsecret/nodes/root",
    "/api/v1/packs/..%2f..%2fsecret/spots/x/nodes",
    "/api/v1/packs/river/spots/..%2f..%2f..%2fsecret/nodes",
    "/api/v1/packs/river/spots/%2e%2e/nodes/root",
    "/api/v1/packs/river/spots/river_kt742/nodes/..%2f..%2fpack.json",
]


@pytest.mark.parametrize("path", TRAVERSALS)
def test_no_path_escapes_the_results_directory(live_server, served_release, path):
    root, _ = served_release
    secret = root.parent / "secret.json"
    secret.write_text('{"secret": "outside-the-results-directory"}')
    status, body = raw_get(live_server, path)
    assert status in (400, 404), (path, status, body[:200])
    assert b"outside-the-results-directory" not in body and b"root:" not in body and b"def create_app" not in body
    assert json.loads(body)["error"]["status"] == status


def test_live_server_serves_a_document(live_server):
    status, body = raw_get(live_server, "/api/v1/charts/cash/3max/15bb/nodes/root")
    assert status == 200 and json.loads(body)["node_path"] == "root"
    assert Path(STATIC_DIR / "index.html").is_file()


def test_a_tampered_pack_file_is_refused_with_a_json_error(served_release, tmp_path):
    import shutil

    root = tmp_path / "results"
    shutil.copytree(served_release[0] / "packs", root / "packs")
    spot = root / "packs" / "river" / "spots" / "river_kt742.json"
    spot.write_bytes(spot.read_bytes().replace(b'"oop"', b'"OOP"', 1))
    r = TestClient(create_app(root)).get("/api/v1/packs/river/spots/river_kt742/nodes/root")
    assert r.status_code == 500
    assert "spots/river_kt742.json does not match its listed SHA-256" in r.json()["error"]["message"]


def test_a_broken_chart_file_answers_a_json_error(tmp_path):
    chart = tmp_path / "results" / "charts" / "cash" / "2max" / "10bb.json.gz"
    chart.parent.mkdir(parents=True)
    chart.write_text('{"format": "pokerlab-chart/1", "spot": {}}')
    client = TestClient(create_app(tmp_path / "results"))
    r = client.get("/api/v1/charts/cash/2max/10bb/nodes/root")
    assert r.status_code == 500 and "charts/cash/2max/10bb.json.gz is not a pokerlab-chart/1 document" in r.text


def _copied_release(served_release, tmp_path):
    import shutil

    root = tmp_path / "results"
    for sub in ("charts", "packs"):
        shutil.copytree(served_release[0] / sub, root / sub)
    return root


def _replace_chart(path: Path, change) -> None:
    """Rewrite a chart the way a rebuild does: a temporary file renamed over the old one."""
    import gzip
    import os

    doc = json.loads(gzip.decompress(path.read_bytes()))
    change(doc)
    tmp = path.with_name("new.tmp")
    tmp.write_bytes(gzip.compress(json.dumps(doc).encode()))
    os.replace(tmp, path)


@pytest.mark.parametrize("url", ["/api/v1/charts/cash/3max/15bb/nodes/root", "/api/v1/charts/cash/3max/15bb/nodes"])
def test_a_chart_replaced_in_place_is_served_anew_with_a_new_etag(served_release, tmp_path, url):
    root = _copied_release(served_release, tmp_path)
    client = TestClient(create_app(root))
    old = client.get(url)
    assert client.get(url, headers={"If-None-Match": old.headers["etag"]}).status_code == 304
    _replace_chart(root / "charts" / "cash" / "3max" / "15bb.json.gz",
                   lambda doc: doc["inputs"].update(result_sha256="0" * 64))
    new = client.get(url)
    assert new.status_code == 200 and new.headers["etag"] != old.headers["etag"]
    assert new.content != old.content
    if url.endswith("root"):
        assert new.json()["meta"]["inputs"]["result_sha256"] == "0" * 64
    assert client.get(url, headers={"If-None-Match": old.headers["etag"]}).status_code == 200  # the old ETag is stale
    assert client.get(url, headers={"If-None-Match": new.headers["etag"]}).status_code == 304


def test_a_chart_or_pack_deleted_after_start_up_is_a_json_404_and_leaves_the_list(served_release, tmp_path):
    import shutil

    root = _copied_release(served_release, tmp_path)
    client = TestClient(create_app(root), raise_server_exceptions=False)
    (root / "charts" / "cash" / "3max" / "15bb.json.gz").unlink()
    shutil.rmtree(root / "packs" / "river")
    for url, named in (("/api/v1/charts/cash/3max/15bb/nodes/root", "cash/3max/15bb"),
                       ("/api/v1/charts/cash/3max/15bb/nodes", "cash/3max/15bb"),
                       ("/api/v1/packs/river/spots/river_kt742/nodes/root", "river"),
                       ("/api/v1/packs/river/spots/river_kt742/nodes", "river")):
        r = client.get(url)
        assert r.status_code == 404 and r.headers["content-type"] == "application/json", (url, r.text[:200])
        assert named in r.json()["error"]["message"]
    sets = client.get("/api/v1/sets").json()
    assert [c["id"] for c in sets["chart_sets"]] == ["mtt/3max/15bb"] and sets["packs"] == []
    assert client.get("/api/v1/charts/mtt/3max/15bb/nodes/root").status_code == 200


def test_a_pack_file_removed_after_start_up_is_a_json_error_naming_it(served_release, tmp_path):
    root = _copied_release(served_release, tmp_path)
    client = TestClient(create_app(root), raise_server_exceptions=False)
    (root / "packs" / "river" / "spots" / "river_kt742.json").unlink()
    r = client.get("/api/v1/packs/river/spots/river_kt742/nodes/root")
    assert r.status_code == 500 and "cannot read spots/river_kt742.json" in r.json()["error"]["message"]


def test_a_directory_named_like_a_chart_is_not_a_chart(served_release, tmp_path):
    root = _copied_release(served_release, tmp_path)
    (root / "charts" / "cash" / "2max" / "16bb.json.gz").mkdir(parents=True)
    client = TestClient(create_app(root), raise_server_exceptions=False)
    assert "cash/2max/16bb" not in [c["id"] for c in client.get("/api/v1/sets").json()["chart_sets"]]
    assert client.get("/api/v1/charts/cash/2max/16bb/nodes/root").status_code == 404
    chart = root / "charts" / "mtt" / "3max" / "15bb.json.gz"  # replaced by a directory after start-up
    chart.unlink()
    chart.mkdir()
    r = client.get("/api/v1/charts/mtt/3max/15bb/nodes/root")
    assert r.status_code == 404 and "mtt/3max/15bb" in r.json()["error"]["message"]


def test_charts_rewritten_while_served_give_no_server_error(served_release, tmp_path):
    import threading

    root = _copied_release(served_release, tmp_path)
    client = TestClient(create_app(root), raise_server_exceptions=False)
    chart = root / "charts" / "cash" / "3max" / "15bb.json.gz"
    done = threading.Event()

    def rewrite():
        for k in range(60):
            _replace_chart(chart, lambda doc: doc["inputs"].update(result_sha256=f"{k:064d}"))
        done.set()

    writer = threading.Thread(target=rewrite)
    writer.start()
    statuses = []
    while not done.is_set() or len(statuses) < 20:
        for url in ("/api/v1/charts/cash/3max/15bb/nodes/root", "/api/v1/charts/cash/3max/15bb/nodes", "/api/v1/sets"):
            statuses.append(client.get(url).status_code)
    writer.join()
    assert set(statuses) == {200}


def test_405_answers_say_what_is_allowed(client):
    r = client.post("/api/v1/sets")
    assert r.status_code == 405 and r.json()["error"]["status"] == 405
    assert {m.strip() for m in r.headers["allow"].split(",")} == {"GET", "HEAD"}


@pytest.mark.parametrize("path", ["/api/v1/sets/", "/api/v1/charts/cash/3max/15bb/nodes/", "/api/v1/sets/?x=1"])
def test_a_trailing_slash_redirect_never_names_the_host_it_was_sent(served_release, path):
    evil = TestClient(create_app(served_release[0]), base_url="http://evil.example", follow_redirects=False)
    r = evil.get(path)
    assert r.status_code in (307, 308, 404)
    if r.status_code != 404:
        location = r.headers["location"]
        assert "evil.example" not in location and location.startswith("/") and not location.startswith("//")
        assert location == path.replace("/?", "?").rstrip("/")


def test_a_chart_added_after_start_up_is_listed_and_served(served_release, tmp_path):
    import shutil

    root = _copied_release(served_release, tmp_path)
    client = TestClient(create_app(root))
    assert client.get("/api/v1/charts/cash/3max/20bb/nodes").status_code == 404
    new = root / "charts" / "cash" / "3max" / "20bb.json.gz"
    shutil.copy(root / "charts" / "cash" / "3max" / "15bb.json.gz", new)
    assert "cash/3max/20bb" in [c["id"] for c in client.get("/api/v1/sets").json()["chart_sets"]]
    assert client.get("/api/v1/charts/cash/3max/20bb/nodes").status_code == 200
