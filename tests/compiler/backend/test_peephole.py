"""Scalar float peepholes on the machine IR (compiler/backend/peephole.py), before
and after per rule, with the cases each rule must leave alone; register
coalescing of a store's collect; and the shader core computing bit-identical
tiles with and without the peepholes (and the blend against numpy)."""

import numpy as np
import pytest

from compiler.backend import compile_ir
from compiler.backend.mir import MBlock, MFunction, MInstr, Ref, VReg
from compiler.backend.peephole import peephole
from compiler.backend.pipeline import dce
from compiler.compile import front_half
from compiler.ir import ShaderKey
from compiler.lower import Blend, RenderTarget
from uapi.isa import Imm
from uapi.isa.semantics import minifloat_encode

from .harness import Run, frag_context

NEG0, ONE, TWO, M2 = Imm(0x80), Imm(minifloat_encode(1.0)), Imm(minifloat_encode(2.0)), Imm(minifloat_encode(-2.0))


def alu(op, dst, *srcs, sat=False, **mods):
    f = {"dst": dst, "sat": sat}
    for name, x in zip("abc", srcs):
        f.update({name: x, f"{name}_abs": mods.get(f"{name}_abs", False), f"{name}_neg": mods.get(f"{name}_neg", False)})
    return MInstr(op, f)


class Prog:
    """A straight-line MIR program over named scalars; ``text()`` prints it with
    the names, so before/after tests compare text."""

    def __init__(self):
        self.names: dict = {}
        self.instrs: list = []

    def v(self, name):
        if name not in self.names:
            self.names[name] = VReg(32)
        return self.names[name]

    def r(self, name):
        return Ref(self.v(name), 0, 32)

    def add(self, ins):
        self.instrs.append(ins)
        return self

    def store(self, fmt, *names):
        vec = VReg(32, len(names))
        self.instrs.append(MInstr("collect", dsts=[vec], srcs=[self.r(n) for n in names]))
        self.instrs.append(MInstr("st_tile", {"data": vec, "fmt": fmt, "offset": 0, "mask": (1 << len(names)) - 1}))
        return self

    def run(self):
        self.func = MFunction([MBlock(instrs=self.instrs)], "fragment")
        return peephole(self.func, dce)

    def text(self):
        inv = {v: k for k, v in self.names.items()}

        def show(x):
            if isinstance(x, Ref):
                return inv.get(x.vreg, "?")
            if isinstance(x, VReg):
                return inv.get(x, "vec")
            if isinstance(x, Imm):
                return f"#{x.code:#x}"
            return repr(x)
        lines = []
        for ins in self.func.body[0].instrs:
            if ins.pseudo:
                lines.append(f"{ins.op} " + ", ".join(show(x) for x in ins.srcs))
                continue
            f = ins.f
            ops = []
            for k, x in f.items():
                if k in ("sat",) or k.endswith(("_abs", "_neg")):
                    continue
                s = show(x)
                if f.get(f"{k}_abs"):
                    s += ".abs"
                if f.get(f"{k}_neg"):
                    s += ".neg"
                ops.append(s)
            lines.append(f"{ins.op}{'.sat' if f.get('sat') else ''} " + ", ".join(ops))
        return "\n".join(lines)


def prog_with_uses(build, *live):
    """``build(p)`` then an i32 store of ``live`` (keeps them used without clamping)."""
    p = Prog()
    build(p)
    p.store("i32", *live)
    return p


def test_fmul_by_one_is_the_value():
    p = prog_with_uses(lambda p: p.add(alu("fmul", p.v("y"), ONE, p.r("x"))).add(alu("fmul", p.v("z"), p.r("x"), ONE)),
                       "y", "z")
    assert p.run()
    assert p.text() == "collect x, x\nst_tile vec, 'i32', 0, 3"


@pytest.mark.parametrize("case", ["sat", "neg", "two"])
def test_fmul_by_one_negcases(case):
    def build(p):
        if case == "sat":
            p.add(alu("fmul", p.v("y"), ONE, p.r("x"), sat=True))
        elif case == "neg":
            p.add(alu("fmul", p.v("y"), ONE, p.r("x"), b_neg=True))
        else:
            p.add(alu("fmul", p.v("y"), TWO, p.r("x")))
    p = prog_with_uses(build, "y")
    before = [(i.op, dict(i.f)) for i in p.instrs]
    if case == "sat":                          # sat(x * 1): kept as a saturate (nothing to fold it into)
        p.run()
        assert "fmul.sat" in p.text() or "fadd.sat" in p.text()
    else:
        assert not p.run()
        assert [(i.op, i.f) for i in p.func.body[0].instrs] == before


