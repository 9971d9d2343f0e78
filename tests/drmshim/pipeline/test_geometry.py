"""VDM and PPP through the pipeline: clipping, user clip distances, culling,
index lists and restart, base vertex, instancing with divisors, indirect draws,
provoking vertex, perspective-correct varyings, points, lines, polygon offset."""

import numpy as np
import pytest

from uapi import packets as P

from .gpu import Scene, Space, constant_fs, record_eot, u64_uniforms, zero_bg

W = H = 32
RED = constant_fs((1, 0, 0, 1))


def px_to_ndc(p, n=W):
    return np.asarray(p, float) / n * 2 - 1


def inside(vx, vy):
    y, x = np.mgrid[0:H, 0:W] + 0.5
    e = np.array([(vx[(i + 2) % 3] - vx[(i + 1) % 3]) * (y - vy[(i + 1) % 3])
                  - (vy[(i + 2) % 3] - vy[(i + 1) % 3]) * (x - vx[(i + 1) % 3]) for i in range(3)])
    return (e > 0).all(0) | (e < 0).all(0)


TRI_PX = (np.array([1.3, 30.7, 2.1]), np.array([0.6, 3.2, 31.4]))


def tri(z=(0, 0, 0), w=(1, 1, 1)):
    vx, vy = TRI_PX
    w = np.asarray(w, float)
    return np.stack([px_to_ndc(vx) * w, px_to_ndc(vy) * w, np.asarray(z, float) * w, w], 1)


def red(img):
    return (img[..., 0] == 255) & (img[..., 1] == 0)


def render(draws, **scene):
    sp = Space()
    sc = Scene(sp, W, H, **scene)
    for args, kw in draws:
        sc.draw(*args, **kw)
    img = sc.render()
    return img, sc


def test_near_plane_clipping_cuts_where_z_crosses_minus_w():
    vx, vy = TRI_PX
    z = px_to_ndc(vx) - 1.0 + 0.0       # z = x_ndc - 1: clipped where x_ndc < 0
    img, _ = render([((tri(z=z), RED), {})])
    x = np.arange(W)[None, :] + 0.5
    np.testing.assert_array_equal(red(img), inside(vx, vy) & (x > W / 2))


def test_depth_clamp_disables_z_clipping():
    vx, vy = TRI_PX
    z = px_to_ndc(vx) - 1.0
    img, _ = render([((tri(z=z), RED), dict(raster=dict(depth_clamp=True)))])
    np.testing.assert_array_equal(red(img), inside(vx, vy))


def test_user_clip_distance_is_a_vertex_output():
    vx, vy = TRI_PX
    v = tri()
    dist = px_to_ndc(vy) - 0.25              # keep y_ndc >= 0.25
    verts = np.concatenate([v, dist[:, None]], 1)
    img, _ = render([((verts, RED), dict(varyings=1, output_select=dict(clip_distances=1),
                                         varying_counts=dict()))])
    y = np.arange(H)[:, None] + 0.5
    np.testing.assert_array_equal(red(img), inside(vx, vy) & (y / H * 2 - 1 > 0.25))


def test_triangles_behind_the_eye_are_not_drawn():
    img, _ = render([((tri(w=(-1, -1, -1)), RED), {})])
    assert not red(img).any()


@pytest.mark.parametrize("front_ccw,cull_back,cull_front,drawn", [
    (True, True, False, True), (True, False, True, False), (False, True, False, False), (False, False, False, True)])
def test_culling_by_winding(front_ccw, cull_back, cull_front, drawn):
    # TRI_PX is counter-clockwise in a y-up window
    img, _ = render([((tri(), RED), dict(raster=dict(front_ccw=front_ccw, cull_back=cull_back,
                                                     cull_front=cull_front)))])
    assert red(img).any() == drawn


QUADS = np.array([[-1, -1, 0, 1], [0, -1, 0, 1], [-1, 0, 0, 1], [0, 0, 0, 1],
                  [0.25, 0.25, 0, 1], [1, 0.25, 0, 1], [0.25, 1, 0, 1], [1, 1, 0, 1]], np.float32)


@pytest.mark.parametrize("size,restart", [("U8", 0xFF), ("U16", 0xFFFF), ("U32", 0xFFFFFFFF)])
def test_index_sizes_restart_and_base_vertex(size, restart):
    # two strips split by a restart index, shifted by base_vertex 2 (two dummy vertices first)
    verts = np.concatenate([np.full((2, 4), 9, np.float32), QUADS])
    img, _ = render([((verts, RED), dict(primitive="TRIANGLE_STRIP", indices=[0, 1, 2, 3, restart, 4, 5, 6, 7],
                                         index_size=size, restart=restart, base_vertex=2))])
    ref, _ = render([((QUADS[[0, 1, 2, 1, 3, 2, 4, 5, 6, 5, 7, 6]], RED), {})])
    np.testing.assert_array_equal(img, ref)
    assert red(img).sum() == 16 * 16 + 12 * 12


