"""The GL 1.x-2.x extension names Mesa 22.3 lists in core contexts too, listed in a
4.6 core context, each used there through its own commands or tokens: the registry's
ARB/EXT aliases of core commands, the extension-named tokens of core features.
The extensions' tokens have the core values (BLEND_EQUATION_ALPHA_EXT is
BLEND_EQUATION_ALPHA, DEPTH24_STENCIL8_EXT is DEPTH24_STENCIL8, ...), so the core names
stand for them. Expected values by hand."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source, expect

NAMES = ["GL_ARB_draw_buffers", "GL_ARB_fragment_shader", "GL_ARB_half_float_pixel",
         "GL_ARB_pixel_buffer_object", "GL_ARB_shader_objects", "GL_ARB_texture_non_power_of_two",
         "GL_ARB_vertex_buffer_object", "GL_ARB_vertex_shader", "GL_ATI_blend_equation_separate",
         "GL_EXT_blend_equation_separate", "GL_EXT_framebuffer_blit", "GL_EXT_framebuffer_multisample",
         "GL_EXT_framebuffer_object", "GL_EXT_packed_depth_stencil", "GL_EXT_pixel_buffer_object",
         "GL_EXT_provoking_vertex", "GL_EXT_vertex_array_bgra", "GL_MESA_texture_signed_rgba",
         "GL_NV_packed_depth_stencil"]


@pytest.fixture(scope="module")
def ctx():
    with driver.Context(api="gl46", width=8, height=8) as c:
        yield c


def _names(c) -> set[str]:
    return {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def test_listed_in_core_but_not_point_sprite(ctx):
    names = _names(ctx)
    assert set(NAMES) <= names
    assert "GL_ARB_point_sprite" not in names
    with driver.Context(api="gl32", width=4, height=4) as first:      # from 3.2, where profiles begin
        assert set(NAMES) <= _names(first)


def _fbo(c, fmt=E.GL_RGBA8, w=8, h=8, samples=0):
    fb = c.glGenFramebuffersEXT(1)[0]
    rb = c.glGenRenderbuffersEXT(1)[0]
    c.glBindRenderbufferEXT(E.GL_RENDERBUFFER, rb)
    if samples:
        c.glRenderbufferStorageMultisampleEXT(E.GL_RENDERBUFFER, samples, fmt, w, h)
    else:
        c.glRenderbufferStorageEXT(E.GL_RENDERBUFFER, fmt, w, h)
    c.glBindFramebufferEXT(E.GL_FRAMEBUFFER, fb)
    c.glFramebufferRenderbufferEXT(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert c.glCheckFramebufferStatusEXT(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def test_framebuffer_object_blit_and_multisample_names(ctx):
    c = ctx
    ms = _fbo(c, samples=4)
    c.glClearColor(0.0, 1.0, 0.0, 1.0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    single = _fbo(c)
    c.glBindFramebufferEXT(E.GL_READ_FRAMEBUFFER, ms)
    c.glBindFramebufferEXT(E.GL_DRAW_FRAMEBUFFER, single)
    c.glBlitFramebufferEXT(0, 0, 8, 8, 0, 0, 8, 8, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    c.glBindFramebufferEXT(E.GL_FRAMEBUFFER, single)
    px = np.frombuffer(bytes(c.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (px.reshape(-1, 4) == [0, 255, 0, 255]).all()
    # ARB_draw_buffers: glDrawBuffersARB; the blend equation separates
    c.glDrawBuffersARB(1, [E.GL_COLOR_ATTACHMENT0])
    assert c.glGetIntegerv(E.GL_DRAW_BUFFER0)[0] == E.GL_COLOR_ATTACHMENT0
    c.glBlendEquationSeparateEXT(E.GL_FUNC_SUBTRACT, E.GL_MAX)
    assert c.glGetIntegerv(E.GL_BLEND_EQUATION_RGB)[0] == E.GL_FUNC_SUBTRACT
    assert c.glGetIntegerv(E.GL_BLEND_EQUATION_ALPHA)[0] == E.GL_MAX
    c.glBlendEquationSeparateEXT(E.GL_FUNC_ADD, E.GL_FUNC_ADD)
    c.glBindFramebufferEXT(E.GL_FRAMEBUFFER, 0)
    expect(c, E.GL_NO_ERROR)


def test_packed_depth_stencil_tokens(ctx):
    c = ctx
    fb = _fbo(c)
    rb = c.glGenRenderbuffers(1)[0]
    c.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    c.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8, 8, 8)
    c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rb)
    c.glClearDepth(0.5)
    c.glClearStencil(0x5A)
    c.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    word = struct.unpack("<I", bytes(c.glReadPixels(0, 0, 1, 1, E.GL_DEPTH_STENCIL,
                                                    E.GL_UNSIGNED_INT_24_8)))[0]
    assert word & 0xFF == 0x5A and abs((word >> 8) - 0x7FFFFF) <= 1
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    c.glDeleteFramebuffers(1, [fb])
    expect(c, E.GL_NO_ERROR)


def test_buffer_objects_pixel_buffers_half_floats_npot_and_snorm(ctx):
    c = ctx
    pbo = c.glGenBuffersARB(1)[0]
    c.glBindBufferARB(E.GL_PIXEL_UNPACK_BUFFER, pbo)
    halves = np.array([0.5, 0.25, 1.0, 0.75] * (3 * 5), np.float16)     # a 3 x 5 NPOT image
    c.glBufferDataARB(E.GL_PIXEL_UNPACK_BUFFER, halves.nbytes, halves.tobytes(), E.GL_STATIC_DRAW)
    tex = c.glGenTextures(1)[0]
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8_SNORM, 3, 5, 0, E.GL_RGBA, E.GL_HALF_FLOAT, 0)
    c.glBindBufferARB(E.GL_PIXEL_UNPACK_BUFFER, 0)
    got = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT)), np.float32)
    assert np.allclose(got, np.round(halves.astype(np.float32) * 127) / 127)
    assert c.glIsBufferARB(pbo)
    c.glDeleteBuffersARB(1, [pbo])
    expect(c, E.GL_NO_ERROR)


VS = """#version 460 core
layout(location = 0) in vec4 pos;
layout(location = 1) in vec4 colour;
flat out vec4 c;
void main() { gl_Position = pos; c = colour; }
"""
FS = "#version 460 core\nflat in vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"


def test_shader_objects_vertex_shader_provoking_vertex_and_bgra(ctx):
    """Handles of ARB_shader_objects, a BGRA (size GL_BGRA) colour array and the first
    vertex provoking the flat colour: the triangle takes vertex 0's colour, given as
    bytes B, G, R, A = (255, 0, 0, 255), that is blue."""
    c = ctx
    prog = c.glCreateProgramObjectARB()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        sh = c.glCreateShaderObjectARB(kind)
        c.glShaderSourceARB(sh, 1, [src])
        c.glCompileShaderARB(sh)
        assert c.glGetObjectParameterivARB(sh, E.GL_COMPILE_STATUS) == [1], c.glGetInfoLogARB(sh)
        c.glAttachObjectARB(prog, sh)
    c.glLinkProgramARB(prog)
    assert c.glGetObjectParameterivARB(prog, E.GL_LINK_STATUS) == [1]
    c.glUseProgramObjectARB(prog)
    assert c.glGetHandleARB(E.GL_PROGRAM_OBJECT_ARB) == prog
    assert c.glGetAttribLocationARB(prog, "colour") == 1
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    buf = c.glGenBuffersARB(1)[0]
    c.glBindBufferARB(E.GL_ARRAY_BUFFER, buf)
    pos = struct.pack("12f", -1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1)
    colours = bytes([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255])
    c.glBufferDataARB(E.GL_ARRAY_BUFFER, len(pos) + len(colours), pos + colours, E.GL_STATIC_DRAW)
    c.glVertexAttribPointerARB(0, 4, E.GL_FLOAT, False, 0, 0)
    c.glVertexAttribPointerARB(1, E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, 0, len(pos))
    c.glEnableVertexAttribArrayARB(0)
    c.glEnableVertexAttribArrayARB(1)
    c.glProvokingVertexEXT(E.GL_FIRST_VERTEX_CONVENTION)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(bytes(c.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (px.reshape(-1, 4) == [0, 0, 255, 255]).all()
    c.glProvokingVertexEXT(E.GL_LAST_VERTEX_CONVENTION)
    c.glUseProgramObjectARB(0)
    expect(c, E.GL_NO_ERROR)
