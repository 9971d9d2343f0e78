"""Passes rasterised and shaded bin by bin in one C call (``fragment._bin_pass``,
``pipeline.native.shade_bins``) against their specification: ``rasterize`` and the
layer loop (or hidden surface removal), run with ``fragment.BIN_PASSES`` off. Images,
counters, statistics, occlusion counts and faults must be identical, for any thread
count, and the interpreter gives the same image."""

import numpy as np
import pytest

from drmshim.gpu import native
from drmshim.gpu.pipeline import Executor, fragment, render
from drmshim.gpu.pipeline import native as pnative
from drmshim.memory import GPUFault
from uapi import packets as P

from .gpu import Scene, Space, f32bits
from .test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS, random_triangles

#: Adds 1/255 to the red channel of the record: the red byte counts the fragments of a pixel.
COUNT_FS = "\n".join(["ld_tile.unorm8 r8_r9_r10_r11, 0", "fadd r8, r8, u0", "mov_imm r11, 0x3f800000",
                      "st_tile.unorm8 r8_r9_r10_r11, 0, 15", "stop"])


@pytest.fixture(scope="module")
def cache_dir(tmp_path_factory):
    return tmp_path_factory.mktemp("native")


@pytest.fixture
def compiled(monkeypatch, cache_dir):
    """Programs compile on their first run, into a cache of this module's tests."""
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(cache_dir))
    monkeypatch.setattr(native.tier, "HOT_LANES", 0)
    monkeypatch.setattr(native.tier, "BUILD_ASIDE", False)


@pytest.fixture
def calls(monkeypatch):
    """The (fragments, lanes) of every shade_bins call that took its pass."""
    seen = []
    original = pnative.shade_bins

    def spy(*args, **kw):
        done = original(*args, **kw)
        if done is not None:
            seen.append(done)
        return done
    monkeypatch.setattr(fragment, "shade_bins", spy)
    return seen


def _run(monkeypatch, make, bins: bool, threads: int = 1, debug: str = "", ex=None):
    """Render ``make()``'s scene twice (the first run compiles the program, so the
    second takes the native paths) -> (image, counters, statistics, queries)."""
    monkeypatch.setattr(fragment, "BIN_PASSES", bins)
    monkeypatch.setenv("SHIMGL_THREADS", str(threads))
    monkeypatch.setenv("SHIMGL_DEBUG", debug)
    executor = Executor(**(ex or {}))
    sp = Space()
    sc, extra = make(sp)
    stats = sp.put(np.zeros(6, np.uint64))
    queries = sp.put(np.zeros(2, np.uint64))
    sc.blocks.insert(0, P.pack("VDM_STATE", statistics=dict(counters=stats)))
    out = None
    for _ in range(2):
        sp.mem.write(stats, np.zeros(6, np.uint64), "test")
        sp.mem.write(queries, np.array([7, 0], np.uint64), "test")
        img = sc.render(executor, isp_oclqry_base=queries, **extra)
        c = sc.last.counters.snapshot()
        out = img, (c["fragments"], c["tiles"]), sp.get(stats, 6, np.uint64), sp.get(queries, 2, np.uint64)
    return out


def _same(a, b):
    np.testing.assert_array_equal(a[0], b[0])
    assert a[1] == b[1]
    np.testing.assert_array_equal(a[2], b[2])
    np.testing.assert_array_equal(a[3], b[3])


def _blended(W, H, n, seed, scissor=None, depth=False):
    def make(sp):
        sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0))
        ppp = dict(occlusion=dict(mode="COUNTING", index=1))
        if scissor is not None:
            ppp.update(raster=dict(scissor_enable=True), scissor=scissor)
        if depth:
            ppp.update(zs=dict(depth_func="LESS", depth_write=True))
        sc.draw(random_triangles(n, seed, size=0.9), BLEND_FS, varyings=4, cf_bindings=BINDINGS, **ppp)
        return sc, {}
    return make


