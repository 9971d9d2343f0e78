"""Output blocks whose members have locations (GLSL 4.60 section 4.4.1,
ARB_enhanced_layouts): each member is matched by its location (GL 4.6 section 7.4.1),
so the next stage may read it as a plain located variable (a separable fragment program)
or as the member of the same block; members without a location of their own follow the
previous member. Colours by hand."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = """#version 450
in vec4 pos;
layout(location = 0) out block {
    layout(location = 2) vec4 c;
    vec4 d;                         // location 3
    layout(location = 0) vec4 a;
    vec4 b;                         // location 1
    layout(location = 4) flat ivec2 e;
} name;
void main() {
    name.a = vec4(1.0, 0.0, 0.0, 1.0);
    name.b = vec4(0.0, 1.0, 0.0, 1.0);
    name.c = vec4(0.0, 0.0, 1.0, 1.0);
    name.d = vec4(1.0, 1.0, 1.0, 1.0);
    name.e = ivec2(3, 5);
    gl_Position = pos;
}
"""
PLAIN_FS = """#version 450
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 2) in vec4 c;
layout(location = 3) in vec4 d;
layout(location = 4) flat in ivec2 e;
uniform int i;
out vec4 color;
void main() {
    color = i == 0 ? a : i == 1 ? b : i == 2 ? c : i == 3 ? d : vec4(float(e.x) / 5.0, float(e.y) / 5.0, 0.0, 1.0);
}
"""
BLOCK_FS = """#version 450
layout(location = 0) in block {
    layout(location = 2) vec4 c;
    vec4 d;
    layout(location = 0) vec4 a;
    vec4 b;
    layout(location = 4) flat ivec2 e;
} name;
uniform int i;
out vec4 color;
void main() {
    color = i == 0 ? name.a : i == 1 ? name.b : i == 2 ? name.c : i == 3 ? name.d :
        vec4(float(name.e.x) / 5.0, float(name.e.y) / 5.0, 0.0, 1.0);
}
"""
WANT = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 255], [153, 255, 0, 255]]


def _draw_each(ctx, program_with_i):
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    ctx.glEnableVertexAttribArray(0)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    got = []
    for i in range(5):
        ctx.glProgramUniform1i(program_with_i, ctx.glGetUniformLocation(program_with_i, "i"), i)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        got.append(px.reshape(2, 4)[0].tolist())
    return got


def _separable(ctx, kind, src):
    p = ctx.glCreateShaderProgramv(kind, 1, [src])
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


@pytest.mark.parametrize("fs", [PLAIN_FS, BLOCK_FS], ids=["plain", "block"])
def test_separable_programs_match_members_by_location(fs):
    """piglit's arb_enhanced_layouts sso-block-member-layout-location: a separable
    vertex program's block members, read by another program's fragment stage as plain
    located variables (or as the same block)."""
    ctx = glhelp.context(2, 1, api="gl46")
    vs = _separable(ctx, E.GL_VERTEX_SHADER, VS.replace("in vec4 pos;", "layout(location = 0) in vec4 pos;"))
    fp = _separable(ctx, E.GL_FRAGMENT_SHADER, fs)
    (pipe,) = ctx.glGenProgramPipelines(1)
    ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, vs)
    ctx.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, fp)
    ctx.glBindProgramPipeline(pipe)
    assert _draw_each(ctx, fp) == WANT


def test_one_program_with_the_block_on_both_sides():
    ctx = glhelp.context(2, 1, api="gl46")
    p = glhelp.program(ctx, VS.replace("in vec4 pos;", "layout(location = 0) in vec4 pos;"), BLOCK_FS)
    assert _draw_each(ctx, p) == WANT
