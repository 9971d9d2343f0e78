"""The parser: the printed form back to IR, so pass tests can be written as text.

It reads what ``printer.print_shader`` writes, and is lenient where that helps a
test author: constants may be written as ``1.0``, ``-3``, ``0x3f800000`` or
``true``; a missing swizzle means "the first components"; a scalar source of a
wider per-component op is broadcast; ``var`` lines and values may use any names.
Errors raise ``IRParseError`` with the line number.
"""

from __future__ import annotations

import re

from .builder import const_bits
from .core import (
    Alu, AluSrc, Block, Call, Def, Deref, Function, If, Intrinsic, Jump, LoadConst, Loop, Phi,
    Shader, Tex, Undef, Variable, identity_swizzle,
)
from .opcodes import OPS, parse_type_spec
from .types import SWIZZLE_LETTERS, _parse_type

__all__ = ["parse_shader", "IRParseError"]


class IRParseError(ValueError):
    pass


_DEST_RE = re.compile(r"(\d+)x(\d+)\s+(%\w+)\s*=\s*(.*)$")
_SRC_RE = re.compile(r"(%\w+)(?:\.([xyzwa-p]+))?$")


def _split_args(text: str) -> list[str]:
    """Split on top-level commas."""
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _parens(text: str) -> tuple[list[str], str]:
    """Parse a leading ``( ... )`` group; returns its comma-separated items and the rest."""
    text = text.lstrip()
    if not text.startswith("("):
        return [], text
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if depth == 0:
            return _split_args(text[1:i]), text[i + 1:]
    raise IRParseError("unbalanced parentheses")


def _index_value(key: str, text: str):
    if key == "write_mask" and re.fullmatch(r"[xyzwa-p]+", text):
        return sum(1 << SWIZZLE_LETTERS.index(c) for c in text)
    try:
        return int(text, 0)
    except ValueError:
        return text


def _kv(items: list[str]) -> dict:
    out = {}
    for item in items:
        if "=" in item:
            k, v = item.split("=", 1)
            out[k.strip()] = _index_value(k.strip(), v.strip())
        else:
            out[item.strip()] = True
    return out


def _const_component(text: str, bit_size: int) -> int:
    t = text.strip()
    if t in ("true", "false"):
        return int(t == "true")
    if bit_size == 1:
        return int(int(t, 0) != 0)
    if re.fullmatch(r"-?0x[0-9a-fA-F]+", t):
        return int(t, 16) & ((1 << bit_size) - 1)
    if re.fullmatch(r"-?\d+", t):
        return const_bits(int(t), "int", bit_size)
    return const_bits(float(t), "float", bit_size)


