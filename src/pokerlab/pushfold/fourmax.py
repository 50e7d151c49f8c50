"""Four-handed shove-or-fold (CO, BTN, SB, BB), solved by damped best response with Monte Carlo
multiway equity.

Information sets. Every seat acts once: the first seat in shoves, later seats call or fold, and
folding round to the big blind is a walk (no decision). An information set is the action
string before the seat (``F`` fold, ``A`` the shove, ``C`` a call; the node ids of the chart
trees): ``""`` (CO), ``F``/``A`` (BTN), ``FF``/``FA``/``AF``/``AC`` (SB) and seven big-blind
sets, 14 in all. A strategy is ``P(in | class)`` per set: the shove, or the call.

Values. With classes dealt independently (prior x strategy), an ending is fixed by the set of
seats that went in; its objective nets come from :mod:`pokerlab.pushfold.fees`. A seat's EV of
going in (per class) or folding at a set sums over every continuation of the seats after it,
each weighted by the product of their probabilities of going in or folding. A showdown with one
opponent is valued exactly with the equity table; with two or three it needs the joint share
of the hero's class against those ranges, estimated by :mod:`pokerlab.pushfold.multiway`
(16 estimates per sweep: 4 three-way endings x 3 seats + the four-way ending x 4).

Sweep. All 14 sets move at once towards their best responses to the current profile, each
class with its own step ``initial_step / (1 + reversals) ** power`` that decays each time its
best response reverses. The multiway estimates are fresh every sweep (seeded by sweep), so
each best response is a hard threshold on a noisy EV: in expectation the update follows a
smoothed (quantal) response, which biases the fixed point by an amount that shrinks only with
the per-sweep noise. The lever is the per-sweep sample count: the schedule runs a cheap stage and
then continues warm at a higher count (or starts from an earlier run's profile). For the same reason a single exploitability figure,
which takes a max over noisy EVs, is biased upward: the final profile is measured at
``final_samples`` and again at twice that, and the gap between the two readings is the
visible part of the noise floor.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import asdict, dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Callable

import numpy as np

from pokerlab import cards
from pokerlab.io import atomic_path
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.multiway import multiway_shares

SEATS = 4


def _history_in(history: str) -> tuple[int, ...]:
    return tuple(s for s, a in enumerate(history) if a != "F")


def _infoset_ids() -> tuple[str, ...]:
    out = []
    for seat in range(SEATS):
        for bits in range(2**seat):
            ins = [s for s in range(seat) if bits >> s & 1]
            if seat == SEATS - 1 and not ins:
                continue  # folded round to the big blind: a walk
            out.append("".join("F" if s not in ins else ("A" if s == ins[0] else "C") for s in range(seat)))
    return tuple(sorted(out, key=lambda h: (len(h), ["FAC".index(a) for a in h])))


INFOSETS: tuple[str, ...] = _infoset_ids()
"""The 14 information sets (action strings), in acting order."""
INFOSET_INDEX = {h: k for k, h in enumerate(INFOSETS)}
POSITIONS = ("CO", "BTN", "SB", "BB")


def describe(history: str) -> str:
    """``'BB vs CO shove, SB call'`` style label of an information set."""
    seat, ins = len(history), _history_in(history)
    if not ins:
        return f"{POSITIONS[seat]} open"
    parts = [f"{POSITIONS[ins[0]]} shove"] + [f"{POSITIONS[s]} call" for s in ins[1:]]
    return f"{POSITIONS[seat]} vs " + ", ".join(parts)


@dataclass(frozen=True)
class Settings:
    """How a 4-max solve runs.

    ``schedule``: (sweeps, samples per multiway estimate) stages run one after the other as
    one warm continuation (the profile and step state carry over), e.g. a cheap low-count
    stage then a high-count refinement. ``final_samples``: draws per estimate of the final
    measurement, repeated at twice that. ``checkpoint_every``: sweeps between saved states.
    """

    schedule: tuple[tuple[int, int], ...] = ((100, 500), (150, 4000))
    final_samples: int = 40000
    seed: int = 20260801
    initial_step: float = 0.5
    power: float = 1.0
    checkpoint_every: int = 10

    def __post_init__(self) -> None:
        try:
            schedule = tuple((int(n), int(k)) for n, k in self.schedule)
        except (TypeError, ValueError):
            raise ValueError(f"4-max schedule: {self.schedule!r} must be a list of [sweeps, samples_per_sweep] pairs") from None
        if not schedule or any(n < 0 or k < 1 for n, k in schedule):
            raise ValueError(f"4-max schedule: {self.schedule!r} needs sweeps >= 0 and samples_per_sweep >= 1 in each stage")
        object.__setattr__(self, "schedule", schedule)
        for name in ("final_samples", "checkpoint_every"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"4-max {name}: {value!r} must be a positive integer")
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise ValueError(f"4-max seed: {self.seed!r} must be an integer >= 0")
        if not (0 < self.initial_step <= 1) or not self.power > 0:
            raise ValueError(f"4-max initial_step {self.initial_step!r} must be in (0, 1] and power {self.power!r} > 0")

    @property
    def sweeps(self) -> int:
        return sum(n for n, _ in self.schedule)

    def samples_at(self, sweep: int) -> int:
        """Draws per estimate used by sweep number ``sweep`` (0-based)."""
        for n, k in self.schedule:
            if sweep < n:
                return k
            sweep -= n
        raise ValueError(f"sweep {sweep} is past the schedule")


def _stream_seed(seed: int, *parts: int) -> int:
    digest = hashlib.sha256(json.dumps([seed, *parts]).encode()).digest()
    return int.from_bytes(digest[:8], "little")


@dataclass
class Evaluation:
    """Values of one profile: per set, the EV of going in (169,) and of folding (scalar), the
    probability the table reaches the set, and per-seat exploitability (bb/hand)."""

    ev_in: np.ndarray  # (14, 169)
    ev_fold: np.ndarray  # (14,)
    reach: np.ndarray  # (14,)
    exploitability_per_seat: dict[str, float]
    seat_ev: dict[str, float]

    @property
    def exploitability_bb(self) -> float:
        return max(self.exploitability_per_seat.values())


class FourMaxGame:
    """The 4-max game's endings and the value computation of a profile."""

    def __init__(self, game: PushFoldGame, eq: np.ndarray):
        if game.seats != SEATS:
            raise ValueError(f"4-max solve: seats must be 4, got {game.seats}")
        eq = np.asarray(eq, dtype=np.float64)
        if eq.shape != (cards.N_CLASSES, cards.N_CLASSES):
            raise ValueError(f"equity table: shape {eq.shape}, expected (169, 169)")
        self.game, self.eq, self.prior = game, eq, cards.CLASS_PRIOR.astype(np.float64)

    @cached_property
    def _endings(self) -> dict[frozenset, tuple[float, np.ndarray]]:
        out = {}
        for bits in range(2**SEATS):
            live = frozenset(s for s in range(SEATS) if bits >> s & 1)
            out[live] = self.game.terminal_coefficients(live)
        return out

    @cached_property
    def multiway_keys(self) -> tuple[tuple[frozenset, int], ...]:
        """(live seats, hero) of every multiway estimate a sweep needs, in a fixed order."""
        keys = []
        for bits in range(2**SEATS):
            live = frozenset(s for s in range(SEATS) if bits >> s & 1)
            if len(live) >= 3:
                keys.extend((live, hero) for hero in sorted(live))
        return tuple(keys)

    @staticmethod
    def _history_of(live: frozenset, upto: int) -> str:
        ins = [s for s in range(upto) if s in live]
        return "".join("F" if s not in live else ("A" if s == ins[0] else "C") for s in range(upto))

    def ranges_at(self, strategy: np.ndarray, live: frozenset) -> dict[int, np.ndarray]:
        """Each live seat's class weights (prior x P(in)) at the ending where ``live`` went in.
        A seat that never goes in there gets the prior: the ending is then never reached, and
        this only sets the (unplayed) value of the others' actions that would lead to it."""
        out = {}
        for s in live:
            q = self.prior * strategy[INFOSET_INDEX[self._history_of(live, s)]]
            out[s] = q if q.sum() > 0 else self.prior
        return out

    def multiway_estimates(self, strategy: np.ndarray, samples: int, seed: int) -> dict:
        """Hero pot shares (169,) for every (live seats, hero) key; seeded per key."""
        out = {}
        for k, (live, hero) in enumerate(self.multiway_keys):
            ranges = self.ranges_at(strategy, live)
            opponents = np.array([ranges[s] for s in sorted(live) if s != hero])
            out[(live, hero)] = multiway_shares(opponents, samples, _stream_seed(seed, k))
        return out

    def evaluate(self, strategy: np.ndarray, shares: dict) -> Evaluation:
        """Values, reaches and exploitability of ``strategy`` (14, 169) given multiway ``shares``."""
        prior, m = self.prior, cards.N_CLASSES
        mass = strategy @ prior  # P(in) at each set
        ev_in, ev_fold, reach = np.zeros((len(INFOSETS), m)), np.zeros(len(INFOSETS)), np.zeros(len(INFOSETS))
        for k, history in enumerate(INFOSETS):
            seat = len(history)
            before = frozenset(_history_in(history))
            reach[k] = np.prod([mass[INFOSET_INDEX[history[:s]]] if history[s] != "F" else 1 - mass[INFOSET_INDEX[history[:s]]]
                                for s in range(seat)])
            for hero_in in (True, False):
                total = np.zeros(m) if hero_in else 0.0
                for live, p in self._continuations(history + ("X" if hero_in else "F"), mass, before | ({seat} if hero_in else set())):
                    award, const = self._endings[live]  # uncalled endings are settled in const
                    value = const[seat]
                    if hero_in and len(live) == 2:
                        (opp,) = live - {seat}
                        q = self.ranges_at(strategy, live)[opp]
                        value = value + award * (self.eq @ q) / q.sum()
                    elif hero_in and len(live) >= 3:
                        value = value + award * shares[(live, seat)]
                    total = total + p * value
                if hero_in:
                    ev_in[k] = total
                else:
                    ev_fold[k] = total
        current = strategy * ev_in + (1 - strategy) * ev_fold[:, None]
        best = np.maximum(ev_in, ev_fold[:, None])
        gain_by_set = reach * ((best - current) @ prior)
        value_by_set = reach * (current @ prior)
        seat_of = np.array([len(h) for h in INFOSETS])
        gains = {POSITIONS[s]: float(max(gain_by_set[seat_of == s].sum(), 0.0)) for s in range(SEATS)}
        walk = (1 - mass[INFOSET_INDEX["FF"]]) * reach[INFOSET_INDEX["FF"]] * self._endings[frozenset()][1][SEATS - 1]
        seat_ev = {POSITIONS[s]: float(value_by_set[seat_of == s].sum() + (walk if s == SEATS - 1 else 0.0)) for s in range(SEATS)}
        return Evaluation(ev_in, ev_fold, reach, gains, seat_ev)

    def _continuations(self, prefix: str, mass: np.ndarray, live: frozenset):
        """(final live set, probability) of every way the seats after ``prefix`` can act.
        ``prefix`` ends with the hero's action (``X`` in, ``F`` fold)."""
        seat = len(prefix)
        if seat == SEATS:
            yield frozenset(live), 1.0
            return
        history = "".join(("F" if a == "F" else ("A" if i == min(live, default=-1) else "C")) for i, a in enumerate(prefix))
        if seat == SEATS - 1 and not live:  # a walk: the big blind has no decision
            yield frozenset(), 1.0
            return
        p_in = mass[INFOSET_INDEX[history]]
        for acts_in, p in ((True, p_in), (False, 1.0 - p_in)):
            if p > 0:
                for final, q in self._continuations(prefix + ("X" if acts_in else "F"), mass, live | ({seat} if acts_in else set())):
                    yield final, p * q


