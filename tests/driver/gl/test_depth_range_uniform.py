"""gl_DepthRange (GLSL 4.60 section 7.4, GLSL ES 3.20 section 7.4): near, far and
far - near of viewport 0's depth range, in every profile. Core and ES contexts
read it as the compatibility profile does; it read 0 there before.
Values by hand: glDepthRange(0.25, 0.75) gives (0.25, 0.75, 0.5) -> bytes
(64, 191, 128) of an RGBA8 target (x * 255 rounded)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp
from tests.driver.gl.helpers import expect

CORE_VS = "#version 330 core\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
CORE_FS = ("#version 330 core\nout vec4 o;\n"
           "void main() { o = vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0); }\n")
ES_VS = "#version 300 es\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
ES_FS = ("#version 300 es\nprecision highp float;\nout vec4 o;\n"
         "void main() { o = vec4(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff, 1.0); }\n")
# the vertex stage reads it and passes it on
CORE_VS_READS = ("#version 330 core\nlayout(location = 0) in vec2 p;\nout vec3 r;\n"
                 "void main() { gl_Position = vec4(p, 0.0, 1.0);"
                 " r = vec3(gl_DepthRange.near, gl_DepthRange.far, gl_DepthRange.diff); }\n")
CORE_FS_PASS = "#version 330 core\nin vec3 r;\nout vec4 o;\nvoid main() { o = vec4(r, 1.0); }\n"

CONTEXTS = {"gl33": (CORE_VS, CORE_FS), "gles3": (ES_VS, ES_FS), "compat": (CORE_VS, CORE_FS)}


def _context(api, vs, fs):
    ctx = glhelp.context(4, 4, api=api)
    glhelp.program(ctx, vs, fs)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    tri = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)      # covers the target
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    return ctx


def _pixel(ctx):
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_NO_ERROR)
    return tuple(bytes(ctx.glReadPixels(1, 1, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)))


@pytest.mark.parametrize("api", sorted(CONTEXTS))
def test_depth_range_reaches_the_fragment_stage(api):
    ctx = _context(api, *CONTEXTS[api])
    if api == "gles3":
        ctx.glDepthRangef(0.25, 0.75)
    else:
        ctx.glDepthRange(0.25, 0.75)
    assert _pixel(ctx) == (64, 191, 128, 255)


def test_a_new_range_is_read_by_the_next_draw():
    """The block is rebuilt when the range changes (0.25..0.75, then 1..0: diff -1
    clamps to 0 in the target), and the default range reads (0, 1, 1)."""
    ctx = _context("gl33", CORE_VS, CORE_FS)
    assert _pixel(ctx) == (0, 255, 255, 255)
    ctx.glDepthRange(0.25, 0.75)
    assert _pixel(ctx) == (64, 191, 128, 255)
    ctx.glDepthRange(1.0, 0.0)
    assert _pixel(ctx) == (255, 0, 0, 255)


def test_vertex_stage_reads_it_too():
    ctx = _context("gl33", CORE_VS_READS, CORE_FS_PASS)
    ctx.glDepthRange(0.5, 1.0)
    assert _pixel(ctx) == (128, 255, 128, 255)


def test_it_is_viewport_zeros_range():
    """GL 4.6 section 13.6.1 / GLSL 4.60 section 7.4: gl_DepthRange is viewport 0's;
    another viewport's range leaves it."""
    ctx = _context("gl46", CORE_VS, CORE_FS)
    ctx.glDepthRangeIndexed(0, 0.25, 0.75)
    ctx.glDepthRangeIndexed(1, 0.0, 0.5)
    assert _pixel(ctx) == (64, 191, 128, 255)
