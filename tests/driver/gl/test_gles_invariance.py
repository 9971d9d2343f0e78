"""GLSL ES 1.00 invariance of fragment inputs (section 4.6.1: varyings and the
special inputs gl_FragCoord and gl_PointCoord may be declared invariant in a
fragment shader, gl_FrontFacing may not) and its link rule (section 4.6.4:
gl_FragCoord only if the vertex stage's gl_Position is invariant, gl_PointCoord
only if gl_PointSize is). GLSL ES 3.00 allows invariance on outputs only. piglit
glsl-es-1.00/linker/glsl-{f,p}coord-invariant{,-pass}."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source


def _program(ctx, vs, fs):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    return bool(ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]), ctx.glGetProgramInfoLog(prog)


@pytest.mark.parametrize("frag, vert, vs_body", [
    ("gl_FragCoord", "gl_Position", "gl_Position = vec4(0.0);"),
    ("gl_PointCoord", "gl_PointSize", "gl_Position = vec4(0.0); gl_PointSize = 1.0;"),
])
@pytest.mark.parametrize("vs_invariant", [True, False])
def test_special_input_invariance_follows_the_vertex_output(frag, vert, vs_body, vs_invariant):
    ctx = driver.Context(api="gles2", width=4, height=4)
    vs = (f"invariant {vert};\n" if vs_invariant else "") + f"void main() {{ {vs_body} }}"
    fs = f"precision mediump float;\ninvariant {frag};\nvoid main() {{ gl_FragColor = vec4({frag}.x); }}"
    linked, log = _program(ctx, vs, fs)
    assert linked == vs_invariant, log
    if not vs_invariant:
        assert frag in log and vert in log


def test_front_facing_cannot_be_invariant():
    ctx = driver.Context(api="gles2", width=4, height=4)
    _sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                  "precision mediump float;\ninvariant gl_FrontFacing;\n"
                                  "void main() { gl_FragColor = vec4(1.0); }")
    assert not ok and "invariant" in log


def test_essl300_fragment_inputs_cannot_be_invariant():
    ctx = driver.Context(api="gles3", width=4, height=4)
    _sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                  "#version 300 es\nprecision mediump float;\ninvariant gl_FragCoord;\n"
                                  "out vec4 o; void main() { o = vec4(gl_FragCoord.x); }")
    assert not ok and "invariant" in log


@pytest.mark.parametrize("vs_inv, fs_inv", [(True, True), (False, False), (True, False), (False, True)])
def test_varying_invariance_matches_in_essl100(vs_inv, fs_inv):
    """A varying declared in both stages is invariant in both or in neither (a fragment
    shader may now declare `invariant varying'); GLSL ES 3.00 has no such rule."""
    ctx = driver.Context(api="gles2", width=4, height=4)
    vs = ("invariant " if vs_inv else "") + "varying vec4 v;\nvoid main() { v = vec4(1.0); gl_Position = vec4(0.0); }"
    fs = ("precision mediump float;\n" + ("invariant " if fs_inv else "")
          + "varying vec4 v;\nvoid main() { gl_FragColor = v; }")
    linked, log = _program(ctx, vs, fs)
    assert linked == (vs_inv == fs_inv), log


def test_essl300_output_invariance_needs_no_matching_input():
    ctx = driver.Context(api="gles3", width=4, height=4)
    vs = "#version 300 es\ninvariant out vec4 v;\nvoid main() { v = vec4(1.0); gl_Position = vec4(0.0); }"
    fs = "#version 300 es\nprecision mediump float;\nin vec4 v; out vec4 o;\nvoid main() { o = v; }"
    assert _program(ctx, vs, fs)[0]
