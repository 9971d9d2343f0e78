"""No import cycle between modules: the layers inside each package form a
hierarchy, so a module can be read, tested and replaced below the ones that use
it. Every import counts, function-level ones included (a function-level import
hides a cycle from Python's start-up, not from the design), and so do the
imports made by name (``importlib.import_module``): a package's lazily
resolved names (its ``_LAZY`` table) count as imports of their modules, and
any other import by name must be one of ``IMPORTS_BY_NAME`` (plugins found at
run time, which no module of ours names). A cycle is broken by moving the
shared fact or function to the module that owns it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ["uapi", "layout", "compiler", "drmshim", "driver"]

# The modules allowed to import by name something their ``_LAZY`` table does not
# list, and why no module edge is missing from the graph by it.
IMPORTS_BY_NAME = {
    "uapi.seam": "the kernel backends registered as entry points (shimgl.uapi_backends): plugins",
    "driver.abi.runtime": "preloads every module of the registered kernel backends in a host process",
    "compiler": "any subpackage by attribute (compiler.X); no compiler module imports the package",
}

# Runs in a child process (PYTHONPATH = the tree): the strongly connected
# components of grimp's module graph (Tarjan), each with its edges and lines.
_FIND_CYCLES = r"""
import ast, json, os, sys
import grimp
sys.setrecursionlimit(100000)
allowed = set(json.loads(sys.argv[1]))
graph = grimp.build_graph(*sys.argv[2:], cache_dir=None)     # no cache: a stale one kept deleted modules
by_name = []            # imports by name outside the _LAZY tables and IMPORTS_BY_NAME
for m in sorted(graph.modules):
    path = m.replace(".", os.sep)          # the module's file, found without importing it
    path = path + ".py" if os.path.isfile(path + ".py") else os.path.join(path, "__init__.py")
    tree = ast.parse(open(path, encoding="utf-8").read())
    lines = [n.lineno for n in ast.walk(tree) if isinstance(n, ast.Call)
             and getattr(n.func, "attr", getattr(n.func, "id", None)) in ("import_module", "__import__")]
    lazy = [n.value for n in ast.walk(tree) if isinstance(n, ast.Assign)
            and any(getattr(t, "id", None) == "_LAZY" for t in n.targets)]
    for table in lazy:      # values name modules, absolute or relative to the package
        for c in ast.walk(table):
            if isinstance(c, ast.Constant) and isinstance(c.value, str):
                for target in (c.value, f"{m}.{c.value}"):
                    if target in graph.modules and target != m:
                        graph.add_import(importer=m, imported=target, line_number=table.lineno,
                                         line_contents="_LAZY")
    if lines and not lazy and m not in allowed:
        by_name.append(f"{m} (line {', '.join(map(str, lines))})")
modules = sorted(graph.modules)
succ = {m: sorted(graph.find_modules_directly_imported_by(m)) for m in modules}
index, low, stack, on_stack, components = {}, {}, [], set(), []
def visit(v):
    index[v] = low[v] = len(index)
    stack.append(v); on_stack.add(v)
    for w in succ[v]:
        if w not in index:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on_stack:
            low[v] = min(low[v], index[w])
    if low[v] == index[v]:
        comp = []
        while True:
            w = stack.pop(); on_stack.discard(w); comp.append(w)
            if w == v:
                break
        if len(comp) > 1:
            members = set(comp)
            components.append(sorted(
                f"{m} -> {w} (line {', '.join(str(d['line_number']) for d in graph.get_import_details(importer=m, imported=w))})"
                for m in comp for w in succ[m] if w in members))
for m in modules:
    if m not in index:
        visit(m)
print(json.dumps({"cycles": components, "by_name": by_name}))
"""


def import_graph(tree: Path) -> dict:
    """The import cycles of the packages under ``tree`` (``cycles``: lists of
    edges) and their imports by name not accounted for (``by_name``)."""
    pytest.importorskip("grimp", reason="grimp comes with import-linter (make test installs it)")
    env = dict(os.environ, PYTHONPATH=str(tree))
    result = subprocess.run([sys.executable, "-c", _FIND_CYCLES, json.dumps(sorted(IMPORTS_BY_NAME)), *PACKAGES],
                            cwd=tree, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def import_cycles(tree: Path) -> list[list[str]]:
    """The import cycles of the packages under ``tree``, as lists of edges."""
    return import_graph(tree)["cycles"]


def test_no_import_cycle_between_modules():
    graph = import_graph(ROOT)
    cycles = graph["cycles"]
    assert cycles == [], "import cycles (move the shared fact to its owner):\n" + \
        "\n".join("  " + "; ".join(c) for c in cycles)
    assert graph["by_name"] == [], "imports by name that hide module edges (import the module, " \
        "or list it in a _LAZY table):\n" + "\n".join("  " + m for m in graph["by_name"])


def test_a_new_cycle_is_caught(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "layout" / "_ping.py").write_text("from layout import _pong\n")
    (tmp_path / "layout" / "_pong.py").write_text("def f():\n    from layout import _ping\n")
    cycles = import_cycles(tmp_path)
    assert cycles == [["layout._ping -> layout._pong (line 1)", "layout._pong -> layout._ping (line 2)"]]


def test_a_cycle_through_an_import_by_name_is_caught(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "layout" / "_lazy").mkdir()
    (tmp_path / "layout" / "_lazy" / "__init__.py").write_text(
        "import importlib\n_LAZY = {'f': 'leaf'}\n"
        "def __getattr__(name):\n    return importlib.import_module(f'{__name__}.' + _LAZY[name])\n")
    (tmp_path / "layout" / "_lazy" / "leaf.py").write_text("from layout._lazy import g\n")
    (tmp_path / "layout" / "_hidden.py").write_text(
        "import importlib\ndef f():\n    return importlib.import_module('layout.formats')\n")
    graph = import_graph(tmp_path)
    assert graph["cycles"] == [["layout._lazy -> layout._lazy.leaf (line 2)",
                                "layout._lazy.leaf -> layout._lazy (line 1)"]]
    assert graph["by_name"] == ["layout._hidden (line 3)"]
