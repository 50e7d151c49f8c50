"""Player statistics as Beta posteriors with geometric recency decay.

Definitions (written once, here; every stat is "count of successes / count of
opportunities", at most one opportunity per player per hand unless said otherwise):

Preflop (the blinds are not voluntary; a "raise" is any voluntary increase preflop):

* ``vpip`` - opp: the player made a preflop decision; yes: called or raised preflop (the big
  blind's check and every fold are not).
* ``pfr`` - opp: as vpip; yes: raised preflop.
* ``rfi`` (raise first in) - opp: the player's first preflop decision with every earlier seat
  folded (no limp, no raise); yes: raised there. Heads-up the SB's first decision counts.
* ``limp`` - opp: the player's first preflop decision in an unopened pot (no raise yet), not the
  big blind; yes: called (completed) there.
* ``three_bet`` - opp: a preflop decision facing exactly one raise (first such decision);
  yes: re-raised.
* ``cold_call`` - opp: the first preflop decision facing exactly one raise, with no chips put in
  voluntarily before it (the blinds' posts do not count); yes: called.
* ``fold_to_three_bet`` - opp: the player made the first raise and later faces a re-raise (its
  first decision after the 3-bet); yes: folded.
* ``four_bet`` - opp: a preflop decision facing exactly two raises; yes: re-raised.

Postflop (``pfa``: the last preflop raiser):

* ``cbet_flop`` - opp: the pfa acts on the flop before anyone has bet; yes: bet.
* ``fold_to_cbet`` - opp: the player faces the pfa's flop bet as the first bet of the flop
  (its first decision after it, before any raise); yes: folded.
* ``barrel_turn`` - opp: the player c-bet the flop and acts on the turn before anyone has
  bet; yes: bet. ``barrel_river`` - the same on the river after betting flop and turn.
* ``check_raise`` - opp: on a street after the flop is dealt, the player checked and then faced
  a bet on the same street (once per street); yes: raised. Also per street.
* ``fold_to_raise`` - opp: the player bet or raised on a street and then faces a raise on it
  (once per street; preflop too); yes: folded. Also per street.
* ``aggression`` (aggression frequency) - one opportunity per postflop bet, raise, call or
  fold (checks left out); yes: bet or raise. Also per street (``aggression_flop`` ...).
* ``wtsd`` - opp: the player saw the flop; yes: still in at the showdown.
* ``wsd`` (won $ at showdown) - opp: went to showdown; yes: the hand's result is positive.

Each stat's observations are weighted by ``decay ** age`` where ``age`` is the number of that
player's hands imported after the one observed (``decay = 1``: no forgetting). The posterior is
Beta(prior_a + weighted yes, prior_b + weighted no); ``mean`` is its mean and ``lower``/``upper``
its equal-tailed credible interval (default 95%). ``opportunities`` and ``count`` are the raw
(unweighted) numbers, so 3/4 and 300/400 show the same raw rate and very different intervals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.hands.model import Hand

PREFLOP_STATS = ("vpip", "pfr", "rfi", "limp", "three_bet", "cold_call", "fold_to_three_bet", "four_bet")
POSTFLOP_STATS = ("cbet_flop", "fold_to_cbet", "barrel_turn", "barrel_river", "check_raise", "fold_to_raise",
                  "aggression", "wtsd", "wsd")
BY_STREET = ("check_raise", "fold_to_raise", "aggression")
STAT_NAMES = PREFLOP_STATS + POSTFLOP_STATS + tuple(
    f"{s}_{street}" for s in BY_STREET for street in ("preflop", "flop", "turn", "river")
    if not (street == "preflop" and s in ("check_raise", "aggression")))
_STREET_NAMES = ("preflop", "flop", "turn", "river")


def hand_observations(hand: Hand) -> list[tuple[int, str, bool]]:
    """(player index, stat, success) for every opportunity in ``hand`` (see module docstring)."""
    n = hand.n
    obs: list[tuple[int, str, bool]] = []
    pre = [a for a in hand.actions if a.street == 0]
    acted = set()
    first_done: dict[str, set] = {k: set() for k in ("rfi", "limp", "three_bet", "cold_call", "fold_to_three_bet", "four_bet")}
    voluntary = [False] * n
    first_raiser = None
    raised_pre = [False] * n
    called_pre = [False] * n
    all_folds = True
    for a in pre:
        p = a.player
        acted.add(p)
        if a.raise_level == 0 and all_folds and p not in first_done["rfi"]:
            first_done["rfi"].add(p)
            obs.append((p, "rfi", a.kind == "R"))
        if a.raise_level == 0 and p != n - 1 and p not in first_done["limp"]:
            first_done["limp"].add(p)
            obs.append((p, "limp", a.kind == "C"))
        if a.raise_level == 1 and p not in first_done["three_bet"]:
            first_done["three_bet"].add(p)
            obs.append((p, "three_bet", a.kind == "R"))
            if not voluntary[p]:
                first_done["cold_call"].add(p)
                obs.append((p, "cold_call", a.kind == "C"))
        if a.raise_level == 2 and p not in first_done["four_bet"]:
            first_done["four_bet"].add(p)
            obs.append((p, "four_bet", a.kind == "R"))
        if a.raise_level == 2 and p == first_raiser and p not in first_done["fold_to_three_bet"]:
            first_done["fold_to_three_bet"].add(p)
            obs.append((p, "fold_to_three_bet", a.kind == "F"))
        if a.kind == "R":
            if first_raiser is None:
                first_raiser = p
            raised_pre[p] = True
        if a.kind == "C":
            called_pre[p] = True
        if a.kind in ("C", "R"):
            voluntary[p] = True
        if a.kind != "F":
            all_folds = False
    for p in sorted(acted):
        obs.append((p, "vpip", voluntary[p]))
        obs.append((p, "pfr", raised_pre[p]))
    pfa = None
    for a in pre:
        if a.kind == "R":
            pfa = a.player
    # per street: who bet/raised, who checked
    cbet = [False] * 4  # did the pfa bet each street as the first bettor, chained
    barrel_chain = {1: False, 2: False, 3: False}
    for street in range(4):
        acts = [a for a in hand.actions if a.street == street]
        checked, aggressed = set(), set()
        faced_raise_done, cr_done = set(), set()
        first_bettor = None
        fold_cbet_done = set()
        bet_made = False
        for a in acts:
            p = a.player
            if street > 0:
                if a.kind != "X":
                    obs.append((p, "aggression", a.kind in ("B", "R")))
                    obs.append((p, f"aggression_{_STREET_NAMES[street]}", a.kind in ("B", "R")))
                if not bet_made:
                    if street == 1 and p == pfa:
                        obs.append((p, "cbet_flop", a.kind == "B"))
                        barrel_chain[1] = a.kind == "B"
                    if street == 2 and p == pfa and barrel_chain[1]:
                        obs.append((p, "barrel_turn", a.kind == "B"))
                        barrel_chain[2] = a.kind == "B"
                    if street == 3 and p == pfa and barrel_chain[1] and barrel_chain[2]:
                        obs.append((p, "barrel_river", a.kind == "B"))
                elif (street == 1 and first_bettor == pfa and a.raise_level == 1 and p != pfa
                      and p not in fold_cbet_done):
                    fold_cbet_done.add(p)
                    obs.append((p, "fold_to_cbet", a.kind == "F"))
                if p in checked and a.facing > 0 and p not in cr_done:
                    cr_done.add(p)
                    for key in ("check_raise", f"check_raise_{_STREET_NAMES[street]}"):
                        obs.append((p, key, a.kind == "R"))
            if p in aggressed and a.facing > 1e-9 and p not in faced_raise_done:
                faced_raise_done.add(p)
                for key in ("fold_to_raise", f"fold_to_raise_{_STREET_NAMES[street]}"):
                    obs.append((p, key, a.kind == "F"))
            if a.kind == "X":
                checked.add(p)
            if a.kind in ("B", "R"):
                aggressed.add(p)
                if not bet_made:
                    first_bettor = p
                bet_made = True
    del cbet
    # saw the flop: in the hand when the flop came (the board has a flop and the player had not folded preflop)
    folded_pre = {a.player for a in pre if a.kind == "F"}
    if len(hand.board) >= 6:
        for p in range(n):
            if p not in folded_pre:
                obs.append((p, "wtsd", bool(hand.showdown[p])))
    for p in range(n):
        if hand.showdown[p]:
            obs.append((p, "wsd", hand.results[p] > 0))
    return obs


@dataclass(frozen=True)
class StatSettings:
    decay: float = 1.0
    prior_a: float = 1.0
    prior_b: float = 1.0
    credible: float = 0.95

    def __post_init__(self) -> None:
        if not 0 < self.decay <= 1:
            raise ValueError(f"decay: {self.decay!r} must be in (0, 1]")
        if self.prior_a <= 0 or self.prior_b <= 0:
            raise ValueError("prior: both Beta parameters must be > 0")
        if not 0 < self.credible < 1:
            raise ValueError(f"credible: {self.credible!r} must be in (0, 1)")


def observations_frame(hands: list[Hand]):
    """One row per observation: hand order ``k``, player, position, stat, success."""
    import pandas as pd

    rows_k, rows_p, rows_pos, rows_s, rows_y = [], [], [], [], []
    for k, hand in enumerate(hands):
        names = hand.positions
        for p, stat, yes in hand_observations(hand):
            rows_k.append(k)
            rows_p.append(hand.players[p])
            rows_pos.append(names[p])
            rows_s.append(stat)
            rows_y.append(yes)
    return pd.DataFrame({"k": np.asarray(rows_k, dtype=np.int64), "player": rows_p, "position": rows_pos,
                         "stat": rows_s, "yes": np.asarray(rows_y, dtype=bool)})


def posterior(count_w, opp_w, settings: StatSettings):
    from scipy.stats import beta

    a = settings.prior_a + np.asarray(count_w, dtype=float)
    b = settings.prior_b + np.asarray(opp_w, dtype=float) - np.asarray(count_w, dtype=float)
    tail = (1 - settings.credible) / 2
    return a / (a + b), beta.ppf(tail, a, b), beta.ppf(1 - tail, a, b)


def summarise(obs, settings: StatSettings | None = None, by: tuple[str, ...] = ("player",), hands_of=None):
    """Per group (``by`` columns plus ``stat``): opportunities, count, mean, lower, upper.

    Decay ages are counted per player: the player's hands after the observed one. ``hands_of``
    is unused (kept for symmetry with callers that pass the hand list)."""
    import pandas as pd

    settings = settings or StatSettings()
    if obs.empty:
        return pd.DataFrame(columns=[*by, "stat", "opportunities", "count", "mean", "lower", "upper"])
    obs = obs.copy()
    if settings.decay < 1.0:
        # rank of the player's hand among the player's hands, from the newest (age 0)
        ks = obs[["player", "k"]].drop_duplicates()
        ks["age"] = ks.groupby("player")["k"].rank(method="dense", ascending=False) - 1
        obs = obs.merge(ks, on=["player", "k"], how="left")
        obs["w"] = settings.decay ** obs["age"].to_numpy(dtype=float)
    else:
        obs["w"] = 1.0
    obs["yes_w"] = obs["w"] * obs["yes"]
    g = obs.groupby([*by, "stat"], sort=True).agg(opportunities=("yes", "size"), count=("yes", "sum"),
                                                  opp_w=("w", "sum"), count_w=("yes_w", "sum")).reset_index()
    mean, lower, upper = posterior(g["count_w"], g["opp_w"], settings)
    g["mean"], g["lower"], g["upper"] = mean, lower, upper
    g["count"] = g["count"].astype(int)
    return g.drop(columns=["opp_w", "count_w"])


def stats_document(hands: list[Hand], settings: StatSettings | None = None, by_position: bool = False,
                   players: list[str] | None = None, pool_exclude=()) -> dict:
    """``{"players": {name: {stat: {opportunities, count, mean, lower, upper}}}, "pool": {...}}``
    (plus ``by_position`` and ``pool_by_position`` when asked: {name: {position: {stat: ...}}}
    and {position: {stat: ...}}). The pool is every player but those in ``pool_exclude``."""
    settings = settings or StatSettings()
    obs = observations_frame(hands)
    if players:
        keep = obs["player"].isin(players)
    else:
        keep = np.ones(len(obs), dtype=bool)

    def entry(row) -> dict:
        return {"opportunities": int(row.opportunities), "count": int(row.count), "mean": round(float(row.mean), 6),
                "lower": round(float(row.lower), 6), "upper": round(float(row.upper), 6)}

    out: dict = {"players": {}, "settings": {"decay": settings.decay, "prior": [settings.prior_a, settings.prior_b],
                                             "credible": settings.credible, "hands": len(hands)}}
    for row in summarise(obs[keep], settings).itertuples(index=False):
        out["players"].setdefault(row.player, {})[row.stat] = entry(row)
    pool = obs[~obs["player"].isin(list(pool_exclude))].assign(player="*")
    out["pool"] = {row.stat: entry(row) for row in summarise(pool, settings).itertuples(index=False)}
    out["settings"]["pool_excludes"] = sorted(pool_exclude)
    if by_position:
        out["by_position"] = {}
        for row in summarise(obs[keep], settings, by=("player", "position")).itertuples(index=False):
            out["by_position"].setdefault(row.player, {}).setdefault(row.position, {})[row.stat] = entry(row)
        out["pool_by_position"] = {}
        for row in summarise(pool, settings, by=("player", "position")).itertuples(index=False):
            out["pool_by_position"].setdefault(row.position, {})[row.stat] = entry(row)
    return out
