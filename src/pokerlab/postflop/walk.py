"""The depth-first walk of the template tree that serves training, best response and read-out.

Walk
    One Numba walk (:func:`walk`, with an explicit stack) carries the opponent's reach (a
    vector over its combos) and the traverser's own reach down, and returns the traverser's
    counterfactual values: for hand ``h``, the sum over opponent combos ``o`` sharing no card
    with ``h`` (or the board) of ``reach(o) x P(chance) x payoff``. A chance node deals each
    card not on the board; for a fixed pair of hands every card unseen by both is equally
    likely, so each deal has probability ``1 / (52 - board cards - 4)`` and hands holding the
    dealt card drop out. A suit-isomorphic card is not walked: it gets its representative's
    values with the hands permuted (see :mod:`.isomorphism`). Showdowns on the river use the
    sorted sweep of :mod:`.showdown`, earlier ones (an all-in) a run-out matrix (:mod:`.runouts`).
    A training walk with public chance sampling deals only a chance node's sampled cards, each
    weighted ``N / k`` (see :mod:`.sampling`).

Values
    "Share" values: what a player ends the hand with minus what it put in since the root, so
    the two players' shares always sum to the starting pot ``P``. A winner at showdown gets
    ``P + b``, the loser ``-b``, a tie ``P/2`` (``b`` = chips each put in since the root).
    The walk itself works net of ``P/2`` (win ``P/2 + b``, lose ``-(P/2 + b)``, tie 0, a fold
    ``-(P/2 + b)`` for the folder): over all terminals below a node the ``P/2`` part adds up
    to the same amount whatever a player does there, so regrets and best responses are
    unchanged, a showdown needs no pass for the compatible weight, and the read-out adds
    ``P/2`` times the compatible opponent weight back at the root.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba import njit, types
from numba.core.errors import TypingError
from numba.extending import overload

from pokerlab.postflop.dcfr import regret_matching, update_node
from pokerlab.postflop.runouts import showdown_values
from pokerlab.postflop.sampling import sample_deal
from pokerlab.postflop.showdown import compatible_mass, showdown_accumulate
from pokerlab.postflop.tree import CHANCE, DECISION, FOLD, SHOWDOWN


class Mode(IntEnum):
    """What a walk does at the traverser's decisions."""

    TRAIN = 0  # DCFR update of its regrets and strategy sum, both players on their current strategies
    BEST_RESPONSE = 1  # it takes its best action, the opponent plays its average strategy
    EVALUATE = 2  # both players play their average strategies
    CURRENT = 3  # both players play their current strategies (regret matching): what TRAIN's next update sees


class Quantity(IntEnum):
    """What a terminal node is worth to the traverser's hand, per unit of compatible opponent reach."""

    VALUE = 0  # chips won, net of half the root pot (see the module docstring)
    FINAL_POT = 1  # the pot when the hand ends
    SHOWDOWN_PROB = 2  # 1 at a showdown, 0 at a fold


class DealPass(IntEnum):
    """How a walk treats the root street's chance nodes (see :mod:`.passes`)."""

    JOB = 0  # the walk is one job: a dealt subtree, below every root-street chance node
    RECORD = 1  # store the reach arriving at each one, evaluate nothing below
    REPLAY = 2  # sum the values the jobs stored for its dealt subtrees


# the members by value: Mode(i) is MODES[i], also in compiled code (where Mode(i) is not
# supported). Python passes a compiled function the value, not the member: Numba types an enum
# member in Python, ~15 us a call.
MODES, QUANTITIES = tuple(Mode), tuple(Quantity)


class WalkSpec(NamedTuple):
    """What one walk computes."""

    traverser: int  # the player whose values are returned (0 OOP, 1 IP)
    mode: Mode
    quantity: Quantity
    deal_pass: DealPass
    discount: tuple[float, float, float, float]  # Mode.TRAIN: a row of dcfr.dcfr_discounts
    sampled_cards: int  # Mode.TRAIN: cards dealt per chance node (0: every card; see sampling)
    sample_key: np.uint64  # the walk's key for sampling.sample_deal


