"""The answer words a C caller reads instead of entering Python
(driver.gl.context ANSWER_WORDS; the C ABI's glGetError, glFinish and glFlush):
each is what the front end would answer, after every change that moves it.
tests/driver/abi/test_fast_answers.py checks the library's answers end to end."""

from __future__ import annotations

import driver
from driver.gl import enums as E
from driver.gl.api import api_for_request
from driver.gl.context import ANSWER_WORDS
from driver.gl.errors import GLError
from tests.driver.gl.test_clear_read_memos import _clear, _fbo_with, _pixels, _read_into, _renderbuffer

ERROR, CHECKED, IDLE = ANSWER_WORDS["ERROR"], ANSWER_WORDS["CHECKED"], ANSWER_WORDS["IDLE"]


def test_the_error_word_is_the_pending_error():
    ctx = driver.Context(api="gl46", width=4, height=4)
    assert ctx.answers[ERROR] == E.GL_NO_ERROR
    ctx.glEnable(0xFFFF)
    ctx.record_error(GLError(E.GL_INVALID_VALUE, "a second error keeps the first"))
    assert ctx.answers[ERROR] == E.GL_INVALID_ENUM
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.answers[ERROR] == E.GL_NO_ERROR and ctx.glGetError() == E.GL_NO_ERROR


def test_a_no_error_context_keeps_only_out_of_memory():
    ctx = driver.Context(api=api_for_request(False, 4, 6, core=True, no_error=True), width=4, height=4)
    ctx.glEnable(0xFFFF)
    assert ctx.answers[ERROR] == E.GL_NO_ERROR
    ctx.record_error(GLError(E.GL_OUT_OF_MEMORY, "still reported"))
    assert ctx.answers[ERROR] == E.GL_OUT_OF_MEMORY


def test_the_checked_word_follows_begin_end_and_list_compilation():
    ctx = driver.Context(api="compat", width=4, height=4)
    assert ctx.answers[CHECKED] == 0
    ctx.glBegin(E.GL_TRIANGLES)
    assert ctx.answers[CHECKED] == 1
    ctx.glEnd()
    assert ctx.answers[CHECKED] == 0
    ctx.glNewList(1, E.GL_COMPILE)
    assert ctx.answers[CHECKED] == 1
    ctx.glEndList()
    assert ctx.answers[CHECKED] == 0
    ctx.glEnd()                          # an error: nothing changes
    assert ctx.answers[CHECKED] == 0 and ctx.glGetError() == E.GL_INVALID_OPERATION


def test_the_idle_word_falls_with_every_recorded_or_submitted_work():
    ctx = driver.Context(api="gles3", width=8, height=8)
    a, b = _renderbuffer(ctx, 4, 4), _renderbuffer(ctx, 4, 4)
    fa = _fbo_with(ctx, a)
    fb = _fbo_with(ctx, b)

    def finished():
        ctx.glFinish()
        ctx.note_finished()
        assert ctx.answers[IDLE] == 1

    finished()
    _clear(ctx, (0.0, 0.0, 1.0, 1.0))           # a batch opened
    assert ctx.answers[IDLE] == 0
    finished()
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == [0, 0, 255, 255]).all()
    assert ctx.answers[IDLE] == 1               # a read records nothing
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fa)
    _clear(ctx, (1.0, 0.0, 0.0, 1.0))
    finished()
    # a blit submits its own batch, never an open one
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fa)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, fb)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    assert ctx.answers[IDLE] == 0
    finished()
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, fb)
    assert (_pixels(_read_into(ctx, 0, 0, 4, 4), 4, 4) == [255, 0, 0, 255]).all()
    ctx.forget_idle()
    assert ctx.answers[IDLE] == 0
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_no_idle_word_inside_begin_end_or_for_a_lost_context():
    ctx = driver.Context(api="compat", width=4, height=4)
    ctx.glBegin(E.GL_TRIANGLES)
    ctx.note_finished()
    assert ctx.answers[IDLE] == 0
    ctx.glEnd()
    ctx.note_finished()
    assert ctx.answers[IDLE] == 1
    ctx.gl.context_lost = lambda name, args: None    # (as robustness._lose sets it)
    ctx.forget_idle()
    ctx.note_finished()
    assert ctx.answers[IDLE] == 0
