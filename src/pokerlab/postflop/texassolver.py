"""TexasSolver's input files and ``dump_result`` strategies, read into pokerlab's objects.

Input files
    
The console solver reads one command per line (``set_pot 100``, ``set_board Qs,Jh,2h``,
``set_bet_sizes oop,turn,bet,50`` ...). This module honours the commands that define the game
and the solve, with TexasSolver's meanings:

* ``set_pot`` / ``set_effective_stack``: chips; the pot is dead money split evenly.
* ``set_range_ip`` / ``set_range_oop``: class lists with optional ``:weight`` (parsed by
  :func:`pokerlab.range_notation.parse_range`).
* ``set_bet_sizes <oop|ip>,<flop|turn|river>,<bet|raise|donk>,s1,s2...`` sizes in % of the
  pot; ``...,allin`` enables the all-in. Like TexasSolver, a street with no ``donk`` sizes
  lets OOP open only with the all-in after it called IP's bet on the previous street.
* Sizes are rounded to whole chips (``BetTree.whole_chips``), as TexasSolver's tree does.
* ``set_allin_threshold`` (default 0.67): see :class:`~pokerlab.postflop.game.BetTree`.
  ``set_raise_limit`` (default 4) counts the opening bet, so it is a raise cap one lower.
* ``set_accuracy`` (target exploitability, % of the pot) and ``set_max_iteration``.

Commands about threads, printing, isomorphism, dumping and the solve itself carry no game
information and are accepted and ignored; anything else is an error naming the line.

Dumped strategies (``dump_result``)
    TexasSolver writes only average strategies. :func:`texassolver_result` lays them onto
    pokerlab's tree of the same spot and reads them out with pokerlab's evaluator, exact payoffs
    and true chance probabilities, so both programs' solves give the same
    :class:`~pokerlab.postflop.result.PostflopResult` (and TexasSolver's strategy gets an
    exactly measured exploitability). In a dump, ``player`` 0 is IP and 1 is OOP; combo keys
    put the higher card first with suits ordered c < d < h < s, which is pokerlab's combo id.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pokerlab.cards import COMBO_IDS, card_str, parse_card, parse_cards
from pokerlab.io import read_json, read_text
from pokerlab.postflop.game import PLAYER_NAMES, STREET_NAMES, BetTree, PostflopSpot, StreetActions
from pokerlab.postflop.result import PostflopResult
from pokerlab.postflop.solver import PostflopSolver
from pokerlab.postflop.tree import CHANCE, DECISION
from pokerlab.range_notation import parse_range

_IGNORED = {"build_tree", "set_thread_num", "set_print_interval", "set_use_isomorphism", "start_solve",
            "set_dump_rounds", "dump_result"}
# TexasSolver's console starts every street with the all-in enabled and no sizes
_DEFAULT_ALLIN = True
_DEFAULT_RAISE_LIMIT = 4  # the opening bet plus three raises
_DEFAULT_ALLIN_THRESHOLD = 0.67


@dataclass(frozen=True)
class TexasSolverInput:
    """A TexasSolver input file as pokerlab objects."""

    spot: PostflopSpot
    accuracy_pct_pot: float
    max_iterations: int


def _number(command: str, text: str, lineno: int) -> float:
    try:
        return float(text)
    except ValueError:
        raise ValueError(f"TexasSolver input line {lineno}: {command} expects a number, got {text!r}") from None


def _count(command: str, text: str, lineno: int) -> int:
    value = _number(command, text, lineno)
    if not (value >= 0 and value == value // 1 and value < 2**31):  # NaN, inf, fractions, negatives
        raise ValueError(f"TexasSolver input line {lineno}: {command} expects a whole number >= 0, got {text!r}")
    return int(value)


def parse_texassolver_input(text: str) -> TexasSolverInput:
    """Read the game and solve settings of a TexasSolver input file's text."""
    pot = stack = None
    board = None
    ranges: dict[str, str] = {}
    sizes = {(s, p): {"bet": (), "raise": (), "donk": (), "allin": _DEFAULT_ALLIN}
             for s in STREET_NAMES for p in PLAYER_NAMES}
    threshold, raise_limit, accuracy, max_iterations = _DEFAULT_ALLIN_THRESHOLD, _DEFAULT_RAISE_LIMIT, 0.5, 1000
    for lineno, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        command, _, arg = line.partition(" ")
        arg = arg.strip()
        if command == "set_pot":
            pot = _number(command, arg, lineno)
        elif command == "set_effective_stack":
            stack = _number(command, arg, lineno)
        elif command == "set_board":
            board = tuple(parse_cards(arg))
        elif command in ("set_range_ip", "set_range_oop"):
            ranges[command[len("set_range_"):]] = arg
        elif command == "set_bet_sizes":
            parts = [p.strip() for p in arg.split(",")]
            if len(parts) < 3 or parts[0] not in PLAYER_NAMES or parts[1] not in STREET_NAMES:
                raise ValueError(f"TexasSolver input line {lineno}: expected set_bet_sizes <oop|ip>,"
                                 f"<flop|turn|river>,<bet|raise|donk|allin>[,sizes], got {arg!r}")
            entry = sizes[(parts[1], parts[0])]
            if parts[2] == "allin":
                entry["allin"] = True
            elif parts[2] in ("bet", "raise", "donk"):
                entry[parts[2]] = tuple(_number(command, v, lineno) for v in parts[3:])
            else:
                raise ValueError(f"TexasSolver input line {lineno}: unknown bet kind {parts[2]!r}")
        elif command == "set_allin_threshold":
            threshold = _number(command, arg, lineno)
        elif command == "set_raise_limit":
            raise_limit = _count(command, arg, lineno)
        elif command == "set_accuracy":
            accuracy = _number(command, arg, lineno)
        elif command == "set_max_iteration":
            max_iterations = _count(command, arg, lineno)
        elif command not in _IGNORED:
            raise ValueError(f"TexasSolver input line {lineno}: unknown command {command!r}")
    for name, value in (("set_pot", pot), ("set_effective_stack", stack), ("set_board", board),
                        ("set_range_ip", ranges.get("ip")), ("set_range_oop", ranges.get("oop"))):
        if value is None:
            raise ValueError(f"TexasSolver input: missing {name}")
    streets = tuple(
        tuple(StreetActions(bets=e["bet"], raises=e["raise"], allin=e["allin"], donks=e["donk"])
              for e in (sizes[(s, p)] for p in PLAYER_NAMES))
        for s in STREET_NAMES
    )
    spot = PostflopSpot(
        pot=pot,
        stack=stack,
        board=board,
        oop_range=parse_range(ranges["oop"]),
        ip_range=parse_range(ranges["ip"]),
        bet_tree=BetTree(streets=streets, allin_threshold=threshold, raise_cap=max(raise_limit - 1, 0),
                         whole_chips=True),
    )
    return TexasSolverInput(spot=spot, accuracy_pct_pot=accuracy, max_iterations=max_iterations)


