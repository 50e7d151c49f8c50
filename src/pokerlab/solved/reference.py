"""A tiny game where the solved-endings fixed point can be checked against a joint solve.

The game (all amounts in bb, values net of everything a seat put in, seat 0's view):

* Two seats, each dealt one of ``m`` hand classes independently with prior ``prior`` (a stronger class
  wins a showdown, equal classes split), blinds 0.5 (seat 0, in position after the flop) and 1
  (seat 1), stacks ``stack``.
* Preflop: seat 0 folds (``F``), limps (``C``) or raises to 2 (``R``); after a limp seat 1 checks
  (ending ``CC``, pot 2); after a raise seat 1 folds (``RF``) or calls (ending ``RC``, pot 4).
* Postflop at a flop ending (pot ``P``, ``B`` behind): seat 1 checks or moves all-in; after a check
  seat 0 checks (showdown) or moves all-in; facing the all-in the other seat folds or calls.

The **joint game** hangs the postflop game under each flop ending. The **leaf game** treats each
flop ending as a leaf paid by a model (here: the pot split by showdown equity, nothing more) plus
per-ending corrections ``d_ip[x] - d_oop[y]``; the loop measures them by solving the postflop game
with the ranges the leaf game's solution brings there (:func:`measured_corrections`, the real loop's
own arithmetic) and repeats (:func:`fixed_point_iteration`).

What this game shows (tests/test_solved_reference.py, benchmarks/solved_reference.py):

* A joint equilibrium is a fixed point of the loop: with the corrections measured on it, its preflop
  strategy is an equilibrium of the leaf game and every class is paid its joint-game value.
* The converse fails. The leaf game with those same corrections has other equilibria, and a joint
  game player exploits them: separable corrections price a class against the opponent's measured
  range only, so off that range the leaf game's incentives are not the joint game's. Iterating
  "solve the leaf game, re-measure" therefore need not reach the joint equilibrium, and on this game
  it cycles (damping slows the cycle but does not remove it).
* Keeping both solvers' regrets and exchanging often does converge (:func:`exchange_iteration`):
  the preflop and every ending's postflop CFR+ run on, and every ``exchange`` iterations the
  corrections are re-measured from the postflop *current* strategies against the preflop *current*
  ranges. This is a joint CFR whose leaf values are ``exchange`` iterations stale; the same separable
  corrections serve, exact at the ranges they are measured at.

CFR+ here is the textbook recursive form, vectorised over classes (alternating updates, regrets
floored at zero, average weighted by iteration), written for clarity on a game of a few dozen nodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pokerlab.solved.values import ClassValues, corrections

BLINDS = (0.5, 1.0)


@dataclass
class Node:
    """A node: ``player`` acts (0 or 1), or ``player`` is -1 and ``payoff[x0, x1]`` is seat 0's value."""

    key: str
    player: int = -1
    children: dict[str, "Node"] = field(default_factory=dict)
    payoff: np.ndarray | None = None


def showdown(m: int) -> np.ndarray:
    """(m, m) seat 0's share of the pot at a showdown of class x0 against x1."""
    x = np.arange(m)
    return np.where(x[:, None] > x[None, :], 1.0, np.where(x[:, None] == x[None, :], 0.5, 0.0))


def postflop_tree(key: str, pot: float, behind: float, contrib: float, m: int) -> Node:
    """The postflop game at a flop ending where each seat has put in ``contrib`` (pot = 2 x contrib)."""
    eq = showdown(m)

    def shown(extra: float) -> Node:
        return Node(key, payoff=(pot + 2 * extra) * eq - (contrib + extra))

    def folded(winner: int) -> Node:  # the folder loses what it put in, the winner takes it
        return Node(key, payoff=np.full((m, m), contrib if winner == 0 else -contrib))

    facing_ip_allin = Node(key + "b", 1, {"f": folded(0), "c": shown(behind)})
    ip_turn = Node(key + "x", 0, {"x": shown(0.0), "b": facing_ip_allin})
    facing_oop_allin = Node(key + "B", 0, {"f": folded(1), "c": shown(behind)})
    return Node(key, 1, {"x": ip_turn, "b": facing_oop_allin})


def preflop_tree(m: int, stack: float, leaves: dict[str, np.ndarray] | None = None) -> Node:
    """The preflop game: with ``leaves`` (ending -> seat 0's (m, m) payoff) the flop endings are leaves
    paid that; without, the postflop game hangs under them (the joint game)."""
    def ending(key: str, contrib: float) -> Node:
        if leaves is not None:
            return Node(key, payoff=leaves[key])
        return postflop_tree(key, 2 * contrib, stack - contrib, contrib, m)

    limp = Node("C", 1, {"C": ending("CC", 1.0)})
    raised = Node("R", 1, {"F": Node("RF", payoff=np.full((m, m), 1.0)), "C": ending("RC", 2.0)})
    return Node("", 0, {"F": Node("F", payoff=np.full((m, m), -BLINDS[0])), "C": limp, "R": raised})


