"""Lexer and parser: literals, keywords per version, syntax errors, AST shapes."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, ast, parse
from compiler.glsl.errors import InfoLog
from compiler.glsl.lexer import tokenize
from compiler.glsl.parser import parse_tokens
from compiler.glsl.versions import GLSLVersion


def toks(text: str, version=GLSLVersion(430, False, "core")):
    log = InfoLog()
    out = tokenize(text, [(0, 1)], version, log)
    return [(t.kind, t.value if t.value is not None else t.text) for t in out[:-1]], log


def test_literals():
    got, log = toks("0x1F 017 42u 3.5 .5 2e3 1.0f 2.0lf true 4294967295")
    assert got == [("int", 31), ("int", 15), ("uint", 42), ("float", 3.5), ("float", 0.5),
                   ("float", 2000.0), ("float", 1.0), ("double", 2.0), ("bool", True), ("int", -1)]
    assert not log.messages


def test_literal_out_of_range():
    _, log = toks("4294967296")
    assert [str(m) for m in log.messages] == ["0:1(1): error: literal value `4294967296' out of range"]


def test_keywords_depend_on_version():
    assert toks("switch", GLSLVersion(130))[0] == [("keyword", "switch")]
    got, log = toks("switch", GLSLVersion(110))
    assert str(log.messages[0]) == "0:1(1): error: illegal use of reserved word `switch'"
    assert toks("uint", GLSLVersion(120))[0] == [("ident", "uint")]
    assert toks("uint", GLSLVersion(130))[0] == [("type", "uint")]
    assert toks("lowp", GLSLVersion(100, True, "es"))[0] == [("keyword", "lowp")]
    got, log = toks("attribute", GLSLVersion(300, True, "es"))
    assert "illegal use of reserved word `attribute'" in log.messages[0].text


def parse_decls(src: str, version=GLSLVersion(430, False, "core")):
    log = InfoLog()
    return parse_tokens(tokenize(src, [(0, i + 1) for i in range(src.count("\n") + 1)], version, log),
                        log)


def test_precedence_and_associativity():
    (fn,) = parse_decls("void f() { x = a + b * c - d << 1 == e ? g : h = k; }")
    assign = fn.body.statements[0].expression
    assert isinstance(assign, ast.Assignment) and assign.target.name == "x"
    cond = assign.value
    assert isinstance(cond, ast.Conditional)
    assert isinstance(cond.false_expr, ast.Assignment)  # ?: binds tighter than =, right-assoc
    eq = cond.condition
    assert eq.op == "==" and eq.left.op == "<<"
    minus = eq.left.left
    assert minus.op == "-" and minus.left.op == "+" and minus.left.right.op == "*"


def test_struct_name_becomes_a_type_name():
    decls = parse_decls("struct S { float a; };\nvoid f() { S s = S(1.0); S(2.0); }")
    body = decls[1].body.statements
    assert isinstance(body[0], ast.DeclarationStatement)
    assert isinstance(body[1], ast.ExpressionStatement) and isinstance(body[1].expression, ast.Call)
    assert body[1].expression.type_spec.name == "S"


def test_array_constructor_vs_declaration():
    (fn,) = parse_decls("void f() { float[2] a; float[2](1.0, 2.0); }")
    assert isinstance(fn.body.statements[0], ast.DeclarationStatement)
    assert isinstance(fn.body.statements[1].expression, ast.Call)


def test_interface_block_and_qualifier_declarations():
    decls = parse_decls("layout(std140, binding = 1) uniform B { mat4 m; } b[2];\n"
                        "invariant gl_Position;\nlayout(local_size_x = 4) in;\n")
    blk, inv, local = decls
    assert isinstance(blk, ast.InterfaceBlock) and blk.instance_name == "b" and len(blk.array_dims) == 1
    assert [lid.name for lid in blk.qualifier.layout] == ["std140", "binding"]
    assert isinstance(inv, ast.QualifierDeclaration) and inv.names[0][0] == "gl_Position"
    assert isinstance(local, ast.QualifierDeclaration) and not local.names


@pytest.mark.parametrize("src, message", [
    ("void main() { float x = ; }\n", "0:1(25): error: syntax error, unexpected ';'"),
    ("void main() { int x = 1 }\n", "0:1(25): error: syntax error, unexpected '}', expecting ',' or ';'"),
    ("void main() {\n", "0:1(14): error: syntax error, unexpected end of file"),
    ("float f(;\n void main() {}", "0:1(9): error: syntax error, unexpected ';'"),
    ("void main() { 1 = 2 }\n", "0:1(21): error: syntax error, unexpected '}', expecting ',' or ';'"),
    ("vec4 = 1.0;\nvoid main() {}\n", "0:1(6): error: syntax error, unexpected '=', expecting IDENTIFIER"),
])
def test_syntax_errors(src, message):
    with pytest.raises(GLSLCompileError) as e:
        parse(src, "vertex")
    assert e.value.info_log.splitlines()[0] == message
