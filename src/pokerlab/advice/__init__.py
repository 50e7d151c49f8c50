"""Advice for one player: decision reports, their sensitivity to the assumed opponent, and an
opponent's archetype measured from hand histories.

The application layer over :mod:`pokerlab.ranges` (range inference), :mod:`pokerlab.postflop`
(street solves) and :mod:`pokerlab.hands` (hand-history import): a decision report in
:mod:`.decide`, the range-sensitivity experiment in :mod:`.sensitivity` and the villain profile
in :mod:`.profile`.
"""
