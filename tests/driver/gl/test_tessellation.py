"""Draws with tessellation (driver/gl/tessellation.py): images against hand-computed
expectations, the control stage's invocations sharing outputs across barrier(), patch
variables, default levels without a control stage, indexed and instanced patches, program
queries, link errors and draw-time errors."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import expect

W = H = 32

VS = """#version 400
in vec2 pos;
out vec4 vcol;
void main() { gl_Position = vec4(pos, 0.0, 1.0); vcol = vec4(1.0, 0.5, 0.25, 1.0); }
"""
TCS = """#version 400
layout(vertices = 3) out;
in vec4 vcol[];
out vec4 tcol[];
uniform float level;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    tcol[gl_InvocationID] = vcol[gl_InvocationID];
    gl_TessLevelOuter[0] = level;
    gl_TessLevelOuter[1] = level;
    gl_TessLevelOuter[2] = level;
    gl_TessLevelInner[0] = level;
}
"""
TES = """#version 400
layout(triangles, equal_spacing, ccw) in;
in vec4 tcol[];
out vec4 ecol;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    ecol = tcol[0];
}
"""
FS = """#version 400
in vec4 ecol;
out vec4 frag;
void main() { frag = ecol; }
"""


def _shader(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    return s


def _program(ctx, tcs=TCS, tes=TES, vs=VS, fs=FS, link_ok=True):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs),
                      (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_FRAGMENT_SHADER, fs)):
        if src is not None:
            ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert bool(ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0]) == link_ok, ctx.glGetProgramInfoLog(p)
    return p


def _vertices(ctx, p, pos):
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    pos = np.asarray(pos, np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, pos.nbytes, pos.tobytes(), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "pos")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)
    return vao


def _clear(ctx):
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


@pytest.fixture(scope="module")
def ctx():
    with driver.Context(api="gl43", width=W, height=H) as c:
        yield c


def _lit(img) -> np.ndarray:
    return img[..., :3].astype(int).sum(axis=2) > 0


def _half_square():
    """The lower-left half of the viewport (pixel centres with x + y < W - 1), as the
    triangle (-1,-1) (1,-1) (-1,1) covers it."""
    y, x = np.mgrid[0:H, 0:W]
    return (x + 0.5) + (y + 0.5) < W


def test_triangle_patch_covers_the_triangle_at_every_level(ctx):
    p = _program(ctx)
    ctx.glUseProgram(p)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    for level in (1.0, 3.0, 7.5):
        ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), level)
        _clear(ctx)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
        expect(ctx, E.GL_NO_ERROR)
        img = ctx.read_pixels()
        assert (_lit(img) == _half_square()).all(), level
        assert tuple(img[4, 4]) == (255, 128, 64, 255)


WIRE_TES = """#version 400
layout(triangles, equal_spacing, ccw) in;
out vec4 ecol;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    ecol = vec4(gl_TessCoord, 1.0);
}
"""


def test_evaluation_runs_per_generated_vertex_in_point_mode(ctx):
    """Point mode with level 2 on the triangle: 3 corners, 3 edge midpoints and the
    centre (inner level 2: the ring degenerates to it); each point is coloured with
    its gl_TessCoord (u, v, w)."""
    tes = WIRE_TES.replace("ccw)", "ccw, point_mode)")
    p = _program(ctx, tes=tes, tcs=TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
        "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", ""))
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    # corners at window (2.5, 2.5), (20.5, 2.5), (2.5, 20.5): every point on a pixel centre
    a, b = 2.5 / 16 - 1, 20.5 / 16 - 1
    _vertices(ctx, p, [[a, a], [b, a], [a, b]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    img = ctx.read_pixels()
    lit = np.argwhere(_lit(img))
    assert sorted(map(tuple, lit)) == sorted([(2, 2), (2, 20), (20, 2), (2, 11), (11, 2), (11, 11), (8, 8)])
    # the vertex (1/3, 1/3, 1/3) lands at the centroid; its colour is (85, 85, 85)
    assert tuple(img[8, 8][:3]) == (85, 85, 85)
    # corners: pure u, v, w colours
    colours = {tuple(int(c) for c in img[y, x][:3]) for y, x in lit}
    assert {(255, 0, 0), (0, 255, 0), (0, 0, 255), (128, 128, 0), (0, 128, 128), (128, 0, 128)} <= colours


BARRIER_TCS = """#version 400
layout(vertices = 4) out;
out float mine[];
patch out vec4 colour;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    mine[gl_InvocationID] = float(gl_InvocationID + 1) * 0.2;
    barrier();
    // each invocation reads its neighbour's output: only visible after the barrier
    float other = mine[(gl_InvocationID + 1) % 4];
    if (gl_InvocationID == 0) {
        colour = vec4(other, mine[2], mine[3], 1.0);
        gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0;
        gl_TessLevelOuter[2] = 1.0; gl_TessLevelOuter[3] = 1.0;
        gl_TessLevelInner[0] = 1.0; gl_TessLevelInner[1] = 1.0;
    }
}
"""
QUAD_TES = """#version 400
layout(quads) in;
patch in vec4 colour;
out vec4 ecol;
void main() {
    vec4 a = mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x);
    vec4 b = mix(gl_in[3].gl_Position, gl_in[2].gl_Position, gl_TessCoord.x);
    gl_Position = mix(a, b, gl_TessCoord.y);
    ecol = colour;
}
"""
QUAD_VS = "#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"


def test_control_invocations_share_outputs_across_barrier_and_patch_outputs(ctx):
    p = _program(ctx, tcs=BARRIER_TCS, tes=QUAD_TES, vs=QUAD_VS)
    ctx.glUseProgram(p)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    _vertices(ctx, p, [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    lit = _lit(img)
    assert lit[8:24, 8:24].all() and lit.sum() == 16 * 16
    # invocation 0 read mine[1] = 0.4, mine[2] = 0.6, mine[3] = 0.8
    assert np.abs(img[16, 16].astype(int) - (102, 153, 204, 255)).max() <= 1
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)


def test_default_levels_without_a_control_stage(ctx):
    """No control shader: the patch passes through, the levels are
    glPatchParameterfv's; an outer default of 0 discards every patch."""
    tes = QUAD_TES.replace("patch in vec4 colour;\n", "").replace("ecol = colour;", "ecol = vec4(0, 1, 0, 1);")
    p = _program(ctx, tcs=None, tes=tes, vs=QUAD_VS)
    ctx.glUseProgram(p)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    _vertices(ctx, p, [[-1, -1], [0, -1], [0, 0], [-1, 0]] + [[0, 0], [1, 0], [1, 1], [0, 1]])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [3, 3, 3, 3])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_INNER_LEVEL, [2, 2])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 8)
    expect(ctx, E.GL_NO_ERROR)
    lit = _lit(ctx.read_pixels())
    assert lit[:16, :16].all() and lit[16:, 16:].all() and lit.sum() == 2 * 16 * 16
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [0, 3, 3, 3])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 8)
    assert not _lit(ctx.read_pixels()).any()
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [1, 1, 1, 1])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_INNER_LEVEL, [1, 1])
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)


