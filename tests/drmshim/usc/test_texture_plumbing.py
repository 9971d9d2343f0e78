"""The core's side of texture and image instructions, against a fake texture unit
(the real one is tested in tests/drmshim/texture): coordinates, LOD modes,
quad derivatives, comparison, offsets, gather, descriptor addresses, results."""

from types import SimpleNamespace

import numpy as np
import pytest

from drmshim.gpu.usc import ExecContext, tex
from uapi.packets import SAMPLER_DESC_B, TEXTURE_DESC_B

from .helpers import f16, f32, run

TEX_HEAP, SAMP_HEAP = 0x5000_0000, 0x6000_0000


@pytest.fixture
def fake(monkeypatch):
    calls = []

    def sample(mem, tex_va, samp_va, coords, **kw):
        calls.append(("sample", tex_va, samp_va, coords.copy(), kw))
        n = coords.shape[0]
        return np.stack([coords[:, 0], coords[:, 1] if coords.shape[1] > 1 else np.zeros(n, np.float32),
                         np.full(n, 0.5, np.float32), np.ones(n, np.float32)], -1)

    def load(mem, tex_va, coords, lod, sample=None):
        calls.append(("load", tex_va, coords.copy(), lod.copy(), sample))
        return np.stack([coords[:, 0], coords[:, 1], lod, np.full(coords.shape[0], -1, np.int32)], -1).astype(np.int32)

    def size(mem, tex_va, lod):
        calls.append(("size", tex_va, lod.copy()))
        return np.stack([64 >> lod, 32 >> lod, np.ones_like(lod)], -1).astype(np.int32)

    def image_load(mem, tex_va, coords):
        calls.append(("image_load", tex_va, coords.copy()))
        return np.tile(np.array([1.0, 2.0, 3.0, 4.0], np.float32), (coords.shape[0], 1))

    def image_store(mem, tex_va, coords, values):
        calls.append(("image_store", tex_va, coords.copy(), values.copy()))

    def image_atomic(mem, tex_va, coords, op, value, compare=None):
        calls.append(("image_atomic", tex_va, coords.copy(), op, value.copy(), compare))
        return np.arange(coords.shape[0], dtype=np.uint32) + 1000

    def levels(mem, tex_va, n):
        calls.append(("levels", tex_va, n))
        return np.full(n, 9, np.int32)

    def samples(mem, tex_va, n):
        calls.append(("samples", tex_va, n))
        return np.full(n, 4, np.int32)

    unit = SimpleNamespace(sample=sample, load=load, size=size, image_load=image_load, image_store=image_store,
                           image_atomic=image_atomic, levels=levels, samples=samples)
    monkeypatch.setattr(tex, "texture_unit", lambda: unit)
    return calls


def frag_ctx(n_quads=2):
    lanes = 4 * n_quads
    return ExecContext(lanes=lanes, quads=True, texture_heap_va=TEX_HEAP, sampler_heap_va=SAMP_HEAP)


