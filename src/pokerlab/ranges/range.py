"""``Range``: a belief about one player's hand, as non-negative weights over the 1,326 combos.

A range is a distribution, not a hand: every report derived from one can say how wide it is
(:meth:`Range.entropy_bits`, :meth:`Range.effective_combos`) and how much of the deck it holds
(:meth:`Range.share_of_deals`). Weights are a float64 vector in
``itertools.combinations(range(52), 2)`` order (see :mod:`pokerlab.cards`). They need not sum
to one: a chart row gives each combo the *frequency* with which it takes an action (0..1),
and the same vector normalised is the distribution of the hand given that action.

A ``Range`` is immutable: its weight vector is read-only and every operation returns a new
range. Cards may be given as text (``"Ks7s6s"``) or as card indices.
"""

from __future__ import annotations

import os
from typing import Iterable, Mapping

import numpy as np

from pokerlab.cards import (
    CLASS_COMBOS,
    CLASS_NAMES,
    CLASS_WEIGHTS,
    COMBO_CLASS,
    COMBO_IDS,
    GRID_RANKS,
    N_CARDS,
    N_CLASSES,
    N_COMBOS,
    combos_blocked_by,
    parse_cards,
    parse_class,
    parse_combo,
)
from pokerlab.range_notation import format_range, parse_range

__all__ = ["Range", "as_cards", "as_range"]


def as_cards(cards: str | Iterable[int] | None) -> list[int]:
    """Card indices of text (``"Ks7s6s"``, ``"Ks 7s"``) or of an iterable of indices; None is []."""
    if cards is None:
        return []
    if isinstance(cards, str):
        return parse_cards(cards)
    out = [int(c) for c in cards]
    if any(not 0 <= c < N_CARDS for c in out):
        raise ValueError(f"bad cards {out}: card indices run 0..51")
    if len(set(out)) != len(out):
        raise ValueError(f"bad cards {out}: a card appears twice")
    return out


def as_range(value: "Range | str") -> "Range":
    """A ``Range`` as given, or parsed from notation (a specific hand ``"AhKh"`` is notation too)."""
    if isinstance(value, Range):
        return value
    return Range.parse(value)