def read_texassolver_input(path: str | Path) -> TexasSolverInput:
    """:func:`parse_texassolver_input` of a file; errors name the file."""
    text = read_text(path, "TexasSolver input")
    try:
        return parse_texassolver_input(text)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def read_texassolver_dump(path: str | Path) -> dict:
    """A TexasSolver ``dump_result`` file: a JSON object with the root node's ``node_type``."""
    dump = read_json(path, "TexasSolver dump")
    if not isinstance(dump, dict):
        raise ValueError(f"TexasSolver dump {path}: expected a JSON object (dump_result's root node), "
                         f"got a JSON {type(dump).__name__}")
    if "node_type" not in dump:
        raise ValueError(f"TexasSolver dump {path}: the root has no 'node_type' (expected dump_result's "
                         f"root node with 'node_type', 'player', 'actions', 'strategy' and 'childrens')")
    return dump


def _action_key(label: str) -> tuple[str, float]:
    word, _, amount = label.partition(" ")
    return word, round(float(amount), 6) if amount else 0.0


def _load_dump(solver: PostflopSolver, dump: dict, node: int, dealt: tuple[int, ...]) -> None:
    tree = solver.tree
    kind = tree.kind[node]
    where = ",".join(tree.line(node)) or "the root"
    if kind == CHANCE:
        deals = dump.get("dealcards")
        if not deals:
            raise ValueError(f"TexasSolver dump: no dealt cards below {where} (dump more rounds)")
        for card_text, child in deals.items():
            card = parse_card(card_text)
            if card not in solver.spot.board and card not in dealt:  # board cards are listed, empty
                _load_dump(solver, child, int(tree.first_child[node]), dealt + (card,))
        return
    if kind != DECISION:
        return
    player = int(tree.actor[node])
    ours = tree.actions(node)
    theirs = [_action_key(a) for a in dump.get("actions", [])]
    if dump.get("player") != 1 - player or sorted(theirs) != sorted(_action_key(a) for a in ours):
        raise ValueError(f"TexasSolver dump: at {where} it has player {dump.get('player')} with actions "
                         f"{dump.get('actions')}, pokerlab's tree has {ours}: the tree settings differ")
    column = [theirs.index(_action_key(a)) for a in ours]
    table = dump.get("strategy", {}).get("strategy")
    if table is None:
        raise ValueError(f"TexasSolver dump: no strategy at {where}")
    hands = solver.hands[player]
    strategy = np.full((len(ours), hands.size), 1.0 / len(ours))
    for i, combo in enumerate(hands):
        probs = table.get(COMBO_IDS[combo])
        if probs is not None:
            try:
                row = np.asarray(probs, dtype=np.float64)
            except (TypeError, ValueError):
                row = np.full(0, np.nan)
            if row.shape != (len(ours),) or not (np.all(row >= 0) and np.all(row <= 1) and abs(row.sum() - 1) <= 1e-4):
                raise ValueError(f"TexasSolver dump: at {where} the strategy of {COMBO_IDS[combo]} is {probs!r}, "
                                 f"expected {len(ours)} probabilities summing to 1")
            strategy[:, i] = row[column]
    solver.set_average_strategy(node, dealt, strategy)
    children = dump.get("childrens", {})
    for child, label in zip(tree.children(node), ours):
        if tree.kind[child] in (DECISION, CHANCE):
            key = next((k for k in children if _action_key(k) == _action_key(label)), None)
            if key is None:
                raise ValueError(f"TexasSolver dump: nothing below {where} -> {label} (dump more rounds)")
            _load_dump(solver, children[key], child, dealt)


