"""piglit's asmparsertest corpus against compiler.arb's parser with the
driver's limits, when piglit is installed: each file must load or fail as
its own "# FAIL" marker says, with Unix and DOS line endings (asmparsertest's
rule). Files that REQUIRE extensions we do not expose (NV_*_program options)
are skipped, as asmparsertest skips them."""

from __future__ import annotations

import pytest

from compiler.arb import ARBProgramError, parse_program
from driver.gl.arbprogram import ARB_LIMITS
from driver.piglit.tests import find_piglit

SUPPORTED = {"GL_ARB_fragment_program_shadow"}


def _corpus():
    root = find_piglit()
    if root is None:
        return []
    base = root / "tests" / "asmparsertest" / "shaders"
    return sorted(base.glob("ARB*/*.txt"))


FILES = _corpus()


@pytest.mark.skipif(not FILES, reason="piglit's asmparsertest corpus is not installed")
def test_corpus_expectations():
    checked, wrong = 0, []
    for path in FILES:
        text = path.read_bytes().decode("latin-1")
        required = [line.split("# REQUIRE ", 1)[1].split()[0] for line in text.splitlines()
                    if "# REQUIRE " in line]
        if any(r not in SUPPORTED for r in required):
            continue
        target = "vertex" if path.parent.name == "ARBvp1.0" else "fragment"
        expect_fail = "# FAIL" in text
        unix = text.replace("\r\n", "\n")
        for variant in (unix, unix.replace("\n", "\r\n")):
            try:
                parse_program(variant, ARB_LIMITS[target], target=target)
                failed = False
            except ARBProgramError:
                failed = True
            if failed != expect_fail:
                wrong.append(path.parent.name + "/" + path.name)
        checked += 1
    assert checked >= 240
    assert not wrong, wrong
