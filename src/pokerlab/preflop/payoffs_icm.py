"""ICM payoffs at the endings of a preflop tree: prize equity of the final stacks, by outcome.

Units: **bb-equivalents**, net of the seat's equity before the hand. A prize amount ``x`` is
worth ``x * total_chips / pool`` bb, where ``total_chips`` are all the chips of the players
still in (at the table and off it) and ``pool`` the prizes still to be paid: one
bb-equivalent is what an average big blind is worth in prize money. Under a winner-takes-all
payout these values are exactly the chip-EV payoffs, so exploitability in bb-equivalents is
measured on the same scale as the chip bar (a strategy leaking 0.01 bb-equivalents per hand
gives away the prize money of 0.01 average big blinds).

Stacks: every player still in the tournament starts the hand with the spot's depth (the big
blind posts its ante on top, as the tree does); the players not at the table hold the same
stack and take no part in the hand. A seat's final stack is its start minus what it put in
plus what it wins; a seat at zero busted in this hand (:func:`pokerlab.icm.hand_end_equity`).

Outcomes and their probabilities, all linear in the win/tie tables ``W``, ``T``
(``L = 1 - W - T``), so the payoffs keep the pairwise-linear shape the solver batches:

* ``fold``: one outcome, the last seat takes the pot.
* heads-up ``allin`` (seats a, b): a wins (probability W_ab), chop (T_ab: each takes half the
  pot), b wins (L_ab). Win, tie and loss are valued by their own stacks: never win + tie/2.
* three-way ``allin``: the *random-duel* rule - each of the three pairs is picked with
  probability 1/3 and settles the pot as a heads-up showdown, the third seat losing its stake.
  So "i wins alone" has probability (W_ij + W_ik)/3 and "i and j chop" T_ij/3; the chip shares
  it implies are the pairwise mean rescaled to one, (EQ_ij + EQ_ik)/3: exactly the chip-EV
  tier-3 rule, so ICM and chip EV price the same three-way showdown.
* ``flop`` (chips behind): every seat in puts commitment x behind more in; the pot played P' is
  won outright or chopped by the same duel rule (heads-up: one duel), and the positional edge
  moves probability onto "this seat wins P' alone": +edge for the seat acting last, -edge for
  the first (three-way: 0 for the middle seat). Edges sum to zero, so the probabilities sum to
  one and every seat's mean chip result is the chip-EV tier-4 payoff. At extreme equities an
  outcome's weight can fall below zero (a linear extrapolation, like the chip model's).

Model v2 (a class table, :mod:`pokerlab.preflop.class_edges`) moves probability by hand as well:
at a flop ending each duel (a, b) of weight ``w`` (1 heads-up, 1/3 three-way) moves
``w * (d_a[c_a] - d_b[c_b])`` from "b wins P' alone" to "a wins P' alone", the same shift of the
chip share as the chip model's v2. A seat gains ``w * (d_a[c_a] - d_b[c_b]) * (V_seat(a wins) -
V_seat(b wins))``: for a and b a class term of their payoff term, exactly as in the chip model.
Every other seat gains nothing: the seats at a flop ending have matched every bet from equal
starting stacks, so "a wins" and "b wins" leave the same stacks with a and b swapped, and prize
equity is symmetric in the other players' stacks (checked when the payoffs are built). Shifts
cancel within each duel, so prize equity is still conserved; with a zero table the payoffs are v1's.

Each seat's value is ``sum_o p_o * V_seat(o)``; written out, a seat in the hand gets a constant
plus win/tie terms against each opponent (``EndingPayoffs``). Seats *not* in the hand - folded,
or off the table - still gain or lose equity when others bust or double up, and that value
depends on the others' hands: it is kept as *spectator terms* ``coef * W[c_a, c_b]`` (a, b
the pair in the showdown) that :class:`pokerlab.preflop.solver_icm.IcmSolver` adds to the folded seat's
value. Folding on the bubble while two others collide is worth something; that is the point.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import numpy as np

from pokerlab.icm import PayoutStructure, hand_end_equity
from pokerlab.preflop.class_edges import ClassEdges
from pokerlab.preflop.payoffs import ClassVectorBank, EndingPayoffs, PostflopModel
from pokerlab.preflop.tree import Tree, postflop_order


@dataclass(frozen=True)
class IcmPayoffs(EndingPayoffs):
    """:class:`EndingPayoffs` plus the values of seats not in the hand.

    Spectator term ``t``: at ending ``spectator_ending[t]``, seat ``spectator_seat[t]`` (index
    ``seats`` = all the off-table players together) gets ``spectator_win[t] * W[c_a, c_b] +
    spectator_tie[t] * T[c_a, c_b]`` with ``a, b = spectator_a[t], spectator_b[t]``.
    ``const`` covers the folded seats too; ``field_const`` (Z,) is the off-table players'
    constant. ``bb_per_prize`` converts prize units to bb-equivalents.
    """

    spectator_ending: np.ndarray
    spectator_seat: np.ndarray
    spectator_a: np.ndarray
    spectator_b: np.ndarray
    spectator_win: np.ndarray
    spectator_tie: np.ndarray
    field_const: np.ndarray
    structure: PayoutStructure
    bb_per_prize: float

    def _spectators(self, hands: np.ndarray, win: np.ndarray, tie: np.ndarray, field: bool) -> tuple:
        sel = (self.spectator_seat == self.const.shape[1]) if field else (self.spectator_seat < self.const.shape[1])
        a, b = hands[self.spectator_a[sel]], hands[self.spectator_b[sel]]
        return sel, self.spectator_win[sel] * win[a, b] + self.spectator_tie[sel] * tie[a, b]

    def hand_payoffs(self, hands: np.ndarray, win: np.ndarray, tie: np.ndarray) -> np.ndarray:
        """(Z, seats) payoffs (bb-equivalents) of every seat at the table, folded ones included."""
        hands = np.asarray(hands)
        out = super().hand_payoffs(hands, win, tie)
        sel, value = self._spectators(hands, win, tie, field=False)
        np.add.at(out, (self.spectator_ending[sel], self.spectator_seat[sel]), value)
        return out

    def field_payoffs(self, hands: np.ndarray, win: np.ndarray, tie: np.ndarray) -> np.ndarray:
        """(Z,) total payoff of the players not at the table (bb-equivalents)."""
        hands = np.asarray(hands)
        out = self.field_const.copy()
        sel, value = self._spectators(hands, win, tie, field=True)
        np.add.at(out, self.spectator_ending[sel], value)
        return out


def _award(stacks: np.ndarray, shares: dict[int, float], pot: float) -> np.ndarray:
    final = stacks.copy()
    for seat, share in shares.items():
        final[seat] += share * pot
    return final


def _outcomes(node, seats: int, start: np.ndarray, model: PostflopModel) -> list[tuple]:
    """(final table stacks, constant, pair, win coefficient, tie coefficient) of each outcome of
    an ending; the probability of an outcome is constant + win * W[pair] + tie * T[pair]. Each
    pair's outcomes come together, in the order a wins, b wins, chop."""
    players = sorted(node.players_in, key=lambda s: postflop_order(s, seats))  # first to act first
    stacks = start - np.asarray(node.contrib)  # before the pot is awarded
    if node.kind == "fold":
        return [(_award(stacks, {players[0]: 1.0}, node.pot), 1.0, None, 0.0, 0.0)]
    played, edges = node.pot, [0.0] * len(players)
    if node.kind == "flop":
        spr = node.behind / node.pot
        extra = model.commitment(spr) * node.behind
        stacks[players] -= extra
        played += len(players) * extra
        e = model.edge(spr)
        edges = [-e, e] if len(players) == 2 else [-e, 0.0, e]
    out = []
    weight = 1.0 / (len(players) * (len(players) - 1) / 2)  # 1 heads-up, 1/3 three-way
    for a, b in combinations(players, 2):
        out.append((_award(stacks, {a: 1.0}, played), 0.0, (a, b), weight, 0.0))
        out.append((_award(stacks, {b: 1.0}, played), weight, (a, b), -weight, -weight))
        out.append((_award(stacks, {a: 0.5, b: 0.5}, played), 0.0, (a, b), 0.0, weight))
    out.extend((_award(stacks, {s: 1.0}, played), e, None, 0.0, 0.0) for s, e in zip(players, edges) if e != 0.0)
    return out


