"""Measuring and fitting the postflop model's constants from solved flop endings.

The model (:class:`pokerlab.preflop.payoffs.PostflopModel`) at a heads-up flop ending with pot
``P`` and stack behind ``S`` (bb, spr ``s = S/P``) prices a hand of equity ``q`` as

    ev = (q + sign * e(s)) * P' - c(s) * S,    P' = P + 2 c(s) S,

with ``c(s) = 1/(1+s^a)``, ``e(s) = min(cap, max(0, b + c2 log2(1+s)))``, ``sign`` +1 in
position and -1 out of position, ``ev`` the hand's share of the pot net of what it puts in
after the flop (the postflop record's convention; both ranges' values sum to ``P``). So per
measured ending and board (a *measurement*):

* **played pot** ``P'``: the slope of ``ev`` against the control run's equity ``q``, one slope
  for both players with an intercept each (weighted least squares, combo masses normalised
  per player). Only the commitment term moves it: ``c = (P' - P) / (2 S)``.
* **edge**: the two players' mean values net of their ranges' equity,
  ``[(ev_ip - P' q_ip) - (ev_oop - P' q_oop)] / (2 P')``. Only the edge moves it.

The **staged fit** takes ``a`` from the measured commitments alone and ``(b, c2, cap)`` from
the measured edges alone; the **joint fit** chooses all four to minimise the squared per-hand
error of the model's values. Measurements weigh their ending's reach (share of deals) times
their board's weight, so each spot's endings count as often as the equilibrium reaches them.
Standard errors come from a seeded bootstrap over each ending's fitting boards.

The **error per hand** of a set of constants is the weighted mean absolute difference, in bb,
between the model's value of each combo and its solved value (weights: measurement weight
times the combo's mass within its range); the joint fit minimises its root-mean-square form
instead, so the two criteria can rank constants differently.

``cap`` is identified only where the measured edges reach it; otherwise both fits report the
smallest cap that fits as well (the edge at the deepest measured spr), not an arbitrary one.

Per-class realisation: for each combo ``r = (ev + c S)/P' - q`` (its share of the played pot
above its equity, with the measurement's own ``c`` and ``P'``); its range mean is ``sign * e``.
Class means per role (in/out of position) are what a hand-dependent edge would be fitted on.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.optimize import least_squares

from pokerlab.cards import N_CLASSES, class_name
from pokerlab.preflop.payoffs import MODEL_CONSTANTS, PostflopModel

NAMES = MODEL_CONSTANTS
BOUNDS = (np.array([0.05, -0.5, -0.2, 0.0]), np.array([6.0, 0.5, 0.2, 0.49]))
SPR_BANDS = (0.0, 1.0, 2.0, 4.0, 8.0, 16.0, math.inf)


def _commitment(a, spr):
    return 1.0 / (1.0 + np.power(spr, a))


def _edge(b, c2, cap, spr):
    return np.minimum(cap, np.maximum(0.0, b + c2 * np.log2(1.0 + spr)))


@dataclass
class Measurements:
    """Per-measurement quantities (one row per ending x board) and the combo rows behind them.

    ``per_measurement`` columns: ``key``, ``spot``, ``rank``, ``heldout``, ``weight``
    (reach x board weight), ``pot``, ``behind``, ``spr``, ``aggressor_ip`` (1, 0 or -1 limped),
    ``played_pot``, ``commitment``, ``edge``. ``combos``: the solved rows with ``m`` (row of
    ``per_measurement``), ``sign``, ``w`` (weight x normalised mass), ``ev``, ``equity``, ``class``.
    """

    per_measurement: pd.DataFrame
    combos: pd.DataFrame

    def subset(self, heldout: bool) -> "Measurements":
        keep = self.per_measurement["heldout"].to_numpy() == heldout
        index = np.flatnonzero(keep)
        remap = np.full(len(keep), -1)
        remap[index] = np.arange(index.size)
        combos = self.combos[keep[self.combos["m"].to_numpy()]].copy()
        combos["m"] = remap[combos["m"].to_numpy()]
        return Measurements(self.per_measurement[keep].reset_index(drop=True), combos.reset_index(drop=True))


def build_measurements(frames: list[tuple[pd.DataFrame, dict]]) -> Measurements:
    """Per-measurement played pot, commitment and edge from the jobs' (table, record) pairs.

    Empty tables (endings a spot does not have) are skipped.
    """
    rows, parts = [], []
    for frame, record in frames:
        if frame.empty:
            continue
        m = len(rows)
        pot, behind = record["pot_bb"], record["behind_bb"]
        sign = np.where(frame["player"].to_numpy() == 1, 1.0, -1.0)
        mass = frame["mass"].to_numpy(dtype=np.float64)
        per_player = np.bincount(frame["player"].to_numpy(), weights=mass, minlength=2)
        norm = mass / per_player[frame["player"].to_numpy()]  # each range sums to 1
        ev, eq = frame["ev"].to_numpy(), frame["equity"].to_numpy()
        means = {p: (float(norm[frame["player"] == p] @ ev[frame["player"] == p]),
                     float(norm[frame["player"] == p] @ eq[frame["player"] == p])) for p in (0, 1)}
        num = den = 0.0
        for p in (0, 1):
            sel = frame["player"].to_numpy() == p
            dq = eq[sel] - means[p][1]
            num += float(norm[sel] @ (dq * (ev[sel] - means[p][0])))
            den += float(norm[sel] @ (dq * dq))
        played = num / den if den > 0 else float("nan")
        commitment = (played - pot) / (2.0 * behind) if behind > 0 else 0.0
        edge = ((means[1][0] - played * means[1][1]) - (means[0][0] - played * means[0][1])) / (2.0 * played)
        aip = record.get("aggressor_in_position")
        rows.append({"key": record["key"], "spot": record["spot"], "rank": record["rank"],
                     "heldout": bool(record["heldout"]), "weight": record["reach"] * record["board_weight"],
                     "pot": pot, "behind": behind, "spr": behind / pot,
                     "aggressor_ip": 1 if aip is True else 0 if aip is False else -1,
                     "played_pot": played, "commitment": commitment, "edge": edge})
        parts.append(pd.DataFrame({"m": m, "sign": sign, "norm": norm, "ev": ev, "equity": eq,
                                   "class": frame["class"].to_numpy(), "player": frame["player"].to_numpy()}))
    if not rows:
        raise ValueError("fit: no measurement has any data (every ending was missing)")
    per = pd.DataFrame(rows)
    combos = pd.concat(parts, ignore_index=True)
    combos["w"] = per["weight"].to_numpy()[combos["m"].to_numpy()] * combos["norm"].to_numpy()
    return Measurements(per, combos)


def predict(theta, per: pd.DataFrame, combos: pd.DataFrame, aggressor: tuple[float, float] | None = None) -> np.ndarray:
    """The model's value (bb) of every combo row under constants ``theta`` = (a, b, c2, cap).

    ``aggressor``: the optional aggressor term's flat edges (in position, out of position), which
    replace edge(spr) in raised pots (see :mod:`pokerlab.preflop.payoffs`); limped pots keep edge(spr).
    """
    a, b, c2, cap = theta
    m = combos["m"].to_numpy()
    spr = per["spr"].to_numpy()[m]
    pot, behind = per["pot"].to_numpy()[m], per["behind"].to_numpy()[m]
    c = _commitment(a, spr)
    played = pot + 2.0 * c * behind
    edge = _edge(b, c2, cap, spr)
    if aggressor is not None:
        side = per["aggressor_ip"].to_numpy()[m]
        edge = np.where(side == 1, aggressor[0], np.where(side == 0, aggressor[1], edge))
    return (combos["equity"].to_numpy() + combos["sign"].to_numpy() * edge) * played - c * behind


def error_per_hand(theta, data: Measurements, aggressor: tuple[float, float] | None = None) -> float:
    """Weighted mean |model - solved| value per hand, bb (see the module docstring)."""
    w = data.combos["w"].to_numpy()
    value = predict(theta, data.per_measurement, data.combos, aggressor)
    return float(w @ np.abs(value - data.combos["ev"].to_numpy()) / w.sum())


def rms_error_per_hand(theta, data: Measurements) -> float:
    """Weighted root-mean-square (model - solved) value per hand, bb: the joint fit's criterion."""
    w = data.combos["w"].to_numpy()
    value = predict(theta, data.per_measurement, data.combos)
    return float(np.sqrt(w @ (value - data.combos["ev"].to_numpy()) ** 2 / w.sum()))


