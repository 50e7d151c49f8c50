"""Heads-up shove-or-fold with card removal: each seat holds one of the 1,326 combos, and the
two hands are dealt together from one deck, so a hand blocks the combos of the other seat
that share a card with it.

The game is the one of :mod:`pokerlab.pushfold.headsup` (same fees, ante and settlement, same
payoff constants :class:`~pokerlab.pushfold.headsup.HeadsUpPayoffs`), dealt differently: the
pair (SB combo h, BB combo v) has probability ``J[h, v]``, uniform over the pairs that do not
share a card (``1 / (1326 * 1225)``), and the showdown equity is the combo table's ``EQ[h, v]``
(:mod:`pokerlab.equity_combos`). The class game is the special case ``J = prior x prior`` with
equities constant over each class pair.

Written as a game over two vectors, ``x[h] = P(shove | h)`` and ``y[v] = P(call | v, shove)``,
with ``p[h] = sum_v J[h, v]``:

    SB advantage of shoving over folding, times p[h]:
        a[h] = p[h] (steal - fold_sb) + (G @ y)[h],  G[h, v] = J[h, v] (sd_sb - steal + award EQ[h, v])
    BB advantage of calling over folding, times P(v, and the SB shoves):
        b[v] = (H @ x)[v],                             H[v, h] = J[h, v] (sd_bb - fold_bb + award EQ[v, h])

So the BB holding v weighs only the shoving combos that do not collide with v. Each seat's
exploitability (bb per hand, its best-response gain) is ``sum max(a, 0) - x . a`` and
``sum max(b, 0) - y . b``; the chart's figure is the larger. The fees keep the game
constant-sum, so ``H = -G^T``.

Algorithm: the damped best response of the class solver (per-combo steps that decay each time
the combo's best response reverses, a linear average beside the iterates, stopping on the
measured exploitability), on the vectors above; the products ``G @ y`` and ``H @ x`` are
updated by one column per combo that moved. Then a polish (:func:`polish`): guess which hands
mix from the near-equilibrium, and solve their indifference conditions exactly; when the guess
is right the profile is exact to round-off, which pins the mixed hands' frequencies that a
1e-6 bb/hand tolerance leaves loose.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pokerlab import cards
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.headsup import NEGLIGIBLE_STEP, HeadsUpPayoffs, decay_reversed_steps


@dataclass(frozen=True)
class ComboDeal:
    """Who can hold what: ``joint[h, v]`` the probability of the deal (SB h, BB v) (sums to 1,
    0 where the hands collide), ``equity[h, v]`` the chip equity ``win + tie/2`` of hand h
    against v, and ``combo_class[h]`` the class of hand h (for per-class read-outs)."""

    joint: np.ndarray
    equity: np.ndarray
    combo_class: np.ndarray

    def __post_init__(self) -> None:
        n = self.joint.shape[0]
        if self.joint.shape != (n, n) or self.equity.shape != (n, n) or self.combo_class.shape != (n,):
            raise ValueError(f"combo deal: joint {self.joint.shape}, equity {self.equity.shape} and combo_class "
                             f"{self.combo_class.shape} must be (n, n), (n, n) and (n,)")
        if self.joint.min() < 0 or abs(self.joint.sum() - 1.0) > 1e-9:
            raise ValueError("combo deal: joint must be non-negative and sum to 1")

    @classmethod
    def full_deck(cls, equity: np.ndarray) -> "ComboDeal":
        """The real deal: all 1,326 combos, every non-colliding pair equally likely."""
        from pokerlab.equity_combos import collision_mask

        equity = np.asarray(equity, dtype=np.float64)
        if equity.shape != (cards.N_COMBOS, cards.N_COMBOS):
            raise ValueError(f"combo equity table: shape {equity.shape}, expected (1326, 1326)")
        live = ~collision_mask()
        return cls(live / live.sum(), np.where(live, equity, 0.0), cards.COMBO_CLASS.astype(np.int64))

    @property
    def sb_marginal(self) -> np.ndarray:
        return self.joint.sum(axis=1)

    @property
    def bb_marginal(self) -> np.ndarray:
        return self.joint.sum(axis=0)


@dataclass(frozen=True)
class HeadsUpComboSolution:
    """A solved heads-up spot with card removal. Arrays over the deal's combos; EVs in bb."""

    game: PushFoldGame
    deal: ComboDeal
    sb_shove: np.ndarray  # P(shove | combo)
    bb_call: np.ndarray  # P(call | combo, facing a shove)
    sb_shove_ev: np.ndarray  # SB objective EV of shoving holding the combo
    sb_fold_ev: float
    bb_call_ev: np.ndarray  # BB objective EV of calling given the combo and a shove (nan if never shoved into)
    bb_fold_ev: float
    exploitability_per_seat: dict[str, float]
    iterations: int
    converged: bool
    polish_margin_bb: float | None = None  # the margin of the polish that gave the profile, None if unpolished

    @property
    def exploitability_bb(self) -> float:
        return max(self.exploitability_per_seat.values())

    @property
    def sb_shove_share(self) -> float:
        """Share of the SB's deals that shove (share of the 1,326 combos, each weighted by its deal probability)."""
        return float(self.deal.sb_marginal @ self.sb_shove)

    @property
    def bb_call_share(self) -> float:
        """Share of the BB's combos that call a shove (unconditional weights, as published charts count it)."""
        return float(self.deal.bb_marginal @ self.bb_call)

    def class_frequency(self, combo_values: np.ndarray, seat: str = "SB") -> np.ndarray:
        """(169,) combo-weighted mean of a per-combo vector over each class's combos."""
        weight = self.deal.sb_marginal if seat == "SB" else self.deal.bb_marginal
        num = np.bincount(self.deal.combo_class, weights=weight * combo_values, minlength=cards.N_CLASSES)
        den = np.bincount(self.deal.combo_class, weights=weight, minlength=cards.N_CLASSES)
        return np.divide(num, den, out=np.zeros(cards.N_CLASSES), where=den > 0)

    @property
    def sb_shove_class(self) -> np.ndarray:
        return self.class_frequency(self.sb_shove, "SB")

    @property
    def bb_call_class(self) -> np.ndarray:
        return self.class_frequency(self.bb_call, "BB")

    @property
    def seat_ev(self) -> dict[str, float]:
        """Each seat's objective EV per hand under the profile, bb."""
        pay = HeadsUpPayoffs.of(self.game)
        j = self.deal.joint
        showdown = pay.sb_showdown_const + pay.award * self.deal.equity
        sb_pair = self.sb_shove[:, None] * (self.bb_call[None, :] * showdown + (1 - self.bb_call[None, :]) * pay.sb_steal) \
            + (1 - self.sb_shove[:, None]) * pay.sb_fold
        _, walk = self.game.terminal_coefficients(())
        bb_showdown = pay.bb_showdown_const + pay.award * self.deal.equity.T
        bb_pair = self.sb_shove[:, None] * (self.bb_call[None, :] * bb_showdown + (1 - self.bb_call[None, :]) * pay.bb_fold) \
            + (1 - self.sb_shove[:, None]) * float(walk[1])
        return {"SB": float(np.sum(j * sb_pair)), "BB": float(np.sum(j * bb_pair))}


