"""Model v2 of the postflop model: a positional edge that also depends on the hands.

The v1 model gives the seat in position ``+edge(spr)`` of the played pot over its equity and the
seat out of position ``-edge(spr)``, whatever they hold. v2 adds, per class and role, a
*deviation* ``d_role[c]``: how much more (or less) of the played pot a hand of class ``c``
realises in that role than the role's average hand (share of the played pot). At a heads-up flop
ending, seat ``i`` (role ``r_i``, class ``x``) against seat ``j`` (role ``r_j``, class ``y``)
gets

    share_i = EQ[x, y] + pos_edge_i + d_{r_i}[x] - d_{r_j}[y]

so each seat takes its own deviation and gives up its opponent's. The two surpluses are exact
negatives of each other, so chips are conserved for every pair of hands; the deviations are
constants of the class table, so the payoff depends only on the hands and the tree; and it is
linear in the pairwise tables (a constant 169-vector for the seat's own class, and a dot product
``d_{r_j} . q_j`` of the opponent's reach, per ending). With all deviations zero it is v1.

Why "own minus opponent's" with no factor: if the payoff has this form, a class's measured
realisation averaged over whatever range it met is ``pos_edge + d[x] - E[d_opp]``; centring each
role's deviations on the measured hands makes ``E[d_opp]`` zero on the fitted ranges, so the
deviation is read off the measurement as it stands (:func:`fit_class_table`).

Three-way flop endings (the *random-duel* rule, the same reading as the pairwise-mean equity
rule and the ICM model): each of the three pairs plays the pot heads-up with probability 1/3, so
``share_i = pos_edge_i + sum_{j != i} (EQ[i, j] + d_{r_i}[c_i] - d_{r_j}[c_j]) / 3``. Roles: the
first to act is ``oop``, the last ``ip``, the middle seat the mean of the two vectors
(``mid = (ip + oop) / 2``). The six pairwise surpluses cancel in pairs, so chips are conserved.

Spr bands: the table may hold several bands ``[spr_min, spr_max)``; an ending uses the band that
holds its spr (an spr outside every band uses no deviation). The fit's class realisation is
pooled over every spr it measured, so the fitted table has one band ``[0, inf)``.

Units: shares of the played pot (0.01 = one percent of the pot played after the flop).
"""

from __future__ import annotations

import hashlib
import math
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from pokerlab.cards import N_CLASSES, class_name, parse_class as class_index

if TYPE_CHECKING:
    import pandas as pd

# pandas is imported where a table is read or built, not at import: every solve job imports this
# module and only model v2 reads a table (pandas is about a third of a solve job's start-up).

ROLES = ("ip", "oop")
TABLE_COLUMNS = ("spr_min", "spr_max", "role", "class", "deviation")
"""The columns a class table must have (more, such as the fit's raw figures, are kept as provenance)."""
MAX_DEVIATION = 0.5


@dataclass(frozen=True, eq=False)
class ClassEdges:
    """Per spr band and role, a 169-vector of deviations (share of the played pot).

    ``bands``: ((spr_min, spr_max), ...) sorted and disjoint; ``ip``/``oop``: (bands, 169).
    ``provenance``: where the table came from (path, SHA-256 of its bytes, header lines), recorded
    in every result solved with it.
    """

    bands: tuple[tuple[float, float], ...]
    ip: np.ndarray
    oop: np.ndarray
    provenance: dict = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        m = np.shape(self.ip)[-1] if np.ndim(self.ip) == 2 else N_CLASSES  # 169; small synthetic games in tests
        for name in ("ip", "oop"):
            v = np.asarray(getattr(self, name), dtype=np.float64)
            if v.shape != (len(self.bands), m):
                raise ValueError(f"class table {name}: shape {v.shape}, expected ({len(self.bands)}, {m})")
            if not np.all(np.isfinite(v)) or np.any(np.abs(v) > MAX_DEVIATION):
                raise ValueError(f"class table {name}: deviations must be finite and within +-{MAX_DEVIATION}")
            object.__setattr__(self, name, v)
        for k, (lo, hi) in enumerate(self.bands):
            if not 0 <= lo < hi or (k and lo < self.bands[k - 1][1]):
                raise ValueError(f"class table band {k}: [{lo}, {hi}) must be increasing and disjoint")

    @property
    def n_classes(self) -> int:
        return self.ip.shape[1]

    @classmethod
    def zero(cls, m: int = N_CLASSES) -> "ClassEdges":
        """No deviation anywhere: v2 with this table is v1."""
        return cls(((0.0, math.inf),), np.zeros((1, m)), np.zeros((1, m)), {"source": "zero"})

    def band_of(self, spr: float) -> int:
        """Index of the band holding ``spr``, -1 if none does."""
        for k, (lo, hi) in enumerate(self.bands):
            if lo <= spr < hi:
                return k
        return -1

    def vectors(self, spr: float, players: int) -> list[np.ndarray]:
        """The deviation vector of each seat at a flop ending, in postflop order (first to act first)."""
        k = self.band_of(spr)
        if k < 0:
            return [np.zeros(self.n_classes)] * players
        oop, ip = self.oop[k], self.ip[k]
        return [oop, ip] if players == 2 else [oop, 0.5 * (ip + oop), ip]

    def is_zero(self) -> bool:
        return not (self.ip.any() or self.oop.any())


