"""Validation of program pipelines (GL 4.6 section 11.1.3.11): which stage
combinations a draw refuses with INVALID_OPERATION and glValidateProgramPipeline
reports as invalid; the cases written from the section's list."""

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

# (a separable program of GLSL 1.50+ linking two stages redeclares the gl_PerVertex it uses)
VS = ("#version 150\nin vec4 p;\nout vec4 v;\nout gl_PerVertex { vec4 gl_Position; };\n"
      "void main() { gl_Position = p; v = p; }\n")
GS = ("#version 150\nlayout(points) in;\nlayout(points, max_vertices = 1) out;\nin vec4 v[];\nout vec4 v2;\n"
      "void main() { v2 = v[0]; gl_Position = gl_in[0].gl_Position; EmitVertex(); }\n")
FS = "#version 150\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n"


def _program(c, stages):
    """A separable program of several stages."""
    p = c.glCreateProgram()
    c.glProgramParameteri(p, E.GL_PROGRAM_SEPARABLE, 1)
    for kind, src in stages:
        s = c.glCreateShader(kind)
        c.glShaderSource(s, 1, [src])
        c.glCompileShader(s)
        c.glAttachShader(p, s)
    c.glLinkProgram(p)
    assert c.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(p)
    return p


def _valid(c, pipe) -> bool:
    c.glValidateProgramPipeline(pipe)
    return c.glGetProgramPipelineiv(pipe, E.GL_VALIDATE_STATUS) == [1]


def _setup():
    c = make_ctx("gl43")
    (pipe,) = c.glGenProgramPipelines(1)
    c.glBindProgramPipeline(pipe)
    (vao,) = c.glGenVertexArrays(1)
    c.glBindVertexArray(vao)
    return c, pipe


def test_a_program_between_two_stages_of_another_is_invalid():
    c, pipe = _setup()
    vsfs = _program(c, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
    gs = _program(c, [(E.GL_GEOMETRY_SHADER, GS)])
    c.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT | E.GL_FRAGMENT_SHADER_BIT, vsfs)
    assert _valid(c, pipe)
    c.glUseProgramStages(pipe, E.GL_GEOMETRY_SHADER_BIT, gs)
    assert not _valid(c, pipe)
    assert "between" in c.glGetProgramPipelineInfoLog(pipe)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(c, E.GL_INVALID_OPERATION)


def test_geometry_without_vertex_program_is_invalid():
    c, pipe = _setup()
    gs = _program(c, [(E.GL_GEOMETRY_SHADER, GS)])
    fs = _program(c, [(E.GL_FRAGMENT_SHADER, FS)])
    c.glUseProgramStages(pipe, E.GL_GEOMETRY_SHADER_BIT, gs)
    c.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, fs)
    assert not _valid(c, pipe)


def test_a_program_active_for_some_of_its_stages_only_is_invalid():
    c, pipe = _setup()
    vsfs = _program(c, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
    fs = _program(c, [(E.GL_FRAGMENT_SHADER, FS)])
    c.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, vsfs)
    c.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, fs)
    assert not _valid(c, pipe)
    c.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, vsfs)
    assert _valid(c, pipe)


def test_a_pipeline_without_a_vertex_program_draws_nothing_without_an_error():
    c, pipe = _setup()
    fs = _program(c, [(E.GL_FRAGMENT_SHADER, FS)])
    c.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, fs)
    assert _valid(c, pipe)
    c.glDrawArrays(E.GL_POINTS, 0, 1)          # vertices undefined (section 11.1.3.11), not an error
    expect(c, E.GL_NO_ERROR)


def test_a_program_relinked_without_separable_is_invalid():
    c, pipe = _setup()
    vs = _program(c, [(E.GL_VERTEX_SHADER, VS)])
    fs = _program(c, [(E.GL_FRAGMENT_SHADER, FS)])
    c.glUseProgramStages(pipe, E.GL_VERTEX_SHADER_BIT, vs)
    c.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, fs)
    assert _valid(c, pipe)
    c.glProgramParameteri(vs, E.GL_PROGRAM_SEPARABLE, 0)
    c.glLinkProgram(vs)
    assert c.glGetProgramiv(vs, E.GL_LINK_STATUS) == [1]
    assert not _valid(c, pipe)


_SAMPLER_ARRAYS = """#version 400
out vec4 color;
uniform sampler2D a[2];
uniform sampler3D b[2];
uniform int i;
void main() { color = texture(a[INDEX], vec2(0.0)) + texture(b[INDEX], vec3(0.0)); }
"""


def test_only_the_sampler_elements_used_are_active():
    """GL 4.6 section 11.1.3.11: two *active* samplers of different types may not use one
    unit. Elements 0 of a[] and b[] are not used with constant indices (both stay on unit
    0 and do not conflict); a non-constant index makes every element active, and
    elements 0 then conflict on unit 0."""
    import driver
    for index, unused_conflict in (("1", False), ("i", True)):
        with driver.Context(api="gl43", width=4, height=4) as ctx:
            prog = ctx.glCreateShaderProgramv(E.GL_FRAGMENT_SHADER, 1, [_SAMPLER_ARRAYS.replace("INDEX", index)])
            assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
            pipe = ctx.glGenProgramPipelines(1)[0]
            ctx.glUseProgramStages(pipe, E.GL_FRAGMENT_SHADER_BIT, prog)
            ctx.glBindProgramPipeline(pipe)
            ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
            a1, b1 = ctx.glGetUniformLocation(prog, "a[1]"), ctx.glGetUniformLocation(prog, "b[1]")
            for a_unit, b_unit, conflict in ((1, 1, True), (1, 2, unused_conflict)):
                ctx.glProgramUniform1i(prog, a1, a_unit)
                ctx.glProgramUniform1i(prog, b1, b_unit)
                ctx.glValidateProgramPipeline(pipe)
                assert ctx.glGetProgramPipelineiv(pipe, E.GL_VALIDATE_STATUS) == [int(not conflict)], (index, a_unit)
                ctx.glDrawArrays(E.GL_POINTS, 0, 1)
                assert ctx.glGetError() == (E.GL_INVALID_OPERATION if conflict else E.GL_NO_ERROR), (index, a_unit)
