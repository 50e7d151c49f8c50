"""One measurement of the fit: a flop ending on one board, solved as played and as the control run.

The played solve uses the fit's bet tree to the fit's accuracy; the control run removes the
stacks (a check-down), where every hand is worth exactly its equity share of the pot, so the
board's own equities are measured rather than assumed. Both come back as
:class:`~pokerlab.postflop.result.PostflopResult` records from either backend:

* ``builtin``: pokerlab's postflop solver (:mod:`pokerlab.postflop`);
* ``texassolver``: TexasSolver's console program (path in ``fit.texassolver.binary``):
  pokerlab writes its input file, runs it and reads its ``dump_result`` strategy with exact
  payoffs and true chance probabilities (:func:`pokerlab.postflop.texassolver.texassolver_result`).
  Amounts are scaled by ``chips_per_bb`` because TexasSolver rounds sizes to whole chips.

The output table has one row per (player, combo) with, in bb: ``ev`` (the combo's share of the
pot as played, net of what it put in after the flop; the two ranges' values sum to the pot),
``equity`` (control run: its checked-down share of the pot), ``exp_pot`` (expected final pot,
bb) and ``p_showdown``; ``mass`` is the combo's weight in its range times the opponent weight it
does not block (the weight every range-level mean uses). Range-level values and the ending,
board and solve settings ride in the Parquet file's metadata (key ``pokerlab.fit``).

With the builtin backend :func:`measure` hands the played solve to a caller's ``on_played``
before the control run: the workflow's job writes it as a root-tier pack of NodeDocuments beside
the Parquet file (``bN.pack/``, :func:`pokerlab.serve.pack.replace_root_pack`; the root street's
decisions, amounts in bb), which ``pokerlab serve results`` lists as ``fit.<spot>.eR.bN``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

import pandas as pd

from pokerlab.cards import COMBO_CLASS, parse_combo
from pokerlab.fit.settings import FitSettings
from pokerlab.io import atomic_path
from pokerlab.postflop.game import PLAYER_NAMES, BetTree, PostflopSpot
from pokerlab.postflop.result import PostflopResult

COLUMNS = ("player", "combo", "class", "mass", "ev", "equity", "exp_pot", "p_showdown")
METADATA_KEY = b"pokerlab.fit"
FIT_CAMPAIGN = "pokerlab-fit"


def _scaled(spot: PostflopSpot, scale: float, whole_chips: bool) -> PostflopSpot:
    tree = spot.bet_tree
    bet_tree = BetTree(streets=tree.streets, allin_threshold=tree.allin_threshold, raise_cap=tree.raise_cap,
                       whole_chips=whole_chips)
    return PostflopSpot(spot.pot * scale, spot.stack * scale, spot.board, spot.oop_range, spot.ip_range, bet_tree)


def _progress(iterations: int, pct_pot: float) -> None:
    print(f"iteration {iterations}: exploitability {pct_pot:.4f}% of the pot", file=sys.stderr, flush=True)


def _builtin(spot: PostflopSpot, settings: FitSettings, threads: int | None,
             on_played: Callable[[Any], Any] | None = None) -> tuple[PostflopResult, PostflopResult]:
    from pokerlab.postflop.solver import solve_spot, solve_spot_keeping

    played, solver = solve_spot_keeping(spot, settings.accuracy_pct_pot, settings.max_iterations, threads=threads,
                                        progress=_progress)
    if on_played is not None:  # read-only walks of the solved state: the measurement is unchanged
        on_played(solver)
    control = solve_spot(spot.without_stacks(), 0.0, 1, threads=threads)
    return played, control


def pack_path(measurement_path: str | os.PathLike) -> Path:
    """Where a fit job's pack goes: beside its Parquet file, ``bN.parquet`` -> ``bN.pack/``."""
    return Path(measurement_path).with_suffix(".pack")


