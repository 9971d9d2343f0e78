"""GL_EXT_texture_mirror_clamp and GL_ATI_texture_mirror_once: the wrap modes that
mirror the coordinate once and clamp it (the extension's mirrorClamp,
mirrorClampToEdge and mirrorClampToBorder: min(hi, max(1/2N, |s|)) with hi = 1,
1 - 1/2N, 1 + 1/2N). A 4-texel row with a border colour is sampled at s from -1.6
to 1.6 with linear and nearest filters; the expected colours are those formulas
followed by GL's texel selection, worked out with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

from .helpers import expect

T2 = E.GL_TEXTURE_2D
W = 64
TEXELS = np.array([[200, 0, 0, 255], [0, 200, 0, 255], [0, 0, 200, 255], [100, 100, 100, 255]], np.uint8)
BORDER = np.array([255, 255, 0, 255], np.float64)
S = (np.arange(W) + 0.5) / W * 3.2 - 1.6          # the s of each column


def _expected(mode: int, linear: bool) -> np.ndarray:
    n = len(TEXELS)
    hi = {E.GL_MIRROR_CLAMP_EXT: 1.0, E.GL_MIRROR_CLAMP_TO_EDGE: 1 - 0.5 / n,
          E.GL_MIRROR_CLAMP_TO_BORDER_EXT: 1 + 0.5 / n}[mode]
    u = np.minimum(hi, np.maximum(0.5 / n, np.abs(S))) * n

    def texel(i):
        inside = (i >= 0) & (i < n)
        if mode != E.GL_MIRROR_CLAMP_TO_BORDER_EXT and not linear:
            inside, i = np.ones_like(inside), np.clip(i, 0, n - 1)   # nearest: the edge texel
        return np.where(inside[:, None], TEXELS[np.clip(i, 0, n - 1)].astype(np.float64), BORDER)
    if not linear:
        return texel(np.floor(u).astype(int))
    i0 = np.floor(u - 0.5).astype(int)
    a = (u - 0.5 - i0)[:, None]
    return (1 - a) * texel(i0) + a * texel(i0 + 1)


def _draw(ctx, mode: int, flt: int) -> np.ndarray:
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexImage2D(T2, 0, E.GL_RGBA8, 4, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, TEXELS.tobytes())
    for pname, v in ((E.GL_TEXTURE_MIN_FILTER, flt), (E.GL_TEXTURE_MAG_FILTER, flt),
                     (E.GL_TEXTURE_WRAP_S, mode), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glTexParameteri(T2, pname, v)
    ctx.glTexParameterfv(T2, E.GL_TEXTURE_BORDER_COLOR, list(BORDER / 255))
    expect(ctx, E.GL_NO_ERROR)
    vs = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"
    fs = ("#version 330\nuniform sampler2D tex; out vec4 c;\n"
          f"void main() {{ c = texture(tex, vec2(gl_FragCoord.x / {W}.0 * 3.2 - 1.6, 0.5)); }}")
    prog = glhelp.program(ctx, vs, fs)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    return np.frombuffer(ctx.glReadPixels(0, 0, W, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(W, 4)


@pytest.mark.parametrize("mode", [E.GL_MIRROR_CLAMP_EXT, E.GL_MIRROR_CLAMP_TO_EDGE, E.GL_MIRROR_CLAMP_TO_BORDER_EXT])
@pytest.mark.parametrize("flt", [E.GL_LINEAR, E.GL_NEAREST])
def test_mirror_clamp_modes(mode, flt):
    ctx = glhelp.context(W, 1, api="compat")
    got = _draw(ctx, mode, flt).astype(np.int64)
    want = _expected(mode, flt == E.GL_LINEAR)
    assert np.abs(got - want).max() <= 1


def test_listed_and_errors():
    ctx = glhelp.context(1, 1, api="gl46")
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    assert {"GL_EXT_texture_mirror_clamp", "GL_ATI_texture_mirror_once"} <= names
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_RECTANGLE, t)
    ctx.glTexParameteri(E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_WRAP_S, E.GL_MIRROR_CLAMP_EXT)
    expect(ctx, E.GL_INVALID_ENUM)                   # rectangles take no mirrored modes
    (s,) = ctx.glGenSamplers(1)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_WRAP_T, E.GL_MIRROR_CLAMP_TO_BORDER_EXT)
    assert ctx.glGetSamplerParameteriv(s, E.GL_TEXTURE_WRAP_T) == [E.GL_MIRROR_CLAMP_TO_BORDER_EXT]
    es = glhelp.context(1, 1, api="gles3")
    (t,) = es.glGenTextures(1)
    es.glBindTexture(T2, t)
    es.glTexParameteri(T2, E.GL_TEXTURE_WRAP_S, E.GL_MIRROR_CLAMP_EXT)
    expect(es, E.GL_INVALID_ENUM)