def test_indexed_instanced_patches_and_primitive_id(ctx):
    """Two patches from an index buffer, two instances: gl_PrimitiveID is the patch
    within the draw, gl_InstanceID moves each instance right by half the viewport."""
    vs = ("#version 400\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos.x + float(gl_InstanceID), pos.y, "
          "0.0, 1.0); }\n")
    tes = """#version 400
layout(triangles) in;
out vec4 ecol;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    ecol = gl_PrimitiveID == 0 ? vec4(1, 0, 0, 1) : vec4(0, 0, 1, 1);
}
"""
    tcs = TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
        "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
    p = _program(ctx, tcs=tcs, tes=tes, vs=vs)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    _vertices(ctx, p, [[-1, -1], [0, -1], [-1, 0], [0, 0]])
    idx = np.array([0, 1, 2, 2, 1, 3], np.uint16)
    ib = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ib)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
    _clear(ctx)
    ctx.glDrawElementsInstanced(E.GL_PATCHES, 6, E.GL_UNSIGNED_SHORT, 0, 2)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    for x0 in (0, 16):                  # both instances
        assert tuple(img[2, x0 + 2][:3]) == (255, 0, 0)          # first patch: lower-left triangle
        assert tuple(img[13, x0 + 13][:3]) == (0, 0, 255)        # second patch: upper-right triangle
    assert not _lit(img)[16:, :].any()


ISO_TES = """#version 400
layout(isolines, equal_spacing) in;
out vec4 ecol;
void main() {
    gl_Position = vec4(mix(-1.0, 1.0, gl_TessCoord.x), mix(-1.0, 1.0, gl_TessCoord.y) + 1.0 / 32.0, 0.0, 1.0);
    ecol = vec4(1.0);
}
"""


def test_isolines(ctx):
    """outer[0] = 4 lines at v = 0, 1/4, 2/4, 3/4 (none at v = 1), across the viewport."""
    p = _program(ctx, tcs=None, tes=ISO_TES, vs=QUAD_VS)
    ctx.glUseProgram(p)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 1)
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [4, 5, 1, 1])
    _vertices(ctx, p, [[0, 0]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 1)
    expect(ctx, E.GL_NO_ERROR)
    rows = np.nonzero(_lit(ctx.read_pixels()).any(axis=1))[0]
    assert list(rows) == [0, 8, 16, 24]
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [1, 1, 1, 1])
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)


def test_program_queries(ctx):
    tes = TES.replace("triangles, equal_spacing, ccw", "quads, fractional_odd_spacing, cw, point_mode")
    p = _program(ctx, tes=tes)
    assert ctx.glGetProgramiv(p, E.GL_TESS_CONTROL_OUTPUT_VERTICES) == [3]
    assert ctx.glGetProgramiv(p, E.GL_TESS_GEN_MODE) == [E.GL_QUADS]
    assert ctx.glGetProgramiv(p, E.GL_TESS_GEN_SPACING) == [E.GL_FRACTIONAL_ODD]
    assert ctx.glGetProgramiv(p, E.GL_TESS_GEN_VERTEX_ORDER) == [E.GL_CW]
    assert ctx.glGetProgramiv(p, E.GL_TESS_GEN_POINT_MODE) == [E.GL_TRUE]
    q = _program(ctx, tcs=None, tes="#version 400\nlayout(isolines) in;\nvoid main() { gl_Position = vec4(0); }\n",
                 fs=None)
    assert ctx.glGetProgramiv(q, E.GL_TESS_GEN_SPACING) == [E.GL_EQUAL]
    assert ctx.glGetProgramiv(q, E.GL_TESS_GEN_VERTEX_ORDER) == [E.GL_CCW]
    assert ctx.glGetProgramiv(q, E.GL_TESS_GEN_POINT_MODE) == [E.GL_FALSE]
    ctx.glGetProgramiv(q, E.GL_TESS_CONTROL_OUTPUT_VERTICES)
    expect(ctx, E.GL_INVALID_OPERATION)                 # no control stage
    r = _program(ctx, tcs=None, tes=None, fs=None)
    ctx.glGetProgramiv(r, E.GL_TESS_GEN_MODE)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_link_errors(ctx):
    # a control stage without an evaluation stage
    assert "needs a tessellation evaluation" in ctx.glGetProgramInfoLog(_program(ctx, tes=None, link_ok=False))
    # an evaluation input no control output feeds
    tes = TES.replace("ecol = tcol[0];", "ecol = tcol[0] + other[1];").replace("in vec4 tcol[];",
                                                                                "in vec4 tcol[];\nin vec4 other[];")
    assert "other" in ctx.glGetProgramInfoLog(_program(ctx, tes=tes, link_ok=False))
    # no primitive mode in the evaluation stage
    tes = TES.replace("layout(triangles, equal_spacing, ccw) in;", "layout(equal_spacing) in;")
    assert "primitive mode" in ctx.glGetProgramInfoLog(_program(ctx, tes=tes, link_ok=False))


def test_draw_mode_errors(ctx):
    p = _program(ctx)
    ctx.glUseProgram(p)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_INVALID_OPERATION)         # a program with tessellation draws only patches
    assert not _lit(ctx.read_pixels()).any()
    plain = _program(ctx, tcs=None, tes=None, fs=FS.replace("in vec4 ecol;", "in vec4 vcol;").replace(
        "frag = ecol", "frag = vcol"))
    ctx.glUseProgram(plain)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_INVALID_OPERATION)         # patches without tessellation
    ctx.glUseProgram(p)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 2)       # fewer vertices than a patch: nothing, no error
    expect(ctx, E.GL_NO_ERROR)
    assert not _lit(ctx.read_pixels()).any()


