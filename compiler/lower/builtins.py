"""GLSL built-in functions expressed in IR ops: one definition per function name.

Each ``f_<name>`` method receives the already evaluated arguments (values for
``in`` parameters, ``LValue``s for ``out``/``inout``) and the call node, and
returns the result value. Texture, image, atomic and barrier functions are in
the second half.

Precision (GLSL 4.30 section 4.7.1 / ES 3.00 section 4.5.1): the ISA has native
sin, cos, exp2, log2, rcp, rsqrt and sqrt (uapi.isa), so those map to single ops;
exp/log/pow go through exp2/log2 ("inherited from exp2/log2"); atan uses a range
reduction to |t| <= tan(pi/8) and an odd polynomial (error < 2e-7 rad), and
asin/acos/atan2 are built on it. ``noise*`` returns 0, as Mesa does.
"""

from __future__ import annotations

import math

from compiler.glsl import ast
from compiler.glsl import types as GT
from compiler.ir import Def

from .errors import LoweringError

__all__ = ["Builtins", "BUILTIN_NAMES"]

_ATOMIC_OPS = {"atomicAdd": "add", "atomicAnd": "and", "atomicOr": "or", "atomicXor": "xor",
               "atomicExchange": "xchg", "atomicCompSwap": "cmpxchg"}
_IMAGE_ATOMIC_OPS = {"imageAtomicAdd": "add", "imageAtomicAnd": "and", "imageAtomicOr": "or",
                     "imageAtomicXor": "xor", "imageAtomicExchange": "xchg", "imageAtomicCompSwap": "cmpxchg",
                     "imageAtomicMin": "min", "imageAtomicMax": "max"}
_DIMS = {"1D": "1d", "2D": "2d", "3D": "3d", "Cube": "cube", "Rect": "rect", "Buffer": "buf", "2DMS": "ms"}
_COORDS = {"1D": 1, "2D": 2, "3D": 3, "Cube": 3, "Rect": 2, "Buffer": 1, "2DMS": 2}


