"""Bad and extreme arguments end in the GL error the spec names, with no state
change and no Python exception (GL 4.6 section 2.3.1); range operations cost
O(objects), not O(range). Each case is one the GL API fuzzer found."""

import math
import time

import numpy as np
import pytest

from driver.gl import enums as E
from driver.gl.errors import internal_error
from driver.gl.objects import MAX_NAMES_PER_CALL
from driver.gl.pointers import pack_values
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect, use_program


def no_internal(c):
    assert c.internal_errors == [], c.internal_errors


@pytest.mark.parametrize("gen", ["glGenBuffers", "glGenTextures", "glGenFramebuffers",
                                 "glGenRenderbuffers", "glGenQueries", "glGenSamplers",
                                 "glGenVertexArrays", "glGenTransformFeedbacks"])
def test_gen_with_a_huge_count_is_out_of_memory_and_reserves_nothing(gen):
    c = make_ctx("gl43")
    fn = getattr(c, gen)
    assert fn(0x7FFF_FFFF) is None
    expect(c, E.GL_OUT_OF_MEMORY)
    assert fn(MAX_NAMES_PER_CALL + 1) is None
    expect(c, E.GL_OUT_OF_MEMORY)
    # the name space is untouched: the next names are the first ones
    assert fn(2) == [1, 2]
    expect(c, E.GL_NO_ERROR)
    no_internal(c)


def test_gen_lists_and_delete_lists_over_the_whole_range_are_immediate():
    c = make_ctx("compat")
    t0 = time.perf_counter()
    first = c.glGenLists(0x7FFF_FFFF)
    assert first == 1
    assert c.glIsList(1) and c.glIsList(0x7FFF_FFFF) and not c.glIsList(0x8000_0000)
    # the next range starts after the reserved one
    assert c.glGenLists(3) == 0x8000_0000
    c.glDeleteLists(1, 0x7FFF_FFFF)
    assert not c.glIsList(1) and not c.glIsList(0x7FFF_FFFE)
    assert c.glIsList(0x8000_0000)
    assert c.glGenLists(2) == 1                 # freed names are reused
    # more names than GLuint has left: 0, no error (GL 2.1 section 5.4)
    assert c.glGenLists(0xFFFF_FFFF) == 0
    expect(c, E.GL_NO_ERROR)
    assert time.perf_counter() - t0 < 5          # O(range) would take minutes
    no_internal(c)


def test_gen_lists_skips_compiled_lists_and_delete_keeps_the_rest():
    c = make_ctx("compat")
    c.glNewList(2, E.GL_COMPILE)
    c.glEndList()
    assert c.glGenLists(2) == 3                 # 1 is free, but 1..2 is not
    c.glDeleteLists(2, 2)                       # 2 (compiled) and 3
    assert not c.glIsList(2) and not c.glIsList(3) and c.glIsList(4)
    assert c.glGenLists(1) == 1
    expect(c, E.GL_NO_ERROR)


def test_multi_draw_indirect_with_a_null_offset_reads_offset_zero():
    c = make_ctx("gl43")
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, buf)
    c.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, 32, bytes(32), E.GL_STATIC_DRAW)
    # no program: GL_INVALID_OPERATION from the draw, not a TypeError from the offset
    c.glMultiDrawArraysIndirect(E.GL_TRIANGLES, None, 2, 0)
    expect(c, E.GL_INVALID_OPERATION)
    no_internal(c)
    # commands beyond the buffer: one error before any draw, however large drawcount is
    t0 = time.perf_counter()
    c.glMultiDrawArraysIndirect(E.GL_TRIANGLES, 0, 0x7FFF_FFFF, 0)
    expect(c, E.GL_INVALID_OPERATION)
    c.glMultiDrawElementsIndirect(E.GL_TRIANGLES, E.GL_UNSIGNED_INT, None, 0x7FFF_FFFF, 0)
    expect(c, E.GL_INVALID_OPERATION)
    assert time.perf_counter() - t0 < 5
    c.glMultiDrawArraysIndirect(E.GL_TRIANGLES, 0, 1, -4)
    expect(c, E.GL_INVALID_VALUE)
    no_internal(c)


def test_invalidate_framebuffer_with_no_attachments_and_null():
    c = make_ctx("gles3")
    c.glInvalidateFramebuffer(E.GL_FRAMEBUFFER, 0, None)
    expect(c, E.GL_NO_ERROR)
    no_internal(c)


