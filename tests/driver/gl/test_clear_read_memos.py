"""glClear and glReadPixels keep what they checked while its inputs stand: the draw
framebuffer's completeness, layers and depth/stencil bits (``_draw_framebuffer_facts``),
the read framebuffer's (``_read_facts``) and the last read copied into client memory
(``_read_plan``). Each case below reads or clears once (the memo is filled), changes
one input (another renderbuffer of the same size attached, its storage respecified or
deleted, the read buffer, the pack state, a pack buffer) and checks the next call
against what the change must give: the pixels written since, or the GL error."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E


def _read_into(ctx, x, y, w, h, fmt=E.GL_RGBA, type=E.GL_UNSIGNED_BYTE, size=None):
    """glReadPixels into client memory as the C ABI calls it (``dest``); the bytes, or
    None when the call wrote nothing (an error)."""
    buf = bytearray(size if size is not None else w * h * 4)
    wrote = []

    def dest(n):
        wrote.append(n)
        return memoryview(buf)[:n]
    ret = ctx.glReadPixels(x, y, w, h, fmt, type, dest=dest)
    if ret is not None:                 # (not copied in place: the packed bytes returned)
        buf[:len(ret)] = ret
        return bytes(buf)
    return bytes(buf) if wrote else None


def _fbo_with(ctx, rb):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    return fbo


def _renderbuffer(ctx, w, h, fmt=E.GL_RGBA8):
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, w, h)
    return rb


def _clear(ctx, rgba, mask=E.GL_COLOR_BUFFER_BIT):
    ctx.glClearColor(*rgba)
    ctx.glClear(mask)


def _pixels(data: bytes, w: int, h: int) -> np.ndarray:
    return np.frombuffer(data, np.uint8).reshape(h, w, 4)


def test_read_after_another_renderbuffer_of_the_same_size_is_attached():
    ctx = driver.Context(api="gles3", width=8, height=8)
    a, b = _renderbuffer(ctx, 4, 4), _renderbuffer(ctx, 4, 4)
    _fbo_with(ctx, a)
    _clear(ctx, (1.0, 0.0, 0.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == [255, 0, 0, 255]).all()
    assert ctx._read_plan is not None                 # the read is kept
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, b)
    _clear(ctx, (0.0, 1.0, 0.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == [0, 255, 0, 255]).all()
    # a is unchanged: attached again, it reads red (the read of b kept nothing of a's)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, a)
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == [255, 0, 0, 255]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_read_after_the_storage_changes_or_goes():
    ctx = driver.Context(api="gles3", width=8, height=8)
    rb = _renderbuffer(ctx, 4, 4)
    _fbo_with(ctx, rb)
    _clear(ctx, (0.0, 0.0, 1.0, 1.0))
    assert (_pixels(_read_into(ctx, 1, 1, 2, 2), 2, 2) == [0, 0, 255, 255]).all()
    # the same size and format again: new storage (undefined contents), cleared yellow
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    _clear(ctx, (1.0, 1.0, 0.0, 1.0))
    assert (_pixels(_read_into(ctx, 1, 1, 2, 2), 2, 2) == [255, 255, 0, 255]).all()
    # a format the read does not allow for RGBA/UNSIGNED_BYTE in GLES: RGBA32F
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32F, 4, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _read_into(ctx, 1, 1, 2, 2) is None
    assert ctx.glGetError() in (E.GL_INVALID_OPERATION, E.GL_INVALID_FRAMEBUFFER_OPERATION)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    _clear(ctx, (0.0, 1.0, 1.0, 1.0))
    assert (_pixels(_read_into(ctx, 1, 1, 2, 2), 2, 2) == [0, 255, 255, 255]).all()
    # deleted: the framebuffer has no attachment left, incomplete
    ctx.glDeleteRenderbuffers(1, [rb])
    assert _read_into(ctx, 1, 1, 2, 2) is None
    assert ctx.glGetError() == E.GL_INVALID_FRAMEBUFFER_OPERATION
    _clear(ctx, (1.0, 1.0, 1.0, 1.0))
    assert ctx.glGetError() == E.GL_INVALID_FRAMEBUFFER_OPERATION


def test_read_after_the_read_buffer_pack_state_or_pack_buffer_change():
    ctx = driver.Context(api="gles3", width=8, height=8)
    rb = _renderbuffer(ctx, 4, 2)
    _fbo_with(ctx, rb)
    _clear(ctx, (1.0, 0.0, 1.0, 1.0))
    tight = _read_into(ctx, 0, 0, 3, 2)
    assert (_pixels(tight, 3, 2) == [255, 0, 255, 255]).all()
    # rows of 4 pixels in client memory: 2 rows of 3 pixels span 4 + 3 pixels
    ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 4)
    padded = _read_into(ctx, 0, 0, 3, 2, size=28)
    rows = np.frombuffer(padded, np.uint8)
    assert (rows[:12].reshape(3, 4) == [255, 0, 255, 255]).all()
    assert (rows[12:16] == 0).all()                  # the fourth pixel of row 0: not written
    assert (rows[16:28].reshape(3, 4) == [255, 0, 255, 255]).all()
    ctx.glPixelStorei(E.GL_PACK_ROW_LENGTH, 0)
    assert _read_into(ctx, 0, 0, 3, 2) == tight
    # a pack buffer bound: the pixels go there, client memory is not touched
    pbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
    ctx.glBufferData(E.GL_PIXEL_PACK_BUFFER, 24, None, E.GL_STREAM_READ)
    buf = bytearray(24)
    assert ctx.glReadPixels(0, 0, 3, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 0,
                            dest=lambda n: memoryview(buf)[:n]) is None
    assert buf == bytearray(24)
    assert bytes(ctx.glMapBufferRange(E.GL_PIXEL_PACK_BUFFER, 0, 24, E.GL_MAP_READ_BIT)) == tight
    ctx.glUnmapBuffer(E.GL_PIXEL_PACK_BUFFER)
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, 0)
    # the read buffer NONE: INVALID_OPERATION, nothing written
    ctx.glReadBuffer(E.GL_NONE)
    assert _read_into(ctx, 0, 0, 3, 2) is None
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0)
    assert _read_into(ctx, 0, 0, 3, 2) == tight
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_clear_after_the_framebuffer_changes():
    """The draw framebuffer's facts (completeness, depth and stencil bits) follow its
    objects: a depth/stencil renderbuffer attached after a first clear is cleared by
    the next; a colour buffer of zero size makes the framebuffer incomplete."""
    ctx = driver.Context(api="gl33", width=8, height=8)
    rb = _renderbuffer(ctx, 4, 4)
    _fbo_with(ctx, rb)
    everything = E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT
    _clear(ctx, (0.0, 0.0, 0.0, 1.0), everything)      # no depth/stencil yet: colour only
    assert ctx.glGetError() == E.GL_NO_ERROR
    ds = _renderbuffer(ctx, 4, 4, E.GL_DEPTH24_STENCIL8)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, ds)
    ctx.glClearDepth(0.25)
    ctx.glClearStencil(0x5A)
    _clear(ctx, (0.0, 0.0, 0.0, 1.0), everything)
    depth = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32)
    stencil = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE), np.uint8)
    assert np.allclose(depth, 0.25, atol=1e-6) and (stencil == 0x5A).all()
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 0, 0)
    _clear(ctx, (1.0, 1.0, 1.0, 1.0))
    assert ctx.glGetError() == E.GL_INVALID_FRAMEBUFFER_OPERATION
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    _clear(ctx, (1.0, 1.0, 1.0, 1.0))
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == 255).all()


def test_color_mask_and_rasterizer_discard_still_apply():
    ctx = driver.Context(api="gles3", width=8, height=8)
    _fbo_with(ctx, _renderbuffer(ctx, 2, 2))
    _clear(ctx, (0.0, 0.0, 0.0, 0.0))
    ctx.glColorMask(True, False, True, False)
    _clear(ctx, (1.0, 1.0, 1.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 2, 2), 2, 2) == [255, 0, 255, 0]).all()
    ctx.glColorMask(True, True, True, True)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    _clear(ctx, (0.0, 1.0, 0.0, 1.0))
    ctx.glDisable(E.GL_RASTERIZER_DISCARD)
    assert (_pixels(_read_into(ctx, 0, 0, 2, 2), 2, 2) == [255, 0, 255, 0]).all()
    _clear(ctx, (0.0, 1.0, 0.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 2, 2), 2, 2) == [0, 255, 0, 255]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_a_kept_fill_is_read_again_only_while_the_bytes_stand():
    """A read of a fast-cleared region into client memory keeps its fill
    (AgxResource._solid_fills): the same read again is the fill alone, until the
    texture is written by the CPU (glTexSubImage2D) or the GPU (a clear)."""
    ctx = driver.Context(api="gles3", width=8, height=8)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 32, 32)    # compressed (fast clears)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    _clear(ctx, (1.0, 0.0, 0.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32) == [255, 0, 0, 255]).all()
    res = ctx._read_plan[2]
    assert res._solid_fills, "the fill is kept"
    assert (_pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32) == [255, 0, 0, 255]).all()
    # a CPU write of a corner
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([0, 255, 0, 255] * 2))
    got = _pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32)
    want = np.tile(np.array([255, 0, 0, 255], np.uint8), (32, 32, 1))
    want[0, :2] = [0, 255, 0, 255]
    assert (got == want).all()
    # a GPU write: cleared blue, then read twice
    _clear(ctx, (0.0, 0.0, 1.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32) == [0, 0, 255, 255]).all()
    _clear(ctx, (0.0, 1.0, 1.0, 1.0))
    assert (_pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32) == [0, 255, 255, 255]).all()
    assert (_pixels(_read_into(ctx, 0, 0, 32, 32), 32, 32) == [0, 255, 255, 255]).all()
    # a destination of another size is refused as before (the kept fill needs exactly the region)
    assert ctx.glReadPixels(0, 0, 32, 32, E.GL_RGBA, E.GL_UNSIGNED_BYTE, dest=lambda n: bytearray(n - 4)) is None
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetError() == E.GL_NO_ERROR


# ------------------------------------------------------------------ the kept glClear
def _pipe_calls(ctx, mask):
    """glClear(mask) and what it asked of the pipe: the framebuffer state it set and
    pipe.clear's arguments (or the draws of a clear drawn as a quad)."""
    calls = []
    pipe = ctx.pipe
    real_clear, real_fb = pipe.clear, pipe.set_framebuffer_state
    draws = pipe.stats["draws"]
    pipe.clear = lambda *a: (calls.append(("clear", a)), real_clear(*a))[1]
    pipe.set_framebuffer_state = lambda fb: (calls.append(("fb", fb)), real_fb(fb))[1]
    try:
        ctx.glClear(mask)
    finally:
        del pipe.clear, pipe.set_framebuffer_state
    return calls, pipe.stats["draws"] - draws, ctx.glGetError()


