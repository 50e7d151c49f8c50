"""Subcommands of the ``pokerlab`` command line (argument parsing and printing only)."""

from __future__ import annotations

import argparse
import math
from typing import Callable, TypeVar

T = TypeVar("T")


def comma_separated(convert: Callable[[str], T], what: str) -> Callable[[str], tuple[T, ...]]:
    """An argparse ``type`` for a comma-separated list, e.g. ``comma_separated(int, "integers")``."""

    def parse(text: str) -> tuple[T, ...]:
        if not text.strip():
            return ()  # an empty list
        tokens = text.split(",")
        if any(not token.strip() for token in tokens):
            raise argparse.ArgumentTypeError(f"expected comma-separated {what}, got {text!r} (an empty item)")
        try:
            values = tuple(convert(token) for token in tokens)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected comma-separated {what}, got {text!r}") from None
        if any(isinstance(v, float) and not math.isfinite(v) for v in values):
            raise argparse.ArgumentTypeError(f"expected comma-separated finite {what}, got {text!r}")
        return values

    return parse
