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
    r = w.const(0, 3)
    q = w.const(0, 2)
    d3 = w.zext(d, 3)
    for bit in range(63, -1, -1):
        r = w.shl_words(r, w.c(1))
        r[0] = w.or_(r[0], w.and_(w.shr(n[bit // 32], bit % 32), 1))
        ge = w.bnot(w.less(r, d3))
        r = w.select(ge, w.sub_words(r, d3), r)
        q = w.shl_words(q, w.c(1))
        q[0] = w.or_(q[0], w.b2u(ge))
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
