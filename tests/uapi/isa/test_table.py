"""The table's import-time checks and its consistency."""

import re
from pathlib import Path

import pytest

import uapi.isa as isa
from uapi.isa import table as T
from uapi.isa.fields import Dst, Flag, Src


def test_overlapping_fields_are_rejected():
    op = T.Op("bad", 0xFE, (T.Field("dst", 8, Dst()), T.Field("a", 17, Src())), "ialu")
    with pytest.raises(AssertionError, match="overlaps"):
        T._check(op)
    with pytest.raises(AssertionError, match="bad position"):  # bits 0-7 are the opcode
        T._check(T.Op("bad", 0xFE, (T.Field("x", 7, Flag()),), "ialu"))


def test_ambiguous_suffix_is_rejected():
    op = T.Op("bad", 0xFE, (T.Field("lt", 8, Flag(), "suffix"), T.Field("cond", 9, T.FCMP, "suffix")), "cmpsel")
    with pytest.raises(AssertionError, match="ambiguous"):
        T._check(op)


def test_lengths_and_opcodes():
    assert len({op.opcode for op in isa.OPS}) == len(isa.OPS)
    for op in isa.OPS:
        assert 2 <= op.length_B <= 16 and op.length_B % 2 == 0
        assert max([8] + [f.end for f in op.fields]) <= 8 * op.length_B


def test_compiler_flags_are_consistent():
    for op in isa.OPS:
        if op.is_async:
            assert "slot" in [f.name for f in op.fields], f"{op.name}: async ops name a scoreboard slot"
            assert not op.can_reorder
        if op.schedule_class in ("store", "atomic", "cf") or op.unit in ("st_var", "st_tile", "zs_emit", "discard"):
            assert not op.can_eliminate, op.name
        if op.unit in ("falu", "ialu", "cmpsel", "convert", "mov", "mov_imm"):
            assert op.can_eliminate and op.can_reorder, op.name
        if op.unit in ("falu", "ialu", "quad", "cf"):
            assert op.impl is not None, f"{op.name}: the table names its semantics"


def test_every_instruction_is_executed_by_some_core_test():
    """Every mnemonic appears in the shader-core tests' assembly."""
    text = "\n".join(p.read_text() for p in (Path(__file__).parents[2] / "drmshim" / "usc").glob("test_*.py"))
    text = text.replace("\\n", " ")  # escaped newlines inside one-line assembly strings
    missing = [op.name for op in isa.OPS if not re.search(rf"\b{op.name}\b", text)]
    assert not missing, f"no execution test uses {missing}"


def test_reference_manual_is_current():
    from uapi.isa.reference import REFERENCE_PATH, reference_markdown
    assert REFERENCE_PATH.read_text() == reference_markdown(), \
        "uapi/isa/REFERENCE.md is stale: run `python -m uapi.isa.reference`"
    for op in isa.OPS:
        assert f"### `{op.name}`" in REFERENCE_PATH.read_text()
