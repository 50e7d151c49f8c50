"""Decision reports: the opponent's inferred range and the EV of each of the hero's actions.

A :class:`Situation` is a heads-up hand seen from the hero: the hero's hand and seat, the
opponent's seat, the preflop actions (chart letters, 6-max cash tree at ``stack_bb``), the board
and the postflop actions so far. :func:`decide` then

1. **infers the opponent's range**: the prior for its preflop line and seat
   (:class:`~pokerlab.ranges.priors.RangePriors`, generated from our charts) - or an explicit
   range given in its place - with the board removed and every observed postflop action applied
   by Bayes' rule under the opponent's model (:func:`~pokerlab.ranges.likelihood.update_range_for_action`);
   the hero's own range is inferred the same way with the ``regular`` model (the solver needs it);
2. **values each legal action** of the hero, in bb, as the chips the hero takes from the pot at
   the end of the hand minus the chips it puts in from now on (folding is 0):

   * ``solver`` - on the turn and river, at the hero's first decision of the street (first to
     act, checked to, or facing a bet), the street is solved with :mod:`pokerlab.postflop`
     (heads-up, the two inferred ranges, the hero's bet sizes plus the opponent's observed size,
     all-in, raises only all-in). The opponent's observed action on the street is then imposed
     (its range is already conditioned on it) and each hero action's EV is the hero combo's root
     value with that action forced and both players following the solve afterwards;
   * ``equity`` - preflop, on the flop, or after more than one action on the street: the hero's
     exact showdown equity against every opponent combo (sampled boards preflop) and a stated
     **one-response continuation model**: a check or call is checked down to showdown; after a
     bet or raise the opponent folds, calls or raises all-in with its model's probabilities per
     combo, a call is checked down, and the hero calls the all-in only if its equity against
     the raising range beats the price.

3. **keeps the uncertainties apart**: ``sampling_or_solve`` (equity standard error, or the solve's
   exploitability in % of the pot), ``range_estimation`` (the same report under the alternative
   opponent models: each alternative's EVs and recommendation) and ``abstraction`` (what the
   valuation leaves out).

Combos below ``1e-3`` of the largest weight are dropped before a solve (they change EVs by less
than the solve's error and make the tree cheaper), and the hero's own hand is given at least 1% of
the largest weight of the hero's range (a solve reads values only for hands in the range).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Sequence

import numpy as np

from pokerlab.cards import CLASS_NAMES, COMBO_CARDS, parse_combo
from pokerlab.ranges.equity import hero_equity_vs_combos
from pokerlab.ranges.likelihood import (
    ARCHETYPES,
    BehaviorModel,
    StrategyLikelihood,
    canonical_action,
    model_named,
    update_range_for_action,
)
from pokerlab.ranges.lines import classify_preflop_line
from pokerlab.ranges.priors import RangePriors
from pokerlab.ranges.range import Range, as_cards

__all__ = ["Situation", "Action", "decide", "parse_history", "range_summary", "ALTERNATIVES", "EXPLICIT_RANGES"]

STREETS = {"flop": 3, "turn": 4, "river": 5}
EXPLICIT_RANGES = {
    "tight": "88+,ATs+,KJs+,QJs,AJo+,KQo",
    "wide": "22+,A2+,K2s+,K8o+,Q5s+,Q9o+,J7s+,J9o+,T7s+,T9o,96s+,98o,85s+,75s+,64s+,54s",
}
"""The explicit alternatives of the sensitivity analysis (used as priors, then updated)."""
ALTERNATIVES = ("nit", "calling_station", "maniac", "tight", "wide")
SOLVE_TRIM = 1e-3


# --- the hand so far -------------------------------------------------------------------------


@dataclass(frozen=True)
class Action:
    """One postflop action: ``who`` (hero/villain), ``action`` (check, bet, call, raise, fold,
    allin), ``size`` (bet: fraction of the pot; raise: fraction of the pot after the call) and
    the ``street`` it was taken on."""

    street: str
    who: str
    action: str
    size: float = 0.0


def parse_history(text: str) -> list[Action]:
    """``"flop: villain check, hero bet 0.5, villain call; turn: villain bet 0.75"`` as actions."""
    out: list[Action] = []
    for part in filter(None, (p.strip() for p in (text or "").split(";"))):
        if ":" not in part:
            raise ValueError(f"history: expected 'street: who action [size], ...', got {part!r}")
        street, actions = (x.strip() for x in part.split(":", 1))
        if street not in STREETS:
            raise ValueError(f"history: unknown street {street!r}; expected flop, turn or river")
        for item in filter(None, (a.strip() for a in actions.split(","))):
            words = item.split()
            if len(words) not in (2, 3) or words[0] not in ("hero", "villain"):
                raise ValueError(f"history: expected 'hero|villain action [size]', got {item!r}")
            try:
                size = float(words[2]) if len(words) == 3 else 0.0
            except ValueError:
                raise ValueError(f"history: size {words[2]!r} in {item!r} is not a number") from None
            if not (math.isfinite(size) and size >= 0):
                raise ValueError(f"history: size {words[2]!r} in {item!r} must be a finite fraction of the pot >= 0")
            out.append(Action(street, words[0], words[1].lower(), size))
    return out


@dataclass(frozen=True)
class Situation:
    """A heads-up decision of the hero (see the module docstring). Chips in bb."""

    hero: str
    hero_position: str
    villain_position: str
    preflop: str
    board: str = ""
    history: tuple[Action, ...] = ()
    stack_bb: float = 100.0
    hero_sizes: tuple[float, ...] = (0.5, 1.0)
    """Bet sizes (fractions of the pot) and raise sizes (of the pot after the call) to value."""
    name: str = ""


@dataclass
class _State:
    pot: float
    to_call: float
    behind: float  # hero's chips behind now (effective)
    street_pot: float  # the pot when the current street began
    street_actions: list[Action]
    hero_line: str
    villain_line: str
    hero_ip: bool
    preflop_options: tuple[str, ...] = ()
    preflop_raise_to: dict[str, float] = field(default_factory=dict)
    hero_in: float = 0.0  # hero's chips in the pot now (this street, preflop only)
    steps: list[dict[str, Any]] = field(default_factory=list)  # the postflop history replayed (walk_history)


def _replay(sit: Situation) -> _State:
    from pokerlab.preflop.spot import POSITIONS, Spot, load_sizing
    from pokerlab.preflop.tree import build_tree, postflop_order

    positions = POSITIONS[6]
    hero_pos, villain_pos = sit.hero_position.upper(), sit.villain_position.upper()
    for name, pos in (("hero_position", hero_pos), ("villain_position", villain_pos)):
        if pos not in positions:
            raise ValueError(f"{name}: expected a 6-max seat ({', '.join(positions)}), got {pos!r}")
    if hero_pos == villain_pos:
        raise ValueError("villain_position: the villain sits in another seat than the hero")
    hero, villain = positions.index(hero_pos), positions.index(villain_pos)
    tree = build_tree(Spot("cash", 6, float(sit.stack_bb)), load_sizing())
    node = tree.node(sit.preflop)
    hero_ip = postflop_order(hero, 6) > postflop_order(villain, 6)
    hero_line = classify_preflop_line(sit.preflop, hero, 6)
    villain_line = classify_preflop_line(sit.preflop, villain, 6)
    board = as_cards(sit.board)
    if node.kind == "decision":  # a preflop decision of the hero
        if board or sit.history:
            raise ValueError("preflop: the preflop betting is not closed, so there is no board or postflop history")
        if node.actor != hero:
            raise ValueError(f"preflop: after {sit.preflop!r} it is {positions[node.actor]} to act, not the hero")
        if set(node.players_in) - {hero, villain} and any(
                classify_preflop_line(sit.preflop, s, 6) not in ("folded", "unopened") for s in node.players_in
                if s not in (hero, villain)):
            raise ValueError("preflop: another seat has entered the pot; decisions are heads-up")
        contrib = node.contrib
        raise_to = {}
        for a in node.actions:
            if a in "RSA":
                raise_to[a] = tree.node(sit.preflop + a).contrib[hero]
        return _State(pot=sum(contrib), to_call=max(contrib) - contrib[hero], behind=sit.stack_bb - contrib[hero],
                      street_pot=sum(contrib), street_actions=[], hero_line=hero_line, villain_line=villain_line,
                      hero_ip=hero_ip, preflop_options=node.actions, preflop_raise_to=raise_to, hero_in=contrib[hero])
    if node.kind != "flop" or set(node.players_in) != {hero, villain}:
        raise ValueError(f"preflop: {sit.preflop!r} must end with the hero and the villain alone going to the flop "
                         f"(it ends in a {node.kind!r} with seats {[positions[s] for s in node.players_in]})")
    if not 3 <= len(board) <= 5:
        raise ValueError(f"board: the preflop betting is closed, so the board has 3 to 5 cards (got {len(board)})")
    street = {3: "flop", 4: "turn", 5: "river"}[len(board)]
    steps = walk_history(sit.history, float(sum(node.contrib)), float(node.behind), street)
    pot, street_pot, street_actions = float(sum(node.contrib)), float(sum(node.contrib)), []
    invest = {"hero": 0.0, "villain": 0.0}
    spent_hero = 0.0
    for step in steps:
        if step["new_street"]:
            street_pot, street_actions, invest = step["pot_before"], [], {"hero": 0.0, "villain": 0.0}
        invest[step["who"]] += step["amount"]
        spent_hero += step["amount"] if step["who"] == "hero" else 0.0
        pot = step["pot_after"]
        street_actions.append(Action(step["street"], step["who"], step["name"], step["size"]))
    if steps and steps[-1]["street"] != street:
        if invest["hero"] != invest["villain"]:
            raise ValueError(f"history: the {steps[-1]['street']} ends with a bet not called")
        street_pot, street_actions = pot, []
        invest = {"hero": 0.0, "villain": 0.0}
    to_call = invest["villain"] - invest["hero"]
    if to_call < -1e-9:
        raise ValueError("history: the hero's bet is not answered yet; it is the villain's turn")
    names = [a.action for a in street_actions]
    if names and (names[-1] == "call" or names[-2:] == ["check", "check"]):
        raise ValueError(f"history: the {street}'s betting is over; add the next board card for a new decision")
    hero_acted_last = bool(street_actions) and street_actions[-1].who == "hero"
    if hero_acted_last or (hero_ip and not street_actions):
        raise ValueError("history: it is the villain's turn to act")
    return _State(pot=pot, to_call=max(to_call, 0.0), behind=float(node.behind) - spent_hero, street_pot=street_pot,
                  street_actions=street_actions, hero_line=hero_line, villain_line=villain_line, hero_ip=hero_ip,
                  steps=steps)


def walk_history(history: Sequence[Action], pot: float, behind: float, street: str) -> list[dict[str, Any]]:
    """Replay postflop actions from a flop pot ``pot`` with ``behind`` chips each: per action its
    canonical name, whether it faced a bet, the size for the likelihood (bet or raise: the size
    given; facing: the faced bet as a fraction of the pot before it), the chips put in and the pot."""
    order = list(STREETS)
    out = []
    invest = {"hero": 0.0, "villain": 0.0}
    spent = {"hero": 0.0, "villain": 0.0}
    current = None
    for act in history:
        if order.index(act.street) > order.index(street):
            raise ValueError(f"history: an action on the {act.street}, but the board stops at the {street}")
        new_street = act.street != current
        if new_street:
            if current is not None and order.index(act.street) < order.index(current):
                raise ValueError("history: streets must come in order (flop, turn, river)")
            if invest["hero"] != invest["villain"]:
                raise ValueError(f"history: the {current} ends with a bet not called")
            current, invest = act.street, {"hero": 0.0, "villain": 0.0}
        other = "villain" if act.who == "hero" else "hero"
        to_call = invest[other] - invest[act.who]
        facing = to_call > 1e-9
        name = canonical_action(act.action, facing)
        if name == "fold":
            raise ValueError("history: a fold ends the hand; there is no decision after it")
        left = behind - spent[act.who]
        if name == "call":
            amount, size = min(to_call, left), to_call / max(pot - to_call, 1e-12)
        elif name in ("bet", "raise"):
            if act.action.lower() in ("allin", "a"):
                amount = left
            elif act.size <= 0:
                raise ValueError(f"history: {act.who} {act.action} on the {act.street} needs a size (fraction of the pot)")
            else:
                amount = min(to_call + act.size * (pot + to_call), left)
            size = (amount - to_call) / (pot + to_call)
        else:
            amount, size = 0.0, 0.0
        out.append({"street": act.street, "who": act.who, "action": act.action, "name": name, "facing": facing,
                    "size": size, "amount": amount, "pot_before": pot, "pot_after": pot + amount,
                    "new_street": new_street})
        invest[act.who] += amount
        spent[act.who] += amount
        pot += amount
    return out


# --- ranges ------------------------------------------------------------------------------------


def range_summary(r: Range, line: str, model_name: str, top: int = 5) -> dict[str, Any]:
    """Line, live and effective combos, entropy, the ``top`` classes by probability and the model."""
    dist = r.class_distribution()
    order = np.argsort(-dist, kind="stable")[:top]
    return {"line": line, "model": model_name, "live_combos": r.live_combos(),
            "effective_combos": round(r.effective_combos(), 2), "entropy_bits": round(r.entropy_bits(), 3),
            "top_classes": {CLASS_NAMES[k]: round(float(dist[k]), 4) for k in order}}


def _infer(prior: Range, who: str, steps: Sequence[dict], board_cards: list[int], model) -> Range:
    """Apply every action of ``who`` in the replayed ``steps`` (with its street's board) to ``prior``."""
    current = prior.remove_cards(board_cards)
    for step in steps:
        if step["who"] == who:
            current = update_range_for_action(current, step["name"], step["facing"],
                                              board=board_cards[: STREETS[step["street"]]], model=model,
                                              size_pot_fraction=step["size"])
    return current


# --- valuing the hero's actions ----------------------------------------------------------------


def _responses(model, board, raise_pot_fraction: float) -> dict[str, np.ndarray]:
    """The villain's per-combo fold/call/raise probabilities facing the hero's bet."""
    behaviour = model if isinstance(model, BehaviorModel) else getattr(model, "fallback", ARCHETYPES["regular"])
    return behaviour.action_probabilities(behaviour.strength(board), True, raise_pot_fraction)


def _equity_values(sit: Situation, st: _State, villain: Range, model, seed: int, samples: int) -> tuple[dict, dict]:
    """EV per hero action (bb) under the one-response continuation model, and its error."""
    board = as_cards(sit.board)
    eq, count, exact = hero_equity_vs_combos(sit.hero, board, samples, seed)
    w = villain.weights * np.isfinite(eq)
    if w.sum() <= 0:
        raise ValueError("villain: no combo of the inferred range can be dealt against the hero's hand")
    w = w / w.sum()
    e = np.nan_to_num(eq)
    mean_eq = float(w @ e)
    se = 0.0 if exact else float(np.sqrt(w @ (e * (1 - e) / np.maximum(count, 1))))
    pot, b, H = st.pot, st.to_call, st.behind
    values: dict[str, float] = {}
    if b > 1e-9:
        values["fold"] = 0.0
        values["call"] = mean_eq * (pot + b) - b if b < H - 1e-9 else mean_eq * (pot + H) - H
    else:
        values["check"] = mean_eq * pot
    sizes = _raise_amounts(sit, st)
    for label, x in sizes.items():  # x: the hero's chips in from now on (a bet, or the raise including the call)
        allin = x >= H - 1e-9
        extra = x - b  # what the villain must add to call
        f = extra / (pot + b)
        resp = _responses(model, board, f)
        fold, call, rais = resp["fold"], resp["call"], resp["raise"]
        if allin:
            call, rais = call + rais, np.zeros_like(rais)
        called_pot = pot + x + extra
        ev = w @ (fold * pot + call * (e * called_pot - x))
        p_raise = float(w @ rais)
        if p_raise > 0:
            wr = w * rais / p_raise
            eq_r = float(wr @ e)
            final = pot + 2 * H - b
            ev += p_raise * max(-x, eq_r * final - H)
        values[label] = float(ev)
    return values, {"kind": "equity", "equity_vs_range": round(mean_eq, 6), "equity_se": se,
                    "exact": exact, "runouts": "all" if exact else int(samples)}


def _raise_amounts(sit: Situation, st: _State) -> dict[str, float]:
    """Hero's aggressive options: label -> chips put in from now on."""
    pot, b, H = st.pot, st.to_call, st.behind
    out: dict[str, float] = {}
    if st.preflop_options:
        for letter in st.preflop_options:
            if letter in "RSA":
                x = st.preflop_raise_to[letter] - st.hero_in
                out["allin" if letter == "A" else f"raise to {st.preflop_raise_to[letter]:g}"] = min(x, H)
        return out
    word = "raise" if b > 1e-9 else "bet"
    for f in sit.hero_sizes:
        x = b + f * (pot + b)
        if x < H - 1e-9:
            out[f"{word} {f:g}"] = x
    if H > b + 1e-9:
        out["allin"] = H
    return out


def _solver_values(sit: Situation, st: _State, hero_range: Range, villain: Range, target_pct: float,
                   max_iterations: int) -> tuple[dict, dict]:
    """EV per hero action from a solve of the current street (see the module docstring)."""
    from pokerlab.postflop.game import IP, OOP, BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver

    board = tuple(as_cards(sit.board))
    hero_combo = parse_combo(sit.hero)
    hw = hero_range.weights.copy()
    vw = villain.weights.copy()
    hw[hw < SOLVE_TRIM * hw.max()] = 0.0
    vw[vw < SOLVE_TRIM * vw.max()] = 0.0
    hw[hero_combo] = max(hw[hero_combo], SOLVE_TRIM * hw.max() * 10)  # the hand must be in the hero's range
    hero_p = IP if st.hero_ip else OOP
    pcts = sorted({round(100 * f, 6) for f in sit.hero_sizes})
    if st.to_call > 1e-9:  # the observed bet's size joins the tree
        pcts = sorted(set(pcts) | {round(100 * st.to_call / st.street_pot, 6)})
    tree_spec = BetTree.uniform(bets=pcts, raises=(), allin=True, raise_cap=1)
    oop, ip = (hw, vw) if hero_p == OOP else (vw, hw)
    spot = PostflopSpot(pot=st.street_pot, stack=st.behind, board=board,
                        oop_range=oop, ip_range=ip, bet_tree=tree_spec)
    solver = PostflopSolver(spot)
    pct = solver.solve(target_pct, max_iterations=max_iterations)
    tree = solver.tree
    node = 0
    forced = []
    for act in st.street_actions:  # the observed actions on this street, imposed on the solve
        labels = tree.actions(node)
        children = list(tree.children(node))
        if act.action == "check":
            k = labels.index("CHECK")
        else:
            amounts = [float(l.split()[1]) if l.split()[0] in ("BET", "RAISE") else math.inf for l in labels]
            k = int(np.argmin([abs(a - st.to_call) for a in amounts]))
        forced.append((node, k))
        node = children[k]
    if int(tree.actor[node]) != hero_p:
        raise ValueError("solver: the hero is not to act at the reached node")
    saved = {}
    for n, k in forced:
        saved[n] = solver.average_strategy(n).copy()
        pure = np.zeros_like(saved[n])
        pure[k] = 1.0
        solver.set_average_strategy(n, (), pure)
    hero_saved = solver.average_strategy(node).copy()
    position = int(np.searchsorted(solver.hands[hero_p], hero_combo))
    compat = solver._compat[hero_p][position]
    values = {}
    for k, label in enumerate(tree.actions(node)):
        pure = np.zeros_like(hero_saved)
        pure[k] = 1.0
        solver.set_average_strategy(node, (), pure)
        v = solver.root_values(hero_p)[position] / compat
        values[_label(label, st)] = float(v)
    solver.set_average_strategy(node, (), hero_saved)
    for n, strategy in saved.items():
        solver.set_average_strategy(n, (), strategy)
    return values, {"kind": "solver", "exploitability_pct_pot": round(pct, 4), "iterations": solver.iterations,
                    "bet_sizes_pct_pot": pcts, "street_pot": st.street_pot, "stack": st.behind}


def _label(label: str, st: _State) -> str:
    words = label.split()
    if words[0] in ("CHECK", "CALL", "FOLD"):
        return words[0].lower()
    amount = float(words[1])
    if abs(amount - (st.behind - 0.0)) < 1e-6 or (words[0] == "RAISE" and abs(amount - st.behind) < 1e-6):
        return "allin"
    if words[0] == "BET":
        return f"bet {amount / st.street_pot:.3g}"
    return f"raise {amount:.3g}bb"


def _uses_solver(board: list[int], st: _State) -> bool:
    """Turn and river decisions whose street so far holds only checks and one bet (or none)."""
    if len(board) < 4 or st.preflop_options:
        return False
    names = [a.action for a in st.street_actions]
    return all(n in ("check", "bet") for n in names) and names.count("bet") <= 1 and \
        (not names or names[-1] == "bet" or st.to_call <= 1e-9)


def _analysis(sit: Situation, st: _State, priors: RangePriors, villain_model, villain_prior: Range | None,
              seed: int, samples: int, target_pct: float, max_iterations: int) -> dict[str, Any]:
    board = as_cards(sit.board)
    model = model_named(villain_model)
    prior = villain_prior if villain_prior is not None else priors.range(st.villain_line, sit.villain_position,
                                                                        sit.stack_bb)
    hero_cards = [int(c) for c in COMBO_CARDS[parse_combo(sit.hero)]]
    villain = _infer(prior.remove_cards(hero_cards), "villain", st.steps, board, model)
    if st.preflop_options or len(board) < 4 or not _uses_solver(board, st):
        values, method = _equity_values(sit, st, villain, model, seed, samples)
    else:
        hero_prior = priors.range(st.hero_line, sit.hero_position, sit.stack_bb)
        hero_range = _infer(hero_prior, "hero", st.steps, board, "regular")
        values, method = _solver_values(sit, st, hero_range, villain, target_pct, max_iterations)
    best = max(values, key=lambda a: (values[a], a))
    name = getattr(model, "name", "explicit policy")
    return {"villain": range_summary(villain, st.villain_line, name), "ev_bb": {a: round(v, 4) for a, v in values.items()},
            "recommendation": best, "method": method}


def _error_bb(method: dict[str, Any], st: _State) -> float:
    """The valuation's own error in bb: the solve's exploitability, or two equity standard errors
    times the pot."""
    if method["kind"] == "solver":
        return round(method["exploitability_pct_pot"] / 100.0 * method["street_pot"], 6)
    return round(2.0 * method["equity_se"] * st.pot, 6)


def decide(sit: Situation, model: "str | BehaviorModel | StrategyLikelihood" = "regular",
           villain_range: Range | str | None = None, priors: RangePriors | None = None,
           alternatives: Sequence[str] = ALTERNATIVES, seed: int = 0, samples: int = 4000,
           target_pct: float = 0.3, max_iterations: int = 400) -> dict[str, Any]:
    """The decision report of ``sit`` (see the module docstring). ``model`` and ``villain_range``
    (an explicit prior instead of the chart prior) define the default analysis; each name in
    ``alternatives`` (an archetype, or ``tight``/``wide`` from :data:`EXPLICIT_RANGES` with the
    ``regular`` model) is analysed the same way and reported under ``range_estimation``."""
    for size in sit.hero_sizes:
        if isinstance(size, bool) or not isinstance(size, (int, float)) or not (math.isfinite(size) and size > 0):
            raise ValueError(f"hero_sizes: {size!r} is not a pot fraction > 0 (a bet of nothing is a check)")
    priors = priors or RangePriors.default()
    st = _replay(sit)
    explicit = Range.parse(villain_range) if isinstance(villain_range, str) else villain_range
    default = _analysis(sit, st, priors, model, explicit, seed, samples, target_pct, max_iterations)
    alts = {}
    for alt in alternatives:
        if alt in EXPLICIT_RANGES:
            alts[alt] = _analysis(sit, st, priors, "regular", Range.parse(EXPLICIT_RANGES[alt]), seed, samples,
                                  target_pct, max_iterations)
        elif alt in ARCHETYPES:
            alts[alt] = _analysis(sit, st, priors, alt, None, seed, samples, target_pct, max_iterations)
        else:
            raise ValueError(f"alternatives: unknown {alt!r}; expected archetypes {', '.join(ARCHETYPES)} or "
                             f"{', '.join(EXPLICIT_RANGES)}")
    method = default["method"]
    if method["kind"] == "solver":
        error = {"solve_exploitability_pct_pot": method["exploitability_pct_pot"]}
        abstraction = ("street solved heads-up with bet sizes " + ", ".join(f"{p:g}%" for p in method["bet_sizes_pct_pot"])
                       + " of the pot and all-in, raises only all-in; the street's observed actions imposed on a "
                       "solve made with the ranges already conditioned on them; ranges trimmed below 0.1% of the "
                       "largest weight; strengths for the Bayes updates ignore draws")
    else:
        error = {"equity_se": method["equity_se"], "runouts": method["runouts"]}
        abstraction = ("one-response continuation: checks and calls are checked down, a bet or raise meets one "
                       "fold/call/all-in response from the villain's behavioural model; no later betting")
    return {
        "situation": {"name": sit.name, "hero": sit.hero, "hero_position": sit.hero_position,
                      "villain_position": sit.villain_position, "preflop": sit.preflop, "board": sit.board,
                      "history": [vars(a) for a in sit.history], "stack_bb": sit.stack_bb,
                      "pot_bb": round(st.pot, 4), "to_call_bb": round(st.to_call, 4), "behind_bb": round(st.behind, 4)},
        "priors": priors.describe(),
        "villain": default["villain"],
        "ev_bb": default["ev_bb"],
        "recommendation": default["recommendation"],
        "method": method,
        "error_bb": _error_bb(method, st),
        "uncertainty": {
            "sampling_or_solve": error,
            "range_estimation": {alt: {"recommendation": a["recommendation"], "ev_bb": a["ev_bb"],
                                       "villain": a["villain"], "error_bb": _error_bb(a["method"], st)}
                                 for alt, a in alts.items()},
            "abstraction": abstraction,
        },
    }


def format_report(report: dict[str, Any]) -> str:
    """A plain-text decision report."""
    s, v = report["situation"], report["villain"]
    lines = [f"hero {s['hero']} ({s['hero_position']}) vs {s['villain_position']}, preflop {s['preflop']!r}, "
             f"board {s['board'] or '-'}; pot {s['pot_bb']:g}bb, to call {s['to_call_bb']:g}bb, behind {s['behind_bb']:g}bb",
             f"priors: {report['priors']['source']} (version {report['priors']['version']})",
             f"villain range: line {v['line']}, model {v['model']}, {v['live_combos']} live combos, "
             f"{v['effective_combos']:g} effective, {v['entropy_bits']:g} bits; top: "
             + ", ".join(f"{k} {100 * p:.1f}%" for k, p in v["top_classes"].items()),
             f"valued by: {report['method']['kind']}"]
    prof = report.get("villain_profile")
    if prof:
        lines.insert(3, f"villain model from {prof['hands']} hands of {prof['player']}: VPIP {prof['vpip_pct']:.1f}% "
                        f"[{100 * prof['vpip']['lower']:.1f}, {100 * prof['vpip']['upper']:.1f}], PFR "
                        f"{prof['pfr_pct']:.1f}% [{100 * prof['pfr']['lower']:.1f}, {100 * prof['pfr']['upper']:.1f}], "
                        f"AF {prof['aggression_factor']:.2f} ({prof['postflop_bets_raises']} bets/raises, "
                        f"{prof['postflop_calls']} calls) -> {prof['archetype']}"
                        + ("" if prof["stable"] else " (the intervals' ends choose "
                           + " / ".join(prof["archetype_at_interval_ends"].values()) + ": unstable)"))
    for action, ev in sorted(report["ev_bb"].items(), key=lambda kv: -kv[1]):
        mark = "  <- recommended" if action == report["recommendation"] else ""
        lines.append(f"  {action:<16} {ev:+9.3f} bb{mark}")
    u = report["uncertainty"]
    lines.append("sampling/solve error: " + ", ".join(f"{k} {val}" for k, val in u["sampling_or_solve"].items()))
    lines.append("range estimation (same decision under other villain models):")
    for alt, a in u["range_estimation"].items():
        flip = "" if a["recommendation"] == report["recommendation"] else "  (changes the recommendation)"
        lines.append(f"  {alt:<16} -> {a['recommendation']:<14} EV {a['ev_bb'][a['recommendation']]:+.3f} bb{flip}")
    lines.append("abstraction: " + u["abstraction"])
    return "\n".join(lines)
