"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def equity_table():
    """A small sampled 169x169 equity table (2,000 draws per class pair, seed 7): enough for
    solver tests, whose claims do not depend on the table's sampling error."""
    from pokerlab.equity import sampled_equity_table

    return sampled_equity_table(samples=2000, seed=7)


@pytest.fixture(scope="session")
def served_release(equity_table, tmp_path_factory):
    """A tiny results directory for the serving tests: two 3-handed 15bb charts (cash and mtt,
    30 CFR+ iterations each, loose bar) with their manifest, and a pack of one river solve.
    Returns ``(root, {"charts": {set id: chart path}, "pack": pack dir})``."""
    from pokerlab.cards import parse_cards
    from pokerlab.manifest import publish_release
    from pokerlab.postflop.game import BetTree, PostflopSpot
    from pokerlab.postflop.solver import PostflopSolver
    from pokerlab.preflop.result_file import write_result
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.publish import write_chart
    from pokerlab.ranges import Range
    from pokerlab.serve.pack import pack_spot, write_pack

    root = tmp_path_factory.mktemp("served") / "results"
    charts = {}
    for fmt in ("cash", "mtt"):
        result = solve_spot(Spot(fmt, 3, 15), load_sizing(None), equity_table.win, equity_table.tie,
                            SolveSettings(checkpoints=(30,), bar_coefficient=10.0))
        solve = root / "solves" / fmt / "result.json"
        solve.parent.mkdir(parents=True)
        write_result(solve, result)
        charts[f"{fmt}/3max/15bb"] = root / "charts" / fmt / "3max" / "15bb.json.gz"
        write_chart(solve, charts[f"{fmt}/3max/15bb"])
    publish_release(root, list(charts.values()), ["charts"], {"served_release": 1})
    spot = PostflopSpot(10.0, 20.0, tuple(parse_cards("KsTh7d4c2s")), Range.parse("QQ+,AK,KQ,JTs,98s").weights,
                        Range.parse("TT+,AQ+,KJs,T9s,76s").weights, BetTree.uniform((50,), (100,), True))
    solver = PostflopSolver(spot)
    solver.solve(0.2, 400)
    write_pack(root / "packs" / "river", [pack_spot(solver, 0.2, "river_kt742")], campaign="test")
    return root, {"charts": charts, "pack": root / "packs" / "river", "solver": solver}
