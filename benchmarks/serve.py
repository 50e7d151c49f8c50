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

``--write-packs`` measures packs instead (no server): it solves the reference trees (pot 100,
stack 200, bet 50%, raise 100%, all-in; the narrow ranges of ``tests/data/postflop``) from the
turn ``QsJh2h8d`` and the flop ``QsJh2h`` with suit isomorphism off, and writes each as a
root-tier and a tree-tier pack (eager, and for the flop lazy), printing documents, bytes on disk
and write seconds. The flop's eager tree tier is measured on its root street plus the first
``--flop-cards`` turn cards (every node after them, rivers included) and projected to all 49
turn cards (one pack file per card). ``wide`` is a fit job's spot written as the fit writes it.

    .venv/bin/python benchmarks/serve.py --write-packs turn flop wide --flop-cards 1
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
import tempfile
import time
from pathlib import Path

IP_RANGE = "AA,KK,QQ,JJ,AK,AQs,KQ,QJs,JTs,T9s,98s,A5s"
OOP_RANGE = "QQ:0.5,JJ,TT,99,88,AQ,AJs,KQs,KJs,QTs,JTs,T9s,87s,76s"
BOARDS = {"turn": "QsJh2h8d", "flop": "QsJh2h", "wide": "QsJh2h"}
# "wide": a fit job's kind of spot, BTN open (~500 combos) vs BB call (~490) on a flop, 100bb deep,
# the fit's default bet tree (config/config.yaml); solved as the fit solves (suit isomorphism on)
# and written as the fit writes it: the root tier only.
WIDE_BTN = "22+,A2s+,K2s+,Q4s+,J6s+,T6s+,96s+,85s+,75s+,64s+,54s,A5o+,K9o+,Q9o+,J9o+,T9o"
WIDE_BB = "22-99,A2s-AJs,K2s-KJs,Q5s+,J7s+,T7s+,97s+,86s+,75s+,64s+,53s+,A2o-AJo,K8o+,Q9o+,J9o+,T9o,98o"


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


def _dir_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def read_lazy(pack_dir: Path, n: int) -> None:
    """Time documents built on request from a lazy pack: the solver's rebuild, then up to ``n``
    documents of the street after the first card of the first deal, then of the street after
    that (rivers of a flop root)."""
    from pokerlab.serve.pack import Pack

    pack = Pack(pack_dir)
    (family,) = pack.spots
    start = time.perf_counter()
    pack.lazy_spot(family)
    print(f"       lazy: {time.perf_counter() - start:.2f} s to read the state and rebuild the solver (once per spot)")
    timed: dict[str, list[float]] = {}
    deals = pack.spots[family]["deals"]
    while deals:
        chance, cards = next(iter(deals.items()))
        street = pack.street(family, f"{chance}.{cards[0]}")
        for path in street["nodes"][:n]:
            start = time.perf_counter()
            doc = pack.document(family, path)
            timed.setdefault(doc["street"], []).append(1000 * (time.perf_counter() - start))
        deals = street["deals"]
    for name, ms in timed.items():
        print(f"       lazy {name} documents: first {ms[0]:.0f} ms, then median {statistics.median(ms[1:] or ms):.0f} ms "
              f"(max {max(ms[1:] or ms):.0f}) over {len(ms)}")


