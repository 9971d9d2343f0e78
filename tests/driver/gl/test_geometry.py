"""Geometry shaders through the compute passes (driver/gl/geometry.py): images against
hand-computed expectations, link errors and draw-time errors."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W = H = 32

VS = """#version 150
in vec2 pos;
in vec4 color;
out vec4 vcol;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vcol = color; }
"""
FS = """#version 150
in vec4 gcol;
out vec4 frag;
void main() { frag = gcol; }
"""


def _shader(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    return s


def _program(ctx, gs, vs=VS, fs=FS, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    ok = ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]
    assert bool(ok) == link_ok, ctx.glGetProgramInfoLog(p)
    return p


def _vertices(ctx, p, pos, color=None):
    """Bind a VAO with `pos` (n x 2) and `color` (n x 4, default white) arrays."""
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    pos = np.asarray(pos, np.float32)
    color = np.ones((len(pos), 4), np.float32) if color is None else np.asarray(color, np.float32)
    for name, data, n in (("pos", pos, 2), ("color", color, 4)):
        loc = ctx.glGetAttribLocation(p, name)
        if loc < 0:
            continue
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(loc, n, E.GL_FLOAT, False, 4 * n, 0)
        ctx.glEnableVertexAttribArray(loc)
    return vao


def _clear(ctx):
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


def _px(ndc: float) -> int:
    """Pixel column/row whose centre an NDC coordinate's edge starts at (W = H = 32)."""
    return int(round((ndc + 1) * W / 2))


QUADS = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
in vec4 vcol[];
out vec4 gcol;
uniform float half_size;
void main() {
    vec4 c = gl_in[0].gl_Position;
    for (int k = 0; k < 4; k++) {
        gcol = vcol[0];
        gl_Position = c + vec4((k & 1) == 0 ? -half_size : half_size, k < 2 ? -half_size : half_size, 0.0, 0.0);
        EmitVertex();
    }
    EndPrimitive();
}
"""


def test_points_expand_to_quads():
    """Each point becomes a 2*half_size square of the point's colour (a strip of 4)."""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, QUADS)
        ctx.glUseProgram(p)
        ctx.glUniform1f(ctx.glGetUniformLocation(p, "half_size"), 0.25)
        _vertices(ctx, p, [(-0.5, -0.5), (0.5, 0.25)], [(1, 0, 0, 1), (0, 1, 0, 1)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 2)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        want = np.zeros((H, W, 4), np.uint8)
        want[..., 3] = 255
        want[_px(-0.75):_px(-0.25), _px(-0.75):_px(-0.25)] = (255, 0, 0, 255)
        want[_px(0.0):_px(0.5), _px(0.25):_px(0.75)] = (0, 255, 0, 255)
        np.testing.assert_array_equal(img, want)


PRIMITIVE_ID = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 gcol;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gcol = vec4(float(gl_PrimitiveIDIn) / 4.0, 0.0, 1.0, 1.0);
        EmitVertex();
    }
}
"""


def _two_triangles():
    """Left and right halves of the viewport as two triangles each (4 triangles)."""
    l, m, r, b, t = -1.0, 0.0, 1.0, -1.0, 1.0
    return [(l, b), (m, b), (l, t), (m, b), (m, t), (l, t),
            (m, b), (r, b), (m, t), (r, b), (r, t), (m, t)]


def test_primitive_id_colours_each_triangle():
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, PRIMITIVE_ID)
        ctx.glUseProgram(p)
        _vertices(ctx, p, _two_triangles())
        _clear(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 12)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels().astype(int)
        # triangle k covers: below the diagonal of its half (k even) or above it (k odd)
        for (y, x), k in (((2, 2), 0), ((29, 13), 1), ((2, 18), 2), ((29, 29), 3)):
            assert abs(img[y, x, 0] - round(k / 4 * 255)) <= 1, (y, x, k, img[y, x])
            assert img[y, x, 2] == 255


def test_triangle_strip_input_and_indexed_draws_give_the_same_primitives():
    """A strip of 4 vertices is 2 triangles with gl_PrimitiveIDIn 0 and 1; the same
    triangles through an index buffer give the same image."""
    strip = [(-1, -1), (1, -1), (-1, 1), (1, 1)]
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, PRIMITIVE_ID)
        ctx.glUseProgram(p)
        _vertices(ctx, p, strip)
        _clear(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        a = ctx.read_pixels().astype(int)
        assert a[2, 2, 0] == 0 and abs(a[29, 29, 0] - 64) <= 1
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        idx = np.array([0, 1, 2, 2, 1, 3], np.uint16)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
        _clear(ctx)
        ctx.glDrawElements(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_SHORT, 0)
        expect(ctx, E.GL_NO_ERROR)
        np.testing.assert_array_equal(ctx.read_pixels().astype(int), a)


CUT = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 8) out;
out vec4 gcol;
void main() {
    // two separate triangles: the strip is cut between them
    vec2 o[6] = vec2[](vec2(-1, -1), vec2(0, -1), vec2(-1, 0), vec2(0, 0), vec2(1, 0), vec2(0, 1));
    for (int i = 0; i < 6; i++) {
        gl_Position = vec4(o[i], 0.0, 1.0);
        gcol = vec4(1.0);
        EmitVertex();
        if (i == 2)
            EndPrimitive();
    }
}
"""


