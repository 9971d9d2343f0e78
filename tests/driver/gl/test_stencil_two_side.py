"""GL_EXT_stencil_two_side: the active stencil face, its queries, the enable, and the
stencil values front- and back-facing polygons, points and lines leave, against
values computed by hand from the extension's section 4.1.5 (and Mesa's reading of
its interaction with GL 2.0's separate stencil: the extension's back set is a set
of its own)."""

import numpy as np
import pytest

from driver.gl import enums as E

W, H = 8, 4


@pytest.fixture
def ctx():
    import driver
    c = driver.Context(api="compat", width=W, height=H)
    assert c.glGetIntegerv(E.GL_STENCIL_BITS)[0] == 8
    return c


def stencil(c):
    raw = c.glReadPixels(0, 0, W, H, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(H, W)


def halves(c):
    """A counter-clockwise (front-facing) quad over the left half and a clockwise
    (back-facing) one over the right half."""
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (0, -1), (0, 1), (-1, 1)):          # CCW
        c.glVertex2f(x, y)
    for x, y in ((0, -1), (0, 1), (1, 1), (1, -1)):            # CW
        c.glVertex2f(x, y)
    c.glEnd()
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def replace_with(c, ref, write_mask=0xFF):
    c.glStencilFunc(E.GL_ALWAYS, ref, 0xFF)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
    c.glStencilMask(write_mask)


def draw(c):
    halves(c)
    return stencil(c)


def clear(c, value):
    saved = c.glGetIntegerv(E.GL_STENCIL_WRITEMASK)[0]
    face = c.glGetIntegerv(E.GL_ACTIVE_STENCIL_FACE_EXT)[0]
    c.glActiveStencilFaceEXT(E.GL_FRONT)
    c.glStencilMask(0xFF)
    c.glClearStencil(value)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    c.glStencilMask(saved)
    c.glActiveStencilFaceEXT(face)


def test_listed_in_compatibility_only():
    import driver
    compat = driver.Context(api="compat", width=4, height=4)
    assert "GL_EXT_stencil_two_side" in compat.glGetString(E.GL_EXTENSIONS).split()
    core = driver.Context(api="gl46", width=4, height=4)
    names = [core.glGetStringi(E.GL_EXTENSIONS, i) for i in range(core.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
    assert "GL_EXT_stencil_two_side" not in names
    core.glActiveStencilFaceEXT(E.GL_BACK)
    assert core.glGetError() == E.GL_INVALID_OPERATION
    core.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    assert core.glGetError() == E.GL_INVALID_ENUM


def test_active_face_selects_what_the_stencil_commands_set_and_query(ctx):
    c = ctx
    assert c.glGetIntegerv(E.GL_ACTIVE_STENCIL_FACE_EXT) == [E.GL_FRONT]
    assert c.glIsEnabled(E.GL_STENCIL_TEST_TWO_SIDE_EXT) is False
    assert c.glGetBooleanv(E.GL_STENCIL_TEST_TWO_SIDE_EXT) == [False]
    c.glActiveStencilFaceEXT(E.GL_FRONT_AND_BACK)            # issue: FRONT_AND_BACK is not accepted
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert c.glGetIntegerv(E.GL_ACTIVE_STENCIL_FACE_EXT) == [E.GL_FRONT]

    c.glActiveStencilFaceEXT(E.GL_BACK)
    c.glStencilFunc(E.GL_LESS, 5, 0x0F)
    c.glStencilOp(E.GL_ZERO, E.GL_INVERT, E.GL_INCR_WRAP)
    c.glStencilMask(0x3C)
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glGetIntegerv(E.GL_ACTIVE_STENCIL_FACE_EXT) == [E.GL_BACK]
    # the front-face queries answer the active face ...
    assert [c.glGetIntegerv(p)[0] for p in (E.GL_STENCIL_FUNC, E.GL_STENCIL_REF, E.GL_STENCIL_VALUE_MASK,
                                            E.GL_STENCIL_FAIL, E.GL_STENCIL_PASS_DEPTH_FAIL,
                                            E.GL_STENCIL_PASS_DEPTH_PASS, E.GL_STENCIL_WRITEMASK)] == \
        [E.GL_LESS, 5, 0x0F, E.GL_ZERO, E.GL_INVERT, E.GL_INCR_WRAP, 0x3C]
    # ... while GL 2.0's back face is a set of its own, untouched
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_FUNC) == [E.GL_ALWAYS]
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_WRITEMASK) == c.glGetIntegerv(E.GL_STENCIL_BACK_VALUE_MASK)
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_WRITEMASK)[0] & 0xFF == 0xFF

    c.glActiveStencilFaceEXT(E.GL_FRONT)
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_ALWAYS]
    assert c.glGetIntegerv(E.GL_STENCIL_REF) == [0]
    # with FRONT active the commands set the front face and GL 2.0's back face
    c.glStencilFunc(E.GL_GEQUAL, 7, 0xF0)
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_GEQUAL]
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_FUNC) == [E.GL_GEQUAL]
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_REF) == [7]
    c.glActiveStencilFaceEXT(E.GL_BACK)
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_LESS]     # the extension's back set kept its values


def test_the_enable_and_active_face_are_stencil_buffer_attributes(ctx):
    c = ctx
    c.glPushAttrib(E.GL_STENCIL_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glActiveStencilFaceEXT(E.GL_BACK)
    c.glStencilFunc(E.GL_NEVER, 3, 0x1)
    assert c.glIsEnabled(E.GL_STENCIL_TEST_TWO_SIDE_EXT) is True
    c.glPopAttrib()
    assert c.glIsEnabled(E.GL_STENCIL_TEST_TWO_SIDE_EXT) is False
    assert c.glGetIntegerv(E.GL_ACTIVE_STENCIL_FACE_EXT) == [E.GL_FRONT]
    c.glActiveStencilFaceEXT(E.GL_BACK)
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_ALWAYS]
    c.glPushAttrib(E.GL_ENABLE_BIT)
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glPopAttrib()
    assert c.glIsEnabled(E.GL_STENCIL_TEST_TWO_SIDE_EXT) is False


