"""Showdown equity of a hero (hand or range) against 1 to 8 opponent ranges.

The deal
    Player ``i`` (hero is player 0) holds combo ``h_i`` with joint probability

        P(h_0, ..., h_k)  proportional to  prod_i w_i(h_i) * 1[no two hands share a card]

    where ``w_i`` is player ``i``'s range with the board and dead cards removed. The rest of
    the board is dealt uniformly from the cards nobody holds. This is the exact joint law.
    Drawing opponents one after another, each from their range less the cards drawn so far,
    is *not* the same thing: under the joint law a hand ``h_1`` is weighted by
    ``w_1(h_1)`` times the weight it leaves the later players, and the sequential draw drops
    that factor, so it over-weights hands that block the later ranges (a test shows a
    three-hand case where it gives 1/4 instead of 1/3).

Three ways to compute it (``method``)
    ``rejection`` (default): every player draws independently from their own range; a deal
        with a card collision is thrown away whole. Accepted deals are exact draws from the
        joint law; ``acceptance_rate`` says how many were kept.
    ``importance``: players draw one after another, each from their range restricted to
        cards still free (never rejected), and each deal is weighted by
        ``prod_i Z_i / W_i``, where ``Z_i`` is the weight of player ``i``'s range left after
        the earlier players' cards and ``W_i`` its full weight. Self-normalised estimates are
        consistent for the joint law; standard errors use the delta method.
    ``exact``: every non-colliding hand tuple times every runout, weighted exactly; refused
        (``ValueError``) when the work ``runouts * (sum of range sizes + tuples * players)``
        exceeds ``max_work`` or there are more than 2,000,000 hand tuples.
    ``auto``: ``exact`` when that work is at most ``AUTO_EXACT_WORK``, else ``rejection``.

Outcomes, per player, as shares of deals: ``win`` (the player alone has the best hand),
``tie`` (the player shares the best hand), and ``equity`` (the expected share of the pot,
``win`` plus each tie split evenly among the tied). All randomness comes from ``seed``.

Against each combo apart: :func:`hero_equity_vs_combos` gives one hand's equity against every
one of the 1,326 combos (every runout from the flop on, seeded runouts preflop), with the same
runout dealing and stepping as the kernels above.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

import numpy as np
from numba import njit

from pokerlab.cards import COMBO_CARDS, COMBO_INDEX, N_COMBOS, parse_combo
from pokerlab.evaluator import CARD_BITS, COMBO_BITS, rank_of_packed
from pokerlab.ranges.range import Range, as_cards, as_range
from pokerlab.rng import below, next_u64, uniform

__all__ = ["EquityResult", "multiway_equity", "hero_equity_vs_combos", "pot_layers", "format_equity", "AUTO_EXACT_WORK",
           "MAX_OPPONENTS"]

MAX_OPPONENTS = 8
AUTO_EXACT_WORK = 3e8
"""``method="auto"`` enumerates exactly when the work estimate is at most this."""
_METHODS = ("auto", "rejection", "importance", "exact")
_MAX_TUPLES = 2_000_000  # hand tuples held in memory by exact enumeration

_COMBO_CARDS = COMBO_CARDS.astype(np.int64)
_N_OUTCOMES = 3  # win, tie, pot share


@dataclass(frozen=True)
class EquityResult:
    """Per-player showdown shares (hero first) with standard errors (0 when exact)."""

    players: tuple[str, ...]
    win: tuple[float, ...]
    tie: tuple[float, ...]
    equity: tuple[float, ...]
    win_se: tuple[float, ...]
    tie_se: tuple[float, ...]
    equity_se: tuple[float, ...]
    method: str
    trials: int
    """Deals behind the estimate: accepted (rejection), drawn (importance), enumerated (exact)."""
    attempts: int
    """Joint draws tried (rejection); equal to ``trials`` for the other methods."""
    effective_sample_size: float
    """``(sum w)^2 / sum w^2`` of the deal weights (``trials`` for rejection)."""

    @property
    def acceptance_rate(self) -> float:
        return self.trials / self.attempts if self.attempts else 0.0


# --- Numba kernels --------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _score(strengths, weight, acc, layer_amount, layer_eligible):
    """Add one showdown with weight ``weight`` to ``acc``: ``acc[0]`` = [sum w, sum w^2];
    rows 1, 2, 3 (win, tie, pot share) hold per player ``i`` in columns 3i, 3i+1, 3i+2 the
    sums of w x, w^2 x and w^2 x^2. The pot share is summed over pot layers: layer ``l`` holds
    ``layer_amount[l]`` of the pot and goes to the best hands among the players with
    ``layer_eligible[l, i]`` (one layer with every player eligible: the plain pot share)."""
    k = strengths.shape[0]
    best = strengths[0]
    n_best = 1
    for i in range(1, k):
        if strengths[i] > best:
            best = strengths[i]
            n_best = 1
        elif strengths[i] == best:
            n_best += 1
    w2 = weight * weight
    acc[0, 0] += weight
    acc[0, 1] += w2
    row = 1 if n_best == 1 else 2
    for i in range(k):
        if strengths[i] == best:
            acc[row, 3 * i] += weight
            acc[row, 3 * i + 1] += w2
            acc[row, 3 * i + 2] += w2
    for i in range(k):
        share = 0.0
        for layer in range(layer_amount.shape[0]):
            if not layer_eligible[layer, i]:
                continue
            top = -1
            n_top = 0
            for j in range(k):
                if layer_eligible[layer, j]:
                    if strengths[j] > top:
                        top = strengths[j]
                        n_top = 1
                    elif strengths[j] == top:
                        n_top += 1
            if strengths[i] == top:
                share += layer_amount[layer] * (1.0 / n_top)
        if share > 0.0:
            acc[3, 3 * i] += weight * share
            acc[3, 3 * i + 1] += w2 * share
            acc[3, 3 * i + 2] += w2 * share * share


# Random numbers: one SplitMix64 stream per call (``pokerlab.rng``), seeded from ``seed``.


@njit(cache=True, inline="always")
def _draw(state, prob, alias, n):
    """Walker alias draw of an index below ``n``: the high 32 bits pick a column, the low 32
    bits flip its coin."""
    state, z = next_u64(state)
    j = np.int64(((z >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))
    if np.float64(z & np.uint64(0xFFFFFFFF)) * 2.0**-32 < prob[j]:
        return state, j
    return state, alias[j]


@njit(cache=True)
def _alias_table(weights, prob, alias):
    """Fill Vose's alias table of ``weights`` (all > 0) into ``prob`` and ``alias``."""
    n = weights.shape[0]
    scaled = weights * (n / weights.sum())
    small = np.empty(n, dtype=np.int64)
    large = np.empty(n, dtype=np.int64)
    ns = 0
    nl = 0
    for j in range(n):
        if scaled[j] < 1.0:
            small[ns] = j
            ns += 1
        else:
            large[nl] = j
            nl += 1
    while ns and nl:
        ns -= 1
        s = small[ns]
        g = large[nl - 1]
        prob[s] = scaled[s]
        alias[s] = g
        scaled[g] = (scaled[g] + scaled[s]) - 1.0
        if scaled[g] < 1.0:
            nl -= 1
            small[ns] = g
            ns += 1
    for m in range(nl):
        prob[large[m]] = 1.0
        alias[large[m]] = large[m]
    for m in range(ns):  # left over only by round-off
        prob[small[m]] = 1.0
        alias[small[m]] = small[m]


