"""The package works installed from a wheel, away from this checkout: the files the library reads
(pokerlab/data: sizing, payouts, postflop constants and class table, JSON Schemas) ship inside it.

The wheel is built from a copy of the sources (nothing is written into the checkout) without build
isolation, installed without dependencies into a fresh virtual environment in a temporary folder; a
``.pth`` file there makes this environment's dependencies importable (a ``.pth`` line adds a folder
to ``sys.path`` without running the ``.pth`` files in it, so this checkout's editable install is not
importable there), and every command runs from a folder outside the checkout."""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import site
import subprocess
import sys
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "pokerlab" / "data"


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    out = subprocess.run(args, capture_output=True, text=True, cwd=cwd, env=env, timeout=600)
    assert out.returncode == 0, f"{' '.join(map(str, args))} failed:\n{out.stdout[-3000:]}{out.stderr[-3000:]}"
    return out.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path, dict[str, str]]:
    """``(python, pokerlab script, environment)`` of a fresh environment holding only the wheel."""
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    shutil.copytree(ROOT / "src", source / "src", ignore=shutil.ignore_patterns("*.egg-info", "__pycache__"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PYTHONNOUSERSITE"] = "1"
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-cache-dir",
          "--wheel-dir", str(tmp / "dist"), str(source)], tmp, env)
    (wheel,) = (tmp / "dist").glob("pokerlab-*.whl")
    target = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(target)
    python = target / "bin" / "python"
    _run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", str(wheel)],
         tmp, env)
    (own_site,) = (target / "lib").glob("python*/site-packages")
    (own_site / "dependencies.pth").write_text("\n".join(site.getsitepackages()) + "\n")
    return python, target / "bin" / "pokerlab", env


def test_the_installed_package_is_the_wheel_and_ships_every_data_file_unchanged(installed, tmp_path):
    python, _, env = installed
    script = ("import hashlib, json, pokerlab\n"
              "from pokerlab.data import data_path\n"
              "from pokerlab.icm import load_payouts\n"
              "from pokerlab.preflop.class_edges import read_class_table\n"
              "from pokerlab.preflop.payoffs import read_postflop_constants\n"
              "from pokerlab.preflop.spot import load_sizing\n"
              "from pokerlab.publish import load_schema\n"
              "from pokerlab.serve.documents import POSTFLOP_SCHEMA, PREFLOP_SCHEMA, load_schema as document_schema\n"
              "load_sizing(); load_sizing(data_path('sizing-second-3bet.yaml')); load_payouts()\n"
              "read_postflop_constants(data_path('postflop-constants.json'))\n"
              "read_class_table(data_path('postflop-class-table.tsv'))\n"
              "load_schema(); document_schema(POSTFLOP_SCHEMA); document_schema(PREFLOP_SCHEMA)\n"
              "names = {p.relative_to(data_path('sizing.yaml').parent).as_posix(): p for p in\n"
              "         data_path('sizing.yaml').parent.rglob('*') if p.is_file() and '__pycache__' not in p.parts}\n"
              "print(json.dumps({'file': pokerlab.__file__, 'data': {n: hashlib.sha256(p.read_bytes()).hexdigest()\n"
              "                  for n, p in names.items() if n != '__init__.py'}}))\n")
    report = json.loads(_run([str(python), "-c", script], tmp_path, env))
    assert Path(report["file"]).is_relative_to(python.parents[1])  # not this checkout's src/
    shipped = {p.relative_to(DATA).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
               for p in DATA.rglob("*") if p.is_file() and p.suffix != ".py" and "__pycache__" not in p.parts}
    assert {"sizing.yaml", "payouts.yaml", "schemas/chart.schema.json"} <= set(shipped) and report["data"] == shipped


def test_equity_tree_and_chart_commands_run_from_the_wheel_outside_the_checkout(installed, equity_table, tmp_path):
    from pokerlab.preflop.result_file import write_result
    from pokerlab.preflop.solve import SolveSettings, solve_spot
    from pokerlab.preflop.spot import Spot, load_sizing
    from pokerlab.publish import write_chart

    _, pokerlab, env = installed
    # published full-enumeration figures (e.g. PokerStove): AA wins 81.71%, ties 0.46% against KK
    out = _run([str(pokerlab), "equity", "AA", "KK"], tmp_path, env)
    assert "exact, 61,642,944 deals" in out and "win   81.7147%" in out and "tie    0.4627%" in out

    # the tree reads the shipped sizing schedule: the same counts as this checkout's
    args = ["tree", "--format", "mtt", "--seats", "6", "--depth", "20"]
    here = _run([sys.executable, "-m", "pokerlab.cli", *args], ROOT, env)
    assert _run([str(pokerlab), *args], tmp_path, env) == here and "decision" in here

    # a chart written here is read, checked against the shipped schema and drawn there
    result = solve_spot(Spot("cash", 2, 10), load_sizing(None), equity_table.win, equity_table.tie,
                        SolveSettings(checkpoints=(30,), bar_coefficient=10.0))
    write_result(tmp_path / "result.json", result)
    write_chart(tmp_path / "result.json", tmp_path / "10bb.json.gz")
    root = json.loads(gzip.decompress((tmp_path / "10bb.json.gz").read_bytes()))["nodes"][0]
    out = _run([str(pokerlab), "chart", "10bb.json.gz", "--out", "root.svg"], tmp_path, env)
    shares = ", ".join(f"{a} {100 * root['shares'][a]:.1f}%" for a in root["actions"])
    assert f"node (root) ({root['actor']} to act, reach 100.00%): {shares}" in out
    assert (tmp_path / "root.svg").read_text().lstrip().startswith("<?xml")
