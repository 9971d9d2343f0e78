"""The tessellator kernel (driver/gl/tessellation.py) on the GPU model, against the rules
of GL 4.6 section 11.2.2 computed here independently: the level clamping and rounding
of each spacing, the subdivision of every outer edge, the rings of triangles, the grid
of quads, isolines, discarded patches, point mode and the winding; the triangles must
cover the domain exactly once (sampled with numpy)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import driver
from compiler.glsl.tessellation import TessLayout
from driver.gl.tessellation import run_tessellator

MAX_LEVEL = 64
SLOW = pytest.mark.slow


@pytest.fixture(scope="module")
def ctx():
    with driver.Context(api="gl43", width=8, height=8) as c:
        yield c


def _layout(mode, spacing="equal_spacing", order="ccw", point_mode=False):
    return TessLayout(None, mode, spacing, order, point_mode)


def _segments(level: float, spacing: str) -> tuple[int, float]:
    """(segment count, clamped level) of GL 4.6 section 11.2.2's rules."""
    if spacing == "equal_spacing":
        f = min(max(level, 1.0), MAX_LEVEL)
        return math.ceil(f), f
    if spacing == "fractional_even_spacing":
        f = min(max(level, 2.0), MAX_LEVEL)
        n = math.ceil(f)
        return n + (n % 2), f
    f = min(max(level, 1.0), MAX_LEVEL - 1)
    n = math.ceil(f)
    return n + (1 - n % 2), f


def _check_subdivision(points: np.ndarray, level: float, spacing: str) -> None:
    """Sorted parameters 0..1 along one edge: n segments; equal spacing all 1/n;
    fractional: n - 2 equal segments and two equal shorter ones placed symmetrically."""
    n, f = _segments(level, spacing)
    assert len(points) == n + 1, (level, spacing, points)
    assert points[0] == pytest.approx(0.0, abs=1e-6) and points[-1] == pytest.approx(1.0, abs=1e-6)
    lengths = np.diff(points)
    np.testing.assert_allclose(lengths, lengths[::-1], atol=1e-5)             # symmetric
    if spacing == "equal_spacing" or n == f or n <= 2:
        np.testing.assert_allclose(lengths, 1.0 / n, atol=1e-5)
        return
    short = sorted(lengths)[:2]
    longer = sorted(lengths)[2:]
    np.testing.assert_allclose(longer, longer[0], atol=1e-5)
    assert short[0] == pytest.approx(short[1], abs=1e-5)
    assert short[0] <= longer[0] + 1e-6
    assert lengths.sum() == pytest.approx(1.0, abs=1e-5)


def _uv(coords):
    return coords[:, :2].astype(np.float64)


def _areas(coords, tris):
    p = _uv(coords)
    a, b, c = p[tris[:, 0]], p[tris[:, 1]], p[tris[:, 2]]
    return 0.5 * ((b[:, 0] - a[:, 0]) * (c[:, 1] - a[:, 1]) - (c[:, 0] - a[:, 0]) * (b[:, 1] - a[:, 1]))


def _coverage(coords, tris, samples):
    """How many triangles contain each sample point (strictly inside, in (u, v))."""
    p = _uv(coords)
    a, b, c = p[tris[:, 0]][:, None], p[tris[:, 1]][:, None], p[tris[:, 2]][:, None]
    s = samples[None]

    def edge(p0, p1):
        return (p1[..., 0] - p0[..., 0]) * (s[..., 1] - p0[..., 1]) - (p1[..., 1] - p0[..., 1]) * (s[..., 0] - p0[..., 0])
    e0, e1, e2 = edge(a, b), edge(b, c), edge(c, a)
    inside = ((e0 > 0) & (e1 > 0) & (e2 > 0)) | ((e0 < 0) & (e1 < 0) & (e2 < 0))
    return inside.sum(axis=0)


def _samples(mode, n=400, seed=1):
    rng = np.random.default_rng(seed)
    pts = rng.random((n * 2, 2))
    if mode == "triangles":
        pts = pts[pts.sum(axis=1) < 1.0]
    return pts[:n]


def _check_cover(coords, tris, mode, order="ccw"):
    areas = _areas(coords, tris)
    live = np.abs(areas) > 1e-9
    assert np.all(areas[live] > 0) if order == "ccw" else np.all(areas[live] < 0)
    assert np.abs(areas).sum() == pytest.approx(0.5 if mode == "triangles" else 1.0, abs=1e-5)
    cover = _coverage(coords, tris[live], _samples(mode))
    assert np.all(cover == 1), np.unique(cover, return_counts=True)


def _edge_params(coords, on_edge, along):
    """The distinct parameters of the vertices on an edge (fractional spacing of an inner
    level treated as 1 + epsilon puts inner vertices on it too: degenerate, allowed)."""
    return np.unique(np.round(coords[on_edge][:, along].astype(np.float64), 6))


