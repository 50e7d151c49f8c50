"""One iteration's walks in three passes, the root street's dealt subtrees run as jobs on threads.

Threads
    The subtrees after the root street's deals (the turn cards of a flop root, the river
    cards of a turn root) are independent: each reads and writes only the state stored for
    its own card. A walk therefore runs in three passes (:func:`iterate`): the root street is
    walked to record the reach arriving at each deal (``DealPass.RECORD``), the dealt subtrees
    are walked as jobs (``DealPass.JOB``; ``numba.prange`` in :func:`run_jobs_parallel`, as
    many threads as ``numba.get_num_threads()``, each taking the next job from a shared
    counter, largest subtrees first), and the root street is walked again, adding the jobs'
    values in card order (``DealPass.REPLAY``). Nothing depends on which thread ran which job,
    so 1 or 2 threads give the same bytes. With one thread, or on a river root (no deal), no
    parallel code runs at all.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from pokerlab.postflop.arrays import (DealArrays, GameArrays, PlayerArrays, RootDeals, SolverState, TreeArrays,
                                      named_game)
from pokerlab.postflop.sampling import sample_deal
from pokerlab.postflop.threads import PRANGE_ONLY, cycle_counter, fetch_add
from pokerlab.postflop.tree import CHANCE, PublicTree
from pokerlab.postflop.walk import (MODES, QUANTITIES, DealPass, Mode, PassBuffers, Quantity, WalkSpec, WalkStart,
                                    reach_without_card, walk)
from pokerlab.postflop.workspace import new_workspace
from pokerlab.rng import stream_state


@njit(cache=True, fastmath=True)
def run_jobs(worker, game, state, spec, buffers, limits, next_job, ticks):
    """Walk the root street's dealt subtrees (``spec.deal_pass`` is JOB), taking jobs from the
    shared counter ``next_job`` until none is left; adds this worker's busy ticks and job count
    to ``ticks[1 + worker]``. ``limits`` is the tree's (depth, most actions at a node)."""
    # the arrays the loop reads, taken out of the named tuples once (see walk.walk)
    first_child, chance_nodes, jobs = game.tree.first_child, game.root_deals.chance_nodes, game.root_deals.jobs
    arriving_opp_reach, arriving_own_reach, job_values = buffers
    own_cards, opp_cards = game.players[spec.traverser].cards, game.players[1 - spec.traverser].cards
    workspace = new_workspace(own_cards.shape[0], opp_cards.shape[0], limits[0], limits[1])
    opp_job_reach = np.empty(opp_cards.shape[0])
    own_job_reach = np.empty(own_cards.shape[0])
    root_mask, iso_row = game.deals.root_mask, game.deals.iso_card[0]
    sampled, walked = np.zeros(52, np.bool_), np.zeros(52, np.bool_)
    mine = ticks[1 + worker]
    while True:
        j = fetch_add(next_job, 1)
        if j >= jobs.shape[0]:
            break
        t0 = cycle_counter()
        chance, card = jobs[j, 0], jobs[j, 1]
        if spec.mode == Mode.TRAIN and spec.sampled_cards > 0:  # walk only the sampled cards' subtrees
            sample_deal(sampled, walked, spec.sample_key, chance_nodes[chance], -1, -1, root_mask, iso_row,
                        spec.sampled_cards)
            if not walked[card]:
                continue
        reach_without_card(opp_job_reach, arriving_opp_reach[chance], opp_cards, card)
        reach_without_card(own_job_reach, arriving_own_reach[chance], own_cards, card)
        start = WalkStart(np.int64(first_child[chance_nodes[chance]]), card, -1, opp_job_reach, own_job_reach)
        job_values[j] = walk(game, state, spec, start, buffers, workspace)
        mine[0] += cycle_counter() - t0
        mine[1] += 1