def _tier(node) -> int:
    """Trust tier of an ending (``pokerlab.preflop.payoffs.TIERS``)."""
    if node.kind == "fold":
        return 1
    if node.kind == "allin":
        return 2 if len(node.players_in) == 2 else 3
    return 4


def icm_payoffs(tree: Tree, model: PostflopModel, structure: PayoutStructure,
                classes: ClassEdges | None = None) -> IcmPayoffs:
    """ICM payoffs (bb-equivalents, net of the equity before the hand) of every ending of
    ``tree`` under ``structure``; outcomes as in the module docstring. ``classes``: model v2's
    class table (None: v1)."""
    n = tree.seats
    if structure.players_left < n:
        raise ValueError(f"payouts {structure.name}: {structure.players_left} players left cannot fill a {n}-seat table")
    depth, field_size = tree.spot.depth, structure.players_left - n
    start = np.full(structure.players_left, depth)
    start[n - 1] += tree.spot.ante  # the big blind's dead ante is posted on top of its depth
    bb_per_prize = start.sum() / structure.pool
    nodes = tree.endings
    pairs: dict[tuple[int, int, int], int] = {}  # (ending, a, b) -> pair row
    finals, ending_of, pair_of, probability = [], [], [], []  # per outcome
    bank = None if classes is None else ClassVectorBank(classes.n_classes)
    duels = []  # per pair row (v2): (outcome where a wins, class weight, a's vector id, b's vector id)
    for z, k in enumerate(nodes):
        node = tree.nodes[k]
        role = None
        if bank is not None and node.kind == "flop":
            players = sorted(node.players_in, key=lambda s: postflop_order(s, n))
            role = dict(zip(players, (bank.id(v) for v in classes.vectors(node.behind / node.pot, len(players)))))
        for final, const, pair, w, t in _outcomes(node, n, start[:n], model):
            if pair is not None and (z, *pair) not in pairs:  # its first outcome: pair[0] wins, with weight w
                duels.append((len(finals), *((w, role[pair[0]], role[pair[1]]) if role else (0.0, 0, 0))))
            finals.append(final)
            ending_of.append(z)
            pair_of.append(-1 if pair is None else pairs.setdefault((z, *pair), len(pairs)))
            probability.append((const, w, t))
    finals = np.hstack([np.array(finals), np.broadcast_to(start[n:], (len(finals), field_size))])
    ending_of, pair_of, probability = np.array(ending_of), np.array(pair_of), np.array(probability)
    equity = hand_end_equity(start, finals, structure.payouts)
    before = hand_end_equity(start, start[None, :], structure.payouts)[0]
    value = (equity - before) * bb_per_prize
    value = np.c_[value[:, :n], value[:, n:].sum(axis=1)]  # the off-table players as one column
    # seat values: sum over outcomes of (const + w W[pair] + t T[pair]) * value
    const = np.zeros((nodes.size, n + 1))
    np.add.at(const, ending_of, probability[:, :1] * value)
    paired = pair_of >= 0
    coef_w, coef_t = np.zeros((len(pairs), n + 1)), np.zeros((len(pairs), n + 1))
    np.add.at(coef_w, pair_of[paired], probability[paired, 1:2] * value[paired])
    np.add.at(coef_t, pair_of[paired], probability[paired, 2:3] * value[paired])
    pz, pa, pb = np.array(list(pairs), dtype=np.int64).reshape(-1, 3).T
    rows = np.arange(len(pairs))
    # seat a gets W[a,b], T[a,b] directly; seat b reads them as W[a,b] = 1 - W[b,a] - T[b,a], T[a,b] = T[b,a]
    np.add.at(const, (pz, pb), coef_w[rows, pb])
    t_seat, t_end, t_opp = np.r_[pa, pb], np.r_[pz, pz], np.r_[pb, pa]
    t_win = np.r_[coef_w[rows, pa], -coef_w[rows, pb]]
    t_tie = np.r_[coef_t[rows, pa], coef_t[rows, pb] - coef_w[rows, pb]]
    order = np.lexsort((t_opp, t_end, t_seat))  # by seat, ending, opponent
    # every other seat (and the off-table players, if any) watches the pair: spectator terms
    watching = np.ones((len(pairs), n + 1), dtype=bool)
    watching[rows, pa] = watching[rows, pb] = False
    watching[:, n] = field_size > 0
    s_row, s_seat = np.nonzero(watching)
    tier = np.array([_tier(tree.nodes[k]) for k in nodes], dtype=np.int64)
    extra = {}
    if bank is not None:
        # a duel's shift w (d_a - d_b) moves probability from "b wins" to "a wins": each column
        # gains w (V(a wins) - V(b wins)) times it
        a_wins, class_weight, vec_a, vec_b = (np.array(x) for x in zip(*duels)) if duels else [np.zeros(0, int)] * 4
        coef_class = class_weight[:, None] * (value[a_wins] - value[a_wins + 1])
        watched = np.abs(coef_class[s_row, s_seat]).max(initial=0.0)
        if watched > 1e-9 * max(1.0, float(np.abs(value).max(initial=0.0))):
            raise ValueError(f"model v2 under ICM: a flop duel between unequal stacks moves other seats' prize equity "
                             f"(by up to {watched:.3g} per unit of class shift), which v2's payoffs do not carry")
        t_class = np.r_[coef_class[rows, pa], -coef_class[rows, pb]]
        extra = {"class_vectors": bank.array(), "term_class": t_class[order].astype(np.float64),
                 "term_own": np.r_[vec_a, vec_b][order].astype(np.int64),
                 "term_opp": np.r_[vec_b, vec_a][order].astype(np.int64)}
    return IcmPayoffs(nodes=nodes, tier=tier, const=const[:, :n], term_ending=t_end[order], term_seat=t_seat[order],
                      term_opponent=t_opp[order], term_win=t_win[order], term_tie=t_tie[order],
                      spectator_ending=pz[s_row], spectator_seat=s_seat.astype(np.int64), spectator_a=pa[s_row],
                      spectator_b=pb[s_row], spectator_win=coef_w[s_row, s_seat], spectator_tie=coef_t[s_row, s_seat],
                      field_const=const[:, n].copy(), structure=structure, bb_per_prize=float(bb_per_prize), **extra)
