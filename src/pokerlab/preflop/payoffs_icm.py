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
from pokerlab.preflop.payoffs import EndingPayoffs, PostflopModel
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
    an ending; the probability of an outcome is constant + win * W[pair] + tie * T[pair]."""
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


def icm_payoffs(tree: Tree, model: PostflopModel, structure: PayoutStructure) -> IcmPayoffs:
    """ICM payoffs (bb-equivalents, net of the equity before the hand) of every ending of
    ``tree`` under ``structure``; outcomes as in the module docstring."""
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
    for z, k in enumerate(nodes):
        for final, const, pair, w, t in _outcomes(tree.nodes[k], n, start[:n], model):
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
    return IcmPayoffs(nodes=nodes, tier=tier, const=const[:, :n], term_ending=t_end[order], term_seat=t_seat[order],
                      term_opponent=t_opp[order], term_win=t_win[order], term_tie=t_tie[order],
                      spectator_ending=pz[s_row], spectator_seat=s_seat.astype(np.int64), spectator_a=pa[s_row],
                      spectator_b=pb[s_row], spectator_win=coef_w[s_row, s_seat], spectator_tie=coef_t[s_row, s_seat],
                      field_const=const[:, n].copy(), structure=structure, bb_per_prize=float(bb_per_prize))
