"""DEPTH_STENCIL pixel transfers with a type other than UNSIGNED_INT_24_8 or
FLOAT_32_UNSIGNED_INT_24_8_REV are INVALID_ENUM in desktop GL's ReadPixels and
DrawPixels (EXT_packed_depth_stencil's errors section, and Mesa's format-and-type
check), not the INVALID_OPERATION of other format/type mismatches; nothing is
read or drawn. The packed types themselves still work, and DEPTH_COMPONENT with
the packed type stays INVALID_OPERATION."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E

W = H = 4


@pytest.mark.parametrize("type_", [E.GL_UNSIGNED_INT, E.GL_FLOAT, E.GL_UNSIGNED_SHORT, E.GL_UNSIGNED_BYTE])
def test_read_and_draw_pixels_refuse_other_types_with_invalid_enum(type_):
    with driver.Context(api="compat", width=W, height=H) as gl:
        gl.glClearColor(0.25, 0.5, 0.75, 1.0)
        gl.glClear(E.GL_COLOR_BUFFER_BIT)
        before = bytes(gl.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
        assert gl.glReadPixels(0, 0, 1, 1, E.GL_DEPTH_STENCIL, type_) is None
        assert gl.glGetError() == E.GL_INVALID_ENUM
        gl.glWindowPos2i(0, 0)
        gl.glDrawPixels(1, 1, E.GL_DEPTH_STENCIL, type_, np.zeros(16, np.uint8))
        assert gl.glGetError() == E.GL_INVALID_ENUM
        assert bytes(gl.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)) == before


def test_packed_types_still_read_and_depth_component_with_packed_type_is_invalid_operation():
    with driver.Context(api="compat", width=W, height=H) as gl:
        gl.glClearDepth(0.5)
        gl.glClearStencil(7)
        gl.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        word = np.frombuffer(bytes(gl.glReadPixels(0, 0, 1, 1, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8)), np.uint32)[0]
        assert gl.glGetError() == E.GL_NO_ERROR
        assert word & 0xFF == 7 and abs((word >> 8) - round(0.5 * 0xFFFFFF)) <= 1
        gl.glReadPixels(0, 0, 1, 1, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_INT_24_8)
        assert gl.glGetError() == E.GL_INVALID_OPERATION
