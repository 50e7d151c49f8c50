"""How a range moves when its player acts: likelihood models and Bayes' rule, combo by combo.

An observed action ``a`` updates a range by

    P(combo | a)  proportional to  P(a | combo, state) * P(combo)

for every one of the 1,326 combos at once (:func:`update_range_for_action`). The likelihood
``P(a | combo, state)`` comes from a model:

``BehaviorModel``
    Logistic thresholds on a hand-strength score ``s`` in [0, 1]:

    * preflop, ``s`` is the class's equity against a random hand, rescaled to its percentile
      among the 1,326 combos (mid-rank, combo weighted), so ``s`` is uniform over the deck;
    * postflop, ``s`` is the share of the live combos (not touching the board or dead cards)
      that the combo's made hand beats on the current board, ties counted half. It measures
      made-hand strength only: draws are not credited.

    Not facing a bet: ``P(bet) = v + bluff_bet * (1 - v) * w`` with
    ``v = sigmoid((s - bet_at) / width)`` (value bets) and ``w = sigmoid((bluff_below - s) / width)``
    (the weakest hands bluff); ``P(check) = 1 - P(bet)``.

    Facing a bet of ``f`` x the pot, the required equity is ``r = f / (1 + 2f)`` (0.25 for a
    half-pot bet, 1/3 for a pot bet, 0.5 in the limit). The thresholds move with it through the
    pot odds' minimum defence frequency ``m(r) = (1 - 2r) / (1 - r)`` (that is ``1 / (1 + f)``:
    the share of its range a player must continue with so that a bluff of that size does not
    profit at once). With the defence factor ``d = m(r) / m(0.25)`` (1 at a half-pot bet, 0.75 at
    a pot bet, 0.07 for a 20x-pot shove, 0 in the limit) each threshold ``t`` (``continue_at``,
    ``raise_at``) becomes ``t(r) = 1 - (1 - t) * d``, bounded to [0, 1], and the logistic scale
    ``width * min(1, d)``: the share of hands above a threshold keeps the proportion to the
    minimum defence frequency it has at a half-pot bet, and a small continuing share keeps a
    sharp edge. ``c = sigmoid((s - continue_at(r)) / width(r))`` continues,
    ``v = sigmoid((s - raise_at(r)) / width(r))`` raises for value, and
    ``b = bluff_raise * max(0, 1 - 2r) * (1 - c)`` raise-bluffs from the hands that would
    otherwise fold, vanishing as ``r`` nears 0.5. Then ``P(raise) = v + b``, ``P(call) = c - v``,
    ``P(fold) = 1 - c - b``.

    The reference form moved both thresholds by ``r - 0.25`` (bounded): since ``r < 0.5`` that
    shift never exceeds 0.25, so facing a 100bb shove over a 2.5bb open the ``regular`` model
    still continued with its top ~31% of hands (and 66% of a button opening range). The bound
    was never the cause; an additive shift on a strength percentile cannot shrink a range the
    way pot odds of 20:1 do. Against bets up to about a pot the two forms differ by at most
    about five percentiles (identical at a half-pot bet).

    The four archetypes (:data:`ARCHETYPES`: ``regular``, ``nit``, ``calling_station``,
    ``maniac``) are illustrative parameter sets, **not fitted to data**. Where a player's
    VPIP, PFR and aggression factor have been measured, :func:`archetype_from_stats` picks the
    archetype whose reference profile is nearest (each statistic scaled by its spread across the
    profiles); that is a choice among four illustrations, not an estimate.
    :func:`pokerlab.advice.profile.villain_profile` measures the statistics from hand files.

``StrategyLikelihood``
    An explicit per-combo policy: ``P(action | combo)`` read from a preflop chart node
    (:meth:`StrategyLikelihood.from_chart_node`, class frequencies given to each combo) or a
    postflop solve's average strategy at a node (:meth:`StrategyLikelihood.from_postflop_solver`).
    Actions or combos the policy does not define fall back to a behavioural model.

Actions are named ``fold``, ``check``, ``call``, ``bet``, ``raise`` and ``allin``; chart letters
``F``, ``C``, ``R``, ``A`` are accepted too (``C`` is a call when facing a bet, else a check;
``R`` a raise when facing a bet, else a bet). An all-in is a bet or a raise of the whole stack:
pass its size as ``size_pot_fraction``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Iterable, Mapping

import numpy as np

from pokerlab.cards import COMBO_CARDS, COMBO_CLASS, N_COMBOS, combos_blocked_by
from pokerlab.ranges.range import Range, as_cards

__all__ = [
    "ACTIONS",
    "ARCHETYPES",
    "BehaviorModel",
    "StrategyLikelihood",
    "archetype_from_stats",
    "canonical_action",
    "defence_factor",
    "postflop_strength",
    "preflop_strength",
    "required_equity",
    "update_range_for_action",
]

ACTIONS = ("fold", "check", "call", "bet", "raise", "allin")
_LETTERS = {"F": "fold", "C": "call", "R": "raise", "A": "allin", "X": "check", "B": "bet"}


def required_equity(size_pot_fraction: float) -> float:
    """The pot odds of calling a bet of ``f`` x the pot: ``f / (1 + 2f)`` (0 at f = 0, 0.5 as f grows)."""
    f = float(size_pot_fraction)
    if not math.isfinite(f) or f < 0:
        raise ValueError(f"size_pot_fraction: expected a bet size >= 0 as a fraction of the pot, got {size_pot_fraction!r}")
    return f / (1.0 + 2.0 * f)


def defence_factor(required: float) -> float:
    """The minimum defence frequency ``(1 - 2r) / (1 - r)`` at required equity ``r``, relative to
    its value at a half-pot bet (r = 0.25): 1 there, 0.75 for a pot bet, 0 as ``r`` nears 0.5."""
    r = float(required)
    if not 0.0 <= r <= 0.5:
        raise ValueError(f"required equity: expected a value in [0, 0.5], got {required!r}")
    return 1.5 * (1.0 - 2.0 * r) / (1.0 - r)


def canonical_action(action: str, facing_bet: bool) -> str:
    """``fold``/``call``/``raise`` facing a bet, ``check``/``bet`` otherwise (an all-in becomes a
    raise or a bet); raises ``ValueError`` on an action that is not legal in that state."""
    if not isinstance(action, str):
        raise ValueError(f"action: expected one of {', '.join(ACTIONS)} (or F/C/R/A), got {action!r}")
    name = _LETTERS.get(action, action.strip().lower())
    if name not in ACTIONS:
        raise ValueError(f"action: expected one of {', '.join(ACTIONS)} (or F/C/R/A), got {action!r}")
    if facing_bet:
        name = {"bet": "raise", "allin": "raise", "check": "check"}.get(name, name)
        if name == "check":
            raise ValueError("action: 'check' is not possible when facing a bet (fold, call or raise)")
    else:
        name = {"raise": "bet", "allin": "bet", "call": "check"}.get(name, name)
        if name == "fold":
            raise ValueError("action: 'fold' is not modelled when not facing a bet (check or bet)")
    return name


# --- hand strength ---------------------------------------------------------------------------


def _percentile(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Mid-rank share of the masked entries that each masked entry beats (ties half), in [0, 1];
    0 outside the mask."""
    live = values[mask]
    order = np.sort(live)
    below = np.searchsorted(order, live, side="left")
    equal = np.searchsorted(order, live, side="right") - below
    n = live.size
    out = np.zeros(values.shape, dtype=np.float64)
    if n > 1:
        out[mask] = (below + 0.5 * (equal - 1)) / (n - 1)
    elif n == 1:
        out[mask] = 0.5
    return out


