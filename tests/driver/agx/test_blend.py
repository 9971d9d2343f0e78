"""Every blend factor and equation (one scissored column per combination, one frame),
against GL's blending formulas in numpy; more primitive types."""

import numpy as np
import pytest

from tests.driver.agx.glhelp import context, program, vertices

FACTORS = ["GL_ZERO", "GL_ONE", "GL_SRC_COLOR", "GL_ONE_MINUS_SRC_COLOR", "GL_DST_COLOR", "GL_ONE_MINUS_DST_COLOR",
           "GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA", "GL_DST_ALPHA", "GL_ONE_MINUS_DST_ALPHA", "GL_CONSTANT_COLOR",
           "GL_ONE_MINUS_CONSTANT_COLOR", "GL_CONSTANT_ALPHA", "GL_ONE_MINUS_CONSTANT_ALPHA", "GL_SRC_ALPHA_SATURATE"]
EQUATIONS = ["GL_FUNC_ADD", "GL_FUNC_SUBTRACT", "GL_FUNC_REVERSE_SUBTRACT", "GL_MIN", "GL_MAX"]


def _factor(name, s, d, c, is_dst):
    one = np.ones(4)
    table = {"GL_ZERO": 0 * one, "GL_ONE": one, "GL_SRC_COLOR": s, "GL_ONE_MINUS_SRC_COLOR": 1 - s,
             "GL_DST_COLOR": d, "GL_ONE_MINUS_DST_COLOR": 1 - d, "GL_SRC_ALPHA": s[3] * one,
             "GL_ONE_MINUS_SRC_ALPHA": (1 - s[3]) * one, "GL_DST_ALPHA": d[3] * one,
             "GL_ONE_MINUS_DST_ALPHA": (1 - d[3]) * one, "GL_CONSTANT_COLOR": c, "GL_ONE_MINUS_CONSTANT_COLOR": 1 - c,
             "GL_CONSTANT_ALPHA": c[3] * one, "GL_ONE_MINUS_CONSTANT_ALPHA": (1 - c[3]) * one}
    if name == "GL_SRC_ALPHA_SATURATE":
        f = min(s[3], 1 - d[3])
        return np.array([f, f, f, 1.0])
    return table[name]


def _blend(eq, sf, df, s, d, c):
    a, b = s * _factor(sf, s, d, c, False), d * _factor(df, s, d, c, True)
    out = {"GL_FUNC_ADD": a + b, "GL_FUNC_SUBTRACT": a - b, "GL_FUNC_REVERSE_SUBTRACT": b - a,
           "GL_MIN": np.minimum(s, d), "GL_MAX": np.maximum(s, d)}[eq]
    return np.clip(out, 0, 1)


