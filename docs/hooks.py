"""MkDocs hooks of the documentation site (named in mkdocs.yml).

- The command-line reference is rendered from the argparse parsers of ``pokerlab.cli`` at build
  time: the marker ``<!-- pokerlab-cli -->`` in a page becomes one section per subcommand (and per
  nested subcommand) holding its ``--help`` text, so the reference cannot drift from the code.
- A page that the nav of mkdocs.yml does not list is added to it: a dated page under
  ``benchmarks/`` to the Benchmarks section (newest first), any other page to "More". Adding a
  page is then one new file; the nav stays the place that orders the main pages.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

CLI_MARKER = "<!-- pokerlab-cli -->"
HELP_COLUMNS = "100"  # argparse wraps help at the terminal width; fixed so the page is the same everywhere


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse has no public accessor for its subparsers
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _summaries(parser: argparse.ArgumentParser) -> dict[str, str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return {choice.dest: choice.help or "" for choice in action._choices_actions}
    return {}


def cli_reference() -> str:
    """Markdown for every ``pokerlab`` subcommand: a summary table, then each one's help text."""
    from pokerlab.cli import build_parser

    previous = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        parser = build_parser()
        lines = ["| command | what it does |", "|---|---|"]
        sections = [f"## `pokerlab`\n\n```text\n{parser.format_help()}```\n"]

        def walk(sub: argparse.ArgumentParser, name: str, summary: str, level: int) -> None:
            anchor = name.replace(" ", "-")
            lines.append(f"| [`{name}`](#{anchor}) | {summary} |")
            sections.append(f"{'#' * level} `{name}` {{#{anchor}}}\n\n```text\n{sub.format_help()}```\n")
            summaries = _summaries(sub)
            for child_name, child in _subcommands(sub).items():
                walk(child, f"{name} {child_name}", summaries.get(child_name, ""), level + 1)

        summaries = _summaries(parser)
        for name, sub in _subcommands(parser).items():
            walk(sub, f"pokerlab {name}", summaries.get(name, ""), 2)
    finally:
        if previous is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = previous
    return "\n".join(lines) + "\n\n" + "\n".join(sections)


def on_page_markdown(markdown, page, config, files):
    if CLI_MARKER in markdown:
        return markdown.replace(CLI_MARKER, cli_reference())
    return markdown


def _listed(nav) -> set[str]:
    found: set[str] = set()
    for item in nav:
        value = next(iter(item.values())) if isinstance(item, dict) else item
        if isinstance(value, list):
            found |= _listed(value)
        else:
            found.add(value)
    return found


def on_config(config):
    nav = config["nav"]
    if not nav:
        return config
    docs = Path(config["docs_dir"])
    listed = _listed(nav)
    pages = sorted(p.relative_to(docs).as_posix() for p in docs.rglob("*.md"))
    missing = [p for p in pages if p not in listed]
    benchmarks = sorted((p for p in missing if p.startswith("benchmarks/")), reverse=True)
    others = [p for p in missing if not p.startswith("benchmarks/")]
    for item in nav:
        if isinstance(item, dict) and "Benchmarks" in item:
            item["Benchmarks"].extend(benchmarks)
            break
    else:
        others += benchmarks
    if others:
        nav.append({"More": others})
    return config
