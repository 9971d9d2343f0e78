"""Every ALU op the lowering emits, compiled and run on the shader core, against
the IR interpreter on the same inputs (exact, or within a few ulp where the
backend computes differently: division by reciprocal, fmod, pow, dot)."""

import numpy as np
import pytest

from compiler.ir.opcodes import OPS

from .harness import Run, interp, new_shader

LANES = 64
RNG = np.random.default_rng(7)


def _floats(n=LANES, lo=-4.0, hi=4.0):
    v = RNG.uniform(lo, hi, n).astype(np.float32)
    v[:6] = [0.0, -0.0, 1.0, -1.0, 0.5, 2.5]
    return v


def _ints(n=LANES):
    v = RNG.integers(-2**31, 2**31, n, dtype=np.int64).astype(np.int32)
    v[:8] = [0, 1, -1, 7, -7, 2**31 - 1, -2**31, 3]
    return v


def _run(build, inputs: list[np.ndarray], comps: int = 1, bits: int = 32, max_regs: int = 128):
    """``build(b, [scalar defs]) -> def``: read len(inputs) 32-bit words per lane
    from SSBO 0, store the result to output 0; returns (core, interpreter) words."""
    sh, b = new_shader()
    vid = b.load_vertex_id()
    base = b.imul(vid, 4 * len(inputs))
    xs = [b.load_ssbo(b.iimm(0), b.iadd(base, 4 * k), num_components=1, bit_size=32, align=4)
          for k in range(len(inputs))]
    r = build(b, xs)
    b.store_output(r, b.iimm(0), base=0, component=0, slot="O", write_mask=(1 << r.num_components) - 1)
    data = np.stack([np.asarray(x).view(np.uint32) for x in inputs], axis=1).reshape(-1).view(np.uint8)
    run = Run(sh, max_regs=max_regs)
    ctx, _ = run.core(LANES, ssbos={0: data})
    it = interp(sh, LANES, ssbos={0: data})
    n = r.num_components
    return ctx.varyings[:n].copy(), it.outputs["O"][:n].astype(np.uint32), run


def _f(words):
    return words.view(np.float32)


def _close(got, exp, ulps=4):
    g, e = _f(got), _f(exp)
    ok = (g == e) | (np.isnan(g) & np.isnan(e)) | (np.abs(g - e) <= ulps * np.spacing(np.abs(e)))
    assert ok.all(), f"{g[~ok]} != {e[~ok]}"


EXACT_FLOAT_BIN = ["fadd", "fsub", "fmul", "fmin", "fmax"]
EXACT_FLOAT_UN = ["fneg", "fabs", "fsat", "fsign", "ffloor", "fceil", "ftrunc", "fround_even", "frcp", "fsqrt",
                  "fexp2", "flog2", "fsin", "fcos"]


@pytest.mark.parametrize("op", EXACT_FLOAT_BIN)
def test_float_binary(op):
    got, exp, _ = _run(lambda b, x: b.alu(op, x[0], x[1]), [_floats(), _floats()])
    np.testing.assert_array_equal(_f(got), _f(exp))


@pytest.mark.parametrize("op", EXACT_FLOAT_UN)
def test_float_unary(op):
    x = _floats()
    if op in ("fsqrt", "flog2"):
        x = np.abs(x)
    got, exp, _ = _run(lambda b, v: b.alu(op, v[0]), [x])
    if op == "frcp":
        _close(got, exp, 1)
    else:
        np.testing.assert_array_equal(_f(got), _f(exp))


def test_float_modifiers_fold_into_sources():
    got, exp, run = _run(lambda b, x: b.fmul(b.fneg(b.fabs(x[0])), b.fneg(x[1])), [_floats(), _floats()])
    np.testing.assert_array_equal(_f(got), _f(exp))
    assert "fmul" in run.compiled.assembly and ".abs.neg" in run.compiled.assembly.replace(".neg.abs", ".abs.neg")


def test_ffract_frsq():
    x = np.abs(_floats()) + np.float32(0.25)
    got, exp, _ = _run(lambda b, v: b.vec(b.ffract(v[0]), b.frsq(v[0])), [x])
    _close(got, exp, 2)


