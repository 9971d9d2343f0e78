"""Multi-word unsigned integers on 32-bit IR values: the arithmetic under the
fp64 and int64 lowerings.

A multi-word number is a list of 32-bit scalar ``Def``s, least significant word
first. The scalar helpers also take 64-bit ``Def``s (the ISA has 64-bit integer
add, shifts, logic, compares, selects and multiplies): an ``int`` operand beside a
64-bit one becomes a 64-bit constant; shift counts are always 32-bit. Every helper emits straight-line IR (selects, no control flow), so a
lowered operation is one block that every lane runs, whatever its value; the
shader core needs no divergence for it, except ``loop``: a counted loop (the same
trip count in every lane) for the bit-serial divisions and roots, which would
otherwise be thousands of instructions. Shift amounts are 32-bit unsigned values
read per lane; helpers that take them say which range they accept.
"""

from __future__ import annotations

from compiler.ir.builder import Builder
from compiler.ir.core import Def, Instr
from compiler.ir.types import VecType

__all__ = ["Words"]

MASK32 = 0xFFFFFFFF
MASK64 = (1 << 64) - 1


class Words:
    """Emits multi-word arithmetic through builder ``b``."""

    def __init__(self, b: Builder, anchor: Instr | None = None):
        """``anchor``: the instruction the emitted code goes before (the cursor
        returns there after a loop), or None to append at the end of the block."""
        self.b = b
        self.anchor = anchor
        self._consts: dict[int, Def] = {}
        self._consts64: dict[int, Def] = {}
        self._loops = 0

    # ------------------------------------------------------------ 32-bit scalars
    def c(self, value: int) -> Def:
        """A 32-bit constant (raw bits; negative numbers in two's complement)."""
        bits = value & MASK32
        d = self._consts.get(bits)
        if d is None:
            d = self._consts[bits] = self.b.const(bits, 32)
        return d

    def q(self, value: int) -> Def:
        """A 64-bit constant (raw bits)."""
        bits = value & MASK64
        d = self._consts64.get(bits)
        if d is None:
            d = self._consts64[bits] = self.b.const(bits, 64)
        return d

    def _v(self, x) -> Def:
        return self.c(x) if isinstance(x, int) else x

    def _k(self, x, size: int) -> Def:
        if not isinstance(x, int):
            return x
        return self.q(x) if size == 64 else self.c(x)

    def _pair(self, x, y) -> tuple[Def, Def]:
        """Both operands as Defs of one size (an int takes the other's size, else 32)."""
        size = x.bit_size if isinstance(x, Def) else y.bit_size if isinstance(y, Def) else 32
        return self._k(x, size), self._k(y, size)

    def add(self, x, y):
        return self.b.iadd(*self._pair(x, y))

    def sub(self, x, y):
        return self.b.isub(*self._pair(x, y))

    def and_(self, x, y):
        return self.b.iand(*self._pair(x, y))

    def or_(self, x, y):
        return self.b.ior(*self._pair(x, y))

    def xor(self, x, y):
        return self.b.ixor(*self._pair(x, y))

    def mul(self, x, y):
        """The low half of x * y (64-bit operands give the low 64 bits)."""
        return self.b.imul(*self._pair(x, y))

    def u64(self, x) -> Def:
        """A 32-bit word zero-extended to 64 bits."""
        return self.b.u2u64(self._v(x))

    def lo32(self, x: Def) -> Def:
        return self.b.unpack_64_2x32_split_x(x)

    def hi32(self, x: Def) -> Def:
        return self.b.unpack_64_2x32_split_y(x)

    def pack64(self, lo, hi) -> Def:
        return self.b.pack_64_2x32_split(self._v(lo), self._v(hi))

    def not_(self, x):
        return self.b.inot(self._v(x))

    def shl(self, x, n):
        """x << n for n in [0, size - 1]."""
        return self.b.ishl(self._v(x), self._v(n))

    def shr(self, x, n):
        """Logical x >> n for n in [0, size - 1]."""
        return self.b.ushr(self._v(x), self._v(n))

    def sar(self, x, n):
        return self.b.ishr(self._v(x), self._v(n))

    def sel(self, cond: Def, x, y):
        return self.b.bcsel(cond, *self._pair(x, y))

    def eq(self, x, y):
        return self.b.ieq(*self._pair(x, y))

    def ne(self, x, y):
        return self.b.ine(*self._pair(x, y))

    def ult(self, x, y):
        return self.b.ult(*self._pair(x, y))

    def uge(self, x, y):
        return self.b.uge(*self._pair(x, y))

    def slt(self, x, y):
        return self.b.ilt(*self._pair(x, y))

    def sge(self, x, y):
        return self.b.ige(*self._pair(x, y))

    def smax(self, x, y):
        return self.b.imax(*self._pair(x, y))

    def smin(self, x, y):
        return self.b.imin(*self._pair(x, y))

    def umin(self, x, y):
        return self.b.umin(*self._pair(x, y))

    def band(self, *conds: Def) -> Def:
        acc = conds[0]
        for c in conds[1:]:
            acc = self.b.iand(acc, c)
        return acc

    def bor(self, *conds: Def) -> Def:
        acc = conds[0]
        for c in conds[1:]:
            acc = self.b.ior(acc, c)
        return acc

    def bnot(self, cond: Def) -> Def:
        return self.b.inot(cond)

    def b2u(self, cond: Def) -> Def:
        """A 1-bit boolean as 0/1."""
        return self.b.b2i32(cond)

    def b2u64(self, cond: Def) -> Def:
        """A 1-bit boolean as a 64-bit 0/1 (one select)."""
        return self.sel(cond, self.q(1), self.q(0))

    def clz(self, x) -> Def:
        """Leading zeros of a 32- or 64-bit value (its size for 0), as a 32-bit word."""
        x = self._v(x)
        return self.sub(x.bit_size - 1, self.b.ufind_msb(x))

    # ------------------------------------------------------------ loops
    def loop(self, trips: int, state: list, body) -> list[Def]:
        """Run ``state = body(state)`` ``trips`` times (32-bit scalar words) as an IR
        loop over function-local variables (vars->SSA makes the phis). ``body``
        receives the step number too: ``body(words, state, step)``, with ``words`` an
        emitter whose constants stay inside the loop."""
        b = self.b
        tag = f"__w64_{id(self) & 0xFFFF:x}_{self._loops}"
        self._loops += 1
        word = VecType("uint", 32, 1)
        vars_ = [b.local_var(f"{tag}_{k}", word) for k in range(len(state))]
        counter = b.local_var(f"{tag}_i", word)
        for v, d in zip(vars_, state):
            b.store_var(v, self._v(d))
        b.store_var(counter, self.c(0))
        node = b.push_loop()
        inner = Words(b)
        step = b.load_var(counter)
        done = b.push_if(inner.uge(step, trips))
        b.break_()
        b.pop_if(done)
        new = body(inner, [b.load_var(v) for v in vars_], step)
        for v, d in zip(vars_, new):
            b.store_var(v, inner._v(d))
        b.store_var(counter, inner.add(step, 1))
        b.pop_loop(node)
        if self.anchor is not None:
            b.before(self.anchor)
        return [b.load_var(v) for v in vars_]

    # ------------------------------------------------------------ multi-word
    def const(self, value: int, n: int) -> list[Def]:
        return [self.c(value >> (32 * i)) for i in range(n)]

    def zext(self, w: list, n: int) -> list[Def]:
        return list(w) + [self.c(0)] * (n - len(w))

    def select(self, cond: Def, x: list, y: list) -> list[Def]:
        return [self.sel(cond, a, b) for a, b in zip(x, y)]

    def is_zero(self, w: list) -> Def:
        acc = w[0]
        for x in w[1:]:
            acc = self.or_(acc, x)
        return self.eq(acc, 0)

    def equal(self, x: list, y: list) -> Def:
        acc = self.xor(x[0], y[0])
        for a, b in zip(x[1:], y[1:]):
            acc = self.or_(acc, self.xor(a, b))
        return self.eq(acc, 0)

    def less(self, x: list, y: list) -> Def:
        """Unsigned x < y."""
        lt = self.ult(x[0], y[0])
        for a, b in zip(x[1:], y[1:]):
            lt = self.bor(self.ult(a, b), self.band(self.eq(a, b), lt))
        return lt

    def add_words(self, x: list, y: list) -> list[Def]:
        """x + y modulo 2^(32n)."""
        out, carry = [], None
        for a, b in zip(x, y):
            s = self.add(a, b)
            c1 = self.ult(s, a)
            if carry is not None:
                s2 = self.add(s, self.b2u(carry))
                c1 = self.bor(c1, self.ult(s2, s))
                s = s2
            out.append(s)
            carry = c1
        return out

    def sub_words(self, x: list, y: list) -> list[Def]:
        """x - y modulo 2^(32n)."""
        out, borrow = [], None
        for a, b in zip(x, y):
            d = self.sub(a, b)
            b1 = self.ult(a, b)
            if borrow is not None:
                d2 = self.sub(d, self.b2u(borrow))
                b1 = self.bor(b1, self.band(self.eq(d, 0), borrow))
                d = d2
            out.append(d)
            borrow = b1
        return out

    def neg_words(self, x: list) -> list[Def]:
        return self.sub_words(self.const(0, len(x)), x)

    def clz_words(self, w: list) -> Def:
        """Leading zeros of the whole number (32n for 0)."""
        n = len(w)
        result = self.c(32 * n)
        for i in range(n):            # least significant first: a higher nonzero word overrides
            lz = self.add(self.clz(w[i]), 32 * (n - 1 - i))
            result = self.sel(self.ne(w[i], 0), lz, result)
        return result

    def _word_shift(self, w: list, ws: Def, left: bool) -> list[Def]:
        """Shift by ``ws`` whole words (ws in [0, n]; n gives zero)."""
        n = len(w)
        zero = self.c(0)
        out = []
        for i in range(n):
            v = zero
            for k in range(n):
                src = i - k if left else i + k
                if 0 <= src < n:
                    v = self.sel(self.eq(ws, k), w[src], v)
            out.append(v)
        return out

    def shl_words(self, w: list, s: Def) -> list[Def]:
        """w << s for s in [0, 32n] (per lane)."""
        n = len(w)
        s = self._v(s)
        ws, bs = self.shr(s, 5), self.and_(s, 31)
        w = self._word_shift(w, ws, left=True)
        inv = self.sub(31, bs)
        out = []
        for i in range(n):
            v = self.shl(w[i], bs)
            if i > 0:   # bits crossing from the word below: (lower >> 1) >> (31 - bs) is 0 when bs = 0
                v = self.or_(v, self.shr(self.shr(w[i - 1], 1), inv))
            out.append(v)
        return out

    def shr_words(self, w: list, s: Def) -> list[Def]:
        """Logical w >> s for s in [0, 32n] (per lane)."""
        n = len(w)
        s = self._v(s)
        ws, bs = self.shr(s, 5), self.and_(s, 31)
        w = self._word_shift(w, ws, left=False)
        inv = self.sub(31, bs)
        out = []
        for i in range(n):
            v = self.shr(w[i], bs)
            if i < n - 1:
                v = self.or_(v, self.shl(self.shl(w[i + 1], 1), inv))
            out.append(v)
        return out

    def low_bits_nonzero(self, w: list, s: Def) -> Def:
        """Whether any of the low ``s`` bits of w is set (s in [0, 32n] per lane)."""
        s = self._v(s)
        acc = None
        for i, x in enumerate(w):
            k = self.sub(s, 32 * i)                    # bits of this word below the cut, signed
            full = self.sge(k, 32)
            part_mask = self.sub(self.shl(1, self.and_(k, 31)), 1)
            mask = self.sel(full, MASK32, self.sel(self.slt(k, 1), 0, part_mask))
            bits = self.and_(x, mask)
            acc = bits if acc is None else self.or_(acc, bits)
        return self.ne(acc, 0)

    def shr_sticky(self, w: list, s: Def) -> list[Def]:
        """w >> s with the bits shifted out ORed into bit 0 (s any unsigned
        amount; at or beyond the width the result is just the sticky bit)."""
        n = len(w)
        s = self.umin(s, 32 * n)
        sticky = self.low_bits_nonzero(w, s)
        out = self.shr_words(w, s)
        out[0] = self.or_(out[0], self.b2u(sticky))
        return out

    def mul32(self, x, y) -> list[Def]:
        """The 64-bit product of two 32-bit words."""
        return [self.b.imul(self._v(x), self._v(y)), self.b.umul_high(self._v(x), self._v(y))]

    def mul_words(self, x: list, y: list) -> list[Def]:
        """The full product (len(x) + len(y) words), schoolbook: each row
        ``x[i] * y`` (len(y) + 1 words: a word's high half plus the carry into it
        cannot overflow, (2^32 - 1)^2 < 2^64 - 2^32) added in at word i. No word of
        zeros is ever added: a 2 x 2 product is 8 multiplies and 18 other ops."""
        n = len(x) + len(y)
        acc: list = []
        for i, a in enumerate(x):
            row, carry = [], None
            for bw in y:
                lo, hi = self.mul32(a, bw)
                if carry is not None:
                    s = self.add(lo, carry)
                    hi = self.add(hi, self.b2u(self.ult(s, lo)))
                    lo = s
                row.append(lo)
                carry = hi
            row.append(carry)
            acc = self._add_at(acc, row, i, n)
        return acc

    def _add_at(self, acc: list, row: list, at: int, n: int) -> list[Def]:
        """acc + row * 2^(32 at), ``n`` words wide (the sum fits: no carry out of word n - 1)."""
        out = list(acc[:at])
        carry = None
        for k in range(at, max(len(acc), at + len(row))):
            terms = [t for t in (acc[k] if k < len(acc) else None,
                                 row[k - at] if k - at < len(row) else None) if t is not None]
            top = k == n - 1
            s, c = terms[0], None
            if len(terms) == 2:
                s = self.add(terms[0], terms[1])
                c = None if top else self.ult(s, terms[0])
            if carry is not None:
                s2 = self.add(s, self.b2u(carry))
                if not top:
                    c2 = self.ult(s2, s)
                    c = c2 if c is None else self.bor(c, c2)
                s = s2
            out.append(s)
            carry = c
        assert carry is None or len(out) < n, "a product wider than its words"
        if carry is not None:
            out.append(self.b2u(carry))
        return out
