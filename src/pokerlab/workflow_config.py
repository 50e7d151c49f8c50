"""Checks of the workflow's configuration that its JSON Schema cannot express, run when the
workflow loads (``workflow/rules/common.smk``), before any job: each refusal is one
``ValueError`` naming the key (``solve.spots[1].depth``) and what was expected.

Every file the configuration names is read and checked here too, with the reader the job would
use (paths relative to the working directory, as Snakemake's): a job that fails has its outputs
deleted by Snakemake, so a bad sizing, payouts, constants or class-table file must stop the
workflow before any job starts, never inside one.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Callable

from pokerlab.cards import CLASS_INDEX, parse_class
from pokerlab.io import not_a_file
from pokerlab.preflop.spot import depth_label


def _depth(value: Any, key: str) -> None:
    try:
        depth_label(value)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"config {key}: {str(exc).removeprefix('depth: ')}") from None


def _finite_numbers(node: Any, key: str) -> None:
    """Every number under ``node`` is finite (YAML's ``.inf`` and ``.nan`` pass a schema's bounds)."""
    if isinstance(node, dict):
        for k, v in node.items():
            _finite_numbers(v, f"{key}.{k}" if key else str(k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _finite_numbers(v, f"{key}[{i}]")
    elif isinstance(node, float) and not math.isfinite(node):
        raise ValueError(f"config {key}: {node!r} is not a finite number")


def _increasing(values: list, key: str) -> None:
    if any(b <= a for a, b in zip(values, values[1:])):
        raise ValueError(f"config {key}: {values} must be strictly increasing")


def _class_name(name: Any, key: str) -> None:
    try:
        index = parse_class(name)
    except ValueError as exc:
        raise ValueError(f"config {key}: {exc}") from None
    canonical = next(n for n, i in CLASS_INDEX.items() if i == index)
    if name != canonical:  # 'KAs', 'aks': the table and the cross-check's CSV use the canonical name
        raise ValueError(f"config {key}: {name!r} is not a class name; did you mean {canonical!r}?")


# Files a rule of the workflow writes (the fitting run's): the job that writes them checks them,
# and a stale or unfinished copy here may be about to be replaced, so they are not read at load.
WORKFLOW_OUTPUTS = ("results/fit/constants.json", "results/fit/class_table.tsv")


def _read(key: str, path: Any, reader: Callable[[str], Any]) -> Any:
    """``reader(path)``, any failure refused as one line naming the key and the path."""
    if not isinstance(path, str) or not path:
        raise ValueError(f"config {key}: {path!r} is not a file path")
    if not Path(path).is_file():
        raise ValueError(f"config {key}: {path}: {not_a_file(path)}")
    try:
        return reader(path)
    except MemoryError:
        raise
    except Exception as exc:  # noqa: BLE001 - whatever the reader raises, the job would have raised
        message = str(exc) or type(exc).__name__
        raise ValueError(f"config {key}: {path}: {message}") from None


def _solved_tables(folder: Any) -> None:
    """Model ``solved``: the folder of solved-ending tables exists and every table in it reads. (Whether a
    table fits its spot, sizing and base constants is checked by the solve that uses it.)"""
    from pokerlab.preflop.ending_corrections import read_ending_corrections

    if not isinstance(folder, str) or not Path(folder).is_dir():
        raise ValueError(f"config solve.postflop.solved_tables: {folder!r} is not a folder (model solved reads "
                         "one table per spot from it)")
    for path in sorted(Path(folder).glob("*.tsv")):
        _read("solve.postflop.solved_tables", str(path), read_ending_corrections)


def _files(config: dict[str, Any]) -> None:
    """Read every file the config names with the job's own reader."""
    from pokerlab.icm import DEFAULT_PAYOUTS_PATH, load_payouts
    from pokerlab.preflop.class_edges import read_class_table
    from pokerlab.preflop.solve import SolveSettings
    from pokerlab.preflop.spot import load_sizing

    solve = config.get("solve", {})
    if "sizing" in solve:
        _read("solve.sizing", solve["sizing"], load_sizing)
    _read("icm.payouts", config.get("icm", {}).get("payouts", str(DEFAULT_PAYOUTS_PATH)), load_payouts)
    postflop = dict(solve.get("postflop", {}))
    table = postflop.pop("class_table", None)
    if table is not None and table not in WORKFLOW_OUTPUTS:
        _read("solve.postflop.class_table", table, read_class_table)
    solved_tables = postflop.pop("solved_tables", None)
    if postflop.get("model") == "solved":
        _solved_tables(solved_tables)
    postflop["model"] = "v1"  # the tables are read above; the rest of the section below
    source = postflop.get("source", "config")
    section = {**solve, "postflop": postflop}
    if source == "config":
        try:
            SolveSettings.from_config(section)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"config solve.postflop: {exc}") from None
    elif source == "file" and postflop.get("file") not in WORKFLOW_OUTPUTS:
        _read("solve.postflop.file", postflop.get("file"), lambda path: SolveSettings.from_config(section, path))


