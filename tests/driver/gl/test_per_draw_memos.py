"""The per-draw shortcuts of the GL front end give what the full paths give:
glUniform{1,2,3,4}{f,i} packed directly once a location was accepted (values out of
float32/int32 range, or of another type, still converted as the full path converts
them), pack_values' struct path for flat float sequences (numpy's C cast is the
reference), the compatibility state block kept by the bits of its inputs, and the
upload manager's kept constants."""

from __future__ import annotations

import math
import struct

import numpy as np

import driver
from driver.gl import enums as E
from driver.gl.legacy import stateblock as SB
from driver.gl.pointers import pack_values

VS = """#version 300 es
uniform vec4 v;
uniform ivec2 n;
void main() { gl_Position = v + vec4(n, 0, 0); }
"""
FS = """#version 300 es
precision mediump float;
out vec4 o;
void main() { o = vec4(1.0); }
"""


def _program(ctx):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _f32(x: float) -> float:
    """float32 of a double as a C cast rounds it (numpy: the full path's conversion)."""
    with np.errstate(over="ignore"):
        return float(np.float64(x).astype(np.float32))


def test_repeated_uniform_calls_store_what_the_full_path_stores():
    ctx = driver.Context(api="gles3", width=4, height=4)
    p = _program(ctx)
    v, n = ctx.glGetUniformLocation(p, "v"), ctx.glGetUniformLocation(p, "n")
    ctx.glUniform4f(v, 0.0, 0.0, 0.0, 0.0)                # the first call: the full path
    ctx.glUniform2i(n, 0, 0)
    for values in ((0.1, -0.0, 1e-46, 3.0), (1e300, -1e39, 2.5, 7), (np.float64(0.3), True, 2, -5.5)):
        ctx.glUniform4f(v, *values)
        got = ctx.glGetUniformfv(p, v)
        want = [_f32(x) for x in values]
        assert [struct.pack("<f", g) for g in got] == [struct.pack("<f", w) for w in want], (values, got)
    ctx.glUniform4f(v, float("nan"), 1.0, 2.0, 3.0)
    assert math.isnan(ctx.glGetUniformfv(p, v)[0])
    for values, want in (((5, -7), [5, -7]), ((2**31, -2**31 - 1), [-2**31, 2**31 - 1]), ((3.0, 1), None)):
        ctx.glGetError()
        ctx.glUniform2i(n, *values)
        if want is None:              # a float where an int is asked: converted by int() as before
            want = [3, 1]
        assert ctx.glGetUniformiv(p, n) == want, values
    assert ctx.glGetError() == E.GL_NO_ERROR
    # a location the fast path knows still refuses the wrong command (full path: INVALID_OPERATION)
    ctx.glUniform2f(n, 1.0, 2.0)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glUniform4i(v, 1, 2, 3, 4)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert ctx.glGetUniformfv(p, v)[1:] == [1.0, 2.0, 3.0]
    ctx.destroy()


def test_pack_values_struct_path_is_numpys_cast():
    cases = ([1.0, 2.5, -0.0, 1e300], (float("nan"), 1e-46, 3.4e38, -1e39), [1, True, np.float64(0.1)],
             (1e-40, 2.0 ** 24 + 1, 0.1), [], (2 ** 70, -2 ** 80, 3.5e38), [[1.0, 2.0], [3.0, 4.0]], ("0.5",))
    for values in cases:
        with np.errstate(over="ignore"):
            want = np.asarray(np.asarray(values).ravel().tolist(), np.float64).astype(np.float32).tobytes()
        assert pack_values(values, "f") == want, values


def test_the_kept_state_block_is_the_block_of_the_current_state():
    ctx = driver.Context(api="compat", width=4, height=4)
    g = ctx.gl

    def fresh():
        stacks = g.legacy.stacks
        key = b"".join(np.asarray(m, np.float64).tobytes()
                       for m in (stacks[0][-1], stacks[1][-1], *(s[-1] for s in stacks[2][:SB.MAX_UNITS])))
        return SB._block(g, key)
    first = SB.state_block_bytes(g)
    assert first == fresh()
    g.legacy.lights[0].position = (1.0, 2.0, 3.0, 0.0)
    second = SB.state_block_bytes(g)
    assert second != first and second == fresh()
    g.legacy.fog.start = -0.0              # -0.0 and 0.0 are two blocks (1 / (end - start) is the same,
    assert SB.state_block_bytes(g) == fresh()      # but the start itself is stored)
    ctx.glLightfv(E.GL_LIGHT0, E.GL_POSITION, [1.0, 2.0, 3.0, 0.0])   # eye space: the modelview applies
    g.legacy.fog.start = 0.0
    assert SB.state_block_bytes(g) == fresh()
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glTranslatef(1.0, 0.0, 0.0)
    assert SB.state_block_bytes(g) == fresh() != first
    ctx.destroy()


def test_kept_uploads_share_identical_constants_in_the_current_buffer():
    ctx = driver.Context(api="gles3", width=4, height=4)
    up = ctx.gl.uploader
    a = up.upload_kept(pack_values((0.0, 0.0, 0.0, 1.0), "f"))
    b = up.upload_kept(pack_values((0.0, 0.0, 0.0, 1.0), "f"))
    c = up.upload_kept(pack_values((1.0, 0.0, 0.0, 1.0), "f"))
    assert a == b and c != a
    res, off = a
    up.upload(bytes(up.default_size_B))          # fills the buffer: the next one starts afresh
    d = up.upload_kept(pack_values((0.0, 0.0, 0.0, 1.0), "f"))
    assert d[0] is not res and d[1] == 0
    ctx.destroy()


def test_the_window_framebuffer_state_follows_a_new_window_and_its_draw_buffers():
    from driver.gl.context import DefaultFramebuffer
    ctx = driver.Context(api="gles3", width=4, height=4)
    ctx.glUniform4f(ctx.glGetUniformLocation(_program(ctx), "v"), 0.0, 0.0, 0.0, 1.0)
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    first = ctx.gl.pipe.fb
    assert (first.width_px, first.height_px) == (4, 4) and first.cbufs[0] is not None
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    assert ctx.gl.pipe.fb is first                     # nothing changed: the state kept
    old = ctx.gl.window
    ctx.gl.window = DefaultFramebuffer(ctx.gl.screen, 8, 6)    # as an EGL surface change does
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    fb = ctx.gl.pipe.fb
    assert (fb.width_px, fb.height_px) == (8, 6) and fb.cbufs[0].resource is ctx.gl.window.color
    ctx.glDrawBuffers(1, [E.GL_NONE])
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    assert ctx.gl.pipe.fb.cbufs == (None,)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glFinish()
    for r in old.resources():
        ctx.gl.screen.resource_destroy(r)
    ctx.destroy()