@pytest.mark.parametrize("W,H,threads", [(100, 70, 1), (100, 70, 3), (64, 64, 2), (33, 129, 1)])
@pytest.mark.parametrize("scissor", [None, dict(min_x_px=5, max_x_px=61, min_y_px=3, max_y_px=50)])
def test_blended_pass_bin_by_bin_is_the_layer_loop(monkeypatch, compiled, calls, W, H, threads, scissor):
    make = _blended(W, H, 40, seed=W + H, scissor=scissor)
    want = _run(monkeypatch, make, bins=False)
    assert not calls
    got = _run(monkeypatch, make, bins=True, threads=threads)
    assert calls and all(f == lanes > 0 for f, lanes in calls)
    _same(got, want)
    # (the occlusion query counts the fragments: every one passes)
    assert want[3][1] == want[1][0] and want[2][5] == want[1][0]
    assert len(np.unique(want[0].reshape(-1, 4), axis=0)) > 50       # a real picture
    np.testing.assert_array_equal(_run(monkeypatch, make, bins=False, debug="interp")[0], want[0])


def test_partial_renders_and_bands_of_tiles_give_the_same_pass(monkeypatch, compiled, calls):
    """Passes cut by the tiler's capacity (partial renders) and a frame done in bands
    of tile rows (``render.GROUP_PIXELS``) with shading steps of few primitives."""
    monkeypatch.setattr(render, "GROUP_PIXELS", 64 * 64)
    monkeypatch.setattr(render, "STEP_FRAGMENTS", 3000)
    make = _blended(96, 160, 30, seed=5)
    ex = dict(sysmem=False, tvb_entries=40)
    want = _run(monkeypatch, make, bins=False, ex=ex)
    got = _run(monkeypatch, make, bins=True, threads=2, ex=ex)
    assert len(calls) > 4
    _same(got, want)


def test_pixels_are_counted_once_along_shared_edges(monkeypatch, compiled, calls):
    """A grid of triangles sharing edges and vertices at sub-pixel positions (and
    sliver, degenerate and guard-band triangles that cover nothing or everything):
    counting fragments per pixel in the shader, each pixel of the grid is hit exactly
    once (the fill rule), as the rasteriser says."""
    W, H = 80, 72
    rng = np.random.default_rng(3)
    n = 7
    gx, gy = np.meshgrid(np.linspace(-1, 1, n), np.linspace(-1, 1, n))
    jitter = rng.uniform(-0.04, 0.04, (2, n, n))
    jitter[:, [0, -1], :] = 0
    jitter[:, :, [0, -1]] = 0
    px, py = gx + jitter[0], gy + jitter[1]
    tris = []
    for i in range(n - 1):
        for j in range(n - 1):
            a, b, c, d = (px[i, j], py[i, j]), (px[i, j + 1], py[i, j + 1]), (px[i + 1, j], py[i + 1, j]), \
                (px[i + 1, j + 1], py[i + 1, j + 1])
            tris += [(a, b, c), (b, d, c)] if (i + j) % 2 else [(a, b, d), (a, d, c)]
    v = np.array(tris, np.float64).reshape(-1, 2)
    verts = np.zeros((len(v), 4), np.float32)
    verts[:, :2], verts[:, 3] = v, 1.0

    def make(sp):
        sc = Scene(sp, W, H, clear=(0, 0, 0, 0))
        u = np.zeros(8, np.uint32)
        u[0] = f32bits(1 / 255)[0]
        sc.draw(verts, COUNT_FS, fs_uniforms=u)
        return sc, {}
    want = _run(monkeypatch, make, bins=False)
    got = _run(monkeypatch, make, bins=True, threads=2)
    assert calls
    _same(got, want)
    assert (want[0][..., 0] == 1).all() and want[1][0] == W * H

    slivers = np.array([[-1, -1], [1, 1], [0.999, 1.0], [-1, 0.3], [1, 0.3000001], [0, 0.3],    # thin, thin
                        [-0.5, -0.5], [0.0, 0.0], [0.5, 0.5],                                   # degenerate
                        [-7, -7], [7, -7], [0, 7]], np.float32)                               # the guard band

    def make_slivers(sp):
        sc = Scene(sp, W, H, clear=(0, 0, 0, 0))
        u = np.zeros(8, np.uint32)
        u[0] = f32bits(1 / 255)[0]
        vv = np.zeros((len(slivers), 4), np.float32)
        vv[:, :2], vv[:, 3] = slivers, 1.0
        sc.draw(vv, COUNT_FS, fs_uniforms=u)
        return sc, {}
    calls.clear()
    want = _run(monkeypatch, make_slivers, bins=False)
    got = _run(monkeypatch, make_slivers, bins=True)
    assert calls
    _same(got, want)


