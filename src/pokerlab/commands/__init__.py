"""Subcommands of the ``pokerlab`` command line (argument parsing and printing only)."""

from __future__ import annotations

import argparse
from typing import Callable, TypeVar

T = TypeVar("T")


def comma_separated(convert: Callable[[str], T], what: str) -> Callable[[str], tuple[T, ...]]:
    """An argparse ``type`` for a comma-separated list, e.g. ``comma_separated(int, "integers")``."""

    def parse(text: str) -> tuple[T, ...]:
        try:
            return tuple(convert(token) for token in text.split(",") if token.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected comma-separated {what}, got {text!r}") from None

    return parse
