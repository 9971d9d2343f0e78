"""Overload resolution with implicit conversions (GLSL 1.20-4.60 section 6.1; ES has
no implicit conversions). Expectations come from the specification's rules:

- an exact match wins;
- otherwise the signatures the arguments reach by implicit conversions: one is the
  answer; several are ambiguous before GLSL 4.00 (ARB_gpu_shader5 would bring the
  4.00 rules, but the compiler does not implement that extension yet);
- from 4.00 the signature better than every other wins, argument by argument: exact
  beats any conversion, float->double beats any other conversion, int/uint->float beats
  int/uint->double; nothing else is ordered.
"""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, ast, parse

from ..lower.harness import as_f32, run_vertex


def _calls(tu, name):
    return [n for n in ast.walk(tu) if isinstance(n, ast.FunctionCall) and n.name == name]


def _signature(src: str, name: str, stage: str = "vertex") -> str:
    calls = _calls(parse(src, stage), name)
    assert len(calls) == 1
    return str(calls[0].signature)


# Calls real programs make (vispy, shadertoy ports) with an int literal where the
# built-in takes float: one built-in prototype is reachable, listed twice in the
# tables (genType max(genType, genType) and genType max(genType, float)).
BUILTIN_CALLS = [
    ("step", "step(1, x)", "float step(float, float)"),
    ("max", "max(x, 0)", "float max(float, float)"),
    ("clamp", "clamp(x, 0, 1)", "float clamp(float, float, float)"),
    ("mod", "mod(x, 2)", "float mod(float, float)"),
    ("min", "min(1, 2.0)", "float min(float, float)"),
    ("pow", "pow(2, x)", "float pow(float, float)"),
    ("mix", "mix(x, 1.0, 0)", "float mix(float, float, float)"),
    ("max", "max(vec3(x), 0).x", "vec3 max(vec3, float)"),
]


@pytest.mark.parametrize("version", ["120", "130", "150", "330", "400", "430"])
@pytest.mark.parametrize("name,call,expected", BUILTIN_CALLS, ids=[c[1] for c in BUILTIN_CALLS])
def test_builtin_call_with_int_argument_resolves(version, name, call, expected):
    src = f"#version {version}\nuniform float x;\nvoid main() {{ gl_Position = vec4({call}); }}\n"
    assert _signature(src, name) == expected


@pytest.mark.parametrize("call", ["step(1, x)", "max(x, 0)", "clamp(x, 0, 1)", "mod(x, 2)"])
def test_es_has_no_implicit_conversions(call):
    src = f"#version 300 es\nuniform float x;\nvoid main() {{ gl_Position = vec4({call}); }}\n"
    with pytest.raises(GLSLCompileError, match="no matching function for call to"):
        parse(src, "vertex")


def test_exact_match_beats_conversions():
    src = ("#version 330\nfloat f(float a) { return 1.0; }\nfloat f(int a) { return 2.0; }\n"
           "void main() { gl_Position = vec4(f(3)); }\n")
    assert _signature(src, "f") == "float f(int)"


_USER = "#version {v}\n{ext}{decls}\nvoid main() {{ {stmt} gl_Position = vec4(0.0); }}\n"


@pytest.mark.parametrize("version,ext,decls,stmt,expected", [
    # two conversions each way round: no rule orders them
    ("400", "", "float f(float a, int b) { return a; } float f(int a, float b) { return b; }",
     "float y = f(1, 2);", None),
    # argument 1 exact for the second, argument 2 the same: the second is better (4.00)...
    ("400", "", "float f(float a, float b) { return a; } float f(int a, float b) { return b; }",
     "float y = f(1, 2);", "float f(int, float)"),
    # ... and ambiguous before 4.00
    ("330", "", "float f(float a, float b) { return a; } float f(int a, float b) { return b; }",
     "float y = f(1, 2);", None),
    # int->float beats int->double
    ("400", "", "float f(double a) { return 1.0; } float f(float a) { return 2.0; }",
     "float y = f(1);", "float f(float)"),
    # float->double beats any other conversion (int->double here)
    ("400", "", "float f(double a, double b) { return 1.0; } float f(float a, double b) { return 2.0; }",
     "float y = f(1.0, 1);", "float f(float, double)"),
    # int->uint and int->float: neither is better
    ("400", "", "float f(uint a) { return 1.0; } float f(float a) { return 2.0; }",
     "float y = f(1);", None),
    # before 4.00 int does not convert to uint: only f(float) is reachable
    ("330", "", "float f(uint a) { return 1.0; } float f(float a) { return 2.0; }",
     "float y = f(1);", "float f(float)"),
    # out parameters convert from the parameter to the argument: float->double wins
    ("400", "", "void f(out float a) { a = 1.0; } void f(out int a) { a = 1; }",
     "double d; f(d);", "void f(out float)"),
])
def test_user_overloads(version, ext, decls, stmt, expected):
    src = _USER.format(v=version, ext=ext, decls=decls, stmt=stmt)
    if expected is None:
        with pytest.raises(GLSLCompileError, match="parameter ambiguity in call to `f"):
            parse(src, "vertex")
    else:
        assert _signature(src, "f") == expected


def test_converted_arguments_compute_the_right_values():
    """vispy's text shader pattern through lowering and the IR interpreter: the int
    arguments become floats and the results are the float built-ins' (numpy)."""
    src = """#version 330
in float x;
out vec4 r;
void main() {
    r = vec4(step(1, x), max(x, 0), clamp(x, 0, 1), mod(x, 2));
    gl_Position = vec4(0.0);
}
"""
    xs = np.array([-1.5, 0.25, 1.0, 3.75], np.float32)
    outs, _info, _it = run_vertex(src, {"x": xs[None, :]}, lanes=4)
    r = as_f32(outs["r"])
    np.testing.assert_array_equal(r[0], (xs >= 1).astype(np.float32))
    np.testing.assert_array_equal(r[1], np.maximum(xs, 0))
    np.testing.assert_array_equal(r[2], np.clip(xs, 0, 1))
    np.testing.assert_allclose(r[3], xs - 2 * np.floor(xs / 2), rtol=1e-6)