def texassolver_result(dump: dict, spot: PostflopSpot, iterations: int = 0, seconds: float = 0.0) -> PostflopResult:
    """The normalised record of a TexasSolver ``dump_result`` strategy for ``spot``.

    ``spot`` must describe the tree TexasSolver solved (read it with
    :func:`read_texassolver_input`); a node whose actions differ is an error.
    """
    if not isinstance(dump, dict):
        raise ValueError(f"TexasSolver dump: expected a JSON object, got {type(dump).__name__}")
    solver = PostflopSolver(spot, isomorphism=False)  # read every dealt card's own strategy
    try:
        _load_dump(solver, dump, 0, ())
    except (AttributeError, TypeError, KeyError, IndexError) as exc:  # a node of the wrong shape
        raise ValueError(f"TexasSolver dump: a node is not shaped like dump_result's ({type(exc).__name__}: {exc})") from None
    result = solver.result()
    result.solver, result.iterations, result.seconds = "texassolver", iterations, seconds
    return result


def read_texassolver_result(path: str | Path, spot: PostflopSpot) -> PostflopResult:
    """:func:`texassolver_result` of the ``dump_result`` file ``path`` (:func:`read_texassolver_dump`);
    a dump that does not fit ``spot`` is a ``ValueError`` naming the file."""
    dump = read_texassolver_dump(path)
    try:
        return texassolver_result(dump, spot)
    except ValueError as exc:
        raise ValueError(f"{path}: {exc}") from None


def _class_notation(weights: np.ndarray, player: str) -> str:
    """A 1,326-vector as TexasSolver's class list (``AKs:0.25,...``); combos of a class must
    carry one weight (board-blocked combos, zero in a spot, are ignored)."""
    from pokerlab.cards import COMBO_CLASS, N_CLASSES, class_name

    parts = []
    for c in range(N_CLASSES):
        w = weights[COMBO_CLASS == c]
        live = w[w > 0]
        if live.size == 0:
            continue
        if not np.all(live == live[0]):
            raise ValueError(f"TexasSolver input: the {player} range gives the combos of {class_name(c)} different "
                             "weights; TexasSolver's ranges are per class")
        parts.append(class_name(c) if live[0] == 1.0 else f"{class_name(c)}:{float(live[0])!r}")
    return ",".join(parts)


def texassolver_input_text(spot: PostflopSpot, accuracy_pct_pot: float, max_iterations: int, dump_path: str | Path,
                           threads: int = 1) -> str:
    """The TexasSolver console input that solves ``spot`` and dumps its strategy to ``dump_path``.

    :func:`parse_texassolver_input` reads it back to the same game. The spot must use TexasSolver's
    conventions: whole-chip sizes (``BetTree.whole_chips``) and the all-in on every street with
    actions; donk sizes default to the bet sizes (pokerlab's rule for ``donks=None``).
    """
    tree = spot.bet_tree
    if not tree.whole_chips:
        raise ValueError("TexasSolver input: the bet tree must use whole chips (TexasSolver rounds every size)")
    lines = [f"set_pot {spot.pot!r}", f"set_effective_stack {spot.stack!r}",
             "set_board " + ",".join(card_str(c) for c in spot.board),
             f"set_range_ip {_class_notation(spot.ip_range, 'ip')}",
             f"set_range_oop {_class_notation(spot.oop_range, 'oop')}"]
    for s, street in enumerate(STREET_NAMES):
        for p, player in enumerate(PLAYER_NAMES):
            actions = tree.actions(s, p)
            if not actions.allin:
                raise ValueError(f"TexasSolver input: {player} {street} has no all-in; TexasSolver always offers it")
            donks = actions.bets if actions.donks is None else actions.donks
            for kind, sizes in (("bet", actions.bets), ("raise", actions.raises), ("donk", donks)):
                if sizes:
                    lines.append(f"set_bet_sizes {player},{street},{kind}," + ",".join(f"{x:g}" for x in sizes))
            lines.append(f"set_bet_sizes {player},{street},allin")
    lines += [f"set_allin_threshold {tree.allin_threshold!r}", f"set_raise_limit {tree.raise_cap + 1}",
              "build_tree", f"set_thread_num {int(threads)}", f"set_accuracy {float(accuracy_pct_pot)!r}",
              f"set_max_iteration {int(max_iterations)}", "set_print_interval 10", "set_use_isomorphism 1",
              "start_solve", "set_dump_rounds 3", f"dump_result {dump_path}"]
    return "\n".join(lines) + "\n"