def test_end_primitive_cuts_the_strip():
    """Without the cut the strip would also fill the triangles between the two."""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, CUT)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0, 0)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        lit = ctx.read_pixels()[..., 0] > 0
        assert lit[2, 2] and lit[18, 18]                  # inside each triangle
        assert not lit[13, 2] and not lit[2, 13]           # outside the first, near its hypotenuse
        assert not lit[16 + 13, 18] and not lit[18, 16 + 13]
        assert not lit[2, 29] and not lit[29, 2]            # between them: no strip joins them
        # each triangle is half of a 16 x 16 square
        assert abs(int(lit[:16, :16].sum()) - 136) <= 16 and abs(int(lit[16:, 16:].sum()) - 136) <= 16


SOME = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in vec4 vcol[];
out vec4 gcol;
void main() {
    if (gl_PrimitiveIDIn % 2 == 1) {       // odd points emit nothing
        gl_Position = gl_in[0].gl_Position;
        gcol = vcol[0];
        EmitVertex();
    }
}
"""


def test_zero_vertices_for_some_primitives():
    cols_px = [3 * i + 1 for i in range(10)]
    xs = [(c + 0.5) / 16 - 1 for c in cols_px]          # pixel centres
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, SOME)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(x, 0.03) for x in xs])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 10)
        expect(ctx, E.GL_NO_ERROR)
        lit = ctx.read_pixels()[..., 0] > 0
        cols = sorted(np.nonzero(lit.any(axis=0))[0].tolist())
        want = [c for i, c in enumerate(cols_px) if i % 2 == 1]
        assert cols == want
        assert lit.sum() == 5


LINES = """#version 150
layout(lines_adjacency) in;
layout(line_strip, max_vertices = 2) out;
out vec4 gcol;
void main() {
    // draw the segment between the two adjacent vertices (1 and 2), coloured by vertex 0's x
    gcol = vec4(1.0, gl_in[0].gl_Position.x < 0.0 ? 1.0 : 0.0, 0.0, 1.0);
    gl_Position = gl_in[1].gl_Position; EmitVertex();
    gl_Position = gl_in[2].gl_Position; EmitVertex();
}
"""


def test_lines_adjacency_inputs():
    """lines_adjacency: 4 vertices per primitive; the GS draws the middle two."""
    y = 0.03                                            # row 16's centre is 1/32 above 0
    verts = [(-0.9, 0.9), (-0.5, y), (0.5, y), (0.9, 0.9)]
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, LINES)
        ctx.glUseProgram(p)
        _vertices(ctx, p, verts)
        _clear(ctx)
        ctx.glDrawArrays(E.GL_LINES_ADJACENCY, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        lit = np.argwhere(img[..., 0] > 0)
        assert set(lit[:, 0].tolist()) == {16}               # one row
        assert lit[:, 1].min() == 8 and lit[:, 1].max() in (23, 24)
        assert (img[16, 8:23] == (255, 255, 0, 255)).all()  # vertex 0 at x < 0: yellow
        ctx.glDrawArrays(E.GL_LINES, 0, 4)                   # not the input primitive
        expect(ctx, E.GL_INVALID_OPERATION)


def test_instancing_runs_the_geometry_shader_per_instance():
    vs = """#version 150