def test_back_facing_polygons_use_the_back_set_only_while_enabled(ctx):
    c = ctx
    c.glEnable(E.GL_STENCIL_TEST)
    c.glActiveStencilFaceEXT(E.GL_BACK)
    replace_with(c, 2)
    c.glActiveStencilFaceEXT(E.GL_FRONT)
    replace_with(c, 1)
    # disabled: front-facing and back-facing polygons both use the front values
    # (GL 2.0's back face was set with them)
    clear(c, 0)
    s = draw(c)
    assert (s == 1).all(), s
    # enabled: back-facing polygons take the extension's back set
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    clear(c, 0)
    s = draw(c)
    assert (s[:, :W // 2] == 1).all() and (s[:, W // 2:] == 2).all(), s
    # GL 2.0's separate back face is what back-facing polygons use when disabled
    c.glStencilFuncSeparate(E.GL_BACK, E.GL_ALWAYS, 3, 0xFF)
    clear(c, 0)
    s = draw(c)
    assert (s[:, W // 2:] == 2).all(), s                    # still enabled: the extension's set
    c.glDisable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    clear(c, 0)
    s = draw(c)
    assert (s[:, :W // 2] == 1).all() and (s[:, W // 2:] == 3).all(), s
    # the enable does nothing without the stencil test
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glDisable(E.GL_STENCIL_TEST)
    clear(c, 9)
    assert (draw(c) == 9).all()


def test_shadow_volume_counting_in_one_pass(ctx):
    """The extension's first example: front faces increment, back faces decrement
    with wrapping, in one pass with culling off."""
    c = ctx
    c.glEnable(E.GL_STENCIL_TEST)
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glColorMask(0, 0, 0, 0)
    c.glActiveStencilFaceEXT(E.GL_BACK)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_DECR_WRAP)
    c.glStencilMask(0xFF)
    c.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    c.glActiveStencilFaceEXT(E.GL_FRONT)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_INCR_WRAP)
    c.glStencilMask(0xFF)
    c.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    clear(c, 0)
    halves(c)
    halves(c)
    s = stencil(c)
    assert (s[:, :W // 2] == 2).all() and (s[:, W // 2:] == 254).all(), s


def test_write_masks_and_reference_per_face(ctx):
    """The extension's second example: front faces write bits 0-1, back faces bits
    2-3, each with its own reference; glClear uses the front write mask."""
    c = ctx
    c.glEnable(E.GL_STENCIL_TEST)
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glActiveStencilFaceEXT(E.GL_BACK)
    c.glStencilOp(E.GL_KEEP, E.GL_ZERO, E.GL_REPLACE)
    c.glStencilMask(0xC)
    c.glStencilFunc(E.GL_ALWAYS, 0x4, 0xFF)
    c.glActiveStencilFaceEXT(E.GL_FRONT)
    c.glStencilOp(E.GL_KEEP, E.GL_ZERO, E.GL_REPLACE)
    c.glStencilMask(0x3)
    c.glStencilFunc(E.GL_ALWAYS, 0x1, 0xFF)
    c.glStencilMask(0xFF)
    c.glClearStencil(0xA)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    c.glStencilMask(0x3)
    halves(c)
    s = stencil(c)
    # front: (0xA & ~0x3) | (0x1 & 0x3) = 0x9; back: (0xA & ~0xC) | (0x4 & 0xC) = 0x6
    assert (s[:, :W // 2] == 0x9).all() and (s[:, W // 2:] == 0x6).all(), s
    # glClear through the front write mask (0x3), the back one (0xC) ignored
    c.glClearStencil(0xF0)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    s = stencil(c)
    assert (s[:, :W // 2] == 0x8).all() and (s[:, W // 2:] == 0x4).all(), s


def test_points_lines_and_polygon_modes(ctx):
    """Points and lines take the front set; a back-facing polygon drawn as lines
    keeps its polygon's facing (the extension's issue on glPolygonMode)."""
    c = ctx
    c.glEnable(E.GL_STENCIL_TEST)
    c.glEnable(E.GL_STENCIL_TEST_TWO_SIDE_EXT)
    c.glActiveStencilFaceEXT(E.GL_BACK)
    replace_with(c, 2)
    c.glActiveStencilFaceEXT(E.GL_FRONT)
    replace_with(c, 1)
    clear(c, 0)
    c.glBegin(E.GL_POINTS)
    c.glVertex2f(-1 + 1 / W, -1 + 1 / H)                       # pixel (0, 0)
    c.glEnd()
    c.glBegin(E.GL_LINES)
    c.glVertex2f(-1, 1 - 1 / H)                               # the top row
    c.glVertex2f(1, 1 - 1 / H)
    c.glEnd()
    s = stencil(c)
    assert s[0, 0] == 1 and (s[H - 1] == 1).all() and s[1:H - 1].sum() == 0, s
    clear(c, 0)
    c.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_POINT)
    c.glBegin(E.GL_TRIANGLES)                                  # clockwise: back-facing
    for x, y in ((-1 + 1 / W, -1 + 1 / H), (-1 + 1 / W, 1 - 1 / H), (1 - 1 / W, -1 + 1 / H)):
        c.glVertex2f(x, y)
    c.glEnd()
    s = stencil(c)
    assert s[0, 0] == 2 and s[H - 1, 0] == 2 and s[0, W - 1] == 2, s
    assert np.count_nonzero(s) == 3, s
