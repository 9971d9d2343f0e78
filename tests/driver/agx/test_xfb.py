"""Transform feedback (GLES 3.0): the vertex shader's outputs captured into the bound
buffers, interleaved and separate, for points, lines and triangles, with
TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN; checked against numpy."""

from __future__ import annotations

import numpy as np
import pytest

from .glhelp import context

VS = """#version 300 es
in vec4 p;
out vec3 a;
flat out int k;
void main() { gl_Position = p * 2.0; a = p.zyx + 1.0; k = gl_VertexID * 10 + gl_InstanceID; }"""
FS = """#version 300 es
precision highp float;
in vec3 a;
flat in int k;
out vec4 o;
void main() { o = vec4(a, float(k)); }"""


def _program(ctx, varyings, mode):
    p = ctx.glCreateProgram()
    for kind, src in ((ctx.GL_VERTEX_SHADER, VS), (ctx.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, ctx.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _read(ctx, buf, n):
    ctx.glBindBuffer(ctx.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    view = ctx.glMapBufferRange(ctx.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * n, ctx.GL_MAP_READ_BIT)
    out = np.frombuffer(bytes(view), np.float32).copy()
    ctx.glUnmapBuffer(ctx.GL_TRANSFORM_FEEDBACK_BUFFER)
    return out


@pytest.mark.parametrize("prim,per", [("GL_POINTS", 1), ("GL_LINES", 2), ("GL_TRIANGLES", 3)])
@pytest.mark.parametrize("interleaved", [True, False])
def test_capture_matches_numpy(prim, per, interleaved):
    n_vert, first, inst = 7, 2, 2                     # 7 vertices from 2: whole primitives only
    used = n_vert // per * per
    verts = np.random.default_rng(per).random((first + n_vert, 4)).astype(np.float32)
    with context(16, 16) as ctx:
        mode = ctx.GL_INTERLEAVED_ATTRIBS if interleaved else ctx.GL_SEPARATE_ATTRIBS
        p = _program(ctx, ["gl_Position", "a", "k"], mode)
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        vbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, vbo)
        ctx.glBufferData(ctx.GL_ARRAY_BUFFER, verts.nbytes, verts, ctx.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(p, "p")
        ctx.glVertexAttribPointer(loc, 4, ctx.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        total = 2 * used * inst                       # two draws, appended
        sizes = [8 * total] if interleaved else [4 * total, 3 * total, total]
        bufs = ctx.glGenBuffers(len(sizes))
        for i, (b, n) in enumerate(zip(bufs, sizes)):
            ctx.glBindBuffer(ctx.GL_TRANSFORM_FEEDBACK_BUFFER, b)
            ctx.glBufferData(ctx.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * n, np.full(n, -7, np.float32), ctx.GL_STREAM_READ)
            ctx.glBindBufferBase(ctx.GL_TRANSFORM_FEEDBACK_BUFFER, i, b)
        q = ctx.glGenQueries(1)[0]
        ctx.glEnable(ctx.GL_RASTERIZER_DISCARD)
        ctx.glBeginQuery(ctx.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
        ctx.glBeginTransformFeedback(getattr(ctx, prim))
        ctx.glDrawArraysInstanced(getattr(ctx, prim), first, n_vert - n_vert % per, inst)
        ctx.glDrawArraysInstanced(getattr(ctx, prim), first, n_vert - n_vert % per, inst)
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(ctx.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        written = ctx.glGetQueryObjectuiv(q, ctx.GL_QUERY_RESULT)[0]
        got = [_read(ctx, b, n) for b, n in zip(bufs, sizes)]
        assert ctx.glGetError() == 0
    assert written == 2 * used // per * inst
    vid = np.tile(np.arange(first, first + used), inst)
    iid = np.repeat(np.arange(inst), used)
    v = verts[vid]
    pos, a = v * 2, v[:, [2, 1, 0]] + 1
    k = (vid * 10 + iid).astype(np.int32)
    if interleaved:
        rec = got[0].reshape(-1, 8)
        pos_g, a_g, k_g = rec[:, :4], rec[:, 4:7], rec[:, 7].view(np.int32)
    else:
        pos_g, a_g, k_g = got[0].reshape(-1, 4), got[1].reshape(-1, 3), got[2].view(np.int32)
    for g, e in ((pos_g, pos), (a_g, a), (k_g, k)):
        np.testing.assert_allclose(g[:len(e)], e, rtol=1e-6)        # first draw
        np.testing.assert_allclose(g[len(e):], e, rtol=1e-6)        # second draw, appended