@njit(cache=True, inline="always")
def _deal(state, deck, used, n_deal):
    """Deal ``n_deal`` cards uniformly from ``deck`` less the cards in ``used`` (packed bits):
    (state, the dealt cards' bits)."""
    dealt = np.int64(0)
    for _ in range(n_deal):
        while True:
            state, j = below(state, deck.shape[0])
            bit = deck[j]
            if not (used | dealt) & bit:
                break
        dealt |= bit
    return state, dealt


@njit(cache=True, inline="always")
def _next_combination(idx, n):
    """Step ``idx`` (increasing positions) to the next combination of ``len(idx)`` out of ``n``
    in lexicographic order; False after the last one."""
    k = idx.shape[0]
    j = k - 1
    while j >= 0 and idx[j] == n - k + j:
        j -= 1
    if j < 0:
        return False
    idx[j] += 1
    for m in range(j + 1, k):
        idx[m] = idx[m - 1] + 1
    return True


@njit(cache=True, inline="always")
def _showdown(state, hands, used, board_packed, deck, n_deal, combo_bits, strengths):
    """Deal ``n_deal`` cards uniformly from ``deck`` minus ``used``; fill ``strengths``."""
    state, dealt = _deal(state, deck, used, n_deal)
    packed = board_packed | dealt
    for i in range(hands.shape[0]):
        strengths[i] = rank_of_packed(packed | combo_bits[hands[i]])
    return state