@dataclass
class FourMaxState:
    """A resumable solve: profile, per-class reversal counts, last best responses, sweeps done."""

    strategy: np.ndarray  # (14, 169)
    reversals: np.ndarray  # (14, 169)
    best_response: np.ndarray  # (14, 169), -1 before the first sweep
    sweeps: int = 0
    history: list = field(default_factory=list)  # [sweep, samples per estimate, its noisy exploitability]

    @classmethod
    def start(cls, warm: np.ndarray | None = None) -> "FourMaxState":
        shape = (len(INFOSETS), cards.N_CLASSES)
        strategy = np.full(shape, 0.5) if warm is None else np.array(warm, dtype=np.float64)
        if strategy.shape != shape or np.any(strategy < 0) or np.any(strategy > 1):
            raise ValueError(f"warm start: expected (14, 169) probabilities in [0, 1], got shape {strategy.shape}")
        return cls(strategy, np.zeros(shape), np.full(shape, -1.0))


def _fingerprint(game: PushFoldGame, eq: np.ndarray, settings: Settings, warm: np.ndarray | None) -> str:
    digest = hashlib.sha256()
    digest.update(json.dumps({"game": asdict(game), "seed": settings.seed, "initial_step": settings.initial_step,
                              "power": settings.power}, sort_keys=True, default=str).encode())
    digest.update(np.ascontiguousarray(eq).tobytes())
    if warm is not None:
        digest.update(np.ascontiguousarray(warm, dtype=np.float64).tobytes())
    return digest.hexdigest()


