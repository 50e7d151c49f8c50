"""Later-street documents built on request from a pack's stored strategies (lazy tree tier).

A flop root's tree tier runs to ~133,000 documents (three river streets' worth per turn card:
2.8 GiB of JSON for the reference flop, see ``benchmarks/serve.py --write-packs``), so a pack
may store, instead of the documents after the first deal, what they are computed from: the
spot (pot, stack, board, both ranges, bet tree, in chips) and the solver's average-strategy
state (:meth:`~pokerlab.postflop.solver.PostflopSolver.strategy_sums`, float32), both covered
by the pack's digest. :class:`LazySpot` rebuilds the solver from them (suit isomorphism off,
as the pack was solved) and reads out one node at a time: the reach along the path
(:func:`pokerlab.postflop.nodes.reach_along`) and the node's values
(:func:`pokerlab.postflop.nodes.node_readout`), the same arithmetic as an eager pack, so a
lazily built document equals the one an eager pack would hold, byte for byte.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from types import SimpleNamespace
from typing import Any

import numpy as np

from pokerlab.cards import COMBO_IDS, card_str, parse_cards

_COMBO_NUMBER = {cid: i for i, cid in enumerate(COMBO_IDS)}
CARD_RE = re.compile(r"^[AKQJT98765432][shdc]$")


def spot_record(solver, family_id: str, settings: dict[str, Any], bb_chips: float) -> dict[str, Any]:
    """What :class:`LazySpot` needs besides the strategy sums (JSON; floats round-trip exactly)."""
    spot = solver.spot
    return {
        "family_id": family_id,
        "pot": spot.pot,
        "stack": spot.stack,
        "board": "".join(card_str(c) for c in spot.board),  # in the solve's order
        "ranges": {name: {COMBO_IDS[i]: float(r[i]) for i in np.flatnonzero(r > 0)}
                   for name, r in zip(("oop", "ip"), spot.ranges)},
        "bet_tree": dataclasses.asdict(spot.bet_tree),
        "isomorphism": False,
        "settings": settings,
        "bb_chips": bb_chips,
        "exploitability_chips": solver.exploitability(),
    }


def _bet_tree(d: dict[str, Any]):
    from pokerlab.postflop.game import BetTree, StreetActions

    streets = tuple(tuple(StreetActions(**a) for a in pair) for pair in d["streets"])
    return BetTree(streets=streets, allin_threshold=d["allin_threshold"], raise_cap=d["raise_cap"],
                   whole_chips=d["whole_chips"])


class LazySpot:
    """A solved spot rebuilt from a pack's record and strategy sums; documents made on request."""

    def __init__(self, record: dict[str, Any], state: bytes):
        from pokerlab.postflop.game import PostflopSpot
        from pokerlab.postflop.solver import PostflopSolver

        def vector(weights: dict[str, float]) -> np.ndarray:
            out = np.zeros(len(COMBO_IDS))
            for cid, w in weights.items():
                out[_COMBO_NUMBER[cid]] = w
            return out

        self.record = record
        spot = PostflopSpot(record["pot"], record["stack"], tuple(parse_cards(record["board"])),
                            vector(record["ranges"]["oop"]), vector(record["ranges"]["ip"]),
                            _bet_tree(record["bet_tree"]))
        self.solver = PostflopSolver(spot, isomorphism=False)
        self.solver.load_strategy_sums(state)
        self.hands = [[COMBO_IDS[int(c)] for c in h] for h in self.solver.hands]
        self.lock = threading.Lock()  # one read-out at a time: they are CPU-bound, and the state is shared

    def _ids(self, node: int) -> list[str]:
        from pokerlab.serve.documents import _postflop_actions

        tree, spot = self.solver.tree, self.solver.spot
        invest = (float(tree.invest[node, 0]), float(tree.invest[node, 1]))
        light = SimpleNamespace(actor=int(tree.actor[node]), invest=invest, actions=tuple(tree.actions(node)),
                                pot=spot.pot + invest[0] + invest[1])
        return [a["id"] for a in _postflop_actions(light, spot.stack, self.record["bb_chips"])]

    def steps(self, node_path: str) -> list[int]:
        """The path as steps for :func:`~pokerlab.postflop.nodes.reach_along` (child indices and
        card indices); ``KeyError`` naming the segment if the tree has no such node."""
        from pokerlab.postflop.tree import CHANCE, DECISION

        tree = self.solver.tree
        segments = node_path.split(".")
        if segments[0] != "root":
            raise KeyError(node_path)
        node, used, steps = 0, set(self.solver.spot.board), []
        for seg in segments[1:]:
            if tree.kind[node] == DECISION:
                ids = self._ids(node)
                if seg not in ids:
                    raise KeyError(f"{node_path}: no action {seg!r} at this node")
                k = ids.index(seg)
                steps.append(k)
                node = int(tree.first_child[node]) + k
            elif tree.kind[node] == CHANCE:
                try:
                    (card,) = parse_cards(seg)
                except ValueError:
                    raise KeyError(f"{node_path}: {seg!r} is not a card") from None
                if card in used:
                    raise KeyError(f"{node_path}: {seg} is on the board or dealt before")
                used.add(card)
                steps.append(card)
                node = int(tree.first_child[node])
            else:
                raise KeyError(f"{node_path}: the hand ends before {seg!r}")
        if tree.kind[node] != DECISION:
            raise KeyError(f"{node_path}: not a decision (the path ends at a deal or the end of the hand)")
        return steps

    def has(self, node_path: str) -> bool:
        try:
            self.steps(node_path)
            return True
        except KeyError:
            return False

    def document(self, node_path: str) -> dict[str, Any]:
        """The document at ``node_path`` (without the pack's meta fields); ``KeyError`` if none."""
        from pokerlab.postflop.nodes import node_readout, reach_along
        from pokerlab.serve.documents import postflop_document

        steps = self.steps(node_path)
        r = self.record
        with self.lock:
            node, dealt, reach, live = reach_along(self.solver, steps)
            readout = node_readout(self.solver, node, dealt, reach, (), live)
            return postflop_document(self.solver, readout, r["family_id"], r["settings"], r["bb_chips"], self.hands,
                                     r["exploitability_chips"], {(): node_path}, "tree")

    def street(self, after: str) -> dict[str, Any]:
        """The node paths and deals of the street that begins after ``after`` (a path ending with
        a dealt card): ``{"nodes": [...], "deals": {chance path: [cards]}}``."""
        from pokerlab.postflop.tree import CHANCE, DECISION
        from pokerlab.serve.documents import card_segment

        segments = after.split(".")
        if len(segments) < 2 or not CARD_RE.match(segments[-1]):
            raise KeyError(f"{after}: a street begins after a dealt card")
        steps = self.steps(after)
        tree = self.solver.tree
        used = set(self.solver.spot.board) | {c for seg in segments[1:] if CARD_RE.match(seg) for c in parse_cards(seg)}
        node = 0
        for step in steps:  # the node the path reaches
            node = int(tree.first_child[node]) + (step if tree.kind[node] == DECISION else 0)
        nodes, deals = [], {}
        queue = [(node, after)]
        for node, path in queue:  # breadth-first, as an eager pack lists them
            nodes.append(path)
            for k, seg in enumerate(self._ids(node)):
                child = int(tree.first_child[node]) + k
                if tree.kind[child] == DECISION:
                    queue.append((child, f"{path}.{seg}"))
                elif tree.kind[child] == CHANCE:
                    deals[f"{path}.{seg}"] = [card_segment(c) for c in range(51, -1, -1) if c not in used]
        return {"nodes": nodes, "deals": deals}
