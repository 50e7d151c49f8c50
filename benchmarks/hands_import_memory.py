"""Peak memory and time of ``pokerlab hands import FILE --out DIR`` on a generated PokerStars export.

The export is written from one hand-built six-handed cash hand (a raise, a call, bets on the
flop and turn, a fold), repeated with increasing hand numbers and a clock that advances 30 s
per hand, until the file reaches the asked size: every hand is distinct by site and hand id,
so all are imported. The import runs in a child process; its peak resident size is
``getrusage(RUSAGE_CHILDREN).ru_maxrss``, its time the wall clock around it.

    python benchmarks/hands_import_memory.py --mb 20 --work /tmp/hands-import
    python benchmarks/hands_import_memory.py --mb 200 --work /tmp/hands-import

Prints one line: file size, hands, peak RSS (MB), wall seconds, and the rows of both tables.
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

HAND = """PokerStars Hand #{number}:  Hold'em No Limit ($0.01/$0.02 USD) - {clock} ET
Table 'Benchmark' 6-max Seat #3 is the button
Seat 1: alice ($2 in chips)
Seat 2: frank ($1.10 in chips)
Seat 3: bob ($1.50 in chips)
Seat 4: carol ($2.40 in chips)
Seat 5: dave ($0.80 in chips)
Seat 6: erin ($2 in chips)
carol: posts small blind $0.01
dave: posts big blind $0.02
*** HOLE CARDS ***
erin: folds
alice: raises $0.04 to $0.06
frank: folds
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
Seat 2: frank folded before Flop (didn't bet)
Seat 3: bob (button) folded before Flop (didn't bet)
Seat 4: carol (small blind) folded on the Turn
Seat 5: dave (big blind) folded before Flop
Seat 6: erin folded before Flop (didn't bet)



"""


def write_export(path: Path, megabytes: float) -> int:
    """Write the export (``megabytes`` MB, 10^6 bytes) and return its number of hands."""
    start = datetime(2026, 1, 1)
    target = int(megabytes * 1_000_000)
    written = hands = 0
    with path.open("w", newline="\n") as out:
        while written < target:
            clock = (start + timedelta(seconds=30 * hands)).strftime("%Y/%m/%d %H:%M:%S")
            text = HAND.format(number=300_000_000_000 + hands, clock=clock)
            out.write(text)
            written += len(text.encode())
            hands += 1
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, required=True, help="size of the generated export, MB")
    parser.add_argument("--work", required=True, help="folder for the export and the tables")
    args = parser.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)
    export = work / f"export-{args.mb:g}mb.txt"
    hands = write_export(export, args.mb)
    out = work / f"tables-{args.mb:g}mb"
    wall = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "pokerlab.cli", "hands", "import", str(export), "--out", str(out)],
                         capture_output=True, text=True)
    wall = time.perf_counter() - wall
    if run.returncode != 0:
        sys.exit(run.stderr)
    peak_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # Linux reports KiB
    import pyarrow.parquet as pq

    rows = {name: pq.ParquetFile(out / f"{name}.parquet").metadata.num_rows for name in ("hands", "decisions")}
    print(f"{export.stat().st_size / 1e6:.1f} MB, {hands} hands: peak RSS {peak_mb:.0f} MB, {wall:.0f} s; "
          f"hands.parquet {rows['hands']} rows, decisions.parquet {rows['decisions']} rows")


if __name__ == "__main__":
    main()
