"""texture_sample in native code (``codegen._texture_function``): the generated
segment calls the texture unit's C sampler itself on the batch's rows, and gives
bit for bit the registers the interpreter gives (whose step is the
specification): implicit LOD from quads, bias and given LOD from rows, uniforms
and immediates, a destination that overwrites the coordinates, two samples in one
program with ALU work around them, no quads (level 0). What the sampler does not
take (a NaN coordinate, masked lanes, another format or filter, per-lane
descriptors) runs the interpreter's step, with the same results."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu import native, texture
from drmshim.gpu.native import codegen
from drmshim.gpu.texture import native as tex_native
from drmshim.gpu.usc import ExecContext, ShaderCore
from tests.drmshim.texture.texenv import BASE, mip_chain, new_memory, put_sampler, put_texture
from uapi.isa import assemble
from uapi.native_ufuncs import loops
from uapi.packets import SAMPLER_DESC_B, TEXTURE_DESC_B

pytestmark = pytest.mark.skipif(not tex_native.available() or any(lp is None for lp in loops()),
                                reason="no C compiler or numpy's loops: nothing native to compare")

DESC_VA, SAMP_VA = BASE + 0x4000, BASE + 0x4100      # the program sits at BASE
DESC2_VA, SAMP2_VA = DESC_VA + TEXTURE_DESC_B, SAMP_VA + SAMPLER_DESC_B     # descriptor index 1


@pytest.fixture(autouse=True)
def _small_calls(monkeypatch):
    monkeypatch.setattr(tex_native, "MIN_LANES", 1)


def _memory(rng, fmt="R8G8B8A8_UNORM", min_filter="LINEAR", wrap_t="MIRRORED_REPEAT", size=(64, 32)):
    mem = new_memory()
    data = mip_chain(rng, *size)
    if fmt == "R16G16B16A16_UNORM":
        data = [d.astype(np.uint16) * 257 for d in data]
    put_texture(mem, data, fmt=fmt, pack_values=False, desc_va=DESC_VA)
    put_sampler(mem, va=SAMP_VA, mip_filter="LINEAR", min_filter=min_filter, mag_filter="LINEAR", wrap_s="REPEAT",
                wrap_t=wrap_t)
    put_texture(mem, mip_chain(rng, 32, 32), pack_values=False, desc_va=DESC2_VA, va=BASE + 0x100000)
    put_sampler(mem, va=SAMP2_VA, mip_filter="NEAREST", min_filter="LINEAR", mag_filter="LINEAR",
                wrap_s="CLAMP_TO_EDGE", wrap_t="REPEAT", lod_bias=0.5)
    return mem


def _quad_coords(rng, n_quads: int) -> np.ndarray:
    """(4 n_quads, 2) float32: quads of pixels (0,0), (1,0), (0,1), (1,1), each with
    its own corner and step (so its own LOD), magnified to several levels down."""
    corner = np.repeat(rng.uniform(-2, 3, (n_quads, 2)), 4, axis=0)
    step = np.repeat(np.exp(rng.uniform(np.log(0.002), np.log(0.3), (n_quads, 1))), 4, axis=0)
    pix = np.tile([[0, 0], [1, 0], [0, 1], [1, 1]], (n_quads, 1))
    return (corner + step * pix * rng.uniform(0.5, 1.5, (4 * n_quads, 2))).astype(np.float32)


def _run_both(mem, asm: str, inputs: dict, *, quads=True, uniforms=None, monkeypatch=None):
    """(interpreter registers, native registers, texture calls the native run made from Python)."""
    code = assemble(asm + "\nstop\n")
    mem.write(BASE, code, "test")
    lanes = len(next(iter(inputs.values())))
    out, calls = [], []
    for tier in ("interp", "native"):
        ctx = ExecContext(lanes=lanes, quads=quads, keep_registers=True, texture_heap_va=DESC_VA,
                          sampler_heap_va=SAMP_VA,
                          uniforms=np.zeros(256, np.uint32) if uniforms is None else uniforms)
        ctx.preload = {k: np.asarray(v).view(np.uint32).copy() for k, v in inputs.items()}
        if tier == "native":
            seen = []
            for name in ("sample", "sample_rows"):
                real = getattr(texture, name)
                monkeypatch.setattr(texture, name, lambda *a, _real=real, _name=name, **kw: (seen.append(_name),
                                                                                              _real(*a, **kw))[1])
            calls = seen
        ShaderCore(mem, debug=False, tier=tier).run(BASE, ctx)
        out.append(ctx.registers.copy())
        native.STATS.clear()
    monkeypatch.undo()
    return out[0], out[1], calls


def _same(a, b):
    rows = np.flatnonzero((a != b).any(axis=1))
    assert rows.size == 0, f"registers {rows.tolist()} differ"


def test_implicit_lod_over_quads_is_native_and_exact(monkeypatch):
    rng = np.random.default_rng(50)
    mem = _memory(rng)
    st = _quad_coords(rng, 2048)
    # the destination overwrites the coordinates; the second sample reads the first's results
    asm = ("texture_sample.2d.auto r0_r1_r2_r3, r0_r1, 0, 0, 0\nwait 0\n"
           "fmul r4, r0, 3.0\nfadd r5, r1, r3\n"
           "texture_sample.2d.auto r8_r9_r10, r4_r5, 1, 1, 1\nwait 1\n")
    a, b, calls = _run_both(mem, asm, {0: st[:, 0], 1: st[:, 1]}, monkeypatch=monkeypatch)
    _same(a, b)
    assert calls == []                       # both samples ran from native code
    assert 0 < a[0].view(np.float32).mean() < 1 and a[10].view(np.float32).std() > 0


@pytest.mark.parametrize("form", ["bias_row", "bias_uniform", "bias_imm", "lod_row", "lod_uniform", "lod_imm"])
def test_bias_and_given_lod_from_rows_uniforms_and_immediates(monkeypatch, form):
    rng = np.random.default_rng(51)
    mem = _memory(rng)
    st = _quad_coords(rng, 1024)
    kind, where = form.split("_")
    per_lane = rng.uniform(-3, 5, len(st)).astype(np.float32)
    specials = np.float32([np.nan, np.inf, -np.inf, 0.0, -0.0, 2.5, -40.0])
    per_lane[::97] = np.resize(specials, per_lane[::97].shape)
    uniforms = np.zeros(256, np.uint32)
    uniforms[6] = np.float32(1.75).view(np.uint32)
    operand = {"row": "r2", "uniform": "u6", "imm": "1.5"}[where]
    asm = f"texture_sample.2d.{kind} r4_r5_r6_r7, r0_r1, 0, 0, {operand}, 0\nwait 0\n"
    a, b, calls = _run_both(mem, asm, {0: st[:, 0], 1: st[:, 1], 2: per_lane}, uniforms=uniforms,
                            monkeypatch=monkeypatch)
    _same(a, b)
    assert calls == []


def test_no_quads_samples_level_zero_natively(monkeypatch):
    rng = np.random.default_rng(52)
    mem = _memory(rng)
    st = rng.uniform(-2, 2, (1000, 2)).astype(np.float32)
    asm = "texture_sample.2d.auto r4_r5_r6_r7, r0_r1, 0, 0, 0\nwait 0\ntexture_sample.2d.bias r8_r9, r0_r1, 0, 0, r2, 0\nwait 0"
    a, b, calls = _run_both(mem, asm, {0: st[:, 0], 1: st[:, 1], 2: np.full(1000, 2.25, np.float32)}, quads=False,
                            monkeypatch=monkeypatch)
    _same(a, b)
    assert calls == []


@pytest.mark.parametrize("what", ["nan", "masked", "format", "nearest"])
def test_what_the_sampler_does_not_take_runs_the_step(monkeypatch, what):
    rng = np.random.default_rng(53)
    mem = _memory(rng, fmt="R16G16B16A16_UNORM" if what == "format" else "R8G8B8A8_UNORM",
                  min_filter="NEAREST" if what == "nearest" else "LINEAR")
    st = _quad_coords(rng, 512)
    if what == "nan":
        st[777, 1] = np.nan
    mask = (np.arange(len(st)) % 5 != 0).astype(np.uint32)
    asm = "texture_sample.2d.auto r2_r3_r4_r5, r2_r3, 0, 0, 0\nwait 0"
    if what == "masked":        # (r0l: the exec counter)
        asm = f"mov_imm r0l, 0\nif_icmp.ne r9, 0, 1\n{asm}\npop_exec 1"
    a, b, calls = _run_both(mem, asm, {2: st[:, 0], 3: st[:, 1], 9: mask}, monkeypatch=monkeypatch)
    _same(a, b)
    assert calls and calls[0] in ("sample_rows", "sample")      # the interpreter's step ran it


def test_the_plan_has_no_numpy_step_for_a_row_form_sample():
    """A program of iter, texture_sample and a tile store is all native code (so the
    core takes big batches); other forms (gradients, per-lane descriptors) are steps."""
    from drmshim.gpu.usc import compile_program

    def plan(asm):
        return codegen.generate(compile_program(0x1000, assemble(asm + "\nstop\n")))
    p = plan("iter.linear.center r0_r1, cf1\ntexture_sample.2d.auto r4_r5_r6_r7, r0_r1, 0, 0, 0\nwait 0\n"
             "st_tile.unorm8 r4_r5_r6_r7, 0, 15")
    assert p.step_count == 0 and "tex_fn" in p.source
    assert plan("texture_sample.2d.grad r4, r0_r1, 0, 0, r8_r9_r10_r11, 0\nwait 0").step_count == 1
    assert plan("texture_sample.2d.auto r4, r0_r1, r2, 0, 0\nwait 0").step_count == 1
