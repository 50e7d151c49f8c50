"""Per-class values at a flop ending: solved (postflop solves on a flop subset) and modelled, and the
corrections that make the model pay the solved values.

Conventions: values are in bb **net of everything the seat put in** (the preflop payoff's convention:
the two seats' values at an ending sum to zero). Roles are ``oop`` (first to act on the flop) and
``ip``. ``q_oop``/``q_ip`` are the seats' class distributions at the ending in the preflop class game
(prior x own reach; not normalised), the ranges each class's value is averaged against.

Solved value of a class (:func:`solved_class_values`): over the flops of the subset (each with its
weight) and over the class's combos, the mean of the combo's postflop value (its share of the pot net
of what it put in after the flop, minus its preflop contribution), each combo weighted by its
*mass*: its range weight times the opponent weight it does not block.

The corrections (:func:`corrections`): with ``M(x)`` the model's mean value of class ``x`` against the
opponent's range and ``V(x)`` its solved value, ``g = V - M``. A solved ending pays the seat in
position ``M_e(x, y) + d_ip[x] - d_oop[y]``, so its class value is ``M_ip(x) + d_ip[x] - mean(d_oop)``
(means over the opponent's range) and the out-of-position class's ``M_oop(y) + d_oop[y] - mean(d_ip)``.
Both equal the solved values when ``d_oop = g_oop`` and ``d_ip = g_ip + mean(g_oop)``, provided the
solved range means conserve chips as the model's do (``mean g_ip + mean g_oop = 0``). Card removal
between the ranges and the floor weights leave a small residual; it is split evenly between the two
seats (reported as ``residual_bb``). The pair is then centred (a common shift changes no payoff).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from pokerlab.cards import CLASS_COL, CLASS_ROW, N_CLASSES
from pokerlab.preflop.payoffs import EndingPayoffs

ROLES = ("oop", "ip")


def _mean(values: np.ndarray, weights: np.ndarray) -> float:
    return float(weights @ values / weights.sum())


@dataclass(frozen=True)
class ClassValues:
    """Per-role class values (bb, net of contributions; NaN where no combo of the class was measured)
    and the combo mass behind each."""

    oop: np.ndarray
    ip: np.ndarray
    mass_oop: np.ndarray
    mass_ip: np.ndarray

    def role(self, name: str) -> np.ndarray:
        return self.oop if name == "oop" else self.ip


def solved_class_values(measurements: list[tuple[pd.DataFrame, dict]], contrib: tuple[float, float],
                        column: str = "ev") -> ClassValues:
    """Solved class values of one ending from its flops' measurements (``(frame, record)`` pairs:
    per (player, combo) ``class``, ``mass`` and ``ev``; the record's ``board_weight``);
    ``contrib``: (oop, ip) preflop contributions, bb (see the module docstring). ``column``: the
    per-combo figure averaged (``equity_bb``: the checked-down shares, with zero contributions)."""
    num = np.zeros((2, N_CLASSES))
    den = np.zeros((2, N_CLASSES))
    for frame, record in measurements:
        if frame.empty:
            continue
        w = float(record["board_weight"])
        player = frame["player"].to_numpy()
        cls = frame["class"].to_numpy()
        mass = frame["mass"].to_numpy(dtype=np.float64) * w
        if column not in frame.columns:
            raise ValueError(f"measurement of {record.get('key', 'a flop')}: no {column!r} column (written before it "
                             "was measured; solve the flop again)")
        ev = frame[column].to_numpy(dtype=np.float64)
        for p in (0, 1):
            sel = player == p
            num[p] += np.bincount(cls[sel], weights=mass[sel] * ev[sel], minlength=N_CLASSES)
            den[p] += np.bincount(cls[sel], weights=mass[sel], minlength=N_CLASSES)
    with np.errstate(invalid="ignore", divide="ignore"):
        values = np.where(den > 0, num / den, np.nan) - np.asarray(contrib, dtype=np.float64)[:, None]
    return ClassValues(values[0], values[1], den[0], den[1])


def model_class_values(payoffs: EndingPayoffs, z: int, seats: tuple[int, int], q_oop: np.ndarray, q_ip: np.ndarray,
                       win: np.ndarray, tie: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(oop, ip) mean model value (bb) of each class at ending row ``z`` of ``payoffs`` against the
    opponent's class distribution; ``seats``: the (oop, ip) preflop seats. Uses the payoffs' own terms,
    so it is exactly what the preflop solve pays there. A seat whose opponent brings no hand (``q`` all
    zero) gets NaN values: there is no range to value it against."""
    out = []
    for seat, opponent, q in ((seats[0], seats[1], q_ip), (seats[1], seats[0], q_oop)):
        total = q.sum()
        dist = q / total if total > 0 else np.full(q.shape, np.nan)
        value = np.full(win.shape[0], payoffs.const[z, seat])
        for t in np.flatnonzero((payoffs.term_ending == z) & (payoffs.term_seat == seat)):
            if payoffs.term_opponent[t] != opponent:
                raise ValueError(f"ending row {z}: not heads-up between seats {seats}")
            value += payoffs.term_win[t] * (win @ dist) + payoffs.term_tie[t] * (tie @ dist)
            if payoffs.class_vectors is not None:
                value += payoffs.term_class[t] * (payoffs.class_vectors[payoffs.term_own[t]]
                                                  - payoffs.class_vectors[payoffs.term_opp[t]] @ dist)
        out.append(value)
    return out[0], out[1]


