"""A seeded generator of short-stack hands (for the push/fold backtest's tests and demo).

The shared real hands are deep (100bb and more), so they hold almost no push/fold spot. This
writes synthetic hands instead - they are **generated, not played by people**: 2 to 6 players
with stacks drawn between 3 and 30bb, blinds 0.5/1bb, and in a share of the hands a 1bb ante
posted by the big blind (dead, as the ``mtt`` charts have it). The play is a noisy
threshold policy on each class's equity against a random hand: the seats before the small
blind mostly fold and sometimes shove; the small blind, folded to, shoves, folds or now and
then limps; the big blind calls a shove or checks a limp; seats with chips behind after the
preflop betting check the hand down.
Boards are dealt and pots (side pots included) split by the 7-card evaluator. Amounts are whole
chips (100 to the big blind), so the hands survive PHH exactly; :func:`pokerlab.hands.phh.write_phhs`
writes them through pokerkit, whose replay checks every hand.
"""

from __future__ import annotations

import math

import numpy as np

from pokerlab import cards
from pokerlab.evaluator import evaluate
from pokerlab.hands.model import Hand, postflop_first, refund_uncalled, replay

NAMES = ("Hero", "Villain1", "Villain2", "Villain3", "Villain4", "Villain5")


def class_strength(eq: np.ndarray) -> np.ndarray:
    """Each class's equity against a random hand (combo weighted)."""
    return np.asarray(eq, dtype=float) @ cards.CLASS_PRIOR


def _distribute(contrib: list[int], live: list[int], strength: dict[int, int]) -> list[int]:
    """Chips won per seat: the pot in layers at each live seat's contribution (side pots),
    each layer split among the best hands eligible for it (odd chips to the earliest seat)."""
    n = len(contrib)
    won = [0] * n
    prev = 0
    levels = sorted({contrib[p] for p in live})
    for j, level in enumerate(levels):
        top = j == len(levels) - 1
        layer = sum((c if top else min(c, level)) - min(c, prev) for c in contrib)
        eligible = [p for p in live if contrib[p] >= level]
        best = max(strength[p] for p in eligible)
        winners = [p for p in eligible if strength[p] == best]
        share, odd = divmod(layer, len(winners))
        for k, w in enumerate(winners):
            won[w] += share + (1 if k < odd else 0)
        prev = level
    return won


def check_settings(count: int, ante_share: float, players, stack_range) -> None:
    """``ValueError`` naming the first setting of :func:`generate_hands` that is impossible:
    ``hands`` (the count, >= 1), ``ante_share`` (in [0, 1]), ``players`` (table sizes 2..9) or
    ``stacks`` (low, high bb with 0 < low <= high, both finite)."""
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"hands {count!r}: expected a whole number of hands >= 1")
    if not (isinstance(ante_share, (int, float)) and 0 <= ante_share <= 1):
        raise ValueError(f"ante_share {ante_share!r}: expected a share of the hands in [0, 1]")
    if not players or any(isinstance(n, bool) or not isinstance(n, int) or not 2 <= n <= 9 for n in players):
        raise ValueError(f"players {','.join(map(str, players))!r}: expected table sizes 2..9, e.g. 2,2,3,4,6")
    low, high = stack_range
    if not (math.isfinite(low) and math.isfinite(high) and 0 < low <= high):
        raise ValueError(f"stacks {low:g},{high:g}: expected finite stacks low,high in bb with 0 < low <= high")


