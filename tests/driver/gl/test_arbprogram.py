"""GL_ARB_vertex_program / GL_ARB_fragment_program entry points on the
recording pipe: objects, glProgramStringARB errors (position and string),
parameters, glGetProgramivARB, enables, and the draw-time program."""

import numpy as np
import pytest

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

VP, FP = E.GL_VERTEX_PROGRAM_ARB, E.GL_FRAGMENT_PROGRAM_ARB
ASCII = E.GL_PROGRAM_FORMAT_ASCII_ARB
VP_TEXT = b"""!!ARBvp1.0
ADDRESS A0;
TEMP t, u;
PARAM mvp[] = { state.matrix.mvp };
DP4 result.position.x, mvp[0], vertex.position;
DP4 result.position.y, mvp[1], vertex.position;
DP4 result.position.z, mvp[2], vertex.position;
DP4 result.position.w, mvp[3], vertex.position;
MOV result.color, vertex.attrib[3];
END
"""
FP_TEXT = b"""!!ARBfp1.0
TEMP c;
TEX c, fragment.texcoord[0], texture[1], 2D;
TEX c, c, texture[1], 2D;
MUL result.color, c, program.local[3];
END
"""


@pytest.fixture
def compat():
    return make_ctx("compat")


def load(c, target, text):
    c.glProgramStringARB(target, ASCII, len(text), text)


def test_gen_bind_is_delete(compat):
    c = compat
    a, b = c.glGenProgramsARB(2)
    assert a != b and not c.glIsProgramARB(a)          # generated but not yet bound: no object
    c.glBindProgramARB(VP, a)
    assert c.glIsProgramARB(a)
    expect(c, E.GL_NO_ERROR)
    c.glBindProgramARB(FP, a)                           # a is a vertex program
    expect(c, E.GL_INVALID_OPERATION)
    c.glBindProgramARB(E.GL_TEXTURE_2D, b)
    expect(c, E.GL_INVALID_ENUM)
    c.glBindProgramARB(FP, 77)                          # an unused name makes an object
    assert c.glIsProgramARB(77)
    c.glDeleteProgramsARB(1, [a])
    assert not c.glIsProgramARB(a)
    assert c.glGetProgramivARB(VP, E.GL_PROGRAM_BINDING_ARB) == [0]
    assert c.glGetProgramivARB(FP, E.GL_PROGRAM_BINDING_ARB) == [77]
    c.glGenProgramsARB(-1)
    expect(c, E.GL_INVALID_VALUE)


def test_program_string_error_position_and_string(compat):
    c = compat
    c.glBindProgramARB(VP, 1)
    load(c, VP, VP_TEXT)
    expect(c, E.GL_NO_ERROR)
    assert c.glGetIntegerv(E.GL_PROGRAM_ERROR_POSITION_ARB) == [-1]
    assert c.glGetString(E.GL_PROGRAM_ERROR_STRING_ARB) == ""
    bad = b"!!ARBvp1.0\nTEMP a;\nMOV a, nothing;\nEND\n"
    load(c, VP, bad)
    expect(c, E.GL_INVALID_OPERATION)
    assert c.glGetIntegerv(E.GL_PROGRAM_ERROR_POSITION_ARB) == [bad.index(b"nothing")]
    msg = c.glGetString(E.GL_PROGRAM_ERROR_STRING_ARB)
    assert "line 3" in msg and "nothing" in msg
    # the failed load left the program as it was
    assert c.glGetProgramStringARB(VP, E.GL_PROGRAM_STRING_ARB) == VP_TEXT
    assert c.glGetProgramivARB(VP, E.GL_PROGRAM_INSTRUCTIONS_ARB) == [5]
    load(c, VP, FP_TEXT)                                 # the wrong language for the target
    expect(c, E.GL_INVALID_OPERATION)
    assert c.glGetIntegerv(E.GL_PROGRAM_ERROR_POSITION_ARB) == [0]
    c.glProgramStringARB(VP, E.GL_RGBA, len(VP_TEXT), VP_TEXT)
    expect(c, E.GL_INVALID_ENUM)