def corrections(solved: ClassValues, model: tuple[np.ndarray, np.ndarray], q_oop: np.ndarray,
                q_ip: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    """(d_oop, d_ip, residual_bb): the centred corrections that make every class's value against the
    opponent's range equal its solved value (see the module docstring). A class with no solved value
    keeps the model's (its gap counts as zero)."""
    g_oop = np.nan_to_num(solved.oop - model[0], nan=0.0)
    g_ip = np.nan_to_num(solved.ip - model[1], nan=0.0)
    residual = _mean(g_oop, q_oop) + _mean(g_ip, q_ip)
    g_oop, g_ip = g_oop - residual / 2, g_ip - residual / 2
    d_oop, d_ip = g_oop, g_ip + _mean(g_oop, q_oop)
    shift = (_mean(d_oop, q_oop) + _mean(d_ip, q_ip)) / 2
    return d_oop - shift, d_ip - shift, residual


def corrected_values(model: tuple[np.ndarray, np.ndarray], d: tuple[np.ndarray, np.ndarray], q_oop: np.ndarray,
                     q_ip: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(oop, ip) class values (bb) a solved ending with corrections ``d = (d_oop, d_ip)`` pays against
    the opponent's range: the model's plus the own correction minus the opponent's mean."""
    return model[0] + d[0] - _mean(d[1], q_ip), model[1] + d[1] - _mean(d[0], q_oop)


def role_mean(per_class: tuple[np.ndarray, np.ndarray], q_oop: np.ndarray, q_ip: np.ndarray) -> float:
    """The (oop, ip) per-class figures averaged over each role's classes, weighted by the role's class
    distribution, then over the two roles. Classes with a non-finite figure are left out."""
    means = []
    for figure, q in zip(per_class, (q_oop, q_ip)):
        keep = np.isfinite(figure) & (q > 0)
        means.append(_mean(figure[keep], q[keep]) if keep.any() else 0.0)
    return float(np.mean(means))


def valuation_gap(values: tuple[np.ndarray, np.ndarray], solved: ClassValues, q_oop: np.ndarray,
                  q_ip: np.ndarray) -> float:
    """Mean absolute difference (bb) between ``values`` (oop, ip) and the solved class values, each
    role's classes weighted by the role's class distribution, the two roles averaged. Classes without
    a solved value are left out."""
    return role_mean((np.abs(values[0] - solved.oop), np.abs(values[1] - solved.ip)), q_oop, q_ip)


def valuation_gaps(model: tuple[np.ndarray, np.ndarray], d: tuple[np.ndarray, np.ndarray], solved: ClassValues,
                   q_oop: np.ndarray, q_ip: np.ndarray) -> tuple[float, float]:
    """(table gap, model gap): the :func:`valuation_gap` of what corrections ``d`` pay on top of the
    ``model`` (:func:`corrected_values`), and of the model alone, against the same solved values."""
    paid = corrected_values(model, d, q_oop, q_ip)
    return valuation_gap(paid, solved, q_oop, q_ip), valuation_gap(model, solved, q_oop, q_ip)


def effective_flops(weights: np.ndarray) -> float:
    """The effective number of flops of a weighted subset, ``(sum w)^2 / sum w^2``: the count of
    equally weighted flops whose mean has the same sampling variance."""
    w = np.asarray(weights, dtype=np.float64)
    return float(w.sum() ** 2 / (w @ w))


def flop_spread(measurements: list[tuple[pd.DataFrame, dict]], contrib: tuple[float, float]
                ) -> tuple[np.ndarray, np.ndarray]:
    """(oop, ip) per-class spread (bb) of the solved values between the flops of ``measurements``: the
    board-weighted standard deviation of each flop's class value (:func:`solved_class_values` of that
    flop alone), with the correction that makes it unbiased for reliability weights (equal weights
    give the sample standard deviation). NaN where fewer than two flops value the class.

    A per-ending table fitted on ``n`` such flops and checked on ``m`` others differs from their mean,
    through sampling alone, by about ``sqrt(2/pi) * spread * sqrt(1/n + 1/m)`` per class (normal
    errors), the floor :func:`pokerlab.solved.validate.validation_report` reports."""
    weights = np.array([float(record["board_weight"]) for _, record in measurements])
    per_flop = [solved_class_values([m], contrib) for m in measurements]
    out = []
    for role in ROLES:
        values = np.array([v.role(role) for v in per_flop])  # (flops, classes)
        present = np.isfinite(values)
        w = np.where(present, weights[:, None], 0.0)
        v1, v2 = w.sum(axis=0), (w * w).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(present, w * values, 0.0).sum(axis=0) / v1
            squares = np.where(present, w * (values - mean) ** 2, 0.0).sum(axis=0)
            spread = np.sqrt(squares / (v1 - v2 / v1))
        out.append(np.where(present.sum(axis=0) >= 2, spread, np.nan))
    return out[0], out[1]


def class_features() -> np.ndarray:
    """(169, 7) the hand-shape features the pooled estimator fits corrections on, per class: a
    constant, pair, suited, high and low rank (0 for deuce .. 1 for ace), the gap between the ranks
    (0 connected .. 1 four or more; 0 for pairs) and connected non-pair."""
    high = 12 - np.minimum(CLASS_ROW, CLASS_COL)
    low = 12 - np.maximum(CLASS_ROW, CLASS_COL)
    pair = CLASS_ROW == CLASS_COL
    gap = np.where(pair, 0, np.minimum(high - low - 1, 4))
    return np.column_stack([np.ones(N_CLASSES), pair, CLASS_ROW < CLASS_COL, high / 12, low / 12, gap / 4,
                            ~pair & (gap == 0)]).astype(np.float64)


def model_equity_bb(pot_bb: float, q_opponent: np.ndarray, win: np.ndarray, tie: np.ndarray) -> np.ndarray:
    """Per class, the all-in share of a ``pot_bb`` pot (bb) against the class distribution
    ``q_opponent`` by the preflop equity table: the mean over flops of the checked-down share."""
    dist = q_opponent / q_opponent.sum()
    return pot_bb * (win @ dist + 0.5 * (tie @ dist))


def _weighted_slope(y: np.ndarray, x: np.ndarray, w: np.ndarray) -> float:
    """Least-squares slope of ``y`` on ``x`` (both already centred) with weights ``w``; 0 without spread."""
    denominator = float(w @ (x * x))
    return float(w @ (x * y)) / denominator if denominator > 0 else 0.0


def pooled_class_values(measurements: list[tuple[pd.DataFrame, dict]], contrib: tuple[float, float],
                        model: tuple[np.ndarray, np.ndarray], q_oop: np.ndarray, q_ip: np.ndarray,
                        pot_bb: float, win: np.ndarray, tie: np.ndarray,
                        fit_weights: tuple[np.ndarray, np.ndarray] | None = None) -> ClassValues:
    """The solved class values as the pooled estimator reads them from the flops of ``measurements``
    (which need ``equity_bb``): the model's values plus a correction fitted across classes.

    Per role, with ``g_f(x)`` the gap between class ``x``'s solved value on flop ``f`` and its model
    value, and ``c_f(x)`` the gap between its checked-down share there and its all-in share by the
    equity table (:func:`model_equity_bb`, their mean over all flops):

    1. **control variate**: ``y(x) = mean_f g_f(x) - beta * mean_f c_f(x)``, with ``beta`` the slope of
       ``g`` on ``c`` pooled over classes and flops (weighted by the role's class distribution and the
       flop weights). A flop that hands a class equity also hands it value, so ``y`` keeps the mean
       and loses most of the flop-to-flop noise;
    2. **pooling**: ``y`` is fitted by weighted least squares (weights: the role's class distribution)
       on :func:`class_features`, and every class gets the fit's value.

    Six flops measure a class's own correction with an error larger than the correction; the fit
    trades a per-class bias for far less noise (held-out check: ``docs/pipeline/solved.md``).

    ``fit_weights``: the (oop, ip) class weights of both steps instead of ``q_oop``/``q_ip`` (the exchange
    gives the preflop average strategy's ranges, which move slowly, while the model is priced on the
    current ones)."""
    per_flop = [(solved_class_values([m], contrib), solved_class_values([m], (0.0, 0.0), "equity_bb"))
                for m in measurements]
    weights = np.array([float(record["board_weight"]) for _, record in measurements])
    features = class_features()
    out = []
    own_weights = (q_oop, q_ip) if fit_weights is None else fit_weights
    for r, (q_own, q_opponent) in enumerate(((own_weights[0], q_ip), (own_weights[1], q_oop))):
        role = ROLES[r]
        g = np.array([v.role(role) for v, _ in per_flop]) - model[r]  # (flops, classes)
        c = np.array([e.role(role) for _, e in per_flop]) - model_equity_bb(pot_bb, q_opponent, win, tie)
        present = np.isfinite(g) & np.isfinite(c) & (q_own > 0)
        w = np.where(present, weights[:, None] * q_own, 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            class_weight = w.sum(axis=0)
            g_mean = np.where(present, w * g, 0.0).sum(axis=0) / class_weight
            c_mean = np.where(present, w * c, 0.0).sum(axis=0) / class_weight
        dg = np.where(present, g - g_mean, 0.0)
        dc = np.where(present, c - c_mean, 0.0)
        beta = _weighted_slope(dg.ravel(), dc.ravel(), w.ravel())
        fitted = class_weight > 0
        y = (g_mean - beta * c_mean)[fitted]
        root = np.sqrt(q_own[fitted] / q_own[fitted].sum())
        theta = np.linalg.lstsq(features[fitted] * root[:, None], y * root, rcond=None)[0]
        out.append(model[r] + features @ theta)
    return ClassValues(out[0], out[1], sum(v.mass_oop for v, _ in per_flop), sum(v.mass_ip for v, _ in per_flop))


def estimated_class_values(estimator: str, solved: ClassValues, measurements: list[tuple[pd.DataFrame, dict]],
                           contrib: tuple[float, float], model: tuple[np.ndarray, np.ndarray], q_oop: np.ndarray,
                           q_ip: np.ndarray, pot_bb: float, win: np.ndarray, tie: np.ndarray,
                           fit_weights: tuple[np.ndarray, np.ndarray] | None = None) -> ClassValues:
    """The class values an ending's corrections are fitted to, by ``estimator``
    (:data:`pokerlab.solved.settings.ESTIMATORS`): ``per_class`` the solved values themselves
    (``solved``, :func:`solved_class_values` of ``measurements``, which the caller has already),
    ``pooled`` :func:`pooled_class_values` (with its ``fit_weights``)."""
    if estimator == "pooled":
        return pooled_class_values(measurements, contrib, model, q_oop, q_ip, pot_bb, win, tie, fit_weights)
    return solved
