"""glGetError between glBegin and glEnd (GL 2.1 section 2.6.3 and the glGetError
reference page): the call itself is INVALID_OPERATION and returns 0; the error is there
to read after glEnd. An error recorded before glBegin stays the first one."""

import driver
from driver.gl import enums as E


def test_geterror_inside_begin_end_returns_zero_and_records_invalid_operation():
    ctx = driver.Context(api="compat", width=4, height=4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBegin(E.GL_POINTS)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glVertex2f(0.0, 0.0)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_an_earlier_error_stays_the_one_reported():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glEnable(0x1234)                           # INVALID_ENUM, before Begin
    ctx.glBegin(E.GL_TRIANGLES)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glGetError() == E.GL_NO_ERROR