def test_tessellation_shaders_need_gl_40():
    with driver.Context(api="gl33", width=4, height=4) as c:
        assert not c.glCreateShader(E.GL_TESS_CONTROL_SHADER)
        expect(c, E.GL_INVALID_ENUM)


def test_primitives_generated_and_statistics():
    """Level 3 on a triangle: rings of 3 and 1 segments per side; any triangulation of
    the band between them has 3 x (3 + 1) triangles, plus the inner triangle: 13
    generated primitives, from 1 patch and 12 distinct vertices (one evaluation each)."""
    with driver.Context(api="compat", width=W, height=H) as c:
        p = _program(c)
        c.glUseProgram(p)
        c.glUniform1f(c.glGetUniformLocation(p, "level"), 3.0)
        _vertices(c, p, [[-1, -1], [1, -1], [-1, 1]] * 2)
        targets = (E.GL_PRIMITIVES_GENERATED, E.GL_TESS_CONTROL_SHADER_PATCHES,
                   E.GL_TESS_EVALUATION_SHADER_INVOCATIONS)
        qs = c.glGenQueries(len(targets))
        for t, q in zip(targets, qs):
            c.glBeginQuery(t, q)
        c.glDrawArrays(E.GL_PATCHES, 0, 6)
        for t in targets:
            c.glEndQuery(t)
        expect(c, E.GL_NO_ERROR)
        got = [c.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT)[0] for q in qs]
        assert got == [2 * 13, 2, 2 * 12]


def test_separable_programs_in_a_pipeline(ctx):
    """Each stage its own program (glCreateShaderProgramv), bound with
    glUseProgramStages's TESS_CONTROL/TESS_EVALUATION bits; a pipeline with a control
    program and no evaluation program does not validate."""
    vs = VS.replace("#version 400\n", "#version 410\nout gl_PerVertex { vec4 gl_Position; };\n")
    tcs = TCS.replace("#version 400\n", "#version 410\n").replace("uniform float level;", "const float level = 2.0;")
    tes = TES.replace("#version 400\n", "#version 410\n")
    progs = {}
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs),
                      (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_FRAGMENT_SHADER, FS)):
        progs[kind] = ctx.glCreateShaderProgramv(kind, 1, [src])
        assert ctx.glGetProgramiv(progs[kind], E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(progs[kind])
    pipe = ctx.glGenProgramPipelines(1)[0]
    ctx.glUseProgram(0)
    ctx.glBindProgramPipeline(pipe)
    ctx.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, progs[E.GL_VERTEX_SHADER])
    ctx.glUseProgramStages(pipe, E.GL_TESS_CONTROL_SHADER_BIT, progs[E.GL_TESS_CONTROL_SHADER])
    ctx.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, progs[E.GL_FRAGMENT_SHADER])
    expect(ctx, E.GL_NO_ERROR)
    ctx.glValidateProgramPipeline(pipe)
    assert ctx.glGetProgramPipelineiv(pipe, E.GL_VALIDATE_STATUS) == [0]
    ctx.glUseProgramStages(pipe, E.GL_TESS_EVALUATION_SHADER_BIT, progs[E.GL_TESS_EVALUATION_SHADER])
    assert ctx.glGetProgramPipelineiv(pipe, E.GL_TESS_EVALUATION_SHADER) == [progs[E.GL_TESS_EVALUATION_SHADER]]
    _vertices(ctx, progs[E.GL_VERTEX_SHADER], [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    assert (_lit(img) == _half_square()).all()
    assert tuple(img[4, 4]) == (255, 128, 64, 255)
    ctx.glBindProgramPipeline(0)


def test_an_empty_vertex_stage_is_not_counted_as_written(ctx):
    """An empty vertex shader before the tessellation stages (the control stage makes the
    patch's positions): PRIMITIVES_WRITTEN counts the evaluation stage's triangle only
    (the vertex pass has no outputs to capture, so nothing of it is taken off the count)."""
    tcs = """#version 400
layout(vertices = 3) out;
void main() {
    gl_out[gl_InvocationID].gl_Position = vec4(float(gl_InvocationID == 1), float(gl_InvocationID == 2), 0.0, 1.0);
    gl_TessLevelOuter[0] = gl_TessLevelOuter[1] = gl_TessLevelOuter[2] = 1.0;
    gl_TessLevelInner[0] = 1.0;
}
"""
    tes = """#version 400
layout(triangles) in;
void main() { gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                            + gl_TessCoord.z * gl_in[2].gl_Position; }
"""
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, "#version 400\nvoid main() { }\n"), (E.GL_TESS_CONTROL_SHADER, tcs),
                      (E.GL_TESS_EVALUATION_SHADER, tes)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(p, 1, ["gl_Position"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 48, None, E.GL_STATIC_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    q = ctx.glGenQueries(1)[0]
    ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    ctx.glEndTransformFeedback()
    ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
    ctx.glDisable(E.GL_RASTERIZER_DISCARD)              # (the context is the module's)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [1]
    data = np.frombuffer(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 48), np.float32).reshape(3, 4)
    assert {tuple(v) for v in data[:, :2].tolist()} == {(0, 0), (1, 0), (0, 1)}


def test_transform_feedback_records_the_generated_primitives(ctx):
    """A triangle patch at level 1 is one triangle, recorded as
    its three evaluated vertices; level 2 gives 6 triangles (ring of 6 edge segments
    around the centre): 18 records, 6 primitives written. The recorded primitive mode
    is the evaluation stage's (GL_TRIANGLES); GL_LINES does not match it."""
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS), (E.GL_TESS_EVALUATION_SHADER, TES),
                      (E.GL_FRAGMENT_SHADER, FS)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(p, 1, ["gl_Position"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64 * 16, None, E.GL_STATIC_READ)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    for level, triangles in ((1.0, 1), (2.0, 6)):
        ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), level)
        q = ctx.glGenQueries(1)[0]
        ctx.glBeginQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN, q)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(E.GL_TRANSFORM_FEEDBACK_PRIMITIVES_WRITTEN)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [triangles]
        data = np.frombuffer(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, triangles * 48),
                             np.float32).reshape(triangles, 3, 4)
        # every triangle inside the patch, counter-clockwise, their areas summing to the patch's (2)
        a, b, c = data[:, 0, :2], data[:, 1, :2], data[:, 2, :2]
        area = 0.5 * ((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1]))
        assert np.all(area > 0) and area.sum() == pytest.approx(2.0)
        if level == 1.0:
            assert {tuple(v) for v in data[0, :, :2].tolist()} == {(-1, -1), (1, -1), (-1, 1)}
    ctx.glBeginTransformFeedback(E.GL_LINES)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glEndTransformFeedback()


