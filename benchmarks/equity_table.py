"""Wall time of the 169x169 equity table on this machine's cores: sampled and exact.

    python benchmarks/equity_table.py [--samples 60000] [--threads 2] [--skip-exact]

Compilation is excluded (a warm-up call runs first). The sampled figure is the whole
14,365-pair table at ``--samples`` draws per pair; the exact figure enumerates every board for
every non-colliding combo pair (134,459 suit-isomorphic boards).
"""

from __future__ import annotations

import argparse
import time

import numba
import numpy as np

from pokerlab import equity as E


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=60_000)
    parser.add_argument("--seed", type=int, default=20260801)
    parser.add_argument("--threads", type=int, default=numba.config.NUMBA_NUM_THREADS)
    parser.add_argument("--skip-exact", action="store_true")
    args = parser.parse_args()
    numba.set_num_threads(args.threads)
    E.sample_pair_counts(10, args.seed, np.arange(4))  # compile
    keys, weights = E.canonical_boards()
    E.exact_pair_counts(keys[:2], weights[:2])  # compile

    t0 = time.perf_counter()
    E.sample_pair_counts(args.samples, args.seed)
    sampled = time.perf_counter() - t0
    deals = E.N_CLASS_PAIRS * args.samples
    print(f"threads {args.threads}")
    print(f"sampled table, {args.samples:,} per pair: {sampled:7.1f} s  ({deals / sampled / 1e6:.1f} M deals/s)")
    if not args.skip_exact:
        t0 = time.perf_counter()
        E.exact_pair_counts()
        exact = time.perf_counter() - t0
        print(f"exact table (all boards, all combo pairs): {exact:7.1f} s")


if __name__ == "__main__":
    main()
