"""A uniform block member that defines its structure in place (``struct { ... } info[4];``).
GLSL 1.10 has embedded structure definitions (1.20 section 4.1.8 ends them), so a 1.10
shader with GL_ARB_uniform_buffer_object may define one inside a block, as Mesa accepts;
from 1.20 (and in ES) it is a compile error. The std140 layout of the member is worked out
by hand: {vec2 pos @0; float size @8; float rotation @12; vec4 color @16}, 32 bytes apart."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source

BLOCK = """layout(std140) uniform;
uniform ub_info {
   struct {
      vec2 pos;
      float size;
      float rotation;
      vec4 color;
   } info[4];
};
"""
VS = """#extension GL_ARB_uniform_buffer_object : require
""" + BLOCK + """uniform int j;
varying vec4 color;
void main() {
    gl_Position = vec4(gl_Vertex.xy * info[j].size + info[j].pos, 0.0, 1.0);
    color = info[j].color;
}
"""
FS = """varying vec4 color;
void main() { gl_FragColor = color; }
"""


@pytest.fixture()
def ctx():
    return driver.Context(api="compat", width=4, height=4)


def _program(ctx):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    return prog


def test_members_have_the_hand_computed_std140_layout(ctx):
    prog = _program(ctx)
    block = ctx.glGetUniformBlockIndex(prog, "ub_info")
    assert ctx.glGetActiveUniformBlockiv(prog, block, E.GL_UNIFORM_BLOCK_DATA_SIZE) == [128]
    names = ["info[0].pos", "info[0].size", "info[0].rotation", "info[0].color", "info[3].color"]
    idx = ctx.glGetUniformIndices(prog, len(names), names)
    assert -1 not in list(idx) and 0xFFFFFFFF not in list(idx)
    offsets = ctx.glGetActiveUniformsiv(prog, len(idx), idx, E.GL_UNIFORM_OFFSET)
    assert list(offsets) == [0, 8, 12, 16, 3 * 32 + 16]


def test_each_element_draws_its_own_colour(ctx):
    prog = _program(ctx)
    ctx.glUseProgram(prog)
    # element k: a quad covering all of the 4x4 target (pos 0, size 1) and colour k
    data = np.zeros((4, 8), np.float32)
    colours = [(1, 0, 0, 1), (0, 1, 0, 1), (0, 0, 1, 1), (1, 1, 0, 1)]
    for k, c in enumerate(colours):
        data[k, 2] = 1.0                      # size
        data[k, 4:8] = c
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, buf)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, buf)
    ctx.glUniformBlockBinding(prog, ctx.glGetUniformBlockIndex(prog, "ub_info"), 0)
    for k, c in enumerate(colours):
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "j"), k)
        ctx.glRectf(-1, -1, 1, 1)
        px = np.frombuffer(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert px.tolist() == [255 * v for v in c], k
    assert ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("version", ["#version 120\n", "#version 140\n"])
def test_later_versions_refuse_the_embedded_definition(ctx, version):
    src = version + "#extension GL_ARB_uniform_buffer_object : enable\n" + BLOCK + \
        "void main() { gl_Position = info[0].color; }\n"
    _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, src)
    assert not ok
    assert "0:5(4): error: embedded structure declarations are not allowed" in log
