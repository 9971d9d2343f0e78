"""Indexed quads, quad strips and adjacency primitives without a geometry stage:
their index lists are rewritten into triangles or lines by a GPU kernel
(driver/agx/index_rewrite.py), so the draw never waits for the GPU (the CPU
fallbacks of driver/agx/fallbacks.py count nothing). Each image is compared with
the same primitives drawn as independent triangles or lines whose indices are
worked out by hand from GL's rules (GL 4.6 sections 10.1.7-10.1.14: a quad
(a, b, c, d) drawn as triangles (a, b, c) and (a, c, d), quad strip pairs, the
main vertices 1, 2 of a line with adjacency and 0, 2, 4 of a triangle)."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.agx import fallbacks, index_rewrite
from driver.gl import enums as E

from .glhelp import program

W = H = 32
VS = """#version 150
in vec2 pos;
in vec3 colour;
out vec3 c;
void main() { gl_Position = vec4(pos, 0.0, 1.0); c = colour; }"""
FS = """#version 150
in vec3 c;
out vec4 o;
void main() { o = vec4(c, 1.0); }"""

# a 3 x 3 grid of points over the target, each its own colour
_GRID = np.array([[x, y] for y in (-0.9, 0.1, 0.9) for x in (-0.9, 0.05, 0.9)], np.float32)
_COLOURS = np.array([[(i * 37 % 9) / 8, (i * 5 % 9) / 8, i / 8] for i in range(9)], np.float32)
_TYPES = {E.GL_UNSIGNED_BYTE: np.uint8, E.GL_UNSIGNED_SHORT: np.uint16, E.GL_UNSIGNED_INT: np.uint32}


def _setup(api: str):
    ctx = driver.Context(api=api, width=W, height=H)
    prog = program(ctx, VS, FS)
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    data = np.hstack([_GRID, _COLOURS]).astype(np.float32)
    (vbo, ibo) = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    for name, n, first in (("pos", 2, 0), ("colour", 3, 2)):
        loc = ctx.glGetAttribLocation(prog, name)
        ctx.glVertexAttribPointer(loc, n, E.GL_FLOAT, False, 20, 4 * first)
        ctx.glEnableVertexAttribArray(loc)
    ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ibo)
    return ctx


def _image(api: str, mode: int, indices, index_type=E.GL_UNSIGNED_INT, *, upload=None) -> np.ndarray:
    """The image of one indexed draw from a buffer object; ``upload(ctx, raw)``
    replaces glBufferData for filling the index buffer."""
    ctx = _setup(api)
    raw = np.asarray(indices, _TYPES[index_type]).tobytes()
    if upload is None:
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
    else:
        upload(ctx, raw)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawElements(mode, len(indices), index_type, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)


def _on_gpu(api, mode, indices, index_type=E.GL_UNSIGNED_INT, **kw) -> np.ndarray:
    """The image, asserting the list was gathered by the kernel and nothing fell back."""
    before, gathers = dict(fallbacks.COUNTS), index_rewrite.COUNTS["gather"]
    image = _image(api, mode, indices, index_type, **kw)
    assert dict(fallbacks.COUNTS) == before, "the draw read the index list back on the CPU"
    assert index_rewrite.COUNTS["gather"] == gathers + 1
    return image


# quads (0, 1, 4, 3) and (4, 5, 8, 7) of the grid: triangles (a, b, c), (a, c, d)
_QUADS = [0, 1, 4, 3, 4, 5, 8, 7]
_QUAD_TRIANGLES = [0, 1, 4, 0, 4, 3, 4, 5, 8, 4, 8, 7]


@pytest.mark.parametrize("index_type", sorted(_TYPES))
def test_indexed_quads_are_gathered_on_the_gpu(index_type):
    got = _on_gpu("compat", E.GL_QUADS, _QUADS, index_type)
    want = _image("compat", E.GL_TRIANGLES, _QUAD_TRIANGLES)
    assert (got[..., 3] > 0).sum() > W * H // 4          # the quads cover a good part of the target
    np.testing.assert_array_equal(got, want)


def test_indexed_quad_strip_is_gathered_on_the_gpu():
    # strip (3, 0, 4, 1, 5, 2): quads (3, 0, 1, 4) and (4, 1, 2, 5) in GL's order (v0, v1, v3, v2)
    got = _on_gpu("compat", E.GL_QUAD_STRIP, [3, 0, 4, 1, 5, 2], E.GL_UNSIGNED_SHORT)
    want = _image("compat", E.GL_TRIANGLES, [3, 0, 1, 3, 1, 4, 4, 1, 2, 4, 2, 5])
    np.testing.assert_array_equal(got, want)


def test_lines_and_triangles_with_adjacency_keep_their_main_vertices():
    got = _on_gpu("gl43", E.GL_LINES_ADJACENCY, [8, 0, 8, 2, 7, 6, 4, 1])
    np.testing.assert_array_equal(got, _image("gl43", E.GL_LINES, [0, 8, 6, 4]))
    got = _on_gpu("gl43", E.GL_TRIANGLES_ADJACENCY, [0, 7, 2, 7, 8, 7], E.GL_UNSIGNED_BYTE)
    np.testing.assert_array_equal(got, _image("gl43", E.GL_TRIANGLES, [0, 2, 8]))


def test_an_index_list_the_gpu_just_wrote_is_gathered_after_it():
    """The index buffer is filled by a GPU copy right before the draw: the kernel
    is ordered after the copy on the GPU, with no CPU wait."""
    def copy_on_gpu(ctx, raw):
        (src,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, src)
        ctx.glBufferData(E.GL_COPY_READ_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, len(raw), None, E.GL_STATIC_DRAW)
        ctx.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_ELEMENT_ARRAY_BUFFER, 0, 0, len(raw))
    got = _on_gpu("compat", E.GL_QUADS, _QUADS, upload=copy_on_gpu)
    np.testing.assert_array_equal(got, _image("compat", E.GL_TRIANGLES, _QUAD_TRIANGLES))


def test_quads_with_primitive_restart_still_read_the_list_back():
    """The one case left on the CPU: where the restart index occurs decides the
    positions. It is counted, and the image is still right."""
    before = fallbacks.COUNTS["indices"]

    def restart(ctx, raw):
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
        ctx.glEnable(E.GL_PRIMITIVE_RESTART)
        ctx.glPrimitiveRestartIndex(99)
    ctx_image = _image("compat", E.GL_QUADS, [0, 1, 4, 99, 3, 4, 5, 8, 7], upload=restart)
    assert fallbacks.COUNTS["indices"] == before + 1
    # (0, 1, 4) before the restart is incomplete and dropped; after it the quad (3, 4, 5, 8)
    # starts afresh and 7 is left over
    np.testing.assert_array_equal(ctx_image, _image("compat", E.GL_TRIANGLES, [3, 4, 5, 3, 5, 8]))


# ----------------------------------------------------------------------------- indirect draws

def _indirect_image(indexed: bool, records, *, multi: bool = False) -> np.ndarray:
    """Draw the grid's triangles through glDraw*Indirect (``records``: the uint32
    parameter words); returns the image, asserting no CPU fallback."""
    ctx = _setup("gl43")
    tri = np.uint32([0, 2, 8, 0, 8, 6, 1, 4, 5])
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, buf)
    words = np.uint32(records).reshape(-1)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, words.nbytes, words, E.GL_STATIC_DRAW)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    before = dict(fallbacks.COUNTS)
    n = len(records)
    if indexed:
        if multi:
            ctx.glMultiDrawElementsIndirect(E.GL_TRIANGLES, E.GL_UNSIGNED_INT, 0, n, 0)
        else:
            ctx.glDrawElementsIndirect(E.GL_TRIANGLES, E.GL_UNSIGNED_INT, 0)
    elif multi:
        ctx.glMultiDrawArraysIndirect(E.GL_TRIANGLES, 0, n, 0)
    else:
        ctx.glDrawArraysIndirect(E.GL_TRIANGLES, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    image = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    assert dict(fallbacks.COUNTS) == before, "the indirect parameters were read back on the CPU"
    return image


def test_indirect_draws_take_their_parameters_on_the_gpu():
    """The VDM reads the records itself (count, instances, first, base vertex);
    the images equal the same draws made directly."""
    # first index 1: indices 1..3 of the list [0, 2, 8, 0, 8, 6, 1, 4, 5] are 2, 8, 0
    np.testing.assert_array_equal(_indirect_image(True, [[3, 1, 1, 0, 0]]), _image("gl43", E.GL_TRIANGLES, [2, 8, 0]))
    # two records: first index 0 with base vertex 0, then first index 6 (triangle 1, 4, 5)
    np.testing.assert_array_equal(_indirect_image(True, [[3, 1, 0, 0, 0], [3, 1, 6, 0, 0]], multi=True),
                                  _image("gl43", E.GL_TRIANGLES, [0, 2, 8, 1, 4, 5]))
    # non-indexed: vertices 3, 4, 5 of the grid (first = 3), drawn with no instances then one
    np.testing.assert_array_equal(_indirect_image(False, [[3, 0, 0, 0], [3, 1, 3, 0]], multi=True),
                                  _image("gl43", E.GL_TRIANGLES, [3, 4, 5]))


def test_a_draw_count_in_a_buffer_is_applied_on_the_gpu():
    """ARB_indirect_parameters: two records, a count of 1 in the parameter buffer
    (written by a GPU copy just before): only the first record draws, and neither
    the count nor the records are read back."""
    ctx = _setup("gl45")
    tri = np.uint32([0, 2, 8, 1, 4, 5])
    ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
    records = np.uint32([[3, 1, 0, 0, 0], [3, 1, 3, 0, 0]])
    (ind, src, count) = ctx.glGenBuffers(3)
    ctx.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ind)
    ctx.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, records.nbytes, records, E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_COPY_READ_BUFFER, src)
    ctx.glBufferData(E.GL_COPY_READ_BUFFER, 4, np.uint32([1]), E.GL_STATIC_DRAW)
    ctx.glBindBuffer(E.GL_PARAMETER_BUFFER, count)
    ctx.glBufferData(E.GL_PARAMETER_BUFFER, 4, None, E.GL_STATIC_DRAW)
    ctx.glCopyBufferSubData(E.GL_COPY_READ_BUFFER, E.GL_PARAMETER_BUFFER, 0, 0, 4)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    before, filtered = dict(fallbacks.COUNTS), index_rewrite.COUNTS["draw_count"]
    ctx.glMultiDrawElementsIndirectCount(E.GL_TRIANGLES, E.GL_UNSIGNED_INT, 0, 0, 2, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    assert dict(fallbacks.COUNTS) == before, "the draw count was read back on the CPU"
    assert index_rewrite.COUNTS["draw_count"] == filtered + 1
    np.testing.assert_array_equal(got, _image("gl45", E.GL_TRIANGLES, [0, 2, 8]))