def _texassolver(spot: PostflopSpot, settings: FitSettings, threads: int | None,
                 on_played: Callable[[Any], Any] | None = None) -> tuple[PostflopResult, PostflopResult]:
    """Run TexasSolver on the played spot (in chips = bb x chips_per_bb); the control run
    needs no solver (a check-down has no decisions) and comes from pokerlab's exact read-out."""
    from pokerlab.postflop.solver import solve_spot
    from pokerlab.postflop.texassolver import read_texassolver_input, texassolver_input_text, texassolver_result

    settings.check_backend()
    chips = _scaled(spot, settings.chips_per_bb, whole_chips=True)
    with tempfile.TemporaryDirectory(prefix="pokerlab-texassolver-") as tmp:
        dump = Path(tmp) / "dump.json"
        text = texassolver_input_text(chips, settings.accuracy_pct_pot, settings.max_iterations, dump, threads or 1)
        (Path(tmp) / "input.txt").write_text(text)
        binary = Path(settings.texassolver_binary).resolve()
        run = subprocess.run([str(binary), "-i", str(Path(tmp) / "input.txt")], cwd=binary.parent,
                             capture_output=True, text=True)
        if run.returncode != 0 or not dump.exists():
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            raise RuntimeError(f"TexasSolver ({binary}) failed with exit code {run.returncode}: {' | '.join(tail)}")
        parsed = read_texassolver_input(Path(tmp) / "input.txt").spot
        played = texassolver_result(json.loads(dump.read_text()), parsed)
    control = solve_spot(chips.without_stacks(), 0.0, 1, threads=threads)
    return _unscale(played, settings.chips_per_bb), _unscale(control, settings.chips_per_bb)


def _unscale(result: PostflopResult, scale: float) -> PostflopResult:
    """A record in chips back in bb (values, pots and exploitability divided by ``scale``)."""
    for player in result.players.values():
        for values in player.combos.values():
            values["ev"] /= scale
            values["exp_pot"] /= scale
    result.pot /= scale
    result.stack /= scale
    result.exploitability_chips /= scale
    return result


def measure(spot: PostflopSpot, settings: FitSettings, threads: int | None = None,
            on_played: Callable[[Any], Any] | None = None) -> tuple[pd.DataFrame, dict[str, Any]]:
    """Solve ``spot`` (amounts in bb) as played and as the control run with the configured
    backend; return the per-combo table and the range-level record (see the module docstring).
    The builtin backend calls ``on_played`` with the played solve's
    :class:`~pokerlab.postflop.solver.PostflopSolver` (to write it as a pack, say); the
    TexasSolver backend keeps no solver and calls nothing."""
    played, control = (_texassolver if settings.backend == "texassolver" else _builtin)(spot, settings, threads,
                                                                                        on_played)
    return measurement_table(played, control)


def measurement_table(played: PostflopResult, control: PostflopResult) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The per-combo table (:data:`COLUMNS`) and the range-level summary of a played solve and its
    control run (see the module docstring)."""
    rows = []
    summary: dict[str, Any] = {"iterations": played.iterations,
                               "exploitability_pct_pot": played.exploitability_pct_pot, "players": {}}
    for p, name in enumerate(PLAYER_NAMES):
        mine, check = played.players[name], control.players[name]
        for cid, values in mine.combos.items():
            combo = parse_combo(cid)
            rows.append((p, combo, int(COMBO_CLASS[combo]), mine.weights[cid], values["ev"],
                         check.combos[cid]["equity"], values["exp_pot"], values["p_showdown"]))
        summary["players"][name] = {
            "range_ev": mine.range_ev, "range_equity": check.range_equity,
            "range_exp_pot": mine.range_value("exp_pot"), "range_p_showdown": mine.range_value("p_showdown"),
            "control_range_ev": check.range_ev,
        }
    frame = pd.DataFrame.from_records(rows, columns=list(COLUMNS))
    frame = frame.astype({"player": "int8", "combo": "int16", "class": "int16"})
    return frame.sort_values(["player", "combo"], kind="stable").reset_index(drop=True), summary


def write_measurement(path: str | os.PathLike, frame: pd.DataFrame, record: dict[str, Any]) -> None:
    """Write the per-combo table with ``record`` in the file's metadata, atomically (zstd Parquet)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(frame, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[METADATA_KEY] = json.dumps(record, sort_keys=True, separators=(",", ":")).encode()
    table = table.replace_schema_metadata(meta)
    with atomic_path(path) as tmp:
        pq.write_table(table, tmp, compression="zstd")


def read_measurement(path: str | os.PathLike) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The per-combo table and the record written by :func:`write_measurement`."""
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
        record = json.loads(table.schema.metadata[METADATA_KEY])
    except (OSError, KeyError, ValueError) as exc:
        raise ValueError(f"{path}: not a fit measurement ({exc}); remove it and re-run its fit_solve job") from None
    return table.to_pandas(), record


def empty_measurement() -> pd.DataFrame:
    """The table of a job whose ending does not exist (the spot has fewer heads-up flop endings)."""
    return pd.DataFrame({c: pd.Series(dtype=t) for c, t in zip(
        COLUMNS, ("int8", "int16", "int16", "float64", "float64", "float64", "float64", "float64"))})

