"""Program pipelines and separable programs (GL 4.6 section 7.4, GLES 3.1
section 7.4)."""

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from driver.gl.objects import program_object
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

VS = """#version 310 es
layout(location = 0) in vec4 p;
layout(location = 0) out vec4 v;
void main() { gl_Position = p; v = p; }
"""
FS = """#version 310 es
precision mediump float;
layout(location = 0) in vec4 v;
uniform vec4 tint;
out vec4 o;
void main() { o = v * tint; }
"""


def separable(c, type, src):
    p = c.glCreateShaderProgramv(type, 1, [src])
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    assert c.glGetProgramiv(p, E.GL_PROGRAM_SEPARABLE) == [1]
    return p


def test_pipeline_draw_uses_each_stage_program():
    c = make_ctx("gles31")
    vs, fs = separable(c, E.GL_VERTEX_SHADER, VS), separable(c, E.GL_FRAGMENT_SHADER, FS)
    (pl,) = c.glGenProgramPipelines(1)
    c.glBindProgramPipeline(pl)
    c.glUseProgramStages(pl, E.GL_VERTEX_SHADER_BIT, vs)
    (vao,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(vao)
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(c, E.GL_INVALID_OPERATION)                      # ES: fragment stage missing
    c.glUseProgramStages(pl, E.GL_FRAGMENT_SHADER_BIT, fs)
    c.glValidateProgramPipeline(pl)
    assert c.glGetProgramPipelineiv(pl, E.GL_VALIDATE_STATUS) == [1], c.glGetProgramPipelineInfoLog(pl)
    assert c.glGetProgramPipelineiv(pl, E.GL_FRAGMENT_SHADER) == [fs]
    c.glActiveShaderProgram(pl, fs)
    c.glUniform4f(c.glGetUniformLocation(fs, "tint"), 1, 2, 3, 4)
    assert c.glGetUniformfv(fs, c.glGetUniformLocation(fs, "tint")) == [1.0, 2.0, 3.0, 4.0]
    c.pipe.calls.clear()
    c.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    assert c.glGetError() == E.GL_NO_ERROR
    bound = {a[0]: a[1] for n, a in c.pipe.calls if n == "bind_shader_state"}
    ls = lambda p: program_object(c, p).linked_state                # noqa: E731
    assert bound[PipeShaderType.VERTEX] is ls(vs).pipe_shaders[PipeShaderType.VERTEX]
    assert bound[PipeShaderType.FRAGMENT] is ls(fs).pipe_shaders[PipeShaderType.FRAGMENT]
    assert c.glGetIntegerv(E.GL_PROGRAM_PIPELINE_BINDING) == [pl]


def test_pipeline_errors():
    c = make_ctx("gles31")
    (pl,) = c.glGenProgramPipelines(1)
    p = c.glCreateProgram()
    c.glUseProgramStages(pl, E.GL_VERTEX_SHADER_BIT, p)
    expect(c, E.GL_INVALID_OPERATION)                      # not separable
    c.glUseProgramStages(pl, 0x100, 0)
    expect(c, E.GL_INVALID_VALUE)
    c.glUseProgramStages(99, E.GL_VERTEX_SHADER_BIT, 0)
    expect(c, E.GL_INVALID_OPERATION)
    c.glBindProgramPipeline(99)
    expect(c, E.GL_INVALID_OPERATION)
    es3 = make_ctx("gles3")
    es3.glGenProgramPipelines(1)
    expect(es3, E.GL_INVALID_OPERATION)


def test_mismatched_stage_interfaces_fail_validation():
    c = make_ctx("gles31")
    vs = separable(c, E.GL_VERTEX_SHADER, VS)
    fs = separable(c, E.GL_FRAGMENT_SHADER, FS.replace("in vec4 v;", "in vec3 v;").replace(
        "o = v * tint;", "o = vec4(v, 1.0) * tint;"))
    (pl,) = c.glGenProgramPipelines(1)
    c.glUseProgramStages(pl, E.GL_VERTEX_SHADER_BIT, vs)
    c.glUseProgramStages(pl, E.GL_FRAGMENT_SHADER_BIT, fs)
    c.glValidateProgramPipeline(pl)
    assert c.glGetProgramPipelineiv(pl, E.GL_VALIDATE_STATUS) == [0]
    assert "type" in c.glGetProgramPipelineInfoLog(pl)


RV_VS = """#version 150
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_explicit_attrib_location : require
layout(location = 0) in vec4 pos;
layout(location = 2) out vec3 a;
layout(location = 4) out vec3 b;
layout(location = 3) out vec3 c;
void main() { gl_Position = pos; a = vec3(0.5, 0.0, 0.25); b = vec3(0.375, 0.0, 0.125); c = vec3(0.75, 0.0, 1.0); }
"""
RV_GS = """#version 150
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_explicit_attrib_location : require
layout(triangles) in;
layout(triangle_strip, max_vertices = 3) out;
layout(location = 4) in vec3 first[];      // b: (0.375, 0, 0.125)
layout(location = 2) in vec3 second[];     // a: (0.5, 0, 0.25)
layout(location = 2) out vec3 ga;
layout(location = 3) out vec3 gb;
void main() {
    for (int i = 0; i < 3; i++) {
        gl_Position = gl_in[i].gl_Position;
        ga = first[i] * 2.0;
        gb = second[i] * 0.5;
        EmitVertex();
    }
}
"""
RV_FS = """#version 150
#extension GL_ARB_separate_shader_objects : require
#extension GL_ARB_explicit_attrib_location : require
layout(location = 3) in vec3 ga;           // the geometry stage's gb: (0.25, 0, 0.125)
layout(location = 2) in vec3 gb;           // the geometry stage's ga: (0.75, 0, 0.25)
out vec4 color;
void main() { color = vec4(ga.x, gb.x, ga.z, gb.z); }
"""


def test_rendezvous_by_location_through_a_geometry_stage():
    """GL 4.6 section 7.4.1: located outputs and inputs of separable programs match by
    location, whatever their names: vertex -> geometry (inputs declared in another
    order under other names) and geometry -> fragment (names of the other side swapped)."""
    import numpy as np
    import driver
    with driver.Context(api="gl43", width=8, height=8) as ctx:
        pipe = ctx.glGenProgramPipelines(1)[0]
        for kind, src, bit in ((E.GL_VERTEX_SHADER, RV_VS, E.GL_VERTEX_SHADER_BIT),
                               (E.GL_GEOMETRY_SHADER, RV_GS, E.GL_GEOMETRY_SHADER_BIT),
                               (E.GL_FRAGMENT_SHADER, RV_FS, E.GL_FRAGMENT_SHADER_BIT)):
            ctx.glUseProgramStages(pipe, bit, separable(ctx, kind, src))
        ctx.glBindProgramPipeline(pipe)
        ctx.glValidateProgramPipeline(pipe)
        assert ctx.glGetProgramPipelineiv(pipe, E.GL_VALIDATE_STATUS) == [1], ctx.glGetProgramPipelineInfoLog(pipe)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        tri = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri.tobytes(), E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(ctx, E.GL_NO_ERROR)
        # ga = b * 2 = (0.75, 0, 0.25) at location 2; gb = a * 0.5 = (0.25, 0, 0.125) at 3
        want = np.array([0.25, 0.75, 0.125, 0.25]) * 255
        img = ctx.read_pixels().astype(int)
        assert np.all(np.abs(img - want) <= 1), img[4, 4]


TESS = "#extension GL_ARB_tessellation_shader : require\n"
RV_TCS = "\n".join(RV_VS.split("\n")[:3]) + "\n" + TESS + """layout(vertices = 4) out;
layout(location = 3) in vec3 from_c[];     // c: (0.75, 0, 1)
layout(location = 2) in vec3 from_a[];     // a: (0.5, 0, 0.25)
layout(location = 5) out vec3 per_vertex[];
layout(location = 4) patch out vec3 p4;
layout(location = 2) patch out vec3 p2;
void main() {
    gl_out[gl_InvocationID].gl_Position = gl_in[gl_InvocationID].gl_Position;
    per_vertex[gl_InvocationID] = from_c[gl_InvocationID] * 0.5;   // (0.375, 0, 0.5)
    p4 = from_a[0];                                                   // (0.5, 0, 0.25)
    p2 = from_c[0] * 0.25;                                            // (0.1875, 0, 0.25)
    gl_TessLevelOuter = float[4](1.0, 1.0, 1.0, 1.0);
    gl_TessLevelInner = float[2](1.0, 1.0);
}
"""
RV_TES = "\n".join(RV_VS.split("\n")[:3]) + "\n" + TESS + """layout(quads, equal_spacing) in;
layout(location = 2) patch in vec3 q;      // p2
layout(location = 4) patch in vec3 r;      // p4
layout(location = 5) in vec3 v[];          // per_vertex
layout(location = 3) out vec3 ga;
layout(location = 2) out vec3 gb;
void main() {
    gl_Position = mix(mix(gl_in[0].gl_Position, gl_in[1].gl_Position, gl_TessCoord.x),
                      mix(gl_in[2].gl_Position, gl_in[3].gl_Position, gl_TessCoord.x), gl_TessCoord.y);
    ga = vec3(q.x, 0.0, r.z);              // (0.1875, 0, 0.25) at location 3
    gb = vec3(v[0].x, 0.0, r.x);           // (0.375, 0, 0.5) at location 2
}
"""
RV_TES_GS = RV_GS.replace(          # the inputs in the other order than the evaluation outputs
    "layout(location = 4) in vec3 first[];      // b: (0.375, 0, 0.125)\n"
    "layout(location = 2) in vec3 second[];     // a: (0.5, 0, 0.25)",
    "layout(location = 2) in vec3 second[];\nlayout(location = 3) in vec3 first[];")
assert RV_TES_GS != RV_GS


def test_rendezvous_by_location_through_tessellation():
    """Located varyings match by location over every interface of a five-program
    pipeline (vertex -> control per-vertex, control -> evaluation per-vertex and per-patch,
    evaluation -> geometry -> fragment), and with the evaluation stage feeding the
    fragment stage directly."""
    import numpy as np
    import driver
    for with_gs in (False, True):
        with driver.Context(api="gl43", width=8, height=8) as ctx:
            pipe = ctx.glGenProgramPipelines(1)[0]
            stages = [(E.GL_VERTEX_SHADER, RV_VS, E.GL_VERTEX_SHADER_BIT),
                      (E.GL_TESS_CONTROL_SHADER, RV_TCS, E.GL_TESS_CONTROL_SHADER_BIT),
                      (E.GL_TESS_EVALUATION_SHADER, RV_TES, E.GL_TESS_EVALUATION_SHADER_BIT),
                      (E.GL_FRAGMENT_SHADER, RV_FS, E.GL_FRAGMENT_SHADER_BIT)]
            if with_gs:
                stages.insert(3, (E.GL_GEOMETRY_SHADER, RV_TES_GS, E.GL_GEOMETRY_SHADER_BIT))
            for kind, src, bit in stages:
                ctx.glUseProgramStages(pipe, bit, separable(ctx, kind, src))
            ctx.glBindProgramPipeline(pipe)
            ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
            quad = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1], [1, 1, 0, 1]], np.float32)
            ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
            ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad.tobytes(), E.GL_STATIC_DRAW)
            ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 16, 0)
            ctx.glEnableVertexAttribArray(0)
            ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
            ctx.glDrawArrays(E.GL_PATCHES, 0, 4)
            expect(ctx, E.GL_NO_ERROR)
            if with_gs:     # location 2 <- location 3 * 2, location 3 <- location 2 * 0.5
                at2, at3 = np.array([0.1875, 0, 0.25]) * 2, np.array([0.375, 0, 0.5]) * 0.5
            else:
                at2, at3 = np.array([0.375, 0, 0.5]), np.array([0.1875, 0, 0.25])
            # the fragment stage: vec4(location 3 .x, location 2 .x, location 3 .z, location 2 .z)
            want = np.array([at3[0], at2[0], at3[2], at2[2]]) * 255
            img = ctx.read_pixels().astype(int)
            assert np.all(np.abs(img - want) <= 1), (with_gs, img[4, 4], want)