@pytest.mark.parametrize("spacing", ["equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"])
@pytest.mark.parametrize("outer, inner", [
    ((1, 1, 1), 1), ((5.5, 1, 2.25), 4.75), pytest.param((2, 3, 4), 3, marks=SLOW),
    pytest.param((1, 1, 1), 6, marks=SLOW), pytest.param((7, 2, 3), 1, marks=SLOW),
    pytest.param((3.5, 3.5, 3.5), 2.5, marks=SLOW),
])
def test_triangles(ctx, spacing, outer, inner):
    coords, patch, tris = run_tessellator(ctx, _layout("triangles", spacing), [list(outer) + [0, inner, 0]])
    assert np.all(patch == 0)
    np.testing.assert_allclose(coords.sum(axis=1), 1.0, atol=1e-5)      # barycentric
    assert np.all(coords >= -1e-6)
    # the outer edges: u = 0 has outer[0]'s subdivision (along v), v = 0 outer[1]'s, w = 0 outer[2]'s
    if not (max(_segments(o, spacing)[0] for o in outer) == 1 and _segments(inner, spacing)[0] == 1):
        for k, along in ((0, 1), (1, 2), (2, 0)):
            _check_subdivision(_edge_params(coords, np.abs(coords[:, k]) < 1e-6, along), outer[k], spacing)
    else:
        assert len(coords) == 3 and len(tris) == 1
    _check_cover(coords, tris, "triangles")
    assert len(np.unique(np.round(coords, 5), axis=0)) == len(coords) or spacing != "equal_spacing"


@pytest.mark.parametrize("outer, inner, expected_vertices", [
    # ring 0: the outer edges; rings k >= 1: 3 (n - 2k) vertices, the centre when n is even
    ((2, 3, 4), 3, 9 + 3),
    ((1, 1, 1), 4, 3 + 6 + 1),
    ((5, 5, 5), 5, 15 + 9 + 3),
    ((2, 2, 2), 1, 6 + 1),          # inner 1 with outer levels above 1: rounded as 1 + epsilon (2)
])
def test_triangle_rings_equal_spacing(ctx, outer, inner, expected_vertices):
    coords, _patch, tris = run_tessellator(ctx, _layout("triangles"), [list(outer) + [0, inner, 0]])
    assert len(coords) == expected_vertices
    n = _segments(inner, "equal_spacing")[0]
    n = 2 if n == 1 else n
    # the first inner ring's corner nearest (1, 0, 0) is at (1 - 2t, t, t), t = 2/3 * 1/n
    if n >= 3:
        t = 2.0 / (3 * n)
        assert np.any(np.all(np.abs(coords - [1 - 2 * t, t, t]) < 1e-5, axis=1))
    else:
        assert np.any(np.all(np.abs(coords - [1 / 3, 1 / 3, 1 / 3]) < 1e-5, axis=1))


@pytest.mark.parametrize("spacing", ["equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"])
@pytest.mark.parametrize("outer, inner", [
    ((1, 1, 1, 1), (1, 1)), ((6.5, 2.5, 1, 3), (5.25, 2.75)), pytest.param((2, 3, 4, 5), (3, 2), marks=SLOW),
    pytest.param((1, 1, 1, 1), (4, 1), marks=SLOW), pytest.param((3, 3, 3, 3), (1, 1), marks=SLOW),
])
def test_quads(ctx, spacing, outer, inner):
    coords, _patch, tris = run_tessellator(ctx, _layout("quads", spacing), [list(outer) + list(inner)])
    assert np.all(coords[:, 2] == 0)
    everything_one = all(_segments(x, spacing)[0] == 1 for x in list(outer) + list(inner))
    # an inner level of 1 with fractional odd spacing is 1 + epsilon: 3 segments, two of
    # length ~0, so inner grid points lie on the outer edges (degenerate, as specified)
    degenerate = spacing == "fractional_odd_spacing" and any(_segments(x, spacing)[0] == 1 for x in inner)
    if everything_one:
        assert len(coords) == 4 and len(tris) == 2
    elif not degenerate:
        # u = 0: outer[0] along v; v = 0: outer[1] along u; u = 1: outer[2]; v = 1: outer[3]
        for k, (axis, value, along) in enumerate(((0, 0.0, 1), (1, 0.0, 0), (0, 1.0, 1), (1, 1.0, 0))):
            _check_subdivision(_edge_params(coords, np.abs(coords[:, axis] - value) < 1e-6, along), outer[k], spacing)
        n0, _ = _segments(inner[0], spacing)
        n1, _ = _segments(inner[1], spacing)
        n0 = n0 if n0 > 1 else (3 if spacing == "fractional_odd_spacing" else 2)
        n1 = n1 if n1 > 1 else (3 if spacing == "fractional_odd_spacing" else 2)
        interior = sum(1 for c in coords if 1e-6 < c[0] < 1 - 1e-6 and 1e-6 < c[1] < 1 - 1e-6)
        if spacing == "equal_spacing":
            assert interior == (n0 - 1) * (n1 - 1)
            grid = {(round(i / n0, 5), round(j / n1, 5)) for i in range(1, n0) for j in range(1, n1)}
            assert {(round(float(c[0]), 5), round(float(c[1]), 5)) for c in coords
                    if 1e-6 < c[0] < 1 - 1e-6 and 1e-6 < c[1] < 1 - 1e-6} == grid
    _check_cover(coords, tris, "quads")


