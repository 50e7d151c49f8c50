"""Heads-up shove-or-fold, solved exactly from the 169x169 equity table by damped best response.

The game: the small blind (seat 0) shoves its whole ``depth`` or folds; facing a shove the big
blind calls or folds. Classes are dealt independently with prior ``cards.CLASS_PRIOR`` (no card
removal between the two hands, as in the equity table's class-vs-class cells). Payoffs are the
objective nets of :mod:`pokerlab.pushfold.fees` (ledger + rakeback), so with ``EQ = win + tie/2``

    SB shove, class i:  (1 - C) * steal + C * const_sd[SB] + award * (EQ @ q_call)[i]
    BB call,  class j:  const_sd[BB] + award * (EQ @ q_shove)[j] / Q_shove

where ``q_call = prior * call`` (mass ``C``) and ``q_shove = prior * shove`` (mass
``Q_shove``); the folds are constants. The BB's values are conditional on facing a shove.

Algorithm (not CFR): a damped best response with decaying steps, fictitious-play style.
Every class of both seats moves towards its best response to the current profile,
``x[c] <- x[c] + step[c] * (BR[c] - x[c])``, with its own step
``initial_step / (1 + reversals[c]) ** power`` that decays each time the class's best response
reverses. A constant step locks into a 2-cycle on the classes that are indifferent at
equilibrium; decaying the step of exactly those classes damps the cycle while classes with a
clear best response keep a large step and settle geometrically. A linear average of the
iterates (iterate t weighted t + 1) is kept beside them, because the last iterate still
orbits the equilibrium on near-tied classes and the average cancels the orbit.

Stopping: when the *measured* exploitability of the current profile or of the average is at
most ``tolerance_bb`` (that profile is returned), never on the size of the last change (which
shrinks with the step whether or not the profile is near equilibrium). Exploitability: per
seat, its best-response value minus its value under the profile, bb per hand; the figure is
the maximum over seats. The products ``EQ @ (prior * x)`` are updated incrementally (one
table column per class that moved), and the final figures are recomputed from scratch.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from pokerlab import cards
from pokerlab.pushfold.fees import PushFoldGame

MIXED_MARGIN = 1e-4
"""A frequency within this of 0 or 1 counts as a pure action (:meth:`HeadsUpSolution.mixed_classes`)."""
THRESHOLD_DEPTHS_BB = np.arange(1.0, 25.01, 0.5)
"""The depth grid of the published Nash push/fold charts, bb: 1 to 25 by 0.5 (:func:`depth_thresholds`)."""


@dataclass(frozen=True)
class HeadsUpPayoffs:
    """The constants of the heads-up game (bb, objective nets, from the settlement function)."""

    sb_fold: float  # SB folds its blind
    sb_steal: float  # SB shoves, BB folds
    bb_fold: float  # BB folds to the shove
    award: float  # showdown: pot after the drop
    sb_showdown_const: float  # showdown constant of the SB (award * equity is added)
    bb_showdown_const: float

    @classmethod
    def of(cls, game: PushFoldGame) -> "HeadsUpPayoffs":
        _, fold = game.terminal_coefficients(())
        _, steal = game.terminal_coefficients((0,))
        award, showdown = game.terminal_coefficients((0, 1))
        return cls(sb_fold=float(fold[0]), sb_steal=float(steal[0]), bb_fold=float(steal[1]), award=float(award),
                   sb_showdown_const=float(showdown[0]), bb_showdown_const=float(showdown[1]))


@dataclass(frozen=True)
class HeadsUpSolution:
    """A solved (or stopped) heads-up spot. Arrays are over the 169 classes."""

    game: PushFoldGame
    sb_shove: np.ndarray  # P(shove | class)
    bb_call: np.ndarray  # P(call | class, facing a shove)
    sb_shove_ev: np.ndarray  # SB objective EV of shoving, bb
    sb_fold_ev: float
    bb_call_ev: np.ndarray  # BB objective EV of calling given a shove, bb
    bb_fold_ev: float
    exploitability_per_seat: dict[str, float]
    iterations: int
    converged: bool

    @property
    def exploitability_bb(self) -> float:
        return max(self.exploitability_per_seat.values())

    @property
    def sb_shove_share(self) -> float:
        """Share of deals the SB shoves (combo weighted)."""
        return float(cards.CLASS_PRIOR @ self.sb_shove)

    @property
    def bb_call_share(self) -> float:
        """Share of the BB's deals that call a shove (combo weighted)."""
        return float(cards.CLASS_PRIOR @ self.bb_call)

    @property
    def seat_ev(self) -> dict[str, float]:
        """Each seat's objective EV per hand under the profile, bb."""
        p = cards.CLASS_PRIOR
        sb = float(p @ (self.sb_shove * self.sb_shove_ev + (1 - self.sb_shove) * self.sb_fold_ev))
        q_shove = float(p @ self.sb_shove)
        bb_facing = float(p @ (self.bb_call * self.bb_call_ev + (1 - self.bb_call) * self.bb_fold_ev))
        _, walk = self.game.terminal_coefficients(())
        return {"SB": sb, "BB": (1 - q_shove) * float(walk[1]) + q_shove * bb_facing}

    def mixed_classes(self, margin: float = MIXED_MARGIN) -> list[tuple[str, int, float]]:
        """The classes played mixed, as (``"SB shove"`` or ``"BB call"``, class index, frequency):
        frequency strictly between ``margin`` and ``1 - margin``; the SB's in class order, then the BB's."""
        return [(seat, c, float(x[c])) for seat, x in (("SB shove", self.sb_shove), ("BB call", self.bb_call))
                for c in range(cards.N_CLASSES) if margin < x[c] < 1 - margin]


