"""GL_ARB_shader_draw_parameters: gl_BaseVertexARB (the basevertex of indexed
draws; 0 for array draws, whose gl_VertexID still counts from first: GL 4.6
section 11.1.3.9), gl_BaseInstanceARB and gl_DrawIDARB (the index within a
multi-draw), read back from the pixels each draw colours."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

HEADER = "#version 330\n#extension GL_ARB_shader_draw_parameters : require\n"
# quad q = (gl_VertexID / 4) % 4 covers pixel column q of a 4x1 target
VS = HEADER + """flat out ivec3 params;
void main() {
    int k = gl_VertexID % 4, q = (gl_VertexID / 4) % 4;
    vec2 p = vec2(float(q + (k & 1)) * 0.5 - 1.0, float(k >> 1) * 2.0 - 1.0);
    gl_Position = vec4(p, 0.0, 1.0);
    params = ivec3(gl_BaseVertexARB, gl_BaseInstanceARB, gl_DrawIDARB);
}
"""
FS = "#version 330\nflat in ivec3 params;\nout vec4 o;\nvoid main() { o = vec4(vec3(params) / 255.0, 1.0); }\n"


def _setup():
    ctx = glhelp.context(4, 1, api="compat")
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(1, 1, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return ctx


def _columns(ctx):
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8)
    return [tuple(int(v) for v in px) for px in img.reshape(4, 3)]


def test_multi_draw_arrays_gives_base_vertex_zero_and_draw_index():
    """Array draws from first 8 and 12 land in columns 2 and 3 (gl_VertexID counts
    from first) while gl_BaseVertexARB reads 0 (it was first before)."""
    ctx = _setup()
    ctx.glMultiDrawArrays(E.GL_TRIANGLE_STRIP, [0, 8, 12], [4, 4, 4], 3)    # columns 0, 2, 3
    assert _columns(ctx) == [(0, 0, 0), (255, 255, 255), (0, 0, 1), (0, 0, 2)]


def test_base_instance_and_base_vertex_of_indexed_draws():
    ctx = _setup()
    (ibo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 8, np.arange(4, dtype=np.uint16), E.GL_STATIC_DRAW)
    # base vertex 4 -> column 1, base instance 7
    ctx.glDrawElementsInstancedBaseVertexBaseInstance(E.GL_TRIANGLE_STRIP, 4, E.GL_UNSIGNED_SHORT, 0, 1, 4, 7)
    # a multi-draw with base vertices 8 and 12 -> columns 2 and 3, draw ids 0 and 1
    ctx.glMultiDrawElementsBaseVertex(E.GL_TRIANGLE_STRIP, [4, 4], E.GL_UNSIGNED_SHORT, [0, 0], 2, [8, 12])
    assert _columns(ctx) == [(255, 255, 255), (4, 7, 0), (8, 0, 0), (12, 0, 1)]


def test_multi_draw_indirect_commands():
    """Commands (count, instances, first, base instance): column 0 with base
    instance 5 as draw 0, column 3 (first 12; gl_BaseVertexARB 0, the GPU reads the
    first vertex from the buffer) with base instance 9 as draw 1."""
    ctx = _setup()
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, buf)
    cmds = np.array([[4, 1, 0, 5], [4, 1, 12, 9]], np.uint32)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmds.nbytes, cmds, E.GL_STATIC_DRAW)
    ctx.glMultiDrawArraysIndirect(E.GL_TRIANGLE_STRIP, 0, 2, 0)
    assert _columns(ctx) == [(0, 5, 0), (255, 255, 255), (255, 255, 255), (0, 9, 1)]


def test_a_single_draw_is_draw_zero():
    ctx = _setup()
    ctx.glMultiDrawArrays(E.GL_TRIANGLE_STRIP, [4, 8], [4, 4], 2)
    ctx.glDrawArraysInstancedBaseInstance(E.GL_TRIANGLE_STRIP, 12, 4, 1, 3)   # after a multi-draw
    assert _columns(ctx) == [(255, 255, 255), (0, 0, 0), (0, 0, 1), (0, 3, 0)]


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_shader_draw_parameters" in ctx.extensions


def test_base_vertex_of_indexed_and_array_draws_in_one_frame():
    """The same four vertices drawn indexed with basevertex 4 (column 1) and as
    arrays from first 8 (column 2): only the indexed draw reads its base vertex;
    an indexed draw with basevertex 0 reads 0 too (column 3, indices 12..15)."""
    ctx = _setup()
    (ibo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 16, np.array([0, 1, 2, 3, 12, 13, 14, 15], np.uint16),
                     E.GL_STATIC_DRAW)
    ctx.glDrawElementsBaseVertex(E.GL_TRIANGLE_STRIP, 4, E.GL_UNSIGNED_SHORT, 0, 4)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 8, 4)
    ctx.glDrawElementsBaseVertex(E.GL_TRIANGLE_STRIP, 4, E.GL_UNSIGNED_SHORT, 8, 0)
    assert _columns(ctx) == [(255, 255, 255), (4, 0, 0), (0, 0, 0), (0, 0, 0)]