def test_indirect_draw_of_patches(ctx):
    p = _program(ctx)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    _vertices(ctx, p, [[0, 0], [0, 0], [0, 0], [-1, -1], [1, -1], [-1, 1]])
    cmd = np.array([3, 1, 3, 0], np.uint32)          # count, instances, first, base instance
    ib = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ib)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmd.nbytes, cmd.tobytes(), E.GL_STATIC_DRAW)
    _clear(ctx)
    ctx.glDrawArraysIndirect(E.GL_PATCHES, 0)
    expect(ctx, E.GL_NO_ERROR)
    assert (_lit(ctx.read_pixels()) == _half_square()).all()
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, 0)


GS_AFTER = """#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
in vec4 ecol[];
out vec4 gcol;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        gcol = ecol[i].bgra;
        EmitVertex();
    }
}
"""


def test_geometry_stage_after_tessellation(ctx):
    """The evaluation stage's triangles feed the geometry stage, which swaps the colour's
    channels; a geometry stage taking points is refused at draw time."""
    fs = FS.replace("in vec4 ecol;", "in vec4 gcol;").replace("frag = ecol", "frag = gcol")
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS), (E.GL_TESS_EVALUATION_SHADER, TES),
                      (E.GL_GEOMETRY_SHADER, GS_AFTER), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 3.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    assert (_lit(img) == _half_square()).all()
    assert tuple(img[4, 4]) == (64, 128, 255, 255)
    points_gs = GS_AFTER.replace("layout(triangles) in;", "layout(points) in;").replace("i < 3", "i < 1")
    q = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS), (E.GL_TESS_EVALUATION_SHADER, TES),
                      (E.GL_GEOMETRY_SHADER, points_gs), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(q, _shader(ctx, kind, src))
    ctx.glLinkProgram(q)
    ctx.glUseProgram(q)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_sampler_and_uniform_block_in_the_evaluation_stage(ctx):
    """A texture (yellow) times a uniform block's tint (1, 0.5, 1, 1) colours the patch;
    the block is referenced by the evaluation stage only."""
    tes = """#version 400
layout(triangles) in;
out vec4 ecol;
uniform sampler2D tex;
layout(std140) uniform Colours { vec4 tint; };
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    ecol = textureLod(tex, vec2(0.5), 0.0) * tint;
}
"""
    tcs = TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
        "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
    p = _program(ctx, tcs=tcs, tes=tes)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    t = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([255, 255, 0, 255]))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ub = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_UNIFORM_BUFFER, ub)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, 16, np.array([1, 0.5, 1, 1], np.float32).tobytes(), E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, ub)
    idx = ctx.glGetUniformBlockIndex(p, "Colours")
    ctx.glUniformBlockBinding(p, idx, 0)
    assert ctx.glGetActiveUniformBlockiv(p, idx, E.GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_EVALUATION_SHADER) == [1]
    assert ctx.glGetActiveUniformBlockiv(p, idx, E.GL_UNIFORM_BLOCK_REFERENCED_BY_TESS_CONTROL_SHADER) == [0]
    assert ctx.glGetProgramResourceiv(p, E.GL_UNIFORM_BLOCK, idx, 2, [
        E.GL_REFERENCED_BY_TESS_EVALUATION_SHADER, E.GL_REFERENCED_BY_TESS_CONTROL_SHADER], 2) == [1, 0]
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    assert (_lit(img) == _half_square()).all()
    assert tuple(img[4, 4]) == (255, 128, 0, 255)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, 0)


def test_tessellated_draws_do_not_wait_for_the_gpu(ctx, monkeypatch):
    """The tessellator's counts size the evaluation dispatch and the draw on the GPU
    (indirect): drawing patches never waits for the GPU (no CPU access to a resource the
    GPU writes, no finish) and takes no CPU fallback; the image is then the covered
    triangle and quad."""
    from driver.agx import fallbacks
    waits, drawing = [], []

    def counted(name):
        real = getattr(ctx.pipe, name)

        def wrapper(*args, **kwargs):
            if drawing:
                waits.append(name)
            return real(*args, **kwargs)
        monkeypatch.setattr(ctx.pipe, name, wrapper)
    counted("_sync_resource")
    counted("_finish")

    def draw(count):
        drawing.append(1)
        try:
            ctx.glDrawArrays(E.GL_PATCHES, 0, count)
        finally:
            drawing.clear()
    p = _program(ctx)
    ctx.glUseProgram(p)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    before = dict(fallbacks.COUNTS)
    for level in (1.0, 4.0, 64.0):
        ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), level)
        draw(3)
    quad = _program(ctx, tcs=None, tes=QUAD_TES.replace("patch in vec4 colour;\n", "").replace(
        "ecol = colour;", "ecol = vec4(0, 1, 0, 1);"), vs=QUAD_VS)
    ctx.glUseProgram(quad)
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
    _vertices(ctx, quad, [[0, 0], [1, 0], [1, 1], [0, 1]])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [5, 2, 7, 3])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_INNER_LEVEL, [4, 6])
    draw(4)
    assert waits == [], "a tessellated draw waited for the GPU"
    assert dict(fallbacks.COUNTS) == before, "a tessellated draw fell back to the CPU"
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    quadrant = np.zeros((H, W), bool)
    quadrant[16:, 16:] = True
    assert (_lit(img) == (_half_square() | quadrant)).all()
    assert tuple(img[4, 4]) == (255, 128, 64, 255) and tuple(img[20, 20]) == (0, 255, 0, 255)
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [1, 1, 1, 1])
    ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_INNER_LEVEL, [1, 1])
    ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 3)