@njit(cache=True, fastmath=True, parallel=PRANGE_ONLY)
def run_jobs_parallel(n_workers, game, state, spec, buffers, limits, next_job, ticks):
    """:func:`run_jobs` on ``n_workers`` threads (``numba.prange``, one worker per thread)."""
    # A parallel loop takes arrays and scalars from outside, not tuples holding arrays (Numba):
    # take the named tuples apart here and build them again inside.
    tree, deals, root_deals, (oop, ip) = game
    kind, actor, board_len, invest, first_child, n_children, state_offset, block_offset, pot = tree
    root_mask, board_index, slot, iso_card, iso_id, runout_index = deals
    chance_index, chance_nodes, jobs, job_of = root_deals
    cards_0, same_0, tables_0, n_valid_0, images_0, runouts_0 = oop
    cards_1, same_1, tables_1, n_valid_1, images_1, runouts_1 = ip
    (regrets_0, regrets_1), (sums_0, sums_1), (regret_scales_0, regret_scales_1), (sum_scales_0, sum_scales_1) = state
    arriving_opp, arriving_own, job_values = buffers
    traverser, mode, quantity, deal_pass, (positive, negative, average, by_reach), sampled_cards, sample_key = spec
    depth, max_actions = limits
    for worker in prange(n_workers):  # static schedule: one per thread
        game_j = GameArrays(
            TreeArrays(kind, actor, board_len, invest, first_child, n_children, state_offset, block_offset, pot),
            DealArrays(root_mask, board_index, slot, iso_card, iso_id, runout_index),
            RootDeals(chance_index, chance_nodes, jobs, job_of),
            (PlayerArrays(cards_0, same_0, tables_0, n_valid_0, images_0, runouts_0),
             PlayerArrays(cards_1, same_1, tables_1, n_valid_1, images_1, runouts_1)),
        )
        state_j = SolverState((regrets_0, regrets_1), (sums_0, sums_1), (regret_scales_0, regret_scales_1),
                              (sum_scales_0, sum_scales_1))
        run_jobs(worker, game_j, state_j,
                 WalkSpec(traverser, mode, quantity, deal_pass, (positive, negative, average, by_reach), sampled_cards,
                          sample_key),
                 PassBuffers(arriving_opp, arriving_own, job_values), (depth, max_actions), next_job, ticks)


@njit(cache=True, fastmath=True)
def iterate(plain_game, plain_state, weights, discounts, mode, quantity, traversers, limits, n_workers, ticks,
            sampling):
    """Run one DCFR iteration per row of ``discounts`` (see :func:`.dcfr.dcfr_discounts`;
    Mode.TRAIN) or one walk (BEST_RESPONSE, EVALUATE, CURRENT: one row, ignored), each walking the
    players in ``traversers`` in turn from the root, where they arrive with their ``weights``;
    returns the root values (see :mod:`.walk`) of the last walk, net of half the pot for
    Quantity.VALUE. ``mode``, ``quantity``: the values of a Mode and a Quantity member (see
    ``walk.MODES``); ``plain_game``, ``plain_state``: the game's arrays and the solver's state
    as plain tuples (see :func:`~pokerlab.postflop.arrays.plain_tuples`); ``limits``: the
    tree's (depth, most actions at a node). ``sampling``: (cards dealt per chance node in
    training, 0 for every card; seed; number of the first iteration), see :mod:`.sampling`.

    A walk is three passes when the root street has chance nodes (see the module docstring).
    Job ``j`` writes only ``job_values[j]`` and the state slots of its own card, so the results
    do not depend on the number of threads or on which thread ran which job. With
    ``n_workers`` > 1 the jobs run on that many threads, each taking the next job from a shared
    counter, so a thread slowed by other work on its core does fewer jobs instead of holding
    the others up at the end of the pass; with 1 they run on the calling thread.

    ``ticks`` ((1 + threads, 8) int64, one cache line per row) gathers time-stamp-counter ticks:
    ``ticks[0, 0]`` the root street's passes, ``ticks[1 + i, :2]`` worker ``i``'s time in jobs
    and its number of jobs.
    """
    game, state = named_game(plain_game), SolverState(*plain_state)
    walk_mode, walk_quantity = MODES[mode], QUANTITIES[quantity]
    n_chance, n_jobs = game.root_deals.chance_nodes.size, game.root_deals.jobs.shape[0]
    values = np.zeros(0)
    sampled_cards, seed, first_iteration = sampling
    for t in range(discounts.shape[0]):
        discount = (discounts[t, 0], discounts[t, 1], discounts[t, 2], discounts[t, 3])
        for traverser in traversers:
            key = stream_state(seed, 2 * (first_iteration + t) + traverser)
            opp_weights, own_weights = weights[1 - traverser], weights[traverser]
            n_own, n_opp = own_weights.size, opp_weights.size
            workspace = new_workspace(n_own, n_opp, limits[0], limits[1])
            buffers = PassBuffers(np.zeros((n_chance, n_opp)), np.zeros((n_chance, n_own)), np.zeros((n_jobs, n_own)))
            root = WalkStart(0, -1, -1, opp_weights, own_weights)
            t0 = cycle_counter()
            if n_chance > 0:
                record = WalkSpec(traverser, walk_mode, walk_quantity, DealPass.RECORD, discount, sampled_cards, key)
                walk(game, state, record, root, buffers, workspace)
                ticks[0, 0] += cycle_counter() - t0
                next_job = np.zeros(1, np.int64)
                jobs = WalkSpec(traverser, walk_mode, walk_quantity, DealPass.JOB, discount, sampled_cards, key)
                if n_workers > 1:
                    run_jobs_parallel(min(n_workers, n_jobs), game, state, jobs, buffers, limits, next_job, ticks)
                else:
                    run_jobs(0, game, state, jobs, buffers, limits, next_job, ticks)
                t0 = cycle_counter()
            replay = WalkSpec(traverser, walk_mode, walk_quantity, DealPass.REPLAY, discount, sampled_cards, key)
            values = walk(game, state, replay, root, buffers, workspace).copy()
            ticks[0, 0] += cycle_counter() - t0
    return values