in vec2 pos;
out vec4 vcol;
void main() { gl_Position = vec4(pos + vec2(float(gl_InstanceID) * 0.5, 0.0), 0.0, 1.0);
              vcol = vec4(1.0, 1.0, float(gl_InstanceID) / 2.0, 1.0); }
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, QUADS, vs=vs)
        ctx.glUseProgram(p)
        ctx.glUniform1f(ctx.glGetUniformLocation(p, "half_size"), 0.125)
        _vertices(ctx, p, [(-0.75, -0.5)])
        _clear(ctx)
        ctx.glDrawArraysInstanced(E.GL_POINTS, 0, 1, 3)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        for i in range(3):
            x0 = _px(-0.875 + 0.5 * i)
            block = img[_px(-0.625):_px(-0.375), x0:x0 + 4]
            assert (block[..., :2] == 255).all(), i
            assert abs(int(block[0, 0, 2]) - round(i / 2 * 255)) <= 1, i
        assert (img[..., 0] > 0).sum() == 3 * 16


@pytest.mark.parametrize("gs,needle", [
    ("#version 150\nlayout(points) in;\nvoid main() {}\n", "output type"),
    ("#version 150\nlayout(points, max_vertices = 1) out;\nvoid main() {}\n", "input type"),
    ("#version 150\nlayout(points) in;\nlayout(points) out;\nvoid main() {}\n", "max_vertices"),
])
def test_link_errors_for_missing_layouts(gs, needle):
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        p = _program(ctx, gs, link_ok=False)
        assert needle in ctx.glGetProgramInfoLog(p)
        expect(ctx, E.GL_NO_ERROR)


def test_link_error_vertex_output_type_mismatch():
    gs = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in vec3 vcol[];
out vec4 gcol;
void main() { gcol = vec4(vcol[0], 1.0); gl_Position = gl_in[0].gl_Position; EmitVertex(); }
"""
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        p = _program(ctx, gs, link_ok=False)
        assert "vcol" in ctx.glGetProgramInfoLog(p)


def test_geometry_shader_needs_a_vertex_shader_in_core():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _program(ctx, SOME, vs=None, link_ok=False)


def test_program_queries():
    gs = QUADS.replace("layout(points) in;", "layout(lines_adjacency) in;")
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        p = _program(ctx, gs)
        assert ctx.glGetProgramiv(p, E.GL_GEOMETRY_VERTICES_OUT) == [4]
        assert ctx.glGetProgramiv(p, E.GL_GEOMETRY_INPUT_TYPE) == [E.GL_LINES_ADJACENCY]
        assert ctx.glGetProgramiv(p, E.GL_GEOMETRY_OUTPUT_TYPE) == [E.GL_TRIANGLE_STRIP]
        assert ctx.glGetProgramiv(p, E.GL_GEOMETRY_SHADER_INVOCATIONS) == [1]
        expect(ctx, E.GL_NO_ERROR)
        plain = _program(ctx, None, fs=FS.replace("gcol", "vcol"))
        ctx.glGetProgramiv(plain, E.GL_GEOMETRY_VERTICES_OUT)
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        p = _program(ctx, gs)
        ctx.glGetProgramiv(p, E.GL_GEOMETRY_SHADER_INVOCATIONS)     # GL 4.0
        expect(ctx, E.GL_INVALID_ENUM)


def test_gl_primitive_id_output_reaches_the_fragment_shader():
    gs = """#version 150
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gl_PrimitiveID = 3 - gl_PrimitiveIDIn;
        EmitVertex();
    }
}
"""
    fs = """#version 150
out vec4 frag;
void main() { frag = vec4(float(gl_PrimitiveID) / 4.0, 0.0, 0.0, 1.0); }
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, gs, fs=fs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, _two_triangles())
        _clear(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 12)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels().astype(int)
        for (y, x), k in (((2, 2), 0), ((29, 13), 1), ((2, 18), 2), ((29, 29), 3)):
            assert abs(img[y, x, 0] - round((3 - k) / 4 * 255)) <= 1, (y, x, k, img[y, x])


