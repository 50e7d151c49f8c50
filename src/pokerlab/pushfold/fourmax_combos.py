"""Four-handed shove-or-fold with card removal: a sample-average game over joint deals.

The game is the one of :mod:`pokerlab.pushfold.fourmax` (CO, BTN, SB, BB; the same 14
information sets, settlement, fees and ante), dealt as a real table is: the four hands are one
uniform deal of four disjoint hole-card pairs from one deck, so every seat's hand blocks the
others', folded seats included. Strategies stay per class (``P(in | class)`` at each set, what a
chart shows); a seat's values are conditional on its class under that joint law.

Estimator: a fixed sample of ``deals`` joint deals (common random numbers), seeded. Each deal
records every seat's class, the showdown equity of each of the 6 seat pairs, and the strength of
every seat's hand on one board dealt from the 44 other cards. A showdown among two seats is
valued by the exact equity of the two combos (the combo table: the expectation over the board,
which removes the board's noise from the commonest showdown), one among three or four seats by
the deal's board (the pot split among the best hands). Averaging over the deals gives a finite
game, the *sample game*, whose every value is exact arithmetic on the sample: a seat's
counterfactual value of going in or folding at a set, for a class, sums over the deals where it
holds that class the product of the other seats' probabilities of the actions of each way the
hand can go on, times the seat's net. The same damped best-response sweep as the class solver
(per-class steps that decay on reversals) solves it, without the noise that a fresh estimate per
sweep brings, and its exploitability is measured exactly in the sample game. What the sample
leaves (its Monte Carlo error) is measured apart: the profile's exploitability on an independent
sample of the same size, and, in ``benchmarks/pushfold_fourmax_combos.py``, a second seed.

The same machinery deals the class law too (``law="independent"``): classes drawn independently
from the prior, combos uniform among the tuples that share no card given those classes, and the
class table's equity for a two-seat showdown. That is the law of the class solver, so it checks
this estimator against :func:`pokerlab.pushfold.fourmax.solve_fourmax`.

Determinism: deals and sums run in fixed blocks of :data:`BLOCK` deals, each block with its own
SplitMix64 stream and its own accumulators summed in block order, so the results are the same
bytes on any number of threads.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numba import njit, prange

from pokerlab import cards
from pokerlab.evaluator import CARD_BITS, COMBO_BITS, rank_of_packed
from pokerlab.pushfold.fees import PushFoldGame
from pokerlab.pushfold.fourmax import INFOSET_INDEX, INFOSETS, POSITIONS, SEATS
from pokerlab.pushfold.multiway import CLASS_COMBO_TABLE, CLASS_COMBO_COUNT, deal_board, deal_class_tuple
from pokerlab.rng import below, stream_state

BLOCK = 16384
"""Deals per block: the unit of dealing and of summing (fixed, so results do not depend on threads)."""
LAWS = ("joint", "independent")
PAIRS = ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3))
"""The seat pairs whose showdown equity a deal records, in column order (equity of the first seat)."""
_PAIR_COLUMN = np.full((SEATS, SEATS), -1, dtype=np.int64)
for _k, (_i, _j) in enumerate(PAIRS):
    _PAIR_COLUMN[_i, _j] = _PAIR_COLUMN[_j, _i] = _k


def _infoset_table() -> np.ndarray:
    """(4, 8) index of the information set of seat s after the earlier seats' actions (bit t of the
    column: seat t went in); -1 for the big blind's walk and for columns past the seat's prefixes."""
    table = np.full((SEATS, 2 ** (SEATS - 1)), -1, dtype=np.int64)
    for seat in range(SEATS):
        for bits in range(2**seat):
            ins = [t for t in range(seat) if bits >> t & 1]
            if not ins and seat == SEATS - 1:
                continue
            history = "".join("F" if t not in ins else ("A" if t == ins[0] else "C") for t in range(seat))
            table[seat, bits] = INFOSET_INDEX[history]
    return table


INFOSET_OF = _infoset_table()


def ending_coefficients(game: PushFoldGame) -> tuple[np.ndarray, np.ndarray]:
    """``(award (16,), const (16, 4))`` per action profile (bit s: seat s went in): seat s nets
    ``award * share_s + const[s]``. The big blind's walk is the profile where only it is in."""
    award, const = np.zeros(2**SEATS), np.zeros((2**SEATS, SEATS))
    for bits in range(2**SEATS):
        award[bits], const[bits] = game.terminal_coefficients([s for s in range(SEATS) if bits >> s & 1])
    return award, const