@pytest.mark.parametrize("op", ["fdiv", "fpow", "ffma", "flrp", "fmod"])
def test_float_expanded(op):
    a, c, d = np.abs(_floats()) + 0.5, _floats(lo=0.6, hi=3.0), _floats()
    if op == "fmod":
        got, exp, _ = _run(lambda b, x: b.fmod(x[0], x[1]), [_floats(lo=-10, hi=10), c])
        q = _floats  # quotients near an integer may floor differently: compare elsewhere
        g, e = _f(got)[0], _f(exp)[0]
        assert (np.abs(g - e) < 1e-4).mean() > 0.9
        return
    n = 3 if op in ("ffma", "flrp") else 2
    got, exp, _ = _run(lambda b, x: b.alu(op, *x[:n]), [a, c, d][:n])
    if op in ("ffma", "flrp"):
        # the backend fuses (one rounding) and lerps as fma(t, b - a, a): compare
        # against the size of the terms, not of the (possibly cancelling) result
        scale = np.abs(a * c) + np.abs(d) + np.abs(a) + np.abs(c)
        assert (np.abs(_f(got)[0] - _f(exp)[0]) <= 4e-7 * scale).all()
    else:
        _close(got, exp, 16 if op == "fpow" else 4)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_fdot(n):
    vals = [_floats() for _ in range(2 * n)]
    got, exp, _ = _run(lambda b, x: b.alu(f"fdot{n}", b.vec(*x[:n]), b.vec(*x[n:])), vals)
    assert np.allclose(_f(got), _f(exp), rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("op", ["flt", "fge", "feq", "fneu"])
def test_float_compare(op):
    a, c = _floats(), _floats()
    c[::3] = a[::3]
    got, exp, _ = _run(lambda b, x: b.b2i32(b.alu(op, x[0], x[1])), [a, c])
    np.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("op", ["ilt", "ige", "ieq", "ine", "ult", "uge"])
def test_int_compare(op):
    a, c = _ints(), _ints()
    c[::3] = a[::3]
    got, exp, _ = _run(lambda b, x: b.b2i32(b.alu(op, x[0], x[1])), [a, c])
    np.testing.assert_array_equal(got, exp)


def test_bcsel_and_bool_ops():
    a, c, d = _floats(), _floats(), _ints()
    def build(b, x):
        p, q = b.flt(x[0], x[1]), b.ilt(x[2], 0)
        both = b.iand(p, q)
        either = b.ior(p, b.inot(q))
        one = b.ixor(p, q)
        return b.vec(b.bcsel(p, x[0], x[1]), b.bcsel(both, x[2], 5), b.b2f32(either), b.b2i32(one))
    got, exp, _ = _run(build, [a, c, d])
    np.testing.assert_array_equal(got, exp)


INT_BIN = ["iadd", "isub", "imul", "imin", "imax", "umin", "umax", "iand", "ior", "ixor", "ishl", "ishr", "ushr",
           "idiv", "irem", "imod", "udiv", "umod"]


@pytest.mark.parametrize("op", INT_BIN)
def test_int_binary(op):
    a, c = _ints(), _ints()
    if op in ("idiv", "irem", "imod", "udiv", "umod"):
        c[8:24] = RNG.integers(-9, 10, 16)          # small divisors (0 included: x/0 = 0 in the IR)
        c[24:32] = [1, -1, 2, -2, 0, 3, 65536, -65536]
    got, exp, _ = _run(lambda b, x: b.alu(op, x[0], x[1]), [a, c])
    np.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("op", ["udiv", "umod"])
@pytest.mark.parametrize("d", [0, 1, 2, 8, 1 << 31, 3, 7, 10, 641, 0x7FFFFFFF, 0x80000001, 0xFFFFFFFE, 0xFFFFFFFF])
def test_unsigned_division_by_a_constant(op, d):
    """n / d and n % d by a constant d (a shift and a mask for a power of two, a
    magic-number multiply otherwise) against numpy, over random and edge dividends
    (multiples of d and their neighbours, 0, 2^31, 2^32 - 1); d = 0 gives 0 (the IR)."""
    n = _ints().view(np.uint32).copy()
    edge = [0, 1, 2, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFE, 0xFFFFFFFF]
    if d:
        edge += [k * d + o for k in (1, 2, 3, 0xFFFFFFFF // d) for o in (-1, 0, 1) if 0 <= k * d + o < 1 << 32]
    n[:len(edge)] = edge
    got, _, _ = _run(lambda b, x: b.alu(op, x[0], d), [n.view(np.int32)])
    got = got.reshape(-1)
    want = np.zeros_like(n) if d == 0 else n // np.uint32(d) if op == "udiv" else n % np.uint32(d)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("op", ["ineg", "iabs", "isign", "inot", "bit_count", "ufind_msb", "ifind_msb", "find_lsb",
                                "bitfield_reverse"])
def test_int_unary(op):
    got, exp, _ = _run(lambda b, x: b.alu(op, x[0]), [_ints()])
    np.testing.assert_array_equal(got, exp)


def test_bitfields():
    a, ins = _ints(), _ints()
    off = RNG.integers(0, 32, LANES).astype(np.int32)
    bits = np.minimum(RNG.integers(0, 32, LANES), 32 - off).astype(np.int32)
    got, exp, _ = _run(lambda b, x: b.vec(b.ubitfield_extract(x[0], x[2], x[3]), b.ibitfield_extract(x[0], x[2], x[3]),
                                          b.bitfield_insert(x[0], x[1], x[2], x[3])), [a, ins, off, bits])
    np.testing.assert_array_equal(got, exp)


@pytest.mark.parametrize("op", ["f2i32", "f2u32", "i2f32", "u2f32", "f2f16", "f2b1", "i2b1", "b2f32", "b2i32",
                                "i2i16", "u2u16"])
def test_conversions(op):
    if op in ("f2i32", "f2f16", "f2b1"):
        x = _floats(lo=-1e4, hi=1e4)
    elif op == "f2u32":
        x = np.abs(_floats(lo=0, hi=1e6))      # negative -> unsigned is undefined in GLSL
    elif op in ("b2f32", "b2i32"):
        x = _floats()
    else:
        x = _ints()
    if op in ("b2f32", "b2i32"):
        build = lambda b, v: b.alu(op, b.flt(v[0], 0.0))  # noqa: E731
    else:
        build = lambda b, v: b.alu(op, v[0])  # noqa: E731
    got, exp, _ = _run(build, [x])
    np.testing.assert_array_equal(got, exp)


def test_16bit_arithmetic():
    x, y = _floats(), _floats()
    def build(b, v):
        h = b.fadd(b.f2f16(v[0]), b.f2f16(v[1]))
        i = b.iadd(b.i2i16(b.f2i32(v[0])), b.u2u16(b.f2u32(b.fabs(v[1]))))
        return b.vec(b.f2f32(b.fmul(h, h)), b.i2i32(i))
    got, exp, _ = _run(build, [x, y])
    np.testing.assert_array_equal(got, exp)


def test_packing():
    a, c = _floats(lo=-2, hi=2), _floats(lo=-0.2, hi=1.2)
    def build(b, v):
        ph = b.pack_half_2x16(b.vec(v[0], v[1]))
        uh = b.unpack_half_2x16(ph)
        pu = b.pack_unorm_4x8(b.vec(v[1], v[0], v[1], v[0]))
        uu = b.unpack_unorm_4x8(pu)
        return b.vec(ph, b.fadd(b.channel(uh, 0), b.channel(uh, 1)), pu, b.fadd(b.channel(uu, 0), b.channel(uu, 1)))
    got, exp, _ = _run(build, [a, c])
    np.testing.assert_array_equal(got[:3], exp[:3])
    _close(got[3:], exp[3:], 2)


@pytest.mark.parametrize("op", ["ball_fequal", "bany_fnequal", "ball_iequal", "bany_inequal"])
def test_vector_compare_reductions(op):
    a, c = _ints(), _ints()
    c[::2] = a[::2]
    got, exp, _ = _run(lambda b, x: b.b2i32(b.alu(f"{op}2", b.vec(x[0], x[0]), b.vec(x[1], x[0]))), [a, c])
    np.testing.assert_array_equal(got, exp)


def test_every_op_emitted_by_the_lowering_is_selected():
    """The ops above cover the op table except those only the interpreter knows."""
    covered = set(EXACT_FLOAT_BIN + EXACT_FLOAT_UN + INT_BIN) | {
        "ffract", "frsq", "fdiv", "fpow", "ffma", "flrp", "fmod", "flt", "fge", "feq", "fneu", "ilt", "ige", "ieq",
        "ine", "ult", "uge", "bcsel", "ineg", "iabs", "isign", "inot", "bit_count", "ufind_msb", "ifind_msb",
        "find_lsb", "bitfield_reverse", "ubitfield_extract", "ibitfield_extract", "bitfield_insert",
        "pack_half_2x16", "unpack_half_2x16", "pack_unorm_4x8", "unpack_unorm_4x8", "mov", "fddx", "fddy",
        "umul_high", "pack_64_2x32_split", "unpack_64_2x32_split_x", "unpack_64_2x32_split_y"}  # test_fp64_backend
    rest = {op for op in OPS if op not in covered and not op.startswith(("vec", "fdot", "ball_", "bany_"))
            and "2" not in op[1:3]}
    assert not rest, f"ops without a backend test: {sorted(rest)}"


def test_64bit_integer_arithmetic():
    a, c = _ints(), _ints()
    def build(b, x):
        wide = b.imul(b.i2i64(x[0]), b.i2i64(x[1]))
        s = b.iadd(wide, b.u2u64(x[1]))
        return b.vec(b.u2u32(s), b.u2u32(b.ushr(s, 32)), b.u2u32(b.ishr(wide, 40)))
    got, exp, run = _run(build, [a, c])
    np.testing.assert_array_equal(got, exp)
    import re
    assert re.search(r"\bimul r\d+_r\d+, r\d+_r\d+", run.compiled.assembly)      # 64-bit register pairs
