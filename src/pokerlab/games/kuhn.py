"""Kuhn poker: the game, vanilla CFR / CFR+ on it, and exact best responses.

The correctness anchor of pokerlab's regret-minimisation and best-response code. The CFR
loop below is built from the same primitives (:mod:`pokerlab.cfr`) as the preflop solver.

Game
    Two players, three cards ``J < Q < K`` (indices 0, 1, 2). Both ante 1 and get one card;
    the third stays unseen, so the six ordered deals ``JQ JK QJ QK KJ KQ`` (P0's card first)
    each have probability 1/6. P0 checks or bets 1; after a check P1 checks or bets 1; a bet
    is answered by a fold or a call; there is no raise. A checked-down showdown pays the
    winner +1 net, a called bet +2. The game value for P0 is -1/18 ante per hand.

Histories and actions
    A public history is a string over ``p`` (pass: check or fold) and ``b`` (bet: bet or
    call), as in OpenSpiel: decisions at ``""`` (P0), ``"p"`` and ``"b"`` (P1), ``"pb"``
    (P0). Action 0 is the pass, action 1 the bet.

Profile array
    A behaviour profile is a float array of shape ``(2, 2, 3, 2)``: ``[player, point, card,
    action]``, where ``point`` 0 is the player's first decision (``""`` for P0, ``"p"`` for
    P1) and ``point`` 1 its decision facing a bet (``"pb"`` for P0, ``"b"`` for P1). Each of
    the 12 information sets is one ``(player, point, card)``: it is keyed by the player's own
    card and the public history, never by the opponent's card.

Units and conventions
    Values are in antes per hand, P0's perspective unless a player is named. ``delta[i]`` is
    what player i gains by switching alone to an exact, information-set-consistent best
    response; NashConv is ``delta[0] + delta[1]``; exploitability is ``NashConv / 2`` (the
    two-player convention of OpenSpiel's ``exploitability``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

import numpy as np

from pokerlab.cfr import (
    accumulate_average,
    average_strategy,
    instant_regrets,
    linear_average_weight,
    regret_matching,
    regret_matching_plus_update,
    update_groups,
)

CARD_NAMES = ("J", "Q", "K")
N_PLAYERS = 2
PROFILE_SHAPE = (2, 2, 3, 2)  # player, point, card, action
GAME_VALUE = -1.0 / 18.0  # P0's equilibrium value, antes per hand
CHANCE = 1.0 / 6.0  # probability of each ordered deal

#: Public history of each (player, point), and the names of its two actions.
DECISION_HISTORY = (("", "pb"), ("p", "b"))
ACTION_NAMES = {"": ("check", "bet"), "p": ("check", "bet"), "b": ("fold", "call"), "pb": ("fold", "call")}
_POINT_OF_HISTORY = {h: (player, point) for player, row in enumerate(DECISION_HISTORY) for point, h in enumerate(row)}

#: The six ordered deals, (P0 card, P1 card), sorted by P0's card.
DEALS = np.array([(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)])
#: DEAL_CARD[player, deal]: the card that player holds in that deal.
DEAL_CARD = DEALS.T.copy()
#: +1 where P0 holds the higher card.
_SHOWDOWN = np.where(DEALS[:, 0] > DEALS[:, 1], 1.0, -1.0)
#: P0's payoff at each terminal history, per deal.
TERMINAL_PAYOFF = {
    "pp": _SHOWDOWN,
    "bp": np.ones(6),
    "bb": 2.0 * _SHOWDOWN,
    "pbp": -np.ones(6),
    "pbb": 2.0 * _SHOWDOWN,
}
# P0's payoffs of the two actions at a decision whose actions both end the hand.
_P0_FACING_PAYOFF = np.stack([TERMINAL_PAYOFF["pbp"], TERMINAL_PAYOFF["pbb"]], axis=-1)  # after "pb"
_P1_FACING_PAYOFF = np.stack([TERMINAL_PAYOFF["bp"], TERMINAL_PAYOFF["bb"]], axis=-1)  # after "b"

# P0's value of the actions that end the hand, (player, point, deal, action); NaN elsewhere.
_TERMINAL_ACTION_VALUES = np.full((N_PLAYERS, 2, 6, 2), np.nan)
_TERMINAL_ACTION_VALUES[0, 1] = _P0_FACING_PAYOFF  # P0 after check-bet: fold / call
_TERMINAL_ACTION_VALUES[1, 1] = _P1_FACING_PAYOFF  # P1 facing a bet: fold / call
_TERMINAL_ACTION_VALUES[1, 0, :, 0] = _SHOWDOWN  # P1 checks behind

# Rows of ``profile.reshape(12, 2)`` (one per information set) that each (player, point, deal)
# plays, and the 0/1 matrix summing per-deal rows back into the information sets holding them.
_PER_DEAL_SHAPE = (N_PLAYERS, 2, 6, 2)  # player, point, deal, action
_PER_DEAL_ROWS = np.ravel_multi_index(
    np.broadcast_arrays(np.arange(N_PLAYERS)[:, None, None], np.arange(2)[None, :, None], DEAL_CARD[:, None, :]),
    PROFILE_SHAPE[:3],
).ravel()
_DEALS_TO_INFOSETS = (np.arange(12)[:, None] == _PER_DEAL_ROWS[None, :]).astype(float)
FIGURE_NAMES = ("value", "value_gap", "delta0", "delta1", "nashconv", "exploitability")


def _per_deal(profile: np.ndarray) -> np.ndarray:
    """The strategy each player uses in each deal: ``(..., player, point, deal, action)``."""
    lead = profile.shape[:-4]
    return profile.reshape(*lead, 12, 2)[..., _PER_DEAL_ROWS, :].reshape(*lead, *_PER_DEAL_SHAPE)


def information_set_name(player: int, point: int, card: int) -> str:
    """OpenSpiel-style key of an information set: own card then public history (``'Jpb'``)."""
    return CARD_NAMES[card] + DECISION_HISTORY[player][point]


def uniform_profile() -> np.ndarray:
    """Every information set plays both actions with probability 1/2."""
    return np.full(PROFILE_SHAPE, 0.5)


def equilibrium_profile(alpha: float) -> np.ndarray:
    """Kuhn's equilibrium family, ``0 <= alpha <= 1/3`` (P0's J bluff frequency).

    P0 bets J with ``alpha``, never Q, K with ``3 alpha``; after check-bet it calls with Q at
    ``alpha + 1/3`` and with K always. P1 after a check bets J 1/3, Q never, K always; facing a
    bet it calls Q 1/3 and K always. J never calls.
    """
    if not 0.0 <= alpha <= 1.0 / 3.0:
        raise ValueError(f"alpha must be in [0, 1/3], got {alpha!r}")
    bet = np.array(
        [
            [[alpha, 0.0, 3.0 * alpha], [0.0, alpha + 1.0 / 3.0, 1.0]],  # P0: open, facing after check-bet
            [[1.0 / 3.0, 0.0, 1.0], [0.0, 1.0 / 3.0, 1.0]],  # P1: after check, facing a bet
        ]
    )
    return np.stack([1.0 - bet, bet], axis=-1)


def check_profile(profile: np.ndarray) -> np.ndarray:
    """Return ``profile`` as float64 after checking shape and that it is a behaviour profile."""
    profile = np.asarray(profile, dtype=float)
    if profile.shape[-4:] != PROFILE_SHAPE:
        raise ValueError(f"profile must end in shape {PROFILE_SHAPE}, got {profile.shape}")
    if not (np.all(profile >= 0.0) and np.allclose(profile.sum(axis=-1), 1.0, rtol=0.0, atol=1e-12)):
        raise ValueError("profile must be non-negative and sum to 1 over the two actions of every information set")
    return profile


# ----------------------------------------------------------------------------------------------
# Vectorised evaluation over the six deals (the CFR inner loop)
# ----------------------------------------------------------------------------------------------


def _dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Sum over the last (action) axis of ``a * b``."""
    return np.add.reduce(a * b, axis=-1)


