"""``layout(blend_support_*) out;`` (KHR_blend_equation_advanced; GLSL ES 3.20 section
4.4.2.3): accepted in fragment shaders with the extension or in ES 3.20, refused on
variables, in other stages and without the extension; the declared equations are
the union of the declarations."""

import pytest

from compiler.glsl import GLSLCompileError, parse
from compiler.glsl.blend_support import ADVANCED_EQUATIONS, declared_equations

EXT = "#extension GL_KHR_blend_equation_advanced : require\n"


def _fs(header, body):
    return header + "precision mediump float;\n" + body + "out vec4 o;\nvoid main() { o = vec4(1.0); }\n"


def test_declared_equations_are_the_union():
    unit = parse(_fs("#version 310 es\n" + EXT, "layout(blend_support_multiply, blend_support_screen) out;\n"
                     "layout(blend_support_hsl_hue) out;\n"), "fragment")
    assert declared_equations(unit) == {"multiply", "screen", "hsl_hue"}


def test_all_equations():
    unit = parse(_fs("#version 300 es\n" + EXT, "layout(blend_support_all_equations) out;\n"), "fragment")
    assert declared_equations(unit) == set(ADVANCED_EQUATIONS) and len(ADVANCED_EQUATIONS) == 15


def test_no_declaration_supports_nothing():
    assert declared_equations(parse(_fs("#version 310 es\n" + EXT, ""), "fragment")) == frozenset()


def test_desktop_with_the_extension():
    unit = parse("#version 150\n" + EXT + "layout(blend_support_softlight) out;\nout vec4 o;\n"
                 "void main() { o = vec4(1.0); }\n", "fragment")
    assert declared_equations(unit) == {"softlight"}


@pytest.mark.parametrize("source, stage, message", [
    # without the extension enabled the identifier does not exist
    (_fs("#version 310 es\n", "layout(blend_support_multiply) out;\n"), "fragment",
     "unrecognized layout identifier `blend_support_multiply'"),
    # on a variable declaration
    ("#version 310 es\n" + EXT + "precision mediump float;\nlayout(blend_support_multiply) out vec4 o;\n"
     "void main() { o = vec4(1.0); }\n", "fragment", "not allowed here"),
    # on `in'
    (_fs("#version 310 es\n" + EXT, "layout(blend_support_multiply) in;\n"), "fragment", "only be used on `out'"),
    # in another stage
    ("#version 310 es\n" + EXT + "layout(blend_support_multiply) out;\nvoid main() { gl_Position = vec4(0.0); }\n",
     "vertex", "only be used in fragment shaders"),
    # mixed with a location in a default declaration
    (_fs("#version 310 es\n" + EXT, "layout(blend_support_multiply, location = 0) out;\n"), "fragment",
     "invalid layout qualifiers"),
])
def test_errors(source, stage, message):
    with pytest.raises(GLSLCompileError) as e:
        parse(source, stage)
    assert message in e.value.info_log and "error:" in e.value.info_log


def test_core_in_glsl_es_320():
    unit = parse(_fs("#version 320 es\n", "layout(blend_support_hsl_color) out;\n"), "fragment")
    assert declared_equations(unit) == {"hsl_color"}
