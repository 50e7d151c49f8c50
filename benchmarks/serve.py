"""Serving speed: ``pokerlab serve`` start-up, node-document latency and document size.

Starts ``python -m pokerlab.cli serve RESULTS_DIR --port 0`` in a fresh process and measures
the wall time from launch until the API answers ``/api/v1/sets`` (import, catalogue, bind),
and the CPU seconds the server process used until then (less sensitive to a busy machine).
Then over HTTP (one keep-alive connection, like a browser's) it requests node documents:
for each chart set, its root and up to ``--nodes`` further decision nodes, and every node of
every pack spot (up to ``--nodes``). Each document is fetched cold (first request: the
server reads the chart and builds the document) and then ``--repeat`` times warm (served
from the server's cache), and once with its ETag (a 304). Prints per chart set / pack spot:
documents, cold and warm latency (median and max, ms), 304 latency, and document size
(median and max, KiB of JSON); and the machine's load average before and after.

    .venv/bin/python benchmarks/serve.py results                 # the quick release, say
    .venv/bin/python benchmarks/serve.py results --nodes 40 --repeat 20
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import time


def get(conn: http.client.HTTPConnection, path: str, etag: str | None = None) -> tuple[int, bytes, str, float]:
    headers = {"If-None-Match": etag} if etag else {}
    start = time.perf_counter()
    conn.request("GET", path, headers=headers)
    r = conn.getresponse()
    body = r.read()
    return r.status, body, r.getheader("ETag") or "", 1000 * (time.perf_counter() - start)


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (Linux /proc; NaN elsewhere)."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


def measure(conn, paths: list[str], repeat: int) -> dict:
    cold, warm, not_modified, sizes = [], [], [], []
    for path in paths:
        status, body, etag, ms = get(conn, path)
        if status != 200:
            raise SystemExit(f"{path}: HTTP {status} {body[:200]!r}")
        cold.append(ms)
        sizes.append(len(body) / 1024)
        warm.extend(get(conn, path)[3] for _ in range(repeat))
        not_modified.append(get(conn, path, etag)[3])
    return {"docs": len(paths), "cold": cold, "warm": warm, "304": not_modified, "kib": sizes}


def line(name: str, m: dict) -> str:
    med = statistics.median
    return (f"{name:<34} {m['docs']:>4} docs  cold {med(m['cold']):6.1f} ms (max {max(m['cold']):6.1f})  "
            f"warm {med(m['warm']):5.2f} ms (max {max(m['warm']):5.1f})  304 {med(m['304']):5.2f} ms  "
            f"size {med(m['kib']):6.1f} KiB (max {max(m['kib']):6.1f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results_dir", help="a results folder with charts/ (and packs/)")
    parser.add_argument("--nodes", type=int, default=20, help="documents per chart set / pack spot (default 20)")
    parser.add_argument("--repeat", type=int, default=10, help="warm requests per document (default 10)")
    args = parser.parse_args()

    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    launched = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "pokerlab.cli", "serve", args.results_dir, "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", first)
        if not match:
            raise SystemExit(f"serve did not start: {first!r} {proc.stderr.read()}")
        conn = http.client.HTTPConnection("127.0.0.1", int(match.group(1)), timeout=30)
        status, body, _, _ = get(conn, "/api/v1/sets")
        startup = time.perf_counter() - launched
        cpu = process_cpu_seconds(proc.pid)
        sets = json.loads(body)
        print(f"start-up: {startup:.2f} s wall from launch to the first answer, {cpu:.2f} s CPU of the server "
              f"process ({len(sets['chart_sets'])} chart set(s), {len(sets['packs'])} pack(s))")
        for chart in sets["chart_sets"]:
            nodes = json.loads(get(conn, f"/api/v1/charts/{chart['id']}/nodes")[1])["nodes"]
            paths = [f"/api/v1/charts/{chart['id']}/nodes/{n['node_path']}" for n in nodes[: args.nodes]]
            print(line(chart["id"], measure(conn, paths, args.repeat)))
        for pack in sets["packs"]:
            for spot in pack["spots"]:
                base = f"/api/v1/packs/{pack['id']}/spots/{spot['family_id']}/nodes"
                nodes = json.loads(get(conn, base)[1])["nodes"]
                paths = [f"{base}/{p}" for p in nodes[: args.nodes]]
                print(line(f"{pack['id']}/{spot['family_id']}", measure(conn, paths, args.repeat)))
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
