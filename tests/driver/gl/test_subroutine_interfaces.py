"""The subroutine interfaces of the program interface queries (GL 4.6 section 7.3.1:
GL_<STAGE>_SUBROUTINE and GL_<STAGE>_SUBROUTINE_UNIFORM), which agree with the
ARB_shader_subroutine queries of the same program (piglit
arb_program_interface_query-compare-with-shader-subroutine; they were INVALID_ENUM), and
glGetProgramStageiv of a program never linked: 0 with no error, except for the location
count (as Mesa). The expected values are read off the shaders by hand."""

from __future__ import annotations

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import compile_source

VS = """#version 430
in vec2 p;
void main() { gl_Position = vec4(p, 0.0, 1.0); }
"""
FS = """#version 430
out vec4 color;
subroutine float Chan();
subroutine vec2 Pair(float x);
subroutine uniform Chan chans[3];
subroutine uniform Pair pair;
subroutine(Chan) float full() { return 1.0; }
subroutine(Chan) float empty() { return 0.0; }
subroutine(Chan) float both() { return 0.5; }
subroutine(Pair) vec2 same(float x) { return vec2(x); }
void main() { color = vec4(chans[0](), chans[1]() + chans[2](), pair(0.5)); }
"""
SU, SF = E.GL_FRAGMENT_SUBROUTINE_UNIFORM, E.GL_FRAGMENT_SUBROUTINE


def test_interfaces_list_the_stage_subroutines():
    ctx = glhelp.context(4, 1, api="gl46")
    p = glhelp.program(ctx, VS, FS)
    n_uniforms = ctx.glGetProgramStageiv(p, E.GL_FRAGMENT_SHADER, E.GL_ACTIVE_SUBROUTINE_UNIFORMS)[0]
    assert n_uniforms == 2
    assert ctx.glGetProgramInterfaceiv(p, SU, E.GL_ACTIVE_RESOURCES) == [2]
    assert ctx.glGetProgramInterfaceiv(p, SF, E.GL_ACTIVE_RESOURCES) == [4]
    assert ctx.glGetProgramInterfaceiv(p, E.GL_VERTEX_SUBROUTINE_UNIFORM, E.GL_ACTIVE_RESOURCES) == [0]
    # "chans[0]" and "pair": the longest name with its NUL is 9; 3 functions are Chan
    assert ctx.glGetProgramInterfaceiv(p, SU, E.GL_MAX_NAME_LENGTH) == [9]
    assert ctx.glGetProgramInterfaceiv(p, SU, E.GL_MAX_NUM_COMPATIBLE_SUBROUTINES) == [3]
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glGetProgramInterfaceiv(p, SF, E.GL_MAX_NUM_COMPATIBLE_SUBROUTINES)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    # each function's resource index is its subroutine index
    for name in ("full", "empty", "both", "same"):
        index = ctx.glGetSubroutineIndex(p, E.GL_FRAGMENT_SHADER, name)
        assert ctx.glGetProgramResourceIndex(p, SF, name) == index
        assert ctx.glGetProgramResourceName(p, SF, index, 64) == name
    # the array uniform: its name, size, location and compatible functions
    i = ctx.glGetProgramResourceIndex(p, SU, "chans")
    assert ctx.glGetProgramResourceName(p, SU, i, 64) == "chans[0]"
    props = [E.GL_ARRAY_SIZE, E.GL_LOCATION, E.GL_NUM_COMPATIBLE_SUBROUTINES]
    size, location, n = ctx.glGetProgramResourceiv(p, SU, i, 3, props, 3)
    assert (size, n) == (3, 3)
    assert location == ctx.glGetSubroutineUniformLocation(p, E.GL_FRAGMENT_SHADER, "chans")
    chan = sorted(ctx.glGetSubroutineIndex(p, E.GL_FRAGMENT_SHADER, f) for f in ("full", "empty", "both"))
    assert sorted(ctx.glGetProgramResourceiv(p, SU, i, 1, [E.GL_COMPATIBLE_SUBROUTINES], 8)) == chan
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_stage_queries_of_a_program_never_linked():
    ctx = glhelp.context(4, 1, api="gl46")
    p = ctx.glCreateProgram()
    sh, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, FS)
    assert ok, log
    ctx.glAttachShader(p, sh)
    assert ctx.glGetProgramStageiv(p, E.GL_FRAGMENT_SHADER, E.GL_ACTIVE_SUBROUTINE_UNIFORMS) == [0]
    assert ctx.glGetProgramInterfaceiv(p, SU, E.GL_ACTIVE_RESOURCES) == [0]
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glGetProgramStageiv(p, E.GL_FRAGMENT_SHADER, E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
