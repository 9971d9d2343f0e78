"""GL_KHR_context_flush_control: GL_CONTEXT_RELEASE_BEHAVIOR reads FLUSH in a
context no window system asked otherwise (GL 4.5 made the query core; EGL's
EGL_CONTEXT_RELEASE_BEHAVIOR_KHR NONE reads 0: tests/driver/abi/test_egl_sync_config.py)."""

from __future__ import annotations

import pytest

import driver
from driver.gl import enums as E


@pytest.mark.parametrize("api", ["gles2", "gles3", "gl33", "gl46", "compat"])
def test_release_behaviour_is_flush(api):
    ctx = driver.Context(api=api, width=1, height=1)
    names = set((ctx.glGetString(E.GL_EXTENSIONS) or "").split()) | {
        ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range((ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS) or [0])[0])}
    while ctx.glGetError():              # the form the context lacks set INVALID_ENUM
        pass
    assert "GL_KHR_context_flush_control" in names
    assert ctx.glGetIntegerv(E.GL_CONTEXT_RELEASE_BEHAVIOR) == [E.GL_CONTEXT_RELEASE_BEHAVIOR_FLUSH]
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_not_in_es1():
    ctx = driver.Context(api="gles1", width=1, height=1)
    assert "GL_KHR_context_flush_control" not in ctx.glGetString(E.GL_EXTENSIONS).split()
    ctx.glGetIntegerv(E.GL_CONTEXT_RELEASE_BEHAVIOR)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
