"""Fragment side: late depth with discard and shader depth, occlusion queries,
derivatives in quads, blits, counters and faults of each unit."""

import numpy as np
import pytest

from drmshim.gpu.pipeline import Executor
from drmshim.memory import GPUFault
from uapi import packets as P

from .gpu import BASE, Scene, Space, Target, command, constant_fs, record_eot, u64_uniforms, zero_bg

W = H = 16
RED, GREEN = constant_fs((1, 0, 0, 1)), constant_fs((0, 1, 0, 1))


def quad(z):
    return np.array([[-1, -1, z, 1], [1, -1, z, 1], [-1, 1, z, 1], [1, 1, z, 1]], np.float32)


DISCARD_LEFT_RED = f"""
get_sr r4, pixel_x
if_icmp.ult r4, {W // 2}, 1
discard
pop_exec 1
{RED.replace('stop', '').strip()}
stop
"""


@pytest.mark.parametrize("hsr", [True, False])
def test_discard_means_late_depth_and_no_write(hsr):
    sp = Space()
    sc = Scene(sp, W, H)
    sc.draw(quad(-0.5), DISCARD_LEFT_RED, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS", depth_write=True),
            fragment=dict(discards=True))
    sc.draw(quad(0.5), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS", depth_write=True))
    img = sc.render(Executor(hsr=hsr))
    assert (img[:, :W // 2, 1] == 255).all() and (img[:, W // 2:, 0] == 255).all()
    assert (img[:, W // 2:, 1] == 0).all()


SHADER_DEPTH = "mov_imm r8, 0x3dcccccd\nzs_emit.z r8\n" + RED   # z = 0.1


def test_shader_written_depth_is_tested_and_stored():
    sp = Space()
    sc = Scene(sp, W, H)
    sc.draw(quad(0.8), SHADER_DEPTH, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS", depth_write=True),
            fragment=dict(writes_depth=True))
    sc.draw(quad(-0.6), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS", depth_write=True))
    img = sc.render()     # window z of the green quad: 0.2 > 0.1
    assert (img[..., 0] == 255).all()


def test_occlusion_counts_samples_passed_per_index():
    sp = Space()
    sc = Scene(sp, W, H, samples=4)
    sc.eot, _ = record_eot(sp, W, H, 4)
    sc.bg = zero_bg(sp)
    queries = sp.put(np.array([5, 0, 0], np.uint64))
    half = np.array([[-1, -1, 0, 1], [0, -1, 0, 1], [-1, 1, 0, 1], [0, 1, 0, 1]], np.float32)
    sc.draw(half, RED, primitive="TRIANGLE_STRIP", occlusion=dict(mode="COUNTING", index=0),
            zs=dict(depth_func="LESS", depth_write=True))
    sc.draw(quad(0.5), RED, primitive="TRIANGLE_STRIP", occlusion=dict(mode="COUNTING", index=1),
            zs=dict(depth_func="LESS", depth_write=True))
    sc.draw(quad(0.9), RED, primitive="TRIANGLE_STRIP", occlusion=dict(mode="BOOLEAN", index=2),
            zs=dict(depth_func="LESS", depth_write=True))
    sc.render(isp_oclqry_base=queries)
    # index 0 adds to 5; the second quad passes only on the right half; the third nowhere
    np.testing.assert_array_equal(sp.get(queries, 3, np.uint64), [5 + W * H * 4 // 2, W * H * 4 // 2, 0])


DERIV_FS = """
get_sr r4, pixel_x
get_sr r5, pixel_y
convert.f32.u32 r6, r4
convert.f32.u32 r7, r5
fmul r8, r6, r6
fmul r9, r8, r7
dfdx r10, r9
dfdy r11, r9
st_tile.i32 r10, 0, 1
stop
"""


def test_derivatives_come_from_2x2_quads_of_one_primitive():
    sp = Space()
    sc = Scene(sp, W, H)
    sc.bg = zero_bg(sp)
    sc.eot, buf = record_eot(sp, W, H)
    # a triangle covering part of the screen: quads at its edge have helper lanes
    sc.draw(np.array([[-1, -1, 0, 1], [1, -1, 0, 1], [-1, 1, 0, 1]], np.float32), DERIV_FS)
    sc.render()
    got = sp.get(buf, W * H, np.float32).reshape(H, W)
    y, x = np.mgrid[0:H, 0:W]
    x0, yq = x & ~1, y
    want = ((x0 + 1) ** 2 - x0 ** 2) * yq      # fine derivative of x*x*y across the quad's row
    covered = x + y < W - 1
    np.testing.assert_array_equal(got[covered], want[covered].astype(np.float32))


BLIT_BG = """
get_sr r4, pixel_x
get_sr r5, pixel_y
ushr r4, r4, 1
ushr r5, r5, 1
mov_imm r6, 0
texture_load.2d r8_r9_r10_r11, r4_r5, 0, r6, 0
wait 0
st_tile.unorm8 r8_r9_r10_r11, 0, 15
stop
"""


def test_blit_scales_a_linear_image_into_a_twiddled_one():
    sp = Space()
    src = Target(sp, 8, 8, "linear")
    pixels = np.random.default_rng(3).integers(0, 256, (8, 8, 4), dtype=np.uint8)
    import layout
    raw = np.zeros(src.lay.size_B, np.uint8)
    layout.tile(src.lay, raw, pixels, 0, 0, 0, 0, 8, 8)
    sp.mem.write(src.va, raw, "test")
    dst = Target(sp, 16, 16, "twiddled")
    bg = sp.usc(BLIT_BG, textures=src.desc)
    eot = sp.usc(pbe=[(0, dst.pbe)])
    cmd = command(sp, "blit", width_px=16, height_px=16, sample_size_B=4, bg={"usc": bg - BASE},
                  eot={"usc": eot - BASE})
    Executor().run_blit(cmd)
    np.testing.assert_array_equal(dst.pixels(), pixels.repeat(2, 0).repeat(2, 1))
    assert cmd.counters.snapshot()["tiles"] == 1


def test_counters_vertices_primitives_fragments_tiles():
    sp = Space()
    sc = Scene(sp, 64, 64)
    sc.draw(quad(0.0), RED, primitive="TRIANGLE_STRIP")
    sc.render(Executor(hsr=False))
    c = sc.last.counters.snapshot()
    assert c["vertices"] == 4 and c["primitives"] == 2 and c["tiles"] == 4 and c["fragments"] == 64 * 64


def _faulting(sp, where):
    sc = Scene(sp, W, H)
    fs = RED
    if where == "USC":
        fs = "mov_imm r4, 0\n" + "device_load.i32 r5, u0_u1, r4, 2, 0\nwait 0\n" + RED
        sc.draw(quad(0), fs, primitive="TRIANGLE_STRIP", fs_uniforms=u64_uniforms(0xBAD_0000))
    else:
        sc.draw(quad(0), fs, primitive="TRIANGLE_STRIP")
    if where == "PBE":
        bad = Target(sp, W, H)
        bad.pbe = P.pack("PBE", format_id=0, width_px=W, height_px=H, address=0xBAD_0000, linear_stride_B=64)
        sc.eot = sp.usc(pbe=[(0, P.pack("PBE", tiling="LINEAR", format_id=P.unpack("TEXTURE", sc.target.desc).format_id,
                                           width_px=W, height_px=H, address=0xBAD_0000, linear_stride_B=64))])
    return sc


@pytest.mark.parametrize("where", ["USC", "PBE"])
def test_fragment_faults_name_their_unit(where):
    sp = Space()
    sc = _faulting(sp, where)
    ex = Executor()
    cmd = sc.command()
    ex.run_vertex(cmd)
    with pytest.raises(GPUFault) as info:
        ex.run_fragment(cmd)
    assert info.value.info.unit == where and info.value.info.address == 0xBAD_0000
    assert cmd.faults[-1] == info.value.info
    # the executor keeps working: a good command after it renders
    good = Scene(sp, W, H)
    good.draw(quad(0), GREEN, primitive="TRIANGLE_STRIP")
    assert (good.render(ex)[..., 1] == 255).all()


def test_pipeline_statistics_are_added_in_memory():
    sp = Space()
    sc = Scene(sp, W, H)
    stats = sp.put(np.array([1, 2, 3, 4, 5, 6], np.uint64))
    sc.draw(quad(0.0), RED, primitive="TRIANGLE_STRIP", instances=2)
    # the second draw: one triangle wholly clipped away (behind the far plane)
    sc.blocks.insert(0, P.pack("VDM_STATE", statistics=dict(counters=stats)))
    far = np.array([[-1, -1, 2, 1], [1, -1, 2, 1], [-1, 1, 2, 1]], np.float32)
    sc.draw(far, RED)
    sc.render(Executor(hsr=False))
    # 4 vertices x 2 instances + 3; 2 x 2 + 1 primitives; 8 + 3 shaded vertices;
    # clipper: 5 in, 4 out; fragments: the quad twice (same pixels, both shaded)
    np.testing.assert_array_equal(sp.get(stats, 6, np.uint64) - np.arange(1, 7),
                                  [11, 5, 11, 5, 4, 2 * W * H])


HALF_BLEND = """
ld_tile.unorm8 r8_r9_r10_r11, 0
mov r12, u0
mov r13, u1
mov r14, u2
fmul r12, r12, 0.5
fma r12, r8, 0.5, r12
fmul r13, r13, 0.5
fma r13, r9, 0.5, r13
fmul r14, r14, 0.5
fma r14, r10, 0.5, r14
mov_imm r15, 0x3f800000
st_tile.unorm8 r12_r13_r14_r15, 0, 15
stop
"""


def test_blending_follows_primitive_order_per_pixel():
    sp = Space()
    sc = Scene(sp, W, H, clear=(0, 0, 0, 1))
    colours = [(1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)]
    for c in colours:                # three full-screen quads, two triangles each, in one draw each
        u = np.zeros(256, np.uint32)
        u[:3] = np.array(c, np.float32).view(np.uint32)
        sc.draw(quad(0.0), HALF_BLEND, primitive="TRIANGLE_STRIP", fs_uniforms=u)
    img = sc.render().astype(int)
    # unorm8 after each step: r = 255*.5 -> 128, then 64, then 32; g: 128 then 64; b: 128
    expected = np.array([32, 64, 128, 255])
    assert (np.abs(img - expected) <= 1).all()


POINT_COORD_FS = "iter.linear.center r4_r5, cf1\nmov_imm r6, 0\nmov_imm r7, 0x3f800000\n" \
                 "st_tile.unorm8 r4_r5_r6_r7, 0, 15\nstop"


@pytest.mark.parametrize("lower_left", [False, True])
def test_point_sprite_coordinates(lower_left):
    sp = Space()
    sc = Scene(sp, W, H)
    c = np.array([8.0, 8.0]) / W * 2 - 1
    sc.draw(np.array([[c[0], c[1], 0, 1]], np.float32), POINT_COORD_FS, primitive="POINTS",
            raster=dict(point_size_px=4.0, point_sprite=True, point_sprite_lower_left=lower_left),
            cf_bindings=[dict(base_cf=1, components=2, source="POINT_COORD", shade_model="LINEAR")])
    img = sc.render().astype(float) / 255
    s = (np.arange(6, 10) - 6 + 0.5) / 4
    np.testing.assert_allclose(img[6:10, 6:10, 0], np.tile(s, (4, 1)), atol=1 / 255)
    t = s if lower_left else 1 - s
    np.testing.assert_allclose(img[6:10, 6:10, 1], np.tile(t[:, None], (1, 4)), atol=1 / 255)


def test_vertex_half_faults_name_their_unit():
    sp = Space()
    sc = Scene(sp, W, H)
    sc.draw(quad(0.0), RED, primitive="TRIANGLE_STRIP", indices=[0, 1, 2, 3])
    # the index buffer of the draw points nowhere
    blocks = sc.blocks[:-1] + [P.pack("VDM_INDEX_LIST", primitive="TRIANGLE_STRIP", indexed=True,
                                      index_size="U16", index_buffer=0xBAD_0000, index_buffer_size_B=8, count=4)]
    sc.blocks = blocks
    ex = Executor()
    cmd = sc.command()
    with pytest.raises(GPUFault) as info:
        ex.run_vertex(cmd)
    assert info.value.info.unit == "VDM" and info.value.info.address == 0xBAD_0000 and info.value.info.is_read


def test_background_program_skipped_only_when_every_record_is_overwritten(monkeypatch):
    """A pass whose uniform program covers and writes every record hides the
    background program: it is not run (same image as running it). It runs when the
    draw leaves pixels uncovered, or when the program has effects beyond the tile."""
    from drmshim.gpu.pipeline import render
    ran = []
    original = render._run_tile_program

    def counting(*a, **kw):
        ran.append(a[2])
        return original(*a, **kw)
    monkeypatch.setattr(render, "_run_tile_program", counting)

    def scene(vertices):
        sc = Scene(Space(), W, H, clear=(0, 0, 1, 1))
        sc.draw(vertices, RED, primitive="TRIANGLE_STRIP")
        return sc

    img = scene(quad(0)).render()
    assert len(ran) == 1 and (img[..., 0] == 255).all()        # the end-of-tile program only
    with monkeypatch.context() as m:
        m.setattr(render, "_tile_only", lambda *a: False)
        ran.clear()
        assert np.array_equal(scene(quad(0)).render(), img) and len(ran) == 2

    ran.clear()
    img = scene(quad(0) * np.array([0.5, 1, 1, 1], np.float32)).render()   # the middle half of the columns
    assert len(ran) == 2 and (img[:, 0, 2] == 255).all() and (img[:, W // 2, 0] == 255).all()

    sp = Space()
    sc = Scene(sp, W, H)
    addr = sp.alloc(4)
    sc.bg = sp.usc("mov_imm r4, 7\nmov_imm r5, 0\ndevice_store.i32 r4, u0_u1, r5, 0, 0\nwait 0\nstop",
                   uniforms=u64_uniforms(addr))
    sc.draw(quad(0), RED, primitive="TRIANGLE_STRIP")
    ran.clear()
    assert (sc.render()[..., 0] == 255).all()
    assert len(ran) == 2 and sp.get(addr, 4, np.uint32)[0] == 7


@pytest.mark.parametrize("fs, hidden", [("opaque", True), ("blend", False)])
@pytest.mark.parametrize("samples", [1, 4])
def test_background_hidden_by_shaded_records_of_every_sample(fs, hidden, samples, monkeypatch):
    """Under HSR, a pass shading every sample with programs that write whole records
    hides the background (not run, same image as running it); blending reads the
    records (in order), so the background runs."""
    from drmshim.gpu.pipeline import render
    from .test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS
    rng = np.random.default_rng(2)
    xy = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    verts = np.concatenate([xy, np.zeros((4, 1)), np.ones((4, 1)), rng.uniform(0, 1, (4, 4))], 1).astype(np.float32)
    ran = []
    original = render._run_tile_program
    monkeypatch.setattr(render, "_run_tile_program", lambda *a, **kw: ran.append(a[2]) or original(*a, **kw))
    images = []
    for force in (False, True):
        with monkeypatch.context() as m:
            if force:
                m.setattr(render, "_tile_only", lambda *a: False)
            sc = Scene(Space(), W, H, samples=samples, clear=(0, 0, 1, 0.5))
            sc.draw(verts, OPAQUE_FS if fs == "opaque" else BLEND_FS, varyings=4, cf_bindings=BINDINGS,
                    primitive="TRIANGLE_STRIP")
            ran.clear()
            images.append(sc.render(Executor(hsr=True)))
            assert len(ran) == (2 if force or not hidden else 1)
    np.testing.assert_array_equal(images[0], images[1])


def test_dense_ranks_equal_unique():
    """The quads' ranking through a presence table gives np.unique's inverse and count,
    for dense keys (big primitives) and sparse ones (the sort)."""
    from drmshim.gpu.pipeline import fragment as F
    rng = np.random.default_rng(4)
    for key in (rng.integers(1000, 3000, 5000), rng.integers(0, 1 << 40, 3000), np.array([7]),
                np.repeat(np.arange(50, 90), 3)[::-1], np.zeros(0, np.int64)):
        key = key.astype(np.int64)
        rank, count = F._dense_ranks(key)
        distinct, inverse = np.unique(key, return_inverse=True)
        assert count == len(distinct) and np.array_equal(rank, inverse.reshape(-1))



def _counting_red(counter_halves: str) -> str:
    """RED, after adding 1 to the uint32 at ``counter_halves`` (an atomic: a side effect)."""
    return f"mov_imm r12, 1\natomic.add r13, {counter_halves}, 0, r12, 0, 0\nwait 0\n" + RED


@pytest.mark.parametrize("early_z, runs", [(False, W * H), (True, 0)])
def test_early_z_bit_decides_whether_occluded_fragments_run_their_side_effects(early_z, runs):
    """A fragment program that writes memory, behind a nearer quad: without early_z
    (USC_FRAGMENT) depth is tested after the program, so every fragment adds to the
    counter (and none shows); with it, occluded fragments never run (GL's
    early_fragment_tests). The image is the green quad's either way."""
    sp = Space()
    sc = Scene(sp, W, H)
    counter = sp.alloc(4)
    sp.mem.write(counter, np.zeros(4, np.uint8), "test")
    sc.draw(quad(-0.5), GREEN, primitive="TRIANGLE_STRIP", zs=dict(depth_func="LESS", depth_write=True))
    sc.draw(quad(0.5), _counting_red("u0_u1"), primitive="TRIANGLE_STRIP",
            zs=dict(depth_func="LESS", depth_write=True), fragment=dict(early_z=early_z),
            fs_uniforms=u64_uniforms(counter))
    img = sc.render()
    assert (img[..., 1] == 255).all() and (img[..., 0] == 0).all()
    assert sp.get(counter, 4, np.uint32)[0] == runs
