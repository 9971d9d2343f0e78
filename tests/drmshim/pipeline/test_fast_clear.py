"""A clear's tile memory stored as fills (render._uniform_pass): the same bytes as
the general path (tile memory materialised, background program broadcast, PBE
gather) and as the values GL specifies, for full clears of single-sampled colour
(RGBA8, RGB10A2, RGBA16F, R8), two render targets, a mipmap level, and for what
must not take the fill (scissored clears, colour masks, clears of one of two
targets, MSAA, clears followed by draws), and with the fill counted when taken."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from drmshim.gpu.pipeline import render

W, H = 64, 32             # whole twiddled tiles: the level is the pixels' bytes, no padding


def _target(ctx, fmt, samples=0, attachment=E.GL_COLOR_ATTACHMENT0, size=(W, H)):
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    if samples:
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, fmt, *size)
    else:
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, *size)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, attachment, E.GL_RENDERBUFFER, rb)


def _fbo(ctx, fmt=E.GL_RGBA8, two=False, samples=0):
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
    _target(ctx, fmt, samples)
    if two:
        _target(ctx, E.GL_RGBA8, samples, E.GL_COLOR_ATTACHMENT1)
        ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def _read(ctx, fmt=E.GL_RGBA, typ=E.GL_UNSIGNED_BYTE, buffer=E.GL_COLOR_ATTACHMENT0):
    ctx.glReadBuffer(buffer)
    return bytes(ctx.glReadPixels(0, 0, W, H, fmt, typ))


def _clear_scenes():
    def full(ctx):
        _fbo(ctx)
        ctx.glClearColor(0.25, 0.5, 0.75, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx)

    def twice(ctx):            # a second clear of another colour over the first
        _fbo(ctx)
        ctx.glClearColor(1, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _read(ctx)
        ctx.glClearColor(0, 0.2, 0.4, 0.6)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx)

    def formats(ctx):
        out = b""
        for fmt, typ in ((E.GL_RGB10_A2, E.GL_UNSIGNED_INT_2_10_10_10_REV), (E.GL_RGBA16F, E.GL_FLOAT),
                         (E.GL_R8, E.GL_UNSIGNED_BYTE)):
            _fbo(ctx, fmt)
            ctx.glClearColor(0.3, 0.6, 0.9, 0.5)
            ctx.glClear(E.GL_COLOR_BUFFER_BIT)
            out += _read(ctx, E.GL_RED if fmt == E.GL_R8 else E.GL_RGBA, typ)
        return out

    def two_targets(ctx):
        _fbo(ctx, two=True)
        ctx.glClearColor(0.1, 0.2, 0.3, 0.4)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx) + _read(ctx, buffer=E.GL_COLOR_ATTACHMENT1)

    def one_of_two(ctx):       # glClearBuffer of target 1 only: target 0 keeps its clear
        _fbo(ctx, two=True)
        ctx.glClearColor(0.1, 0.2, 0.3, 0.4)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glClearBufferfv(E.GL_COLOR, 1, [0.9, 0.8, 0.7, 0.6])
        return _read(ctx) + _read(ctx, buffer=E.GL_COLOR_ATTACHMENT1)

    def scissored(ctx):
        _fbo(ctx)
        ctx.glClearColor(0, 0, 1, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(3, 5, 17, 9)
        ctx.glClearColor(1, 1, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx)

    def masked(ctx):
        _fbo(ctx)
        ctx.glClearColor(0.5, 0.5, 0.5, 0.5)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glColorMask(True, False, True, False)
        ctx.glClearColor(1, 1, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx)

    def mip_level(ctx):
        tex = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 3, E.GL_RGBA8, 2 * W, 2 * H)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 1)
        ctx.glClearColor(0.7, 0.1, 0.4, 0.9)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        return _read(ctx)

    def msaa_resolved(ctx):
        _fbo(ctx, samples=4)
        ctx.glClearColor(0.2, 0.9, 0.4, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        read_fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, read_fbo)
        _target(ctx, E.GL_RGBA8)
        ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, read_fbo)
        return _read(ctx)

    def padded(ctx):           # 40 x 24 in 64 x 64-pixel tiles: the level has padding bytes
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, ctx.glGenFramebuffers(1)[0])
        _target(ctx, E.GL_RGBA8, size=(40, 24))
        ctx.glViewport(0, 0, 40, 24)
        ctx.glClearColor(0.6, 0.5, 0.4, 0.3)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0)
        return bytes(ctx.glReadPixels(0, 0, 40, 24, E.GL_RGBA, E.GL_UNSIGNED_BYTE))

    def drawn_over(ctx):       # a clear and a draw in one pass: tile memory is materialised
        _fbo(ctx)
        ctx.glClearColor(0.1, 0.1, 0.1, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_SCISSOR_TEST)
        ctx.glScissor(10, 4, 9, 20)
        ctx.glClearColor(0.9, 0.3, 0.3, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDisable(E.GL_SCISSOR_TEST)
        return _read(ctx)

    return {"padded": padded, "drawn_over": drawn_over, "full": full, "twice": twice, "formats": formats, "two_targets": two_targets,
            "one_of_two": one_of_two, "scissored": scissored, "masked": masked, "mip_level": mip_level,
            "msaa_resolved": msaa_resolved}


SCENES = _clear_scenes()


def _run(scene, monkeypatch, fast: bool):
    monkeypatch.setattr(render, "UNIFORM_PASSES", fast)
    taken = []
    real = render._uniform_pass
    monkeypatch.setattr(render, "_uniform_pass", lambda *a: taken.append(real(*a)) or taken[-1])
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        out = SCENES[scene](ctx)
        assert ctx.glGetError() == E.GL_NO_ERROR
    monkeypatch.undo()
    return out, any(taken)


@pytest.mark.parametrize("scene", sorted(SCENES))
def test_fast_clear_equals_general_path(monkeypatch, scene):
    fast, took = _run(scene, monkeypatch, True)
    general, took_general = _run(scene, monkeypatch, False)
    assert fast == general
    assert not took_general
    if scene in ("full", "twice", "formats", "two_targets", "mip_level"):
        assert took


def test_fast_clear_values(monkeypatch):
    """The bytes GL specifies: unorm8 of (0.25, 0.5, 0.75, 1) rounds to (64, 128, 191, 255);
    a scissored clear changes exactly its rectangle; a colour mask keeps G and A."""
    full, took = _run("full", monkeypatch, True)
    assert took
    assert np.array_equal(np.frombuffer(full, np.uint8).reshape(-1, 4), np.tile([64, 128, 191, 255], (W * H, 1)))
    img = np.frombuffer(_run("scissored", monkeypatch, True)[0], np.uint8).reshape(H, W, 4)
    want = np.tile(np.uint8([0, 0, 255, 255]), (H, W, 1))
    want[5:14, 3:20] = [255, 255, 0, 255]
    assert np.array_equal(img, want)
    img = np.frombuffer(_run("masked", monkeypatch, True)[0], np.uint8).reshape(H, W, 4)
    assert np.array_equal(img, np.tile(np.uint8([255, 128, 0, 128]), (H, W, 1)))
