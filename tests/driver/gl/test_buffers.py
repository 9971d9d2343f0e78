"""Buffer objects (GL 4.6 chapter 6, GLES 3.2 chapter 6)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

A = E.GL_ARRAY_BUFFER


def bound(ctx, size=16, data=None):
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(A, b)
    ctx.glBufferData(A, size, data, E.GL_STATIC_DRAW)
    return b


def test_gen_is_delete(es3):
    names = es3.glGenBuffers(3)
    assert names == [1, 2, 3]
    assert not es3.glIsBuffer(1)           # a name is not an object until bound (GL 4.6 2.6.1)
    es3.glBindBuffer(A, 1)
    assert es3.glIsBuffer(1)
    assert es3.glGetIntegerv(E.GL_ARRAY_BUFFER_BINDING) == [1]
    es3.glDeleteBuffers(1, [1])
    assert not es3.glIsBuffer(1)
    assert es3.glGetIntegerv(E.GL_ARRAY_BUFFER_BINDING) == [0]   # deletion unbinds (5.1.2)
    es3.glGenBuffers(-1)
    expect(es3, E.GL_INVALID_VALUE)
    assert es3.glGenBuffers(1)[0] not in (2, 3)   # never a name in use


def test_core_requires_generated_names():
    core = make_ctx("gl33")
    core.glBindBuffer(A, 77)
    expect(core, E.GL_INVALID_OPERATION)
    compat = make_ctx("compat")
    compat.glBindBuffer(A, 77)
    assert compat.glIsBuffer(77)


def test_bad_target(any_ctx):
    any_ctx.glBindBuffer(E.GL_TEXTURE_2D, 0)
    expect(any_ctx, E.GL_INVALID_ENUM)


def test_es2_has_no_pixel_buffers():
    c = make_ctx("gles2")
    c.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
    expect(c, E.GL_INVALID_ENUM)


def test_buffer_data_errors_and_state(es3):
    es3.glBufferData(A, 4, None, E.GL_STATIC_DRAW)          # nothing bound
    expect(es3, E.GL_INVALID_OPERATION)
    bound(es3, 8)
    es3.glBufferData(A, -1, None, E.GL_STATIC_DRAW)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glBufferData(A, 4, None, E.GL_RGBA)
    expect(es3, E.GL_INVALID_ENUM)
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_SIZE) == [8]     # unchanged on error
    es3.glBufferData(A, 12, np.arange(3, dtype=np.float32), E.GL_DYNAMIC_DRAW)
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_USAGE) == [E.GL_DYNAMIC_DRAW]
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_SIZE) == [12]


def test_buffer_data_reaches_the_pipe(es3):
    bound(es3, 4, b"\x01\x02\x03\x04")
    es3.glBufferSubData(A, 1, 2, b"\xAA\xBB")
    buf = es3.buffers.get(1)
    assert bytes(buf.resource.storage) == b"\x01\xAA\xBB\x04"


def test_buffer_sub_data_errors(es3):
    bound(es3, 8)
    es3.glBufferSubData(A, 6, 4, bytes(4))
    expect(es3, E.GL_INVALID_VALUE)
    es3.glBufferSubData(A, -1, 1, bytes(1))
    expect(es3, E.GL_INVALID_VALUE)
    es3.glMapBufferRange(A, 0, 4, E.GL_MAP_WRITE_BIT)
    es3.glBufferSubData(A, 0, 1, b"x")
    expect(es3, E.GL_INVALID_OPERATION)                     # mapped (6.2)


def test_map_range_write_then_unmap(es3):
    bound(es3, 8, bytes(8))
    m = es3.glMapBufferRange(A, 2, 4, E.GL_MAP_WRITE_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT)
    m[:] = b"abcd"
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_MAPPED) == [1]
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_MAP_OFFSET) == [2]
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_MAP_LENGTH) == [4]
    assert es3.glUnmapBuffer(A) is True
    assert bytes(es3.buffers.get(1).resource.storage) == b"\0\0abcd\0\0"
    es3.glUnmapBuffer(A)
    expect(es3, E.GL_INVALID_OPERATION)


def test_map_is_a_pipe_transfer_and_flush_explicit_flushes_regions(es3):
    from driver.gallium import PipeMap
    bound(es3, 8, bytes(8))
    es3.pipe.calls.clear()
    m = es3.glMapBufferRange(A, 2, 6, E.GL_MAP_WRITE_BIT | E.GL_MAP_FLUSH_EXPLICIT_BIT
                             | E.GL_MAP_INVALIDATE_RANGE_BIT)
    res, level, usage, box = es3.pipe.last("transfer_map")
    assert usage == PipeMap.WRITE | PipeMap.FLUSH_EXPLICIT | PipeMap.DISCARD_RANGE
    assert (box.x, box.width) == (2, 6)
    m[1:3] = b"23"
    es3.glFlushMappedBufferRange(A, 1, 2)
    transfer, region = es3.pipe.last("transfer_flush_region")
    assert (region.x, region.width) == (1, 2)
    es3.glFlushMappedBufferRange(A, 5, 2)                   # beyond the 6-byte mapping
    expect(es3, E.GL_INVALID_VALUE)
    es3.glUnmapBuffer(A)
    assert es3.pipe.last("transfer_unmap")[0] is transfer
    assert bytes(es3.buffers.get(1).resource.storage)[3:5] == b"23"


@pytest.mark.parametrize("offset,length,access,code", [
    (0, 4, 0, E.GL_INVALID_OPERATION),                                   # neither R nor W
    (0, 4, E.GL_MAP_READ_BIT | E.GL_MAP_INVALIDATE_RANGE_BIT, E.GL_INVALID_OPERATION),
    (0, 4, E.GL_MAP_READ_BIT | E.GL_MAP_FLUSH_EXPLICIT_BIT, E.GL_INVALID_OPERATION),
    (0, 0, E.GL_MAP_READ_BIT, E.GL_INVALID_VALUE),                        # zero length
    (6, 4, E.GL_MAP_READ_BIT, E.GL_INVALID_VALUE),                        # beyond the end
    (-1, 4, E.GL_MAP_READ_BIT, E.GL_INVALID_VALUE),
    (0, 4, 1 << 12, E.GL_INVALID_VALUE),                                  # unknown bit
    (0, 4, E.GL_MAP_READ_BIT | E.GL_MAP_PERSISTENT_BIT, E.GL_INVALID_OPERATION),  # mutable
])
def test_map_range_errors(es3, offset, length, access, code):
    # GL 4.6 section 6.3 / ES 3.2 section 6.3
    bound(es3, 8)
    assert es3.glMapBufferRange(A, offset, length, access) is None
    expect(es3, code)
    assert es3.glGetBufferParameteriv(A, E.GL_BUFFER_MAPPED) == [0]


def test_map_twice_is_an_error(es3):
    bound(es3, 8)
    es3.glMapBufferRange(A, 0, 4, E.GL_MAP_READ_BIT)
    es3.glMapBufferRange(A, 0, 4, E.GL_MAP_READ_BIT)
    expect(es3, E.GL_INVALID_OPERATION)


def test_map_buffer_desktop(core):
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(A, b)
    core.glBufferData(A, 4, b"wxyz", E.GL_STATIC_DRAW)
    m = core.glMapBuffer(A, E.GL_READ_ONLY)
    assert bytes(m) == b"wxyz"
    assert core.glGetBufferParameteriv(A, E.GL_BUFFER_ACCESS) == [E.GL_READ_ONLY]
    core.glUnmapBuffer(A)
    assert core.glGetBufferSubData(A, 1, 2) == b"xy"


def test_buffer_storage_immutable():
    c = make_ctx("gl43")
    c.glBufferStorage(A, 4, None, 0)        # GL 4.4 entry point
    expect(c, E.GL_INVALID_OPERATION)


def test_copy_buffer_sub_data(es3):
    a, b = es3.glGenBuffers(2)
    es3.glBindBuffer(E.GL_COPY_READ_BUFFER, a)
    es3.glBufferData(E.GL_COPY_READ_BUFFER, 8, b"ABCDEFGH", E.GL_STATIC_DRAW)
    es3.glBindBuffer(E.GL_COPY_WRITE_BUFFER, b)
    es3.glBufferData(E.GL_COPY_WRITE_BUFFER, 8, bytes(8), E.GL_STATIC_DRAW)
    es3.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 2, 4, 3)
    assert bytes(es3.buffers.get(b).resource.storage) == b"\0\0\0\0CDE\0"
    # GL 4.6 section 6.6 errors
    es3.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 6, 0, 3)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_READ_BUFFER, 0, 2, 4)
    expect(es3, E.GL_INVALID_VALUE)                          # overlap in one buffer
    es3.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_READ_BUFFER, 0, 4, 4)
    assert es3.glGetError() == E.GL_NO_ERROR


def test_indexed_bindings(es3):
    (b,) = es3.glGenBuffers(1)
    es3.glBindBuffer(E.GL_UNIFORM_BUFFER, b)
    es3.glBufferData(E.GL_UNIFORM_BUFFER, 256, None, E.GL_STATIC_DRAW)
    es3.glBindBufferRange(E.GL_UNIFORM_BUFFER, 2, b, 16, 64)
    assert es3.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_BINDING, 2) == [b]
    assert es3.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_START, 2) == [16]
    assert es3.glGetIntegeri_v(E.GL_UNIFORM_BUFFER_SIZE, 2) == [64]
    assert es3.glGetIntegerv(E.GL_UNIFORM_BUFFER_BINDING) == [b]    # generic binding too
    es3.glBindBufferRange(E.GL_UNIFORM_BUFFER, 0, b, 3, 16)
    expect(es3, E.GL_INVALID_VALUE)                                  # misaligned offset
    es3.glBindBufferRange(E.GL_UNIFORM_BUFFER, 0, b, 0, 0)
    expect(es3, E.GL_INVALID_VALUE)
    n = es3.glGetIntegerv(E.GL_MAX_UNIFORM_BUFFER_BINDINGS)[0]
    es3.glBindBufferBase(E.GL_UNIFORM_BUFFER, n, b)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glBindBufferBase(E.GL_ARRAY_BUFFER, 0, b)
    expect(es3, E.GL_INVALID_ENUM)
