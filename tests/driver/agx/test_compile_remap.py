"""The default block's per-draw copies from the GL front end's layout into the
compiler's (driver/agx/compile.py ``_remap``): runs contiguous on both sides are one
copy, so a matrix or an array of vec4 costs one copy per draw, not one per column
or element, and the values still land where the shader reads them."""

from __future__ import annotations

import numpy as np

from driver.agx.compile import _merged
from tests.driver.agx import glhelp


def test_contiguous_runs_merge_and_nothing_else():
    copies = [(16, 80, 16, "regs", 0), (0, 64, 16, "regs", 0), (32, 96, 16, "regs", 0),
              (48, 200, 16, "regs", 0), (8, 8, 8, "ubo", 0), (0, 0, 8, "ubo", 0), (16, 16, 8, "ubo", 1)]
    assert _merged(copies) == [(0, 64, 48, "regs", 0),       # three columns, contiguous on both sides
                               (48, 200, 16, "regs", 0),     # the source follows on, the target does not
                               (0, 0, 16, "ubo", 0),         # out of order in the list: still one run
                               (16, 16, 8, "ubo", 1)]        # another buffer


VS = """#version 300 es
layout(location = 0) in vec4 pos;
uniform mat4 m;
uniform vec4 c[4];
out vec4 v;
void main() { gl_Position = pos; v = m * c[gl_VertexID % 4] + c[3]; }
"""
FS = """#version 300 es
precision highp float;
in vec4 v;
out vec4 o;
void main() { o = v; }
"""


def test_a_matrix_and_a_vec4_array_are_one_copy_each_and_read_right():
    ctx = glhelp.context(4, 4)
    prog = glhelp.program(ctx, VS, FS)
    quad = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (4, 0)}, 4)
    m = np.diag([0.5, 0.25, 0.125, 1.0]).astype(np.float32)
    c = np.array([[0.2, 0.2, 0.2, 0], [0.2, 0.2, 0.2, 0], [0.2, 0.2, 0.2, 0], [0.1, 0.2, 0.3, 1]], np.float32)
    ctx.glUniformMatrix4fv(ctx.glGetUniformLocation(prog, "m"), 1, False, m.T.ravel().tolist())
    ctx.glUniform4fv(ctx.glGetUniformLocation(prog, "c"), 4, c.ravel().tolist())
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE), np.uint8).reshape(4, 4, 4)
    # every vertex reads m * c[i] + c[3] with c[0..2] equal: one colour (hand-computed, +-1/255)
    want = np.round((m @ c[0] + c[3]).clip(0, 1) * 255)
    assert np.abs(px.reshape(-1, 4).astype(int) - want.astype(int)).max() <= 1
    from driver.gallium import PipeShaderType
    (vs,) = ctx.pipe.shaders[PipeShaderType.VERTEX]._variants.values()
    # m (4 columns x 16 B) then c (4 x 16 B), in that order in both layouts: one copy, 8 before
    assert [n for _s, _d, n, _f, _u in vs.info["remap"]] == [128]