def test_separable_geometry_stage_in_a_pipeline():
    """glUseProgramStages(GEOMETRY_SHADER_BIT): vertex, geometry and fragment stages from
    three separable programs draw what one program draws."""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        progs = [ctx.glCreateShaderProgramv(kind, 1, [src]) for kind, src in
                 ((E.GL_VERTEX_SHADER, VS), (E.GL_GEOMETRY_SHADER, PRIMITIVE_ID), (E.GL_FRAGMENT_SHADER, FS))]
        for p in progs:
            assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
        pipe = ctx.glGenProgramPipelines(1)[0]
        for bit, p in zip((E.GL_VERTEX_SHADER_BIT, E.GL_GEOMETRY_SHADER_BIT, E.GL_FRAGMENT_SHADER_BIT), progs):
            ctx.glUseProgramStages(pipe, bit, p)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetProgramPipelineiv(pipe, E.GL_GEOMETRY_SHADER) == [progs[1]]
        ctx.glBindProgramPipeline(pipe)
        _vertices(ctx, progs[0], _two_triangles())
        _clear(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 12)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels().astype(int)
        for (y, x), k in (((2, 2), 0), ((29, 13), 1), ((2, 18), 2), ((29, 29), 3)):
            assert abs(img[y, x, 0] - round(k / 4 * 255)) <= 1, (y, x, k, img[y, x])
        ctx.glDrawArrays(E.GL_POINTS, 0, 12)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_uniform_block_and_texture_in_the_geometry_stage():
    gs = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
