"""Speed of draws with a geometry shader (driver/gl/geometry.py: vertex pass, geometry
kernel, prefix sum, compaction, rasterisation) against the same picture drawn
without one, at 256x256. Wall time of glDrawArrays + glFinish, best of a few runs,
shaders compiled before timing (the first draw of each is not timed)."""

from __future__ import annotations

import time

import numpy as np

import driver
from driver.gl import enums as E

SIZE = 256

VS = """#version 150
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
GS = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 gcol;
void main() {
    vec4 c = gl_in[0].gl_Position;
    for (int k = 0; k < 4; k++) {
        gl_Position = c + vec4((k & 1) == 0 ? -0.01 : 0.01, k < 2 ? -0.01 : 0.01, 0.0, 0.0);
        gcol = vec4(1.0, 0.5, 0.25, 1.0);
        EmitVertex();
    }
}
"""
FS_GS = "#version 150\nin vec4 gcol;\nout vec4 f;\nvoid main() { f = gcol; }\n"
FS = "#version 150\nout vec4 f;\nvoid main() { f = vec4(1.0, 0.5, 0.25, 1.0); }\n"


def _program(ctx, stages):
    p = ctx.glCreateProgram()
    for kind, src in stages:
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    return p


def _bind(ctx, p, data):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)


def _best_ms(ctx, draw, repeat=3):
    draw()
    ctx.glFinish()
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        draw()
        ctx.glFinish()
        best = min(best, time.perf_counter() - t0)
    return best * 1e3


def run():
    rows = []
    rng = np.random.default_rng(3)
    with driver.Context(api="gl33", width=SIZE, height=SIZE) as ctx:
        for n in (100, 2000):
            centres = rng.uniform(-0.9, 0.9, (n, 2)).astype(np.float32)
            p = _program(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, GS), (E.GL_FRAGMENT_SHADER, FS_GS)))
            ctx.glUseProgram(p)
            _bind(ctx, p, centres)
            ms = _best_ms(ctx, lambda: ctx.glDrawArrays(E.GL_POINTS, 0, n))
            rows.append((f"geometry: {n} points -> quads through a geometry shader", ms, "5 passes"))
            quads = np.repeat(centres, 6, axis=0) + np.tile(
                np.array([[-1, -1], [1, -1], [-1, 1], [-1, 1], [1, -1], [1, 1]], np.float32) * 0.01, (n, 1))
            q = _program(ctx, ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)))
            ctx.glUseProgram(q)
            _bind(ctx, q, quads.astype(np.float32))
            ms = _best_ms(ctx, lambda: ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6 * n))
            rows.append((f"geometry: the same {n} quads as triangles, no geometry shader", ms, "reference"))
    return rows
