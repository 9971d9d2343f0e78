"""The fragment variant's key is derived once per state it reads (framebuffer,
blend, depth-stencil-alpha, rasterizer, sample shading; kept by the context,
encode.DrawMemos): draws with the same state share it, and a draw after a state
change in the same batch gets the key of its own state."""

from __future__ import annotations

import numpy as np

import driver
from driver.agx import encode
from driver.gl import enums as E


def _quad(ctx, x0, x1, colour):
    ctx.glColor4f(*colour)
    ctx.glBegin(E.GL_QUADS)
    for x, y in ((x0, -1), (x1, -1), (x1, 1), (x0, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()


def test_a_batchs_draws_share_the_key_until_blend_alpha_test_or_mask_changes(monkeypatch):
    calls = []
    real = encode.fragment_key
    monkeypatch.setattr(encode, "fragment_key", lambda ctx, batch: calls.append(1) or real(ctx, batch))
    ctx = driver.Context(api="compat", width=8, height=8)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    for k in range(4):                                   # columns 0-3: red, one key for the four draws
        _quad(ctx, -1 + k / 2, -1 + (k + 1) / 2, (1, 0, 0, 1))
    assert len(calls) == 1
    ctx.glEnable(E.GL_BLEND)                             # column 0 again, + green: yellow (a new key)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    _quad(ctx, -1, -0.5, (0, 1, 0, 1))
    ctx.glDisable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ZERO)
    ctx.glEnable(E.GL_ALPHA_TEST)                        # column 1: alpha 0.25 fails GREATER 0.5: stays red
    ctx.glAlphaFunc(E.GL_GREATER, 0.5)
    _quad(ctx, -0.5, 0, (0, 0, 1, 0.25))
    ctx.glDisable(E.GL_ALPHA_TEST)
    ctx.glColorMask(False, True, True, True)             # column 2: blue through a mask without red: magenta
    _quad(ctx, 0, 0.5, (0, 0, 1, 1))
    ctx.glColorMask(True, True, True, True)
    _quad(ctx, 0.5, 1, (1, 1, 1, 1))                   # column 3: white, the first key's state again
    batch = ctx.pipe.render_batch()
    assert batch.draws == 8 and len(encode.draw_memos(ctx.pipe).fragment.table) == 4 and len(calls) == 4
    img = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    want = [[255, 255, 0, 255], [255, 0, 0, 255], [255, 0, 255, 255], [255, 255, 255, 255]]
    for col, rgba in enumerate(want):
        assert (img[:, 2 * col:2 * col + 2] == rgba).all(), (col, img[4, 2 * col])
    ctx.destroy()
