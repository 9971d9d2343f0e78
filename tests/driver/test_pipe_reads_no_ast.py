"""The pipe (driver.gallium) and the hardware driver (driver.agx) get shaders from the
compiler as IR (compiler.variant.StageIR) and never reach the GLSL front end: no module
of theirs imports it (also inside functions; import-linter's contract in pyproject.toml
checks the chains through other modules, but not the attribute reads below) or reads a
linked stage's AST; and a process that loads everything they import, directly or not
(grimp's graph, function-level imports included), has loaded no module of the front
end (what the graph cannot see: a package's ``__init__`` that imports more at run
time). driver.agx.face (driver.Context, where the GL front end meets the hardware
driver) and the demo that builds one are the exceptions, as in the contract."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
MODULES = sorted(p for d in ("driver/agx", "driver/gallium") for p in (ROOT / d).rglob("*.py"))

#: what parses GLSL or reads or lowers its typed AST
FORBIDDEN_MODULES = ("compiler.glsl", "compiler.compile", "compiler.lower.from_ast", "compiler.lower.io",
                     "compiler.lower.stage", "compiler.lower.builtins", "compiler.lower.interface")
#: entry points that take GLSL text or a typed AST, and the AST attribute of a linked stage
FORBIDDEN_NAMES = {"parse", "compile_glsl", "front_half_unit", "glsl_to_ir", "lower_unit", "lower_stage",
                   "compile_linked", "linked_shader"}
FORBIDDEN_ATTRIBUTES = {"unit", "sources", "front_half_unit", "glsl_to_ir"}
#: the modules where the GL front end meets the hardware driver (see the module docstring)
COMPOSITION = ("driver.agx.face", "driver.agx.demo")
#: the front end as modules loaded at run time (compiler.link parses and lowers too)
FRONT_END = FORBIDDEN_MODULES + ("compiler.link",)

# Runs in a child process: import every module of driver.agx and driver.gallium but
# COMPOSITION, and every module of ours they import directly or not; print the loaded
# modules of the front end (or those loaded by importing argv[2:] instead, for the check).
_LOADED = r"""
import importlib, json, sys
import grimp
front_end, composition, only = json.loads(sys.argv[1]), json.loads(sys.argv[2]), sys.argv[3:]
if only:
    wanted = only
else:
    graph = grimp.build_graph("driver", "compiler", "uapi", "layout", cache_dir=None)
    roots = {m for m in graph.modules if m.split(".")[:2] in (["driver", "agx"], ["driver", "gallium"])
             and m not in composition}
    wanted = set(roots)
    for m in roots:
        wanted |= graph.find_upstream_modules(m)
for m in sorted(wanted):
    importlib.import_module(m)
print(json.dumps(sorted(m for m in sys.modules if any(m == f or m.startswith(f + ".") for f in front_end))))
"""


def _front_end_loaded(*only: str) -> list[str]:
    pytest.importorskip("grimp", reason="grimp comes with import-linter (make test installs it)")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", _LOADED, json.dumps(FRONT_END), json.dumps(COMPOSITION), *only],
                            cwd=ROOT, env=env, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def _imports(tree):
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield node.lineno, a.name, None
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                yield node.lineno, node.module, a.name


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text())
    bad = []
    for line, module, name in _imports(tree):
        full = f"{module}.{name}" if name else module
        if any(full == m or full.startswith(m + ".") or module.startswith(m + ".") for m in FORBIDDEN_MODULES):
            bad.append(f"{line}: imports {full}")
        elif module.startswith("compiler") and name in FORBIDDEN_NAMES:
            bad.append(f"{line}: imports {full}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in FORBIDDEN_ATTRIBUTES:
            bad.append(f"{node.lineno}: reads .{node.attr}")
    return bad


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_glsl_front_end_or_ast_in_the_pipe_and_hardware_driver(path):
    assert _violations(path) == []


def test_the_check_finds_what_it_forbids(tmp_path):
    path = tmp_path / "bad.py"
    path.write_text("from compiler.glsl import parse\nimport compiler.compile\n"
                    "def f(state):\n    from compiler.link import linked_shader\n    return state.ir.unit\n")
    assert _violations(path) == ["1: imports compiler.glsl.parse", "2: imports compiler.compile",
                                 "4: imports compiler.link.linked_shader", "5: reads .unit"]


def test_the_pipe_and_what_it_imports_load_no_glsl_front_end():
    assert _front_end_loaded() == []


def test_the_run_time_check_sees_the_front_end():
    assert _front_end_loaded("compiler.link") == ["compiler.link"]      # (its imports are in its functions)
    loaded = _front_end_loaded("compiler.lower.stage")
    assert "compiler.lower.from_ast" in loaded and "compiler.glsl.ast" in loaded
