"""Instruction selection: the SSA IR (compiler.ir) -> machine IR (mir.py).

Every IR value becomes a list of scalar operands, one per component: a
:class:`~mir.Ref` into a vreg, a :class:`~mir.Const` (placed as an immediate or
``mov_imm`` where used), or a uniform register. ``mov``/``vecN`` and swizzles make
no instruction; a vector is ``collect``ed into consecutive registers only where an
instruction needs one (memory data, texture coordinates, ``st_tile``).

Booleans are 16-bit 0/1. Comparisons feeding ``bcsel`` or an ``if`` fuse into
``fcmpsel``/``icmpsel`` and ``if_fcmp``/``if_icmp``; ``fneg``/``fabs`` fold into
float source modifiers. Integer division (no hardware divider) is the
reciprocal-plus-two-corrections sequence, exact for 32-bit operands.
"""

from __future__ import annotations

import struct

import numpy as np

from compiler.ir.core import (Alu, AluSrc, Block, Def, If, Intrinsic, Jump, LoadConst, Loop, Phi, Shader, Tex,
                              Undef)
from uapi.isa import Imm, Reg
from uapi.isa.semantics import format_bytes, minifloat_encode

from .abi import IMAGE_DESCRIPTOR_BASE, TEMP_REG, BackendError, UniformLayout
from .mir import Const, MBlock, MFunction, MIf, MInstr, MLoop, MPhi, Ref, VReg, field_kind

__all__ = ["select"]

_FLOAT_BIN = {"fadd": "fadd", "fmul": "fmul", "fmin": "fmin", "fmax": "fmax"}
_FLOAT_UN = {"ffloor": "floor", "fceil": "ceil", "ftrunc": "trunc", "fround_even": "roundeven",
             "ffract": "fract", "frcp": "rcp", "frsq": "rsqrt", "fsqrt": "sqrt", "fexp2": "exp2",
             "flog2": "log2", "fsin": "sin", "fcos": "cos", "fddx": "dfdx", "fddy": "dfdy"}
_INT_BIN = {"iadd": "iadd", "isub": "isub", "imul": "imul", "imin": "imin", "imax": "imax", "umin": "umin",
            "umax": "umax", "ishl": "ishl", "ishr": "ishr", "ushr": "ushr", "umul_high": "umulhi"}
_BITOP = {"iand": 0x8, "ior": 0xE, "ixor": 0x6}
_INT_UN = {"bit_count": "popcount", "bitfield_reverse": "bitrev", "find_lsb": "ffs"}
_CMP = {"flt": ("fcmp", "lt"), "fge": ("fcmp", "ge"), "feq": ("fcmp", "eq"), "fneu": ("fcmp", "ne"),
        "ilt": ("icmp", "slt"), "ige": ("icmp", "sge"), "ieq": ("icmp", "eq"), "ine": ("icmp", "ne"),
        "ult": ("icmp", "ult"), "uge": ("icmp", "uge")}
_ATOMIC = {"add": "add", "imin": "smin", "umin": "umin", "imax": "smax", "umax": "umax", "and": "and",
           "or": "or", "xor": "xor", "xchg": "xchg", "cmpxchg": "cmpxchg",
           "fadd": "fadd", "fmin": "fmin", "fmax": "fmax", "fcmpxchg": "fcmpxchg"}
_SYSVAL_SR = {
    "load_vertex_id": ["vertex_id"], "load_instance_id": ["instance_id"], "load_sample_id": ["sample_id"],
    "load_sample_pos": ["sample_position_x", "sample_position_y"], "load_sample_mask_in": ["coverage_mask"],
    "load_primitive_id": ["primitive_id"], "load_zs_depth": ["zs_depth"], "load_zs_stencil": ["zs_stencil"],
    "load_local_invocation_index": ["thread_index_in_threadgroup"],
    "load_local_invocation_id": [f"thread_position_in_threadgroup.{a}" for a in "xyz"],
    "load_global_invocation_id": [f"thread_position_in_grid.{a}" for a in "xyz"],
    "load_workgroup_id": [f"threadgroup_position_in_grid.{a}" for a in "xyz"],
    "load_num_workgroups": [f"threadgroups_per_grid.{a}" for a in "xyz"],
}
W_CF, Z_CF = 0, 1


def _msize(bits: int) -> int:
    if bits == 1:
        return 16
    if bits in (16, 32, 64):
        return bits
    raise BackendError(f"{bits}-bit values are not supported by the backend")


def _float_of(bits: int, size: int) -> float:
    if size == 16:
        return float(np.uint16(bits).view(np.float16))
    if size == 32:
        return struct.unpack("<f", struct.pack("<I", bits & 0xFFFFFFFF))[0]
    raise BackendError("no 64-bit float immediates")


def _f32_bits(x: float) -> int:
    return struct.unpack("<I", struct.pack("<f", x))[0]


