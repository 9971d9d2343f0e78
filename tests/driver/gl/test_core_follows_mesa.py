"""Core-profile cases where shimgl does what Mesa does rather than the letter of the GL
4.6 core specification (docs/extensions.md, "Where shimgl follows Mesa"):

- glEnableVertexAttribArray, glDisableVertexAttribArray and glVertexAttribDivisor with
  no vertex array object bound edit the default one without an error (Mesa's varray.c
  checks only the index); glVertexAttribPointer and drawing still raise
  INVALID_OPERATION there, as in Mesa;
- glDrawElements with client-memory indices (no element array buffer) draws, reading
  the indices from client memory (Mesa's draw validation has no such error).

piglit's arb_gpu_shader_fp64 vs-non-uniform-control-flow-const/-packing and
tf-interleaved-aligned stopped on these errors (llvmpipe passes them)."""

from __future__ import annotations

import numpy as np

import driver
from driver.gl import enums as E

from .helpers import link_sources

VS = "#version 330\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = "#version 330\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.0, 0.0, 1.0); }\n"


def test_attribute_enables_without_a_vao_raise_nothing_in_core():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        ctx.glEnableVertexAttribArray(3)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glDisableVertexAttribArray(3)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glVertexAttribDivisor(3, 2)
        assert ctx.glGetError() == E.GL_NO_ERROR
        ctx.glEnableVertexAttribArray(ctx.glGetIntegerv(E.GL_MAX_VERTEX_ATTRIBS)[0])
        assert ctx.glGetError() == E.GL_INVALID_VALUE          # the index is still checked
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION      # as in Mesa
        link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION      # no VAO to draw from, as in Mesa


def test_client_indices_draw_in_core():
    """Two triangles of a 4-vertex quad picked by client-memory indices: the lower-left
    triangle (indices 0, 1, 2) covers the pixels below the diagonal only; then the whole
    quad (0, 1, 2, 2, 1, 3)."""
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    with driver.Context(api="gl33", width=8, height=8) as ctx:
        link_sources(ctx, [(E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)])
        vao = ctx.glGenVertexArrays(1)[0]
        ctx.glBindVertexArray(vao)
        vbo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
        ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawElements(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_SHORT, np.array([0, 1, 2], np.uint16).tobytes())
        assert ctx.glGetError() == E.GL_NO_ERROR
        half = ctx.read_pixels()[..., 0] > 0
        ctx.glDrawElements(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_INT, np.array([0, 1, 2, 2, 1, 3], np.uint32).tobytes())
        assert ctx.glGetError() == E.GL_NO_ERROR
        full = ctx.read_pixels()[..., 0] > 0
    ys, xs = np.mgrid[0:8, 0:8]
    assert np.array_equal(half[xs + ys < 7], np.ones(28, bool))     # strictly below the diagonal
    assert not half[xs + ys > 7].any()
    assert full.all()
