"""Render targets that do not fit in tile memory (more than 64 bytes a pixel at one
sample: a 16x16 tile holds 16 KiB) are spilled, as Mesa's agx_tilebuffer spills
them: they stay in their images, which clears, fragment outputs, blending and
colour masks reach with image writes and loads (piglit's clearbuffer-mixed-format
made 8x8 tiles, which the kernel refuses). Expected values by hand: exactly
representable colours, one blend of ONE, ONE applied twice per pixel by one draw."""

from __future__ import annotations

import numpy as np

import driver
from driver.agx.tilebuffer import make_tile_layout
from driver.gl import enums as E
from tests.driver.gl.helpers import expect, link_sources


def test_layout_spills_what_passes_64_bytes():
    # piglit clearbuffer-mixed-format's eight formats: the last starts at byte 64
    tl = make_tile_layout(("R8G8B8A8_UNORM", "R16G16B16A16_UNORM", "R16G16B16A16_FLOAT", "R32G32B32A32_FLOAT",
                           "R8G8B8A8_UINT", "R32G32B32A32_UINT", "R16G16B16A16_SINT", "R32G32B32A32_SINT"))
    assert [s.offset_B for s in tl.slots[:7]] == [0, 4, 12, 20, 36, 40, 56]
    assert [s.spilled for s in tl.slots] == [False] * 7 + [True] and tl.record_B == 64
    tl = make_tile_layout(("R32G32B32A32_FLOAT",) * 4 + ("R8G8B8A8_UNORM", "R8_UNORM"))
    assert [s.spilled for s in tl.slots] == [False] * 4 + [True, True]
    # 48 + 8 + 4 = 60: an 8-byte target spills, a later 1-byte one takes the room left
    tl = make_tile_layout(("R32G32B32A32_FLOAT",) * 3 + ("R32G32_FLOAT", "R8G8B8A8_UNORM", "R16G16B16A16_FLOAT",
                                                          "R8_UNORM"))
    assert [s.spilled for s in tl.slots] == [False] * 5 + [True, False]
    assert tl.slots[6].offset_B == 60 and tl.record_B == 64
    # multisampled records are never spilled
    assert not any(s.spilled for s in make_tile_layout(("R32G32B32A32_FLOAT",) * 2, samples=4).slots)


FS = """#version 330
layout(location = 0) out vec4 o0; layout(location = 1) out vec4 o1;
layout(location = 2) out vec4 o2; layout(location = 3) out vec4 o3;
layout(location = 4) out vec4 o4; layout(location = 5) out vec4 o5;
layout(location = 6) out vec4 o6; layout(location = 7) out uvec4 o7;
void main() {
    o0 = vec4(1.5, -2.0, 3.25, 4.0); o1 = vec4(10.0); o2 = vec4(-1.0); o3 = vec4(0.5, 0.25, 0.125, 1.0);
    o4 = vec4(64.0, 32.0, 16.0, 8.0) / 255.0;
    o5 = vec4(1.0, 1.0, 0.0, 1.0);
    o6 = vec4(5.0, 6.0, 7.0, 8.0);
    o7 = uvec4(7u, 8u, 9u, 10u);
}"""
VS = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
FORMATS = [E.GL_RGBA32F] * 4 + [E.GL_RGBA8, E.GL_RGB565, E.GL_RGBA16F, E.GL_RGBA32UI]
W = H = 20                  # two tiles a side, the second partly outside the image


def _read(ctx, i, integer=False):
    ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0 + i)
    fmt, typ, dt = (E.GL_RGBA_INTEGER, E.GL_UNSIGNED_INT, np.uint32) if integer else (E.GL_RGBA, E.GL_FLOAT, np.float32)
    return np.frombuffer(ctx.glReadPixels(0, 0, W, H, fmt, typ), dt).reshape(H, W, 4)


def test_draws_blends_masks_and_clears_spilled_targets():
    ctx = driver.Context(api="gl45", width=W, height=H)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for i, f in enumerate(FORMATS):
        (rb,) = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, f, W, H)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
    ctx.glDrawBuffers(8, [E.GL_COLOR_ATTACHMENT0 + i for i in range(8)])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    for i in range(7):
        ctx.glClearBufferfv(E.GL_COLOR, i, [0.0, 0.0, 0.0, 0.0] if i != 6 else [1.0, 2.0, 3.0, 4.0])
    ctx.glClearBufferuiv(E.GL_COLOR, 7, [1, 1, 1, 1])
    prog = link_sources(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)))
    ctx.glUseProgram(prog)
    # two full-screen triangles in one draw: every pixel blends twice, in order
    tri = np.array([(-1, -1), (3, -1), (-1, 3)] * 2, np.float32)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glViewport(0, 0, W, H)
    ctx.glEnablei(E.GL_BLEND, 4)
    ctx.glBlendFunci(4, E.GL_ONE, E.GL_ONE)
    ctx.glColorMaski(6, False, True, False, True)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    got = [_read(ctx, i, integer=(i == 7)) for i in range(8)]
    expect(ctx, E.GL_NO_ERROR)
    want = [(1.5, -2.0, 3.25, 4.0), (10.0,) * 4, (-1.0,) * 4, (0.5, 0.25, 0.125, 1.0),
            (128 / 255, 64 / 255, 32 / 255, 16 / 255),      # 0 + 2 x the colour (ONE, ONE)
            (1.0, 1.0, 0.0, 1.0),                            # RGB565: red and green, no blue
            (1.0, 6.0, 3.0, 8.0)]                            # the mask kept red and blue
    for i, w in enumerate(want):
        assert np.allclose(got[i], np.array(w, np.float32), rtol=0, atol=1e-6), (i, got[i][0, 0], w)
    assert (got[7] == np.array([7, 8, 9, 10], np.uint32)).all()
    # a scissored clear of a spilled target changes its rectangle only
    ctx.glEnable(E.GL_SCISSOR_TEST)
    ctx.glScissor(2, 3, 5, 4)
    ctx.glClearBufferuiv(E.GL_COLOR, 7, [4, 3, 2, 1])
    ctx.glClearBufferfv(E.GL_COLOR, 5, [0.0, 0.0, 1.0, 1.0])
    ctx.glDisable(E.GL_SCISSOR_TEST)
    rect = np.zeros((H, W), bool)
    rect[3:7, 2:7] = True
    u = _read(ctx, 7, integer=True)
    assert (u[rect] == [4, 3, 2, 1]).all() and (u[~rect] == [7, 8, 9, 10]).all()
    c = _read(ctx, 5)
    assert (c[rect] == [0, 0, 1, 1]).all() and (c[~rect] == [1, 1, 0, 1]).all()
    assert (_read(ctx, 0) == np.array([1.5, -2.0, 3.25, 4.0], np.float32)).all()