INSTANCED_VS = """
get_sr r3, vertex_id
device_load.i32 r4_r5_r6_r7, u0_u1, r3, 4, 0
get_sr r8, instance_id
ushr r8, r8, 1
iadd r8, r8, r1
device_load.i32 r9_r10, u2_u3, r8, 3, 1
wait 0
wait 1
fadd r4, r4, r9
fadd r5, r5, r10
st_var 0, r4
st_var 1, r5
st_var 2, r6
st_var 3, r7
stop
"""


def _instanced_scene(sp, indirect: bool):
    sc = Scene(sp, W, H)
    quad = np.array([[-1, -1, 0, 1], [-0.75, -1, 0, 1], [-1, -0.75, 0, 1], [-0.75, -0.75, 0, 1]], np.float32)
    offsets = np.array([[9, 9], [0, 0], [1, 0], [0, 1], [1, 1]], np.float32)   # per 2 instances, from base 1
    vs = sp.usc(INSTANCED_VS, uniforms=u64_uniforms(sp.put(quad), sp.put(offsets)), outputs=4)
    fs = sp.usc(RED, cf=0)
    state = P.pack("PPP_STATE", viewport=sc.viewport(), fragment_shader=dict(pipeline=fs))
    blocks = [P.pack("VDM_STATE", vertex_shader=dict(pipeline=vs), vertex_outputs=dict(output_count_words=4)),
              P.pack("VDM_PPP_STATE_UPDATE", size_words=len(state) // 4, state=sp.put(state, 16))]
    if indirect:
        args = sp.put(np.array([4, 8, 0, 1], np.uint32))
        blocks.append(P.pack("VDM_INDEX_LIST", primitive="TRIANGLE_STRIP", indirect=True, indirect_buffer=args,
                             count=99))
    else:
        blocks.append(P.pack("VDM_INDEX_LIST", primitive="TRIANGLE_STRIP", count=4, instances=8, base_instance=1))
    sc.blocks = blocks
    return sc


@pytest.mark.parametrize("indirect", [False, True])
def test_instancing_with_a_divisor_and_base_instance(indirect):
    sp = Space()
    sc = _instanced_scene(sp, indirect)
    img = sc.render()
    want = np.zeros((H, W), bool)
    for ox, oy in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        want[oy * 16:oy * 16 + 4, ox * 16:ox * 16 + 4] = True
    np.testing.assert_array_equal(red(img), want)
    assert sc.last.counters.snapshot()["vertices"] == 32


FLAT_FS = "ldcf r4_r5_r6_r7, cf1\nst_tile.unorm8 r4_r5_r6_r7, 0, 15\nstop"


@pytest.mark.parametrize("provoking,colour", [("FIRST", 0), ("LAST", 2)])
def test_flat_shading_takes_the_provoking_vertex(provoking, colour):
    colours = np.eye(3, 4, dtype=np.float32)
    colours[:, 3] = 1
    verts = np.concatenate([tri(), colours], 1)
    img, _ = render([((verts, FLAT_FS), dict(varyings=4, raster=dict(provoking_vertex=provoking),
                                             cf_bindings=[dict(base_slot=1, base_cf=1, components=4,
                                                               shade_model="FLAT")]))])
    mask = inside(*TRI_PX)
    assert (img[mask][:, colour] == 255).all() and (img[mask][:, [c for c in range(3) if c != colour]] == 0).all()


def test_perspective_correct_interpolation_matches_the_analytic_value():
    sp = Space()
    sc = Scene(sp, W, H)
    sc.bg = zero_bg(sp)
    sc.eot, buf = record_eot(sp, W, H)
    w = np.array([1.0, 4.0, 2.0])
    attr = np.array([0.0, 10.0, 3.0])
    verts = np.concatenate([tri(w=w), attr[:, None]], 1)
    fs = "iter.persp.center r4, cf1, cf0\nst_tile.i32 r4, 0, 1\nstop"
    sc.draw(verts, fs, varyings=1, cf_bindings=[dict(base_slot=0, base_cf=0), dict(base_slot=1, base_cf=1,
                                                                                shade_model="PERSPECTIVE")])
    sc.render()
    got = sp.get(buf, W * H, np.float32).reshape(H, W)
    vx, vy = TRI_PX
    y, x = np.mgrid[0:H, 0:W] + 0.5
    area = (vx[1] - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (vy[1] - vy[0])
    l1 = ((x - vx[0]) * (vy[2] - vy[0]) - (vx[2] - vx[0]) * (y - vy[0])) / area
    l2 = ((vx[1] - vx[0]) * (y - vy[0]) - (x - vx[0]) * (vy[1] - vy[0])) / area
    lam = np.stack([1 - l1 - l2, l1, l2]) / w[:, None, None]
    want = (lam * attr[:, None, None]).sum(0) / lam.sum(0)
    m = inside(vx, vy)
    np.testing.assert_allclose(got[m], want[m], rtol=2e-3, atol=2e-3)


def test_points_of_size_3_and_width_1_lines():
    pts = np.array([[px_to_ndc(5.5), px_to_ndc(6.5), 0, 1], [px_to_ndc(20.5), px_to_ndc(10.5), 0, 1]], np.float32)
    img, _ = render([((pts, RED), dict(primitive="POINTS", raster=dict(point_size_px=3.0)))])
    want = np.zeros((H, W), bool)
    want[5:8, 4:7] = want[9:12, 19:22] = True
    np.testing.assert_array_equal(red(img), want)
    line = np.array([[px_to_ndc(2.0), px_to_ndc(12.5), 0, 1], [px_to_ndc(28.0), px_to_ndc(12.5), 0, 1]], np.float32)
    img, _ = render([((line, RED), dict(primitive="LINES"))])
    want = np.zeros((H, W), bool)
    want[12, 2:28] = True
    np.testing.assert_array_equal(red(img), want)


def test_polygon_offset_pulls_a_coplanar_draw_in_front():
    z = (0.2, 0.2, 0.2)
    base = ((tri(z=z), constant_fs((0, 1, 0, 1))), dict(zs=dict(depth_func="LESS", depth_write=True)))
    img, _ = render([base, ((tri(z=z), RED), dict(zs=dict(depth_func="LESS", depth_write=True)))])
    assert not red(img).any()
    img, _ = render([base, ((tri(z=z), RED), dict(zs=dict(depth_func="LESS", depth_write=True),
                                                  raster=dict(depth_bias_enable=True),
                                                  depth_bias=dict(constant=-4.0)))])
    np.testing.assert_array_equal(red(img), inside(*TRI_PX))


def test_polygon_mode_line_draws_the_edges_and_point_the_corners():
    # a square as two triangles; LINE mode draws its outline and the diagonal
    c = (np.array([4.5, 27.5]) / W * 2 - 1)
    sq = np.array([[c[0], c[0], 0, 1], [c[1], c[0], 0, 1], [c[0], c[1], 0, 1], [c[1], c[1], 0, 1]], np.float32)
    img, _ = render([((sq, RED), dict(primitive="TRIANGLE_STRIP",
                                      raster=dict(polygon_mode_front="LINE", polygon_mode_back="LINE")))])
    r = red(img)
    assert r[4, 5:27].all() and r[27, 5:27].all() and r[5:27, 4].all() and r[5:27, 27].all()
    assert r[np.arange(6, 26), 31 - np.arange(6, 26)].all()          # the shared diagonal
    assert not r[6:14, 6:14].any()
    img, _ = render([((sq, RED), dict(primitive="TRIANGLE_STRIP",
                                      raster=dict(polygon_mode_front="POINT", polygon_mode_back="POINT")))])
    want = np.zeros((H, W), bool)
    want[[4, 4, 27, 27], [4, 27, 4, 27]] = True
    np.testing.assert_array_equal(red(img), want)
    # the mode follows the face: with clockwise fronts the square's triangles are back faces (FILL)
    img, _ = render([((sq, RED), dict(primitive="TRIANGLE_STRIP",
                                      raster=dict(polygon_mode_front="POINT", front_ccw=False)))])
    assert red(img).sum() == 23 * 23


def test_vdm_stream_links_and_calls():
    sp = Space()
    sc = Scene(sp, W, H)
    left = np.array([[-1, -1, 0, 1], [0, -1, 0, 1], [-1, 1, 0, 1], [0, 1, 0, 1]], np.float32)
    sc.draw(left, RED, primitive="TRIANGLE_STRIP")
    sc.draw(left + np.array([1, 0, 0, 0], np.float32), constant_fs((0, 1, 0, 1)), primitive="TRIANGLE_STRIP")
    first, second = sc.blocks[:3], sc.blocks[3:]
    # main: call a sub-stream holding the first draw, then link to a tail with the second
    sub = sp.put(b"".join(first) + P.pack("VDM_BARRIER", returns=True), 16)
    tail = sp.put(b"".join(second) + P.pack("VDM_TERMINATE"), 16)
    sc.blocks = [P.pack("VDM_STREAM_LINK", with_return=True, target=sub), P.pack("VDM_BARRIER"),
                 P.pack("VDM_STREAM_LINK", target=tail)]
    img = sc.render()
    assert (img[:, :W // 2, 0] == 255).all() and (img[:, W // 2:, 1] == 255).all()


def test_program_point_size_comes_from_the_vertex_output():
    pts = np.array([[px_to_ndc(5.5), px_to_ndc(6.5), 0, 1, 3.0], [px_to_ndc(20.5), px_to_ndc(10.5), 0, 1, 5.0]],
                   np.float32)
    img, _ = render([((pts, RED), dict(primitive="POINTS", varyings=1, output_select=dict(point_size=True),
                                       varying_counts=dict(), raster=dict(program_point_size=True,
                                                                          point_size_px=9.0)))])
    want = np.zeros((H, W), bool)
    want[5:8, 4:7] = True
    want[8:13, 18:23] = True
    np.testing.assert_array_equal(red(img), want)
