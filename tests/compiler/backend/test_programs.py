"""Whole programs on the shader core: divergent loops with break and continue,
compute with shared memory, barriers and atomics, spilling under a small
register budget, fragment outputs, textures through a fake texture unit, the
scoreboard, and the binary <-> assembly round trip."""

import numpy as np
import pytest

from compiler.backend import BackendError, compile_ir
from compiler.ir import VecType
from compiler.ir.passes import preprocess
from drmshim.gpu.usc import ExecContext, ScoreboardHazard, ShaderCore
from drmshim.gpu.usc import tex as usc_tex
from drmshim.memory import FlatMemory
from uapi.isa import assemble, disassemble

from .harness import CODE_VA, Run, frag_context, interp, new_shader, tile_words

I32 = VecType("int", 32)
F32 = VecType("float", 32)


def _ssbo_input(b, words=1):
    vid = b.load_vertex_id()
    return b.load_ssbo(b.iimm(0), b.imul(vid, 4 * words), num_components=words, bit_size=32, align=4)


def _out(b, value, slot="O"):
    b.store_output(value, b.iimm(0), base=0, component=0, slot=slot, write_mask=(1 << value.num_components) - 1)


def _compare_vs(sh, data, lanes=64, max_regs=128, words=1):
    preprocess(sh)
    run = Run(sh, max_regs=max_regs)
    raw = np.asarray(data).view(np.uint8).reshape(-1)
    ctx, _ = run.core(lanes, ssbos={0: raw})
    it = interp(sh, lanes, ssbos={0: raw})
    np.testing.assert_array_equal(ctx.varyings[:words], it.outputs["O"][:words].astype(np.uint32))
    return run


def test_divergent_nested_loops_with_break_and_continue():
    sh, b = new_shader()
    n = _ssbo_input(b)                       # per-lane trip count
    acc, i = b.local_var("acc", I32), b.local_var("i", I32)
    b.store_var(acc, b.iimm(0))
    b.store_var(i, b.iimm(0))
    loop = b.push_loop()
    iv = b.load_var(i)
    stop = b.push_if(b.ige(iv, n))
    b.break_()
    b.pop_if(stop)
    b.store_var(i, b.iadd(iv, 1))
    skip = b.push_if(b.ieq(b.imod(iv, 3), 1))
    b.continue_()
    b.pop_if(skip)
    j = b.local_var("j", I32)
    b.store_var(j, b.iimm(0))
    inner = b.push_loop()
    jv = b.load_var(j)
    done = b.push_if(b.ige(jv, iv))
    b.break_()
    b.pop_if(done)
    b.store_var(acc, b.iadd(b.load_var(acc), b.imul(jv, b.iadd(iv, 1))))
    b.store_var(j, b.iadd(jv, 1))
    b.pop_loop(inner)
    big = b.push_if(b.ilt(b.iimm(200), b.load_var(acc)))
    b.store_var(acc, b.iadd(b.load_var(acc), 1000))
    b.break_()
    b.pop_if(big)
    b.pop_loop(loop)
    _out(b, b.load_var(acc))
    data = np.random.default_rng(1).integers(0, 12, 64).astype(np.int32)
    run = _compare_vs(sh, data)
    asm = run.compiled.assembly
    from compiler.ir import print_shader
    has_continue = "continue" in print_shader(sh)     # the optimiser may restructure it away
    assert ("while_icmp" in asm) == has_continue
    assert "jmp_exec_any" in asm and "push_exec" in asm
    assert run.compiled.stats.loops == 2


