"""GL_EXT_memory_object and GL_EXT_memory_object_fd: memory imported from a dma-buf
descriptor (the UAPI's PRIME export of a GEM object) backs textures and buffers.

The exporter is a GL context on the process's default device; the importer is a GL
context on a second device file (its own AgxScreen: its own VM, BO handles, queue), so
the pixels travel only through the descriptor. Expected values by hand: a byte pattern
written on one side is read on the other, a clear of a rectangle shows there as the
colour's bytes, a LINEAR texture's rows lie row-major in a buffer's bytes."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.agx.pipe import AgxScreen
from driver.gl import enums as E
from driver.gl.families import Context as GLContext
from driver.gl.objects import MAX_NAMES_PER_CALL

from .helpers import expect

PAGE = 16384


@pytest.fixture(scope="module")
def other_device():
    screen = AgxScreen()
    yield screen
    screen.destroy()


@pytest.fixture
def importer(other_device):
    """A GL 4.6 core context on the second device."""
    pipe = other_device.context_create()
    gl = GLContext(pipe, "gl46", 16, 16)
    yield gl
    gl.destroy()
    pipe.destroy()


def _pattern(w, h) -> np.ndarray:
    return (np.arange(w * h * 4, dtype=np.int64) * 7 % 251).astype(np.uint8)


def _exported_texture(ctx, w, h, data) -> tuple[int, int, int]:
    """(texture, fd, bytes): an RGBA8 texture of ``data`` whose memory is exported."""
    t = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, w, h)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data.tobytes())
    ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)     # the upload has landed
    ctx.glFinish()
    res = ctx.textures.get(t).resource
    return t, ctx.screen.resource_get_handle(res), res.alloc_B


def _import(ctx, fd, size, dedicated=True) -> int:
    mem = ctx.glCreateMemoryObjectsEXT(1)[0]
    ctx.glMemoryObjectParameterivEXT(mem, E.GL_DEDICATED_MEMORY_OBJECT_EXT, [int(dedicated)])
    ctx.glImportMemoryFdEXT(mem, size, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)
    expect(ctx, E.GL_NO_ERROR)
    return mem


def _tex_image(ctx, target=E.GL_TEXTURE_2D) -> np.ndarray:
    return np.frombuffer(bytes(ctx.glGetTexImage(target, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)


def test_two_devices_share_a_texture_through_a_descriptor(importer):
    w, h = 32, 16
    data = _pattern(w, h)
    with driver.Context(api="compat", width=8, height=8) as a:
        t, fd, size = _exported_texture(a, w, h, data)
        b = importer
        mem = _import(b, fd, size)
        assert b.glGetMemoryObjectParameterivEXT(mem, E.GL_DEDICATED_MEMORY_OBJECT_EXT) == [1]
        tb = b.glGenTextures(1)[0]
        b.glBindTexture(E.GL_TEXTURE_2D, tb)
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, w, h, mem, 0)
        expect(b, E.GL_NO_ERROR)
        assert b.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [1]
        assert (_tex_image(b) == data).all()
        # the importer renders into it: a clear of x 4..11, y 2..5 to (1, 0.5, 0, 1)
        fbo = b.glGenFramebuffers(1)[0]
        b.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        b.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tb, 0)
        assert b.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        b.glEnable(E.GL_SCISSOR_TEST)
        b.glScissor(4, 2, 8, 4)
        b.glClearColor(1.0, 0.5, 0.0, 1.0)
        b.glClear(E.GL_COLOR_BUFFER_BIT)
        b.glFinish()
        want = data.reshape(h, w, 4).copy()
        want[2:6, 4:12] = [255, 128, 0, 255]
        a.glBindTexture(E.GL_TEXTURE_2D, t)
        assert (_tex_image(a).reshape(h, w, 4) == want).all()
        # and the exporter's TexSubImage is seen by the importer
        a.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([9, 8, 7, 6]))
        a.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        a.glFinish()
        assert list(_tex_image(b)[:4]) == [9, 8, 7, 6]
        b.glDeleteMemoryObjectsEXT(1, [mem])       # the texture keeps the memory
        assert not b.glIsMemoryObjectEXT(mem)
        assert list(_tex_image(b)[:4]) == [9, 8, 7, 6]
        b.glDeleteFramebuffers(1, [fbo])
        b.glDeleteTextures(1, [tb])
        expect(b, E.GL_NO_ERROR)


def _exported_buffer(ctx, data: bytes) -> tuple[int, int]:
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, len(data), data, E.GL_STATIC_DRAW)
    ctx.glFinish()
    return buf, ctx.screen.resource_get_handle(ctx.buffers.get(buf).resource)


def test_buffers_at_offsets_of_the_memory(importer):
    data = bytes(_pattern(128, 64))          # two pages
    with driver.Context(api="compat", width=8, height=8) as a:
        _buf, fd = _exported_buffer(a, data)
        b = importer
        mem = _import(b, fd, len(data), dedicated=False)
        first = b.glGenBuffers(1)[0]
        second = b.glCreateBuffers(1)[0]
        b.glBindBuffer(E.GL_COPY_READ_BUFFER, first)
        b.glBufferStorageMemEXT(E.GL_COPY_READ_BUFFER, 100, mem, 0)
        expect(b, E.GL_NO_ERROR)
        assert b.glGetBufferSubData(E.GL_COPY_READ_BUFFER, 0, 100) == data[:100]
        assert b.glGetBufferParameteriv(E.GL_COPY_READ_BUFFER, E.GL_BUFFER_IMMUTABLE_STORAGE) == [1]
        assert b.glGetBufferParameteriv(E.GL_COPY_READ_BUFFER, E.GL_BUFFER_STORAGE_FLAGS) == [0]
        b.glNamedBufferStorageMemEXT(second, 300, mem, PAGE)      # the second page
        expect(b, E.GL_NO_ERROR)
        b.glBindBuffer(E.GL_COPY_WRITE_BUFFER, second)
        assert b.glGetBufferSubData(E.GL_COPY_WRITE_BUFFER, 0, 300) == data[PAGE:PAGE + 300]
        # no storage flags: neither BufferSubData nor a map
        b.glBufferSubData(E.GL_COPY_WRITE_BUFFER, 0, 4, b"abcd")
        expect(b, E.GL_INVALID_OPERATION)
        b.glMapBufferRange(E.GL_COPY_WRITE_BUFFER, 0, 4, E.GL_MAP_READ_BIT)
        expect(b, E.GL_INVALID_OPERATION)
        # a GPU copy between the two ranges reaches the exporter's buffer
        b.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 10, 20, 30)
        b.glFinish()
        got = a.glGetBufferSubData(E.GL_ARRAY_BUFFER, PAGE + 20, 30)
        assert got == data[10:40]
        b.glDeleteBuffers(2, [first, second])
        b.glDeleteMemoryObjectsEXT(1, [mem])
        expect(b, E.GL_NO_ERROR)


def test_linear_tiling_lays_rows_out_in_order(importer):
    """A LINEAR texture of 32 x 8 RGBA8 in a buffer's memory: texel (x, y) at byte
    128 y + 4 x (a 128-byte row needs no padding: linear rows are 128-byte aligned), so
    the exporter reads the importer's upload back row by row."""
    w, h = 32, 8
    with driver.Context(api="compat", width=8, height=8) as a:
        _buf, fd = _exported_buffer(a, bytes(PAGE))
        b = importer
        mem = _import(b, fd, PAGE)
        tb = b.glGenTextures(1)[0]
        b.glBindTexture(E.GL_TEXTURE_2D, tb)
        assert b.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_TILING_EXT) == [E.GL_OPTIMAL_TILING_EXT]
        b.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_TILING_EXT, E.GL_LINEAR_TILING_EXT)
        assert b.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_TILING_EXT) == [E.GL_LINEAR_TILING_EXT]
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, w, h, mem, 0)
        data = _pattern(w, h)
        b.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data.tobytes())
        b.glFinish()
        expect(b, E.GL_NO_ERROR)
        got = np.frombuffer(a.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, w * h * 4), np.uint8)
        assert (got == data).all()
        b.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_TILING_EXT, E.GL_RGBA)
        expect(b, E.GL_INVALID_ENUM)
        b.glDeleteTextures(1, [tb])
        b.glDeleteMemoryObjectsEXT(1, [mem])