def advantage_matrices(pay: HeadsUpPayoffs, deal: ComboDeal) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(sb_base, G, H) of the module docstring: ``a = sb_base + G @ y``, ``b = H @ x``."""
    j, eq = deal.joint, deal.equity
    sb_base = deal.sb_marginal * (pay.sb_steal - pay.sb_fold)
    g = j * (pay.sb_showdown_const - pay.sb_steal + pay.award * eq)
    h = j.T * (pay.bb_showdown_const - pay.bb_fold + pay.award * eq)
    return sb_base, g, h


def evaluate_combo_profile(pay: HeadsUpPayoffs, deal: ComboDeal, shove: np.ndarray, call: np.ndarray):
    """(SB shove EVs, BB call EVs, per-seat exploitability) of a profile, computed from scratch."""
    sb_base, g, h = advantage_matrices(pay, deal)
    a = sb_base + g @ call
    b = h @ shove
    p = deal.sb_marginal
    facing = deal.joint.T @ shove  # P(v and a shove)
    sb_shove_ev = pay.sb_fold + np.divide(a, p, out=np.zeros_like(a), where=p > 0)
    bb_call_ev = pay.bb_fold + np.divide(b, facing, out=np.full_like(b, np.nan), where=facing > 0)
    gains = {"SB": float(max(np.sum(np.maximum(a, 0.0)) - shove @ a, 0.0)),
             "BB": float(max(np.sum(np.maximum(b, 0.0)) - call @ b, 0.0))}
    return sb_shove_ev, bb_call_ev, gains


@njit(cache=True)
def _gain(adv, x, br):
    """Best-response gain ``sum max(adv, 0) - x . adv``; fills the best response (1 where adv > 0)."""
    gain = 0.0
    for c in range(adv.size):
        gain += max(adv[c], 0.0) - x[c] * adv[c]
        br[c] = 1.0 if adv[c] > 0.0 else 0.0
    return gain


@njit(cache=True)
def _move(x, step, target, columns, u):
    """Damped step of every combo towards its best response; ``u += columns[c] * change``."""
    for c in range(x.size):
        a = step[c] * (target[c] - x[c])
        if abs(a) > NEGLIGIBLE_STEP:
            x[c] += a
            col = columns[c]
            for i in range(u.size):
                u[i] += a * col[i]


@njit(cache=True)
def _damped_best_response(g_cols, h_cols, sb_base, shove, call, reversals, tolerance, max_iterations, initial_step,
                          power):
    """The class kernel's iteration on the combo game. ``g_cols[c]`` is column c of G (moved by
    the BB's call of combo c), ``h_cols[c]`` column c of H. Returns (iterations, gain, averaged)."""
    m = shove.size
    step = initial_step / (1.0 + reversals) ** power
    a = sb_base + g_cols.T @ call
    b = h_cols.T @ shove
    avg_shove, avg_call, avg_a, avg_b = shove.copy(), call.copy(), a.copy(), b.copy()
    br = np.full((2, m), -1.0)
    target = np.empty((2, m))
    avg_target = np.empty((2, m))
    t = 0
    while True:
        gain = max(_gain(a, shove, target[0]), _gain(b, call, target[1]))
        if gain <= tolerance:
            return t, gain, False
        avg_gain = max(_gain(avg_a, avg_shove, avg_target[0]), _gain(avg_b, avg_call, avg_target[1]))
        if avg_gain <= tolerance or t >= max_iterations:
            shove[:] = avg_shove
            call[:] = avg_call
            return t, avg_gain, True
        decay_reversed_steps(br, target, reversals, step, initial_step, power)
        _move(shove, step[0], br[0], h_cols, b)
        _move(call, step[1], br[1], g_cols, a)
        t += 1
        w = 2.0 / (t + 2.0)
        for c in range(m):
            avg_shove[c] += w * (shove[c] - avg_shove[c])
            avg_call[c] += w * (call[c] - avg_call[c])
            avg_a[c] += w * (a[c] - avg_a[c])
            avg_b[c] += w * (b[c] - avg_b[c])