def test_opaque_pass_shades_only_the_visible_fragments(monkeypatch, compiled, calls):
    """A pass that allows hidden surface removal (the program overwrites the record,
    no depth test) shades one lane per covered pixel: its last primitive's."""
    W, H = 90, 66

    def make(sp):
        sc = Scene(sp, W, H, clear=(0.1, 0.2, 0.3, 1.0))
        sc.draw(random_triangles(50, 11, size=0.7), OPAQUE_FS, varyings=4, cf_bindings=BINDINGS,
                occlusion=dict(mode="COUNTING", index=1))
        return sc, {}
    want = _run(monkeypatch, make, bins=False)
    got = _run(monkeypatch, make, bins=True, threads=3)
    assert calls and all(lanes < f for f, lanes in calls)
    _same(got, want)
    assert want[2][5] == want[1][0] < want[3][1]           # shaded < passed
    # a full-screen quad hides the background (every record written): the same image
    calls.clear()

    def full(sp):
        sc = Scene(sp, W, H, clear=(0.1, 0.2, 0.3, 1.0))
        quad = np.array([[-1, -1, 0, 1, 0.5, 0.25, 1, 1], [1, -1, 0, 1, 0, 1, 0, 1],
                         [-1, 1, 0, 1, 1, 0, 0, 1], [1, 1, 0, 1, 0, 0, 1, 1]], np.float32)
        sc.draw(quad, OPAQUE_FS, primitive="TRIANGLE_STRIP", varyings=4, cf_bindings=BINDINGS)
        return sc, {}
    want = _run(monkeypatch, full, bins=False)
    got = _run(monkeypatch, full, bins=True)
    assert calls and all(c == (W * H, W * H) for c in calls)
    _same(got, want)


def test_a_pass_that_depth_tests_is_left_to_the_rasteriser(monkeypatch, compiled, calls):
    make = _blended(64, 48, 20, seed=1, depth=True)
    want = _run(monkeypatch, make, bins=False)
    got = _run(monkeypatch, make, bins=True)
    assert not calls
    _same(got, want)


def test_a_tile_access_outside_the_record_faults_as_before(monkeypatch, compiled, calls):
    """The bin path refuses a program whose tile word lies outside the record: the
    rasteriser's path runs and faults as it does."""
    bad = BLEND_FS.replace("st_tile.unorm8 r12_r13_r14_r15, 0, 15", "st_tile.unorm8 r12_r13_r14_r15, 4, 15")

    def make(sp):
        sc = Scene(sp, 40, 40)
        sc.draw(random_triangles(8, 2), bad, varyings=4, cf_bindings=BINDINGS)
        return sc, {}
    infos = []
    for bins in (False, True):
        with pytest.raises(GPUFault) as info:
            _run(monkeypatch, make, bins=bins)
        infos.append(info.value.info)
    assert infos[0] == infos[1] and not calls