def preflop_strength(class_equity: np.ndarray) -> np.ndarray:
    """Per combo (1,326): the percentile of its class's equity against a random hand among all
    combos (mid-rank; AA is near 1, 72o near 0). ``class_equity`` is 169 numbers in grid order."""
    eq = np.asarray(class_equity, dtype=np.float64)
    if eq.shape != (169,):
        raise ValueError(f"class_equity: expected 169 class equities in grid order, got shape {eq.shape}")
    return _percentile(eq[COMBO_CLASS], np.ones(N_COMBOS, dtype=bool))


def postflop_strength(board, dead=None) -> np.ndarray:
    """Per combo (1,326): the share of the live combos (those holding no board or dead card) that
    its made hand beats on ``board`` (3-5 cards), ties counted half; 0 for blocked combos."""
    from pokerlab.evaluator import evaluate_batch

    board_cards = as_cards(board)
    if not 3 <= len(board_cards) <= 5:
        raise ValueError(f"board: postflop strength needs 3 to 5 board cards, got {len(board_cards)}")
    removed = board_cards + [c for c in as_cards(dead) if c not in board_cards]
    live = ~combos_blocked_by(removed)
    hands = np.empty((N_COMBOS, 2 + len(board_cards)), dtype=np.int64)
    hands[:, :2] = COMBO_CARDS
    hands[:, 2:] = board_cards
    hands[~live, :2] = [c for c in range(52) if c not in removed][:2]  # any distinct cards; masked out
    strengths = evaluate_batch(hands).astype(np.int64)
    return _percentile(strengths, live)


