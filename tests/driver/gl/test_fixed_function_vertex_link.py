"""Compatibility profile: a program with a fragment shader only takes the
fixed-function vertex stage, which writes no user varyings; a user varying the
fragment shader reads is then undefined, not a link error (GL 4.6 compatibility
section 7.3; Mesa links it: piglit glsl-fs-user-varying-ff). Core and GLES keep
the error for a vertex shader that does not write it."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

FS = "#version 110\nvarying vec4 color;\nvoid main() { gl_FragColor = vec4(gl_Color.rg, color.x * 0.0, 1.0); }"


def _program(ctx, stages) -> tuple[int, bool, str]:
    p = ctx.glCreateProgram()
    for kind, src in stages:
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(p, sh)
    ctx.glLinkProgram(p)
    return p, bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]), ctx.glGetProgramInfoLog(p)


def test_fragment_only_program_links_with_a_user_varying_and_draws():
    ctx = driver.Context(api="compat", width=4, height=4)
    p, ok, log = _program(ctx, [(E.GL_FRAGMENT_SHADER, FS)])
    assert ok, log
    ctx.glUseProgram(p)
    ctx.glColor4f(0.25, 0.5, 0.75, 1.0)
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert px[:2].tolist() == [64, 128] and px[3] == 255        # gl_Color through the fixed-function stage


def test_a_vertex_shader_must_still_write_it():
    ctx = driver.Context(api="compat", width=4, height=4)
    vs = "#version 110\nvoid main() { gl_Position = gl_Vertex; }"
    _, ok, log = _program(ctx, [(E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, FS)])
    assert not ok and "color" in log
