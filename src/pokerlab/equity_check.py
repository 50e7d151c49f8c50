"""Cross-check of the equity table against exact enumeration with an independent evaluator.

For each configured class pair, every non-colliding (hero combo, villain combo) pair is
enumerated over all C(48,5) = 1,712,304 boards with **eval7** (a C evaluator that shares no
code with ``pokerlab.evaluator``). Combo pairs related by a suit permutation have identical
counts, so one representative per orbit is enumerated and weighted by the orbit size
(``pokerlab.equity.combo_pair_orbits``); the result equals the plain average over combo pairs.
"""

from __future__ import annotations

import itertools
import math
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

import numpy as np
import pandas as pd

from pokerlab import cards as C
from pokerlab.equity import EquityTable, combo_pair_orbits


def eval7_enumerate_boards(hero: tuple[int, int], villain: tuple[int, int]) -> tuple[int, int, int]:
    """Exact (wins, ties, boards) of two specific hands over all 5-card boards, by eval7."""
    import eval7

    deck = {c: eval7.Card(C.card_str(c)) for c in range(C.N_CARDS)}
    h = [deck[c] for c in hero]
    v = [deck[c] for c in villain]
    rest = [deck[c] for c in range(C.N_CARDS) if c not in (*hero, *villain)]
    evaluate = eval7.evaluate
    wins = ties = boards = 0
    for board in itertools.combinations(rest, 5):
        board = list(board)
        hs, vs = evaluate(board + h), evaluate(board + v)
        if hs > vs:
            wins += 1
        elif hs == vs:
            ties += 1
        boards += 1
    return wins, ties, boards


def _orbit_job(job: tuple[tuple[int, int, int, int], int]) -> tuple[int, int, int]:
    (h0, h1, v0, v1), size = job
    w, t, n = eval7_enumerate_boards((h0, h1), (v0, v1))
    return size * w, size * t, size * n


def _run_orbits(jobs: list, processes: int) -> list[tuple[int, int, int]]:
    if processes > 1 and len(jobs) > 1:
        with ProcessPoolExecutor(max_workers=processes) as pool:
            return list(pool.map(_orbit_job, jobs, chunksize=1))
    return [_orbit_job(job) for job in jobs]


def eval7_exact_class_pair(hero: str, villain: str, processes: int = 1) -> tuple[int, int, int]:
    """Exact (wins, ties, deals) of class ``hero`` vs class ``villain`` by eval7 enumeration."""
    parts = _run_orbits(combo_pair_orbits(C.parse_class(hero), C.parse_class(villain)), processes)
    wins, ties, deals = (sum(col) for col in zip(*parts))
    return wins, ties, deals


@dataclass(frozen=True)
class CrosscheckResult:
    rows: pd.DataFrame
    max_gap_pp: float
    bound_pp: float

    @property
    def passed(self) -> bool:
        return self.max_gap_pp <= self.bound_pp


def crosscheck(table: EquityTable, pairs: list[tuple[str, str]], bound_pp: float, processes: int = 1) -> CrosscheckResult:
    """Compare ``table`` with eval7's exact enumeration on ``pairs``.

    One row per pair: exact and tabled win/tie (fractions), the win, tie and loss gaps in
    percentage points (the pair's ``gap_pp`` is the largest), and, for a sampled table, the
    binomial standard error of the win fraction (pp) and the win gap in standard errors
    (``win_z``); an exact table has a gap of zero.
    """
    for hero, villain in pairs:  # fail on a bad class name before any long work
        C.parse_class(hero), C.parse_class(villain)
    records = []
    jobs, owners = [], []
    for i, (hero, villain) in enumerate(pairs):
        for job in combo_pair_orbits(C.parse_class(hero), C.parse_class(villain)):
            jobs.append(job)
            owners.append(i)
    parts = _run_orbits(jobs, processes)
    totals = np.zeros((len(pairs), 3), dtype=np.int64)
    for owner, part in zip(owners, parts):
        totals[owner] += part
    for (hero, villain), (wins, ties, deals) in zip(pairs, totals):
        exact_win, exact_tie = wins / deals, ties / deals
        win, tie, loss = table.lookup(hero, villain)
        n = int(table.samples[C.parse_class(hero), C.parse_class(villain)])
        gaps = (abs(win - exact_win), abs(tie - exact_tie), abs(loss - (1 - exact_win - exact_tie)))
        records.append(
            {
                "hero": hero,
                "villain": villain,
                "exact_win": exact_win,
                "exact_tie": exact_tie,
                "table_win": win,
                "table_tie": tie,
                "win_gap_pp": 100 * gaps[0],
                "tie_gap_pp": 100 * gaps[1],
                "loss_gap_pp": 100 * gaps[2],
                "gap_pp": 100 * max(gaps),
                "win_se_pp": 100 * math.sqrt(exact_win * (1 - exact_win) / n),
                "win_z": (win - exact_win) / math.sqrt(exact_win * (1 - exact_win) / n) if 0 < exact_win < 1 else 0.0,
                "table_samples": n,
                "exact_deals": int(deals),
            }
        )
    rows = pd.DataFrame.from_records(records)
    return CrosscheckResult(rows, float(rows["gap_pp"].max()), float(bound_pp))
