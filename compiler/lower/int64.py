"""64-bit integer operations the ISA has no instruction for, on 32-bit word
pairs (Mesa's ``nir_lower_int64`` for division and remainder): restoring long
division, one quotient bit a step, straight-line. ``x / 0`` and ``x % 0`` give 0,
as the IR defines them (GLSL leaves them undefined)."""

from __future__ import annotations

from compiler.ir.core import Def

from .words import Words

__all__ = ["LOWERED_OPS", "lower_op", "udivmod"]

LOWERED_OPS = frozenset({"udiv", "umod", "idiv", "irem", "imod"})


def udivmod(w: Words, n: list, d: list) -> tuple[list, list]:
    """Unsigned (quotient, remainder) of two-word n and d (d != 0)."""
    def step(w, st, i):
        r, q, n_, d_ = st[0:3], st[3:5], st[5:7], st[7:9]
        bit = w.sub(63, i)                                   # the dividend's bits, highest first
        word = w.sel(w.sge(bit, 32), n_[1], n_[0])
        nb = w.and_(w.shr(word, w.and_(bit, 31)), 1)
        r = [w.or_(w.shl(r[0], 1), nb), w.or_(w.shl(r[1], 1), w.shr(r[0], 31)),
             w.or_(w.shl(r[2], 1), w.shr(r[1], 31))]
        d3 = d_ + [w.c(0)]
        ge = w.bnot(w.less(r, d3))
        r = w.select(ge, w.sub_words(r, d3), r)
        q = [w.or_(w.shl(q[0], 1), w.b2u(ge)), w.or_(w.shl(q[1], 1), w.shr(q[0], 31))]
        return r + q + list(n_) + list(d_)
    st = w.loop(64, w.const(0, 5) + list(n) + list(d), step)
    r, q = st[0:3], st[3:5]
    return q, r[:2]


def lower_op(w: Words, op: str, srcs) -> Def:
    """``op`` on 64-bit operands given as ``F64``-like word pairs (``.lo``/``.hi``);
    returns the packed 64-bit result."""
    b = w.b
    n, d = [srcs[0].lo, srcs[0].hi], [srcs[1].lo, srcs[1].hi]
    d_zero = w.is_zero(d)
    if op in ("udiv", "umod"):
        q, r = udivmod(w, n, d)
        res = q if op == "udiv" else r
    else:
        n_neg, d_neg = w.ne(w.shr(n[1], 31), 0), w.ne(w.shr(d[1], 31), 0)
        un = w.select(n_neg, w.neg_words(n), n)
        ud = w.select(d_neg, w.neg_words(d), d)
        q, r = udivmod(w, un, ud)
        if op == "idiv":
            res = w.select(w.ne(w.b2u(n_neg), w.b2u(d_neg)), w.neg_words(q), q)
        else:
            res = w.select(n_neg, w.neg_words(r), r)               # irem: the dividend's sign
            if op == "imod":                                       # floored: the divisor's sign
                r_neg = w.ne(w.shr(res[1], 31), 0)
                fix = w.band(w.bnot(w.is_zero(res)), w.ne(w.b2u(r_neg), w.b2u(d_neg)))
                res = w.select(fix, w.add_words(res, d), res)
    res = w.select(d_zero, w.const(0, 2), res)
    return b.pack_64_2x32_split(res[0], res[1])
