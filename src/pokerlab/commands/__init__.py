"""Subcommands of the ``pokerlab`` command line (argument parsing and printing only)."""

from __future__ import annotations

import argparse
import math
from typing import Callable, TypeVar

T = TypeVar("T")


def check_outputs(**paths: str | None) -> None:
    """Refuse, before any work, an output that cannot be written: ``option=path`` names the
    option (``png="x.png"`` is ``--png``; None: not asked for). See :func:`pokerlab.io.check_writable`."""
    from pokerlab.io import check_writable

    for option, path in paths.items():
        if path is not None:
            check_writable(path, f"--{option.replace('_', '-')}")


def check_output_folder(option: str, path: str | None, file_name: str) -> None:
    """:func:`check_outputs` for a folder an option names, into which ``file_name`` is written."""
    from pathlib import Path

    if path is not None:
        if Path(path).exists() and not Path(path).is_dir():
            raise ValueError(f"--{option} {path}: is a file, not a folder")
        check_outputs(**{option: str(Path(path) / file_name)})


def positive_number(text: str) -> float:
    """An argparse ``type``: a finite number > 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"expected a finite number > 0, got {text!r}")
    return value


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
