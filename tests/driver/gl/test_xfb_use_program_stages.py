"""glUseProgramStages on the bound program pipeline while transform feedback is active
and not paused is INVALID_OPERATION and changes nothing (GL 4.6 section 7.4, as
glUseProgram and glBindProgramPipeline); on another pipeline, or once paused, it works."""

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import compile_source, expect

VS = """#version 410
out float v;
void main() { v = 1.0; gl_Position = vec4(0.0); }
"""


def _separable_xfb_program(ctx):
    prog = ctx.glCreateProgram()
    sh, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, VS)
    assert ok, log
    ctx.glAttachShader(prog, sh)
    ctx.glProgramParameteri(prog, E.GL_PROGRAM_SEPARABLE, 1)
    ctx.glTransformFeedbackVaryings(prog, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    return prog


def test_use_program_stages_while_feedback_is_active():
    ctx = driver.Context(api="gl43", width=4, height=4)
    first, second = _separable_xfb_program(ctx), _separable_xfb_program(ctx)
    bound, other = ctx.glGenProgramPipelines(2)
    ctx.glUseProgramStages(bound, E.GL_VERTEX_SHADER_BIT, first)
    ctx.glBindProgramPipeline(bound)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 64, None, E.GL_STREAM_READ)
    ctx.glBeginTransformFeedback(E.GL_POINTS)
    expect(ctx, E.GL_NO_ERROR)
    ctx.glUseProgramStages(bound, E.GL_VERTEX_SHADER_BIT, second)
    expect(ctx, E.GL_INVALID_OPERATION)
    assert ctx.glGetProgramPipelineiv(bound, E.GL_VERTEX_SHADER) == [first]
    ctx.glUseProgramStages(other, E.GL_VERTEX_SHADER_BIT, second)     # not the bound pipeline
    expect(ctx, E.GL_NO_ERROR)
    ctx.glPauseTransformFeedback()
    ctx.glUseProgramStages(bound, E.GL_VERTEX_SHADER_BIT, second)     # paused: allowed
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.glGetProgramPipelineiv(bound, E.GL_VERTEX_SHADER) == [second]
    ctx.glEndTransformFeedback()           # (resuming with another program would be an error)
    expect(ctx, E.GL_NO_ERROR)
