"""The postflop solver's face: Discounted CFR over the public tree, vectorised over each player's combos.

A :class:`PostflopSolver` holds a spot's template tree (:mod:`.tree`), the arrays the compiled
kernels read (:mod:`.arrays`) and what DCFR learns (regrets and strategy sums). The work is
split by concern:

- :mod:`.dcfr`: the discount schedule, regret matching and the per-node update;
- :mod:`.walk`: the depth-first walk serving training, best response and read-out, and the
  value convention;
- :mod:`.passes`: an iteration's walks in three passes, the root street's dealt subtrees run
  as jobs on threads (1 or 2 threads give the same bytes);
- :mod:`.showdown` and :mod:`.runouts`: showdowns on the river and before it;
- :mod:`.isomorphism`: dealing one card per class of suit-symmetric cards;
- :mod:`.workspace`: the walk's scratch arrays.

docs/postflop-solver.md gives the design and the tuning history.

Exploitability (the convention of TexasSolver and postflop-solver)
    ``(BR_oop + BR_ip - P) / 2`` chips, where ``BR_p`` is player ``p``'s best-response value
    (share of the pot) against the other's average strategy; reported also as % of ``P``.

Numerics
    The kernels are compiled with ``fastmath``: every value is finite, and only the rounding
    of sums may differ from strict IEEE order.

Memory
    ``memory_bytes`` states the state arrays (float32, or 16-bit with ``compression``: see
    :mod:`.arrays`) with the showdown tables and run-out matrices (the root board's counted even
    where only the read-out builds it: a tree without all-ins on its root street does not train
    on it); construction refuses a tree above ``max_memory_mb``. :meth:`PostflopSolver.state` and
    :meth:`PostflopSolver.load_state` save and restore the state arrays as they are stored.
"""

from __future__ import annotations

import math
import time
from typing import Callable

import numba
import numpy as np

from pokerlab.cards import COMBO_CARDS
from pokerlab.postflop.arrays import (DealArrays, GameArrays, PlayerArrays, SolverState, TreeArrays, outcome_slots,
                                      plain_tuples, table_bytes)
from pokerlab.postflop.dcfr import (DCFR, REGRET_DTYPE, STATE_DTYPE, SUM_DTYPE, SUM_STEPS, DcfrParams, dcfr_discounts,
                                    encode_sum_blocks, encode_unsigned)
from pokerlab.postflop.game import PLAYER_NAMES, PostflopSpot
from pokerlab.postflop.isomorphism import suit_isomorphism
from pokerlab.postflop.passes import iterate, root_deals, subtree_values
from pokerlab.postflop.result import PostflopResult, player_result
from pokerlab.postflop.runouts import build_runouts, root_equity, root_runouts
from pokerlab.postflop.showdown import board_tables, compatible_mass, river_boards
from pokerlab.postflop.threads import ticks_per_second
from pokerlab.postflop.tree import PublicTree, build_tree
from pokerlab.postflop.walk import Mode, Quantity, require_member

__all__ = ["DCFR", "DcfrParams", "Mode", "PostflopSolver", "Quantity", "dcfr_discounts", "solve_spot",
           "solve_spot_keeping", "suit_isomorphism", "ticks_per_second"]