# --- behavioural model -----------------------------------------------------------------------


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 0.5 * (1.0 + np.tanh(0.5 * x))


@dataclass(frozen=True)
class BehaviorModel:
    """Logistic thresholds on hand strength (see the module docstring). Illustrative parameters.

    Thresholds are strength percentiles in [0, 1]: ``continue_at`` (call or raise facing a half-pot
    bet, required equity 0.25), ``raise_at`` (raise for value), ``bet_at`` (bet for value when
    checked to), ``bluff_below`` (the hands that bluff), ``width`` (logistic scale),
    ``bluff_bet`` and ``bluff_raise`` (the bluffing share of those hands).
    """

    name: str
    continue_at: float
    raise_at: float
    bet_at: float
    bluff_below: float = 0.25
    width: float = 0.06
    bluff_bet: float = 0.2
    bluff_raise: float = 0.08
    class_equity: tuple[float, ...] | None = None
    """169 class equities vs a random hand for the preflop strength; None: the bundled priors'."""

    def __post_init__(self) -> None:
        for field in ("continue_at", "raise_at", "bet_at", "bluff_below"):
            value = getattr(self, field)
            if not (isinstance(value, (int, float)) and 0.0 <= value <= 1.0):
                raise ValueError(f"{field}: expected a strength percentile in [0, 1], got {value!r}")
        for field in ("bluff_bet", "bluff_raise"):
            value = getattr(self, field)
            if not (isinstance(value, (int, float)) and 0.0 <= value <= 1.0):
                raise ValueError(f"{field}: expected a share in [0, 1], got {value!r}")
        if not (isinstance(self.width, (int, float)) and self.width > 0):
            raise ValueError(f"width: expected a positive logistic scale, got {self.width!r}")
        if self.raise_at < self.continue_at:
            raise ValueError(f"raise_at ({self.raise_at}) must be >= continue_at ({self.continue_at})")

    def with_class_equity(self, class_equity: Iterable[float]) -> "BehaviorModel":
        return replace(self, class_equity=tuple(float(x) for x in class_equity))

    def strength(self, board=None, dead=None) -> np.ndarray:
        """Per-combo strength percentile (1,326) on ``board`` (preflop if it is empty)."""
        if as_cards(board):
            return postflop_strength(board, dead)
        equity = self.class_equity
        if equity is None:
            from pokerlab.ranges.priors import RangePriors

            equity = RangePriors.default().class_equity
        return preflop_strength(np.asarray(equity))

    def action_probabilities(self, strength: np.ndarray, facing_bet: bool, size_pot_fraction: float = 0.0) -> dict[str, np.ndarray]:
        """Per combo, the probability of each legal action (they sum to 1): ``fold``, ``call``,
        ``raise`` facing a bet of ``size_pot_fraction`` x the pot; ``check``, ``bet`` otherwise."""
        s = np.asarray(strength, dtype=np.float64)
        if facing_bet:
            r = required_equity(size_pot_fraction)
            d = defence_factor(r)
            width = self.width * min(1.0, d)
            cont_at = min(max(1.0 - (1.0 - self.continue_at) * d, 0.0), 1.0)
            raise_at = min(max(1.0 - (1.0 - self.raise_at) * d, 0.0), 1.0)
            if width <= 0:  # an infinite bet: nothing continues (the limit of the logistic)
                cont = np.zeros_like(s)
                value = np.zeros_like(s)
            else:
                cont = _sigmoid((s - cont_at) / width)
                value = np.minimum(_sigmoid((s - raise_at) / width), cont)
            bluff = self.bluff_raise * max(0.0, 1.0 - 2.0 * r) * (1.0 - cont)
            return {"fold": 1.0 - cont - bluff, "call": cont - value, "raise": value + bluff}
        value = _sigmoid((s - self.bet_at) / self.width)
        weak = _sigmoid((self.bluff_below - s) / self.width)
        bet = value + self.bluff_bet * (1.0 - value) * weak
        return {"check": 1.0 - bet, "bet": bet}

    def likelihood(self, action: str, facing_bet: bool, board=None, dead=None, size_pot_fraction: float = 0.0) -> np.ndarray:
        """P(action | combo) for every combo (1,326)."""
        name = canonical_action(action, facing_bet)
        return self.action_probabilities(self.strength(board, dead), facing_bet, size_pot_fraction)[name]