def test_patches_in_runs(ctx, monkeypatch):
    """A draw whose worst case exceeds the run budget is tessellated in runs of patches:
    with a budget of one patch, 4 patches (2 instances of 2) give the same pixels,
    primitive count (4 x 13 at level 3) and transform feedback records (in patch order)
    as one run."""
    from driver.gl import tessellation
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_TESS_CONTROL_SHADER, TCS), (E.GL_TESS_EVALUATION_SHADER, TES),
                      (E.GL_FRAGMENT_SHADER, FS)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(p, 1, ["gl_Position"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(p)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 3.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1], [1, 1], [-1, 1], [1, -1]])
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    results = []
    for budget in (tessellation.RUN_BUDGET_B, 1):
        monkeypatch.setattr(tessellation, "RUN_BUDGET_B", budget)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * 13 * 48, None, E.GL_STATIC_READ)
        q = ctx.glGenQueries(1)[0]
        _clear(ctx)
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArraysInstanced(E.GL_PATCHES, 0, 6, 2)
        ctx.glEndTransformFeedback()
        ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [4 * 13]
        data = np.frombuffer(ctx.glGetBufferSubData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * 13 * 48), np.float32)
        results.append((ctx.read_pixels(), data.reshape(4, 13, 3, 4)))
    (img_one, rec_one), (img_runs, rec_runs) = results
    assert _lit(img_one).all() and (img_one == img_runs).all()
    np.testing.assert_array_equal(rec_one, rec_runs)
    # patch order: the first patch's triangles lie in the lower-left half, the second's in the upper-right
    assert (rec_one[0, :, :, :2].sum(axis=2) <= 1e-6).all() and (rec_one[1, :, :, :2].sum(axis=2) >= -1e-6).all()
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0)


def test_stages_of_several_shader_objects(ctx):
    """GL 4.6 section 7.3: a stage may be made of several shader objects, one with main();
    the control stage's level and the evaluation stage's position and colour come from
    functions defined in a second object of each stage (level 3: the 13-triangle patch,
    coloured by the second object's function)."""
    tcs_main = """#version 400
layout(vertices = 3) out;
float level_for(int i);
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    gl_TessLevelOuter[0] = level_for(0);
    gl_TessLevelOuter[1] = level_for(1);
    gl_TessLevelOuter[2] = level_for(2);
    gl_TessLevelInner[0] = level_for(3);
}
"""
    tcs_lib = "#version 400\nuniform float level;\nfloat level_for(int i) { return level + 0.0 * float(i); }\n"
    tes_main = """#version 400
layout(triangles, equal_spacing, ccw) in;
out vec4 ecol;
vec4 interpolate(vec3 coord);
vec4 colour();
void main() {
    gl_Position = interpolate(gl_TessCoord);
    ecol = colour();
}
"""
    tes_lib = """#version 400
layout(triangles) in;
vec4 interpolate(vec3 c) {
    return c.x * gl_in[0].gl_Position + c.y * gl_in[1].gl_Position + c.z * gl_in[2].gl_Position;
}
vec4 colour() { return vec4(0.0, 0.5, 1.0, 1.0); }
"""
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, QUAD_VS), (E.GL_TESS_CONTROL_SHADER, tcs_main),
                      (E.GL_TESS_CONTROL_SHADER, tcs_lib), (E.GL_TESS_EVALUATION_SHADER, tes_lib),
                      (E.GL_TESS_EVALUATION_SHADER, tes_main), (E.GL_FRAGMENT_SHADER, FS)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 3.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    q = ctx.glGenQueries(1)[0]
    _clear(ctx)
    ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [13]
    img = ctx.read_pixels()
    assert (_lit(img) == _half_square()).all()
    assert tuple(img[4, 4]) == (0, 128, 255, 255)


def test_images_atomic_counters_and_storage_buffers_in_both_stages(ctx):
    """Both stages use an atomic counter, a storage buffer and an image: the control
    stage counts its invocations (3 per patch, 2 patches) in total and per patch, and
    stores 30 + patch in the image at (patch, invocation); the evaluation stage counts
    its invocations (12 distinct vertices per patch at level 3: 24) in total, per patch
    in a storage buffer and per patch with an image atomic. The evaluation kernel's
    idle invocations (its workgroups are 64 wide) must not count."""
    tcs = """#version 420
#extension GL_ARB_shader_storage_buffer_object : require
layout(vertices = 3) out;
layout(binding = 0, offset = 0) uniform atomic_uint control_calls;
layout(std430, binding = 1) buffer ControlOut { uint control_words[]; };
layout(binding = 2, r32ui) uniform writeonly uimage2D levels;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    atomicCounterIncrement(control_calls);
    atomicAdd(control_words[gl_PrimitiveID], 1u);
    imageStore(levels, ivec2(gl_PrimitiveID, gl_InvocationID), uvec4(30u + uint(gl_PrimitiveID)));
    gl_TessLevelOuter[0] = 3.0;
    gl_TessLevelOuter[1] = 3.0;
    gl_TessLevelOuter[2] = 3.0;
    gl_TessLevelInner[0] = 3.0;
}
"""
    tes = """#version 420
#extension GL_ARB_shader_storage_buffer_object : require
layout(triangles, equal_spacing, ccw) in;
layout(binding = 0, offset = 4) uniform atomic_uint evaluation_calls;
layout(std430, binding = 2) buffer EvalOut { uint eval_words[]; };
layout(binding = 3, r32ui) uniform uimage2D marks;
out vec4 ecol;
void main() {
    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * gl_in[1].gl_Position
                + gl_TessCoord.z * gl_in[2].gl_Position;
    atomicCounterIncrement(evaluation_calls);
    atomicAdd(eval_words[gl_PrimitiveID], 1u);
    imageAtomicAdd(marks, ivec2(gl_PrimitiveID, 0), 1u);
    ecol = vec4(1.0);
}
"""
    p = _program(ctx, tcs=tcs, tes=tes, vs=QUAD_VS)
    ctx.glUseProgram(p)
    acb = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ATOMIC_COUNTER_BUFFER, acb)
    ctx.glBufferData(E.GL_ATOMIC_COUNTER_BUFFER, 8, bytes(8), E.GL_DYNAMIC_DRAW)
    ctx.glBindBufferBase(E.GL_ATOMIC_COUNTER_BUFFER, 0, acb)
    ssbos = ctx.glGenBuffers(2)
    for binding, buf in zip((1, 2), ssbos):
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
        ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 8, bytes(8), E.GL_DYNAMIC_DRAW)
        ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, binding, buf)
    textures = ctx.glGenTextures(2)
    for unit, tex in zip((2, 3), textures):
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32UI, 2, 3)
        ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 3, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, bytes(24))
        ctx.glBindImageTexture(unit, tex, 0, False, 0, E.GL_READ_WRITE, E.GL_R32UI)
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "levels"), 2)
    ctx.glUniform1i(ctx.glGetUniformLocation(p, "marks"), 3)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1], [1, 1], [-1, 1], [1, -1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glMemoryBarrier(E.GL_ALL_BARRIER_BITS)
    assert (_lit(ctx.read_pixels())).all()
    ctx.glBindBuffer(E.GL_ATOMIC_COUNTER_BUFFER, acb)
    assert np.frombuffer(ctx.glGetBufferSubData(E.GL_ATOMIC_COUNTER_BUFFER, 0, 8), np.uint32).tolist() == [6, 24]
    for buf, expected in zip(ssbos, ([3, 3], [12, 12])):
        ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, buf)
        assert np.frombuffer(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 8), np.uint32).tolist() == expected
    for tex, expected in zip(textures, ([[30, 31]] * 3, [[12, 12], [0, 0], [0, 0]])):
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT), np.uint32)
        assert got.reshape(3, 2).tolist() == expected