def _save(path: Path, state: FourMaxState, fingerprint: str) -> None:
    with atomic_path(path) as tmp, open(tmp, "wb") as fh:
        np.savez(fh, fingerprint=np.array(fingerprint), strategy=state.strategy, reversals=state.reversals,
                 best_response=state.best_response, sweeps=np.array(state.sweeps), history=np.array(json.dumps(state.history)))


def _load(path: Path, fingerprint: str) -> FourMaxState | None:
    with np.load(path, allow_pickle=False) as data:
        if str(data["fingerprint"]) != fingerprint:
            return None
        return FourMaxState(data["strategy"].copy(), data["reversals"].copy(), data["best_response"].copy(),
                            int(data["sweeps"]), json.loads(str(data["history"])))


@dataclass
class FourMaxSolution:
    game: PushFoldGame
    settings: Settings
    strategy: np.ndarray  # (14, 169)
    reach: np.ndarray  # (14,)
    measurements: list[dict]  # exploitability at final_samples and 2 x final_samples
    seat_ev: dict[str, float]
    history: list

    @property
    def shares(self) -> np.ndarray:
        """(14,) share of the seat's deals that go in at each information set (combo weighted)."""
        return np.array([cards.CLASS_PRIOR @ row for row in self.strategy])


def sweep(four: FourMaxGame, state: FourMaxState, settings: Settings) -> float:
    """One damped best-response sweep in place; returns the exploitability measured with the
    sweep's own (noisy) estimates."""
    samples = settings.samples_at(state.sweeps)
    shares = four.multiway_estimates(state.strategy, samples, _stream_seed(settings.seed, state.sweeps))
    ev = four.evaluate(state.strategy, shares)
    target = (ev.ev_in > ev.ev_fold[:, None]).astype(np.float64)
    reversed_ = (state.best_response >= 0) & (target != state.best_response)
    state.reversals += reversed_
    state.best_response = target
    state.strategy += settings.initial_step / (1.0 + state.reversals) ** settings.power * (target - state.strategy)
    state.sweeps += 1
    state.history.append([state.sweeps, samples, ev.exploitability_bb])
    return ev.exploitability_bb


