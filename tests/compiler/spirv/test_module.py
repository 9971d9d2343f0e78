"""compiler.spirv.module: the header and instruction stream checks, decoded
against words built by hand and against spirv-as output."""

import struct

import pytest

from compiler.spirv import SpirvError, parse_module
from compiler.spirv.spec import MAGIC, OP

from .spirv_asm import PASS_VS, assemble, needs_spirv_as


def words(*ws) -> bytes:
    return struct.pack(f"<{len(ws)}I", *ws)


def header(version=0x00010000, bound=10, schema=0):
    return words(MAGIC, version, 0, bound, schema)


def ins(op: str, *operands) -> bytes:
    return words(((len(operands) + 1) << 16) | OP[op], *operands)


def entry_point() -> bytes:
    name = b"main\0\0\0\0"
    return ins("EntryPoint", 0, 1, *struct.unpack("<2I", name))


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"\x03\x02\x23\x07\x00", "multiple of 4"),
    (words(MAGIC, 0x10000), "shorter than its 5-word header"),
    (words(0xDEADBEEF, 0x10000, 0, 10, 0), "magic number 0xdeadbeef"),
    (header(version=0x00020000), "unsupported SPIR-V version"),
    (header(version=0x00010700), "unsupported SPIR-V version"),
    (header(bound=0), "id bound is 0"),
    (header(schema=1), "schema"),
    (header() + words(0 << 16 | OP["Capability"]), "word count 0"),
    (header() + words(3 << 16 | OP["Capability"], 1), "runs past the end"),
    (header() + words(1 << 16 | 9999), "opcode 9999"),
    (header(bound=5) + ins("TypeVoid", 7), "outside the bound 5"),
    (header() + ins("TypeVoid", 2) + ins("TypeBool", 2), "%2 is defined twice"),
    (header() + ins("Capability", 1), "no OpEntryPoint"),
    (header() + entry_point() + ins("TypeVoid", 2) + ins("TypeFunction", 3, 2)
     + ins("Function", 2, 1, 0, 3), "no OpFunctionEnd"),
    (header() + ins("Capability", 39) + entry_point(), "capability 39, which is not supported"),   # Int8
    (header() + ins("Capability", 4442) + entry_point(), "capability 4442"),        # VariablePointers
    (header() + entry_point() + ins("Decorate", 5, 34, 1), "descriptor set 1"),   # %5 DescriptorSet 1
    (header() + entry_point() + ins("TypeSampler", 5), "OpTypeSampler"),
])
def test_malformed_modules_are_rejected(data, message):
    with pytest.raises(SpirvError, match=message.replace("%", "%")):
        parse_module(data)


def test_minimal_module_by_hand():
    data = (header() + ins("Capability", 1) + entry_point() + ins("TypeVoid", 2) + ins("TypeFunction", 3, 2)
            + ins("Function", 2, 1, 0, 3) + ins("Label", 4) + ins("Return") + ins("FunctionEnd"))
    m = parse_module(data)
    assert m.version == (1, 0) and m.bound == 10
    assert m.entry_points == [(0, 1, "main", ())]
    assert [i.op for i in m.functions[1]] == ["Function", "Label", "Return", "FunctionEnd"]
    # the other byte order is the same module
    swapped = b"".join(data[k:k + 4][::-1] for k in range(0, len(data), 4))
    assert [i.op for i in parse_module(swapped).instructions] == [i.op for i in m.instructions]


@needs_spirv_as
def test_decoded_opcodes_match_the_assembly():
    """Every instruction spirv-as assembled decodes to the mnemonic it was written as
    (the opcode table against the tools' own)."""
    m = parse_module(assemble(PASS_VS))
    ops = [i.op for i in m.instructions]
    written = []
    for line in PASS_VS.splitlines():
        parts = line.split()
        if not parts:
            continue
        word = parts[2] if len(parts) > 2 and parts[1] == "=" else parts[0]
        written.append(word[2:])
    assert ops == written
    assert m.names == {}
    assert m.decoration(m.entry_points[0][3][1], "Location") == (0,)