def test_eighty_texture_units_across_the_five_stages(ctx):
    """GL 4.0 needs 80 combined texture image units (16 per stage, 5 stages; GL 4.6
    table 23.57): gl_MaxCombinedTextureImageUnits is the API's value, and a program
    whose five stages each sample 16 units (units 0..79, one 1x1 texture each, unit k
    holding k) sees every unit's own texel: each stage sums its 16 texels and the
    fragment stage adds up the five sums (0 + 1 + ... + 79 = 3160) and the constant."""
    assert ctx.glGetIntegerv(E.GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS) == [80]
    for pname in (E.GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS, E.GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS,
                  E.GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS, E.GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS,
                  E.GL_MAX_TEXTURE_IMAGE_UNITS):
        assert ctx.glGetIntegerv(pname) == [16]
    vs = ("#version 400\nin vec2 pos;\nuniform usampler2D t[16];\nout float v_sum;\n"
          "void main() { gl_Position = vec4(pos, 0.0, 1.0); v_sum = 0.0; "
          "for (int i = 0; i < 16; i++) v_sum += float(texelFetch(t[i], ivec2(0), 0).r); }\n")
    tcs = ("#version 400\nlayout(vertices = 3) out;\nin float v_sum[];\nout float c_sum[];\n"
           "uniform usampler2D tc[16];\nvoid main() {\n"
           "    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;\n"
           "    float s = v_sum[gl_InvocationID];\n"
           "    for (int i = 0; i < 16; i++) s += float(texelFetch(tc[i], ivec2(0), 0).r);\n"
           "    c_sum[gl_InvocationID] = s;\n"
           "    gl_TessLevelOuter[0] = 1.0; gl_TessLevelOuter[1] = 1.0; gl_TessLevelOuter[2] = 1.0;\n"
           "    gl_TessLevelInner[0] = 1.0;\n}\n")
    tes = ("#version 400\nlayout(triangles) in;\nin float c_sum[];\nout float e_sum;\nuniform usampler2D te[16];\n"
           "void main() {\n    gl_Position = gl_TessCoord.x * gl_in[0].gl_Position + gl_TessCoord.y * "
           "gl_in[1].gl_Position + gl_TessCoord.z * gl_in[2].gl_Position;\n    float s = c_sum[0];\n"
           "    for (int i = 0; i < 16; i++) s += float(texelFetch(te[i], ivec2(0), 0).r);\n    e_sum = s;\n}\n")
    gs = ("#version 400\nlayout(triangles) in;\nlayout(triangle_strip, max_vertices = 3) out;\nin float e_sum[];\n"
          "out float g_sum;\nuniform usampler2D tg[16];\nvoid main() {\n    float s = e_sum[0];\n"
          "    for (int i = 0; i < 16; i++) s += float(texelFetch(tg[i], ivec2(0), 0).r);\n"
          "    for (int k = 0; k < 3; k++) { gl_Position = gl_in[k].gl_Position; g_sum = s; EmitVertex(); }\n}\n")
    fs = ("#version 400\nin float g_sum;\nout vec4 frag;\nuniform usampler2D tf[16];\nvoid main() {\n"
          "    float s = g_sum;\n    for (int i = 0; i < 16; i++) s += float(texelFetch(tf[i], ivec2(0), 0).r);\n"
          "    bool ok = s == 3160.0 && gl_MaxCombinedTextureImageUnits == 80;\n"
          "    frag = ok ? vec4(0.0, 1.0, 0.0, 1.0) : vec4(1.0, s / 4096.0, 0.0, 1.0);\n}\n")
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs), (E.GL_TESS_EVALUATION_SHADER, tes),
                      (E.GL_GEOMETRY_SHADER, gs), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    textures = ctx.glGenTextures(80)
    for unit, tex in enumerate(textures):
        ctx.glActiveTexture(E.GL_TEXTURE0 + unit)
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_R32UI, 1, 1, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT,
                         np.uint32(unit).tobytes())
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)    # integer: complete
    ctx.glActiveTexture(E.GL_TEXTURE0)
    for stage, name in enumerate(("t", "tc", "te", "tg", "tf")):
        ctx.glUniform1iv(ctx.glGetUniformLocation(p, f"{name}[0]"), 16, list(range(16 * stage, 16 * stage + 16)))
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    img = ctx.read_pixels()
    assert (_lit(img) == _half_square()).all()
    assert tuple(img[4, 4]) == (0, 255, 0, 255), tuple(img[4, 4])
    ctx.glDeleteTextures(80, textures)


