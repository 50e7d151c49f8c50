"""Push/fold (shove-or-fold) solvers with a fee model: heads-up exact, 4-max Monte Carlo.

An independent check of the CFR+ solver: a different algorithm (damped best response with a
decaying step) that shares no code with it below the equity table.
"""
