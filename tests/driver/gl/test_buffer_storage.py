"""GL_ARB_buffer_storage (GL 4.4) and GLES's GL_EXT_buffer_storage: immutable
storage and its flags, persistent mappings that the GPU writes while mapped
(glCopyBufferSubData into a persistently mapped buffer, seen through the
pointer after a fence; the copy is refused only for non-persistent maps),
CLIENT_MAPPED_BUFFER_BARRIER_BIT, and the flag errors GL 4.6 section 6.2 names."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

RW_PERSISTENT = E.GL_MAP_READ_BIT | E.GL_MAP_WRITE_BIT | E.GL_MAP_PERSISTENT_BIT


@pytest.mark.parametrize("api", ["compat", "gl45", "gles31"])
def test_listed(api):
    ctx = glhelp.context(1, 1, api=api)
    n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
    assert ("GL_EXT_buffer_storage" if api == "gles31" else "GL_ARB_buffer_storage") in names


@pytest.mark.parametrize("api, coherent", [("gl45", False), ("gl45", True), ("gles31", False)])
def test_gpu_writes_are_seen_through_a_persistent_map(api, coherent):
    ctx = glhelp.context(1, 1, api=api)
    flags = RW_PERSISTENT | (E.GL_MAP_COHERENT_BIT if coherent else 0)
    dst, src = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_COPY_WRITE_BUFFER, dst)
    storage = ctx.glBufferStorageEXT if api == "gles31" else ctx.glBufferStorage
    storage(E.GL_COPY_WRITE_BUFFER, 64, None, flags)
    assert ctx.glGetBufferParameteriv(E.GL_COPY_WRITE_BUFFER, E.GL_BUFFER_IMMUTABLE_STORAGE)[0] == 1
    assert ctx.glGetBufferParameteriv(E.GL_COPY_WRITE_BUFFER, E.GL_BUFFER_STORAGE_FLAGS)[0] == flags
    view = ctx.glMapBufferRange(E.GL_COPY_WRITE_BUFFER, 0, 64, flags)
    values = np.arange(16, dtype=np.float32) * 3 + 17
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, src)
    ctx.glBufferData(E.GL_COPY_READ_BUFFER, 64, values, E.GL_STATIC_DRAW)
    ctx.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 0, 0, 64)
    if not coherent:
        ctx.glMemoryBarrier(E.GL_CLIENT_MAPPED_BUFFER_BARRIER_BIT)
    fence = ctx.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    assert ctx.glClientWaitSync(fence, E.GL_SYNC_FLUSH_COMMANDS_BIT, 10**10) in (
        E.GL_ALREADY_SIGNALED, E.GL_CONDITION_SATISFIED)
    assert ctx.glGetError() == E.GL_NO_ERROR
    np.testing.assert_array_equal(np.frombuffer(view, np.float32), values)


def test_copy_into_a_non_persistent_map_is_refused():
    ctx = glhelp.context(1, 1, api="gl45")
    dst, src = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_COPY_WRITE_BUFFER, dst)
    ctx.glBufferStorage(E.GL_COPY_WRITE_BUFFER, 16, bytes(range(16)), E.GL_MAP_READ_BIT)
    ctx.glMapBufferRange(E.GL_COPY_WRITE_BUFFER, 0, 16, E.GL_MAP_READ_BIT)
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, src)
    ctx.glBufferData(E.GL_COPY_READ_BUFFER, 16, bytes(16), E.GL_STATIC_DRAW)
    ctx.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_COPY_WRITE_BUFFER, 0, 0, 16)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glUnmapBuffer(E.GL_COPY_WRITE_BUFFER)
    got = ctx.glGetBufferSubData(E.GL_COPY_WRITE_BUFFER, 0, 16)
    assert bytes(got) == bytes(range(16))           # unchanged


@pytest.mark.parametrize("flags", [E.GL_MAP_PERSISTENT_BIT,
                                   E.GL_MAP_COHERENT_BIT | E.GL_MAP_WRITE_BIT,
                                   0x80000000])
def test_storage_flag_errors(flags):
    ctx = glhelp.context(1, 1, api="gl45")
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferStorage(E.GL_ARRAY_BUFFER, 16, None, flags)
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    assert ctx.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_IMMUTABLE_STORAGE)[0] == 0
