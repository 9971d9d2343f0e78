"""GPU resets reach GL (KHR_robustness, GL 4.6 section 2.3.3): a draw whose
shader never ends is stopped by the kernel's watchdog; a context made with
GL_LOSE_CONTEXT_ON_RESET is then lost (GUILTY once, its share group INNOCENT
once), every later command is GL_CONTEXT_LOST without effect, and contexts
outside the group keep rendering correctly. With GL_NO_RESET_NOTIFICATION
nothing is reported and the context goes on working."""

from __future__ import annotations

import time
import warnings

import numpy as np
import pytest

import drmshim
from driver.agx.face import default_screen
from driver.gl import Context
from driver.gl import enums as E
from driver.gl.features.robustness import set_reset_notification_strategy
from tests.driver.gl.helpers import expect

BUDGET_MS = 250
W = H = 8

VS = """#version 300 es
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
# `stop` is never negative: the loop runs until the watchdog stops it
RUNAWAY_FS = """#version 300 es
precision highp float;
uniform float stop;
out vec4 color;
void main() {
    float acc = 0.0;
    while (stop > -1.0) { acc += stop; }
    color = vec4(acc);
}"""
COLOR_FS = """#version 300 es
precision highp float;
out vec4 color;
void main() { color = vec4(0.25, 0.5, 0.75, 1.0); }"""
FULLSCREEN = np.array([-1, -1, 3, -1, -1, 3], np.float32).tobytes()


@pytest.fixture
def short_watchdog(monkeypatch):
    """The kernel's budget per command half: queues created from now on get it."""
    monkeypatch.setattr(drmshim.default_kernel(), "gpu_timeout_ms", BUDGET_MS)
    made = []

    def make(strategy=None, share=None):
        ctx = Context(default_screen().context_create(), "gles3", W, H,
                      share_group=share.share_group if share is not None else None)
        if strategy is not None:
            set_reset_notification_strategy(ctx, strategy)
        made.append(ctx)
        return ctx

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)     # the driver's "render command TIMEOUT"
        yield make
        for ctx in made:
            ctx.destroy()


def _program(ctx, fs: str) -> int:
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "pos")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(prog)
    return prog


def _draw(ctx, fs: str) -> None:
    ctx.glUseProgram(_program(ctx, fs))
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, len(FULLSCREEN), FULLSCREEN, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)


def _pixels(ctx) -> np.ndarray:
    ctx.glFinish()
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(H, W, 4)


def _runaway(ctx) -> None:
    _draw(ctx, RUNAWAY_FS)
    ctx.glFinish()      # returns once the watchdog has stopped the draw


def test_the_strategy_is_answered(short_watchdog):
    assert short_watchdog().glGetIntegerv(E.GL_RESET_NOTIFICATION_STRATEGY) == [E.GL_NO_RESET_NOTIFICATION]
    lose = short_watchdog(E.GL_LOSE_CONTEXT_ON_RESET)
    assert lose.glGetIntegerv(E.GL_RESET_NOTIFICATION_STRATEGY) == [E.GL_LOSE_CONTEXT_ON_RESET]
    assert lose.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    with pytest.raises(ValueError):
        set_reset_notification_strategy(lose, E.GL_GUILTY_CONTEXT_RESET)


def test_a_runaway_shader_loses_its_context_and_its_share_group_only(short_watchdog):
    guilty = short_watchdog(E.GL_LOSE_CONTEXT_ON_RESET)
    sharer = short_watchdog(E.GL_LOSE_CONTEXT_ON_RESET, share=guilty)
    bystander = short_watchdog(E.GL_LOSE_CONTEXT_ON_RESET)
    fence = guilty.glFenceSync(E.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
    query = guilty.glGenQueries(1)[0]
    _runaway(guilty)

    # once GUILTY, then NO_ERROR; the share group's other member: INNOCENT once
    assert guilty.glGetGraphicsResetStatus() == E.GL_GUILTY_CONTEXT_RESET
    assert guilty.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    assert sharer.glGetGraphicsResetStatus() == E.GL_INNOCENT_CONTEXT_RESET
    assert sharer.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    assert bystander.glGetGraphicsResetStatus() == E.GL_NO_ERROR

    # the lost contexts: every command is CONTEXT_LOST and does nothing
    for lost in (guilty, sharer):
        expect(lost, E.GL_NO_ERROR)       # glGetError works (nothing pending after the status reads)
        assert lost.glGetIntegerv(E.GL_VIEWPORT) is None
        expect(lost, E.GL_CONTEXT_LOST)
        lost.glClearColor(1.0, 1.0, 1.0, 1.0)
        lost.glClear(E.GL_COLOR_BUFFER_BIT)
        lost.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(lost, E.GL_CONTEXT_LOST)
        assert lost.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE) is None
        expect(lost, E.GL_CONTEXT_LOST)
    # the polls the spec names answer "complete" (and CONTEXT_LOST)
    assert guilty.glGetSynciv(fence, E.GL_SYNC_STATUS) == [E.GL_SIGNALED]
    expect(guilty, E.GL_CONTEXT_LOST)
    assert guilty.glGetQueryObjectuiv(query, E.GL_QUERY_RESULT_AVAILABLE) == [E.GL_TRUE]
    expect(guilty, E.GL_CONTEXT_LOST)
    assert guilty.glGetQueryObjectuiv(query, E.GL_QUERY_RESULT) is None
    expect(guilty, E.GL_CONTEXT_LOST)

    # the bystander renders exactly what it draws
    _draw(bystander, COLOR_FS)
    px = _pixels(bystander)
    expect(bystander, E.GL_NO_ERROR)
    assert (px == [64, 128, 191, 255]).all(), px[0, 0]      # round(0.25*255), round(0.5*255), ...
    assert bystander.internal_errors == [] and guilty.internal_errors == []


