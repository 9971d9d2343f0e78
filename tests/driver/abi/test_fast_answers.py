"""glGetError, glFinish and glFlush answered by the library without entering
Python (driver/abi/build.py FAST_ANSWERS, from the current context's answer words,
driver.gl.context ANSWER_WORDS) answer what the front end would: py/fast_answers.py
counts the calls that reach the front end while checking each answer."""

from __future__ import annotations

import sys

import pytest

from driver.abi import paths
from tests.driver.abi.conftest import PY_DIR, run


@pytest.fixture(autouse=True)
def _library_answers(abi_dir):
    """A library built before FAST_ANSWERS (a tree whose library was not rebuilt)
    sends every call to Python: what these tests count does not apply to it."""
    if b"shimgl_set_answers" not in (abi_dir / paths.LIBRARY).read_bytes():
        pytest.skip("the library was built before FAST_ANSWERS: rebuild it (driver/abi/build.py)")


def _lines(env, *args):
    res = run([sys.executable, PY_DIR / "fast_answers.py", *args], env)
    assert res.returncode == 0, res.stdout + res.stderr
    out = res.stdout.splitlines()
    assert out[-1] == "OK"
    return out


def test_errors_and_finishes_through_the_c_answers(shimgl_env):
    out = _lines(shimgl_env)
    expect = [
        "fresh 0x0 0 (0, 0, 0)",                        # no error pending: never in Python
        "set in python 0x501 0x0 (1, 0, 0)",            # recorded in Python: read through Python once
        "failing command 0x500 0x0 (1, 0, 0)",          # glEnable(0xFFFF): INVALID_ENUM
        "negative count 0x501 (1, 0, 0)",               # glGenBuffers(-1): INVALID_VALUE
        "inside begin 0x0 (1, 0, 0)",                   # between Begin and End: the front end records
        "after end 0x502 0x0 (1, 0, 0)",                # ... INVALID_OPERATION, read after End
        "finish after clear (0, 1, 0)",                 # the clear's glFinish waits, the next two need not
        "finish after read (0, 0, 0) [0, 255, 0, 255]",  # a read records no work
        "finish after a second clear (0, 1, 1) [0, 0, 255, 255]",   # new work: both go through
        "finish inside begin 0x502 (1, 1, 0)",          # glFinish between Begin and End is an error
        "OK",
    ]
    assert out == expect


def test_a_no_error_context_reports_none(shimgl_env):
    out = _lines(shimgl_env, "no-error")
    assert out[:6] == ["fresh 0x0 0 (0, 0, 0)", "set in python 0x0 0x0 (0, 0, 0)",
                       "failing command 0x0 0x0 (0, 0, 0)", "negative count 0x0 (0, 0, 0)",
                       "inside begin 0x0 (1, 0, 0)", "after end 0x0 0x0 (0, 0, 0)"]


def test_tracing_calls_every_command_through_python(shimgl_env):
    """SHIMGL_DEBUG=calls traces every call: the library answers none itself."""
    env = dict(shimgl_env, SHIMGL_DEBUG="calls")
    out = _lines(env)
    assert out[0] == "fresh 0x0 0 (2, 0, 0)"
    assert out[6] == "finish after clear (0, 2, 1)"
