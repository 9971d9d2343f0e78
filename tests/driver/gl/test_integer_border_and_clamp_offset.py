"""Two texture-unit rules piglit's texwrap checks for integer textures (GL 4.6
compatibility section 8.14.2):

- the border colour of a texture of integer format is four integers (set with
  glTexParameterIiv / Iuiv) and an isampler/usampler returns them exactly; it was
  handed to the GPU as floats and read back as their bits (0.1 * (2^32 - 1) came
  back as 0x4DCCCCCD);
- GL_CLAMP clamps the texel coordinate after textureOffset's offset is added (as
  llvmpipe and piglit's reference do): with offset (-3, 3) on an 8-texel texture,
  nearest filtering reads texel clamp(floor(8 s) - 3, 0, 7); the coordinate was
  clamped to [0, 1] first, so the far edge read texel 5."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.agx import glhelp

W = 8


def _full_screen(ctx, prog):
    glhelp.vertices(ctx, prog, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)


@pytest.mark.parametrize("ifmt, fmt, dtype, setter, border, sampler", [
    (E.GL_RGBA32UI, E.GL_RGBA_INTEGER, np.uint32, "glTexParameterIuiv",
     [429496729, 3865470565, 5, 4294967295], "usampler2D"),
    (E.GL_RGBA8I, E.GL_RGBA_INTEGER, np.int8, "glTexParameterIiv", [-5, 100, 7, -128], "isampler2D"),
    (E.GL_RGBA16UI, E.GL_RGBA_INTEGER, np.uint16, "glTexParameterIuiv", [65535, 0, 1, 2], "usampler2D"),
])
def test_integer_border_colour_is_returned_exactly(ifmt, fmt, dtype, setter, border, sampler):
    """A 1x1 texture sampled at (2, 2) with CLAMP_TO_BORDER returns the border; the
    shader writes it to an RGBA32I/UI target as it is."""
    ctx = driver.Context(api="gl45", width=1, height=1)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, ifmt, 1, 1, 0, fmt,
                     {np.uint32: E.GL_UNSIGNED_INT, np.int8: E.GL_BYTE, np.uint16: E.GL_UNSIGNED_SHORT}[dtype],
                     np.zeros(4, dtype))
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_NEAREST)
    for p in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_CLAMP_TO_BORDER)
    getattr(ctx, setter)(E.GL_TEXTURE_2D, E.GL_TEXTURE_BORDER_COLOR, border)
    signed = sampler.startswith("i")
    target = E.GL_RGBA32I if signed else E.GL_RGBA32UI
    glhelp.renderbuffer_target(ctx, target, 1, 1)
    vs = "#version 330\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    out = "ivec4" if signed else "uvec4"
    fs = f"#version 330\nuniform {sampler} t;\nout {out} o;\nvoid main() {{ o = texture(t, vec2(2.0)); }}\n"
    prog = glhelp.program(ctx, vs, fs)
    _full_screen(ctx, prog)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_INT if signed else E.GL_UNSIGNED_INT),
                        np.int32 if signed else np.uint32)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert got.tolist() == border


def test_gl_clamp_clamps_the_offset_texel_coordinate():
    """Compatibility context, RGBA8I 8x8 texture whose texel (i, j) holds (10 i, 10 j),
    GL_CLAMP, NEAREST, textureOffset(t, tc, ivec2(-3, 3)) with tc from -1 to 2 across
    a 24x24 window: texel (clamp(floor(8 s) - 3, 0, 7), clamp(floor(8 t) + 3, 0, 7))."""
    ctx = driver.Context(api="compat", width=3 * W, height=3 * W)
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    vals = np.zeros((W, W, 4), np.int8)
    vals[..., 0] = np.arange(W)[None, :] * 10
    vals[..., 1] = np.arange(W)[:, None] * 10
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8I, W, W, 0, E.GL_RGBA_INTEGER, E.GL_BYTE, vals)
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_NEAREST)
    for p in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_CLAMP)
    vs = "#version 130\nin vec2 p; out vec2 tc;\nvoid main() { tc = p * 1.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }\n"
    fs = ("#version 130\nuniform isampler2D t; in vec2 tc; out vec4 o;\n"
          "void main() { o = vec4(textureOffset(t, tc, ivec2(-3, 3))) / 255.0; }\n")
    prog = glhelp.program(ctx, vs, fs)
    _full_screen(ctx, prog)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 3 * W, 3 * W, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
                       np.uint8).reshape(3 * W, 3 * W, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    centre = (np.arange(3 * W) + 0.5) / (3 * W) * 2 - 1
    tc = centre * 1.5 + 0.5
    i = np.clip(np.floor(tc * W) - 3, 0, W - 1) * 10
    j = np.clip(np.floor(tc * W) + 3, 0, W - 1) * 10
    assert (px[:, :, 0] == i[None, :]).all(), px[0, :, 0]
    assert (px[:, :, 1] == j[:, None]).all(), px[:, 0, 1]
