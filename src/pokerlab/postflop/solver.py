"""Discounted CFR over the public postflop tree, vectorised over each player's combos.

Algorithm
    Discounted CFR (Brown & Sandholm 2019) with ``alpha = 1.5, beta = 0, gamma = 3`` and
    alternating updates (OOP, then IP, each iteration): before iteration ``t`` adds its
    regrets, positive cumulative regrets are scaled by ``(t-1)^1.5 / ((t-1)^1.5 + 1)`` and
    negative ones by ``1/2``; the average strategy is the reach-weighted sum of played
    strategies, the running sum scaled by ``((t-1)/t)^3`` each iteration (gamma 3 reached the
    reference trees' 0.05% in ~5% fewer iterations than 2; beta 0.5 took ~25% more). What
    the solver reports is the average strategy. ``dcfr`` (see :func:`dcfr_discounts`) changes
    the parameters. Measured in iterations to the target (reference turn to 0.05%, the wide
    ranges on a turn to 0.3%): alpha 1.5 took 209 / 251, alpha 1, 2, 3 took 1191 / 755,
    271 / 303, 313 / 371; postflop-solver's restart of the average at powers of 4 was within
    10% either way (turn 220, flop to 0.1% 127 against ~131, slower on the wide turn after the
    restart at 257), and its average of unweighted strategies took 243 / 292: both left off.

Walk
    One depth-first Numba walk (``_walk``, with an explicit stack) over the template tree
    serves training, best response and read-out. It carries the opponent's reach (a vector
    over its combos) and the traverser's own reach down, and returns the traverser's
    counterfactual values: for hand ``h``, the sum over opponent combos ``o`` sharing no card
    with ``h`` (or the board) of ``reach(o) x P(chance) x payoff``. A chance node deals each
    card not on the board; for a fixed pair of hands every card unseen by both is equally
    likely, so each deal has probability ``1 / (52 - board cards - 4)`` and hands holding the
    dealt card drop out. Boards are run out the same way after an all-in. Showdowns on the
    river use the sorted sweep of :mod:`pokerlab.postflop.showdown`; a showdown before the
    river (an all-in) is one product of the opponent's reach with a run-out matrix built once
    (wins minus losses over every run-out, see :func:`_runout_matrices`) instead of a sweep
    per run-out (44 on the turn, 990 on the flop).

Threads
    The subtrees after the root street's deals (the turn cards of a flop root, the river
    cards of a turn root) are independent: each reads and writes only the state stored for
    its own card. A walk therefore runs in three passes (``_iterate``): the root street is
    walked to record the reach arriving at each deal, the dealt subtrees are walked as
    parallel jobs (``numba.prange`` in ``_run_jobs_parallel``, as many threads as
    ``numba.get_num_threads()``, each taking the next job from a shared counter, largest
    subtrees first), and the root street is walked again, adding the jobs' values in card
    order. Nothing depends on which thread ran which job, so 1 or 2 threads give the same
    bytes. With one thread, or on a river root (no deal), no parallel code runs at all.

Suit isomorphism
    When a suit permutation maps the board and both ranges onto themselves, a chance node
    walks one card per class and gives the others its values with the hands permuted (see
    :func:`suit_isomorphism`: a two-tone flop deals 36 turns instead of 49). The results are
    those of the full walk; ``isomorphism=False`` switches it off.

Values
    "Share" values: what a player ends the hand with minus what it put in since the root, so
    the two players' shares always sum to the starting pot ``P``. A winner at showdown gets
    ``P + b``, the loser ``-b``, a tie ``P/2`` (``b`` = chips each put in since the root).
    The walk itself works net of ``P/2`` (win ``P/2 + b``, lose ``-(P/2 + b)``, tie 0, a fold
    ``-(P/2 + b)`` for the folder): over all terminals below a node the ``P/2`` part adds up
    to the same amount whatever a player does there, so regrets and best responses are
    unchanged, a showdown needs no pass for the compatible weight, and the read-out adds
    ``P/2`` times the compatible opponent weight back at the root.

Exploitability (the convention of TexasSolver and postflop-solver)
    ``(BR_oop + BR_ip - P) / 2`` chips, where ``BR_p`` is player ``p``'s best-response value
    (share) against the other's average strategy; reported also as % of ``P``.

Numerics
    The kernels are compiled with ``fastmath`` (about 40% faster on the reference turn tree):
    every value is finite, and only the rounding of sums may differ from strict IEEE order.

Memory
    Regrets and strategy sums are float32, stored per decision node once per chance outcome
    the walk visits (isomorphic deals share their representative's); ``memory_bytes`` states
    the total with the showdown tables, and construction refuses a tree above ``max_memory_mb``.
"""

from __future__ import annotations

import itertools
import math
import time
from typing import Callable

import numba
import numpy as np
from llvmlite import ir
from numba import njit, prange, types
from numba.core import cgutils
from numba.extending import intrinsic

from pokerlab.cards import COMBO_CARDS, COMBO_INDEX
from pokerlab.postflop.game import PLAYER_NAMES, PostflopSpot
from pokerlab.postflop.result import PostflopResult, player_result
from pokerlab.postflop.showdown import board_tables, compatible_mass, river_boards, showdown_accumulate
from pokerlab.postflop.tree import CHANCE, DECISION, FOLD, SHOWDOWN, PublicTree, build_tree

TRAIN, BEST_RESPONSE, EVALUATE = 0, 1, 2
VALUE, FINAL_POT, SHOWDOWN_PROB = 0, 1, 2
JOB, RECORD, REPLAY = 0, 1, 2  # how a walk treats the root street's chance nodes
DCFR = (1.5, 0.0, 3.0, False)  # alpha, beta, gamma, reset of the average (see dcfr_discounts)
STATE_DTYPE = np.float32  # regrets and strategy sums


@intrinsic
def _ticks(typingctx):
    """The CPU's time-stamp counter (wall-clock ticks, counted while the thread is descheduled too)."""
    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), []),
                                            "llvm.readcyclecounter")
        return builder.call(fn, [])
    return types.int64(), codegen


@intrinsic
def _fetch_add(typingctx, counter, value):
    """Atomically add ``value`` to ``counter[0]`` (an int64 array) and return the old value."""
    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        ptr = cgutils.get_item_pointer(context, builder, signature.args[0], array,
                                       [context.get_constant(types.intp, 0)])
        return builder.atomic_rmw("add", ptr, args[1], "monotonic")
    return types.int64(counter, types.int64), codegen