def _combo_hands(solve: dict[str, Any]) -> None:
    """``solve.hands: combos`` solves 2- and 3-seat spots under postflop model v1 only."""
    from pokerlab.preflop.combos import COMBO_SEATS

    model = solve.get("postflop", {}).get("model", "v1")
    if model != "v1":
        raise ValueError(f"config solve.hands: combos takes postflop model v1, not {model!r} (set solve.postflop "
                         "model: v1 and solved_tables: null beside it)")
    for i, spot in enumerate(solve.get("spots", [])):
        if spot["seats"] not in COMBO_SEATS:
            raise ValueError(f"config solve.spots[{i}]: {spot['seats']} seats; solve.hands combos solves "
                             f"{' or '.join(map(str, COMBO_SEATS))}-seat spots")


def check_config(config: dict[str, Any]) -> None:
    """Refuse a schema-valid configuration that would fail, or silently change, later."""
    _finite_numbers(config, "")
    solve = config.get("solve", {})
    if "checkpoints" in solve:
        _increasing(solve["checkpoints"], "solve.checkpoints")
    for i, spot in enumerate(solve.get("spots", [])):
        _depth(spot["depth"], f"solve.spots[{i}].depth")
    if solve.get("hands") == "combos":
        _combo_hands(solve)
    for i, pair in enumerate(config.get("equity", {}).get("crosscheck", {}).get("pairs", [])):
        for j, name in enumerate(pair):
            _class_name(name, f"equity.crosscheck.pairs[{i}][{j}]")
    kuhn = config.get("kuhn", {})
    if "checkpoints" in kuhn:
        _increasing(kuhn["checkpoints"], "kuhn.checkpoints")
        beyond = [c for c in kuhn["checkpoints"] if c > kuhn.get("iterations", math.inf)]
        if beyond:
            raise ValueError(f"config kuhn.checkpoints: {beyond[0]} is above kuhn.iterations ({kuhn['iterations']})")
    pushfold = config.get("pushfold", {})
    if pushfold:
        from pokerlab.pushfold.fees import fee_model_from_table

        fees = pushfold.get("fees", {})
        for name in fees:
            try:
                fee_model_from_table(fees, name)
            except ValueError as exc:
                raise ValueError(f"config pushfold.fees.{name}: {exc}") from None
    for mode in ("headsup", "headsup_combos", "fourmax"):
        section = pushfold.get(mode, {})
        if "fees" in section and section["fees"] not in pushfold.get("fees", {}):
            raise ValueError(f"config pushfold.{mode}.fees: preset {section['fees']!r} is not defined under "
                             f"pushfold.fees (defined: {sorted(pushfold.get('fees', {}))})")
        for i, depth in enumerate(section.get("depths", [])):
            _depth(depth, f"pushfold.{mode}.depths[{i}]")
    if "fourmax" in pushfold:
        from pokerlab.pushfold.io import fourmax_combo_settings, fourmax_hands

        fourmax_hands(pushfold)
        fourmax_combo_settings(pushfold)
    _files(config)


def rerun_command(target: str, configfiles: list[str], workdir: str | Path) -> str:
    """The command that re-makes ``target`` with a run's ``--configfile`` files, as outputs record it:
    a file inside ``workdir`` is named relative to it, so the record does not depend on where the
    working copy lies."""
    root = Path(workdir).resolve()
    names = []
    for path in configfiles:
        resolved = (root / path).resolve()
        names.append(resolved.relative_to(root).as_posix() if resolved.is_relative_to(root) else str(path))
    return " ".join(["snakemake --cores 2", target] + [f"--configfile {name}" for name in names])
