"""Solved endings: value a preflop spot's heads-up flop endings by real postflop solves of the ranges the
equilibrium itself brings there, iterated to a fixed point (see :mod:`pokerlab.solved.loop`).

The corrections the loop measures are read by the preflop solve from
:mod:`pokerlab.preflop.ending_corrections` (model ``solved``)."""
