"""Our own shader corpus: every valid shader compiles to a fully typed AST,
every invalid one fails with the message written in its first line."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.glsl import GLSLCompileError, ast, parse

CORPUS = Path(__file__).parent / "corpus"
STAGES = {".vert": "vertex", ".frag": "fragment", ".comp": "compute"}
VALID = sorted((CORPUS / "valid").iterdir())
INVALID = sorted((CORPUS / "invalid").iterdir())


@pytest.mark.parametrize("path", VALID, ids=[p.name for p in VALID])
def test_valid_shader_is_fully_typed(path):
    tu = parse(path.read_text(), STAGES[path.suffix], require_main=True)
    assert tu.main is not None and tu.main.definition is not None
    assert "error" not in tu.info_log
    for node in ast.walk(tu):
        assert not isinstance(node, (ast.Call, ast.MethodCall)), f"unresolved call at {node.loc}"
        if isinstance(node, ast.Expression):
            assert node.type is not None, f"untyped {type(node).__name__} at {node.loc}"
        if isinstance(node, ast.VariableRef):
            assert node.symbol is not None
        if isinstance(node, ast.FieldAccess):
            assert node.field_index >= 0
        if isinstance(node, ast.DeclarationStatement) and isinstance(node.declaration,
                                                                     ast.VariableDeclaration):
            assert all(d.variable is not None for d in node.declaration.declarators)
    for d in tu.declarations:
        if isinstance(d, ast.VariableDeclaration):
            assert all(x.variable is not None for x in d.declarators)


def test_corpus_covers_every_version_and_stage():
    versions = set()
    for p in VALID:
        first = p.read_text().splitlines()[0]
        versions.add(first.split(None, 1)[1] if first.startswith("#version") else "110")
        versions.add(p.suffix)
    for v in ("100", "300 es", "310 es", "110", "120", "130", "140", "150", "330", "400", "410",
              "420", "430", ".vert", ".frag", ".comp"):
        assert any(x.startswith(v) for x in versions), v


def _expected(path: Path) -> str:
    first = path.read_text().splitlines()[0]
    assert first.startswith("// EXPECT: "), path
    return first[len("// EXPECT: "):]


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_invalid_shader_reports_the_rule(path):
    with pytest.raises(GLSLCompileError) as e:
        parse(path.read_text(), STAGES[path.suffix], require_main=True)
    assert _expected(path) in e.value.info_log.splitlines()
