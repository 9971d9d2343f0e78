"""GL_IBM_multimode_draw_arrays and GL_IBM_rasterpos_clip: each draw of a multimode
call against the same draws made one by one with glDrawArrays/glDrawElements (the
extension's definition) and pixels computed by hand; the unclipped raster position
against the GL's window-coordinate formula."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.gl.helpers import use_program

W = H = 8

# the left half as a fan (0-3), the right half in strip order (4-7)
QUADS = np.array([(-1, -1), (0, -1), (0, 1), (-1, 1),
                  (0, -1), (1, -1), (0, 1), (1, 1)], np.float32)
FAN, STRIP = E.GL_TRIANGLE_FAN, E.GL_TRIANGLE_STRIP


def make(api="compat"):
    import driver
    return driver.Context(api=api, width=W, height=H)


@pytest.fixture
def ctx():
    c = make()
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, QUADS.tobytes())
    return c


def names(c):
    return [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]


def image(c):
    data = c.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(H, W, 4)[..., 0]


def clear(c):
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)


def separately(c, draws):
    """The reference: each draw with its own glDrawArrays / glDrawElements."""
    clear(c)
    for cmd, args in draws:
        getattr(c, cmd)(*args)
    assert c.glGetError() == E.GL_NO_ERROR
    return image(c)


def test_listed_where_llvmpipe_lists_them():
    compat, core = make("compat"), make("gl46")
    listed = compat.glGetString(E.GL_EXTENSIONS).split()
    assert {"GL_IBM_multimode_draw_arrays", "GL_IBM_rasterpos_clip"} <= set(listed)
    assert "GL_IBM_multimode_draw_arrays" in names(core)
    assert "GL_IBM_rasterpos_clip" not in names(core)
    core.glEnable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    assert core.glGetError() == E.GL_INVALID_ENUM


def test_each_draw_has_its_own_mode(ctx):
    c = ctx
    clear(c)
    c.glMultiModeDrawArraysIBM([FAN, STRIP], [0, 4], [4, 4], 2, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    assert (image(c) == 255).all()
    # the right quad's vertices (strip order) as a fan: triangles (4,5,6) and (4,6,7)
    # leave out the wedge at the right edge's middle
    clear(c)
    c.glMultiModeDrawArraysIBM([FAN, FAN], [0, 4], [4, 4], 2, 4)
    got = image(c)
    assert (got[:, :W // 2] == 255).all()
    assert got[H // 2, W - 1] == 0 and got[0, W - 1] == 255 and got[H - 1, W // 2] == 255
    assert np.array_equal(got, separately(c, [("glDrawArrays", (FAN, 0, 4)), ("glDrawArrays", (FAN, 4, 4))]))


def test_mode_stride_in_bytes(ctx):
    c = ctx
    clear(c)
    c.glMultiModeDrawArraysIBM([FAN, 0xDEAD, E.GL_POINTS, 0xBEEF], [0, 4], [4, 4], 2, 8)
    assert c.glGetError() == E.GL_NO_ERROR
    ref = separately(c, [("glDrawArrays", (FAN, 0, 4)), ("glDrawArrays", (E.GL_POINTS, 4, 4))])
    clear(c)
    c.glMultiModeDrawArraysIBM([FAN, 0xDEAD, E.GL_POINTS, 0xBEEF], [0, 4], [4, 4], 2, 8)
    assert np.array_equal(image(c), ref)
    # a stride of 0: every draw takes the first mode
    clear(c)
    c.glMultiModeDrawArraysIBM([STRIP], [0, 4], [4, 4], 2, 0)
    assert np.array_equal(image(c), separately(c, [("glDrawArrays", (STRIP, 0, 4)),
                                                   ("glDrawArrays", (STRIP, 4, 4))]))


def test_skipped_draws_and_errors(ctx):
    c = ctx
    clear(c)
    # a draw whose count is not positive is skipped, its mode never looked at
    c.glMultiModeDrawArraysIBM([0x1234, STRIP], [0, 4], [0, 4], 2, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    got = image(c)
    assert (got[:, :W // 2] == 0).all() and (got[:, W // 2:] == 255).all()
    # a bad mode is the draw's error; the other draws still run (Mesa runs each draw)
    clear(c)
    c.glMultiModeDrawArraysIBM([0x1234, STRIP], [0, 4], [4, 4], 2, 4)
    assert c.glGetError() == E.GL_INVALID_ENUM
    got = image(c)
    assert (got[:, :W // 2] == 0).all() and (got[:, W // 2:] == 255).all()
    c.glMultiModeDrawArraysIBM([FAN], [0], [4], -1, 4)      # no draws
    assert c.glGetError() == E.GL_NO_ERROR


def test_elements(ctx):
    c = ctx
    left = np.array([3, 2, 1, 0], np.uint16).tobytes()
    right = np.array([4, 5, 6, 7], np.ubyte).tobytes()
    clear(c)
    c.glMultiModeDrawElementsIBM([FAN, FAN], [4, 4], E.GL_UNSIGNED_SHORT,
                                 [left, np.array([4, 5, 6, 7], np.uint16).tobytes()], 2, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    got = image(c)
    assert got[H // 2, W - 1] == 0 and (got[:, :W // 2] == 255).all()
    assert np.array_equal(got, separately(c, [
        ("glDrawElements", (FAN, 4, E.GL_UNSIGNED_SHORT, left)),
        ("glDrawElements", (FAN, 4, E.GL_UNSIGNED_SHORT, np.array([4, 5, 6, 7], np.uint16).tobytes()))]))
    clear(c)
    c.glMultiModeDrawElementsIBM([STRIP], [4], E.GL_UNSIGNED_BYTE, [right], 1, 4)
    got = image(c)
    assert (got[:, W // 2:] == 255).all() and (got[:, :W // 2] == 0).all()


@pytest.mark.parametrize("mode", [E.GL_COMPILE, E.GL_COMPILE_AND_EXECUTE])
def test_display_lists_record_the_draws_with_their_arrays(ctx, mode):
    """As in Mesa the call compiles as its single draws, the client arrays read when the
    list is compiled (GL 2.1 section 5.4)."""
    c = ctx
    clear(c)
    lst = c.glGenLists(1)
    c.glNewList(lst, mode)
    c.glMultiModeDrawArraysIBM([FAN, STRIP], [0, 4], [0, 4], 2, 4)
    c.glEndList()
    assert c.glGetError() == E.GL_NO_ERROR
    got = image(c)
    drawn = mode == E.GL_COMPILE_AND_EXECUTE
    assert (got[:, W // 2:] == (255 if drawn else 0)).all() and (got[:, :W // 2] == 0).all()
    # other vertices now: the list still draws the right half from the compiled copy
    c.glVertexPointer(2, E.GL_FLOAT, 0, (QUADS * 0.0).tobytes())
    clear(c)
    c.glCallList(lst)
    got = image(c)
    assert (got[:, W // 2:] == 255).all() and (got[:, :W // 2] == 0).all()


def test_core_profile_with_buffers():
    c = make("gl46")
    use_program(c, "#version 330\nlayout(location = 0) in vec2 p;\nvoid main() { gl_Position = vec4(p, 0, 1); }\n",
                "#version 330\nout vec4 o;\nvoid main() { o = vec4(1); }\n")
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    c.glBindBuffer(E.GL_ARRAY_BUFFER, c.glGenBuffers(1)[0])
    c.glBufferData(E.GL_ARRAY_BUFFER, QUADS.nbytes, QUADS.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 2, E.GL_FLOAT, 0, 0, 0)
    c.glEnableVertexAttribArray(0)
    c.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, c.glGenBuffers(1)[0])
    idx = np.array([0, 1, 2, 3, 4, 5, 6, 7], np.uint16)
    c.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
    clear(c)
    c.glMultiModeDrawArraysIBM([FAN, STRIP], [0, 4], [4, 4], 2, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    assert (image(c) == 255).all()
    clear(c)
    c.glMultiModeDrawElementsIBM([FAN, FAN], [4, 4], E.GL_UNSIGNED_SHORT, [0, 8], 2, 4)   # byte offsets
    got = image(c)
    assert c.glGetError() == E.GL_NO_ERROR
    assert (got[:, :W // 2] == 255).all() and got[H // 2, W - 1] == 0


# -- GL_IBM_rasterpos_clip ---------------------------------------------------------------------
def test_unclipped_raster_position_is_valid_outside_x_and_y():
    c = make()
    c.glRasterPos2f(-1.5, 0.25)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [False]
    assert c.glIsEnabled(E.GL_RASTER_POSITION_UNCLIPPED_IBM) is False
    c.glEnable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    assert c.glGetIntegerv(E.GL_RASTER_POSITION_UNCLIPPED_IBM) == [1]
    c.glRasterPos2f(-1.5, 0.25)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [True]
    # x_w = x_v + (x_ndc + 1) * w / 2: 0 + (-0.5) * 4 = -2; y_w = (1.25) * 4 = 5
    assert c.glGetFloatv(E.GL_CURRENT_RASTER_POSITION) == [-2.0, 5.0, 0.5, 1.0]
    c.glRasterPos3f(0.0, 3.0, 0.0)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [True]
    # z still clips, and so do the user clip planes
    c.glRasterPos3f(0.0, 0.0, 1.5)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [False]
    c.glClipPlane(E.GL_CLIP_PLANE0, [1.0, 0.0, 0.0, 0.0])      # keeps x >= 0
    c.glEnable(E.GL_CLIP_PLANE0)
    c.glRasterPos2f(-1.5, 0.0)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [False]
    c.glDisable(E.GL_CLIP_PLANE0)
    c.glDisable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    c.glRasterPos2f(0.0, 3.0)
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [False]


def test_pixels_from_an_off_screen_raster_position_are_drawn_where_visible():
    c = make()
    c.glEnable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    c.glRasterPos2f(-1.5, -1.0)                                 # window (-2, 0)
    cols = np.zeros((2, 4, 4), np.uint8)
    cols[..., 0] = [10, 20, 30, 40]
    cols[..., 3] = 255
    clear(c)
    c.glDrawPixels(4, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, cols.tobytes())
    got = image(c)
    assert list(got[0, :3]) == [30, 40, 0] and list(got[1, :3]) == [30, 40, 0] and got[2:].sum() == 0


def test_the_enable_is_a_transform_attribute():
    c = make()
    c.glPushAttrib(E.GL_TRANSFORM_BIT)
    c.glEnable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    c.glPopAttrib()
    assert c.glIsEnabled(E.GL_RASTER_POSITION_UNCLIPPED_IBM) is False
    c.glEnable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    c.glPushAttrib(E.GL_ENABLE_BIT)
    c.glDisable(E.GL_RASTER_POSITION_UNCLIPPED_IBM)
    c.glPopAttrib()
    assert c.glIsEnabled(E.GL_RASTER_POSITION_UNCLIPPED_IBM) is True
