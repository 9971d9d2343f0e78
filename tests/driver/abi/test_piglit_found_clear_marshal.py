"""The clear commands read one element of client memory through the C ABI (GL 4.6
sections 6.2.1 and 8.21): glClearTexImage/glClearTexSubImage/glClearBuffer(Sub)Data
passed the data pointer's address as a number, which the front end packed as a float
(piglit's arb_clear_texture-simple: INVALID_VALUE and red instead of the colours)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import numpy as np
import pytest

import driver
from driver.abi import marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_clear_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def test_clear_tex_image_and_sub_image_read_one_texel(ffi):
    with driver.Context("compat", 4, 4) as c:
        g = c.gl
        tex = g.glGenTextures(1)[0]
        g.glBindTexture(E.GL_TEXTURE_2D, tex)
        g.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 8, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        green = ffi.new("GLfloat[]", [0.0, 1.0, 0.0])
        M.glClearTexImage(g, tex, 0, E.GL_RGB, E.GL_FLOAT, green)
        blue = ffi.new("GLubyte[]", [0, 0, 255, 128])
        M.glClearTexSubImage(g, tex, 0, 4, 1, 0, 4, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, blue)
        assert g.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(bytes(g.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                            np.uint8).reshape(4, 8, 4)
    want = np.zeros((4, 8, 4), np.uint8)
    want[...] = [0, 255, 0, 255]                  # RGB data: alpha 1
    want[1:3, 4:8] = [0, 0, 255, 128]
    assert (got == want).all(), got


def test_clear_buffer_data_reads_one_element(ffi):
    with driver.Context("gl43", 4, 4) as c:
        g = c.gl
        buf = g.glGenBuffers(1)[0]
        g.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        g.glBufferData(E.GL_ARRAY_BUFFER, 32, None, E.GL_STATIC_DRAW)
        word = ffi.new("GLuint[]", [0xDEADBEEF])
        M.glClearBufferData(g, E.GL_ARRAY_BUFFER, E.GL_R32UI, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, word)
        two = ffi.new("GLuint[]", [7])
        M.glClearBufferSubData(g, E.GL_ARRAY_BUFFER, E.GL_R32UI, 8, 8, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT, two)
        assert g.glGetError() == E.GL_NO_ERROR
        got = np.frombuffer(bytes(g.glGetBufferSubData(E.GL_ARRAY_BUFFER, 0, 32)), np.uint32)
    assert got.tolist() == [0xDEADBEEF, 0xDEADBEEF, 7, 7] + [0xDEADBEEF] * 4
