"""Depth/stencil load and store per render pass, as Mesa's agx decides them: a plane
is loaded only when a draw of the pass tests it (and the pass did not clear it), and
stored only when a draw tests it or the pass cleared it."""

import numpy as np

from driver.gallium import Box, PipeMap
from tests.driver.agx.glhelp import context, program, vertices
from uapi import packets as P

VS_POS = """#version 300 es
in vec2 pos; uniform float z; void main(){ gl_Position = vec4(pos, z, 1.0); }"""
FS = """#version 300 es
precision highp float; out vec4 color; void main(){ color = vec4(0.0, 1.0, 0.0, 1.0); }"""
FULL = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)


def _zls_of_pending_batch(ctx):
    """ZLS_CONTROL of the context's unsubmitted render batch."""
    (batch,) = [b for b in ctx.pipe.batches.values() if b.fb is not None]
    word = batch.render_fields()["zls_ctrl"]
    return P.ZLS_CONTROL.unpack(P.words_to_bytes([word & 0xFFFFFFFF]))


def _depth(ctx):
    tr = ctx.pipe.transfer_map(ctx.gl.window.depth_stencil, 0, PipeMap.READ, Box(0, 0, 0, 16, 16))
    return np.frombuffer(bytes(tr.data), np.uint32) & 0xFFFFFF


def _setup():
    ctx = context(16, 16, api="gles3")
    p = program(ctx, VS_POS, FS)
    vertices(ctx, p, FULL, {"pos": (2, 0)}, 2)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "z"), 0.0)
    return ctx, p


def test_draws_without_depth_test_neither_load_nor_store_depth():
    ctx, _ = _setup()
    ctx.glClearDepthf(0.25)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glFinish()
    ctx.glDisable(ctx.GL_DEPTH_TEST)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    zls = _zls_of_pending_batch(ctx)
    assert not zls.depth_load and not zls.depth_store
    assert (ctx.read_pixels() == [0, 255, 0, 255]).all()
    assert (_depth(ctx) == round(0.25 * 0xFFFFFF)).all()      # the buffer keeps the clear


def test_depth_test_loads_and_stores_depth():
    ctx, p = _setup()
    ctx.glClearDepthf(0.75)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glFinish()
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glDepthFunc(ctx.GL_LESS)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)                  # window z 0.5 < 0.75: passes, writes
    zls = _zls_of_pending_batch(ctx)
    assert zls.depth_load and zls.depth_store
    ctx.glFinish()
    assert (_depth(ctx) == round(0.5 * 0xFFFFFF)).all()
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "z"), 0.5)    # window z 0.75: fails against the loaded 0.5
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    assert (ctx.read_pixels() == 0).all()


def test_depth_clear_without_draws_is_stored_not_loaded():
    ctx, _ = _setup()
    ctx.glDisable(ctx.GL_DEPTH_TEST)
    ctx.glClearDepthf(0.5)
    ctx.glClear(ctx.GL_DEPTH_BUFFER_BIT)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    zls = _zls_of_pending_batch(ctx)
    assert zls.depth_clear and zls.depth_store and not zls.depth_load
    ctx.glFinish()
    assert (_depth(ctx) == round(0.5 * 0xFFFFFF)).all()
