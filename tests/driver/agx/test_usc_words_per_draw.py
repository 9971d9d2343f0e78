"""A draw that changes only uniform values re-packs only its uniform registers and
their USC_UNIFORM words: the words around them (shader, tables, varyings, fragment,
end) are packed, and a texture table uploaded, once per batch, variant and tables
(encode.usc_words / _usc_frame); the PPP state's bytes around the fragment shader's
member once per state entry. Each draw still shows its own uniform values, and the
words read back from GPU memory decode to what a full pack gives."""

from __future__ import annotations

import numpy as np

from driver.agx import encode
from driver.gl import enums as E
from tests.driver.agx.glhelp import context, link
from uapi import packets as P

VS = """#version 300 es
layout(location = 0) in vec2 pos;
uniform vec2 offset;
void main() { gl_Position = vec4(pos + offset, 0.0, 1.0); }
"""
FS = """#version 300 es
precision mediump float;
uniform sampler2D tex;
uniform vec4 colour;
out vec4 o;
void main() { o = colour * texture(tex, vec2(0.5)); }
"""


def _setup(ctx):
    p = link(ctx, {E.GL_VERTEX_SHADER: VS, E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    px = 2.0 / 8                                       # one pixel of an 8x8 window
    quad = np.array([[-1, -1], [-1 + px, -1], [-1, -1 + px], [-1 + px, -1 + px]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    white = np.full((1, 1, 4), 255, np.uint8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, white)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    return ctx.glGetUniformLocation(p, "offset"), ctx.glGetUniformLocation(p, "colour")


def test_uniform_only_draws_share_their_frames_and_each_shows_its_values(monkeypatch):
    frames, uploads = [], []
    real_frame = encode._usc_frame
    monkeypatch.setattr(encode, "_usc_frame", lambda *a: frames.append(a[2].stage) or real_frame(*a))
    ctx = context(8, 8)
    offset, colour = _setup(ctx)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    expected = {}
    for i in range(6):                                 # one batch: six draws, new values each
        ctx.glUniform2f(offset, i * 2.0 / 8, 0.0)
        ctx.glUniform4f(colour, i / 8, 1.0 - i / 8, 0.5, 1.0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expected[i] = [round(255 * i / 8), round(255 * (1.0 - i / 8)), 128, 255]
    px = ctx.read_pixels()
    for i, rgba in expected.items():
        assert np.abs(px[0, i].astype(int) - rgba).max() <= 1, (i, px[0, i], rgba)
    assert list(px[0, 6]) == [0, 0, 0, 0] and list(px[1, 0]) == [0, 0, 0, 0]
    # the words around the uniforms: one vertex and one fragment frame for the batch
    assert sorted(frames) == ["fragment", "vertex"], frames
    ctx.destroy()


def spy_usc_words(monkeypatch) -> list:
    """(batch, variant, address) of every ``encode.usc_words`` call from now on."""
    seen = []
    real = encode.usc_words

    def spy(ctx, batch, sh, stage, attributes=None, fragment=()):
        va = real(ctx, batch, sh, stage, attributes, fragment)
        seen.append((batch, sh, va))
        return va
    monkeypatch.setattr(encode, "usc_words", spy)
    return seen


def test_usc_words_read_back_decode_as_a_full_pack(monkeypatch):
    seen = spy_usc_words(monkeypatch)
    ctx = context(8, 8)
    offset, colour = _setup(ctx)
    for i in range(3):
        ctx.glUniform2f(offset, i * 2.0 / 8, 0.0)
        ctx.glUniform4f(colour, 0.25, 0.5, 0.75, 1.0)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    checked = 0
    last_fragment = max(k for k, (_b, sh, _va) in enumerate(seen) if sh.stage == "fragment")
    packets = (P.USC_SHADER, P.USC_UNIFORM, P.USC_TEXTURE, P.USC_SAMPLER, P.USC_VARYINGS, P.USC_FRAGMENT,
               P.USC_END)
    for k, (batch, sh, va) in enumerate(seen):          # read before the batch is submitted
        bo = next(b for b in batch.pool.bos if b.va <= va < b.va + b.size_B)
        words = bytes(bo.map[va - bo.va:va - bo.va + 256])
        tags, at = [], 0
        while True:                                     # each record is what P.pack gives for its fields
            rec = next((pk for pk in packets if words[at] == _tag(pk)
                        and pk.pack(**pk.unpack(words[at:at + pk.size_B]).values) == words[at:at + pk.size_B]),
                       None)
            assert rec is not None, (k, words[at:at + 16].hex())
            tags.append(rec.name)
            fields = rec.unpack(words[at:at + rec.size_B]).values
            if rec.name == "USC_UNIFORM" and k == last_fragment:
                # the registers the last draw's fragment words load: its uniform values
                n = 2 * fields["size_halves"]
                ubo = next(b for b in batch.pool.bos if b.va <= fields["buffer"] < b.va + b.size_B)
                raw = bytes(ubo.map[fields["buffer"] - ubo.va:fields["buffer"] - ubo.va + n])
                assert np.array([0.25, 0.5, 0.75, 1.0], np.float32).tobytes() in raw
                assert raw == encode.build_uniforms(ctx.gl.pipe, batch, sh, encode.S.FRAGMENT)[
                    2 * fields["start_halves"]:2 * fields["start_halves"] + n]
            at += rec.size_B
            if rec.name == "USC_END":
                break
        assert tags[0] == "USC_SHADER" and "USC_UNIFORM" in tags and tags[-1] == "USC_END", tags
        if sh.stage == "fragment":
            assert tags.index("USC_UNIFORM") < tags.index("USC_TEXTURE") < tags.index("USC_FRAGMENT"), tags
        checked += 1
    assert checked == 6
    ctx.destroy()


def _tag(packet) -> int:
    """The tag byte a packet's words start with (its packed bytes with no fields set)."""
    return packet.pack()[0]
