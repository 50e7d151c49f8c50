"""The 169x169 preflop equity table as an object and as files (``equity_169.npz`` and
``.parquet``), apart from the builders in :mod:`pokerlab.equity` so that a solve job loads its
table without importing the evaluator and the builders' kernels.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab import cards as C

PAIR_HERO, PAIR_VILLAIN = (a.astype(np.int64) for a in np.triu_indices(C.N_CLASSES))
N_CLASS_PAIRS = PAIR_HERO.size  # 14,365


def class_pair_index(hero: int, villain: int) -> int:
    """Index in ``PAIR_HERO``/``PAIR_VILLAIN`` (the row-major upper triangle, diagonal included)
    of the unordered pair of class indices {``hero``, ``villain``}; ``ValueError`` outside 0..168."""
    lo, hi = sorted((int(hero), int(villain)))
    if not 0 <= lo <= hi < C.N_CLASSES:
        raise ValueError(f"class indices {hero!r}, {villain!r}: expected 0..{C.N_CLASSES - 1}")
    return lo * C.N_CLASSES - lo * (lo - 1) // 2 + (hi - lo)  # rows 0..lo-1 hold N, N-1, ... pairs


# --- the table object and its files -------------------------------------------------------


@dataclass(frozen=True)
class EquityTable:
    """Showdown win and tie probabilities of every ordered class pair (hero = row).

    ``win[a, b]`` and ``tie[a, b]`` are fractions of deals; ``tie`` is symmetric and
    ``loss[a, b] = win[b, a] = 1 - win[a, b] - tie[a, b]`` (up to rounding of the last bit). ``samples[a, b]`` is the number of deals behind
    the cell (sampled draws, or all (combo, combo, board) deals in exact mode).
    """

    classes: tuple[str, ...]
    win: np.ndarray
    tie: np.ndarray
    samples: np.ndarray

    @property
    def loss(self) -> np.ndarray:
        """Loss probabilities; ``loss[a, b]`` is exactly ``win[b, a]`` (ties are symmetric)."""
        return self.win.T.copy()

    @property
    def equity(self) -> np.ndarray:
        """Chip equity ``win + tie / 2`` (the pot share a hand takes at showdown)."""
        return self.win + 0.5 * self.tie

    def lookup(self, hero: str, villain: str) -> tuple[float, float, float]:
        """(win, tie, loss) of class ``hero`` against class ``villain``."""
        a, b = C.parse_class(hero), C.parse_class(villain)
        return float(self.win[a, b]), float(self.tie[a, b]), float(self.loss[a, b])


@dataclass(frozen=True)
class PairCounts:
    """Raw outcome counts of the 14,365 unordered class pairs (hero = ``PAIR_HERO``)."""

    wins: np.ndarray
    ties: np.ndarray
    losses: np.ndarray

    @property
    def samples(self) -> np.ndarray:
        return self.wins + self.ties + self.losses

    def to_table(self) -> EquityTable:
        """The 169x169 table. Off the diagonal the villain's row mirrors the hero's; on the
        diagonal the two orientations of a same-class pair are averaged, so win == loss there."""
        n = self.samples.astype(np.float64)
        win = np.zeros((C.N_CLASSES, C.N_CLASSES))
        tie = np.zeros_like(win)
        samples = np.zeros((C.N_CLASSES, C.N_CLASSES), dtype=np.int64)
        a, b = PAIR_HERO, PAIR_VILLAIN
        win[a, b] = self.wins / n
        win[b, a] = self.losses / n
        tie[a, b] = tie[b, a] = self.ties / n
        diag = a == b
        win[a[diag], a[diag]] = 0.5 * (self.wins[diag] + self.losses[diag]) / n[diag]
        samples[a, b] = samples[b, a] = self.samples
        return EquityTable(C.CLASS_NAMES, win, tie, samples)


def save_equity_table(counts: PairCounts, npz_path: str | os.PathLike, parquet_path: str | os.PathLike) -> None:
    """Write the table as ``.npz`` (for the solvers) and ``.parquet`` (one row per pair), atomically.

    Both files are byte-reproducible: no timestamps, fixed column order, no compression metadata
    that varies between runs.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    from pokerlab.io import atomic_path

    table = counts.to_table()
    with atomic_path(npz_path) as tmp:
        with open(tmp, "wb") as fh:
            np.savez(
                fh,
                classes=np.array(table.classes),
                win=table.win,
                tie=table.tie,
                samples=table.samples,
            )
    names = np.array(C.CLASS_NAMES)
    arrow = pa.table(
        {
            "hero": pa.array(names[PAIR_HERO].tolist(), pa.string()),
            "villain": pa.array(names[PAIR_VILLAIN].tolist(), pa.string()),
            "wins": pa.array(counts.wins, pa.int64()),
            "ties": pa.array(counts.ties, pa.int64()),
            "losses": pa.array(counts.losses, pa.int64()),
            "samples": pa.array(counts.samples, pa.int64()),
        }
    )
    with atomic_path(parquet_path) as tmp:
        pq.write_table(arrow, tmp, compression="zstd", write_statistics=False)


# SHA-256 of the exact table's float64 win then tie arrays (:func:`table_digest`). That table
# passed the eval7 cross-check of config/config.yaml's 15 pairs with every gap 0 (6.9e-15 pp); the
# slow test test_full_exact_table rebuilds it and checks this digest.
EXACT_TABLES_SHA256 = "afa90fce13f5bb02a7e12fa6598838a4715fcdd34c7a85ded6017e83698c5672"
REBUILD_HINT = "delete it and re-run to rebuild it (rule equity_table)"
TABLE_NAME = "equity_169.npz"  # the workflow's table, which REBUILD_HINT is about


