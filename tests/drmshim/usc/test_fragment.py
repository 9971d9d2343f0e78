"""Varyings (st_var, iter, ldcf) and fragment outputs (tile buffer, zs_emit,
sample_mask, discard with helper lanes)."""

import numpy as np

from drmshim.gpu.usc import ExecContext

from .helpers import f16, f32, run

RNG = np.random.default_rng(3)


def test_st_var_writes_vertex_outputs_for_active_lanes():
    x = np.arange(6, dtype=np.float32)
    ctx = run("""
        fmul r1, r0, 2.0
        st_var 0, r0
        st_var 5, r1
        mov_imm r0l, 0
        if_icmp.ult r2, 3, 1
          st_var 6, r2
        pop_exec 1
    """, lanes=6, inputs={0: x, 2: np.arange(6, dtype=np.uint32)})
    assert np.array_equal(ctx.varyings[0].view(np.float32), x)
    assert np.array_equal(ctx.varyings[5].view(np.float32), 2 * x)
    assert list(ctx.varyings[6]) == [0, 1, 2, 0, 0, 0]


def fragment_context(n_quads=16, **kw):
    lanes = 4 * n_quads
    # quads along a row of pixels: quad q covers pixels (2q..2q+1, 0..1)
    q, sub = np.arange(lanes) // 4, np.arange(lanes) % 4
    px = 2 * q + sub % 2
    py = sub // 2
    pos = np.stack([px + 0.5, py + 0.5]).astype(np.float32)
    return ExecContext(lanes=lanes, quads=True, position_px=pos, **kw), px, py


