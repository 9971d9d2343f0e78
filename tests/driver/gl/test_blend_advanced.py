"""KHR_blend_equation_advanced(_coherent) through GL: the 15 equations drawn into an
RGBA8 framebuffer against the specification's formulas (the scalar reference of
tests/compiler/lower/test_blend_advanced.py on the same 8-bit inputs), the entry
points' errors, the draw-time errors (undeclared equation, several draw buffers)
and coherent blending of overlapping primitives within one draw."""

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.features.blend_advanced import GL_BLEND_ADVANCED_COHERENT_KHR
from tests.compiler.lower.test_blend_advanced import reference
from tests.driver.agx import glhelp

W = H = 16
TOKENS = [("multiply", E.GL_MULTIPLY), ("screen", E.GL_SCREEN), ("overlay", E.GL_OVERLAY),
          ("darken", E.GL_DARKEN), ("lighten", E.GL_LIGHTEN), ("colordodge", E.GL_COLORDODGE),
          ("colorburn", E.GL_COLORBURN), ("hardlight", E.GL_HARDLIGHT), ("softlight", E.GL_SOFTLIGHT),
          ("difference", E.GL_DIFFERENCE), ("exclusion", E.GL_EXCLUSION), ("hsl_hue", E.GL_HSL_HUE),
          ("hsl_saturation", E.GL_HSL_SATURATION), ("hsl_color", E.GL_HSL_COLOR),
          ("hsl_luminosity", E.GL_HSL_LUMINOSITY)]
VS = "#version 310 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS_TEX = ("#version 310 es\n#extension GL_KHR_blend_equation_advanced : require\nprecision highp float;\n"
          "{layout}uniform highp sampler2D src;\nout vec4 o;\n"
          "void main() {{ o = texelFetch(src, ivec2(gl_FragCoord.xy), 0); }}\n")
FS_CONST = ("#version 310 es\n#extension GL_KHR_blend_equation_advanced : require\nprecision highp float;\n"
            "{layout}out vec4 o;\nvoid main() {{ o = vec4(0.5, 0.25, 1.0, 1.0); }}\n")
FULL = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)


def _texture(ctx, data):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data.tobytes())
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_NEAREST)
    return tex


def _target(ctx, data):
    tex = _texture(ctx, data)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    return fb


def _premultiplied(rng):
    """Random RGBA8 texels with rgb <= alpha, a row of branch boundaries and zero alphas."""
    a = rng.integers(0, 256, (H, W, 1))
    rgb = (rng.uniform(0, 1, (H, W, 3)) * a).round()
    px = np.concatenate([rgb, a], axis=2).astype(np.uint8)
    px[0, :8] = [[0, 0, 0, 0], [64, 128, 255, 255], [128, 128, 128, 255], [255, 255, 255, 255],
                 [0, 0, 0, 255], [32, 64, 128, 128], [10, 20, 30, 0], [191, 64, 0, 255]]
    return px


def _gles31():
    ctx = glhelp.context(W, H, api="gles31")
    assert "GL_KHR_blend_equation_advanced" in ctx.extensions
    assert "GL_KHR_blend_equation_advanced_coherent" in ctx.extensions
    return ctx


def test_every_equation_matches_the_specification():
    ctx = _gles31()
    rng = np.random.default_rng(7)
    src, dst = _premultiplied(rng), _premultiplied(np.random.default_rng(8))
    prog = glhelp.program(ctx, VS, FS_TEX.format(layout="layout(blend_support_all_equations) out;\n"))
    glhelp.vertices(ctx, prog, FULL, {"p": (2, 0)}, 2)
    ctx.glActiveTexture(E.GL_TEXTURE1)
    _texture(ctx, src)
    ctx.glActiveTexture(E.GL_TEXTURE0)      # (the destinations are made on unit 0)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "src"), 1)
    _target(ctx, dst)
    ctx.glEnable(E.GL_BLEND)
    s, d = src.reshape(-1, 4) / 255.0, dst.reshape(-1, 4) / 255.0
    for name, token in TOKENS:
        _target(ctx, dst)                    # a fresh destination for each equation
        ctx.glBlendEquation(token)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == E.GL_NO_ERROR, name
        got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
        want = np.array([reference(name, s[i], d[i]) for i in range(W * H)])
        want = np.round(np.clip(want, 0, 1) * 255)
        diff = np.abs(got.astype(int) - want)
        assert diff.max() <= 1, (name, int(diff.argmax()) // 4, got[diff.max(axis=1).argmax()],
                                 want[diff.max(axis=1).argmax()])


