"""The ISA's C forms (uapi.isa.native): every table entry names one that exists, and
the C compiles on its own with the flags the native tier uses (warnings as errors)."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from drmshim.gpu.native.codegen import GENERATOR_FORMS
from uapi.isa import OPS
from uapi.isa.native import C_PRELUDE, c_functions


def test_every_native_name_exists():
    known = c_functions() | GENERATOR_FORMS
    missing = [(op.name, op.native) for op in OPS if op.native is not None and op.native not in known]
    assert not missing
    # the control-flow ops and the float/integer ALU all have C forms; the transcendentals do not
    assert all(op.native for op in OPS if op.unit == "cf")
    assert {op.name for op in OPS if op.unit == "falu" and op.native is None} == {"log2", "exp2", "sin", "cos"}


@pytest.mark.skipif(shutil.which("cc") is None, reason="no C compiler (cc)")
def test_the_c_forms_compile(tmp_path):
    src = tmp_path / "semantics.c"
    src.write_text(C_PRELUDE + "\nint main(void) { return 0; }\n")
    proc = subprocess.run(["cc", "-std=gnu11", "-O1", "-march=native", "-ffp-contract=off", "-Wall", "-Werror",
                           "-Wno-unused-function", "-fsyntax-only", str(src)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
