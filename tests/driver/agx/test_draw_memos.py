"""A context's draws keep what they derive from bound state alone across batches
(encode.DrawMemos): a frame of one draw and a glFinish is a batch of its own, and
its fragment key, PPP state and the USC words around the uniforms of a shader
without descriptor tables are made once, not once per frame. Each frame that
changes a piece of state those read gets words of its own state (images checked
against hand-computed ones); what is the batch's own (the shader binary's
reference, the CF bindings' upload) is done in every batch, and occlusion queries
count in every batch drawn with a kept state."""

from __future__ import annotations

import numpy as np

from driver.agx import encode
from driver.gl import enums as E
from tests.driver.agx.glhelp import context, link
from tests.driver.agx.test_usc_words_per_draw import spy_usc_words
from uapi import packets as P

VS = """#version 300 es
layout(location = 0) in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS = """#version 300 es
precision mediump float;
uniform vec4 colour;
out vec4 o;
void main() { o = colour; }
"""
# a second program: a varying (other CF bindings and varying counts in the PPP state)
VS_VARYING = """#version 300 es
layout(location = 0) in vec2 pos;
out vec4 c;
void main() { c = vec4(0.0, 1.0, 0.0, 1.0); gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS_VARYING = """#version 300 es
precision mediump float;
in vec4 c;
out vec4 o;
void main() { o = c; }
"""

W = H = 8


def _setup(ctx):
    p = link(ctx, {E.GL_VERTEX_SHADER: VS, E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)      # counter-clockwise strip
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glClearColor(0, 0, 0, 0)
    return p, ctx.glGetUniformLocation(p, "colour")


def _frame(ctx, scissor=None) -> np.ndarray:
    """Clear, one full-window draw (with the scissor box ``scissor`` if any: the clear
    is not scissored), glFinish: (H, W, 4) uint8, row 0 at the bottom."""
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    if scissor is not None:
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(*scissor)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glDisable(E.GL_SCISSOR_TEST)
    ctx.glFinish()
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                         np.uint8).reshape(H, W, 4)


def _counting(monkeypatch, name: str) -> list:
    calls = []
    real = getattr(encode, name)
    monkeypatch.setattr(encode, name, lambda *a, **k: calls.append(1) or real(*a, **k))
    return calls


def test_frames_of_one_draw_derive_the_state_once_and_show_their_uniforms(monkeypatch):
    keys, entries, frames = (_counting(monkeypatch, n) for n in ("fragment_key", "_ppp_entry", "_usc_frame"))
    ctx = context(W, H)
    _p, colour = _setup(ctx)
    pipe = ctx.gl.pipe
    for i in range(4):
        ctx.glUniform4f(colour, i / 4, 1.0, 0.0, 1.0)
        img = _frame(ctx)
        assert np.abs(img.astype(int) - [round(255 * i / 4), 255, 0, 255]).max() <= 1, (i, img[0, 0])
    assert pipe.stats["submits"] >= 4
    # one key, one PPP entry, one frame of words per stage for the four batches
    assert (len(keys), len(entries), len(frames)) == (1, 1, 2), (keys, entries, frames)
    ctx.destroy()


def test_each_state_change_between_frames_gets_its_own_words():
    ctx = context(W, H)
    p, colour = _setup(ctx)
    ctx.glUniform4f(colour, 1.0, 0.0, 0.0, 1.0)
    red, none = [255, 0, 0, 255], [0, 0, 0, 0]

    def expect(img, where, inside, outside=none):
        want = np.empty((H, W, 4), np.uint8)
        want[:] = outside
        want[where] = inside
        assert (img == want).all(), (img[..., 0], img[..., 1])

    everywhere = (slice(None), slice(None))
    expect(_frame(ctx), everywhere, red)
    ctx.glViewport(0, 0, W // 2, H)                       # viewport: the left half
    expect(_frame(ctx), (slice(None), slice(0, W // 2)), red)
    ctx.glViewport(0, 0, W, H)
    expect(_frame(ctx, (0, 0, W, H // 2)), (slice(0, H // 2), slice(None)), red)     # scissor: the bottom half
    ctx.glEnable(E.GL_CULL_FACE)                          # rasterizer: a front-facing quad culled
    ctx.glCullFace(E.GL_FRONT)
    expect(_frame(ctx), everywhere, none)
    ctx.glDisable(E.GL_CULL_FACE)
    ctx.glColorMask(False, True, True, True)              # blend state (fragment key): no red
    ctx.glClearColor(0, 0, 1, 1)
    expect(_frame(ctx), everywhere, [0, 0, 0, 255], [0, 0, 255, 255])
    ctx.glColorMask(True, True, True, True)
    ctx.glClearColor(0, 0, 0, 0)
    link(ctx, {E.GL_VERTEX_SHADER: VS_VARYING, E.GL_FRAGMENT_SHADER: FS_VARYING})   # other variants, a varying
    expect(_frame(ctx), everywhere, [0, 255, 0, 255])
    ctx.glUseProgram(p)                                   # the first state again
    expect(_frame(ctx), everywhere, red)
    ctx.destroy()


def test_a_new_binary_of_the_variant_is_named_by_the_kept_words(monkeypatch):
    seen = spy_usc_words(monkeypatch)
    ctx = context(W, H)
    _p, colour = _setup(ctx)
    ctx.glUniform4f(colour, 0.0, 0.0, 1.0, 1.0)
    _frame(ctx)
    vs = next(sh for _b, sh, _va in seen if sh.stage == "vertex")
    old = vs.code_bo(ctx.gl.pipe.device)
    old.ref()                                             # (kept: the new binary gets another address)
    vs.release()                                          # the binary's BO dropped: uploaded again on use
    seen.clear()
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    batch, sh, va = next(x for x in seen if x[1] is vs)
    new = vs.code_bo(ctx.gl.pipe.device)
    assert new is not old and new.va != old.va
    bo = next(b for b in batch.pool.bos if b.va <= va < b.va + b.size_B)
    words = bytes(bo.map[va - bo.va:va - bo.va + P.USC_SHADER.size_B])
    assert P.USC_SHADER.unpack(words).values["code"] == new.va
    assert id(new) in batch.bo_refs                       # the batch holds the binary it runs
    ctx.glFinish()
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (img.reshape(-1, 4) == [0, 0, 255, 255]).all()
    old.release()
    ctx.destroy()


def test_occlusion_counters_of_every_batch_with_the_kept_state():
    import driver
    ctx = driver.Context(api="compat", width=W, height=H)
    (q,) = ctx.glGenQueries(1)
    counts = []
    for i in range(3):                                    # the same state, a batch each: three entries' hits
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glBeginQuery(E.GL_SAMPLES_PASSED, q)
        ctx.glBegin(E.GL_QUADS)
        for x, y in ((-1, -1), (0, -1), (0, 1), (-1, 1)):   # the left half: 32 pixels
            ctx.glVertex2f(x, y)
        ctx.glEnd()
        ctx.glEndQuery(E.GL_SAMPLES_PASSED)
        ctx.glFinish()
        counts.append(ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0])
    assert counts == [W * H // 2] * 3, counts
    ctx.destroy()


def test_a_variant_is_found_by_its_key_object_by_an_equal_key_and_made_again_after_release():
    """ShaderCSO.variant checks the key object of its last lookup first (a draw's key is
    the same object draw after draw); an equal key finds the same variant, and after
    release() the variants are compiled again."""
    from types import SimpleNamespace

    from compiler.ir import ShaderKey
    from driver.agx.shader import ShaderCSO
    made = []

    def compile_fn(state, key):
        made.append(SimpleNamespace(key=key, release=lambda: None))
        return made[-1]
    cso = ShaderCSO(SimpleNamespace(stage="vertex", ir=None), compile_fn)
    k1, k2 = ShaderKey.make(flat_shade=True), ShaderKey.make(flat_shade=True)
    assert k1 is not k2 and k1 == k2
    a = cso.variant(k1)
    assert cso.variant(k1) is a and cso.variant(k2) is a
    b = cso.variant(ShaderKey.make())
    assert b is not a and cso.variant(k1) is a and len(made) == 2
    cso.release()
    c = cso.variant(k1)
    assert c is not a and c.key is k1 and len(made) == 3