@njit(cache=True, fastmath=True)
def subtree_values(plain_game, plain_state, traverser, node, first_card, second_card, opp_reach, limits):
    """The traverser's values (Quantity.VALUE, see :mod:`.walk`) at ``node``, reached after the
    dealt cards (-1: none) with the opponent's ``opp_reach`` and its own reach 1, both players
    on their average strategies: one single-threaded walk (``plain_game``, ``plain_state``,
    ``limits`` as in :func:`iterate`)."""
    game = named_game(plain_game)
    n_own, n_opp = game.players[traverser].cards.shape[0], opp_reach.size
    spec = WalkSpec(traverser, Mode.EVALUATE, Quantity.VALUE, DealPass.JOB, (1.0, 1.0, 1.0, 1.0), 0, np.uint64(0))
    start = WalkStart(node, first_card, second_card, opp_reach, np.ones(n_own))
    unused = PassBuffers(np.zeros((1, n_opp)), np.zeros((1, n_own)), np.zeros((1, n_own)))  # no root deal below
    workspace = new_workspace(n_own, n_opp, limits[0], limits[1])
    return walk(game, SolverState(*plain_state), spec, start, unused, workspace).copy()


def subtree_work(tree: PublicTree, node: int) -> float:
    """Nodes below ``node`` (itself included), a node after a further deal counting 45 times:
    the relative work of walking the subtree."""
    work = 1.0
    for child in tree.children(node):
        work += (45.0 if tree.kind[node] == CHANCE else 1.0) * subtree_work(tree, child)
    return work


def root_deals(tree: PublicTree, board: tuple[int, ...], iso_card: np.ndarray) -> RootDeals:
    """The root street's chance nodes and the jobs that walk their dealt subtrees: one per
    chance node and representative card (see :class:`~pokerlab.postflop.arrays.RootDeals`)."""
    chance_nodes = np.flatnonzero((tree.kind == CHANCE) & (tree.board_len == len(board))).astype(np.int64)
    chance_index = np.full(tree.n_nodes, -1, np.int64)
    chance_index[chance_nodes] = np.arange(chance_nodes.size)
    cards = [c for c in range(52) if c not in board and iso_card[0, c] == c]
    # largest subtrees first (threads take jobs in this order, so the small ones fill the gaps
    # at the end), then card by card
    work = [subtree_work(tree, int(tree.first_child[n])) for n in chance_nodes]
    lines = sorted(range(chance_nodes.size), key=lambda ci: (-work[ci], ci))
    jobs = np.array([(ci, c) for ci in lines for c in cards], np.int64).reshape(-1, 2)
    job_of = np.full((chance_nodes.size, 52), -1, np.int64)
    job_of[jobs[:, 0], jobs[:, 1]] = np.arange(jobs.shape[0])
    return RootDeals(chance_index, chance_nodes, jobs, job_of)
