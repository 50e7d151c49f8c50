"""The flop endings a solved preflop spot reaches, with both seats' ranges: what the fit measures.

From a spot's solved ``result.json`` (its average strategy per decision node) every seat's
own reach ``pi_s(z, c)`` to every ending ``z`` is the product of its own action probabilities on
the path, per class ``c``. Under the solver's model (classes dealt independently with prior
``p(c) = weight(c) / 1326``):

* the table reaches ``z`` with probability ``prod_s sum_c p(c) pi_s(z, c)`` (a share of deals);
* a seat still in at ``z`` holds class ``c`` with probability ``p(c) pi_s(z, c) / R_s(z)``;
  expanded to combos, each of the class's combos weighs ``pi_s(z, c)`` (every combo has the
  same prior), which is the range the postflop solve is given.

Heads-up ``flop`` endings are ranked by table reach, most reached first. Three-way flop
endings cannot be solved by a two-player solver: their share of the flop-ending mass is
reported, since that part of the model stays unmeasured.

Positions at an ending: the two seats' flop order (:func:`pokerlab.preflop.tree.postflop_order`)
decides who is in position. The preflop aggressor is the seat that made the last ``R`` or ``A``
(none in a limped pot).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pokerlab.cards import CLASS_PRIOR, COMBO_CLASS, N_CLASSES
from pokerlab.preflop.spot import Sizing, Spot
from pokerlab.preflop.tree import Tree, postflop_order, recorded_tree


@dataclass(frozen=True)
class FlopEnding:
    """One heads-up flop ending of a solved spot (amounts in bb)."""

    spot: str  # e.g. cash/6max/100bb
    node: str  # the ending's action string
    reach: float  # share of deals that end here
    pot_bb: float
    behind_bb: float
    oop: str  # position names
    ip: str
    aggressor: str  # position name of the last raiser, "" in a limped pot
    oop_reach: np.ndarray  # (169,) pi_oop(z, c): the out-of-position seat's own reach per class
    ip_reach: np.ndarray  # (169,)

    @property
    def spr(self) -> float:
        return self.behind_bb / self.pot_bb

    @property
    def aggressor_in_position(self) -> bool | None:
        """True/False when there was a raise, None in a limped pot."""
        return None if not self.aggressor else self.aggressor == self.ip

    def combo_ranges(self, min_class_reach: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
        """(oop, ip) 1,326-vectors of combo weights: each combo weighs its class's own reach;
        classes whose own reach is below ``min_class_reach`` are left out."""
        return tuple(np.where(r >= min_class_reach, r, 0.0)[COMBO_CLASS].astype(np.float64)
                     for r in (self.oop_reach, self.ip_reach))


@dataclass(frozen=True)
class SpotEndings:
    """All heads-up flop endings of a spot, most reached first, and the three-way share."""

    endings: tuple[FlopEnding, ...]
    flop_mass: float  # share of deals ending at any flop ending
    three_way_mass: float  # share of deals ending at a three-way flop ending

    @property
    def three_way_share(self) -> float:
        """Share of the flop-ending mass that sits at three-way endings (unmeasurable here)."""
        return self.three_way_mass / self.flop_mass if self.flop_mass > 0 else 0.0


def _node_strategies(result: dict, tree: Tree, rejected: bool = False) -> dict[str, np.ndarray]:
    """Each decision node's (actions, 169) average strategy from a result document (a rejected one's
    too with ``rejected``, if it carries its nodes)."""
    if (result.get("status") != "shipped" and not rejected) or "nodes" not in result:
        raise ValueError(f"result of {result.get('spot')!r} has no strategy (status {result.get('status')!r}): "
                         "only a shipped solve can be walked")
    out = {}
    for node in result["nodes"]:
        out[node["id"]] = np.array([node["strategy"][a] for a in node["actions"]], dtype=np.float64)
    missing = [tree.nodes[h].id for h in tree.decisions if tree.nodes[h].id not in out]
    if missing:
        raise ValueError(f"result does not match the tree: node {missing[0]!r} has no strategy "
                         "(was it solved with another sizing schedule?)")
    return out


def spot_endings(result: dict, sizing: Sizing, rejected: bool = False) -> SpotEndings:
    """Walk a shipped result's average strategy to every ending; keep the heads-up flop ones.
    ``rejected``: walk a result above its bar too (a measurement's nodes, e.g. an exchanging solve's)."""
    meta = result["spot"]
    spot = Spot(meta["format"], int(meta["seats"]), float(meta["depth_bb"]))
    if sizing.as_dict(spot.depth) != result["sizing"]:
        raise ValueError(f"{spot.name}: the result was solved with another sizing schedule than the one given")
    tree = recorded_tree(result)
    strategy = _node_strategies(result, tree, rejected)
    names = spot.positions
    own = np.ones((spot.seats, N_CLASSES))
    endings: list[FlopEnding] = []
    flop_mass = three_way_mass = 0.0
    stack = [(0, own)]  # depth-first: (node index, every seat's own reach per class)
    while stack:
        k, reach = stack.pop()
        node = tree.nodes[k]
        if node.actor >= 0:
            sigma = strategy[node.id]
            start = tree.child_start[k]
            for j in range(len(node.actions)):
                child = reach.copy()
                child[node.actor] *= sigma[j]
                stack.append((start + j, child))
            continue
        if node.kind != "flop":
            continue
        table = float(np.prod(reach @ CLASS_PRIOR))
        flop_mass += table
        if len(node.players_in) == 3:
            three_way_mass += table
            continue
        oop, ip = sorted(node.players_in, key=lambda s: postflop_order(s, spot.seats))
        endings.append(FlopEnding(spot.name, node.id, table, node.pot, node.behind, names[oop], names[ip],
                                  _aggressor(tree, node.id, names), reach[oop].copy(), reach[ip].copy()))
    endings.sort(key=lambda e: (-e.reach, e.node))
    return SpotEndings(tuple(endings), flop_mass, three_way_mass)


def _aggressor(tree: Tree, node_id: str, names: tuple[str, ...]) -> str:
    """Position name of the seat that made the last raise (``R``, ``S`` or ``A``) on the way to ``node_id``."""
    for i in range(len(node_id) - 1, -1, -1):
        if node_id[i] in "RSA":
            return names[tree.node(node_id[:i]).actor]
    return ""