def evaluate_profile(pay: HeadsUpPayoffs, eq: np.ndarray, prior: np.ndarray, shove: np.ndarray, call: np.ndarray):
    """(SB shove EVs, BB call EVs, per-seat exploitability) of a profile, computed from scratch."""
    q_call, q_shove = prior * call, prior * shove
    mass_call, mass_shove = q_call.sum(), q_shove.sum()
    sb_shove_ev = (1 - mass_call) * pay.sb_steal + mass_call * pay.sb_showdown_const + pay.award * (eq @ q_call)
    if mass_shove > 0:
        bb_call_ev = pay.bb_showdown_const + pay.award * (eq @ q_shove) / mass_shove
    else:  # never reached: value the call against a shove-everything range
        bb_call_ev = pay.bb_showdown_const + pay.award * (eq @ prior)
    sb_gain = prior @ (np.maximum(sb_shove_ev, pay.sb_fold) - (shove * sb_shove_ev + (1 - shove) * pay.sb_fold))
    bb_gain = mass_shove * (prior @ (np.maximum(bb_call_ev, pay.bb_fold) - (call * bb_call_ev + (1 - call) * pay.bb_fold)))
    return sb_shove_ev, bb_call_ev, {"SB": float(max(sb_gain, 0.0)), "BB": float(max(bb_gain, 0.0))}


NEGLIGIBLE_STEP = 1e-13
"""A class whose move in one iteration is below this (a probability) is left where it is."""


@njit(cache=True)
def _gains(prior, shove, call, u_shove, u_call, mass_shove, mass_call, sb_fold, sb_steal, bb_fold, award, sb_sd, bb_sd,
           br_shove, br_call):
    """Per-seat exploitability of a profile from its running products; fills the best responses."""
    sb_gain = 0.0
    bb_gain = 0.0
    for c in range(prior.size):
        ev_shove = (1.0 - mass_call) * sb_steal + mass_call * sb_sd + award * u_call[c]
        sb_gain += prior[c] * (max(ev_shove, sb_fold) - (shove[c] * ev_shove + (1.0 - shove[c]) * sb_fold))
        br_shove[c] = 1.0 if ev_shove > sb_fold else 0.0
        br_call[c] = 1.0
        if mass_shove > 0.0:  # else the big blind never acts: call with everything
            ev_call = bb_sd + award * u_shove[c] / mass_shove
            bb_gain += prior[c] * (max(ev_call, bb_fold) - (call[c] * ev_call + (1.0 - call[c]) * bb_fold))
            br_call[c] = 1.0 if ev_call > bb_fold else 0.0
    return sb_gain, mass_shove * bb_gain


