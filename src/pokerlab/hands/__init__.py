"""Hand histories: import (Pluribus/ACPC, PokerStars and PHH through pokerkit), normalised
Parquet tables, statistics, grading against the published charts, population vs chart,
push/fold backtest and exploit charts. One module per concern; see each module's docstring."""