def read_class_table(path: str | os.PathLike) -> ClassEdges:
    """Read a class table (TSV, ``#`` lines are provenance notes). Errors name the file and the row."""
    path = Path(path)
    if not path.is_file():
        raise ValueError(f"solve.postflop.class_table: {path.as_posix()} is not a file")
    raw = path.read_bytes()
    notes = [line[1:].strip() for line in raw.decode().splitlines() if line.startswith("#")]
    import pandas as pd

    frame = pd.read_csv(path, sep="\t", comment="#", dtype={"class": str, "role": str})
    missing = [c for c in TABLE_COLUMNS if c not in frame.columns]
    if missing:
        raise ValueError(f"class table {path.as_posix()}: missing column(s) {missing}")
    bands = sorted({(float(lo), float(hi)) for lo, hi in zip(frame["spr_min"], frame["spr_max"])})
    ip, oop = np.zeros((len(bands), N_CLASSES)), np.zeros((len(bands), N_CLASSES))
    seen = set()
    for row in frame.itertuples(index=False):
        where = f"class table {path.as_posix()} row ({row.spr_min}, {row.spr_max}, {row.role}, {row[3]})"
        if row.role not in ROLES:
            raise ValueError(f"{where}: role must be one of {ROLES}")
        try:
            c = class_index(str(row[3]))
        except (KeyError, ValueError):
            raise ValueError(f"{where}: unknown class") from None
        key = (float(row.spr_min), float(row.spr_max), row.role, c)
        if key in seen:
            raise ValueError(f"{where}: duplicate row")
        seen.add(key)
        k = bands.index((float(row.spr_min), float(row.spr_max)))
        (ip if row.role == "ip" else oop)[k, c] = float(row.deviation)
    return ClassEdges(tuple(bands), ip, oop, {"path": path.as_posix(), "sha256": hashlib.sha256(raw).hexdigest(),
                                                "notes": notes})