def quad_coords(n_quads=2):
    sub = np.arange(4 * n_quads) % 4
    u = (sub % 2) * 0.25 + np.repeat(np.arange(n_quads), 4) * 0.5
    v = (sub // 2) * 0.125
    return u.astype(np.float32), v.astype(np.float32)


def test_implicit_lod_passes_whole_quads_or_exact_quad_derivatives(fake):
    """With every lane active the unit gets whole quads and derives the LOD itself;
    with some lanes inactive (not whole quads) the core passes each active lane's
    exact quad derivatives."""
    u, v = quad_coords()
    out = run("texture_sample.2d.auto r4_r5_r6_r7, r0_r1, 3, 2, 0\nwait 0", ctx=frag_ctx(), inputs={0: u, 1: v})
    (kind, tex_va, samp_va, coords, kw), = fake
    assert tex_va == TEX_HEAP + 3 * TEXTURE_DESC_B and samp_va == SAMP_HEAP + 2 * SAMPLER_DESC_B
    assert np.array_equal(coords, np.stack([u, v], -1))
    assert not kw
    assert np.array_equal(f32(out, 4), u) and np.array_equal(f32(out, 6), np.full(8, 0.5, np.float32))
    fake.clear()
    run("""
        mov_imm r0l, 0
        if_icmp.ne r9, 0, 1
          texture_sample.2d.auto r4_r5_r6_r7, r2_r3, 3, 2, 0
          wait 0
        pop_exec 1
    """, ctx=frag_ctx(), inputs={2: u, 3: v, 9: np.arange(8) % 3})
    (_, _, _, coords, kw), = fake
    active = np.arange(8) % 3 != 0
    assert np.array_equal(coords, np.stack([u, v], -1)[active])
    assert np.array_equal(kw["ddx"], np.tile([0.25, 0.0], (active.sum(), 1)).astype(np.float32))
    assert np.array_equal(kw["ddy"], np.tile([0.0, 0.125], (active.sum(), 1)).astype(np.float32))
    assert "lod" not in kw and "bias" not in kw


def test_implicit_lod_of_whole_quads_equals_explicit_quad_derivatives():
    """The real unit: whole quads (the unit's own quad LOD) and the same lanes with
    their quad derivatives passed explicitly sample alike, bit for bit."""
    from drmshim.gpu import texture
    from tests.drmshim.texture.texenv import BASE, mip_chain, new_memory, put_sampler, put_texture
    DESC_VA, SAMP_VA = BASE + 0x4000, BASE + 0x4100   # the program sits at BASE
    rng = np.random.default_rng(4)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 64, 32), pack_values=False, desc_va=DESC_VA)
    put_sampler(mem, va=SAMP_VA, mip_filter="LINEAR", min_filter="LINEAR", mag_filter="LINEAR",
                wrap_t="MIRRORED_REPEAT")
    n_quads = 256
    corner = np.repeat(rng.uniform(-2, 3, (n_quads, 2)), 4, axis=0)
    step = np.repeat(rng.uniform(0.001, 0.2, (n_quads, 1)), 4, axis=0) * np.tile([[0, 0], [1, 0], [0, 1], [1, 1]],
                                                                               (n_quads, 1))
    st = (corner + step * rng.uniform(0.5, 1.5, (4 * n_quads, 2))).astype(np.float32)
    ctx = ExecContext(lanes=4 * n_quads, quads=True, texture_heap_va=DESC_VA, sampler_heap_va=SAMP_VA)
    out = run("texture_sample.2d.auto r4_r5_r6_r7, r0_r1, 0, 0, 0\nwait 0", ctx=ctx, mem=mem,
              inputs={0: st[:, 0], 1: st[:, 1]})
    from uapi.isa.semantics import quad_dfdx, quad_dfdy
    ddx = np.stack([quad_dfdx(st[:, 0]), quad_dfdx(st[:, 1])], -1)
    ddy = np.stack([quad_dfdy(st[:, 0]), quad_dfdy(st[:, 1])], -1)
    explicit = texture.sample(mem, DESC_VA, SAMP_VA, st, ddx=ddx, ddy=ddy)
    np.testing.assert_array_equal(np.stack([f32(out, 4 + c) for c in range(4)], -1), explicit)


def test_bias_lod_grad_compare_offset_gather(fake):
    u, v = quad_coords()
    inputs = {0: u, 1: v, 2: np.full(8, 1.5, np.float32), 3: np.full(8, 0.75, np.float32),
              8: np.full(8, 0.1, np.float32), 9: np.full(8, 0.2, np.float32), 10: np.full(8, 0.3, np.float32),
              11: np.full(8, 0.4, np.float32), 12: np.full(8, (3 | (0xF << 4)), np.uint32)}
    run("""
        texture_sample.2d.bias r4, r0_r1, 0, 0, r2, 0
        texture_sample.2d.lod.compare r5, r0_r1, 0, 0, r2, r3, 0
        texture_sample.2d.grad.offset r6, r0_r1, 0, 0, r8_r9_r10_r11, r12, 0
        texture_sample.2d.auto.gather r7, r0_r1, 0, 0, 2, 0
        wait 0
    """, ctx=frag_ctx(), inputs=inputs)
    bias, lod, grad, gather = (c[4] for c in fake)
    assert np.array_equal(bias["bias"], np.full(8, 1.5, np.float32)) and "ddx" not in bias  # whole quads
    assert np.array_equal(lod["lod"], np.full(8, 1.5, np.float32))
    assert np.array_equal(lod["compare"], np.full(8, 0.75, np.float32)) and "ddx" not in lod
    assert np.array_equal(grad["ddx"], np.tile([0.1, 0.2], (8, 1)).astype(np.float32))
    assert np.array_equal(grad["ddy"], np.tile([0.3, 0.4], (8, 1)).astype(np.float32))
    assert np.array_equal(grad["offset"], np.tile([3, -1], (8, 1)))
    assert gather["gather_component"] == 2