@njit(cache=True, fastmath=True)
def _regret_strategy(table, base, n_actions, n_hands, sigma):
    """Regret matching on the positive part of ``table``'s block (regrets, or a strategy sum for
    the average strategy); uniform where nothing is positive. Writes ``sigma[:n_actions, :n_hands]``
    (row ``n_actions`` is scratch). Loops run over hands innermost, so they vectorise."""
    total = sigma[n_actions]
    total[:n_hands] = 0.0
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            total[h] += max(row[h], 0.0)
    uniform = 1.0 / n_actions
    for a in range(n_actions):
        row = table[base + a * n_hands:base + (a + 1) * n_hands]
        for h in range(n_hands):
            sigma[a, h] = max(row[h], 0.0) / total[h] if total[h] > 0.0 else uniform


@njit(cache=True, fastmath=True)
def _showdown(trav, blen, d1, d2, coef_compat, coef_diff, opp_reach, out, card_acc, G):
    """Add the showdown sums of ``showdown_accumulate`` over every run-out of the current board.

    Run-outs are equally likely for a fixed pair of hands: 1/44 for one card to come, 1/990
    for an unordered pair of cards among the 45 unseen. Before the river the sums come from
    the board's run-out matrix (see :func:`_runout_matrices`) and the compatible weight, which
    every run-out of a compatible pair adds up to; hands holding a dealt card get values the
    walk never reads.
    """
    root_mask, same, tables, n_valid, board_index = G[7], G[11], G[12], G[13], G[14]
    runout_ix, runout = G[22], G[23]
    same_t = same[trav]
    tab_t, tab_o, nv_t, nv_o = tables[trav], tables[1 - trav], n_valid[trav], n_valid[1 - trav]
    if blen == 5:
        b = board_index[d1 + 1, d2 + 1]
        showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                            coef_compat, coef_diff, 1.0, out, card_acc)
    elif runout_ix[d1 + 1] >= 0:
        if coef_compat != 0.0:
            cards = G[10]
            cards_t, cards_o = cards[trav], cards[1 - trav]
            card_acc[:] = 0.0
            total = 0.0
            for o in range(opp_reach.size):
                r = opp_reach[o]
                total += r
                card_acc[cards_o[o, 0]] += r
                card_acc[cards_o[o, 1]] += r
            for h in range(cards_t.shape[0]):
                m = total - card_acc[cards_t[h, 0]] - card_acc[cards_t[h, 1]]
                if same_t[h] >= 0:
                    m += opp_reach[same_t[h]]
                out[h] += coef_compat * m
        if coef_diff != 0.0:
            matrix = runout[trav][runout_ix[d1 + 1]]
            for h in range(matrix.shape[0]):
                acc = 0.0
                for o in range(matrix.shape[1]):
                    acc += matrix[h, o] * opp_reach[o]
                out[h] += coef_diff * acc
    elif blen == 4:
        for c in range(52):
            if root_mask[c] or c == d1:
                continue
            b = board_index[c + 1, 0] if d1 < 0 else board_index[d1 + 1, c + 1]
            showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                                coef_compat, coef_diff, 1.0 / 44.0, out, card_acc)
    else:
        for c1 in range(52):
            if root_mask[c1]:
                continue
            for c2 in range(c1 + 1, 52):
                if not root_mask[c2]:
                    b = board_index[c1 + 1, c2 + 1]
                    showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_reach, same_t,
                                        coef_compat, coef_diff, 1.0 / 990.0, out, card_acc)


@njit(cache=True, fastmath=True)
def _any_positive(row):
    """Whether some entry is > 0 (stops at the first: cheaper than ``row.max() > 0``)."""
    for x in row:
        if x > 0.0:
            return True
    return False


@njit(cache=True, fastmath=True)
def _fill_reach(dst, src, cards, c):
    """``dst = src`` with the hands holding card ``c`` zeroed."""
    for h in range(src.size):
        dst[h] = 0.0 if (cards[h, 0] == c or cards[h, 1] == c) else src[h]


@njit(cache=True)
def _workspace(n_t, n_o, max_depth, max_actions):
    """The arrays a walk of a traverser with ``n_t`` hands against ``n_o`` works in (see ``_walk``):
    allocated once per pass and thread, not once per walk (a turn root's ~150 jobs per pass are
    each a river street of a few microseconds). Nothing in them needs clearing between walks."""
    n_wide = max(n_t, n_o)
    return (np.empty((max_depth, n_o)), np.empty((max_depth, n_t)), np.empty((max_depth, n_t)),
            np.empty((max_depth, max_actions, n_t)), np.empty((max_depth, max_actions + 1, n_wide)),
            np.empty(52), np.empty((6, max_depth), np.int64), np.empty((max_depth, 52, n_t)))


