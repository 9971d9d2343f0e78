"""layout(early_fragment_tests) and fragment shaders that write memory (GL 4.6
section 14.9, early per-fragment tests; GLSL 4.60 section 4.4.1.3).

A near quad (z = -0.5) is drawn first, then a far one (z = 0.5) over the same
4 x 4 pixels with GL_LESS: every fragment of the far quad fails the depth test.
The far quad's shader adds 1 to a counter in a shader storage buffer and
stores its pixel's index into an image-like array. With the layout the tests run
first, so the occluded fragments never run: the counter stays 0. Without it the
tests run after the shader (the driver must not let the GPU test early), so all
16 occluded fragments have their side effect: 16, and every index written."""

import numpy as np
import pytest

from driver.gallium import PipeShaderType
from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

VS = """#version 430
layout(location = 0) in vec2 p;
uniform float z;
void main() { gl_Position = vec4(p, z, 1.0); }
"""
FS = """#version 430
{layout}
layout(std430, binding = 0) buffer Counts {{ uint count; uint written[16]; }};
out vec4 o;
void main() {{
    atomicAdd(count, 1u);
    written[int(gl_FragCoord.y) * 4 + int(gl_FragCoord.x)] = 1u;
    o = vec4(0.0, 1.0, 0.0, 1.0);
}}
"""
PLAIN_FS = """#version 430
out vec4 o;
void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }
"""


def _quad_and_counters():
    """A 4x4 gl46 context drawing a full-screen strip, a zeroed 68-byte storage buffer
    at binding 0 (a counter and one word per pixel) and the depth test on."""
    ctx = glhelp.context(4, 4, api="gl46")
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    (ssbo,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, ssbo)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 68, bytes(68), E.GL_DYNAMIC_DRAW)
    ctx.glEnable(E.GL_DEPTH_TEST)
    return ctx


def _draw_far_over_near(early: bool):
    ctx = _quad_and_counters()
    ctx.glDepthFunc(E.GL_LESS)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    near = glhelp.program(ctx, VS, PLAIN_FS)
    ctx.glUniform1f(ctx.glGetUniformLocation(near, "z"), -0.5)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    far = glhelp.program(ctx, VS, FS.format(layout="layout(early_fragment_tests) in;" if early else ""))
    ctx.glUniform1f(ctx.glGetUniformLocation(far, "z"), 0.5)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    expect(ctx, E.GL_NO_ERROR)
    words = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 68)), np.uint32)
    pixels = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    return int(words[0]), words[1:].tolist(), pixels.reshape(16, 4)


@pytest.mark.parametrize("early", [True, False])
def test_occluded_fragments_side_effects(early):
    count, written, pixels = _draw_far_over_near(early)
    # the near quad's red stays on top either way
    assert (pixels == [255, 0, 0, 255]).all()
    if early:
        assert (count, written) == (0, [0] * 16)
    else:
        assert (count, written) == (16, [1] * 16)


def test_visible_fragments_run_with_the_layout():
    """The layout does not stop fragments that pass: drawn alone, the shader runs
    once per pixel."""
    ctx = _quad_and_counters()
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    prog = glhelp.program(ctx, VS, FS.format(layout="layout(early_fragment_tests) in;"))
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), 0.5)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    words = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 68)), np.uint32)
    assert int(words[0]) == 16 and words[1:].tolist() == [1] * 16


def test_the_flag_reaches_the_compiled_shader():
    """The linked fragment unit carries the layout into the pipe shader's info; a
    shader without it has none."""
    for early in (True, False):
        ctx = glhelp.context(4, 4, api="gl46")
        glhelp.program(ctx, VS, FS.format(layout="layout(early_fragment_tests) in;" if early else ""))
        ls = ctx.current_program.linked_state
        assert ls.stages["fragment"].unit.early_fragment_tests is early
        fs = ls.pipe_shaders[PipeShaderType.FRAGMENT]
        assert fs.state.info["early_fragment_tests"] is early          # the pipe CSO's ShaderState