#: glbench's blended overdraw program as the compiler emits it: saturated colour,
#: SRC_ALPHA / ONE_MINUS_SRC_ALPHA in the shader.
GLBENCH_BLEND_FS = "\n".join([
    "iter.persp.center r2_r3_r4_r5, cf1, cf0",
    "fadd.sat r6, r2, -0.0", "fadd.sat r7, r3, -0.0", "fadd.sat r8, r4, -0.0", "fadd.sat r2, r5, -0.0",
    "ld_tile.unorm8 r9_r10_r11_r12, 0",
    "fadd r3, 1.0, r2.neg", "fmul r4, r6, r2", "fmul r5, r7, r2", "fmul r6, r8, r2", "fmul r7, r9, r3",
    "fmul r8, r10, r3", "fmul r13, r11, r3", "fadd r4, r4, r7", "fadd r5, r5, r8", "fadd r6, r6, r13",
    "fmul r2, r2, r2", "fmul r3, r12, r3", "fadd r7, r2, r3",
    "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
#: A program whose stored word depends on a NaN's payload (an integer mask of a product's
#: bits): the span function keeps its NaN tests and leaves a piece with a NaN to the segments.
PAYLOAD_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "ld_tile.unorm8 r8_r9_r10_r11, 0",
    "fmul r12, r4, r8", "mov_imm r16, 0x3f7fffff", "bitop r12, r12, r16, 8", "fadd r13, r5, r9", "fmul r14, r6, r6",
    "mov_imm r15, 0x3f800000",
    "st_tile.unorm8 r12_r13_r14_r15, 0, 15", "stop"])

#: fill_alu's kind: transcendentals between ALU runs (the span function's stages), opaque
#: (hidden surface removal: runs of one owner) or blended (a tile load after them).
ALU_FS = "\n".join([
    "iter.persp.center r2_r3, cf1, cf0", "fmul r4, r2, 12.0", "sin r4, r4", "fmul r5, r3, 9.0", "cos r5, r5",
    "fadd r6, r4, r5", "fmax r6, r6, 0.0", "log2 r6, r6", "fmul r6, 8.0, r6", "exp2 r6, r6",
    "fadd.sat r6, r6, r2", "mov_imm r7, 0x3f800000", "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
ALU_BLEND_FS = ALU_FS.replace("fadd.sat r6, r6, r2", "ld_tile.unorm8 r8_r9_r10_r11, 0\nfadd.sat r6, r6, r10")


def _with_nans(verts: np.ndarray, rng, share: float = 0.1) -> np.ndarray:
    """Colours of some vertices made NaN (payloads), infinite or huge: planes and iter
    results with NaNs, inf - inf and overflow."""
    v = verts.astype(np.float32).copy()
    bits = v.view(np.uint32)
    pick = rng.random(v[:, 4:].shape) < share
    specials = np.array([0x7FC00001, 0xFFC0BEEF, 0x7F800000, 0xFF800000, 0x7F7FFFFF], np.uint32)
    bits[:, 4:][pick] = rng.choice(specials, int(pick.sum()))
    return v


_SLOW = pytest.mark.slow                # (each compiles a program of its own: ~15-40 s of gcc)


@pytest.mark.parametrize("fs,w_one", [pytest.param(GLBENCH_BLEND_FS, True, id="glbench-2d", marks=_SLOW),
                                      pytest.param(BLEND_FS, False, id="fma-perspective"),
                                      pytest.param(PAYLOAD_FS, False, id="payload", marks=_SLOW),
                                      pytest.param(ALU_FS, True, id="alu-hsr", marks=_SLOW),
                                      pytest.param(ALU_BLEND_FS, False, id="alu-blend", marks=_SLOW)])
@pytest.mark.parametrize("nans", [False, True])
def test_spans_give_the_lanes_bits(monkeypatch, compiled, calls, fs, w_one, nans):
    """The whole program per span of consecutive records (``codegen._span_function``)
    against the same bins shaded through the segments and against the layer loop:
    2D draws (every w = 1: no division) and perspective ones, NaN, infinite and huge
    colours; a program whose words depend on a NaN's payload leaves the pieces with a
    NaN to the segments."""
    W, H = 97, 70
    rng = np.random.default_rng(7)
    verts = random_triangles(30, 4, size=0.9)
    if w_one:
        verts[:, :3] /= verts[:, 3:4]
        verts[:, 3] = 1.0
    if nans:
        verts = _with_nans(verts, rng)

    def make(sp):
        sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0))
        sc.draw(verts, fs, varyings=4, cf_bindings=BINDINGS, occlusion=dict(mode="COUNTING", index=1))
        return sc, {}
    want = _run(monkeypatch, make, bins=False)
    monkeypatch.setattr(pnative, "SPANS", False)
    lanes_only = _run(monkeypatch, make, bins=True)
    monkeypatch.setattr(pnative, "SPANS", True)
    before, first = pnative.STATS["span_lanes"], len(calls)
    got = _run(monkeypatch, make, bins=True, threads=2)
    spanned = pnative.STATS["span_lanes"] - before
    lanes = sum(n for _, n in calls[first:])
    _same(lanes_only, want)
    _same(got, want)
    assert 0 < spanned
    if fs == PAYLOAD_FS and nans:
        assert spanned < lanes                  # pieces with a NaN went to the segments
    else:
        assert spanned == lanes                 # every lane: the records of a bin's row are consecutive
    if fs == ALU_FS:
        assert all(n < f for f, n in calls[first:])      # (hidden surface removal)
    assert len(np.unique(want[0].reshape(-1, 4), axis=0)) > 20