@njit(cache=True, fastmath=True)
def _walk(trav, mode, qty, opp_root, own_root, start, first_card, second_card, split, G, R, S, disc,
          rec_opp, rec_own, job_vals, workspace):
    """Counterfactual values of ``trav``'s hands at node ``start`` (a depth-first walk, explicit stack).

    Each stack level ``sp`` holds a node, the dealt cards ``d1, d2`` that reach it, the
    opponent's and the traverser's reach, and the values returned so far. ``mode`` is TRAIN
    (DCFR update of ``trav``'s regrets and strategy sum, both players on current strategies),
    BEST_RESPONSE (``trav`` maximises, opponent on its average) or EVALUATE (both on their
    averages); ``qty`` chooses the terminal quantity (VALUE, FINAL_POT, SHOWDOWN_PROB).
    ``split`` says what happens at the root street's chance nodes (see ``_iterate``): RECORD
    stores the reach arriving there in ``rec_opp``/``rec_own`` and evaluates nothing, REPLAY
    sums the dealt subtrees' values from ``job_vals``; JOB walks one dealt subtree (``start``
    the first node after the deal of ``first_card``), which holds no such chance node. A walk
    may also start below two deals (``first_card``, ``second_card``; -1 for none): the read-out
    of a later street's node (``PostflopSolver.subtree_values``).

    ``workspace`` comes from :func:`_workspace` (this traverser's hand counts); the values are
    returned as a view of it, valid until its next walk.
    """
    (kind, actor, board_len, invest, first_child, n_children, offset, root_mask, slot,
     pot, cards, same, tables, n_valid, board_index, iso_card, iso_id, iso_perm,
     chance_ix, chance_nodes, jobs, job_of, runout_ix, runout) = G
    opp = 1 - trav
    same_t = same[trav]
    tab_t, tab_o, nv_t, nv_o = tables[trav], tables[opp], n_valid[trav], n_valid[opp]
    cards_t, cards_o = cards[trav], cards[opp]
    n_t, n_o = cards_t.shape[0], cards_o.shape[0]
    # per stack level: reaches, values, children's values, strategy (+ a scratch row), frame
    # fields, and a chance node's values per dealt card
    opp_r, own_r, out, cfv, sig, card_acc, frames, dealt_out = workspace
    f_node, f_step, f_d1, f_d2, f_card, f_base = frames[0], frames[1], frames[2], frames[3], frames[4], frames[5]
    opp_r[0] = opp_root
    own_r[0] = own_root
    f_node[0] = start
    f_step[0] = 0
    f_d1[0] = first_card
    f_d2[0] = second_card
    sp = 0
    while sp >= 0:
        node = f_node[sp]
        k = kind[node]
        step = f_step[sp]
        d1, d2 = f_d1[sp], f_d2[sp]
        if step == 0:  # entering the node
            if not _any_positive(opp_r[sp]) and (mode != TRAIN or k == FOLD or k == SHOWDOWN
                                                 or not _any_positive(own_r[sp])):
                # nothing to win or lose below; training still walks on while the traverser
                # reaches the subtree, because its strategy sum must be accumulated there
                out[sp] = 0.0
                sp -= 1
                continue
            if split == RECORD and k != DECISION:
                if k == CHANCE:
                    rec_opp[chance_ix[node]] = opp_r[sp]
                    rec_own[chance_ix[node]] = own_r[sp]
                out[sp] = 0.0
                sp -= 1
                continue
            if k == FOLD:
                compatible_mass(opp_r[sp], cards_t, cards_o, same_t, out[sp], card_acc)
                folder = actor[node]
                put_in = invest[node, folder]
                if qty == VALUE:  # net of half the root pot
                    value = -(0.5 * pot + put_in) if folder == trav else 0.5 * pot + put_in
                elif qty == FINAL_POT:
                    value = pot + 2.0 * put_in
                else:
                    value = 0.0
                for h in range(n_t):  # explicit loops: Numba's in-place array operators cost 5x more here
                    out[sp, h] *= value
                sp -= 1
                continue
            out[sp] = 0.0
            if k == SHOWDOWN:  # after running the board out if needed
                final_pot = pot + 2.0 * invest[node, 0]
                if qty == VALUE:  # net of half the root pot
                    cc, cd = 0.0, 0.5 * final_pot
                elif qty == FINAL_POT:
                    cc, cd = final_pot, 0.0
                else:
                    cc, cd = 1.0, 0.0
                if board_len[node] == 5:  # the hot case, without passing G
                    b = board_index[d1 + 1, d2 + 1]
                    showdown_accumulate(tab_t[b], nv_t[b], tab_o[b], nv_o[b], opp_r[sp], same_t, cc, cd, 1.0,
                                        out[sp], card_acc)
                else:
                    _showdown(trav, board_len[node], d1, d2, cc, cd, opp_r[sp], out[sp], card_acc, G)
                sp -= 1
                continue
            if k == CHANCE and split == REPLAY:
                # the root street's deal: its subtrees were walked as jobs; sum them in card order
                ci = chance_ix[node]
                w = 1.0 / (52 - board_len[node] - 4)
                for c in range(52):
                    if root_mask[c]:
                        continue
                    canon = iso_card[0, c]
                    vals = job_vals[job_of[ci, canon]]
                    perm = iso_perm[trav][iso_id[0, c]]
                    for h in range(n_t):
                        if cards_t[h, 0] != c and cards_t[h, 1] != c:
                            out[sp, h] += w * (vals[h] if canon == c else vals[perm[h]])
                sp -= 1
                continue
            f_card[sp] = -1
            if k == DECISION:
                player = actor[node]
                n_act = n_children[node]
                path = slot[d1 + 1, d2 + 1]
                n_p = n_t if player == trav else n_o
                base = offset[node] + path * n_act * n_p
                f_base[sp] = base
                table = R[player] if mode == TRAIN else S[player]
                _regret_strategy(table, base, n_act, n_p, sig[sp])
        else:  # a child has returned its values in out[sp + 1]
            if k == DECISION:
                if actor[node] == trav:
                    cfv[sp, step - 1] = out[sp + 1]
                else:
                    for h in range(n_t):
                        out[sp, h] += out[sp + 1, h]
            else:
                c = f_card[sp]
                dealt_out[sp, c] = out[sp + 1]
                w = 1.0 / (52 - board_len[node] - 4)
                for h in range(n_t):
                    if cards_t[h, 0] != c and cards_t[h, 1] != c:
                        out[sp, h] += w * out[sp + 1, h]
        if k == CHANCE:
            # deal the next card not on the board; every card unseen by both hands is equally likely
            w = 1.0 / (52 - board_len[node] - 4)
            c = f_card[sp] + 1
            while c < 52:
                if not (root_mask[c] or c == d1 or c == d2):
                    canon = iso_card[d1 + 1, c]
                    if canon == c:
                        break
                    # suit-isomorphic to a card already dealt here: permute its values
                    perm = iso_perm[trav][iso_id[d1 + 1, c]]
                    for h in range(n_t):
                        if cards_t[h, 0] != c and cards_t[h, 1] != c:
                            out[sp, h] += w * dealt_out[sp, canon, perm[h]]
                c += 1
            if c == 52:
                sp -= 1
                continue
            f_card[sp] = c
            f_step[sp] = step + 1
            _fill_reach(opp_r[sp + 1], opp_r[sp], cards_o, c)
            _fill_reach(own_r[sp + 1], own_r[sp], cards_t, c)
            f_node[sp + 1] = first_child[node]
            f_step[sp + 1] = 0
            if d1 < 0:
                f_d1[sp + 1], f_d2[sp + 1] = c, -1
            else:
                f_d1[sp + 1], f_d2[sp + 1] = d1, c
            sp += 1
            continue
        # decision node
        n_act = n_children[node]
        player = actor[node]
        if step < n_act:
            if player == trav:
                opp_r[sp + 1] = opp_r[sp]
                for h in range(n_t):
                    own_r[sp + 1, h] = own_r[sp, h] * sig[sp, step, h]
            else:
                for o in range(n_o):
                    opp_r[sp + 1, o] = opp_r[sp, o] * sig[sp, step, o]
                own_r[sp + 1] = own_r[sp]
            f_node[sp + 1] = first_child[node] + step
            f_step[sp + 1] = 0
            f_d1[sp + 1], f_d2[sp + 1] = d1, d2
            f_step[sp] = step + 1
            sp += 1
            continue
        if player == trav and split != RECORD:
            value = out[sp]
            if mode == BEST_RESPONSE:
                value[:] = cfv[sp, 0]
                for a in range(1, n_act):
                    for h in range(n_t):
                        value[h] = max(value[h], cfv[sp, a, h])
            else:
                value[:] = 0.0
                for a in range(n_act):
                    for h in range(n_t):
                        value[h] += sig[sp, a, h] * cfv[sp, a, h]
                if mode == TRAIN:
                    pos, neg, gam = disc
                    base = f_base[sp]
                    for a in range(n_act):
                        reg = R[trav][base + a * n_t:base + (a + 1) * n_t]
                        ssum = S[trav][base + a * n_t:base + (a + 1) * n_t]
                        for h in range(n_t):
                            r = reg[h]
                            reg[h] = r * (pos if r > 0.0 else neg) + (cfv[sp, a, h] - value[h])
                            ssum[h] = ssum[h] * gam + own_r[sp, h] * sig[sp, a, h]
        sp -= 1
    return out[0]