def test_image_atomic_and_storage_limits_of_the_stages(ctx):
    """The stages' image, atomic counter and storage block limits are the kernels' (the
    compute stage's): non-zero, and each gl_MaxTess* constant equals its GL query (the
    control shader compares them and draws its patch only if all are equal: an outer
    level of 0 discards it)."""
    pairs = [(E.GL_MAX_TESS_CONTROL_IMAGE_UNIFORMS, "gl_MaxTessControlImageUniforms"),
             (E.GL_MAX_TESS_EVALUATION_IMAGE_UNIFORMS, "gl_MaxTessEvaluationImageUniforms"),
             (E.GL_MAX_TESS_CONTROL_ATOMIC_COUNTERS, "gl_MaxTessControlAtomicCounters"),
             (E.GL_MAX_TESS_EVALUATION_ATOMIC_COUNTERS, "gl_MaxTessEvaluationAtomicCounters"),
             (E.GL_MAX_TESS_CONTROL_ATOMIC_COUNTER_BUFFERS, "gl_MaxTessControlAtomicCounterBuffers"),
             (E.GL_MAX_TESS_EVALUATION_ATOMIC_COUNTER_BUFFERS, "gl_MaxTessEvaluationAtomicCounterBuffers")]
    values = [ctx.glGetIntegerv(pname)[0] for pname, _name in pairs]
    assert all(v > 0 for v in values), values
    equal = " && ".join(f"{name} == {v}" for (_p, name), v in zip(pairs, values))
    tcs = TCS.replace("#version 400", "#version 420").replace(
        "gl_TessLevelOuter[0] = level;", f"gl_TessLevelOuter[0] = ({equal}) ? level : 0.0;")
    p = _program(ctx, tcs=tcs)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    _clear(ctx)
    ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    assert (_lit(ctx.read_pixels()) == _half_square()).all()
    for pname in (E.GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS, E.GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS):
        assert ctx.glGetIntegerv(pname) == ctx.glGetIntegerv(E.GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS)


GS_TWICE = """#version 400
layout(triangles) in;
layout(triangle_strip, max_vertices = 6) out;
in float e_clip[];
out vec4 gcol;
void main() {
    for (int copy = 0; copy < 2; copy++) {
        for (int i = 0; i < 3; i++) {
            gl_Position = gl_in[i].gl_Position;
            gl_ClipDistance[0] = gl_in[i].gl_ClipDistance[0];
            gcol = vec4(0.0, 1.0, e_clip[i] == gl_in[i].gl_ClipDistance[0] ? 1.0 : 0.0, 1.0);
            EmitVertex();
        }
        EndPrimitive();
    }
}
"""


def test_primitives_generated_and_clip_distances_through_tessellation_and_geometry(ctx):
    """With a geometry stage after tessellation, GL_PRIMITIVES_GENERATED counts what the
    geometry stage emits (GL 4.6 section 13.3: the primitives reaching the rasteriser):
    level 3 gives 13 triangles, each emitted twice: 26. The evaluation stage's
    gl_ClipDistance[0] (x + y, also passed as a varying) reaches the geometry stage's
    gl_in[].gl_ClipDistance; written on and enabled, it keeps the half x + y >= 0."""
    tes = TES.replace("out vec4 ecol;", "out float e_clip;").replace(
        "    ecol = tcol[0];", "    gl_ClipDistance[0] = gl_Position.x + gl_Position.y;\n"
                              "    e_clip = gl_ClipDistance[0];")
    tcs = TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
        "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
    tes = tes.replace("in vec4 tcol[];\n", "")
    fs = FS.replace("in vec4 ecol;", "in vec4 gcol;").replace("frag = ecol", "frag = gcol")
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, QUAD_VS), (E.GL_TESS_CONTROL_SHADER, tcs),
                      (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_GEOMETRY_SHADER, GS_TWICE),
                      (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(p, _shader(ctx, kind, src))
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 3.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1], [1, 1], [-1, 1], [1, -1]])
    y, x = np.mgrid[0:H, 0:W]
    for clip, expected in ((False, np.ones((H, W), bool)), (True, (x + 0.5) + (y + 0.5) >= W)):
        if clip:
            ctx.glEnable(E.GL_CLIP_DISTANCE0)
        q = ctx.glGenQueries(1)[0]
        _clear(ctx)
        ctx.glBeginQuery(E.GL_PRIMITIVES_GENERATED, q)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 6)
        ctx.glEndQuery(E.GL_PRIMITIVES_GENERATED)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT) == [2 * 2 * 13]
        img = ctx.read_pixels()
        lit = _lit(img)
        far = np.abs((x + 0.5) + (y + 0.5) - W) > 1.5          # away from the clip line
        assert (lit[far] == expected[far]).all(), clip
        assert tuple(img[2, 2] if not clip else img[28, 28]) == (0, 255, 255, 255)
    ctx.glDisable(E.GL_CLIP_DISTANCE0)


@pytest.mark.parametrize("stage", ["tcs", "tes"])
def test_uniform_limits_of_the_stages_are_link_errors(ctx, stage):
    """GL 4.6 section 7.6: a stage's active default-block uniforms may take up to
    MAX_TESS_*_UNIFORM_COMPONENTS components (1024 floats link, 1025 do not) and it may
    use up to MAX_TESS_*_UNIFORM_BLOCKS blocks (an array of 14 links, of 15 does not)."""
    limit = ctx.glGetIntegerv(E.GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS if stage == "tcs"
                              else E.GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS)[0]
    blocks = ctx.glGetIntegerv(E.GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS if stage == "tcs"
                               else E.GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS)[0]
    assert (limit, blocks) == (1024, 14)

    def source(decl, use):
        if stage == "tcs":
            return TCS.replace("uniform float level;", f"uniform float level;\n{decl}").replace(
                "gl_TessLevelOuter[0] = level;", f"gl_TessLevelOuter[0] = level + 0.0 * ({use});")
        return TES.replace("out vec4 ecol;", f"out vec4 ecol;\n{decl}").replace(
            "ecol = tcol[0];", f"ecol = tcol[0] + vec4(0.0 * ({use}));")

    others = 1 if stage == "tcs" else 0         # the control shader's own `level'
    for n, ok in ((limit - others, True), (limit - others + 1, False)):
        src = source(f"uniform float big[{n}];", "big[0] + big[big.length() - 1]")
        p = _program(ctx, **{stage: src}, link_ok=ok)
        if not ok:
            assert f"{limit + 1} components" in ctx.glGetProgramInfoLog(p)
    for n, ok in ((blocks, True), (blocks + 1, False)):
        src = source(f"layout(std140) uniform Block {{ vec4 v; }} many[{n}];",
                     " + ".join(f"many[{i}].v.x" for i in range(n)))
        p = _program(ctx, **{stage: src}, link_ok=ok)
        if not ok:
            assert f"{n} uniform blocks" in ctx.glGetProgramInfoLog(p)