FLOP_ENDINGS = {"CC": 1.0, "RC": 2.0}  # each seat's contribution at the flop endings


def model_payoff(m: int, contrib: float) -> np.ndarray:
    """The model at a flop ending: the pot split by showdown equity (seat 0's view, net)."""
    return 2 * contrib * showdown(m) - contrib


class CfrPlus:
    """CFR+ on a two-player zero-sum game given as a :class:`Node` tree, both seats' classes dealt
    with the (not necessarily normalised) root reaches ``reach0``/``reach1``."""

    def __init__(self, root: Node, reach0: np.ndarray, reach1: np.ndarray):
        self.root, self.reach = root, (np.asarray(reach0, float), np.asarray(reach1, float))
        self.regret: dict[str, np.ndarray] = {}
        self.total: dict[str, np.ndarray] = {}
        self.t = 0

    def current(self, node: Node) -> np.ndarray:
        """(m, actions) current strategy at ``node`` (regret matching on the floored regrets)."""
        m, k = len(self.reach[0]), len(node.children)
        r = self.regret.setdefault(node.key, np.zeros((m, k)))
        s = r.sum(axis=1, keepdims=True)
        return np.where(s > 0, r / np.where(s > 0, s, 1.0), 1.0 / k)

    def average(self, node: Node) -> np.ndarray:
        """(m, actions) average strategy at ``node`` (uniform where a class never got there)."""
        total = self.total.get(node.key)
        if total is None:
            return np.full((len(self.reach[0]), len(node.children)), 1.0 / len(node.children))
        s = total.sum(axis=1, keepdims=True)
        return np.where(s > 0, total / np.where(s > 0, s, 1.0), 1.0 / len(node.children))

    def _walk(self, node: Node, p: int, own: np.ndarray, opp: np.ndarray) -> np.ndarray:
        if node.player < 0:
            return node.payoff @ opp if p == 0 else -(node.payoff.T @ opp)
        children = list(node.children.values())
        sigma = self.current(node)
        if node.player != p:
            return sum(self._walk(c, p, own, opp * sigma[:, a]) for a, c in enumerate(children))
        values = np.array([self._walk(c, p, own * sigma[:, a], opp) for a, c in enumerate(children)])
        v = (sigma * values.T).sum(axis=1)
        self.regret[node.key] = np.maximum(self.regret[node.key] + values.T - v[:, None], 0.0)
        self.total[node.key] = self.total.get(node.key, 0.0) + self.t * own[:, None] * sigma
        return v

    def iterate(self, iterations: int) -> "CfrPlus":
        for _ in range(iterations):
            self.t += 1
            for p in (0, 1):
                self._walk(self.root, p, self.reach[p], self.reach[1 - p])
        return self


def values(root: Node, strategy, reach0: np.ndarray, reach1: np.ndarray, best: int = -1) -> tuple[np.ndarray, np.ndarray]:
    """Both seats' counterfactual values per class (weighted by the opponent's reach) under the
    profile ``strategy(node) -> (m, actions)``; seat ``best`` (0 or 1) plays a best response instead."""
    def walk(node, p, opp):
        if node.player < 0:
            return node.payoff @ opp if p == 0 else -(node.payoff.T @ opp)
        sigma = strategy(node)
        children = list(node.children.values())
        if node.player != p:
            return sum(walk(c, p, opp * sigma[:, a]) for a, c in enumerate(children))
        vals = np.array([walk(c, p, opp) for c in children])
        return vals.max(axis=0) if p == best else (sigma * vals.T).sum(axis=1)

    return walk(root, 0, np.asarray(reach1, float)), walk(root, 1, np.asarray(reach0, float))


def exploitability(root: Node, strategy, prior: np.ndarray) -> float:
    """(BR_0 + BR_1) / 2 of a profile, bb per hand (zero at an equilibrium)."""
    br0 = prior @ values(root, strategy, prior, prior, best=0)[0]
    br1 = prior @ values(root, strategy, prior, prior, best=1)[1]
    return float((br0 + br1) / 2)


def _own_reach(root: Node, strategy, seat: int, target: str, m: int) -> np.ndarray:
    """Seat ``seat``'s own probability of playing to the node keyed ``target``, per class."""
    stack = [(root, np.ones(m))]
    while stack:
        node, reach = stack.pop()
        if node.key == target:
            return reach
        if node.player < 0:
            continue
        sigma = strategy(node)
        for a, child in enumerate(node.children.values()):
            stack.append((child, reach * sigma[:, a] if node.player == seat else reach))
    raise KeyError(target)