@pytest.mark.parametrize("spacing", ["equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"])
@pytest.mark.parametrize("outer", [(3, 4), (2.5, 5.5), pytest.param((1, 1), marks=SLOW),
                                   pytest.param((1, 7), marks=SLOW)])
def test_isolines(ctx, spacing, outer):
    coords, _patch, lines = run_tessellator(ctx, _layout("isolines", spacing), [list(outer) + [0, 0, 0, 0]])
    nlines = math.ceil(outer[0])                  # the line count always uses equal spacing
    m, _f = _segments(outer[1], spacing)
    assert len(coords) == nlines * (m + 1) and len(lines) == nlines * m
    vs = np.unique(np.round(coords[:, 1], 5))
    np.testing.assert_allclose(vs, np.arange(nlines) / nlines, atol=1e-5)        # no line at v = 1
    for v in vs:
        _check_subdivision(np.sort(coords[np.abs(coords[:, 1] - v) < 1e-5][:, 0]), outer[1], spacing)
    # each segment joins neighbours of one line
    assert np.all(np.abs(coords[lines[:, 0], 1] - coords[lines[:, 1], 1]) < 1e-6)
    assert np.sum(np.abs(coords[lines[:, 0], 0] - coords[lines[:, 1], 0])) == pytest.approx(nlines, abs=1e-4)


@pytest.mark.parametrize("mode, levels", [
    ("triangles", [0, 2, 2, 0, 2, 0]), ("triangles", [2, -1, 2, 0, 2, 0]), ("triangles", [2, 2, float("nan"), 0, 2, 0]),
    ("quads", [2, 2, 2, 0, 2, 2]), ("quads", [float("nan"), 2, 2, 2, 2, 2]),
    ("isolines", [0, 2, 0, 0, 0, 0]), ("isolines", [2, -0.5, 0, 0, 0, 0]),
])
def test_discarded_patches(ctx, mode, levels):
    kept = [2, 2, 2, 2, 2, 2]
    coords, patch, prims = run_tessellator(ctx, _layout(mode), [levels, kept])
    assert len(coords) > 0 and np.all(patch == 1)          # only the second patch generated anything


def test_unused_levels_do_not_discard(ctx):
    """Isolines use only outer[0] and outer[1]; triangles do not use outer[3]."""
    coords, _p, _l = run_tessellator(ctx, _layout("isolines"), [[1, 1, 0, -1, 0, 0]])
    assert len(coords) == 2
    coords, _p, _t = run_tessellator(ctx, _layout("triangles"), [[1, 1, 1, 0, 1, 0]])
    assert len(coords) == 3


@pytest.mark.parametrize("level, spacing, segments", [
    (100.0, "equal_spacing", 64), (0.25, "equal_spacing", 1), (3.0, "fractional_even_spacing", 4),
    (1.0, "fractional_even_spacing", 2), (2.0, "fractional_odd_spacing", 3), (64.0, "fractional_odd_spacing", 63),
    (2.0001, "equal_spacing", 3),
])
def test_levels_are_clamped_and_rounded(ctx, level, spacing, segments):
    coords, _p, _l = run_tessellator(ctx, _layout("isolines", spacing), [[1, level, 0, 0, 0, 0]])
    assert len(coords) == segments + 1


@pytest.mark.parametrize("mode", ["triangles", "quads", "isolines"])
def test_point_mode_gives_every_vertex_once(ctx, mode):
    levels = [[3, 2, 4, 2, 3, 2]]
    coords, _p, prims = run_tessellator(ctx, _layout(mode), levels)
    points, _p2, singles = run_tessellator(ctx, _layout(mode, point_mode=True), levels)
    assert singles.shape == (len(coords), 1)
    assert sorted(singles[:, 0]) == list(range(len(coords)))
    np.testing.assert_array_equal(points, coords)