def test_patches_between_begin_and_end():
    """Compatibility contexts draw GL_PATCHES between glBegin and glEnd as glDrawArrays
    does (GL 4.6 compatibility section 10.7.5: Begin takes the modes of section 10.1);
    two triangle patches from glVertex2f (gl_Vertex) cover the square, green."""
    with driver.Context(api="compat", width=W, height=H) as c:
        vs = "#version 400 compatibility\nvoid main() { gl_Position = gl_Vertex; }\n"
        tcs = TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
            "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
        tes = TES.replace("in vec4 tcol[];\n", "").replace("ecol = tcol[0];", "ecol = vec4(0.0, 1.0, 0.0, 1.0);")
        p = _program(c, tcs=tcs, tes=tes, vs=vs)
        c.glUseProgram(p)
        c.glUniform1f(c.glGetUniformLocation(p, "level"), 2.0)
        _clear(c)
        c.glBegin(E.GL_PATCHES)
        for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1), (-1, 1), (1, -1)):
            c.glVertex2f(x, y)
        c.glEnd()
        expect(c, E.GL_NO_ERROR)
        img = c.read_pixels()
        assert (img == (0, 255, 0, 255)).all()
        c.glBegin(E.GL_TRIANGLES)                   # a program with tessellation draws only patches
        c.glVertex2f(0, 0)
        c.glEnd()
        expect(c, E.GL_INVALID_OPERATION)


def test_the_extension_is_listed_from_gl_40():
    """GL_ARB_tessellation_shader is listed in GL 4.0+ contexts (core and compatibility),
    where its commands, limits and GL_PATCHES exist, and not in a 3.3 one; a GLSL 1.50
    program with the #extension line draws in a listed context (as piglit's tests are
    written)."""
    def names(c):
        return [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
    with driver.Context(api="gl33", width=4, height=4) as c:
        assert "GL_ARB_tessellation_shader" not in names(c)
    for api in ("gl43", "compat"):
        with driver.Context(api=api, width=W, height=H) as c:
            assert "GL_ARB_tessellation_shader" in names(c)
            ext = "#version 150\n#extension GL_ARB_tessellation_shader : require\n"
            vs = "#version 150\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
            tcs = TCS.replace("#version 400\n", ext).replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
                "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
            tes = TES.replace("#version 400\n", ext).replace("in vec4 tcol[];\n", "").replace(
                "ecol = tcol[0];", "ecol = vec4(1.0);")
            fs = "#version 150\nin vec4 ecol;\nout vec4 frag;\nvoid main() { frag = ecol; }\n"
            p = _program(c, tcs=tcs, tes=tes, vs=vs, fs=fs)
            c.glUseProgram(p)
            c.glUniform1f(c.glGetUniformLocation(p, "level"), 4.0)
            _vertices(c, p, [[-1, -1], [1, -1], [-1, 1]])
            _clear(c)
            c.glDrawArrays(E.GL_PATCHES, 0, 3)
            expect(c, E.GL_NO_ERROR)
            assert (_lit(c.read_pixels()) == _half_square()).all()


def test_primitive_restart_is_disabled_for_patches(ctx):
    """GL 4.6 section 10.3.6: GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED is FALSE, so
    restart is treated as disabled when drawing patches: with the restart index 2, the
    indices (0, 1, 2) are still one whole triangle patch."""
    assert ctx.glGetBooleanv(E.GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED) == [False]
    p = _program(ctx)
    ctx.glUseProgram(p)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "level"), 2.0)
    _vertices(ctx, p, [[-1, -1], [1, -1], [-1, 1]])
    ib = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ib)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 6, np.array([0, 1, 2], np.uint16).tobytes(), E.GL_STATIC_DRAW)
    ctx.glEnable(E.GL_PRIMITIVE_RESTART)
    ctx.glPrimitiveRestartIndex(2)
    _clear(ctx)
    ctx.glDrawElements(E.GL_PATCHES, 3, E.GL_UNSIGNED_SHORT, 0)
    ctx.glDisable(E.GL_PRIMITIVE_RESTART)
    expect(ctx, E.GL_NO_ERROR)
    lit = _lit(ctx.read_pixels())
    assert (lit == _half_square()).all(), (lit.sum(), _half_square().sum())


def test_begin_end_vertices_reach_an_attribute_at_location_0():
    """Generic attribute 0 aliases the vertex position (GL 4.6 compatibility section
    10.2): a program whose own attribute is bound at location 0 reads the glVertex2f
    values of a glBegin(GL_PATCHES) batch (as piglit's immediate-mode-draw-patches)."""
    with driver.Context(api="compat", width=W, height=H) as c:
        vs = "#version 400 compatibility\nin vec4 position;\nvoid main() { gl_Position = position; }\n"
        tcs = TCS.replace("in vec4 vcol[];\nout vec4 tcol[];", "").replace(
            "    tcol[gl_InvocationID] = vcol[gl_InvocationID];\n", "")
        tes = TES.replace("in vec4 tcol[];\n", "").replace("ecol = tcol[0];", "ecol = vec4(0.0, 1.0, 0.0, 1.0);")
        p = c.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_TESS_CONTROL_SHADER, tcs),
                          (E.GL_TESS_EVALUATION_SHADER, tes), (E.GL_FRAGMENT_SHADER, FS)):
            c.glAttachShader(p, _shader(c, kind, src))
        c.glBindAttribLocation(p, 0, "position")
        c.glLinkProgram(p)
        assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
        c.glUseProgram(p)
        c.glUniform1f(c.glGetUniformLocation(p, "level"), 1.0)
        _clear(c)
        c.glBegin(E.GL_PATCHES)
        for x, y in ((-1, -1), (1, -1), (-1, 1)):
            c.glVertex2f(x, y)
        c.glEnd()
        expect(c, E.GL_NO_ERROR)
        img = c.read_pixels()
        assert (_lit(img) == _half_square()).all() and tuple(img[2, 2]) == (0, 255, 0, 255)