def test_spans_of_records_that_are_not_consecutive(monkeypatch, compiled, calls):
    """Records of 16-pixel tiles in 32-pixel bins (each bin row is two runs) and pixels
    outside the tiles drawn (no record): the span function takes each run, the rest
    goes through the segments, the same image and counters."""
    blended = _blended(100, 70, 30, seed=9)

    def make(sp):
        sc, _ = blended(sp)
        return sc, dict(utile_width_px=16, utile_height_px=16)
    monkeypatch.setattr(render, "GROUP_PIXELS", 48 * 48)       # (bands of tiles: partial bins)
    want = _run(monkeypatch, make, bins=False, ex=dict(sysmem=False))
    before = pnative.STATS["span_lanes"]
    got = _run(monkeypatch, make, bins=True, ex=dict(sysmem=False))
    _same(got, want)
    assert 0 < pnative.STATS["span_lanes"] - before <= 2 * want[1][0]


#: A payload-dependent word from log2(red - 0.5): NaN where the red colour is below 0.5
#: (the bottom of a quad whose red goes from 0.2 to 0.8), so a span across that line
#: stops at its first piece with a NaN.
LOG2_PAYLOAD_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "ld_tile.unorm8 r8_r9_r10_r11, 0",
    "fadd r12, r4, -0.5", "log2 r12, r12", "fmul r12, r12, r8", "mov_imm r16, 0x3f7fffff",
    "bitop r12, r12, r16, 8", "fadd r13, r5, r9", "fmul r14, r6, r6", "mov_imm r15, 0x3f800000",
    "st_tile.unorm8 r12_r13_r14_r15, 0, 15", "stop"])


@pytest.mark.parametrize("fs,nans", [pytest.param(BLEND_FS, False, id="blend"),
                                     pytest.param(ALU_FS, False, id="alu-hsr", marks=_SLOW),
                                     pytest.param(PAYLOAD_FS, True, id="payload-nans", marks=_SLOW),
                                     pytest.param(LOG2_PAYLOAD_FS, False, id="payload-stops", marks=_SLOW)])