def write_packs(cases: list[str], target: float, max_iterations: int, flop_cards: int, lazy_documents: int) -> None:
    """Pack sizes and write times of the reference trees (see the module docstring)."""
    from pokerlab.cards import parse_cards
    from pokerlab.io import compact_json_bytes
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.nodes import after_deal, street_nodes
    from pokerlab.postflop.solver import PostflopSolver
    from pokerlab.ranges import Range
    from pokerlab.serve.documents import COMBO_IDS, postflop_document
    from pokerlab.serve.pack import pack_spot, solve_settings, write_pack

    from pokerlab.postflop.game import StreetActions

    for case in cases:
        if case == "wide":
            street = lambda size: (StreetActions((size,), (), True),) * 2  # noqa: E731
            tree = BetTree((street(66), street(75), street(75)), allin_threshold=0.67, raise_cap=1)
            spot = PostflopSpot(5.5, 97.5, tuple(parse_cards(BOARDS[case])), Range.parse(WIDE_BB).weights,
                                Range.parse(WIDE_BTN).weights, tree)
        else:
            spot = PostflopSpot(100.0, 200.0, tuple(parse_cards(BOARDS[case])), Range.parse(OOP_RANGE).weights,
                                Range.parse(IP_RANGE).weights, BetTree.uniform((50,), (100,), True))
        solver = PostflopSolver(spot, isomorphism=case == "wide")
        start = time.perf_counter()
        pct = solver.solve(target, max_iterations)
        print(f"{case} {BOARDS[case]}: solved to {pct:.3f}% of the pot in {solver.iterations} iterations, "
              f"{time.perf_counter() - start:.1f} s")
        with tempfile.TemporaryDirectory(prefix="pokerlab-packs-") as tmp:
            for tier in ("root", "tree", "lazy"):
                if (case == "flop" and tier == "tree") or (case == "wide" and tier != "root"):
                    continue
                start = time.perf_counter()
                index = write_pack(Path(tmp) / tier, [pack_spot(solver, target, tier=tier.replace("lazy", "tree"),
                                                               lazy=tier == "lazy")])
                seconds = time.perf_counter() - start
                size = _dir_bytes(Path(tmp) / tier)
                docs = len(index["spots"][0]["nodes"])
                per = "" if tier == "lazy" else (f" ({1000 * seconds / docs:.1f} ms and {size / docs / 1024:.1f} KiB "
                                                 "per document)")
                stored = " stored (the root street; the spot and strategy sums for the rest)" if tier == "lazy" else ""
                print(f"  {tier:<4} tier: {docs:>7} documents{stored}, {size / 2**20:8.2f} MiB, {seconds:7.1f} s to build, "
                      f"check and write{per}")
                if tier == "lazy":
                    read_lazy(Path(tmp) / tier, lazy_documents)
        if case == "flop":  # the eager tree tier, measured on a few turn cards and projected
            hands = [[COMBO_IDS[int(c)] for c in h] for h in solver.hands]
            settings, xpl = solve_settings(solver, target), solver.exploitability()
            start = time.perf_counter()
            nodes, chance = street_nodes(solver)
            path_of: dict = {(): "root"}
            docs = [postflop_document(solver, r, "flop", settings, 1.0, hands, xpl, path_of, "tree") for r in nodes]
            size = len(compact_json_bytes(docs))
            root_s, root_n, root_b = time.perf_counter() - start, len(docs), size
            cards = chance[0].cards(solver)[:flop_cards]
            per_card_s, per_card_n, per_card_b = [], [], []
            for card in cards:
                start = time.perf_counter()
                docs = []
                stack = []
                for point in chance:
                    turn, rivers = after_deal(solver, point, card)
                    docs += [postflop_document(solver, r, "flop", settings, 1.0, hands, xpl, path_of, "tree") for r in turn]
                    stack += rivers
                for point in stack:
                    for river_card in point.cards(solver):
                        nodes, _ = after_deal(solver, point, river_card)
                        docs += [postflop_document(solver, r, "flop", settings, 1.0, hands, xpl, path_of, "tree")
                                 for r in nodes]
                per_card_b.append(len(compact_json_bytes(docs)))
                per_card_n.append(len(docs))
                per_card_s.append(time.perf_counter() - start)
            n_cards = len(chance[0].cards(solver))
            mean = lambda xs: sum(xs) / len(xs)
            print(f"  tree tier after {len(cards)} of {n_cards} turn cards: {mean(per_card_n):.0f} documents, "
                  f"{mean(per_card_b) / 2**20:.1f} MiB, {mean(per_card_s):.1f} s per turn card (documents built, not "
                  f"schema-checked or written)")
            print(f"  tree tier projected: {root_n + n_cards * mean(per_card_n):.0f} documents, "
                  f"{(root_b + n_cards * mean(per_card_b)) / 2**30:.2f} GiB, "
                  f"{(root_s + n_cards * mean(per_card_s)) / 60:.0f} min")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results_dir", nargs="?", help="a results folder with charts/ (and packs/)")
    parser.add_argument("--write-packs", nargs="+", choices=sorted(BOARDS), help="measure packs instead (no server)")
    parser.add_argument("--lazy-documents", type=int, default=20,
                        help="with --write-packs: documents read from the lazy pack, timed (default 20)")
    parser.add_argument("--target", type=float, default=0.3, help="with --write-packs: solve target, %% of pot")
    parser.add_argument("--max-iterations", type=int, default=300, help="with --write-packs: iteration limit")
    parser.add_argument("--flop-cards", type=int, default=2, help="with --write-packs flop: turn cards measured")
    parser.add_argument("--nodes", type=int, default=20, help="documents per chart set / pack spot (default 20)")
    parser.add_argument("--repeat", type=int, default=10, help="warm requests per document (default 10)")
    args = parser.parse_args()
    if args.write_packs:
        print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        write_packs(args.write_packs, args.target, args.max_iterations, args.flop_cards, args.lazy_documents)
        print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        return 0
    if not args.results_dir:
        parser.error("give RESULTS_DIR, or --write-packs")

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
