"""`attribute` and `varying` in desktop GLSL 1.40+ core shaders: deprecated, still
accepted with a warning (as Mesa; piglit's generated GLSL 1.50 tests declare
fragment inputs with `varying`), but never inside an interface block (GLSL 1.50
section 4.3.7) and never in GLSL ES 3.00."""

import pytest

from compiler.glsl import GLSLCompileError, parse


@pytest.mark.parametrize("stage, decl", [("fragment", "varying vec4 c;"), ("vertex", "attribute vec4 p;")])
def test_accepted_with_a_warning_in_150_core(stage, decl):
    use = "gl_Position = p;" if stage == "vertex" else "gl_FragColor = c;"
    unit = parse(f"#version 150 core\n{decl}\nout vec4 o;\nvoid main() {{ {use.replace('gl_FragColor', 'o')} }}\n",
                 stage)
    assert "warning:" in unit.info_log and "deprecated" in unit.info_log


def test_not_inside_an_interface_block():
    with pytest.raises(GLSLCompileError):
        parse("#version 150\nout block {\n varying vec4 a;\n} inst;\nvoid main() { }\n", "vertex")


def test_an_error_in_glsl_es_300():
    with pytest.raises(GLSLCompileError) as e:
        parse("#version 300 es\nprecision highp float;\nvarying vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n",
              "fragment")
    assert "varying" in e.value.info_log