@njit(cache=True)
def _rejection_kernel(
    prob, alias, support, n_support, combo_bits, board_packed, dead_packed, deck, n_deal,
    n_trials, max_attempts, seed, layer_amount, layer_eligible,
):  # fmt: skip
    state = next_u64(np.uint64(seed))[1]
    k = prob.shape[0]
    acc = np.zeros((1 + _N_OUTCOMES, 3 * k))
    hands = np.empty(k, dtype=np.int64)
    strengths = np.empty(k, dtype=np.int64)
    accepted = 0
    attempts = 0
    while accepted < n_trials and attempts < max_attempts:
        attempts += 1
        used = dead_packed
        ok = True
        for i in range(k):
            state, j = _draw(state, prob[i], alias[i], n_support[i])
            c = support[i, j]
            if used & combo_bits[c]:
                ok = False
                break
            used |= combo_bits[c]
            hands[i] = c
        if not ok:
            continue
        accepted += 1
        state = _showdown(
            state, hands, used, board_packed, deck, n_deal, combo_bits, strengths
        )
        _score(strengths, 1.0, acc, layer_amount, layer_eligible)
    return acc, accepted, attempts


@njit(cache=True)
def _importance_kernel(
    prob, alias, support, n_support, weights, card_mass, totals, combo_cards, combo_index, combo_bits,
    board_packed, dead_packed, deck, n_deal, n_trials, seed, layer_amount, layer_eligible,
):  # fmt: skip
    state = next_u64(np.uint64(seed))[1]
    k = prob.shape[0]
    acc = np.zeros((1 + _N_OUTCOMES, 3 * k))
    hands = np.empty(k, dtype=np.int64)
    held = np.empty(2 * k, dtype=np.int64)  # cards of the hands drawn so far
    strengths = np.empty(k, dtype=np.int64)
    for _ in range(n_trials):
        used = dead_packed
        weight = 1.0
        for i in range(k):
            # Weight of range i left after the earlier hands: inclusion-exclusion over their
            # cards (a combo holding two of them was subtracted twice).
            z = totals[i]
            for a in range(2 * i):
                z -= card_mass[i, held[a]]
                for b in range(a + 1, 2 * i):
                    z += weights[i, combo_index[held[a], held[b]]]
            if z <= 1e-9 * totals[i]:  # round-off guard: recount directly
                z = 0.0
                for j in range(n_support[i]):
                    if not used & combo_bits[support[i, j]]:
                        z += weights[i, support[i, j]]
            if z <= 0.0:
                weight = 0.0
                break
            weight *= z / totals[i]
            tries = 0
            while True:  # a draw from range i given the cards held so far
                state, j = _draw(state, prob[i], alias[i], n_support[i])
                c = support[i, j]
                if not used & combo_bits[c]:
                    break
                tries += 1
                if tries == 64:  # heavily blocked: walk the live part directly
                    state, u = uniform(state)
                    u *= z
                    for j in range(n_support[i]):
                        live = support[i, j]
                        if not used & combo_bits[live]:
                            c = live  # the last live combo also absorbs round-off in u
                            u -= weights[i, live]
                            if u < 0.0:
                                break
                    break
            used |= combo_bits[c]
            hands[i] = c
            held[2 * i] = combo_cards[c, 0]
            held[2 * i + 1] = combo_cards[c, 1]
        if weight == 0.0:  # a deal the joint law cannot produce
            continue
        state = _showdown(
            state, hands, used, board_packed, deck, n_deal, combo_bits, strengths
        )
        _score(strengths, weight, acc, layer_amount, layer_eligible)
    return acc


