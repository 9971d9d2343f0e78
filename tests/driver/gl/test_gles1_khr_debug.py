"""GL_KHR_debug in OpenGL ES 1.1 contexts (listed there by Mesa): the KHR-named
commands only, the message log and its state queries, debug groups and object
labels of the objects ES 1.1 has. GL_CONTEXT_FLAGS stays INVALID_ENUM below GLES
3.2, as piglit's egl_khr_create_context "valid debug flag gles1" expects (and Mesa)."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from driver.gl.api import api_for_request


def _ctx(**flags):
    return driver.Context(api=api_for_request(True, 1, 1, False, **flags), width=1, height=1) if flags \
        else driver.Context(api="gles1", width=1, height=1)


def test_listed_debug_context():
    ctx = _ctx()
    assert "GL_KHR_debug" in ctx.glGetString(E.GL_EXTENSIONS).split()
    assert not ctx.glIsEnabled(E.GL_DEBUG_OUTPUT)
    debug = _ctx(debug=True)
    assert debug.glIsEnabled(E.GL_DEBUG_OUTPUT)      # on in a debug context
    assert ctx.glGetError() == debug.glGetError() == E.GL_NO_ERROR
    ctx.glGetIntegerv(E.GL_CONTEXT_FLAGS)
    assert ctx.glGetError() == E.GL_INVALID_ENUM


def test_messages_groups_and_labels():
    ctx = _ctx()
    ctx.glEnable(E.GL_DEBUG_OUTPUT)
    ctx.glDebugMessageInsertKHR(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 7,
                                E.GL_DEBUG_SEVERITY_NOTIFICATION, -1, "hello")
    ctx.glPushDebugGroupKHR(E.GL_DEBUG_SOURCE_APPLICATION, 3, -1, "group")
    assert ctx.glGetIntegerv(E.GL_DEBUG_GROUP_STACK_DEPTH) == [2]
    ctx.glPopDebugGroupKHR()
    out = ctx.glGetDebugMessageLogKHR(8, 1024)
    sources, types, ids, severities, lengths, log = out
    assert out.count == 3 and list(ids) == [7, 3, 3]
    assert log.split(b"\0")[:3] == [b"hello", b"group", b"group"]
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glObjectLabelKHR(E.GL_TEXTURE, tex, -1, "a texture")
    assert ctx.glGetObjectLabelKHR(E.GL_TEXTURE, tex, 64) == "a texture"
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glObjectLabelKHR(E.GL_TEXTURE, tex + 100, -1, "none")      # no such texture
    assert ctx.glGetError() == E.GL_INVALID_VALUE


def test_unsuffixed_names_are_not_es1_commands():
    ctx = _ctx()
    ctx.glPushDebugGroup(E.GL_DEBUG_SOURCE_APPLICATION, 1, -1, "x")
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetIntegerv(E.GL_DEBUG_GROUP_STACK_DEPTH) == [1]
