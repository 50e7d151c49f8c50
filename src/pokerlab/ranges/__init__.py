"""Ranges as distributions over the 1,326 combos, range notation, and multiway equity.

``Range.parse("TT+,AQs+,AKo")`` gives a :class:`Range`; ``.weights`` is its 1,326-vector.
Multiway equity against ranges lives in :mod:`pokerlab.ranges.equity`.
"""

from pokerlab.ranges.range import Range

__all__ = ["Range"]