@njit(cache=True)
def _exact_kernel(
    tuples, tuple_weights, support, n_support, combo_bits, board_packed, deck, n_deal, layer_amount, layer_eligible,
):  # fmt: skip
    """Every runout of ``n_deal`` cards from ``deck``; per runout, every range hand is
    evaluated once and every hand tuple that the runout does not touch is scored."""
    k = tuples.shape[1]
    acc = np.zeros((1 + _N_OUTCOMES, 3 * k))
    strength = np.empty((k, support.shape[1]), dtype=np.int64)
    strengths = np.empty(k, dtype=np.int64)
    n = deck.shape[0]
    idx = np.arange(n_deal)
    while True:
        runout = np.int64(0)
        for j in range(n_deal):
            runout |= deck[idx[j]]
        packed = board_packed | runout
        for i in range(k):
            for j in range(n_support[i]):
                bits = combo_bits[support[i, j]]
                strength[i, j] = -1 if runout & bits else rank_of_packed(packed | bits)
        for t in range(tuples.shape[0]):
            live = True
            for i in range(k):
                s = strength[i, tuples[t, i]]
                if s < 0:
                    live = False
                    break
                strengths[i] = s
            if live:
                _score(strengths, tuple_weights[t], acc, layer_amount, layer_eligible)
        if not _next_combination(idx, n):
            break
    return acc


@njit(cache=True)
def _hand_vs_combos_kernel(hand_bits, combo_bits, live, board_packed, deck, n_deal, n_samples, seed):
    """Per combo: (sum of the hand's equity, number of runouts) over every runout of ``n_deal``
    cards from ``deck`` when ``n_samples`` is 0, else over ``n_samples`` seeded random runouts."""
    n = combo_bits.shape[0]
    eq = np.zeros(n)
    count = np.zeros(n)
    idx = np.arange(n_deal)
    state = next_u64(np.uint64(seed))[1]
    draws = 0
    more = True
    while more:
        if n_samples > 0:
            state, runout = _deal(state, deck, np.int64(0), n_deal)
            draws += 1
            more = draws < n_samples
        else:
            runout = np.int64(0)
            for j in range(n_deal):
                runout |= deck[idx[j]]
            more = _next_combination(idx, deck.shape[0])
        packed = board_packed | runout
        hs = rank_of_packed(packed | hand_bits)
        for c in range(n):
            if live[c] and not (combo_bits[c] & runout):
                vs = rank_of_packed(packed | combo_bits[c])
                count[c] += 1.0
                if hs > vs:
                    eq[c] += 1.0
                elif hs == vs:
                    eq[c] += 0.5
    return eq, count


# --- the library function -------------------------------------------------------------------


@dataclass(frozen=True)
class _Deal:
    players: tuple[Range, ...]  # conditioned on board and dead cards
    labels: tuple[str, ...]
    board_packed: int
    dead_packed: int  # board and dead cards
    deck: np.ndarray  # packed bits of the cards neither on the board nor dead
    n_deal: int  # board cards still to come


def _prepare(hero, opponents, board, dead) -> _Deal:
    if isinstance(opponents, (str, Range)):
        opponents = [opponents]
    if not 1 <= len(opponents) <= MAX_OPPONENTS:
        raise ValueError(f"opponents: expected 1 to {MAX_OPPONENTS} ranges, got {len(opponents)}")
    board_cards, dead_cards = as_cards(board), as_cards(dead)
    if len(board_cards) > 5:
        raise ValueError(f"board: at most 5 cards, got {len(board_cards)}")
    if set(board_cards) & set(dead_cards):
        raise ValueError("dead: a dead card is also on the board")
    removed = board_cards + dead_cards
    players, labels = [], []
    for i, spec in enumerate([hero, *opponents]):
        name = "hero" if i == 0 else f"opponent {i}"
        try:
            r = as_range(spec)
        except ValueError as exc:
            raise ValueError(f"{name}: {exc}") from None
        live = r.remove_cards(removed)
        if live.live_combos() == 0:
            raise ValueError(f"{name}: no combo of {r.to_notation() or 'the empty range'!r} is left after the board and dead cards")
        players.append(live)
        labels.append(r.to_notation())
    n_players = len(players)
    if 2 * n_players + len(removed) + (5 - len(board_cards)) > 52:
        raise ValueError(f"{n_players} hands and a board do not fit in a deck with {len(dead_cards)} dead cards")
    removed_bits = int(np.bitwise_or.reduce(CARD_BITS[removed])) if removed else 0
    board_bits = int(np.bitwise_or.reduce(CARD_BITS[board_cards])) if board_cards else 0
    deck = np.delete(CARD_BITS, removed)
    return _Deal(tuple(players), tuple(labels), board_bits, removed_bits, deck, 5 - len(board_cards))


