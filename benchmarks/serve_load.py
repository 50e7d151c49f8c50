"""Serving under load: many connections at once, optionally with the charts rewritten underneath.

Starts ``python -m pokerlab.cli serve RESULTS_DIR --port 0`` (loopback) on a copy of
``RESULTS_DIR``'s charts and packs, then sends ``--requests`` GET requests (default 2,000) over
``--connections`` keep-alive connections (default 50), drawn with a fixed seed: 70% node
documents (chart and pack nodes), 20% node lists, 10% ``/api/v1/sets``. With ``--rewrite``
a writer replaces every chart file of the copy in a loop while the requests run, the way a
rebuild does (a temporary file renamed over the old one), alternating two encodings of the
same chart (gzip headers with different time stamps: other bytes, so a new digest and ETag).

Prints the connection errors, the count of each status (and of 5xx), the latency p50/p99 (ms)
and the server's resident memory (RSS, MiB) before and after the load. ``--rounds N`` sends the
same requests N times to the same server and prints each round (the first fills the server's
caches; memory that keeps growing after it would be a leak).

    .venv/bin/python benchmarks/serve_load.py --build /tmp/served     # a tiny results directory
    .venv/bin/python benchmarks/serve_load.py /tmp/served
    .venv/bin/python benchmarks/serve_load.py /tmp/served --rewrite

``--big-post MIB`` measures one oversized write instead: the server runs with ``--sessions`` (an
empty data folder) and gets a ``POST /api/v1/sessions`` of MIB MiB of JSON whitespace, sent
chunked (no ``Content-Length``); prints the answer and the server's RSS before and after.

    .venv/bin/python benchmarks/serve_load.py /tmp/served --big-post 512

``--upload FILE`` measures a dropped export instead: the server runs with ``--sessions`` (an
empty data folder whose settings name ``--equity NPZ``, so the export is graded too) and gets
``FILE`` as ``POST /api/v1/sessions/exports``; meanwhile one connection asks ``/api/v1/sets``
every 50 ms. Prints the upload's answer and time and the sets requests' count and latency
(median and max): the longest wait is how long the server stopped answering.

    .venv/bin/python benchmarks/serve_load.py /tmp/served --upload export.txt --equity equity_169.npz

``--build DIR`` writes the serving tests' results directory (two 3-handed 15bb charts, cash and
mtt, 30 CFR+ iterations on a sampled equity table, and a pack of one river solve) into ``DIR``.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path


def build(root: Path) -> None:
    """The serving tests' tiny results directory (see ``tests/conftest.py``)."""
    from pokerlab.cards import parse_cards
    from pokerlab.equity import sampled_equity_table
    from pokerlab.manifest import publish_release
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver
    from pokerlab.preflop.result_file import write_result
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.publish import write_chart
    from pokerlab.ranges import Range
    from pokerlab.serve.pack import pack_spot, write_pack

    table = sampled_equity_table(samples=2000, seed=7)
    charts = []
    for fmt in ("cash", "mtt"):
        result = solve_spot(Spot(fmt, 3, 15), load_sizing(None), table.win, table.tie,
                            SolveSettings(checkpoints=(30,), bar_coefficient=10.0))
        solve = root / "solves" / fmt / "result.json"
        solve.parent.mkdir(parents=True)
        write_result(solve, result)
        charts.append(root / "charts" / fmt / "3max" / "15bb.json.gz")
        write_chart(solve, charts[-1])
    publish_release(root, charts, ["charts"], {"serve_load": 1})
    spot = PostflopSpot(10.0, 20.0, tuple(parse_cards("KsTh7d4c2s")), Range.parse("QQ+,AK,KQ,JTs,98s").weights,
                        Range.parse("TT+,AQ+,KJs,T9s,76s").weights, BetTree.uniform((50,), (100,), True))
    solver = PostflopSolver(spot)
    solver.solve(0.2, 400)
    write_pack(root / "packs" / "river", [pack_spot(solver, 0.2, "river_kt742")], campaign="load")


def rss_mib(pid: int) -> float:
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def get(conn: http.client.HTTPConnection, path: str) -> tuple[int, bytes]:
    conn.request("GET", path)
    r = conn.getresponse()
    return r.status, r.read()


