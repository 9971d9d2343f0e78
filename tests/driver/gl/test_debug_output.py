"""KHR_debug (GL 4.3 debug output): messages, control, log, groups, labels."""

import pytest

from driver.gl import enums as E
from driver.gl.api import api_for_request
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect


@pytest.fixture
def ctx():
    c = make_ctx("gl43")
    c.glEnable(E.GL_DEBUG_OUTPUT)
    return c


def test_gl_errors_are_messages_and_reach_the_callback(ctx):
    got = []
    ctx.glDebugMessageCallback(lambda *m: got.append(m), "user")
    ctx.glEnable(0x12345678)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    (source, kind, id_, severity, length, msg, user), = got
    assert (source, kind, id_, severity, user) == (E.GL_DEBUG_SOURCE_API, E.GL_DEBUG_TYPE_ERROR,
                                                   E.GL_INVALID_ENUM, E.GL_DEBUG_SEVERITY_HIGH, "user")
    assert length == len(msg) and "0x0500" in msg


def test_output_is_off_unless_enabled_or_a_debug_context():
    plain = make_ctx("gl43")
    assert not plain.glIsEnabled(E.GL_DEBUG_OUTPUT)
    plain.glDebugMessageInsert(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 1,
                               E.GL_DEBUG_SEVERITY_HIGH, -1, "dropped")
    assert plain.glGetIntegerv(E.GL_DEBUG_LOGGED_MESSAGES) == [0]
    debug = make_ctx(api_for_request(False, 4, 3, True, debug=True))
    assert debug.glIsEnabled(E.GL_DEBUG_OUTPUT)


def test_message_control_by_source_type_severity_and_ids(ctx):
    insert = lambda kind, id_, sev: ctx.glDebugMessageInsert(     # noqa: E731
        E.GL_DEBUG_SOURCE_APPLICATION, kind, id_, sev, -1, f"m{id_}")
    insert(E.GL_DEBUG_TYPE_OTHER, 1, E.GL_DEBUG_SEVERITY_LOW)       # LOW: disabled at first
    insert(E.GL_DEBUG_TYPE_OTHER, 2, E.GL_DEBUG_SEVERITY_MEDIUM)
    ctx.glDebugMessageControl(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_OTHER, E.GL_DONT_CARE,
                              1, [3], False)
    insert(E.GL_DEBUG_TYPE_OTHER, 3, E.GL_DEBUG_SEVERITY_HIGH)      # id 3 disabled
    insert(E.GL_DEBUG_TYPE_OTHER, 4, E.GL_DEBUG_SEVERITY_HIGH)
    ctx.glDebugMessageControl(E.GL_DONT_CARE, E.GL_DONT_CARE, E.GL_DEBUG_SEVERITY_LOW, 0, [], True)
    insert(E.GL_DEBUG_TYPE_OTHER, 5, E.GL_DEBUG_SEVERITY_LOW)
    log = ctx.glGetDebugMessageLog(10)
    assert log[2] == [2, 4, 5] and log.count == 3
    assert log[5] == b"m2\0m4\0m5\0"
    ctx.glDebugMessageControl(E.GL_DONT_CARE, E.GL_DEBUG_TYPE_OTHER, E.GL_DONT_CARE, 1, [1], True)
    expect(ctx, E.GL_INVALID_OPERATION)                               # ids need a source


def test_log_is_bounded_and_read_in_order_within_buf_size(ctx):
    limit = ctx.glGetIntegerv(E.GL_MAX_DEBUG_LOGGED_MESSAGES)[0]
    for i in range(limit + 5):
        ctx.glDebugMessageInsert(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_OTHER, i,
                                 E.GL_DEBUG_SEVERITY_HIGH, -1, f"message {i}")
    assert ctx.glGetIntegerv(E.GL_DEBUG_LOGGED_MESSAGES) == [limit]   # the newest were dropped
    assert ctx.glGetIntegerv(E.GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH) == [len("message 0") + 1]
    first = ctx.glGetDebugMessageLog(5, 25)       # "message 0\0message 1\0" = 20 bytes; a third does not fit
    assert first[2] == [0, 1] and first[4] == [10, 10]
    assert ctx.glGetDebugMessageLog(1)[2] == [2]


def test_groups_scope_control_and_send_messages(ctx):
    ctx.glPushDebugGroup(E.GL_DEBUG_SOURCE_APPLICATION, 9, -1, "frame")
    assert ctx.glGetIntegerv(E.GL_DEBUG_GROUP_STACK_DEPTH) == [2]
    ctx.glDebugMessageControl(E.GL_DONT_CARE, E.GL_DONT_CARE, E.GL_DONT_CARE, 0, [], False)
    ctx.glDebugMessageInsert(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 1,
                             E.GL_DEBUG_SEVERITY_HIGH, -1, "muted")
    ctx.glPopDebugGroup()                         # the group's control goes with it
    ctx.glDebugMessageInsert(E.GL_DEBUG_SOURCE_APPLICATION, E.GL_DEBUG_TYPE_MARKER, 2,
                             E.GL_DEBUG_SEVERITY_HIGH, -1, "heard")
    log = ctx.glGetDebugMessageLog(10)       # push and pop messages carry the group's id and text
    assert log[1] == [E.GL_DEBUG_TYPE_PUSH_GROUP, E.GL_DEBUG_TYPE_POP_GROUP, E.GL_DEBUG_TYPE_MARKER]
    assert log[2] == [9, 9, 2]
    assert log[5] == b"frame\0frame\0heard\0"
    ctx.glPopDebugGroup()
    expect(ctx, E.GL_STACK_UNDERFLOW)


def test_labels(ctx):
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, b)
    ctx.glObjectLabel(E.GL_BUFFER, b, -1, "positions")
    assert ctx.glGetObjectLabel(E.GL_BUFFER, b, 64) == "positions"
    assert ctx.glGetObjectLabel(E.GL_BUFFER, b, 4) == "pos"
    ctx.glObjectLabel(E.GL_BUFFER, 999, -1, "x")
    expect(ctx, E.GL_INVALID_VALUE)


def test_a_failing_callback_does_not_break_the_gl_call(ctx, capsys):
    def bad(*_):
        raise RuntimeError("application bug")
    ctx.glDebugMessageCallback(bad, None)
    ctx.glEnable(0x12345678)
    ctx.glEnable(0x12345679)
    assert ctx.glGetError() == E.GL_INVALID_ENUM          # the error is still recorded
    assert capsys.readouterr().err.count("KHR_debug callback failed") == 1


def test_display_lists_take_labels_in_the_compatibility_profile():
    """KHR_debug's DISPLAY_LIST identifier (compatibility profile): a list made by
    glNewList takes a label; an unused name is INVALID_VALUE; core contexts have
    no such identifier (INVALID_ENUM). piglit khr_debug-object-label_gl labels one."""
    import driver
    ctx = driver.Context(api="compat", width=4, height=4)
    n = ctx.glGenLists(1)
    ctx.glNewList(n, E.GL_COMPILE)
    ctx.glEndList()
    ctx.glObjectLabel(E.GL_DISPLAY_LIST, n, -1, "a list")
    assert ctx.glGetObjectLabel(E.GL_DISPLAY_LIST, n, 64) == "a list"
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glObjectLabel(E.GL_DISPLAY_LIST, n + 100, -1, "none")
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    core = driver.Context(api="gl46", width=4, height=4)
    core.glObjectLabel(E.GL_DISPLAY_LIST, 1, -1, "x")
    assert core.glGetError() == E.GL_INVALID_ENUM