def _support_arrays(players: Sequence[Range]):
    """Per player: live combos (padded rows), their count, and their alias tables."""
    k = len(players)
    support = np.zeros((k, N_COMBOS), dtype=np.int64)
    prob = np.ones((k, N_COMBOS))
    alias = np.zeros((k, N_COMBOS), dtype=np.int64)
    n_support = np.zeros(k, dtype=np.int64)
    for i, r in enumerate(players):
        idx = np.flatnonzero(r.weights)
        support[i, : idx.size] = idx
        n_support[i] = idx.size
        _alias_table(r.weights[idx], prob[i, : idx.size], alias[i, : idx.size])
    return prob, alias, support, n_support


def _hand_tuples(players: Sequence[Range], n_support, support, limit: float):
    """All non-colliding hand tuples as support indices, with weights prod_i w_i(h_i);
    None as soon as more than ``limit`` tuples (or candidate pairs) would be built."""
    idx = np.zeros((1, 0), dtype=np.int64)
    weight = np.ones(1)
    used = np.zeros(1, dtype=np.int64)
    for i, r in enumerate(players):
        combos = support[i, : n_support[i]]
        bits = COMBO_BITS[combos]
        if idx.shape[0] * combos.size > limit:
            return None
        ok = (used[:, None] & bits[None, :]) == 0
        rows, cols = np.nonzero(ok)
        idx = np.concatenate([idx[rows], cols[:, None]], axis=1)
        weight = weight[rows] * r.weights[combos[cols]]
        used = used[rows] | bits[cols]
        if idx.shape[0] > limit:
            return None
    return idx, weight


def _result(deal, acc, method, trials, attempts, exact=False) -> EquityResult:
    sw, sw2 = acc[0, 0], acc[0, 1]
    if sw <= 0:
        raise ValueError("no deal is possible: the ranges cannot be dealt together (every combination shares a card)")
    k = len(deal.players)
    means, ses = [], []
    for o in range(_N_OUTCOMES):
        swx, sw2x, sw2x2 = acc[1 + o, 0::3], acc[1 + o, 1::3], acc[1 + o, 2::3]
        mu = swx / sw
        var = np.maximum(sw2x2 - 2 * mu * sw2x + mu * mu * sw2, 0.0) / (sw * sw)
        means.append(tuple(float(x) for x in mu))
        ses.append(tuple(0.0 for _ in range(k)) if exact else tuple(float(x) for x in np.sqrt(var)))
    ess = float(sw * sw / sw2) if sw2 > 0 else 0.0
    return EquityResult(
        players=deal.labels,
        win=means[0],
        tie=means[1],
        equity=means[2],
        win_se=ses[0],
        tie_se=ses[1],
        equity_se=ses[2],
        method=method,
        trials=int(trials),
        attempts=int(attempts),
        effective_sample_size=float(trials) if exact else ess,
    )


def pot_layers(contributions: Sequence[float] | None, n_players: int, dead_money: float = 0.0):
    """(layer amounts as shares of the total pot, (layers x players) eligibility) of a pot built
    from per-player ``contributions`` (chips) plus ``dead_money`` (added to the main pot). None:
    one layer that every player contests."""
    if contributions is None:
        if dead_money:
            raise ValueError("dead_money: only meaningful with contributions")
        return np.ones(1), np.ones((1, n_players), dtype=np.bool_)
    c = np.asarray(contributions, dtype=np.float64)
    if c.shape != (n_players,):
        raise ValueError(f"contributions: expected {n_players} amounts (hero first), got {len(c)}")
    if not np.all(np.isfinite(c)) or np.any(c <= 0):
        raise ValueError(f"contributions: expected positive chip amounts, got {list(c)}")
    if not (math.isfinite(dead_money) and dead_money >= 0):
        raise ValueError(f"dead_money: expected chips >= 0, got {dead_money!r}")
    levels = np.unique(c)
    previous = np.concatenate([[0.0], levels[:-1]])
    amounts = np.array([np.minimum(c, hi).sum() - np.minimum(c, lo).sum() for lo, hi in zip(previous, levels)])
    amounts[0] += dead_money
    eligible = c[None, :] >= levels[:, None]
    return amounts / (c.sum() + dead_money), eligible


