"""GLES 2.0 extensions GLES 3.0 made core, listed in GLES 3.0+ contexts (as llvmpipe's
GLES contexts list them) and used there through their own commands and tokens (the
registry's aliases of the core commands; the tokens have the core values). GLES 2.0
contexts do not list them. Expected values by hand."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source, expect, link_and_use

NAMES = ["GL_OES_vertex_array_object", "GL_EXT_map_buffer_range", "GL_NV_read_buffer",
         "GL_NV_fbo_color_attachments", "GL_NV_pixel_buffer_object", "GL_OES_get_program_binary",
         "GL_OES_depth_texture_cube_map", "GL_OES_stencil8"]


def _names(c) -> set[str]:
    return {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


@pytest.mark.parametrize("api, listed", [("gles2", False), ("gles3", True), ("gles32", True)])
def test_listed_from_gles_3(api, listed):
    with driver.Context(api=api, width=4, height=4) as c:
        names = set(c.glGetString(E.GL_EXTENSIONS).split())
        assert (set(NAMES) <= names) == listed and (not set(NAMES) & names) == (not listed)
        if listed:
            assert set(NAMES) <= _names(c)


def test_vertex_array_objects_and_mapped_ranges():
    with driver.Context(api="gles3", width=4, height=4) as c:
        vao = c.glGenVertexArraysOES(1)[0]
        c.glBindVertexArrayOES(vao)
        assert c.glIsVertexArrayOES(vao) and c.glGetIntegerv(E.GL_VERTEX_ARRAY_BINDING)[0] == vao
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        c.glBufferData(E.GL_ARRAY_BUFFER, 16, bytes(range(16)), E.GL_DYNAMIC_DRAW)
        view = c.glMapBufferRangeEXT(E.GL_ARRAY_BUFFER, 4, 8, E.GL_MAP_WRITE_BIT | E.GL_MAP_FLUSH_EXPLICIT_BIT)
        view[0:4] = b"\xaa\xbb\xcc\xdd"
        c.glFlushMappedBufferRangeEXT(E.GL_ARRAY_BUFFER, 0, 4)
        assert c.glUnmapBufferOES(E.GL_ARRAY_BUFFER)
        view = c.glMapBufferRangeEXT(E.GL_ARRAY_BUFFER, 0, 16, E.GL_MAP_READ_BIT)
        assert bytes(view) == bytes(range(4)) + b"\xaa\xbb\xcc\xdd" + bytes(range(8, 16))
        c.glUnmapBufferOES(E.GL_ARRAY_BUFFER)
        c.glBindVertexArrayOES(0)
        c.glDeleteVertexArraysOES(1, [vao])
        assert not c.glIsVertexArrayOES(vao)
        expect(c, E.GL_NO_ERROR)


def test_read_buffer_colour_attachments_and_pixel_buffers():
    """Two colour attachments cleared red and green (glClearBufferfv); glReadBufferNV picks
    the second, whose pixels reach a pixel pack buffer (NV_pixel_buffer_object)."""
    with driver.Context(api="gles3", width=4, height=4) as c:
        assert c.glGetIntegerv(E.GL_MAX_COLOR_ATTACHMENTS)[0] >= 4        # MAX_COLOR_ATTACHMENTS_NV
        fb = c.glGenFramebuffers(1)[0]
        c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        for i, rb in enumerate(c.glGenRenderbuffers(2)):
            c.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
            c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
            c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
        c.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
        c.glClearBufferfv(E.GL_COLOR, 0, [1.0, 0.0, 0.0, 1.0])
        c.glClearBufferfv(E.GL_COLOR, 1, [0.0, 1.0, 0.0, 1.0])
        c.glReadBufferNV(E.GL_COLOR_ATTACHMENT1)
        assert c.glGetIntegerv(E.GL_READ_BUFFER)[0] == E.GL_COLOR_ATTACHMENT1
        pbo = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)             # PIXEL_PACK_BUFFER_NV
        c.glBufferData(E.GL_PIXEL_PACK_BUFFER, 64, None, E.GL_STREAM_READ)
        c.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 0)
        got = np.frombuffer(bytes(c.glMapBufferRangeEXT(E.GL_PIXEL_PACK_BUFFER, 0, 64, E.GL_MAP_READ_BIT)), np.uint8)
        assert (got.reshape(-1, 4) == [0, 255, 0, 255]).all()
        c.glUnmapBufferOES(E.GL_PIXEL_PACK_BUFFER)
        expect(c, E.GL_NO_ERROR)


def test_program_binaries_depth_cube_maps_and_stencil8():
    vs = "#version 300 es\nlayout(location = 0) in vec4 p;\nvoid main() { gl_Position = p; }\n"
    fs = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(0, 0, 1, 1); }\n"
    with driver.Context(api="gles3", width=4, height=4) as c:
        shaders = [compile_source(c, k, s)[0] for k, s in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs))]
        prog = link_and_use(c, *shaders)
        n = c.glGetProgramiv(prog, E.GL_PROGRAM_BINARY_LENGTH)[0]        # PROGRAM_BINARY_LENGTH_OES
        got = c.glGetProgramBinaryOES(prog, n)
        fmt, blob = got[-2], got[-1]
        again = c.glCreateProgram()
        c.glProgramBinaryOES(again, fmt, blob, len(blob))
        assert c.glGetProgramiv(again, E.GL_LINK_STATUS) == [1]
        # OES_depth_texture_cube_map: a depth cube map face as a depth attachment
        cube = c.glGenTextures(1)[0]
        c.glBindTexture(E.GL_TEXTURE_CUBE_MAP, cube)
        for face in range(6):
            c.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_DEPTH_COMPONENT, 4, 4, 0,
                           E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT, None)
        expect(c, E.GL_NO_ERROR)
        fb = c.glGenFramebuffers(1)[0]
        c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
        colour, stencil = c.glGenRenderbuffers(2)
        c.glBindRenderbuffer(E.GL_RENDERBUFFER, colour)
        c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
        c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, colour)
        c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, cube, 0)
        assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        # OES_stencil8: a STENCIL_INDEX8 renderbuffer; the right half is drawn where stencil is 1
        c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_TEXTURE_CUBE_MAP_NEGATIVE_Z, 0, 0)
        c.glBindRenderbuffer(E.GL_RENDERBUFFER, stencil)
        c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_STENCIL_INDEX8, 4, 4)     # STENCIL_INDEX8_OES
        c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, stencil)
        assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        c.glViewport(0, 0, 4, 4)
        c.glClearColor(0, 0, 0, 1)
        c.glClearStencil(0)
        c.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        c.glEnable(E.GL_SCISSOR_TEST)
        c.glScissor(2, 0, 2, 4)
        c.glClearStencil(1)
        c.glClear(E.GL_STENCIL_BUFFER_BIT)
        c.glDisable(E.GL_SCISSOR_TEST)
        c.glEnable(E.GL_STENCIL_TEST)
        c.glStencilFunc(E.GL_EQUAL, 1, 0xFF)
        c.glUseProgram(prog)
        buf = c.glGenBuffers(1)[0]
        c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        c.glBufferData(E.GL_ARRAY_BUFFER, 64, struct.pack("16f", -1, -1, 0, 1, 1, -1, 0, 1, -1, 1, 0, 1,
                                                          1, 1, 0, 1), E.GL_STATIC_DRAW)
        c.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
        c.glEnableVertexAttribArray(0)
        c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        px = np.frombuffer(bytes(c.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(4, 4, 4)
        assert (px[:, :2] == [0, 0, 0, 255]).all() and (px[:, 2:] == [0, 0, 255, 255]).all()
        expect(c, E.GL_NO_ERROR)