layout(std140) uniform Shift { vec4 shift; };
uniform sampler2D tex;
out vec4 gcol;
void main() {
    gl_Position = gl_in[0].gl_Position + shift;
    gcol = textureLod(tex, vec2(0.5), 0.0);
    EmitVertex();
}
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, gs)
        ctx.glUseProgram(p)
        ubo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, ubo)
        shift = np.array([0.5, 0.25, 0.0, 0.0], np.float32)
        ctx.glBufferData(E.GL_UNIFORM_BUFFER, 16, shift.tobytes(), E.GL_STATIC_DRAW)
        ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 2, ubo)
        ctx.glUniformBlockBinding(p, ctx.glGetUniformBlockIndex(p, "Shift"), 2)
        t = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_2D, t)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         bytes([10, 200, 30, 255]))
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        _vertices(ctx, p, [((2 + 0.5) / 16 - 1 - 0.5, (3 + 0.5) / 16 - 1 - 0.25)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        assert tuple(img[3, 2]) == (10, 200, 30, 255)
        assert (img[..., 1] > 0).sum() == 1


def test_clip_distance_written_by_the_geometry_stage():
    gs = """#version 150
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
out vec4 gcol;
void main() {
    for (int k = 0; k < 4; k++) {
        vec2 p = vec2((k & 1) == 0 ? -1.0 : 1.0, k < 2 ? -1.0 : 1.0);
        gl_Position = vec4(p, 0.0, 1.0);
        gl_ClipDistance[0] = p.x;          // the left half is clipped when enabled
        gcol = vec4(1.0);
        EmitVertex();
    }
}
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, gs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0, 0)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        assert (ctx.read_pixels()[..., 0] > 0).all()
        ctx.glEnable(E.GL_CLIP_DISTANCE0)
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        lit = ctx.read_pixels()[..., 0] > 0
        assert lit[:, 16:].all() and not lit[:, :16].any()


def test_invocations_run_the_shader_once_per_invocation():
    """layout(invocations = 3): one point per invocation, in invocation order per primitive."""
    gs = """#version 400
layout(points, invocations = 3) in;
layout(points, max_vertices = 1) out;
out vec4 gcol;
void main() {
    gl_Position = gl_in[0].gl_Position + vec4(float(gl_InvocationID) * 0.25, 0.0, 0.0, 0.0);
    gcol = vec4(1.0, float(gl_InvocationID) / 2.0, 0.0, 1.0);
    EmitVertex();
}
"""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        p = _program(ctx, gs)
        assert ctx.glGetProgramiv(p, E.GL_GEOMETRY_SHADER_INVOCATIONS) == [3]
        ctx.glUseProgram(p)
        _vertices(ctx, p, [((4 + 0.5) / 16 - 1, (5 + 0.5) / 16 - 1)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        assert (img[..., 0] > 0).sum() == 3
        for i in range(3):
            assert img[5, 4 + 4 * i, 0] == 255 and abs(int(img[5, 4 + 4 * i, 1]) - round(i / 2 * 255)) <= 1


TOPOLOGY_VS = """#version 150
in vec2 pos;
flat out int vid;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vid = gl_VertexID; }
"""
TOPOLOGY_GS = """#version 150
layout(%s) in;
layout(points, max_vertices = 6) out;
flat in int vid[];
out vec4 gcol;
void main() {
    // one pixel per input vertex: column = primitive, row = vertex; red = 8 * vertex id + 4
    for (int j = 0; j < vid.length(); j++) {
        gl_Position = vec4((float(gl_PrimitiveIDIn) + 0.5) / 16.0 - 1.0, (float(j) + 0.5) / 16.0 - 1.0, 0.0, 1.0);
        gcol = vec4(float(8 * vid[j] + 4) / 255.0, 0.0, 0.0, 1.0);
        EmitVertex();
    }
}
"""
_INPUT = {"points": "points", "lines": "lines", "line_strip": "lines", "line_loop": "lines",
          "triangles": "triangles", "triangle_strip": "triangles", "triangle_fan": "triangles",
          "lines_adjacency": "lines_adjacency", "line_strip_adjacency": "lines_adjacency",
          "triangles_adjacency": "triangles_adjacency", "triangle_strip_adjacency": "triangles_adjacency"}


def _received(ctx, mode, n, per, indices=None):
    """(primitives, per) vertex ids each geometry invocation received."""
    _clear(ctx)
    if indices is None:
        ctx.glDrawArrays(mode, 0, n)
    else:
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        idx = np.asarray(indices, np.uint8)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
        ctx.glDrawElements(mode, len(idx), E.GL_UNSIGNED_BYTE, 0)
    expect(ctx, E.GL_NO_ERROR)
    red = ctx.read_pixels()[:per, :, 0].astype(int)
    cols = int((red[0] > 0).sum())
    return ((red[:, :cols].T - 4) // 8).tolist()


_FAST_TOPOLOGIES = {"line_loop", "triangle_fan", "line_strip_adjacency", "triangle_strip_adjacency"}


@pytest.mark.parametrize("topology", [t if t in _FAST_TOPOLOGIES else pytest.param(t, marks=pytest.mark.slow)
                                      for t in sorted(_INPUT)])
def test_every_topology_feeds_the_vertices_of_gl_tables(topology):
    """The vertices each input primitive receives, against the project's topology table
    (uapi.topology, GL 4.6 section 10.1) and, for triangle strips with adjacency (whose
    ends that table leaves out), GL 4.6 table 10.1 by hand."""
    from uapi.topology import TOPOLOGIES, decompose
    n = 8
    mode = getattr(E, "GL_" + topology.upper())
    per = TOPOLOGIES[topology].vertices
    if topology == "triangle_strip_adjacency":
        want = [[0, 1, 2, 6, 4, 3], [4, 0, 2, 5, 6, 7]]
    else:
        want = decompose(topology, [0], [n])[0].tolist()
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, TOPOLOGY_GS % _INPUT[topology], vs=TOPOLOGY_VS)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(0.0, 0.0)] * 12)
        assert _received(ctx, mode, n, per) == want
        # indexed: index k names vertex 11 - k (8-bit indices)
        got = _received(ctx, mode, n, per, indices=[11 - k for k in range(n)])
        assert got == [[11 - v for v in prim] for prim in want]


def test_interface_blocks_between_the_stages():
    """VS -> GS and GS -> FS through interface blocks (linked by block name; the
    instance names differ), with a flat integer member and an array member."""
    vs = """#version 150
in vec2 pos;
in vec4 color;
out VertexData { vec4 c; flat int id; vec2 pair[2]; } vout;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vout.c = color; vout.id = gl_VertexID;
              vout.pair[0] = vec2(0.25); vout.pair[1] = vec2(0.5); }
