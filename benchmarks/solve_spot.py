"""Benchmark the preflop CFR+ solve: seconds per iteration, seconds to the bar, peak memory.

    .venv/bin/python benchmarks/solve_spot.py                   # the default spot list
    .venv/bin/python benchmarks/solve_spot.py --spots cash/6max/100bb --skip-bar
    OPENBLAS_NUM_THREADS=2 .venv/bin/python benchmarks/solve_spot.py ...
    .venv/bin/python benchmarks/solve_spot.py --spots cash/9max/200bb --sizing src/pokerlab/data/sizing-second-3bet.yaml

Each spot runs in a fresh subprocess (so peak RSS is its own). The equity table is
``results/equity/equity_169.npz`` when present, else a seeded 2,000-draw sampled table (speed
does not depend on the table's values). The figure "to the bar" runs the real schedule (400,
1,200, 3,000 iterations, exploitability measured at each) from a cold start, tree building
included. The floor is a model: the bytes each iteration must read and write (each seat's reach,
strategy, action values, regrets and averages on its own edges, its payoff terms and the table
columns) divided by the measured copy bandwidth of this machine, plus the table products
(2 x m flops per nonzero q entry per table: the products skip the classes a column's seat never
plays there) divided by the measured speed of that product here. 'q nz' is the share of nonzero
q entries after the timed iterations (it falls as regret matching+ zeroes actions out).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

DEFAULT_SPOTS = ["cash/2max/20bb", "cash/2max/100bb", "cash/6max/20bb", "cash/6max/100bb", "cash/9max/20bb",
                 "cash/9max/100bb", "mtt/6max/20bb", "icm_final/6max/20bb", "cash/9max/200bb"]
TABLE = Path("results/equity/equity_169.npz")


def _table():
    from pokerlab.equity import load_equity_table, sampled_equity_table

    return (load_equity_table(TABLE), str(TABLE)) if TABLE.is_file() else (sampled_equity_table(2000, 7), "sampled 2000/7")


def _bytes_per_iteration(solver) -> int:
    """Modelled memory traffic of one iteration (float64 arrays, read + write)."""
    m, tables, total = solver.n_classes, len(solver._tables_t), 0
    for seat in range(solver.n_seats):
        edges = solver._edge_node[seat].size
        terms = solver._seat_terms[seat]["node"].size
        total += 3 * edges * m  # forward pass: parent reach and strategy read, reach written
        total += edges * m + (tables + 1) * terms * m  # region values written, each term reads its column(s)
        total += 3 * edges * m  # decisions: strategy and action values read, region value updated
        total += 7 * edges * m  # update: regrets and sums read + written, strategy read + written, values read
        total += (1 + 2 * tables) * solver._seat_column_range[seat].size * m  # q written, read and columns written
    return 8 * total


def _table_flops(solver) -> tuple[int, float]:
    """Floating-point operations of the table products of one iteration at the current
    strategies, and the share of nonzero q entries they run on (the products skip the zeros:
    :func:`pokerlab.preflop.kernels.sparse_products`)."""
    import numpy as np

    from pokerlab.preflop.kernels import gather_weighted

    nonzero = 0
    for seat in range(solver.n_seats):
        cols = solver._seat_column_range[seat]
        q = np.zeros((cols.size, solver.n_classes))
        gather_weighted(solver._inputs.own_reach, solver.column_seat[cols], solver._column_row[cols], solver.prior, q)
        nonzero += int(np.count_nonzero(q))
    density = nonzero / max(solver.column_node.size * solver.n_classes, 1)
    return 2 * nonzero * solver.n_classes * len(solver._tables_t), density


def _product_rate() -> float:
    """Flops per second of the table product on this machine: a 4096 x 169 q with 5% nonzero
    entries times a 169 x 169 table, counting the nonzero entries' work only."""
    import numpy as np

    from pokerlab.preflop.kernels import sparse_products

    rng = np.random.default_rng(0)
    q = rng.uniform(size=(4096, 169)) * (rng.uniform(size=(4096, 169)) < 0.05)
    table, out = np.ones((169, 169)), np.empty((4096, 169))
    sparse_products(q, table, out)  # compile
    best = float("inf")
    for _ in range(5):
        t0 = time.perf_counter()
        sparse_products(q, table, out)
        best = min(best, time.perf_counter() - t0)
    return 2 * np.count_nonzero(q) * 169 / best


def _copy_bandwidth() -> float:
    import numpy as np

    a = np.ones(32_000_000)
    b = np.empty_like(a)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        np.copyto(b, a)
        best = min(best, time.perf_counter() - t0)
    return 2 * a.nbytes / best  # bytes read + written per second


