"""ISP rules through the whole pipeline: fill rule on shared edges, MSAA sample
coverage, depth and stencil truth tables, scissor."""

import numpy as np
import pytest


from .gpu import COUNT_FS, Scene, Space, constant_fs, record_eot, zero_bg


def counting_scene(W, H, samples=1):
    sp = Space()
    sc = Scene(sp, W, H, samples=samples)
    sc.bg = zero_bg(sp)
    sc.eot, buf = record_eot(sp, W, H, samples)
    return sp, sc, buf


def counts(sp, sc, buf, W, H, samples=1, **fields):
    sc.render(**fields)
    return sp.get(buf, W * H * samples, np.uint32).reshape(H, W, samples)


def test_shared_edges_cover_each_pixel_exactly_once():
    W = H = 48
    sp, sc, buf = counting_scene(W, H)
    # a fan and a grid whose vertices sit on pixel centres and edges: every kind of tie
    rng = np.random.default_rng(1)
    g = np.linspace(-1, 1, 7)
    gx, gy = np.meshgrid(g, g)
    jitter = rng.integers(-3, 4, size=gx.shape) * (1.0 / W)        # half-pixel steps: centres on edges
    jitter[0, :] = jitter[-1, :] = 0
    jitter[:, 0] = jitter[:, -1] = 0
    px, py = (gx + jitter).ravel(), (gy + jitter.T).ravel()
    idx = []
    for r in range(6):
        for c in range(6):
            a, b, d, e = r * 7 + c, r * 7 + c + 1, (r + 1) * 7 + c, (r + 1) * 7 + c + 1
            idx += [a, b, e, a, e, d] if (r + c) % 2 else [a, b, d, b, e, d]
    verts = np.stack([px, py, np.zeros_like(px), np.ones_like(px)], 1)
    sc.draw(verts, COUNT_FS, indices=idx, index_size="U16")
    np.testing.assert_array_equal(counts(sp, sc, buf, W, H)[..., 0], 1)


@pytest.mark.parametrize("samples", [2, 4])
def test_msaa_sample_coverage_matches_edge_functions_at_sample_positions(samples):
    W = H = 16
    sp, sc, buf = counting_scene(W, H, samples=samples)
    # on the 1/256 px grid the rasteriser snaps to, so the analytic edges are the rasteriser's
    vx, vy = np.round(np.array([1.3, 14.6, 4.1]) * 256) / 256, np.round(np.array([2.2, 6.7, 15.4]) * 256) / 256
    sc.draw(np.stack([vx / W * 2 - 1, vy / H * 2 - 1, np.zeros(3), np.ones(3)], 1), COUNT_FS)
    got = counts(sp, sc, buf, W, H, samples)
    pos = np.array({2: [(12, 12), (4, 4)], 4: [(6, 2), (14, 6), (2, 10), (10, 14)]}[samples]) / 16.0
    y, x = np.mgrid[0:H, 0:W]
    for s in range(samples):
        sx, sy = x + pos[s, 0], y + pos[s, 1]
        e = [(vx[(i + 2) % 3] - vx[(i + 1) % 3]) * (sy - vy[(i + 1) % 3])
             - (vy[(i + 2) % 3] - vy[(i + 1) % 3]) * (sx - vx[(i + 1) % 3]) for i in range(3)]
        want = (np.array(e) > 0).all(0) | (np.array(e) < 0).all(0)
        np.testing.assert_array_equal(got[..., s] == 1, want, err_msg=f"sample {s}")
    assert set(np.unique(got)) <= {0, 1}


def quad(z, x0=-1.0, x1=1.0, y0=-1.0, y1=1.0):
    return np.array([[x0, y0, z, 1], [x1, y0, z, 1], [x0, y1, z, 1], [x1, y1, z, 1]], np.float32)


FUNCS = ["NEVER", "LESS", "EQUAL", "LEQUAL", "GREATER", "NOTEQUAL", "GEQUAL", "ALWAYS"]
TRUTH = {"NEVER": lambda a, b: False, "LESS": lambda a, b: a < b, "EQUAL": lambda a, b: a == b,
         "LEQUAL": lambda a, b: a <= b, "GREATER": lambda a, b: a > b, "NOTEQUAL": lambda a, b: a != b,
         "GEQUAL": lambda a, b: a >= b, "ALWAYS": lambda a, b: True}


