"""Instanced draws with per-instance attributes (glVertexAttribDivisor): one draw runs
every instance, gl_InstanceID counts from 0, and per-instance attributes are fetched
at element ``instance / divisor``; checked against pixels computed with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from .glhelp import context, program

W = H = 64
N = 8

VS = """#version 300 es
in vec2 pos;
in vec2 off;
in vec4 col;
out vec4 v;
void main() {
    vec2 p = pos + off + vec2(0.0, 1.0) * float(gl_InstanceID % 2);
    gl_Position = vec4(p, 0.0, 1.0);
    v = vec4(col.rg, float(gl_InstanceID) / 8.0, 1.0);
}"""

FS = """#version 300 es
precision highp float;
in vec4 v;
out vec4 o;
void main() { o = v; }"""

# an 8x8-pixel square at the bottom-left corner (NDC [-1, -0.75])
SQUARE = np.array([[-1, -1], [-0.75, -1], [-1, -0.75], [-0.75, -1], [-0.75, -0.75], [-1, -0.75]], np.float32)


def _expected(offs, cols, off_div, col_div):
    img = np.zeros((H, W, 4), np.int32)
    for i in range(N):
        ox, oy = offs[i // off_div]
        oy += 1.0 * (i % 2)
        x0, y0 = int(round(ox * W / 2)), int(round(oy * H / 2))
        r, g = cols[i // col_div][:2]
        img[y0:y0 + 8, x0:x0 + 8] = (r, g, round(i / 8 * 255), 255)
    return img


def _setup(ctx, off_div, col_div, offs, cols):
    p = program(ctx, VS, FS)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    bufs = ctx.glGenBuffers(3)
    for name, buf, data, n, gltype, norm, div in (
            ("pos", bufs[0], SQUARE, 2, ctx.GL_FLOAT, False, 0),
            ("off", bufs[1], offs, 2, ctx.GL_FLOAT, False, off_div),
            ("col", bufs[2], cols, 4, ctx.GL_UNSIGNED_BYTE, True, col_div)):
        loc = ctx.glGetAttribLocation(p, name)
        assert loc >= 0, name
        ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data, ctx.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(loc, n, gltype, norm, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        ctx.glVertexAttribDivisor(loc, div)
    return p


def _tables(off_div):
    # offsets (NDC) of the square: cell (column, row) of 16 px; odd instances move up 2 rows in the shader
    if off_div == 1:
        offs = [(0.5 * (i % 4), 0.5 * (i // 4)) for i in range(N)]
    else:
        offs = [(0.5 * i, 0.0) for i in range(N // off_div)]
    cols = np.random.default_rng(off_div).integers(16, 256, (N, 4)).astype(np.uint8)
    return np.array(offs, np.float32), cols


def _batch_draws(ctx):
    return ctx.pipe.render_batch().draws


@pytest.mark.parametrize("indexed", [False, True])
@pytest.mark.parametrize("off_div,col_div", [(1, 2), (2, 1), (1, 3)])
def test_per_instance_attributes_one_draw(off_div, col_div, indexed):
    offs, cols = _tables(off_div)
    with context(W, H) as ctx:
        _setup(ctx, off_div, col_div, offs, cols)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
        if indexed:
            ibo = ctx.glGenBuffers(1)[0]
            ctx.glBindBuffer(ctx.GL_ELEMENT_ARRAY_BUFFER, ibo)
            idx = np.array([5, 4, 3, 2, 1, 0], np.uint16)
            ctx.glBufferData(ctx.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx, ctx.GL_STATIC_DRAW)
        before = _batch_draws(ctx)
        if indexed:
            ctx.glDrawElementsInstanced(ctx.GL_TRIANGLES, 6, ctx.GL_UNSIGNED_SHORT, 0, N)
        else:
            ctx.glDrawArraysInstanced(ctx.GL_TRIANGLES, 0, 6, N)
        assert _batch_draws(ctx) - before == 1, "instanced draw split into several draws"
        img = ctx.read_pixels().astype(np.int32)
        assert ctx.glGetError() == 0
    exp = _expected(offs, cols, off_div, col_div)
    diff = np.abs(img - exp).max(axis=2)
    assert diff.max() <= 1, np.argwhere(diff > 1)[:8]


def test_per_instance_integer_attribute():
    """A pure-integer per-instance attribute (glVertexAttribIPointer) reaches an ivec
    input unconverted, and a float input converted."""
    vs = """#version 300 es
    in vec2 pos;
    in ivec2 cell;
    in uint level;
    flat out uint lv;
    void main() {
        gl_Position = vec4(pos + vec2(cell) * 0.5, 0.0, 1.0);
        lv = level + uint(gl_InstanceID);
    }"""
    fs = """#version 300 es
    precision highp float;
    flat in uint lv;
    out vec4 o;
    void main() { o = vec4(float(lv) / 255.0, 0.0, 0.0, 1.0); }"""
    cells = np.array([[i % 4, i // 4] for i in range(N // 2)], np.int32)       # divisor 2: 4 entries
    levels = np.arange(N, dtype=np.uint32) * 20 + 7                             # divisor 1
    with context(W, H) as ctx:
        p = program(ctx, vs, fs)
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        bufs = ctx.glGenBuffers(3)
        ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, bufs[0])
        ctx.glBufferData(ctx.GL_ARRAY_BUFFER, SQUARE.nbytes, SQUARE, ctx.GL_STATIC_DRAW)
        loc = ctx.glGetAttribLocation(p, "pos")
        ctx.glVertexAttribPointer(loc, 2, ctx.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(loc)
        for name, buf, data, n, gltype, div in (("cell", bufs[1], cells, 2, ctx.GL_INT, 2),
                                                ("level", bufs[2], levels, 1, ctx.GL_UNSIGNED_INT, 1)):
            loc = ctx.glGetAttribLocation(p, name)
            ctx.glBindBuffer(ctx.GL_ARRAY_BUFFER, buf)
            ctx.glBufferData(ctx.GL_ARRAY_BUFFER, data.nbytes, data, ctx.GL_STATIC_DRAW)
            ctx.glVertexAttribIPointer(loc, n, gltype, 0, 0)
            ctx.glEnableVertexAttribArray(loc)
            ctx.glVertexAttribDivisor(loc, div)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArraysInstanced(ctx.GL_TRIANGLES, 0, 6, N)
        img = ctx.read_pixels().astype(np.int32)
    exp = np.zeros((H, W), np.int32)
    for i in range(N):      # instances 2k and 2k+1 share a cell: the later one is drawn on top
        cx, cy = cells[i // 2]
        exp[16 * cy:16 * cy + 8, 16 * cx:16 * cx + 8] = levels[i] + i
    assert np.abs(img[..., 0] - exp).max() <= 1