def test_errors_change_nothing(importer):
    b = importer
    b.glCreateMemoryObjectsEXT(-1)
    expect(b, E.GL_INVALID_VALUE)
    # more names than one call may make (as glGen*: the API fuzzer's 2**31 - 2 took 24 GB before
    # the OOM killer) is GL_OUT_OF_MEMORY at once and creates nothing
    assert b.glCreateMemoryObjectsEXT(MAX_NAMES_PER_CALL + 1) is None
    expect(b, E.GL_OUT_OF_MEMORY)
    mem, empty = b.glCreateMemoryObjectsEXT(2)
    assert (mem, empty) == (1, 2)              # nothing was created by the refused call
    assert b.glIsMemoryObjectEXT(mem) and not b.glIsMemoryObjectEXT(0) and not b.glIsMemoryObjectEXT(999)
    assert b.glGetMemoryObjectParameterivEXT(mem, E.GL_DEDICATED_MEMORY_OBJECT_EXT) == [0]
    b.glMemoryObjectParameterivEXT(mem, E.GL_PROTECTED_MEMORY_OBJECT_EXT, [1])
    expect(b, E.GL_INVALID_ENUM)
    b.glMemoryObjectParameterivEXT(999, E.GL_DEDICATED_MEMORY_OBJECT_EXT, [1])
    expect(b, E.GL_INVALID_VALUE)
    b.glGetMemoryObjectParameterivEXT(0, E.GL_DEDICATED_MEMORY_OBJECT_EXT)
    expect(b, E.GL_INVALID_VALUE)
    tb = b.glGenTextures(1)[0]
    b.glBindTexture(E.GL_TEXTURE_2D, tb)
    b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4, 0, 0)
    expect(b, E.GL_INVALID_VALUE)
    b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4, mem, 0)     # no memory yet
    expect(b, E.GL_INVALID_OPERATION)
    with driver.Context(api="compat", width=8, height=8) as a:
        _buf, fd = _exported_buffer(a, bytes(PAGE))
        b.glImportMemoryFdEXT(mem, PAGE, 0x9587, fd)
        expect(b, E.GL_INVALID_ENUM)
        b.glImportMemoryFdEXT(999, PAGE, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)
        expect(b, E.GL_INVALID_VALUE)
        b.glImportMemoryFdEXT(mem, 4 * PAGE, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)    # more than the object
        expect(b, E.GL_INVALID_VALUE)
        b.glImportMemoryFdEXT(mem, PAGE, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)
        expect(b, E.GL_NO_ERROR)
        b.glImportMemoryFdEXT(mem, PAGE, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)      # already has memory
        expect(b, E.GL_INVALID_OPERATION)
        b.glMemoryObjectParameterivEXT(mem, E.GL_DEDICATED_MEMORY_OBJECT_EXT, [1])  # immutable now
        expect(b, E.GL_INVALID_OPERATION)
        assert b.glGetMemoryObjectParameterivEXT(mem, E.GL_DEDICATED_MEMORY_OBJECT_EXT) == [0]
        # 64 x 64 RGBA8 takes a page: from offset 0 it fits, from a page on it does not; an
        # offset that is not a page is refused; the texture is left mutable each time
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 64, 64, mem, PAGE)
        expect(b, E.GL_INVALID_VALUE)
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4, mem, 256)
        expect(b, E.GL_INVALID_VALUE)
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 128, 128, mem, 0)
        expect(b, E.GL_INVALID_VALUE)
        assert b.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [0]
        assert b.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_WIDTH) == [0]
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, mem, 0)      # glTexStorage2D's own error
        expect(b, E.GL_INVALID_VALUE)
        b.glTexStorageMem2DEXT(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 64, 64, mem, 0)
        expect(b, E.GL_NO_ERROR)
        buf = b.glGenBuffers(1)[0]
        b.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        b.glBufferStorageMemEXT(E.GL_ARRAY_BUFFER, PAGE + 1, mem, 0)
        expect(b, E.GL_INVALID_VALUE)
        b.glBufferStorageMemEXT(E.GL_ARRAY_BUFFER, 0, mem, 0)
        expect(b, E.GL_INVALID_VALUE)
        b.glBufferStorageMemEXT(E.GL_ARRAY_BUFFER, 16, empty, 0)
        expect(b, E.GL_INVALID_OPERATION)
        assert b.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_IMMUTABLE_STORAGE) == [0]
        b.glDeleteBuffers(1, [buf])
        b.glDeleteTextures(1, [tb])
        b.glDeleteMemoryObjectsEXT(2, [mem, empty])
        expect(b, E.GL_NO_ERROR)