class WalkStart(NamedTuple):
    """Where a walk starts: a node, reached after the dealt cards (-1: none), with each player's reach."""

    node: int
    first_card: int
    second_card: int
    opp_reach: np.ndarray  # (n_opp,) float64
    own_reach: np.ndarray  # (n_own,) float64


class PassBuffers(NamedTuple):
    """What the passes of one walk hand each other (see :mod:`.passes`)."""

    arriving_opp_reach: np.ndarray  # (n_chance, n_opp): RECORD stores the reach arriving at each root deal
    arriving_own_reach: np.ndarray  # (n_chance, n_own)
    job_values: np.ndarray  # (n_jobs, n_own): each job's values, REPLAY sums them


def require_member(value, enum_class) -> None:
    """Refuse ``value`` unless it is a member of ``enum_class``: modes and quantities share small integer values."""
    if not isinstance(value, enum_class):
        raise TypeError(f"expected a {enum_class.__name__} member, got {value!r}")


@overload(require_member)
def _require_member_typing(value, enum_class):
    # in compiled code the check is made when the caller is typed: a swapped argument does not compile
    if not (isinstance(value, types.IntEnumMember) and value.instance_class is enum_class.instance_class):
        raise TypingError(f"expected a {enum_class.instance_class.__name__} member, got {value}")
    return lambda value, enum_class: None


@njit(cache=True, fastmath=True)
def any_positive(row):
    """Whether some entry is > 0 (stops at the first: cheaper than ``row.max() > 0``)."""
    for x in row:
        if x > 0.0:
            return True
    return False


@njit(cache=True, fastmath=True)
def reach_without_card(dst, src, cards, card):
    """``dst = src`` with the hands holding ``card`` zeroed (``cards``: the hands' (n, 2) cards)."""
    for h in range(src.size):
        dst[h] = 0.0 if (cards[h, 0] == card or cards[h, 1] == card) else src[h]


