"""GL_ARB_texture_filter_anisotropic: TEXTURE_MAX_ANISOTROPY on textures and
samplers (MAX_TEXTURE_MAX_ANISOTROPY = 16), a SAMPLER descriptor field, and the
texture unit's footprint sampling: N = min(ceil(Pmax / Pmin), max) samples at
the level of detail log2(Pmax / N) along the major axis.

The texture's levels are solid colours, so the level the footprint selects is
read back directly. The quad maps 8 texels per pixel across and 1 down (Px = 8,
Py = 1): isotropic lambda = log2(8) = 3; anisotropy 2 -> log2(8/2) = 2; 4 -> 1;
8 and 16 -> N = 8, log2(1) = 0 (hand-computed)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

SIZE = 64                       # 7 levels: 64 .. 1
COLOURS = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255), (255, 0, 255), (255, 255, 255)]
VS = ("#version 330\nout vec2 uv;\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
      " uv = p * vec2(1.0, 0.125); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n")
FS = "#version 330\nin vec2 uv;\nuniform sampler2D t;\nout vec4 o;\nvoid main() { o = texture(t, uv); }\n"


def _draw(max_aniso, with_sampler=False):
    ctx = glhelp.context(8, 8, api="compat")
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    for level, colour in enumerate(COLOURS):
        n = SIZE >> level
        data = np.tile(np.array(colour + (255,), np.uint8), (n, n, 1))
        ctx.glTexImage2D(E.GL_TEXTURE_2D, level, E.GL_RGBA8, n, n, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST)
    if with_sampler:
        (s,) = ctx.glGenSamplers(1)
        ctx.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST)
        ctx.glSamplerParameterf(s, E.GL_TEXTURE_MAX_ANISOTROPY, float(max_aniso))
        ctx.glBindSampler(0, s)
        assert ctx.glGetSamplerParameterfv(s, E.GL_TEXTURE_MAX_ANISOTROPY) == [float(max_aniso)]
    else:
        ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY, float(max_aniso))
        assert ctx.glGetTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY) == [float(max_aniso)]
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGB, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(8, 8, 3)


@pytest.mark.parametrize("max_aniso, level", [(1, 3), (2, 2), (4, 1), (8, 0), (16, 0)])
@pytest.mark.parametrize("with_sampler", [False, True])
def test_the_footprint_selects_the_level(max_aniso, level, with_sampler):
    img = _draw(max_aniso, with_sampler)
    assert (img == COLOURS[level]).all()


def test_limit_and_errors():
    ctx = glhelp.context(4, 4, api="gl45")
    assert ctx.glGetFloatv(E.GL_MAX_TEXTURE_MAX_ANISOTROPY) == [16.0]
    assert "GL_ARB_texture_filter_anisotropic" in ctx.extensions
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    assert ctx.glGetTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY) == [1.0]
    ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY, 0.5)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY, 100.0)     # clamped to the limit
    assert ctx.glGetTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY) == [16.0]


def test_descriptor_field():
    """The sampler descriptor carries the next power of two (as Mesa's asahi)."""
    from uapi import packets as P
    for value, log2 in ((1.0, 0), (2.0, 1), (3.0, 2), (16.0, 4)):
        desc = P.pack("SAMPLER", max_anisotropy_log2=log2)
        assert P.SAMPLER.unpack(desc).max_anisotropy_log2 == log2
        import math
        assert min(4, math.ceil(math.log2(value))) == log2


def test_samples_are_averaged_along_the_major_axis():
    """Level 0 holds random texels; with anisotropy 16 (N = 8, lambda = 0) each
    pixel averages the 8 texels its footprint covers: pixel (i, j) samples texel
    centres 8i + k + 1/2 of row j (k = 0..7), so numpy's mean of those texels is
    the expected value (bilinear taps at texel centres read one texel each)."""
    rng = np.random.default_rng(5)
    level0 = rng.integers(0, 256, (SIZE, SIZE), dtype=np.uint8)
    ctx = glhelp.context(8, 8, api="compat")
    glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_R8, SIZE, SIZE, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, level0)
    ctx.glGenerateMipmap(E.GL_TEXTURE_2D)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST)
    ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY, 16.0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    got = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RED, E.GL_UNSIGNED_BYTE)), np.uint8).reshape(8, 8)
    want = level0[:8, :].reshape(8, 8, 8).mean(axis=2)             # rows 0..7, 8 texels per pixel
    assert np.abs(got.astype(np.float64) - want).max() <= 1.0


def test_the_ext_name_in_gles():
    """GL_EXT_texture_filter_anisotropic (GLES 2.0+ and desktop): the same state
    and limit under the extension's enums, and the same footprint sampling."""
    ctx = glhelp.context(8, 8, api="gles3")
    assert "GL_EXT_texture_filter_anisotropic" in ctx.extensions
    assert ctx.glGetFloatv(E.GL_MAX_TEXTURE_MAX_ANISOTROPY_EXT) == [16.0]
    glhelp.program(ctx, "#version 300 es\nout vec2 uv;\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1);"
                        " uv = p * vec2(1.0, 0.125); gl_Position = vec4(p * 2.0 - 1.0, 0.0, 1.0); }\n",
                   "#version 300 es\nprecision mediump float;\nin vec2 uv;\nuniform sampler2D t;\nout vec4 o;\n"
                   "void main() { o = texture(t, uv); }\n")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    for level, colour in enumerate(COLOURS):
        n = SIZE >> level
        data = np.tile(np.array(colour + (255,), np.uint8), (n, n, 1))
        ctx.glTexImage2D(E.GL_TEXTURE_2D, level, E.GL_RGBA8, n, n, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR_MIPMAP_NEAREST)
    ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_ANISOTROPY_EXT, 4.0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (img.reshape(8, 8, 4)[..., :3] == COLOURS[1]).all()
