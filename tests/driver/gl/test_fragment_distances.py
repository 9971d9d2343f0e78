"""Fragment-stage reads of gl_ClipDistance and gl_CullDistance (GLSL 4.60 section 7.1,
GL_ARB_cull_distance): "the gl_ClipDistance [gl_CullDistance] array contains linearly
interpolated values for the vertex values written by a shader" - perspective-correct, as
a smooth varying - whether or not clipping is enabled; written by a vertex, geometry or
tessellation evaluation stage. Expected values by hand (numpy for the interpolation)."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W, H = 8, 2


def _pixels(ctx):
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4).astype(int)


def _quad(ctx, p, rows):
    """A strip of four vertices, each row (x, y, z, w, d): position and a distance."""
    data = np.array(rows, np.float32)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    for name, n, first in (("pos", 4, 0), ("d", 1, 4)):
        loc = ctx.glGetAttribLocation(p, name)
        if loc >= 0:
            ctx.glEnableVertexAttribArray(loc)
            ctx.glVertexAttribPointer(loc, n, E.GL_FLOAT, False, 20, 4 * first)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)


CONSTANTS_VS = """#version 450
in vec4 pos;
out float gl_ClipDistance[4];
out float gl_CullDistance[3];
void main() {
    gl_Position = pos;
    for (int i = 0; i < 4; i++) gl_ClipDistance[i] = float(i + 1);
    for (int i = 0; i < 3; i++) gl_CullDistance[i] = float(5 * (i + 1));
}
"""
CONSTANTS_FS = """#version 450
in float gl_ClipDistance[4];
in float gl_CullDistance[3];
out vec4 o;
void main() {
    o = vec4(gl_ClipDistance[1] / 4.0, gl_ClipDistance[3] / 4.0, gl_CullDistance[0] / 20.0,
             gl_CullDistance[2] / 20.0);
}
"""
FULL = [(-1, -1, 0, 1, 0), (1, -1, 0, 1, 0), (-1, 1, 0, 1, 0), (1, 1, 0, 1, 0)]


@pytest.mark.parametrize("clip_enabled", [False, True])
def test_constant_distances_arrive(clip_enabled):
    """Clip distances 1..4 and cull distances 5, 10, 15, all positive (nothing clipped nor
    culled), read back: (2/4, 4/4, 5/20, 15/20) = (128, 255, 64, 191) at every pixel,
    with and without GL_CLIP_DISTANCE0..3 enabled (piglit's
    fs-cull-and-clip-distance-different; it read 0 before)."""
    ctx = glhelp.context(W, H, api="gl46")
    p = glhelp.program(ctx, CONSTANTS_VS, CONSTANTS_FS)
    if clip_enabled:
        for i in range(4):
            ctx.glEnable(E.GL_CLIP_DISTANCE0 + i)
    _quad(ctx, p, FULL)
    assert (_pixels(ctx) == [128, 255, 64, 191]).all()


INTERP_VS = """#version 450
in vec4 pos;
in float d;
out float gl_ClipDistance[1];
out float gl_CullDistance[2];
void main() {
    gl_Position = pos;
    gl_ClipDistance[0] = d;
    gl_CullDistance[0] = 1.0;
    gl_CullDistance[1] = 1.0 - d;
}
"""
INTERP_FS = """#version 450
in float gl_ClipDistance[1];
in float gl_CullDistance[2];
out vec4 o;
void main() { o = vec4(gl_ClipDistance[0], gl_CullDistance[1], gl_CullDistance[0], 1.0); }
"""


def _perspective(d0, d1, w0, w1):
    """The perspective-correct value at each pixel column's centre of a quad whose
    left edge (screen x = -1) has distance d0 and w0, its right edge d1 and w1."""
    lam = (np.arange(W) + 0.5) / W                      # screen-space position across
    return ((1 - lam) * d0 / w0 + lam * d1 / w1) / ((1 - lam) / w0 + lam / w1)


@pytest.mark.parametrize("w_right", [1.0, 3.0])
def test_distances_are_interpolated_perspective_correct(w_right):
    """A quad from screen x = -1 (w = 1, d = 0) to x = 1 (w = w_right, d = 1); the
    fragment stage reads d and 1 - d interpolated perspective-correct (with w = 3 on
    the right the linear values would be (2i + 1) / 16, off by up to 0.3)."""
    ctx = glhelp.context(W, H, api="gl46")
    p = glhelp.program(ctx, INTERP_VS, INTERP_FS)
    wr = w_right
    _quad(ctx, p, [(-1, -1, 0, 1, 0), (wr, -wr, 0, wr, 1), (-1, 1, 0, 1, 0), (wr, wr, 0, wr, 1)])
    px = _pixels(ctx)
    want = _perspective(0.0, 1.0, 1.0, wr)
    for row in px:
        assert np.abs(row[:, 0] - want * 255).max() <= 1.0, (row[:, 0], want * 255)
        assert np.abs(row[:, 1] - (1 - want) * 255).max() <= 1.0
        assert (row[:, 2] == 255).all()


def test_clipped_part_is_gone_and_the_rest_reads_its_distance():
    """GL_CLIP_DISTANCE0 enabled, distance x (-1 .. 1 across the screen): the left half
    is clipped away, the right half reads x at its pixel centres."""
    vs = INTERP_VS.replace("gl_ClipDistance[0] = d;", "gl_ClipDistance[0] = pos.x;")
    ctx = glhelp.context(W, H, api="gl46")
    p = glhelp.program(ctx, vs, INTERP_FS)
    ctx.glEnable(E.GL_CLIP_DISTANCE0)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _quad(ctx, p, FULL)
    px = _pixels(ctx)
    x = -1 + (np.arange(W) + 0.5) * 2 / W
    for row in px:
        assert (row[: W // 2] == 0).all()                                   # clipped: the clear colour
        assert np.abs(row[W // 2:, 0] - x[W // 2:] * 255).max() <= 1.0


GS_VS = """#version 450
in vec4 pos;
out vec4 vpos;
void main() { vpos = pos; gl_Position = pos; }
"""
GS = """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 vpos[];
out float gl_ClipDistance[2];
out float gl_CullDistance[1];
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = gl_in[k].gl_Position;
        gl_ClipDistance[0] = 0.25;
        gl_ClipDistance[1] = vpos[k].x * 0.5 + 0.5;
        gl_CullDistance[0] = 0.75;
        EmitVertex();
    }
    EndPrimitive();
}
"""
GS_FS = """#version 450
in float gl_ClipDistance[2];
in float gl_CullDistance[1];
out vec4 o;
void main() { o = vec4(gl_ClipDistance[0], gl_ClipDistance[1], gl_CullDistance[0], 1.0); }
"""


def test_written_by_a_geometry_stage():
    """The geometry stage writes the distances (its rasterisation pass carries them):
    (0.25, x / 2 + 1/2, 0.75) = (64, ..., 191) at pixel centre x."""
    ctx = glhelp.context(W, H, api="gl46")
    p = glhelp.link(ctx, {E.GL_VERTEX_SHADER: GS_VS, E.GL_GEOMETRY_SHADER: GS, E.GL_FRAGMENT_SHADER: GS_FS})
    _quad(ctx, p, FULL)
    px = _pixels(ctx)
    x = -1 + (np.arange(W) + 0.5) * 2 / W
    for row in px:
        assert (row[:, 0] == 64).all() and (row[:, 2] == 191).all()
        assert np.abs(row[:, 1] - (x * 0.5 + 0.5) * 255).max() <= 1.0


TES = """#version 450
layout(quads, equal_spacing, ccw) in;
out float gl_ClipDistance[1];
out float gl_CullDistance[1];
void main() {
    vec2 uv = gl_TessCoord.xy;
    gl_Position = vec4(uv * 2.0 - 1.0, 0.0, 1.0);
    gl_ClipDistance[0] = uv.x;
    gl_CullDistance[0] = 0.5;
}
"""
TES_VS = """#version 450
void main() { gl_Position = vec4(0.0); }
"""
TES_FS = """#version 450
in float gl_ClipDistance[1];
in float gl_CullDistance[1];
out vec4 o;
void main() { o = vec4(gl_ClipDistance[0], gl_CullDistance[0], 0.0, 1.0); }
"""


def test_written_by_a_tessellation_evaluation_stage():
    """One quad patch (default outer/inner levels 1) covering the screen: the evaluation
    stage's distances, u (0 .. 1 across) and 0.5, reach the fragment stage."""
    ctx = glhelp.context(W, H, api="gl46")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: TES_VS, E.GL_TESS_EVALUATION_SHADER: TES,
                      E.GL_FRAGMENT_SHADER: TES_FS})
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
    px = _pixels(ctx)
    u = (np.arange(W) + 0.5) / W
    for row in px:
        assert np.abs(row[:, 0] - u * 255).max() <= 1.0, row[:, 0]
        assert (row[:, 1] == 128).all()