def aggressor_edges(per: pd.DataFrame) -> tuple[float, float] | None:
    """The aggressor term's two flat edges (in position, out of position): the weighted mean
    measured edge of the raised-pot measurements on each side; None unless both sides are measured."""
    edges = []
    for side in (1, 0):
        group = per[per["aggressor_ip"] == side]
        if group.empty or group["weight"].sum() <= 0:
            return None
        edges.append(float(group["weight"] @ group["edge"] / group["weight"].sum()))
    return edges[0], edges[1]


def predict_v2(theta, per: pd.DataFrame, combos: pd.DataFrame, ip: np.ndarray, oop: np.ndarray) -> np.ndarray:
    """Model v2's value (bb) of every combo row: :func:`predict` plus ``(d_own - mean d_opp) * P'``,
    where ``d_own`` is the combo's class deviation in its role (``ip``/``oop``: 169-vectors, see
    :mod:`pokerlab.preflop.class_edges`) and ``mean d_opp`` the opponent range's mass-weighted mean
    deviation in the measurement (the v2 payoff averaged over the hands the combo met)."""
    a = theta[0]
    m = combos["m"].to_numpy()
    spr = per["spr"].to_numpy()[m]
    played = per["pot"].to_numpy()[m] + 2.0 * _commitment(a, spr) * per["behind"].to_numpy()[m]
    cls, player, norm = combos["class"].to_numpy(), combos["player"].to_numpy(), combos["norm"].to_numpy()
    dev = np.where(player == 1, ip[cls], oop[cls])
    means = np.zeros((len(per), 2))
    np.add.at(means, (m, player), norm * dev)  # each range's norm sums to 1
    return predict(theta, per, combos) + (dev - means[m, 1 - player]) * played