def test_spans_over_whole_bins_give_the_lanes_bits(monkeypatch, compiled, calls, fs, nans):
    """A full-screen quad (two triangles, perspective colours) then a few triangles:
    a bin inside one primitive (or, under HSR, owned by one) whose records are its
    rows in order is one span over all its rows (pixel j at (x0 + j mod 32, y0 + j
    div 32)); the same image and counters as the rows' spans, the segments and the
    layer loop. With NaN colours and a payload-dependent word, a whole-bin span
    stops at a piece with a NaN and the bin's other pixels go on row by row (the
    same image and counters)."""
    W, H = 128, 96
    rng = np.random.default_rng(3)
    quad = np.array([[-1, -1], [1, -1], [1, 1], [-1, -1], [1, 1], [-1, 1]], np.float64)
    w = np.array([1.0, 1.5, 2.0, 1.0, 2.0, 0.75])[:, None]
    colour = rng.uniform(0, 1, (6, 4))
    colour[[1, 4]] = colour[1]
    colour[[2, 5]] = colour[2]
    if fs == LOG2_PAYLOAD_FS:
        colour[:, 0] = np.where(quad[:, 1] < 0, 0.2, 0.8)
    verts = np.concatenate([np.concatenate([quad * w, np.full((6, 1), 0.25) * w, w], 1), colour], 1)
    verts = np.concatenate([verts, random_triangles(4, 11, size=0.4)]).astype(np.float32)
    if nans:
        verts = _with_nans(verts, rng, share=0.3)

    def make(sp):
        sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0))
        sc.draw(verts, fs, varyings=4, cf_bindings=BINDINGS, occlusion=dict(mode="COUNTING", index=1))
        return sc, {}
    want = _run(monkeypatch, make, bins=False)
    monkeypatch.setattr(pnative, "SPANS", False)
    lanes_only = _run(monkeypatch, make, bins=True)
    monkeypatch.setattr(pnative, "SPANS", True)
    before = pnative.STATS["rows_span_lanes"], pnative.STATS["span_lanes"]
    got = _run(monkeypatch, make, bins=True, threads=2)
    _same(lanes_only, want)
    _same(got, want)
    if nans:            # (NaNs all over the quad: its spans stop at their first piece)
        return
    assert pnative.STATS["rows_span_lanes"] - before[0] >= 2 * 32 * 32      # (two runs of at least one bin)
    if fs == LOG2_PAYLOAD_FS:     # (spans stopped at NaNs: those pixels went through the segments)
        assert pnative.STATS["span_lanes"] - before[1] < sum(n for _, n in calls[-2:])


@_SLOW
def test_a_whole_bin_span_that_stops_at_a_nan_leaves_the_rest_of_the_bin(monkeypatch, compiled, calls):
    """One triangle over the whole 96x96 target, its red falling with y so that
    log2(red - 0.5) is a NaN from about row 42 on: each bin of the first bin row is
    one whole-bin span (1,024 lanes), each of the second stops after its first piece
    of 8 rows (256 lanes, the rest of the bin row by row and through the segments),
    the third's stop at once. Image and counters are the layer loop's."""
    W = H = 96
    red = [0.6, 0.6, 0.6 - 0.1 * 4 / 0.875]
    tri = np.array([[-1, -1, 0.25, 1, red[0], 0.3, 0.6, 1], [3, -1, 0.25, 1, red[1], 0.5, 0.2, 1],
                    [-1, 3, 0.25, 1, red[2], 0.9, 0.4, 1]], np.float32)

    def make(sp):
        sc = Scene(sp, W, H, clear=(0.2, 0.3, 0.4, 1.0))
        sc.draw(tri, LOG2_PAYLOAD_FS, varyings=4, cf_bindings=BINDINGS, occlusion=dict(mode="COUNTING", index=1))
        return sc, {}
    want = _run(monkeypatch, make, bins=False)
    before = pnative.STATS["rows_span_lanes"]
    got = _run(monkeypatch, make, bins=True)
    _same(got, want)
    per_render = (pnative.STATS["rows_span_lanes"] - before) // 2
    assert per_render == 3 * 1024 + 3 * 256
