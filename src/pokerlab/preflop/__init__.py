"""The preflop solve: from a spot to its solved chart data.

Modules, in the order the data flows:

- :mod:`~pokerlab.preflop.spot`: a spot (format, seats, depth) and the sizing schedule;
- :mod:`~pokerlab.preflop.tree`: the action tree of a spot under the schedule, endings classified;
- :mod:`~pokerlab.preflop.payoffs`: chip-EV payoffs at every ending (the trust ladder, the
  postflop model at ``flop`` endings); :mod:`~pokerlab.preflop.payoffs_icm` the ICM outcomes;
- :mod:`~pokerlab.preflop.solver`: CFR+ over the tree with exact exploitability;
  :mod:`~pokerlab.preflop.kernels` its Numba passes; :mod:`~pokerlab.preflop.solver_icm` the
  ICM variant;
- :mod:`~pokerlab.preflop.readout`: per-node strategy, EVs and arrive-with under the average;
- :mod:`~pokerlab.preflop.solve`: re-solve until the bar, checkpoints, the result document;
  :mod:`~pokerlab.preflop.result_file` writes and reads it (``result.json`` + ``result.npz``).

The package imports nothing at import time, so ``import pokerlab.preflop.spot`` stays cheap.
"""
