"""The package's layers (docs/reference/layout.md) and its import graph.

The contracts live in ``pyproject.toml`` (``[tool.importlinter]``); ``lint-imports`` checks them
all. The other tests build the import graph with grimp (import-linter's engine) and check that
the declared layers really forbid an upward import, and that no module takes part in a cycle.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[1]


def _top(module: str) -> str:
    """``pokerlab.fit.solves`` -> ``pokerlab.fit``: the top-level package or module."""
    return ".".join(module.split(".")[:2])


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def _layer_names() -> list[tuple[list[str], bool]]:
    """The layers contract's layers, top first: (module names, independent). ``a | b`` are
    independent, ``a : b`` not; a name in parentheses is a layer that may be absent."""
    out = []
    for text in _contracts()["layers"]["layers"]:
        out.append(([t.strip() for t in text.replace(":", "|").split("|")], ":" not in text))
    return out


def _layers(graph: grimp.ImportGraph) -> list[grimp.Layer]:
    """The layers as grimp reads them, the absent optional ones left out."""
    present = {m.removeprefix("pokerlab.") for m in graph.find_children("pokerlab")}
    return [grimp.Layer(*(n.strip("()") for n in names if not n.startswith("(") or n.strip("()") in present),
                        independent=independent) for names, independent in _layer_names()]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("pokerlab", cache_dir=None)


def test_lint_imports_keeps_every_contract():
    run = subprocess.run([str(Path(sys.executable).with_name("lint-imports")), "--no-cache"], cwd=ROOT,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    assert f"Contracts: {len(_contracts())} kept, 0 broken." in run.stdout


def test_every_top_level_module_is_in_exactly_one_layer(graph):
    names = [n for layer, _ in _layer_names() for n in layer]
    declared = [n.strip("()") for n in names]
    assert len(declared) == len(set(declared))
    children = {m.removeprefix("pokerlab.") for m in graph.find_children("pokerlab")}
    assert children <= set(declared)
    assert {n for n in names if not n.startswith("(")} <= children  # only the optional ones may be absent


@pytest.mark.parametrize(("importer", "imported"), [
    ("pokerlab.cards", "pokerlab.preflop.spot"),  # the foundation reaching up into a solver
    ("pokerlab.postflop.texassolver", "pokerlab.ranges.range"),  # a solver reaching up (a cycle once)
    ("pokerlab.fit.solves", "pokerlab.serve.pack"),  # a capability reaching up into serving
    ("pokerlab.advice.decide", "pokerlab.commands.decide"),  # into the command line
])
def test_the_layers_refuse_an_upward_import(graph, importer, imported):
    assert not graph.find_illegal_dependencies_for_layers(_layers(graph), {"pokerlab"})
    assert not graph.direct_import_exists(importer=importer, imported=imported)
    graph.add_import(importer=importer, imported=imported)
    try:
        found = graph.find_illegal_dependencies_for_layers(_layers(graph), {"pokerlab"})
    finally:
        graph.remove_import(importer=importer, imported=imported)
    assert {(d.importer, d.imported) for d in found} == {(_top(importer), _top(imported))}


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []
    for start in sorted(edges):
        if start in index:
            continue
        work = [(start, iter(sorted(edges[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        out.append(sorted(component))
    return out


def test_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycles_between_modules_or_top_level_packages(graph):
    modules = {m: set(graph.find_modules_directly_imported_by(m)) for m in graph.modules}
    assert _cycles(modules) == []

    packages: dict[str, set[str]] = {_top(m): set() for m in modules}
    for m, imported in modules.items():
        packages[_top(m)] |= {_top(i) for i in imported if _top(i) != _top(m)}
    assert _cycles(packages) == []
