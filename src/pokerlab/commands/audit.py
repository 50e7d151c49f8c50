"""``pokerlab audit``: recompute every digest of a published release and name what differs."""

from __future__ import annotations

import argparse

from pokerlab.manifest import audit


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "audit",
        help="check a release against its manifest.json and SHA256SUMS",
        description="Recompute the size and SHA-256 of every file the manifest lists, check SHA256SUMS "
        "(the manifest's own digest included) and look for unlisted files in the published folders. "
        "Prints one line per mismatched, missing or extra file; exits 1 if there is any.",
    )
    parser.add_argument("manifest", nargs="?", default="results/manifest.json",
                        help="the release's manifest (default results/manifest.json)")
    parser.set_defaults(func=_run)


def _run(args: argparse.Namespace) -> int:
    problems, checked = audit(args.manifest)
    for problem in problems:
        print(problem)
    if problems:
        print(f"audit FAILED: {len(problems)} problem(s) in {checked} listed file(s)")
        return 1
    print(f"audit OK: {checked} file(s) and SHA256SUMS match {args.manifest}")
    return 0
