"""More than four clip distances (GL 4.6 section 13.7: up to GL_MAX_CLIP_DISTANCES,
8 here), written by the vertex stage or by the geometry stage (whose rasterisation
pass copies them to its own vertex outputs).

Each distance is a linear function of the window position, so its interpolated value
at a pixel centre is exact: a pixel is drawn when every enabled distance is >= 0 there.
The eight distances cut a regular octagon out of a full-screen quad; the expected
image is that octagon computed with numpy at the pixel centres (pixels within half a
pixel of an edge are not compared)."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W = H = 32
N = 8
RADIUS = 0.7
ANGLES = [2 * np.pi * i / N + np.pi / N for i in range(N)]

# distance i at clip-space (x, y): RADIUS - (x cos a_i + y sin a_i), in GLSL
_DISTANCES = "\n".join(
    f"    gl_ClipDistance[{i}] = {RADIUS!r} - dot(p, vec2({float(np.cos(a))!r}, {float(np.sin(a))!r}));"
    for i, a in enumerate(ANGLES))

VS = f"""#version 150
in vec2 pos;
void main() {{
    vec2 p = pos;
    gl_Position = vec4(p, 0.0, 1.0);
{_DISTANCES}
}}
"""
VS_POINT = """#version 150
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }
"""
# one point in, the full-screen quad out, the distances written per emitted vertex
GS = f"""#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out float gl_ClipDistance[{N}];
void main() {{
    for (int k = 0; k < 4; k++) {{
        vec2 p = vec2(k & 1, k >> 1) * 2.0 - 1.0;
        gl_Position = vec4(p, 0.0, 1.0);
{_DISTANCES}
        EmitVertex();
    }}
}}
"""
FS = """#version 150
out vec4 colour;
void main() { colour = vec4(0.0, 1.0, 0.0, 1.0); }
"""


def _expected(enabled: int):
    """(drawn, compared): pixel centres inside every enabled half-plane, and those
    farther than half a pixel from each enabled edge."""
    x = (np.arange(W) + 0.5) / W * 2 - 1
    y = (np.arange(H) + 0.5) / H * 2 - 1
    X, Y = np.meshgrid(x, y)
    drawn = np.ones((H, W), bool)
    compared = np.ones((H, W), bool)
    for i, a in enumerate(ANGLES):
        if enabled >> i & 1:
            d = RADIUS - (X * np.cos(a) + Y * np.sin(a))
            drawn &= d >= 0
            compared &= np.abs(d) > 1.0 / W      # half a pixel in clip units is 1/W
    return drawn, compared


def _draw(ctx, enabled: int, draw) -> np.ndarray:
    for i in range(N):
        (ctx.glEnable if enabled >> i & 1 else ctx.glDisable)(E.GL_CLIP_DISTANCE0 + i)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    draw()
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)[..., 1] == 255


def _check(ctx, draw):
    # all eight, then five (distances 0..4), then every other one: the octagon's shapes
    for enabled in (0xFF, 0x1F, 0xAA):
        drawn, compared = _expected(enabled)
        got = _draw(ctx, enabled, draw)
        assert drawn.sum() > 100 and compared.sum() > 0.8 * W * H
        bad = (got != drawn) & compared
        assert not bad.any(), f"planes {enabled:#x}: {bad.sum()} pixels differ, first at {np.argwhere(bad)[0]}"


def test_vertex_stage_writes_eight_clip_distances():
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS, E.GL_FRAGMENT_SHADER: FS})
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    _check(ctx, lambda: ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4))


def test_geometry_stage_writes_eight_clip_distances():
    ctx = glhelp.context(W, H, api="compat")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_POINT, E.GL_GEOMETRY_SHADER: GS, E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _check(ctx, lambda: ctx.glDrawArrays(E.GL_POINTS, 0, 1))


@pytest.mark.parametrize("n", [5, 8])
def test_geometry_stage_copies_the_vertex_stage_distances(n):
    """gl_ClipDistance = gl_in[i].gl_ClipDistance (the whole array) for n distances: the
    vertex stage's values reach the clipper through the geometry stage."""
    vs = VS if n == N else VS.split(f"    gl_ClipDistance[{n}]")[0] + "}\n"
    gs = f"""#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in gl_PerVertex {{ vec4 gl_Position; float gl_ClipDistance[{n}]; }} gl_in[];
out gl_PerVertex {{ vec4 gl_Position; float gl_ClipDistance[{n}]; }};
void main() {{
    for (int k = 0; k < 3; k++) {{
        gl_Position = gl_in[k].gl_Position;
        gl_ClipDistance = gl_in[k].gl_ClipDistance;
        EmitVertex();
    }}
}}
"""
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: FS})
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    glhelp.vertices(ctx, prog, quad, {"pos": (2, 0)}, 2)
    enabled = (1 << n) - 1
    drawn, compared = _expected(enabled)
    got = _draw(ctx, enabled, lambda: ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4))
    bad = (got != drawn) & compared
    assert not bad.any(), f"{bad.sum()} pixels differ"


TCS_COPY = """#version 400
layout(vertices = 3) out;
in gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[3]; } gl_in[];
out gl_PerVertex { vec4 gl_Position; float gl_ClipDistance[3]; } gl_out[];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_out[gl_InvocationID].gl_ClipDistance = gl_in[gl_InvocationID].gl_ClipDistance;
    float first[3] = gl_in[0].gl_ClipDistance;
    gl_TessLevelOuter[0] = first.length();
}
"""


def test_redeclared_per_vertex_arrays_have_the_declared_distance_sizes():
    """GLSL 1.50 section 7.1: gl_ClipDistance may be sized in a redeclaration of
    gl_PerVertex; gl_in[i].gl_ClipDistance (and the control stage's gl_out) then has
    that type, so whole-array copies between float[3] arrays compile."""
    from compiler.glsl import parse
    parse(TCS_COPY, "tess_control")         # raises GLSLCompileError with the log otherwise
