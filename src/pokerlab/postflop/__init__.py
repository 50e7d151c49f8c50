"""Heads-up postflop solver (flop, turn or river root) with per-combo EV, equity and pot played.

``game`` the spot and bet tree as validated data, ``tree`` the public betting tree,
``showdown`` sorted-strength showdown sums with exact card removal, ``solver`` discounted CFR
vectorised over combos (Numba), ``result`` the normalised result record shared with
TexasSolver's results (``texassolver``).
"""