def generate_hands(count: int, seed: int, eq, ante_share: float = 0.5, noise: float = 0.04,
                   players=(2, 2, 3, 4, 6), stack_range=(3.0, 30.0)) -> list[Hand]:
    """``count`` hands from ``seed`` (``eq``: the 169x169 ``win + tie/2`` table, or an equity
    table file); ``players``: table sizes drawn from (uniformly, repeats weigh more); ``stack_range``:
    the range stacks are drawn from, bb. Same arguments, same hands."""
    check_settings(count, ante_share, players, stack_range)
    if not isinstance(eq, np.ndarray):
        from pokerlab.equity_table import load_equity_table

        eq = load_equity_table(eq).equity
    strength = class_strength(eq)
    rng = np.random.default_rng(seed)
    hands = []
    for k in range(count):
        n = int(rng.choice(list(players)))
        names = [str(x) for x in rng.permutation(NAMES)[:n]]
        stacks_c = [int(round(rng.uniform(*stack_range) * 2)) * 50 for _ in range(n)]
        ante_c = 100 if rng.random() < ante_share else 0
        deck = rng.permutation(52)
        holes = [(int(deck[2 * p]), int(deck[2 * p + 1])) for p in range(n)]
        board_cards = [int(c) for c in deck[2 * n: 2 * n + 5]]
        cls = [int(cards.COMBO_CLASS[cards.COMBO_INDEX[a, b]]) for a, b in holes]
        s = [strength[c] + rng.normal(0, noise) for c in cls]
        blinds_c = [0] * n
        blinds_c[n - 2 if n > 2 else 0], blinds_c[n - 1] = 50, 100
        antes_c = [0] * n
        antes_c[n - 1] = ante_c
        stacks_c[n - 1] = max(stacks_c[n - 1], 100 + ante_c + 50)
        stacks_c[n - 2] = max(stacks_c[n - 2], 100)
        events: list[tuple] = []
        shoved = False
        sb, bb = n - 2, n - 1
        limped = False
        for p in range(n - 2):  # seats before the small blind
            if not shoved and rng.random() < 0.12 and s[p] > 0.55:
                events.append((p, "r", (stacks_c[p] - antes_c[p]) / 100))
                shoved = True
            elif shoved and s[p] > 0.62 and rng.random() < 0.5:
                events.append((p, "c", 0.0))
            else:
                events.append((p, "f", 0.0))
        depth = min(stacks_c[sb] - antes_c[sb], stacks_c[bb] - antes_c[bb]) / 100
        if not shoved:
            # shove the top ~ (9 / depth) share; limp now and then
            threshold = 0.62 - 0.25 * min(1.0, 9.0 / depth) + (0.03 if ante_c == 0 else 0.0)
            if rng.random() < 0.06:
                events.append((sb, "c", 0.0))
                limped = True
            elif s[sb] > threshold:
                events.append((sb, "r", (stacks_c[sb] - antes_c[sb]) / 100))
                shoved = True
            else:
                events.append((sb, "f", 0.0))
            if limped:
                events.append((bb, "c", 0.0))
            elif shoved:
                call_threshold = 0.64 - 0.2 * min(1.0, 9.0 / depth)
                events.append((bb, "c" if s[bb] > call_threshold else "f", 0.0))
        else:
            for p in (sb, bb):
                events.append((p, "c" if (s[p] > 0.62 and rng.random() < 0.5) else "f", 0.0))
        stacks = [x / 100 for x in stacks_c]
        # replay to learn who is left; check down a limped pot
        acts, total, live, _ = replay(n, stacks, [b / 100 for b in blinds_c], [a / 100 for a in antes_c], events)
        alive = [p for p in range(n) if live[p]]
        board = ""
        if len(alive) > 1:
            behind = [p for p in postflop_first(n) if live[p] and stacks[p] - total[p] > 1e-9]
            for _street in range(3):  # seats with chips behind check it down
                events.append(("street",))
                if len(behind) > 1:
                    events.extend((p, "c", 0.0) for p in behind)
            acts, total, live, _ = replay(n, stacks, [b / 100 for b in blinds_c], [a / 100 for a in antes_c], events)
            board = "".join(cards.card_str(c) for c in board_cards)
        paid = refund_uncalled(total, live, [a / 100 for a in antes_c])
        paid_c = [int(round(x * 100)) for x in paid]
        if len(alive) == 1:
            won = [0] * n
            won[alive[0]] = sum(paid_c)
        else:
            st = {p: int(evaluate(list(holes[p]) + board_cards)) for p in alive}
            won = _distribute(paid_c, alive, st)
        results = [(won[p] - paid_c[p]) / 100 for p in range(n)]
        hole = ["".join(cards.card_str(c) for c in sorted(h, reverse=True)) for h in holes]
        hands.append(Hand(hand_id=str(k + 1), site="generated", source_format="generated", source="", line=0,
                          stakes="0.5/1", bb_chips=1.0, tournament=ante_c > 0, players=names, seats=[0] * n,
                          stacks=stacks, antes=[a / 100 for a in antes_c], blinds=[b / 100 for b in blinds_c],
                          hole=hole, board=board, actions=acts, results=results, rake=0.0,
                          showdown=[live[p] and len(alive) > 1 for p in range(n)]))
    return hands