def run_one(name: str, iterations: int, skip_bar: bool, sizing_path: str | None = None) -> dict:
    from pokerlab.preflop.payoffs import PostflopModel
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.preflop.solver_icm import make_solver
    from pokerlab.preflop.spot import load_sizing, parse_spot_name
    from pokerlab.preflop.tree import build_tree

    spot = parse_spot_name(name)
    table, source = _table()
    sizing = load_sizing(sizing_path)
    t0 = time.perf_counter()
    tree = build_tree(spot, sizing)
    t_tree = time.perf_counter() - t0
    solver, _ = make_solver(tree, PostflopModel(), table.win, table.tie)
    solver.iterate(2)  # compile and warm up
    t0, c0 = time.perf_counter(), time.process_time()
    solver.iterate(iterations)
    per_iteration = (time.perf_counter() - t0) / iterations
    cpu_per_iteration = (time.process_time() - c0) / iterations
    t0 = time.perf_counter()
    solver.exploitability()
    t_exploit = time.perf_counter() - t0
    out = {"spot": spot.name, "nodes": tree.n_nodes, "tree_s": t_tree, "s_per_iteration": per_iteration,
           "cpu_s_per_iteration": cpu_per_iteration,
           "exploitability_s": t_exploit, "bytes_per_iteration": _bytes_per_iteration(solver),
           "table": source}
    out["table_flops"], out["q_density"] = _table_flops(solver)
    if not skip_bar:
        t0, c0 = time.perf_counter(), time.process_time()
        result = solve_spot(spot, sizing, table.win, table.tie, SolveSettings())
        out.update(to_bar_s=time.perf_counter() - t0, cpu_to_bar_s=time.process_time() - c0,
                   status=result["status"], iterations=result["iterations"],
                   exploitability_bb=result["exploitability_bb"], bar_bb=result["bar_bb"],
                   model_share=result["model_share"])
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--spots", nargs="*", default=DEFAULT_SPOTS, help="spots as format/NNmax/DEPTHbb")
    parser.add_argument("--iterations", type=int, default=30, help="iterations timed for s/iteration")
    parser.add_argument("--skip-bar", action="store_true", help="only time iterations, do not solve to the bar")
    parser.add_argument("--sizing", help="sizing schedule (default src/pokerlab/data/sizing.yaml)")
    parser.add_argument("--one", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_one(args.one, args.iterations, args.skip_bar, args.sizing)))
        return
    bandwidth, product_rate = _copy_bandwidth(), _product_rate()
    print(f"copy bandwidth {bandwidth / 1e9:.1f} GB/s (read + write), table product {product_rate / 1e9:.1f} GFlop/s "
          "on its nonzero entries; machine shared with other work")
    print(f"sizing: {args.sizing or 'src/pokerlab/data/sizing.yaml'}")
    print("ms/it and 'to bar' are wall-clock; 'cpu' columns are this process's CPU time (less sensitive to sharing)")
    print(f"{'spot':<22}{'nodes':>7}{'tree s':>7}{'ms/it':>8}{'cpu ms/it':>10}{'floor ms/it':>12}{'q nz':>6}{'expl s':>8}"
          f"{'to bar s':>9}{'cpu s':>7}{'its':>6}"
          f"{'exploit bb':>12}{'bar':>8}{'model':>7}{'peak MB':>9}")
    for name in args.spots:
        cmd = [sys.executable, __file__, "--one", name, "--iterations", str(args.iterations)]
        cmd += ["--skip-bar"] if args.skip_bar else []
        cmd += ["--sizing", args.sizing] if args.sizing else []
        r = json.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])
        floor = (r["bytes_per_iteration"] / bandwidth + r["table_flops"] / product_rate) * 1e3
        bar = (f"{r['to_bar_s']:>9.1f}{r['cpu_to_bar_s']:>7.1f}{r['iterations']:>6}{r['exploitability_bb']:>12.5f}{r['bar_bb']:>8.4f}"
               f"{r['model_share']:>7.3f}" if "to_bar_s" in r else f"{'-':>9}{'-':>7}{'-':>6}{'-':>12}{'-':>8}{'-':>7}")
        print(f"{r['spot']:<22}{r['nodes']:>7}{r['tree_s']:>7.2f}{r['s_per_iteration'] * 1e3:>8.1f}"
              f"{r['cpu_s_per_iteration'] * 1e3:>10.1f}{floor:>12.1f}{r['q_density']:>6.3f}"
              f"{r['exploitability_s']:>8.2f}{bar}{r['peak_rss_mb']:>9.0f}", flush=True)


if __name__ == "__main__":
    main()
