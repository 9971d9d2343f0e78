"""glGetTextureSubImage through the C ABI writes the box into the client's memory in
place: the bytes the pack state skips (row length, skips) keep what the program put
there (GL 4.6 section 8.4.4.1). The whole padded span was written, zeros between the
rows, so piglit's arb_get_texture_sub_image-cubemap, which gathers a level from four
quadrant reads into one buffer, kept only the last quadrant. Expected bytes by hand."""

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
    spec = importlib.util.spec_from_file_location("_abi_build_for_get_sub_image_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def test_quadrants_gathered_into_one_buffer(ffi):
    get_sub_image = M.OVERRIDES.get("glGetTextureSubImage") or _commands.MARSHAL["glGetTextureSubImage"]
    texels = np.arange(4 * 4, dtype=np.uint32).reshape(4, 4) * 0x01010101
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        tex = g.glGenTextures(1)[0]
        g.glBindTexture(E.GL_TEXTURE_2D, tex)
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
        out = ffi.new("GLuint[]", 16)
        g.glPixelStorei(E.GL_PACK_ROW_LENGTH, 4)
        for x, y in ((0, 0), (2, 0), (0, 2), (2, 2)):
            g.glPixelStorei(E.GL_PACK_SKIP_PIXELS, x)
            g.glPixelStorei(E.GL_PACK_SKIP_ROWS, y)
            get_sub_image(g, tex, 0, x, y, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 64, out)
        assert g.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(ffi.buffer(out), np.uint32).reshape(4, 4)
        assert (got == texels).all(), got
        # too small a buffer: INVALID_OPERATION, the memory untouched
        g.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 0)
        g.glPixelStorei(E.GL_PACK_SKIP_ROWS, 0)
        g.glPixelStorei(E.GL_PACK_ROW_LENGTH, 0)
        small = ffi.new("GLuint[]", [7, 7, 7, 7])
        get_sub_image(g, tex, 0, 0, 0, 0, 4, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 16, small)
        assert g.glGetError() == E.GL_INVALID_OPERATION
        assert list(small) == [7, 7, 7, 7]


def test_into_a_pixel_pack_buffer_at_the_pointer_offset(ffi):
    """With a PIXEL_PACK_BUFFER bound the pointer is an offset into it (piglit
    pbo-getteximage: the box went nowhere); the bytes the pack state skips keep
    the buffer's contents, its size bounds the write (INVALID_OPERATION beyond)."""
    get_sub_image = M.OVERRIDES.get("glGetTextureSubImage") or _commands.MARSHAL["glGetTextureSubImage"]
    texels = (np.arange(2 * 2, dtype=np.uint32) + 1) * 0x01010101
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        tex = g.glGenTextures(1)[0]
        g.glBindTexture(E.GL_TEXTURE_2D, tex)
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels.tobytes())
        pbo = g.glGenBuffers(1)[0]
        g.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pbo)
        g.glBufferData(E.GL_PIXEL_PACK_BUFFER, 32, np.full(8, 0xEEEEEEEE, np.uint32), E.GL_STATIC_READ)
        g.glPixelStorei(E.GL_PACK_ROW_LENGTH, 2)
        g.glPixelStorei(E.GL_PACK_SKIP_PIXELS, 1)
        get_sub_image(g, tex, 0, 1, 0, 0, 1, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 0, ffi.cast("void *", 8))
        assert g.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(bytes(g.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 0, 32)), np.uint32)
        e = 0xEEEEEEEE
        assert list(got) == [e, e, e, texels[1], e, texels[3], e, e]      # words 3 and 5: column 1
        get_sub_image(g, tex, 0, 0, 0, 0, 2, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 0, ffi.cast("void *", 20))
        assert g.glGetError() == E.GL_INVALID_OPERATION                  # 20 + 16 > 32
