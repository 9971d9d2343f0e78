"""SPIR-V binaries -> a ``Module``: the header checked, every instruction decoded
into (opcode name, result type, result id, operand words), and the module-level
facts the translator reads gathered once (names, decorations, types, constants,
entry points, execution modes, functions).

Every malformed input raises ``SpirvError`` with a message for the info log:
a length that is not whole words, a wrong magic number, an unsupported version,
an id bound of 0, an instruction of word count 0 or running past the end, an id
at or above the bound, an opcode this front end does not know, an id defined
twice, an OpCapability not in ``spec.CAPABILITIES``, an OpExtension not in
``spec.EXTENSIONS``, what ARB_gl_spirv refuses of Vulkan's SPIR-V (a DescriptorSet
other than 0, OpTypeSampler). A module in the other byte order (magic read as
0x03022307) is swapped.

Invariants: ``Module.instructions`` is in module order; ``Module.functions``
maps each function id to its instructions from OpFunction to OpFunctionEnd;
``decorations[id]`` is a list of (decoration name, literal operand words) and
``member_decorations[(id, member)]`` likewise.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass, field

from .spec import CAPABILITY_NAME, DECORATION_NAME, EXTENSIONS, MAGIC, MAX_VERSION, OPCODES, STRING_OPERAND

__all__ = ["Instruction", "Module", "SpirvError", "parse_module", "decode_string"]


class SpirvError(Exception):
    """A SPIR-V module this front end rejects; ``str(e)`` is the info log's message."""


@dataclass(slots=True)
class Instruction:
    op: str
    type_id: int | None
    result: int | None
    operands: tuple[int, ...]      # the words after the result type / result id
    offset_words: int = 0          # where the instruction starts in the module

    def string(self, first: int = 0) -> tuple[str, int]:
        """The literal string starting at operand word ``first`` and the index of the
        word after it."""
        return decode_string(self.operands, first)


def decode_string(words, first: int) -> tuple[str, int]:
    data = bytearray()
    i = first
    while i < len(words):
        chunk = struct.pack("<I", words[i])
        i += 1
        if 0 in chunk:
            data += chunk[:chunk.index(0)]
            return data.decode("utf-8", "replace"), i
        data += chunk
    raise SpirvError("a literal string is not terminated")


@dataclass
class Module:
    version: tuple[int, int]
    generator: int
    bound: int
    instructions: list[Instruction]
    names: dict[int, str] = field(default_factory=dict)
    member_names: dict[tuple[int, int], str] = field(default_factory=dict)
    decorations: dict[int, list] = field(default_factory=dict)
    member_decorations: dict[tuple[int, int], list] = field(default_factory=dict)
    defs: dict[int, Instruction] = field(default_factory=dict)
    entry_points: list[tuple[int, int, str, tuple[int, ...]]] = field(default_factory=list)  # model, fn, name, iface
    execution_modes: dict[int, list[tuple[int, tuple[int, ...]]]] = field(default_factory=dict)
    capabilities: list[int] = field(default_factory=list)
    extensions: list[str] = field(default_factory=list)
    ext_imports: dict[int, str] = field(default_factory=dict)
    functions: dict[int, list[Instruction]] = field(default_factory=dict)
    globals: list[Instruction] = field(default_factory=list)   # types, constants, global variables in order

    def decoration(self, id_: int, name: str, member: int | None = None):
        """The operand words of decoration ``name`` on ``id_`` (or its member), None if absent."""
        table = self.decorations.get(id_, ()) if member is None else self.member_decorations.get((id_, member), ())
        for dname, words in table:
            if dname == name:
                return words
        return None

    def has(self, id_: int, name: str, member: int | None = None) -> bool:
        return self.decoration(id_, name, member) is not None


