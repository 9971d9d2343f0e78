"""ZLS: depth/stencil loaded at the start of a render and stored at its end, in
their layouts; several draws with different states in one pass; 16-bit and
linear varyings; fan/loop assembly."""

import numpy as np
import pytest

import layout
from uapi import packets as P

from .gpu import Scene, Space, constant_fs

W = H = 32
RED, GREEN = constant_fs((1, 0, 0, 1)), constant_fs((0, 1, 0, 1))


def quad(z, x0=-1.0, x1=1.0):
    return np.array([[x0, -1, z, 1], [x1, -1, z, 1], [x0, 1, z, 1], [x1, 1, z, 1]], np.float32)


def zls_word(**kw) -> int:
    return int.from_bytes(P.pack("ZLS_CONTROL", **kw), "little")


@pytest.mark.parametrize("fmt,tiling", [("Z32_FLOAT", "TWIDDLED"), ("Z16_UNORM", "TWIDDLED"), ("Z32_FLOAT", "LINEAR")])
def test_depth_and_stencil_stored_then_loaded_by_the_next_render(fmt, tiling):
    sp = Space()
    lay = layout.make_miptree(W, H, format=fmt, tiling=tiling.lower())
    slay = layout.make_miptree(W, H, format="S8_UINT", tiling="twiddled")
    zbuf, sbuf = sp.alloc(lay.size_B, 16384), sp.alloc(slay.size_B, 16384)
    zs = {"depth": {"base": zbuf, "stride": lay.linear_stride_B}, "stencil": {"base": sbuf}}
    # render 1: the left half at z = 0.25 (window), stencil 7 there
    a = Scene(sp, W, H)
    a.draw(quad(-0.5, x1=0.0), RED, primitive="TRIANGLE_STRIP", zs=dict(depth_func="ALWAYS", depth_write=True,
                                                                        stencil_test=True),
           stencil_front=dict(compare="ALWAYS", depth_pass="REPLACE", reference=7))
    a.render(zls_ctrl=zls_word(depth_store=True, stencil_store=True, depth_format=fmt, depth_tiling=tiling), **zs)
    z = layout.detile(lay, sp.get(zbuf, lay.size_B), 0, 0, 0, 0, W, H)
    z = z.view(np.float32 if fmt == "Z32_FLOAT" else np.uint16).reshape(H, W)
    want = np.where(np.arange(W) < W // 2, 0.25, 1.0)[None].repeat(H, 0)
    np.testing.assert_allclose(z if fmt == "Z32_FLOAT" else z / 65535, want, atol=1e-4)
    # render 2 loads both: z = 0.5 passes LESS only on the right; stencil EQUAL 7 only on the left
    b = Scene(sp, W, H)
    b.draw(quad(0.0), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS"))
    b.draw(quad(0.0), RED, primitive="TRIANGLE_STRIP", zs=dict(stencil_test=True),
           stencil_front=dict(compare="EQUAL", reference=7))
    img = b.render(zls_ctrl=zls_word(depth_load=True, stencil_load=True, depth_format=fmt, depth_tiling=tiling),
                   **zs)
    assert (img[:, W // 2:, 1] == 255).all() and (img[:, :W // 2, 0] == 255).all()
    assert (img[:, :W // 2, 1] == 0).all()


def test_draws_with_different_state_share_a_pass_in_primitive_order():
    sp = Space()
    sc = Scene(sp, W, H)
    sc.draw(quad(0.0), RED, primitive="TRIANGLE_STRIP", zs=dict(depth_func="ALWAYS", depth_write=True))
    sc.draw(quad(0.5, x1=0.0), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS"))   # hidden
    sc.draw(quad(0.5, x0=0.0), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="GREATER"))  # shown
    img = sc.render()
    assert (img[:, :W // 2, 0] == 255).all() and (img[:, W // 2:, 1] == 255).all()
    assert (img[:, :W // 2, 1] == 0).all()


HALF_FS = "iter.linear.center r4l_r4h, cf1\nconvert.f32.f16 r5, r4l\nconvert.f32.f16 r6, r4h\n" \
          "mov_imm r7, 0\nmov_imm r8, 0x3f800000\nst_tile.unorm8 r5_r6_r7_r8, 0, 15\nstop"


def test_16bit_varying_pairs_and_linear_interpolation():
    sp = Space()
    sc = Scene(sp, W, H)
    # one packed pair per vertex: (x_ndc-ish ramp, constant 0.5) as f16 halves
    pos = quad(0.0)
    a = np.array([0.0, 1.0, 0.0, 1.0], np.float16)
    b = np.full(4, 0.5, np.float16)
    word = (a.view(np.uint16).astype(np.uint32) | (b.view(np.uint16).astype(np.uint32) << 16)).view(np.float32)
    verts = np.concatenate([pos, word[:, None]], 1)
    sc.draw(verts, HALF_FS, primitive="TRIANGLE_STRIP", varyings=1, varying_counts=dict(smooth_16=1), slots_32=1,
            cf_bindings=[dict(base_slot=1, base_cf=1, components=2, shade_model="LINEAR")])
    img = sc.render()
    x = (np.arange(W) + 0.5) / W
    np.testing.assert_allclose(img[0, :, 0] / 255, x, atol=1 / 255 + 2e-3)
    assert (np.abs(img[..., 1].astype(int) - 128) <= 1).all()


@pytest.mark.parametrize("prim", ["TRIANGLE_FAN", "LINE_LOOP"])
def test_fan_and_line_loop_assembly(prim):
    sp = Space()
    sc = Scene(sp, W, H)
    if prim == "TRIANGLE_FAN":
        fan = np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [1, 1, 0, 1], [-1, 1, 0, 1]], np.float32)
        sc.draw(fan, RED, primitive=prim)
        assert (sc.render()[..., 0] == 255).all()
    else:
        c = (np.array([4.5, 27.5]) / W * 2 - 1)
        loop = np.array([[c[0], c[0], 0, 1], [c[1], c[0], 0, 1], [c[1], c[1], 0, 1], [c[0], c[1], 0, 1]],
                        np.float32)
        sc.draw(loop, RED, primitive=prim)
        img = sc.render()
        red = img[..., 0] == 255
        # a closed outline: rows 4 and 27 and columns 4 and 27 between the corners, nothing inside
        assert red[4, 5:27].all() and red[27, 5:27].all() and red[5:27, 4].all() and red[5:27, 27].all()
        assert not red[6:26, 6:26].any()


def test_each_draw_clamps_depth_to_its_own_range():
    sp = Space()
    sc = Scene(sp, W, H)
    vp = sc.viewport()
    # left: clamped to 0.3 (then a z=0.5 draw fails LESS); right: full range, z=0.9 (the z=0.5 draw passes)
    sc.draw(quad(0.6, x1=0.0), RED, primitive="TRIANGLE_STRIP", viewport={**vp, "max_depth": 0.3},
            zs=dict(depth_func="ALWAYS", depth_write=True))
    sc.draw(quad(0.8, x0=0.0), RED, primitive="TRIANGLE_STRIP", zs=dict(depth_func="ALWAYS", depth_write=True))
    sc.draw(quad(0.0), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS"))
    img = sc.render()
    assert (img[:, :W // 2, 0] == 255).all() and (img[:, W // 2:, 1] == 255).all()


@pytest.mark.parametrize("fmt,tiling,size", [("Z32_FLOAT", "TWIDDLED", 32), ("Z16_UNORM", "TWIDDLED", 24),
                                             ("Z32_FLOAT", "LINEAR", 20)])
def test_depth_store_leaves_the_bytes_of_tiling_into_the_old_buffer(fmt, tiling, size):
    """Whether or not the ZLS reads the old buffer first (it skips the read when the
    store covers every byte), the result is the old buffer with the depth tiled in."""
    sp = Space()
    lay = layout.make_miptree(size, size, format=fmt, tiling=tiling.lower())
    zbuf = sp.alloc(lay.size_B, 16384)
    old = np.random.default_rng(1).integers(0, 256, lay.size_B, dtype=np.uint8)
    sp.mem.write(zbuf, old, "test")
    a = Scene(sp, size, size)
    a.draw(quad(-0.5, x1=0.0), RED, primitive="TRIANGLE_STRIP", zs=dict(depth_func="ALWAYS", depth_write=True))
    a.render(zls_ctrl=zls_word(depth_store=True, depth_format=fmt, depth_tiling=tiling),
             depth={"base": zbuf, "stride": lay.linear_stride_B})
    z = np.where(np.arange(size) < size // 2, 0.25, 1.0)[None].repeat(size, 0).astype(np.float32)
    data = z if fmt == "Z32_FLOAT" else np.rint(z * 65535).astype(np.uint16)
    want = old.copy()
    layout.tile(lay, want, data, 0, 0, 0, 0, size, size)
    np.testing.assert_array_equal(sp.get(zbuf, lay.size_B), want)


@pytest.mark.parametrize("fmt,tiling", [("Z32_FLOAT", "TWIDDLED"), ("Z16_UNORM", "TWIDDLED"), ("Z32_FLOAT", "LINEAR")])
def test_big_planes_move_through_the_c_tile_copies_with_numpys_bytes(monkeypatch, fmt, tiling):
    """Planes of NATIVE_COPY_MIN_PX pixels or more are stored and loaded by layout's
    tile copies in C: the same bytes in memory, and the same loaded planes, as with
    numpy's copies (TILE_COPIES off)."""
    from drmshim.gpu.pipeline import zls
    from tests.drmshim.pipeline.test_equivalence import BINDINGS, OPAQUE_FS, random_triangles
    if not zls.TILE_COPIES.usable():
        pytest.skip("no C compiler: numpy copies only")
    size = 256
    assert size * size >= zls.NATIVE_COPY_MIN_PX

    def run(native: bool):
        monkeypatch.setattr(zls.TILE_COPIES, "enabled", native)
        sp = Space()
        lay = layout.make_miptree(size, size, format=fmt, tiling=tiling.lower())
        slay = layout.make_miptree(size, size, format="S8_UINT", tiling="twiddled")
        zbuf, sbuf = sp.alloc(lay.size_B, 16384), sp.alloc(slay.size_B, 16384)
        zs = {"depth": {"base": zbuf, "stride": lay.linear_stride_B}, "stencil": {"base": sbuf}}
        a = Scene(sp, size, size)
        a.draw(random_triangles(40, 9), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
               zs=dict(depth_func="LESS", depth_write=True, stencil_test=True),
               stencil_front=dict(compare="ALWAYS", depth_pass="INCR_SAT", reference=1))
        a.render(zls_ctrl=zls_word(depth_store=True, stencil_store=True, depth_format=fmt, depth_tiling=tiling),
                 **zs)
        stored = sp.get(zbuf, lay.size_B).copy(), sp.get(sbuf, slay.size_B).copy()
        b = Scene(sp, size, size)         # loads both: LEQUAL with the stored depth, stencil EQUAL 1
        b.draw(random_triangles(40, 10), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
               zs=dict(depth_func="LEQUAL", stencil_test=True), stencil_front=dict(compare="EQUAL", reference=1))
        img = b.render(zls_ctrl=zls_word(depth_load=True, stencil_load=True, depth_format=fmt, depth_tiling=tiling),
                       **zs)
        return stored, img
    (z0, s0), img0 = run(False)
    (z1, s1), img1 = run(True)
    np.testing.assert_array_equal(z0, z1)
    np.testing.assert_array_equal(s0, s1)
    np.testing.assert_array_equal(img0, img1)
    assert len(np.unique(z0)) > 50 and s0.any() and len(np.unique(img0.reshape(-1, 4), axis=0)) > 10