"""
    gs = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in VertexData { vec4 c; flat int id; vec2 pair[2]; } gin[];
out FragData { vec4 c; flat int id; } gout;
void main() {
    gl_Position = gl_in[0].gl_Position;
    gout.c = gin[0].c * vec4(gin[0].pair[1].x * 2.0, gin[0].pair[0].y * 4.0, 1.0, 1.0);
    gout.id = gin[0].id;
    EmitVertex();
}
"""
    fs = """#version 150
in FragData { vec4 c; flat int id; } fin;
out vec4 frag;
void main() { frag = vec4(fin.c.rgb, float(fin.id) / 4.0); }
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, gs, vs=vs, fs=fs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [((1 + 0.5) / 16 - 1, (1 + 0.5) / 16 - 1), ((6 + 0.5) / 16 - 1, (1 + 0.5) / 16 - 1)],
                  [(0.2, 0.4, 0.6, 1.0), (1.0, 0.5, 0.0, 1.0)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 2)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels().astype(int)
        assert np.abs(img[1, 1] - [51, 102, 153, 0]).max() <= 1
        assert np.abs(img[1, 6] - [255, 128, 0, 64]).max() <= 1


def test_compatibility_outputs_of_the_geometry_stage():
    """Compatibility profile: gl_FrontColor and gl_TexCoord[] written by the geometry
    stage reach gl_Color and gl_TexCoord[] of the fragment stage."""
    gs = """#version 150 compatibility
layout(points) in;
layout(points, max_vertices = 1) out;
void main() {
    gl_Position = gl_in[0].gl_Position;
    gl_FrontColor = vec4(1.0, 0.5, 0.0, 1.0);
    gl_TexCoord[1] = vec4(0.0, 0.0, 0.25, 1.0);
    EmitVertex();
}
"""
    vs = "#version 150 compatibility\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
    fs = "#version 150 compatibility\nvoid main() { gl_FragColor = gl_Color + gl_TexCoord[1]; }\n"
    with driver.Context(api="compat", width=W, height=H) as ctx:
        p = _program(ctx, gs, vs=vs, fs=fs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [((3 + 0.5) / 16 - 1, (2 + 0.5) / 16 - 1)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels().astype(int)
        assert np.abs(img[2, 3] - [255, 128, 64, 255]).max() <= 1


def test_instance_less_vertex_block_feeds_a_geometry_block_array():
    vs = """#version 150
in vec2 pos;
out Data { vec4 c; };
void main() { gl_Position = vec4(pos, 0.0, 1.0); c = vec4(0.0, 1.0, 0.5, 1.0); }
"""
    gs = """#version 150
layout(points) in;
layout(points, max_vertices = 1) out;
in Data { vec4 c; } din[];
out vec4 gcol;
void main() { gl_Position = gl_in[0].gl_Position; gcol = din[0].c; EmitVertex(); }
"""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        p = _program(ctx, gs, vs=vs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [((3 + 0.5) / 16 - 1, (2 + 0.5) / 16 - 1)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 1)
        expect(ctx, E.GL_NO_ERROR)
        assert np.abs(ctx.read_pixels()[2, 3].astype(int) - [0, 255, 128, 255]).max() <= 1


def test_primitives_generated_counts_geometry_output():
    """GL_PRIMITIVES_GENERATED counts what the geometry stage emits (GL 4.6 section 13.3):
    5 points of 10 inputs (SOME), 2 triangles per point (QUADS), not the passes' own."""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        q = ctx.glGenQueries(1)[0]
        for gs, n, want in ((SOME, 10, 5), (QUADS, 3, 6)):
            p = _program(ctx, gs)
            ctx.glUseProgram(p)
            _vertices(ctx, p, [(0.0, 0.0)] * n)
            ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
            ctx.glDrawArrays(E.GL_POINTS, 0, n)
            ctx.glDrawArraysInstanced(E.GL_POINTS, 0, n, 2)
            ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
            assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [3 * want]
        expect(ctx, E.GL_NO_ERROR)


def test_link_error_total_output_components():
    """max_vertices x components per vertex beyond GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS
    (1024): 256 vertices of two vec4 outputs is 2048 (gl_Position does not count)."""
    gs = """#version 150
layout(points) in;
layout(points, max_vertices = 256) out;
out vec4 gcol;
out vec4 other;
void main() { gl_Position = vec4(0.0); gcol = vec4(1.0); other = gcol; EmitVertex(); }
"""
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        assert ctx.glGetIntegerv(E.GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS) == [1024]
        p = _program(ctx, gs, link_ok=False)
        assert "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS" in ctx.glGetProgramInfoLog(p)
        _program(ctx, gs.replace("max_vertices = 256", "max_vertices = 128"))
        many = "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nout vec4 m[33];\n" \
               "void main() { gl_Position = vec4(0.0); m[0] = vec4(1.0); EmitVertex(); }\n"
        p = _program(ctx, many, link_ok=False)                 # 132 > GL_MAX_GEOMETRY_OUTPUT_COMPONENTS
        assert "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS" in ctx.glGetProgramInfoLog(p)


