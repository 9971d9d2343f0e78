"""Different paths, same image: partial renders vs one pass, HSR vs no HSR,
sysmem vs tile memory, twiddled/compressed targets vs linear."""

import numpy as np
import pytest

from drmshim.gpu.pipeline import Executor

from .gpu import Scene, Space

W = H = 64
BLEND_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "ld_tile.unorm8 r8_r9_r10_r11, 0",
    "fmul r12, r4, 0.5", "fma r12, r8, 0.5, r12",
    "fmul r13, r5, 0.5", "fma r13, r9, 0.5, r13",
    "fmul r14, r6, 0.5", "fma r14, r10, 0.5, r14",
    "mov_imm r15, 0x3f800000",
    "st_tile.unorm8 r12_r13_r14_r15, 0, 15", "stop"])
OPAQUE_FS = "iter.persp.center r4_r5_r6_r7, cf1, cf0\nst_tile.unorm8 r4_r5_r6_r7, 0, 15\nstop"
BINDINGS = [dict(base_slot=0, base_cf=0, components=1, shade_model="LINEAR"),
            dict(base_slot=1, base_cf=1, components=4, shade_model="PERSPECTIVE")]


def random_triangles(n, seed=0, size=0.6):
    rng = np.random.default_rng(seed)
    centre = rng.uniform(-1, 1, (n, 1, 2))
    xy = centre + rng.uniform(-size, size, (n, 3, 2))
    z = rng.uniform(-0.9, 0.9, (n, 3, 1))
    w = rng.uniform(0.5, 2.0, (n, 3, 1))
    colour = rng.uniform(0, 1, (n, 3, 4))
    pos = np.concatenate([xy * w, z * w, w], axis=2)
    return np.concatenate([pos, colour], axis=2).reshape(-1, 8)


def scene(fs, n=120, depth=True, tiling="linear", seed=0):
    sp = Space()
    sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0), tiling=tiling)
    zs = dict(depth_func="LESS", depth_write=True) if depth else {}
    sc.draw(random_triangles(n, seed), fs, varyings=4, cf_bindings=BINDINGS, zs=zs)
    return sc


@pytest.mark.parametrize("fs", [OPAQUE_FS, BLEND_FS], ids=["opaque", "blend"])
def test_partial_renders_give_the_one_pass_image(fs):
    one = scene(fs).render(Executor(sysmem=False))
    sc = scene(fs)
    parts = sc.render(Executor(tvb_entries=30, sysmem=False))
    assert sc.last.feedback.partial_renders >= 3
    assert sc.last.feedback.tvb_overflows == sc.last.feedback.partial_renders
    assert sc.last.feedback.tvb_usage_B <= sc.last.feedback.tvb_size_B
    np.testing.assert_array_equal(parts, one)
    assert len(np.unique(one.reshape(-1, 4), axis=0)) > 50      # a real picture, not a clear


def test_hsr_gives_the_same_image_and_shades_less():
    a = scene(OPAQUE_FS)
    img_hsr = a.render(Executor(hsr=True))
    b = scene(OPAQUE_FS)
    img_all = b.render(Executor(hsr=False))
    np.testing.assert_array_equal(img_hsr, img_all)
    shaded_hsr = a.last.counters.snapshot()["fragments"]
    shaded_all = b.last.counters.snapshot()["fragments"]
    assert shaded_hsr <= W * H < shaded_all


@pytest.mark.parametrize("fs", [OPAQUE_FS, BLEND_FS], ids=["opaque", "blend"])
def test_sysmem_gives_the_tile_memory_image(fs, monkeypatch):
    tiled = scene(fs).render(Executor(sysmem=False, tvb_entries=200))
    monkeypatch.setenv("SHIMGL_DEBUG", "sysmem,nohsr")
    sc = scene(fs)
    direct = sc.render(Executor(tvb_entries=200))
    assert sc.last.feedback.partial_renders == 0
    np.testing.assert_array_equal(direct, tiled)


@pytest.mark.parametrize("tiling", ["twiddled", "twiddled_compressed"])
def test_render_target_layouts_store_the_same_pixels(tiling):
    linear = scene(BLEND_FS, n=40).render()
    other = scene(BLEND_FS, n=40, tiling=tiling).render()
    np.testing.assert_array_equal(other, linear)


def test_msaa_partial_renders_and_sysmem_agree_sample_for_sample(monkeypatch):
    from .gpu import record_eot

    def run(executor, debug=""):
        monkeypatch.setenv("SHIMGL_DEBUG", debug)
        sp = Space()
        sc = Scene(sp, W, H, samples=4)
        sc.eot, buf = record_eot(sp, W, H, 4)
        sc.partial_bg = sc.space.usc(  # reload raw records: the partial eot stored them
            "\n".join(["get_sr r4, pixel_x", "get_sr r5, pixel_y", "get_sr r6, sample_id", f"mov_imm r7, {W}",
                       "imad r8, r5, r7, r4", "mov_imm r7, 4", "imad r8, r8, r7, r6",
                       "device_load.i32 r9, u0_u1, r8, 2, 0", "wait 0", "st_tile.i32 r9, 0, 1", "stop"]),
            uniforms=np.array([buf & 0xFFFFFFFF, buf >> 32] + [0] * 254, np.uint32))
        sc.draw(random_triangles(60, seed=5), BLEND_FS, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="LESS", depth_write=True))
        sc.render(executor)
        return sp.get(buf, W * H * 4, np.uint32), sc.last.feedback.partial_renders

    one, n1 = run(Executor(sysmem=None))
    parts, n2 = run(Executor(tvb_entries=20))
    direct, n3 = run(Executor(tvb_entries=20), "sysmem")
    assert n1 == 0 and n2 >= 2 and n3 == 0
    np.testing.assert_array_equal(parts, one)
    np.testing.assert_array_equal(direct, one)
    assert len(np.unique(one)) > 50