class _FunctionParser:
    def __init__(self, parser: "_Parser", func: Function):
        self.p = parser
        self.func = func
        self.values: dict[str, Def] = {}
        self.blocks: dict[str, Block] = {}
        self.pending_phis: list[tuple[Phi, list[tuple[str, str]], int]] = []

    def value(self, name: str) -> Def:
        if name not in self.values:
            self.p.error(f"value {name} used before its definition")
        return self.values[name]

    def var(self, name: str) -> Variable:
        for v in self.func.locals + self.p.shader.variables:
            if v.name == name:
                return v
        self.p.error(f"unknown variable {name}")

    def parse_body(self) -> list:
        """A cf list up to a line starting with '}'."""
        nodes: list = []
        current: Block | None = None
        while True:
            line = self.p.peek()
            if line is None:
                self.p.error("unexpected end of text")
            if line.startswith("}"):
                return nodes
            self.p.next()
            m = re.match(r"block (\w+):$", line)
            if m:
                current = Block()
                self.blocks[m.group(1)] = current
                nodes.append(current)
                continue
            m = re.match(r"if (%\w+) \{$", line)
            if m:
                cond = self.value(m.group(1))
                then_list = self.parse_body()
                if self.p.next() != "} else {":
                    self.p.error("expected '} else {'")
                else_list = self.parse_body()
                self.p.expect("}")
                nodes.append(If(cond, then_list, else_list))
                current = None
                continue
            if line == "loop {":
                body = self.parse_body()
                self.p.expect("}")
                nodes.append(Loop(body))
                current = None
                continue
            if line.startswith("var "):
                self.func.locals.append(self.p.parse_var(line))
                continue
            if current is None:
                self.p.error("instruction outside a block")
            current.append(self.parse_instr(line))

    def finish(self) -> None:
        for phi, srcs, lineno in self.pending_phis:
            for bname, vname in srcs:
                if bname not in self.blocks:
                    self.p.error(f"unknown block {bname}", lineno)
                if vname not in self.values:
                    self.p.error(f"unknown value {vname}", lineno)
                phi.srcs.append((self.blocks[bname], self.values[vname]))

    def define(self, name: str, d: Def) -> None:
        if name in self.values:
            self.p.error(f"value {name} defined twice")
        self.values[name] = d

    def parse_instr(self, line: str):
        if line in ("break", "continue"):
            return Jump(line)
        m = _DEST_RE.match(line)
        if m:
            bits, comps, name, rhs = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
            instr = self.parse_rhs(rhs, bits, comps)
            if instr.dest is None:
                self.p.error("this instruction has no destination")
            if (instr.dest.bit_size, instr.dest.num_components) != (bits, comps):
                self.p.error(f"declared {bits}x{comps} but the instruction gives "
                             f"{instr.dest.bit_size}x{instr.dest.num_components}")
            self.define(name, instr.dest)
            return instr
        instr = self.parse_rhs(line, None, None)
        if instr.dest is not None:
            self.p.error("this instruction needs a destination")
        return instr

    def alu_src(self, text: str, need: int) -> AluSrc:
        m = _SRC_RE.match(text.strip())
        if not m:
            self.p.error(f"bad ALU source {text!r}")
        d = self.value(m.group(1))
        if m.group(2):
            sw = tuple(SWIZZLE_LETTERS.index(c) for c in m.group(2))
        elif d.num_components == 1 and need > 1:
            sw = (0,) * need
        else:
            sw = identity_swizzle(need)
        if len(sw) != need or max(sw) >= d.num_components:
            self.p.error(f"source {text!r} does not give {need} components")
        return AluSrc(d, sw)

    def parse_rhs(self, rhs: str, bits: int | None, comps: int | None):
        word, _, rest = rhs.partition(" ")
        exact = False
        if word == "exact":
            exact = True
            word, _, rest = rest.partition(" ")
        if word in OPS:
            info = OPS[word]
            args = _split_args(rest)
            if len(args) != info.num_inputs:
                self.p.error(f"{word} takes {info.num_inputs} sources")
            srcs = [self.alu_src(a, info.input_sizes[i] or comps) for i, a in enumerate(args)]
            return Alu(word, srcs, Def(comps, bits), exact)
        if word == "load_const":
            items, _ = _parens(rest)
            return LoadConst(tuple(_const_component(t, bits) for t in items), bits)
        if word == "undef":
            return Undef(comps, bits)
        if word == "phi":
            phi = Phi(Def(comps, bits))
            srcs = []
            for item in _split_args(rest):
                b, _, v = item.partition(":")
                srcs.append((b.strip(), v.strip()))
            self.pending_phis.append((phi, srcs, self.p.lineno))
            return phi
        if word == "intrinsic":
            name, _, rest = rest.partition(" ")
            srcs, rest = _parens(rest)
            idx, _ = _parens(rest)
            dest = Def(comps, bits) if bits is not None else None
            try:
                return Intrinsic(name, [self.value(s) for s in srcs], dest, **_kv(idx))
            except AssertionError as e:
                self.p.error(str(e))
        if word == "tex":
            op, _, rest = rest.partition(" ")
            srcs, rest = _parens(rest)
            opts, _ = _parens(rest)
            kw = _kv(opts)
            pairs = []
            for s in srcs:
                k, _, v = s.partition("=")
                pairs.append((k.strip(), self.value(v.strip())))
            return Tex(op, pairs, Def(comps, bits), texture=kw.get("texture", 0), sampler=kw.get("sampler", 0),
                       dim=str(kw.get("dim", "2d")), is_array=bool(kw.get("array")),
                       is_shadow=bool(kw.get("shadow")), dest_type=kw.get("dest_type", "float"),
                       component=kw.get("component", 0))
        if word == "deref_var":
            return Deref("var", var=self.var(rest.strip()))
        if word == "deref_array":
            m = re.match(r"(%\w+)\[(%\w+)\]$", rest.strip())
            if not m:
                self.p.error("expected deref_array %parent[%index]")
            return Deref("array", parent=self.value(m.group(1)), index=self.value(m.group(2)))
        if word == "deref_struct":
            m = re.match(r"(%\w+)\.(\w+)$", rest.strip())
            if not m:
                self.p.error("expected deref_struct %parent.field")
            parent = self.value(m.group(1))
            field = m.group(2)
            fidx = int(field) if field.isdigit() else parent.parent.type.field_index(field)
            return Deref("struct", parent=parent, field_index=fidx)
        if word.startswith("call") or rhs.startswith("call "):
            m = re.match(r"call (\w+)\((.*)\)$", rhs)
            if not m:
                self.p.error("expected call name(args)")
            call = Call(None, [self.value(a) for a in _split_args(m.group(2))],
                        Def(comps, bits) if bits is not None else None)
            self.p.pending_calls.append((call, m.group(1), self.p.lineno))
            return call
        self.p.error(f"unknown instruction {word!r}")


