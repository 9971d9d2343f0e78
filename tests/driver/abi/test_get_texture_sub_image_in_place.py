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