def request_paths(host: str, port: int, count: int, seed: int) -> list[str]:
    """``count`` paths drawn with ``seed``: 70% node documents, 20% node lists, 10% sets."""
    conn = http.client.HTTPConnection(host, port, timeout=30)
    sets = json.loads(get(conn, "/api/v1/sets")[1])
    lists, documents = [], []
    for chart in sets["chart_sets"]:
        url = f"/api/v1/charts/{chart['id']}/nodes"
        lists.append(url)
        documents += [f"{url}/{n['node_path']}" for n in json.loads(get(conn, url)[1])["nodes"]]
    for pack in sets["packs"]:
        for spot in pack["spots"]:
            url = f"/api/v1/packs/{pack['id']}/spots/{spot['family_id']}/nodes"
            lists.append(url)
            documents += [f"{url}/{p}" for p in json.loads(get(conn, url)[1])["nodes"]]
    conn.close()
    rng = random.Random(seed)
    return [rng.choice(documents) if u < 0.7 else rng.choice(lists) if u < 0.9 else "/api/v1/sets"
            for u in (rng.random() for _ in range(count))]


def rewrite_charts(root: Path, stop: threading.Event, counter: list[int]) -> None:
    """Replace every chart file in a loop (temporary file + rename), alternating two gzip encodings."""
    charts = sorted((root / "charts").glob("*/*/*.json.gz"))
    raw = {p: gzip.decompress(p.read_bytes()) for p in charts}
    k = 0
    while not stop.is_set():
        for path in charts:
            tmp = path.with_name(path.name + ".rewrite.tmp")
            tmp.write_bytes(gzip.compress(raw[path], mtime=k % 2))
            os.replace(tmp, path)
            counter[0] += 1
        k += 1
        stop.wait(0.005)


def load(host: str, port: int, paths: list[str], connections: int) -> tuple[list[float], Counter, Counter]:
    latencies, statuses, errors, lock = [], Counter(), Counter(), threading.Lock()
    queue = iter(paths)

    def worker():
        conn = http.client.HTTPConnection(host, port, timeout=60)
        while True:
            with lock:
                path = next(queue, None)
            if path is None:
                break
            start = time.perf_counter()
            try:
                status, _ = get(conn, path)
            except (OSError, http.client.HTTPException) as exc:
                with lock:
                    errors[type(exc).__name__] += 1
                conn.close()
                conn = http.client.HTTPConnection(host, port, timeout=60)
                continue
            with lock:
                latencies.append(1000 * (time.perf_counter() - start))
                statuses[status] += 1
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, statuses, errors


def big_post(host: str, port: int, mib: int, pid: int) -> None:
    """One POST /api/v1/sessions of ``mib`` MiB, chunked; the answer and the server's RSS."""
    before = rss_mib(pid)
    conn = http.client.HTTPConnection(host, port, timeout=600)
    chunk = b" " * (1 << 20)
    headers = {"Content-Type": "application/json", "Transfer-Encoding": "chunked"}
    start = time.perf_counter()
    try:
        conn.request("POST", "/api/v1/sessions", body=(chunk for _ in range(mib)), headers=headers,
                     encode_chunked=True)
        r = conn.getresponse()
        answer = f"{r.status} {r.read()[:160].decode(errors='replace')}"
    except OSError as exc:  # the server answered and closed before the whole body was sent
        answer = f"connection closed while sending ({type(exc).__name__})"
    print(f"POST of {mib} MiB: {answer} after {time.perf_counter() - start:.1f} s; "
          f"server RSS MiB: before {before:.0f}, after {rss_mib(pid):.0f}")


