"""Ranges as distributions over the 1,326 combos, multiway equity and inference.

``Range.parse("TT+,AQs+,AKo")`` gives a :class:`Range` (its text form is
:mod:`pokerlab.range_notation`); ``.weights`` is its 1,326-vector. Multiway (side-pot aware)
equity lives in :mod:`pokerlab.ranges.equity`; where a range comes from in :mod:`.priors`
(generated from our charts) and :mod:`.lines`; how it moves when its player acts in
:mod:`.likelihood`. Decision reports built on them are in :mod:`pokerlab.advice`.
"""

from pokerlab.ranges.range import Range

__all__ = ["Range"]