@njit(cache=True)
def decay_reversed_steps(br, target, reversals, step, initial_step, power):
    """Where a hand's best response (``target``, 0 or 1 per seat and hand) reversed since the last
    one (``br``; -1: none yet), count the reversal and shrink that hand's step to
    ``initial_step / (1 + reversals) ** power``; then remember ``target`` in ``br``."""
    for s in range(br.shape[0]):
        for c in range(br.shape[1]):
            if br[s, c] >= 0.0 and target[s, c] != br[s, c]:
                reversals[s, c] += 1.0
                step[s, c] = initial_step / (1.0 + reversals[s, c]) ** power
            br[s, c] = target[s, c]


@njit(cache=True)
def _move(x, step, target, prior, eq_t, u):
    """Damped step of every class towards its best response; returns the change of mass."""
    d_mass = 0.0
    for c in range(x.size):
        a = step[c] * (target[c] - x[c])
        if abs(a) > NEGLIGIBLE_STEP:  # below it, moving the class changes no figure we report
            x[c] += a
            d_mass += prior[c] * a
            for i in range(x.size):
                u[i] += a * prior[c] * eq_t[c, i]
    return d_mass


@njit(cache=True)
def _damped_best_response(eq_t, prior, shove, call, reversals, sb_fold, sb_steal, bb_fold, award, sb_sd, bb_sd,
                          tolerance, max_iterations, initial_step, power):
    """Iterate in place on ``shove``/``call`` (and ``reversals``, (2, m)); return (iterations
    done, exploitability, whether the average profile was the one that met the tolerance, in
    which case it has been copied into ``shove``/``call``). ``eq_t[k]`` is column k of EQ."""
    m = prior.size
    step = initial_step / (1.0 + reversals) ** power
    u_shove = eq_t.T @ (prior * shove)  # EQ @ (prior * shove)
    u_call = eq_t.T @ (prior * call)
    mass_shove = prior @ shove
    mass_call = prior @ call
    avg_shove, avg_call, avg_u_shove, avg_u_call = shove.copy(), call.copy(), u_shove.copy(), u_call.copy()
    avg_mass_shove, avg_mass_call = mass_shove, mass_call
    br = np.full((2, m), -1.0)  # -1: no best response yet
    target = np.empty((2, m))
    avg_target = np.empty((2, m))
    t = 0
    while True:
        sb_gain, bb_gain = _gains(prior, shove, call, u_shove, u_call, mass_shove, mass_call, sb_fold, sb_steal,
                                  bb_fold, award, sb_sd, bb_sd, target[0], target[1])
        gain = max(sb_gain, bb_gain)
        if gain <= tolerance:
            return t, gain, False
        sb_gain, bb_gain = _gains(prior, avg_shove, avg_call, avg_u_shove, avg_u_call, avg_mass_shove, avg_mass_call,
                                  sb_fold, sb_steal, bb_fold, award, sb_sd, bb_sd, avg_target[0], avg_target[1])
        avg_gain = max(sb_gain, bb_gain)
        if avg_gain <= tolerance or t >= max_iterations:
            shove[:] = avg_shove
            call[:] = avg_call
            return t, avg_gain, True
        decay_reversed_steps(br, target, reversals, step, initial_step, power)
        mass_shove += _move(shove, step[0], br[0], prior, eq_t, u_shove)
        mass_call += _move(call, step[1], br[1], prior, eq_t, u_call)
        t += 1
        w = 2.0 / (t + 2.0)  # linear averaging: iterate t weighs t + 1
        for c in range(m):
            avg_shove[c] += w * (shove[c] - avg_shove[c])
            avg_call[c] += w * (call[c] - avg_call[c])
            avg_u_shove[c] += w * (u_shove[c] - avg_u_shove[c])
            avg_u_call[c] += w * (u_call[c] - avg_u_call[c])
        avg_mass_shove += w * (mass_shove - avg_mass_shove)
        avg_mass_call += w * (mass_call - avg_mass_call)