POLISH_MARGINS_BB = (1e-2, 3e-3, 1e-3, 3e-4, 1e-4, 1e-5)
"""Margins tried by :func:`polish`: a hand whose advantage is within the margin counts as mixed."""


def polish(sb_base: np.ndarray, g: np.ndarray, h: np.ndarray, p_sb: np.ndarray, p_bb: np.ndarray,
           shove: np.ndarray, call: np.ndarray, margin_bb: float) -> tuple[np.ndarray, np.ndarray]:
    """Solve the indifference conditions of a near-equilibrium exactly.

    From the profile's advantages, a hand whose conditional advantage (bb) exceeds ``margin_bb``
    plays its best action purely and the others are mixed; the mixed BB hands' call
    frequencies then make every mixed SB hand indifferent (``a = 0`` on them) and vice versa,
    a bounded least-squares problem each (frequencies in [0, 1]). If the guess of which hands
    mix is right, the result is an equilibrium to round-off.
    """
    from scipy.optimize import lsq_linear

    a = (sb_base + g @ call) / np.where(p_sb > 0, p_sb, 1.0)
    b = (h @ shove) / np.where(p_bb > 0, p_bb, 1.0)
    x = np.where(a > margin_bb, 1.0, 0.0)
    y = np.where(b > margin_bb, 1.0, 0.0)
    mixed_sb = np.flatnonzero(np.abs(a) <= margin_bb)
    mixed_bb = np.flatnonzero(np.abs(b) <= margin_bb)
    if mixed_sb.size and mixed_bb.size:
        # SB hands in mixed_sb indifferent: sb_base + G[:, pure calls] 1 + G[:, mixed_bb] y_m = 0
        rhs = -(sb_base[mixed_sb] + g[mixed_sb] @ y)
        y[mixed_bb] = lsq_linear(g[np.ix_(mixed_sb, mixed_bb)], rhs, bounds=(0.0, 1.0)).x
        rhs = -(h[mixed_bb] @ x)
        x[mixed_sb] = lsq_linear(h[np.ix_(mixed_bb, mixed_sb)], rhs, bounds=(0.0, 1.0)).x
    return x, y