def _p0_action_values(per_deal: np.ndarray) -> np.ndarray:
    """P0's value of each action at every decision, per deal.

    ``per_deal``: the profile gathered per deal, shape ``(..., player, point, deal, action)``.
    Returns the same shape: entry ``[..., i, q, d, a]`` is P0's value, in deal ``d``, of taking
    action ``a`` at player ``i``'s decision ``q`` and following ``per_deal`` afterwards.
    """
    values = np.empty(per_deal.shape)
    values[...] = _TERMINAL_ACTION_VALUES
    values[..., 1, 0, :, 1] = _dot(per_deal[..., 0, 1, :, :], _P0_FACING_PAYOFF)  # P1 bets
    values[..., 0, 0, :, 0] = _dot(per_deal[..., 1, 0, :, :], values[..., 1, 0, :, :])  # P0 checks
    values[..., 0, 0, :, 1] = _dot(per_deal[..., 1, 1, :, :], _P1_FACING_PAYOFF)  # P0 bets
    return values


def expected_value(profile: np.ndarray) -> np.ndarray | float:
    """P0's expected value of ``profile`` (antes per hand); leading axes are batched over."""
    per_deal = _per_deal(profile)
    open_values = _p0_action_values(per_deal)[..., 0, 0, :, :]
    return CHANCE * (per_deal[..., 0, 0, :, :] * open_values).sum(axis=(-2, -1))


