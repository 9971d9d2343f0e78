"""GL_ARB_invalidate_subdata (core in GL 4.3): invalidation is a hint, so what can be
tested is each command's errors (GL 4.6 sections 6.5, 8.23, 17.4.4) and that a refused
call changes nothing. Errors by hand from the extension's specification: a buffer range
is refused only where it intersects a non-persistent mapping; a texture level must
exist for the target (one level only for rectangle, buffer and multisample targets);
a sub-image region must lie in the level's image."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

AB = E.GL_ARRAY_BUFFER


@pytest.fixture
def ctx():
    with driver.Context(api="gl46", width=4, height=4) as c:
        yield c


def test_buffer_range_errors_follow_the_mapped_range(ctx):
    (buf,) = ctx.glGenBuffers(1)
    ctx.glInvalidateBufferSubData(0, 0, 0)
    expect(ctx, E.GL_INVALID_VALUE)                     # zero names no buffer
    ctx.glBindBuffer(AB, buf)
    ctx.glBufferData(AB, 1024, None, E.GL_STREAM_DRAW)
    ctx.glInvalidateBufferSubData(buf, 0, 1024)
    expect(ctx, E.GL_NO_ERROR)
    for offset, length in ((-1, 0), (0, -1), (1023, 2)):
        ctx.glInvalidateBufferSubData(buf, offset, length)
        expect(ctx, E.GL_INVALID_VALUE)
    ctx.glMapBuffer(AB, E.GL_WRITE_ONLY)                # the whole buffer is mapped
    ctx.glInvalidateBufferSubData(buf, 1000, 1)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glInvalidateBufferData(buf)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glUnmapBuffer(AB)
    ctx.glMapBufferRange(AB, 256, 256, E.GL_MAP_WRITE_BIT)
    for offset, length, error in ((0, 256, E.GL_NO_ERROR), (512, 512, E.GL_NO_ERROR),
                                  (240, 17, E.GL_INVALID_OPERATION), (511, 1, E.GL_INVALID_OPERATION)):
        ctx.glInvalidateBufferSubData(buf, offset, length)
        expect(ctx, error)
    ctx.glUnmapBuffer(AB)
    # a persistent mapping never blocks invalidation
    (persistent,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(AB, persistent)
    ctx.glBufferStorage(AB, 1024, None, E.GL_MAP_WRITE_BIT | E.GL_MAP_PERSISTENT_BIT)
    ctx.glMapBufferRange(AB, 256, 256, E.GL_MAP_WRITE_BIT | E.GL_MAP_PERSISTENT_BIT)
    ctx.glInvalidateBufferSubData(persistent, 240, 100)
    ctx.glInvalidateBufferData(persistent)
    expect(ctx, E.GL_NO_ERROR)


def test_invalidating_a_buffer_keeps_it_usable(ctx):
    """Contents after invalidation are undefined, but the buffer stays a buffer of its
    size that takes new data."""
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(AB, buf)
    ctx.glBufferData(AB, 64, bytes(range(64)), E.GL_DYNAMIC_DRAW)
    ctx.glInvalidateBufferData(buf)
    ctx.glBufferSubData(AB, 0, 4, b"\x01\x02\x03\x04")
    assert bytes(ctx.glGetBufferSubData(AB, 0, 4)) == b"\x01\x02\x03\x04"
    assert ctx.glGetBufferParameteriv(AB, E.GL_BUFFER_SIZE) == [64]
    expect(ctx, E.GL_NO_ERROR)


def _texture(ctx, target, w, h, d=1):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(target, t)
    if target == E.GL_TEXTURE_3D:
        ctx.glTexStorage3D(target, 2, E.GL_RGBA8, w, h, d)
    elif target == E.GL_TEXTURE_2D_MULTISAMPLE:
        ctx.glTexStorage2DMultisample(target, 4, E.GL_RGBA8, w, h, True)
    else:
        ctx.glTexStorage2D(target, 1 if target == E.GL_TEXTURE_RECTANGLE else 3, E.GL_RGBA8, w, h)
    return t


def test_texture_level_errors(ctx):
    t2d = _texture(ctx, E.GL_TEXTURE_2D, 8, 4)
    rect = _texture(ctx, E.GL_TEXTURE_RECTANGLE, 8, 4)
    ms = _texture(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, 8, 4)
    ctx.glInvalidateTexImage(t2d, 2)
    ctx.glInvalidateTexImage(rect, 0)
    ctx.glInvalidateTexImage(ms, 0)
    expect(ctx, E.GL_NO_ERROR)
    for tex, level in ((0, 0), (9999, 0), (t2d, -1), (t2d, 15), (rect, 1), (ms, 1)):
        ctx.glInvalidateTexImage(tex, level)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glInvalidateTexSubImage(tex, level, 0, 0, 0, 1, 1, 1)
        expect(ctx, E.GL_INVALID_VALUE)


def test_texture_region_must_lie_in_the_level(ctx):
    t2d = _texture(ctx, E.GL_TEXTURE_2D, 8, 4)         # level 1 is 4x2
    t3d = _texture(ctx, E.GL_TEXTURE_3D, 4, 4, 4)
    cube = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, cube)
    ctx.glTexStorage2D(E.GL_TEXTURE_CUBE_MAP, 1, E.GL_RGBA8, 4, 4)
    good = ((t2d, 0, (0, 0, 0, 8, 4, 1)), (t2d, 1, (2, 1, 0, 2, 1, 1)), (t3d, 0, (1, 1, 1, 3, 3, 3)),
            (cube, 0, (0, 0, 5, 4, 4, 1)), (t2d, 1, (4, 2, 0, 0, 0, 0)))
    bad = ((t2d, 0, (0, 0, 0, 9, 4, 1)), (t2d, 1, (3, 0, 0, 2, 1, 1)), (t2d, 0, (0, 0, 1, 1, 1, 1)),
           (t2d, 0, (-1, 0, 0, 1, 1, 1)), (t2d, 0, (0, 0, 0, -1, 1, 1)), (t3d, 0, (0, 0, 2, 4, 4, 3)),
           (cube, 0, (0, 0, 5, 4, 4, 2)))
    for tex, level, region in good:
        ctx.glInvalidateTexSubImage(tex, level, *region)
        expect(ctx, E.GL_NO_ERROR)
    for tex, level, region in bad:
        ctx.glInvalidateTexSubImage(tex, level, *region)
        expect(ctx, E.GL_INVALID_VALUE)


def test_framebuffer_invalidation_errors_are_the_same_for_a_region(ctx):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    tex = _texture(ctx, E.GL_TEXTURE_2D, 4, 4)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    max_attachments = ctx.glGetIntegerv(E.GL_MAX_COLOR_ATTACHMENTS)[0]
    cases = (([E.GL_COLOR_ATTACHMENT0, E.GL_DEPTH_STENCIL_ATTACHMENT], 2, E.GL_NO_ERROR),
             ([E.GL_COLOR], 1, E.GL_INVALID_ENUM),                 # a default-framebuffer name
             ([E.GL_COLOR_ATTACHMENT0 + max_attachments], 1, E.GL_INVALID_OPERATION),
             ([E.GL_COLOR_ATTACHMENT0], -1, E.GL_INVALID_VALUE))
    for atts, n, error in cases:
        ctx.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, n, atts)
        expect(ctx, error)
        ctx.glInvalidateSubFramebuffer(E.GL_FRAMEBUFFER, n, atts, 0, 0, 2, 2)
        expect(ctx, error)
    ctx.glInvalidateSubFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0], 0, 0, -1, 2)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    ctx.glInvalidateSubFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR_ATTACHMENT0], 0, 0, 1, 1)
    expect(ctx, E.GL_INVALID_ENUM)                     # not a name of the default framebuffer
    ctx.glInvalidateSubFramebuffer(E.GL_FRAMEBUFFER, 2, [E.GL_COLOR, E.GL_DEPTH], 0, 0, 1, 1)
    expect(ctx, E.GL_NO_ERROR)


def test_a_gl32_core_context_lists_it_and_has_the_commands():
    with driver.Context(api="gl32", width=4, height=4) as c:
        n = c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_invalidate_subdata" in {c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        (buf,) = c.glGenBuffers(1)
        c.glBindBuffer(AB, buf)
        c.glBufferData(AB, 16, None, E.GL_STATIC_DRAW)
        c.glInvalidateBufferSubData(buf, 0, 16)
        c.glInvalidateBufferData(buf)
        c.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR])
        c.glInvalidateSubFramebuffer(E.GL_FRAMEBUFFER, 1, [E.GL_COLOR], 0, 0, 1, 1)
        expect(c, E.GL_NO_ERROR)
