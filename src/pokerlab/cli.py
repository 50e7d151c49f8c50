"""The ``pokerlab`` command line: one subcommand per capability.

Each subcommand lives in ``pokerlab.commands.<name>`` and exposes ``register(subparsers)``,
which adds its parser and sets ``func`` to the handler. The handlers only parse arguments,
call the library and print; the logic stays in the library modules.
"""

from __future__ import annotations

import argparse
import errno
import importlib
import sys

from pokerlab import __version__

COMMANDS = ("equity", "kuhn", "range", "tree", "solve", "postflop", "audit", "chart", "pushfold", "decide", "serve",
            "hands", "sessions", "solved")


def build_parser(commands: tuple[str, ...] = COMMANDS) -> argparse.ArgumentParser:
    """The parser with ``commands``' subparsers (each module is imported only when listed)."""
    parser = argparse.ArgumentParser(
        prog="pokerlab",
        description="Solved preflop No-Limit Hold'em charts, with the evidence that they are solved.",
    )
    parser.add_argument("--version", action="version", version=f"pokerlab {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in commands:
        importlib.import_module(f"pokerlab.commands.{name}").register(subparsers)
    return parser


def os_error_line(exc: OSError) -> str:
    """One line for an OS error: the path and what went wrong (``results: Permission denied``)."""
    reason = exc.strerror or str(exc) or type(exc).__name__
    if exc.errno == errno.EEXIST:
        reason = "exists and is not a folder"
    if exc.filename is None:
        return reason
    return f"{exc.filename}: {reason}" + (f" ({exc.filename2})" if exc.filename2 is not None else "")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # Only the named subcommand's module is imported: some pull in Numba-compiled solvers, which
    # `pokerlab serve` or `pokerlab equity` should not wait for.
    named = next((a for a in argv if not a.startswith("-")), None)
    parser = build_parser((named,) if named in COMMANDS else COMMANDS)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args) or 0)
    except ValueError as exc:  # bad user input: say what, not a traceback
        print(f"pokerlab {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # a path that cannot be read or written: name it, not a traceback
        print(f"pokerlab {args.command}: error: {os_error_line(exc)}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