class Selector:
    def __init__(self, shader: Shader, options: dict):
        self.shader = shader
        self.stage = shader.stage
        self.opt = options
        self.vals: dict[Def, list] = {}
        self.block: MBlock | None = None
        self.const_cache: dict = {}
        self.bmap: dict[Block, MBlock] = {}
        self.phis: list[tuple[Phi, list[MPhi]]] = []
        self.uses = self._count_uses()
        info = shader.info or {}
        words = (int(info.get("uniform_size_B", 0)) + 3) // 4
        words = max(words, self._max_uniform_word())
        self.layout = UniformLayout(min(words, UniformLayout.LIMIT))
        self.preloaded: dict[int, Ref] = {}
        self.entry = None
        self.attributes: set[int] = set()
        # a program reading the framebuffer (EXT_shader_framebuffer_fetch) runs once per covered
        # sample, each lane reading its own sample's colour (and a discard drops that sample)
        self.flags = {"reads_tile": False, "reads_zs": False, "writes_depth": False, "writes_sample_mask": False,
                      "discards": False,
                      "per_sample": bool(info.get("framebuffer_fetch"))}
        self.cf_max = 0
        io = options.get("info") or info.get("io")     # the front half's ShaderInfo, or the lowering's maps
        self.varying_components = {v.slot: v.components for v in getattr(io, "varyings", [])} if io else {}
        self.varying_bits = {v.slot: v.bit_size for v in getattr(io, "varyings", [])} if io else {}
        self.varyings = list(getattr(io, "varyings", [])) if io else []
        self.varying_sampling = {v.slot: getattr(v, "sampling", "center") for v in self.varyings}
        self.point_coord_cf = None
        self.line_stipple_cf = None

    # ------------------------------------------------------------ helpers
    def _count_uses(self) -> dict:
        counts: dict[Def, int] = {}
        for f in self.shader.functions:
            from compiler.ir.core import walk_cf
            for node in walk_cf(f.body):
                if isinstance(node, Block):
                    for i in node.instrs:
                        for d in i.sources():
                            counts[d] = counts.get(d, 0) + 1
                elif isinstance(node, If):
                    counts[node.cond] = counts.get(node.cond, 0) + 1
        return counts

    def _max_uniform_word(self) -> int:
        from compiler.ir.core import walk_instrs
        top = 0
        for f in self.shader.functions:
            for i in walk_instrs(f.body):
                if isinstance(i, Intrinsic) and i.name == "load_uniform":
                    top = max(top, (i.indices.get("base", 0) + i.indices.get("range", 0) + 3) // 4)
        return top

    def emit(self, op: str, **f) -> MInstr:
        ins = MInstr(op, f)
        self.block.instrs.append(ins)
        return ins

    def comp(self, src: AluSrc | Def, c: int):
        if isinstance(src, AluSrc):
            return self.vals[src.def_][src.swizzle[c]]
        return self.vals[src][c]

    def imm_for(self, x, op: str, name: str):
        """An Imm for constant ``x`` in field ``name`` of ``op``, or None."""
        kind = field_kind(op, name)
        if getattr(kind, "float_imm", False):
            if x.size == 64:
                return None
            try:
                return Imm(minifloat_encode(_float_of(x.bits, x.size)))
            except ValueError:
                return None
        if 0 <= x.bits < 256:
            return Imm(x.bits)
        return None

    def materialise(self, x: Const) -> Ref:
        key = (self.block.id, x.bits, x.size)
        hit = self.const_cache.get(key)
        if hit is not None:
            return hit
        if x.size == 64:
            lo = self.materialise(Const(x.bits & 0xFFFFFFFF, 32))
            hi = self.materialise(Const(x.bits >> 32, 32))
            v = VReg(32, 2)
            self.block.instrs.append(MInstr("collect", dsts=[v], srcs=[lo, hi]))
            ref = Ref(v, 0, 64)
        else:
            v = VReg(x.size)
            self.emit("mov_imm", dst=v, imm=x.bits & ((1 << x.size) - 1))
            ref = Ref(v, 0, x.size)
        self.const_cache[key] = ref
        return ref

    def src(self, x, op: str, name: str):
        """Legalise operand ``x`` for source field ``name`` of ``op``."""
        if isinstance(x, Const):
            imm = self.imm_for(x, op, name)
            return imm if imm is not None else self.materialise(x)
        return x

    def reg_operand(self, x, size: int):
        """``x`` in a general register (constants and uniforms copied)."""
        if isinstance(x, Ref):
            return x
        if isinstance(x, Const):
            return self.materialise(x)
        v = VReg(size)
        self.emit("mov", dst=v, a=x)
        return Ref(v, 0, size)

    def op(self, op: str, size: int, **f) -> Ref:
        """Emit ``op`` with a fresh scalar destination; sources legalised."""
        v = VReg(size)
        fields = {"dst": v}
        for k, x in f.items():
            if isinstance(x, (Const, Ref, Reg)) and k != "dst":
                fields[k] = self.src(x, op, k)
            else:
                fields[k] = x
        self.block.instrs.append(MInstr(op, fields))
        return Ref(v, 0, size)

    def vector(self, comps: list, size: int) -> VReg:
        """A vreg holding ``comps`` in consecutive registers (a collect unless they
        already are exactly one vreg)."""
        if comps and all(isinstance(c, Ref) for c in comps):
            v = comps[0].vreg
            step = size // 16
            if (v.count == len(comps) and v.size == size and
                    all(c.vreg is v and c.off == i * step and c.size == size for i, c in enumerate(comps))):
                return v
        if size == 64:
            raise BackendError("64-bit vectors are not supported")
        v = VReg(size, len(comps))
        srcs = [c if not isinstance(c, Const) else c for c in comps]
        self.block.instrs.append(MInstr("collect", dsts=[v], srcs=srcs))
        return v

    def fsrc(self, s: AluSrc, c: int):
        """(operand, abs, neg) of a float source, folding fneg/fabs producers."""
        d, comp = s.def_, s.swizzle[c]
        abs_ = neg = False
        while isinstance(d.parent, Alu) and d.parent.op in ("fneg", "fabs"):
            inner = d.parent.srcs[0]
            if d.parent.op == "fabs":
                abs_ = True           # inner negations no longer matter; outer ones stay
            elif not abs_:
                neg = not neg
            d, comp = inner.def_, inner.swizzle[comp]
        return self.vals[d][comp], abs_, neg

    def falu(self, op: str, size: int, srcs: list, sat: bool = False) -> Ref:
        """A float ALU op with modifiers: ``srcs`` are (operand, abs, neg)."""
        v = VReg(size)
        f = {"dst": v, "sat": sat}
        for name, (x, a, n) in zip("abc", srcs):
            f[name] = self.src(x, op, name)
            f[f"{name}_abs"], f[f"{name}_neg"] = a, n
        self.block.instrs.append(MInstr(op, f))
        return Ref(v, 0, size)

    def cmp_of(self, d: Def, c: int = 0):
        """(kind, cond, a, b) testing boolean component c of ``d``."""
        p = d.parent
        if isinstance(p, Alu) and p.op in _CMP and self.uses.get(d, 0) <= 2:
            kind, cond = _CMP[p.op]
            return kind, cond, self.comp(p.srcs[0], c), self.comp(p.srcs[1], c)
        return "icmp", "ne", self.vals[d][c], Const(0, 16)

    def cmpsel(self, kind, cond, a, b, t, f, size) -> Ref:
        return self.op("fcmpsel" if kind == "fcmp" else "icmpsel", size, a=a, b=b, t=t, f=f, cond=cond)

    # ------------------------------------------------------------ structure
    def run(self) -> MFunction:
        main = self.shader.main
        body = self.tr_list(main.body, top=True)
        for phi, mphis in self.phis:
            for c, mp in enumerate(mphis):
                for b, d in phi.srcs:
                    mp.srcs[self.bmap[b]] = self.vals[d][c]
        func = MFunction(body, self.stage)
        func.stack_base_B = int((self.shader.info or {}).get("scratch_size_B", 0) + 3) // 4 * 4
        return func

    def tr_list(self, nodes, top=False) -> list:
        out = []
        for n in nodes:
            if isinstance(n, Block):
                mb = MBlock()
                self.bmap[n] = mb
                out.append(mb)
                self.block = mb
                if top and self.entry is None:
                    self.entry = mb
                    self.emit_entry()
                for i in n.instrs:
                    self.instr(i)
                j = n.jump()
                if j is not None:
                    mb.jump = j.kind
            elif isinstance(n, If):
                cond = self.if_cond(n.cond)
                then_list = self.tr_list(n.then_list)
                else_list = self.tr_list(n.else_list)
                out.append(MIf(cond, then_list, else_list))
            else:
                out.append(MLoop(self.tr_list(n.body)))
        return out

    def if_cond(self, d: Def):
        kind, cond, a, b = self.cmp_of(d)
        op = "if_fcmp" if kind == "fcmp" else "if_icmp"
        return (kind, cond, self.src(a, op, "a"), self.src(b, op, "b"))

    def emit_entry(self) -> None:
        """Vertex shaders: copy the preloaded r2 (base vertex) and r1 (base
        instance) out before anything can use r1 as a temporary."""
        if self.stage != "vertex":
            return
        from compiler.ir.core import walk_instrs
        names = {i.name for i in walk_instrs(self.shader.main.body) if isinstance(i, Intrinsic)}
        wanted = []
        if "load_base_vertex" in names:
            wanted.append(("load_base_vertex", 2))
        if "load_base_instance" in names or "load_input" in names:
            wanted.append(("load_base_instance", TEMP_REG))
        if not wanted:
            return
        dsts = [VReg(32) for _ in wanted]
        self.block.instrs.append(MInstr("preload", dsts=dsts, srcs=[Reg("r", 2 * r, 32) for _n, r in wanted]))
        for (name, _r), v in zip(wanted, dsts):
            self.preloaded[name] = Ref(v, 0, 32)

    # ------------------------------------------------------------ instructions
    def instr(self, i) -> None:
        if isinstance(i, LoadConst):
            size = _msize(i.dest.bit_size)
            self.vals[i.dest] = [Const(int(v) & ((1 << size) - 1) if i.dest.bit_size != 1 else int(bool(v)), size)
                                 for v in i.values]
        elif isinstance(i, Undef):
            self.vals[i.dest] = [Const(0, _msize(i.dest.bit_size))] * i.dest.num_components
        elif isinstance(i, Phi):
            size = _msize(i.dest.bit_size)
            mphis = [MPhi(VReg(size)) for _ in range(i.dest.num_components)]
            self.block.phis.extend(mphis)
            self.phis.append((i, mphis))
            self.vals[i.dest] = [Ref(mp.dst, 0, size) for mp in mphis]
        elif isinstance(i, Alu):
            self.alu(i)
        elif isinstance(i, Intrinsic):
            self.intrinsic(i)
        elif isinstance(i, Tex):
            self.tex(i)
        elif isinstance(i, Jump):
            pass
        else:
            raise BackendError(f"cannot select {type(i).__name__} (run inlining and lower_io first)")

    # ------------------------------------------------------------ ALU
    def alu(self, i: Alu) -> None:
        op, d = i.op, i.dest
        n = d.num_components
        size = _msize(d.bit_size)
        if op == "mov" or (op.startswith("vec") and op[3:].isdigit()):
            if op == "mov":
                self.vals[d] = [self.comp(i.srcs[0], c) for c in range(n)]
            else:
                self.vals[d] = [self.comp(s, 0) for s in i.srcs]
            return
        special = getattr(self, "alu_" + op, None)
        if special is not None:
            self.vals[d] = special(i, size)
            return
        self.vals[d] = [self.alu_scalar(i, op, size, c) for c in range(n)]

    def alu_scalar(self, i: Alu, op: str, size: int, c: int):
        srcs = i.srcs
        x = lambda k: self.comp(srcs[k], c)  # noqa: E731
        ssize = _msize(srcs[0].def_.bit_size) if srcs else size
        if op in _FLOAT_BIN:
            return self.falu(_FLOAT_BIN[op], size, [self.fsrc(srcs[0], c), self.fsrc(srcs[1], c)])
        if op in _FLOAT_UN:
            return self.falu(_FLOAT_UN[op], size, [self.fsrc(srcs[0], c)])
        if op == "fsub":
            a, (b, babs, bneg) = self.fsrc(srcs[0], c), self.fsrc(srcs[1], c)
            return self.falu("fadd", size, [a, (b, babs, not bneg)])
        if op == "ffma":
            return self.falu("fma", size, [self.fsrc(s, c) for s in srcs])
        if op in ("fneg", "fabs", "fsat"):
            a, ab, ng = self.fsrc(srcs[0], c)
            if op == "fneg":
                ng = not ng
            elif op == "fabs":
                ab, ng = True, False
            return self.falu("fadd", size, [(a, ab, ng), (Const(0x8000 if size == 16 else 0x80000000, size),
                                                          False, False)], sat=op == "fsat")
        if op == "fdiv":
            r = self.falu("rcp", size, [self.fsrc(srcs[1], c)])
            return self.falu("fmul", size, [self.fsrc(srcs[0], c), (r, False, False)])
        if op == "fmod":
            a, b = self.fsrc(srcs[0], c), self.fsrc(srcs[1], c)
            r = self.falu("rcp", size, [b])
            q = self.falu("fmul", size, [a, (r, False, False)])
            fl = self.falu("floor", size, [(q, False, False)])
            return self.falu("fma", size, [(b[0], b[1], not b[2]), (fl, False, False), a])
        if op == "fpow":
            lg = self.falu("log2", size, [self.fsrc(srcs[0], c)])
            m = self.falu("fmul", size, [(lg, False, False), self.fsrc(srcs[1], c)])
            return self.falu("exp2", size, [(m, False, False)])
        if op == "flrp":
            a, b, t = (self.fsrc(s, c) for s in srcs)
            diff = self.falu("fadd", size, [b, (a[0], a[1], not a[2])])
            return self.falu("fma", size, [t, (diff, False, False), a])
        if op == "fsign":
            a = x(0)
            one, mone = Const(self._fbits(1.0, size), size), Const(self._fbits(-1.0, size), size)
            t = self.cmpsel("fcmp", "lt", a, Const(0, size), mone, a, size)
            return self.cmpsel("fcmp", "gt", a, Const(0, size), one, t, size)
        if op in _CMP:
            kind, cond = _CMP[op]
            return self.cmpsel(kind, cond, x(0), x(1), Const(1, 16), Const(0, 16), 16)
        if op in _INT_BIN:
            return self.op(_INT_BIN[op], size, a=x(0), b=x(1))
        if op in _BITOP:
            return self.op("bitop", size, a=x(0), b=x(1), tt=_BITOP[op])
        if op == "inot":
            if i.dest.bit_size == 1:
                return self.op("bitop", 16, a=x(0), b=Const(1, 16), tt=0x6)
            return self.op("bitop", size, a=x(0), b=Const(0, size), tt=0x5)
        if op == "ineg":
            return self.op("isub", size, a=Const(0, size), b=x(0))
        if op == "iabs":
            neg = self.op("isub", size, a=Const(0, size), b=x(0))
            return self.op("imax", size, a=x(0), b=neg)
        if op == "isign":
            a = x(0)
            t = self.op("icmpsel", size, a=a, b=Const(0, size), t=Const(1, size), f=a, cond="sgt")
            return self.op("icmpsel", size, a=a, b=Const(0, size), t=Const((1 << size) - 1, size), f=t,
                           cond="slt")
        if op in _INT_UN:
            r = self.op(_INT_UN[op], ssize, a=x(0))
            return r if ssize == size else self.convert(r, "u", ssize, "u", size)
        if op == "ufind_msb":
            cl = self.op("clz", ssize, a=x(0))
            return self.op("isub", size, a=Const(ssize - 1, size), b=cl)
        if op == "ifind_msb":
            a = x(0)
            inv = self.op("bitop", ssize, a=a, b=Const(0, ssize), tt=0x5)
            t = self.op("icmpsel", ssize, a=a, b=Const(0, ssize), t=inv, f=a, cond="slt")
            cl = self.op("clz", ssize, a=t)
            return self.op("isub", size, a=Const(ssize - 1, size), b=cl)
        if op in ("ubitfield_extract", "ibitfield_extract"):
            return self.op("ubfe" if op[0] == "u" else "ibfe", size, a=x(0), b=x(1), c=x(2))
        if op == "bitfield_insert":
            return self.op("bfi", size, a=x(0), b=x(1), c=x(2), d=x(3))
        if op == "bcsel":
            kind, cond, a, b = self.cmp_of(srcs[0].def_, srcs[0].swizzle[c])
            return self.cmpsel(kind, cond, a, b, x(1), x(2), size)
        if op in ("udiv", "umod", "idiv", "irem", "imod"):
            return self.divide(op, x(0), x(1), size)
        if op in ("f2b1", "i2b1"):
            kind = "fcmp" if op[0] == "f" else "icmp"
            return self.cmpsel(kind, "ne", x(0), Const(0, ssize), Const(1, 16), Const(0, 16), 16)
        if len(op) >= 4 and op[1] == "2" and op[0] in "fiub" and op[2] in "fiu":
            return self.convert(x(0), op[0], _msize(srcs[0].def_.bit_size), op[2], size)
        raise BackendError(f"no instruction selection for ALU op {op}")

    @staticmethod
    def _fbits(v: float, size: int) -> int:
        if size == 16:
            return int(np.float16(v).view(np.uint16))
        return _f32_bits(v)

    def convert(self, a, s: str, ssize: int, d: str, dsize: int):
        if s == "b":
            s, ssize = "u", 16
        if s == d and ssize == dsize:
            return a
        if s in "iu" and d in "iu" and ssize == dsize:
            return a
        tname = lambda k, n: ("f" if k == "f" else "s" if k == "i" else "u") + str(n)  # noqa: E731
        if isinstance(a, Const) and s in "iu" and d in "iu":
            bits = a.bits
            if s == "i" and bits >> (ssize - 1) & 1:
                bits -= 1 << ssize
            return Const(bits & ((1 << dsize) - 1), dsize)
        return self.op("convert", dsize, a=self.reg_or_uniform(a, ssize), dtype=tname(d, dsize),
                       stype=tname(s, ssize))

    def reg_or_uniform(self, a, size):
        """Sources whose size the consumer derives from the register (convert)."""
        if isinstance(a, Const):
            return self.materialise(a) if a.bits >= 256 or size != 32 else a
        return a

    def alu_fdot2(self, i, size):
        return self._dot(i, size, 2)

    def alu_fdot3(self, i, size):
        return self._dot(i, size, 3)

    def alu_fdot4(self, i, size):
        return self._dot(i, size, 4)

    def _dot(self, i, size, n):
        acc = self.falu("fmul", size, [self.fsrc(i.srcs[0], 0), self.fsrc(i.srcs[1], 0)])
        for c in range(1, n):
            acc = self.falu("fma", size, [self.fsrc(i.srcs[0], c), self.fsrc(i.srcs[1], c), (acc, False, False)])
        return [acc]

    def _reduce_cmp(self, i, n, kind, cond, combine):
        acc = None
        for c in range(n):
            t = self.cmpsel(kind, cond, self.comp(i.srcs[0], c), self.comp(i.srcs[1], c), Const(1, 16),
                            Const(0, 16), 16)
            acc = t if acc is None else self.op("bitop", 16, a=acc, b=t, tt=combine)
        return [acc]

    def __getattr__(self, name):
        # ball_fequalN / bany_fnequalN / ball_iequalN / bany_inequalN
        for prefix, kind, cond, tt in (("alu_ball_fequal", "fcmp", "eq", 0x8), ("alu_bany_fnequal", "fcmp", "ne", 0xE),
                                       ("alu_ball_iequal", "icmp", "eq", 0x8), ("alu_bany_inequal", "icmp", "ne", 0xE)):
            if name.startswith(prefix) and name[len(prefix):].isdigit():
                n = int(name[len(prefix):])
                return lambda i, size: self._reduce_cmp(i, n, kind, cond, tt)
        raise AttributeError(name)

    def alu_pack_64_2x32_split(self, i, size):
        """Two 32-bit words become one 64-bit register pair (a collect)."""
        out = []
        for c in range(i.dest.num_components):
            lo, hi = self.comp(i.srcs[0], c), self.comp(i.srcs[1], c)
            if isinstance(lo, Const) and isinstance(hi, Const):
                out.append(Const(lo.bits | hi.bits << 32, 64))
                continue
            if isinstance(lo, Reg) and isinstance(hi, Reg) and lo.file == hi.file == "u" \
                    and lo.size == hi.size == 32 and hi.half == lo.half + 2:
                # consecutive uniform words (a double uniform): read as one 64-bit uniform
                # operand, which needs no register (and is never spilled)
                out.append(Reg("u", lo.half, 64))
                continue
            v = VReg(32, 2)
            self.block.instrs.append(MInstr("collect", dsts=[v], srcs=[lo, hi]))
            out.append(Ref(v, 0, 64))
        return out

    def _half_of_64(self, i, word: int):
        out = []
        for c in range(i.dest.num_components):
            x = self.comp(i.srcs[0], c)
            if isinstance(x, Const):
                out.append(Const(x.bits >> (32 * word) & 0xFFFFFFFF, 32))
            elif isinstance(x, Ref):
                out.append(Ref(x.vreg, x.off + 2 * word, 32))
            else:
                out.append(Reg(x.file, x.half + 2 * word, 32))
        return out

    def alu_unpack_64_2x32_split_x(self, i, size):
        return self._half_of_64(i, 0)

    def alu_unpack_64_2x32_split_y(self, i, size):
        return self._half_of_64(i, 1)

    def alu_pack_half_2x16(self, i, size):
        halves = [self.op("convert", 16, a=self.comp(i.srcs[0], c), dtype="f16", stype="f32") for c in range(2)]
        v = VReg(16, 2, align=2)
        self.block.instrs.append(MInstr("collect", dsts=[v], srcs=halves))
        return [Ref(v, 0, 32)]

    def alu_unpack_half_2x16(self, i, size):
        x = self.comp(i.srcs[0], 0)
        if isinstance(x, Const):
            return [Const(_f32_bits(float(np.uint16(x.bits >> (16 * k) & 0xFFFF).view(np.float16))), 32)
                    for k in range(2)]
        if isinstance(x, Ref):
            parts = [Ref(x.vreg, x.off + k, 16) for k in range(2)]
        else:
            parts = [Reg(x.file, x.half + k, 16) for k in range(2)]
        return [self.op("convert", 32, a=p, dtype="f32", stype="f16") for p in parts]

    def alu_pack_unorm_4x8(self, i, size):
        acc = None
        for c in range(4):
            v = self.falu("fmul", 32, [self.fsrc(i.srcs[0], c), (Const(_f32_bits(255.0), 32), False, False)],
                          sat=False)
            v = self.falu("fmax", 32, [(v, False, False), (Const(0, 32), False, False)])
            v = self.falu("fmin", 32, [(v, False, False), (Const(_f32_bits(255.0), 32), False, False)])
            v = self.falu("roundeven", 32, [(v, False, False)])
            u = self.op("convert", 32, a=v, dtype="u32", stype="f32")
            if c:
                u = self.op("ishl", 32, a=u, b=Const(8 * c, 32))
            acc = u if acc is None else self.op("bitop", 32, a=acc, b=u, tt=0xE)
        return [acc]

    def alu_unpack_unorm_4x8(self, i, size):
        x = self.comp(i.srcs[0], 0)
        out = []
        for c in range(4):
            byte = self.op("ubfe", 32, a=x, b=Const(8 * c, 32), c=Const(8, 32))
            f = self.op("convert", 32, a=byte, dtype="f32", stype="u32")
            r = self.falu("rcp", 32, [(Const(_f32_bits(255.0), 32), False, False)])
            out.append(self.falu("fmul", 32, [(f, False, False), (r, False, False)]))
        return out

    def divide(self, op: str, n, d, size: int):
        if size != 32:
            raise BackendError(f"{op} is only selected for 32-bit operands")
        signed = op[0] == "i"
        if not signed and isinstance(d, Const):
            return self.udivmod_const(op, n, d.bits & 0xFFFFFFFF)
        if signed:
            sn = self.op("icmpsel", 32, a=n, b=Const(0, 32), t=Const(1, 32), f=Const(0, 32), cond="slt")
            sd = self.op("icmpsel", 32, a=d, b=Const(0, 32), t=Const(1, 32), f=Const(0, 32), cond="slt")
            un = self.op("imax", 32, a=n, b=self.op("isub", 32, a=Const(0, 32), b=n))
            ud = self.op("imax", 32, a=d, b=self.op("isub", 32, a=Const(0, 32), b=d))
        else:
            un, ud = n, d
        q, r = self.udivmod(un, ud)
        if not signed:
            res = q if op == "udiv" else r
        elif op == "idiv":
            neg = self.op("bitop", 32, a=sn, b=sd, tt=0x6)
            mq = self.op("isub", 32, a=Const(0, 32), b=q)
            res = self.op("icmpsel", 32, a=neg, b=Const(0, 32), t=mq, f=q, cond="ne")
        else:
            mr = self.op("isub", 32, a=Const(0, 32), b=r)
            res = self.op("icmpsel", 32, a=sn, b=Const(0, 32), t=mr, f=r, cond="ne")  # irem: sign of n
            if op == "imod":
                # floored: add d when the remainder is nonzero and its sign differs from d's
                sr = self.op("icmpsel", 32, a=res, b=Const(0, 32), t=Const(1, 32), f=Const(0, 32), cond="slt")
                diff = self.op("bitop", 32, a=sr, b=sd, tt=0x6)
                nz = self.op("icmpsel", 32, a=res, b=Const(0, 32), t=diff, f=Const(0, 32), cond="ne")
                plus = self.op("iadd", 32, a=res, b=d)
                res = self.op("icmpsel", 32, a=nz, b=Const(0, 32), t=plus, f=res, cond="ne")
        # x / 0 and x % 0 give 0, as the IR defines them
        return self.op("icmpsel", 32, a=d, b=Const(0, 32), t=Const(0, 32), f=res, cond="eq")

    def udivmod_const(self, op: str, n, d: int):
        """Unsigned 32-bit n / d or n % d by a constant d, as compilers do it (Mesa's
        nir_opt_idiv_const; Granlund and Montgomery): 0 for d = 0 (the IR's x / 0), a
        shift and a mask for a power of two, else the high half of n times a 32-bit
        magic number m with one add-and-halve fix-up: with l = ceil(log2 d) and
        m = floor(2^32 (2^l - d) / d) + 1, t = umulhi(n, m), q = (t + ((n - t) >> 1)) >> (l - 1)
        for every n. Five instructions (seven for the remainder) where the general
        expansion (``udivmod``) takes about sixteen, a reciprocal among them: GLSL's
        ``x % 2u``, ``x / 2u`` and ``y % 0x7fffffffu`` in loops (piglit's transform-feedback
        order test) ran that per iteration."""
        if d == 0:
            return Const(0, 32)
        if d & (d - 1) == 0:
            k = d.bit_length() - 1
            if op == "udiv":
                return n if k == 0 else self.op("ushr", 32, a=n, b=Const(k, 32))
            return Const(0, 32) if k == 0 else self.op("bitop", 32, a=n, b=Const(d - 1, 32), tt=0x8)
        l = d.bit_length()
        m = ((1 << 32) * ((1 << l) - d)) // d + 1
        t = self.op("umulhi", 32, a=n, b=Const(m, 32))
        half = self.op("ushr", 32, a=self.op("isub", 32, a=n, b=t), b=Const(1, 32))
        q = self.op("ushr", 32, a=self.op("iadd", 32, a=t, b=half), b=Const(l - 1, 32))
        if op == "udiv":
            return q
        return self.op("isub", 32, a=n, b=self.op("imul", 32, a=q, b=Const(d, 32)))

    def udivmod(self, n, d):
        """Unsigned 32-bit n / d and n % d (d != 0): a reciprocal estimate refined
        once, then at most two corrections (the classic AMDGPU expansion)."""
        df = self.op("convert", 32, a=self.reg_operand(d, 32), dtype="f32", stype="u32")
        rf = self.falu("rcp", 32, [(df, False, False)])
        rf = self.falu("fmul", 32, [(rf, False, False), (Const(0x4F7FFFFE, 32), False, False)])
        rcp = self.op("convert", 32, a=rf, dtype="u32", stype="f32")
        negd = self.op("isub", 32, a=Const(0, 32), b=d)
        e = self.op("imul", 32, a=negd, b=rcp)
        rcp = self.op("iadd", 32, a=rcp, b=self.op("umulhi", 32, a=rcp, b=e))
        q = self.op("umulhi", 32, a=n, b=rcp)
        r = self.op("isub", 32, a=n, b=self.op("imul", 32, a=q, b=d))
        for _ in range(2):
            q1 = self.op("iadd", 32, a=q, b=Const(1, 32))
            r1 = self.op("isub", 32, a=r, b=d)
            q = self.op("icmpsel", 32, a=r, b=d, t=q1, f=q, cond="uge")
            r = self.op("icmpsel", 32, a=r, b=d, t=r1, f=r, cond="uge")
        return q, r

    # ------------------------------------------------------------ intrinsics
    def intrinsic(self, i: Intrinsic) -> None:
        fn = getattr(self, "in_" + i.name, None)
        if fn is None:
            if i.name in _SYSVAL_SR:
                if i.name in ("load_sample_id", "load_sample_pos"):
                    self.flags["per_sample"] = True         # gl_SampleID, gl_SamplePosition
                if i.name in ("load_zs_depth", "load_zs_stencil"):
                    # the buffers as earlier fragments left them: tests after the shader, one
                    # invocation per covered sample (as the colour fetch)
                    self.flags["per_sample"] = self.flags["reads_zs"] = True
                self.vals[i.dest] = [self.op("get_sr", 32, sr=sr) for sr in _SYSVAL_SR[i.name]]
                return
            raise BackendError(f"no instruction selection for intrinsic {i.name}")
        r = fn(i)
        if i.dest is not None:
            assert r is not None and len(r) == i.dest.num_components, f"{i.name}: wrong result"
            self.vals[i.dest] = r

    def _const_src(self, d: Def) -> int | None:
        x = self.vals[d][0]
        return x.bits if isinstance(x, Const) else None

    def _split(self, v: VReg) -> list:
        step = v.size // 16
        return [Ref(v, k * step, v.size) for k in range(v.count)]

    def _address_index(self, offset, extra_B: int = 0):
        """A 32-bit byte index operand for device/local memory."""
        if isinstance(offset, Const):
            return self.src(Const((offset.bits + extra_B) & 0xFFFFFFFF, 32), "device_load", "index")
        if extra_B:
            return self.op("iadd", 32, a=offset, b=Const(extra_B, 32))
        return offset

    def _dynamic_slot(self, kind: str, index: Def, slot_kind: str, words: int) -> list:
        """A dynamically uniform buffer index (an element of a block array): the
        uniform words of ``slot_kind`` selected over every index the shader's block
        arrays can reach (``shader.info["dynamic_buffers"]``), one ``icmpsel`` per
        candidate and word."""
        cands = self.shader.info.get("dynamic_buffers", {}).get(kind, [])
        if not cands:
            raise BackendError(f"dynamically indexed {kind} outside a block array")
        idx = self.vals[index][0]
        words_of = lambda b: [Reg("u", 2 * self.layout.slot(slot_kind, b, words) + 2 * w, 32)  # noqa: E731
                              for w in range(words)]
        sel = words_of(cands[0])
        for b in cands[1:]:
            sel = [self.op("icmpsel", 32, a=idx, b=Const(b, 32), t=u, f=s, cond="eq")
                   for u, s in zip(words_of(b), sel)]
        return sel

    def _buffer(self, kind: str, index: Def):
        b = self._const_src(index)
        if b is None:
            lo, hi = self._dynamic_slot(kind, index, f"{kind}_address", 2)
            v = VReg(32, 2, align=4)
            self.block.instrs.append(MInstr("collect", dsts=[v], srcs=[lo, hi]))
            return Ref(v, 0, 64)
        return Reg("u", 2 * self.layout.slot(f"{kind}_address", b, 2), 64)

    def _load(self, op: str, d: Def, fmt: str | None = None, **f) -> list:
        size = _msize(d.bit_size)
        if size == 64:
            raise BackendError("64-bit memory loads are not supported")
        v = VReg(size, d.num_components)
        fields = {"dst": v, "fmt": fmt or ("i32" if size == 32 else "i16")}
        fields.update({k: (self.src(x, op, k) if isinstance(x, (Const, Ref)) else x) for k, x in f.items()})
        self.block.instrs.append(MInstr(op, fields))
        return self._split(v)

    def _store(self, op: str, value: Def, mask: int, offset, base_field: dict, addr_field: str) -> None:
        size = _msize(value.bit_size)
        comps = self.vals[value]
        step_B = size // 8
        c = 0
        while c < len(comps):
            if not mask >> c & 1:
                c += 1
                continue
            e = c
            while e < len(comps) and mask >> e & 1:
                e += 1
            data = self.vector(comps[c:e], size)
            f = {"data": data, "fmt": "i32" if size == 32 else "i16"}
            f.update(base_field)
            f[addr_field] = self.src(self._address_index(offset, c * step_B), op, addr_field) \
                if not isinstance(offset, Const) or True else None
            self.block.instrs.append(MInstr(op, f))
            c = e

    def in_load_uniform(self, i):
        base = i.indices.get("base", 0)
        off = self.vals[i.srcs[0]][0]
        size = _msize(i.dest.bit_size)
        if isinstance(off, Const) and size == 32:
            word = (base + off.bits) // 4
            if word + i.dest.num_components <= self.layout.default_words:
                return [Reg("u", 2 * (word + c), 32) for c in range(i.dest.num_components)]
        # dynamic: read the default block from memory (the driver also uploads it)
        addr = Reg("u", 2 * self.layout.slot("uniform_address", 0, 2), 64)
        return self._load("device_load", i.dest, base=addr, index=self._address_index(off, base), shift=0)

    def in_load_ubo(self, i):
        return self._load("device_load", i.dest, base=self._buffer("ubo", i.srcs[0]),
                          index=self._address_index(self.vals[i.srcs[1]][0]), shift=0)

    def in_load_ssbo(self, i):
        return self._load("device_load", i.dest, base=self._buffer("ssbo", i.srcs[0]),
                          index=self._address_index(self.vals[i.srcs[1]][0]), shift=0)

    def in_store_ssbo(self, i):
        value, index, offset = i.srcs
        mask = i.indices.get("write_mask", (1 << value.num_components) - 1)
        self._store("device_store", value, mask, self.vals[offset][0],
                    {"base": self._buffer("ssbo", index), "shift": 0}, "index")

    def in_load_vbo(self, i):
        buffer, fmt = i.indices.get("buffer", 0), i.indices.get("format", "i32")
        base = Reg("u", 2 * self.layout.slot("vbo_address", buffer, 2), 64)
        index = self._robust_attribute_index(buffer, self._address_index(self.vals[i.srcs[0]][0]),
                                             format_bytes(fmt, i.dest.num_components))
        return self._load("device_load", i.dest, fmt=fmt, base=base, index=index, shift=0)

    def _robust_attribute_index(self, loc: int, index, size_B: int):
        """A robust context's vertex fetch (key robust_buffer_access): an element whose
        ``size_B`` bytes from ``index`` reach past the ``attribute_limit`` bytes the
        driver says the attribute's buffer holds reads the first element instead (a
        value from within the buffer, as ARB_robust_buffer_access_behavior allows)."""
        if not self.shader.info.get("robust_buffer_access"):
            return index
        limit = Reg("u", 2 * self.layout.slot("attribute_limit", loc, 1), 32)
        zero = Const(0, 32)
        first = self.op("icmpsel", 32, a=index, b=limit, t=index, f=zero, cond="ult")
        end = self.op("iadd", 32, a=first, b=Const(size_B, 32))
        return self.op("icmpsel", 32, a=end, b=limit, t=first, f=zero, cond="ule")

    def in_get_ssbo_size(self, i):
        b = self._const_src(i.srcs[0])
        if b is None:
            return self._dynamic_slot("ssbo", i.srcs[0], "ssbo_size", 1)
        return [Reg("u", 2 * self.layout.slot("ssbo_size", b, 1), 32)]

    def in_get_uniform_size(self, i):
        return [Reg("u", 2 * self.layout.slot("uniform_size", 0, 1), 32)]

    def in_get_ubo_size(self, i):
        b = self._const_src(i.srcs[0])
        if b is None:
            return self._dynamic_slot("ubo", i.srcs[0], "ubo_size", 1)
        return [Reg("u", 2 * self.layout.slot("ubo_size", b, 1), 32)]

    def in_load_texel_buffer_elements(self, i):
        return [Reg("u", 2 * self.layout.slot("texel_buffer_elements", i.indices["descriptor"], 1), 32)]

    def in_load_sampler_lod_parameters(self, i):
        base = self.layout.slot("sampler_lod_parameters", i.indices["sampler"], 4)
        return [Reg("u", 2 * (base + k), 32) for k in range(4)]

    def _atomic(self, i, op_field: str, srcs: list, **f):
        aop = _ATOMIC[i.indices["atomic_op"]]
        v = VReg(32)
        data = srcs[-1]
        fields = {"dst": v, "op": aop, "value": self.src(self.vals[data][0], "atomic", "value")}
        if aop in ("cmpxchg", "fcmpxchg"):
            fields["cmp"] = self.src(self.vals[srcs[0]][0], "atomic", "cmp")
        fields.update(f)
        self.block.instrs.append(MInstr(op_field, fields))
        return [Ref(v, 0, 32)]

    def in_ssbo_atomic(self, i):
        return self._atomic(i, "atomic", i.srcs[2:], base=self._buffer("ssbo", i.srcs[0]),
                            index=self.src(self._address_index(self.vals[i.srcs[1]][0]), "atomic", "index"),
                            shift=0)

    in_ssbo_atomic_swap = in_ssbo_atomic

    def _local_addr(self, off, base: int):
        a = self._address_index(off, base)
        return self.src(a, "local_load", "addr") if isinstance(a, Const) else a

    def in_load_shared(self, i):
        return self._load("local_load", i.dest, addr=self._local_addr(self.vals[i.srcs[0]][0],
                                                                       i.indices.get("base", 0)))

    def in_store_shared(self, i):
        value, offset = i.srcs
        mask = i.indices.get("write_mask", (1 << value.num_components) - 1)
        off = self.vals[offset][0]
        base = i.indices.get("base", 0)
        if isinstance(off, Const):
            off = Const((off.bits + base) & 0xFFFFFFFF, 32)
        elif base:
            off = self.op("iadd", 32, a=off, b=Const(base, 32))
        self._store("local_store", value, mask, off, {}, "addr")

    def in_shared_atomic(self, i):
        return self._atomic(i, "local_atomic", i.srcs[1:],
                            addr=self._local_addr(self.vals[i.srcs[0]][0], i.indices.get("base", 0)))

    in_shared_atomic_swap = in_shared_atomic

    def in_load_scratch(self, i):
        return self._load_stack(i.dest, self.vals[i.srcs[0]][0], i.indices.get("base", 0))

    def _load_stack(self, d: Def, off, base: int):
        size = _msize(d.bit_size)
        v = VReg(size, d.num_components)
        self.block.instrs.append(MInstr("stack_load", {"dst": v, "offset": self._stack_offset(off, base)}))
        return self._split(v)

    def _stack_offset(self, off, extra: int):
        if isinstance(off, Const):
            return self.src(Const((off.bits + extra) & 0xFFFFFFFF, 32), "stack_load", "offset")
        if extra:
            return self.op("iadd", 32, a=off, b=Const(extra, 32))
        return off

    def in_store_scratch(self, i):
        value, offset = i.srcs
        size = _msize(value.bit_size)
        mask = i.indices.get("write_mask", (1 << value.num_components) - 1)
        comps = self.vals[value]
        off = self.vals[offset][0]
        for c in range(len(comps)):
            if mask >> c & 1:
                data = self.vector([comps[c]], size)
                self.block.instrs.append(MInstr("stack_store", {
                    "data": data, "offset": self._stack_offset(off, i.indices.get("base", 0) + c * size // 8)}))

    def in_barrier(self, i):
        mem = i.indices.get("memory_scope", "none")
        if mem not in ("none", None):
            scope = {"workgroup": "threadgroup", "device": "device"}.get(mem, "all")
            self.emit("memory_barrier", scope=scope)
        if i.indices.get("execution_scope", "none") == "workgroup":
            self.emit("threadgroup_barrier")

    def in_shader_clock(self, i):
        """ARB_shader_clock: the low word (latching the high one), then the high word."""
        return [self.op("clock", 32, hi=0), self.op("clock", 32, hi=1)]

    def in_simd(self, i):
        return [self.op("simd", 32, a=self.vals[i.srcs[0]][0], b=self.vals[i.srcs[1]][0], mode=i.indices["mode"])]

    def in_vote(self, i):
        return [self.op("vote", 16, a=self.vals[i.srcs[0]][0], mode=i.indices["mode"])]

    def in_discard(self, i):
        self.flags["discards"] = True
        self.emit("discard")

    def in_load_frag_coord(self, i):
        xy = []
        for sr in ("pixel_x", "pixel_y"):
            p = self.op("get_sr", 32, sr=sr)
            f = self.op("convert", 32, a=p, dtype="f32", stype="u32")
            xy.append(self.falu("fadd", 32, [(f, False, False), (Const(_f32_bits(0.5), 32), False, False)]))
        z = self._iter(Z_CF, 1, 32, "linear")[0]
        w = self._iter(W_CF, 1, 32, "linear")[0]
        return xy + [z, w]

    def _iter(self, cf: int, n: int, size: int, interp: str, loc: str = "center", where=None) -> list:
        v = VReg(size, n)
        self.cf_max = max(self.cf_max, cf + n)
        at = {"where": self.src(where, "iter", "where")} if loc in ("at_sample", "at_offset") else {}
        if loc == "sample" and interp != "flat":
            self.flags["per_sample"] = True             # a sample-qualified input
        if interp == "flat":
            self.block.instrs.append(MInstr("ldcf", {"dst": v, "cf": cf}))
        elif interp in ("noperspective", "linear"):      # "linear": window-linear planes (gl_FragCoord.zw)
            self.block.instrs.append(MInstr("iter", {"dst": v, "cf": cf, "interp": "linear", "loc": loc, **at}))
        else:
            self.block.instrs.append(MInstr("iter", {"dst": v, "cf": cf, "cf_w": W_CF, "interp": "persp",
                                                     "loc": loc, **at}))
            self.cf_max = max(self.cf_max, W_CF + 1)
        return self._split(v)

    def in_load_helper_invocation(self, i):
        return [self.op("get_sr", 16, sr="helper_invocation")]

    def in_load_front_face(self, i):
        return [self.op("get_sr", 16, sr="front_facing")]

    def in_load_point_coord(self, i):
        """gl_PointCoord: a linear plane pair after every varying's registers
        (``CompiledShader.point_coord_cf``; the driver binds source POINT_COORD there)."""
        if self.point_coord_cf is None:
            self.point_coord_cf = self._cf_after_varyings()
        return self._iter(self.point_coord_cf, 2, 32, "noperspective")

    def in_load_line_stipple(self, i):
        """A line's stipple counter: a linear plane after every varying's registers
        and gl_PointCoord's (``CompiledShader.line_stipple_cf``; the driver binds
        source LINE_STIPPLE there)."""
        if self.line_stipple_cf is None:
            self.line_stipple_cf = self._cf_after_varyings()
        return self._iter(self.line_stipple_cf, 1, 32, "noperspective")

    def _cf_after_varyings(self) -> int:
        """The first coefficient register after every varying's and the sources
        already placed there (gl_PointCoord's pair, the stipple counter)."""
        top = Z_CF + 1
        for v in self.varyings:
            top = max(top, v.index + v.components * v.locations)
        from compiler.ir.core import walk_instrs
        for ins in walk_instrs(self.shader.main.body):
            if isinstance(ins, Intrinsic) and ins.name == "load_input":
                top = max(top, ins.indices.get("base", 0) + 4)
        if self.point_coord_cf is not None:
            top = max(top, self.point_coord_cf + 2)
        if self.line_stipple_cf is not None:
            top = max(top, self.line_stipple_cf + 1)
        return top

    def in_load_base_vertex(self, i):
        return [self.preloaded["load_base_vertex"]]

    def in_load_base_instance(self, i):
        return [self.preloaded["load_base_instance"]]

    def _location_offset(self, i: Intrinsic, off_def: Def) -> int:
        off = self._const_src(off_def)
        if off is None:
            raise BackendError(f"{i.name} with a dynamic location offset")
        return off

    def in_load_interpolated_input(self, i):
        """interpolateAtCentroid/AtSample/AtOffset: ``iter`` at that location."""
        if self.stage != "fragment":
            raise BackendError("load_interpolated_input outside a fragment shader")
        off = self._location_offset(i, i.srcs[1])
        base, comp = i.indices.get("base", 0), i.indices.get("component", 0)
        slot = i.indices.get("slot")
        per = self.varying_components.get(slot, 4)
        where = self.vals[i.srcs[0]][0]
        return self._iter(base + off * per + comp, i.dest.num_components, _msize(i.dest.bit_size),
                          i.indices.get("interp", "smooth"), i.indices["loc"], where)

    def in_load_input(self, i):
        off = self._location_offset(i, i.srcs[0])
        base, comp = i.indices.get("base", 0), i.indices.get("component", 0)
        n = i.dest.num_components
        size = _msize(i.dest.bit_size)
        if self.stage == "fragment":
            per = self.varying_components.get(i.indices.get("slot"), 4)
            slot = i.indices.get("slot")
            return self._iter(base + off * per + comp, n, size, i.indices.get("interp", "smooth"),
                              self.varying_sampling.get(slot, "center"))
        if self.stage != "vertex":
            raise BackendError(f"load_input in a {self.stage} shader")
        loc = base + off
        self.attributes.add(loc)
        addr = Reg("u", 2 * self.layout.slot("attribute_address", loc, 2), 64)
        stride = Reg("u", 2 * self.layout.slot("attribute_stride", loc, 1), 32)
        vid = self.op("get_sr", 32, sr="vertex_id")
        index = self.op("imul", 32, a=vid, b=stride)
        if comp:
            index = self.op("iadd", 32, a=index, b=Const(4 * comp, 32))
        index = self._robust_attribute_index(loc, index, n * size // 8)
        return self._load("device_load", i.dest, base=addr, index=index, shift=0)

    def in_store_output(self, i):
        value, offset = i.srcs
        off = self._location_offset(i, offset)
        base, comp = i.indices.get("base", 0), i.indices.get("component", 0)
        mask = i.indices.get("write_mask", (1 << value.num_components) - 1)
        slot = str(i.indices.get("slot", ""))
        comps = self.vals[value]
        if self.stage == "vertex":
            per = self.varying_components.get(slot, 4)
            if self.varying_bits.get(slot, 32) == 16:
                self._store_var16(base + off * ((per + 1) // 2), comp, comps, mask)
                return
            for c, x in enumerate(comps):
                if mask >> c & 1:
                    self.emit("st_var", index=base + off * per + comp + c, a=self.src(x, "st_var", "a"))
            return
        if self.stage != "fragment":
            raise BackendError(f"store_output in a {self.stage} shader")
        up = slot.upper()
        if "DEPTH" in up:
            self.flags["writes_depth"] = True
            self.emit("zs_emit", mode="z", z=self.src(comps[0], "zs_emit", "z"))
        elif "STENCIL" in up:
            self.emit("zs_emit", mode="s", s=self.src(comps[0], "zs_emit", "s"))
        elif "SAMPLE_MASK" in up:
            self.flags["writes_sample_mask"] = True
            x = comps[0]
            if isinstance(x, Ref) and x.size == 32:
                x = Ref(x.vreg, x.off, 16)
            elif isinstance(x, Const):
                x = Const(x.bits & 0xFFFF, 16)
            self.emit("sample_mask", a=self.src(x, "sample_mask", "a"))
        else:
            # an unlowered colour output: raw 32-bit words at 16 bytes per render target
            data = self.vector([self.reg_operand(x, 32) for x in comps], 32)
            self.emit("st_tile", data=data, fmt="i32", offset=16 * (base + off), mask=mask)

    def _store_var16(self, first_word: int, comp: int, comps: list, mask: int) -> None:
        """A 16-bit varying: components as binary16, two per output word (low half
        first); a half this store does not write is 0."""
        words: dict[int, list] = {}
        for c, x in enumerate(comps):
            if mask >> c & 1:
                k = comp + c
                h = x if isinstance(x, Ref) and x.size == 16 else self.op("convert", 16, a=x, dtype="f16", stype="f32")
                words.setdefault(k // 2, [Const(0, 16), Const(0, 16)])[k % 2] = h
        for w, halves in sorted(words.items()):
            v = VReg(16, 2, align=2)
            self.block.instrs.append(MInstr("collect", dsts=[v], srcs=halves))
            self.emit("st_var", index=first_word + w, a=Ref(v, 0, 32))

    def in_load_tile(self, i):
        self.flags["reads_tile"] = True
        size = _msize(i.dest.bit_size)
        v = VReg(size, i.dest.num_components)
        self.emit("ld_tile", dst=v, fmt=i.indices["format"], offset=i.indices.get("offset_B", 0))
        return self._split(v)

    def in_store_tile(self, i):
        value = i.srcs[0]
        size = _msize(value.bit_size)
        comps = [self.reg_operand(x, size) for x in self.vals[value]]
        data = self.vector(comps, size)
        self.emit("st_tile", data=data, fmt=i.indices["format"], offset=i.indices.get("offset_B", 0),
                  mask=i.indices.get("write_mask", (1 << value.num_components) - 1))

    # ------------------------------------------------------------ images
    def _image_dim(self, i) -> str:
        return _tex_dim(i.indices.get("dim", "2d"), bool(i.indices.get("is_array", False)))

    def _image_coords(self, i, coord: Def):
        dim = self._image_dim(i)
        from uapi.isa.table import TEX_DIMS  # noqa: F401
        n = _coord_count(dim)
        comps = [self.reg_operand(c, 32) for c in self.vals[coord][:n]]
        return self.vector(comps, 32), dim

    def in_image_load(self, i):
        coords, dim = self._image_coords(i, i.srcs[0])
        v = VReg(32, 4)
        self.emit("image_load", dst=v, coords=coords, dim=dim, tex=Imm(IMAGE_DESCRIPTOR_BASE + i.indices["image"]))
        return self._split(v)

    def in_image_store(self, i):
        coords, dim = self._image_coords(i, i.srcs[0])
        value = i.srcs[2]
        data = self.vector([self.reg_operand(x, 32) for x in self.vals[value]], 32)
        self.emit("image_write", data=data, coords=coords, dim=dim,
                  tex=Imm(IMAGE_DESCRIPTOR_BASE + i.indices["image"]))

    def in_image_atomic(self, i):
        coords, dim = self._image_coords(i, i.srcs[0])
        rest = i.srcs[2:]
        aop = _ATOMIC[i.indices["atomic_op"]]
        v = VReg(32)
        f = {"dst": v, "op": aop, "dim": dim, "coords": coords, "tex": Imm(IMAGE_DESCRIPTOR_BASE + i.indices["image"]),
             "value": self.src(self.vals[rest[-1]][0], "image_atomic", "value")}
        if aop == "cmpxchg":
            f["cmp"] = self.src(self.vals[rest[0]][0], "image_atomic", "cmp")
        self.block.instrs.append(MInstr("image_atomic", f))
        return [Ref(v, 0, 32)]

    in_image_atomic_swap = in_image_atomic

    def in_image_size(self, i):
        v = VReg(32, 3)
        self.emit("texture_size", dst=v, tex=Imm(IMAGE_DESCRIPTOR_BASE + i.indices["image"]), lod=Imm(0))
        return self._split(v)[:i.dest.num_components]

    def in_image_samples(self, i):
        return [self.op("texture_query", 32, tex=Imm(IMAGE_DESCRIPTOR_BASE + i.indices["image"]),
                        query="samples")]

    # ------------------------------------------------------------ textures
    def tex(self, t: Tex) -> None:
        if t.op == "query_samples":         # no coordinates: every dimension, arrays included
            self.vals[t.dest] = [self.op("texture_query", 32, tex=Imm(t.texture), query="samples")]
            return
        dim = _tex_dim(t.dim, t.is_array)
        n = t.dest.num_components
        size = _msize(t.dest.bit_size)
        tex_idx, samp_idx = Imm(t.texture), Imm(t.sampler)
        if t.op in ("txs", "query_levels"):
            if t.op == "query_levels":
                self.vals[t.dest] = [self.op("texture_query", 32, tex=tex_idx, query="levels")]
                return
            lod = t.src("lod")
            v = VReg(32, 3)
            self.emit("texture_size", dst=v, tex=tex_idx,
                      lod=self.src(self.vals[lod][0], "texture_size", "lod") if lod is not None else Imm(0))
            self.vals[t.dest] = self._split(v)[:n]
            return
        if t.op == "lod":
            raise BackendError("textureQueryLod is not supported by the ISA")
        coord = self.vals[t.src("coord")]
        ncoord = _coord_count(dim)
        if t.op == "txf" and t.src("offset") is not None:
            # texelFetchOffset: texture_load takes no offset; it is added to the integer
            # texel coordinates (the spatial ones: an array's layer has no offset)
            offs = self.vals[t.src("offset")]
            coord = [self.op("iadd", 32, a=c, b=offs[k]) if k < len(offs) else c
                     for k, c in enumerate(coord[:ncoord])]
        coords = self.vector([self.reg_operand(c, 32) for c in coord[:ncoord]], 32)
        v = VReg(32, 4)
        if t.op == "txf":
            lod = t.src("lod")
            f = {"dst": v, "coords": coords, "tex": tex_idx, "dim": dim,
                 "lod": self.src(self.vals[lod][0], "texture_load", "lod") if lod is not None else Imm(0),
                 "ms": t.src("ms_index") is not None}
            if f["ms"]:
                f["sample"] = self.src(self.vals[t.src("ms_index")][0], "texture_load", "sample")
            self.block.instrs.append(MInstr("texture_load", f))
        else:
            mode = {"tex": "auto", "txb": "bias", "txl": "lod", "txd": "grad", "tg4": "auto"}[t.op]
            f = {"dst": v, "coords": coords, "tex": tex_idx, "samp": samp_idx, "dim": dim, "lod_mode": mode,
                 "compare": t.is_shadow and t.src("comparator") is not None, "offset": t.src("offset") is not None,
                 "gather": t.op == "tg4"}
            if mode in ("bias", "lod"):
                f["lod"] = self.src(self.vals[t.src("bias" if mode == "bias" else "lod")][0], "texture_sample", "lod")
            if mode == "grad":
                ns = _SPATIAL[dim]
                g = self.vals[t.src("ddx")][:ns] + self.vals[t.src("ddy")][:ns]
                f["grad"] = self.vector([self.reg_operand(c, 32) for c in g], 32)
            if f["compare"]:
                f["ref"] = self.src(self.vals[t.src("comparator")][0], "texture_sample", "ref")
            if f["offset"]:
                f["offs"] = self._tex_offset(self.vals[t.src("offset")])
            if f["gather"]:
                f["component"] = t.component
            self.block.instrs.append(MInstr("texture_sample", f))
        self.vals[t.dest] = self._split(v)[:n] if size == 32 else self._narrow(self._split(v)[:n], size)

    def _narrow(self, comps, size):
        return [self.op("convert", size, a=c, dtype="f16", stype="f32") for c in comps]

    def _tex_offset(self, comps):
        if all(isinstance(c, Const) for c in comps):
            packed = 0
            for k, c in enumerate(comps[:3]):
                packed |= (c.bits & 0xF) << (4 * k)
            return self.src(Const(packed, 32), "texture_sample", "offs")
        acc = None
        for k, c in enumerate(comps[:3]):
            part = self.op("bitop", 32, a=c, b=Const(0xF, 32), tt=0x8)
            if k:
                part = self.op("ishl", 32, a=part, b=Const(4 * k, 32))
            acc = part if acc is None else self.op("bitop", 32, a=acc, b=part, tt=0xE)
        return acc


_SPATIAL = {"1d": 1, "2d": 2, "3d": 3, "cube": 3, "1d_array": 1, "2d_array": 2, "cube_array": 3, "2d_ms": 2}


def _tex_dim(dim: str, is_array: bool) -> str:
    base = {"1d": "1d", "2d": "2d", "3d": "3d", "cube": "cube", "rect": "2d", "buf": "1d", "ms": "2d_ms"}[dim]
    if is_array:
        if base in ("1d", "2d", "cube"):
            return base + "_array"
        if base == "2d_ms":
            # texture_load's `ms` flag (a sample operand) marks the multisample forms:
            # a 2D multisample array is the 2d_array dimension (x, y, layer) with a sample
            return "2d_array"
    return base


def _coord_count(dim: str) -> int:
    return _SPATIAL[dim] + (1 if dim.endswith("_array") else 0)


def select(shader: Shader, options: dict | None = None):
    """IR -> (MFunction, Selector) (the selector keeps the uniform layout and flags)."""
    sel = Selector(shader, options or {})
    func = sel.run()
    return func, sel
