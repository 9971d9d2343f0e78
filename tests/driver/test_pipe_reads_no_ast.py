"""The pipe (driver.gallium) and the hardware driver (driver.agx) get shaders from the
compiler as IR (compiler.link.StageIR) and never reach the GLSL front end: no module
of theirs imports it (also inside functions, which import-linter's contract on direct
imports sees too, but not the attribute reads below) or reads a linked stage's AST."""

from __future__ import annotations

import ast
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
