"""Shared fixtures."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def equity_table():
    """A small sampled 169x169 equity table (2,000 draws per class pair, seed 7): enough for
    solver tests, whose claims do not depend on the table's sampling error."""
    from pokerlab.equity import sampled_equity_table

    return sampled_equity_table(samples=2000, seed=7)
