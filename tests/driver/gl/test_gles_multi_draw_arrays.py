"""GL_EXT_multi_draw_arrays in GLES 2.0+ (as llvmpipe lists it):
glMultiDrawArraysEXT and glMultiDrawElementsEXT draw their primitive lists one
after the other, and with a base-vertex extension glMultiDrawElementsBaseVertexEXT
(OES/EXT_draw_elements_base_vertex add it when EXT_multi_draw_arrays exists;
piglit oes_draw_elements_base_vertex-multidrawelements). An 8x4 window: the two
lists are quads over columns 0-1 and 6-7, the middle keeps the clear colour."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.extensions import advertised
from tests.driver.gl.helpers import expect, link_sources

W, H = 8, 4
# quad A over x in [-1, -0.5] (columns 0-1), quad B over [0.5, 1] (columns 6-7), as strips
QUADS = np.array([(-1, -1), (-0.5, -1), (-1, 1), (-0.5, 1),
                  (0.5, -1), (1, -1), (0.5, 1), (1, 1)], np.float32)
VS = {"gles2": "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }",
      "gles32": "#version 320 es\nin vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"}
FS = {"gles2": "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }",
      "gles32": "#version 320 es\nprecision mediump float; out vec4 o; void main() { o = vec4(1.0, 0.0, 0.0, 1.0); }"}


def _setup(api):
    ctx = driver.Context(api=api, width=W, height=H)
    assert "GL_EXT_multi_draw_arrays" in advertised(True, False, ctx.api.version)
    link_sources(ctx, [(E.GL_VERTEX_SHADER, VS[api]), (E.GL_FRAGMENT_SHADER, FS[api])])
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, QUADS.nbytes, QUADS.tobytes(), E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    return ctx


def _check(ctx):
    expect(ctx, E.GL_NO_ERROR)
    px = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    want = np.tile(np.array([0, 0, 255, 255], np.uint8), (H, W, 1))
    want[:, :2] = want[:, 6:] = [255, 0, 0, 255]
    assert (px == want).all(), px[0]


@pytest.mark.parametrize("api", ["gles2", "gles32"])
def test_multi_draw_arrays(api):
    ctx = _setup(api)
    ctx.glMultiDrawArraysEXT(E.GL_TRIANGLE_STRIP, [0, 4], [4, 4], 2)
    _check(ctx)


@pytest.mark.parametrize("api", ["gles2", "gles32"])
def test_multi_draw_elements(api):
    ctx = _setup(api)
    (ibo,) = ctx.glGenBuffers(1)
    idx = np.array([0, 1, 2, 3, 4, 5, 6, 7], np.uint16)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
    ctx.glMultiDrawElementsEXT(E.GL_TRIANGLE_STRIP, [4, 4], E.GL_UNSIGNED_SHORT, [0, 8], 2)
    _check(ctx)


def test_multi_draw_elements_base_vertex():
    """The same four indices twice, the second list at base vertex 4."""
    ctx = _setup("gles32")
    (ibo,) = ctx.glGenBuffers(1)
    idx = np.array([0, 1, 2, 3], np.uint16)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
    ctx.glMultiDrawElementsBaseVertexEXT(E.GL_TRIANGLE_STRIP, [4, 4], E.GL_UNSIGNED_SHORT, [0, 0], 2, [0, 4])
    _check(ctx)


def test_not_in_gles1():
    ctx = driver.Context(api="gles1", width=W, height=H)
    assert "GL_EXT_multi_draw_arrays" not in advertised(True, False, ctx.api.version)
    ctx.glMultiDrawArraysEXT(E.GL_TRIANGLE_STRIP, [0], [4], 1)
    expect(ctx, E.GL_INVALID_OPERATION)
