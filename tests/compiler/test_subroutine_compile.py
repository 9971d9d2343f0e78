"""Shader subroutines through the compiler (GLSL 4.00 section 6.1.2): types, functions
with explicit and implicit indices, uniforms and uniform arrays, calls with in and inout
parameters lowered to a choice on the uniform's value, run on the IR interpreter against
hand-computed results; the compile errors of the rules."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, parse
from tests.compiler.lower.harness import run_vertex

SRC = """#version 430
in float x;
out vec4 r;
subroutine float Op(float a);
subroutine void Side(inout float acc);
subroutine(Op) float twice(float a) { return 2.0 * a; }
layout(index = 5) subroutine(Op) float square(float a) { return a * a; }
subroutine(Op) float negate(float a) { return -a; }
subroutine(Side) void addone(inout float acc) { acc += 1.0; }
subroutine uniform Op op;
subroutine uniform Op ops[2];
subroutine uniform Side side;
void main() {
    float acc = x;
    side(acc);
    r = vec4(op(x), ops[1](x), ops[0](3.0), acc);
}
"""


def test_indices_types_and_uniforms():
    info = parse(SRC, "vertex").subroutines
    assert info.types == ["Op", "Side"]
    # explicit index 5; the others the lowest free ones in declaration order
    assert info.functions == [("twice", 0, ("Op",)), ("negate", 1, ("Op",)), ("addone", 2, ("Side",)),
                              ("square", 5, ("Op",))]
    assert info.uniforms == [("op", "Op", 0, None), ("ops", "Op", 2, None), ("side", "Side", 0, None)]


@pytest.mark.parametrize("op, ops, want", [
    (5, (1, 0), lambda x: [x * x, 2 * x, -3.0 + 0 * x, x + 1]),
    (0, (5, 1), lambda x: [2 * x, -x, 9.0 + 0 * x, x + 1]),
    (1, (0, 5), lambda x: [-x, x * x, 6.0 + 0 * x, x + 1]),
])
def test_calls_choose_by_the_uniform(op, ops, want):
    x = np.array([0.5, 2.0, -1.0, 3.0], np.float32)
    outs, _, _ = run_vertex(SRC, {"x": x[None]}, 4, {"op": op, "ops": np.array(ops), "side": 2})
    got = outs["r"].view(np.float32)
    assert got.tolist() == np.array(want(x), np.float32).tolist()


def test_the_extension_brings_subroutines_to_glsl_150():
    ok = ("#version 150\n#extension GL_ARB_shader_subroutine : require\n"
          "#extension GL_ARB_explicit_uniform_location : require\n" + SRC.split("\n", 1)[1])
    assert parse(ok, "vertex").subroutines.functions[0] == ("twice", 0, ("Op",))
    with pytest.raises(GLSLCompileError):
        parse("#version 150\n" + SRC.split("\n", 1)[1], "vertex")


@pytest.mark.parametrize("body, message", [
    ("subroutine float T(float a);\nsubroutine(T) int f(float a) { return 1; }\n",
     "does not match the subroutine type `T'"),
    ("subroutine(U) float f(float a) { return a; }\n", "`U' is not a subroutine type"),
    ("subroutine float T(float a);\nsubroutine uniform T u;\nvoid g() { u(1.0, 2.0); }\n", "takes 1 arguments"),
    ("subroutine float T(float a);\nsubroutine uniform T u;\nvoid g() { float y = u(1.0); }\n",
     "no subroutine function has the type `T'"),
    ("subroutine float T(float a);\nlayout(index = 1) subroutine(T) float f(float a) { return a; }\n"
     "layout(index = 1) subroutine(T) float g(float a) { return a; }\n", "subroutine index 1 used twice"),
    ("subroutine float T(float a);\nsubroutine uniform T u[2];\nvoid g() { float y = u(1.0); }\n"
     "subroutine(T) float f(float a) { return a; }\n", "must be indexed"),
    ("subroutine float T(float a);\nsubroutine uniform T u;\nvoid g() { uint k = u; }\n", "error"),
])
def test_errors(body, message):
    src = "#version 430\n" + body + "void main() {}\n"
    with pytest.raises(GLSLCompileError) as err:
        parse(src, "vertex")
    assert message in err.value.info_log


@pytest.mark.parametrize("src, message", [
    ("#version 150\n#extension GL_ARB_shader_subroutine : require\nsubroutine void T();\n"
     "layout(index = 2) subroutine(T) void f() {}\n", "layout(index) on a subroutine function requires GLSL 4.30"),
    ("#version 400\nsubroutine void T();\nsubroutine(T) subroutine(T) void f() {}\n", "duplicate subroutine qualifier"),
    ("#version 400\nsubroutine void T();\nsubroutine(T) void f() {}\nvoid f(int x) {}\n", "cannot be overloaded"),
    ("#version 400\nsubroutine vec4 T(vec2 p);\nsubroutine uniform T f;\n"
     "subroutine(T) vec4 r(vec2 p) { return vec4(p.x); }\nvoid g() { vec4 c = T(vec2(1.0)); }\n",
     "subroutine type `T' cannot be called"),
])
def test_rules(src, message):
    with pytest.raises(GLSLCompileError) as err:
        parse(src + "void main() {}\n", "vertex")
    assert message in err.value.info_log


def test_a_subroutine_function_may_be_called_directly():
    parse("#version 400\nsubroutine void T();\nsubroutine(T) void impl() {}\nvoid main() { impl(); }\n", "vertex")
