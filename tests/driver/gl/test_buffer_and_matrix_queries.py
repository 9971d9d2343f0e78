"""State queries apitrace's state dump asks and Mesa answers: a buffer given its
store by glBufferData reports MAP_READ | MAP_WRITE | DYNAMIC_STORAGE as its
storage flags (GL 4.6 table 6.3; 0 before any store, the given flags after
glBufferStorage), and compatibility contexts answer the TRANSPOSE_*_MATRIX
queries of GL 1.3 with the row-major matrix (they were INVALID_ENUM)."""

import numpy as np

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx


def test_buffer_storage_flags_follow_how_the_store_was_made():
    ctx = make_ctx("gl43")
    a, b = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, a)
    assert ctx.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_STORAGE_FLAGS)[0] == 0
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 64, None, E.GL_STATIC_DRAW)
    assert ctx.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_STORAGE_FLAGS)[0] == 0x1 | 0x2 | 0x100
    assert ctx.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_IMMUTABLE_STORAGE)[0] == 0
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferStorage(E.GL_ARRAY_BUFFER, 64, None, E.GL_MAP_READ_BIT)
    assert ctx.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_STORAGE_FLAGS)[0] == E.GL_MAP_READ_BIT
    assert ctx.glGetError() == 0


def test_transpose_matrices_are_row_major():
    ctx = make_ctx("compat")
    m = np.arange(16, dtype=np.float32) + 1.0          # column-major, as glLoadMatrixf takes it
    for mode, query, transposed in ((E.GL_MODELVIEW, E.GL_MODELVIEW_MATRIX, E.GL_TRANSPOSE_MODELVIEW_MATRIX),
                                    (E.GL_PROJECTION, E.GL_PROJECTION_MATRIX, E.GL_TRANSPOSE_PROJECTION_MATRIX),
                                    (E.GL_TEXTURE, E.GL_TEXTURE_MATRIX, E.GL_TRANSPOSE_TEXTURE_MATRIX)):
        ctx.glMatrixMode(mode)
        ctx.glLoadMatrixf(m)
        assert np.array_equal(np.asarray(ctx.glGetFloatv(query), np.float32), m)
        assert np.array_equal(np.asarray(ctx.glGetFloatv(transposed), np.float32), m.reshape(4, 4).T.ravel())
    assert ctx.glGetError() == 0