class Range:
    """Non-negative weights over the 1,326 combos (read-only float64 vector)."""

    __slots__ = ("_weights",)

    def __init__(self, weights: np.ndarray | Iterable[float]):
        w = np.array(weights, dtype=np.float64)  # always a private copy
        if w.shape != (N_COMBOS,):
            raise ValueError(f"range weights must have shape ({N_COMBOS},), got {w.shape}")
        if not np.all(np.isfinite(w)) or np.any(w < 0):
            raise ValueError("range weights must be finite and >= 0")
        w.setflags(write=False)
        self._weights = w

    # --- construction ------------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> "Range":
        """A range from notation such as ``"TT+,AQs+,AKo"`` or ``"AA:1.0,KK:0.5,QJo:0.25"``."""
        return cls(parse_range(text))

    @classmethod
    def from_combos(cls, combos: Mapping[str, float] | Iterable[str]) -> "Range":
        """A range from combo ids (weight 1 each) or a mapping combo id -> weight."""
        items = combos.items() if isinstance(combos, Mapping) else ((c, 1.0) for c in combos)
        w = np.zeros(N_COMBOS)
        for cid, weight in items:
            w[parse_combo(cid)] = weight
        return cls(w)

    @classmethod
    def from_chart_row(cls, row: np.ndarray | Mapping[str, float]) -> "Range":
        """A range from per-class frequencies: a 169-vector in grid order (a chart node's
        strategy column for one action) or a mapping class name -> frequency (others 0).
        Every combo of a class gets its class's frequency."""
        if isinstance(row, Mapping):
            freq = np.zeros(N_CLASSES)
            for name, value in row.items():
                freq[parse_class(name)] = value
        else:
            freq = np.asarray(row, dtype=np.float64)
            if freq.shape != (N_CLASSES,):
                raise ValueError(f"a chart row has {N_CLASSES} class frequencies, got shape {freq.shape}")
        return cls(freq[COMBO_CLASS])

    @classmethod
    def from_node(cls, node, action: str) -> "Range":
        """The combos that take ``action`` at a chart node, at the node's frequencies.

        ``node`` is any object with ``strategy`` (169 x actions, rows in grid order) and
        ``actions`` (action letters), such as a solve's read-out node: the BTN's 6-max 100bb
        opening range is ``Range.from_node(btn_first_node, "R")``."""
        actions = list(node.actions)
        if action not in actions:
            raise ValueError(f"action {action!r} is not taken at this node (actions: {', '.join(actions)})")
        return cls.from_chart_row(np.asarray(node.strategy)[:, actions.index(action)])

    @classmethod
    def from_chart(cls, chart: "str | os.PathLike | dict", node_id: str, action: str) -> "Range":
        """The combos that take ``action`` at node ``node_id`` of a published chart set.

        ``chart`` is a chart document (``results/charts/{format}/{n}max/{depth}bb.json.gz``) or its
        path; the weights are the decoded frequencies (quantised to 1/90). The BTN's 6-max
        100bb opening range is ``Range.from_chart("results/charts/cash/6max/100bb.json.gz", "FFF", "R")``.
        Like :meth:`from_node`, this is the actor's policy at the node (how often each class takes
        the action), not weighted by how often the actor arrives there with it.
        """
        from pokerlab.encoding import decode
        from pokerlab.io import read_json

        if not isinstance(chart, dict):
            chart = read_json(chart, "chart")
        nodes = {node["id"]: node for node in chart.get("nodes", [])}
        if node_id not in nodes:
            shown = ", ".join(repr(n) for n in list(nodes)[:12])
            raise ValueError(f"node {node_id!r} is not a decision of this chart (decisions: {shown}, ...)")
        node = nodes[node_id]
        if action not in node["actions"]:
            raise ValueError(f"action {action!r} is not taken at node {node_id!r} (actions: {', '.join(node['actions'])})")
        frequencies = np.nan_to_num(decode(node["strategy"][action]), nan=0.0)
        return cls.from_chart_row(frequencies)

    # --- views -------------------------------------------------------------------------

    @property
    def weights(self) -> np.ndarray:
        """The 1,326 weights (read-only float64 view, ``itertools.combinations`` order)."""
        return self._weights

    def combos(self) -> dict[str, float]:
        """{combo id: weight} for every combo with positive weight, in combo order."""
        return {COMBO_IDS[i]: float(self._weights[i]) for i in np.flatnonzero(self._weights)}

    def total_weight(self) -> float:
        return float(self._weights.sum())

    def live_combos(self) -> int:
        """Number of combos with positive weight."""
        return int(np.count_nonzero(self._weights))

    def share_of_deals(self) -> float:
        """Total weight / 1,326: with weights read as frequencies in [0, 1], the share of all
        deals that this range holds (``"AA"`` is 6/1326, ``"random"`` is 1)."""
        return self.total_weight() / N_COMBOS

    def to_notation(self) -> str:
        """Shortest range notation for these exact weights (``Range.parse`` gives them back)."""
        return format_range(self._weights)

    def __str__(self) -> str:
        return self.to_notation()

    def __repr__(self) -> str:
        return f"Range.parse({self.to_notation()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return bool(np.array_equal(self._weights, other._weights))

    def __hash__(self) -> int:
        return hash(self._weights.tobytes())

    # --- class views ---------------------------------------------------------------------

    def class_mass(self) -> np.ndarray:
        """Total weight per class (169, grid order); sums to :meth:`total_weight`."""
        return np.bincount(COMBO_CLASS, weights=self._weights, minlength=N_CLASSES)

    def class_distribution(self) -> np.ndarray:
        """Probability of each class (169) under the normalised range."""
        return self.class_mass() / self._nonzero_total()

    def to_chart_row(self) -> np.ndarray:
        """Mean weight per combo of each class (169): the inverse of :meth:`from_chart_row`
        for ranges whose classes are uniform."""
        return self.class_mass() / CLASS_WEIGHTS

    # --- operations returning new ranges -------------------------------------------------

    def _nonzero_total(self) -> float:
        total = self.total_weight()
        if total <= 0:
            raise ValueError("the range is empty (all weights are zero)")
        return total

    def normalize(self) -> "Range":
        """The same range scaled to total weight 1 (raises on an empty range)."""
        return Range(self._weights / self._nonzero_total())

    def remove_cards(self, cards: str | Iterable[int] | None) -> "Range":
        """Zero every combo that holds one of ``cards`` (dead or known cards; exact mask)."""
        mask = combos_blocked_by(as_cards(cards))
        return Range(np.where(mask, 0.0, self._weights))

    def condition_on_board(self, board: str | Iterable[int]) -> "Range":
        """The range given a board of 0..5 cards: combos sharing a card with it removed."""
        cards = as_cards(board)
        if len(cards) > 5:
            raise ValueError(f"a board has at most 5 cards, got {len(cards)}")
        return self.remove_cards(cards)

    def update(self, likelihood: np.ndarray) -> "Range":
        """Bayes' rule: the normalised posterior ``w * likelihood`` (likelihood per combo,
        1,326 values >= 0, e.g. P(observed action | combo)). Raises ``ValueError`` when the
        observation is impossible under this range (the posterior has no mass)."""
        lik = np.asarray(likelihood, dtype=np.float64)
        if lik.shape != (N_COMBOS,):
            raise ValueError(f"likelihood must have shape ({N_COMBOS},), got {lik.shape}")
        if not np.all(np.isfinite(lik)) or np.any(lik < 0):
            raise ValueError("likelihood values must be finite and >= 0")
        posterior = self._weights * lik
        total = posterior.sum()
        if total <= 0:
            raise ValueError("impossible observation: it has probability zero under this range")
        return Range(posterior / total)

    # --- uncertainty and sampling ---------------------------------------------------------

    def entropy_bits(self) -> float:
        """Shannon entropy (bits) of the normalised distribution over combos."""
        p = self._weights[self._weights > 0] / self._nonzero_total()
        return float(-(p * np.log2(p)).sum())

    def effective_combos(self) -> float:
        """2 ** entropy: the number of equally likely combos with the same uncertainty
        (``"AA"`` gives 6, ``"AA,KK:0.5"`` fewer than 12)."""
        return float(2.0 ** self.entropy_bits())

    def sample(self, n: int, seed: int, dead: str | Iterable[int] | None = None) -> np.ndarray:
        """``n`` combo indices drawn independently in proportion to the weights, from a
        generator seeded with ``seed``; combos holding a ``dead`` card are never drawn
        (raises if no combo is left)."""
        if n < 0:
            raise ValueError(f"sample size must be >= 0, got {n}")
        live = self.remove_cards(dead)
        p = live.weights / live._nonzero_total()
        return np.random.default_rng(seed).choice(N_COMBOS, size=n, p=p)

    # --- text ----------------------------------------------------------------------------

    def grid_text(self) -> str:
        """A 13x13 grid (rows and columns A..2; suited above the diagonal): a cell shows the
        class name when every combo of the class has weight 1, '.' when the class is absent,
        and otherwise the class's mean weight in percent."""
        freq = self.to_chart_row()
        lines = [("    " + "".join(f"{r:<5}" for r in GRID_RANKS)).rstrip()]
        for row in range(13):
            cells = []
            for col in range(13):
                k = 13 * row + col
                if freq[k] == 0:
                    cell = "."
                elif np.all(self._weights[CLASS_COMBOS[k]] == 1):
                    cell = CLASS_NAMES[k]
                else:
                    cell = f"{100 * freq[k]:.0f}%" if freq[k] >= 0.005 else "<1%"
                cells.append(f"{cell:<5}")
            lines.append(f"{GRID_RANKS[row]:<4}" + "".join(cells).rstrip())
        return "\n".join(lines)

