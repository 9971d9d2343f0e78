"""glClearBufferData/SubData with the three-component 32-bit formats of GL 4.6 table
8.18: an element is 12 bytes, as in a buffer texture (their image formats pad to 16),
and a format outside the table is INVALID_ENUM (piglit arb_clear_buffer_object-formats
GL_RGB32F/I/UI). Expected bytes by hand."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.mark.parametrize("internal, fmt, type, dtype", [
    (E.GL_RGB32F, E.GL_RGB, E.GL_FLOAT, np.float32),
    (E.GL_RGB32I, E.GL_RGB_INTEGER, E.GL_INT, np.int32),
    (E.GL_RGB32UI, E.GL_RGB_INTEGER, E.GL_UNSIGNED_INT, np.uint32)])
def test_rgb32_elements_are_12_bytes(internal, fmt, type, dtype):
    core = make_ctx("gl43")
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    core.glBufferData(E.GL_ARRAY_BUFFER, 48, bytes(48), E.GL_STATIC_DRAW)
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, internal, 12, 24, fmt, type, np.array([1, 2, 3], dtype))
    expect(core, E.GL_NO_ERROR)
    got = np.frombuffer(bytes(core.buffers.get(b).resource.storage[:48]), dtype)
    assert list(got) == [0, 0, 0, 1, 2, 3, 1, 2, 3, 0, 0, 0]
    core.glClearBufferData(E.GL_ARRAY_BUFFER, internal, fmt, type, np.array([7, 8, 9], dtype))
    expect(core, E.GL_NO_ERROR)
    got = np.frombuffer(bytes(core.buffers.get(b).resource.storage[:48]), dtype)
    assert list(got) == [7, 8, 9] * 4
    core.glClearBufferSubData(E.GL_ARRAY_BUFFER, internal, 8, 12, fmt, type, None)
    expect(core, E.GL_INVALID_VALUE)                  # not a multiple of the 12-byte element


def test_formats_outside_table_8_18_are_invalid_enum():
    core = make_ctx("gl43")
    (b,) = core.glGenBuffers(1)
    core.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    core.glBufferData(E.GL_ARRAY_BUFFER, 48, bytes(48), E.GL_STATIC_DRAW)
    for internal in (E.GL_RGB8, E.GL_RGBA8_SNORM, E.GL_RGB16F):
        core.glClearBufferData(E.GL_ARRAY_BUFFER, internal, E.GL_RGB, E.GL_FLOAT, None)
        expect(core, E.GL_INVALID_ENUM)
    assert bytes(core.buffers.get(b).resource.storage[:48]) == bytes(48)
