"""The public betting tree of a postflop spot, built once from its bet sizes.

The tree is a *template*: one node per betting sequence, with a single chance node standing
for "deal the next card" whatever the card is. The solver walks it once per dealt card, and
stores each decision node's regrets once per chance outcome (see ``PublicTree.paths``).

Node kinds
    ``DECISION`` (``actor`` to act), ``CHANCE`` (one child: the next street),
    ``FOLD`` (``actor`` = the player who folded), ``SHOWDOWN`` (river reached with equal bets,
    or an all-in called earlier: the board is then run out).

``invest[n] = (oop, ip)`` are the chips each player has put in since the root when node ``n``
is reached. Action labels follow TexasSolver's dumps: ``CHECK``, ``CALL``, ``FOLD``,
``BET x`` and ``RAISE x`` with ``x`` the chips that action adds (an all-in is the bet or raise
of the whole remaining stack).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pokerlab.postflop.game import IP, OOP, RIVER, PostflopSpot

DECISION, CHANCE, FOLD, SHOWDOWN = 0, 1, 2, 3
_EPS = 1e-9


def format_amount(chips: float) -> str:
    """Chips as printed in an action label (``50``, ``62.5``)."""
    return f"{chips:.6f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class PublicTree:
    """Flat arrays describing the template tree; node 0 is the root."""

    kind: np.ndarray  # int8
    actor: np.ndarray  # int8: player to act (DECISION), folder (FOLD), -1 otherwise
    board_len: np.ndarray  # int8: board cards when the node is reached
    invest: np.ndarray  # (n, 2) float64: chips put in since the root by (oop, ip)
    first_child: np.ndarray  # int32
    n_children: np.ndarray  # int32
    labels: tuple[str, ...]  # action leading to each node ("" for the root / after a deal)
    parent: np.ndarray  # int32, -1 for the root

    @property
    def n_nodes(self) -> int:
        return int(self.kind.size)

    def children(self, node: int) -> range:
        start = int(self.first_child[node])
        return range(start, start + int(self.n_children[node]))

    def actions(self, node: int) -> list[str]:
        """Labels of the actions at a decision node."""
        return [self.labels[c] for c in self.children(node)]

    def line(self, node: int) -> list[str]:
        """The action labels from the root to ``node`` (a deal shows as ``DEAL``)."""
        out = []
        while node > 0:
            parent = int(self.parent[node])
            out.append("DEAL" if self.kind[parent] == CHANCE else self.labels[node])
            node = parent
        return out[::-1]

    @property
    def depth(self) -> int:
        """Largest number of edges from the root to a node."""
        depth = np.zeros(self.n_nodes, np.int64)
        for node in range(1, self.n_nodes):  # breadth-first order: parents come first
            depth[node] = depth[self.parent[node]] + 1
        return int(depth.max())

    def decision_nodes(self) -> np.ndarray:
        return np.flatnonzero(self.kind == DECISION)


class _Builder:
    def __init__(self, spot: PostflopSpot):
        self.spot = spot
        self.rows: list[list] = []  # [kind, actor, board_len, inv_oop, inv_ip, label, parent, children]

    def add(self, kind, actor, board_len, invest, label, parent) -> int:
        self.rows.append([kind, actor, board_len, invest[0], invest[1], label, parent, []])
        if parent >= 0:
            self.rows[parent][7].append(len(self.rows) - 1)
        return len(self.rows) - 1

    # --- one street ---------------------------------------------------------------------------

    def street_start(self, board_len: int, invest, parent: int, label: str, donk: bool) -> None:
        """OOP's first decision on a street (a check-down if nobody has chips behind)."""
        node = self.add(DECISION, OOP, board_len, invest, label, parent)
        self.decide(node, OOP, board_len, invest, facing=False, n_raises=0, after_check=False, donk=donk)

    def decide(self, node, player, board_len, invest, facing, n_raises, after_check, donk) -> None:
        spot, opp = self.spot, 1 - player
        street = board_len - 3
        actions = spot.bet_tree.actions(street, player)
        behind = spot.stack - invest[player]
        to_call = invest[opp] - invest[player]
        if facing:
            self.add(FOLD, player, board_len, invest, "FOLD", node)
            called = list(invest)
            called[player] = invest[opp]
            self.close_action(node, board_len, called, "CALL", donk_next=(player == OOP))
            if behind - to_call > _EPS and spot.stack - invest[opp] > _EPS and n_raises < spot.bet_tree.raise_cap:
                pot_after_call = spot.pot + 2 * invest[opp]
                sized = [to_call + self.fraction(pct, pot_after_call) for pct in actions.raises]
                for amount in self.amounts(sized, behind, invest[player], actions.allin):
                    self.bet(node, player, board_len, invest, amount, "RAISE", n_raises + 1)
            return
        # not facing a bet: check, or open
        if after_check:
            self.close_action(node, board_len, list(invest), "CHECK", donk_next=False)
        else:
            child = self.add(DECISION, opp, board_len, invest, "CHECK", node)
            self.decide(child, opp, board_len, invest, facing=False, n_raises=0, after_check=True, donk=False)
        if behind > _EPS:
            opening = actions.donks if (donk and player == OOP and actions.donks is not None) else actions.bets
            pot_now = spot.pot + invest[OOP] + invest[IP]
            sized = [self.fraction(pct, pot_now) for pct in opening]
            for amount in self.amounts(sized, behind, invest[player], actions.allin):
                self.bet(node, player, board_len, invest, amount, "BET", 0)

    def fraction(self, pct: float, pot: float) -> float:
        """``pct`` % of ``pot`` in chips (to the nearest whole chip, halves up, if the tree says so)."""
        chips = pct / 100.0 * pot
        return math.floor(chips + 0.5) if self.spot.bet_tree.whole_chips else chips

    def amounts(self, sized: list[float], behind: float, invested: float, allin: bool) -> list[float]:
        """Distinct chip amounts of the sized actions plus the all-in, ascending."""
        half_pot = self.spot.pot / 2.0
        cap = self.spot.bet_tree.allin_threshold * (self.spot.stack + half_pot)
        out = set()
        for amount in sized:
            if amount >= behind - _EPS or half_pot + invested + amount > cap + _EPS:
                out.add(behind)  # becomes the all-in
            elif amount > _EPS:
                out.add(round(amount, 9))
        if allin:
            out.add(behind)
        return sorted(out)

    def bet(self, node, player, board_len, invest, amount, word, n_raises) -> None:
        new = list(invest)
        new[player] += amount
        child = self.add(DECISION, 1 - player, board_len, new, f"{word} {format_amount(amount)}", node)
        self.decide(child, 1 - player, board_len, new, facing=True, n_raises=n_raises, after_check=False, donk=False)

    def close_action(self, node, board_len, invest, label, donk_next: bool) -> None:
        """The action that ends a street's betting: showdown, run-out, or the next card."""
        all_in = self.spot.stack - max(invest) <= _EPS
        if board_len - 3 == RIVER or all_in:
            self.add(SHOWDOWN, -1, board_len, invest, label, node)
        else:
            chance = self.add(CHANCE, -1, board_len, invest, label, node)
            self.street_start(board_len + 1, invest, chance, "", donk_next)

    def build(self) -> PublicTree:
        self.street_start(len(self.spot.board), [0.0, 0.0], -1, "", donk=False)
        # lay children out contiguously: renumber breadth-first so each node's children are adjacent
        order = [0]
        for i in order:
            order.extend(self.rows[i][7])
        new_id = {old: new for new, old in enumerate(order)}
        n = len(order)
        kind = np.empty(n, np.int8)
        actor = np.empty(n, np.int8)
        board_len = np.empty(n, np.int8)
        invest = np.empty((n, 2))
        first = np.zeros(n, np.int32)
        count = np.zeros(n, np.int32)
        parent = np.full(n, -1, np.int32)
        labels = []
        for new, old in enumerate(order):
            k, a, b, io, ii, label, par, kids = self.rows[old]
            kind[new], actor[new], board_len[new] = k, a, b
            invest[new] = (io, ii)
            parent[new] = new_id[par] if par >= 0 else -1
            count[new] = len(kids)
            first[new] = new_id[kids[0]] if kids else 0
            labels.append(label)
        return PublicTree(kind, actor, board_len, invest, first, count, tuple(labels), parent)


def build_tree(spot: PostflopSpot) -> PublicTree:
    """The template public tree of ``spot`` (OOP acts first on every street)."""
    return _Builder(spot).build()
