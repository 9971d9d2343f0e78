"""Storage the GPU memory cannot hold is GL_OUT_OF_MEMORY with no side effect.

The kernel's arena (4 GiB) refuses the allocation with ENOMEM; the GL command
reports GL_OUT_OF_MEMORY (not an internal error) and the object keeps its
previous storage, since the new one is allocated before any state changes."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect


def test_a_renderbuffer_too_big_for_gpu_memory_is_out_of_memory_and_changes_nothing():
    with driver.Context("gl45", 8, 8) as ctx:
        g = ctx.gl
        rb = g.glGenRenderbuffers(1)[0]
        g.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        g.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
        expect(g, E.GL_NO_ERROR)
        # 16384 x 16384 x 16 B x 4 samples = 16 GiB; RGBA8 4x MSAA: 4 GiB plus metadata
        for fmt, samples in ((E.GL_RGBA32F, 4), (E.GL_RGBA32F, 0), (E.GL_RGBA8, 4)):
            g.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, 16384, 16384)
            expect(g, E.GL_OUT_OF_MEMORY)
            q = lambda pname: g.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, pname)[0]   # noqa: E731
            assert (q(E.GL_RENDERBUFFER_WIDTH), q(E.GL_RENDERBUFFER_HEIGHT)) == (4, 4)
            assert q(E.GL_RENDERBUFFER_INTERNAL_FORMAT) == E.GL_RGBA8 and q(E.GL_RENDERBUFFER_SAMPLES) == 0
        # the old storage still renders
        g.glBindFramebuffer(E.GL_FRAMEBUFFER, g.glGenFramebuffers(1)[0])
        g.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert g.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        g.glClearColor(0.0, 1.0, 0.0, 1.0)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        px = np.frombuffer(bytes(g.glReadPixels(3, 3, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert px.tolist() == [0, 255, 0, 255]
        assert g.internal_errors == []


def test_a_buffer_too_big_for_gpu_memory_is_out_of_memory_and_keeps_its_data():
    with driver.Context("gl45", 8, 8) as ctx:
        g = ctx.gl
        buf = g.glGenBuffers(1)[0]
        g.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        g.glBufferData(E.GL_ARRAY_BUFFER, 8, bytes(range(8)), E.GL_STATIC_DRAW)
        g.glBufferData(E.GL_ARRAY_BUFFER, 1 << 36, None, E.GL_STATIC_DRAW)      # 64 GiB
        expect(g, E.GL_OUT_OF_MEMORY)
        assert g.glGetBufferParameteriv(E.GL_ARRAY_BUFFER, E.GL_BUFFER_SIZE) == [8]
        assert bytes(g.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, 8)) == bytes(range(8))
        assert g.internal_errors == []
