"""Heads-up postflop solver (flop, turn or river root) with per-combo EV, equity and pot played.

``game`` the spot and bet tree as validated data, ``tree`` the public betting tree,
``solver`` the solver's face (discounted CFR vectorised over combos, in Numba), built from
``arrays`` (what the kernels read), ``dcfr``, ``walk``, ``passes`` (threads), ``showdown``
and ``runouts``, ``isomorphism`` and ``workspace``; ``result`` the normalised result record
shared with TexasSolver's results (``texassolver``). docs/postflop-solver.md describes the
design.
"""

import os

# Numba's worker threads sleep while they wait instead of spinning: on a machine shared with
# other jobs a spinning thread takes the core its partner needs (on the turn tree two
# spinning threads ran 6x slower than one). Set before Numba's OpenMP layer starts, unless
# the user chose otherwise.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
