"""The GLSL preprocessor: literal expected output and Mesa-style messages."""

from __future__ import annotations

import pytest

from compiler.glsl import GLSLCompileError, preprocess
from compiler.glsl.errors import InfoLog
from compiler.glsl.preprocessor import preprocess_full


def lines(src: str) -> list[str]:
    """Non-empty output lines, stripped."""
    return [ln.strip() for ln in preprocess(src).text.split("\n") if ln.strip()]


def errors_of(src: str) -> list[str]:
    log = InfoLog()
    preprocess_full(src, log)
    return [str(m) for m in log.messages]


def test_object_macro():
    assert lines("#define N 4\nfloat a[N];\n") == ["float a[4];"]


def test_function_macro_and_paste():
    src = "#define CAT(a, b) a ## b\n#define SQ(x) ((x) * (x))\nint CAT(fo, o) = SQ(3);\n"
    assert lines(src) == ["int foo = ((3) * (3));"]


def test_paste_with_empty_argument():
    assert lines("#define P(a, b) a ## b\nint P(, x);\nint P(y, );\n") == ["int x;", "int y;"]


def test_nested_and_recursive_macros_stop():
    src = "#define A B\n#define B A\n#define F(x) F(x) + 1\nA; F(2);\n"
    assert lines(src) == ["A; F(2) + 1;"]


def test_argument_is_expanded_before_substitution():
    src = "#define ONE 1\n#define ID(x) x\nint a = ID(ONE);\n"
    assert lines(src) == ["int a = 1;"]


def test_macro_call_across_lines_keeps_line_numbers():
    r = preprocess_full("#define F(a, b) a + b\nint x = F(1,\n 2);\nint y;\n")
    out = r.text.split("\n")
    assert out[1].strip() == "int x = 1 + 2;"
    assert out[2] == "" and out[3] == "int y;"
    assert r.line_map[3] == (0, 4)


def test_function_macro_name_without_parens_is_kept():
    assert lines("#define F(x) x\nint F;\n") == ["int F;"]


def test_conditionals_with_defined_and_integer_expressions():
    src = """#define X 3
#if defined X && (X << 2) == 12 && !defined(Y) && -1 < 0 && (7 / 2) == 3 && (7 % 4) == 3
a
#elif 1
b
#else
c
#endif
#ifdef Y
d
#elif ~0 == -1 && (0x10 | 010) == 24 && (5 ^ 1) == 4 && (6 & 3) == 2
e
#endif
#ifndef Y
f
#else
g
#endif
#if 0
#if 1
h
#endif
#else
i
#endif
"""
    assert lines(src) == ["a", "e", "f", "i"]


def test_undefined_identifier_in_if_is_zero_on_desktop():
    assert lines("#if FOO\na\n#else\nb\n#endif\n") == ["b"]


def test_undefined_identifier_in_if_is_an_error_in_gles():
    assert errors_of("#version 300 es\n#if FOO\n#endif\n") == [
        "0:2(1): preprocessor error: undefined macro FOO in expression (illegal in GLES)"]


def test_undef():
    assert lines("#define A 1\n#undef A\nA\n") == ["A"]


def test_builtin_macros():
    src = "#version 330\n__LINE__ __FILE__ __VERSION__ GL_core_profile\n#ifdef GL_ES\nes\n#endif\n"
    assert lines(src) == ["2 0 330 1"]
    assert lines("#version 300 es\nGL_ES __VERSION__\n") == ["1 300"]
    assert lines("#version 150 compatibility\nGL_compatibility_profile\n") == ["1"]
    assert lines("GL_ARB_texture_rectangle\n") == ["1"]


def test_line_directive_330_and_110():
    r = preprocess_full("#version 330\n#line 10 3\nx __LINE__ __FILE__\n")
    assert r.text.split("\n")[2] == "x 10 3"
    assert r.line_map[2] == (3, 10)
    r = preprocess_full("#version 110\n#line 10\nx __LINE__\n")
    assert r.text.split("\n")[2] == "x 11"


def test_line_continuation_and_comments():
    src = "#define A 1 + \\\n 2\nint a = A; // c\nint /* x */ b;\nint /* a\nb */ c;\nint d;\n"
    r = preprocess_full(src)
    out = r.text.split("\n")
    assert "int a = 1 + 2;" == out[1].strip()
    assert out[2] == "int /* x */ b;".replace("/* x */", "       ")
    assert out[3].split() == ["int", "c;"]
    assert r.line_map[4] == (0, 7)


def test_unexpanded_lines_keep_their_columns():
    src = "#define N 2\n    vec4  x = vec4(N);\n"
    assert preprocess(src).text.split("\n")[1] == "    vec4  x = vec4(2);"


def test_version_and_extensions():
    p = preprocess("#version 310 es\n#extension GL_OES_standard_derivatives : enable\nvoid main(){}\n")
    assert (p.version, p.profile) == (310, "es")
    assert p.extensions == {"GL_OES_standard_derivatives": "enable"}
    assert preprocess("void main(){}\n").version == 110
    assert preprocess("#version 150\n").profile == "core"
    assert preprocess("#version 430 compatibility\n").profile == "compatibility"


def test_extension_all():
    p = preprocess("#version 430\n#extension all : warn\n")
    assert p.extensions["GL_ARB_compute_shader"] == "warn"


def test_pragma_invariant_all():
    r = preprocess_full("#pragma STDGL invariant(all)\n#pragma optimize(off)\n")
    assert r.invariant_all and r.pragmas == ["STDGL invariant(all)", "optimize(off)"]