def solve_headsup(game: PushFoldGame, eq: np.ndarray, tolerance_bb: float = 1e-6, max_iterations: int = 1_000_000,
                  initial_step: float = 0.5, power: float = 1.5) -> HeadsUpSolution:
    """Solve a heads-up push/fold game (``game.seats == 2``) to exploitability ``<= tolerance_bb``.

    ``eq``: the (169, 169) chip-equity table ``win + tie/2`` (row = the hand valued). The start
    is half shoving / half calling with every class. A class's step is
    ``initial_step / (1 + reversals) ** power``, where ``reversals`` counts how often its best
    response has flipped. ``converged`` says whether the exploitability, recomputed from
    scratch at the end, met the tolerance within ``max_iterations``.
    """
    if game.seats != 2:
        raise ValueError(f"solve_headsup: seats must be 2, got {game.seats}")
    if isinstance(tolerance_bb, bool) or not isinstance(tolerance_bb, (int, float)) or not tolerance_bb > 0:
        raise ValueError(f"tolerance_bb: {tolerance_bb!r} must be a number > 0 (bb)")
    if not (0 < initial_step <= 1 and power > 0):
        raise ValueError(f"initial_step {initial_step!r} must be in (0, 1] and power {power!r} > 0")
    eq = np.asarray(eq, dtype=np.float64)
    if eq.shape != (cards.N_CLASSES, cards.N_CLASSES):
        raise ValueError(f"equity table: shape {eq.shape}, expected (169, 169)")
    pay = HeadsUpPayoffs.of(game)
    prior = cards.CLASS_PRIOR.astype(np.float64)
    shove, call = np.full(cards.N_CLASSES, 0.5), np.full(cards.N_CLASSES, 0.5)
    reversals = np.zeros((2, cards.N_CLASSES))
    eq_t = np.ascontiguousarray(eq.T)
    total = 0
    for _ in range(3):  # the kernel stops on running sums; a fresh restart settles a round-off disagreement
        done, _, _ = _damped_best_response(eq_t, prior, shove, call, reversals, pay.sb_fold, pay.sb_steal,
                                        pay.bb_fold, pay.award, pay.sb_showdown_const, pay.bb_showdown_const,
                                        tolerance_bb, max_iterations - total, initial_step, power)
        total += done
        sb_ev, bb_ev, gains = evaluate_profile(pay, eq, prior, shove, call)
        if max(gains.values()) <= tolerance_bb or total >= max_iterations:
            break
    return HeadsUpSolution(game=game, sb_shove=shove, bb_call=call, sb_shove_ev=sb_ev, sb_fold_ev=pay.sb_fold,
                           bb_call_ev=bb_ev, bb_fold_ev=pay.bb_fold, exploitability_per_seat=gains,
                           iterations=total, converged=max(gains.values()) <= tolerance_bb)


def depth_thresholds(eq: np.ndarray, fees, depths, ante_bb: float = 0.0, tolerance_bb: float = 1e-6) -> dict[str, np.ndarray]:
    """Nash-chart thresholds: per class, the largest depth of the grid ``depths`` at which the
    SB shoves (``sb_shove``) / the BB calls a shove (``bb_call``) with frequency >= 1/2; 0 if
    it never does. (A few weak hands are shoved at very short stacks, folded a little deeper
    and shoved again; the figure is the deepest depth, as published charts give it.) One
    solve per depth."""
    sb = np.zeros(cards.N_CLASSES)
    bb = np.zeros(cards.N_CLASSES)
    for depth in sorted(float(d) for d in depths):
        sol = solve_headsup(PushFoldGame(2, depth, fees, ante_bb), eq, tolerance_bb=tolerance_bb)
        sb[sol.sb_shove >= 0.5] = depth
        bb[sol.bb_call >= 0.5] = depth
    return {"sb_shove": sb, "bb_call": bb}