def test_only_active_lanes_sample_and_per_lane_descriptors(fake):
    u, v = quad_coords()
    ctx = frag_ctx()
    out = run("""
        mov_imm r0l, 0
        if_icmp.ult r9, 4, 1
          texture_sample.2d.lod r4_r5, r0_r1, r9, 1, 0.0, 0
          wait 0
        pop_exec 1
    """, ctx=ctx, inputs={0: u, 1: v, 9: np.arange(8, dtype=np.uint32)})
    (_, tex_va, samp_va, coords, kw), = fake
    assert list(tex_va) == [TEX_HEAP + TEXTURE_DESC_B * i for i in range(4)] and samp_va == SAMP_HEAP + SAMPLER_DESC_B
    assert coords.shape == (4, 2)
    assert np.array_equal(f32(out, 4)[:4], u[:4]) and not f32(out, 4)[4:].any()


def test_vertex_stage_sampling_uses_level_zero(fake):
    run("texture_sample.2d.auto r4, r0_r1, 0, 0, 0\nwait 0", lanes=3, texture_heap_va=TEX_HEAP)
    assert np.array_equal(fake[0][4]["lod"], np.zeros(3, np.float32))


def test_texel_fetch_size_and_16bit_results(fake):
    coords = np.arange(6, dtype=np.int32)
    out = run("""
        texture_load.2d r4_r5_r6_r7, r0_r1, 1, r2, 0
        texture_load.2d_ms.ms r8_r9, r0_r1, 1, 0, 3, 0
        texture_size r10_r11_r12, 2, 1
        texture_sample.2d.lod r13l_r13h, r0_r1, 0, 0, 0.0, 0
        wait 0
    """, lanes=6, inputs={0: coords, 1: coords * 10, 2: np.full(6, 2, np.int32)}, texture_heap_va=TEX_HEAP)
    assert np.array_equal(out.registers[4], coords) and np.array_equal(out.registers[5], coords * 10)
    assert set(out.registers[6]) == {2} and set(out.registers[7]) == {0xFFFFFFFF}
    assert np.array_equal(fake[1][4], np.full(6, 3))
    assert set(out.registers[10]) == {32} and set(out.registers[11]) == {16} and set(out.registers[12]) == {1}
    assert fake[2][1] == TEX_HEAP + 2 * TEXTURE_DESC_B
    assert np.array_equal(f16(out, 13).astype(np.float32), coords.view(np.float32).astype(np.float16))


def test_texture_queries(fake):
    out = run("""
        texture_query.levels r1, 3
        mov_imm r0l, 0
        if_icmp.ult r5, 2, 1
          texture_query.samples r2l, r5
        pop_exec 1
    """, lanes=4, inputs={5: np.arange(4, dtype=np.uint32)}, texture_heap_va=TEX_HEAP)
    assert list(out.registers[1]) == [9] * 4
    assert list(out.registers[2] & 0xFFFF) == [4, 4, 0, 0]
    assert fake[0] == ("levels", TEX_HEAP + 3 * TEXTURE_DESC_B, 4)
    assert list(fake[1][1]) == [TEX_HEAP, TEX_HEAP + TEXTURE_DESC_B] and fake[1][2] == 2


