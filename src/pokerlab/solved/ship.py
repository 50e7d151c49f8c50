"""Shipping a measured table and its start: copy the pair into the folder the default run reads
(``solve.postflop.solved_tables``) only when the measurement says it may ship.

A pair ships when all of these hold (docs/pipeline/solved.md, "Held-out validation" and "The ship check"):

* the held-out report (``…-heldout.json``) of this very table gives the verdict ``ships`` (every ending
  in the table reached by its own chart, the held-out gap below the model's);
* the ship check (``check/…/result.json``) solved the spot with this very table and start and says
  ``shipped`` (the start under the bar in the table's game);
* the config the pair is shipped for measures the spot with the settings the table was measured with
  (its settings digest), so that the default run does not refuse the table.

Nothing is copied unless every condition holds. Both files are copied to temporaries beside their
destinations first and renamed only when both copies succeeded, so a refused or failed copy leaves the
folder as it was.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pokerlab.io import atomic_path, read_json
from pokerlab.preflop.ending_corrections import read_ending_corrections, read_solved_start, start_path
from pokerlab.solved.settings import settings_sha256, spot_section


@dataclass(frozen=True)
class MeasuredPair:
    """Where a measuring run left one spot's pair and the evidence about it (paths under ``results``)."""

    table: Path
    start: Path
    heldout_report: Path
    check_result: Path

    @classmethod
    def of(cls, spot: str, results: str | os.PathLike = "results/solved", method: str = "exchange") -> "MeasuredPair":
        """The pair of ``spot`` (``cash/6max/100bb``) that ``solved_{method}_validation`` and
        ``solved_{method}_check`` leave under ``results``."""
        folder, file_stem = Path(results) / method, spot.replace("/", "-")
        table = folder / f"{file_stem}.tsv"
        return cls(table, start_path(table), folder / f"{file_stem}-heldout.json", folder / "check" / spot / "result.json")


def _read_evidence(path: Path, what: str) -> dict[str, Any]:
    """A report the workflow writes; a missing one is named with the command that makes it."""
    if not path.is_file():
        raise ValueError(f"{path.as_posix()}: missing; {what} first (snakemake --cores 2 {path.as_posix()}, with the "
                         "measuring run's --configfile)")
    return read_json(path, what)


def ship_refusals(pair: MeasuredPair, solved_section: dict[str, Any]) -> list[str]:
    """Why ``pair`` may not ship under the config's ``solved`` section (empty: it may). ``ValueError`` when
    a file is missing or unreadable, naming it."""
    table = read_ending_corrections(pair.table)
    start = read_solved_start(pair.start, table)  # refuses a start that belongs to another table
    table_digest, start_digest = table.provenance["sha256"], start.sha256  # of the files, as their readers hash them
    spot = table.spot
    reasons = []

    report = _read_evidence(pair.heldout_report, "check the table on held-out flops")
    if report.get("table_sha256") != table_digest:
        reasons.append(f"{pair.heldout_report.as_posix()}: checks another table (or one from before reports named "
                       "theirs); run the held-out check again")
    elif not report.get("verdict", {}).get("ships", False):
        reasons.append(f"{pair.heldout_report.as_posix()}: the verdict refuses the table: "
                       + "; ".join(report.get("verdict", {}).get("reasons", ["no verdict"])))

    check = _read_evidence(pair.check_result, "solve the spot with the pair")
    used = check.get("settings", {}).get("solved_endings") or {}
    if used.get("sha256") != table_digest or (used.get("start") or {}).get("sha256") != start_digest:
        reasons.append(f"{pair.check_result.as_posix()}: solved with another table or start; run the ship check again")
    elif check.get("status") != "shipped":
        reasons.append(f"{pair.check_result.as_posix()}: the ship check says {check.get('status')!r}, not 'shipped' "
                       f"(exploitability {check.get('exploitability_bb')} bb against the bar {check.get('bar_bb')} bb)")

    wanted = settings_sha256(spot_section(solved_section, spot))
    if table.provenance.get("settings_sha256") != wanted:
        reasons.append(f"the config measures {spot} with solved settings {wanted}, the table was measured with "
                       f"{table.provenance.get('settings_sha256')}: the default run would refuse it (list the spot "
                       "under solved.spots with the keys it was measured with)")
    return reasons


def ship_pair(pair: MeasuredPair, solved_section: dict[str, Any], folder: str | os.PathLike) -> list[Path]:
    """Copy ``pair``'s table and start into ``folder`` if :func:`ship_refusals` finds nothing, else raise
    ``ValueError`` with every reason; returns the paths written."""
    reasons = ship_refusals(pair, solved_section)
    if reasons:
        raise ValueError(f"{pair.table.as_posix()} does not ship:\n  " + "\n  ".join(reasons))
    written = [Path(folder) / pair.table.name, Path(folder) / pair.start.name]
    with atomic_path(written[0]) as table_tmp, atomic_path(written[1]) as start_tmp:
        shutil.copyfile(pair.table, table_tmp)
        shutil.copyfile(pair.start, start_tmp)
    return written
