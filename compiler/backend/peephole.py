"""Scalar float peepholes on the machine IR, after instruction selection.

The IR is vector, and instruction selection expands ``fdot``, ``vecN`` and the
fragment epilogue into scalar instructions, so some redundancy only shows here
(``vec3(xy, 1.0)`` normalised gives ``fma 1.0, 1.0, c`` and ``fmul 1.0, x``; the
unorm epilogue saturates a value the shader already clamped). Rules, each exact
under the ISA semantics (uapi/isa/semantics.py: saturate clamps to [0, 1] and maps
NaN and -0 to +0; a unorm store clamps with NaN -> 0 itself):

* ``fmul x, 1.0`` -> ``x`` (x * 1 is x, -0 and NaN included; no saturate).
* ``fma a, b, c`` with ``a * b`` a product of two immediates, exact in binary32 and
  an immediate itself -> ``fadd c, a*b``; ``fma a, 1.0, c`` -> ``fadd a, c`` (the
  product is exact, so rounding once is the same; only a NaN result's payload
  may differ: fma's is canonical, which GLSL leaves unspecified).
* A saturating move (``fadd.sat x, +-0.0``: sat(x + 0) = sat(x) for every x):
  of an immediate -> ``mov_imm sat(value)``; of a value already saturated -> that
  value; of a single-use float ALU result -> the producer gets ``.sat``.
* A saturate whose value only feeds a unorm store (``st_tile`` in unorm8/16,
  srgba8, rgb10a2, which clamp to [0, 1] with NaN -> 0) is dropped.
"""

from __future__ import annotations

import numpy as np

from uapi.isa import Imm
from uapi.isa.semantics import UNORM_FORMATS, minifloat_decode, minifloat_encode

from .mir import MFunction, MInstr, Ref, VReg, mcfg, walk_mblocks

__all__ = ["peephole", "UNORM_STORE_FORMATS"]

UNORM_STORE_FORMATS = UNORM_FORMATS      # the ISA's clamping store formats (uapi.isa.semantics)
_FLOAT_SAT_OPS = ("fadd", "fmul", "fma", "fmin", "fmax")   # ops whose .sat is on the rounded binary32 result
_ONE = minifloat_encode(1.0)


def _plain(ins: MInstr, name: str) -> bool:
    return not ins.f.get(f"{name}_abs") and not ins.f.get(f"{name}_neg")


def _imm_value(ins: MInstr, name: str) -> float | None:
    x = ins.f.get(name)
    if not isinstance(x, Imm):
        return None
    v = minifloat_decode(x.code)
    if ins.f.get(f"{name}_abs"):
        v = abs(v)
    if ins.f.get(f"{name}_neg"):
        v = -v
    return v


def _is32(ins: MInstr) -> bool:
    d = ins.f.get("dst")
    return isinstance(d, VReg) and d.size == 32 and d.count == 1


def _scalar_ref(x) -> bool:
    return isinstance(x, Ref) and x.size == 32 and x.vreg.size == 32      # a 32-bit scalar (of a vector too)


def sat_move_source(ins: MInstr):
    """``x`` when ``ins`` is ``fadd.sat x, +-0.0`` (x a register without modifiers or
    an immediate), else None."""
    if ins.op != "fadd" or not ins.f.get("sat") or not _is32(ins):
        return None
    for x, z in (("a", "b"), ("b", "a")):
        zv = _imm_value(ins, z)
        if zv is not None and zv == 0.0:
            src = ins.f[x]
            if isinstance(src, Imm) or (_scalar_ref(src) and _plain(ins, x)):
                return src if isinstance(src, Ref) else ("imm", _imm_value(ins, x))
    return None


class _Uses:
    def __init__(self, func: MFunction):
        self.count: dict[VReg, int] = {}
        self.whole: set[VReg] = set()       # read as a whole vreg somewhere (vector operand): keep
        self.defs: dict[VReg, MInstr] = {}
        cfg = mcfg(func)
        for b in walk_mblocks(func.body):
            for ins in b.instrs:
                for d in ins.defs():
                    self.defs[d] = ins
                for v in ins.use_operands():
                    self._add(v)
            for p in b.phis + b.mem_phis:
                for x in p.srcs.values():
                    self._add(x)
            node = cfg.if_cond_block.get(b)
            if node is not None:
                for x in node.cond[2:]:
                    self._add(x)

    def _add(self, v):
        if isinstance(v, Ref):
            self.count[v.vreg] = self.count.get(v.vreg, 0) + 1
        elif isinstance(v, VReg):
            self.count[v] = self.count.get(v, 0) + 1
            self.whole.add(v)


def _replace(func: MFunction, mapping: dict) -> None:
    """Replace scalar Refs to the vregs of ``mapping`` by their Ref."""
    def fn(x):
        while isinstance(x, Ref) and x.vreg in mapping and x.off == 0:
            x = mapping[x.vreg]
        return x
    cfg = mcfg(func)
    for b in walk_mblocks(func.body):
        for ins in b.instrs:
            if any(isinstance(x, Ref) and x.vreg in mapping for x in ins.use_operands()):
                ins.map_uses(fn)
        for p in b.phis + b.mem_phis:
            p.srcs = {k: fn(x) for k, x in p.srcs.items()}
        node = cfg.if_cond_block.get(b)
        if node is not None:
            node.cond = tuple(node.cond[:2]) + tuple(fn(x) for x in node.cond[2:])


