"""The builder: the way to make IR.

One method per ALU op and per intrinsic is generated from the op and intrinsic
tables (``b.fadd(x, y)``, ``b.load_input(offset, num_components=4, slot="VAR0")``).
Sources may be values (``Def``), swizzled sources (``b.swz(v, "xxy")``) or Python
numbers, which become constants of the type the op expects.

Structured control flow follows NIR's ``push_if`` / ``push_else`` / ``pop_if`` and
``push_loop`` / ``pop_loop``; the cursor is where the next instruction goes.

Two entry paths for a front end:

* **Variables first (recommended):** declare locals with ``b.local_var``, read and
  write them with ``load_var`` / ``store_var`` (or derefs for arrays and structs),
  and let ``lower_vars_to_ssa`` build the phis. No phi is written by hand.
* **Direct SSA:** make phis with ``b.phi`` / ``b.if_phi`` at merge blocks and loop
  headers (a loop-header phi gets its back-edge source with ``Phi.srcs.append`` once
  the value exists).

A block ending in ``break`` / ``continue`` must be the last of its list: emit
nothing after a jump until ``pop_if`` / ``pop_loop``.
"""

from __future__ import annotations

import struct

import numpy as np

from .core import (
    Alu, AluSrc, Block, Call, Def, Deref, Function, If, Instr, Intrinsic, Jump, LoadConst,
    Loop, Phi, Shader, Tex, Undef, Variable, first_block, identity_swizzle, last_block, walk_cf,
)
from .intrinsics import INTRINSICS
from .opcodes import OPS, parse_type_spec
from .types import SWIZZLE_LETTERS, VecType

__all__ = ["Builder", "const_bits", "bits_to_number"]


def const_bits(value, base: str, bit_size: int) -> int:
    """The raw bits of a Python number read as ``base`` (float/int/uint/bool)."""
    if bit_size == 1 or base == "bool":
        return int(bool(value))
    if base == "float":
        dtype = {16: np.float16, 32: np.float32, 64: np.float64}[bit_size]
        return int(np.array(value, dtype).view({16: np.uint16, 32: np.uint32, 64: np.uint64}[bit_size]))
    return int(value) & ((1 << bit_size) - 1)


