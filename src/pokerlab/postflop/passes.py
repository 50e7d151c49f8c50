"""One iteration's walks in three passes, the root street's dealt subtrees run as jobs on threads."""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.postflop.threads import PRANGE_ONLY, fetch_add as _fetch_add, ticks as _ticks
from pokerlab.postflop.tree import CHANCE, PublicTree
from pokerlab.postflop.walk import BEST_RESPONSE, EVALUATE, JOB, RECORD, REPLAY, TRAIN, _fill_reach, _walk
from pokerlab.postflop.workspace import _workspace


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