@pytest.mark.parametrize("fmt,type_,code", [
    (0x1234, E.GL_UNSIGNED_BYTE, E.GL_INVALID_ENUM),
    (E.GL_RGBA, 0x1234, E.GL_INVALID_ENUM),
    (E.GL_RGB, E.GL_UNSIGNED_SHORT_4_4_4_4, E.GL_INVALID_OPERATION),
    # BITMAP needs COLOR_INDEX or STENCIL_INDEX: INVALID_ENUM (the glDrawPixels page, Mesa)
    (E.GL_RGBA, E.GL_BITMAP, E.GL_INVALID_ENUM),
])
def test_draw_pixels_bad_format_or_type(fmt, type_, code):
    c = make_ctx("compat")
    c.glDrawPixels(1, 1, fmt, type_, bytes(16))
    expect(c, code)
    no_internal(c)


def test_values_beyond_float_range_convert_as_c_does():
    """A double beyond float's range becomes an infinity in a float uniform or
    constant attribute (a C cast), never an OverflowError; integers wrap."""
    as_f = np.frombuffer(pack_values([1e300, -1e300, math.nan, 2.5], "f"), np.float32)
    assert as_f[0] == np.inf and as_f[1] == -np.inf and np.isnan(as_f[2]) and as_f[3] == 2.5
    assert np.frombuffer(pack_values([2**32 + 5, -1, math.inf], "i"), np.int32).tolist() == [5, -1, 0]
    c = make_ctx("compat")
    c.glVertexAttrib4f(1, 1e300, -1e300, 0, 1)
    c.glRectd(1e300, -1e300, 0, 1)
    c.glRects(3479, 34660, 1, 36092)
    expect(c, E.GL_NO_ERROR)
    no_internal(c)


def test_the_guard_turns_an_unexpected_exception_into_a_gl_error(capsys):
    c = make_ctx("gles3")
    internal_error(c, "glPlanted", MemoryError("no memory"))
    internal_error(c, "glPlanted", MemoryError("no memory"))
    assert c.glGetError() == E.GL_OUT_OF_MEMORY
    internal_error(c, "glPlanted2", KeyError(7))
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert [t.split(":")[0] for t in c.internal_errors] == ["MemoryError", "MemoryError", "KeyError"]
    err = capsys.readouterr().err.splitlines()
    # one stderr line per entry point and kind, the first time
    assert err == ["shimgl: internal error in glPlanted: MemoryError: no memory "
                   "(reported as GL_OUT_OF_MEMORY)",
                   "shimgl: internal error in glPlanted2: KeyError: 7 "
                   "(reported as GL_INVALID_OPERATION)"]


def test_core_clip_distance_enabled_without_a_write_draws_unclipped():
    """GL_CLIP_DISTANCE1 enabled and a vertex shader that writes no
    gl_ClipDistance: undefined distances, so the plane does not clip (the
    compiler was asked for gl_ClipPlane, which a core profile lacks)."""
    import driver
    with driver.Context("gl43", 8, 8) as ctx:
        g = ctx.gl
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        prog = g.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, "#version 330 core\nvoid main() { "
                           "gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, "
                           "0.0, 1.0); }\n"),
                          (E.GL_FRAGMENT_SHADER, "#version 330 core\nout vec4 o;\n"
                           "void main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n")):
            sh = g.glCreateShader(kind)
            g.glShaderSource(sh, 1, [src])
            g.glCompileShader(sh)
            g.glAttachShader(prog, sh)
        g.glLinkProgram(prog)
        g.glUseProgram(prog)
        g.glEnable(E.GL_CLIP_DISTANCE1)
        g.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(g, E.GL_NO_ERROR)
        no_internal(g)
        assert (ctx.read_pixels()[..., 1] == 255).all()


@pytest.mark.parametrize("mode", [E.GL_TRIANGLE_STRIP, E.GL_TRIANGLES, E.GL_LINE_STRIP, E.GL_POINTS])
def test_a_huge_draw_in_pieces_draws_the_same_pixels(monkeypatch, mode):
    """glDrawArrays above MAX_DRAW_PIECE vertices goes to the pipe as consecutive
    draws (host memory follows the piece); the image is the one-draw image."""
    import driver
    import driver.gl.draws as draws

    vs = ("#version 300 es\nflat out vec4 c;\nvoid main() {\n"
          "  float i = float(gl_VertexID);\n"
          "  vec2 p = vec2(floor(i / 2.0) / 12.0 * 2.0 - 1.0, mod(i, 2.0) * 1.6 - 0.8 + i * 0.01);\n"
          "  c = vec4(mod(i, 3.0) / 2.0, mod(i, 5.0) / 4.0, i / 40.0, 1.0);\n"
          "  gl_Position = vec4(p, 0.0, 1.0); gl_PointSize = 2.0; }\n")
    fs = ("#version 300 es\nprecision mediump float;\nflat in vec4 c;\nout vec4 o;\n"
          "void main() { o = c; }\n")

    def image(limit):
        monkeypatch.setattr(draws, "MAX_DRAW_PIECE", limit)
        with driver.Context("gles3", 32, 32) as ctx:
            g = ctx.gl
            g.glBindVertexArray(g.glGenVertexArrays(1)[0])
            use_program(g, vs, fs)
            g.glDrawArrays(mode, 1, 25)
            expect(g, E.GL_NO_ERROR)
            return ctx.read_pixels()

    whole, pieces = image(1 << 16), image(5)
    assert whole.any()
    assert np.array_equal(whole, pieces)


