"""Property tests: every instruction, with every value of every field, round-trips
through encode -> decode -> disassemble -> assemble."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import uapi.isa as isa
from uapi.isa.codec import present_fields
from uapi.isa.fields import Flag


_STRATEGIES: dict = {}


def field_values(kind) -> st.SearchStrategy:
    """Any valid value of a field kind (strategies cached per kind)."""
    strategy = _STRATEGIES.get(id(kind))
    if strategy is None:
        codes = kind.codes()
        if isinstance(codes, range):
            strategy = st.integers(codes.start, codes.stop - 1).map(kind.unpack)
        else:
            strategy = st.integers(0, len(codes) - 1).map(lambda i: kind.unpack(codes[i]))
        _STRATEGIES[id(kind)] = strategy
    return strategy


@st.composite
def instructions(draw, op):
    values = {}
    for f in op.fields:
        if f.role == "suffix":
            values[f.name] = draw(field_values(f.kind))
    for f in present_fields(op, values):
        if f.role != "suffix":
            values[f.name] = draw(field_values(f.kind))
    return isa.Instruction(op, values)


def roundtrip(ins):
    code = isa.encode(ins)
    assert len(code) == ins.op.length_B
    back = isa.decode_one(code)
    assert back == ins
    text = str(back)
    again = isa.assemble_line(text)
    assert again == ins, text
    assert isa.encode(again) == code


@pytest.mark.parametrize("op", isa.OPS, ids=[o.name for o in isa.OPS])
@settings(max_examples=10, deadline=None)
@given(data=st.data())
def test_random_instructions_roundtrip(op, data):
    roundtrip(data.draw(instructions(op)))


def _baseline(op):
    """A valid instruction of ``op`` with every field at its first valid value (flags set,
    so that fields conditional on them are present)."""
    values = {}
    for f in op.fields:
        if f.role == "suffix":
            values[f.name] = True if isinstance(f.kind, Flag) else f.kind.unpack(f.kind.codes()[0])
    for f in present_fields(op, values):
        if f.role != "suffix":
            values[f.name] = f.kind.unpack(f.kind.codes()[0])
    return values


def _sweep(op, limit: int | None) -> int:
    """Each field in turn takes each of its valid values (``limit``: at most that many,
    spread evenly, both ends included) with the other fields at baseline values."""
    base = _baseline(op)
    roundtrip(isa.Instruction(op, base))
    done = 1
    for f in op.fields:
        codes = f.kind.codes()
        if limit is not None and len(codes) > limit:
            codes = sorted({codes[i * (len(codes) - 1) // (limit - 1)] for i in range(limit)})
        for code in codes:
            values = dict(base, **{f.name: f.kind.unpack(code)})
            present = present_fields(op, values)
            ins = isa.Instruction(op, {g.name: values.get(g.name, g.kind.unpack(g.kind.codes()[0])) for g in present})
            roundtrip(ins)
            done += 1
    return done


@pytest.mark.parametrize("op", isa.OPS, ids=[o.name for o in isa.OPS])
def test_sweep_field_values(op):
    assert _sweep(op, limit=48) > 0


@pytest.mark.slow
def test_sweep_every_value_of_every_field_exhaustively():
    """Every valid value of every field except 32-bit immediates (257 spread values)."""
    for op in isa.OPS:
        _sweep(op, limit=None if all(len(f.kind.codes()) <= 1 << 16 for f in op.fields) else 257)


def test_decode_rejects_garbage():
    with pytest.raises(isa.DecodeError, match="unknown opcode"):
        isa.decode_one(b"\x00\x00")
    with pytest.raises(isa.DecodeError, match="truncated"):
        isa.decode_one(isa.encode(isa.assemble_line("fadd r0, r1, r2"))[:4])
    stray = bytearray(isa.encode(isa.assemble_line("stop")))
    stray[1] = 0x80
    with pytest.raises(isa.DecodeError, match="outside fields"):
        isa.decode_one(bytes(stray))
    absent = bytearray(isa.encode(isa.assemble_line("zs_emit.z r2")))  # the s field is absent for .z
    absent[3] |= 0x40
    with pytest.raises(isa.DecodeError, match="outside fields"):
        isa.decode_one(bytes(absent))
    bad_reg = (0x3B | (0x301 << 8)).to_bytes(4, "little")  # mov with size code 3
    with pytest.raises(isa.DecodeError, match="invalid"):
        isa.decode_one(bad_reg)


@pytest.mark.parametrize("text, message", [
    ("fadd r0, r1", "expected 3 operands"),
    ("fadd r0, r1, 1.3", "not representable"),
    ("iadd r0, r1, 256", "does not fit 8 bits"),
    ("frobnicate r0", "unknown instruction"),
    ("fadd r1l_r1h, r0, r0", "16/32/64-bit register"),
    ("fadd r1h, r0, r0", None),
    ("icmpsel r0, r1, r2, r3, r4", "missing .cond"),
    ("fadd.wat r0, r1, r2", "unexpected suffix"),
    ("device_load.i32 r0, r1, r2, 9, 0", "does not fit 3 unsigned bits"),
    ("mov r1, cf3", "not a register or immediate"),
])
def test_assembler_errors_are_clear(text, message):
    if message is None:
        isa.assemble_line(text)
        return
    with pytest.raises(isa.AsmError, match=message):
        isa.assemble_line(text)


def test_labels_and_comments():
    code = isa.assemble("""
        ; a loop
    top:
        iadd r1, r1, 1   // count
        jmp_exec_any top
        jmp_exec_none end
    end: stop
    """)
    lines = isa.disassemble(code).splitlines()
    assert lines == ["iadd r1, r1, 1", "jmp_exec_any -6", "jmp_exec_none 4", "stop"]


def test_make_builder():
    ins = isa.make("fadd", dst=isa.Reg("r", 0, 32), a=isa.Reg("r", 2, 32), b=isa.Imm(isa.semantics.minifloat_encode(1.5)), a_abs=False,
                   a_neg=True, b_abs=False, b_neg=False)
    assert str(ins) == "fadd r0, r1.neg, 1.5"
    assert str(isa.make("wait")) == "wait 0"
    ins = isa.make("fma", dst=isa.r16(3, high=True), a=isa.r32(1), b=isa.fimm(-0.5), c=isa.u32(7), sat=True, c_abs=True)
    assert str(ins) == "fma.sat r3h, r1, -0.5, u7.abs"
    ins = isa.make("device_load", dst=isa.vec(4, 4), base=isa.u64(0), index=isa.r32(9), fmt="unorm8", shift=2)
    assert str(ins) == "device_load.unorm8 r4_r5_r6_r7, u0_u1, r9, 2, 0"
    assert str(isa.make("iter", dst=isa.vec(5, 2, size=16), cf=3, cf_w=0, interp="persp", loc="center")) == \
        "iter.persp.center r2h_r3l, cf3, cf0"
    with pytest.raises(TypeError, match="unknown fields"):
        isa.make("stop", x=1)