def bits_to_number(bits: int, base: str, bit_size: int):
    """Inverse of ``const_bits``."""
    if bit_size == 1 or base == "bool":
        return bool(bits)
    if base == "float":
        fmt = {16: "<e", 32: "<f", 64: "<d"}[bit_size]
        return struct.unpack(fmt, bits.to_bytes(bit_size // 8, "little"))[0]
    if base == "int" and bits >= 1 << (bit_size - 1):
        return bits - (1 << bit_size)
    return bits


class Builder:
    """Builds IR into ``func`` at a cursor (a block and a position; None = the end)."""

    def __init__(self, func: Function, shader: Shader | None = None):
        self.func = func
        self.shader = shader
        self.block: Block = last_block(func.body)
        self.index: int | None = None

    def __getattr__(self, name: str):
        # Intrinsics registered after import (by other modules) still get a method.
        if name in INTRINSICS:
            return lambda *srcs, **kw: self.intrinsic(name, *srcs, **kw)
        raise AttributeError(name)

    # ------------------------------------------------------------ cursor
    def at_end(self, block: Block) -> "Builder":
        self.block, self.index = block, None
        return self

    def before(self, instr: Instr) -> "Builder":
        self.block, self.index = instr.block, instr.block.instrs.index(instr)
        return self

    def after(self, instr: Instr) -> "Builder":
        self.block, self.index = instr.block, instr.block.instrs.index(instr) + 1
        return self

    def insert(self, instr: Instr) -> Instr:
        assert self.block.jump() is None or self.index is not None, \
            "nothing may follow a break/continue in its block; pop the if/loop first"
        if self.index is None:
            self.block.append(instr)
        else:
            self.block.insert(self.index, instr)
            self.index += 1
        return instr

    # ------------------------------------------------------------ constants
    def const(self, values, bit_size: int = 32) -> Def:
        """A constant from raw bits."""
        vals = values if isinstance(values, (list, tuple)) else [values]
        return self.insert(LoadConst(tuple(vals), bit_size)).dest

    def imm(self, value, base: str = "float", bit_size: int = 32) -> Def:
        """A constant from Python numbers (a number or a list of them)."""
        vals = value if isinstance(value, (list, tuple)) else [value]
        bits = 1 if base == "bool" else bit_size
        return self.const([const_bits(v, base, bits) for v in vals], bits)

    def fimm(self, value, bit_size: int = 32) -> Def:
        return self.imm(value, "float", bit_size)

    def iimm(self, value, bit_size: int = 32) -> Def:
        return self.imm(value, "int", bit_size)

    def bimm(self, value) -> Def:
        return self.imm(value, "bool", 1)

    def undef(self, num_components: int = 1, bit_size: int = 32) -> Def:
        return self.insert(Undef(num_components, bit_size)).dest

    # ------------------------------------------------------------ ALU
    @staticmethod
    def swz(value: Def, swizzle: str | tuple[int, ...]) -> AluSrc:
        """``value`` read through a swizzle such as ``"xxy"`` or ``(0, 0, 1)``."""
        if isinstance(swizzle, str):
            swizzle = tuple(SWIZZLE_LETTERS.index(c) for c in swizzle)
        assert all(c < value.num_components for c in swizzle), "swizzle out of range"
        return AluSrc(value, tuple(swizzle))

    def alu(self, op: str, *srcs, num_components: int | None = None, exact: bool = False) -> Def:
        info = OPS[op]
        assert len(srcs) == info.num_inputs, f"{op} takes {info.num_inputs} sources, got {len(srcs)}"
        # Component count of the destination.
        if info.output_size:
            comps = info.output_size
        elif num_components is not None:
            comps = num_components
        else:
            widths = [len(s.swizzle) if isinstance(s, AluSrc) else s.num_components
                      for s, size in zip(srcs, info.input_sizes) if isinstance(s, (Def, AluSrc)) and size == 0]
            comps = max(widths, default=1)
        # Bit size shared by the unsized inputs and output.
        unsized = None
        for s, t in zip(srcs, info.input_types):
            if isinstance(s, (Def, AluSrc)) and parse_type_spec(t)[1] is None:
                unsized = (s.def_ if isinstance(s, AluSrc) else s).bit_size
                break
        if unsized is None:
            unsized = 32
        alu_srcs = []
        for i, s in enumerate(srcs):
            need = info.input_sizes[i] or comps
            if not isinstance(s, (Def, AluSrc)):
                base, size = parse_type_spec(info.input_types[i])
                s = self.imm(s, base, size or unsized)
            if isinstance(s, Def):
                if s.num_components == need:
                    s = AluSrc(s, identity_swizzle(need))
                elif s.num_components == 1:
                    s = AluSrc(s, (0,) * need)
                elif s.num_components > need:
                    s = AluSrc(s, identity_swizzle(need))
                else:
                    raise ValueError(f"{op}: source {i} has {s.num_components} components, needs {need}")
            assert len(s.swizzle) == need, f"{op}: source {i} reads {len(s.swizzle)} components, needs {need}"
            alu_srcs.append(s)
        dest = Def(comps, info.output_bit_size(unsized))
        return self.insert(Alu(op, alu_srcs, dest, exact)).dest

    def vec(self, *components) -> Def:
        """A vector from scalars (or a single value unchanged)."""
        if len(components) == 1:
            c = components[0]
            return c if isinstance(c, Def) else self.fimm(c)
        return self.alu(f"vec{len(components)}", *components)

    def channel(self, value: Def, c: int) -> Def:
        return self.alu("mov", AluSrc(value, (c,)))

    def swizzle(self, value: Def, swizzle: str | tuple[int, ...]) -> Def:
        return self.alu("mov", self.swz(value, swizzle))

    # ------------------------------------------------------------ intrinsics
    def intrinsic(self, name: str, *srcs: Def, num_components: int | None = None,
                  bit_size: int | None = None, **indices) -> Def | Intrinsic:
        """Emit an intrinsic; returns its value, or the instruction when it has none."""
        info = INTRINSICS[name]
        dest = None
        if info.has_dest:
            comps = info.dest_components or num_components or 1
            bits = info.dest_bit_size or bit_size or 32
            dest = Def(comps, bits)
        instr = self.insert(Intrinsic(name, list(srcs), dest, **indices))
        return dest if dest is not None else instr

    def tex(self, op: str = "tex", *, num_components: int = 4, bit_size: int = 32, **kw) -> Def:
        """A texture instruction; sources by keyword (coord=, lod=, bias=, ddx=, ddy=,
        comparator=, offset=, ms_index=), the rest are Tex fields."""
        from .core import TEX_SRC_KINDS
        srcs = [(k, kw.pop(k)) for k in TEX_SRC_KINDS if k in kw]
        return self.insert(Tex(op, srcs, Def(num_components, bit_size), **kw)).dest

    # ------------------------------------------------------------ variables
    def local_var(self, name: str, type_) -> Variable:
        var = Variable(name, type_, "function_temp")
        self.func.locals.append(var)
        return var

    def deref_var(self, var: Variable) -> Def:
        return self.insert(Deref("var", var=var)).dest

    def deref_array(self, parent: Def, index: Def | int) -> Def:
        if not isinstance(index, Def):
            index = self.iimm(index)
        return self.insert(Deref("array", parent=parent, index=index)).dest

    def deref_struct(self, parent: Def, field: int | str) -> Def:
        if isinstance(field, str):
            field = parent.parent.type.field_index(field)
        return self.insert(Deref("struct", parent=parent, field_index=field)).dest

    def load_deref(self, deref: Def) -> Def:
        t = deref.parent.type
        assert isinstance(t, VecType), f"load_deref of a non-vector type {t}"
        return self.intrinsic("load_deref", deref, num_components=t.components, bit_size=t.bit_size)

    def store_deref(self, deref: Def, value: Def, write_mask: int | None = None) -> Intrinsic:
        if write_mask is None:
            write_mask = (1 << value.num_components) - 1
        return self.intrinsic("store_deref", deref, value, write_mask=write_mask)

    def load_var(self, var: Variable) -> Def:
        return self.load_deref(self.deref_var(var))

    def store_var(self, var: Variable, value: Def, write_mask: int | None = None) -> Intrinsic:
        return self.store_deref(self.deref_var(var), value, write_mask)

    # ------------------------------------------------------------ calls and jumps
    def call(self, callee: Function, *args: Def) -> Def | Call:
        dest = Def(*callee.ret) if callee.ret else None
        instr = self.insert(Call(callee, list(args), dest))
        return dest if dest is not None else instr

    def break_(self) -> Jump:
        return self.insert(Jump("break"))

    def continue_(self) -> Jump:
        return self.insert(Jump("continue"))

    def phi(self, srcs: list[tuple[Block, Def]], num_components: int | None = None,
            bit_size: int | None = None) -> Def:
        """A phi at the start of the cursor's block."""
        proto = srcs[0][1] if srcs else None
        dest = Def(num_components or proto.num_components, bit_size or proto.bit_size)
        phi = Phi(dest, srcs)
        pos = len(self.block.phis())
        self.block.insert(pos, phi)
        if self.index is not None and self.index >= pos:
            self.index += 1
        return dest

    # ------------------------------------------------------------ structured control flow
    def _split_here(self) -> tuple[list, int]:
        """Make the cursor the end of its block (moving later instructions to a new
        block that follows) and return (the cf list holding the block, its index)."""
        cf_list, idx = self._find(self.block)
        if self.index is not None and self.index < len(self.block.instrs):
            tail = self.block.instrs[self.index:]
            del self.block.instrs[self.index:]
            nb = Block(tail)
            cf_list.insert(idx + 1, nb)
            self._move_phi_preds(self.block, nb)
        self.index = None
        return cf_list, idx

    def _move_phi_preds(self, old: Block, new: Block) -> None:
        for node in walk_cf(self.func.body):
            if isinstance(node, Block):
                for phi in node.phis():
                    phi.srcs = [(new if b is old else b, d) for b, d in phi.srcs]

    def _find(self, block: Block) -> tuple[list, int]:
        def search(nodes):
            for i, n in enumerate(nodes):
                if n is block:
                    return nodes, i
                subs = [n.then_list, n.else_list] if isinstance(n, If) else [n.body] if isinstance(n, Loop) else []
                for s in subs:
                    r = search(s)
                    if r:
                        return r
            return None
        found = search(self.func.body)
        assert found, "cursor block is not in the function"
        return found

    def push_if(self, cond: Def) -> If:
        """Start an if; the cursor moves into the then-list."""
        node = If(cond)
        self._insert_after_cursor_block(node)
        self.at_end(first_block(node.then_list))
        return node

    def _insert_after_cursor_block(self, node) -> None:
        """Put an if or loop right after the cursor (splitting its block), followed by
        a block; phis that named the cursor's block as predecessor now name that one."""
        cf_list, idx = self._split_here()
        after = cf_list[idx + 1] if idx + 1 < len(cf_list) else None
        if not isinstance(after, Block):
            after = Block()
            cf_list.insert(idx + 1, after)
        self._move_phi_preds(self.block, after)
        cf_list.insert(idx + 1, node)

    def push_else(self, node: If) -> None:
        self.at_end(last_block(node.else_list))

    def pop_if(self, node: If) -> None:
        """Leave the if; the cursor moves to the block after it."""
        cf_list, idx = self._find_node(node)
        self.at_end(cf_list[idx + 1])

    def if_phi(self, node: If, then_value: Def, else_value: Def) -> Def:
        """After ``pop_if``: a phi merging a value from each side."""
        return self.phi([(last_block(node.then_list), then_value), (last_block(node.else_list), else_value)])

    def push_loop(self) -> Loop:
        """Start a loop; the cursor moves into its body."""
        node = Loop()
        self._insert_after_cursor_block(node)
        self.at_end(first_block(node.body))
        return node

    def pop_loop(self, node: Loop) -> None:
        cf_list, idx = self._find_node(node)
        self.at_end(cf_list[idx + 1])

    def _find_node(self, target) -> tuple[list, int]:
        def search(nodes):
            for i, n in enumerate(nodes):
                if n is target:
                    return nodes, i
                subs = [n.then_list, n.else_list] if isinstance(n, If) else [n.body] if isinstance(n, Loop) else []
                for s in subs:
                    r = search(s)
                    if r:
                        return r
            return None
        found = search(self.func.body)
        assert found, "node is not in the function"
        return found


def _make_alu_method(op: str):
    def method(self, *srcs, **kw):
        return self.alu(op, *srcs, **kw)
    method.__name__ = op
    method.__doc__ = f"Emit ``{op}`` ({OPS[op].description or 'see opcodes.py'})."
    return method


def _make_intrinsic_method(name: str):
    def method(self, *srcs, **kw):
        return self.intrinsic(name, *srcs, **kw)
    method.__name__ = name
    method.__doc__ = f"Emit the ``{name}`` intrinsic (indices: {', '.join(INTRINSICS[name].indices) or 'none'})."
    return method


for _op in OPS:
    assert not hasattr(Builder, _op), f"builder method {_op} clashes"
    setattr(Builder, _op, _make_alu_method(_op))
for _name in INTRINSICS:
    if not hasattr(Builder, _name):        # load_deref/store_deref have typed helpers above
        setattr(Builder, _name, _make_intrinsic_method(_name))