def game_arrays(spot: PostflopSpot, tree: PublicTree, hands: tuple[np.ndarray, ...],
                weights: tuple[np.ndarray, ...], isomorphism: bool) -> tuple[GameArrays, list[np.ndarray], float]:
    """The :class:`GameArrays` of ``spot`` for the players' ``hands`` (combo indices) with their
    ``weights``; per player the size of each state block in storage order (see :mod:`.arrays`);
    and the seconds the run-out matrices took."""
    cards = tuple(np.ascontiguousarray(COMBO_CARDS[h].astype(np.int64)) for h in hands)
    position = [np.full(1326, -1, np.int64) for _ in range(2)]
    for p in range(2):
        position[p][hands[p]] = np.arange(hands[p].size)
    same_combo = (position[1][hands[0]], position[0][hands[1]])
    boards, board_index = river_boards(spot.board)
    tables = board_tables(boards, cards)
    root_mask = np.zeros(52, dtype=np.bool_)
    root_mask[list(spot.board)] = True
    iso_card, iso_id, suit_images = suit_isomorphism(spot.board, hands, weights, isomorphism)
    slot, outcomes_by_dealt = outcome_slots(spot.board, iso_card)
    start = time.perf_counter()
    runout_index, runouts = build_runouts(tree, spot.board, iso_card, tables, cards, board_index, root_mask)
    runout_seconds = time.perf_counter() - start
    state_offset = np.zeros(tree.n_nodes, np.int64)
    block_offset = np.zeros(tree.n_nodes, np.int64)
    sizes = [0, 0]
    block_sizes: list[list[int]] = [[], []]
    for node in tree.decision_nodes():
        player = int(tree.actor[node])
        outcomes = outcomes_by_dealt[int(tree.board_len[node]) - len(spot.board)]
        state_offset[node] = sizes[player]
        block_offset[node] = len(block_sizes[player])
        block_sizes[player] += [int(tree.n_children[node]) * hands[player].size] * outcomes
        sizes[player] += block_sizes[player][-1] * outcomes
    game = GameArrays(
        TreeArrays(tree.kind, tree.actor, tree.board_len, tree.invest, tree.first_child, tree.n_children,
                   state_offset, block_offset, float(spot.pot)),
        DealArrays(root_mask, board_index, slot, iso_card, iso_id, runout_index),
        root_deals(tree, spot.board, iso_card),
        tuple(PlayerArrays(cards[p], same_combo[p], tables[p][0], tables[p][1], suit_images[p], runouts[p])
              for p in range(2)),
    )
    return game, [np.array(b, np.int64) for b in block_sizes], runout_seconds


