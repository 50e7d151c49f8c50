"""Files the library reads, shipped inside the package (listed in pyproject.toml's package-data).

One copy of each: the workflow's config names them by their place in the source tree
(``src/pokerlab/data/sizing.yaml``) and the library's defaults read them from wherever the
package is installed (:func:`data_path`).

* ``sizing.yaml``: the preflop sizing schedule (:func:`pokerlab.preflop.spot.load_sizing`);
  ``sizing-second-3bet.yaml``: the same plus a second, smaller 3-bet size above 20bb.
* ``payouts.yaml``: the payout structures of the ICM formats (:func:`pokerlab.icm.load_payouts`).
* ``postflop-constants.json``: the postflop model's four constants as measured by the fitting run
  (:func:`pokerlab.preflop.payoffs.read_postflop_constants`), with that run's provenance.
* ``postflop-class-table.tsv``: postflop model v2's per-class deviations, fitted by the same run
  (:func:`pokerlab.preflop.class_edges.read_class_table`).
* ``schemas/``: the JSON Schemas of the published chart (``chart.schema.json``) and of the
  explorer's node documents (``node-document.schema.json``, ``node-document-preflop.schema.json``).
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

__all__ = ["data_path"]


def data_path(name: str) -> Path:
    """The path of the shipped file ``name`` (``"sizing.yaml"``, ``"schemas/chart.schema.json"``).

    The package is installed as plain files (a wheel is unpacked, never imported from a zip), so
    the resource is a file on disk; a missing one raises ``FileNotFoundError`` naming it."""
    path = Path(str(files(__name__).joinpath(name)))
    if not path.is_file():
        raise FileNotFoundError(f"pokerlab data file {name!r} is not installed (looked for {path})")
    return path
