"""Program pipelines and separable programs (GL 4.6 section 7.4, GLES 3.1
section 7.4)."""

from driver.gallium import PipeShaderType
from driver.gl import enums as E
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
    ls = lambda p: c._program(p).linked_state                # noqa: E731
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
