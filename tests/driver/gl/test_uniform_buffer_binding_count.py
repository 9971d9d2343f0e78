"""GL_MAX_UNIFORM_BUFFER_BINDINGS and GL_MAX_COMBINED_UNIFORM_BLOCKS: one binding point for
every uniform block the graphics stages of a program may use together, as Mesa's state
tracker sets both to the sum of the stages' GL_MAX_<STAGE>_UNIFORM_BLOCKS. The minimums are
the specifications' (GL 3.2 table 6.51 and piglit's gl-3.2-minmax: 36 of each; GL 4.x: 12
blocks a stage, five stages); a block bound at the last binding point reads its buffer."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

STAGES = ("VERTEX", "TESS_CONTROL", "TESS_EVALUATION", "GEOMETRY", "FRAGMENT")


@pytest.mark.parametrize("api,minimum", [("gl32", 36), ("gl33", 36), ("gl40", 60), ("gl46", 60),
                                         ("compat", 60), ("gles32", 36)])
def test_bindings_cover_every_stage_block(api, minimum):
    ctx = driver.Context(api=api, width=4, height=4)
    per_stage = []
    for stage in STAGES:          # a stage the context lacks: INVALID_ENUM, no blocks
        value = ctx.glGetIntegerv(getattr(E, f"GL_MAX_{stage}_UNIFORM_BLOCKS"))
        if ctx.glGetError() == E.GL_NO_ERROR:
            per_stage.append(value[0])
    assert len(per_stage) == (3 if api in ("gl32", "gl33") else 5)
    assert ctx.glGetError() == E.GL_NO_ERROR
    combined = ctx.glGetIntegerv(E.GL_MAX_COMBINED_UNIFORM_BLOCKS)[0]
    bindings = ctx.glGetIntegerv(E.GL_MAX_UNIFORM_BUFFER_BINDINGS)[0]
    assert combined == sum(per_stage) >= minimum
    assert bindings == combined


def test_the_last_binding_point_feeds_a_block():
    ctx = driver.Context(api="gl33", width=4, height=4)
    last = ctx.glGetIntegerv(E.GL_MAX_UNIFORM_BUFFER_BINDINGS)[0] - 1
    assert last >= 35
    vs = "#version 330\nin vec4 p; void main() { gl_Position = p; }"
    fs = "#version 330\nuniform B { vec4 c; };\nout vec4 o;\nvoid main() { o = c; }"
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]
    ctx.glUniformBlockBinding(prog, ctx.glGetUniformBlockIndex(prog, "B"), last)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ubo, vbo = ctx.glGenBuffers(2)
    colour = np.array([0.0, 1.0, 0.0, 1.0], np.float32)
    ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, ubo)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, 16, colour.tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, last, ubo)
    assert ctx.glGetError() == E.GL_NO_ERROR
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glUseProgram(prog)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.read_pixels()[..., :].reshape(-1, 4).tolist() == [[0, 255, 0, 255]] * 16
    # one past the last: INVALID_VALUE (GL 4.6 section 6.1.1)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, last + 1, ubo)
    assert ctx.glGetError() == E.GL_INVALID_VALUE