def _hint(path: Path) -> str:
    """How to fix a bad table: rebuild the workflow's own; any other file was given by hand."""
    return REBUILD_HINT if path.name == TABLE_NAME else f"expected an {TABLE_NAME} written by the equity_table rule"
# Facts of hold'em any table must show, with room for sampling error: AA beats every other class,
# and every pair beats every lower pair, each by at least STRONG_EDGE in equity (the closest are
# near 0.80). A table with two classes swapped, or built in another class order, breaks them.
STRONG_EDGE = 0.70
_Z = 6.0  # sampling-error allowance: 6 standard errors of a cell (at most 0.5 / sqrt(samples))


def table_digest(win: np.ndarray, tie: np.ndarray) -> str:
    """SHA-256 of the float64 bytes of the win and tie tables (the tables' content, not the file)."""
    digest = hashlib.sha256()
    for table in (win, tie):
        digest.update(np.ascontiguousarray(table, dtype=np.float64).tobytes())
    return digest.hexdigest()


def _check_strength_order(path: Path, win: np.ndarray, tie: np.ndarray, samples: np.ndarray) -> None:
    """``ValueError`` naming the first class pair whose equity contradicts :data:`STRONG_EDGE`."""
    equity = win + tie / 2
    allowance = _Z * 0.5 / np.sqrt(np.maximum(samples, 1))
    aa = C.CLASS_INDEX["AA"]
    pairs = [C.CLASS_INDEX[r + r] for r in C.GRID_RANKS]  # AA, KK, ... 22
    checks = [(aa, v) for v in range(C.N_CLASSES) if v != aa]
    checks += [(hi, lo) for i, hi in enumerate(pairs) for lo in pairs[i + 1:]]
    for hero, villain in checks:
        if equity[hero, villain] < STRONG_EDGE - allowance[hero, villain]:
            raise ValueError(
                f"equity table {path}: {C.CLASS_NAMES[hero]} has equity {equity[hero, villain]:.3f} against "
                f"{C.CLASS_NAMES[villain]}, but must beat it (at least {STRONG_EDGE}): classes are swapped or the "
                f"table is damaged; {_hint(Path(path))}")


def verify_table(path: str | os.PathLike, mode: str) -> dict[str, str]:
    """What the release rests on: the table loads (with its invariants) and, in ``exact`` mode, is
    the exact table itself (:data:`EXACT_TABLES_SHA256`). Returns a small record for the release."""
    table = load_equity_table(path)
    digest = table_digest(table.win, table.tie)
    if mode == "exact" and digest != EXACT_TABLES_SHA256:
        raise ValueError(f"equity table {path}: tables digest {digest[:16]}... is not the exact table's "
                         f"{EXACT_TABLES_SHA256[:16]}... (equity.mode is exact); {REBUILD_HINT}")
    check = ("the exact table's pinned digest" if mode == "exact"
             else "the loader's invariants only (a sampled table; results/equity/crosscheck.csv gives its gaps)")
    return {"mode": mode, "tables_sha256": digest, "checked_by": check}


def check_existing_table(path: str | os.PathLike) -> None:
    """At workflow load, before any job: if the table exists it must load. A damaged table that is
    newer than the results would otherwise make Snakemake re-run every job that reads it, deleting
    each job's outputs (every ``result.json``) before the job fails on the table."""
    if Path(path).exists():
        load_equity_table(path)


def load_equity_table(path: str | os.PathLike) -> EquityTable:
    """Read ``equity_169.npz``; raise ``ValueError`` naming the file if it is missing or malformed."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"equity table {path}: file not found (build it with the equity_table rule)")
    try:
        with np.load(path, allow_pickle=False) as data:
            classes = tuple(str(x) for x in data["classes"])
            win, tie, samples = data["win"], data["tie"], data["samples"]
    except Exception as exc:  # zip, key or dtype errors all mean a bad file
        raise ValueError(f"equity table {path}: unreadable ({exc}); {_hint(path)}") from None
    if classes != C.CLASS_NAMES:
        raise ValueError(f"equity table {path}: 'classes' is not the 169 classes in pokerlab's order; {_hint(path)}")
    for name, arr in (("win", win), ("tie", tie), ("samples", samples)):
        if arr.shape != (C.N_CLASSES, C.N_CLASSES):
            raise ValueError(f"equity table {path}: '{name}' has shape {arr.shape}, expected (169, 169); {_hint(path)}")
    if not all(np.issubdtype(arr.dtype, np.number) and not np.issubdtype(arr.dtype, np.complexfloating)
               for arr in (win, tie, samples)):
        raise ValueError(f"equity table {path}: 'win', 'tie' and 'samples' must be real numbers; {_hint(path)}")
    if not (np.all(np.isfinite(win)) and np.all(np.isfinite(tie))):
        raise ValueError(f"equity table {path}: 'win' or 'tie' holds a non-finite value; {_hint(path)}")
    if win.min() < 0 or tie.min() < 0 or (win + tie).max() > 1 + 1e-12:
        raise ValueError(f"equity table {path}: probabilities outside [0, 1]; {_hint(path)}")
    if not np.allclose(win, (1.0 - win - tie).T, atol=1e-12, rtol=0):
        raise ValueError(f"equity table {path}: win[a, b] != loss[b, a]; {_hint(path)}")
    _check_strength_order(path, win, tie, samples)
    return EquityTable(classes, win.astype(np.float64), tie.astype(np.float64), samples.astype(np.int64))