def test_iter_linear_perspective_and_flat():
    n_cf = 6
    ctx, px, py = fragment_context()
    coeff = RNG.uniform(-2, 2, (n_cf, 3)).astype(np.float32)
    coeff[0] = [0.01, 0.02, 0.5]  # cf0: the 1/w plane (positive over the tile)
    ctx.coefficients = np.repeat(coeff[:, :, None], ctx.lanes, axis=2)
    out = run("""
        iter.linear.center r1_r2, cf2
        iter.persp.center r3_r4_r5, cf1, cf0
        ldcf r6, cf4
        iter.persp.center r7l_r7h, cf1, cf0
    """, ctx=ctx)
    x, y = px + 0.5, py + 0.5
    plane = lambda k: coeff[k, 0] * x + coeff[k, 1] * y + coeff[k, 2]
    np.testing.assert_allclose(f32(out, 1), plane(2), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(f32(out, 2), plane(3), rtol=1e-6, atol=1e-6)
    for i in range(3):
        np.testing.assert_allclose(f32(out, 3 + i), plane(1 + i) / plane(0), rtol=1e-5, atol=1e-6)
    assert np.array_equal(f32(out, 6), np.full(ctx.lanes, coeff[4, 2]))
    np.testing.assert_allclose(f16(out, 7).astype(np.float32), plane(1) / plane(0), rtol=2e-3, atol=1e-3)
    np.testing.assert_allclose(f16(out, 7, high=True).astype(np.float32), plane(2) / plane(0), rtol=2e-3, atol=1e-3)


def test_iter_per_primitive_planes_and_sample_centroid_positions():
    ctx, px, py = fragment_context()
    planes = np.array([[[0, 0, 1], [1, 0, 0]], [[0, 0, 1], [0, 1, 0]]], np.float32)  # 2 prims, cf0 = 1, cf1 = x or y
    prim = (np.arange(ctx.lanes) // 8 % 2).astype(np.int64)
    ctx.cf_planes, ctx.primitive_index = planes, prim
    ctx.sample_position_px = ctx.position_px + np.float32(0.25)
    ctx.centroid_position_px = ctx.position_px - np.float32(0.125)
    out = run("""
        iter.linear.center r1, cf1
        iter.linear.sample r2, cf1
        iter.persp.centroid r3, cf1, cf0
    """, ctx=ctx)
    centre = np.where(prim == 0, px + 0.5, py + 0.5)
    assert np.array_equal(f32(out, 1), centre.astype(np.float32))
    assert np.array_equal(f32(out, 2), (centre + 0.25).astype(np.float32))
    assert np.array_equal(f32(out, 3), (centre - 0.125).astype(np.float32))


def test_iter_at_sample_and_at_offset():
    ctx, px, py = fragment_context(n_quads=2)
    planes = np.zeros((3, 3, ctx.lanes), np.float32)
    planes[0, 2] = 1.0                       # cf0: 1/w = 1
    planes[1, 0], planes[2, 1] = 1.0, 1.0    # cf1 = x, cf2 = y
    ctx.coefficients = planes
    ctx.sample_offsets_px = np.array([[0.375, 0.125], [0.875, 0.375], [0.125, 0.625], [0.625, 0.875]], np.float32)
    offs = np.array([0.25, -0.5], np.float16).view(np.uint16)
    out = run("""
        iter.persp.at_sample r1_r2, cf1, cf0, r9
        iter.linear.at_offset r3_r4, cf1, r10
    """, ctx=ctx, inputs={9: np.arange(8, dtype=np.uint32) % 4,
                          10: np.full(8, int(offs[0]) | int(offs[1]) << 16, np.uint32)})
    sample = np.arange(8) % 4
    assert np.array_equal(f32(out, 1), (px + ctx.sample_offsets_px[sample, 0]).astype(np.float32))
    assert np.array_equal(f32(out, 2), (py + ctx.sample_offsets_px[sample, 1]).astype(np.float32))
    assert np.array_equal(f32(out, 3), (px + 0.75).astype(np.float32))
    assert np.array_equal(f32(out, 4), (py + 0.0).astype(np.float32))


def test_tile_buffer_load_blend_store_with_write_mask():
    """The shader-side blend of AGX: ld_tile, mix, st_tile (alpha untouched by the mask)."""
    ctx, px, py = fragment_context(n_quads=4)
    tile = RNG.integers(0, 256, (ctx.lanes, 8), dtype=np.uint8)
    before = tile.copy()
    ctx.tile_buffer, ctx.tile_index = tile, np.arange(ctx.lanes)[::-1].copy()
    src = np.full(ctx.lanes, 1.0, np.float32)
    run("""
        ld_tile.unorm8 r4_r5_r6_r7, 0
        fmul r8, r4, 0.5
        fadd r8, r8, 0.5
        fmul r9, r5, 0.5
        fmul r10, r6, 0.5
        st_tile.unorm8 r8_r9_r10_r11, 0, 7
        st_tile.i32 r1, 4, 1
    """, ctx=ctx, inputs={1: src})
    rec = ctx.tile_index
    f = np.float32   # float32 like the ISA (a float64 reference disagrees on rounding ties)
    dst = before[rec, :4].astype(f) / f(255)
    expected = np.rint(np.clip(np.stack([dst[:, 0] * f(0.5) + f(0.5), dst[:, 1] * f(0.5), dst[:, 2] * f(0.5)], -1),
                               0, 1) * f(255))
    assert np.array_equal(tile[rec, :3], expected.astype(np.uint8))
    assert np.array_equal(tile[rec, 3], before[rec, 3])            # masked-out alpha kept
    assert np.array_equal(tile[rec, 4:8].copy().view(np.float32)[:, 0], src)


def test_zs_emit_sample_mask_and_discard_with_helpers():
    helper = np.zeros(8, bool)
    helper[3] = True
    ctx, _, _ = fragment_context(n_quads=2, helper=helper, specials={"coverage_mask": 0xF})
    tile = np.zeros((8, 4), np.uint8)
    ctx.tile_buffer, ctx.tile_index = tile, np.arange(8)
    x = np.arange(8, dtype=np.uint32)
    out = run("""
        convert.f32.u32 r2, r1
        fmul r2, r2, 0.125
        zs_emit.zs r2, r1l
        sample_mask 5
        mov_imm r0l, 0
        if_icmp.uge r1, 6, 1
          discard
        pop_exec 1
        mov_imm r3, 0xffffffff
        st_tile.i32 r3, 0, 1
        dfdx r4, r2
    """, ctx=ctx, inputs={1: x})
    live = ~helper
    assert np.array_equal(out.depth_written, live)
    assert np.array_equal(out.depth[live], (x * 0.125).astype(np.float32)[live])
    assert np.array_equal(out.stencil[live], x[live].astype(np.uint8))
    assert np.array_equal(out.sample_mask, np.where(live, 0x5, 0xF))
    assert np.array_equal(out.discarded, x >= 6)
    written = tile.view(np.uint32)[:, 0] == 0xFFFFFFFF
    assert np.array_equal(written, live & (x < 6))                  # helpers and discarded lanes write nothing
    assert np.array_equal(f32(out, 4), np.full(8, 0.125, np.float32))  # derivatives still use every quad lane


def test_outputs_a_program_cannot_write_keep_their_initial_values():
    """A program without zs_emit, sample_mask or discard leaves depth/stencil (and
    their written flags) zero, the sample mask the coverage and nothing discarded,
    as read-only arrays; the same context run again by a program that writes them
    gets arrays it can write (and keeps the first run's values where it does not)."""
    ctx, _, _ = fragment_context(n_quads=2, specials={"coverage_mask": 0xB})
    out = run("fmul r2, r1, 2.0", ctx=ctx, inputs={1: np.arange(8, dtype=np.float32)})
    assert np.array_equal(f32(out, 2), 2 * np.arange(8, dtype=np.float32))
    for name, value in (("depth", 0), ("stencil", 0), ("depth_written", False), ("stencil_written", False),
                        ("sample_mask", 0xB), ("discarded", False)):
        got = getattr(out, name)
        assert got.shape == (8,) and (got == value).all() and not got.flags.writeable, name
    x = np.arange(8, dtype=np.uint32)
    out = run("""
        sample_mask 3
        mov_imm r0l, 0
        if_icmp.uge r1, 5, 1
          discard
        pop_exec 1
    """, ctx=ctx, inputs={1: x})
    assert np.array_equal(out.discarded, x >= 5)
    assert np.array_equal(out.sample_mask, np.full(8, 0x3))
    assert not out.depth_written.any() and not out.depth.flags.writeable


import pytest  # noqa: E402


@pytest.mark.parametrize("fmt, regs", [("unorm8", "r4_r5_r6_r7"), ("unorm8", "r4l_r4h_r5l_r5h"),
                                       ("snorm8", "r4_r5_r6_r7"), ("unorm16", "r4_r5"), ("snorm16", "r4_r5_r6_r7"),
                                       ("f16", "r4_r5_r6_r7"), ("unorm8", "r4_r5")])
def test_st_tile_row_by_row_path_equals_the_general_path(fmt, regs, monkeypatch):
    """st_tile of per-component formats packs each register row straight into the
    lanes' words: the same bytes as the general path, for NaN, infinities, -0,
    out-of-range values and values on rounding ties, with discarded lanes and
    lanes that share a record (the highest lane wins)."""
    from drmshim.gpu.usc import frag
    values = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 1.5, -2.0, 127.5 / 255, 0.25 / 255,
                       1 / 3, 65504.0, 1e-8, 0.998], np.float32)
    ctx0, _, _ = fragment_context(n_quads=8)
    inputs = {k: RNG.choice(values, ctx0.lanes) for k in range(4, 8)}
    if "l" in regs:
        inputs = {k: (inputs[k].astype(np.float16).view(np.uint16).astype(np.uint32)
                      | inputs[k + 2].astype(np.float16).view(np.uint16).astype(np.uint32) << 16) for k in (4, 5)}
    k = len(regs.split("_"))
    width = {"unorm8": 1, "snorm8": 1, "unorm16": 2, "snorm16": 2, "f16": 2}[fmt] * k
    for discarded in (None, np.arange(ctx0.lanes) % 5 == 0):
        tiles, rows = [], []
        for general in (False, True):
            packer = frag.pack_format
            monkeypatch.setattr(frag, "pack_format", lambda *a, **kw: rows.append(a[1].shape) or packer(*a, **kw))
            if general:
                monkeypatch.setattr(frag, "_PER_COMPONENT_FLOAT_FORMATS", ())
            ctx, _, _ = fragment_context(n_quads=8)
            ctx.tile_buffer = np.zeros((ctx.lanes, 8), np.uint8)
            ctx.tile_index = (np.arange(ctx.lanes) * 7 % 20).astype(np.int64)  # lanes sharing records
            flag = np.zeros(ctx.lanes, np.uint32) if discarded is None else discarded.astype(np.uint32)
            run(f"""
                mov_imm r0l, 0
                if_icmp.ne r9, 0, 1
                  discard
                pop_exec 1
                st_tile.{fmt} {regs}, 0, {(1 << k) - 1}
            """, ctx=ctx, inputs={**inputs, 9: flag})
            monkeypatch.undo()
            tiles.append(ctx.tile_buffer[:, :width].copy())
            if not general and discarded is None and fmt.startswith("unorm") and "l" not in regs:
                assert rows == [(ctx.lanes, k)]   # unorm from 32-bit rows, every lane: one call over the rows
            elif not general:
                assert rows == [rows[0]] * k and rows[0][1] == 1   # the row-by-row path ran
        assert tiles[0].any()
        np.testing.assert_array_equal(tiles[0], tiles[1])


