"""Heads-up postflop solver (flop, turn or river root) with per-combo EV, equity and pot played.

``game`` the spot and bet tree as validated data, ``tree`` the public betting tree,
``showdown`` sorted-strength showdown sums with exact card removal, ``solver`` discounted CFR
vectorised over combos (Numba), ``result`` the normalised result record shared with
TexasSolver's results (``texassolver``).
"""

import os

# Numba's worker threads sleep while they wait instead of spinning: on a machine shared with
# other jobs a spinning thread takes the core its partner needs (on the turn tree two
# spinning threads ran 6x slower than one). Set before Numba's OpenMP layer starts, unless
# the user chose otherwise.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