ARCHETYPES: dict[str, BehaviorModel] = {
    "regular": BehaviorModel("regular", continue_at=0.45, raise_at=0.85, bet_at=0.62, bluff_bet=0.25, bluff_raise=0.08),
    "nit": BehaviorModel("nit", continue_at=0.62, raise_at=0.93, bet_at=0.78, bluff_bet=0.06, bluff_raise=0.02),
    "calling_station": BehaviorModel("calling_station", continue_at=0.18, raise_at=0.96, bet_at=0.80, bluff_bet=0.05,
                                     bluff_raise=0.01),
    "maniac": BehaviorModel("maniac", continue_at=0.30, raise_at=0.62, bet_at=0.40, bluff_below=0.45, bluff_bet=0.55,
                            bluff_raise=0.35),
}
"""Illustrative archetypes (not fitted). ``regular`` is the default analysis's model."""

# Reference profiles for archetype_from_stats: VPIP %, PFR %, aggression factor (bets+raises / calls).
_REFERENCE_STATS = {
    "regular": (24.0, 19.0, 2.5),
    "nit": (13.0, 10.0, 2.0),
    "calling_station": (42.0, 7.0, 0.7),
    "maniac": (50.0, 38.0, 4.5),
}


def archetype_from_stats(vpip: float, pfr: float, aggression_factor: float) -> BehaviorModel:
    """The archetype whose reference (VPIP %, PFR %, aggression factor) is nearest to a player's
    measured statistics, each axis divided by its standard deviation across the four profiles.
    A choice among illustrations: use the statistics' credible intervals to judge whether the
    choice is stable."""
    x = np.array([vpip, pfr, aggression_factor], dtype=np.float64)
    if not np.all(np.isfinite(x)) or np.any(x < 0) or vpip > 100 or pfr > vpip:
        raise ValueError(f"stats: expected 0 <= pfr <= vpip <= 100 and aggression >= 0, got vpip={vpip}, pfr={pfr}, "
                         f"aggression_factor={aggression_factor}")
    names = list(_REFERENCE_STATS)
    ref = np.array([_REFERENCE_STATS[n] for n in names])
    scale = ref.std(axis=0)
    distance = (((ref - x) / scale) ** 2).sum(axis=1)
    return ARCHETYPES[names[int(np.argmin(distance))]]


def model_named(model: "str | BehaviorModel | StrategyLikelihood") -> "BehaviorModel | StrategyLikelihood":
    """An archetype by name, or the model itself."""
    if isinstance(model, str):
        if model not in ARCHETYPES:
            raise ValueError(f"model: unknown archetype {model!r}; expected one of {', '.join(ARCHETYPES)}")
        return ARCHETYPES[model]
    if not isinstance(model, (BehaviorModel, StrategyLikelihood)):
        raise ValueError(f"model: expected an archetype name, a BehaviorModel or a StrategyLikelihood, got {model!r}")
    return model


# --- explicit policies -----------------------------------------------------------------------


