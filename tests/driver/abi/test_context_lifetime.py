"""Destroying contexts through the C ABI gives their queues back: the kernel's
scheduler and firmware threads behind a context end with eglDestroyContext (once
the context is released, as EGL defers it), glXDestroyContext (deferred the same
way) and OSMesaDestroyContext, so a program that makes contexts in a loop keeps a
bounded number of threads (py/context_lifetime.py)."""

from __future__ import annotations

import sys

import pytest

from tests.driver.abi.conftest import PY_DIR, run
from tests.xvfb import xvfb_display


def _figures(env, rounds: int) -> dict[str, list[int]]:
    res = run([sys.executable, PY_DIR / "context_lifetime.py", str(rounds)], env, timeout=3600)
    assert res.returncode == 0 and res.stdout.rstrip().endswith("OK"), res.stdout + res.stderr
    return {ln.split()[0]: [int(v) for v in ln.split()[1:]] for ln in res.stdout.splitlines()[:-1]}


def _check(figures: dict[str, list[int]], rounds: int, apis=("egl", "osmesa")) -> None:
    for api in apis:
        counts = figures[api]
        assert len(counts) == 2 * (rounds // 50), figures
        threads, queues = counts[0::2], counts[1::2]
        # each live context held a queue: 4 kernel threads once it has drawn
        assert max(threads) <= 4 and max(queues) == 0, figures
    before, after_destroy, after_release = figures["deferred"]
    assert (before, after_destroy, after_release) == (1, 1, 0), figures


def test_fifty_contexts_through_egl_and_osmesa_leave_no_queue(shimgl_env):
    _check(_figures(shimgl_env, 50), 50)


@pytest.fixture(scope="module")
def xvfb():
    yield from xvfb_display()


def _with_glx(xvfb, shimgl_env, rounds: int) -> None:
    from driver.abi import paths
    env = dict(shimgl_env, **paths.environment({"DISPLAY": xvfb}), DISPLAY=xvfb)
    figures = _figures(env, rounds)
    _check(figures, rounds, apis=("egl", "osmesa", "glx"))
    assert figures["glx-deferred"] == [1, 1, 0], figures


def test_fifty_glx_contexts_on_a_window_leave_no_queue(xvfb, shimgl_env):
    _with_glx(xvfb, shimgl_env, 50)


@pytest.mark.slow
def test_three_hundred_contexts_through_egl_osmesa_and_glx_leave_no_queue(xvfb, shimgl_env):
    _with_glx(xvfb, shimgl_env, 300)