EXACT_BB = 1e-12
"""Exploitability (bb/hand) at which a polished profile counts as the exact equilibrium (round-off)."""


def solve_headsup_combos(game: PushFoldGame, deal: ComboDeal, tolerance_bb: float = 1e-6,
                         max_iterations: int = 2_000_000, refinements: int = 2, initial_step: float = 0.5,
                         power: float = 1.5) -> HeadsUpComboSolution:
    """Solve heads-up push/fold with card removal to exploitability ``<= tolerance_bb`` (bb/hand,
    measured in the combo game), then try to make it exact.

    The damped best response (same start and step rule as
    :func:`~pokerlab.pushfold.headsup.solve_headsup`) runs to ``tolerance_bb``; :func:`polish` is
    tried at each of :data:`POLISH_MARGINS_BB` in turn, each on the best profile so far. Until a
    polished profile is exact (:data:`EXACT_BB`), the iteration continues from where it stopped
    to a tolerance ten times smaller, ``refinements`` times, each followed by the polish. A tolerance of 1e-6 bb/hand
    leaves a single combo's EV free by about 1e-6 x 1,326 bb, enough to move a share by a few
    hundredths of a point; the exact profile pins it. The least exploitable profile is returned.
    """
    if game.seats != 2:
        raise ValueError(f"solve_headsup_combos: seats must be 2, got {game.seats}")
    if isinstance(tolerance_bb, bool) or not isinstance(tolerance_bb, (int, float)) or not tolerance_bb > 0:
        raise ValueError(f"tolerance_bb: {tolerance_bb!r} must be a number > 0 (bb)")
    pay = HeadsUpPayoffs.of(game)
    sb_base, g, h = advantage_matrices(pay, deal)
    g_cols, h_cols = np.ascontiguousarray(g.T), np.ascontiguousarray(h.T)
    m = sb_base.size
    shove, call = np.full(m, 0.5), np.full(m, 0.5)
    reversals = np.zeros((2, m))
    total = 0
    best = None  # (gain, shove, call, evaluation, polish margin)
    for level in range(refinements + 1):
        target = tolerance_bb / 10**level
        for _ in range(3):  # the kernel stops on running sums; a fresh restart settles a round-off disagreement
            done, _, _ = _damped_best_response(g_cols, h_cols, sb_base, shove, call, reversals, target,
                                               max_iterations - total, initial_step, power)
            total += done
            evaluation = evaluate_combo_profile(pay, deal, shove, call)
            if max(evaluation[2].values()) <= target or total >= max_iterations:
                break
        gain = max(evaluation[2].values())
        if best is None or gain < best[0]:
            best = (gain, shove.copy(), call.copy(), evaluation, None)
        for margin in POLISH_MARGINS_BB:  # each polish starts from the best profile so far
            x, y = polish(sb_base, g, h, deal.sb_marginal, deal.bb_marginal, best[1], best[2], margin)
            ev = evaluate_combo_profile(pay, deal, x, y)
            if max(ev[2].values()) < best[0]:
                best = (max(ev[2].values()), x, y, ev, margin)
        if best[0] <= EXACT_BB or total >= max_iterations:
            break
    gain, shove, call, (sb_ev, bb_ev, gains), polished = best
    return HeadsUpComboSolution(game=game, deal=deal, sb_shove=shove, bb_call=call, sb_shove_ev=sb_ev,
                                sb_fold_ev=pay.sb_fold, bb_call_ev=bb_ev, bb_fold_ev=pay.bb_fold,
                                exploitability_per_seat=gains, iterations=total,
                                converged=gain <= tolerance_bb, polish_margin_bb=polished)