class _Parser:
    def __init__(self, text: str):
        self.lines = []
        for i, raw in enumerate(text.splitlines(), 1):
            line = re.sub(r"/\*.*?\*/", "", raw.split("//")[0]).strip()
            if line:
                self.lines.append((i, line))
        self.pos = 0
        self.lineno = 0
        self.shader: Shader | None = None
        self.pending_calls: list = []

    def error(self, msg: str, lineno: int | None = None):
        raise IRParseError(f"line {lineno or self.lineno}: {msg}")

    def peek(self) -> str | None:
        return self.lines[self.pos][1] if self.pos < len(self.lines) else None

    def next(self) -> str:
        if self.pos >= len(self.lines):
            self.error("unexpected end of text")
        self.lineno, line = self.lines[self.pos]
        self.pos += 1
        return line

    def expect(self, text: str) -> None:
        if self.next() != text:
            self.error(f"expected {text!r}")

    def parse_var(self, line: str) -> Variable:
        m = re.match(r"var (\w+) (.*)$", line)
        if not m:
            self.error("expected var MODE TYPE NAME (DATA)")
        mode, rest = m.group(1), m.group(2)
        try:
            type_, rest = _parse_type(rest)
        except (ValueError, AssertionError) as e:
            self.error(str(e))
        m = re.match(r"\s*(\w+)\s*(.*)$", rest)
        if not m:
            self.error("expected a variable name")
        items, _ = _parens(m.group(2))
        try:
            return Variable(m.group(1), type_, mode, _kv(items))
        except AssertionError as e:
            self.error(str(e))

    def parse(self) -> Shader:
        m = re.match(r"shader (\w+)(?: (\S+))?$", self.next())
        if not m:
            self.error("expected 'shader STAGE [NAME]'")
        self.shader = Shader(m.group(1), m.group(2) or "")
        while self.peek() is not None:
            line = self.next()
            if line.startswith("var "):
                self.shader.variables.append(self.parse_var(line))
                continue
            m = re.match(r"function (\w+)(?:\(([^)]*)\))?(?:\s*->\s*(\d+)x(\d+))?\s*\{$", line)
            if not m:
                self.error("expected a var or function")
            params = []
            for p in _split_args(m.group(2) or ""):
                bits, comps = p.split("x")
                params.append((int(comps), int(bits)))
            ret = (int(m.group(4)), int(m.group(3))) if m.group(3) else None
            func = Function(m.group(1), params, ret)
            fp = _FunctionParser(self, func)
            func.body = fp.parse_body()
            self.expect("}")
            fp.finish()
            self.shader.functions.append(func)
        for call, name, lineno in self.pending_calls:
            try:
                call.callee = self.shader.function(name)
            except KeyError:
                self.error(f"call to unknown function {name}", lineno)
        return self.shader


def parse_shader(text: str) -> Shader:
    """Parse the printed form of a shader."""
    return _Parser(text).parse()
