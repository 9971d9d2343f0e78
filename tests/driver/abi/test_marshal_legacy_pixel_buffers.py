"""The fixed-function tables and bitmaps through pixel buffer objects (GL 2.1 section
3.6.1 / ARB_pixel_buffer_object: with a PIXEL_UNPACK buffer bound the pointer of
glPixelMap*v, glBitmap and glPolygonStipple is an offset into it; with a PIXEL_PACK
buffer bound glGetPixelMap*v and glGetPolygonStipple write there), as piglit's
gl-2.1-pbo runs them through the C ABI. The marshalling read the offset as client
memory (a NULL offset gave no bitmap and no table). Also the pixel maps' sizes
(GL_PIXEL_MAP_x_SIZE, table 6.22), which the front end did not answer, and the unsigned
normalised conversion of glPixelMapusv/uiv colour maps (table 2.9); every expected
value is worked out by hand."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import numpy as np
import pytest

import driver
from driver.abi import _commands, marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_legacy_pbo_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def _cmd(name):
    return M.OVERRIDES.get(name) or _commands.MARSHAL[name]


def _buffer(g, target, data: bytes | int):
    b = g.glGenBuffers(1)[0]
    g.glBindBuffer(target, b)
    if isinstance(data, int):
        g.glBufferData(target, data, None, E.GL_STREAM_DRAW)
    else:
        g.glBufferData(target, len(data), data, E.GL_STREAM_DRAW)
    return b


def test_pixel_map_from_the_unpack_buffer_and_back_into_the_pack_buffer(ffi):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        # four unsigned shorts at byte offset 6 of the unpack buffer
        table = np.array([65535, 0, 32768, 1], np.uint16)
        _buffer(g, E.GL_PIXEL_UNPACK_BUFFER, b"\x11" * 6 + table.tobytes())
        _cmd("glPixelMapusv")(g, E.GL_PIXEL_MAP_R_TO_R, 4, ffi.cast("void *", 6))
        g.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
        assert g.glGetError() == E.GL_NO_ERROR
        assert g.glGetIntegerv(E.GL_PIXEL_MAP_R_TO_R_SIZE) == [4]
        assert g.glGetIntegerv(E.GL_PIXEL_MAP_G_TO_G_SIZE) == [1]     # untouched: one entry
        # as floats: value / 65535
        out = ffi.new("GLfloat[]", 4)
        _cmd("glGetPixelMapfv")(g, E.GL_PIXEL_MAP_R_TO_R, out)
        assert list(out) == pytest.approx([1.0, 0.0, 32768 / 65535, 1 / 65535])
        # back as unsigned ints, into the pack buffer at offset 4: round(v * (2^32 - 1))
        pack = _buffer(g, E.GL_PIXEL_PACK_BUFFER, 20)
        _cmd("glGetPixelMapuiv")(g, E.GL_PIXEL_MAP_R_TO_R, ffi.cast("void *", 4))
        assert g.glGetError() == E.GL_NO_ERROR
        raw = bytes(g.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 4, 16))
        expect = [0xFFFFFFFF, 0, round(32768 / 65535 * 0xFFFFFFFF), round(1 / 65535 * 0xFFFFFFFF)]
        assert np.frombuffer(raw, np.uint32).tolist() == expect
        # past the end of the pack buffer: INVALID_OPERATION, nothing written
        g.glBufferSubData(E.GL_PIXEL_PACK_BUFFER, 0, 20, b"\x00" * 20)
        _cmd("glGetPixelMapuiv")(g, E.GL_PIXEL_MAP_R_TO_R, ffi.cast("void *", 8))
        assert g.glGetError() == E.GL_INVALID_OPERATION
        assert bytes(g.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 0, 20)) == b"\x00" * 20
        g.glDeleteBuffers(1, [pack])


def test_pixel_map_errors():
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        # an index map's size must be a power of two (section 3.6.3); a colour map's need not
        g.glPixelMapuiv(E.GL_PIXEL_MAP_I_TO_R, 3, [1, 2, 3])
        assert g.glGetError() == E.GL_INVALID_VALUE
        assert g.glGetIntegerv(E.GL_PIXEL_MAP_I_TO_R_SIZE) == [1]
        g.glPixelMapuiv(E.GL_PIXEL_MAP_R_TO_R, 3, [1, 2, 3])
        assert g.glGetError() == E.GL_NO_ERROR
        # reading past the unpack buffer's end: INVALID_OPERATION, the table unchanged
        _buffer(g, E.GL_PIXEL_UNPACK_BUFFER, bytes(8))
        g.glPixelMapfv(E.GL_PIXEL_MAP_R_TO_R, 4, 4)           # 16 bytes from offset 4 of 8
        assert g.glGetError() == E.GL_INVALID_OPERATION
        assert g.glGetIntegerv(E.GL_PIXEL_MAP_R_TO_R_SIZE) == [3]
        # index maps keep their integers: I_TO_I as given, 7 stays 7
        g.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
        g.glPixelMapuiv(E.GL_PIXEL_MAP_I_TO_I, 2, [7, 300])
        assert g.glGetPixelMapuiv(E.GL_PIXEL_MAP_I_TO_I) == [7, 300]


def test_polygon_stipple_through_both_buffers(ffi):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        pattern = bytes(range(128))
        _buffer(g, E.GL_PIXEL_UNPACK_BUFFER, b"\xee" * 16 + pattern)
        _cmd("glPolygonStipple")(g, ffi.cast("void *", 16))
        g.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
        out = ffi.new("GLubyte[]", 128)
        _cmd("glGetPolygonStipple")(g, out)
        assert bytes(out) == pattern
        _buffer(g, E.GL_PIXEL_PACK_BUFFER, 136)
        _cmd("glGetPolygonStipple")(g, ffi.cast("void *", 8))
        assert g.glGetError() == E.GL_NO_ERROR
        assert bytes(g.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 8, 128)) == pattern
        # the robust form (ARB_robustness) writes into the pack buffer too, at offset 0
        g.glGetnPolygonStipple(128)
        assert g.glGetError() == E.GL_NO_ERROR
        assert bytes(g.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 0, 128)) == pattern


def test_bitmap_from_the_unpack_buffer(ffi):
    with driver.Context("compat", 8, 8) as c:
        g = c.gl
        g.glClearColor(0, 0, 0, 1)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        g.glMatrixMode(E.GL_PROJECTION)
        g.glLoadIdentity()
        g.glOrtho(0, 8, 0, 8, -1, 1)
        g.glColor4f(1, 1, 1, 1)
        g.glRasterPos2f(0, 0)
        # 8 rows of 0xAA (unpack alignment 4: one byte of bits, padded to 4 a row)
        _buffer(g, E.GL_PIXEL_UNPACK_BUFFER, b"\xaa\0\0\0" * 8)
        _cmd("glBitmap")(g, 8, 8, 0, 0, 0, 0, ffi.NULL)
        assert g.glGetError() == E.GL_NO_ERROR
        g.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
        px = c.read_pixels()
        white_columns = [0, 2, 4, 6]         # the most significant bit is the leftmost pixel
        expect = np.zeros((8, 8, 4), np.uint8)
        expect[..., 3] = 255
        expect[:, white_columns, :3] = 255
        assert (px == expect).all()
