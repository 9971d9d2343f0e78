"""GLSL ES: a uniform declared in two stages has one precision, written or the
default in scope (the vertex stage's float default is highp, the fragment
shaders here say mediump). A mismatch is a link error in GLSL ES 3.00+ always,
and in GLSL ES 1.00 where both stages use the uniform, as Mesa (llvmpipe:
"declarations for uniform `u` have mismatching precision qualifiers"; a warning
only for ES 1.00 when a stage does not use it). piglit glsl-es-1.00/3.00
linker/glsl-mismatched-uniform-precision-*."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source


def _link(api, version, fs_decl, fs_uses):
    ctx = driver.Context(api=api, width=4, height=4)
    v = "" if version == 100 else f"#version {version} es\n"
    attr, out_decl, out = (("attribute", "", "gl_FragColor") if version == 100 else ("in", "out vec4 o;", "o"))
    vs = f"{v}uniform float u; {attr} vec4 p; void main() {{ gl_Position = p * u; }}\n"
    fs = (f"{v}precision mediump float; {out_decl} {fs_decl} void main() {{ {out} = "
          + ("vec4(u)" if fs_uses else "vec4(1.0)") + "; }\n")
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    return bool(ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]), ctx.glGetProgramInfoLog(prog)


@pytest.mark.parametrize("api, version", [("gles2", 100), ("gles3", 300), ("gles32", 320)])
@pytest.mark.parametrize("fs_decl, links", [("uniform float u;", False),          # default mediump
                                            ("uniform lowp float u;", False),
                                            ("uniform highp float u;", True)])
def test_used_in_both_stages(api, version, fs_decl, links):
    linked, log = _link(api, version, fs_decl, fs_uses=True)
    assert linked == links, log
    if not links:
        assert "mismatching precision" in log


@pytest.mark.parametrize("api, version, links", [("gles2", 100, True), ("gles3", 300, False)])
def test_unused_in_one_stage(api, version, links):
    linked, log = _link(api, version, "uniform lowp float u;", fs_uses=False)
    assert linked == links, log
