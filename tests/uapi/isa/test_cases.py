"""Golden `hex  asm` cases (uapi/isa/cases.txt) against the encoder, decoder,
assembler and disassembler."""

from pathlib import Path

import pytest

import uapi.isa as isa

CASES_PATH = Path(isa.__file__).with_name("cases.txt")


def load_cases() -> list[tuple[bytes, str]]:
    cases = []
    for line in CASES_PATH.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        hex_, asm = line.split(None, 1)
        cases.append((bytes.fromhex(hex_), asm.strip()))
    return cases


CASES = load_cases()


@pytest.mark.parametrize("code, asm", CASES, ids=[a for _, a in CASES])
def test_golden_case(code, asm):
    ins = isa.assemble_line(asm)
    assert isa.encode(ins) == code, "encoder"
    decoded = isa.decode_one(code)
    assert decoded == ins, "decoder"
    assert str(decoded) == asm, "disassembler"
    assert isa.assemble(asm) == code, "assembler"


def test_every_instruction_has_a_golden_case():
    covered = {asm.split()[0].split(".")[0] for _, asm in CASES}
    assert covered == {op.name for op in isa.OPS}


def test_whole_file_assembles_and_disassembles_as_one_program():
    code = b"".join(c for c, _ in CASES)
    assert isa.disassemble(code).splitlines() == [a for _, a in CASES]
    assert isa.assemble("\n".join(a for _, a in CASES)) == code


def test_documented_layout_of_fadd_by_hand():
    """fadd: opcode 0x01 in bits 0-7, dst (half | size code << 8) at 8, sat at 18, a at 19
    (value | kind << 9 | size code << 11), abs/neg at 32/33, b at 34, abs/neg at 47/48."""
    word = 0x01 | (0x100 << 8) | ((2 | 1 << 11) << 19) | ((4 | 1 << 11) << 34)
    assert isa.encode(isa.assemble_line("fadd r0, r1, r2")) == word.to_bytes(8, "little")
    word |= (1 << 18) | (1 << 33)
    assert isa.encode(isa.assemble_line("fadd.sat r0, r1.neg, r2")) == word.to_bytes(8, "little")
