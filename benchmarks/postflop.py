"""Postflop solver speed: seconds and peak memory to a target exploitability on three trees.

The trees are the reference ones (pot 100, stack 200, bet 50%, raise 100%, all-in; the ranges
of the reference solves) from a river, a turn and a flop root, and two wide flops (below). Each case runs in a fresh
process (after a warm-up solve that loads Numba's compiled code) so its peak resident memory
is its own, with ``--threads`` Numba threads (the dealt subtrees of the root street are
walked in parallel; results are the same for any thread count). Prints one line per case:
threads, iterations, wall seconds (solve plus exploitability checks), CPU seconds of the
process over the same span (CPU / wall near the thread count means the threads had their
cores), exploitability reached, each player's range EV (share of the pot, % of the pot), the
solver's state (regrets, strategy sums and their scales) and its showdown tables and run-out
matrices in MiB, and the process's peak RSS in MiB; and the machine's load average before and
after (other work on the cores slows the wall time). ``--compression`` stores the state in 16
bits (``PostflopSolver(compression=True)``).

Then one line per case breaks the process's time into phases: start-up (importing the solver,
and the resident memory after it), loading the compiled code (the warm-up solve), building
the solver (tree, showdown tables, run-out matrices), training (of which the root street's
serial passes, and each thread's busy time in the dealt subtrees with its number of jobs:
unequal busy times mean a thread waited for the other), the exploitability checks and the
read-out (``result()``, not in the table's seconds). Busy times are wall-clock ticks, so a
thread descheduled by other work counts as busy.

    .venv/bin/python benchmarks/postflop.py                 # river, turn, flop to 0.05% pot
    .venv/bin/python benchmarks/postflop.py --threads 1     # single thread
    .venv/bin/python benchmarks/postflop.py --cases river turn --target 0.05
    .venv/bin/python benchmarks/postflop.py --cases flop --max-iterations 100
    .venv/bin/python benchmarks/postflop.py --cases wide --target 0.5   # BTN vs BB, ~450 combos each
    .venv/bin/python benchmarks/postflop.py --cases wide2 --target 0.5 --compression  # two bet sizes
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

IP_RANGE = "AA,KK,QQ,JJ,AK,AQs,KQ,QJs,JTs,T9s,98s,A5s"
OOP_RANGE = "QQ:0.5,JJ,TT,99,88,AQ,AJs,KQs,KJs,QTs,JTs,T9s,87s,76s"
CASES = {"river": ("QsJh2h8d3c", 0.67), "turn": ("QsJh2h8d", 1.0), "flop": ("QsJh2h", 1.0)}
# "wide": a single-raised pot, BTN open (~500 combos) vs BB call (~490), 100bb deep,
# one bet size (50%) and all-in per street, no raise sizes (all-in only); its target is 0.5%.
# "wide2": the same with two bet sizes (33% and 75%) and all-in per street.
WIDE_BTN = "22+,A2s+,K2s+,Q4s+,J6s+,T6s+,96s+,85s+,75s+,64s+,54s,A5o+,K9o+,Q9o+,J9o+,T9o"
WIDE_BB = "22-99,A2s-AJs,K2s-KJs,Q5s+,J7s+,T7s+,97s+,86s+,75s+,64s+,53s+,A2o-AJo,K8o+,Q9o+,J9o+,T9o,98o"


def case_spot(name: str):
    """The :class:`~pokerlab.postflop.game.PostflopSpot` of case ``name``."""
    from pokerlab.cards import parse_cards
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.ranges import Range

    if name in ("wide", "wide2"):
        bets = (50,) if name == "wide" else (33, 75)
        return PostflopSpot(5.5, 97.5, tuple(parse_cards("QsJh2h")), Range.parse(WIDE_BB).weights,
                            Range.parse(WIDE_BTN).weights, BetTree.uniform(bets, (), True))
    board, threshold = CASES[name]
    return PostflopSpot(100.0, 200.0, tuple(parse_cards(board)), Range.parse(OOP_RANGE).weights,
                        Range.parse(IP_RANGE).weights, BetTree.uniform((50,), (100,), True, threshold))


def run_case(name: str, target: float, max_iterations: int, check_every: int, compression: bool) -> dict:
    start = time.perf_counter()
    import numba

    from pokerlab.cards import parse_cards
    from pokerlab.postflop.arrays import table_bytes
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver, ticks_per_second

    startup = time.perf_counter() - start
    startup_rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    spot = case_spot(name)
    warm = PostflopSolver(PostflopSpot(100.0, 200.0, tuple(parse_cards("QsJh2h8d3c")), spot.oop_range,
                                       spot.ip_range, BetTree.uniform((50,), (100,), True)), compression=compression)
    load = time.perf_counter()
    warm.solve(1.0, 20, 10)  # compile / load the Numba code outside the timing
    warm.result()
    load = time.perf_counter() - load
    build = time.perf_counter()
    solver = PostflopSolver(spot, max_memory_mb=2**20, compression=compression)
    build = time.perf_counter() - build
    cpu = time.process_time()
    pct = solver.solve(target, max_iterations, check_every)
    cpu = time.process_time() - cpu
    result = solver.result()
    rate = ticks_per_second()
    threads = numba.get_num_threads()
    return {
        "case": name,
        "threads": numba.get_num_threads(),
        "iterations": solver.iterations,
        "seconds": solver.seconds,
        "cpu_seconds": cpu,
        "exploitability_pct_pot": pct,
        "range_ev_pct_pot": [100.0 * result.players[p].range_ev / spot.pot for p in ("oop", "ip")],
        "state_mib": (solver.memory_bytes - table_bytes(solver._game)) / 2**20,
        "tables_mib": table_bytes(solver._game) / 2**20,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "phases": {
            "startup": startup, "startup_rss_mib": startup_rss, "load": load, "build": build,
            "runout_matrices": solver.build_seconds["runout matrices"], **solver.phase_seconds,
            "root_street": solver.ticks[0, 0] / rate,
            "thread_busy": (solver.ticks[1:threads + 1, 0] / rate).tolist(),
            "thread_jobs": solver.ticks[1:threads + 1, 1].tolist(),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES) + ["wide", "wide2"],
                        default=["river", "turn", "flop"])
    parser.add_argument("--target", type=float, default=0.05, help="exploitability target, %% of pot")
    parser.add_argument("--max-iterations", type=int, default=3000)
    parser.add_argument("--check-every", type=int, default=10, help="iterations before the first measurement")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="Numba threads (default: all cores)")
    parser.add_argument("--compression", action="store_true", help="16-bit regrets and strategy sums")
    parser.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one case, print JSON
    args = parser.parse_args()
    if args.one:
        print(json.dumps(run_case(args.one, args.target, args.max_iterations, args.check_every, args.compression)))
        return
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; compression {args.compression}")
    print(f"{'case':<6} {'threads':>7} {'iters':>6} {'seconds':>9} {'cpu s':>9} {'% pot':>8} {'EV oop %':>10} "
          f"{'EV ip %':>10} {'state MiB':>10} {'tables MiB':>10} {'peak RSS MiB':>13}")
    phases = []
    for name in args.cases:
        out = subprocess.run(
            [sys.executable, __file__, "--one", name, "--target", str(args.target),
             "--max-iterations", str(args.max_iterations), "--check-every", str(args.check_every)]
            + (["--compression"] if args.compression else []),
            check=True, capture_output=True, text=True, env={**os.environ, "NUMBA_NUM_THREADS": str(args.threads)},
        )
        r = json.loads(out.stdout.strip().splitlines()[-1])
        print(f"{r['case']:<6} {r['threads']:>7} {r['iterations']:>6} {r['seconds']:>9.3f} {r['cpu_seconds']:>9.3f} "
              f"{r['exploitability_pct_pot']:>8.4f} {r['range_ev_pct_pot'][0]:>10.5f} {r['range_ev_pct_pot'][1]:>10.5f} "
              f"{r['state_mib']:>10.1f} {r['tables_mib']:>10.1f} {r['peak_rss_mib']:>13.0f}", flush=True)
        phases.append((name, r["phases"]))
    print(f"load average {os.getloadavg()[0]:.2f}")
    print("phases (seconds):")
    for name, p in phases:
        busy = " / ".join(f"{b:.3f}" for b in p["thread_busy"])
        jobs = " / ".join(str(j) for j in p["thread_jobs"])
        print(f"{name:<6} start-up {p['startup']:.2f} ({p['startup_rss_mib']:.0f} MiB), load {p['load']:.2f}, "
              f"build {p['build']:.3f} (run-out matrices {p['runout_matrices']:.3f}), train {p['train']:.3f} "
              f"(root street {p['root_street']:.3f}; per thread busy {busy}, jobs {jobs}), "
              f"exploitability {p['exploitability']:.3f}, read-out {p['read-out']:.3f}")


if __name__ == "__main__":
    main()
