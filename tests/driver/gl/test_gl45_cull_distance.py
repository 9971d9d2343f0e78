"""GL_ARB_cull_distance (GL 4.5): gl_CullDistance, culled by the PPP (a
primitive with one cull distance negative at all its vertices is discarded
whole; a primitive with a non-negative vertex is drawn whole, not clipped)."""

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

# 4 triangles: two quads, left x in [-1, 0], right x in [0, 1]; per quad the
# lower-right triangle first (a, b, c), then the upper-left one (a, c, d)
VS = """{header}
uniform vec2 d[12];
void main() {{
    int q = gl_VertexID / 6, k = gl_VertexID % 6;
    ivec2 corner[6] = ivec2[6](ivec2(0, 0), ivec2(1, 0), ivec2(1, 1), ivec2(0, 0), ivec2(1, 1), ivec2(0, 1));
    vec2 p = vec2(corner[k]) * vec2(1.0, 2.0) + vec2(float(q) - 1.0, -1.0);
    gl_Position = vec4(p, 0.0, 1.0);
    gl_CullDistance[0] = d[gl_VertexID].x;
    gl_CullDistance[1] = d[gl_VertexID].y;
}}
"""
FS = """{header}
out vec4 o;
void main() {{ o = vec4(1.0, 1.0, 0.0, 1.0); }}
"""
W, H = 8, 4


def _draw(header, distances):
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.program(ctx, VS.format(header=header), FS.format(header=header))
    ctx.glUniform2fv(ctx.glGetUniformLocation(prog, "d"), 12, np.asarray(distances, np.float32).ravel())
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 12)
    expect(ctx, E.GL_NO_ERROR)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


@pytest.mark.parametrize("header", ["#version 450", "#version 130\n#extension GL_ARB_cull_distance : require"])
def test_primitives_negative_at_every_vertex_are_culled_whole(header):
    """Left quad: distance 0 negative everywhere -> both triangles culled.
    Right quad: triangle 2 has distance 0 = (-1, -1, +1) -> drawn whole (it is not
    clipped where the interpolated distance is negative); triangle 3 has distance 1
    negative at its three vertices -> culled."""
    d = [(-1, 1)] * 6 + [(-1, 1), (-1, 1), (1, 1), (5, -1), (5, -2), (5, -3)]
    img = _draw(header, d)
    assert (img[:, :W // 2] == 0).all()
    right = img[:, W // 2:]
    # pixel centres of the lower-right triangle of the right quad: x >= y in the quad's 4x4 grid
    ys, xs = np.mgrid[0:H, 0:W // 2]
    lower_right = (xs + 0.5) / (W // 2) >= (ys + 0.5) / H
    assert (right[lower_right] == [255, 255, 0, 255]).all()
    assert (right[~lower_right] == 0).all()


def test_nothing_negative_draws_everything():
    img = _draw("#version 450", [(0.0, 2.0)] * 12)          # zero is not negative
    assert (img[..., 1] == 255).all()


def test_limits_and_constants():
    ctx = glhelp.context(4, 4, api="compat")
    assert ctx.glGetIntegerv(E.GL_MAX_CULL_DISTANCES) == [8]
    assert ctx.glGetIntegerv(E.GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES) == [8]
    parse("#version 450\nconst int n = gl_MaxCullDistances + gl_MaxCombinedClipAndCullDistances;\n"
          "void main() { gl_CullDistance[n - 9] = 1.0; }\n", "vertex")
    with pytest.raises(GLSLCompileError, match="gl_CullDistance"):
        parse("#version 440\nvoid main() { gl_CullDistance[0] = 1.0; }\n", "vertex")


def test_listed():
    ctx = glhelp.context(4, 4, api="compat")
    assert "GL_ARB_cull_distance" in ctx.extensions
    assert ctx.api.version >= (4, 5)
