"""The primitive rules of primitives.py for every kind of draw (glBegin/glEnd,
glDrawArrays, glDrawElements, display lists), against expectations worked
out here from GL 2.1 table 2.12 and sections 3.5.2 / 3.5.4; the
`array_primitives` program is also compared with llvmpipe in test_render."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.legacy.primitives import flat_triangles, polygons
from tests.driver.gl.legacy import features

W = H = 48


def px(x, y, w=W, h=H):
    """Pixel (column, row) of NDC point (x, y)."""
    return int((x + 1) / 2 * w), int((y + 1) / 2 * h)


def colour(img, x, y):
    c, r = px(x, y)
    return tuple(img[r, c, :3])


def to_u8(rgb):
    return tuple(int(round(v * 255)) for v in rgb)


@pytest.fixture(scope="module")
def array_image():
    ctx = driver.Context(api="compat", width=W, height=H)
    features.array_primitives(ctx, W, H, edge_flags=True)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return ctx.read_pixels().astype(int)


def test_flat_quads_from_arrays_take_the_fourth_vertex_colour(array_image):
    cols = features.ARRAY_COLOURS
    assert colour(array_image, -0.75, -0.75) == to_u8(cols[3])      # quad 0: vertex 4
    assert colour(array_image, -0.25, -0.75) == to_u8(cols[7])      # quad 1: vertex 8
    # every covered pixel of a quad is that one colour (no split along the diagonal)
    c0, r0 = px(-0.93, -0.93)
    c1, r1 = px(-0.57, -0.57)
    block = array_image[r0:r1, c0:c1, :3].reshape(-1, 3)
    assert (block == to_u8(cols[3])).all()


def test_flat_quad_strip_from_elements_takes_vertex_2i_plus_4(array_image):
    cols = features.ARRAY_COLOURS
    assert colour(array_image, 0.25, -0.75) == to_u8(cols[3])
    assert colour(array_image, 0.75, -0.75) == to_u8(cols[5])


def test_flat_polygon_from_arrays_takes_the_first_vertex(array_image):
    assert colour(array_image, -0.7, -0.2) == to_u8(features.ARRAY_COLOURS[0])
    assert colour(array_image, -0.55, -0.15) == to_u8(features.ARRAY_COLOURS[0])


def test_polygon_mode_line_from_arrays_outlines_culls_and_honours_edge_flags(array_image):
    img = array_image
    white = (img[..., :3] == 255).all(-1)
    # the front quad (0.12..0.82, -0.4..0.02): left, top and bottom edges drawn
    c_left, _ = px(0.12, 0.0)
    _, r_mid = px(0.0, -0.2)
    assert white[r_mid - 2:r_mid + 3, c_left - 1:c_left + 2].any()
    c_mid, _ = px(0.47, 0.0)
    for y in (0.02, -0.40):
        _, r = px(0.0, y)
        assert white[r - 1:r + 2, c_mid].any()
    # the right edge (starting at vertex 2, edge flag 0) is hidden; no diagonal inside
    c_right, _ = px(0.82, 0.0)
    assert not white[r_mid - 3:r_mid + 4, c_right - 1:c_right + 2].any()
    c0, r0 = px(0.25, -0.3)
    c1, r1 = px(0.7, -0.08)
    assert not white[r0:r1, c0:c1].any()
    # the back-facing quad is culled
    c0, r0 = px(0.08, 0.1)
    c1, r1 = px(0.86, 0.86)
    assert not white[r0:r1, c0:c1].any()


def test_stippled_strip_from_a_display_list_has_gaps(array_image):
    cyan = (array_image[..., 0] == 0) & (array_image[..., 1] == 255) & (array_image[..., 2] == 255)
    c0, r0 = px(-0.95, 0.15)
    c1, r1 = px(-0.1, 0.95)
    region = cyan[r0:r1, c0:c1]
    # pattern 0x0F3F, factor 2: 20 of 32 fragments drawn
    first_seg = cyan[px(0, 0.25)[1] - 3:px(0, 0.25)[1] + 4, px(-0.93, 0)[0]:px(-0.13, 0)[0]].any(0)
    assert 0.45 < first_seg.mean() < 0.8
    assert region.sum() > 20


def draw_quads(ctx, how):
    """Two quads with per-vertex colours through `how`: begin (immediate),
    arrays, elements, list (a display list of glDrawArrays)."""
    v = np.array([[-0.9, -0.9], [-0.1, -0.9], [-0.1, 0.9], [-0.9, 0.9],
                  [0.1, -0.9], [0.9, -0.9], [0.9, 0.9], [0.1, 0.9]], np.float32)
    c = np.array(features.ARRAY_COLOURS, np.float32)
    if how == "begin":
        ctx.glBegin(E.GL_QUADS)
        for p, q in zip(v, c):
            ctx.glColor3f(*q)
            ctx.glVertex2f(*p)
        ctx.glEnd()
        return
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glEnableClientState(E.GL_COLOR_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
    ctx.glColorPointer(3, E.GL_FLOAT, 0, c)
    if how == "arrays":
        ctx.glDrawArrays(E.GL_QUADS, 0, 8)
    elif how == "elements":
        ctx.glDrawElements(E.GL_QUADS, 8, E.GL_UNSIGNED_BYTE, np.arange(8, dtype=np.uint8))
    elif how == "vbo":
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
        data = np.concatenate([v.ravel(), c.ravel()])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, 0)
        ctx.glColorPointer(3, E.GL_FLOAT, 0, v.nbytes)
        ebo = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, ebo)
        ctx.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, 16, np.arange(8, dtype=np.uint16), E.GL_STATIC_DRAW)
        ctx.glDrawElements(E.GL_QUADS, 8, E.GL_UNSIGNED_SHORT, 0)
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, 0)
    else:
        lst = ctx.glGenLists(1)
        ctx.glNewList(lst, E.GL_COMPILE)
        ctx.glDrawArrays(E.GL_QUADS, 0, 8)
        ctx.glEndList()
        ctx.glCallList(lst)
    ctx.glDisableClientState(E.GL_COLOR_ARRAY)
    ctx.glDisableClientState(E.GL_VERTEX_ARRAY)


@pytest.mark.parametrize("how", ["begin", "arrays", "elements", "vbo", "list"])
def test_flat_quads_every_draw_kind(how):
    ctx = driver.Context(api="compat", width=W, height=H)
    ctx.glShadeModel(E.GL_FLAT)
    draw_quads(ctx, how)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    left = img[4:44, 4:20, :3].reshape(-1, 3)
    right = img[4:44, 28:44, :3].reshape(-1, 3)
    assert (left == to_u8(features.ARRAY_COLOURS[3])).all()
    assert (right == to_u8(features.ARRAY_COLOURS[7])).all()


@pytest.mark.parametrize("how", ["begin", "arrays", "elements", "vbo", "list"])
def test_polygon_mode_point_every_draw_kind(how):
    """GL_POINT mode: exactly the 8 corner pixels, nothing inside."""
    ctx = driver.Context(api="compat", width=W, height=H)
    ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_POINT)
    draw_quads(ctx, how)
    img = ctx.read_pixels().astype(int)
    lit = (img[..., :3] > 0).any(-1)
    assert lit.sum() == 8
    rows, cols = np.nonzero(lit)
    assert set(cols.tolist()) == {px(x, 0)[0] for x in (-0.9, -0.1, 0.1, 0.9)}


def test_polygon_index_helpers():
    assert polygons(E.GL_QUAD_STRIP, 6).tolist() == [[0, 1, 3, 2], [2, 3, 5, 4]]
    assert polygons(E.GL_TRIANGLE_STRIP, 4).tolist() == [[0, 1, 2], [2, 1, 3]]
    assert polygons(E.GL_TRIANGLE_FAN, 4).tolist() == [[0, 1, 2], [0, 2, 3]]
    tri = flat_triangles(E.GL_QUADS, 8).reshape(-1, 3)
    assert tri[:, 2].tolist() == [3, 3, 7, 7]
    tri = flat_triangles(E.GL_QUAD_STRIP, 6).reshape(-1, 3)
    assert tri[:, 2].tolist() == [3, 3, 5, 5]
    tri = flat_triangles(E.GL_POLYGON, 5).reshape(-1, 3)
    assert tri[:, 2].tolist() == [0, 0, 0]


def test_stipple_of_array_lines_matches_immediate_mode():
    imgs = []
    for how in ("begin", "arrays"):
        ctx = driver.Context(api="compat", width=W, height=H)
        ctx.glEnable(E.GL_LINE_STIPPLE)
        ctx.glLineStipple(1, 0x00FF)
        v = np.array([[-0.9, -0.5], [0.9, -0.4], [0.8, 0.7], [-0.8, 0.6]], np.float32)
        if how == "begin":
            ctx.glBegin(E.GL_LINE_LOOP)
            for p in v:
                ctx.glVertex2f(*p)
            ctx.glEnd()
        else:
            ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
            ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
            ctx.glDrawArrays(E.GL_LINE_LOOP, 0, 4)
        imgs.append(ctx.read_pixels().astype(int))
    assert (imgs[0] == imgs[1]).all()
    row = px(0, -0.45)[1]
    lit = (imgs[0][row - 2:row + 3, :, 0] > 0).any(0)
    assert 0.3 < lit[2:46].mean() < 0.7            # half of each 16-fragment period


def test_front_and_back_polygon_modes_apply_per_face():
    """FRONT FILL / BACK LINE: the counter-clockwise quad filled, the
    clockwise one outlined; glGet returns both modes; glPopAttrib restores."""
    ctx = driver.Context(api="compat", width=W, height=H)
    ctx.glPushAttrib(E.GL_POLYGON_BIT)
    ctx.glPolygonMode(E.GL_BACK, E.GL_LINE)
    assert ctx.glGetIntegerv(E.GL_POLYGON_MODE) == [E.GL_FILL, E.GL_LINE]
    draw_quads(ctx, "begin")                                # both counter-clockwise: filled
    ctx.glFrontFace(E.GL_CW)                                # now both are back faces
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    draw_quads(ctx, "arrays")
    img = ctx.read_pixels().astype(int)
    lit = (img[..., :3] > 0).any(-1)
    assert not lit[10:38, 8:16].any() and not lit[10:38, 30:40].any()      # interiors empty
    assert lit[:, px(-0.9, 0)[0]].sum() > 30                              # left edges drawn
    ctx.glPopAttrib()
    assert ctx.glGetIntegerv(E.GL_POLYGON_MODE) == [E.GL_FILL, E.GL_FILL]
    assert ctx.glGetIntegerv(E.GL_FRONT_FACE) in (E.GL_CCW, [E.GL_CCW])   # POLYGON_BIT holds it too


@pytest.mark.parametrize("how", ["begin", "elements"])
def test_flat_shaded_polygon_mode_point_takes_the_provoking_colour(how):
    ctx = driver.Context(api="compat", width=W, height=H)
    ctx.glShadeModel(E.GL_FLAT)
    ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_POINT)
    draw_quads(ctx, how)
    img = ctx.read_pixels().astype(int)
    lit = (img[..., :3] > 0).any(-1)
    rows, cols = np.nonzero(lit)
    colours = {tuple(img[r, c, :3]) for r, c in zip(rows, cols) if c < W // 2}
    assert colours == {to_u8(features.ARRAY_COLOURS[3])}
    colours = {tuple(img[r, c, :3]) for r, c in zip(rows, cols) if c > W // 2}
    assert colours == {to_u8(features.ARRAY_COLOURS[7])}


def test_primitive_restart_splits_flat_quad_strips_and_feedback_polygons():
    """Two quad strips in one glDrawElements, cut by the restart index: each
    strip quad flat in its own provoking colour, no quad across the cut."""
    ctx = driver.Context(api="compat", width=W, height=H)
    ctx.glEnable(E.GL_PRIMITIVE_RESTART)
    ctx.glPrimitiveRestartIndex(255)
    ctx.glShadeModel(E.GL_FLAT)
    v = np.array([[-0.9, -0.9], [-0.9, 0.9], [-0.1, -0.9], [-0.1, 0.9],
                  [0.1, -0.9], [0.1, 0.9], [0.9, -0.9], [0.9, 0.9]], np.float32)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glEnableClientState(E.GL_COLOR_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, v)
    ctx.glColorPointer(3, E.GL_FLOAT, 0, np.array(features.ARRAY_COLOURS, np.float32))
    idx = np.array([0, 1, 2, 3, 255, 4, 5, 6, 7], np.uint8)
    ctx.glDrawElements(E.GL_QUAD_STRIP, 9, E.GL_UNSIGNED_BYTE, idx)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    assert (img[6:42, 6:18, :3] == to_u8(features.ARRAY_COLOURS[3])).all()
    assert (img[6:42, 30:42, :3] == to_u8(features.ARRAY_COLOURS[7])).all()
    assert (img[6:42, 23:25, :3] == 0).all()                                 # nothing across the cut
    buf = np.zeros(64, np.float32)
    ctx.glFeedbackBuffer(64, E.GL_2D, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    ctx.glDrawElements(E.GL_QUAD_STRIP, 9, E.GL_UNSIGNED_BYTE, idx)
    assert ctx.glRenderMode(E.GL_RENDER) == 2 * (2 + 4 * 2)
    assert buf[[0, 1, 10, 11]].tolist() == [E.GL_POLYGON_TOKEN, 4, E.GL_POLYGON_TOKEN, 4]