def test_skipped_block_hides_errors():
    assert lines("#if 0\n#error nope\n#foo\n#endif\nok\n") == ["ok"]


@pytest.mark.parametrize("src, message", [
    ("#define A 1\n#define A 2\n", "0:2(1): preprocessor error: Redefinition of macro A"),
    ("#define GL_FOO 1\n", '0:1(1): preprocessor error: Macro names starting with "GL_" are reserved.'),
    ("#version 300 es\n#define A__B 1\n",
     '0:2(1): preprocessor error: Macro names containing "__" are reserved for use by the implementation.'),
    ("#define defined 1\n", '0:1(1): preprocessor error: "defined" cannot be used as a macro name'),
    ("#undef GL_ES\n",
     "0:1(1): preprocessor error: Built-in (pre-defined) names beginning with GL_ cannot be undefined."),
    ("#version 300 es\n#undef __LINE__\n",
     "0:2(1): preprocessor error: Built-in (pre-defined) names cannot be undefined."),
    ("#if 1\n", "0:1(1): preprocessor error: Unterminated #if"),
    ("  #endif\n", "0:1(3): preprocessor error: #endif without #if"),
    ("#else\n", "0:1(1): preprocessor error: #else without #if"),
    ("#elif 1\n", "0:1(1): preprocessor error: #elif without #if"),
    ("#if 1\n#else\n#elif 1\n#endif\n", "0:3(1): preprocessor error: #elif after #else"),
    ("#if 1\n#else\n#else\n#endif\n", "0:3(1): preprocessor error: multiple #else"),
    ("#if\n#endif\n", "0:1(1): preprocessor error: #if with no expression"),
    ("#define\n", "0:1(1): preprocessor error: #define without macro name"),
    ("#error stop here\n", "0:1(1): preprocessor error: #error stop here"),
    ("#foo\n", "0:1(1): preprocessor error: Illegal non-directive after #"),
    ("#define F(a,b) a\nF(1)\n", "0:2(1): preprocessor error: Error: macro F invoked with 1 arguments (expected 2)"),
    ("#define F(a) a\nF(1\n", "0:2(1): preprocessor error: Macro F call has unbalanced parentheses"),
    ("#define F(a) ## a\n", "0:1(1): preprocessor error: '##' cannot appear at either end of a macro expansion"),
    ("#define F(a) a ## +\nF(.)\n",
     '0:2(1): preprocessor error: Pasting "." and "+" does not give a valid preprocessing token.'),
    ("#define F(a, a) a\n", '0:1(1): preprocessor error: Duplicate macro parameter "a"'),
    ("#if 1 / 0\n#endif\n", "0:1(1): preprocessor error: division by 0 in preprocessor directive"),
    ("#if 1 % 0\n#endif\n", "0:1(1): preprocessor error: zero modulus in preprocessor directive"),
    ("#if (1\n#endif\n", "0:1(1): preprocessor error: syntax error, unexpected NEWLINE, expecting ')'"),
    ("int x;\n#version 330\n", "0:2(1): preprocessor error: #version must appear on the first line"),
    ("#version 0330\n", '0:1(1): preprocessor error: invalid #version "0330" (not a decimal constant)'),
    ("#version 470\n", "0:1(10): error: GLSL 4.70 is not supported. Supported versions are: "
     "1.10, 1.20, 1.30, 1.40, 1.50, 3.30, 4.00, 4.10, 4.20, 4.30, 4.40, 4.50, 4.60, 1.00 ES, 3.00 ES, 3.10 ES, 3.20 ES"),
    ("#version 330 foo\n", '0:1(10): error: "foo" is not a valid shading language profile; '
     'if present, it must be "core", "compatibility", or "es"'),
    ("#version 120 core\n", "0:1(10): error: illegal text following version number"),
    ("#version 100 es\n", "0:1(10): error: GLSL 1.00 ES should be selected using `#version 100'"),
    ("#extension GL_FOO_bar : require\n", "0:1(12): error: extension `GL_FOO_bar' unsupported in this shader"),
    ("#extension all : enable\n", "0:1(12): error: cannot enable all extensions"),
    ("#extension GL_ARB_texture_rectangle : maybe\n", "0:1(39): error: unknown extension behavior `maybe'"),
    ("#version 300 es\nint x;\n#extension GL_OES_standard_derivatives : enable\n",
     "0:3(1): error: #extension directive is not allowed in the middle of a shader"),
])
def test_errors(src, message):
    assert message in errors_of(src)


def test_double_underscore_is_a_warning_on_desktop():
    assert errors_of("#version 330\n#define A__B 1\n") == [
        '0:2(1): preprocessor warning: Macro names containing "__" are reserved for use by the implementation.']


def test_unknown_extension_enable_is_a_warning():
    assert preprocess("#extension GL_FOO_bar : enable\n").extensions == {}


def test_preprocess_raises_with_info_log():
    with pytest.raises(GLSLCompileError) as e:
        preprocess("#error bad\n")
    assert e.value.info_log == "0:1(1): preprocessor error: #error bad\n"


def test_es100_defines_fragment_precision_high():
    # our fragment language has highp, so ES 1.00 defines the macro too (section 4.5.4)
    r = preprocess_full("#version 100\n#ifdef GL_FRAGMENT_PRECISION_HIGH\nyes\n#endif\n", InfoLog(), "fragment")
    assert "yes" in r.text


def test_invariant_all_is_fine_in_an_es300_vertex_shader():
    r = preprocess_full("#version 300 es\n#pragma STDGL invariant(all)\n", InfoLog(), "vertex")
    assert r.invariant_all
