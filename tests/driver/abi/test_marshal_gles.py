"""GLES commands whose C marshalling needs more than the generic rules. KHR_debug's
label queries from C (glGetObjectLabel, glGetObjectPtrLabel and
their KHR aliases, as GLES programs call them): a NULL `label` with a non-NULL
`length` gives the whole label's length (KHR_debug; piglit
khr_debug-object-label_gles2/3), a short bufSize truncates with a NUL, and a
NULL `length` still writes the label. HALF_FLOAT_OES pixel data is sized as
HALF_FLOAT. In process, with a plain cffi FFI."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import pytest

import driver
from driver.abi import marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"
LABEL = "Test Label"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_label_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


@pytest.mark.parametrize("suffix, api", [("", "gles32"), ("KHR", "gles3"), ("KHR", "gles2")])
def test_object_label_lengths(ffi, suffix, api):
    ctx = driver.Context(api=api, width=4, height=4)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    getattr(ctx, "glObjectLabel" + suffix)(E.GL_BUFFER, buf, -1, LABEL)
    assert ctx.glGetError() == E.GL_NO_ERROR
    get = M.OVERRIDES["glGetObjectLabel" + suffix]
    length, text = ffi.new("GLsizei *", -1), ffi.new("char[32]")
    get(ctx, E.GL_BUFFER, buf, 32, length, ffi.NULL)
    assert length[0] == len(LABEL)
    get(ctx, E.GL_BUFFER, buf, len(LABEL), length, text)          # room for 9 characters and the NUL
    assert (length[0], ffi.string(text)) == (9, b"Test Labe")
    get(ctx, E.GL_BUFFER, buf, 32, ffi.NULL, text)
    assert ffi.string(text) == LABEL.encode()
    get(ctx, E.GL_BUFFER, buf + 100, 32, length, text)            # no such buffer: nothing written
    assert ctx.glGetError() == E.GL_INVALID_VALUE and ffi.string(text) == LABEL.encode()


def test_sync_label_length(ffi):
    ctx = driver.Context(api="gles32", width=4, height=4)
    sync = ctx.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    ctx.glObjectPtrLabel(sync, -1, LABEL)
    length = ffi.new("GLsizei *", -1)
    M.OVERRIDES["glGetObjectPtrLabelKHR"](ctx, ffi.cast("void *", sync), 32, length, ffi.NULL)
    assert length[0] == len(LABEL)


def test_half_float_oes_pixels_span_two_bytes_a_component(ffi):
    """OES_texture_half_float's HALF_FLOAT_OES (0x8D61, not GL's HALF_FLOAT): the
    C side reads 2 bytes a component of the client's image (it read none, and
    glTexImage2D saw data shorter than the image: piglit oes_texture_float half)."""
    import numpy as np
    ctx = driver.Context(api="gles2", width=4, height=4)
    half = np.array([0.5, 0.25, 1.0, 2.0] * 4, np.float16)
    keep = ffi.from_buffer(half)
    raw = M.pixels_in(ctx, keep, E.GL_RGBA, 0x8D61, 2, 2)
    assert raw == half.tobytes()
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 2, 2, 0, E.GL_RGBA, 0x8D61, raw)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert M._element_in(keep, E.GL_RGBA, 0x8D61) == half[:4].tobytes()
