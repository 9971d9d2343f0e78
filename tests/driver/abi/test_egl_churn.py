"""Destroying EGL contexts and surfaces and terminating the display returns every
buffer to the kernel: the mock kernel's arena stays flat while a program creates,
uses and destroys them over and over through libEGL."""

from __future__ import annotations

import sys

import pytest

from tests.driver.abi.conftest import PY_DIR, run


def _arena_kib(env, rounds: int, *mode: str) -> list[int]:
    res = run([sys.executable, PY_DIR / "egl_churn.py", str(rounds), *mode], env, timeout=3600)
    assert res.returncode == 0, res.stdout + res.stderr
    line = next(ln for ln in res.stdout.splitlines() if ln.startswith("used_kib"))
    return [int(v) for v in line.split()[1:]]


def test_contexts_and_surfaces_give_their_memory_back(shimgl_env):
    used = _arena_kib(shimgl_env, 40)
    # each round's 128x128 pbuffer alone is 64 KiB: a leak would climb
    assert len(used) == 4 and max(used[1:]) <= used[0], used


@pytest.mark.slow
def test_two_thousand_contexts_and_surfaces_with_flat_memory(shimgl_env):
    used = _arena_kib(shimgl_env, 2000, "terminate")
    assert len(used) == 200 and max(used[10:]) <= max(used[:10]), used[:20]