def test_program_queries(compat):
    c = compat
    load(c, VP, VP_TEXT)
    q = {n: c.glGetProgramivARB(VP, getattr(E, f"GL_{n}_ARB"))[0] for n in (
        "PROGRAM_LENGTH", "PROGRAM_INSTRUCTIONS", "PROGRAM_TEMPORARIES", "PROGRAM_PARAMETERS",
        "PROGRAM_ATTRIBS", "PROGRAM_ADDRESS_REGISTERS", "PROGRAM_UNDER_NATIVE_LIMITS", "PROGRAM_FORMAT")}
    assert q == dict(PROGRAM_LENGTH=len(VP_TEXT), PROGRAM_INSTRUCTIONS=5, PROGRAM_TEMPORARIES=2,
                     PROGRAM_PARAMETERS=4, PROGRAM_ATTRIBS=2, PROGRAM_ADDRESS_REGISTERS=1,
                     PROGRAM_UNDER_NATIVE_LIMITS=1, PROGRAM_FORMAT=ASCII)
    assert c.glGetProgramivARB(VP, E.GL_MAX_PROGRAM_INSTRUCTIONS_ARB)[0] >= 128
    assert c.glGetProgramivARB(VP, E.GL_MAX_PROGRAM_ENV_PARAMETERS_ARB)[0] >= 96
    load(c, FP, FP_TEXT)
    f = {n: c.glGetProgramivARB(FP, getattr(E, f"GL_{n}_ARB"))[0] for n in (
        "PROGRAM_ALU_INSTRUCTIONS", "PROGRAM_TEX_INSTRUCTIONS", "PROGRAM_TEX_INDIRECTIONS")}
    # the second TEX reads c, written by the first: a second indirection
    assert f == dict(PROGRAM_ALU_INSTRUCTIONS=1, PROGRAM_TEX_INSTRUCTIONS=2, PROGRAM_TEX_INDIRECTIONS=2)
    assert c.glGetProgramivARB(FP, E.GL_MAX_PROGRAM_TEX_INSTRUCTIONS_ARB)[0] >= 24
    # address registers are the vertex programs': a fragment program has none, and the
    # queries answer 0 without error, as Mesa's (piglit's ext_direct_state_access
    # named-program asks a fragment program for them and expects no error)
    assert c.glGetProgramivARB(FP, E.GL_PROGRAM_ADDRESS_REGISTERS_ARB) == [0]
    assert c.glGetProgramivARB(FP, E.GL_MAX_PROGRAM_ADDRESS_REGISTERS_ARB) == [0]
    expect(c, E.GL_NO_ERROR)


def test_env_and_local_parameters(compat):
    c = compat
    c.glProgramEnvParameter4fARB(VP, 5, 1, 2, 3, 4)
    c.glProgramEnvParameter4dvARB(FP, 5, (5, 6, 7, 8))
    assert c.glGetProgramEnvParameterfvARB(VP, 5) == [1, 2, 3, 4]
    assert c.glGetProgramEnvParameterdvARB(FP, 5) == [5, 6, 7, 8]
    assert c.glGetProgramEnvParameterfvARB(VP, 6) == [0, 0, 0, 0]
    c.glBindProgramARB(FP, 3)
    c.glProgramLocalParameter4fvARB(FP, 2, (9, 8, 7, 6))
    c.glBindProgramARB(FP, 4)
    assert c.glGetProgramLocalParameterfvARB(FP, 2) == [0, 0, 0, 0]      # local to each object
    c.glBindProgramARB(FP, 3)
    assert c.glGetProgramLocalParameterfvARB(FP, 2) == [9, 8, 7, 6]
    limit = c.glGetProgramivARB(VP, E.GL_MAX_PROGRAM_ENV_PARAMETERS_ARB)[0]
    c.glProgramEnvParameter4fARB(VP, limit, 0, 0, 0, 0)
    expect(c, E.GL_INVALID_VALUE)


def test_enables_and_core_contexts():
    c = make_ctx("compat")
    c.glEnable(VP)
    c.glEnable(FP)
    assert c.glIsEnabled(VP) and c.glIsEnabled(FP)
    core = make_ctx("gl43")
    core.glEnable(VP)
    expect(core, E.GL_INVALID_ENUM)
    core.glGenProgramsARB(1)
    expect(core, E.GL_INVALID_OPERATION)


def test_vertex_attrib_aliases(compat):
    c = compat
    c.glVertexAttrib4fARB(3, 1, 2, 3, 4)
    assert c.glGetVertexAttribfvARB(3, E.GL_CURRENT_VERTEX_ATTRIB) == [1, 2, 3, 4]


