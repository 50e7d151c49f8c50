"""The depth-first walk of the template tree."""

from __future__ import annotations

from numba import njit

from pokerlab.postflop.dcfr import _regret_strategy
from pokerlab.postflop.runouts import _showdown
from pokerlab.postflop.showdown import compatible_mass, showdown_accumulate
from pokerlab.postflop.tree import CHANCE, DECISION, FOLD, SHOWDOWN

TRAIN, BEST_RESPONSE, EVALUATE = 0, 1, 2
VALUE, FINAL_POT, SHOWDOWN_PROB = 0, 1, 2
JOB, RECORD, REPLAY = 0, 1, 2  # how a walk treats the root street's chance nodes


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
