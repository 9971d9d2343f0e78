"""Algebraic simplification driven by a table of search -> replace patterns, in the
spirit of NIR's ``nir_opt_algebraic.py`` (written as Python tuples, matched at
run time rather than generated into C).

A pattern is ``(search, replace)`` or ``(search, replace, flags)``:

* an expression is ``(op, arg, ...)``;
* a string is a variable that matches any source (``"a"``), or only a constant
  (``"#a"``); a variable used twice must match the same value and swizzle;
* a number or bool is a constant, compared after encoding it in the type the op
  reads at that position (so ``-1`` matches ``0xffffffff`` for ``iand``);
* ``flags`` may contain ``"inexact"``: the rule can change a NaN, an infinity or
  the sign of a zero, so it is skipped for ``exact`` instructions.

Commutative ops also match with their first two sources swapped. Nested
expressions match only through per-component ops, whose swizzles compose.
"""

from __future__ import annotations

from ..builder import Builder, const_bits
from ..core import Alu, AluSrc, Def, LoadConst, Shader, identity_swizzle, replace_uses, walk_blocks
from ..opcodes import OPS, parse_type_spec
from .basic import const_value

__all__ = ["PATTERNS", "opt_algebraic"]

INEXACT = "inexact"

_INVERSE_COMPARE = [("flt", "fge"), ("ilt", "ige"), ("ult", "uge"), ("ieq", "ine"), ("feq", "fneu")]

PATTERNS: list[tuple] = [
    # float identities
    (("fadd", "a", 0.0), "a", INEXACT),
    (("fsub", "a", 0.0), "a"),
    (("fmul", "a", 1.0), "a"),
    (("fmul", "a", 0.0), 0.0, INEXACT),
    (("fmul", "a", -1.0), ("fneg", "a")),
    (("fdiv", "a", 1.0), "a"),
    (("fsub", "a", "a"), 0.0, INEXACT),
    (("ffma", "a", "b", 0.0), ("fmul", "a", "b"), INEXACT),
    (("ffma", "a", 1.0, "c"), ("fadd", "a", "c")),
    (("flrp", "a", "b", 0.0), "a", INEXACT),
    (("flrp", "a", "b", 1.0), "b", INEXACT),
    (("flrp", "a", "a", "c"), "a", INEXACT),
    (("fpow", "a", 1.0), "a"),
    (("fpow", "a", 2.0), ("fmul", "a", "a")),
    (("fneg", ("fneg", "a")), "a"),
    (("fabs", ("fabs", "a")), ("fabs", "a")),
    (("fabs", ("fneg", "a")), ("fabs", "a")),
    (("fsat", ("fsat", "a")), ("fsat", "a")),
    (("fmin", "a", "a"), "a"),
    (("fmax", "a", "a"), "a"),
    (("fmin", ("fmax", "a", 0.0), 1.0), ("fsat", "a")),
    (("fmax", ("fmin", "a", 1.0), 0.0), ("fsat", "a")),
    (("frcp", ("frcp", "a")), "a", INEXACT),
    (("fneg", ("fsub", "a", "b")), ("fsub", "b", "a"), INEXACT),
    # integer identities
    (("iadd", "a", 0), "a"),
    (("isub", "a", 0), "a"),
    (("isub", "a", "a"), 0),
    (("imul", "a", 1), "a"),
    (("imul", "a", 0), 0),
    (("imul", "a", -1), ("ineg", "a")),
    (("idiv", "a", 1), "a"),
    (("udiv", "a", 1), "a"),
    (("ineg", ("ineg", "a")), "a"),
    (("inot", ("inot", "a")), "a"),
    (("iand", "a", "a"), "a"),
    (("ior", "a", "a"), "a"),
    (("ixor", "a", "a"), 0),
    (("iand", "a", 0), 0),
    (("iand", "a", -1), "a"),
    (("ior", "a", 0), "a"),
    (("ior", "a", -1), -1),
    (("ixor", "a", 0), "a"),
    (("ishl", "a", 0), "a"),
    (("ishr", "a", 0), "a"),
    (("ushr", "a", 0), "a"),
    (("imin", "a", "a"), "a"),
    (("imax", "a", "a"), "a"),
    (("umin", "a", "a"), "a"),
    (("umax", "a", "a"), "a"),
    # booleans and selects
    (("bcsel", True, "a", "b"), "a"),
    (("bcsel", False, "a", "b"), "b"),
    (("bcsel", "c", "a", "a"), "a"),
    (("bcsel", ("inot", "c"), "a", "b"), ("bcsel", "c", "b", "a")),
    (("ieq", "a", "a"), True),
    (("ine", "a", "a"), False),
    (("ige", "a", "a"), True),
    (("ilt", "a", "a"), False),
    (("uge", "a", "a"), True),
    (("ult", "a", "a"), False),
    (("i2b1", ("b2i32", "a")), "a"),
    (("f2b1", ("b2f32", "a")), "a"),
    (("fneu", ("b2f32", "a"), 0.0), "a"),
    (("feq", ("b2f32", "a"), 0.0), ("inot", "a")),
    (("ine", ("b2i32", "a"), 0), "a"),
    (("ieq", ("b2i32", "a"), 0), ("inot", "a")),
] + [(("inot", (a, "x", "y")), (b, "x", "y"), INEXACT if a[0] == "f" else ())
     for pair in _INVERSE_COMPARE for a, b in (pair, pair[::-1])]