def test_a_descriptor_that_is_no_dma_buf_is_refused(importer, tmp_path):
    import os
    b = importer
    mem = b.glCreateMemoryObjectsEXT(1)[0]
    fd = os.open(tmp_path / "plain", os.O_CREAT | os.O_RDWR)
    try:
        b.glImportMemoryFdEXT(mem, PAGE, E.GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd)
        expect(b, E.GL_INVALID_VALUE)
    finally:
        os.close(fd)
    b.glDeleteMemoryObjectsEXT(1, [mem])


def test_uuids_and_tiling_queries(importer, other_device):
    b = importer
    driver_uuid = b.glGetUnsignedBytevEXT(E.GL_DRIVER_UUID_EXT)
    device_uuid = b.glGetUnsignedBytevEXT(E.GL_DEVICE_UUID_EXT)
    assert len(driver_uuid) == len(device_uuid) == E.GL_UUID_SIZE_EXT == 16
    assert driver_uuid != device_uuid and any(driver_uuid) and any(device_uuid)
    assert b.glGetIntegerv(E.GL_NUM_DEVICE_UUIDS_EXT) == [1]
    assert b.glGetUnsignedBytei_vEXT(E.GL_DEVICE_UUID_EXT, 0) == device_uuid
    b.glGetUnsignedBytei_vEXT(E.GL_DEVICE_UUID_EXT, 1)
    expect(b, E.GL_INVALID_VALUE)
    # any boolean state reads as bytes; the same GPU on another device file has the same UUIDs
    b.glEnable(E.GL_BLEND)
    assert b.glGetUnsignedBytevEXT(E.GL_BLEND) == [1]
    with driver.Context(api="gles3", width=4, height=4) as a:
        assert a.glGetUnsignedBytevEXT(E.GL_DEVICE_UUID_EXT) == device_uuid
        assert a.glGetUnsignedBytevEXT(E.GL_DRIVER_UUID_EXT) == driver_uuid
    assert b.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_NUM_TILING_TYPES_EXT, 1) == [2]
    assert b.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_TILING_TYPES_EXT, 2) == \
        [E.GL_OPTIMAL_TILING_EXT, E.GL_LINEAR_TILING_EXT]


@pytest.mark.parametrize("api, listed", [("compat", True), ("gl33", True), ("gl46", True), ("gles3", True),
                                         ("gles2", False)])
def test_listed_where_texture_storage_is(api, listed):
    with driver.Context(api=api, width=4, height=4) as ctx:
        names = set(ctx.extensions)
        assert ("GL_EXT_memory_object" in names) == listed
        assert ("GL_EXT_memory_object_fd" in names) == listed
