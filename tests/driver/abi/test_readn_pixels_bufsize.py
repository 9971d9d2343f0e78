"""glReadnPixels through the C ABI refuses a bufSize the image does not fit
(GL 4.6 section 18.2.8: INVALID_OPERATION, nothing written); the marshalling read
with glReadPixels and cut the bytes at bufSize, so piglit's
arb_robustness_client-mem-bounds saw no error. A fitting bufSize reads the pixels."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import pytest

import driver
from driver.abi import _commands, marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_readn_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def test_too_small_a_buffer_is_invalid_operation(ffi):
    readn = M.OVERRIDES.get("glReadnPixels") or _commands.MARSHAL["glReadnPixels"]
    with driver.Context("gl46", 4, 4) as c:
        g = c.gl
        g.glClearColor(0, 1, 0, 1)
        g.glClear(E.GL_COLOR_BUFFER_BIT)
        out = ffi.new("GLubyte[]", [7] * 64)
        readn(g, 0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 63, out)
        assert g.glGetError() == E.GL_INVALID_OPERATION
        assert list(out) == [7] * 64
        readn(g, 0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 64, out)
        assert g.glGetError() == E.GL_NO_ERROR
        assert list(out) == [0, 255, 0, 255] * 16