@pytest.mark.parametrize("func", FUNCS)
def test_depth_truth_table(func):
    W = H = 8
    sp = Space()
    got = {}
    for zb in (-0.5, 0.0, 0.5):
        sc = Scene(sp, W, H, clear=(0, 0, 0, 1))
        sc.draw(quad(0.0), constant_fs((1, 0, 0, 1)), primitive="TRIANGLE_STRIP",
                zs=dict(depth_func="ALWAYS", depth_write=True))
        sc.draw(quad(zb), constant_fs((0, 1, 0, 1)), primitive="TRIANGLE_STRIP",
                zs=dict(depth_func=func, depth_write=True))
        img = sc.render()
        assert (img == img[0, 0]).all()
        got[zb] = img[0, 0, 1] == 255
    # window z = 0.5 + 0.5 * ndc z
    assert got == {zb: TRUTH[func](0.5 + 0.5 * zb, 0.5) for zb in (-0.5, 0.0, 0.5)}


OPS = ["KEEP", "ZERO", "REPLACE", "INCR_SAT", "DECR_SAT", "INVERT", "INCR_WRAP", "DECR_WRAP"]


def stencil_op(op, s, ref):
    return {"KEEP": s, "ZERO": 0, "REPLACE": ref, "INCR_SAT": min(s + 1, 255), "DECR_SAT": max(s - 1, 0),
            "INVERT": ~s & 255, "INCR_WRAP": (s + 1) & 255, "DECR_WRAP": (s - 1) & 255}[op]


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("clear", [0, 255, 7])
def test_stencil_ops_on_depth_pass_then_equal_test(op, clear):
    """Draw 1 applies ``op`` (stencil ALWAYS); draw 2 passes only where the stencil
    equals the expected value: the image says whether the op did the right thing."""
    W = H = 4
    sp = Space()
    ref = 0x5A
    sc = Scene(sp, W, H, clear=(0, 0, 0, 1), clear_stencil=clear)
    sc.draw(quad(0.0), constant_fs((1, 0, 0, 1)), primitive="TRIANGLE_STRIP",
            zs=dict(stencil_test=True), stencil_front=dict(compare="ALWAYS", depth_pass=op, reference=ref))
    expected = stencil_op(op, clear, ref)
    sc.draw(quad(0.0), constant_fs((0, 1, 0, 1)), primitive="TRIANGLE_STRIP",
            zs=dict(stencil_test=True), stencil_front=dict(compare="EQUAL", reference=expected))
    img = sc.render()
    assert (img[..., 1] == 255).all()


def test_stencil_fail_and_depth_fail_ops_two_sided():
    W = H = 4
    sp = Space()
    sc = Scene(sp, W, H, clear=(0, 0, 0, 1), clear_stencil=10)
    # front-facing (ccw) quad failing the depth test: depth_fail op; back face untouched
    sc.draw(quad(0.0), constant_fs((0, 0, 0, 1)), primitive="TRIANGLE_STRIP",
            zs=dict(depth_func="ALWAYS", depth_write=True))
    sc.draw(quad(0.5), constant_fs((1, 0, 0, 1)), primitive="TRIANGLE_STRIP",
            zs=dict(depth_func="LESS", stencil_test=True, two_sided_stencil=True),
            stencil_front=dict(compare="ALWAYS", depth_fail="INCR_SAT", depth_pass="ZERO"),
            stencil_back=dict(compare="NEVER", stencil_fail="ZERO"))
    sc.draw(quad(0.0), constant_fs((0, 1, 0, 1)), primitive="TRIANGLE_STRIP",
            zs=dict(stencil_test=True), stencil_front=dict(compare="EQUAL", reference=11))
    img = sc.render()
    assert (img[..., 1] == 255).all() and (img[..., 0] == 0).all()


def test_scissor_limits_fragments():
    W = H = 16
    sp = Space()
    sc = Scene(sp, W, H, clear=(0, 0, 0, 1))
    sc.draw(quad(0.0), constant_fs((1, 1, 1, 1)), primitive="TRIANGLE_STRIP",
            raster=dict(scissor_enable=True), scissor=dict(min_x_px=3, max_x_px=11, min_y_px=5, max_y_px=7))
    img = sc.render()
    want = np.zeros((H, W), bool)
    want[5:7, 3:11] = True
    np.testing.assert_array_equal(img[..., 0] == 255, want)