def _f32_bits(v: float) -> int:
    return int(np.float32(v).view(np.uint32))


def _rewrite(ins: MInstr, op: str, f: dict) -> None:
    ins.op, ins.f = op, f
    ins.changed()


def _local_rules(ins: MInstr, uses: _Uses, mapping: dict) -> bool:
    d = ins.f.get("dst")
    if not uses.count.get(d):
        return False                                     # dead: left for dce
    if ins.op == "fmul" and _is32(ins) and not ins.f.get("sat"):
        for one, x in (("a", "b"), ("b", "a")):
            if (isinstance(ins.f[one], Imm) and ins.f[one].code == _ONE and _plain(ins, one)
                    and _scalar_ref(ins.f[x]) and _plain(ins, x) and d not in uses.whole):
                mapping[d] = ins.f[x]
                return True
    if ins.op == "fma" and _is32(ins):
        pa, pb = _imm_value(ins, "a"), _imm_value(ins, "b")
        if pa is not None and pb is not None:
            p = pa * pb                                  # binary64: exact for two 8-bit minifloats
            try:
                code = minifloat_encode(p) if float(np.float32(p)) == p else None
            except ValueError:
                code = None
            if code is not None:
                _rewrite(ins, "fadd", {"dst": d, "sat": ins.f.get("sat", False), "a": ins.f["c"],
                                       "a_abs": ins.f.get("c_abs", False), "a_neg": ins.f.get("c_neg", False),
                                       "b": Imm(code), "b_abs": False, "b_neg": False})
                return True
        for one, x in (("a", "b"), ("b", "a")):
            if isinstance(ins.f[one], Imm) and ins.f[one].code == _ONE and _plain(ins, one):
                _rewrite(ins, "fadd", {"dst": d, "sat": ins.f.get("sat", False), "a": ins.f[x],
                                       "a_abs": ins.f.get(f"{x}_abs", False), "a_neg": ins.f.get(f"{x}_neg", False),
                                       "b": ins.f["c"], "b_abs": ins.f.get("c_abs", False),
                                       "b_neg": ins.f.get("c_neg", False)})
                return True
    src = sat_move_source(ins)
    if src is None:
        return False
    if isinstance(src, tuple):                           # saturate of a constant: fold
        v = float(np.clip(np.float32(src[1]), 0, 1)) + 0.0 if src[1] == src[1] else 0.0
        _rewrite(ins, "mov_imm", {"dst": d, "imm": _f32_bits(v)})
        return True
    if d in uses.whole:
        return False
    prod = uses.defs.get(src.vreg)
    if prod is not None and prod.op in _FLOAT_SAT_OPS and _is32(prod):
        if prod.f.get("sat"):                            # sat(sat(x)) = sat(x)
            mapping[d] = src
            return True
        if uses.count.get(src.vreg, 0) == 1 and src.vreg not in uses.whole:
            prod.f["sat"] = True                         # fold into the producer
            mapping[d] = src
            return True
    return False


def _store_rules(func: MFunction, uses: _Uses, mapping: dict) -> bool:
    """Saturates feeding only a clamping unorm store."""
    progress = False
    for b in walk_mblocks(func.body):
        for ins in b.instrs:
            if ins.op != "st_tile" or ins.f.get("fmt") not in UNORM_STORE_FORMATS:
                continue
            data = ins.f.get("data")
            col = uses.defs.get(data)
            if col is None or col.op != "collect" or uses.count.get(data, 0) != 1 or data.size != 32:
                continue
            srcs = list(col.srcs)
            for i, x in enumerate(srcs):
                if not _scalar_ref(x) or uses.count.get(x.vreg, 0) != 1:
                    continue
                sat = uses.defs.get(x.vreg)
                if sat is None or not sat.f.get("sat") or not _is32(sat):
                    continue
                src = sat_move_source(sat)
                if isinstance(src, Ref):
                    srcs[i] = src
                    progress = True
                elif src is None and sat.op in _FLOAT_SAT_OPS:
                    sat.f["sat"] = False
                    progress = True
            col.srcs = srcs
            col.changed()
    return progress


def peephole(func: MFunction, dce) -> bool:
    """Apply the rules until none applies; ``dce(func)`` (the pipeline's) removes
    what a round left dead, so use counts stay exact. Returns whether anything
    changed."""
    any_progress = False
    while True:
        uses = _Uses(func)
        mapping: dict = {}
        progress = False
        touched: set = set()     # vregs a rule of this round redirected, changed or gained uses of
        for b in walk_mblocks(func.body):
            for ins in b.instrs:
                if ins.pseudo or ins.op == "st_tile" or any(v in touched for v in ins.uses()) \
                        or any(d in touched for d in ins.defs()):
                    continue                                # counts are stale there: next round
                before = dict(mapping)
                if _local_rules(ins, uses, mapping):
                    progress = True
                    touched.update(ins.defs())
                    for k, r in mapping.items():
                        if k not in before:
                            touched.update((k, r.vreg))
                    touched.update(v for v in ins.uses())
        if mapping:
            _replace(func, mapping)
        if progress:
            dce(func)
        if not progress and _store_rules(func, uses, mapping):
            progress = True
            dce(func)
        any_progress |= progress
        if not progress:
            return any_progress