def test_every_blend_factor_and_equation():
    combos = [("GL_FUNC_ADD", f, "GL_ONE") for f in FACTORS] + \
             [("GL_FUNC_ADD", "GL_ONE", f) for f in FACTORS if f != "GL_SRC_ALPHA_SATURATE"] + \
             [(e, "GL_SRC_ALPHA", "GL_ONE_MINUS_SRC_ALPHA") for e in EQUATIONS]
    n = len(combos)
    ctx = context(n, 4)
    p = program(ctx, """#version 300 es
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", """#version 300 es
    precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }""")
    vertices(ctx, p, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"pos": (2, 0)}, 2)
    s = np.array([0.8, 0.3, 0.55, 0.35])
    d = np.array([0.2, 0.6, 0.9, 0.7])
    const = np.array([0.4, 0.25, 0.75, 0.6])
    ctx.glClearColor(*d)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(ctx.GL_BLEND)
    ctx.glEnable(ctx.GL_SCISSOR_TEST)
    ctx.glBlendColor(*const)
    ctx.glUniform4f(ctx.glGetUniformLocation(p, "c"), *s)
    for i, (eq, sf, df) in enumerate(combos):
        ctx.glScissor(i, 0, 1, 4)
        ctx.glBlendEquation(getattr(ctx, eq))
        ctx.glBlendFunc(getattr(ctx, sf), getattr(ctx, df))
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels().astype(int)
    dq = np.round(d * 255) / 255
    for i, (eq, sf, df) in enumerate(combos):
        want = _blend(eq, sf, df, s, dq, const) * 255
        assert np.abs(img[:, i] - want).max() <= 2, (eq, sf, df, img[0, i], want)


@pytest.mark.parametrize("mode, api", [("GL_LINE_STRIP", "gles3"), ("GL_QUAD_STRIP", "compat"), ("GL_POLYGON", "compat")])
def test_more_primitive_types(mode, api):
    ctx = context(16, 16, api=api)
    vs = "#version 120\nattribute vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }" if api == "compat" \
        else "#version 300 es\nin vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"
    fs = "#version 120\nvoid main(){ gl_FragColor = vec4(1.0); }" if api == "compat" \
        else "#version 300 es\nprecision highp float; out vec4 c; void main(){ c = vec4(1.0); }"
    p = program(ctx, vs, fs)
    if mode == "GL_LINE_STRIP":
        v = [[-1, 0.0625], [0.0625, 0.0625], [0.0625, 1]]          # along row 8, then up column 8
    elif mode == "GL_QUAD_STRIP":
        v = [[-1, -1], [-1, 1], [0, -1], [0, 1], [1, -1], [1, 1]]  # two quads: the whole window
    else:
        v = [[-1, -1], [1, -1], [1, 1], [0, 1.5], [-1, 1]]           # a convex pentagon covering all
    vertices(ctx, p, np.array(v, np.float32), {"pos": (2, 0)}, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(getattr(ctx, mode), 0, len(v))
    img = ctx.read_pixels()[..., 0]
    if mode == "GL_LINE_STRIP":
        assert (img[8, :8] == 255).all() and (img[9:, 8] == 255).all() and img.sum() <= 255 * 17
    else:
        assert (img == 255).all()


def test_every_stencil_op_and_depth_func():
    ops = ["GL_KEEP", "GL_ZERO", "GL_REPLACE", "GL_INCR", "GL_DECR", "GL_INVERT", "GL_INCR_WRAP", "GL_DECR_WRAP"]
    starts = [0, 255]
    ctx = context(len(ops) * 2, 2, api="gl33")
    p = program(ctx, """#version 330
    in vec3 pos; void main(){ gl_Position = vec4(pos, 1.0); }""", """#version 330
    out vec4 color; void main(){ color = vec4(1.0); }""")
    vertices(ctx, p, np.array([[-1, -1, 0], [3, -1, 0], [-1, 3, 0]], np.float32), {"pos": (3, 0)}, 3)
    ctx.glEnable(ctx.GL_SCISSOR_TEST)
    ctx.glEnable(ctx.GL_STENCIL_TEST)
    want = []
    for j, start in enumerate(starts):
        for i, op in enumerate(ops):
            col = j * len(ops) + i
            ctx.glScissor(col, 0, 1, 2)
            ctx.glClearStencil(start)
            ctx.glClear(ctx.GL_STENCIL_BUFFER_BIT)
            ctx.glStencilFunc(ctx.GL_ALWAYS, 0x5A, 0xFF)
            ctx.glStencilOp(ctx.GL_KEEP, ctx.GL_KEEP, getattr(ctx, op))
            ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
            want.append({"GL_KEEP": start, "GL_ZERO": 0, "GL_REPLACE": 0x5A, "GL_INCR": min(start + 1, 255),
                         "GL_DECR": max(start - 1, 0), "GL_INVERT": 255 - start, "GL_INCR_WRAP": (start + 1) & 255,
                         "GL_DECR_WRAP": (start - 1) & 255}[op])
    raw = ctx.glReadPixels(0, 0, len(ops) * 2, 2, ctx.GL_STENCIL_INDEX, ctx.GL_UNSIGNED_BYTE)
    got = np.frombuffer(bytes(raw), np.uint8).reshape(2, -1)
    assert (got == np.array(want)).all(), (got[0], want)
    # depth functions: a quad at z = 0 (window 0.5) against a cleared depth of 0.5
    funcs = {"GL_NEVER": 0, "GL_LESS": 0, "GL_EQUAL": 1, "GL_LEQUAL": 1, "GL_GREATER": 0, "GL_NOTEQUAL": 0,
             "GL_GEQUAL": 1, "GL_ALWAYS": 1}
    ctx.glDisable(ctx.GL_STENCIL_TEST)
    ctx.glEnable(ctx.GL_DEPTH_TEST)
    ctx.glClearDepth(0.5)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glScissor(0, 0, len(ops) * 2, 2)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT | ctx.GL_DEPTH_BUFFER_BIT)
    for i, f in enumerate(funcs):
        ctx.glScissor(i, 0, 1, 2)
        ctx.glDepthFunc(getattr(ctx, f))
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels()[0, :len(funcs), 0]
    assert list(img // 255) == list(funcs.values())
