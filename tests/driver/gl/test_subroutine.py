"""GL_ARB_shader_subroutine's GL side (GL 4.6 section 7.9): subroutine indices (explicit
and implicit), subroutine uniform locations (explicit layout(location), arrays, one
space per stage), glUniformSubroutinesuiv choosing what a draw calls (read back from
the pixels), the reset on glUseProgram, the per-stage queries, subroutine uniforms not
being active uniforms, and the errors."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = """#version 430
in vec2 p;
out float vs_value;
subroutine float Offset();
subroutine(Offset) float none() { return 0.0; }
subroutine(Offset) float quarter() { return 0.25; }
subroutine uniform Offset offset;
void main() { gl_Position = vec4(p, 0.0, 1.0); vs_value = offset(); }
"""
FS = """#version 430
in float vs_value;
out vec4 color;
subroutine float Chan();
subroutine vec2 Pair(float x);
layout(location = 4) subroutine uniform Chan chans[2];
subroutine uniform Chan single;
subroutine uniform Pair pair;
subroutine(Chan) float full() { return 1.0; }
subroutine(Chan) float empty() { return 0.0; }
layout(index = 7) subroutine(Chan) float half_() { return 0.5; }
subroutine(Pair) vec2 same(float x) { return vec2(x); }
subroutine(Pair) vec2 swapped(float x) { return vec2(1.0 - x, x); }
uniform float k;
void main() { color = vec4(chans[0](), chans[1](), pair(single()).x + vs_value, k); }
"""
F, V = E.GL_FRAGMENT_SHADER, E.GL_VERTEX_SHADER


def _setup():
    ctx = glhelp.context(4, 1, api="gl46")
    p = glhelp.program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32), E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(p, "p")
    ctx.glEnableVertexAttribArray(loc)
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glUniform1f(ctx.glGetUniformLocation(p, "k"), 1.0)
    return ctx, p


def _draw(ctx):
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    expect(ctx, E.GL_NO_ERROR)
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8).tolist()


def _set(ctx, p, stage, **by_uniform):
    n = ctx.glGetProgramStageiv(p, stage, E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS)[0]
    values = [0] * n
    for uniform, function in by_uniform.items():
        name = uniform.replace("_0", "[0]").replace("_1", "[1]")
        values[ctx.glGetSubroutineUniformLocation(p, stage, name)] = ctx.glGetSubroutineIndex(p, stage, function)
    ctx.glUniformSubroutinesuiv(stage, n, values)


def test_indices_locations_and_stage_queries():
    ctx, p = _setup()
    assert [ctx.glGetSubroutineIndex(p, F, n) for n in ("full", "empty", "half_", "same", "swapped")] == \
        [0, 1, 7, 2, 3]
    assert ctx.glGetSubroutineIndex(p, F, "nope") == E.GL_INVALID_INDEX
    assert ctx.glGetSubroutineIndex(p, F, "none") == E.GL_INVALID_INDEX       # a vertex subroutine
    assert [ctx.glGetSubroutineIndex(p, V, n) for n in ("none", "quarter")] == [0, 1]
    assert [ctx.glGetSubroutineUniformLocation(p, F, n) for n in ("chans", "chans[0]", "chans[1]", "chans[2]",
                                                                   "single", "pair", "k")] == [4, 4, 5, -1, 0, 1, -1]
    stage = [ctx.glGetProgramStageiv(p, F, pn)[0] for pn in (
        E.GL_ACTIVE_SUBROUTINES, E.GL_ACTIVE_SUBROUTINE_UNIFORMS, E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS,
        E.GL_ACTIVE_SUBROUTINE_MAX_LENGTH, E.GL_ACTIVE_SUBROUTINE_UNIFORM_MAX_LENGTH)]
    assert stage == [5, 3, 6, len("swapped") + 1, len("chans[0]") + 1]
    assert ctx.glGetProgramStageiv(p, V, E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS) == [1]
    names = {ctx.glGetActiveSubroutineName(p, F, i) for i in (0, 1, 2, 3, 7)}
    assert names == {"full", "empty", "same", "swapped", "half_"}
    assert [ctx.glGetActiveSubroutineUniformName(p, F, i) for i in range(3)] == ["chans[0]", "single", "pair"]
    assert ctx.glGetActiveSubroutineUniformiv(p, F, 0, E.GL_NUM_COMPATIBLE_SUBROUTINES) == [3]
    assert ctx.glGetActiveSubroutineUniformiv(p, F, 0, E.GL_COMPATIBLE_SUBROUTINES) == [0, 1, 7]
    assert ctx.glGetActiveSubroutineUniformiv(p, F, 2, E.GL_COMPATIBLE_SUBROUTINES) == [2, 3]
    assert ctx.glGetActiveSubroutineUniformiv(p, F, 0, E.GL_UNIFORM_SIZE) == [2]
    assert ctx.glGetActiveSubroutineUniformiv(p, F, 1, E.GL_UNIFORM_NAME_LENGTH) == [len("single") + 1]
    expect(ctx, E.GL_NO_ERROR)


def test_subroutine_uniforms_are_not_active_uniforms():
    ctx, p = _setup()
    assert ctx.glGetUniformLocation(p, "single") == -1
    assert ctx.glGetUniformLocation(p, "chans[0]") == -1
    n = ctx.glGetProgramiv(p, E.GL_ACTIVE_UNIFORMS)[0]
    assert [ctx.glGetActiveUniform(p, i)[0] for i in range(n)] == ["k"]


def test_the_values_choose_what_a_draw_calls():
    ctx, p = _setup()
    _set(ctx, p, F, chans_0="full", chans_1="empty", single="half_", pair="same")
    _set(ctx, p, V, offset="none")
    assert _draw(ctx) == [255, 0, 128, 255]
    _set(ctx, p, F, chans_0="empty", chans_1="full", single="full", pair="swapped")
    assert _draw(ctx) == [0, 255, 0, 255]                  # swapped(1.0).x = 0
    _set(ctx, p, V, offset="quarter")
    assert _draw(ctx) == [0, 255, 64, 255]                 # + 0.25 from the vertex stage
    assert ctx.glGetUniformSubroutineuiv(F, 4) == [1] and ctx.glGetUniformSubroutineuiv(F, 5) == [0]
    assert ctx.glGetUniformSubroutineuiv(V, 0) == [1]


def test_use_program_resets_the_values():
    """GL 4.6 section 7.9: glUseProgram resets every subroutine uniform to a valid value
    (here each one's compatible function with the lowest index: full, same, none)."""
    ctx, p = _setup()
    _set(ctx, p, F, chans_0="empty", chans_1="empty", single="empty", pair="swapped")
    _set(ctx, p, V, offset="quarter")
    ctx.glUseProgram(p)
    assert ctx.glGetUniformSubroutineuiv(F, 4) == [0]
    assert ctx.glGetUniformSubroutineuiv(F, 1) == [2]
    assert _draw(ctx) == [255, 255, 255, 255]


def test_errors_change_nothing():
    ctx, p = _setup()
    _set(ctx, p, F, chans_0="full", chans_1="empty", single="half_", pair="same")
    n = ctx.glGetProgramStageiv(p, F, E.GL_ACTIVE_SUBROUTINE_UNIFORM_LOCATIONS)[0]
    good = [7, 2, 0, 0, 0, 1]
    for count, values, err in ((n - 1, good[:-1], E.GL_INVALID_VALUE),          # count != locations
                               (n, [7, 0, 0, 0, 0, 1], E.GL_INVALID_VALUE),      # `pair' takes same/swapped
                               (n, [7, 2, 0, 0, 9, 1], E.GL_INVALID_VALUE)):     # 9: no such subroutine
        ctx.glUniformSubroutinesuiv(F, count, values)
        expect(ctx, err)
    ctx.glUniformSubroutinesuiv(E.GL_TEXTURE_2D, n, good)
    expect(ctx, E.GL_INVALID_ENUM)
    assert ctx.glGetUniformSubroutineuiv(F, 4) == [0] and ctx.glGetUniformSubroutineuiv(F, 1) == [2]
    ctx.glGetUniformSubroutineuiv(F, 6)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glGetActiveSubroutineName(p, F, 5)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glGetActiveSubroutineUniformName(p, F, 3)
    expect(ctx, E.GL_INVALID_VALUE)
    ctx.glGetProgramStageiv(p, F, E.GL_ACTIVE_UNIFORMS)
    expect(ctx, E.GL_INVALID_ENUM)
    unlinked = ctx.glCreateProgram()
    ctx.glGetSubroutineIndex(unlinked, F, "full")
    expect(ctx, E.GL_INVALID_OPERATION)
    ctx.glUseProgram(0)
    ctx.glUniformSubroutinesuiv(F, n, good)
    expect(ctx, E.GL_INVALID_OPERATION)


def test_a_stage_without_subroutines():
    ctx = glhelp.context(4, 1, api="gl46")
    p = glhelp.compute_program(ctx, "#version 430\nlayout(local_size_x = 1) in;\nvoid main() {}\n")
    assert ctx.glGetProgramStageiv(p, E.GL_COMPUTE_SHADER, E.GL_ACTIVE_SUBROUTINES) == [0]
    ctx.glUniformSubroutinesuiv(E.GL_COMPUTE_SHADER, 0, [])
    expect(ctx, E.GL_NO_ERROR)


@pytest.mark.parametrize("api, listed", [("compat", True), ("gl46", True), ("gl33", True), ("gles31", False)])
def test_listed_in_gl_3_2_and_later(api, listed):
    ctx = glhelp.context(4, 1, api=api)
    assert ("GL_ARB_shader_subroutine" in ctx.extensions) == listed


def test_limits():
    ctx = glhelp.context(4, 1, api="gl33")          # the extension in a 3.3 context
    assert ctx.glGetIntegerv(E.GL_MAX_SUBROUTINES) == [256]
    assert ctx.glGetIntegerv(E.GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS) == [1024]
    expect(ctx, E.GL_NO_ERROR)