def error_per_hand_v2(theta, data: Measurements, ip: np.ndarray, oop: np.ndarray) -> float:
    """:func:`error_per_hand` of model v2 with the class deviations ``ip``/``oop``."""
    w = data.combos["w"].to_numpy()
    value = predict_v2(theta, data.per_measurement, data.combos, ip, oop)
    return float(w @ np.abs(value - data.combos["ev"].to_numpy()) / w.sum())


def _fit_a(per: pd.DataFrame, weight: np.ndarray, start: float) -> float:
    sel = (per["behind"].to_numpy() > 0) & (weight > 0)
    spr, target, w = per["spr"].to_numpy()[sel], per["commitment"].to_numpy()[sel], np.sqrt(weight[sel])
    fit = least_squares(lambda x: w * (_commitment(x[0], spr) - target), [start], bounds=([0.05], [6.0]))
    return float(fit.x[0])


def _fit_edge(per: pd.DataFrame, weight: np.ndarray, start) -> np.ndarray:
    spr, target, w = per["spr"].to_numpy(), per["edge"].to_numpy(), np.sqrt(weight)
    best = None
    lo, hi = BOUNDS[0][1:], BOUNDS[1][1:]
    for cap0 in (start[2], 0.05, 0.1, 0.2):  # the clipped form has flat directions: a few starts
        x0 = np.clip([start[0], start[1], cap0], lo + 1e-9, hi - 1e-9)
        fit = least_squares(lambda x: w * (_edge(x[0], x[1], x[2], spr) - target), x0, bounds=(lo, hi))
        if best is None or fit.cost < best.cost - 1e-15:
            best = fit
    return best.x


def _tighten_cap(theta: np.ndarray, spr: np.ndarray) -> np.ndarray:
    """``theta`` with ``cap`` no higher than the largest unclipped edge over the measured ``spr``.

    A cap above every edge the measurements reach changes no residual (a flat direction: the
    optimiser stops wherever it started). Taking the smallest cap that fits equally well keeps
    the model from extrapolating the edge's log growth beyond the deepest measured spr.
    """
    a, b, c2, cap = theta
    reached = max(0.0, float(np.max(b + c2 * np.log2(1.0 + spr))))
    return np.array([a, b, c2, min(cap, reached)])


def staged_fit(data: Measurements, start: PostflopModel, weight: np.ndarray | None = None) -> np.ndarray:
    """(a, b, c2, cap): ``a`` from the commitments, then the edge constants from the edges."""
    per = data.per_measurement
    w = per["weight"].to_numpy() if weight is None else weight
    a = _fit_a(per, w, start.a)
    b, c2, cap = _fit_edge(per, w, (start.b, start.c2, start.cap))
    return _tighten_cap(np.array([a, b, c2, cap]), per["spr"].to_numpy()[w > 0])


def _moments(data: Measurements, weight: np.ndarray):
    """Per (measurement, player) weighted sums for the joint fit's squared error."""
    c = data.combos
    key = c["m"].to_numpy() * 2 + c["player"].to_numpy()
    n = len(data.per_measurement) * 2
    w = weight[c["m"].to_numpy()] * c["norm"].to_numpy()
    q, v = c["equity"].to_numpy(), c["ev"].to_numpy()
    sums = [np.bincount(key, weights=w * x, minlength=n) for x in (np.ones_like(q), q, q * q, v, v * v, q * v)]
    return sums


def joint_fit(data: Measurements, start: np.ndarray, weight: np.ndarray | None = None) -> np.ndarray:
    """All four constants minimising the weighted squared per-hand error of the model's values."""
    per = data.per_measurement
    w = per["weight"].to_numpy() if weight is None else weight
    s0, s1, s2, v1, v2, qv = _moments(data, w)
    spr = np.repeat(per["spr"].to_numpy(), 2)
    pot, behind = np.repeat(per["pot"].to_numpy(), 2), np.repeat(per["behind"].to_numpy(), 2)
    sign = np.tile([-1.0, 1.0], len(per))

    def residuals(x):
        c = _commitment(x[0], spr)
        played = pot + 2.0 * c * behind
        k = sign * _edge(x[1], x[2], x[3], spr) * played - c * behind
        sse = played**2 * s2 + k * k * s0 + v2 + 2 * played * k * s1 - 2 * played * qv - 2 * k * v1
        return np.sqrt(np.maximum(sse, 0.0))

    x0 = np.clip(start, BOUNDS[0] + 1e-9, BOUNDS[1] - 1e-9)
    return _tighten_cap(least_squares(residuals, x0, bounds=BOUNDS).x, per["spr"].to_numpy()[w > 0])