def parse_module(data: bytes) -> Module:
    """Decode and check a SPIR-V binary (see the module docstring)."""
    data = bytes(data)
    if len(data) == 0:
        raise SpirvError("the SPIR-V binary is empty")
    if len(data) % 4:
        raise SpirvError(f"the SPIR-V binary's length ({len(data)} bytes) is not a multiple of 4")
    if len(data) < 20:
        raise SpirvError("the SPIR-V binary is shorter than its 5-word header")
    words = list(struct.unpack(f"<{len(data) // 4}I", data))
    if words[0] != MAGIC:
        swapped = list(struct.unpack(f">{len(data) // 4}I", data))
        if swapped[0] != MAGIC:
            raise SpirvError(f"not a SPIR-V binary (magic number 0x{words[0]:08x}, expected 0x{MAGIC:08x})")
        words = swapped
    version, generator, bound, schema = words[1:5]
    if version & 0xFF0000FF or version > MAX_VERSION or version < 0x00010000:
        raise SpirvError(f"unsupported SPIR-V version 0x{version:08x} (1.0 to 1.6 are supported)")
    if bound == 0:
        raise SpirvError("the SPIR-V header's id bound is 0")
    if schema != 0:
        raise SpirvError(f"the SPIR-V header's reserved schema word is {schema}, not 0")
    mod = Module(((version >> 16) & 0xFF, (version >> 8) & 0xFF), generator, bound, [])
    pos = 5
    current_fn: list[Instruction] | None = None
    while pos < len(words):
        count, code = words[pos] >> 16, words[pos] & 0xFFFF
        if count == 0:
            raise SpirvError(f"instruction at word {pos} has word count 0")
        if pos + count > len(words):
            raise SpirvError(f"instruction at word {pos} runs past the end of the binary")
        info = OPCODES.get(code)
        if info is None:
            raise SpirvError(f"unsupported SPIR-V instruction (opcode {code}) at word {pos}")
        name, has_type, has_result = info
        body = words[pos + 1:pos + count]
        need = int(has_type) + int(has_result)
        if len(body) < need:
            raise SpirvError(f"Op{name} at word {pos} is too short")
        type_id = body[0] if has_type else None
        result = body[int(has_type)] if has_result else None
        for i in (type_id, result):
            if i is not None and not 0 < i < bound:
                raise SpirvError(f"Op{name} at word {pos} uses id {i}, outside the bound {bound}")
        ins = Instruction(name, type_id, result, tuple(body[need:]), pos)
        mod.instructions.append(ins)
        if result is not None:
            if result in mod.defs:
                raise SpirvError(f"id %{result} is defined twice")
            mod.defs[result] = ins
        _record(mod, ins)
        if name == "Function":
            if current_fn is not None:
                raise SpirvError("OpFunction inside a function")
            current_fn = [ins]
            mod.functions[result] = current_fn
        elif current_fn is not None:
            current_fn.append(ins)
            if name == "FunctionEnd":
                current_fn = None
        elif name == "FunctionEnd":
            raise SpirvError("OpFunctionEnd outside a function")
        elif name.startswith(("Type", "Constant", "SpecConstant", "Variable", "Undef")):
            mod.globals.append(ins)
        pos += count
    if current_fn is not None:
        raise SpirvError("the last function has no OpFunctionEnd")
    if not mod.entry_points:
        raise SpirvError("the module has no OpEntryPoint")
    _check_gl_rules(mod)
    for cap in mod.capabilities:
        if cap not in CAPABILITY_NAME:
            raise SpirvError(f"the module declares SPIR-V capability {cap}, which is not supported")
    for name in mod.extensions:
        if name not in EXTENSIONS:
            raise SpirvError(f'the module uses the SPIR-V extension "{name}", which is not supported '
                             f'(supported: {", ".join(EXTENSIONS)})')
    return mod


def _check_gl_rules(mod: Module) -> None:
    """What ARB_gl_spirv does not accept of SPIR-V that Vulkan does: a DescriptorSet other
    than 0, separate samplers (OpTypeSampler)."""
    for target, decorations in mod.decorations.items():
        for name, words in decorations:
            if name == "DescriptorSet" and words and words[0] != 0:
                raise SpirvError(f"%{target} is in descriptor set {words[0]}: OpenGL has only set 0")
    if any(ins.op == "TypeSampler" for ins in mod.globals):
        raise SpirvError("OpTypeSampler: OpenGL has no separate samplers (use OpTypeSampledImage)")


def _record(mod: Module, ins: Instruction) -> None:
    op, o = ins.op, ins.operands
    try:
        if op == "Name":
            mod.names[o[0]] = ins.string(1)[0]
        elif op == "MemberName":
            mod.member_names[(o[0], o[1])] = ins.string(2)[0]
        elif op in ("Decorate", "DecorateId", "DecorateString"):
            mod.decorations.setdefault(o[0], []).append((DECORATION_NAME.get(o[1], f"#{o[1]}"), tuple(o[2:])))
        elif op in ("MemberDecorate", "MemberDecorateString"):
            mod.member_decorations.setdefault((o[0], o[1]), []).append(
                (DECORATION_NAME.get(o[2], f"#{o[2]}"), tuple(o[3:])))
        elif op == "EntryPoint":
            name, nxt = ins.string(2)
            mod.entry_points.append((o[0], o[1], name, tuple(o[nxt:])))
        elif op in ("ExecutionMode", "ExecutionModeId"):
            mod.execution_modes.setdefault(o[0], []).append((o[1], tuple(o[2:])))
        elif op == "Capability":
            mod.capabilities.append(o[0])
        elif op == "Extension":
            mod.extensions.append(ins.string(0)[0])
        elif op == "ExtInstImport":
            mod.ext_imports[ins.result] = ins.string(0)[0]
        elif op in ("GroupDecorate", "GroupMemberDecorate"):
            group = mod.decorations.get(o[0], [])
            if op == "GroupDecorate":
                for target in o[1:]:
                    mod.decorations.setdefault(target, []).extend(group)
            else:
                for k in range(1, len(o) - 1, 2):
                    mod.member_decorations.setdefault((o[k], o[k + 1]), []).extend(group)
    except IndexError:
        raise SpirvError(f"Op{op} at word {ins.offset_words} is too short") from None