def test_equation_state_and_entry_point_errors():
    ctx = _gles31()
    ctx.glBlendEquation(E.GL_MULTIPLY)
    assert ctx.glGetIntegerv(E.GL_BLEND_EQUATION_RGB)[0] == E.GL_MULTIPLY
    assert ctx.glGetIntegerv(E.GL_BLEND_EQUATION_ALPHA)[0] == E.GL_MULTIPLY
    ctx.glBlendEquationSeparate(E.GL_SCREEN, E.GL_FUNC_ADD)           # separate forms: basic only
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    ctx.glBlendEquationSeparatei(0, E.GL_FUNC_ADD, E.GL_SCREEN)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glGetIntegerv(E.GL_BLEND_EQUATION_RGB)[0] == E.GL_MULTIPLY   # unchanged
    ctx.glBlendEquationi(1, E.GL_HSL_COLOR)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBlendEquation(0x929D)          # a hole between SOFTLIGHT and DIFFERENCE
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glIsEnabled(GL_BLEND_ADVANCED_COHERENT_KHR)
    ctx.glDisable(GL_BLEND_ADVANCED_COHERENT_KHR)
    assert not ctx.glIsEnabled(GL_BLEND_ADVANCED_COHERENT_KHR)
    ctx.glBlendBarrierKHR()
    assert ctx.glGetError() == E.GL_NO_ERROR


def _draw_error(ctx, fs, equation=E.GL_MULTIPLY):
    prog = glhelp.program(ctx, VS, fs)
    glhelp.vertices(ctx, prog, FULL, {"p": (2, 0)}, 2)
    ctx.glBlendEquation(equation)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    return ctx.glGetError()


def test_draw_errors():
    ctx = _gles31()
    _target(ctx, np.full((H, W, 4), 128, np.uint8))
    ctx.glEnable(E.GL_BLEND)
    # no blend_support layout: the equation is not declared
    assert _draw_error(ctx, FS_CONST.format(layout="")) == E.GL_INVALID_OPERATION
    # another equation declared
    assert _draw_error(ctx, FS_CONST.format(layout="layout(blend_support_screen) out;\n")) == E.GL_INVALID_OPERATION
    assert _draw_error(ctx, FS_CONST.format(layout="layout(blend_support_screen) out;\n"),
                       E.GL_SCREEN) == E.GL_NO_ERROR
    # blending disabled: the equation does not matter
    ctx.glDisable(E.GL_BLEND)
    assert _draw_error(ctx, FS_CONST.format(layout="")) == E.GL_NO_ERROR
    ctx.glEnable(E.GL_BLEND)
    # two active draw buffers
    tex2 = _texture(ctx, np.zeros((H, W, 4), np.uint8))
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT1, E.GL_TEXTURE_2D, tex2, 0)
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1])
    fs_all = FS_CONST.format(layout="layout(blend_support_all_equations) out;\n")
    assert _draw_error(ctx, fs_all) == E.GL_INVALID_OPERATION
    ctx.glDrawBuffers(2, [E.GL_COLOR_ATTACHMENT0, E.GL_NONE])
    assert _draw_error(ctx, fs_all) == E.GL_NO_ERROR
    # basic equations are unaffected
    assert _draw_error(ctx, FS_CONST.format(layout=""), E.GL_FUNC_ADD) == E.GL_NO_ERROR


def test_overlapping_primitives_in_one_draw_blend_in_order():
    """Coherent blending: two full-screen triangles in one draw, MULTIPLY with an
    opaque (0.5, 0.25, 1, 1) over opaque (0.5, 1, 0.5, 1) gives dst * src * src."""
    ctx = _gles31()
    dst = np.tile(np.array([128, 255, 128, 255], np.uint8), (H, W, 1))
    _target(ctx, dst)
    prog = glhelp.program(ctx, VS, FS_CONST.format(layout="layout(blend_support_multiply) out;\n"))
    glhelp.vertices(ctx, prog, np.concatenate([FULL, FULL]), {"p": (2, 0)}, 2)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendEquation(E.GL_MULTIPLY)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    want = np.round(np.array([128 / 255 * 0.25, 1.0 * 0.0625, 128 / 255, 1.0]) * 255)
    assert (np.abs(got.astype(int) - want) <= 1).all(), (got[0], want)


def test_desktop_gl_with_the_extension():
    """Desktop GL 4.x lists it too; GLSL 1.50+ with the #extension."""
    ctx = glhelp.context(W, H, api="gl43")
    assert "GL_KHR_blend_equation_advanced" in ctx.extensions
    _target(ctx, np.tile(np.array([255, 128, 0, 255], np.uint8), (H, W, 1)))
    vs = "#version 150\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
    fs = ("#version 150\n#extension GL_KHR_blend_equation_advanced : require\n"
          "layout(blend_support_screen) out;\nout vec4 o;\nvoid main() { o = vec4(0.0, 0.5, 1.0, 1.0); }\n")
    prog = glhelp.program(ctx, vs, fs)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    glhelp.vertices(ctx, prog, FULL, {"p": (2, 0)}, 2)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendEquation(E.GL_SCREEN)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    d = 128 / 255
    assert np.abs(got.astype(int) - np.round(np.array([1.0, 0.5 + d - 0.5 * d, 1.0, 1.0]) * 255)).max() <= 1, got