class Builtins:
    def __init__(self, lowerer):
        self.L = lowerer

    @property
    def b(self):
        return self.L.b

    # ------------------------------------------------------------ dispatch
    def call(self, e: ast.FunctionCall):
        name = e.name
        params = e.signature.parameters
        args = []
        for p, a in zip(params, e.args):
            if p.storage in ("out", "inout"):           # atomic*'s memory argument is inout too
                args.append(self.L.lvalue(a))
            elif a.type.is_opaque:
                args.append(self.L.opaque_of(a))
            else:
                args.append(self.L.expr(a))
        if name in _ATOMIC_OPS or name in ("atomicMin", "atomicMax"):
            return self.atomic(name, e, args)
        if name.startswith("imageAtomic"):
            return self.image_atomic(name, e, args)
        if _is_texture_function(name):
            return self.texture(name, e, args)
        m = getattr(self, "f_" + name, None)
        if m is None:
            raise LoweringError(f"built-in function {name} is not lowered")
        return m(e, *args)

    # ------------------------------------------------------------ group vote (GLSL 4.60 8.18)
    def f_anyInvocation(self, e, x):
        return self.b.intrinsic("vote", x, mode="any")

    def f_allInvocations(self, e, x):
        return self.b.intrinsic("vote", x, mode="all")

    def f_allInvocationsEqual(self, e, x):
        return self.b.intrinsic("vote", x, mode="eq")

    f_anyInvocationARB, f_allInvocationsARB, f_allInvocationsEqualARB = (
        f_anyInvocation, f_allInvocations, f_allInvocationsEqual)

    # ------------------------------------------------------------ ARB_shader_ballot (the ISA's simd)
    def f_ballotARB(self, e, x):
        b = self.b
        mask = b.intrinsic("simd", b.bcsel(x, b.iimm(1), b.iimm(0)), b.iimm(0), mode="ballot")
        return b.pack_64_2x32_split(mask, b.iimm(0))      # a group is 32 invocations: high word 0

    def _per_channel_simd(self, x, lane, mode):
        b = self.b
        chans = [b.channel(x, c) for c in range(x.num_components)] if x.num_components > 1 else [x]
        out = [b.intrinsic("simd", c, lane, mode=mode) for c in chans]
        return out[0] if len(out) == 1 else b.vec(*out)

    def f_readInvocationARB(self, e, x, lane):
        return self._per_channel_simd(x, lane, "shuffle")

    def f_readFirstInvocationARB(self, e, x):
        return self._per_channel_simd(x, self.b.iimm(0), "first")

    # ------------------------------------------------------------ small helpers
    def f(self, value, like: Def | None = None):
        bits = like.bit_size if like is not None else 32
        return self.b.fimm(value, bits)

    def ftype(self, e, i=0) -> GT.GLSLType:
        return e.args[i].type

    def poly(self, x: Def, coeffs) -> Def:
        """Horner: coeffs[0] + x*(coeffs[1] + x*(...))."""
        b = self.b
        acc = self.f(coeffs[-1])
        for c in reversed(coeffs[:-1]):
            acc = b.ffma(acc, x, self.f(c))
        return acc

    # ------------------------------------------------------------ 8.1 angle and trigonometry
    def f_radians(self, e, x):
        return self.b.fmul(x, self.f(math.pi / 180))

    def f_degrees(self, e, x):
        return self.b.fmul(x, self.f(180 / math.pi))

    def f_sin(self, e, x):
        return self.b.fsin(x)

    def f_cos(self, e, x):
        return self.b.fcos(x)

    def f_tan(self, e, x):
        return self.b.fdiv(self.b.fsin(x), self.b.fcos(x))

    def atan01(self, t: Def) -> Def:
        """atan(t) for t in [0, 1]: reduce t > tan(pi/8) with (t-1)/(t+1)."""
        b = self.b
        big = b.flt(self.f(0.41421356), t)
        r = b.bcsel(big, b.fdiv(b.fsub(t, 1.0), b.fadd(t, 1.0)), t)
        r2 = b.fmul(r, r)
        # atan(r) = r * (1 - r^2/3 + r^4/5 - ...), |r| <= 0.4142
        p = self.poly(r2, [1.0, -1 / 3, 1 / 5, -1 / 7, 1 / 9, -1 / 11, 1 / 13, -1 / 15, 1 / 17])
        a = b.fmul(r, p)
        return b.bcsel(big, b.fadd(a, self.f(math.pi / 4)), a)

    def atan2(self, y: Def, x: Def) -> Def:
        b = self.b
        ax, ay = b.fabs(x), b.fabs(y)
        mx, mn = b.fmax(ax, ay), b.fmin(ax, ay)
        t = b.bcsel(b.feq(mx, 0.0), self.f(0.0), b.fdiv(mn, mx))
        r = self.atan01(t)
        r = b.bcsel(b.flt(ax, ay), b.fsub(self.f(math.pi / 2), r), r)
        r = b.bcsel(b.flt(x, 0.0), b.fsub(self.f(math.pi), r), r)
        return b.bcsel(b.flt(y, 0.0), b.fneg(r), r)

    def f_atan(self, e, y, x=None):
        b = self.b
        if x is not None:
            return self.atan2(y, x)
        a = b.fabs(y)
        big = b.flt(self.f(1.0), a)
        t = b.bcsel(big, b.frcp(a), a)
        r = self.atan01(t)
        r = b.bcsel(big, b.fsub(self.f(math.pi / 2), r), r)
        return b.bcsel(b.flt(y, 0.0), b.fneg(r), r)

    def f_asin(self, e, x):
        b = self.b
        c = b.fsqrt(b.fmul(b.fsub(1.0, x), b.fadd(1.0, x)))
        return self.atan2(x, c)

    def f_acos(self, e, x):
        b = self.b
        s = b.fsqrt(b.fmul(b.fsub(1.0, x), b.fadd(1.0, x)))
        return self.atan2(s, x)

    def exp(self, x):
        return self.b.fexp2(self.b.fmul(x, self.f(1 / math.log(2))))

    def log(self, x):
        return self.b.fmul(self.b.flog2(x), self.f(math.log(2)))

    def f_sinh(self, e, x):
        b = self.b
        return b.fmul(b.fsub(self.exp(x), self.exp(b.fneg(x))), 0.5)

    def f_cosh(self, e, x):
        b = self.b
        return b.fmul(b.fadd(self.exp(x), self.exp(b.fneg(x))), 0.5)

    def f_tanh(self, e, x):
        b = self.b
        xc = b.fmin(b.fmax(x, -10.0), 10.0)
        e2 = self.exp(b.fmul(xc, 2.0))
        return b.fdiv(b.fsub(e2, 1.0), b.fadd(e2, 1.0))

    def f_asinh(self, e, x):
        b = self.b
        a = b.fabs(x)
        r = self.log(b.fadd(a, b.fsqrt(b.ffma(x, x, 1.0))))
        return b.bcsel(b.flt(x, 0.0), b.fneg(r), r)

    def f_acosh(self, e, x):
        b = self.b
        return self.log(b.fadd(x, b.fsqrt(b.ffma(x, x, -1.0))))

    def f_atanh(self, e, x):
        b = self.b
        return b.fmul(self.log(b.fdiv(b.fadd(1.0, x), b.fsub(1.0, x))), 0.5)

    # ------------------------------------------------------------ 8.2 exponential
    def f_pow(self, e, x, y):
        b = self.b
        return b.fexp2(b.fmul(y, b.flog2(x)))

    def f_exp(self, e, x):
        return self.exp(x)

    def f_log(self, e, x):
        return self.log(x)

    def f_exp2(self, e, x):
        return self.b.fexp2(x)

    def f_log2(self, e, x):
        return self.b.flog2(x)

    def f_sqrt(self, e, x):
        return self.b.fsqrt(x)

    def f_inversesqrt(self, e, x):
        return self.b.frsq(x)

    # ------------------------------------------------------------ 8.3 common
    def _base(self, e, i=0) -> str:
        return self.ftype(e, i).base

    def f_abs(self, e, x):
        return self.b.fabs(x) if self._base(e) in ("float", "double") else self.b.iabs(x)

    def f_sign(self, e, x):
        return self.b.fsign(x) if self._base(e) in ("float", "double") else self.b.isign(x)

    def f_floor(self, e, x):
        return self.b.ffloor(x)

    def f_ceil(self, e, x):
        return self.b.fceil(x)

    def f_trunc(self, e, x):
        return self.b.ftrunc(x)

    f_truncate = f_trunc          # EXT_gpu_shader4's name for trunc

    def f_round(self, e, x):
        return self.b.fround_even(x)

    def f_roundEven(self, e, x):
        return self.b.fround_even(x)

    def f_fract(self, e, x):
        return self.b.fsub(x, self.b.ffloor(x))

    def f_mod(self, e, x, y):
        b = self.b
        return b.fsub(x, b.fmul(y, b.ffloor(b.fdiv(x, y))))

    def f_modf(self, e, x, ip):
        """GLSL 4.60 section 8.3: both parts take the sign of x (x - trunc(x) alone is +0
        for a negative whole number and for -0)."""
        b = self.b
        i = b.ftrunc(x)
        self.L.write(ip, i)
        bits, n = x.bit_size, x.num_components
        sign = 1 << (bits - 1)
        magnitude = b.iand(b.fsub(x, i), b.iimm([sign - 1] * n, bits))
        return b.ior(magnitude, b.iand(x, b.iimm([sign] * n, bits)))

    def _minmax(self, e, x, y, which):
        base = self._base(e)
        op = {"float": "f", "double": "f", "int": "i", "uint": "u", "int64": "i", "uint64": "u"}[base] + which
        return self.b.alu(op, x, y)

    def f_min(self, e, x, y):
        return self._minmax(e, x, y, "min")

    def f_max(self, e, x, y):
        return self._minmax(e, x, y, "max")

    def f_clamp(self, e, x, lo, hi):
        return self._minmax(e, self._minmax(e, x, lo, "max"), hi, "min")

    # GL_AMD_shader_trinary_minmax
    def f_min3(self, e, x, y, z):
        return self._minmax(e, self._minmax(e, x, y, "min"), z, "min")

    def f_max3(self, e, x, y, z):
        return self._minmax(e, self._minmax(e, x, y, "max"), z, "max")

    def f_mid3(self, e, x, y, z):
        """The middle value: max(min(x, y), min(max(x, y), z))."""
        lo, hi = self._minmax(e, x, y, "min"), self._minmax(e, x, y, "max")
        return self._minmax(e, lo, self._minmax(e, hi, z, "min"), "max")

    def f_mix(self, e, x, y, a):
        b = self.b
        if self.ftype(e, 2).base == "bool":
            return b.bcsel(a, y, x)
        return b.ffma(y, a, b.fmul(x, b.fsub(1.0, a)))

    def f_step(self, e, edge, x):
        b = self.b
        return b.alu(f"b2f{x.bit_size}", b.fge(x, edge))

    def f_smoothstep(self, e, e0, e1, x):
        b = self.b
        t = b.fsat(b.fdiv(b.fsub(x, e0), b.fsub(e1, e0)))
        return b.fmul(b.fmul(t, t), b.ffma(t, -2.0, 3.0))

    def f_isnan(self, e, x):
        return self.b.fneu(x, x)

    def f_isinf(self, e, x):
        return self.b.feq(self.b.fabs(x), self.f(math.inf, x))

    def f_floatBitsToInt(self, e, x):
        return x

    f_floatBitsToUint = f_intBitsToFloat = f_uintBitsToFloat = f_floatBitsToInt
    f_doubleBitsToInt64 = f_doubleBitsToUint64 = f_int64BitsToDouble = f_uint64BitsToDouble = f_floatBitsToInt

    def f_fma(self, e, a, b_, c):
        # exact: a double fma() stays fused when the fp64 lowering splits other multiply-adds
        return self.b.alu("ffma", a, b_, c, exact=a.bit_size == 64)

    def f_frexp(self, e, x, exp_lv):
        b = self.b
        if x.bit_size == 64:
            return self._frexp64(x, exp_lv)
        bits = x
        zero = b.feq(x, 0.0)
        ex = b.isub(b.ubitfield_extract(bits, 23, 8), 126)
        mant = b.ior(b.iand(bits, 0x807FFFFF), 0x3F000000)
        self.L.write(exp_lv, b.bcsel(zero, b.iimm(0), ex))
        return b.bcsel(zero, x, mant)

    def _frexp64(self, x, exp_lv):
        """The exponent and mantissa fields of the high word (zero stays zero)."""
        b = self.b
        lo, hi = b.unpack_64_2x32_split_x(x), b.unpack_64_2x32_split_y(x)
        zero = b.feq(x, 0.0)
        ex = b.isub(b.ubitfield_extract(hi, 20, 11), 1022)
        mant = b.pack_64_2x32_split(lo, b.ior(b.iand(hi, 0x800FFFFF), 0x3FE00000))
        self.L.write(exp_lv, b.bcsel(zero, b.iimm(0), ex))
        return b.bcsel(zero, x, mant)

    def _pow2_64(self, n):
        """2^n as a double, n in [-1022, 1023] (the exponent field built directly)."""
        b = self.b
        return b.pack_64_2x32_split(b.iimm(0), b.ishl(b.iadd(n, 1023), 20))

    def f_ldexp(self, e, x, n):
        b = self.b
        if x.bit_size == 64:
            # three factors within the normal range: n in [-2100, 2100] covers every
            # finite result (GLSL leaves overflow undefined)
            n = b.imin(b.imax(n, -2100), 2100)
            third = b.idiv(n, 3)
            last = b.isub(n, b.imul(third, 2))
            return b.fmul(b.fmul(b.fmul(x, self._pow2_64(third)), self._pow2_64(third)), self._pow2_64(last))
        half = b.ishr(n, 1)
        rest = b.isub(n, half)
        r = b.fmul(b.fmul(x, b.fexp2(b.i2f32(half))), b.fexp2(b.i2f32(rest)))
        # a result below the normal range is a zero of x's sign (denormals flushed, as the
        # GPU's float unit does and Mesa's ldexp lowering)
        return b.bcsel(b.flt(b.fabs(r), 1.1754943508222875e-38), b.iand(r, 0x80000000), r)

    # ------------------------------------------------------------ 8.4 packing
    def _pack(self, v: Def, n: int, bits: int, signed: bool) -> Def:
        b = self.b
        scale = float((1 << (bits - 1)) - 1 if signed else (1 << bits) - 1)
        c = b.fmin(b.fmax(v, -1.0 if signed else 0.0), 1.0)
        q = b.f2i32(b.fround_even(b.fmul(c, scale)))
        mask = (1 << bits) - 1
        out = b.iand(b.channel(q, 0), mask)
        for i in range(1, n):
            out = b.ior(out, b.ishl(b.iand(b.channel(q, i), mask), bits * i))
        return out

    def _unpack(self, u: Def, n: int, bits: int, signed: bool) -> Def:
        b = self.b
        scale = float((1 << (bits - 1)) - 1 if signed else (1 << bits) - 1)
        parts = []
        for i in range(n):
            if signed:
                f = b.i2f32(b.ibitfield_extract(u, bits * i, bits))
                parts.append(b.fmax(b.fdiv(f, scale), -1.0))
            else:
                parts.append(b.fdiv(b.u2f32(b.ubitfield_extract(u, bits * i, bits)), scale))
        return b.vec(*parts)

    def f_packUnorm2x16(self, e, v):
        return self._pack(v, 2, 16, False)

    def f_packSnorm2x16(self, e, v):
        return self._pack(v, 2, 16, True)

    def f_packUnorm4x8(self, e, v):
        return self._pack(v, 4, 8, False)

    def f_packSnorm4x8(self, e, v):
        return self._pack(v, 4, 8, True)

    def f_unpackUnorm2x16(self, e, u):
        return self._unpack(u, 2, 16, False)

    def f_unpackSnorm2x16(self, e, u):
        return self._unpack(u, 2, 16, True)

    def f_unpackUnorm4x8(self, e, u):
        return self._unpack(u, 4, 8, False)

    def f_unpackSnorm4x8(self, e, u):
        return self._unpack(u, 4, 8, True)

    # ARB_shader_clock: the cycle counter as two words (low, high) or one 64-bit value
    def f_clock2x32ARB(self, e):
        return self.b.intrinsic("shader_clock")

    def f_clockARB(self, e):
        t = self.b.intrinsic("shader_clock")
        return self.b.pack_64_2x32_split(self.b.channel(t, 0), self.b.channel(t, 1))

    def f_packInt2x32(self, e, v):
        return self.b.pack_64_2x32_split(self.b.channel(v, 0), self.b.channel(v, 1))

    f_packUint2x32 = f_packInt2x32

    def f_unpackInt2x32(self, e, d):
        return self.b.vec(self.b.unpack_64_2x32_split_x(d), self.b.unpack_64_2x32_split_y(d))

    f_unpackUint2x32 = f_unpackInt2x32

    def f_packDouble2x32(self, e, v):
        return self.b.pack_64_2x32_split(self.b.channel(v, 0), self.b.channel(v, 1))

    def f_unpackDouble2x32(self, e, d):
        return self.b.vec(self.b.unpack_64_2x32_split_x(d), self.b.unpack_64_2x32_split_y(d))

    def f_packHalf2x16(self, e, v):
        return self.b.pack_half_2x16(v)

    def f_unpackHalf2x16(self, e, u):
        return self.b.unpack_half_2x16(u)

    # ------------------------------------------------------------ 8.5 geometric
    def dot(self, x: Def, y: Def) -> Def:
        n = x.num_components
        return self.b.fmul(x, y) if n == 1 else self.b.alu(f"fdot{n}", x, y)

    def f_dot(self, e, x, y):
        return self.dot(x, y)

    def f_length(self, e, x):
        return self.b.fabs(x) if x.num_components == 1 else self.b.fsqrt(self.dot(x, x))

    def f_distance(self, e, x, y):
        return self.f_length(e, self.b.fsub(x, y))

    def f_cross(self, e, x, y):
        b = self.b
        return b.fsub(b.fmul(b.swz(x, "yzx"), b.swz(y, "zxy")), b.fmul(b.swz(x, "zxy"), b.swz(y, "yzx")))

    def f_normalize(self, e, x):
        b = self.b
        if x.num_components == 1:
            return b.fsign(x)
        return b.fmul(x, b.frsq(self.dot(x, x)))

    def f_faceforward(self, e, n, i, nref):
        b = self.b
        return b.bcsel(b.flt(self.dot(nref, i), 0.0), n, b.fneg(n))

    def f_reflect(self, e, i, n):
        b = self.b
        d = self.dot(n, i)
        return b.fsub(i, b.fmul(b.fmul(d, 2.0), n))

    def f_refract(self, e, i, n, eta):
        b = self.b
        d = self.dot(n, i)
        k = b.fsub(1.0, b.fmul(b.fmul(eta, eta), b.fsub(1.0, b.fmul(d, d))))
        r = b.fsub(b.fmul(eta, i), b.fmul(b.ffma(eta, d, b.fsqrt(k)), n))
        return b.bcsel(b.flt(k, 0.0), b.fmul(i, 0.0), r)

    def f_ftransform(self, e):
        mvp = self.L.io.builtin_value(self.L, "gl_ModelViewProjectionMatrix")
        v = self.L.io.builtin_value(self.L, "gl_Vertex")
        return self.L.mat_vec(mvp, v)

    # ------------------------------------------------------------ 8.6 matrix
    def f_matrixCompMult(self, e, x, y):
        return [self.b.fmul(a, c) for a, c in zip(x, y)]

    def f_outerProduct(self, e, c, r):
        b = self.b
        return [b.fmul(c, b.channel(r, j)) for j in range(r.num_components)]

    def f_transpose(self, e, m):
        b = self.b
        rows = m[0].num_components
        return [b.vec(*[b.channel(col, j) for col in m]) for j in range(rows)]

    def _elem(self, m, c, r):
        return self.b.channel(m[c], r)

    def _det(self, m, n, rows=None, cols=None):
        """Determinant by cofactor expansion over the listed rows/columns."""
        b = self.b
        rows = list(range(n)) if rows is None else rows
        cols = list(range(n)) if cols is None else cols
        if len(rows) == 1:
            return self._elem(m, cols[0], rows[0])
        if len(rows) == 2:
            return b.fsub(b.fmul(self._elem(m, cols[0], rows[0]), self._elem(m, cols[1], rows[1])),
                          b.fmul(self._elem(m, cols[1], rows[0]), self._elem(m, cols[0], rows[1])))
        total = None
        for k, c in enumerate(cols):
            minor = self._det(m, n, rows[1:], [x for x in cols if x != c])
            term = b.fmul(self._elem(m, c, rows[0]), minor)
            if total is None:
                total = term
            else:
                total = b.fadd(total, term) if k % 2 == 0 else b.fsub(total, term)
        return total

    def f_determinant(self, e, m):
        return self._det(m, len(m))

    def f_inverse(self, e, m):
        b = self.b
        n = len(m)
        det = self._det(m, n)
        inv = b.frcp(det)
        cols = []
        for c in range(n):
            comps = []
            for r in range(n):
                # inverse[c][r] = cofactor(r, c) / det  (adjugate = transposed cofactors)
                minor = self._det(m, n, [x for x in range(n) if x != c], [x for x in range(n) if x != r])
                cof = minor if (r + c) % 2 == 0 else b.fneg(minor)
                comps.append(b.fmul(cof, inv))
            cols.append(b.vec(*comps))
        return cols

    # ------------------------------------------------------------ 8.7 vector relational
    def _cmp(self, e, x, y, fop, iop, uop):
        base = self._base(e)
        op = fop if base in ("float", "double") else uop if base in ("uint", "uint64") else iop
        if op.startswith("swap:"):
            return self.b.alu(op[5:], y, x)
        return self.b.alu(op, x, y)

    def f_lessThan(self, e, x, y):
        return self._cmp(e, x, y, "flt", "ilt", "ult")

    def f_lessThanEqual(self, e, x, y):
        return self._cmp(e, x, y, "swap:fge", "swap:ige", "swap:uge")

    def f_greaterThan(self, e, x, y):
        return self._cmp(e, x, y, "swap:flt", "swap:ilt", "swap:ult")

    def f_greaterThanEqual(self, e, x, y):
        return self._cmp(e, x, y, "fge", "ige", "uge")

    def f_equal(self, e, x, y):
        return self._cmp(e, x, y, "feq", "ieq", "ieq")

    def f_notEqual(self, e, x, y):
        return self._cmp(e, x, y, "fneu", "ine", "ine")

    def _reduce(self, v, op):
        r = self.b.channel(v, 0)
        for i in range(1, v.num_components):
            r = self.b.alu(op, r, self.b.swz(v, (i,)))
        return r

    def f_any(self, e, v):
        return self._reduce(v, "ior")

    def f_all(self, e, v):
        return self._reduce(v, "iand")

    def f_not(self, e, v):
        return self.b.inot(v)

    # ------------------------------------------------------------ 8.8 integer
    def f_uaddCarry(self, e, x, y, carry):
        b = self.b
        s = b.iadd(x, y)
        self.L.write(carry, b.b2i32(b.ult(s, x)))
        return s

    def f_usubBorrow(self, e, x, y, borrow):
        b = self.b
        self.L.write(borrow, b.b2i32(b.ult(x, y)))
        return b.isub(x, y)

    def umul_high(self, x, y):
        b = self.b
        xl, xh = b.iand(x, 0xFFFF), b.ushr(x, 16)
        yl, yh = b.iand(y, 0xFFFF), b.ushr(y, 16)
        ll, lh, hl, hh = b.imul(xl, yl), b.imul(xl, yh), b.imul(xh, yl), b.imul(xh, yh)
        mid = b.iadd(b.iadd(b.ushr(ll, 16), b.iand(lh, 0xFFFF)), b.iand(hl, 0xFFFF))
        return b.iadd(b.iadd(hh, b.ushr(lh, 16)), b.iadd(b.ushr(hl, 16), b.ushr(mid, 16)))

    def f_umulExtended(self, e, x, y, msb, lsb):
        b = self.b
        self.L.write(msb, self.umul_high(x, y))
        self.L.write(lsb, b.imul(x, y))

    def f_imulExtended(self, e, x, y, msb, lsb):
        b = self.b
        hi = self.umul_high(x, y)
        hi = b.isub(hi, b.bcsel(b.ilt(x, 0), y, b.imm(0, "int")))
        hi = b.isub(hi, b.bcsel(b.ilt(y, 0), x, b.imm(0, "int")))
        self.L.write(msb, hi)
        self.L.write(lsb, b.imul(x, y))

    def f_bitfieldExtract(self, e, v, offset, bits):
        b = self.b
        op = "ibitfield_extract" if self._base(e) == "int" else "ubitfield_extract"
        r = b.alu(op, v, offset, bits)
        return b.bcsel(b.ieq(bits, 32), v, r)

    def f_bitfieldInsert(self, e, base, ins, offset, bits):
        b = self.b
        r = b.bitfield_insert(base, ins, offset, bits)
        return b.bcsel(b.ieq(bits, 32), ins, r)

    def f_bitfieldReverse(self, e, v):
        return self.b.bitfield_reverse(v)

    def f_bitCount(self, e, v):
        return self.b.bit_count(v)

    def f_findLSB(self, e, v):
        return self.b.find_lsb(v)

    def f_findMSB(self, e, v):
        return self.b.ifind_msb(v) if self._base(e) == "int" else self.b.ufind_msb(v)

    # ------------------------------------------------------------ 8.13 fragment processing, 8.14 noise
    def f_dFdx(self, e, x):
        return self.b.fddx(x)

    def f_dFdy(self, e, x):
        return self.b.fddy(x)

    def f_fwidth(self, e, x):
        b = self.b
        return b.fadd(b.fabs(b.fddx(x)), b.fabs(b.fddy(x)))

    # ARB_derivative_control: the quad derivatives are fine (per row / column of
    # the 2x2 quad); GLSL 4.50 section 8.13.1 lets the coarse forms equal them
    f_dFdxFine = f_dFdxCoarse = f_dFdx
    f_dFdyFine = f_dFdyCoarse = f_dFdy
    f_fwidthFine = f_fwidthCoarse = f_fwidth

    def _interpolate_at(self, e, loc: str, where: Def):
        """interpolateAt*: a fresh ``load_interpolated_input`` of the fragment input the
        argument names (the input, an element of an input array, a swizzle of either);
        the I/O lowering fills in its varying once the inputs are laid out. None when
        the argument is not such an input (a built-in or a block member)."""
        arg, comps, index = e.args[0], None, None
        if isinstance(arg, ast.Swizzle):
            comps, arg = arg.components, arg.base
        if isinstance(arg, ast.Index) and arg.base.type is not None and arg.base.type.is_array:
            index, arg = arg.index, arg.base
        sym = getattr(arg, "symbol", None) if isinstance(arg, ast.VariableRef) else None
        if not self._interpolable(sym, index is not None):
            return None
        if index is not None:
            index = int(index.const[0]) if index.const is not None else self.L.expr(index)
        return self.interpolated_input(sym, loc, where, index, comps)

    def _interpolable(self, sym, indexed: bool) -> bool:
        """``sym`` (an element of it when ``indexed``) is a plain float fragment input."""
        if sym is None or sym.builtin or sym.storage != "in" or self.L.io.stage != "fragment":
            return False
        t = sym.type.element if indexed and sym.type.is_array else sym.type
        return not (t.is_array or t.is_matrix or t.is_struct or t.base != "float")

    def interpolated_input(self, sym, loc: str, where: Def, index=None, comps=None):
        """The fragment input ``sym`` (its element ``index``: an int or an IR value; its
        components ``comps``) interpolated at ``loc`` (centroid, at_sample, at_offset with
        ``where``); None when ``sym`` is not a plain float input of the fragment stage."""
        if not self._interpolable(sym, index is not None):
            return None
        io = self.L.io
        t = sym.type.element if index is not None else sym.type
        b = self.b

        def load(offset):
            d = b.intrinsic("load_interpolated_input", where, offset, num_components=t.vector_size, bit_size=32,
                            base=0, component=0, slot="", interp="smooth", loc=loc)
            io.interpolate_at.append((d.parent, sym))
            return d
        if index is None:
            d = load(b.iimm(0))
        elif isinstance(index, int):
            d = load(b.iimm(index))
        else:
            # iter reads fixed coefficient registers: a dynamic element is a select over all of them
            i = index
            d = load(b.iimm(0))
            for k in range(1, sym.type.length or 1):
                d = b.bcsel(b.ieq(i, b.iimm(k)), load(b.iimm(k)), d)
        return b.swizzle(d, comps) if comps is not None else d

    def f_interpolateAtCentroid(self, e, x):
        d = self._interpolate_at(e, "centroid", self.b.iimm(0))
        return x if d is None else d

    def f_interpolateAtSample(self, e, x, s):
        d = self._interpolate_at(e, "at_sample", s)
        return x if d is None else d

    def f_interpolateAtOffset(self, e, x, off):
        b = self.b
        d = self._interpolate_at(e, "at_offset", b.pack_half_2x16(off))
        if d is not None:
            return d
        # not a plain input: first order, value + offset . gradient
        return b.fadd(x, b.fadd(b.fmul(b.fddx(x), b.channel(off, 0)), b.fmul(b.fddy(x), b.channel(off, 1))))

    def _noise(self, e, n):
        return self.b.fimm([0.0] * n) if n > 1 else self.b.fimm(0.0)

    def f_noise1(self, e, x):
        return self._noise(e, 1)

    def f_noise2(self, e, x):
        return self._noise(e, 2)

    def f_noise3(self, e, x):
        return self._noise(e, 3)

    def f_noise4(self, e, x):
        return self._noise(e, 4)

    # ------------------------------------------------------------ 8.16 barriers
    def f_EmitVertex(self, e):
        self.L.io.geometry.emit_vertex(self.b)

    def f_EndPrimitive(self, e):
        self.L.io.geometry.end_primitive(self.b)

    def f_EmitStreamVertex(self, e, stream):
        self.L.io.geometry.emit_vertex(self.b, int(e.args[0].const[0]))     # a constant (checked)

    def f_EndStreamPrimitive(self, e, stream):
        self.L.io.geometry.end_primitive(self.b, int(e.args[0].const[0]))

    def f_barrier(self, e):
        self.b.barrier(execution_scope="workgroup", memory_scope="workgroup")

    def _membar(self, scope):
        self.b.barrier(execution_scope="none", memory_scope=scope)

    def f_memoryBarrier(self, e):
        self._membar("device")

    def f_memoryBarrierAtomicCounter(self, e):
        self._membar("device")

    def f_memoryBarrierBuffer(self, e):
        self._membar("device")

    def f_memoryBarrierImage(self, e):
        self._membar("device")

    def f_memoryBarrierShared(self, e):
        self._membar("workgroup")

    def f_groupMemoryBarrier(self, e):
        self._membar("workgroup")

    # ------------------------------------------------------------ 8.10/8.11 atomics
    def atomic(self, name, e, args):
        b = self.b
        lv, data = args[0], args[1:]
        base = e.args[0].type.base
        op = _ATOMIC_OPS.get(name) or (("imin" if base == "int" else "umin") if name == "atomicMin"
                                       else ("imax" if base == "int" else "umax"))
        if base == "float":         # NV_shader_atomic_float, INTEL_shader_atomic_float_minmax
            op = {"add": "fadd", "umin": "fmin", "umax": "fmax", "cmpxchg": "fcmpxchg"}.get(op, op)
        mode, index, offset, base_B = self.L.io.memory_address(self.L, lv.deref)
        swap = op in ("cmpxchg", "fcmpxchg")
        if mode == "ssbo":
            return b.intrinsic("ssbo_atomic_swap" if swap else "ssbo_atomic", index, offset, *data,
                               atomic_op=op)
        return b.intrinsic("shared_atomic_swap" if swap else "shared_atomic", offset, *data,
                           base=base_B, atomic_op=op)

    def _counter(self, c):
        """(buffer index, byte offset) of an atomic counter; a dynamically indexed
        element of an array of counters is 4 bytes per element on."""
        b = self.b
        ssbo = b.iimm(self.L.io.atomic_counter_ssbo(c))
        if c.index is None:
            return ssbo, b.iimm(c.offset_B)
        return ssbo, b.iadd(b.imul(c.index, 4), c.offset_B)

    def f_atomicCounterIncrement(self, e, c):
        index, offset = self._counter(c)
        return self.b.ssbo_atomic(index, offset, self.b.iimm(1), atomic_op="add")

    def f_atomicCounterDecrement(self, e, c):
        index, offset = self._counter(c)
        old = self.b.ssbo_atomic(index, offset, self.b.iimm(-1), atomic_op="add")
        return self.b.isub(old, 1)

    def f_atomicCounter(self, e, c):
        index, offset = self._counter(c)
        return self.b.load_ssbo(index, offset, num_components=1, align=4)

    # ARB_shader_atomic_counter_ops: the counter's old value, as the buffer atomics
    def _counter_op(self, c, op, *data):
        index, offset = self._counter(c)
        if op == "cmpxchg":
            return self.b.intrinsic("ssbo_atomic_swap", index, offset, *data, atomic_op=op)
        return self.b.ssbo_atomic(index, offset, *data, atomic_op=op)

    def f_atomicCounterAddARB(self, e, c, data):
        return self._counter_op(c, "add", data)

    def f_atomicCounterSubtractARB(self, e, c, data):
        return self._counter_op(c, "add", self.b.ineg(data))

    def f_atomicCounterMinARB(self, e, c, data):
        return self._counter_op(c, "umin", data)

    def f_atomicCounterMaxARB(self, e, c, data):
        return self._counter_op(c, "umax", data)

    def f_atomicCounterAndARB(self, e, c, data):
        return self._counter_op(c, "and", data)

    def f_atomicCounterOrARB(self, e, c, data):
        return self._counter_op(c, "or", data)

    def f_atomicCounterXorARB(self, e, c, data):
        return self._counter_op(c, "xor", data)

    def f_atomicCounterExchangeARB(self, e, c, data):
        return self._counter_op(c, "xchg", data)

    def f_atomicCounterCompSwapARB(self, e, c, compare, data):
        return self._counter_op(c, "cmpxchg", compare, data)

    # GLSL 4.60 names of the ARB_shader_atomic_counter_ops functions
    f_atomicCounterAdd, f_atomicCounterSubtract = f_atomicCounterAddARB, f_atomicCounterSubtractARB
    f_atomicCounterMin, f_atomicCounterMax = f_atomicCounterMinARB, f_atomicCounterMaxARB
    f_atomicCounterAnd, f_atomicCounterOr, f_atomicCounterXor = (f_atomicCounterAndARB, f_atomicCounterOrARB,
                                                                 f_atomicCounterXorARB)
    f_atomicCounterExchange, f_atomicCounterCompSwap = f_atomicCounterExchangeARB, f_atomicCounterCompSwapARB

    # ------------------------------------------------------------ images
    def _image_coord(self, img, coord):
        return coord

    def _image_indices(self, img):
        t = img.type
        return dict(image=img.slot, dim=_DIMS[t.sampler_dim], is_array=t.sampler_array)

    def _per_slot(self, opq, emit):
        """``emit(slot)`` for a constant slot, or a select ladder over an array's slots."""
        b = self.b
        if opq.index is None:
            return emit(opq.slot)
        results = [emit(s) for s in opq.slots()]
        r = results[-1]
        for i in range(len(results) - 2, -1, -1):
            r = b.bcsel(b.ieq(opq.index, i), results[i], r)
        return r

    def f_imageSize(self, e, img):
        n = e.type.vector_size
        return self._per_slot(img, lambda s: self.b.intrinsic(
            "image_size", num_components=n, **{**self._image_indices(img), "image": s}))

    def f_imageSamples(self, e, img):
        return self._per_slot(img, lambda s: self.b.intrinsic(
            "image_samples", num_components=1, **{**self._image_indices(img), "image": s}))

    def f_imageLoad(self, e, img, coord, sample=None):
        b = self.b
        sample = sample if sample is not None else b.iimm(0)
        return self._per_slot(img, lambda s: b.intrinsic(
            "image_load", coord, sample, **{**self._image_indices(img), "image": s}))

    def f_imageStore(self, e, img, coord, *rest):
        b = self.b
        sample, value = (rest[0], rest[1]) if len(rest) == 2 else (b.iimm(0), rest[0])
        if img.index is not None:
            for i, slot in enumerate(img.slots()):
                node = b.push_if(b.ieq(img.index, i))
                b.intrinsic("image_store", coord, sample, value, **{**self._image_indices(img), "image": slot})
                b.pop_if(node)
            return None
        b.intrinsic("image_store", coord, sample, value, **self._image_indices(img))
        return None

    def image_atomic(self, name, e, args):
        b = self.b
        img, coord = args[0], args[1]
        rest = list(args[2:])
        ms = img.type.sampler_dim == "2DMS"
        sample = rest.pop(0) if ms else b.iimm(0)
        op = _IMAGE_ATOMIC_OPS[name]
        if op in ("min", "max"):
            op = ("i" if img.type.sampled_base == "int" else "u") + op
        intr = "image_atomic_swap" if op == "cmpxchg" else "image_atomic"
        if img.index is None:
            return b.intrinsic(intr, coord, sample, *rest, atomic_op=op, **self._image_indices(img))
        # A dynamically indexed image array: one guarded atomic per element.
        result = self.L.new_local("imgatomic", e.type)
        for i, slot in enumerate(img.slots()):
            node = b.push_if(b.ieq(img.index, i))
            v = b.intrinsic(intr, coord, sample, *rest, atomic_op=op,
                            **{**self._image_indices(img), "image": slot})
            b.store_var(result, v)
            b.pop_if(node)
        return b.load_var(result)

    # ------------------------------------------------------------ textures
    def texture(self, name, e, args):
        return _TextureCall(self, name, e, args).emit()