@dataclass(frozen=True)
class DealSample:
    """Deals drawn under ``law`` from ``seed``: ``classes`` (n, 4) each seat's class; ``pair_equity`` (n, 6) the
    showdown equity of the first seat of each pair of :data:`PAIRS` (the other's is 1 minus it);
    ``strength`` (n, 4) each seat's hand on the deal's board (higher is better)."""

    law: str
    seed: int
    classes: np.ndarray
    pair_equity: np.ndarray
    strength: np.ndarray

    @property
    def deals(self) -> int:
        return int(self.classes.shape[0])

    def class_counts(self) -> np.ndarray:
        """(4, 169) deals in which each seat holds each class."""
        return np.stack([np.bincount(self.classes[:, s], minlength=cards.N_CLASSES) for s in range(SEATS)])


@njit(cache=True)
def _deal_hand_strengths(hole, board_bits, strength, n):
    for s in range(SEATS):
        strength[n, s] = rank_of_packed(board_bits | hole[s])


@njit(cache=True, parallel=True)
def _deal_joint(deals, seed, combo_index, combo_class, card_bits, equity, classes, pair_equity, strength):
    """One uniform deal of 13 distinct cards per deal (a partial shuffle): 2 per seat, 5 on the board."""
    n_blocks = (deals + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        state = stream_state(seed, b)
        deck = np.arange(52)  # not reset between deals: a partial shuffle is uniform from any order
        combo = np.empty(SEATS, dtype=np.int64)
        hole = np.empty(SEATS, dtype=np.int64)
        for n in range(b * BLOCK, min(deals, (b + 1) * BLOCK)):
            for i in range(2 * SEATS + 5):
                state, j = below(state, 52 - i)
                deck[i], deck[i + j] = deck[i + j], deck[i]
            board = np.int64(0)
            for i in range(2 * SEATS, 2 * SEATS + 5):
                board |= card_bits[deck[i]]
            for s in range(SEATS):
                combo[s] = combo_index[deck[2 * s], deck[2 * s + 1]]
                classes[n, s] = combo_class[combo[s]]
                hole[s] = card_bits[deck[2 * s]] | card_bits[deck[2 * s + 1]]
            for k in range(6):
                i, j = PAIRS[k]
                pair_equity[n, k] = equity[combo[i], combo[j]]
            _deal_hand_strengths(hole, board, strength, n)


@njit(cache=True, parallel=True)
def _deal_independent(deals, seed, cumulative, class_combos, class_count, combo_bits, card_bits, equity,
                      classes, pair_equity, strength):
    """Classes independent from the rows of ``cumulative``, combos given the classes uniform among the
    tuples sharing no card (:func:`~pokerlab.pushfold.multiway.deal_class_tuple`), the board from the rest."""
    n_blocks = (deals + BLOCK - 1) // BLOCK
    for b in prange(n_blocks):
        state = stream_state(seed, b)
        cls = np.empty(SEATS, dtype=np.int64)
        hole = np.empty(SEATS, dtype=np.int64)
        for n in range(b * BLOCK, min(deals, (b + 1) * BLOCK)):
            state, used, _ = deal_class_tuple(state, cumulative, class_combos, class_count, combo_bits, cls, hole)
            state, board, used = deal_board(state, used, card_bits)
            for s in range(SEATS):
                classes[n, s] = cls[s]
            for k in range(6):
                i, j = PAIRS[k]
                pair_equity[n, k] = equity[cls[i], cls[j]]
            _deal_hand_strengths(hole, board, strength, n)


def deal_sample(deals: int, seed: int, equity: np.ndarray, law: str = "joint") -> DealSample:
    """``deals`` seeded deals under ``law``: ``joint`` (one uniform deal of the four hands; ``equity``
    the (1326, 1326) combo equity table) or ``independent`` (the class law; ``equity`` the
    (169, 169) class table). ``ValueError`` names a bad argument."""
    if isinstance(deals, bool) or not isinstance(deals, (int, np.integer)) or deals < 1:
        raise ValueError(f"deals: {deals!r} must be a positive integer")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise ValueError(f"seed: {seed!r} must be an integer in [0, 2^63)")
    if law not in LAWS:
        raise ValueError(f"law: {law!r} is not one of {LAWS}")
    size = cards.N_COMBOS if law == "joint" else cards.N_CLASSES
    equity = np.ascontiguousarray(equity, dtype=np.float64)
    if equity.shape != (size, size):
        raise ValueError(f"{law} deals: equity table of shape {equity.shape}, expected ({size}, {size})")
    classes = np.empty((deals, SEATS), dtype=np.int16)
    pair_equity = np.empty((deals, len(PAIRS)))
    strength = np.empty((deals, SEATS), dtype=np.int32)
    if law == "joint":
        _deal_joint(int(deals), np.uint64(seed), cards.COMBO_INDEX.astype(np.int64), cards.COMBO_CLASS.astype(np.int64),
                    CARD_BITS, equity, classes, pair_equity, strength)
    else:
        cumulative = np.tile(np.cumsum(cards.CLASS_PRIOR), (SEATS, 1))  # every seat's classes from the prior
        cumulative[:, -1] = 1.0
        _deal_independent(int(deals), np.uint64(seed), cumulative, CLASS_COMBO_TABLE, CLASS_COMBO_COUNT, COMBO_BITS, CARD_BITS,
                          equity, classes, pair_equity, strength)
    return DealSample(law, int(seed), classes, pair_equity, strength)


@njit(cache=True, inline="always")
def _share(seat, bits, n, pair_column, pair_equity, strength, pair_table):
    """Seat ``seat``'s pot share at deal ``n`` when the seats of ``bits`` (it among them) show down;
    two seats by the recorded equity if ``pair_table``, else (and three or four) on the deal's board."""
    live = 0
    other = -1
    best = -1
    for t in range(SEATS):
        if bits >> t & 1:
            live += 1
            if t != seat:
                other = t
            if strength[n, t] > best:
                best = strength[n, t]
    if live == 2 and pair_table:
        e = pair_equity[n, pair_column[seat, other]]
        return e if seat < other else 1.0 - e
    if strength[n, seat] < best:
        return 0.0
    ways = 0
    for t in range(SEATS):
        if bits >> t & 1 and strength[n, t] == best:
            ways += 1
    return 1.0 / ways


@njit(cache=True, parallel=True)
def _sample_values(classes, pair_equity, strength, pair_table, strategy, award, const, infoset_of, pair_column, out,
                   seat_out):
    """Per block: counterfactual sums ``out[b, 0]`` (going in), ``out[b, 1]`` (folding) and
    ``out[b, 2]`` (reach) per (set, class), and each seat's net ``seat_out[b]``; see the module docstring."""
    deals = classes.shape[0]
    n_blocks = out.shape[0]
    profiles = 2**SEATS
    for b in prange(n_blocks):
        p = np.empty((profiles, SEATS))  # P(seat t takes profile's action), given its class
        acc = out[b]
        for n in range(b * BLOCK, min(deals, (b + 1) * BLOCK)):
            for a in range(profiles):
                for t in range(SEATS):
                    k = infoset_of[t, a & ((1 << t) - 1)]
                    went_in = a >> t & 1
                    if k < 0:  # the big blind's walk: it "goes in" uncalled
                        p[a, t] = 1.0 if went_in else 0.0
                    else:
                        q = strategy[k, classes[n, t]]
                        p[a, t] = q if went_in else 1.0 - q
            for s in range(SEATS):
                c = classes[n, s]
                for prefix in range(1 << s):
                    k = infoset_of[s, prefix]
                    if k >= 0:
                        r = 1.0
                        for t in range(s):
                            r *= p[prefix, t]
                        acc[2, k, c] += r
                for a in range(profiles):
                    w = 1.0
                    for t in range(SEATS):
                        if t != s:
                            w *= p[a, t]
                    if w == 0.0:
                        continue
                    net = const[a, s]
                    if a >> s & 1 and award[a] != 0.0:
                        net += award[a] * _share(s, a, n, pair_column, pair_equity, strength, pair_table)
                    seat_out[b, s] += w * p[a, s] * net
                    k = infoset_of[s, a & ((1 << s) - 1)]
                    if k >= 0:
                        acc[1 - (a >> s & 1), k, c] += w * net


@dataclass
class SampleEvaluation:
    """Values of one profile in the sample game. ``ev_in``/``ev_fold`` (14, 169): the seat's EV
    (bb) of going in / folding at the set holding the class, given that the set is reached (nan
    where the sample never reaches it with that class); ``reach`` (14, 169): P(the set is reached |
    the seat holds the class); ``gain`` (14, 169): each (set, class)'s best-response gain in bb per
    hand; ``seat_ev``: each seat's EV per hand."""

    ev_in: np.ndarray
    ev_fold: np.ndarray
    reach: np.ndarray
    set_reach: np.ndarray  # (14,) P(the set is reached), over the sample's deals
    gain: np.ndarray
    best_response: np.ndarray  # (14, 169) 1 where going in is better, else 0
    seat_ev: dict[str, float]

    @property
    def exploitability_per_seat(self) -> dict[str, float]:
        seat_of = np.array([len(h) for h in INFOSETS])
        return {POSITIONS[s]: float(max(self.gain[seat_of == s].sum(), 0.0)) for s in range(SEATS)}

    @property
    def exploitability_bb(self) -> float:
        return max(self.exploitability_per_seat.values())


class SampleGame:
    """The sample game of one spot: a :class:`DealSample` and the game's ending coefficients.

    ``pair_table``: value a two-seat showdown by the recorded equity of the two hands (boards
    from the 48 cards they leave), as the solver does; ``False`` values it on the deal's own
    board, dealt from the 44 cards no hand holds. The second is the joint law to the letter (the
    folded hands' cards are off the board too) with the board's full noise; comparing the two on
    one sample measures what leaving the folded cards on the two-seat boards changes."""

    def __init__(self, game: PushFoldGame, sample: DealSample, pair_table: bool = True):
        if game.seats != SEATS:
            raise ValueError(f"4-max solve: seats must be 4, got {game.seats}")
        self.game, self.sample, self.pair_table = game, sample, bool(pair_table)
        self.award, self.const = ending_coefficients(game)
        self.counts = sample.class_counts()  # (4, 169)

    def evaluate(self, strategy: np.ndarray) -> SampleEvaluation:
        """Exact values of ``strategy`` (14, 169) in the sample game."""
        strategy = np.ascontiguousarray(strategy, dtype=np.float64)
        if strategy.shape != (len(INFOSETS), cards.N_CLASSES):
            raise ValueError(f"strategy: shape {strategy.shape}, expected (14, 169)")
        s = self.sample
        n_blocks = (s.deals + BLOCK - 1) // BLOCK
        out = np.zeros((n_blocks, 3, len(INFOSETS), cards.N_CLASSES))
        seat_out = np.zeros((n_blocks, SEATS))
        _sample_values(s.classes, s.pair_equity, s.strength, self.pair_table, strategy, self.award, self.const, INFOSET_OF,
                       _PAIR_COLUMN, out, seat_out)
        cf_in, cf_fold, cf_reach = out.sum(axis=0)
        seat_of = np.array([len(h) for h in INFOSETS])
        dealt = self.counts[seat_of]  # (14, 169) deals holding the class at the set's seat
        with np.errstate(invalid="ignore", divide="ignore"):
            ev_in, ev_fold = cf_in / cf_reach, cf_fold / cf_reach
            reach = np.where(dealt > 0, cf_reach / np.maximum(dealt, 1), 0.0)
        current = strategy * cf_in + (1 - strategy) * cf_fold
        gain = (np.maximum(cf_in, cf_fold) - current) / s.deals
        seat_ev = {POSITIONS[t]: float(v) for t, v in enumerate(seat_out.sum(axis=0) / s.deals)}
        return SampleEvaluation(ev_in, ev_fold, reach, cf_reach.sum(axis=1) / s.deals, gain,
                                (cf_in > cf_fold).astype(np.float64), seat_ev)


@dataclass(frozen=True)
class ComboSettings:
    """How a 4-max solve with card removal runs: ``deals`` joint deals (the sample game),
    ``max_sweeps`` damped best-response sweeps at most, stopping when the exploitability in the
    sample game is at most ``tolerance_bb``; ``seed`` of the solving sample (the independent
    measuring sample uses a seed derived from it)."""

    deals: int = 2_000_000
    max_sweeps: int = 400
    tolerance_bb: float = 1e-4
    seed: int = 20260801
    initial_step: float = 0.5
    power: float = 1.0

    def __post_init__(self) -> None:
        for name in ("deals", "max_sweeps"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
                raise ValueError(f"4-max combos {name}: {value!r} must be a positive integer")
        if isinstance(self.seed, bool) or not isinstance(self.seed, (int, np.integer)) or not 0 <= self.seed < 2**62:
            raise ValueError(f"4-max combos seed: {self.seed!r} must be an integer in [0, 2^62)")
        if isinstance(self.tolerance_bb, bool) or not isinstance(self.tolerance_bb, (int, float)) or not self.tolerance_bb > 0:
            raise ValueError(f"4-max combos tolerance_bb: {self.tolerance_bb!r} must be a number > 0 (bb)")
        if not (0 < self.initial_step <= 1) or not self.power > 0:
            raise ValueError(f"4-max combos initial_step {self.initial_step!r} must be in (0, 1] and power {self.power!r} > 0")

    @property
    def measuring_seed(self) -> int:
        """Seed of the independent sample the final profile is measured on."""
        return self.seed + 2**62


def solve_sample_game(sample_game: SampleGame, settings: ComboSettings, warm: np.ndarray | None = None,
                      frozen: np.ndarray | None = None,
                      progress: Callable[[int, float], None] | None = None) -> tuple[np.ndarray, SampleEvaluation, list]:
    """Damped best response in the sample game from ``warm`` (or half in everywhere) until its
    exploitability is at most ``settings.tolerance_bb`` or ``settings.max_sweeps`` sweeps; the
    information sets where ``frozen`` (14,) is true keep their ``warm`` frequencies. Returns the
    profile, its evaluation and the history ``[sweep, exploitability]``."""
    shape = (len(INFOSETS), cards.N_CLASSES)
    strategy = np.full(shape, 0.5) if warm is None else np.array(warm, dtype=np.float64)
    if strategy.shape != shape or np.any(strategy < 0) or np.any(strategy > 1):
        raise ValueError(f"warm start: expected (14, 169) probabilities in [0, 1], got shape {strategy.shape}")
    moving = np.ones(len(INFOSETS), bool) if frozen is None else ~np.asarray(frozen, bool)
    seat_moves = {POSITIONS[s]: any(moving[k] for k, h in enumerate(INFOSETS) if len(h) == s) for s in range(SEATS)}
    reversals, last_best = np.zeros(shape), np.full(shape, -1.0)
    history = []
    while True:
        ev = sample_game.evaluate(strategy)
        figure = max(v for seat, v in ev.exploitability_per_seat.items() if seat_moves[seat])
        history.append([len(history), figure])
        if progress is not None:
            progress(len(history) - 1, figure)
        if figure <= settings.tolerance_bb or len(history) > settings.max_sweeps:
            return strategy, ev, history
        target = ev.best_response
        reversals += (last_best >= 0) & (target != last_best)
        last_best = target
        step = settings.initial_step / (1.0 + reversals) ** settings.power
        strategy[moving] += (step * (target - strategy))[moving]

@dataclass
class FourMaxComboSolution:
    """A 4-max solve with card removal: the per-class profile (14, 169), its evaluation in the
    sample game it was solved in (``solving``) and on an independent sample of as many deals
    (``measured``: its exploitability there is the figure that includes the Monte Carlo error)."""

    game: PushFoldGame
    settings: ComboSettings
    strategy: np.ndarray
    solving: SampleEvaluation
    measured: SampleEvaluation
    history: list

    @property
    def shares(self) -> np.ndarray:
        """(14,) share of the seat's 1,326 combos that go in at each set (as the class mode counts it)."""
        return self.strategy @ cards.CLASS_PRIOR


def solve_fourmax_combos(game: PushFoldGame, combo_equity: np.ndarray, settings: ComboSettings,
                         warm: np.ndarray | None = None, law: str = "joint", frozen: np.ndarray | None = None,
                         progress: Callable[[int, float], None] | None = None) -> FourMaxComboSolution:
    """Deal ``settings.deals`` joint deals (``law``, see :func:`deal_sample`; ``combo_equity`` is the
    table that law reads), solve the sample game (:func:`solve_sample_game`), then measure the
    profile on an independent sample of the same size."""
    solving_game = SampleGame(game, deal_sample(settings.deals, settings.seed, combo_equity, law))
    strategy, solving, history = solve_sample_game(solving_game, settings, warm=warm, frozen=frozen, progress=progress)
    del solving_game  # the measuring sample takes its place in memory
    measured = SampleGame(game, deal_sample(settings.deals, settings.measuring_seed, combo_equity, law)).evaluate(strategy)
    return FourMaxComboSolution(game, settings, strategy, solving, measured, history)
