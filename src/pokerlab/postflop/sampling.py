"""Public chance sampling: a training walk deals a few sampled cards at each chance node.

With ``PostflopSolver(sampled_cards=k)`` a training walk deals, at every chance node it
reaches (the root street's deals and every later one), only ``k`` of the ``N`` cards not on
the board, chosen without replacement, uniformly and the same for both players' hands (a
public sample), and counts each with ``N / k`` times its probability: the values it returns
are unbiased estimates of the full walk's. An iteration costs about ``k / N`` of a full one per
sampled street; its updates are noisier. Only blocks below sampled cards are updated, and a
block is discounted when it is updated (DCFR's factors of that iteration), so a block visited
every few iterations is discounted less than in the full walk: its average weights its
iterations more evenly. Exploitability checks, best responses and read-outs always walk every
card.

The sample is a function of the seed, the iteration, the traverser, the chance node and the
cards dealt before it (SplitMix64, see :mod:`pokerlab.rng`): the same for any thread count and
for every walk of that chance node in one iteration's pass.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from pokerlab.rng import GOLDEN, mix64


@njit(cache=True)
def sample_deal(sampled, walked, walk_key, node, d1, d2, root_mask, iso_row, n_samples):
    """Mark the ``n_samples`` cards dealt at chance ``node`` (reached after dealt cards ``d1``,
    ``d2``, -1: none) in ``sampled`` ((52,) bool): the unseen cards with the smallest hashes of
    ``walk_key``; and in ``walked`` the representatives (``iso_row``: the representative of
    each card after ``d1``) whose subtrees must be walked. Returns ``N / n_sampled``, the weight
    of a sampled card relative to its probability (``N``: cards not on the board)."""
    key = mix64(walk_key ^ (np.uint64((node * 53 + d1 + 1) * 53 + d2 + 1) * GOLDEN))
    sampled[:] = False
    walked[:] = False
    n_unseen = 0
    for c in range(52):
        if not (root_mask[c] or c == d1 or c == d2):
            n_unseen += 1
    n_sampled = min(n_samples, n_unseen)
    for _ in range(n_sampled):
        best, best_hash = -1, np.uint64(0)
        for c in range(52):
            if root_mask[c] or c == d1 or c == d2 or sampled[c]:
                continue
            h = mix64(key ^ (np.uint64(c + 1) * GOLDEN))
            if best < 0 or h < best_hash:
                best, best_hash = c, h
        sampled[best] = True
        walked[iso_row[best]] = True
    return n_unseen / n_sampled