def test_a_kept_clear_asks_the_pipe_what_a_derived_one_asks():
    """glClear remembers what it asked of the pipe (``_kept_clear``). After each single
    change of an input the next glClear (the memo in place, possibly stale) must make
    the same pipe calls as a glClear derived afresh (the memo dropped)."""
    ctx = driver.Context(api="gl46", width=8, height=8)
    rb = _renderbuffer(ctx, 4, 4)
    rb2 = _renderbuffer(ctx, 6, 6)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    all_bits = E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT
    changes = [
        ("clear colour", lambda: ctx.glClearColor(0.0, 1.0, 0.0, 1.0), all_bits),
        ("clear depth", lambda: ctx.glClearDepth(0.25), all_bits),
        ("clear stencil", lambda: ctx.glClearStencil(7), all_bits),
        ("mask", lambda: None, E.GL_COLOR_BUFFER_BIT),
        ("colour mask", lambda: ctx.glColorMask(True, False, True, True), all_bits),
        ("colour mask back", lambda: ctx.glColorMask(True, True, True, True), all_bits),
        ("depth mask", lambda: ctx.glDepthMask(False), all_bits),
        ("stencil write mask", lambda: ctx.glStencilMask(0), all_bits),
        ("stencil write mask back", lambda: ctx.glStencilMask(0xFF), all_bits),
        ("scissor test", lambda: (ctx.glScissor(0, 0, 8, 8), ctx.glEnable(E.GL_SCISSOR_TEST)), E.GL_COLOR_BUFFER_BIT),
        ("scissor box", lambda: ctx.glScissor(1, 1, 3, 3), E.GL_COLOR_BUFFER_BIT),
        ("scissor off", lambda: ctx.glDisable(E.GL_SCISSOR_TEST), E.GL_COLOR_BUFFER_BIT),
        ("rasterizer discard", lambda: ctx.glEnable(E.GL_RASTERIZER_DISCARD), E.GL_COLOR_BUFFER_BIT),
        ("rasterizer discard off", lambda: ctx.glDisable(E.GL_RASTERIZER_DISCARD), E.GL_COLOR_BUFFER_BIT),
        ("draw buffer none", lambda: ctx.glDrawBuffer(E.GL_NONE), E.GL_COLOR_BUFFER_BIT),
        ("draw buffer back", lambda: ctx.glDrawBuffer(E.GL_BACK), E.GL_COLOR_BUFFER_BIT),
        ("framebuffer object", lambda: ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo), E.GL_COLOR_BUFFER_BIT),
        ("its attachment", lambda: ctx.glFramebufferRenderbuffer(
            E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb2), E.GL_COLOR_BUFFER_BIT),
        ("its storage", lambda: ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 5, 5),
         E.GL_COLOR_BUFFER_BIT),
        ("sRGB writes", lambda: ctx.glEnable(E.GL_FRAMEBUFFER_SRGB), E.GL_COLOR_BUFFER_BIT),
        ("window again", lambda: ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0), all_bits),
        ("bad mask", lambda: None, 0x1),
    ]
    ctx.glClearColor(1.0, 0.0, 0.0, 1.0)
    for name, change, mask in changes:
        ctx.glClear(mask if mask != 0x1 else all_bits)      # fills the memo (for this mask)
        assert ctx.glGetError() == E.GL_NO_ERROR, name
        change()
        assert ctx.glGetError() == E.GL_NO_ERROR, name
        kept = _pipe_calls(ctx, mask)
        ctx.gl._kept_clear = None
        derived = _pipe_calls(ctx, mask)
        assert kept == derived, name
    mask = all_bits
    # the memo is used: a second identical glClear sets the state it kept, derives nothing
    ctx.glClear(mask)
    assert ctx.gl._kept_clear is not None
    ctx.gl._draw_framebuffer_facts = None      # (would raise if called)
    calls, draws, error = _pipe_calls(ctx, mask)
    assert calls[0] == ("fb", ctx.gl._kept_clear[2]) and error == E.GL_NO_ERROR