def test_fma_with_a_constant_product_is_an_add():
    p = prog_with_uses(lambda p: p.add(alu("fma", p.v("y"), ONE, ONE, p.r("c"))).add(
        alu("fma", p.v("z"), TWO, M2, p.r("c"), c_neg=True)).add(alu("fma", p.v("w"), p.r("a"), ONE, p.r("c"))),
        "y", "z", "w")
    assert p.run()
    assert p.text() == (f"fadd y, c, #{minifloat_encode(1.0):#x}\nfadd z, c.neg, #{minifloat_encode(-4.0):#x}\n"
                        "fadd w, a, c\ncollect y, z, w\nst_tile vec, 'i32', 0, 7")


def test_fma_with_a_product_that_is_no_immediate_is_kept():
    big = Imm(minifloat_encode(15.5))
    p = prog_with_uses(lambda p: p.add(alu("fma", p.v("y"), big, big, p.r("c"))), "y")   # 240.25: no immediate
    assert not p.run()


def test_saturate_of_a_constant_folds():
    p = prog_with_uses(lambda p: p.add(alu("fadd", p.v("y"), ONE, NEG0, sat=True)).add(
        alu("fadd", p.v("z"), M2, NEG0, sat=True)).add(alu("fadd", p.v("w"), Imm(0x80), Imm(0), sat=True)), "y", "z", "w")
    assert p.run()
    assert p.text() == "mov_imm y, 1065353216\nmov_imm z, 0\nmov_imm w, 0\ncollect y, z, w\nst_tile vec, 'i32', 0, 7"


def test_saturate_twice_is_once_and_folds_into_the_producer():
    p = prog_with_uses(lambda p: p.add(alu("fmul", p.v("m"), p.r("a"), p.r("b"))).add(
        alu("fadd", p.v("s1"), p.r("m"), NEG0, sat=True)).add(alu("fadd", p.v("s2"), p.r("s1"), NEG0, sat=True)), "s2")
    assert p.run()
    assert p.text() == "fmul.sat m, a, b\ncollect m\nst_tile vec, 'i32', 0, 1"


def test_saturate_not_folded_into_a_producer_with_other_uses():
    p = prog_with_uses(lambda p: p.add(alu("fmul", p.v("m"), p.r("a"), p.r("b"))).add(
        alu("fadd", p.v("s"), p.r("m"), NEG0, sat=True)), "s", "m")
    assert not p.run()
    assert p.text() == "fmul m, a, b\nfadd.sat s, m, #0x80\ncollect s, m\nst_tile vec, 'i32', 0, 3"


def test_saturate_of_a_negated_value_is_kept():
    p = prog_with_uses(lambda p: p.add(alu("fmul", p.v("m"), p.r("a"), p.r("b"))).add(
        alu("fadd", p.v("s"), p.r("m"), NEG0, sat=True, a_neg=True)), "s")
    assert not p.run()


@pytest.mark.parametrize("fmt", ["unorm8", "unorm16", "srgba8", "rgb10a2"])
def test_saturate_feeding_only_a_unorm_store_is_dropped(fmt):
    p = Prog()
    p.add(alu("fadd", p.v("s"), p.r("x"), NEG0, sat=True)).add(alu("fmul", p.v("t"), p.r("x"), p.r("y"), sat=True))
    p.store(fmt, "s", "t")
    assert p.run()
    assert p.text() == f"fmul t, x, y\ncollect x, t\nst_tile vec, '{fmt}', 0, 3"


@pytest.mark.parametrize("fmt", ["i32", "f16", "snorm8", "rg11b10f"])
def test_saturate_before_other_stores_is_kept(fmt):
    p = Prog()
    p.add(alu("fadd", p.v("s"), p.r("x"), NEG0, sat=True))
    p.store(fmt, "s")
    assert not p.run()


def test_saturate_with_another_use_is_kept_before_a_unorm_store():
    p = Prog()
    p.add(alu("fadd", p.v("s"), p.r("x"), NEG0, sat=True)).add(alu("fmul", p.v("u"), p.r("s"), TWO))
    p.store("unorm8", "s", "u")
    assert not p.run()


# -- whole shaders: glbench's fill_alu and blended overdraw fragment shaders --------

