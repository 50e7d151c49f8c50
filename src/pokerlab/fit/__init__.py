"""The postflop-constant fitting run: measure the model that prices every preflop flop ending.

``settings`` the ``fit:`` config section, ``endings`` the heads-up flop endings a solved spot
reaches (with both ranges), ``boards`` the seeded texture-stratified flop sample, ``plan`` the
tables the jobs read, ``solves`` one ending x board solved as played and as the control run
(built-in solver or TexasSolver), ``measure`` the measurements and the fits, ``report`` the
figures and summary, ``run`` the three workflow steps.
"""