def test_compatibility_gl_in_carries_the_deprecated_vertex_outputs():
    """GLSL 1.50 compatibility: gl_in[] has gl_FrontColor, gl_BackColor, the
    secondary colours, gl_TexCoord[] and gl_FogFragCoord as the vertex stage wrote
    them (unwritten ones read 0). One full-screen triangle: the geometry stage
    copies them on, the fragment stage shows gl_Color + texture coordinate 1."""
    vs = ("#version 150 compatibility\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0);\n"
          "  gl_FrontColor = vec4(0.25, 0.5, 0.0, 1.0); gl_BackColor = vec4(1.0);\n"
          "  gl_TexCoord[1] = vec4(0.0, 0.0, 0.5, 0.0); }\n")
    gs = ("#version 150 compatibility\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\n"
          "void main() { for (int i = 0; i < 3; i++) { gl_Position = gl_in[i].gl_Position;\n"
          "  gl_FrontColor = gl_in[i].gl_FrontColor + gl_in[i].gl_TexCoord[1]\n"
          "                  + gl_in[i].gl_FrontSecondaryColor;\n"
          "  EmitVertex(); } }\n")
    fs = "#version 150 compatibility\nvoid main() { gl_FragColor = gl_Color; }\n"
    with driver.Context("compat", W, H) as c:
        ctx = c.gl
        p = _program(ctx, gs, vs=vs, fs=fs)
        ctx.glUseProgram(p)
        _vertices(ctx, p, [(-1, -1), (3, -1), (-1, 3)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(ctx, E.GL_NO_ERROR)
        img = c.read_pixels().reshape(H, W, 4)
    # (0.25, 0.5, 0.5, 1.0) everywhere, 8-bit: 64, 128, 128, 255 (within rounding)
    assert np.abs(img.astype(int) - [64, 128, 128, 255]).max() <= 1, img[0, 0]


def test_shader_storage_block_read_and_written_by_the_geometry_stage():
    """The geometry stage runs as a compute pass that binds the program's storage
    blocks (geometry.py), so GL 4.3's GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS is the
    compute stage's: a geometry shader moves each point by a vec4 read from a storage
    buffer and writes one word per input primitive into it."""
    gs = """#version 430
layout(points) in;
layout(points, max_vertices = 1) out;
layout(std430, binding = 3) buffer Shift { vec4 shift; uint seen[4]; };
out vec4 gcol;
void main() {
    gl_Position = gl_in[0].gl_Position + shift;
    seen[gl_PrimitiveIDIn] = uint(gl_PrimitiveIDIn) * 10u + 7u;
    gcol = vec4(1.0);
    EmitVertex();
}
"""
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        limit = ctx.glGetIntegerv(E.GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS)[0]
        assert limit == ctx.glGetIntegerv(E.GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS)[0] > 0
        p = _program(ctx, gs)
        ctx.glUseProgram(p)
        ssbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, ssbo)
        data = np.zeros(8, np.float32)
        data[:4] = (0.5, -0.25, 0.0, 0.0)
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, data.nbytes, data.tobytes(), E.GL_DYNAMIC_DRAW)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 3, ssbo)
        # pixel centres (2, 9), (5, 9), (8, 9) once moved by the buffer's (+8, -4) pixels
        _vertices(ctx, p, [((x + 0.5) / 16 - 1 - 0.5, (9 + 0.5) / 16 - 1 + 0.25) for x in (2, 5, 8)])
        _clear(ctx)
        ctx.glDrawArrays(E.GL_POINTS, 0, 3)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        lit = sorted(zip(*np.nonzero(img[..., 0] == 255)))
        assert lit == [(9, 2), (9, 5), (9, 8)]                   # (row, column)
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        back = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 16, 16)), np.uint32)
        assert back.tolist() == [7, 17, 27, 0]