def test_iter_of_a_batch_of_one_primitive_equals_per_lane_planes():
    """A batch whose lanes all belong to one primitive evaluates that primitive's
    planes as scalars: bit for bit the per-lane evaluation (``coefficients``)."""
    planes = RNG.uniform(-3, 3, (3, 4, 3)).astype(np.float32)
    planes[:, 0, 2] += 4                                   # cf0: 1/w away from 0
    asm = """
        iter.persp.center r1_r2_r3, cf1, cf0
        iter.linear.center r4l_r4h, cf2
        ldcf r5, cf3
    """
    for prim_of_lane in (lambda n: np.full(n, 2), lambda n: np.arange(n) // 8 % 3):
        ctx, _, _ = fragment_context()
        ctx.cf_planes, ctx.primitive_index = planes, prim_of_lane(ctx.lanes).astype(np.int64)
        shared = run(asm, ctx=ctx, batch_lanes=16)
        ref, _, _ = fragment_context()
        ref.coefficients = np.ascontiguousarray(planes[ctx.primitive_index].transpose(1, 2, 0))
        per_lane = run(asm, ctx=ref, batch_lanes=16)
        np.testing.assert_array_equal(shared.registers[1:6], per_lane.registers[1:6])


@pytest.mark.parametrize("fmt, width", [("unorm8", 4), ("unorm16", 8), ("unorm8", 2)])
def test_row_paths_equal_the_general_path(fmt, width, monkeypatch):
    """iter, ld_tile and st_tile on whole register rows (every lane active) give the
    bits of the general path: a blend over every byte value of the record,
    perspective planes with NaN/inf/-0 coefficients, out-of-range and tie values."""
    from drmshim.gpu.usc import frag
    k = width // (1 if fmt == "unorm8" else 2)
    regs = "_".join(f"r{r}" for r in range(10, 10 + k))
    out_regs = "_".join(f"r{r}" for r in range(20, 20 + k))
    ctx0, _, _ = fragment_context(n_quads=96)
    n = ctx0.lanes
    tile0 = RNG.integers(0, 256, (n, 8), dtype=np.uint8)
    tile0[:256, 0] = np.arange(256)                          # every byte value
    specials = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 1.5, 0.25 / 255, 1e-8], np.float32)
    coeff = RNG.uniform(-2, 2, (6, 3, n)).astype(np.float32)
    coeff[2:6, 2, :len(specials)] = specials[:, None].T
    coeff[0] = np.abs(coeff[0]) + 0.1                        # the 1/w plane
    coeff[0, 0, :3] = [0.0, -0.0, np.nan]
    results = []
    for rows_on in (True, False):
        monkeypatch.setattr(frag, "ROW_PATHS", rows_on)
        ctx, _, _ = fragment_context(n_quads=96)
        ctx.quads = False
        ctx.coefficients = coeff
        ctx.tile_buffer = tile0.copy()
        ctx.tile_index = RNG.permutation(n).astype(np.int64) if not results else results[0][2]
        out = run(f"""
            iter.persp.center r2_r3_r4_r5, cf2, cf0
            ld_tile.{fmt} {regs}, 0
            fmul r20, r10, r5
            fadd.sat r20, r20, r2
            fmul r21, r11, r3
            {"fadd.sat r22, r12, r4" if k > 2 else ""}
            {"fmul r23, r13, 0.5" if k > 3 else ""}
            st_tile.{fmt} {out_regs}, 0, {(1 << k) - 1}
        """, ctx=ctx, debug=False)
        results.append((out.registers.copy(), ctx.tile_buffer.copy(), ctx.tile_index))
    (regs_a, tile_a, _), (regs_b, tile_b, _) = results
    assert not np.array_equal(tile_a, tile0)
    np.testing.assert_array_equal(tile_a, tile_b)
    np.testing.assert_array_equal(regs_a, regs_b)


def test_tile_words_equal_the_checked_byte_addresses():
    """ld_tile/st_tile's word indices of a batch (two reductions when records are
    word-aligned) equal ``ByteMemory.word_index`` of the byte addresses: the same
    words, or None when a record is out of range or an access unaligned."""
    from types import SimpleNamespace

    from drmshim.gpu.usc import frag
    from drmshim.gpu.usc.mem import ByteMemory
    for record_B in (4, 8, 12):
        tile = np.zeros((50, record_B), np.uint8)
        for index in (RNG.integers(0, 50, 300), np.arange(50), np.array([3, 50]), np.array([-1, 4]),
                      RNG.integers(0, 50, 300).astype(np.int32)):
            for offset, size in ((0, 4), (4, 4), (0, 8), (2, 2), (1, 2), (8, 4)):
                b = SimpleNamespace(ctx=SimpleNamespace(tile_buffer=tile, tile_index=index),
                                    lanes=slice(0, len(index)), memo={})
                got = frag._tile_words(b, offset, size)
                want = ByteMemory(tile).word_index(index.astype(np.int64) * record_B + offset, size)
                assert (got is None) == (want is None)
                if want is not None:
                    np.testing.assert_array_equal(got, want)