@njit(cache=True, fastmath=True)
def _run_jobs(worker, trav, mode, qty, G, R, S, disc, max_depth, max_actions, rec_opp, rec_own, job_vals, next_job,
              ticks):
    """Walk the root street's dealt subtrees (see ``_iterate``), taking jobs from the shared
    counter ``next_job`` until none is left; adds this worker's busy ticks and job count to
    ``ticks[1 + worker]``."""
    cards, chance_nodes, jobs, first_child = G[10], G[19], G[20], G[4]
    cards_t, cards_o = cards[trav], cards[1 - trav]
    n_t, n_o = cards_t.shape[0], cards_o.shape[0]
    workspace = _workspace(n_t, n_o, max_depth, max_actions)
    opp_j = np.empty(n_o)
    own_j = np.empty(n_t)
    mine = ticks[1 + worker]
    while True:
        j = _fetch_add(next_job, 1)
        if j >= jobs.shape[0]:
            break
        tj = _ticks()
        ci, c = jobs[j, 0], jobs[j, 1]
        _fill_reach(opp_j, rec_opp[ci], cards_o, c)
        _fill_reach(own_j, rec_own[ci], cards_t, c)
        job_vals[j] = _walk(trav, mode, qty, opp_j, own_j, first_child[chance_nodes[ci]], c, -1, JOB, G, R, S, disc,
                            rec_opp, rec_own, job_vals, workspace)
        mine[0] += _ticks() - tj
        mine[1] += 1


# Only the explicit prange is parallel. The function holds nothing else: Numba turns an
# np.zeros in a parallel function into a parallel loop even with "numpy" off, and a river root
# (no deal to share out) ran 3x slower on 2 threads than on 1 when the walk's allocations
# lived in the parallel function.
PRANGE_ONLY = {"comprehension": False, "reduction": False, "inplace_binop": False, "setitem": False,
               "numpy": False, "stencil": False, "fusion": False, "prange": True}


@njit(cache=True, fastmath=True, parallel=PRANGE_ONLY)
def _run_jobs_parallel(n_workers, trav, mode, qty, G, R, S, disc, max_depth, max_actions, rec_opp, rec_own,
                       job_vals, next_job, ticks):
    """:func:`_run_jobs` on ``n_workers`` threads (``numba.prange``, one worker per thread)."""
    # a parallel loop cannot take tuples of arrays from outside: unpack here, rebuild inside
    (kind, actor, board_len, invest, first_child, n_children, offset, root_mask, slot,
     pot, cards, same, tables, n_valid, board_index, iso_card, iso_id, iso_perm,
     chance_ix, chance_nodes, jobs, job_of, runout_ix, runout) = G
    cards_0, cards_1 = cards
    run_0, run_1 = runout
    same_0, same_1 = same
    tables_0, tables_1 = tables
    n_valid_0, n_valid_1 = n_valid
    perm_0, perm_1 = iso_perm
    reg_0, reg_1 = R
    sum_0, sum_1 = S
    for worker in prange(n_workers):  # static schedule: one per thread
        G_j = (kind, actor, board_len, invest, first_child, n_children, offset, root_mask, slot,
               pot, (cards_0, cards_1), (same_0, same_1), (tables_0, tables_1),
               (n_valid_0, n_valid_1), board_index, iso_card, iso_id, (perm_0, perm_1),
               chance_ix, chance_nodes, jobs, job_of, runout_ix, (run_0, run_1))
        _run_jobs(worker, trav, mode, qty, G_j, (reg_0, reg_1), (sum_0, sum_1), disc, max_depth, max_actions,
                  rec_opp, rec_own, job_vals, next_job, ticks)


@njit(cache=True, fastmath=True)
def _iterate(G, R, S, weights, discounts, mode, qty, travs, max_depth, max_actions, n_workers, ticks):
    """Run one DCFR iteration per row of ``discounts`` (see :func:`dcfr_discounts`; mode TRAIN)
    or one walk (BEST_RESPONSE, EVALUATE: one row, ignored), each walking the players in
    ``travs`` in turn; returns the root values (see ``_walk``) of the last walk, net of half the
    pot for VALUE.

    A walk is three passes when the root street has chance nodes: RECORD walks the root
    street and keeps the reach arriving at each deal; the dealt subtrees are walked as jobs (one
    per chance node and representative card; job ``j`` writes only ``job_vals[j]`` and the
    state slots of its own card, so the results do not depend on the number of threads or on
    which thread ran which job); REPLAY walks the root street again, summing the jobs' values
    in card order. With ``n_workers`` > 1 the jobs run on that many threads, each taking the
    next job from a shared counter (the jobs are listed largest subtree first), so a thread
    slowed by other work on its core does fewer jobs instead of holding the others up at the
    end of the pass; with 1 they run on the calling thread.

    ``ticks`` ((1 + threads, 8) int64, one cache line per row) gathers time-stamp-counter ticks:
    ``ticks[0, 0]`` the root street's passes, ``ticks[1 + i, :2]`` worker ``i``'s time in jobs
    and its number of jobs.
    """
    chance_nodes, jobs = G[19], G[20]
    n_chance = chance_nodes.size
    values = np.zeros(0)
    for t in range(discounts.shape[0]):
        disc = (discounts[t, 0], discounts[t, 1], discounts[t, 2])
        for trav in travs:
            opp_w, own_w = weights[1 - trav], weights[trav]
            n_t, n_o = own_w.size, opp_w.size
            workspace = _workspace(n_t, n_o, max_depth, max_actions)
            rec_opp = np.zeros((n_chance, n_o))
            rec_own = np.zeros((n_chance, n_t))
            job_vals = np.zeros((jobs.shape[0], n_t))
            t0 = _ticks()
            if n_chance > 0:
                _walk(trav, mode, qty, opp_w, own_w, 0, -1, -1, RECORD, G, R, S, disc, rec_opp, rec_own, job_vals,
                      workspace)
                ticks[0, 0] += _ticks() - t0
                next_job = np.zeros(1, np.int64)
                if n_workers > 1:
                    _run_jobs_parallel(min(n_workers, jobs.shape[0]), trav, mode, qty, G, R, S, disc, max_depth,
                                       max_actions, rec_opp, rec_own, job_vals, next_job, ticks)
                else:
                    _run_jobs(0, trav, mode, qty, G, R, S, disc, max_depth, max_actions, rec_opp, rec_own, job_vals,
                              next_job, ticks)
                t0 = _ticks()
            values = _walk(trav, mode, qty, opp_w, own_w, 0, -1, -1, REPLAY, G, R, S, disc, rec_opp, rec_own,
                           job_vals, workspace).copy()
            ticks[0, 0] += _ticks() - t0
    return values