class StrategyLikelihood:
    """An explicit per-combo policy ``P(action | combo)`` with a behavioural fallback.

    ``policy`` maps action names (see :func:`canonical_action`) to 1,326-vectors of
    probabilities; NaN marks a combo the policy does not define (it never reaches the node), for
    which the ``fallback`` model's probability is used; so is an action the policy does not name.
    """

    def __init__(self, policy: Mapping[str, np.ndarray], fallback: "BehaviorModel | str" = "regular",
                 name: str = "explicit policy"):
        self.policy: dict[str, np.ndarray] = {}
        for action, values in policy.items():
            if action not in ACTIONS:
                raise ValueError(f"policy: unknown action {action!r}; expected one of {', '.join(ACTIONS)}")
            arr = np.array(values, dtype=np.float64)
            if arr.shape != (N_COMBOS,):
                raise ValueError(f"policy[{action!r}]: expected {N_COMBOS} probabilities, got shape {arr.shape}")
            finite = arr[np.isfinite(arr)]
            if np.any(finite < -1e-12) or np.any(finite > 1 + 1e-9):
                raise ValueError(f"policy[{action!r}]: probabilities must lie in [0, 1]")
            arr[np.isfinite(arr)] = np.clip(finite, 0.0, 1.0)
            arr.setflags(write=False)
            self.policy[action] = arr
        self.fallback = model_named(fallback)
        self.name = name

    def likelihood(self, action: str, facing_bet: bool, board=None, dead=None, size_pot_fraction: float = 0.0) -> np.ndarray:
        name = canonical_action(action, facing_bet)
        raw = _LETTERS.get(action, action.strip().lower())
        explicit = self.policy.get("allin") if raw == "allin" else None
        if explicit is None:
            explicit = self.policy.get(name)
        if explicit is None and name in ("check", "call"):
            explicit = self.policy.get("call" if name == "check" else "check")
        if explicit is None and name in ("bet", "raise"):
            explicit = self.policy.get("raise" if name == "bet" else "bet")
        if explicit is not None and np.all(np.isfinite(explicit)):
            return explicit.copy()
        fallback = self.fallback.likelihood(name, facing_bet, board, dead, size_pot_fraction)
        if explicit is None:
            return fallback
        return np.where(np.isfinite(explicit), explicit, fallback)

    @classmethod
    def from_chart_node(cls, chart: "dict | str", node_id: str, fallback: "BehaviorModel | str" = "regular") -> "StrategyLikelihood":
        """The actor's policy at a published chart node: each combo gets its class's decoded
        frequency of each action (quantised to 1/90). ``C`` is ``call`` (and ``check``), ``R``
        ``raise``/``bet``, ``A`` ``allin`` (a raise), ``F`` ``fold``."""
        from pokerlab.charts import find_node, load_chart
        from pokerlab.encoding import decode

        doc = load_chart(chart) if not isinstance(chart, dict) else chart
        node = find_node(doc, node_id)
        policy = {}
        for letter in node["actions"]:
            freq = decode(node["strategy"][letter])[COMBO_CLASS]
            policy[_LETTERS[letter]] = freq
        # the chart's R and A are two raise sizes; a bare "raise" observation means the scheduled one
        return cls(policy, fallback=fallback, name=f"chart node {node_id!r} ({node['actor']})")

    @classmethod
    def from_postflop_solver(cls, solver, node: int, dealt: tuple[int, ...] = (),
                             fallback: "BehaviorModel | str" = "regular") -> "StrategyLikelihood":
        """The average strategy of a solved :class:`pokerlab.postflop.solver.PostflopSolver` at
        decision ``node`` (after the ``dealt`` cards) as a policy of the acting player. Labels
        ``CHECK``, ``CALL``, ``FOLD`` map to their names; the first ``BET``/``RAISE`` size to
        ``bet``/``raise`` and the largest (the all-in when offered) also to ``allin``."""
        player = int(solver.tree.actor[node])
        strategy = solver.average_strategy(node, dealt)
        labels = solver.tree.actions(node)
        hands = solver.hands[player]
        policy: dict[str, np.ndarray] = {}
        sized = [k for k, label in enumerate(labels) if label.split()[0] in ("BET", "RAISE")]
        for k, label in enumerate(labels):
            word = label.split()[0].lower()
            vec = np.full(N_COMBOS, np.nan)
            vec[hands] = strategy[k]
            if word in ("check", "call", "fold"):
                policy[word] = vec
            elif sized and k == sized[0]:
                policy[word] = vec
            if sized and k == sized[-1] and word in ("bet", "raise"):
                policy["allin"] = vec
        return cls(policy, fallback=fallback, name=f"postflop solve node {node}")


# --- Bayes' rule -----------------------------------------------------------------------------


def update_range_for_action(
    prior: Range | str,
    action: str,
    facing_bet: bool,
    board=None,
    dead=None,
    model: "str | BehaviorModel | StrategyLikelihood" = "regular",
    size_pot_fraction: float = 0.0,
) -> Range:
    """The posterior range after its player takes ``action``: the prior with the board and dead
    cards removed, times ``model``'s ``P(action | combo)``, normalised (sums to 1).

    ``facing_bet`` says whether the player faced a bet; ``size_pot_fraction`` is the size of the
    bet faced (facing) or made (bet/raise), as a fraction of the pot before it. Raises
    ``ValueError`` naming the action when the observation has probability zero under the prior
    and the model.
    """
    from pokerlab.ranges.range import as_range

    prior_range = as_range(prior)
    live = prior_range.remove_cards(as_cards(board) + [c for c in as_cards(dead) if c not in as_cards(board)])
    if live.total_weight() <= 0:
        raise ValueError("prior: no combo of the range is left after the board and dead cards")
    lik = model_named(model).likelihood(action, facing_bet, board, dead, size_pot_fraction)
    try:
        return live.update(lik)
    except ValueError:
        raise ValueError(f"impossible observation: action {action!r} has probability zero for every combo of the "
                         f"range under the model") from None