def test_a_context_without_notification_goes_on_after_the_reset(short_watchdog):
    ctx = short_watchdog()
    _runaway(ctx)
    assert ctx.glGetGraphicsResetStatus() == E.GL_NO_ERROR
    expect(ctx, E.GL_NO_ERROR)
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _draw(ctx, COLOR_FS)          # on a fresh queue: the reset queue refuses work
    assert (_pixels(ctx) == [64, 128, 191, 255]).all()
    expect(ctx, E.GL_NO_ERROR)
    assert ctx.internal_errors == []


def test_the_reset_is_found_by_polling_before_any_wait(short_watchdog):
    """glGetGraphicsResetStatus asks the kernel (the queue's timeouts counter): the app
    need not wait for the stopped work first."""
    ctx = short_watchdog(E.GL_LOSE_CONTEXT_ON_RESET)
    _draw(ctx, RUNAWAY_FS)
    ctx.glFlush()
    status = E.GL_NO_ERROR
    # the watchdog stops the draw after BUDGET_MS of GPU time, which is CPU time: a loaded
    # host takes longer in wall time; the bound is only a safety net
    for _ in range(60_000):
        status = ctx.glGetGraphicsResetStatus()
        if status != E.GL_NO_ERROR:
            break
        time.sleep(0.01)
    assert status == E.GL_GUILTY_CONTEXT_RESET
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    expect(ctx, E.GL_CONTEXT_LOST)


# -- the extension names: entry points with their suffixes, bounded reads ------------------

def test_arb_robustness_names_and_bounded_legacy_reads():
    from tests.driver.gl.conftest import make_ctx

    c = make_ctx("compat")
    assert "GL_ARB_robustness" in c.glGetString(E.GL_EXTENSIONS).split()
    assert c.glGetGraphicsResetStatusARB() == E.GL_NO_ERROR
    # (an I_TO_x map's size must be a power of two since 08b80a4: R_TO_R takes 3 entries)
    c.glPixelMapfv(E.GL_PIXEL_MAP_R_TO_R, 3, [0.0, 0.5, 1.0])
    assert c.glGetnPixelMapfvARB(E.GL_PIXEL_MAP_R_TO_R, 12) == [0.0, 0.5, 1.0]    # 3 floats: 12 bytes
    assert c.glGetnPixelMapfvARB(E.GL_PIXEL_MAP_R_TO_R, 11) is None
    expect(c, E.GL_INVALID_OPERATION)
    assert c.glGetnPixelMapusv(E.GL_PIXEL_MAP_R_TO_R, 6) is not None            # 3 ushorts
    assert c.glGetnPixelMapusv(E.GL_PIXEL_MAP_R_TO_R, 5) is None
    expect(c, E.GL_INVALID_OPERATION)
    c.glMap1f(E.GL_MAP1_VERTEX_3, 0.0, 1.0, 3, 2, [0, 0, 0, 1, 1, 1])
    assert c.glGetnMapdvARB(E.GL_MAP1_VERTEX_3, E.GL_DOMAIN, 16) == [0.0, 1.0]  # 2 doubles
    assert c.glGetnMapfv(E.GL_MAP1_VERTEX_3, E.GL_COEFF, 23) is None             # 6 floats: 24
    expect(c, E.GL_INVALID_OPERATION)
    assert c.glGetnMapiv(E.GL_MAP1_VERTEX_3, E.GL_ORDER, -1) is None
    expect(c, E.GL_INVALID_VALUE)
    assert len(c.glGetnPolygonStippleARB(128)) == 128
    assert c.glGetnPolygonStipple(127) is None
    expect(c, E.GL_INVALID_OPERATION)
    assert c.internal_errors == []


def test_ext_robustness_names_on_gles_and_robust_access_query():
    from driver.gl.api import api_for_request
    from tests.driver.gallium.recording import make_pipe

    for robust in (False, True):
        api = api_for_request(True, 3, 0, False, robust=robust)
        c = Context(make_pipe()[1], api, 4, 4)
        assert {"GL_EXT_robustness", "GL_KHR_robustness"} <= set(c.glGetString(E.GL_EXTENSIONS).split())
        assert c.glGetIntegerv(0x90F3) == [int(robust)]                      # GL_CONTEXT_ROBUST_ACCESS
        assert c.glGetGraphicsResetStatusEXT() == E.GL_NO_ERROR
        assert c.glGetGraphicsResetStatusKHR() == E.GL_NO_ERROR
        assert c.glReadnPixelsEXT(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 3) is None   # needs 4
        expect(c, E.GL_INVALID_OPERATION)
        assert len(c.glReadnPixelsEXT(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 4)) == 4
        expect(c, E.GL_NO_ERROR)
    desktop = Context(make_pipe()[1], "gl43", 4, 4)
    assert "GL_EXT_robustness" not in desktop.extensions and "GL_ARB_robustness" in desktop.extensions
    assert desktop.glGetGraphicsResetStatusEXT() is None        # not an entry point of desktop GL
    expect(desktop, E.GL_INVALID_OPERATION)