FS_ALU = """#version 330 core
in vec2 v_uv;
out vec4 o;
void main(){
  vec3 n = normalize(vec3(v_uv * 2.0 - 1.0, 1.0));
  float a = sin(v_uv.x * 12.0);
  float b = cos(v_uv.y * 9.0);
  vec3 l = vec3(a, b, 0.75);
  float nl = max(dot(n, l), 0.0);
  float s = pow(nl + 1e-4, 8.0);
  vec3 c = vec3(0.9, 0.6, 0.3) * nl + s;
  c = c * (0.5 + 0.5 * a * b);
  o = vec4(clamp(c, 0.0, 1.0), 1.0);
}
"""
FS_OVER = "#version 330 core\nin vec4 v_col;\nout vec4 o;\nvoid main(){ o = v_col; }\n"
OVER_BLEND = Blend(rgb_src="src_alpha", rgb_dst="one_minus_src_alpha", alpha_src="src_alpha",
                   alpha_dst="one_minus_src_alpha")
SHADERS = {"fill_alu": (FS_ALU, RenderTarget()), "overdraw": (FS_OVER, RenderTarget(blend=OVER_BLEND))}
# Saturates folded into their producers and kept (raw float bits stored): checked bit for bit.
FS_BITS = """#version 330 core
in vec4 v;
layout(location = 0) out uvec4 o;
void main(){
  vec3 n = vec3(v.xy, 1.0) * v.z;
  float d = dot(n, vec3(v.w, 1.0, 1.0));
  o = floatBitsToUint(vec4(clamp(v.x * v.y, 0.0, 1.0), clamp(clamp(v.z + v.w, 0.0, 1.0), 0.0, 1.0),
                           clamp(d, 0.0, 1.0), n.z * 1.0));
}
"""
EXEC = dict(SHADERS, bits=(FS_BITS, RenderTarget(format="i32", base_type="uint")))


def _compile(name, **kw):
    src, rt = EXEC[name]
    shader, info = front_half(src, "fragment", ShaderKey.make(render_targets=(rt,)))
    return compile_ir(shader, info, **kw), info


def _asm(c):
    return c.assembly.strip().splitlines()


@pytest.mark.parametrize("name", SHADERS)
def test_glbench_shaders_lose_the_redundant_instructions(name):
    before, after = _asm(_compile(name, peephole=False)[0]), _asm(_compile(name)[0])
    assert len(after) < len(before)
    store = next(i for i, line in enumerate(after) if line.startswith("st_tile"))
    assert not after[store - 1].startswith("mov ")                    # the collect coalesced
    assert not any(".sat" in line for line in after[store - 4:store])  # the unorm store clamps
    if name == "fill_alu":
        assert not any(line.startswith("fmul") and " 1.0," in line for line in after)
        assert not any(line.startswith("fma") and line.count("1.0") >= 2 for line in after)
        assert not any(line.startswith("fadd.sat") for line in after)


SPECIAL = np.array([np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 0.5, 2.0, 1e-40, -1e-40,
                    0.99999994, 1.0000001, 3e38, -3e38], np.float32)


def _run(c, info, slot, values, dst_bytes):
    n = dst_bytes.shape[1]
    lanes = values.shape[1]
    cf = info.varying(slot).index
    ctx = frag_context(lanes, {slot: values.view(np.uint32)}, {slot: cf})
    ctx.tile_buffer[:, :n] = dst_bytes

    class _C(Run):
        def __init__(self, compiled):
            self.compiled = compiled
    ctx, _ = _C(c).core(lanes, ctx=ctx)
    return ctx.tile_buffer[:, :n].copy()


@pytest.mark.parametrize("name", EXEC)
def test_shader_core_results_are_unchanged(name):
    rng = np.random.default_rng(11)
    lanes = 256
    vals = rng.uniform(-1.5, 2.5, (4, lanes)).astype(np.float32)
    vals[:, :SPECIAL.size * 4] = np.resize(np.concatenate([np.roll(SPECIAL, k) for k in range(4)]), (4, SPECIAL.size * 4))
    dst = rng.integers(0, 256, (lanes, 16 if name == "bits" else 4), dtype=np.uint8)
    slot = "VAR0"
    c0, info = _compile(name, peephole=False)
    c1, _ = _compile(name)
    out0, out1 = _run(c0, info, slot, vals, dst), _run(c1, info, slot, vals, dst)
    assert (out0 == out1).all()
    if name == "bits":
        assert "fmul.sat" in c1.assembly and len(_asm(c1)) < len(_asm(c0))
    if name == "overdraw":   # numpy reference: clamp the source, blend, store unorm8 (NaN -> 0)
        s = np.clip(np.nan_to_num(vals.T, nan=0.0), 0, 1).astype(np.float64)
        d = dst.astype(np.float64) / 255
        a = s[:, 3:4]
        ref = np.rint(np.clip(s * a + d * (1 - a), 0, 1) * 255).astype(np.uint8)
        assert (np.abs(out1.astype(int) - ref) <= 1).all()
