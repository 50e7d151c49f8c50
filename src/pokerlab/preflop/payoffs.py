"""Payoffs at the endings of a preflop tree: the trust ladder.

Every payoff is **pairwise-linear in the showdown tables**: for seat ``i`` holding class ``c_i``
at ending ``z``,

    v_i = const[z, i] + sum over terms (z, i, j):  win_coef * W[c_i, c_j] + tie_coef * T[c_i, c_j]

where ``W``/``T`` are the win/tie tables and ``j`` another seat still in the hand. A payoff is a
function of the hands at the ending only: the constants come from the tree (pot,
contributions, stack behind, positions), never from a range or a strategy. This is the shape
the solver batches into one matrix product per table per iteration; ICM can plug in later by
weighting win, tie and loss outcomes differently (so the two tables stay apart here).

Tiers (chip EV, :func:`chip_ev_payoffs`), in bb, net of everything the seat put in:

1. ``fold``: the last seat wins the pot; everybody else loses what they put in.
2. heads-up ``allin``: pot x (W + T/2) - contribution.
3. three-way ``allin``: each seat's share is the mean of its two pairwise equities rescaled so
   the three shares sum to one, which is exactly (EQ_ij + EQ_ik) / 3.
4. ``flop`` (chips behind, pot P, stack behind S, spr = S/P): each of the k seats in puts
   commitment(spr) x S more in, so the pot played is P' = P + k c S; a seat's share of P' is its
   (pairwise-rescaled) equity plus a positional edge. Heads-up the in-position seat gets
   +edge and the out-of-position seat -edge; three-way the last to act gets +edge, the first
   -edge and the middle seat nothing. Edges sum to zero, so chips are conserved.

Model v2 (``classes``: a :class:`pokerlab.preflop.class_edges.ClassEdges`) adds to a seat's share
at a flop ending its own class deviation minus its opponent's, per pair (divided by the number
of pairs, three-way), see :mod:`pokerlab.preflop.class_edges`. Those parts are the *class terms*
of :class:`EndingPayoffs`: still pairwise-linear (``D[c_i, c_j] = d_i[c_i] - d_j[c_j]`` is one more
linear table), kept apart so the solver needs no extra table product.

Aggressor term (optional, off by default; ``aggressor``: :class:`AggressorEdge`): at a flop
ending of a raised pot the positional edge is a flat number chosen by whether the last preflop
raiser acts last on the flop (``in_position``) or not (``out_of_position``) instead of edge(spr);
limped pots keep edge(spr). The raiser is read off the action string, never a strategy, so the
payoff stays a function of the hands and the tree; the edges still sum to zero.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from pokerlab.preflop.tree import Tree, postflop_order

if TYPE_CHECKING:  # the tables are built elsewhere; only their types are named here
    from pokerlab.preflop.class_edges import ClassEdges
    from pokerlab.preflop.ending_corrections import EndingCorrections

TIERS = {1: "fold", 2: "allin_2way", 3: "allin_3way", 4: "flop", 5: "flop_solved"}
"""Trust tiers by number. In order of trust: fold, the all-in tiers, ``flop_solved`` (a heads-up flop
ending valued by solved postflop play on a flop subset, :mod:`pokerlab.preflop.ending_corrections`),
then ``flop`` (the model alone)."""


@dataclass(frozen=True)
class PostflopModel:
    """The additive-edge postflop model; constants from config (``solve.postflop``)."""

    a: float = 1.375
    b: float = -0.02
    c2: float = 0.0175
    cap: float = 0.07

    def __post_init__(self) -> None:
        for name in ("a", "b", "c2", "cap"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"postflop model {name}: {value!r} is not a finite number")
        if self.a <= 0:
            raise ValueError(f"postflop model a: {self.a!r} must be > 0 (commitment exponent)")
        if not 0 <= self.cap < 0.5:
            raise ValueError(f"postflop model cap: {self.cap!r} must be in [0, 0.5) (a share of the pot)")

    def commitment(self, spr: float) -> float:
        """Share of the stack behind that each seat still in ends up putting in: 1 / (1 + spr^a)."""
        return 1.0 / (1.0 + spr**self.a)

    def edge(self, spr: float) -> float:
        """In-position share of the played pot gained over equity: min(cap, max(0, b + c2 log2(1+spr)))."""
        return min(self.cap, max(0.0, self.b + self.c2 * math.log2(1.0 + spr)))


MODEL_CONSTANTS = ("a", "b", "c2", "cap")
"""The postflop model's constants, in the order the fit reports them."""


