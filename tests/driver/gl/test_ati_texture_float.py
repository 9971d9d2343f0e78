"""GL_ATI_texture_float: its twelve internal formats (the values ARB_texture_float
reuses) give float textures of each base format: values outside [0, 1] kept
(float32 exactly, float16 to its precision), sampled as GL 4.6 compatibility
table 15.1 expands them (alpha (0, 0, 0, A), luminance (L, L, L, 1), intensity
(I, I, I, I)), read in a shader into a float render target."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

from .helpers import expect

T2 = E.GL_TEXTURE_2D
# name: (value, pixel format, components of the data, float16?)
ATI = {
    "RGBA_FLOAT32_ATI": (0x8814, E.GL_RGBA, 4, False), "RGB_FLOAT32_ATI": (0x8815, E.GL_RGB, 3, False),
    "ALPHA_FLOAT32_ATI": (0x8816, E.GL_ALPHA, 1, False), "INTENSITY_FLOAT32_ATI": (0x8817, E.GL_LUMINANCE, 1, False),
    "LUMINANCE_FLOAT32_ATI": (0x8818, E.GL_LUMINANCE, 1, False),
    "LUMINANCE_ALPHA_FLOAT32_ATI": (0x8819, E.GL_LUMINANCE_ALPHA, 2, False),
    "RGBA_FLOAT16_ATI": (0x881A, E.GL_RGBA, 4, True), "RGB_FLOAT16_ATI": (0x881B, E.GL_RGB, 3, True),
    "ALPHA_FLOAT16_ATI": (0x881C, E.GL_ALPHA, 1, True), "INTENSITY_FLOAT16_ATI": (0x881D, E.GL_LUMINANCE, 1, True),
    "LUMINANCE_FLOAT16_ATI": (0x881E, E.GL_LUMINANCE, 1, True),
    "LUMINANCE_ALPHA_FLOAT16_ATI": (0x881F, E.GL_LUMINANCE_ALPHA, 2, True),
}
VALUES = np.array([2.5, -3.0, 0.25, 1000.0], np.float32)


def _expand(name: str, data: np.ndarray) -> np.ndarray:
    """(n, components) -> (n, 4) as table 15.1 samples each base format."""
    n = data.shape[0]
    one, zero = np.ones(n, np.float32), np.zeros(n, np.float32)
    c = [data[:, i] for i in range(data.shape[1])]
    base = name.split("_FLOAT")[0]
    rows = {"RGBA": lambda: c, "RGB": lambda: c + [one], "ALPHA": lambda: [zero, zero, zero, c[0]],
            "INTENSITY": lambda: [c[0]] * 4, "LUMINANCE": lambda: [c[0]] * 3 + [one],
            "LUMINANCE_ALPHA": lambda: [c[0]] * 3 + [c[1]]}
    return np.stack(rows[base](), -1)


def test_listed():
    ctx = glhelp.context(1, 1, api="compat")
    assert "GL_ATI_texture_float" in ctx.glGetString(E.GL_EXTENSIONS).split()


@pytest.mark.parametrize("name", sorted(ATI))
def test_float_texture_of_each_format(name):
    value, fmt, comps, half = ATI[name]
    data = np.stack([np.roll(VALUES, k) for k in range(comps)], -1)          # (4 texels, comps)
    ctx = glhelp.context(4, 1, api="compat")
    rb = glhelp.renderbuffer_target(ctx, E.GL_RGBA32F, 4, 1)
    assert rb
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexImage2D(T2, 0, value, 4, 1, 0, fmt, E.GL_FLOAT, np.ascontiguousarray(data).tobytes())
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [value]
    vs = "#version 130\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
    fs = ("#version 130\nuniform sampler2D tex; out vec4 c;\n"
          "void main() { c = texelFetch(tex, ivec2(gl_FragCoord.xy), 0); }")
    prog = glhelp.program(ctx, vs, fs)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 4, 1, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)
    expect(ctx, E.GL_NO_ERROR)
    want = _expand(name, data.astype(np.float16).astype(np.float32) if half else data)
    np.testing.assert_array_equal(got, want)