def test_hsr_is_not_used_when_a_later_shader_writes_less_of_the_record():
    red_only = "mov_imm r4, 0x3f800000\nst_tile.unorm8 r4_r5_r6_r7, 0, 1\nstop"   # writes R only
    images = []
    for hsr in (True, False):
        sp = Space()
        sc = Scene(sp, W, H, clear=(0, 0, 0, 0))
        sc.draw(random_triangles(10, seed=2), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="ALWAYS", depth_write=True))
        sc.draw(random_triangles(10, seed=3), red_only, varyings=4, cf_bindings=BINDINGS,
                zs=dict(depth_func="ALWAYS", depth_write=True))
        images.append(sc.render(Executor(hsr=hsr)))
    np.testing.assert_array_equal(images[0], images[1])


def test_layers_in_one_lane_ordered_run_give_the_layer_by_layer_image(monkeypatch, tmp_path):
    """Blended overlapping triangles with no depth test: once the program's native
    code exists, the pass's rank layers are shaded in one lane-ordered run
    (``fragment._PassContext._ordered_pass``); the image is the one shading layer by
    layer gives, and the interpreter's."""
    from drmshim.gpu import native
    from drmshim.gpu.pipeline import fragment
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "HOT_LANES", 0)
    monkeypatch.setattr(native.tier, "BUILD_ASIDE", False)
    monkeypatch.setattr(fragment, "BIN_PASSES", False)     # (else the pass goes bin by bin: test_bin_pass)
    runs = []
    ordered_pass = fragment._PassContext._ordered_pass

    def counting(self, layers):
        lanes = ordered_pass(self, layers)
        runs.append(lanes)
        return lanes
    monkeypatch.setattr(fragment._PassContext, "_ordered_pass", counting)

    def render(executor):
        sc = scene(BLEND_FS, n=60, depth=False)
        sc.render(executor)                  # the first render compiles the program
        return sc.render(executor)
    img = render(Executor(sysmem=False))
    assert any(r is not None for r in runs)
    monkeypatch.setattr(fragment._PassContext, "_ordered_pass", lambda self, layers: None)
    np.testing.assert_array_equal(render(Executor(sysmem=False)), img)
    monkeypatch.setenv("SHIMGL_DEBUG", "interp")
    np.testing.assert_array_equal(render(Executor(sysmem=False)), img)
    assert len(np.unique(img.reshape(-1, 4), axis=0)) > 50


# an opaque program with derivatives of an iterated input (quads with helper lanes):
# its colour, and its x- and y-slopes scaled and offset into unorm range
DERIV_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "dfdx r8, r4", "dfdy r9, r5",
    "fmul r6, r8, 8.0", "fadd r6, r6, 0.5",
    "fmul r7, r9, 8.0", "fadd r7, r7, 0.5",
    "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])


@pytest.mark.parametrize("tvb_entries", [None, 40], ids=["one-pass", "partial-renders"])
def test_hsr_quads_in_one_c_pass_give_the_owner_tables_image(monkeypatch, tvb_entries):
    """Overlapping triangles without depth test under HSR, shaded with quads: the
    owners and quads of ``native.hsr_quads`` (one pass over the pixels) give the image
    and counters of the owner table by record and the quads of the owners' list, and
    of shading every fragment in order without HSR."""
    from drmshim.gpu.pipeline import fragment, native
    monkeypatch.setattr(native, "MIN_FRAGMENTS", 1)
    calls = []
    real = fragment.hsr_quads

    def spy(*a):
        made = real(*a)
        calls.append(made is not None)
        return made

    def run(kernel, hsr=True):
        monkeypatch.setattr(fragment, "hsr_quads", spy if kernel else (lambda *a: None))
        sc = scene(DERIV_FS, n=40, depth=False, seed=5)
        kw = {} if tvb_entries is None else dict(tvb_entries=tvb_entries)
        img = sc.render(Executor(hsr=hsr, **kw))
        return img, sc.last.counters.snapshot()["fragments"]

    img, shaded = run(True)
    assert calls and all(calls)
    img_owners, shaded_owners = run(False)
    np.testing.assert_array_equal(img, img_owners)
    assert shaded == shaded_owners
    img_all, shaded_all = run(False, hsr=False)
    np.testing.assert_array_equal(img, img_all)
    assert shaded < shaded_all
    assert len(np.unique(img[..., 2])) > 10 and len(np.unique(img[..., 3])) > 10     # real slopes