def test_continue_reactivates_lanes():
    """Direct SSA (no optimisation): loop { i++; if (i odd) continue; acc += i; if (i >= n) break; }"""
    sh, b = new_shader()
    n = _ssbo_input(b)
    zero = b.iimm(0)
    loop = b.push_loop()
    head = b.block
    i_phi = b.phi([], num_components=1, bit_size=32)
    acc_phi = b.phi([], num_components=1, bit_size=32)
    i1 = b.iadd(i_phi, 1)
    odd = b.push_if(b.ieq(b.iand(i1, 1), 1))
    cont_block = b.block
    b.continue_()
    b.pop_if(odd)
    acc1 = b.iadd(acc_phi, i1)
    done = b.push_if(b.ige(i1, n))
    brk = b.block
    b.break_()
    b.pop_if(done)
    tail = b.block
    b.pop_loop(loop)
    out = b.phi([(brk, acc1)])
    pre = [blk for blk in _preds(sh, head) if blk not in (cont_block, tail)][0]
    b.func  # noqa: B018
    i_phi.parent.srcs = [(pre, zero), (cont_block, i1), (tail, i1)]
    acc_phi.parent.srcs = [(pre, zero), (cont_block, acc_phi), (tail, acc1)]
    _out(b, out)
    data = np.random.default_rng(6).integers(1, 15, 64).astype(np.int32)
    run = Run(sh)
    raw = data.view(np.uint8)
    ctx, _ = run.core(64, ssbos={0: raw})
    it = interp(sh, 64, ssbos={0: raw})
    np.testing.assert_array_equal(ctx.varyings[0], it.outputs["O"][0].astype(np.uint32))
    expect = [sum(k for k in range(2, 100, 2) if k <= ((m + 1) // 2 * 2)) for m in data]
    assert (ctx.varyings[0] == np.array(expect)).all()
    assert "while_icmp" in run.compiled.assembly


def _preds(sh, block):
    from compiler.ir import compute_cfg
    return compute_cfg(sh.main.body).preds[block]


def test_if_else_phis_and_uniform_conditions():
    sh, b = new_shader()
    x = _ssbo_input(b)
    nif = b.push_if(b.flt(x, 0.0))
    t = b.fmul(x, -2.0)
    b.push_else(nif)
    e = b.fadd(x, 10.0)
    b.pop_if(nif)
    v = b.if_phi(nif, t, e)
    minus_one = b.fimm(-1.0)
    nif2 = b.push_if(b.feq(v, v))            # never taken by NaN lanes
    w = b.fsqrt(v)
    b.pop_if(nif2)
    r = b.if_phi(nif2, w, minus_one)
    _out(b, r)
    data = np.random.default_rng(2).uniform(-5, 5, 64).astype(np.float32)
    data[3] = np.nan
    _compare_vs(sh, data)


def _pressure_program(n_values=24):
    sh, b = new_shader()
    x = _ssbo_input(b)
    vals = [b.fadd(b.fmul(x, float(k + 1)), float(k)) for k in range(n_values)]
    loop_i = b.local_var("i", I32)
    acc = b.local_var("acc", F32)
    b.store_var(loop_i, b.iimm(0))
    b.store_var(acc, b.fimm(0.0))
    loop = b.push_loop()
    iv = b.load_var(loop_i)
    out = b.push_if(b.ige(iv, 3))
    b.break_()
    b.pop_if(out)
    total = b.load_var(acc)
    for k, v in enumerate(vals):
        total = b.fadd(b.fmul(v, b.i2f32(b.iadd(iv, k))), total)
    b.store_var(acc, total)
    b.store_var(loop_i, b.iadd(iv, 1))
    b.pop_loop(loop)
    s = b.load_var(acc)
    for v in vals:
        s = b.fadd(s, v)
    _out(b, s)
    preprocess(sh)
    return sh


@pytest.mark.parametrize("max_regs", [128, 12, 6])
def test_spilling_under_a_small_register_budget(max_regs):
    data = np.random.default_rng(3).uniform(-1, 1, 64).astype(np.float32)
    run = _compare_vs(_pressure_program(), data, max_regs=max_regs)
    st = run.compiled.stats
    assert st.gprs <= 2 * max_regs
    if max_regs < 16:
        assert st.spills > 0 and st.fills > 0 and run.compiled.scratch_B > 0
        assert "stack_store" in run.compiled.assembly
    else:
        assert st.spills == 0


def test_budget_too_small_is_an_error():
    with pytest.raises(BackendError):
        compile_ir(_pressure_program(), max_regs=2)


def test_compute_shared_memory_barrier_and_atomics():
    sh, b = new_shader("compute")
    sh.info["shared_size_B"] = 512
    tid = b.load_local_invocation_index()
    gid = b.channel(b.load_global_invocation_id(), 0)
    b.store_shared(b.imul(tid, 3), b.imul(tid, 4), base=0, write_mask=1, align=4)
    b.barrier(execution_scope="workgroup", memory_scope="workgroup")
    other = b.load_shared(b.imul(b.umod(b.iadd(tid, 1), 64), 4), num_components=1, bit_size=32, base=0, align=4)
    old = b.ssbo_atomic(b.iimm(0), b.iimm(0), b.iimm(1), atomic_op="add")
    mx = b.ssbo_atomic(b.iimm(0), b.iimm(4), gid, atomic_op="umax")
    sh_old = b.shared_atomic(b.iimm(0), b.iimm(2), base=300, atomic_op="add")
    swapped = b.ssbo_atomic_swap(b.iimm(0), b.iimm(8), b.iimm(0), b.iadd(gid, 1), atomic_op="cmpxchg")
    base = b.iadd(b.imul(gid, 16), 16)
    b.store_ssbo(b.vec(other, old, sh_old, swapped), b.iimm(0), base, write_mask=0xF, align=16)
    run = Run(sh)
    groups, size = 2, 64
    ctx = ExecContext.for_compute((groups, 1, 1), (size, 1, 1), local_memory_B=512)
    buf = np.zeros(16 + 16 * groups * size, np.uint8)
    _, out = run.core(groups * size, ssbos={0: buf}, ctx=ctx)
    words = out[0].view(np.uint32)
    rec = words[4:].reshape(-1, 4)
    tid = np.arange(groups * size) % size
    assert (rec[:, 0] == (tid + 1) % size * 3).all()                    # after the barrier
    assert sorted(rec[:, 1]) == list(range(groups * size))               # each lane saw a distinct old value
    assert words[0] == groups * size and words[1] == groups * size - 1
    assert sorted(rec[:, 2] // 2 * 0 + rec[:, 2]) == sorted(list(range(0, 2 * size, 2)) * groups)
    assert (rec[:, 3] != 0).sum() == groups * size - 1 and words[2] != 0   # one lane won the cmpxchg
    assert run.compiled.local_memory_B == 512
    assert "threadgroup_barrier" in run.compiled.assembly


class FakeTextureUnit:
    """A texture whose texel at (s, t) is (s + t, s * t, lod, 1): checks the
    coordinates and LOD operands reach the unit."""

    @staticmethod
    def sample(mem, tex_va, samp_va, coords, lod=None, bias=None, ddx=None, ddy=None, compare=None, offset=None,
               gather_component=None):
        s, t = coords[:, 0], coords[:, 1]
        l = np.zeros_like(s) if lod is None else np.broadcast_to(lod, s.shape)
        if compare is not None:
            l = (s < compare).astype(np.float32)
        return np.stack([s + t, s * t, l, np.ones_like(s)], -1).astype(np.float32)


def test_texture_sample_with_explicit_lod_and_compare(monkeypatch):
    monkeypatch.setattr(usc_tex, "texture_unit", lambda: FakeTextureUnit)
    sh, b = new_shader()
    x = _ssbo_input(b, 2)
    c = b.tex("txl", coord=x, lod=b.channel(x, 1), texture=0, sampler=0, dim="2d")
    d = b.tex("tex", coord=x, comparator=b.channel(x, 1), texture=1, sampler=1, dim="2d", is_shadow=True)
    _out(b, b.vec(b.channel(c, 0), b.channel(c, 1), b.channel(c, 2), b.channel(d, 2)))
    data = np.random.default_rng(4).uniform(0, 1, (64, 2)).astype(np.float32)
    raw = data.view(np.uint8).reshape(-1)

    def sample(t, srcs):
        co = srcs["coord"].view(np.float32)
        s, tt = co[0], co[1]
        l = srcs["lod"].view(np.float32)[0] if "lod" in srcs else (s < srcs["comparator"].view(np.float32)[0])
        return np.stack([s + tt, s * tt, np.asarray(l, np.float32), np.ones_like(s)]).astype(np.float32).view(np.uint32)

    run = Run(sh)
    ctx, _ = run.core(64, ssbos={0: raw})
    it = interp(sh, 64, ssbos={0: raw}, sample=sample)
    np.testing.assert_array_equal(ctx.varyings[:4], it.outputs["O"][:4].astype(np.uint32))
    assert "texture_sample.2d.lod" in run.compiled.assembly and "wait 1" in run.compiled.assembly


def test_fragment_discard_depth_derivatives_and_tile_store():
    sh, b = new_shader("fragment")
    v = b.load_input(b.iimm(0), num_components=2, base=2, slot="VAR0", interp="smooth")
    b.discard_if(b.flt(b.channel(v, 0), 0.25))
    b.store_output(b.channel(v, 1), b.iimm(0), base=0, component=0, slot="DEPTH", write_mask=1)
    dx = b.fddx(b.fmul(b.channel(v, 0), b.channel(v, 0)))
    fc = b.load_frag_coord()
    b.intrinsic("store_tile", b.vec(dx, b.channel(fc, 0), b.channel(fc, 1), b.channel(v, 1)), rt=0, format="i32",
                offset_B=0, write_mask=0xF)
    run = Run(sh)
    lanes = 16
    vals = np.random.default_rng(5).uniform(0, 1, (4, lanes)).astype(np.float32)
    ctx = frag_context(lanes, {"VAR0": vals.view(np.uint32)}, {"VAR0": 2})
    ctx, _ = run.core(lanes, ctx=ctx)
    x0 = vals[0]
    keep = x0 >= 0.25
    assert (ctx.discarded == ~keep).all()
    assert (ctx.depth_written == keep).all() and np.allclose(ctx.depth[keep], vals[1][keep])
    words = tile_words(ctx).view(np.float32)
    q = (x0 * x0).reshape(-1, 2, 2)
    exp_dx = np.repeat(q[:, :, 1] - q[:, :, 0], 2, axis=1).reshape(-1)
    assert np.allclose(words[0][keep], exp_dx[keep])
    assert np.allclose(words[1][keep], (np.arange(lanes) % 7 + 0.5)[keep])
    assert np.allclose(words[2][keep], (np.arange(lanes) // 7 + 0.5)[keep])
    assert run.compiled.discards and run.compiled.writes_depth


def test_waits_are_needed_and_sufficient():
    """The core's debug scoreboard accepts the compiled program and rejects the
    same program with its waits removed."""
    sh, b = new_shader()
    x = _ssbo_input(b, 4)
    _out(b, b.fadd(x, x))
    run = Run(sh)
    data = np.arange(256, dtype=np.float32).view(np.uint8)
    run.core(64, ssbos={0: data})      # debug mode: raises on a hazard
    text = "\n".join(line for line in run.compiled.assembly.splitlines() if not line.startswith("wait"))
    broken = assemble(text)
    assert broken != run.compiled.binary
    run.compiled.binary = broken
    with pytest.raises(ScoreboardHazard):
        run.core(64, ssbos={0: data})


@pytest.mark.parametrize("max_regs", [128, 6])
def test_disassembly_reassembles_to_the_same_bytes(max_regs):
    run = Run(_pressure_program(), max_regs=max_regs)
    assert assemble(disassemble(run.compiled.binary)) == run.compiled.binary
    assert assemble(run.compiled.assembly) == run.compiled.binary


def test_vertex_attribute_fetch_and_base_vertex():
    sh, b = new_shader()
    a = b.load_input(b.iimm(0), num_components=3, base=1, slot="ATTR1")
    bv = b.load_base_vertex()
    _out(b, b.vec(b.channel(a, 2), b.channel(a, 0), b.i2f32(bv)))
    run = Run(sh)
    lanes = 8
    attrs = np.arange(lanes * 5, dtype=np.float32)      # stride 20 bytes, 3 floats used
    mem_va = 0x1_0020_0000
    ctx = ExecContext(lanes=lanes, specials={"vertex_id": np.arange(lanes, dtype=np.uint32), "instance_id": 0},
                      preload={1: np.full(lanes, 9, np.uint32), 2: np.full(lanes, 5, np.uint32)})
    ctx2, _ = run.core(lanes, ctx=ctx, extra={("attribute_address", 1): mem_va, ("attribute_stride", 1): 20},
                       core_kw=None)
    # the harness wrote code; write the attribute data and run again
    run.mem.write(mem_va, attrs.view(np.uint8), "test")
    ShaderCore(run.mem, debug=True).run(CODE_VA, ctx2)
    got = ctx2.varyings[:3].view(np.float32)
    rec = attrs.reshape(lanes, 5)
    assert (got[0] == rec[:, 2]).all() and (got[1] == rec[:, 0]).all() and (got[2] == 5).all()
    assert run.compiled.attributes == [1]


def test_memory_is_flatmemory_sized():
    assert FlatMemory  # the harness's memory model (kept imported for clarity)


class FakeImageUnit:
    """Images as a dict of texels: checks coordinates, descriptor addresses and
    values reach the unit (image k is descriptor IMAGE_DESCRIPTOR_BASE + k)."""
    store: dict = {}

    @classmethod
    def image_store(cls, mem, va, coords, values):
        for c, v in zip(coords.tolist(), values.tolist()):
            cls.store[(int(va), tuple(c))] = v

    @classmethod
    def image_load(cls, mem, va, coords, sample=None):
        return np.array([cls.store.get((int(va), tuple(c)), [0, 0, 0, 0]) for c in coords.tolist()],
                        np.uint32).reshape(-1, 4)

    @classmethod
    def image_atomic(cls, mem, va, coords, op, value, compare=None):
        olds = []
        for c, v in zip(coords.tolist(), value.tolist()):
            key = (int(va), tuple(c))
            old = cls.store.get(key, [0, 0, 0, 0])
            olds.append(old[0])
            cls.store[key] = [old[0] + v] + old[1:]
        return np.array(olds, np.uint32)

    @staticmethod
    def size(mem, va, lod):
        return np.tile(np.array([[int(va) % 1000, 7, 1]], np.int32), (np.size(lod), 1))


def test_image_store_load_atomic_and_size(monkeypatch):
    from compiler.backend import IMAGE_DESCRIPTOR_BASE
    FakeImageUnit.store = {}
    monkeypatch.setattr(usc_tex, "texture_unit", lambda: FakeImageUnit)
    sh, b = new_shader("compute")
    gid = b.load_global_invocation_id()
    coord = b.vec(b.channel(gid, 0), b.iimm(3))
    b.intrinsic("image_store", coord, b.iimm(0), b.vec(b.channel(gid, 0), b.iimm(5), b.iimm(6), b.iimm(7)),
                image=2, dim="2d", is_array=False)
    old = b.intrinsic("image_atomic", coord, b.iimm(0), b.iimm(10), image=2, dim="2d", is_array=False,
                      atomic_op="add")
    back = b.intrinsic("image_load", coord, b.iimm(0), image=2, dim="2d", is_array=False)
    size = b.intrinsic("image_size", num_components=2, image=1, dim="2d", is_array=False)
    off = b.imul(b.channel(gid, 0), 16)
    b.store_ssbo(b.vec(old, b.channel(back, 0), b.channel(back, 1), b.channel(size, 0)), b.iimm(0), off,
                 write_mask=0xF, align=16)
    run = Run(sh)
    ctx = ExecContext.for_compute((1, 1, 1), (16, 1, 1))
    ctx.texture_heap_va = 0x2000
    _, out = run.core(16, ssbos={0: np.zeros(256, np.uint8)}, ctx=ctx)
    w = out[0].view(np.uint32).reshape(16, 4)
    stride = ctx.texture_desc_stride_B
    assert (w[:, 0] == np.arange(16)).all() and (w[:, 1] == np.arange(16) + 10).all() and (w[:, 2] == 5).all()
    assert (w[:, 3] == (0x2000 + (IMAGE_DESCRIPTOR_BASE + 1) * stride) % 1000).all()


def test_parallel_copies_with_cycles_of_mixed_sizes():
    """Random permutations of halves and 32-bit registers (the phi/collect
    lowering's sequentialiser) give the parallel result."""
    from compiler.backend.ra import sequentialise
    rng = np.random.default_rng(13)
    for _ in range(300):
        n = 12
        regs = list(range(4, 4 + n))
        perm = rng.permutation(regs)
        moves = [(int(d), ("r", int(s))) for d, s in zip(regs, perm)]
        if rng.integers(3) == 0:      # fan-out: one source copied to several places
            moves = [(d, ("r", int(rng.choice(regs[:4])))) if k % 3 == 0 else (d, s) for k, (d, s) in enumerate(moves)]
        if rng.integers(2):
            moves = moves[: rng.integers(1, n)]
        state = {h: 1000 + h for h in range(64)}
        expect = dict(state)
        for d, (_f, s) in moves:
            expect[d] = state[s]
        for ins in sequentialise(moves):
            dst, src = ins.f["dst"], ins.f["a"]
            vals = [state[src.half + k] for k in range(dst.size // 16)]
            for k, v in enumerate(vals):
                state[dst.half + k] = v
        assert all(state[h] == expect[h] for h in range(4, 64)), moves


def test_assembly_text_is_the_disassembly():
    run = Run(_pressure_program(), max_regs=6)
    assert run.compiled.assembly == disassemble(run.compiled.binary)


class RecordingTextureUnit:
    """Returns, per lane, what the unit was given: (bias or lod, ddx.x, offset x, gather component)."""

    @staticmethod
    def sample(mem, tex_va, samp_va, coords, lod=None, bias=None, ddx=None, ddy=None, compare=None, offset=None,
               gather_component=None):
        n = coords.shape[0]
        col = lambda v: np.zeros(n, np.float32) if v is None else np.broadcast_to(np.asarray(v, np.float32), (n,))  # noqa: E731
        lod_or_bias = col(bias) if bias is not None else col(lod)
        d = col(None) if ddx is None else np.asarray(ddx, np.float32)[:, 0]
        off = col(None) if offset is None else np.asarray(offset, np.float32)[:, 0]
        g = col(None) if gather_component is None else col(gather_component)
        return np.stack([lod_or_bias, d, off, g], -1)


def test_texture_bias_grad_offset_and_gather_operands(monkeypatch):
    monkeypatch.setattr(usc_tex, "texture_unit", lambda: RecordingTextureUnit)
    sh, b = new_shader()
    x = _ssbo_input(b, 2)
    bias = b.tex("txb", coord=x, bias=b.channel(x, 1), texture=0, sampler=0, dim="2d")
    grad = b.tex("txd", coord=x, ddx=b.fmul(x, 3.0), ddy=x, texture=0, sampler=0, dim="2d")
    offs = b.tex("txl", coord=x, lod=b.fimm(0.0), offset=b.iimm([-3, 2], 32), texture=0, sampler=0, dim="2d")
    gath = b.tex("tg4", coord=x, texture=0, sampler=0, dim="2d", component=2)
    _out(b, b.vec(b.channel(bias, 0), b.channel(grad, 1), b.channel(offs, 2), b.channel(gath, 3)))
    data = np.random.default_rng(14).uniform(0, 1, (64, 2)).astype(np.float32)
    run = Run(sh)
    ctx, _ = run.core(64, ssbos={0: data.view(np.uint8).reshape(-1)})
    got = ctx.varyings[:4].view(np.float32)
    assert (got[0] == data[:, 1]).all() and np.allclose(got[1], data[:, 0] * 3)
    assert (got[2] == -3).all() and (got[3] == 2).all()
    asm = run.compiled.assembly
    assert "texture_sample.2d.bias" in asm and "texture_sample.2d.grad" in asm and ".offset" in asm \
        and ".gather" in asm


def test_sample_mask_output():
    sh, b = new_shader("fragment")
    v = b.load_input(b.iimm(0), num_components=1, base=2, slot="VAR0", interp="flat")
    b.store_output(b.iand(b.f2u32(v), 0x5), b.iimm(0), base=0, component=0, slot="SAMPLE_MASK", write_mask=1)
    run = Run(sh)
    lanes = 8
    vals = np.zeros((4, lanes), np.float32)
    vals[0] = np.arange(lanes)
    ctx = frag_context(lanes, {"VAR0": vals.view(np.uint32)}, {"VAR0": 2})
    ctx.specials["coverage_mask"] = np.full(lanes, 0xF, np.uint32)
    ctx, _ = run.core(lanes, ctx=ctx)
    assert (ctx.sample_mask == (np.arange(lanes) & 5 & 0xF)).all() and run.compiled.writes_sample_mask
