"""GL_ARB_indirect_parameters: glMultiDraw{Arrays,Elements}IndirectCount draw
min(count in the PARAMETER_BUFFER, maxdrawcount) commands, each with its
gl_DrawIDARB, and the errors of GL 4.6 section 10.4. Array commands read
gl_BaseVertexARB 0 (GL 4.6 section 11.1.3.9), elements commands their basevertex."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_gl46_shader_draw_parameters import FS, VS

WHITE = (255, 255, 255)


def _setup(counts):
    """Four array commands drawing columns 0..3 (base instance = column), and
    a parameter buffer holding `counts` (uint32s)."""
    ctx = glhelp.context(4, 1, api="compat")
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(1, 1, 1, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    cmd, par = ctx.glGenBuffers(2)
    cmds = np.array([[4, 1, 4 * q, q] for q in range(4)], np.uint32)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, cmd)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmds.nbytes, cmds, E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_PARAMETER_BUFFER, par)
    ctx.glBufferData(E.GL_PARAMETER_BUFFER, 4 * len(counts), np.array(counts, np.uint32), E.GL_STATIC_DRAW)
    return ctx, par


def _columns(ctx):
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8)
    return [tuple(int(v) for v in px) for px in img.reshape(4, 3)]


def test_the_count_comes_from_the_parameter_buffer():
    """The count at byte 4 is 3: columns 0..2 drawn as draws 0..2, column 3 not."""
    ctx, par = _setup([7, 3])
    assert ctx.glGetIntegerv(E.GL_PARAMETER_BUFFER_BINDING) == [par]
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 4, 4, 0)
    assert _columns(ctx) == [(0, 0, 0), (0, 1, 1), (0, 2, 2), WHITE]


def test_maxdrawcount_bounds_the_count():
    ctx, _ = _setup([7])
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 16, 0, 2, 16)      # from command 1, at most 2
    assert _columns(ctx) == [WHITE, (0, 1, 0), (0, 2, 1), WHITE]


def test_elements_with_a_zero_count_draw_nothing():
    ctx, _ = _setup([0, 2])
    (ibo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 8, np.arange(4, dtype=np.uint16), E.GL_STATIC_DRAW)
    elements = np.array([[4, 1, 0, 8, 5], [4, 1, 0, 12, 6]], np.uint32)   # base vertices 8 and 12
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, elements.nbytes, elements, E.GL_STATIC_DRAW)
    ctx.glMultiDrawElementsIndirectCount(E.GL_TRIANGLE_STRIP, E.GL_UNSIGNED_SHORT, 0, 0, 2, 0)
    assert _columns(ctx) == [WHITE] * 4
    ctx.glMultiDrawElementsIndirectCount(E.GL_TRIANGLE_STRIP, E.GL_UNSIGNED_SHORT, 0, 4, 2, 0)
    assert _columns(ctx) == [WHITE, WHITE, (8, 5, 0), (12, 6, 1)]


def test_errors():
    ctx, _ = _setup([1])
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 2, 1, 0)        # offset not a multiple of 4
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 0, -1, 0)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 4, 1, 0)        # count beyond the buffer
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 0, 5, 0)        # 5 commands: beyond
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glBindBuffer(E.GL_PARAMETER_BUFFER, 0)
    ctx.glMultiDrawArraysIndirectCount(E.GL_TRIANGLE_STRIP, 0, 0, 1, 0)
    expect(ctx, E.GL_INVALID_OPERATION)
    assert _columns(ctx) == [WHITE] * 4


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_indirect_parameters" in ctx.extensions
