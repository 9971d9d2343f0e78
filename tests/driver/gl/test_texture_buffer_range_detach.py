"""glTexBufferRange's buffer zero and display lists (GL 4.6 section 8.9;
ARB_texture_buffer_range): detaching ignores offset and size and resets them to zero,
and the command is executed, not compiled, inside glNewList (as glTexBuffer). piglit's
arb_texture_buffer_range errors and dlist failed on both."""

from __future__ import annotations

import driver
from driver.gl import enums as E


def _buffer(ctx, data: bytes):
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, buf)
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, len(data), data, E.GL_STATIC_DRAW)
    return buf


def test_detaching_ignores_offset_and_size():
    """glTexBufferRange with buffer 0 detaches and ignores offset and size (GL 4.6
    section 8.9: they are reset to zero), where a negative offset or zero size with a
    buffer is INVALID_VALUE; a target other than TEXTURE_BUFFER is INVALID_ENUM first."""
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        align = ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT)[0]
        buf = _buffer(ctx, bytes(1024))
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, buf, align, 512)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glTexBufferRange(E.GL_TEXTURE_2D, E.GL_RGBA8, buf, -align, 0)
        assert ctx.glGetError() == E.GL_INVALID_ENUM
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, buf, -align, 16)
        assert ctx.glGetError() == E.GL_INVALID_VALUE
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, buf, 0, 0)
        assert ctx.glGetError() == E.GL_INVALID_VALUE
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_BUFFER_OFFSET)[0] == align
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, 0, -align, 0)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING)[0] == 0
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_BUFFER_OFFSET)[0] == 0
        assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_BUFFER_SIZE)[0] == 0


def test_tex_buffer_range_is_executed_inside_a_display_list():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        buf = _buffer(ctx, bytes(128))
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
        lst = ctx.glGenLists(1)
        ctx.glNewList(lst, E.GL_COMPILE)
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, buf, 0, 128)
        ctx.glEndList()
        assert ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING)[0] == buf
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, 0, 0, 0)
        ctx.glCallList(lst)                 # the list is empty
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert ctx.glGetIntegerv(E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING)[0] == 0
