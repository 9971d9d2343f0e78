"""GL_ARB_post_depth_coverage: with layout(post_depth_coverage) in, gl_SampleMaskIn
holds the samples of the fragment that passed the early depth (and stencil) tests,
which the qualifier turns on; without it, the rasterised coverage. A 1x1 4-sample
target: a near rectangle covers the samples left of x = 0.55 (the sample positions
glGetMultisamplefv reports), then a far full-pixel draw ORs its gl_SampleMaskIn[0]
into a storage buffer."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 430\nin vec2 p;\nuniform float z;\nvoid main() { gl_Position = vec4(p, z, 1.0); }\n"
FS_NEAR = "#version 430\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
FS_MASK = """#version 430
#extension GL_ARB_post_depth_coverage : require
{layout}
layout(std430, binding = 0) buffer Out {{ int mask; int count; }};
out vec4 o;
void main() {{ atomicOr(mask, gl_SampleMaskIn[0]); atomicAdd(count, 1); o = vec4(0.5); }}
"""


def _draw(ctx, prog, x1_px, z):
    """One triangle whose right edge is x = x1_px (and that covers the pixel's height)."""
    x1 = 2.0 * x1_px - 1.0
    glhelp.vertices(ctx, prog, [[-3, -1], [x1, -1], [x1, 3]], {"p": (2, 0)}, 2)
    ctx.glUniform1f(ctx.glGetUniformLocation(prog, "z"), z)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)


def _mask_after_near_draw(layout_line: str) -> tuple[int, int, list[int]]:
    ctx = glhelp.context(1, 1, api="compat")
    rbs = ctx.glGenRenderbuffers(2)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    for rb, fmt, point in ((rbs[0], E.GL_RGBA8, E.GL_COLOR_ATTACHMENT0),
                           (rbs[1], E.GL_DEPTH_COMPONENT32F, E.GL_DEPTH_ATTACHMENT)):
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, 4, fmt, 1, 1)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, point, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, 1, 1)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 8, bytes(8), E.GL_DYNAMIC_COPY)
    _draw(ctx, glhelp.program(ctx, VS, FS_NEAR), 0.55, -0.5)
    _draw(ctx, glhelp.program(ctx, VS, FS_MASK.format(layout=layout_line)), 2.0, 0.5)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    mask, count = np.frombuffer(bytes(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 8)), np.int32)
    assert ctx.glGetError() == E.GL_NO_ERROR
    right = [int(ctx.glGetMultisamplefv(E.GL_SAMPLE_POSITION, i)[0] >= 0.55) for i in range(4)]
    return int(mask), int(count), right


def test_listed():
    ctx = glhelp.context(1, 1, api="compat")
    assert "GL_ARB_post_depth_coverage" in ctx.glGetString(E.GL_EXTENSIONS).split()


def test_sample_mask_in_after_the_depth_test():
    mask, count, right = _mask_after_near_draw("layout(post_depth_coverage) in;")
    expected = sum(bit << i for i, bit in enumerate(right))
    assert 0 < expected < 15                         # the near rectangle hides some samples
    assert (mask, count) == (expected, 1)


def test_with_early_fragment_tests_declared_too():
    mask, count, right = _mask_after_near_draw("layout(early_fragment_tests) in;\nlayout(post_depth_coverage) in;")
    assert (mask, count) == (sum(bit << i for i, bit in enumerate(right)), 1)


def test_without_the_qualifier_the_rasterised_coverage():
    mask, count, _ = _mask_after_near_draw("layout(early_fragment_tests) in;")
    assert (mask, count) == (15, 1)


@pytest.mark.parametrize("src, message", [
    ("#version 430\nlayout(post_depth_coverage) in;\nvoid main() {}\n", "GL_ARB_post_depth_coverage"),
    ("#version 430\n#extension GL_ARB_post_depth_coverage : enable\nlayout(post_depth_coverage) in vec4 v;\n"
     "void main() {}\n", "post_depth_coverage")])
def test_compile_errors(src, message):
    ctx = glhelp.context(1, 1, api="compat")
    sh = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
    ctx.glShaderSource(sh, 1, [src])
    ctx.glCompileShader(sh)
    assert not ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0]
    assert message in ctx.glGetShaderInfoLog(sh)


def test_vertex_shader_refuses_it():
    ctx = glhelp.context(1, 1, api="compat")
    sh = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderSource(sh, 1, ["#version 430\n#extension GL_ARB_post_depth_coverage : enable\n"
                               "layout(post_depth_coverage) in;\nvoid main() { gl_Position = vec4(0.0); }\n"])
    ctx.glCompileShader(sh)
    assert not ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS)[0]
