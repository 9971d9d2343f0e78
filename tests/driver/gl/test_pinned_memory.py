"""GL_AMD_pinned_memory: glBufferData on EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD makes the
client's own memory the buffer's data store. Checked with page-aligned client memory
(an anonymous mapping, as a program's aligned allocation): vertices the client writes
after glBufferData, with no GL call, are drawn; what the GPU writes into the buffer
(glReadPixels into a pixel pack buffer, a copy) appears in the client's memory;
glMapBufferRange maps the same bytes; the memory keeps its bytes after the buffer is
deleted; memory that cannot be mapped is INVALID_OPERATION with the buffer unchanged.
The same through the C ABI is piglit's amd_pinned_memory (its six variants)."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

from .helpers import expect

PINNED = E.GL_EXTERNAL_VIRTUAL_MEMORY_BUFFER_AMD
PAGE = mmap.PAGESIZE


def _client_memory(nbytes: int):
    """Page-aligned client memory: (mapping, float32 view)."""
    m = mmap.mmap(-1, -(-nbytes // PAGE) * PAGE)
    return m, np.frombuffer(m, np.float32)


def _extensions(ctx) -> set[str]:
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_listed_in_desktop_contexts(api):
    assert "GL_AMD_pinned_memory" in _extensions(glhelp.context(1, 1, api=api))


def test_not_in_gles():
    ctx = glhelp.context(1, 1, api="gles3")
    assert "GL_AMD_pinned_memory" not in _extensions(ctx)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(PINNED, b)
    expect(ctx, E.GL_INVALID_ENUM)


VS = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FS = "#version 330\nout vec4 c; void main() { c = vec4(1.0, 0.5, 0.0, 1.0); }"


def test_client_writes_are_drawn_and_gpu_writes_reach_the_client():
    ctx = glhelp.context(8, 8, api="gl46")
    m, mem = _client_memory(2 * PAGE)
    mem[:] = -7.0                                       # the memory's bytes are the store's first bytes
    vbo, pbo = ctx.glGenBuffers(2)
    ctx.glBindBuffer(PINNED, vbo)
    ctx.glBufferData(PINNED, len(m), mem, E.GL_STATIC_DRAW)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glBindBuffer(PINNED, 0)
    assert ctx.glGetNamedBufferParameteriv(vbo, E.GL_BUFFER_SIZE) == [len(m)]
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, vbo)
    assert np.frombuffer(ctx.glGetBufferSubData(E.GL_COPY_READ_BUFFER, 0, 16), np.float32).tolist() == [-7.0] * 4
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    # two triangles covering the left half, written by the client after glBufferData
    mem[:12] = [-1, -1, 0, -1, -1, 1, 0, -1, 0, 1, -1, 1]
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    assert (px[:, :4] == [255, 128, 0, 255]).all() and (px[:, 4:] == 0).all()
    # the GPU writes the pinned buffer: glReadPixels into it as a pixel pack buffer
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, vbo)
    ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE, PAGE)
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, 0)
    ctx.glFinish()
    got = np.frombuffer(m, np.uint8)[PAGE:PAGE + 256].reshape(8, 8, 4)
    assert (got == px).all()
    # a copy into it, and glMapBufferRange of the same bytes
    (src,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, src)
    ctx.glBufferData(E.GL_COPY_READ_BUFFER, 16, np.float32([1.5, 2.5, 3.5, 4.5]), E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_COPY_WRITE_BUFFER, vbo)
    ctx.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 0, 32, 16)
    ctx.glFinish()
    assert mem[8:12].tolist() == [1.5, 2.5, 3.5, 4.5]
    view = ctx.glMapBufferRange(E.GL_COPY_WRITE_BUFFER, 0, 16, E.GL_MAP_WRITE_BIT | E.GL_MAP_UNSYNCHRONIZED_BIT)
    view[:4] = np.float32([9.0]).tobytes()
    ctx.glUnmapBuffer(E.GL_COPY_WRITE_BUFFER)
    assert mem[0] == 9.0
    expect(ctx, E.GL_NO_ERROR)
    # deleted: the memory keeps the bytes, the client's own again
    ctx.glDeleteBuffers(1, [vbo])
    ctx.glFinish()
    assert mem[0] == 9.0 and mem[8:12].tolist() == [1.5, 2.5, 3.5, 4.5]
    mem[0] = 1.0
    assert mem[0] == 1.0


def test_each_draw_reads_the_bytes_written_before_it():
    """piglit's pattern: write vertices, draw, write the same slot again, draw; the
    first draw must not see the second write (a fence between them) - and with fresh
    slots no wait at all."""
    ctx = glhelp.context(8, 8, api="gl46")
    m, mem = _client_memory(PAGE)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(PINNED, vbo)
    ctx.glBufferData(PINNED, PAGE, mem, E.GL_STREAM_DRAW)
    prog = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    # four quarter-screen triangles pairs, each in its own slot, drawn without waiting
    quads = [(-1, -1), (0, -1), (-1, 0), (0, 0)]
    for i, (x, y) in enumerate(quads):
        mem[12 * i:12 * i + 12] = [x, y, x + 1, y, x, y + 1, x + 1, y, x + 1, y + 1, x, y + 1]
        ctx.glDrawArrays(E.GL_TRIANGLES, 6 * i, 6)
    fence = ctx.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    ctx.glClientWaitSync(fence, E.GL_SYNC_FLUSH_COMMANDS_BIT, 10 ** 10)
    mem[:48] = 5.0                                       # after the fence: moves nothing drawn
    px = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    assert (px == [255, 128, 0, 255]).all()


def test_memory_that_cannot_be_mapped_is_invalid_operation():
    ctx = glhelp.context(1, 1, api="compat")
    m, mem = _client_memory(PAGE)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(PINNED, b)
    ctx.glBufferData(PINNED, 64, mem, E.GL_STATIC_DRAW)
    expect(ctx, E.GL_NO_ERROR)
    for data, size in ((None, 64),                                    # no pointer
                       (np.frombuffer(m, np.uint8)[16:], 64),          # not page-aligned
                       (bytes(PAGE), PAGE),                            # not the client's writable memory
                       (mem, 2 * PAGE)):                               # shorter than size
        ctx.glBufferData(PINNED, size, data, E.GL_STATIC_DRAW)
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glGetBufferParameteriv(PINNED, E.GL_BUFFER_SIZE) == [64]     # unchanged
    # other targets still copy: a later client write is not seen
    (c,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, c)
    mem[:] = 0
    ctx.glBufferData(E.GL_ARRAY_BUFFER, PAGE, mem, E.GL_STATIC_DRAW)
    mem[0] = 3.0
    assert np.frombuffer(ctx.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, 4), np.float32)[0] == 0.0
