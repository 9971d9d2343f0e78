"""Small GL helpers for the rendering tests (driver.Context, GLES 3.x style)."""

from __future__ import annotations

import numpy as np

import driver


def context(w=64, h=64, api="gles3"):
    return driver.Context(api=api, width=w, height=h)


def compile_shader(ctx, kind: int, src: str) -> int:
    """A compiled shader object (the test fails with the info log otherwise)."""
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, ctx.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    return s


def link(ctx, stages: dict[int, str]) -> int:
    """A linked program of ``stages`` (shader kind -> source), made current."""
    p = ctx.glCreateProgram()
    for kind, src in stages.items():
        ctx.glAttachShader(p, compile_shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, ctx.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def program(ctx, vs: str, fs: str) -> int:
    return link(ctx, {ctx.GL_VERTEX_SHADER: vs, ctx.GL_FRAGMENT_SHADER: fs})


def compute_program(ctx, cs: str) -> int:
    return link(ctx, {ctx.GL_COMPUTE_SHADER: cs})


def renderbuffer_target(ctx, internal_format: int, w: int, h: int, attachment: int | None = None) -> int:
    """A new framebuffer, bound for drawing and reading, whose ``attachment``
    (default colour 0) is a new ``internal_format`` renderbuffer of w x h."""
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(ctx.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(ctx.GL_RENDERBUFFER, internal_format, w, h)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0 if attachment is None else attachment,
                                  ctx.GL_RENDERBUFFER, rb)
    return fb


def vertices(ctx, prog, data, layout_: dict[str, tuple[int, int]], stride_floats: int) -> int:
    """Upload float32 ``data``; ``layout_`` attribute name -> (components, first float)."""
    data = np.ascontiguousarray(data, np.float32)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data, ctx.GL_STATIC_DRAW)
    for name, (n, first) in layout_.items():
        loc = ctx.glGetAttribLocation(prog, name)
        assert loc >= 0, name
        ctx.glVertexAttribPointer(loc, n, ctx.GL_FLOAT, False, 4 * stride_floats, 4 * first)
        ctx.glEnableVertexAttribArray(loc)
    return vao


def pixel_centres(w, h):
    """NDC of pixel centres: (y, x) grids."""
    x = (np.arange(w) + 0.5) / w * 2 - 1
    y = (np.arange(h) + 0.5) / h * 2 - 1
    return np.meshgrid(x, y)


def barycentric(tri, X, Y):
    """Barycentric weights (3, h, w) of NDC points for a triangle [(x, y)] * 3."""
    (x0, y0), (x1, y1), (x2, y2) = tri
    d = (y1 - y2) * (x0 - x2) + (x2 - x1) * (y0 - y2)
    a = ((y1 - y2) * (X - x2) + (x2 - x1) * (Y - y2)) / d
    b = ((y2 - y0) * (X - x2) + (x0 - x2) * (Y - y2)) / d
    return np.stack([a, b, 1 - a - b])


def interior(w_bary, margin=0.02):
    return (w_bary > margin).all(axis=0)


def exterior(w_bary, margin=0.02):
    return (w_bary < -margin).any(axis=0)


VS_COLOR = """#version 300 es
in vec4 pos; in vec4 col; out vec4 v_col;
void main(){ gl_Position = pos; v_col = col; }"""
FS_COLOR = """#version 300 es
precision highp float;
in vec4 v_col; out vec4 color;
void main(){ color = v_col; }"""
