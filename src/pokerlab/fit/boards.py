"""Flop samples for the fitting run: seeded, stratified by texture, each board with its weight.

Every one of the C(52, 3) = 22,100 flops is equally likely before any hand is dealt. A flop's
texture stratum is its suit pattern (``paired`` — two or three cards of one rank —, else
``monotone``, ``two-tone`` or ``rainbow``) crossed with its high-card band (``A``, ``K``,
``Q``, ``J-T``, ``9-2``): 20 strata.

The sample is **systematic over the stratum-sorted list**: all flops are ordered by stratum
(and, within a stratum, in a seeded random order), and ``n`` boards are taken at equal steps
of 22,100 / n from a seeded random start. Each stratum then receives its share of the
sample to within one board, whatever ``n`` is, and every flop has the same inclusion
probability n / 22,100; each sampled board therefore stands for 1/n of the flop distribution
(``weight`` = 1/n), and the sample-weighted mean of any board quantity is an unbiased
estimate of its mean over all flops. Held-out boards come from the same ordering at offsets
half a step away, so they never coincide with fitting boards.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from pokerlab.cards import card_str

SUIT_PATTERNS = ("paired", "monotone", "two-tone", "rainbow")
HIGH_BANDS = ("A", "K", "Q", "J-T", "9-2")
N_FLOPS = 22100


def _high_band(rank: int) -> str:
    """High-card band of a rank index 0..12 (2..A)."""
    return {12: "A", 11: "K", 10: "Q", 9: "J-T", 8: "J-T"}.get(rank, "9-2")


def flop_texture(cards: tuple[int, int, int]) -> tuple[str, str]:
    """(suit pattern, high-card band) of a flop given as three card indices."""
    ranks = [c >> 2 for c in cards]
    suits = {c & 3 for c in cards}
    if len(set(ranks)) < 3:
        pattern = "paired"
    else:
        pattern = {1: "monotone", 2: "two-tone", 3: "rainbow"}[len(suits)]
    return pattern, _high_band(max(ranks))


def stratum_name(cards: tuple[int, int, int]) -> str:
    pattern, band = flop_texture(cards)
    return f"{pattern}/{band}"


ALL_FLOPS = tuple(itertools.combinations(range(52), 3))
_STRATA = tuple(f"{p}/{b}" for p in SUIT_PATTERNS for b in HIGH_BANDS)
_FLOP_STRATUM = np.array([_STRATA.index(stratum_name(f)) for f in ALL_FLOPS], dtype=np.int64)


def stratum_shares() -> dict[str, float]:
    """Share of all flops in each stratum (sums to 1)."""
    counts = np.bincount(_FLOP_STRATUM, minlength=len(_STRATA))
    return {name: counts[i] / N_FLOPS for i, name in enumerate(_STRATA)}


@dataclass(frozen=True)
class BoardSample:
    """One sampled flop: its cards, texture stratum, weight in the flop distribution and role."""

    index: int  # 0.. within the ending's sample (fitting boards first, then held-out ones)
    cards: tuple[int, int, int]
    stratum: str
    weight: float  # share of the flop distribution this board stands for within its role
    heldout: bool

    @property
    def text(self) -> str:
        """Board as text, highest card first (``QsJh2h``)."""
        return "".join(card_str(c) for c in sorted(self.cards, reverse=True))


def sample_flops(seed: int, stream: int, n_fit: int, n_heldout: int = 0) -> list[BoardSample]:
    """``n_fit`` fitting and ``n_heldout`` held-out flops, systematic over the stratum-sorted list.

    ``seed`` and ``stream`` (e.g. the ending's number) fix the within-stratum order and the
    start; the same arguments always give the same boards. Fitting boards weigh 1/n_fit
    each, held-out boards 1/n_heldout.
    """
    if n_fit < 1 or n_heldout < 0:
        raise ValueError(f"sample_flops: need n_fit >= 1 and n_heldout >= 0, got {n_fit}, {n_heldout}")
    if n_fit + n_heldout > N_FLOPS // 2:
        raise ValueError(f"sample_flops: {n_fit + n_heldout} boards is more than a systematic sample can hold")
    rng = np.random.default_rng([int(seed), int(stream)])
    order = np.lexsort((rng.permutation(N_FLOPS), _FLOP_STRATUM))  # by stratum, shuffled within
    start = rng.random()
    out: list[BoardSample] = []
    for role, n, offset in (("fit", n_fit, 0.0), ("heldout", n_heldout, 0.5)):
        if n == 0:
            continue
        step = N_FLOPS / n
        # held-out positions sit half a (held-out) step from the fitting grid's start; a
        # collision with a fitting board is skipped to the next flop in the ordering.
        taken = {b.cards for b in out}
        for k in range(n):
            pos = int(((start + offset + k) * step)) % N_FLOPS
            while ALL_FLOPS[order[pos]] in taken:
                pos = (pos + 1) % N_FLOPS
            cards = ALL_FLOPS[order[pos]]
            taken.add(cards)
            out.append(BoardSample(len(out), cards, _STRATA[_FLOP_STRATUM[order[pos]]], 1.0 / n, role == "heldout"))
    return out
