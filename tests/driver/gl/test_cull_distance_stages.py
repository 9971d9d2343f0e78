"""gl_CullDistance in the geometry and tessellation stages (GLSL 4.50 section 7.1,
GL_ARB_cull_distance): written by the last stage before rasterisation (geometry or
tessellation evaluation) it culls a primitive when one distance is negative at all of
its vertices; gl_in[].gl_CullDistance reads the previous stage's values; the
gl_PerVertex blocks carry it and may be redeclared with it, sized explicitly."""

from __future__ import annotations

import numpy as np
import pytest

from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

W, H = 8, 4
GREEN = [0, 255, 0, 255]

VS_POINT = """#version 150
void main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }
"""
FS = """#version 150
in vec4 gcol;
out vec4 o;
void main() { o = gcol; }
"""

# one point in, two quads out (a strip of two triangles each): the left quad at
# x in [-1, 0], the right one at [0, 1]. The quad `culled` has cull distance 1 negative
# at its four vertices; the other has distance 0 negative at three of its four vertices
# (both of its triangles have a vertex at +1: drawn whole, not clipped).
GS = """{header}
layout(points) in;
layout(triangle_strip, max_vertices = 8) out;
uniform int culled;
out vec4 gcol;
void main() {{
    for (int q = 0; q < 2; q++) {{
        for (int k = 0; k < 4; k++) {{
            gl_Position = vec4(float(q) - 1.0 + float(k & 1), k < 2 ? -1.0 : 1.0, 0.0, 1.0);
            gl_CullDistance[0] = k == 2 ? 1.0 : -1.0;
            gl_CullDistance[1] = q == culled ? -0.5 : 0.5;
            gcol = vec4(0.0, 1.0, 0.0, 1.0);
            EmitVertex();
        }}
        EndPrimitive();
    }}
}}
"""


def _clear(ctx):
    ctx.glClearColor(0, 0, 0, 0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


def _pixels(ctx):
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return img.reshape(H, W, 4)


def _halves(ctx, prog, draw):
    """The image with the left quad culled, then with the right one culled."""
    out = []
    for culled in (0, 1):
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "culled"), culled)
        _clear(ctx)
        draw()
        expect(ctx, E.GL_NO_ERROR)
        out.append(_pixels(ctx))
    return out