def upload(host: str, port: int, export: Path) -> None:
    """Drop ``export`` while another connection asks /api/v1/sets every 50 ms."""
    done, waits = threading.Event(), []

    def poll():
        conn = http.client.HTTPConnection(host, port, timeout=600)
        while not done.is_set():
            start = time.perf_counter()
            get(conn, "/api/v1/sets")
            waits.append(1000 * (time.perf_counter() - start))
            done.wait(0.05)

    poller = threading.Thread(target=poll)
    poller.start()
    conn = http.client.HTTPConnection(host, port, timeout=600)
    start = time.perf_counter()
    conn.request("POST", f"/api/v1/sessions/exports?name={export.name}", body=export.read_bytes(),
                 headers={"X-Pokerlab-Upload": "1"})
    r = conn.getresponse()
    answer, seconds = f"{r.status} {r.read()[:160].decode(errors='replace')}", time.perf_counter() - start
    done.set()
    poller.join()
    print(f"upload of {export.stat().st_size / 1e6:.2f} MB: {answer} after {seconds:.1f} s")
    print(f"/api/v1/sets meanwhile: {len(waits)} requests, latency ms median {statistics.median(waits):.1f}, "
          f"max {max(waits):.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", type=Path, nargs="?")
    ap.add_argument("--build", type=Path, help="write a tiny results directory here and stop")
    ap.add_argument("--requests", type=int, default=2000)
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--rewrite", action="store_true", help="replace the chart files in a loop during the load")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--rounds", type=int, default=1, help="send the requests this many times")
    ap.add_argument("--big-post", type=int, metavar="MIB", help="send one POST /api/v1/sessions of MIB MiB instead")
    ap.add_argument("--upload", type=Path, metavar="FILE", help="drop this export on the sessions page instead")
    ap.add_argument("--equity", type=Path, metavar="NPZ", help="with --upload: the equity table grading reads")
    args = ap.parse_args()
    if args.build:
        build(args.build)
        print(f"wrote {args.build}")
        return
    if args.results is None:
        ap.error("RESULTS_DIR or --build DIR")
    with tempfile.TemporaryDirectory(prefix="serve-load-") as tmp:
        root = Path(tmp) / "results"
        for sub in ("charts", "packs"):
            if (args.results / sub).is_dir():
                shutil.copytree(args.results / sub, root / sub)
        sessions = []
        if args.big_post or args.upload:
            data = Path(tmp) / "data"
            data.mkdir()
            if args.equity:
                (data / "settings.json").write_text(json.dumps({"equity_table": str(args.equity.resolve())}))
            sessions = ["--sessions", str(data)]
        server = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", str(root), "--port", "0", *sessions],
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            match = re.search(r"http://(127\.0\.0\.1):(\d+)/", server.stdout.readline())
            if not match:
                raise SystemExit("the server did not start")
            host, port = match.group(1), int(match.group(2))
            if args.big_post:
                return big_post(host, port, args.big_post, server.pid)
            if args.upload:
                return upload(host, port, args.upload)
            paths = request_paths(host, port, args.requests, args.seed)
            rounds = []
            for _ in range(args.rounds):
                rss_before = rss_mib(server.pid)
                stop, rewrites = threading.Event(), [0]
                writer = threading.Thread(target=rewrite_charts, args=(root, stop, rewrites)) if args.rewrite else None
                if writer:
                    writer.start()
                start = time.perf_counter()
                latencies, statuses, errors = load(host, port, paths, args.connections)
                seconds = time.perf_counter() - start
                stop.set()
                if writer:
                    writer.join()
                rounds.append((latencies, statuses, errors, seconds, rewrites[0], rss_before, rss_mib(server.pid)))
        finally:
            server.terminate()
            server.wait(timeout=10)
    for k, (latencies, statuses, errors, seconds, rewrites, rss_before, rss_after) in enumerate(rounds, start=1):
        q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [float("nan")] * 99
        print(f"round {k}: requests {len(paths)}, connections {args.connections}, rewrite {args.rewrite} "
              f"({rewrites} chart replacements), {seconds:.1f} s")
        print(f"  errors {sum(errors.values())} {dict(errors)}; statuses {dict(sorted(statuses.items()))}; "
              f"5xx {sum(n for s, n in statuses.items() if s >= 500)}")
        print(f"  latency ms: p50 {q[49]:.1f}, p99 {q[98]:.1f}; server RSS MiB: before {rss_before:.0f}, "
              f"after {rss_after:.0f}")


if __name__ == "__main__":
    main()