def _regrets_and_reach(profile: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One full-tree pass over the six deals under ``profile``.

    Returns the instant counterfactual regrets of every information set, shape
    ``PROFILE_SHAPE`` (weighted by chance and the opponent's reach), and each information set's
    reach under its owner's own actions, shape ``(player, point, card)``.
    """
    per_deal = _per_deal(profile)
    values = _p0_action_values(per_deal)
    # Counterfactual reach: chance times the opponent's probability of reaching the decision.
    # P1's rows carry a minus sign, turning P0's values into P1's inside ``instant_regrets``.
    counterfactual_reach = np.empty(_PER_DEAL_SHAPE[:3])
    counterfactual_reach[0, 0] = CHANCE  # P0's first decision
    counterfactual_reach[0, 1] = CHANCE * per_deal[1, 0, :, 1]  # "pb": P1 bet after the check
    counterfactual_reach[1] = -CHANCE * per_deal[0, 0].T  # "p" / "b": P0 checked / bet
    per_deal_regrets = instant_regrets(values, per_deal, counterfactual_reach)
    regrets = (_DEALS_TO_INFOSETS @ per_deal_regrets.reshape(-1, 2)).reshape(PROFILE_SHAPE)
    owner_reach = np.ones(PROFILE_SHAPE[:3])
    owner_reach[0, 1] = profile[0, 0, :, 0]  # P0 reaches "pb" only by checking
    return regrets, owner_reach


# ----------------------------------------------------------------------------------------------
# Best responses
# ----------------------------------------------------------------------------------------------


def _response_pass(profile: np.ndarray, player: int, keys: np.ndarray, history: str, reach: np.ndarray) -> np.ndarray:
    """Recursive tree pass: ``player``'s value per deal, weighted by chance and opponent reach.

    The opponent plays ``profile``; ``player`` plays, at each of its decisions, the action
    whose value summed over all deals sharing the same ``keys[deal]`` is largest. With
    ``keys`` = the player's own card this is a legal best response (one choice per information
    set); with ``keys`` = the deal index it is clairvoyant.
    """
    if history in TERMINAL_PAYOFF:
        sign = 1.0 if player == 0 else -1.0
        return sign * CHANCE * reach * TERMINAL_PAYOFF[history]
    actor, point = _POINT_OF_HISTORY[history]
    if actor != player:
        strategy = profile[actor, point, DEAL_CARD[actor]]
        return sum(_response_pass(profile, player, keys, history + a, reach * strategy[:, i]) for i, a in enumerate("pb"))
    children = np.stack([_response_pass(profile, player, keys, history + a, reach) for a in "pb"], axis=-1)
    totals = np.zeros((keys.max() + 1, 2))
    np.add.at(totals, keys, children)
    best = totals.argmax(axis=-1)
    return children[np.arange(len(keys)), best[keys]]


def best_response_value(profile: np.ndarray, player: int) -> float:
    """Value for ``player`` of an exact information-set-consistent best response, by tree pass."""
    profile = check_profile(profile)
    return float(_response_pass(profile, player, DEAL_CARD[player], "", np.ones(6)).sum())


def clairvoyant_response_value(profile: np.ndarray, player: int) -> float:
    """Value for ``player`` of a response that sees both cards (not a legal poker strategy).

    A diagnostic only: tests use it to show the legal best response is told apart from it.
    """
    profile = check_profile(profile)
    return float(_response_pass(profile, player, np.arange(6), "", np.ones(6)).sum())


#: All 2**6 pure plans of one player: shape (64, point, card, action), one-hot actions.
PURE_PLANS = np.array(
    [np.eye(2)[np.array(bits).reshape(2, 3)] for bits in itertools.product((0, 1), repeat=6)]
)


def best_response_value_by_enumeration(profile: np.ndarray, player: int) -> float:
    """Value for ``player`` of its best pure plan among all 64, the opponent playing ``profile``.

    An independent check of :func:`best_response_value`: no tree pass, just the expected value
    of every complete pure plan (one action per information set).
    """
    profile = check_profile(profile)
    candidates = np.broadcast_to(profile, (len(PURE_PLANS), *PROFILE_SHAPE)).copy()
    candidates[:, player] = PURE_PLANS
    values = expected_value(candidates)
    return float((values if player == 0 else -values).max())


@dataclass(frozen=True)
class ProfileFigures:
    """How far a profile is from equilibrium, in antes per hand.

    ``value``: P0's self-play value; ``value_gap``: ``|value - GAME_VALUE|``;
    ``delta0``/``delta1``: each player's gain from a unilateral exact best response.
    """

    value: float
    value_gap: float
    delta0: float
    delta1: float

    @property
    def nashconv(self) -> float:
        """``delta0 + delta1``."""
        return self.delta0 + self.delta1

    @property
    def exploitability(self) -> float:
        """``NashConv / 2`` (OpenSpiel's two-player convention)."""
        return self.nashconv / 2.0

    def as_dict(self, prefix: str = "") -> dict[str, float]:
        """The figures as a flat dict whose keys are ``prefix`` + field name."""
        return {prefix + name: float(getattr(self, name)) for name in FIGURE_NAMES}


def profile_figures(profile: np.ndarray) -> ProfileFigures:
    """Self-play value, its gap to the game value, and both exact best-response gains."""
    profile = check_profile(profile)
    value = float(expected_value(profile))
    return ProfileFigures(
        value=value,
        value_gap=abs(value - GAME_VALUE),
        delta0=best_response_value(profile, 0) - value,
        delta1=best_response_value(profile, 1) + value,
    )


# ----------------------------------------------------------------------------------------------
# CFR and CFR+
# ----------------------------------------------------------------------------------------------

VARIANTS = ("cfr", "cfr+")
DEFAULT_CHECKPOINTS = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000)


@dataclass
class KuhnSolver:
    """Full-tree CFR on Kuhn poker, all six deals every iteration.

    ``variant``: ``"cfr"`` (vanilla: cumulative regrets, average weighted by the owner's reach)
    or ``"cfr+"`` (regret-matching+ floor, average weighted by reach times the iteration
    number). ``updates``: ``"simultaneous"`` (both players' regrets updated after the same
    pass) or ``"alternating"`` (P0 then P1, P1's pass seeing P0's updated strategy).
    """

    variant: str = "cfr"
    updates: str = "simultaneous"
    iteration: int = 0
    regrets: np.ndarray = field(default_factory=lambda: np.zeros(PROFILE_SHAPE))
    strategy_sum: np.ndarray = field(default_factory=lambda: np.zeros(PROFILE_SHAPE))

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(f"bad variant {self.variant!r}: expected one of {VARIANTS}")
        self._groups = [slice(g.start, g.stop) for g in update_groups(self.updates, N_PLAYERS)]

    def current_profile(self) -> np.ndarray:
        """Regret matching on the regrets so far: the strategy the next iteration plays."""
        return regret_matching(self.regrets)

    def average_profile(self) -> np.ndarray:
        """The weighted average of the strategies played so far: what a solver ships."""
        return average_strategy(self.strategy_sum)

    def run(self, iterations: int) -> None:
        """Run ``iterations`` more iterations."""
        plus = self.variant == "cfr+"
        for _ in range(iterations):
            self.iteration += 1
            for players in self._groups:
                strategy = self.current_profile()
                regrets, reach = _regrets_and_reach(strategy)
                if plus:
                    regret_matching_plus_update(self.regrets[players], regrets[players])
                    reach = reach * linear_average_weight(self.iteration)
                else:
                    self.regrets[players] += regrets[players]
                accumulate_average(self.strategy_sum[players], strategy[players], reach[players])


def solve(
    iterations: int,
    *,
    variant: str = "cfr",
    updates: str = "simultaneous",
    checkpoints: tuple[int, ...] | list[int] = DEFAULT_CHECKPOINTS,
) -> tuple[KuhnSolver, list[dict[str, float]]]:
    """Run ``iterations`` iterations and measure both profiles at every checkpoint.

    Checkpoints above ``iterations`` are dropped and ``iterations`` itself is always measured.
    Returns the solver (final state) and one row per checkpoint: ``iteration`` plus the
    :class:`ProfileFigures` of the average profile (``avg_*``) and of the current one
    (``cur_*``, regret matching after that iteration's update).
    """
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ValueError(f"iterations must be a positive integer, got {iterations!r}")
    bad = [c for c in checkpoints if isinstance(c, bool) or not isinstance(c, (int, np.integer)) or c < 1]
    if bad:
        raise ValueError(f"checkpoints must be positive integers, got {bad}")
    stops = sorted({int(c) for c in checkpoints if c <= iterations} | {int(iterations)})
    solver = KuhnSolver(variant=variant, updates=updates)
    rows = []
    for stop in stops:
        solver.run(stop - solver.iteration)
        row: dict[str, float] = {"iteration": stop}
        row.update(profile_figures(solver.average_profile()).as_dict("avg_"))
        row.update(profile_figures(solver.current_profile()).as_dict("cur_"))
        rows.append(row)
    return solver, rows


def strategy_table(profile: np.ndarray) -> dict[str, dict[str, dict[str, float]]]:
    """``{"P0": {"J": {"check": p, "bet": q}, "Jpb": {...}, ...}, "P1": {...}}`` for JSON/printing."""
    table: dict[str, dict[str, dict[str, float]]] = {}
    for player, point, card in itertools.product(range(N_PLAYERS), range(2), range(3)):
        names = ACTION_NAMES[DECISION_HISTORY[player][point]]
        table.setdefault(f"P{player}", {})[information_set_name(player, point, card)] = {
            name: float(profile[player, point, card, a]) for a, name in enumerate(names)
        }
    return table