def test_image_load_store_atomic(fake):
    coords = np.arange(4, dtype=np.int32)
    out = run("""
        image_load.2d r4_r5_r6_r7, r0_r1, 0, 0
        wait 0
        image_write.2d r4_r5_r6_r7, r0_r1, 1, 0
        image_atomic.cmpxchg.2d r8, r0_r1, 1, r2, r3, 0
        wait 0
    """, lanes=4, inputs={0: coords, 1: coords, 2: np.full(4, 7, np.uint32), 3: np.full(4, 9, np.uint32)},
        texture_heap_va=TEX_HEAP)
    assert np.array_equal(f32(out, 5), np.full(4, 2.0, np.float32))
    _, va, c, values = fake[1]
    assert va == TEX_HEAP + TEXTURE_DESC_B and np.array_equal(values.view(np.float32)[0], [1, 2, 3, 4])
    kind, va, c, op, value, compare = fake[2]
    assert op == "cmpxchg" and list(value) == [7] * 4 and list(compare) == [9] * 4
    assert list(out.registers[8]) == [1000, 1001, 1002, 1003]


def test_with_the_real_texture_unit():
    """End to end: descriptors in GPU memory, the real drmshim.gpu.texture, nearest
    sampling at texel centres and texel fetch return the texels."""
    import layout
    from drmshim.gpu import texture
    from uapi import packets as P

    from .helpers import new_memory
    mem = new_memory()
    base = mem.base + 0x20000
    side = 8
    texels = np.random.default_rng(1).integers(0, 256, (side, side, 4), dtype=np.uint8)
    lay = layout.make_miptree(side, side, 1, 1, "R8G8B8A8_UNORM", 1, "twiddled")
    buf = np.zeros(lay.size_B, np.uint8)
    layout.tile(lay, buf, texels, 0, 0, 0, 0, side, side)
    mem.write(base + 0x1000, buf, "t")
    mem.write(base, P.pack(P.TEXTURE, format_id=texture.format_id("R8G8B8A8_UNORM"), tiling="TWIDDLED",
                           width_px=side, height_px=side, levels=1, last_level=0, address=base + 0x1000,
                           layer_stride_B=lay.layer_stride_B), "t")
    mem.write(base + 0x800, P.pack(P.SAMPLER, min_filter="NEAREST", mag_filter="NEAREST", mip_filter="NONE"), "t")
    x, y = np.meshgrid(np.arange(side), np.arange(side))
    x, y = x.reshape(-1), y.reshape(-1)
    out = run("""
        texture_sample.2d.lod r4_r5_r6_r7, r0_r1, 0, 0, 0.0, 0
        texture_load.2d r8_r9_r10_r11, r2_r3, 0, 0, 1
        texture_query.levels r12, 0
        texture_size r13_r14, 0, 0
        wait 0
        wait 1
    """, mem=mem, lanes=x.size, texture_heap_va=base, sampler_heap_va=base + 0x800,
        inputs={0: ((x + 0.5) / side).astype(np.float32), 1: ((y + 0.5) / side).astype(np.float32),
                2: x.astype(np.int32), 3: y.astype(np.int32)})
    expected = texels[y, x] / 255.0
    assert set(out.registers[12]) == {1} and set(out.registers[13]) == {side} and set(out.registers[14]) == {side}
    for c in range(4):
        np.testing.assert_allclose(f32(out, 4 + c), expected[:, c], atol=1e-6)
        np.testing.assert_allclose(f32(out, 8 + c), expected[:, c], atol=1e-6)


