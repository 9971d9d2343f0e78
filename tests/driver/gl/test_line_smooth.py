"""GL_LINE_SMOOTH (GL 4.6 section 14.5.1.2): an antialiased line is the rectangle of
its width around the segment; each fragment's coverage (the part of the pixel the
rectangle covers) multiplies its alpha. Values by hand for axis-aligned lines (a
1-px line on a row boundary covers half of each of the two rows) and against a
numpy area integration (16x16 samples per pixel) for a diagonal one. The ends of
the rectangle are not antialiased (pixels whose centre lies past an endpoint get
nothing), so the comparisons stay away from them."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import use_program

W = H = 32


def _compat(smooth: bool, ends, width: float = 1.0, prim=E.GL_LINES, blend: bool = True):
    with driver.Context(api="compat", width=W, height=H) as ctx:
        ctx.glClearColor(0, 0, 0, 1)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glMatrixMode(E.GL_PROJECTION)
        ctx.glOrtho(0, W, 0, H, -1, 1)          # object coordinates = window coordinates
        if blend:
            ctx.glEnable(E.GL_BLEND)
            ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
        if smooth:
            ctx.glEnable(E.GL_LINE_SMOOTH)
        ctx.glLineWidth(width)
        ctx.glColor4f(1, 1, 1, 1)
        ctx.glBegin(prim)
        for x, y in ends:
            ctx.glVertex2f(x, y)
        ctx.glEnd()
        assert ctx.glGetError() == E.GL_NO_ERROR
        img = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        return img.reshape(H, W, 4)


def _rows(img) -> dict[int, int]:
    """Red of column 16 in every row that has any."""
    return {r: int(img[r, 16, 0]) for r in range(H) if img[r, :, 0].any()}


@pytest.mark.parametrize("y, width, expected", [
    (8.0, 1.0, {7: 128, 8: 128}),                  # on the boundary of rows 7 and 8: half of each
    (8.5, 1.0, {8: 255}),                          # through row 8's centres: all of row 8
    (8.0, 3.0, {6: 128, 7: 255, 8: 255, 9: 128}),  # [6.5, 9.5]: halves of rows 6 and 9
    (8.25, 1.0, {7: 64, 8: 191}),                  # [7.75, 8.75]: a quarter and three quarters
])
def test_horizontal_smooth_lines_cover_by_hand(y, width, expected):
    img = _compat(True, [(2.0, y), (30.0, y)], width)
    got = _rows(img)
    assert got.keys() == expected.keys(), got
    for r, v in expected.items():
        assert abs(got[r] - v) <= 1, (r, got[r], v)
    assert np.array_equal(img[:, 16, 0], img[:, 10, 0])        # the same all along the line


def test_without_line_smooth_the_line_is_aliased():
    assert _rows(_compat(False, [(2.0, 8.0), (30.0, 8.0)])) == {7: 255}


def test_diagonal_smooth_line_matches_the_covered_area():
    p0, p1 = np.array([4.0, 4.0]), np.array([20.0, 26.0])
    img = _compat(True, [tuple(p0), tuple(p1)])[..., 0] / 255.0
    s = (np.arange(16) + 0.5) / 16
    ys, xs = np.meshgrid(np.arange(H), np.arange(W), indexing="ij")
    sx = xs[..., None, None] + s[None, None, None, :]
    sy = ys[..., None, None] + s[None, None, :, None]
    d = p1 - p0
    length = np.hypot(*d)
    along = ((sx - p0[0]) * d[0] + (sy - p0[1]) * d[1]) / length
    across = ((sx - p0[0]) * -d[1] + (sy - p0[1]) * d[0]) / length
    area = ((np.abs(across) <= 0.5) & (along >= 0) & (along <= length)).mean(axis=(-1, -2))
    centre = ((xs + 0.5 - p0[0]) * d[0] + (ys + 0.5 - p0[1]) * d[1]) / length
    inner = (centre > 1.5) & (centre < length - 1.5)
    assert np.abs(img - area)[inner].max() <= 0.06
    assert abs(img[inner].sum() - area[inner].sum()) <= 0.02 * area[inner].sum()
    assert (img > 0).sum() > (area > 0.5).sum()          # the fringe is drawn: more than an aliased line


def test_filled_polygons_keep_their_alpha_with_line_smooth_on():
    img = _compat(True, [(4.0, 4.0), (28.0, 4.0), (16.0, 28.0)], prim=E.GL_TRIANGLES)
    assert img[10, 16, 0] == 255 and img[10, 16, 3] == 255


def test_polygon_mode_line_edges_are_antialiased():
    with driver.Context(api="compat", width=W, height=H) as ctx:
        ctx.glOrtho(0, W, 0, H, -1, 1)
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
        ctx.glEnable(E.GL_LINE_SMOOTH)
        ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
        ctx.glColor4f(1, 1, 1, 1)
        ctx.glRectf(4.0, 8.0, 28.0, 20.0)       # bottom edge on the boundary of rows 7 and 8
        img = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    assert abs(int(img[7, 16, 0]) - 128) <= 1 and abs(int(img[8, 16, 0]) - 128) <= 1
    assert img[14, 16, 0] == 0                   # the inside is not filled


def test_core_profile_program_lines_are_antialiased():
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        use_program(ctx, "#version 330 core\nlayout(location = 0) in vec2 p;\n"
                         "void main() { gl_Position = vec4(p / 16.0 - 1.0, 0.0, 1.0); }",
                    "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0, 0.5, 0.25, 1.0); }")
        data = np.array([2.0, 8.0, 30.0, 8.0], np.float32)
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        ctx.glBindBuffer(E.GL_ARRAY_BUFFER, ctx.glGenBuffers(1)[0])
        ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 8, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glClearColor(0, 0, 0, 0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_BLEND)
        ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
        ctx.glEnable(E.GL_LINE_SMOOTH)
        ctx.glDrawArrays(E.GL_LINES, 0, 2)
        assert ctx.glGetError() == E.GL_NO_ERROR
        img = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(H, W, 4)
    for row in (7, 8):                            # half coverage: colour * 0.5, alpha 0.5 * 0.5
        assert np.abs(img[row, 16].astype(int) - [128, 64, 32, 64]).max() <= 1, img[row, 16]
    assert not img[6].any() and not img[9].any()