def test_pieces_of_a_draw_keep_primitives_and_their_order():
    from driver.gl.draws import _pieces

    def primitives(mode, first, count):
        v = list(range(first, first + count))
        if mode == E.GL_TRIANGLE_STRIP:        # odd triangles wind the other way
            return [(v[i], v[i + 1], v[i + 2]) if i % 2 == 0 else (v[i + 1], v[i], v[i + 2])
                    for i in range(count - 2)]
        if mode == E.GL_LINE_STRIP:
            return [(v[i], v[i + 1]) for i in range(count - 1)]
        if mode == E.GL_QUAD_STRIP:
            return [(v[i], v[i + 1], v[i + 3], v[i + 2]) for i in range(0, count - 3, 2)]
        k = {E.GL_POINTS: 1, E.GL_LINES: 2, E.GL_TRIANGLES: 3, E.GL_QUADS: 4}[mode]
        return [tuple(v[i:i + k]) for i in range(0, count - count % k, k)]

    for mode in (E.GL_POINTS, E.GL_LINES, E.GL_TRIANGLES, E.GL_LINE_STRIP, E.GL_TRIANGLE_STRIP,
                 E.GL_QUADS, E.GL_QUAD_STRIP):
        for first, count in ((0, 100), (5, 101), (7, 1000), (3, 17), (1, 16)):
            pieces = _pieces(mode, first, count, limit=16)
            assert all(n <= 16 for _, n in pieces)
            got = [p for start, n in pieces for p in primitives(mode, start, n)]
            assert got == primitives(mode, first, count), (mode, first, count, pieces)
    assert _pieces(E.GL_TRIANGLE_FAN, 0, 1000, limit=16) == [(0, 1000)]    # cannot be split


def test_a_new_window_starts_cleared_even_on_recycled_memory():
    """The window of a new context reads as colour 0 (depth 1, stencil 0) even when
    its buffers come from the BO cache holding a destroyed context's pixels."""
    import driver
    for _ in range(2):
        with driver.Context("gles3", 16, 16) as ctx:
            assert not ctx.read_pixels().any()
            ctx.gl.glClearColor(0.0, 1.0, 0.0, 1.0)
            ctx.gl.glClear(E.GL_COLOR_BUFFER_BIT)
            assert (ctx.read_pixels()[..., 1] == 255).all()


def test_a_huge_draw_that_cannot_be_split_is_out_of_memory():
    c = make_ctx("compat")
    c.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 0x7FFF_FFFF)
    expect(c, E.GL_OUT_OF_MEMORY)
    # pieces of every instance: 2^17 vertices x 2^16 instances is more than 2^16 pipe draws
    c.glDrawArraysInstanced(E.GL_TRIANGLES, 0, 3 << 16, 1 << 16)
    expect(c, E.GL_OUT_OF_MEMORY)
    assert "draw_vbo" not in c.pipe.names()
    no_internal(c)


def test_a_bitmap_taller_than_any_texture_draws_its_visible_part():
    """glBitmap/glDrawPixels draw only what lands in the framebuffer (a 35982-row
    bitmap made a texture beyond the hardware's 14-bit size fields)."""
    import driver
    with driver.Context("compat", 16, 16) as ctx:
        g = ctx.gl
        g.glRasterPos2f(-1, -1)
        g.glColor3f(1, 0, 0)
        g.glBitmap(3, 35982, 0, 0, 0, 0, bytes([0xE0] * 4 * 35982))   # 3 set bits a row
        expect(g, E.GL_NO_ERROR)
        no_internal(g)
        red = ctx.read_pixels()[..., 0]
        assert (red[:, :3] == 255).all() and not red[:, 3:].any()


def test_bitmap_with_a_nan_origin_or_an_infinite_move_draws_nothing():
    c = make_ctx("compat")
    c.glBitmap(2, 1, math.nan, 7.5, -0.2, 0.4, bytes(16))
    c.glBitmap(2, 1, 0, 0, math.inf, 0.4, bytes(16))
    c.glBitmap(2, 1, 0, 0, 0, 0, bytes(16))
    expect(c, E.GL_NO_ERROR)
    no_internal(c)
