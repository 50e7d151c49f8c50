"""Result documents of the push/fold solvers (JSON) and the entry points the workflow calls.

Frequencies are rounded to 6 decimals, EVs and figures to 10, so the bytes never hinge on
the last bit of a float.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

from pokerlab import __version__, cards
from pokerlab.equity import load_equity_table
from pokerlab.io import atomic_path, write_json_atomic
from pokerlab.pushfold.fees import PushFoldGame, fee_model_from_table, fold_baselines
from pokerlab.pushfold.fourmax import INFOSET_INDEX, INFOSETS, POSITIONS, FourMaxSolution, Settings, describe, solve_fourmax
from pokerlab.pushfold.fourmax_combos import ComboSettings, FourMaxComboSolution, solve_fourmax_combos
from pokerlab.pushfold.headsup import HeadsUpPayoffs, HeadsUpSolution, solve_headsup
from pokerlab.pushfold.headsup_combos import (ComboDeal, HeadsUpComboSolution, evaluate_combo_profile,
                                             solve_headsup_combos)
from pokerlab.pushfold.plots import HRC_HEADSUP_SHARES, range_heatmap, shares_by_depth

FREQ_DECIMALS = 6
FIGURE_DECIMALS = 10


def _freq(vector: np.ndarray) -> dict[str, float]:
    return {name: round(float(x), FREQ_DECIMALS) + 0.0 for name, x in zip(cards.CLASS_NAMES, vector)}


def _fig(x: float) -> float:
    return round(float(x), FIGURE_DECIMALS) + 0.0


def _game_doc(game: PushFoldGame) -> dict[str, Any]:
    return {"seats": game.seats, "positions": list(game.positions), "depth_bb": game.depth_bb, "ante_bb": game.ante_bb,
            "fees": game.fees.as_dict()}


def headsup_document(sol: HeadsUpSolution) -> dict[str, Any]:
    """The JSON of a heads-up solve: ``sb_shove``/``bb_call`` (class -> frequency), shares of
    deals, per-seat EVs, exploitability (bb/hand) and the fold baselines of the fee model."""
    return {
        "game": _game_doc(sol.game),
        "fee_preset": sol.game.fees.name,
        "sb_shove": _freq(sol.sb_shove),
        "bb_call": _freq(sol.bb_call),
        "sb_shove_share": _fig(sol.sb_shove_share),
        "bb_call_share": _fig(sol.bb_call_share),
        "fold_baselines_bb": {k: _fig(v) for k, v in fold_baselines(sol.game).items()},
        "seat_ev_bb": {k: _fig(v) for k, v in sol.seat_ev.items()},
        "exploitability_bb": _fig(sol.exploitability_bb),
        "exploitability_per_seat": {k: _fig(v) for k, v in sol.exploitability_per_seat.items()},
        "iterations": sol.iterations,
        "converged": sol.converged,
        "algorithm": "damped best response, per-class steps decaying on best-response reversals, linear average",
        "code_version": __version__,
    }


def _combo_freq(vector: np.ndarray) -> dict[str, float]:
    return {name: round(float(x), FREQ_DECIMALS) + 0.0 for name, x in zip(cards.COMBO_IDS, vector)}


def headsup_combos_document(sol: HeadsUpComboSolution, class_sol: HeadsUpSolution) -> dict[str, Any]:
    """The JSON of a heads-up solve with card removal: per class (``sb_shove``/``bb_call``, the
    combo-weighted mean over the class's combos) and per combo (``*_combos``, combo id ->
    frequency), shares of the 1,326 combos, EVs, exploitability in the combo game, and the class
    game's figures at the same spot (``class_game``) for comparison, with the class chart's
    exploitability when it is played in the combo game (each combo plays its class's frequency)."""
    _, _, class_in_combo = evaluate_combo_profile(HeadsUpPayoffs.of(sol.game), sol.deal,
                                                  class_sol.sb_shove[sol.deal.combo_class],
                                                  class_sol.bb_call[sol.deal.combo_class])
    return {
        "game": _game_doc(sol.game),
        "fee_preset": sol.game.fees.name,
        "hands": "combos",
        "sb_shove": _freq(sol.sb_shove_class),
        "bb_call": _freq(sol.bb_call_class),
        "sb_shove_share": _fig(sol.sb_shove_share),
        "bb_call_share": _fig(sol.bb_call_share),
        "sb_shove_combos": _combo_freq(sol.sb_shove),
        "bb_call_combos": _combo_freq(sol.bb_call),
        "seat_ev_bb": {k: _fig(v) for k, v in sol.seat_ev.items()},
        "exploitability_bb": _fig(sol.exploitability_bb),
        "exploitability_per_seat": {k: _fig(v) for k, v in sol.exploitability_per_seat.items()},
        "iterations": sol.iterations,
        "converged": sol.converged,
        "polish_margin_bb": sol.polish_margin_bb,
        "algorithm": "damped best response over the 1,326 combos with blocking, per-combo steps decaying on "
                     "best-response reversals, linear average; then an indifference polish towards the exact equilibrium",
        "class_game": {"sb_shove_share": _fig(class_sol.sb_shove_share), "bb_call_share": _fig(class_sol.bb_call_share),
                       "seat_ev_bb": {k: _fig(v) for k, v in class_sol.seat_ev.items()},
                       "exploitability_bb": _fig(class_sol.exploitability_bb),
                       "exploitability_in_combo_game_bb": _fig(max(class_in_combo.values())),
                       "exploitability_in_combo_game_per_seat": {k: _fig(v) for k, v in class_in_combo.items()}},
        "code_version": __version__,
    }


def _fourmax_infosets(strategy: np.ndarray, reach: np.ndarray, shares: np.ndarray) -> dict[str, Any]:
    infosets = {}
    for k, history in enumerate(INFOSETS):
        infosets[history] = {
            "seat": POSITIONS[len(history)],
            "label": describe(history),
            "action": "shove" if "A" not in history else "call",
            "reach": _fig(reach[k]),
            "share": _fig(shares[k]),
            "frequency": _freq(strategy[k]),
        }
    return infosets


def fourmax_document(sol: FourMaxSolution) -> dict[str, Any]:
    """The JSON of a 4-max solve, keyed by information set (the action string before the seat)."""
    s = sol.settings
    return {
        "game": _game_doc(sol.game),
        "fee_preset": sol.game.fees.name,
        "infosets": _fourmax_infosets(sol.strategy, sol.reach, sol.shares),
        "seat_ev_bb": {k: _fig(v) for k, v in sol.seat_ev.items()},
        "exploitability": [{"samples": m["samples"], "exploitability_bb": _fig(m["exploitability_bb"]),
                            "per_seat": {k: _fig(v) for k, v in m["per_seat"].items()}} for m in sol.measurements],
        "settings": {"schedule": [list(stage) for stage in s.schedule], "final_samples": s.final_samples, "seed": s.seed,
                     "initial_step": s.initial_step, "power": s.power},
        "sweep_history": [[int(a), int(b), _fig(c)] for a, b, c in sol.history],
        "code_version": __version__,
    }


def fourmax_combos_document(sol: FourMaxComboSolution) -> dict[str, Any]:
    """The JSON of a 4-max solve with card removal: the class mode's layout (``infosets``, read by
    :func:`load_fourmax_strategy`), ``hands: combos``, and the exploitability in the sample game
    it was solved in and on an independent sample of as many deals."""
    s = sol.settings

    def measurement(sample: str, seed: int, ev) -> dict[str, Any]:
        return {"sample": sample, "deals": s.deals, "seed": seed, "exploitability_bb": _fig(ev.exploitability_bb),
                "per_seat": {k: _fig(v) for k, v in ev.exploitability_per_seat.items()}}

    return {
        "game": _game_doc(sol.game),
        "fee_preset": sol.game.fees.name,
        "hands": "combos",
        "infosets": _fourmax_infosets(sol.strategy, sol.measured.set_reach, sol.shares),
        "seat_ev_bb": {k: _fig(v) for k, v in sol.measured.seat_ev.items()},
        "exploitability": [measurement("solving", s.seed, sol.solving), measurement("independent", s.measuring_seed, sol.measured)],
        "settings": {"deals": s.deals, "max_sweeps": s.max_sweeps, "tolerance_bb": s.tolerance_bb, "seed": s.seed,
                     "initial_step": s.initial_step, "power": s.power},
        "sweep_history": [[int(a), _fig(b)] for a, b in sol.history],
        "algorithm": "damped best response in the sample game of joint deals (card removal between all four seats), "
                     "per-class steps decaying on best-response reversals",
        "code_version": __version__,
    }


def load_fourmax_strategy(path: str | os.PathLike) -> np.ndarray:
    """The (14, 169) profile of a 4-max result JSON (for a warm start)."""
    try:
        doc = json.loads(Path(path).read_text())
        return np.array([[doc["infosets"][h]["frequency"][c] for c in cards.CLASS_NAMES] for h in INFOSETS])
    except (OSError, KeyError, ValueError, TypeError) as exc:
        raise ValueError(f"warm start {path}: not a 4-max push/fold result ({exc})") from None


def write_headsup(game: PushFoldGame, table_path: str | os.PathLike, json_path: str | os.PathLike,
                  png_prefix: str | os.PathLike | None = None, tolerance_bb: float = 1e-6) -> HeadsUpSolution:
    """Solve a heads-up spot from the equity table file and write its JSON (and, with
    ``png_prefix``, ``<prefix>_sb_shove.png`` and ``<prefix>_bb_call.png``)."""
    table = load_equity_table(table_path)
    sol = solve_headsup(game, table.equity, tolerance_bb=tolerance_bb)
    if not sol.converged:
        raise ValueError(f"heads-up {game.depth_bb:g}bb: exploitability {sol.exploitability_bb:.3g}bb did not reach {tolerance_bb:g}bb")
    write_json_atomic(json_path, headsup_document(sol))
    if png_prefix is not None:
        tag = f"HU {game.depth_bb:g}bb, fees {game.fees.name}"
        range_heatmap(sol.sb_shove, f"SB shove, {tag}", f"{png_prefix}_sb_shove.png")
        range_heatmap(sol.bb_call, f"BB call vs shove, {tag}", f"{png_prefix}_bb_call.png")
    return sol


def write_headsup_combos(game: PushFoldGame, combo_table_path: str | os.PathLike, class_table_path: str | os.PathLike,
                         json_path: str | os.PathLike, png_prefix: str | os.PathLike | None = None,
                         tolerance_bb: float = 1e-6) -> HeadsUpComboSolution:
    """Solve a heads-up spot with card removal from the combo table, and the class game from the
    169 table beside it; write the JSON (and, with ``png_prefix``, the per-class charts
    ``<prefix>_sb_shove.png`` and ``<prefix>_bb_call.png``)."""
    from pokerlab.equity_combos import load_combo_table

    class_table = load_equity_table(class_table_path)
    deal = ComboDeal.full_deck(load_combo_table(combo_table_path).equity)
    sol = solve_headsup_combos(game, deal, tolerance_bb=tolerance_bb)
    if not sol.converged:
        raise ValueError(f"heads-up {game.depth_bb:g}bb with card removal: exploitability {sol.exploitability_bb:.3g}bb "
                         f"did not reach {tolerance_bb:g}bb")
    class_sol = solve_headsup(game, class_table.equity, tolerance_bb=tolerance_bb)
    write_json_atomic(json_path, headsup_combos_document(sol, class_sol))
    if png_prefix is not None:
        tag = f"HU {game.depth_bb:g}bb, card removal, fees {game.fees.name}"
        range_heatmap(sol.sb_shove_class, f"SB shove, {tag}", f"{png_prefix}_sb_shove.png")
        range_heatmap(sol.bb_call_class, f"BB call vs shove, {tag}", f"{png_prefix}_bb_call.png")
    return sol


def write_headsup_combos_summary(json_paths: list, csv_path: str | os.PathLike, png_path: str | os.PathLike) -> None:
    """One row per depth of the card-removal solves (shares with and without card removal,
    exploitability, polish) as CSV, and the shares against depth as a PNG beside HRC's figures."""
    import pandas as pd

    rows = []
    for path in json_paths:
        doc = json.loads(Path(path).read_text())
        rows.append({"depth_bb": doc["game"]["depth_bb"], "ante_bb": doc["game"]["ante_bb"],
                     "sb_shove_share": doc["sb_shove_share"], "bb_call_share": doc["bb_call_share"],
                     "class_sb_shove_share": doc["class_game"]["sb_shove_share"],
                     "class_bb_call_share": doc["class_game"]["bb_call_share"],
                     "class_chart_exploitability_in_combo_game_bb": doc["class_game"]["exploitability_in_combo_game_bb"],
                     "exploitability_bb": doc["exploitability_bb"], "polish_margin_bb": doc["polish_margin_bb"],
                     "fees": doc["fee_preset"]})
    table = pd.DataFrame.from_records(rows).sort_values("depth_bb")
    with atomic_path(csv_path) as tmp:
        table.to_csv(tmp, index=False, float_format="%.10g")
    comparable = (table["ante_bb"] == 0).all() and (table["fees"] == "none").all()  # HRC's figures: chip EV, no ante
    shares_by_depth(table["depth_bb"].tolist(),
                    {"sb_shove": table["sb_shove_share"].tolist(), "bb_call": table["bb_call_share"].tolist()},
                    {"sb_shove": table["class_sb_shove_share"].tolist(), "bb_call": table["class_bb_call_share"].tolist()},
                    "Heads-up push/fold: with and without card removal", png_path,
                    reference=HRC_HEADSUP_SHARES if comparable else None)


FOURMAX_DIRS = {"classes": "4max", "combos": "4max_combos"}
"""Folder under results/pushfold/ of each ``pushfold.fourmax.hands`` mode (never the same)."""


def fourmax_result_path(depth_bb: float, hands: str = "classes") -> str:
    """Where the workflow keeps a 4-max solve of ``depth_bb``: ``results/pushfold/4max/{depth}bb.json``,
    or ``results/pushfold/4max_combos/`` for a solve with card removal (``hands="combos"``)."""
    return f"results/pushfold/{FOURMAX_DIRS[hands]}/{depth_bb:g}bb.json"


def _fourmax_heatmaps(game: PushFoldGame, strategy: np.ndarray, png_dir, tag: str = "") -> None:
    """One PNG per information set in ``png_dir``, named by the information set (``open`` for the CO's)."""
    for history in INFOSETS:
        range_heatmap(strategy[INFOSET_INDEX[history]], f"4-max {game.depth_bb:g}bb{tag}, fees {game.fees.name}: {describe(history)}",
                      Path(png_dir) / f"{history or 'open'}.png")


def write_fourmax(game: PushFoldGame, settings: Settings, table_path: str | os.PathLike, json_path: str | os.PathLike,
                  png_dir: str | os.PathLike | None = None, checkpoint: str | os.PathLike | None = None,
                  warm_path: str | os.PathLike | None = None, progress=None) -> FourMaxSolution:
    """Solve a 4-max spot and write its JSON (and one PNG per information set in ``png_dir``,
    named by the information set, ``open`` for the CO's empty one)."""
    warm = load_fourmax_strategy(warm_path) if warm_path is not None else None
    table = load_equity_table(table_path)
    sol = solve_fourmax(game, table.equity, settings, warm=warm, checkpoint=checkpoint, progress=progress)
    write_json_atomic(json_path, fourmax_document(sol))
    if png_dir is not None:
        _fourmax_heatmaps(game, sol.strategy, png_dir)
    return sol


def write_fourmax_combos(game: PushFoldGame, settings: ComboSettings, combo_table_path: str | os.PathLike,
                         json_path: str | os.PathLike, png_dir: str | os.PathLike | None = None,
                         warm_path: str | os.PathLike | None = None, progress=None) -> FourMaxComboSolution:
    """Solve a 4-max spot with card removal from the combo table and write its JSON (and, with
    ``png_dir``, one PNG per information set as :func:`write_fourmax` draws them)."""
    from pokerlab.equity_combos import load_combo_table

    warm = load_fourmax_strategy(warm_path) if warm_path is not None else None
    equity = load_combo_table(combo_table_path).equity
    sol = solve_fourmax_combos(game, equity, settings, warm=warm, progress=progress)
    write_json_atomic(json_path, fourmax_combos_document(sol))
    if png_dir is not None:
        _fourmax_heatmaps(game, sol.strategy, png_dir, ", card removal")
    return sol


def fourmax_hands(section: dict) -> str:
    """``pushfold.fourmax.hands`` of a config section (``classes`` when absent); ``ValueError`` naming the key."""
    hands = section["fourmax"].get("hands", "classes")
    if hands not in FOURMAX_DIRS:
        raise ValueError(f"config pushfold.fourmax.hands: {hands!r} is not one of {sorted(FOURMAX_DIRS)}")
    return hands


def fourmax_combo_settings(section: dict) -> ComboSettings:
    """The :class:`ComboSettings` of ``pushfold.fourmax.combos`` (defaults where a key is absent)
    and ``pushfold.fourmax.seed``; ``ValueError`` naming the key."""
    cfg = section["fourmax"]
    combos = cfg.get("combos", {})
    unknown = set(combos) - {"deals", "max_sweeps", "tolerance_bb"}
    if unknown:
        raise ValueError(f"config pushfold.fourmax.combos: unknown key(s) {sorted(unknown)}")
    try:
        return ComboSettings(**combos, seed=cfg["seed"])
    except ValueError as exc:
        raise ValueError(f"config pushfold.fourmax.combos: {exc}") from None


def write_spot_from_config(section: dict, seats: int, depth: float, table_path, json_path, png, checkpoint=None,
                           combo_table_path=None):
    """One push/fold spot as configured by the ``pushfold`` config section (the workflow's
    entry point): heads-up with ``png`` a path prefix (with card removal, as configured by
    ``headsup_combos``, when ``combo_table_path`` is given), 4-max with ``png`` a folder (with
    card removal, as configured by ``fourmax.combos``, when ``combo_table_path`` is given)."""
    if seats == 2 and combo_table_path is not None:
        cfg = section["headsup_combos"]
        game = PushFoldGame(2, depth, fee_model_from_table(section["fees"], cfg["fees"]), cfg["ante_bb"])
        return write_headsup_combos(game, combo_table_path, table_path, json_path, png_prefix=png,
                                    tolerance_bb=cfg["tolerance_bb"])
    if seats == 2:
        cfg = section["headsup"]
        game = PushFoldGame(2, depth, fee_model_from_table(section["fees"], cfg["fees"]), cfg["ante_bb"])
        return write_headsup(game, table_path, json_path, png_prefix=png, tolerance_bb=cfg["tolerance_bb"])
    cfg = section["fourmax"]
    game = PushFoldGame(seats, depth, fee_model_from_table(section["fees"], cfg["fees"]))
    Path(png).mkdir(parents=True, exist_ok=True)
    if combo_table_path is not None:
        return write_fourmax_combos(game, fourmax_combo_settings(section), combo_table_path, json_path, png_dir=png)
    settings = Settings(schedule=tuple(tuple(stage) for stage in cfg["schedule"]), final_samples=cfg["final_samples"],
                        seed=cfg["seed"])
    return write_fourmax(game, settings, table_path, json_path, png_dir=png, checkpoint=checkpoint)
