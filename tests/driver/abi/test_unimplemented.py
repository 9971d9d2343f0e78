"""Commands shimgl does not implement, and commands the current context's API
lacks, record GL_INVALID_OPERATION through the C ABI and never crash
(tests/driver/abi/py/unimplemented.py, in a fresh process)."""

from __future__ import annotations

import sys

from tests.driver.abi.conftest import PY_DIR, clean_env, run


def test_unimplemented_commands_set_invalid_operation(abi_dir):
    res = run([sys.executable, PY_DIR / "unimplemented.py", abi_dir], clean_env())
    assert res.returncode == 0, res.stdout + res.stderr
    assert res.stdout.rstrip().endswith("OK")
    assert "internal error" not in res.stderr