def multiway_equity(
    hero: Range | str,
    opponents: Sequence[Range | str] | Range | str,
    board: str | Sequence[int] | None = None,
    dead: str | Sequence[int] | None = None,
    trials: int = 100_000,
    seed: int = 0,
    method: str = "rejection",
    max_attempts: int | None = None,
    max_work: float = 5e9,
    contributions: Sequence[float] | None = None,
    dead_money: float = 0.0,
) -> EquityResult:
    """Win, tie and pot share of ``hero`` and each opponent at showdown (see the module doc).

    ``hero`` and ``opponents`` are ``Range`` objects or notation (``"AhKh"``, ``"QQ+,AK"``,
    ``"random"``); ``board`` 0..5 cards and ``dead`` cards as text or indices. ``trials`` is
    the number of accepted deals (rejection) or of weighted deals (importance). Rejection
    gives up after ``max_attempts`` joint draws (default ``1000 * trials``) with a
    ``ValueError`` that suggests ``importance``. Same arguments, same result.

    ``contributions`` (optional, one per player, hero first, in chips) makes ``equity``
    side-pot aware: the pot is cut into layers at each distinct contribution; a layer goes to
    the best hands among the players who put that much in (an uncalled excess returns to its
    owner), and ``dead_money`` (chips of players no longer in the hand) joins the main pot.
    ``equity[i]`` is then player ``i``'s expected amount won over every pot divided by the total
    pot (``sum(contributions) + dead_money``), so the shares still sum to one; with equal
    contributions and no dead money it is the plain pot share. ``win`` and ``tie`` always refer to
    the best hand at the table.
    """
    if method not in _METHODS:
        raise ValueError(f"method: expected one of {', '.join(_METHODS)}, got {method!r}")
    if trials < 1:
        raise ValueError(f"trials: expected a positive number of deals, got {trials}")
    deal = _prepare(hero, opponents, board, dead)
    layer_amount, layer_eligible = pot_layers(contributions, len(deal.players), dead_money)
    prob, alias, support, n_support = _support_arrays(deal.players)

    if method in ("auto", "exact"):
        # work = runouts * (range hands evaluated + tuples scored per runout)
        budget = AUTO_EXACT_WORK if method == "auto" else max_work
        k, runouts = len(deal.players), math.comb(deal.deck.size, deal.n_deal)
        found = _hand_tuples(deal.players, n_support, support, min(_MAX_TUPLES, budget / (runouts * k)))
        if found is not None and runouts * (n_support.sum() + found[0].shape[0] * k) <= budget:
            tuples, tuple_weights = found
            if tuples.shape[0] == 0:
                raise ValueError("no deal is possible: the ranges cannot be dealt together (every combination shares a card)")
            acc = _exact_kernel(
                tuples, tuple_weights, support, n_support, COMBO_BITS, deal.board_packed, deal.deck, deal.n_deal,
                layer_amount, layer_eligible,
            )
            deals = tuples.shape[0] * math.comb(deal.deck.size - 2 * len(deal.players), deal.n_deal)
            return _result(deal, acc, "exact", deals, deals, exact=True)
        if method == "exact":
            raise ValueError(
                f"method: exact enumeration here needs more than max_work={max_work:.3g} steps or "
                f"{_MAX_TUPLES:,} hand tuples; use 'rejection' or 'importance'"
            )
        method = "rejection"

    if method == "rejection":
        cap = int(max_attempts if max_attempts is not None else 1000 * trials)
        acc, accepted, attempts = _rejection_kernel(
            prob, alias, support, n_support, COMBO_BITS, deal.board_packed, deal.dead_packed, deal.deck, deal.n_deal,
            trials, cap, np.uint64(seed % 2**64), layer_amount, layer_eligible,
        )  # fmt: skip
        if accepted < trials:
            raise ValueError(
                f"rejection sampling kept {accepted} of {attempts} joint draws (acceptance "
                f"{accepted / attempts:.2e}), short of trials={trials}: the ranges rarely fit "
                "together; use method='importance'"
            )
        return _result(deal, acc, "rejection", accepted, attempts)

    weights = np.stack([r.weights for r in deal.players])
    card_mass = np.zeros((len(deal.players), 52))
    for col in range(2):
        for i in range(len(deal.players)):
            card_mass[i] += np.bincount(COMBO_CARDS[:, col], weights=weights[i], minlength=52)
    acc = _importance_kernel(
        prob, alias, support, n_support, weights, card_mass, weights.sum(axis=1), _COMBO_CARDS,
        COMBO_INDEX.astype(np.int64), COMBO_BITS, deal.board_packed, deal.dead_packed, deal.deck,
        deal.n_deal, trials, np.uint64(seed % 2**64), layer_amount, layer_eligible,
    )  # fmt: skip
    return _result(deal, acc, "importance", trials, trials)