@pytest.mark.parametrize("form", ["auto", "bias", "lod", "auto_no_quads", "two_components"])
def test_row_form_of_the_real_unit_equals_the_sample_call(monkeypatch, form):
    """With every lane active the core hands the real unit's C path the coordinate and
    destination rows (``texture.sample_rows``); the registers are the ones the
    ``sample`` call gives, bit for bit, and the row form was taken."""
    from drmshim.gpu import texture
    from drmshim.gpu.texture import native
    from tests.drmshim.texture.texenv import BASE, mip_chain, new_memory, put_sampler, put_texture
    if not native.available():
        pytest.skip("no C compiler: the texture unit's kernels cannot be built")
    DESC_VA, SAMP_VA = BASE + 0x4000, BASE + 0x4100
    rng = np.random.default_rng(5)
    mem = new_memory()
    put_texture(mem, mip_chain(rng, 64, 64), pack_values=False, desc_va=DESC_VA)
    put_sampler(mem, va=SAMP_VA, mip_filter="LINEAR", min_filter="LINEAR", mag_filter="LINEAR", wrap_s="REPEAT",
                wrap_t="MIRRORED_REPEAT")
    n_quads = 1024
    corner = np.repeat(rng.uniform(-2, 3, (n_quads, 2)), 4, axis=0)
    step = np.repeat(rng.uniform(0.002, 0.2, (n_quads, 1)), 4, axis=0) * np.tile([[0, 0], [1, 0], [0, 1], [1, 1]],
                                                                                (n_quads, 1))
    st = (corner + step).astype(np.float32)
    lod = rng.uniform(-1, 5, 4 * n_quads).astype(np.float32)
    asm = {"auto": "texture_sample.2d.auto r4_r5_r6_r7, r0_r1, 0, 0, 0",
           "auto_no_quads": "texture_sample.2d.auto r4_r5_r6_r7, r0_r1, 0, 0, 0",
           "bias": "texture_sample.2d.bias r4_r5_r6_r7, r0_r1, 0, 0, r2, 0",
           "lod": "texture_sample.2d.lod r4_r5_r6_r7, r0_r1, 0, 0, r2, 0",
           "two_components": "texture_sample.2d.auto r4_r5, r0_r1, 0, 0, 0"}[form] + "\nwait 0"
    monkeypatch.setattr(native, "MIN_LANES", 1)
    taken = []
    real = texture.sample_rows
    monkeypatch.setattr(texture, "sample_rows", lambda *a, **k: taken.append(real(*a, **k)) or taken[-1])

    def registers():
        ctx = ExecContext(lanes=4 * n_quads, quads=form != "auto_no_quads", texture_heap_va=DESC_VA,
                          sampler_heap_va=SAMP_VA)
        out = run(asm, ctx=ctx, mem=mem, inputs={0: st[:, 0], 1: st[:, 1], 2: lod})
        return np.stack([f32(out, 4 + c) for c in range(2 if form == "two_components" else 4)], -1)
    rows = registers()
    assert taken and all(taken)
    monkeypatch.delattr(texture, "sample_rows")
    np.testing.assert_array_equal(rows.view(np.uint32), registers().view(np.uint32))


def test_descriptor_index_from_uniform_registers(fake):
    """A texture or sampler index in a uniform register (32- or 16-bit) or an
    immediate is one address for the whole batch: the index's value times the
    descriptor size past the heap."""
    u = np.zeros(8, np.uint32)
    u[2] = 5
    u[3] = 7 | (3 << 16)                     # u3l = 7 (the index), u3h = 3 (not read)
    run("""
        texture_sample.2d.lod r4, r0_r1, u2, u3l, 0.0, 0
        texture_sample.2d.lod r5, r0_r1, 6, 2, 0.0, 0
        wait 0
    """, lanes=4, uniforms=u, texture_heap_va=TEX_HEAP, sampler_heap_va=SAMP_HEAP)
    assert [(c[1], c[2]) for c in fake] == [(TEX_HEAP + 5 * TEXTURE_DESC_B, SAMP_HEAP + 7 * SAMPLER_DESC_B),
                                            (TEX_HEAP + 6 * TEXTURE_DESC_B, SAMP_HEAP + 2 * SAMPLER_DESC_B)]


def test_uniform_reader_gives_raw_readers_value():
    from drmshim.gpu.usc.state import Batch, raw_reader, uniform_reader
    from uapi.isa import Imm, Reg
    u = np.array([0xDEADBEEF, 0x12345678, 0x9ABC, 0], np.uint32)
    b = SimpleNamespace(uni32=u, uni16=u.view(np.uint16), n=3, _consts={})
    b.const = lambda v, key=None: Batch.const(b, v, key)
    for src in (Imm(0x7F), Reg("u", 0, 32), Reg("u", 3, 16), Reg("u", 0, 64), Reg("u", 2, 32)):
        for size in (16, 32, 64):
            want = raw_reader(src, size)(b)
            got = uniform_reader(src, size)(b)
            assert got.dtype == want.dtype and np.all(want == got), (src, size)
