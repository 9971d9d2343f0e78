"""Multisampled passes shade once per pixel unless asked for every sample.

A program whose inputs do not depend on the sample (centre-evaluated varyings, no
``sample_id``) computes the same thing on every covered sample of a pixel, so
shading once per pixel and writing the result to the covered samples must give
the records shading once per sample gives (``PPP_MSAA.sample_shading``), sample
for sample: blending (tile reads) where a pixel's samples differ, depth tests,
discards, fields written under control flow; on the numpy interpreter and on the
native tier. The per-pixel pass runs fewer lanes."""

import numpy as np
import pytest

from drmshim.gpu.pipeline import Executor, fragment

from .gpu import Scene, Space, record_eot, zero_bg
from .test_equivalence import BINDINGS, BLEND_FS, OPAQUE_FS, random_triangles

W = H = 32
S = 4
# colour kept only where red >= 0.5 (discard: late tests)
DISCARD_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "if_fcmp.lt r4, 0.5, 1", "discard", "pop_exec 1",
    "st_tile.unorm8 r4_r5_r6_r7, 0, 15", "stop"])
# the colour's red channel only where green > 0.5 (a field written under control flow)
BRANCH_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "if_fcmp.gt r5, 0.5, 1", "st_tile.unorm8 r4_r5_r6_r7, 0, 1", "pop_exec 1", "stop"])
# blending with a derivative (quads with helper lanes): the colour plus its x-slope,
# added to what the tile holds; a quad's pixels are covered by different samples at
# edges, so each lane must read and write its own pixel's covered samples (MuJoCo's
# textured, additively blended floor read a neighbour's sample 0 when the quads gave
# every lane of a quad one fragment's lowest covered sample)
QUAD_BLEND_FS = "\n".join([
    "iter.persp.center r4_r5_r6_r7, cf1, cf0",
    "dfdx r12, r4",
    "ld_tile.unorm8 r8_r9_r10_r11, 0",
    "fma r12, r12, 4.0, r4", "fmul r12, r12, 0.5", "fma r12, r8, 0.5, r12",
    "fmul r13, r5, 0.5", "fma r13, r9, 0.5, r13",
    "fmul r14, r6, 0.5", "fma r14, r10, 0.5, r14",
    "mov_imm r15, 0x3f800000",
    "st_tile.unorm8 r12_r13_r14_r15, 0, 15", "stop"])
# a per-sample program: every sample records its own index (forces per-sample lanes)
SAMPLE_ID_FS = "\n".join(["get_sr r4, sample_id", "st_tile.i32 r4, 0, 1", "stop"])


def _render(fs, per_sample: bool, monkeypatch, debug: str = "", depth: bool = True, fragment_bits=None):
    monkeypatch.setenv("SHIMGL_DEBUG", debug)
    lanes = []
    run = fragment.run_program

    def counting(core, pipe, ctx):
        lanes.append(ctx.lanes - (int(ctx.helper.sum()) if ctx.helper is not None else 0))
        return run(core, pipe, ctx)
    monkeypatch.setattr(fragment, "run_program", counting)
    sp = Space()
    sc = Scene(sp, W, H, samples=S)
    sc.bg = zero_bg(sp)
    sc.eot, buf = record_eot(sp, W, H, S)
    zs = dict(depth_func="LESS", depth_write=True) if depth else {}
    sc.draw(random_triangles(40, seed=11), fs, varyings=4, cf_bindings=BINDINGS, zs=zs,
            msaa=dict(sample_count=S, sample_shading=per_sample), fragment=fragment_bits)
    sc.render(Executor(sysmem=False))
    monkeypatch.setattr(fragment, "run_program", run)
    return sp.get(buf, W * H * S, np.uint32), sum(lanes)


@pytest.mark.parametrize("fs, bits", [(OPAQUE_FS, None), (BLEND_FS, None), (QUAD_BLEND_FS, None),
                                      (DISCARD_FS, dict(discards=True, early_z=False)), (BRANCH_FS, None)],
                         ids=["opaque", "blend", "quad-blend", "discard", "branch"])
@pytest.mark.parametrize("depth", [True, False], ids=["depth", "nodepth"])
def test_per_pixel_shading_gives_the_per_sample_records(fs, bits, depth, monkeypatch):
    per_pixel, lanes_pixel = _render(fs, False, monkeypatch, depth=depth, fragment_bits=bits)
    per_sample, lanes_sample = _render(fs, True, monkeypatch, depth=depth, fragment_bits=bits)
    np.testing.assert_array_equal(per_pixel, per_sample)
    assert len(np.unique(per_pixel)) > 20                          # a real picture, many colours
    assert 0 < lanes_pixel < lanes_sample * 0.6                    # most pixels covered whole: a quarter


def test_the_interpreter_and_the_native_tier_agree_on_per_pixel_passes(monkeypatch, tmp_path):
    from drmshim.gpu import native
    monkeypatch.setenv("SHIMGL_SHADER_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(native.tier, "HOT_LANES", 0)
    monkeypatch.setattr(native.tier, "BUILD_ASIDE", False)
    for fs in (BLEND_FS, DISCARD_FS):
        bits = dict(discards=True, early_z=False) if fs is DISCARD_FS else None
        first, _ = _render(fs, False, monkeypatch, fragment_bits=bits)       # compiles the native code
        native_run, _ = _render(fs, False, monkeypatch, fragment_bits=bits)
        interp, _ = _render(fs, False, monkeypatch, debug="interp", fragment_bits=bits)
        np.testing.assert_array_equal(native_run, interp)
        np.testing.assert_array_equal(first, interp)


def test_a_program_marked_per_sample_runs_on_every_covered_sample(monkeypatch):
    """``USC_FRAGMENT.per_sample``: each sample records its own index; without the
    bit the pixel's one invocation reports its lowest covered sample to all of them."""
    got, lanes = _render(SAMPLE_ID_FS, False, monkeypatch, depth=False, fragment_bits=dict(per_sample=True))
    records = got.reshape(H, W, S)
    drawn = records != 0
    drawn[..., 0] = True                       # sample 0 records 0 either way
    assert (records == np.arange(S))[drawn].all()
    assert (records == np.arange(S)).all(axis=2).sum() > H * W // 4
    pixel, lanes_pixel = _render(SAMPLE_ID_FS, False, monkeypatch, depth=False)
    p = pixel.reshape(H, W, S)
    assert (p <= np.arange(S)).all()           # the lowest covered sample of the fragment that wrote it
    assert (p < np.arange(S)).sum() > H * W    # not each sample's own index
    assert lanes_pixel < lanes
