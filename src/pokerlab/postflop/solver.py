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

import math
import time
from typing import Callable

import numba
import numpy as np

from pokerlab.cards import COMBO_CARDS
from pokerlab.postflop.dcfr import DCFR, STATE_DTYPE, dcfr_discounts
from pokerlab.postflop.game import PLAYER_NAMES, PostflopSpot
from pokerlab.postflop.isomorphism import _outcome_slots, suit_isomorphism
from pokerlab.postflop.passes import _iterate, _root_deals
from pokerlab.postflop.result import PostflopResult, player_result
from pokerlab.postflop.runouts import _root_equity, _runouts
from pokerlab.postflop.showdown import board_tables, compatible_mass, river_boards
from pokerlab.postflop.threads import ticks_per_second
from pokerlab.postflop.tree import PublicTree, build_tree
from pokerlab.postflop.walk import BEST_RESPONSE, EVALUATE, FINAL_POT, JOB, SHOWDOWN_PROB, TRAIN, VALUE, _walk
from pokerlab.postflop.workspace import _workspace


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