@njit(cache=True, fastmath=True, parallel=PRANGE_ONLY)
def _runout_matrices(tab_0, nv_0, tab_1, nv_1, cards_0, cards_1, board_index, root_mask, prefixes, root_len):
    """(K, n_0, n_1) float64: for each prefix ``d1`` in ``prefixes`` (-1: the root board, else
    the root board plus card ``d1``), the sum over the board's run-outs to the river, each with
    its probability, of +1 where OOP's hand beats IP's, -1 where it loses, 0 for a tie or a
    pair of hands sharing a card or colliding with the run-out. A showdown before the river is
    then one product with the opponent's reach instead of a sweep per run-out (44 for one card
    to come, 990 for two). IP's matrices are the negated transposes."""
    n_0, n_1 = cards_0.shape[0], cards_1.shape[0]
    out = np.zeros((prefixes.size, n_0, n_1))
    for k in prange(prefixes.size):
        d1 = prefixes[k]
        rank_0 = np.empty(n_0, np.int64)
        rank_1 = np.empty(n_1, np.int64)
        mat = out[k]
        for c1 in range(52):
            for c2 in range(c1 + 1, 53):
                # the run-out boards: one card c1 after the prefix's four cards, or two cards c1 < c2
                if root_len + (d1 >= 0) == 4:
                    if c2 != 52 or root_mask[c1] or c1 == d1:
                        continue
                    b = board_index[c1 + 1, 0] if d1 < 0 else board_index[d1 + 1, c1 + 1]
                else:
                    if c2 == 52 or root_mask[c1] or root_mask[c2]:
                        continue
                    b = board_index[c1 + 1, c2 + 1]
                rank_0[:] = -1
                rank_1[:] = -1
                for i in range(nv_0[b]):
                    rank_0[tab_0[b, 0, i]] = tab_0[b, 1, i]
                for i in range(nv_1[b]):
                    rank_1[tab_1[b, 0, i]] = tab_1[b, 1, i]
                for h in range(n_0):
                    if rank_0[h] < 0:
                        continue
                    a, z = cards_0[h, 0], cards_0[h, 1]
                    for o in range(n_1):
                        if rank_1[o] < 0 or rank_1[o] == rank_0[h]:
                            continue
                        if cards_1[o, 0] == a or cards_1[o, 0] == z or cards_1[o, 1] == a or cards_1[o, 1] == z:
                            continue
                        mat[h, o] += 1.0 if rank_0[h] > rank_1[o] else -1.0
        # counts of won minus lost run-outs, divided once: an always-won pair gets exactly 1
        runouts = 44.0 if root_len + (d1 >= 0) == 4 else 990.0
        for h in range(n_0):
            for o in range(n_1):
                mat[h, o] /= runouts
    return out


@njit(cache=True, fastmath=True)
def _root_equity(G, weights, trav):
    """Checked-down equity share of each hand times its compatible opponent weight."""
    out = np.zeros(weights[trav].size)
    _showdown(trav, G[2][0], -1, -1, 0.5, 0.5, weights[1 - trav], out, np.empty(52), G)
    return out


@njit(cache=True)
def _ticks_now():
    return _ticks()


def ticks_per_second(span: float = 0.05) -> float:
    """Rate of the time-stamp counter behind ``PostflopSolver.ticks``, measured over ``span`` s."""
    _ticks_now()
    t0, k0 = time.perf_counter(), _ticks_now()
    while time.perf_counter() - t0 < span:
        pass
    return (_ticks_now() - k0) / (time.perf_counter() - t0)


def dcfr_discounts(t_start: int, n_iterations: int, alpha: float, beta: float, gamma: float,
                   reset: bool) -> np.ndarray:
    """(n, 3) discounts of DCFR iterations ``t_start ..`` (1-based): the factor on positive
    regrets ``s^alpha / (s^alpha + 1)``, on negative ones ``s^beta / (s^beta + 1)`` and on the
    strategy sum ``(u / (u + 1))^gamma``, with ``s = t - 1`` and ``u = s``, or with ``reset``
    ``u = s - `` the largest power of 4 not above ``s`` (the sum restarts at iterations 2, 5,
    17, 65, 257, ...: early strategies leave the average, as in postflop-solver)."""
    s = np.arange(t_start - 1, t_start - 1 + n_iterations, dtype=np.float64)
    u = s.copy()
    if reset:
        power = np.where(s >= 1, 4.0 ** np.floor(np.log(np.maximum(s, 1)) / np.log(4) + 1e-9), 0.0)
        u = s - power
    out = np.empty((n_iterations, 3))
    out[:, 0] = s**alpha / (s**alpha + 1.0)
    out[:, 1] = s**beta / (s**beta + 1.0)
    out[:, 2] = (u / (u + 1.0)) ** gamma
    return out


SUIT_PERMUTATIONS = np.array(list(itertools.permutations(range(4))), dtype=np.int64)  # (24, 4)


