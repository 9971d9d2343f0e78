"""No import cycle between modules: the layers inside each package form a
hierarchy, so a module can be read, tested and replaced below the ones that use
it. Every import counts, function-level ones included (a function-level import
hides a cycle from Python's start-up, not from the design). A cycle is broken by
moving the shared fact or function to the module that owns it."""

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

# Runs in a child process (PYTHONPATH = the tree): the strongly connected
# components of grimp's module graph (Tarjan), each with its edges and lines.
_FIND_CYCLES = r"""
import json, sys
import grimp
sys.setrecursionlimit(100000)
graph = grimp.build_graph(*sys.argv[1:])
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
print(json.dumps(components))
"""


def import_cycles(tree: Path) -> list[list[str]]:
    """The import cycles of the packages under ``tree``, as lists of edges."""
    pytest.importorskip("grimp", reason="grimp comes with import-linter (make test installs it)")
    env = dict(os.environ, PYTHONPATH=str(tree))
    result = subprocess.run([sys.executable, "-c", _FIND_CYCLES, *PACKAGES], cwd=tree, env=env,
                            capture_output=True, text=True, check=True)
    return json.loads(result.stdout)


def test_no_import_cycle_between_modules():
    cycles = import_cycles(ROOT)
    assert cycles == [], "import cycles (move the shared fact to its owner):\n" + \
        "\n".join("  " + "; ".join(c) for c in cycles)


def test_a_new_cycle_is_caught(tmp_path):
    for name in PACKAGES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "layout" / "_ping.py").write_text("from layout import _pong\n")
    (tmp_path / "layout" / "_pong.py").write_text("def f():\n    from layout import _ping\n")
    cycles = import_cycles(tmp_path)
    assert cycles == [["layout._ping -> layout._pong (line 1)", "layout._pong -> layout._ping (line 2)"]]