def test_draw_with_an_invalid_enabled_program_fails(compat):
    c = compat
    c.glBindProgramARB(VP, 9)
    c.glEnable(VP)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(c, E.GL_INVALID_OPERATION)
    c.glDisable(VP)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(c, E.GL_NO_ERROR)


def test_draw_binds_the_arb_stage_and_its_parameters(compat):
    c = compat
    c.glBindProgramARB(FP, 2)
    load(c, FP, FP_TEXT)
    c.glProgramLocalParameter4fARB(FP, 3, 0.5, 0.25, 2.0, 1.0)
    c.glEnable(FP)
    c.glDrawArrays(E.GL_POINTS, 0, 1)
    expect(c, E.GL_NO_ERROR)
    prog = c._program_for_draw()
    ls = prog.linked_state
    from compiler.arb.to_ir import ARBShader, local_uniform
    _name, _n, state = ls.pipe_shaders[PipeShaderType.FRAGMENT]     # the recording pipe's handle
    assert isinstance(state.ir, ARBShader)                           # the ARB stage itself
    _name, _n, vstate = ls.pipe_shaders[PipeShaderType.VERTEX]
    assert "ftransform" in vstate.source or "gl_ModelViewProjectionMatrix" in vstate.source   # fixed function
    leaf = next(u for u in ls.uniforms if u.name.split("[")[0] == local_uniform("fragment"))
    data = np.frombuffer(bytes(ls.uniform_data), np.float32)
    got = data[(leaf.offset_B + 3 * leaf.stride_B) // 4:][:4]
    assert list(got) == [0.5, 0.25, 2.0, 1.0]
    sampler = next(u for u in ls.uniforms if u.kind == "sampler")
    assert np.frombuffer(bytes(ls.uniform_data), np.int32)[sampler.offset_B // 4] == 1    # texture[1]
    # the program is built once per load: the same object on the next draw
    assert c._program_for_draw() is prog
    load(c, FP, FP_TEXT)
    assert c._program_for_draw() is not prog


def test_program_matrices(compat):
    c = compat
    assert c.glGetIntegerv(E.GL_MAX_PROGRAM_MATRICES_ARB)[0] >= 8
    assert c.glGetIntegerv(E.GL_MAX_PROGRAM_MATRIX_STACK_DEPTH_ARB)[0] >= 1
    c.glMatrixMode(E.GL_MATRIX2_ARB)
    c.glTranslatef(1, 2, 3)
    c.glPushMatrix()
    assert c.glGetIntegerv(E.GL_CURRENT_MATRIX_STACK_DEPTH_ARB) == [2]
    m = c.glGetFloatv(E.GL_CURRENT_MATRIX_ARB)
    assert m[12:15] == [1, 2, 3]                                        # column-major
    assert c.glGetFloatv(E.GL_TRANSPOSE_CURRENT_MATRIX_ARB)[3] == 1
    assert c.glGetIntegerv(E.GL_MATRIX_MODE) == [E.GL_MATRIX2_ARB]
    c.glMatrixMode(E.GL_MODELVIEW)
    assert c.glGetFloatv(E.GL_MODELVIEW_MATRIX)[12:15] == [0, 0, 0]


def test_arb_aliases_follow_the_core_display_list_and_begin_end_rules(compat):
    c = compat
    c.glNewList(1, E.GL_COMPILE)
    c.glEnableVertexAttribArrayARB(5)          # client state: executed, not compiled
    c.glVertexAttrib4fARB(5, 1, 2, 3, 4)       # compiled
    c.glEndList()
    assert c.glGetVertexAttribivARB(5, E.GL_VERTEX_ATTRIB_ARRAY_ENABLED) == [1]
    assert c.glGetVertexAttribfvARB(5, E.GL_CURRENT_VERTEX_ATTRIB) == [0, 0, 0, 1]
    c.glCallList(1)
    assert c.glGetVertexAttribfvARB(5, E.GL_CURRENT_VERTEX_ATTRIB) == [1, 2, 3, 4]
    c.glBegin(E.GL_POINTS)
    c.glVertexAttrib4fARB(5, 0, 0, 0, 1)       # allowed between Begin and End
    c.glDisableVertexAttribArrayARB(5)         # not allowed
    c.glEnd()
    expect(c, E.GL_INVALID_OPERATION)
