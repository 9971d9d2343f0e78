"""GL_ARB_map_buffer_alignment (core in GL 4.2; listed in core GL 3.2+ and compatibility):
MIN_MAP_BUFFER_ALIGNMENT is at least 64, and the pointer a mapping returns, minus its
offset, is a multiple of it, whatever the access bits (invalidated ranges and explicitly
flushed ranges included, which drivers may map through temporary storage), also while the
GPU is still using the buffer. The address is the one the C ABI hands out (it passes the
mapping's own memory, driver/abi/marshal.py)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect, link_sources

AB = E.GL_ARRAY_BUFFER
SIZE_B = 4096


def _address(view) -> int:
    return np.frombuffer(view, np.uint8).__array_interface__["data"][0]


@pytest.mark.parametrize("access", [
    E.GL_MAP_READ_BIT,
    E.GL_MAP_WRITE_BIT,
    E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT,
    E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT | E.GL_MAP_FLUSH_EXPLICIT_BIT,
    E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_BUFFER_BIT,
    E.GL_MAP_WRITE_BIT | E.GL_MAP_UNSYNCHRONIZED_BIT,
])
def test_mappings_are_aligned_at_every_offset(access):
    with driver.Context(api="gl32", width=8, height=8) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_map_buffer_alignment" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        align = ctx.glGetIntegerv(E.GL_MIN_MAP_BUFFER_ALIGNMENT)[0]
        assert align >= 64 and align & (align - 1) == 0
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(AB, buf)
        ctx.glBufferData(AB, SIZE_B, bytes(SIZE_B), E.GL_STATIC_DRAW)
        link_sources(ctx, [(E.GL_VERTEX_SHADER, "#version 150\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0, 1); }"),
                           (E.GL_FRAGMENT_SHADER, "#version 150\nout vec4 o;\nvoid main() { o = vec4(1); }")])
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        for offset in (0, 1, 3, align - 1, align, align + 1, 1000, SIZE_B - align):
            ctx.glDrawArrays(E.GL_POINTS, 0, SIZE_B // 8)          # the GPU reads the buffer
            ctx.glFlush()
            view = ctx.glMapBufferRange(AB, offset, align - 1, access)
            assert (_address(view) - offset) % align == 0, (offset, hex(_address(view)))
            if access & E.GL_MAP_FLUSH_EXPLICIT_BIT:
                ctx.glFlushMappedBufferRange(AB, 0, align - 1)
            assert ctx.glUnmapBuffer(AB)
        whole = ctx.glMapBuffer(AB, E.GL_READ_WRITE)
        assert _address(whole) % align == 0
        ctx.glUnmapBuffer(AB)
        expect(ctx, E.GL_NO_ERROR)


def test_data_written_through_an_unaligned_range_lands_at_its_offset():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(AB, buf)
        ctx.glBufferData(AB, 256, bytes(256), E.GL_DYNAMIC_DRAW)
        view = ctx.glMapBufferRange(AB, 65, 3, E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT)
        view[:3] = b"\x07\x08\x09"
        ctx.glUnmapBuffer(AB)
        data = bytes(ctx.glGetBufferSubData(AB, 64, 5))
        assert data == b"\x00\x07\x08\x09\x00"