def test_point_mode_triangles_start_the_outer_ring_at_corner_1(ctx):
    """In point mode the points' order is the implementation's; shimgl's is Mesa's for the
    outer ring of triangles: from corner (0, 1, 0) along its u = 0 side to (0, 0, 1), then
    v = 0 to (1, 0, 0), then w = 0 back (llvmpipe's last point at all levels 1 is
    (1, 0, 0), found by drawing the three points over one pixel)."""
    points, _p, singles = run_tessellator(ctx, _layout("triangles", point_mode=True), [[1, 1, 1, 0, 1, 0]])
    assert points[singles[:, 0]].tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]
    # outer levels 2, 3, 4 (outer[0] subdivides the u = 0 side): 9 outer points first
    points, _p, singles = run_tessellator(ctx, _layout("triangles", point_mode=True), [[2, 3, 4, 0, 3, 0]])
    ring = points[singles[:9, 0]]
    np.testing.assert_allclose(ring[0], [0, 1, 0])
    np.testing.assert_allclose(ring[:3, 0], 0)            # u = 0: 2 segments, (0, 0, 1) next
    np.testing.assert_allclose(ring[2], [0, 0, 1])
    np.testing.assert_allclose(ring[2:6, 1], 0)           # v = 0: 3 segments, to (1, 0, 0)
    np.testing.assert_allclose(ring[5], [1, 0, 0])
    np.testing.assert_allclose(ring[5:9, 2], 0)           # w = 0: 4 segments, back towards (0, 1, 0)


def test_clockwise_order(ctx):
    coords, _p, tris = run_tessellator(ctx, _layout("quads", order="cw"), [[2, 3, 2, 3, 2, 3]])
    _check_cover(coords, tris, "quads", order="cw")


def test_several_patches_are_numbered(ctx):
    coords, patch, tris = run_tessellator(ctx, _layout("triangles"), [[1, 1, 1, 0, 1, 0]] * 5)
    assert list(patch) == [p for p in range(5) for _ in range(3)]
    assert sorted(tris.ravel()) == list(range(15))


# The counts of a patch with every level at the maximum (64), computed by hand: quads
# 4n + (n - 1)^2 vertices and 2n^2 triangles for n = 64; triangles 3 x 64 outer vertices,
# 31 inner rings of 3 (64 - 2a) vertices and the centre, 6 x 32^2 triangles; isolines
# 64 lines of 65 vertices and 64 segments. Fractional odd spacing: n = 63.
@pytest.mark.parametrize("mode, spacing, vertices, primitives", [
    ("quads", "equal_spacing", 4225, 8192), ("triangles", "equal_spacing", 3169, 6144),
    ("isolines", "equal_spacing", 4160, 4096), ("quads", "fractional_odd_spacing", 4 * 63 + 62 * 62, 2 * 63 * 63),
    ("isolines", "fractional_odd_spacing", 64 * 64, 64 * 63),
])
def test_the_maximum_level_reaches_the_bound(ctx, mode, spacing, vertices, primitives):
    """The bound the draw sizes its buffers by (patch_bound, patch_jobs) is what a patch at
    the maximum level generates; such a patch (8192 triangles) still covers the domain once."""
    from driver.gl.tessellation import patch_bound, patch_jobs
    lay = _layout(mode, spacing)
    coords, _patch, prims = run_tessellator(ctx, lay, [[MAX_LEVEL] * 6])
    assert (len(coords), len(prims)) == (vertices, primitives)
    vpp = 2 if mode == "isolines" else 3
    assert patch_bound(lay, MAX_LEVEL, MAX_LEVEL) == (vertices, vpp * primitives)
    assert patch_bound(_layout(mode, spacing, point_mode=True), 100.0, MAX_LEVEL) == (vertices, vertices)
    assert patch_jobs(lay, MAX_LEVEL, MAX_LEVEL) == {"quads": 2 + 63 if "odd" in spacing else 66,
                                                     "triangles": 3 * 32, "isolines": 64}[mode]
    if mode != "isolines":
        _check_cover(coords, prims, mode)


@pytest.mark.parametrize("mode", ["triangles", "quads", "isolines"])
def test_random_levels_stay_within_the_bound(ctx, mode):
    """Patches of random levels (some below 1, fractional, discarded ones) generate at most
    the bound of their largest level, in total for the draw."""
    from driver.gl.tessellation import patch_bound
    rng = np.random.default_rng(7)
    for spacing in ("equal_spacing", "fractional_even_spacing", "fractional_odd_spacing"):
        levels = rng.uniform(-0.5, 9.0, (6, 6))
        lay = _layout(mode, spacing)
        coords, _patch, prims = run_tessellator(ctx, lay, levels.tolist())
        bound_v, bound_i = patch_bound(lay, float(levels.max()), MAX_LEVEL)
        assert len(coords) <= 6 * bound_v and prims.size <= 6 * bound_i
        for one in levels:
            c, _p, t = run_tessellator(ctx, lay, [one.tolist()])
            v, i = patch_bound(lay, float(one.max()), MAX_LEVEL)
            assert len(c) <= v and t.size <= i, (one, len(c), t.size, v, i)
