"""The documentation: the site builds with ``mkdocs build --strict`` (a broken link or anchor
fails), its command-line reference covers every subcommand, the README stays a short user's page
whose links resolve, and config/README.md describes every file in config/."""

import argparse
import os
import re
import subprocess
import sys
from pathlib import Path

from pokerlab.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]


def command_names(parser: argparse.ArgumentParser, prefix: str = "pokerlab") -> list[str]:
    names = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                names += [f"{prefix} {name}"] + command_names(sub, f"{prefix} {name}")
    return names


def test_site_builds_strictly_and_its_cli_reference_covers_every_subcommand(tmp_path):
    site = tmp_path / "site"
    out = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
                         capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})
    assert out.returncode == 0, ("mkdocs build --strict failed (the docs extra installs mkdocs: "
                                 "pip install -e '.[docs]'):\n" + out.stdout[-3000:] + out.stderr[-3000:])
    page = (site / "reference" / "cli" / "index.html").read_text()
    names = command_names(build_parser())
    assert "pokerlab hands grade" in names and "pokerlab sessions add" in names
    missing = [name for name in names if f'id="{name.replace(" ", "-")}"' not in page]
    assert not missing, f"the CLI reference has no section for {missing}"
    # the help text itself is on the page, e.g. the serve command's default port
    assert "default 8765" in page


def test_readme_is_a_short_users_page_whose_links_resolve():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) <= 200
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)\s]*)?\)", text)
    local = [t for t in targets if not re.match(r"[a-z]+:", t)]
    assert len(local) >= 10  # it links into the documentation
    assert [t for t in local if not (ROOT / t).exists()] == []


def test_config_readme_describes_every_config_file():
    text = (ROOT / "config" / "README.md").read_text()
    files = sorted(p.relative_to(ROOT / "config").as_posix() for p in (ROOT / "config").rglob("*")
                   if p.is_file() and p.name != "README.md")
    assert "config.yaml" in files and "schema.yaml" in files
    assert [f for f in files if f"`{f}`" not in text] == []
