"""The printer: IR to readable text (the form ``parser.parse_shader`` reads back).

Values are renumbered ``%0, %1, ...`` and blocks ``b0, b1, ...`` in program order,
so two programs that differ only in value identities print the same: tests compare
printed text. Example::

    shader fragment
    var shader_in f32x4 color (slot=VAR0, interp=smooth)

    function main {
      block b0:
        32x1 %0 = load_const (0)
        32x4 %1 = intrinsic load_input (%0) (base=0, slot=VAR0, interp=smooth)
        32x4 %2 = fmul %1, %1.wwww
      loop {
        block b1:
          break
      }
      block b2:
    }
"""

from __future__ import annotations

import math

from .builder import bits_to_number
from .core import (
    Alu, Block, Call, Deref, Function, If, Instr, Intrinsic, Jump, LoadConst, Loop, Phi,
    Shader, Tex, Undef, Variable, walk_blocks,
)
from .types import SWIZZLE_LETTERS

__all__ = ["print_shader", "print_function", "format_const", "mask_letters"]


def mask_letters(mask: int) -> str:
    return "".join(SWIZZLE_LETTERS[i] for i in range(16) if mask >> i & 1) or "0"


def format_const(bits: int, bit_size: int) -> str:
    """One constant component: ``true``/``false``, a small signed integer, a float
    that reads back exactly, or hex."""
    if bit_size == 1:
        return "true" if bits else "false"
    signed = bits_to_number(bits, "int", bit_size)
    if -65536 <= signed < 65536:
        return str(signed)
    if bit_size >= 16:
        f = bits_to_number(bits, "float", bit_size)
        if math.isfinite(f) and 1e-6 <= abs(f) <= 1e9:
            text = repr(float(f)) if bit_size == 64 else _short_float(f, bit_size, bits)
            return text
    return hex(bits)


def _short_float(f: float, bit_size: int, bits: int) -> str:
    from .builder import const_bits
    for digits in range(1, 18):
        text = f"{f:.{digits}g}"
        if const_bits(float(text), "float", bit_size) == bits:
            if not any(c in text for c in ".e"):
                text += ".0"
            return text
    return repr(f)


def _fmt_value(v) -> str:
    return str(v)


class _Namer:
    def __init__(self, func: Function):
        self.values: dict = {}
        self.blocks: dict = {}
        for block in walk_blocks(func.body):
            self.blocks[block] = f"b{len(self.blocks)}"
            for instr in block.instrs:
                if instr.dest is not None:
                    self.values[instr.dest] = f"%{len(self.values)}"

    def v(self, d) -> str:
        return self.values.get(d, f"%?{d.id}")

    def b(self, block) -> str:
        return self.blocks.get(block, f"b?{block.id}")


def _fmt_var(var: Variable) -> str:
    data = ", ".join(f"{k}={_fmt_value(v)}" for k, v in var.data.items())
    return f"var {var.mode} {var.type} {var.name}" + (f" ({data})" if data else "")


def _fmt_instr(instr: Instr, n: _Namer) -> str:
    dest = f"{instr.dest.bit_size}x{instr.dest.num_components} {n.v(instr.dest)} = " if instr.dest else ""
    if isinstance(instr, Alu):
        srcs = []
        for s in instr.srcs:
            text = n.v(s.def_)
            if not s.is_identity():
                text += "." + "".join(SWIZZLE_LETTERS[c] for c in s.swizzle)
            srcs.append(text)
        return f"{dest}{'exact ' if instr.exact else ''}{instr.op} {', '.join(srcs)}"
    if isinstance(instr, LoadConst):
        return f"{dest}load_const ({', '.join(format_const(v, instr.dest.bit_size) for v in instr.values)})"
    if isinstance(instr, Undef):
        return f"{dest}undef"
    if isinstance(instr, Phi):
        return f"{dest}phi " + ", ".join(f"{n.b(b)}: {n.v(d)}" for b, d in instr.srcs)
    if isinstance(instr, Intrinsic):
        idx = []
        for k, v in instr.indices.items():
            idx.append(f"{k}={mask_letters(v) if k == 'write_mask' else _fmt_value(v)}")
        text = f"{dest}intrinsic {instr.name} ({', '.join(n.v(s) for s in instr.srcs)})"
        return text + (f" ({', '.join(idx)})" if idx else "")
    if isinstance(instr, Tex):
        srcs = ", ".join(f"{k}={n.v(d)}" for k, d in instr.srcs)
        opts = [f"texture={instr.texture}", f"sampler={instr.sampler}", f"dim={instr.dim}"]
        if instr.is_array:
            opts.append("array")
        if instr.is_shadow:
            opts.append("shadow")
        if instr.dest_type != "float":
            opts.append(f"dest_type={instr.dest_type}")
        if instr.component:
            opts.append(f"component={instr.component}")
        return f"{dest}tex {instr.op} ({srcs}) ({', '.join(opts)})"
    if isinstance(instr, Deref):
        if instr.kind == "var":
            return f"{dest}deref_var {instr.var.name}"
        if instr.kind == "array":
            return f"{dest}deref_array {n.v(instr.parent)}[{n.v(instr.index)}]"
        return f"{dest}deref_struct {n.v(instr.parent)}.{instr.parent.parent.type.fields[instr.field][0]}"
    if isinstance(instr, Call):
        return f"{dest}call {instr.callee.name}({', '.join(n.v(a) for a in instr.args)})"
    if isinstance(instr, Jump):
        return instr.kind
    raise TypeError(f"cannot print {instr!r}")


def print_function(func: Function) -> str:
    n = _Namer(func)
    lines = []
    sig = ""
    if func.params:
        sig = "(" + ", ".join(f"{b}x{c}" for c, b in func.params) + ")"
    if func.ret:
        sig += f" -> {func.ret[1]}x{func.ret[0]}"
    lines.append(f"function {func.name}{sig} {{")
    for var in func.locals:
        lines.append("  " + _fmt_var(var))

    def emit(nodes, depth):
        pad = "  " * depth
        for node in nodes:
            if isinstance(node, Block):
                lines.append(f"{pad}block {n.b(node)}:")
                for instr in node.instrs:
                    lines.append(f"{pad}  {_fmt_instr(instr, n)}")
            elif isinstance(node, If):
                lines.append(f"{pad}if {n.v(node.cond)} {{")
                emit(node.then_list, depth + 1)
                lines.append(f"{pad}}} else {{")
                emit(node.else_list, depth + 1)
                lines.append(f"{pad}}}")
            elif isinstance(node, Loop):
                lines.append(f"{pad}loop {{")
                emit(node.body, depth + 1)
                lines.append(f"{pad}}}")

    emit(func.body, 1)
    lines.append("}")
    return "\n".join(lines)


def print_shader(shader: Shader) -> str:
    lines = [f"shader {shader.stage}" + (f" {shader.name}" if shader.name else "")]
    for var in shader.variables:
        lines.append(_fmt_var(var))
    for func in shader.functions:
        lines.append("")
        lines.append(print_function(func))
    return "\n".join(lines) + "\n"
