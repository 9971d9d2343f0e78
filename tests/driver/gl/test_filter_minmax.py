"""GL_ARB_texture_filter_minmax / GL_EXT_texture_filter_minmax: TEXTURE_REDUCTION_MODE
MIN and MAX make a filter return the component-wise minimum / maximum of the texels
it would weight with a non-zero weight. Each case samples a 4 x 4 texture at every
quarter-texel position (texel centres: one tap per axis; between them: two) and is
checked against the extension's reduce() worked out with numpy from the texels:
linear magnification, both levels of a linear mip filter, an integer texture
(complete with linear filters only when reduced), depth comparison (the results 0/1
reduced, not the depths), the sampler object's parameter over the texture's; the
queries and errors."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

from .helpers import expect

T2 = E.GL_TEXTURE_2D
RNG = np.random.default_rng(366)
N = 16          # window: pixel x samples u = x / 4 texels (texel centres at whole u)

VS = "#version 330\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"


def _draw(ctx, sampler_decl: str, expr: str, w=N, h=N, es=False) -> np.ndarray:
    """A full-window draw whose colour is ``expr`` at uv = (floor(pixel) / 4 + 0.5) / 4,
    read back as RGBA8 (rows bottom-up)."""
    head = "#version 310 es\nprecision highp float;\n" if es else "#version 330\n"
    fs = (head + sampler_decl + "\nout vec4 c;\n"
          "void main() { vec2 uv = (floor(gl_FragCoord.xy) * 0.25 + 0.5) / 4.0; c = " + expr + "; }")
    vs = VS.replace("#version 330\n", head) if es else VS
    prog = glhelp.program(ctx, vs, fs)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    raw = ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(h, w, 4).astype(np.int64)


def _taps(size: int, n: int = N):
    """Per pixel coordinate (0..n-1): the texels a linear filter reaches along one axis of
    a ``size``-texel level with non-zero weight, and their weights (clamp to edge)."""
    out = []
    for x in range(n):
        u = ((x * 0.25 + 0.5) / 4.0) * size - 0.5
        i0 = int(np.floor(u))
        a = u - i0
        taps = [(min(max(i0, 0), size - 1), 1 - a)]
        if a != 0:
            taps.append((min(max(i0 + 1, 0), size - 1), a))
        out.append(taps)
    return out


def _expected(level_texels: list[np.ndarray], mode: str, level_weights=(1.0,)) -> np.ndarray:
    """reduce() (or the weighted average) of each pixel's taps over the given levels,
    as (N, N, C) with rows = y."""
    first = level_texels[0]
    out = np.zeros((N, N, first.shape[2]))
    for y, x in itertools.product(range(N), range(N)):
        vals, wts = [], []
        for tex, lw in zip(level_texels, level_weights):
            if lw == 0:
                continue
            h, w = tex.shape[:2]
            for (i, wx), (j, wy) in itertools.product(_taps(w)[x], _taps(h)[y]):
                if wx * wy != 0:
                    vals.append(tex[j, i].astype(np.float64))
                    wts.append(wx * wy * lw)
        vals = np.array(vals)
        out[y, x] = {"min": vals.min(0), "max": vals.max(0)}.get(mode, (vals * np.array(wts)[:, None]).sum(0))
    return out


def _rgba8_texture(ctx, texels: np.ndarray, mode=None, level=0, min_filter=E.GL_LINEAR):
    if level == 0:
        (t,) = ctx.glGenTextures(1)
        ctx.glBindTexture(T2, t)
        for pname, v in ((E.GL_TEXTURE_MIN_FILTER, min_filter), (E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR),
                         (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
            ctx.glTexParameteri(T2, pname, v)
        if mode is not None:
            ctx.glTexParameteri(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, mode)
    h, w = texels.shape[:2]
    ctx.glTexImage2D(T2, level, E.GL_RGBA8, w, h, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     np.ascontiguousarray(texels, np.uint8).tobytes())


@pytest.mark.parametrize("api", ["compat", "gl46", "gles31"])
def test_listed(api):
    ctx = glhelp.context(1, 1, api=api)
    names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
    # GLES 3.1+: the EXT name (as llvmpipe); the ARB one is desktop GL's
    want = {"GL_EXT_texture_filter_minmax"} if api == "gles31" else \
        {"GL_ARB_texture_filter_minmax", "GL_EXT_texture_filter_minmax"}
    assert want <= names and (api != "gles31" or "GL_ARB_texture_filter_minmax" not in names)


@pytest.mark.parametrize("api", ["gl46", "gles31"])
@pytest.mark.parametrize("mode, name", [(E.GL_MIN, "min"), (E.GL_MAX, "max")])
def test_linear_magnification_reduces_the_taps_with_weight(mode, name, api):
    texels = RNG.integers(0, 256, (4, 4, 4), dtype=np.uint8)
    ctx = glhelp.context(N, N, api=api)
    _rgba8_texture(ctx, texels, mode)
    got = _draw(ctx, "uniform sampler2D tex;", "texture(tex, uv)", es=api.startswith("gles"))
    expect(ctx, E.GL_NO_ERROR)
    assert got.tolist() == _expected([texels], name).astype(np.int64).tolist()


def test_weighted_average_stays_the_default():
    texels = RNG.integers(0, 256, (4, 4, 4), dtype=np.uint8)
    ctx = glhelp.context(N, N, api="gl46")
    _rgba8_texture(ctx, texels)
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [E.GL_WEIGHTED_AVERAGE_ARB]
    got = _draw(ctx, "uniform sampler2D tex;", "texture(tex, uv)")
    assert np.abs(got - _expected([texels], "avg")).max() <= 1


def test_both_levels_of_a_linear_mip_filter():
    level0 = RNG.integers(0, 256, (4, 4, 4), dtype=np.uint8)
    level1 = RNG.integers(0, 256, (2, 2, 4), dtype=np.uint8)
    ctx = glhelp.context(N, N, api="gl46")
    _rgba8_texture(ctx, level0, E.GL_MIN, min_filter=E.GL_LINEAR_MIPMAP_LINEAR)
    _rgba8_texture(ctx, level1, level=1)
    ctx.glTexImage2D(T2, 2, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
    got = _draw(ctx, "uniform sampler2D tex;", "textureLod(tex, uv, 0.5)")
    assert got.tolist() == _expected([level0, level1], "min", (0.5, 0.5)).astype(np.int64).tolist()
    # a whole level (frac 0): the second level's taps weigh nothing
    got = _draw(ctx, "uniform sampler2D tex;", "textureLod(tex, uv, 1.0)")
    assert got.tolist() == _expected([level0, level1], "min", (0.0, 1.0)).astype(np.int64).tolist()


def test_the_sampler_objects_mode_wins():
    texels = RNG.integers(0, 256, (4, 4, 4), dtype=np.uint8)
    ctx = glhelp.context(N, N, api="gl46")
    _rgba8_texture(ctx, texels, E.GL_MIN)
    (s,) = ctx.glGenSamplers(1)
    for pname, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR), (E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR),
                     (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glSamplerParameteri(s, pname, v)
    ctx.glSamplerParameteri(s, E.GL_TEXTURE_REDUCTION_MODE_ARB, E.GL_MAX)
    assert ctx.glGetSamplerParameteriv(s, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [E.GL_MAX]
    assert ctx.glGetSamplerParameterfv(s, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [float(E.GL_MAX)]
    ctx.glBindSampler(0, s)
    got = _draw(ctx, "uniform sampler2D tex;", "texture(tex, uv)")
    assert got.tolist() == _expected([texels], "max").astype(np.int64).tolist()


def test_integer_textures_filter_when_reduced():
    """An integer texture with linear filters is incomplete for the weighted average
    (GL 4.6 section 8.17: it reads (0, 0, 0, 1)) and complete with MIN/MAX."""
    texels = RNG.integers(0, 256, (4, 4), dtype=np.uint32)
    ctx = glhelp.context(N, N, api="gl46")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    for pname, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR), (E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR),
                     (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glTexParameteri(T2, pname, v)
    ctx.glTexImage2D(T2, 0, E.GL_R32UI, 4, 4, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, texels.tobytes())
    decl, expr = "uniform usampler2D tex;", "vec4(texture(tex, uv)) / 255.0"
    assert (_draw(ctx, decl, expr)[..., :3] == 0).all()               # incomplete: (0, 0, 0, 1)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, E.GL_MAX)
    got = _draw(ctx, decl, expr)
    want = _expected([texels[..., None]], "max")[..., 0]
    assert got[..., 0].tolist() == want.astype(np.int64).tolist()
    assert (got[..., 3] == 1).all()                                    # (R, 0, 0, 1) / 255


@pytest.mark.parametrize("mode, name", [(E.GL_MIN, "min"), (E.GL_MAX, "max"), (E.GL_WEIGHTED_AVERAGE_ARB, "avg")])
def test_depth_comparison_results_are_reduced(mode, name):
    depth = RNG.random((4, 4)).astype(np.float32)
    ref = 0.5
    ctx = glhelp.context(N, N, api="gl46")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    for pname, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR), (E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR),
                     (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE),
                     (E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE),
                     (E.GL_TEXTURE_COMPARE_FUNC, E.GL_LEQUAL), (E.GL_TEXTURE_REDUCTION_MODE_ARB, mode)):
        ctx.glTexParameteri(T2, pname, v)
    ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT32F, 4, 4, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth.tobytes())
    got = _draw(ctx, "uniform sampler2DShadow tex;", f"vec4(texture(tex, vec3(uv, {ref})))")
    passes = (ref <= depth).astype(np.float64)[..., None]             # LEQUAL: 1 where ref <= texel
    want = np.rint(_expected([passes], name)[..., 0] * 255)
    if name == "avg":
        assert np.abs(got[..., 0] - want).max() <= 1
    else:
        assert got[..., 0].tolist() == want.astype(np.int64).tolist()


def test_anisotropic_minimum_is_one_of_the_footprints_texels():
    texels = RNG.integers(0, 256, (64, 64, 4), dtype=np.uint8)
    ctx = glhelp.context(N, N, api="gl46")
    _rgba8_texture(ctx, texels, E.GL_MIN)
    ctx.glTexParameterf(T2, E.GL_TEXTURE_MAX_ANISOTROPY, 16.0)
    # a footprint 16 texels long in s and 1 in t: many samples along s, reduced
    got = _draw(ctx, "uniform sampler2D tex;", "textureGrad(tex, uv, vec2(0.25, 0.0), vec2(0.0, 1.0 / 64.0))")
    ctx.glTexParameteri(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, E.GL_WEIGHTED_AVERAGE_ARB)
    avg = _draw(ctx, "uniform sampler2D tex;", "textureGrad(tex, uv, vec2(0.25, 0.0), vec2(0.0, 1.0 / 64.0))")
    assert (got <= avg + 1).all() and (got < avg).mean() > 0.5
    present = [set(texels[..., c].ravel().tolist()) for c in range(4)]
    assert all(v in present[c] for c in range(4) for v in got[..., c].ravel().tolist())


def test_queries_and_errors():
    ctx = glhelp.context(1, 1, api="gl46")
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    ctx.glTexParameteri(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, E.GL_LINEAR)
    expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetTexParameteriv(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [E.GL_WEIGHTED_AVERAGE_ARB]
    ctx.glTexParameterf(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, float(E.GL_MAX))
    assert ctx.glGetTexParameterfv(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [float(E.GL_MAX)]
    assert ctx.glGetTextureParameteriv(t, E.GL_TEXTURE_REDUCTION_MODE_ARB) == [E.GL_MAX]
    q = ctx.glGetInternalformativ
    assert q(T2, E.GL_RGBA8, E.GL_TEXTURE_REDUCTION_MODE_ARB, 1) == [1]
    assert q(E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_RGBA8, E.GL_TEXTURE_REDUCTION_MODE_ARB, 1) == [0]
    es = glhelp.context(1, 1, api="gles3")          # GLES 3.0: no extension (it needs 3.1)
    (t,) = es.glGenTextures(1)
    es.glBindTexture(T2, t)
    es.glTexParameteri(T2, E.GL_TEXTURE_REDUCTION_MODE_ARB, E.GL_MIN)
    expect(es, E.GL_INVALID_ENUM)