@njit(cache=True, fastmath=True)
def walk(game, state, spec, start, buffers, workspace):
    """The traverser's values (see the module docstring) at ``start``: a depth-first walk with
    an explicit stack.

    ``game`` is the spot's :class:`~pokerlab.postflop.arrays.GameArrays`, ``state`` its
    :class:`~pokerlab.postflop.arrays.SolverState` (read, and written in Mode.TRAIN), ``spec``
    a :class:`WalkSpec`, ``start`` a :class:`WalkStart`, ``buffers`` the
    :class:`PassBuffers` of the pass (unused in a walk that starts below two deals: the read-out
    of a later street's node, ``PostflopSolver.subtree_values``). ``workspace`` comes from
    :func:`~pokerlab.postflop.workspace.new_workspace` for this traverser's hand counts; the
    values are returned as a view of it, valid until its next walk.

    Each stack level holds a node, the dealt cards ``d1, d2`` that reach it, the opponent's and
    the traverser's reach, and the values returned to it so far.
    """
    require_member(spec.mode, Mode)
    require_member(spec.quantity, Quantity)
    require_member(spec.deal_pass, DealPass)
    traverser, mode, quantity, deal_pass, discount, sampled_cards, sample_key = spec
    sampling = mode == Mode.TRAIN and sampled_cards > 0
    # every array the loop reads is taken out of the named tuples here, once per walk: Numba
    # counts a reference each time one is taken out
    kind, actor, board_len, invest, first_child, n_children, state_offset, block_offset, pot = game.tree
    deals = game.deals
    root_mask, board_index, slot, iso_card, iso_id = (deals.root_mask, deals.board_index, deals.slot, deals.iso_card,
                                                      deals.iso_id)
    chance_index, job_of = game.root_deals.chance_index, game.root_deals.job_of
    own, opp = game.players[traverser], game.players[1 - traverser]
    own_cards, opp_cards, same_combo, own_images = own.cards, opp.cards, own.same_combo, own.suit_images
    own_tables, opp_tables = own.showdown_tables, opp.showdown_tables
    own_valid, opp_valid = own.showdown_n_valid, opp.showdown_n_valid
    regrets, strategy_sums, regret_scales, sum_scales = state
    arriving_opp_reach, arriving_own_reach, job_values = buffers
    n_own, n_opp = own_cards.shape[0], opp_cards.shape[0]
    (opp_reach, own_reach, values, action_values, strategy, card_acc, frames, dealt_values, deal_weight, sampled,
     walked) = workspace
    frame_node, frame_step, frame_first, frame_second = frames[0], frames[1], frames[2], frames[3]
    frame_card, frame_block = frames[4], frames[5]  # the card being dealt; the decision's state block
    opp_reach[0] = start.opp_reach
    own_reach[0] = start.own_reach
    frame_node[0] = start.node
    frame_step[0] = 0
    frame_first[0] = start.first_card
    frame_second[0] = start.second_card
    level = 0
    while level >= 0:
        node = frame_node[level]
        k = kind[node]
        step = frame_step[level]
        d1, d2 = frame_first[level], frame_second[level]
        if step == 0:  # entering the node
            if not any_positive(opp_reach[level]) and (mode != Mode.TRAIN or k == FOLD or k == SHOWDOWN
                                                       or not any_positive(own_reach[level])):
                # nothing to win or lose below; training still walks on while the traverser
                # reaches the subtree, because its strategy sum must be accumulated there
                values[level] = 0.0
                level -= 1
                continue
            if deal_pass == DealPass.RECORD and k != DECISION:
                if k == CHANCE:
                    arriving_opp_reach[chance_index[node]] = opp_reach[level]
                    arriving_own_reach[chance_index[node]] = own_reach[level]
                values[level] = 0.0
                level -= 1
                continue
            if k == FOLD:
                folder = actor[node]
                put_in = invest[node, folder]
                if quantity == Quantity.VALUE:  # net of half the root pot
                    value = -(0.5 * pot + put_in) if folder == traverser else 0.5 * pot + put_in
                elif quantity == Quantity.FINAL_POT:
                    value = pot + 2.0 * put_in
                else:
                    value = 0.0
                compatible_mass(opp_reach[level], own_cards, opp_cards, same_combo, values[level], card_acc, value)
                level -= 1
                continue
            values[level] = 0.0
            if k == SHOWDOWN:  # after running the board out if needed
                final_pot = pot + 2.0 * invest[node, 0]
                if quantity == Quantity.VALUE:  # net of half the root pot
                    coef_compat, coef_diff = 0.0, 0.5 * final_pot
                elif quantity == Quantity.FINAL_POT:
                    coef_compat, coef_diff = final_pot, 0.0
                else:
                    coef_compat, coef_diff = 1.0, 0.0
                if board_len[node] == 5:  # the hot case, inline
                    b = board_index[d1 + 1, d2 + 1]
                    showdown_accumulate(own_tables[b], own_valid[b], opp_tables[b], opp_valid[b], opp_reach[level],
                                        same_combo, coef_compat, coef_diff, 1.0, values[level], card_acc)
                else:
                    showdown_values(game, traverser, board_len[node], d1, d2, coef_compat, coef_diff,
                                    opp_reach[level], values[level], card_acc)
                level -= 1
                continue
            if k == CHANCE:
                deal_weight[level] = 1.0 / (52 - board_len[node] - 4)  # each card's probability
                if sampling:
                    deal_weight[level] *= sample_deal(sampled[level], walked[level], sample_key, node, d1, d2,
                                                      root_mask, iso_card[d1 + 1], sampled_cards)
            if k == CHANCE and deal_pass == DealPass.REPLAY:
                # the root street's deal: its subtrees were walked as jobs; sum them in card order
                chance = chance_index[node]
                w = deal_weight[level]
                for c in range(52):
                    if root_mask[c] or (sampling and not sampled[level, c]):
                        continue
                    canon = iso_card[0, c]
                    job = job_values[job_of[chance, canon]]
                    image = own_images[iso_id[0, c]]
                    for h in range(n_own):
                        if own_cards[h, 0] != c and own_cards[h, 1] != c:
                            values[level, h] += w * (job[h] if canon == c else job[image[h]])
                level -= 1
                continue
            frame_card[level] = -1
            if k == DECISION:
                player = actor[node]
                n_actions = n_children[node]
                n_hands = n_own if player == traverser else n_opp
                block = state_offset[node] + slot[d1 + 1, d2 + 1] * n_actions * n_hands
                frame_block[level] = block
                # two calls, not one on a chosen table: compressed, the two tables' types differ
                if mode == Mode.TRAIN or mode == Mode.CURRENT:
                    regret_matching(regrets[player], block, n_actions, n_hands, strategy[level])
                else:
                    regret_matching(strategy_sums[player], block, n_actions, n_hands, strategy[level])
        else:  # a child has returned its values in values[level + 1]
            if k == DECISION:
                if actor[node] == traverser:
                    action_values[level, step - 1] = values[level + 1]
                else:
                    for h in range(n_own):
                        values[level, h] += values[level + 1, h]
            else:
                c = frame_card[level]
                dealt_values[level, c] = values[level + 1]
                if not sampling or sampled[level, c]:
                    w = deal_weight[level]
                    for h in range(n_own):
                        if own_cards[h, 0] != c and own_cards[h, 1] != c:
                            values[level, h] += w * values[level + 1, h]
        if k == CHANCE:
            # deal the next card not on the board; every card unseen by both hands is equally likely
            w = deal_weight[level]
            c = frame_card[level] + 1
            while c < 52:
                if not (root_mask[c] or c == d1 or c == d2):
                    canon = iso_card[d1 + 1, c]
                    if canon == c:
                        if not sampling or walked[level, c]:
                            break
                        c += 1
                        continue
                    if sampling and not sampled[level, c]:
                        c += 1
                        continue
                    # suit-isomorphic to a card already dealt here: permute its values
                    image = own_images[iso_id[d1 + 1, c]]
                    for h in range(n_own):
                        if own_cards[h, 0] != c and own_cards[h, 1] != c:
                            values[level, h] += w * dealt_values[level, canon, image[h]]
                c += 1
            if c == 52:
                level -= 1
                continue
            frame_card[level] = c
            frame_step[level] = step + 1
            reach_without_card(opp_reach[level + 1], opp_reach[level], opp_cards, c)
            reach_without_card(own_reach[level + 1], own_reach[level], own_cards, c)
            frame_node[level + 1] = first_child[node]
            frame_step[level + 1] = 0
            if d1 < 0:
                frame_first[level + 1], frame_second[level + 1] = c, -1
            else:
                frame_first[level + 1], frame_second[level + 1] = d1, c
            level += 1
            continue
        # a decision node: walk the next action, or return the node's values
        n_actions = n_children[node]
        player = actor[node]
        if step < n_actions:
            if player == traverser:
                opp_reach[level + 1] = opp_reach[level]
                for h in range(n_own):
                    own_reach[level + 1, h] = own_reach[level, h] * strategy[level, step, h]
            else:
                for o in range(n_opp):
                    opp_reach[level + 1, o] = opp_reach[level, o] * strategy[level, step, o]
                own_reach[level + 1] = own_reach[level]
            frame_node[level + 1] = first_child[node] + step
            frame_step[level + 1] = 0
            frame_first[level + 1], frame_second[level + 1] = d1, d2
            frame_step[level] = step + 1
            level += 1
            continue
        if player == traverser and deal_pass != DealPass.RECORD:
            value = values[level]
            if mode == Mode.BEST_RESPONSE:
                value[:] = action_values[level, 0]
                for a in range(1, n_actions):
                    for h in range(n_own):
                        value[h] = max(value[h], action_values[level, a, h])
            else:
                value[:] = 0.0
                for a in range(n_actions):
                    for h in range(n_own):
                        value[h] += strategy[level, a, h] * action_values[level, a, h]
                if mode == Mode.TRAIN:
                    update_node(regrets[traverser], strategy_sums[traverser], regret_scales[traverser],
                                sum_scales[traverser], block_offset[node] + slot[d1 + 1, d2 + 1], frame_block[level],
                                n_actions, n_own, action_values[level], value, own_reach[level], strategy[level],
                                discount)
        level -= 1
    return values[0]