_TEXTURE_PREFIXES = ("texture", "texel", "shadow")


def _is_texture_function(name: str) -> bool:
    return name.startswith(_TEXTURE_PREFIXES)


class _TextureCall:
    """One texture built-in: parses the name (Proj, Lod, Grad, Offset, Fetch,
    Gather, Size, Query...) and the sampler type into a Tex instruction."""

    def __init__(self, bi: Builtins, name: str, e, args):
        self.bi, self.b, self.name, self.e = bi, bi.b, name, e
        self.sampler = args[0]
        self.args = list(args[1:])
        self.arg_types = [a.type for a in e.args[1:]]
        self.st: GT.GLSLType = self.sampler.type

    def emit(self):
        n = self.name
        st = self.st
        b = self.b
        dim = _DIMS[st.sampler_dim]
        common = dict(dim=dim, is_array=st.sampler_array, is_shadow=st.sampler_shadow,
                      dest_type=st.sampled_base)
        if n.startswith("textureSize"):     # textureSize and EXT_gpu_shader4's textureSize2D, ...
            lod = self.args[0] if self.args else b.iimm(0)
            comps = self.e.type.vector_size
            return self._tex("txs", {"lod": lod}, comps, {**common, "is_shadow": False}, dest_type="int")
        if n == "textureQueryLevels":
            return self._tex("query_levels", {}, 1, common, dest_type="int")
        if n == "textureSamples":
            return self._tex("query_samples", {}, 1, {**common, "is_shadow": False}, dest_type="int")
        if n in ("textureQueryLod", "textureQueryLOD"):     # GLSL 4.00 / ARB_texture_query_lod
            coord = self.args[0]
            if st.sampler_array:            # the IR wants the layer too; it does not affect the LOD
                chans = [b.channel(coord, i) for i in range(coord.num_components)] + [b.fimm(0.0)]
                coord = b.vec(*chans)
            return self._tex("lod", {"coord": coord}, 2, common, dest_type="float")
        if n.startswith("texelFetch"):
            srcs = {"coord": self.args[0]}
            rest = self.args[1:]
            if dim == "ms":
                srcs["ms_index"] = rest.pop(0)
            elif dim not in ("rect", "buf"):
                srcs["lod"] = rest.pop(0)
            else:
                srcs["lod"] = b.iimm(0)
            if n.endswith("Offset"):
                srcs["offset"] = rest.pop(0)
            return self._tex("txf", srcs, 4, {**common, "is_shadow": False})
        if n.startswith("textureGather") or n == "texture4":     # AMD_texture_texture4: component 0
            return self._gather(common)
        return self._sample(common)

    def _tex(self, op, srcs, comps, common, dest_type=None, component=0):
        kw = dict(common)
        if dest_type is not None:
            kw["dest_type"] = dest_type
        bi = self.bi
        opq = self.sampler

        def emit(slot):
            return self.b.tex(op, num_components=comps, texture=slot, sampler=slot, component=component,
                              **srcs, **kw)
        return bi._per_slot(opq, emit)

    def _split_coord(self, P: Def, proj: bool):
        """(coord, comparator) from the P argument of a sampling function."""
        b = self.b
        st = self.st
        ncoord = _COORDS[st.sampler_dim] + (1 if st.sampler_array else 0)
        comp = None
        if proj:
            q = b.channel(P, P.num_components - 1)
            rq = b.frcp(q)
            coord = b.fmul(b.swizzle(P, tuple(range(ncoord))) if ncoord < P.num_components else P, rq)
            if st.sampler_shadow:
                comp = b.fmul(b.channel(P, 2), rq)
            return coord, comp
        if st.sampler_shadow and not (st.sampler_dim == "Cube" and st.sampler_array):
            ref_index = 2 if st.sampler_dim == "1D" else P.num_components - 1
            comp = b.channel(P, ref_index)
        coord = b.swizzle(P, tuple(range(ncoord))) if ncoord < P.num_components else P
        return coord, comp

    def _sample(self, common):
        n = self.name
        b = self.b
        proj = "Proj" in n
        lod = "Lod" in n
        grad = "Grad" in n
        offset = "Offset" in n
        args = list(self.args)
        P = args.pop(0)
        coord, comp = self._split_coord(P, proj)
        st = self.st
        if st.sampler_dim == "Cube" and st.sampler_array and st.sampler_shadow:
            comp = args.pop(0)
        srcs = {"coord": coord}
        if comp is not None:
            srcs["comparator"] = comp
        op = "tex"
        if lod:
            srcs["lod"] = args.pop(0)
            op = "txl"
        if grad:
            srcs["ddx"], srcs["ddy"] = args.pop(0), args.pop(0)
            op = "txd"
        if offset:
            srcs["offset"] = args.pop(0)
        if args:                                   # the optional bias
            srcs["bias"] = args.pop(0)
            op = "txb"
        if self.b.shader.stage != "fragment" and op == "tex":
            op = "txl"                             # no implicit derivatives outside fragment shaders
            srcs["lod"] = b.fimm(0.0)
        # GLSL 1.10-1.30's shadow functions return a vec4: the comparison's result
        # expanded by the texture's DEPTH_TEXTURE_MODE (GL 3.2 compatibility section
        # 3.8.15), which the sampler view's swizzle applies to the sampler's four
        # components (r, 0, 0, 1); the newer functions take the one component
        legacy_shadow = n.startswith("shadow")
        comps = 1 if st.sampler_shadow and not legacy_shadow else 4
        return self._tex(op, srcs, comps, common)

    def _gather(self, common):
        b = self.b
        n = self.name
        args = list(self.args)
        P = args.pop(0)
        st = self.st
        ncoord = _COORDS[st.sampler_dim] + (1 if st.sampler_array else 0)
        coord = b.swizzle(P, tuple(range(ncoord))) if ncoord < P.num_components else P
        srcs = {"coord": coord}
        if st.sampler_shadow:
            srcs["comparator"] = args.pop(0)
        offsets = None
        if n == "textureGatherOffset":
            srcs["offset"] = args.pop(0)
        elif n == "textureGatherOffsets":
            offsets = args.pop(0)
        component = 0
        if args:
            c = self.e.args[-1]
            component = c.const[0] if c.const is not None else 0
        if offsets is None:
            return self._tex("tg4", srcs, 4, common, component=component)
        # Four gathers, one per offset; each contributes its (i0, j0) texel (.w).
        texels = []
        for i in range(4):
            s = dict(srcs, offset=offsets[i])
            texels.append(b.channel(self._tex("tg4", s, 4, common, component=component), 3))
        return b.vec(*texels)


BUILTIN_NAMES = sorted({n[2:] for n in dir(Builtins) if n.startswith("f_")})