def fit_class_table(realisation: pd.DataFrame, min_hands: int = 1) -> pd.DataFrame:
    """The v2 class table from the fit's per-class realisation (``class_realisation.tsv``).

    Per role: the raw deviation of a class is its mean realisation minus the role's mean over
    the measured hands (weights: hands), i.e. the class against the seat-level edge. It is then
    shrunk toward zero (toward the seat-level edge) by the empirical-Bayes factor
    ``tau^2 / (tau^2 + se^2)``, where ``se`` is the class's standard error across measurements
    and ``tau^2`` the spread of the true deviations, estimated by the method of moments (the
    hands-weighted variance of the raw deviations minus the mean ``se^2``, floored at zero: if
    the spread is all noise, every class shrinks to the seat-level edge). A class with fewer
    than ``min_hands`` hands, fewer than two measurements or no finite ``se`` has no evidence
    beyond its mean and gets deviation 0. One band ``[0, inf)`` (the realisation is pooled over
    spr). The result is re-centred so each role's hands-weighted deviation is zero again.

    Returns a frame with :data:`TABLE_COLUMNS` plus ``raw``, ``se``, ``hands``, ``measurements``,
    ``shrink`` (the factor applied), sorted by role then class index, all 169 classes per role.
    """
    import pandas as pd

    need = {"class", "role", "realisation", "se", "hands", "measurements"}
    missing = need - set(realisation.columns)
    if missing:
        raise ValueError(f"class realisation: missing column(s) {sorted(missing)}")
    rows = []
    for role in ROLES:
        sel = realisation[realisation["role"] == role]
        by_class = {class_index(str(c)): r for c, r in zip(sel["class"], sel.itertuples(index=False))}
        r = np.full(N_CLASSES, np.nan)
        se = np.full(N_CLASSES, np.nan)
        hands = np.zeros(N_CLASSES)
        meas = np.zeros(N_CLASSES, dtype=np.int64)
        for c, row in by_class.items():
            r[c], se[c], hands[c], meas[c] = row.realisation, row.se, row.hands, row.measurements
        usable = np.isfinite(r) & np.isfinite(se) & (meas >= 2) & (hands >= min_hands)
        raw = np.zeros(N_CLASSES)
        factor = np.zeros(N_CLASSES)
        if usable.any():
            w = hands[usable]
            centre = float(w @ r[usable] / w.sum())
            raw[usable] = r[usable] - centre
            tau2 = max(0.0, float(w @ raw[usable] ** 2 / w.sum()) - float(w @ se[usable] ** 2 / w.sum()))
            factor[usable] = tau2 / (tau2 + se[usable] ** 2) if tau2 > 0 else 0.0
        dev = raw * factor
        if usable.any() and factor.any():
            w = hands[usable]
            dev[usable] -= float(w @ dev[usable] / w.sum())
        dev = np.clip(dev, -MAX_DEVIATION, MAX_DEVIATION)
        for c in range(N_CLASSES):
            rows.append({"spr_min": 0.0, "spr_max": math.inf, "role": role, "class": class_name(c),
                         "deviation": float(dev[c]) + 0.0, "raw": float(raw[c]), "se": float(se[c]),
                         "hands": int(hands[c]), "measurements": int(meas[c]), "shrink": float(factor[c])})
    return pd.DataFrame(rows)


def write_class_table(table: pd.DataFrame, path: str | os.PathLike, notes: list[str]) -> None:
    """Write a class table as TSV with ``#`` provenance lines first (atomic, fixed float format)."""
    from pokerlab.io import atomic_path

    with atomic_path(path) as tmp:
        with open(tmp, "w", newline="\n") as fh:
            for note in notes:
                fh.write(f"# {note}\n")
            table.to_csv(fh, sep="\t", index=False, lineterminator="\n", float_format="%.8g")


def class_table_from_file(realisation_path: str | os.PathLike, table_path: str | os.PathLike,
                          min_hands: int = 1) -> pd.DataFrame:
    """Read the fit's ``class_realisation.tsv``, fit the class table (:func:`fit_class_table`) and
    write it with its provenance: the source file's name and SHA-256 and the shrinkage rule."""
    raw = Path(realisation_path).read_bytes()
    import pandas as pd

    table = fit_class_table(pd.read_csv(realisation_path, sep="\t"), min_hands=min_hands)
    usable = table[table["shrink"] > 0]
    notes = [
        "pokerlab postflop model v2 class table: deviation = share of the played pot a class realises",
        "above its role's mean (in position: ip; out of position: oop), shrunk toward the seat-level edge",
        f"source: {Path(realisation_path).name} sha256 {hashlib.sha256(raw).hexdigest()}",
        "shrinkage: empirical Bayes, factor tau^2/(tau^2 + se^2), tau^2 by the method of moments per role;",
        f"classes with < 2 measurements, no finite se or < {min_hands} hands get 0; re-centred per role",
        f"classes with evidence: ip {int((usable['role'] == 'ip').sum())}, oop {int((usable['role'] == 'oop').sum())}",
    ]
    write_class_table(table, table_path, notes)
    return table