class PostflopSolver:
    """Holds a spot's tree, hands, showdown tables and DCFR state; see the module docstring.
    ``compression``: store regrets and strategy sums in 16 bits (see :mod:`.arrays`), halving
    the state's memory. ``sampled_cards``: train on that many cards per chance node, sampled
    with ``seed`` (public chance sampling, see :mod:`.sampling`); 0 (the default) deals every
    card."""

    def __init__(self, spot: PostflopSpot, max_memory_mb: float = 4096.0, isomorphism: bool = True,
                 dcfr: DcfrParams = DCFR, compression: bool = False, sampled_cards: int = 0, seed: int = 0):
        if sampled_cards < 0 or not 0 <= seed < 2**63:
            raise ValueError(f"sampled_cards must be >= 0 (got {sampled_cards}) and seed in [0, 2^63) (got {seed})")
        self.spot = spot
        self.dcfr = dcfr
        self.compression = compression
        self.sampled_cards, self.seed = int(sampled_cards), int(seed)
        self.tree: PublicTree = build_tree(spot)
        ranges = spot.ranges
        self.hands = tuple(np.flatnonzero(r > 0) for r in ranges)  # combo indices per player
        self.weights = tuple(np.ascontiguousarray(r[h]) for r, h in zip(ranges, self.hands))
        self._game, self._block_sizes, runout_seconds = game_arrays(spot, self.tree, self.hands, self.weights,
                                                                    isomorphism)
        self.build_seconds = {"runout matrices": runout_seconds}
        sizes = [int(b.sum()) for b in self._block_sizes]
        n_blocks = [b.size if compression else 0 for b in self._block_sizes]
        regret_dtype, sum_dtype = (REGRET_DTYPE, SUM_DTYPE) if compression else (STATE_DTYPE, STATE_DTYPE)
        state_bytes = ((np.dtype(regret_dtype).itemsize + np.dtype(sum_dtype).itemsize) * sum(sizes)
                       + 2 * np.dtype(np.float32).itemsize * sum(n_blocks))  # regrets, sums, their scales
        # the read-out's root run-out matrices, built on first use where the tree trains without them
        root_bytes = (4 * self.hands[0].size * self.hands[1].size
                      if len(spot.board) < 5 and self._game.deals.runout_index[0] < 0 else 0)
        self.memory_bytes = int(state_bytes + table_bytes(self._game) + root_bytes)
        if self.memory_bytes > max_memory_mb * 2**20:
            raise ValueError(
                f"postflop tree needs {self.memory_bytes / 2**20:.0f} MiB, above max_memory_mb={max_memory_mb:g}:"
                " use fewer bet sizes, narrower ranges or a later street"
            )
        self._state = SolverState(tuple(np.zeros(max(s, 1), regret_dtype) for s in sizes),
                                  tuple(np.zeros(max(s, 1), sum_dtype) for s in sizes),
                                  tuple(np.zeros(max(n, 1), np.float32) for n in n_blocks),
                                  tuple(np.zeros(max(n, 1), np.float32) for n in n_blocks))
        # what the compiled entry points take (see arrays.plain_tuples); the same arrays
        self._plain_game, self._plain_state = plain_tuples(self._game), plain_tuples(self._state)
        tree = self.tree
        self._limits = (tree.depth + 1, max(1, int(tree.n_children[tree.decision_nodes()].max())))  # depth, actions
        self.iterations = 0
        self.seconds = 0.0
        self.ticks = np.zeros((numba.config.NUMBA_NUM_THREADS + 1, 8), np.int64)  # see passes.iterate
        self.phase_seconds = {"train": 0.0, "exploitability": 0.0, "read-out": 0.0}
        self._root_runouts: tuple[np.ndarray, np.ndarray] | None = None
        self._compat = tuple(self.compatible_reach(p, self.weights[1 - p]) for p in range(2))
        self.pair_mass = float(self.weights[0] @ self._compat[0])

    def set_ranges(self, ranges: tuple[np.ndarray, np.ndarray]) -> None:
        """Give both players new root weights ((1326,) each, (oop, ip)) and keep the state: the
        next iterations continue from the same regrets and strategy sums. For a solve whose
        ranges move while it runs (the solved endings' joint solve). The combos in range must stay
        the same, and the weights must keep the suit symmetries the solver deals by."""
        weights = []
        used = np.unique(self._game.deals.iso_id)
        for p, (r, hands) in enumerate(zip(ranges, self.hands)):
            r = np.asarray(r, dtype=np.float64)
            if r.shape != (1326,) or not np.array_equal(np.flatnonzero(r > 0), hands):
                raise ValueError(f"set_ranges: player {p}'s range must weigh exactly the {hands.size} combos "
                                 "the solver was built with")
            w = np.ascontiguousarray(r[hands])
            images = self._game.players[p].suit_images
            if any(not np.array_equal(w[images[k]], w) for k in used):
                raise ValueError(f"set_ranges: player {p}'s weights break a suit symmetry the solver deals by")
            weights.append(w)
        self.weights = tuple(weights)
        self._compat = tuple(self.compatible_reach(p, self.weights[1 - p]) for p in range(2))
        self.pair_mass = float(self.weights[0] @ self._compat[0])

    def hand_ev(self, player: int, mode: Mode = Mode.EVALUATE) -> np.ndarray:
        """Per hand of ``player`` (in ``self.hands[player]`` order): its value (share of the pot,
        chips, per unit of compatible opponent weight) under ``mode`` (see :meth:`root_values`)."""
        compat = self._compat[player]
        return self.root_values(player, mode) / np.where(compat > 0, compat, 1.0)

    @property
    def iso_card(self) -> np.ndarray:
        """(53, 52) representative card of each deal (see :func:`suit_isomorphism`)."""
        return self._game.deals.iso_card

    # --- solving ------------------------------------------------------------------------------

    def run(self, iterations: int) -> None:
        """Continue DCFR for ``iterations`` more iterations (warm: state is kept)."""
        if iterations <= 0:
            return
        start = time.perf_counter()
        discounts = dcfr_discounts(self.iterations + 1, int(iterations), *self.dcfr)
        iterate(self._plain_game, self._plain_state, self.weights, discounts, int(Mode.TRAIN), int(Quantity.VALUE),
                np.array([0, 1]), self._limits, numba.get_num_threads(), self.ticks,
                (self.sampled_cards, self.seed, self.iterations + 1))
        self.iterations += int(iterations)
        self.seconds += time.perf_counter() - start
        self.phase_seconds["train"] += time.perf_counter() - start

    def root_values(self, player: int, mode: Mode = Mode.EVALUATE, quantity: Quantity = Quantity.VALUE) -> np.ndarray:
        """Per-hand root sums (see :mod:`.walk`) of ``quantity`` for ``player``: both players on
        their average strategies (Mode.EVALUATE) or their current ones (CURRENT), or ``player``
        best-responding to the other's average (BEST_RESPONSE)."""
        require_member(mode, Mode)
        require_member(quantity, Quantity)
        if mode == Mode.TRAIN:
            raise ValueError("root_values: Mode.TRAIN would change the state; use run()")
        values = iterate(self._plain_game, self._plain_state, self.weights, np.ones((1, 4)), int(mode), int(quantity),
                         np.array([player]), self._limits, numba.get_num_threads(), self.ticks, (0, 0, 0))
        if quantity == Quantity.VALUE:  # the walk's values are net of half the root pot
            values += 0.5 * self.spot.pot * self._compat[player]
        return values

    def best_response_values(self) -> tuple[float, float]:
        """Each player's best-response value (share of the pot, chips) against the other's average."""
        return tuple(float(self.weights[p] @ self.root_values(p, Mode.BEST_RESPONSE)) / self.pair_mass
                     for p in range(2))

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
        least ``check_every`` more (a measurement costs about one iteration): while it is far
        above the target the gap grows to a quarter of the iterations still needed if
        exploitability keeps falling as fast as between the last two measurements (and at least
        as fast as 1/iterations), at most doubling the count. A quarter, not a half: DCFR's
        exploitability has bumps, and a rate read across one overshot the wide flop's target by
        36 iterations in 246. Returns the last measured exploitability in % of the pot;
        ``progress(iterations, pct_pot)`` is called after each measurement.
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
                step = int(max(check_every, min(self.iterations, still_needed / 4)))
            last = (self.iterations, pct)
        return pct

    # --- strategies ---------------------------------------------------------------------------

    def _block(self, node: int, dealt: tuple[int, ...]) -> tuple[int, int, tuple[int, int]]:
        """Decision ``node``'s state block after the ``dealt`` cards: its number among the actor's
        blocks, its start in the actor's state arrays, its (actions, hands) shape."""
        slot = int(self._game.deals.slot[dealt[0] + 1 if dealt else 0, dealt[1] + 1 if len(dealt) > 1 else 0])
        if slot < 0:
            raise ValueError(f"no strategy is stored after {dealt}: a suit-isomorphic deal stands for it")
        player = int(self.tree.actor[node])
        n_act, n_p = int(self.tree.n_children[node]), self.hands[player].size
        base = int(self._game.tree.state_offset[node]) + slot * n_act * n_p
        return int(self._game.tree.block_offset[node]) + slot, base, (n_act, n_p)

    def average_strategy(self, node: int, dealt: tuple[int, ...] = ()) -> np.ndarray:
        """(actions x hands) average strategy at decision ``node`` after the ``dealt`` cards."""
        _, base, shape = self._block(node, dealt)
        sums = self._state.strategy_sums[int(self.tree.actor[node])]
        block = np.maximum(sums[base:base + shape[0] * shape[1]].reshape(shape).astype(np.float64), 0.0)
        total = block.sum(axis=0)
        return np.where(total > 0, block / np.where(total > 0, total, 1.0), 1.0 / block.shape[0])

    def set_average_strategy(self, node: int, dealt: tuple[int, ...], strategy: np.ndarray) -> None:
        """Overwrite the average strategy at ``node`` (e.g. with another solver's, for read-out)."""
        number, base, shape = self._block(node, dealt)
        player = int(self.tree.actor[node])
        sums = self._state.strategy_sums[player]
        strategy = np.asarray(strategy, dtype=np.float64).reshape(shape)
        if self.compression:
            self._state.sum_scales[player][number] = encode_unsigned(sums, base, strategy, *shape, strategy.max())
        else:
            sums[base:base + strategy.size] = strategy.ravel()

    def strategy_sums(self) -> bytes:
        """The average-strategy state (both players' strategy sums, float32 little-endian, OOP
        then IP, decoded if compressed): with the spot, all a read-out needs (see
        :meth:`load_strategy_sums`)."""
        sums = self._state.strategy_sums
        if self.compression:
            sums = [s.astype(np.float64) * np.repeat(scales.astype(np.float64) / SUM_STEPS, sizes)
                    if sizes.size else s
                    for s, scales, sizes in zip(sums, self._state.sum_scales, self._block_sizes)]
        return b"".join(np.ascontiguousarray(s, dtype="<f4").tobytes() for s in sums)

    def load_strategy_sums(self, data: bytes) -> None:
        """Restore the state saved by :meth:`strategy_sums` (same spot and isomorphism setting;
        either compression setting)."""
        sums = self._state.strategy_sums
        sizes = [s.size for s in sums]
        arr = np.frombuffer(data, dtype="<f4")
        if arr.size != sum(sizes):
            raise ValueError(f"strategy sums: expected {sum(sizes)} float32 values for this tree, got {arr.size}")
        for p, values in enumerate((arr[:sizes[0]], arr[sizes[0]:])):
            if self.compression:
                encode_sum_blocks(sums[p], self._state.sum_scales[p], values.astype(np.float64), self._block_sizes[p])
            else:
                sums[p][:] = values

    def _stored(self) -> dict[str, np.ndarray]:
        """The state arrays themselves, named as in :meth:`state`."""
        fields = ("regrets", "strategy_sums") + (("regret_scales", "sum_scales") if self.compression else ())
        return {f"{field}{p}": getattr(self._state, field)[p] for field in fields for p in (0, 1)}

    def state(self, copy: bool = True) -> dict[str, np.ndarray]:
        """A copy of the DCFR state as stored: ``regrets0``, ``regrets1``, ``strategy_sums0``,
        ``strategy_sums1`` (player 0 OOP, 1 IP) and, compressed, ``regret_scales0/1`` and
        ``sum_scales0/1`` (see :mod:`.arrays`); :meth:`load_state` restores it. ``copy=False``:
        the solver's own arrays, to write out or read into without a second copy in memory (they
        change with every iteration)."""
        stored = self._stored()
        return {name: array.copy() for name, array in stored.items()} if copy else stored

    def load_state(self, arrays: dict[str, np.ndarray]) -> None:
        """Restore :meth:`state`'s arrays (a solver of the same spot, isomorphism and compression
        settings); the iteration count is the caller's to restore."""
        expected = self._stored()
        if set(arrays) != set(expected):
            raise ValueError(f"load_state: expected the arrays {sorted(expected)}, got {sorted(arrays)}")
        for name, want in expected.items():
            got = np.asarray(arrays[name])
            if got.dtype != want.dtype or got.shape != want.shape:
                raise ValueError(f"load_state: {name} must be {want.dtype} of shape {want.shape}, "
                                 f"got {got.dtype} of shape {got.shape}")
        for name, array in expected.items():
            array[:] = arrays[name]

    # --- read-out -----------------------------------------------------------------------------

    def subtree_values(self, start: int, player: int, opp_reach: np.ndarray, dealt: tuple[int, ...] = ()) -> np.ndarray:
        """Per hand of ``player``: the walk's sums (see :mod:`.walk`, net of half the root pot) at node
        ``start``, reached after the ``dealt`` cards (none: a node of the root street), both
        players on their average strategies, the opponent arriving with ``opp_reach`` (its
        weights times its own path probabilities, aligned with ``self.hands[1 - player]``; zero
        it for combos holding a dealt card). The sums are conditional on the dealt cards. One
        single-threaded walk; a suit-isomorphic deal (no stored strategy) is refused."""
        n_opp = self.hands[1 - player].size
        opp = np.ascontiguousarray(opp_reach, dtype=np.float64)
        if opp.shape != (n_opp,):
            raise ValueError(f"opp_reach: expected {n_opp} values, got shape {opp.shape}")
        n_dealt = int(self.tree.board_len[start]) - len(self.spot.board)
        if len(dealt) > 2 or len(dealt) != n_dealt:
            raise ValueError(f"dealt: node {start} is reached after {n_dealt} dealt card(s), got {dealt!r}")
        d1, d2 = (tuple(int(c) for c in dealt) + (-1, -1))[:2]
        if self._game.deals.slot[d1 + 1, d2 + 1] < 0:
            raise ValueError(f"no strategy is stored after {dealt}: a suit-isomorphic deal stands for it")
        return subtree_values(self._plain_game, self._plain_state, player, int(start), d1, d2, opp, self._limits)

    def compatible_reach(self, player: int, opp_reach: np.ndarray) -> np.ndarray:
        """Per hand of ``player``: the opponent reach held by combos sharing no card with it."""
        out = np.empty(self.hands[player].size)
        own, opp = self._game.players[player], self._game.players[1 - player]
        compatible_mass(np.ascontiguousarray(opp_reach, dtype=np.float64), own.cards, opp.cards, own.same_combo, out,
                        np.empty(52))
        return out


    def per_combo(self, player: int) -> dict[str, np.ndarray]:
        """Per hand of ``player`` (in ``self.hands[player]`` order) under the average strategies:
        ``ev`` (share of the pot, chips), ``equity``, ``exp_pot`` (final pot), ``p_showdown``."""
        compat = self._compat[player]
        safe = np.where(compat > 0, compat, 1.0)
        return {
            "ev": self.hand_ev(player),
            "equity": self.equity(player),
            "exp_pot": self.root_values(player, Mode.EVALUATE, Quantity.FINAL_POT) / safe,
            "p_showdown": self.root_values(player, Mode.EVALUATE, Quantity.SHOWDOWN_PROB) / safe,
            "compat": compat,
        }

    def equity(self, player: int) -> np.ndarray:
        """Per hand of ``player`` (in ``self.hands[player]`` order): its checked-down equity (share of the
        pot, 0..1, ties split) against the opponent's range, per unit of compatible opponent weight."""
        compat = self._compat[player]
        equity = root_equity(self._plain_game, self.weights, player, self._root_runout_matrix(player))
        return equity / np.where(compat > 0, compat, 1.0)

    def _root_runout_matrix(self, player: int) -> np.ndarray:
        """``player``'s run-out matrix of the root board (see :func:`.runouts.root_runouts`); a
        placeholder on a river root."""
        if len(self.spot.board) == 5:
            return np.zeros((1, 1), np.int16)
        if self._root_runouts is None:
            start = time.perf_counter()
            self._root_runouts = root_runouts(self._game)
            self.build_seconds["runout matrices"] += time.perf_counter() - start
        return self._root_runouts[player]

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
    compression: bool = False,
) -> PostflopResult:
    """Solve ``spot`` to ``target_pct_pot`` % of the pot (or ``max_iterations``) and read it out,
    on ``threads`` Numba threads (None: Numba's current setting; the result is the same), with
    16-bit state if ``compression`` (see :class:`PostflopSolver`)."""
    return solve_spot_keeping(spot, target_pct_pot, max_iterations, check_every, progress, max_memory_mb,
                              isomorphism, threads, compression)[0]


def solve_spot_keeping(
    spot: PostflopSpot,
    target_pct_pot: float = 0.05,
    max_iterations: int = 2000,
    check_every: int = 10,
    progress: Callable[[int, float], None] | None = None,
    max_memory_mb: float = 4096.0,
    isomorphism: bool = True,
    threads: int | None = None,
    compression: bool = False,
) -> tuple[PostflopResult, PostflopSolver]:
    """:func:`solve_spot`, also returning the solved :class:`PostflopSolver` (e.g. for a pack)."""
    available = numba.config.NUMBA_NUM_THREADS
    if threads is not None and not 1 <= threads <= available:
        raise ValueError(f"bad threads {threads!r}: expected 1 to {available} (NUMBA_NUM_THREADS)")
    previous = numba.get_num_threads()
    numba.set_num_threads(threads or previous)
    try:
        solver = PostflopSolver(spot, max_memory_mb=max_memory_mb, isomorphism=isomorphism, compression=compression)
        solver.solve(target_pct_pot, max_iterations, check_every, progress)
        return solver.result(), solver
    finally:
        numba.set_num_threads(previous)