# Reassociate constants towards each other so the folder can combine them, for every
# op the table marks commutative and associative: op(op(a, #b), #c) -> op(a, op(b, c)).
# Float ops round differently when regrouped, hence inexact.
PATTERNS += [
    ((name, (name, "a", "#b"), "#c"), (name, "a", (name, "#b", "#c")), INEXACT if name[0] == "f" else ())
    for name, info in OPS.items() if info.commutative and info.associative
]


def _check_table() -> None:
    for entry in PATTERNS:
        search, replace = entry[0], entry[1]
        assert isinstance(search, tuple) and search[0] in OPS, f"bad search pattern {search}"

        def walk(e):
            if isinstance(e, tuple):
                assert e[0] in OPS, f"unknown op {e[0]} in pattern {entry}"
                assert len(e) - 1 == OPS[e[0]].num_inputs, f"wrong arity in {entry}"
                for a in e[1:]:
                    walk(a)
        walk(search)
        walk(replace)


_check_table()


class _Match:
    def __init__(self):
        self.vars: dict[str, AluSrc] = {}


def _match_src(pat, src: AluSrc, base: str, m: _Match) -> bool:
    if isinstance(pat, str):
        name = pat.lstrip("#")
        if pat.startswith("#") and const_value(src) is None:
            return False
        bound = m.vars.get(name)
        if bound is not None:
            return bound.def_ is src.def_ and bound.swizzle == src.swizzle
        m.vars[name] = src
        return True
    if isinstance(pat, tuple):
        parent = src.def_.parent
        if not isinstance(parent, Alu) or parent.op != pat[0] or not parent.info.is_per_component:
            return False
        inner = [s.compose(src.swizzle) for s in parent.srcs]
        return _match_args(pat, parent, inner, m)
    consts = const_value(src)
    if consts is None:
        return False
    bits = src.def_.bit_size
    want = const_bits(pat, "bool" if bits == 1 else base, bits)
    return all(c == want for c in consts)


def _match_args(pat, instr: Alu, srcs: list[AluSrc], m: _Match) -> bool:
    info = instr.info
    orders = [list(range(len(srcs)))]
    if info.commutative and len(srcs) >= 2:
        orders.append([1, 0] + list(range(2, len(srcs))))
    for order in orders:
        trial = _Match()
        trial.vars = dict(m.vars)
        ok = True
        for p, i in zip(pat[1:], order):
            base, _ = parse_type_spec(info.input_types[i])
            if not _match_src(p, srcs[i], base, trial):
                ok = False
                break
        if ok:
            m.vars = trial.vars
            return True
    return False


def _build(b: Builder, rep, m: _Match, comps: int, base: str, bits: int) -> AluSrc:
    if isinstance(rep, str):
        return m.vars[rep.lstrip("#")]
    if isinstance(rep, tuple):
        info = OPS[rep[0]]
        # Unsized size: from the first bound variable argument, else the caller's.
        unsized = bits
        for a, t in zip(rep[1:], info.input_types):
            if isinstance(a, str) and parse_type_spec(t)[1] is None:
                unsized = m.vars[a.lstrip("#")].def_.bit_size
                break
        args = []
        for i, a in enumerate(rep[1:]):
            ibase, isize = parse_type_spec(info.input_types[i])
            args.append(_build(b, a, m, info.input_sizes[i] or comps, ibase, isize or unsized))
        d = b.alu(rep[0], *args, num_components=comps)
        return AluSrc(d, identity_swizzle(comps))
    cbits = 1 if isinstance(rep, bool) else bits
    d = b.const([const_bits(rep, "bool" if cbits == 1 else base, cbits)], cbits)
    return AluSrc(d, (0,) * comps)