def hero_equity_vs_combos(hero: str, board="", samples: int = 4000, seed: int = 0) -> tuple[np.ndarray, np.ndarray, bool]:
    """(equity of the hand ``hero`` against each combo (1,326; NaN where blocked), runouts per
    combo, exact): every runout from the flop on, ``samples`` seeded boards preflop."""
    hero_combo = parse_combo(hero)
    hero_cards = [int(c) for c in COMBO_CARDS[hero_combo]]
    board_cards = as_cards(board)
    if set(hero_cards) & set(board_cards):
        raise ValueError(f"hero: {hero} shares a card with the board")
    removed = hero_cards + board_cards
    live = ~np.isin(COMBO_CARDS, removed).any(axis=1)
    deck = np.array([CARD_BITS[c] for c in range(52) if c not in removed], dtype=np.int64)
    board_packed = int(np.bitwise_or.reduce(CARD_BITS[board_cards])) if board_cards else 0
    n_deal = 5 - len(board_cards)
    exact = n_deal <= 2
    eq, count = _hand_vs_combos_kernel(np.int64(COMBO_BITS[hero_combo]), COMBO_BITS, live, np.int64(board_packed),
                                       deck, n_deal, 0 if exact else int(samples), np.uint64(seed))
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.where(count > 0, eq / np.maximum(count, 1), np.nan)
    return out, count, exact


def format_equity(result: EquityResult, label_width: int = 32) -> str:
    """A plain-text table of ``result``: one row per player, percentages with ± one SE."""

    def pct(x: float, se: float) -> str:
        return f"{100 * x:7.3f}" + ("" if result.method == "exact" else f" ± {100 * se:.3f}")

    names = ["hero"] + [f"opponent {i}" for i in range(1, len(result.players))]
    rows = []
    for i, (name, label) in enumerate(zip(names, result.players)):
        shown = label if len(label) <= label_width else label[: label_width - 3] + "..."
        rows.append(
            (f"{name} {shown}", pct(result.win[i], result.win_se[i]), pct(result.tie[i], result.tie_se[i]),
             pct(result.equity[i], result.equity_se[i]))
        )  # fmt: skip
    header = ("player", "win %", "tie %", "equity %")
    widths = [max(len(r[c]) for r in [header, *rows]) for c in range(4)]
    lines = ["  ".join(cell.ljust(w) if c == 0 else cell.rjust(w) for c, (cell, w) in enumerate(zip(r, widths))) for r in [header, *rows]]
    note = f"method: {result.method}, {result.trials:,} deals"
    if result.method == "exact":
        note += " (every deal enumerated: no sampling error)"
    elif result.method == "rejection":
        note += f", acceptance rate {result.acceptance_rate:.1%}"
    elif result.method == "importance":
        note += f", effective sample size {result.effective_sample_size:,.0f}"
    return "\n".join([*lines, note])