def ending_ranges(root: Node, strategy, ending: str, m: int, prior: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(q_oop, q_ip): each seat's class distribution at a flop ending (prior x own reach; seat 0 is ip)."""
    return prior * _own_reach(root, strategy, 1, ending, m), prior * _own_reach(root, strategy, 0, ending, m)


def measured_corrections(sub: Node, strategy, contrib: float, q_oop: np.ndarray, q_ip: np.ndarray,
                         floor: float = 1e-6) -> tuple[np.ndarray, np.ndarray, ClassValues]:
    """The loop's step at one ending: the class values of the postflop profile ``strategy`` on the subgame
    ``sub`` against the arriving ranges (floored) and the corrections (d_oop, d_ip) that make the
    model pay them (:func:`pokerlab.solved.values.corrections`)."""
    r_ip, r_oop = np.maximum(q_ip, floor), np.maximum(q_oop, floor)
    cf_ip, cf_oop = values(sub, strategy, r_ip, r_oop)
    solved = ClassValues(cf_oop / r_ip.sum(), cf_ip / r_oop.sum(), r_oop, r_ip)
    model = model_payoff(len(q_ip), contrib)
    modelled = (-(model.T @ r_ip) / r_ip.sum(), model @ r_oop / r_oop.sum())
    d_oop, d_ip, _ = corrections(solved, modelled, r_oop, r_ip)
    return d_oop, d_ip, solved


def leaf_payoffs(m: int, d: dict[str, tuple[np.ndarray, np.ndarray]]) -> dict[str, np.ndarray]:
    """Seat 0's payoff at each flop ending of the leaf game: the model plus ``d_ip[x0] - d_oop[x1]``."""
    return {e: model_payoff(m, c) + d[e][1][:, None] - d[e][0][None, :] for e, c in FLOP_ENDINGS.items()}


def joint_corrections(joint_root: Node, strategy, m: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """The corrections the loop measures on a joint-game profile: each ending's postflop strategies
    valued against the ranges the profile's preflop strategies bring there."""
    prior = np.full(m, 1.0 / m)
    out = {}
    for e, contrib in FLOP_ENDINGS.items():
        q_oop, q_ip = ending_ranges(joint_root, strategy, e, m, prior)
        sub = next(n for n in (joint_root.children["C"].children["C"], joint_root.children["R"].children["C"])
                   if n.key == e)
        out[e] = measured_corrections(sub, strategy, contrib, q_oop, q_ip)[:2]
    return out


@dataclass
class FixedPoint:
    """The outcome of :func:`fixed_point_iteration`: the corrections per ending (``(d_oop, d_ip)``,
    oop = seat 1), the preflop solver and the postflop solvers of the last iteration, and per
    iteration the largest change of the corrections (bb)."""

    corrections: dict[str, tuple[np.ndarray, np.ndarray]]
    preflop: CfrPlus
    postflop: dict[str, CfrPlus]
    changes: list[float]
    # exchange_iteration only: the corrections averaged over the exchanges of the run's second half (the
    # table an exchange ships, as pokerlab.solved.joint.JointSolve.averaged_table)
    averaged: dict[str, tuple[np.ndarray, np.ndarray]] | None = None

    def strategy(self, node: Node) -> np.ndarray:
        """The composed profile: preflop from the preflop solve, postflop from the ending's solve."""
        ending = next((e for e in self.postflop if node.key.startswith(e)), None)
        return (self.postflop[ending] if ending else self.preflop).average(node)


def exchange_iteration(m: int, stack: float, iterations: int, exchange: int, floor: float = 1e-6,
                       postflop_every: int | None = None, ranges: str = "current") -> FixedPoint:
    """Joint CFR+ split at the flop endings: the preflop solver runs on the leaf game, each ending's
    postflop solver on its subgame, both keeping their regrets for ``iterations`` iterations; every
    ``exchange`` iterations the postflop solvers take the ranges of the preflop *current* strategy
    (floored) and the leaf game takes the corrections measured on the postflop *current* strategies
    against those ranges. ``exchange=1`` is joint CFR+ with one iteration's delay at the leaves.
    ``postflop_every``: the postflop solvers' iterations per exchange (at most ``exchange``; None: as
    many as the preflop solver, as in joint CFR+). ``ranges``: ``current`` (the method) or ``average``,
    the postflop solvers facing the preflop *average* strategy's ranges instead, which do not empty
    when a current strategy turns pure but make the split no longer joint CFR+ (it stalls:
    benchmarks/solved_reference.py). ``changes`` holds the largest change of the corrections (bb) per
    exchange."""
    if exchange < 1 or iterations < exchange:
        raise ValueError(f"exchange must be in [1, iterations]; got exchange={exchange}, iterations={iterations}")
    if postflop_every is not None and not 1 <= postflop_every <= exchange:
        raise ValueError(f"postflop_every must be in [1, exchange]; got {postflop_every}")
    if ranges not in ("current", "average"):
        raise ValueError(f"ranges must be 'current' or 'average'; got {ranges!r}")
    prior = np.full(m, 1.0 / m)
    d = {e: (np.zeros(m), np.zeros(m)) for e in FLOP_ENDINGS}
    root = preflop_tree(m, stack, leaf_payoffs(m, d))
    leaves = {e: n for e, n in (("CC", root.children["C"].children["C"]), ("RC", root.children["R"].children["C"]))}
    preflop = CfrPlus(root, prior, prior)
    postflop = {e: CfrPlus(postflop_tree(e, 2 * c, stack - c, c, m), prior, prior) for e, c in FLOP_ENDINGS.items()}
    changes: list[float] = []
    sums = {e: (np.zeros(m), np.zeros(m)) for e in FLOP_ENDINGS}
    summed = 0
    while preflop.t < iterations:
        block = min(exchange, iterations - preflop.t)
        preflop.iterate(block)
        change = 0.0
        for e, contrib in FLOP_ENDINGS.items():
            q_oop, q_ip = ending_ranges(root, getattr(preflop, ranges), e, m, prior)
            solver = postflop[e]
            solver.reach = (np.maximum(q_ip, floor), np.maximum(q_oop, floor))
            solver.iterate(block if postflop_every is None else min(postflop_every, block))
            d_oop, d_ip, _ = measured_corrections(solver.root, solver.current, contrib, q_oop, q_ip, floor)
            change = max(change, float(np.max(np.abs(np.r_[d_oop - d[e][0], d_ip - d[e][1]]))))
            d[e] = (d_oop, d_ip)
            leaves[e].payoff = model_payoff(m, contrib) + d_ip[:, None] - d_oop[None, :]
            if preflop.t > iterations // 2:
                sums[e] = (sums[e][0] + d_oop, sums[e][1] + d_ip)
        summed += preflop.t > iterations // 2
        changes.append(change)
    averaged = {e: (s[0] / summed, s[1] / summed) for e, s in sums.items()} if summed else dict(d)
    return FixedPoint(d, preflop, postflop, changes, averaged)


def warm_start(fp: FixedPoint, m: int, stack: float) -> CfrPlus:
    """A preflop CFR+ on the leaf game of ``fp``'s averaged table that holds ``fp``'s preflop state: what a
    solve under a shipped table and its start continues (pokerlab.preflop.solve with a solved start)."""
    prior = np.full(m, 1.0 / m)
    solver = CfrPlus(preflop_tree(m, stack, leaf_payoffs(m, fp.averaged)), prior, prior)
    solver.regret = {k: v.copy() for k, v in fp.preflop.regret.items()}
    solver.total = {k: v.copy() for k, v in fp.preflop.total.items()}
    solver.t = fp.preflop.t
    return solver


def fixed_point_iteration(m: int, stack: float, outer: int, preflop_iterations: int, postflop_iterations: int,
                          damping: float = 1.0, floor: float = 1e-6) -> FixedPoint:
    """The solved-endings loop on the tiny game: solve the leaf game, solve each ending's postflop game
    with the arriving ranges, measure the corrections, damp, repeat ``outer`` times."""
    prior = np.full(m, 1.0 / m)
    d = {e: (np.zeros(m), np.zeros(m)) for e in FLOP_ENDINGS}
    changes: list[float] = []
    for _ in range(outer):
        root = preflop_tree(m, stack, leaf_payoffs(m, d))
        preflop = CfrPlus(root, prior, prior).iterate(preflop_iterations)
        postflop, change = {}, 0.0
        for e, contrib in FLOP_ENDINGS.items():
            q_oop, q_ip = ending_ranges(root, preflop.average, e, m, prior)
            sub = postflop_tree(e, 2 * contrib, stack - contrib, contrib, m)
            postflop[e] = CfrPlus(sub, np.maximum(q_ip, floor), np.maximum(q_oop, floor)).iterate(postflop_iterations)
            d_oop, d_ip, _ = measured_corrections(sub, postflop[e].average, contrib, q_oop, q_ip, floor)
            new = (d[e][0] + damping * (d_oop - d[e][0]), d[e][1] + damping * (d_ip - d[e][1]))
            change = max(change, float(np.max(np.abs(np.r_[new[0] - d[e][0], new[1] - d[e][1]]))))
            d[e] = new
        changes.append(change)
    return FixedPoint(d, preflop, postflop, changes)