def suit_isomorphism(board: tuple[int, ...], hands: tuple[np.ndarray, ...], weights: tuple[np.ndarray, ...],
                     enabled: bool = True) -> tuple[np.ndarray, np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Tables that let a chance node deal one card per suit-isomorphism class.

    A suit permutation ``pi`` that maps the board onto itself and leaves both ranges' weights
    unchanged maps the game after card ``c`` onto the game after ``pi(c)``, hand ``h`` onto
    ``pi(h)``. For the board after the first dealt card ``d1`` (-1: none),
    ``iso_card[d1 + 1, c]`` is the smallest card ``c`` maps to (``c`` itself when it is its
    class's representative, or when ``enabled`` is False), ``iso_id[d1 + 1, c]`` a permutation
    doing it, and ``perm[p][k, h]`` the index of ``pi_k(h)`` in player ``p``'s hand list.
    Values after ``c`` are then ``values_after_iso_card[perm[p][iso_id, h]]``.
    """
    n_perm = SUIT_PERMUTATIONS.shape[0]
    cards = np.arange(52)
    mapped = 4 * (cards[None, :] >> 2) + SUIT_PERMUTATIONS[:, cards & 3]  # (24, 52): pi_k(card)
    perm = []
    symmetric = np.ones(n_perm, dtype=bool)
    for h, w in zip(hands, weights):
        position = np.full(1326, -1, np.int64)
        position[h] = np.arange(h.size)
        lo, hi = COMBO_CARDS[h, 0], COMBO_CARDS[h, 1]
        image = position[COMBO_INDEX[mapped[:, lo], mapped[:, hi]]]  # (24, n)
        perm.append(np.ascontiguousarray(image))
        symmetric &= np.all(image >= 0, axis=1)
        symmetric &= np.array([np.array_equal(w[image[k]], w) if symmetric[k] else False for k in range(n_perm)])
    iso_card = np.tile(cards, (53, 1))
    iso_id = np.zeros((53, 52), np.int64)  # permutation 0 is the identity
    if enabled:
        for first in range(-1, 52):
            if first in board:
                continue
            fixed = set(board) | ({first} if first >= 0 else set())
            keeps = [k for k in range(n_perm) if symmetric[k] and set(mapped[k, list(fixed)].tolist()) == fixed]
            if len(keeps) < 2:
                continue
            images = mapped[keeps]  # (valid, 52)
            best = images.argmin(axis=0)
            iso_card[first + 1] = images[best, cards]
            iso_id[first + 1] = np.asarray(keeps)[best]
    return iso_card, iso_id, (perm[0], perm[1])


def _outcome_slots(board: tuple[int, ...], iso_card: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Storage slot of each chance outcome the walk visits: ``slot[d1 + 1, d2 + 1]`` for the
    dealt cards ``d1``, ``d2`` (-1: not dealt), -1 for suit-isomorphic outcomes never walked;
    and the number of slots per number of dealt cards (0, 1, 2)."""
    slot = np.full((53, 53), -1, np.int64)
    slot[0, 0] = 0
    counts = [1, 0, 0]
    deck = [c for c in range(52) if c not in board]
    for d1 in deck if len(board) < 5 else []:
        if iso_card[0, d1] != d1:
            continue
        slot[d1 + 1, 0] = counts[1]
        counts[1] += 1
        for d2 in deck if len(board) < 4 else []:
            if d2 != d1 and iso_card[d1 + 1, d2] == d2:
                slot[d1 + 1, d2 + 1] = counts[2]
                counts[2] += 1
    return slot, counts


def _subtree_work(tree: PublicTree, node: int) -> float:
    """Nodes below ``node`` (itself included), a node after a further deal counting 45 times:
    the relative work of walking the subtree."""
    work = 1.0
    for child in tree.children(node):
        work += (45.0 if tree.kind[node] == CHANCE else 1.0) * _subtree_work(tree, child)
    return work


def _root_deals(tree: PublicTree, board: tuple[int, ...], iso_card: np.ndarray):
    """The root street's chance nodes and the jobs that walk their dealt subtrees.

    Returns ``chance_ix`` (per node: its index among the root street's chance nodes, -1 for
    other nodes), ``chance_nodes``, ``jobs`` ((n, 2): chance index, representative card, in
    that order) and ``job_of`` ((n_chance, 52): job of each representative card, -1 otherwise).
    """
    chance_nodes = np.flatnonzero((tree.kind == CHANCE) & (tree.board_len == len(board))).astype(np.int64)
    chance_ix = np.full(tree.n_nodes, -1, np.int64)
    chance_ix[chance_nodes] = np.arange(chance_nodes.size)
    cards = [c for c in range(52) if c not in board and iso_card[0, c] == c]
    # largest subtrees first (threads take jobs in this order, so the small ones fill the gaps
    # at the end), then card by card
    work = [_subtree_work(tree, int(tree.first_child[n])) for n in chance_nodes]
    lines = sorted(range(chance_nodes.size), key=lambda ci: (-work[ci], ci))
    jobs = np.array([(ci, c) for ci in lines for c in cards], np.int64).reshape(-1, 2)
    job_of = np.full((chance_nodes.size, 52), -1, np.int64)
    job_of[jobs[:, 0], jobs[:, 1]] = np.arange(jobs.shape[0])
    return chance_ix, chance_nodes, jobs, job_of


def _runouts(tree: PublicTree, board: tuple[int, ...], iso_card: np.ndarray, tables, cards, board_index,
             root_mask) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """Run-out matrices (see :func:`_runout_matrices`) of the boards a showdown before the river
    is evaluated on: the root board (for the read-out's equities too) and, under a flop root
    whose tree has all-ins on the turn, the root plus each representative turn card. Returns
    ``runout_ix`` ((53,): matrix of prefix ``d1`` at ``d1 + 1``, -1 for none) and the matrices
    per player (traverser's hands x opponent's)."""
    runout_ix = np.full(53, -1, np.int64)
    prefixes = []
    if len(board) < 5:
        prefixes.append(-1)
        turn_allins = np.any((tree.kind == SHOWDOWN) & (tree.board_len == 4))
        if len(board) == 3 and turn_allins:
            prefixes += [c for c in range(52) if c not in board and iso_card[0, c] == c]
    runout_ix[np.array(prefixes, np.int64) + 1] = np.arange(len(prefixes))
    (tab_0, nv_0), (tab_1, nv_1) = tables
    oop = _runout_matrices(tab_0, nv_0, tab_1, nv_1, cards[0], cards[1], board_index.astype(np.int64), root_mask,
                           np.array(prefixes, np.int64), len(board))
    return runout_ix, (oop, np.ascontiguousarray(-oop.transpose(0, 2, 1)))


class PostflopSolver:
    """Holds a spot's tree, hands, showdown tables and DCFR state; see the module docstring."""

    def __init__(self, spot: PostflopSpot, max_memory_mb: float = 4096.0, isomorphism: bool = True,
                 dcfr: tuple[float, float, float, bool] = DCFR):
        self.spot = spot
        self.dcfr = dcfr
        self.tree: PublicTree = build_tree(spot)
        ranges = spot.ranges
        self.hands = tuple(np.flatnonzero(r > 0) for r in ranges)  # combo indices per player
        self.weights = tuple(np.ascontiguousarray(r[h]) for r, h in zip(ranges, self.hands))
        cards = tuple(np.ascontiguousarray(COMBO_CARDS[h].astype(np.int64)) for h in self.hands)
        position = [np.full(1326, -1, np.int64) for _ in range(2)]
        for p in range(2):
            position[p][self.hands[p]] = np.arange(self.hands[p].size)
        same = (position[1][self.hands[0]], position[0][self.hands[1]])
        boards, board_index = river_boards(spot.board)
        tables = board_tables(boards, cards)
        root_mask = np.zeros(52, dtype=np.bool_)
        root_mask[list(spot.board)] = True
        iso = suit_isomorphism(spot.board, self.hands, self.weights, isomorphism)
        slot, outcomes_by_dealt = _outcome_slots(spot.board, iso[0])
        tree = self.tree
        deals = _root_deals(tree, spot.board, iso[0])
        start = time.perf_counter()
        runout_ix, runout = _runouts(tree, spot.board, iso[0], tables, cards, board_index, root_mask)
        self.build_seconds = {"runout matrices": time.perf_counter() - start}
        offsets = np.zeros(tree.n_nodes, np.int64)
        sizes = [0, 0]
        root_len = len(spot.board)
        for node in tree.decision_nodes():
            player = int(tree.actor[node])
            outcomes = outcomes_by_dealt[int(tree.board_len[node]) - root_len]
            offsets[node] = sizes[player]
            sizes[player] += int(tree.n_children[node]) * self.hands[player].size * outcomes
        table_bytes = sum(t.nbytes + v.nbytes for t, v in tables) + sum(m.nbytes for m in runout)
        state_bytes = 2 * np.dtype(STATE_DTYPE).itemsize * (sizes[0] + sizes[1])  # regrets + sums
        self.memory_bytes = int(state_bytes + table_bytes)
        if self.memory_bytes > max_memory_mb * 2**20:
            raise ValueError(
                f"postflop tree needs {self.memory_bytes / 2**20:.0f} MiB, above max_memory_mb={max_memory_mb:g}:"
                " use fewer bet sizes, narrower ranges or a later street"
            )
        self._G = (
            tree.kind, tree.actor, tree.board_len, tree.invest, tree.first_child, tree.n_children, offsets,
            root_mask, slot, float(spot.pot), cards, same,
            tuple(t for t, _ in tables), tuple(v for _, v in tables), board_index, *iso, *deals,
            runout_ix, runout,
        )
        self._R = tuple(np.zeros(max(s, 1), STATE_DTYPE) for s in sizes)
        self._S = tuple(np.zeros(max(s, 1), STATE_DTYPE) for s in sizes)
        self._limits = (tree.depth + 1, max(1, int(tree.n_children[tree.decision_nodes()].max())))
        self.iterations = 0
        self.seconds = 0.0
        self.ticks = np.zeros((numba.config.NUMBA_NUM_THREADS + 1, 8), np.int64)  # see _iterate
        self.phase_seconds = {"train": 0.0, "exploitability": 0.0, "read-out": 0.0}
        self._compat = tuple(self._compatible(p) for p in range(2))
        self.pair_mass = float(self.weights[0] @ self._compat[0])

    @property
    def iso_card(self) -> np.ndarray:
        """(53, 52) representative card of each deal (see :func:`suit_isomorphism`)."""
        return self._G[15]

    def _compatible(self, player: int) -> np.ndarray:
        out = np.empty(self.weights[player].size)
        cards, same = self._G[10], self._G[11]
        compatible_mass(self.weights[1 - player], cards[player], cards[1 - player], same[player], out, np.empty(52))
        return out

    # --- solving ------------------------------------------------------------------------------

    def run(self, iterations: int) -> None:
        """Continue DCFR for ``iterations`` more iterations (warm: state is kept)."""
        if iterations <= 0:
            return
        start = time.perf_counter()
        discounts = dcfr_discounts(self.iterations + 1, int(iterations), *self.dcfr)
        _iterate(self._G, self._R, self._S, self.weights, discounts, TRAIN, VALUE, np.array([0, 1]), *self._limits,
                 numba.get_num_threads(), self.ticks)
        self.iterations += int(iterations)
        self.seconds += time.perf_counter() - start
        self.phase_seconds["train"] += time.perf_counter() - start

    def root_values(self, player: int, mode: int = EVALUATE, qty: int = VALUE) -> np.ndarray:
        """Per-hand root sums (see ``_walk``) for ``player`` under the average strategies."""
        values = _iterate(self._G, self._R, self._S, self.weights, np.ones((1, 3)), mode, qty, np.array([player]),
                          *self._limits, numba.get_num_threads(), self.ticks)
        if qty == VALUE:  # the walk's values are net of half the root pot
            values += 0.5 * self.spot.pot * self._compat[player]
        return values

    def best_response_values(self) -> tuple[float, float]:
        """Each player's best-response value (share of the pot, chips) against the other's average."""
        return tuple(float(self.weights[p] @ self.root_values(p, BEST_RESPONSE)) / self.pair_mass for p in range(2))

    def exploitability(self) -> float:
        """``(BR_oop + BR_ip - pot) / 2`` in chips (see the module docstring)."""
        br = self.best_response_values()
        return (br[0] + br[1] - self.spot.pot) / 2.0

    def solve(
        self,
        target_pct_pot: float = 0.05,
        max_iterations: int = 2000,
        check_every: int = 10,
        progress: Callable[[int, float], None] | None = None,
    ) -> float:
        """Iterate until exploitability <= ``target_pct_pot`` % of the pot or ``max_iterations``.

        Exploitability is measured after ``check_every`` iterations and then again after at
        least ``check_every`` more (a measurement costs about two iterations): while it is far
        above the target the gap grows to half the iterations still needed if exploitability
        keeps falling as fast as between the last two measurements (and at least as fast as
        1/iterations), at most doubling the count. Returns the last measured exploitability in
        % of the pot; ``progress(iterations, pct_pot)`` is called after each measurement.
        """
        if not target_pct_pot >= 0 or max_iterations < 1 or check_every < 1:
            raise ValueError("solve: need target_pct_pot >= 0, max_iterations >= 1, check_every >= 1")
        pct = math.inf
        step = check_every
        last = None
        while self.iterations < max_iterations:
            self.run(min(step, max_iterations - self.iterations))
            start = time.perf_counter()
            pct = 100.0 * self.exploitability() / self.spot.pot
            self.seconds += time.perf_counter() - start
            self.phase_seconds["exploitability"] += time.perf_counter() - start
            if progress is not None:
                progress(self.iterations, pct)
            if pct <= target_pct_pot:
                break
            step = check_every
            if target_pct_pot > 0 and pct > 0:
                rate = 1.0  # exploitability ~ iterations^-rate
                if last is not None and last[1] > pct:
                    rate = max(rate, math.log(last[1] / pct) / math.log(self.iterations / last[0]))
                still_needed = self.iterations * ((pct / target_pct_pot) ** (1.0 / rate) - 1.0)
                step = int(max(check_every, min(self.iterations, still_needed / 2)))
            last = (self.iterations, pct)
        return pct

    # --- strategies ---------------------------------------------------------------------------

    def _block(self, table, node: int, dealt: tuple[int, ...]) -> np.ndarray:
        """View of ``table``'s (actions x hands) block of decision ``node`` after ``dealt`` cards."""
        offsets, slot = self._G[6], self._G[8]
        path = int(slot[dealt[0] + 1 if dealt else 0, dealt[1] + 1 if len(dealt) > 1 else 0])
        if path < 0:
            raise ValueError(f"no strategy is stored after {dealt}: a suit-isomorphic deal stands for it")
        player = int(self.tree.actor[node])
        n_act, n_p = int(self.tree.n_children[node]), self.hands[player].size
        base = int(offsets[node]) + path * n_act * n_p
        return table[player][base : base + n_act * n_p].reshape(n_act, n_p)

    def average_strategy(self, node: int, dealt: tuple[int, ...] = ()) -> np.ndarray:
        """(actions x hands) average strategy at decision ``node`` after the ``dealt`` cards."""
        block = np.maximum(self._block(self._S, node, dealt).astype(np.float64), 0.0)
        total = block.sum(axis=0)
        return np.where(total > 0, block / np.where(total > 0, total, 1.0), 1.0 / block.shape[0])

    def set_average_strategy(self, node: int, dealt: tuple[int, ...], strategy: np.ndarray) -> None:
        """Overwrite the average strategy at ``node`` (e.g. with another solver's, for read-out)."""
        block = self._block(self._S, node, dealt)
        block[...] = np.asarray(strategy, dtype=block.dtype).reshape(block.shape)

    def strategy_sums(self) -> bytes:
        """The average-strategy state (both players' strategy sums, float32 little-endian, OOP
        then IP): with the spot, all a read-out needs (see :meth:`load_strategy_sums`)."""
        return b"".join(np.ascontiguousarray(s, dtype="<f4").tobytes() for s in self._S)

    def load_strategy_sums(self, data: bytes) -> None:
        """Restore the state saved by :meth:`strategy_sums` (same spot and isomorphism setting)."""
        sizes = [s.size for s in self._S]
        arr = np.frombuffer(data, dtype="<f4")
        if arr.size != sum(sizes):
            raise ValueError(f"strategy sums: expected {sum(sizes)} float32 values for this tree, got {arr.size}")
        self._S[0][:] = arr[:sizes[0]]
        self._S[1][:] = arr[sizes[0]:]

    # --- read-out -----------------------------------------------------------------------------

    def subtree_values(self, start: int, player: int, opp_reach: np.ndarray, dealt: tuple[int, ...] = ()) -> np.ndarray:
        """Per hand of ``player``: the walk's sums (see ``_walk``, net of half the root pot) at node
        ``start``, reached after the ``dealt`` cards (none: a node of the root street), both
        players on their average strategies, the opponent arriving with ``opp_reach`` (its
        weights times its own path probabilities, aligned with ``self.hands[1 - player]``; zero
        it for combos holding a dealt card). The sums are conditional on the dealt cards. One
        single-threaded walk; a suit-isomorphic deal (no stored strategy) is refused."""
        n_t, n_o = self.hands[player].size, self.hands[1 - player].size
        opp = np.ascontiguousarray(opp_reach, dtype=np.float64)
        if opp.shape != (n_o,):
            raise ValueError(f"opp_reach: expected {n_o} values, got shape {opp.shape}")
        if len(dealt) > 2 or len(dealt) != int(self.tree.board_len[start]) - len(self.spot.board):
            raise ValueError(f"dealt: node {start} is reached after {int(self.tree.board_len[start]) - len(self.spot.board)}"
                             f" dealt card(s), got {dealt!r}")
        d1, d2 = (tuple(int(c) for c in dealt) + (-1, -1))[:2]
        if self._G[8][d1 + 1, d2 + 1] < 0:
            raise ValueError(f"no strategy is stored after {dealt}: a suit-isomorphic deal stands for it")
        n_chance = max(1, int(self._G[19].size))
        return _walk(player, EVALUATE, VALUE, opp, np.ones(n_t), int(start), d1, d2, JOB, self._G, self._R, self._S,
                     (1.0, 1.0, 1.0), np.zeros((n_chance, n_o)), np.zeros((n_chance, n_t)), np.zeros((1, n_t)),
                     _workspace(n_t, n_o, *self._limits)).copy()

    def compatible_reach(self, player: int, opp_reach: np.ndarray) -> np.ndarray:
        """Per hand of ``player``: the opponent reach held by combos sharing no card with it."""
        out = np.empty(self.hands[player].size)
        cards, same = self._G[10], self._G[11]
        compatible_mass(np.ascontiguousarray(opp_reach, dtype=np.float64), cards[player], cards[1 - player],
                        same[player], out, np.empty(52))
        return out


    def per_combo(self, player: int) -> dict[str, np.ndarray]:
        """Per hand of ``player`` (in ``self.hands[player]`` order) under the average strategies:
        ``ev`` (share of the pot, chips), ``equity``, ``exp_pot`` (final pot), ``p_showdown``."""
        compat = self._compat[player]
        safe = np.where(compat > 0, compat, 1.0)
        equity = _root_equity(self._G, self.weights, player)
        return {
            "ev": self.root_values(player, EVALUATE, VALUE) / safe,
            "equity": equity / safe,
            "exp_pot": self.root_values(player, EVALUATE, FINAL_POT) / safe,
            "p_showdown": self.root_values(player, EVALUATE, SHOWDOWN_PROB) / safe,
            "compat": compat,
        }

    def result(self) -> PostflopResult:
        """The normalised record of the current average strategies (see :mod:`.result`)."""
        start = time.perf_counter()
        players = {}
        for p, name in enumerate(PLAYER_NAMES):
            values = self.per_combo(p)
            players[name] = player_result(self.hands[p], self.weights[p], values["compat"], values)
        exploitability = self.exploitability()
        self.seconds += time.perf_counter() - start
        self.phase_seconds["read-out"] += time.perf_counter() - start
        return PostflopResult(
            solver="pokerlab",
            pot=self.spot.pot,
            stack=self.spot.stack,
            board=self.spot.board,
            players=players,
            exploitability_chips=exploitability,
            iterations=self.iterations,
            seconds=self.seconds,
            extra={"memory_bytes": self.memory_bytes, "threads": numba.get_num_threads()},
        )


def solve_spot(
    spot: PostflopSpot,
    target_pct_pot: float = 0.05,
    max_iterations: int = 2000,
    check_every: int = 10,
    progress: Callable[[int, float], None] | None = None,
    max_memory_mb: float = 4096.0,
    isomorphism: bool = True,
    threads: int | None = None,
) -> PostflopResult:
    """Solve ``spot`` to ``target_pct_pot`` % of the pot (or ``max_iterations``) and read it out,
    on ``threads`` Numba threads (None: Numba's current setting; the result is the same)."""
    return solve_spot_keeping(spot, target_pct_pot, max_iterations, check_every, progress, max_memory_mb,
                              isomorphism, threads)[0]


def solve_spot_keeping(
    spot: PostflopSpot,
    target_pct_pot: float = 0.05,
    max_iterations: int = 2000,
    check_every: int = 10,
    progress: Callable[[int, float], None] | None = None,
    max_memory_mb: float = 4096.0,
    isomorphism: bool = True,
    threads: int | None = None,
) -> tuple[PostflopResult, PostflopSolver]:
    """:func:`solve_spot`, also returning the solved :class:`PostflopSolver` (e.g. for a pack)."""
    available = numba.config.NUMBA_NUM_THREADS
    if threads is not None and not 1 <= threads <= available:
        raise ValueError(f"bad threads {threads!r}: expected 1 to {available} (NUMBA_NUM_THREADS)")
    previous = numba.get_num_threads()
    numba.set_num_threads(threads or previous)
    try:
        solver = PostflopSolver(spot, max_memory_mb=max_memory_mb, isomorphism=isomorphism)
        solver.solve(target_pct_pot, max_iterations, check_every, progress)
        return solver.result(), solver
    finally:
        numba.set_num_threads(previous)