def measure(four: FourMaxGame, strategy: np.ndarray, samples: int, seed: int) -> tuple[Evaluation, dict]:
    """Exploitability of ``strategy`` with ``samples`` draws per multiway estimate."""
    ev = four.evaluate(strategy, four.multiway_estimates(strategy, samples, seed))
    return ev, {"samples": samples, "exploitability_bb": ev.exploitability_bb, "per_seat": ev.exploitability_per_seat}


def solve_fourmax(game: PushFoldGame, eq: np.ndarray, settings: Settings, warm: np.ndarray | None = None,
                  checkpoint: str | os.PathLike | None = None,
                  progress: Callable[[int, float], None] | None = None) -> FourMaxSolution:
    """Run the sweeps of ``settings.schedule`` from ``warm`` (a (14, 169) profile) or from half
    shoving everywhere, resuming from ``checkpoint`` if it holds a prefix of this very solve;
    then measure the final profile at ``final_samples`` and ``2 * final_samples``."""
    four = FourMaxGame(game, eq)
    fingerprint = _fingerprint(game, four.eq, settings, warm)
    path = Path(checkpoint) if checkpoint is not None else None
    state = _load(path, fingerprint) if path is not None and path.exists() else None
    if state is not None and (state.sweeps > settings.sweeps
                              or any(row[1] != settings.samples_at(row[0] - 1) for row in state.history)):
        state = None  # saved under another schedule: start over
    state = state or FourMaxState.start(warm)
    while state.sweeps < settings.sweeps:
        figure = sweep(four, state, settings)
        if progress is not None:
            progress(state.sweeps, figure)
        if path is not None and (state.sweeps % settings.checkpoint_every == 0 or state.sweeps == settings.sweeps):
            _save(path, state, fingerprint)
    measurements = []
    for k, samples in enumerate((settings.final_samples, 2 * settings.final_samples)):
        ev, row = measure(four, state.strategy, samples, _stream_seed(settings.seed, -1 - k))
        measurements.append(row)
    return FourMaxSolution(game, settings, state.strategy.copy(), ev.reach, measurements, ev.seat_ev, state.history)
