"""Stages and features GL 3.3/4.3 core include but the compiler cannot build yet
(tessellation, subroutines, fp64 uniforms; geometry: test_geometry.py): the specification's errors,
clear info logs, and no state change on error."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E

from .helpers import expect


@pytest.mark.parametrize("api,kind", [("gl43", E.GL_TESS_CONTROL_SHADER), ("gl43", E.GL_TESS_EVALUATION_SHADER)])
def test_tessellation_shaders_before_glsl_400_do_not_compile(api, kind):
    with driver.Context(api=api, width=4, height=4) as ctx:
        s = ctx.glCreateShader(kind)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetShaderiv(s, E.GL_SHADER_TYPE) == [kind]
        ctx.glShaderSource(s, 1, ["#version 330\nvoid main() {}\n"])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
        assert "tessellation shaders require GLSL 4.00" in ctx.glGetShaderInfoLog(s)
        p = ctx.glCreateProgram()
        ctx.glAttachShader(p, s)
        ctx.glLinkProgram(p)
        assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [0]
        assert "not compiled" in ctx.glGetProgramInfoLog(p)
        expect(ctx, E.GL_NO_ERROR)


@pytest.mark.parametrize("api,kind", [("gl33", E.GL_TESS_CONTROL_SHADER), ("gles3", E.GL_GEOMETRY_SHADER),
                                      ("gles3", E.GL_TESS_EVALUATION_SHADER)])
def test_shader_types_beyond_the_version_are_invalid_enum(api, kind):
    with driver.Context(api=api, width=4, height=4) as ctx:
        assert not ctx.glCreateShader(kind)
        expect(ctx, E.GL_INVALID_ENUM)


def test_patch_parameters_and_patches_draws():
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        assert ctx.glGetIntegerv(E.GL_PATCH_VERTICES) == [3]
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 5)
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 0)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, ctx.glGetIntegerv(E.GL_MAX_PATCH_VERTICES)[0] + 1)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glPatchParameteri(E.GL_PATCH_DEFAULT_INNER_LEVEL, 2)
        expect(ctx, E.GL_INVALID_ENUM)
        assert ctx.glGetIntegerv(E.GL_PATCH_VERTICES) == [5]
        ctx.glPatchParameterfv(E.GL_PATCH_DEFAULT_OUTER_LEVEL, [2, 3, 4, 5])
        assert ctx.glGetFloatv(E.GL_PATCH_DEFAULT_OUTER_LEVEL) == [2, 3, 4, 5]
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 5)
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        ctx.glPatchParameteri(E.GL_PATCH_VERTICES, 4)
        expect(ctx, E.GL_INVALID_OPERATION)
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        ctx.glDrawArrays(E.GL_PATCHES, 0, 3)
        expect(ctx, E.GL_INVALID_ENUM)


def _linked(ctx, vs="#version 330\nvoid main() { gl_Position = vec4(0); }"):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs),
                      (E.GL_FRAGMENT_SHADER, "#version 330\nout vec4 o;\nvoid main() { o = vec4(1); }")):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    return p


def test_a_program_without_subroutines():
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        p = _linked(ctx)
        assert ctx.glGetSubroutineIndex(p, E.GL_VERTEX_SHADER, "f") == E.GL_INVALID_INDEX
        assert ctx.glGetSubroutineUniformLocation(p, E.GL_FRAGMENT_SHADER, "u") == -1
        assert ctx.glGetProgramStageiv(p, E.GL_VERTEX_SHADER, E.GL_ACTIVE_SUBROUTINES) == [0]
        expect(ctx, E.GL_NO_ERROR)
        ctx.glGetSubroutineIndex(p, E.GL_TEXTURE_2D, "f")
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glGetActiveSubroutineName(p, E.GL_VERTEX_SHADER, 0)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glUniformSubroutinesuiv(E.GL_VERTEX_SHADER, 0, [])
        expect(ctx, E.GL_INVALID_OPERATION)                     # no current program
        ctx.glUseProgram(p)
        ctx.glUniformSubroutinesuiv(E.GL_VERTEX_SHADER, 0, [])
        expect(ctx, E.GL_NO_ERROR)
        ctx.glUniformSubroutinesuiv(E.GL_VERTEX_SHADER, 1, [0])
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glUniform1d(-1, 1.0)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glUniform1d(0, 1.0)
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        p = _linked(ctx)
        # GL_ARB_shader_subroutine is listed in 3.2+ core contexts (tests/driver/gl/test_subroutine.py)
        assert ctx.glGetSubroutineIndex(p, E.GL_VERTEX_SHADER, "f") == E.GL_INVALID_INDEX
        expect(ctx, E.GL_NO_ERROR)
        ctx.glUseProgram(p)
        ctx.glUniform1d(-1, 1.0)        # GL_ARB_gpu_shader_fp64 is listed in 3.2+ contexts
        expect(ctx, E.GL_NO_ERROR)


def test_double_matrix_setters_and_get_uniform_dv():
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        p = _linked(ctx, vs="#version 330\nuniform vec2 u;\nvoid main() { gl_Position = u.xyxy; }")
        ctx.glUseProgram(p)
        loc = ctx.glGetUniformLocation(p, "u")
        ctx.glUniform2f(loc, 0.5, -2.0)
        assert ctx.glGetUniformdv(p, loc) == [0.5, -2.0]
        ctx.glUniformMatrix2dv(loc, 1, False, [1.0, 2.0, 3.0, 4.0])
        expect(ctx, E.GL_INVALID_OPERATION)                     # not a double uniform
        ctx.glUniformMatrix2dv(-1, 1, False, [1.0, 2.0, 3.0, 4.0])
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetUniformdv(p, loc) == [0.5, -2.0]
    with driver.Context(api="gles31", width=4, height=4) as ctx:     # no doubles in GLES
        ctx.glGetUniformdv(0, 0)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_use_program_stages_takes_the_later_stage_bits_on_gl4():
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        pipe = ctx.glGenProgramPipelines(1)[0]
        ctx.glUseProgramStages(pipe, E.GL_GEOMETRY_SHADER_BIT | E.GL_TESS_CONTROL_SHADER_BIT, 0)
        expect(ctx, E.GL_NO_ERROR)
    with driver.Context(api="gles31", width=4, height=4) as ctx:
        pipe = ctx.glGenProgramPipelines(1)[0]
        ctx.glUseProgramStages(pipe, 0x40000000, 0)      # not a stage bit (GLES 3.1 lists the OES stage names)
        expect(ctx, E.GL_INVALID_VALUE)