def read_postflop_constants(path) -> PostflopModel:
    """The shipped constants of a ``constants.json`` written by the fitting run
    (:func:`pokerlab.fit.run.fit_constants`); errors name the file."""
    from pathlib import Path

    from pokerlab.io import read_json

    doc = read_json(path, "postflop constants")
    try:
        return PostflopModel(**{k: doc["constants"][k] for k in MODEL_CONSTANTS})
    except (KeyError, TypeError) as exc:
        raise ValueError(f"{Path(path)}: expected a 'constants' mapping with {', '.join(MODEL_CONSTANTS)} ({exc})") from None


@dataclass(frozen=True)
class AggressorEdge:
    """The flat positional edges of the aggressor term (share of the played pot)."""

    in_position: float
    out_of_position: float

    def __post_init__(self) -> None:
        for name in ("in_position", "out_of_position"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not -0.5 < value < 0.5:
                raise ValueError(f"solve.postflop.aggressor.{name}: {value!r} must be a number in (-0.5, 0.5)")


def last_aggressor(tree: Tree, node_id: str) -> int:
    """The seat that made the last raise (``R``, ``S`` or ``A``) on the way to ``node_id``; -1 if none."""
    for i in range(len(node_id) - 1, -1, -1):
        if node_id[i] in "RSA":
            return int(tree.node(node_id[:i]).actor)
    return -1


@dataclass(frozen=True)
class EndingPayoffs:
    """Pairwise-linear payoffs of every ending of a tree (see the module docstring).

    ``nodes[z]`` is the tree index of ending ``z``; ``tier[z]`` in 1..4; ``const`` is (Z, seats)
    in bb; the terms are parallel arrays sorted by (seat, ending, opponent).

    Class terms (model v2, else None): term ``t`` also adds
    ``term_class[t] * (class_vectors[term_own[t], c_i] - class_vectors[term_opp[t], c_j])``
    (coefficient in bb: the played pot over the number of pairs; 0 where the ending has none).
    """

    nodes: np.ndarray
    tier: np.ndarray
    const: np.ndarray
    term_ending: np.ndarray
    term_seat: np.ndarray
    term_opponent: np.ndarray
    term_win: np.ndarray
    term_tie: np.ndarray
    class_vectors: np.ndarray | None = field(default=None, kw_only=True)
    term_class: np.ndarray | None = field(default=None, kw_only=True)
    term_own: np.ndarray | None = field(default=None, kw_only=True)
    term_opp: np.ndarray | None = field(default=None, kw_only=True)

    def hand_payoffs(self, hands: np.ndarray, win: np.ndarray, tie: np.ndarray) -> np.ndarray:
        """(Z, seats) payoffs (bb) at every ending when seat ``s`` holds class ``hands[s]``."""
        hands = np.asarray(hands)
        mine, theirs = hands[self.term_seat], hands[self.term_opponent]
        out = self.const.copy()
        np.add.at(out, (self.term_ending, self.term_seat),
                  self.term_win * win[mine, theirs] + self.term_tie * tie[mine, theirs])
        if self.class_vectors is not None:
            np.add.at(out, (self.term_ending, self.term_seat),
                      self.term_class * (self.class_vectors[self.term_own, mine] - self.class_vectors[self.term_opp, theirs]))
        return out


class ClassVectorBank:
    """The distinct class-deviation vectors of a payoff structure (model v2), each stored once;
    id 0 is the zero vector (endings without deviations, e.g. all-ins)."""

    def __init__(self, m: int):
        self.m = m
        self._ids: dict[bytes, int] = {}
        self._vectors: list[np.ndarray] = []
        self.id(np.zeros(m))

    def id(self, vector: np.ndarray) -> int:
        key = vector.tobytes()
        if key not in self._ids:
            self._ids[key] = len(self._vectors)
            self._vectors.append(vector)
        return self._ids[key]

    def array(self) -> np.ndarray:
        """(vectors, m) in id order."""
        return np.array(self._vectors, dtype=np.float64)


def chip_ev_payoffs(tree: Tree, model: PostflopModel, classes: ClassEdges | None = None,
                    aggressor: AggressorEdge | None = None, solved: EndingCorrections | None = None) -> EndingPayoffs:
    """Chip-EV payoffs (bb) of every ending of ``tree``: tiers 1-4 as in the module docstring;
    ``classes``: model v2's class table (None: v1); ``aggressor``: the optional aggressor term;
    ``solved``: per-ending corrections (bb) of the heads-up flop endings it lists, which become
    tier 5 (``flop_solved``): the model's payoff plus ``d_own[c_i] - d_opp[c_j]``."""
    n = tree.seats
    nodes = tree.endings
    const = np.zeros((nodes.size, n))
    tier = np.zeros(nodes.size, dtype=np.int64)
    terms: list[tuple] = []  # (seat, ending, opponent, equity coefficient[, class coefficient, own, opponent's vector])
    with_classes = classes is not None or solved is not None
    bank = ClassVectorBank(classes.n_classes if classes is not None else solved.n_classes) if with_classes else None
    unused = set(solved.endings) if solved is not None else set()

    for z, k in enumerate(nodes):
        node = tree.nodes[k]
        contrib = np.asarray(node.contrib)
        pot = float(contrib.sum())
        const[z] = -contrib
        players = sorted(node.players_in, key=lambda s: postflop_order(s, n))  # first to act first
        if node.kind == "fold":
            tier[z] = 1
            const[z, players[0]] += pot
            continue
        if node.kind == "allin":
            tier[z] = 2 if len(players) == 2 else 3
            played = pot
        else:
            tier[z] = 4
            spr = node.behind / pot
            extra = model.commitment(spr) * node.behind
            played = pot + len(players) * extra
            edge = model.edge(spr)
            raiser = last_aggressor(tree, node.id) if aggressor is not None else -1
            if raiser >= 0:
                edge = aggressor.in_position if raiser == players[-1] else aggressor.out_of_position
            edges = [-edge, edge] if len(players) == 2 else [-edge, 0.0, edge]
            for seat, e in zip(players, edges):
                const[z, seat] += e * played - extra
        share = played / (len(players) * (len(players) - 1) / 2)  # /1 heads-up, /3 three-way
        if not with_classes:
            terms.extend((i, z, j, share) for i in players for j in players if j != i)
            continue
        vectors, class_coef = None, 0.0
        if tier[z] == 4 and classes is not None:
            vectors, class_coef = classes.vectors(spr, len(players)), share
        corrections = solved.vectors(node.id) if solved is not None and tier[z] == 4 else None
        if corrections is not None:
            if len(players) != 2:
                raise ValueError(f"solved endings: {node.id!r} is a three-way flop ending; only heads-up ones are solved")
            unused.discard(node.id)
            tier[z] = 5
            base = vectors if vectors is not None else [np.zeros(bank.m)] * 2
            vectors = [class_coef * b + d for b, d in zip(base, corrections)]  # both in bb now
            class_coef = 1.0
        ids = [bank.id(v) for v in vectors] if vectors is not None else [0] * len(players)
        role = dict(zip(players, ids))
        terms.extend((i, z, j, share, class_coef, role[i], role[j]) for i in players for j in players if j != i)
    if unused:
        raise ValueError(f"solved endings of {solved.spot}: {sorted(unused)[0]!r} is not a flop ending of the tree "
                         "(was the table measured with another sizing schedule?)")
    terms.sort()
    width = 4 if not with_classes else 7
    cols = [np.array(col) for col in zip(*terms)] if terms else [np.zeros(0)] * width
    seat, ending, opponent, coef = cols[:4]
    coef = coef.astype(np.float64)
    extra = {}
    if with_classes:
        extra = {"class_vectors": bank.array(), "term_class": cols[4].astype(np.float64),
                 "term_own": cols[5].astype(np.int64), "term_opp": cols[6].astype(np.int64)}
    return EndingPayoffs(nodes=nodes, tier=tier, const=const, term_ending=ending.astype(np.int64),
                         term_seat=seat.astype(np.int64), term_opponent=opponent.astype(np.int64),
                         term_win=coef, term_tie=0.5 * coef, **extra)
