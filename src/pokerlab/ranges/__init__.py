"""Ranges as distributions over the 1,326 combos, range notation, multiway equity and inference.

``Range.parse("TT+,AQs+,AKo")`` gives a :class:`Range`; ``.weights`` is its 1,326-vector.
Multiway (side-pot aware) equity lives in :mod:`pokerlab.ranges.equity`; where a range comes
from in :mod:`.priors` (generated from our charts) and :mod:`.lines`; how it moves when its player
acts in :mod:`.likelihood`; decision reports in :mod:`.decide` and the range-sensitivity experiment
in :mod:`.sensitivity`.
"""

from pokerlab.ranges.range import Range

__all__ = ["Range"]