def _assert_one_half_lit(images):
    left_culled, right_culled = images
    assert (left_culled[:, :W // 2] == 0).all()
    assert (left_culled[:, W // 2:] == GREEN).all()
    assert (right_culled[:, :W // 2] == GREEN).all()
    assert (right_culled[:, W // 2:] == 0).all()


@pytest.mark.parametrize("header", ["#version 450", "#version 150\n#extension GL_ARB_cull_distance : require"])
def test_geometry_stage_culls_a_primitive_negative_at_all_its_vertices(header):
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_POINT, E.GL_GEOMETRY_SHADER: GS.format(header=header),
                             E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _assert_one_half_lit(_halves(ctx, prog, lambda: ctx.glDrawArrays(E.GL_POINTS, 0, 1)))


# two patches of 4 vertices (quads, the default levels 1: two triangles each): patch p
# covers x in [p - 1, p]; the evaluation stage writes the distances as the GS above
VS_PATCH = """#version 400
void main() {
    int p = gl_VertexID / 4, k = gl_VertexID % 4;
    gl_Position = vec4(float(p) - 1.0 + float(k & 1), k < 2 ? -1.0 : 1.0, 0.0, 1.0);
}
"""
TES = """#version 400
#extension GL_ARB_cull_distance : require
layout(quads) in;
uniform int culled;
out vec4 gcol;
void main() {
    vec4 bottom = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 top = mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x);
    gl_Position = mix(bottom, top, gl_TessCoord.y);
    gl_CullDistance[0] = gl_TessCoord.x == gl_TessCoord.y ? -1.0 : 1.0;
    gl_CullDistance[1] = gl_PrimitiveID == culled ? -0.5 : 0.5;
    gcol = vec4(0.0, 1.0, 0.0, 1.0);
}
"""


def test_tessellation_evaluation_stage_culls_a_primitive_negative_at_all_its_vertices():
    """Patch ``culled``'s two triangles are culled; the other patch's are drawn whole
    although distance 0 is negative at the corners (0, 0) and (1, 1): each triangle of
    the quad has (0, 1) or (1, 0), whichever diagonal splits it."""
    ctx = glhelp.context(W, H, api="compat")
    prog = glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_PATCH, E.GL_TESS_EVALUATION_SHADER: TES,
                             E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    _assert_one_half_lit(_halves(ctx, prog, lambda: ctx.glDrawArrays(E.GL_PATCHES, 0, 8)))


VS_DISTANCES = """#version 150
#extension GL_ARB_cull_distance : require
void main() {
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_CullDistance[0] = 0.25;
    gl_CullDistance[1] = 0.75;
}
"""


def _one_colour(ctx):
    img = _pixels(ctx)
    assert (img == img[0, 0]).all()
    return list(img[0, 0])


@pytest.mark.parametrize("redeclared", [False, True])
def test_geometry_stage_reads_the_vertex_stage_distances(redeclared):
    """gl_in[0].gl_CullDistance[i] is the vertex stage's gl_CullDistance[i] (here as a
    colour: 0.25 -> 64, 0.75 -> 191 of 255); the vertex's positive distances cull
    nothing. ``redeclared``: gl_in's block redeclared with gl_CullDistance sized 2."""
    block = "in gl_PerVertex { vec4 gl_Position; float gl_CullDistance[2]; } gl_in[];\n" if redeclared else ""
    gs = """#version 150
#extension GL_ARB_cull_distance : require
layout(points) in;
layout(triangle_strip, max_vertices = 3) out;
""" + block + """out vec4 gcol;
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = vec4(k == 1 ? 3.0 : -1.0, k == 2 ? 3.0 : -1.0, 0.0, 1.0);
        gcol = vec4(gl_in[0].gl_CullDistance[0], gl_in[0].gl_CullDistance[1], 0.0, 1.0);
        EmitVertex();
    }
}
"""
    ctx = glhelp.context(W, H, api="compat")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_DISTANCES, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    assert _one_colour(ctx) == [64, 191, 0, 255]


def test_control_stage_reads_and_writes_the_distances_of_its_patch():
    """vertex -> gl_in[].gl_CullDistance of the control stage -> its gl_out[] (doubled and
    halved) -> gl_in[].gl_CullDistance of the evaluation stage, as a colour."""
    vs = VS_DISTANCES.replace("#version 150", "#version 400").replace(
        "gl_Position = vec4(0.0, 0.0, 0.0, 1.0);",
        "gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0);")
    tcs = """#version 400
#extension GL_ARB_cull_distance : require
layout(vertices = 3) out;
out gl_PerVertex { vec4 gl_Position; float gl_CullDistance[2]; } gl_out[];
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_out[gl_InvocationID].gl_CullDistance[0] = gl_in[gl_InvocationID].gl_CullDistance[0] * 2.0;
    gl_out[gl_InvocationID].gl_CullDistance[1] = gl_in[gl_InvocationID].gl_CullDistance[1] * 0.5;
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
    tes = """#version 450
layout(triangles) in;
out vec4 gcol;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    gcol = vec4(gl_in[0].gl_CullDistance[0], gl_in[2].gl_CullDistance[1], 0.0, 1.0);
}
"""
    ctx = glhelp.context(W, H, api="compat")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_CONTROL_SHADER: tcs, E.GL_TESS_EVALUATION_SHADER: tes,
                      E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    assert _one_colour(ctx) == [128, 96, 0, 255]          # 0.5 and 0.375 of 255, rounded


def test_geometry_output_block_redeclared_with_the_distances():
    """``out gl_PerVertex`` of the geometry stage redeclared with gl_CullDistance[1]: the
    one distance, negative at every vertex of the second triangle, culls it."""
    gs = """#version 450
layout(points) in;
layout(triangle_strip, max_vertices = 6) out;
out gl_PerVertex { vec4 gl_Position; float gl_CullDistance[1]; };
out vec4 gcol;
void main() {
    for (int t = 0; t < 2; t++) {
        for (int k = 0; k < 3; k++) {
            gl_Position = vec4(k == 1 ? 3.0 : -1.0, k == 2 ? 3.0 : -1.0, 0.0, 1.0);
            gl_CullDistance[0] = t == 0 ? 0.0 : -1.0;
            gcol = vec4(1.0, t == 0 ? 1.0 : 0.0, 0.0, 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
"""
    ctx = glhelp.context(W, H, api="compat")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: VS_POINT, E.GL_GEOMETRY_SHADER: gs, E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    assert _one_colour(ctx) == [255, 255, 0, 255]        # the second (red) triangle culled


GS_HEAD = "#version 150\n#extension GL_ARB_cull_distance : require\nlayout(points) in;\n" \
          "layout(points, max_vertices = 1) out;\n"


@pytest.mark.parametrize("stage, source", [
    ("geometry", GS_HEAD + "void main() { gl_CullDistance[0] = gl_in[0].gl_CullDistance[7]; EmitVertex(); }\n"),
    ("tess_evaluation", "#version 450\nlayout(triangles) in;\n"
                        "void main() { gl_CullDistance[2] = gl_in[1].gl_CullDistance[0]; }\n"),
    ("tess_control", "#version 450\nlayout(vertices = 3) out;\n"
                     "void main() { gl_out[gl_InvocationID].gl_CullDistance[1] = "
                     "gl_in[gl_InvocationID].gl_CullDistance[1]; }\n"),
])
def test_declared_in_every_stage_with_the_extension(stage, source):
    parse(source, stage)


@pytest.mark.parametrize("stage, source, message", [
    # not without GLSL 4.50 or the extension
    ("geometry", "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
                 "void main() { gl_CullDistance[0] = 1.0; EmitVertex(); }\n", "gl_CullDistance"),
    ("geometry", "#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\n"
                 "void main() { gl_Position = vec4(gl_in[0].gl_CullDistance[0]); EmitVertex(); }\n",
     "gl_CullDistance"),
    ("tess_evaluation", "#version 440\nlayout(triangles) in;\n"
                        "void main() { gl_Position = vec4(gl_in[0].gl_CullDistance[0]); }\n", "gl_CullDistance"),
    # gl_MaxCullDistances (8) elements at most
    ("geometry", GS_HEAD + "void main() { gl_CullDistance[8] = 1.0; EmitVertex(); }\n", "out of bounds|8"),
    ("geometry", GS_HEAD + "in gl_PerVertex { vec4 gl_Position; float gl_CullDistance[9]; } gl_in[];\n"
                           "void main() { EmitVertex(); }\n", "gl_CullDistance"),
    ("tess_control", "#version 450\nlayout(vertices = 3) out;\n"
                     "out gl_PerVertex { vec4 gl_Position; float gl_CullDistance[9]; } gl_out[];\n"
                     "void main() { }\n", "gl_CullDistance"),
])
def test_refused(stage, source, message):
    with pytest.raises(GLSLCompileError, match=message):
        parse(source, stage)


@pytest.mark.parametrize("stage, source, message", [
    ("vertex", "#version 450\nout float gl_CullDistance[9];\nvoid main() { }\n",
     r"gl_CullDistance' redeclared with size 9, more than gl_MaxCullDistances \(8\)"),
    ("vertex", "#version 130\nout float gl_ClipDistance[9];\nvoid main() { }\n",
     r"gl_ClipDistance' redeclared with size 9, more than gl_MaxClipDistances \(8\)"),
    # 5 + 5 redeclared, 6 + 3 by the constant indices, 8 (a variable index) + 1
    ("vertex", "#version 450\nout float gl_ClipDistance[5];\nout float gl_CullDistance[5];\n"
               "void main() { gl_Position = vec4(0.0); }\n", r"size 5\) and gl_CullDistance \(size 5\)"),
    ("geometry", GS_HEAD + "void main() { gl_ClipDistance[5] = 0.0; gl_CullDistance[2] = 0.0; EmitVertex(); }\n",
     r"size 6\) and gl_CullDistance \(size 3\)"),
    ("tess_evaluation", "#version 450\nlayout(triangles) in;\nuniform int i;\n"
                        "void main() { gl_ClipDistance[i] = 0.0; gl_CullDistance[0] = 0.0; }\n",
     r"size 8\) and gl_CullDistance \(size 1\)"),
    ("fragment", "#version 450\nin float gl_ClipDistance[4];\nin float gl_CullDistance[5];\nout vec4 o;\n"
                 "void main() { o = vec4(gl_CullDistance[0]); }\n", r"size 4\) and gl_CullDistance \(size 5\)"),
])
def test_sizes_beyond_the_limits_are_refused(stage, source, message):
    """gl_MaxCullDistances, gl_MaxClipDistances and, together,
    gl_MaxCombinedClipAndCullDistances (8 each here)."""
    with pytest.raises(GLSLCompileError, match=message):
        parse(source, stage)


@pytest.mark.parametrize("stage, source", [
    ("vertex", "#version 450\nout float gl_ClipDistance[4];\nout float gl_CullDistance[4];\n"
               "void main() { gl_Position = vec4(0.0); }\n"),
    ("geometry", GS_HEAD + "void main() { gl_ClipDistance[4] = 0.0; gl_CullDistance[2] = 0.0; EmitVertex(); }\n"),
    ("vertex", "#version 450\nuniform int i;\nvoid main() { gl_ClipDistance[i] = 0.0; }\n"),
])
def test_sizes_within_the_limits_are_accepted(stage, source):
    parse(source, stage)


def test_geometry_stage_reads_the_evaluation_stage_distances():
    """vertex -> evaluation -> geometry: gl_in[k].gl_CullDistance[i] and gl_ClipDistance[i]
    of the geometry stage are the evaluation stage's values (its records hold a distance
    per location), here as a colour: (0.25, 0.75, 0.5, 1.0) -> (64, 191, 128, 255)."""
    vs = """#version 400
void main() { gl_Position = vec4(gl_VertexID == 1 ? 3.0 : -1.0, gl_VertexID == 2 ? 3.0 : -1.0, 0.0, 1.0); }
"""
    tes = """#version 450
layout(triangles) in;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    gl_CullDistance[0] = 0.25;
    gl_CullDistance[1] = 0.75;
    gl_ClipDistance[0] = 0.5;
    gl_ClipDistance[1] = 1.0;
}
"""
    gs = """#version 450
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
out vec4 gcol;
void main() {
    for (int k = 0; k < 3; k++) {
        gl_Position = gl_in[k].gl_Position;
        gcol = vec4(gl_in[k].gl_CullDistance[0], gl_in[k].gl_CullDistance[1], gl_in[k].gl_ClipDistance[0],
                    gl_in[k].gl_ClipDistance[1]);
        EmitVertex();
    }
}
"""
    ctx = glhelp.context(W, H, api="compat")
    glhelp.link(ctx, {E.GL_VERTEX_SHADER: vs, E.GL_TESS_EVALUATION_SHADER: tes, E.GL_GEOMETRY_SHADER: gs,
                      E.GL_FRAGMENT_SHADER: FS})
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    assert _one_colour(ctx) == [64, 191, 128, 255]