_CONST = "#const"      # the kind of a constant source (not an op name)


def _arg_kind(pat):
    """What a pattern argument needs of its source: None (anything), ``_CONST`` (a
    constant: a number, a bool or a ``#`` variable) or an op name (an ALU source of
    that op). A necessary condition of ``_match_src``, cheap to test."""
    if isinstance(pat, str):
        return _CONST if pat.startswith("#") else None
    if isinstance(pat, tuple):
        return pat[0]
    return _CONST


def _src_kind(src: AluSrc):
    parent = src.def_.parent
    if isinstance(parent, LoadConst):
        return _CONST
    if isinstance(parent, Alu):
        return parent.op
    return "-"


def _kinds_fit(kinds: tuple, got: tuple) -> bool:
    for k, g in zip(kinds, got):
        if k is not None and k != g:
            return False
    return True


def _candidates(instr: Alu, by_op: dict, fitting: dict | None) -> list:
    """The entries of ``by_op`` for ``instr``'s op whose argument kinds fit its sources'
    (either order for a commutative op), in table order; ``fitting`` caches them per
    (op, source kinds), which repeat throughout a long block."""
    got = tuple(_src_kind(s) for s in instr.srcs)
    key = (instr.op, got)
    found = fitting.get(key) if fitting is not None else None
    if found is None:
        swapped = (got[1], got[0]) + got[2:] if instr.info.commutative and len(got) >= 2 else None
        found = [entry for entry, kinds in by_op.get(instr.op, ())
                 if _kinds_fit(kinds, got) or (swapped is not None and _kinds_fit(kinds, swapped))]
        if fitting is not None:
            fitting[key] = found
    return found


def _try_patterns(instr: Alu, by_op: dict, cursor: list[int] | None = None, fitting: dict | None = None) -> Def | None:
    """The value replacing ``instr`` (new instructions are built before it), or None.
    ``by_op``: op -> [(pattern entry, its arguments' ``_arg_kind``s)]. ``cursor``: [a
    position at or before ``instr`` in its block], updated, so finding ``instr`` in a
    long block does not scan it from the start at every match. ``fitting``: the
    cache of ``_candidates``."""
    cursor = cursor if cursor is not None else [0]
    for entry in _candidates(instr, by_op, fitting):
        search, replace = entry[0], entry[1]
        flags = entry[2] if len(entry) > 2 else ()
        if search[0] != instr.op or (instr.exact and INEXACT in flags):
            continue
        m = _Match()
        if not _match_args(search, instr, list(instr.srcs), m):
            continue
        b = Builder.__new__(Builder)
        cursor[0] = instr.block.instrs.index(instr, cursor[0])
        b.block, b.index = instr.block, cursor[0]
        out_base, _ = parse_type_spec(instr.info.output_type)
        result = _build(b, replace, m, instr.dest.num_components, out_base, instr.dest.bit_size)
        if result.def_.bit_size != instr.dest.bit_size:
            continue          # a rule that would change the size: not applicable here
        if result.is_identity() and result.def_.num_components == instr.dest.num_components:
            return result.def_
        return b.alu("mov", result)
    return None


def opt_algebraic(shader: Shader) -> bool:
    """Apply the first matching pattern of ``PATTERNS`` to every ALU instruction."""
    progress = False
    by_op: dict[str, list] = {}
    for entry in PATTERNS:
        by_op.setdefault(entry[0][0], []).append((entry, tuple(_arg_kind(p) for p in entry[0][1:])))
    fitting: dict = {}
    for func in shader.functions:
        mapping: dict[Def, Def] = {}

        def remap(d):
            return mapping.get(d, d)
        for block in walk_blocks(func.body):
            removed: set[int] = set()       # ids of replaced instructions, dropped after the block
            cursor = [0]
            for instr in list(block.instrs):
                instr.map_sources(remap)
                if not isinstance(instr, Alu):
                    continue
                new = _try_patterns(instr, by_op, cursor, fitting)
                if new is not None:
                    mapping[instr.dest] = new
                    removed.add(id(instr))
                    progress = True
            if removed:     # one pass (removing one by one was quadratic in the block)
                for instr in block.instrs:
                    if id(instr) in removed:
                        instr.block = None
                block.instrs = [i for i in block.instrs if id(i) not in removed]
        replace_uses(func.body, mapping)
    return progress
