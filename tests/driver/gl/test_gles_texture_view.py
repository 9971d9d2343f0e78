"""GL_OES_texture_view / GL_EXT_texture_view in GLES 3.1: glTextureViewOES/EXT, a
view's state, and drawing and clearing into views whose format differs from the
texture's - signed-integer views (saturating integer clears) and RGB10_A2UI views
(rendered through the tile buffer's packed 10/10/10/2 integer format). Every
expected value is worked out by hand below; the parent texture is read back in its
own format, so the bytes the view wrote are what is checked."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import expect, link_sources

T2 = E.GL_TEXTURE_2D
W = H = 4
VS = "#version 310 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FULL = np.array([(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)], np.float32)


def _ctx():
    return driver.Context(api="gles31", width=W, height=H)


def _storage(ctx, ifmt, levels=1):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, levels, ifmt, W, H)
    return t


def _view(ctx, parent, ifmt, name="glTextureViewOES", minlevel=0, numlevels=1):
    (v,) = ctx.glGenTextures(1)
    getattr(ctx, name)(v, T2, parent, ifmt, minlevel, numlevels, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    return v


def _attach(ctx, tex):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, T2, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def _read(ctx, tex, fmt, type, dtype):
    _attach(ctx, tex)
    raw = ctx.glReadPixels(0, 0, W, H, fmt, type)
    return np.frombuffer(raw, dtype).reshape(H, W, -1)


def test_listed_from_gles_3_1():
    for name in ("GL_OES_texture_view", "GL_EXT_texture_view"):
        assert name not in advertised(True, False, (3, 0))
        assert name in advertised(True, False, (3, 1)) and name in advertised(True, False, (3, 2))
        assert name not in advertised(False, True, (4, 6))     # desktop has GL_ARB_texture_view


@pytest.mark.parametrize("name", ["glTextureViewOES", "glTextureViewEXT"])
def test_view_state_and_errors(name):
    ctx = _ctx()
    parent = _storage(ctx, E.GL_RGBA8, levels=3)
    v = _view(ctx, parent, E.GL_RGBA8UI, name, minlevel=1, numlevels=2)
    ctx.glBindTexture(T2, v)
    q = lambda pname: ctx.glGetTexParameteriv(T2, pname)[0]      # noqa: E731
    assert q(E.GL_TEXTURE_VIEW_MIN_LEVEL) == 1 and q(E.GL_TEXTURE_VIEW_NUM_LEVELS) == 2
    assert q(E.GL_TEXTURE_VIEW_MIN_LAYER) == 0 and q(E.GL_TEXTURE_VIEW_NUM_LAYERS) == 1
    assert q(E.GL_TEXTURE_IMMUTABLE_FORMAT) == 1 and q(E.GL_TEXTURE_IMMUTABLE_LEVELS) == 3
    (w,) = ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_WIDTH)    # the view's level 0: the parent's 1
    assert w == W // 2
    (bad,) = ctx.glGenTextures(1)
    getattr(ctx, name)(bad, T2, parent, E.GL_RGBA16F, 0, 1, 0, 1)       # 64-bit class, not RGBA8's 32
    expect(ctx, E.GL_INVALID_OPERATION)
    (mutable,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, mutable)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    getattr(ctx, name)(bad, T2, mutable, E.GL_RGBA8UI, 0, 1, 0, 1)     # the parent must be immutable
    expect(ctx, E.GL_INVALID_OPERATION)
    getattr(ctx, name)(bad, T2, parent, E.GL_RGBA8UI, 3, 1, 0, 1)      # minlevel past the parent's levels
    expect(ctx, E.GL_INVALID_VALUE)


@pytest.mark.parametrize("view_fmt, parent_fmt, expected", [
    # ClearBufferiv(0x7FFFFFFF, -0x80000000, 5, -3) saturates to each channel's range;
    # the parent reads the bytes back: RGBA16I (0x7FFF, 0x8000, 5, 0xFFFD) as RG32UI words
    (E.GL_RGBA16I, E.GL_RG32UI, [0x80007FFF, 0xFFFD0005]),
    # RGBA8I (0x7F, 0x80, 0x05, 0xFD) as one R32UI word
    (E.GL_RGBA8I, E.GL_R32UI, [0xFD05807F]),
    # RG16I (0x7FFF, 0x8000) as R32UI
    (E.GL_RG16I, E.GL_R32UI, [0x80007FFF]),
])
def test_clear_into_signed_integer_view_saturates(view_fmt, parent_fmt, expected):
    ctx = _ctx()
    parent = _storage(ctx, parent_fmt)
    _attach(ctx, _view(ctx, parent, view_fmt))
    ctx.glClearBufferiv(E.GL_COLOR, 0, [0x7FFFFFFF, -0x80000000, 5, -3])
    expect(ctx, E.GL_NO_ERROR)
    px = _read(ctx, parent, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32)
    n = len(expected)
    assert (px[..., :n] == np.array(expected, np.uint32)).all(), [hex(int(x)) for x in px[0, 0]]


def _draw_uint(ctx, value):
    fs = "#version 310 es\nuniform highp uvec4 v; out highp uvec4 o; void main() { o = v; }"
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)))
    ctx.glUniform4ui(ctx.glGetUniformLocation(prog, "v"), *value)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)


def test_rgb10_a2ui_view_renders_and_clears():
    """An RGB10_A2UI view of an R32UI texture: a draw of (1023, 0, 513, 2) packs to
    1023 | 513 << 20 | 2 << 30 = 0xA01003FF; a clear of (5, 2000, 1000, 7) saturates
    to (5, 1023, 1000, 3): 5 | 1023 << 10 | 1000 << 20 | 3 << 30 = 0xFE8FFC05."""
    ctx = _ctx()
    parent = _storage(ctx, E.GL_R32UI)
    view = _view(ctx, parent, E.GL_RGB10_A2UI)
    _attach(ctx, view)
    _draw_uint(ctx, (1023, 0, 513, 2))
    assert (_read(ctx, parent, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32)[..., 0] == 0xA01003FF).all()
    _attach(ctx, view)
    ctx.glClearBufferuiv(E.GL_COLOR, 0, [5, 2000, 1000, 7])
    expect(ctx, E.GL_NO_ERROR)
    assert (_read(ctx, parent, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32)[..., 0] == 0xFE8FFC05).all()
    # the view reads its own channels back: (5, 1023, 1000, 3)
    px = _read(ctx, view, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32)
    assert px[0, 0].tolist() == [5, 1023, 1000, 3]


def test_rgb10_a2ui_texture_is_colour_renderable_in_gles3():
    """GLES 3.0 table 3.13: RGB10_A2UI is colour-renderable (not only through views)."""
    ctx = driver.Context(api="gles3", width=W, height=H)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexStorage2D(T2, 1, E.GL_RGB10_A2UI, W, H)
    _attach(ctx, t)
    ctx.glClearBufferuiv(E.GL_COLOR, 0, [1, 2, 3, 1])
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
    assert px.tolist() == [1, 2, 3, 1]


def test_draw_into_signed_integer_view_of_float_texture():
    """An RG16I view of an R32F texture: ivec4(-2, 0x4000) stores 0xFFFE and 0x4000, the
    float bits 0x4000FFFE = 2.0000610... (read back as R32F bits)."""
    ctx = _ctx()
    parent = _storage(ctx, E.GL_R32F)
    _attach(ctx, _view(ctx, parent, E.GL_RG16I))
    fs = "#version 310 es\nout highp ivec4 o; void main() { o = ivec4(-2, 16384, 0, 1); }"
    link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)))
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, FULL.nbytes, FULL.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    px = _read(ctx, parent, E.GL_RGBA, E.GL_FLOAT, np.float32)
    assert (px[..., 0].view(np.uint32) == 0x4000FFFE).all()