def bootstrap(data: Measurements, start: PostflopModel, staged: np.ndarray, samples: int, seed: int) -> dict[str, np.ndarray]:
    """Refit on ``samples`` resamples of each ending's fitting boards (with replacement).

    Returns the (samples, 4) staged and joint constants. Resampling reweights measurements by
    how often their board was drawn, so the per-measurement quantities are computed once.
    """
    per = data.per_measurement
    rng = np.random.default_rng([int(seed), 0xB007])
    groups = [np.asarray(ix) for _, ix in sorted(per.groupby(["spot", "rank"]).indices.items())]
    base = per["weight"].to_numpy()
    out = {"staged": np.zeros((samples, 4)), "joint": np.zeros((samples, 4))}
    for k in range(samples):
        counts = np.zeros(len(per))
        for g in groups:
            np.add.at(counts, rng.choice(g, size=g.size, replace=True), 1.0)
        w = base * counts
        out["staged"][k] = staged_fit(data, start, w)
        out["joint"][k] = joint_fit(data, staged, w)
    return out


def split_by_aggressor(per: pd.DataFrame) -> pd.DataFrame:
    """Measured edge by spr band and aggressor side (in position, out of position, limped pot):
    weighted mean, its standard error (weighted spread / sqrt(effective n)) and the count."""
    rows = []
    bands = pd.cut(per["spr"], SPR_BANDS, right=False)
    for (band, side), group in per.groupby([bands, per["aggressor_ip"]], observed=True):
        w = group["weight"].to_numpy()
        x = group["edge"].to_numpy()
        mean = float(w @ x / w.sum())
        n_eff = w.sum() ** 2 / (w @ w)
        spread = math.sqrt(float(w @ (x - mean) ** 2 / w.sum())) if len(x) > 1 else float("nan")
        rows.append({"spr_band": f"[{band.left:g}, {band.right:g})", "aggressor": {1: "in position", 0: "out of position",
                     -1: "limped pot"}[int(side)], "edge": mean, "se": spread / math.sqrt(n_eff) if len(x) > 1 else float("nan"),
                     "measurements": len(x)})
    return pd.DataFrame(rows)


def class_realisation(data: Measurements) -> pd.DataFrame:
    """Per class and role: mean realisation above equity (share of the played pot), its
    standard error across measurements, and the hands (combo rows) and measurements behind it."""
    per, c = data.per_measurement, data.combos
    m = c["m"].to_numpy()
    played = per["played_pot"].to_numpy()[m]
    extra = (per["commitment"].to_numpy() * per["behind"].to_numpy())[m]
    r = (c["ev"].to_numpy() + extra) / played - c["equity"].to_numpy()
    frame = pd.DataFrame({"class": c["class"].to_numpy(), "role": np.where(c["player"].to_numpy() == 1, "ip", "oop"),
                          "m": m, "w": c["w"].to_numpy(), "r": r})
    rows = []
    for (cls, role), g in frame.groupby(["class", "role"]):
        by_m = g.groupby("m").apply(lambda x: pd.Series({"w": x["w"].sum(), "r": (x["w"] @ x["r"]) / x["w"].sum()}),
                                    include_groups=False)
        w, x = by_m["w"].to_numpy(), by_m["r"].to_numpy()
        mean = float(w @ x / w.sum()) if w.sum() > 0 else float("nan")
        if len(x) > 1 and w.sum() > 0:
            n_eff = w.sum() ** 2 / (w @ w)
            se = math.sqrt(float(w @ (x - mean) ** 2 / w.sum()) / max(n_eff - 1, 1))
        else:
            se = float("nan")
        rows.append({"class": class_name(int(cls)), "class_index": int(cls), "role": role, "realisation": mean,
                     "se": se, "hands": len(g), "measurements": len(x)})
    out = pd.DataFrame(rows)
    return out.sort_values(["role", "class_index"]).reset_index(drop=True)


def class_grid(table: pd.DataFrame, role: str) -> np.ndarray:
    """(13, 13) grid of a role's class realisation (NaN where no hand was measured)."""
    grid = np.full(N_CLASSES, np.nan)
    sel = table[table["role"] == role]
    grid[sel["class_index"].to_numpy()] = sel["realisation"].to_numpy()
    return grid.reshape(13, 13)
