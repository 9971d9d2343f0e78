"""Selection and feedback (GL 2.1 sections 5.2-5.3): hit records and
feedback tokens against values worked out here, against Mesa's llvmpipe
running the same programs (features.RECORD_PROGRAMS) through PyOpenGL, and
through shimgl's C ABI."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.legacy import features
from tests.driver.gl.legacy.test_render import REF, ROOT

N = 32
U32 = 0xFFFFFFFF


def context():
    ctx = driver.Context(api="compat", width=N, height=N)
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(-1.0, 1.0, -1.0, 1.0, -10.0, 10.0)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    return ctx


def window_z(z_obj):
    """Window z of an object z under glOrtho(..., -10, 10) and depth range [0, 1]."""
    return (-z_obj / 10.0 + 1.0) / 2.0


def hits_of(buf, n):
    out, i = [], 0
    for _ in range(n):
        k = int(buf[i])
        out.append((int(buf[i + 1]), int(buf[i + 2]), [int(v) for v in buf[i + 3:i + 3 + k]]))
        i += 3 + k
    return out


def program_records(name):
    ctx = driver.Context(api="compat", width=N, height=N)
    out = features.RECORD_PROGRAMS[name](ctx, N, N)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return out


# -- selection ----------------------------------------------------------------------------------------
def test_select_hits_names_and_depth_ranges():
    out = program_records("select_hits")
    hits = hits_of(out[1:], out[0])
    z = lambda v: int(round(window_z(v) * U32))          # noqa: E731
    want = [(z(3.0), z(1.0), [1]),                        # the triangle: z 1..3
            (z(6.0), z(-4.0), [2]),                       # the clipped quad keeps its whole z range
            (z(5.0), z(-5.0), [3, 4]),                    # points: the one outside x = 3 is dropped
            (z(8.0), z(2.0), [6]),                        # the line strip, clipped at x = -1 (z = 2)
            (z(-2.0), z(-2.0), [7])]                      # the raster position
    assert [names for *_, names in hits] == [names for *_, names in want]
    # the depths of the matrices' single-precision products: within 2^-22 of the range
    for (lo, hi, _), (wlo, whi, _) in zip(hits, want):
        assert abs(lo - wlo) <= U32 >> 22 and abs(hi - whi) <= U32 >> 22, (hits, want)


def test_select_draws_nothing_and_returns_minus_one_on_overflow():
    ctx = context()
    buf = np.zeros(6, np.uint32)
    ctx.glSelectBuffer(6, buf)
    assert ctx.glRenderMode(E.GL_SELECT) == 0
    ctx.glInitNames()
    for name in (10, 11):
        ctx.glPushName(name)
        ctx.glRectf(-1.0, -1.0, 1.0, 1.0)
    assert ctx.glRenderMode(E.GL_RENDER) == -1           # 4 + 5 values do not fit in 6
    assert buf[:4].tolist() == [1, z := int(round(0.5 * U32)), z, 10]
    assert (ctx.read_pixels()[..., :3] == 0).all()
    assert ctx.glGetIntegerv(E.GL_RENDER_MODE) in (E.GL_RENDER, [E.GL_RENDER])


def test_select_culls_and_clips_against_user_planes():
    ctx = context()
    buf = np.zeros(32, np.uint32)
    ctx.glSelectBuffer(32, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glInitNames()
    ctx.glPushName(1)
    ctx.glEnable(E.GL_CULL_FACE)
    ctx.glBegin(E.GL_TRIANGLES)                          # clockwise: culled
    for x, y in ((0.0, 0.5), (0.5, -0.5), (-0.5, -0.5)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    ctx.glDisable(E.GL_CULL_FACE)
    ctx.glLoadName(2)
    ctx.glClipPlane(E.GL_CLIP_PLANE0, (-1.0, 0.0, 0.0, -0.5))   # keeps x <= -0.5
    ctx.glEnable(E.GL_CLIP_PLANE0)
    ctx.glBegin(E.GL_LINES)
    ctx.glVertex3f(0.0, 0.0, 0.0)
    ctx.glVertex3f(1.0, 0.0, 5.0)                        # entirely at x > -0.5: no hit
    ctx.glVertex3f(-1.0, 0.0, 0.0)
    ctx.glVertex3f(1.0, 0.0, 8.0)                        # clipped at x = -0.5: z 0..2
    ctx.glEnd()
    ctx.glDisable(E.GL_CLIP_PLANE0)
    n = ctx.glRenderMode(E.GL_RENDER)
    assert n == 1
    lo, hi, names = hits_of(buf, 1)[0]
    assert names == [2]
    assert abs(lo - window_z(2.0) * U32) < 2 ** 10 and abs(hi - window_z(0.0) * U32) < 2 ** 10


def test_name_stack_errors_change_nothing():
    ctx = context()
    buf = np.zeros(16, np.uint32)
    ctx.glSelectBuffer(16, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glLoadName(3)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glPopName()
    assert ctx.glGetError() == E.GL_STACK_UNDERFLOW
    for i in range(64):
        ctx.glPushName(i)
    ctx.glPushName(99)
    assert ctx.glGetError() == E.GL_STACK_OVERFLOW
    assert ctx.glGetIntegerv(E.GL_NAME_STACK_DEPTH) in (64, [64])
    ctx.glSelectBuffer(8, buf)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION    # not while selecting
    ctx.glBegin(E.GL_POINTS)
    ctx.glRenderMode(E.GL_RENDER)
    ctx.glEnd()                     # (glGetError between Begin and End would itself be an error)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glRenderMode(E.GL_RENDER) == 0


def test_names_compiled_into_a_display_list():
    ctx = context()
    lst = ctx.glGenLists(1)
    ctx.glNewList(lst, E.GL_COMPILE)
    ctx.glPushName(5)
    ctx.glRectf(-0.5, -0.5, 0.5, 0.5)
    ctx.glPopName()
    ctx.glEndList()
    buf = np.zeros(16, np.uint32)
    ctx.glSelectBuffer(16, buf)
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glInitNames()
    ctx.glCallList(lst)
    assert ctx.glRenderMode(E.GL_RENDER) == 1
    assert hits_of(buf, 1)[0][2] == [5]


# -- feedback -----------------------------------------------------------------------------------------
def feedback(ctx, kind, draw, size=256):
    buf = np.zeros(size, np.float32)
    ctx.glFeedbackBuffer(size, kind, buf)
    ctx.glRenderMode(E.GL_FEEDBACK)
    draw(ctx)
    n = ctx.glRenderMode(E.GL_RENDER)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return n, buf


def test_feedback_tokens_of_every_primitive_kind():
    out = program_records("feedback_2d")
    want = [E.GL_POINT_TOKEN, 20, 8,
            E.GL_LINE_RESET_TOKEN, 8, 8, 24, 8, E.GL_LINE_TOKEN, 24, 8, 24, 24,
            E.GL_PASS_THROUGH_TOKEN, 42,
            E.GL_POLYGON_TOKEN, 3, 8, 16, 24, 16, 16, 24,
            E.GL_POLYGON_TOKEN, 4, 24, 12, 32, 12, 32, 20, 24, 20,         # the quad clipped at x = 1
            E.GL_DRAW_PIXEL_TOKEN, 4, 28]
    assert out[0] == len(want)
    assert np.allclose(out[1:], want)


def test_feedback_3d_color_texture_carries_colours_and_coordinates():
    out = program_records("feedback_tokens")
    v = np.asarray(out[1:])
    assert v[0] == E.GL_POINT_TOKEN
    assert np.allclose(v[1:12], [20, 8, window_z(1.0), 1.0, 0.5, 0.25, 1.0, 0.1, 0.2, 0.3, 1.0])
    tri = v[list(v).index(E.GL_POLYGON_TOKEN):][2:2 + 33].reshape(3, 11)
    assert np.allclose(tri[:, 3:7], [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 1]])
    assert np.allclose(tri[:, 7:9], [[-0.5, 0.0], [0.5, 0.0], [0.0, 0.5]])


def test_feedback_4d_gives_clip_w():
    out = program_records("feedback_4d")
    v = np.asarray(out[1:]).reshape(-1)
    assert v[0] == E.GL_POLYGON_TOKEN and v[1] == 3
    verts = v[2:].reshape(3, 12)
    assert np.allclose(verts[:, 3], [2.0, 3.0, 4.0])
    # glFrustum(-1, 1, -1, 1, 1, 10): x_w = (x / -z + 1) * 16
    assert np.allclose(verts[:, 0], [(-0.5 / 2 + 1) * 16, (0.5 / 3 + 1) * 16, 16.0], atol=1e-4)


def test_feedback_of_lit_and_flat_shaded_colours():
    def draw(ctx):
        ctx.glEnable(E.GL_LIGHTING)
        ctx.glEnable(E.GL_LIGHT0)
        ctx.glLightModelfv(E.GL_LIGHT_MODEL_AMBIENT, (0.0, 0.0, 0.0, 1.0))
        ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (0.5, 0.25, 1.0, 1.0))
        ctx.glBegin(E.GL_TRIANGLES)
        for nz, (x, y) in zip((1.0, 0.6, 0.0), ((-0.5, 0.0), (0.5, 0.0), (0.0, 0.5))):
            ctx.glNormal3f(0.0, (1 - nz * nz) ** 0.5, nz)
            ctx.glVertex2f(x, y)
        ctx.glEnd()
        ctx.glDisable(E.GL_LIGHTING)
        ctx.glShadeModel(E.GL_FLAT)
        ctx.glBegin(E.GL_QUADS)
        for c, (x, y) in zip(((1, 0, 0), (0, 1, 0), (0, 0, 1), (1, 1, 0)),
                             ((-0.5, -0.5), (0.0, -0.5), (0.0, 0.0), (-0.5, 0.0))):
            ctx.glColor3f(*c)
            ctx.glVertex2f(x, y)
        ctx.glEnd()

    ctx = context()
    n, buf = feedback(ctx, E.GL_3D_COLOR, draw)
    v = buf[:n]
    tri = v[2:2 + 21].reshape(3, 7)
    nl = np.array([1.0, 0.6, 0.0])                     # light 0 along +z, diffuse 1
    assert np.allclose(tri[:, 3:6], nl[:, None] * [0.5, 0.25, 1.0], atol=1e-6)
    quad = v[23:].reshape(-1)
    assert quad[0] == E.GL_POLYGON_TOKEN and quad[1] == 4
    assert np.allclose(quad[2:].reshape(4, 7)[:, 3:6], [1, 1, 0])   # the 4th vertex's colour


def test_feedback_polygon_mode_line_honours_edge_flags():
    def draw(ctx):
        ctx.glPolygonMode(E.GL_FRONT_AND_BACK, E.GL_LINE)
        ctx.glBegin(E.GL_TRIANGLES)
        ctx.glVertex2f(-0.5, -0.5)
        ctx.glEdgeFlag(False)
        ctx.glVertex2f(0.5, -0.5)
        ctx.glEdgeFlag(True)
        ctx.glVertex2f(0.0, 0.5)
        ctx.glEnd()

    n, buf = feedback(context(), E.GL_2D, draw)
    v = buf[:n]
    assert v.tolist() == [E.GL_LINE_RESET_TOKEN, 8, 8, 24, 8, E.GL_LINE_RESET_TOKEN, 16, 24, 8, 8]


def test_feedback_bitmap_and_copy_tokens_and_raster_motion():
    def draw(ctx):
        ctx.glWindowPos2i(3, 4)
        ctx.glBitmap(0, 0, 0.0, 0.0, 5.0, 6.0, None)
        ctx.glCopyPixels(0, 0, 2, 2, E.GL_COLOR)
        ctx.glPassThrough(7.0)

    n, buf = feedback(context(), E.GL_3D, draw)
    assert buf[:n].tolist() == [E.GL_BITMAP_TOKEN, 3, 4, 0, E.GL_COPY_PIXEL_TOKEN, 8, 10, 0,
                                E.GL_PASS_THROUGH_TOKEN, 7]


def test_feedback_overflow_returns_minus_one_and_fills_the_buffer():
    def draw(ctx):
        ctx.glBegin(E.GL_POINTS)
        for i in range(5):
            ctx.glVertex2f(-0.5 + 0.25 * i, 0.0)
        ctx.glEnd()

    ctx = context()
    n, buf = feedback(ctx, E.GL_2D, draw, size=7)
    assert n == -1
    assert buf[:7].tolist() == [E.GL_POINT_TOKEN, 8, 16, E.GL_POINT_TOKEN, 12, 16, E.GL_POINT_TOKEN]
    assert (ctx.read_pixels()[..., :3] == 0).all()


def test_feedback_from_arrays_and_elements_matches_immediate_mode():
    pts = np.array([[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]], np.float32)

    def immediate(ctx):
        ctx.glBegin(E.GL_TRIANGLE_FAN)
        for p in pts:
            ctx.glVertex2f(*p)
        ctx.glEnd()

    def elements(ctx):
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glVertexPointer(2, E.GL_FLOAT, 0, pts)
        ctx.glDrawElements(E.GL_TRIANGLE_FAN, 4, E.GL_UNSIGNED_SHORT, np.arange(4, dtype=np.uint16))

    a = feedback(context(), E.GL_3D, immediate)
    b = feedback(context(), E.GL_3D, elements)
    assert a[0] == b[0] == 2 * (2 + 3 * 3)
    assert (a[1] == b[1]).all()


# -- against llvmpipe and through the C ABI -------------------------------------------------------------
def run_records(name, vendor="mesa", env=None):
    res = subprocess.run([sys.executable, str(REF), name, str(N), str(N), vendor], capture_output=True, env=env,
                         cwd=str(ROOT), timeout=600)
    assert res.returncode == 0, res.stderr.decode()[-2000:]
    return json.loads(res.stdout)


def primitives(values, per_vertex):
    """Feedback values -> (points/lines/pixel tokens as tuples, polygons as vertex arrays)."""
    others, polys, i = [], [], 0
    v = np.asarray(values, np.float64)
    while i < len(v):
        t = int(v[i])
        if t == E.GL_POLYGON_TOKEN:
            k = int(v[i + 1])
            polys.append(v[i + 2:i + 2 + k * per_vertex].reshape(k, per_vertex))
            i += 2 + k * per_vertex
            continue
        n = {E.GL_PASS_THROUGH_TOKEN: 1, E.GL_LINE_TOKEN: 2 * per_vertex,
             E.GL_LINE_RESET_TOKEN: 2 * per_vertex}.get(t, per_vertex)
        # llvmpipe never writes LINE_RESET_TOKEN (GL 2.1 table 5.3 asks for it when the stipple restarts)
        t = E.GL_LINE_TOKEN if t == E.GL_LINE_RESET_TOKEN else t
        others.append((t, *np.round(v[i + 1:i + 1 + n], 4)))
        i += 1 + n
    return others, polys


def area(poly):
    x, y = poly[:, 0], poly[:, 1]
    return 0.5 * abs(np.sum(x * np.roll(y, -1) - np.roll(x, -1) * y))


@pytest.mark.mesa
def test_select_matches_llvmpipe():
    ours, ref = program_records("select_hits"), run_records("select_hits")
    assert ours[0] == ref[0]
    for a, b in zip(hits_of(ours[1:], ours[0]), hits_of(ref[1:], ref[0])):
        assert a[2] == b[2]
        assert abs(a[0] - b[0]) < 2 ** 10 and abs(a[1] - b[1]) < 2 ** 10      # llvmpipe scales a float z


@pytest.mark.mesa
@pytest.mark.parametrize("name, per_vertex", [("feedback_2d", 2), ("feedback_tokens", 11), ("feedback_4d", 12)])
def test_feedback_matches_llvmpipe(name, per_vertex):
    """Points, lines, pass-through and pixel tokens value for value; polygons by
    their total area and vertices (llvmpipe returns a clipped quad as several
    triangles, with the points where the diagonal meets the plane as extra
    vertices; GL 2.1 section 5.3 as one polygon)."""
    ours, ref = program_records(name), run_records(name)
    (o_other, o_polys), (r_other, r_polys) = primitives(ours[1:], per_vertex), primitives(ref[1:], per_vertex)
    assert o_other == r_other
    assert abs(sum(map(area, o_polys)) - sum(map(area, r_polys))) < 1e-3
    key = lambda p: {tuple(np.round(v, 4)) for v in p}                         # noqa: E731
    assert set().union(*map(key, o_polys)) <= set().union(*map(key, r_polys))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["select_hits", "feedback_tokens"])
def test_records_through_the_abi(name):
    from driver.abi import paths
    from tests.driver.abi.conftest import clean_env
    if paths.library_dir() is None:
        pytest.skip(f"the C ABI is not built: {paths.missing_reason()}")
    assert run_records(name, "shimgl", clean_env(**paths.environment({}))) == program_records(name)


def test_feedback_two_sided_lighting_gives_back_faces_the_back_colour():
    def draw(ctx):
        ctx.glEnable(E.GL_LIGHTING)
        ctx.glEnable(E.GL_LIGHT0)
        ctx.glLightfv(E.GL_LIGHT0, E.GL_POSITION, (0.0, 0.0, -1.0, 0.0))     # lights the back
        ctx.glLightModeli(E.GL_LIGHT_MODEL_TWO_SIDE, 1)
        ctx.glLightModelfv(E.GL_LIGHT_MODEL_AMBIENT, (0.0, 0.0, 0.0, 1.0))
        ctx.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, (1.0, 0.0, 0.0, 1.0))
        ctx.glMaterialfv(E.GL_BACK, E.GL_DIFFUSE, (0.0, 0.5, 1.0, 1.0))
        ctx.glNormal3f(0.0, 0.0, 1.0)
        for xs in ((-0.5, 0.5), (0.5, -0.5)):                               # front, then back facing
            ctx.glBegin(E.GL_TRIANGLES)
            ctx.glVertex2f(xs[0], -0.5)
            ctx.glVertex2f(xs[1], -0.5)
            ctx.glVertex2f(0.0, 0.5)
            ctx.glEnd()

    n, buf = feedback(context(), E.GL_3D_COLOR, draw)
    polys = buf[:n].reshape(2, 2 + 3 * 7)
    assert np.allclose(polys[0, 2:].reshape(3, 7)[:, 3:7], [0, 0, 0, 1])       # front: unlit side
    assert np.allclose(polys[1, 2:].reshape(3, 7)[:, 3:7], [0, 0.5, 1, 1])     # back material, lit
