"""GL_ARB_transform_feedback_instanced: glDrawTransformFeedbackInstanced and
glDrawTransformFeedbackStreamInstanced draw the vertices a transform feedback object
captured, ``instancecount`` times (gl_InstanceID counts them), and the errors of both.
Also the compatibility built-in varyings (gl_FrontColor, gl_TexCoord[i], ...) that a
vertex stage may capture, which the piglit draw-auto tests capture before drawing."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source, expect

W = H = 16

CAPTURE_VS = """#version 400
in vec4 p;
void main() { gl_Position = p; }"""

DRAW_VS = """#version 400
in vec4 p;
flat out int inst;
void main() { gl_Position = p + vec4(0.5 * float(gl_InstanceID), 0.0, 0.0, 0.0); inst = gl_InstanceID; }"""

DRAW_FS = """#version 400
flat in int inst;
out vec4 o;
void main() { o = vec4(inst == 0 ? 1.0 : 0.0, inst == 1 ? 1.0 : 0.0, inst == 2 ? 1.0 : 0.0, 1.0); }"""

# a column a quarter of the window wide at its left edge, as two triangles
QUAD = np.array([[-1.0, -1.0, 0, 1], [-0.5, -1.0, 0, 1], [-0.5, 1.0, 0, 1],
                 [-1.0, -1.0, 0, 1], [-0.5, 1.0, 0, 1], [-1.0, 1.0, 0, 1]], np.float32)


def _link(ctx, stages, varyings=()):
    prog = ctx.glCreateProgram()
    for kind, src in stages:
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    if varyings:
        ctx.glTransformFeedbackVaryings(prog, len(varyings), list(varyings), E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    return prog


def _capture_quad(ctx):
    """A transform feedback object holding QUAD's six positions (captured with the
    rasterizer off); returns (object, the buffer it wrote)."""
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    src = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, src)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, QUAD.nbytes, QUAD, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glUseProgram(_link(ctx, [(E.GL_VERTEX_SHADER, CAPTURE_VS)], ["gl_Position"]))
    dst = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, dst)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 4 * 4 * 64, None, E.GL_STREAM_COPY)
    tfb = ctx.glGenTransformFeedbacks(1)[0]
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, tfb)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, dst)
    ctx.glEnable(E.GL_RASTERIZER_DISCARD)
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
    ctx.glEndTransformFeedback()
    ctx.glDisable(E.GL_RASTERIZER_DISCARD)
    ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
    # the captured positions are the next draws' vertices
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, dst)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glUseProgram(_link(ctx, [(E.GL_VERTEX_SHADER, DRAW_VS), (E.GL_FRAGMENT_SHADER, DRAW_FS)]))
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tfb, dst


def _columns(ctx):
    """The colour of each quarter of the window (rows agree within a quarter)."""
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    px = px.reshape(H, W, 4)
    quarters = []
    for q in range(4):
        block = px[:, 4 * q:4 * q + 4]
        assert (block == block[0, 0]).all(), block
        quarters.append(tuple(int(c) for c in block[0, 0]))
    return quarters


RED, GREEN, BLUE, CLEAR = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (0, 0, 0, 255)


def _clear(ctx):
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)


def test_listed_where_transform_feedback2_is():
    """The extension needs ARB_transform_feedback2's objects (GL 4.0)."""
    for api, listed in (("gl33", False), ("gl40", True), ("gl46", True), ("compat", True)):
        with driver.Context(api=api, width=4, height=4) as ctx:
            n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
            names = {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
            assert ("GL_ARB_transform_feedback_instanced" in names) == listed, api
            assert ("GL_ARB_transform_feedback2" in names) == listed, api


def test_draw_transform_feedback_instanced_draws_each_instance():
    with driver.Context(api="gl40", width=W, height=H) as ctx:
        tfb, _ = _capture_quad(ctx)
        _clear(ctx)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, tfb, 3)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert _columns(ctx) == [RED, GREEN, BLUE, CLEAR]
        # one instance is glDrawTransformFeedback; none draws nothing
        _clear(ctx)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, tfb, 1)
        assert _columns(ctx) == [RED, CLEAR, CLEAR, CLEAR]
        _clear(ctx)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, tfb, 0)
        assert _columns(ctx) == [CLEAR] * 4
        assert ctx.glGetError() == E.GL_NO_ERROR


def test_draw_transform_feedback_stream_instanced():
    """Stream 0 holds the capture; stream 1 captured nothing, so draws nothing."""
    with driver.Context(api="gl40", width=W, height=H) as ctx:
        tfb, _ = _capture_quad(ctx)
        _clear(ctx)
        ctx.glDrawTransformFeedbackStreamInstanced(E.GL_TRIANGLES, tfb, 0, 2)
        assert _columns(ctx) == [RED, GREEN, CLEAR, CLEAR]
        _clear(ctx)
        ctx.glDrawTransformFeedbackStreamInstanced(E.GL_TRIANGLES, tfb, 1, 3)
        assert ctx.glGetError() == E.GL_NO_ERROR
        assert _columns(ctx) == [CLEAR] * 4


def test_errors():
    with driver.Context(api="gl40", width=W, height=H) as ctx:
        tfb, _ = _capture_quad(ctx)
        max_streams = ctx.glGetIntegerv(E.GL_MAX_VERTEX_STREAMS)[0]
        _clear(ctx)
        # (GL 4.6 section 10.5.1 / ARB_transform_feedback_instanced)
        ctx.glDrawTransformFeedbackStreamInstanced(E.GL_TRIANGLES, tfb, max_streams, 1)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, tfb + 100, 1)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, tfb, -1)
        expect(ctx, E.GL_INVALID_VALUE)
        ctx.glDrawTransformFeedbackInstanced(0x7FFF, tfb, 1)
        expect(ctx, E.GL_INVALID_ENUM)
        never_used = ctx.glGenTransformFeedbacks(1)[0]
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, never_used)
        ctx.glBindTransformFeedback(E.GL_TRANSFORM_FEEDBACK, 0)
        ctx.glDrawTransformFeedbackInstanced(E.GL_TRIANGLES, never_used, 1)
        expect(ctx, E.GL_INVALID_OPERATION)
        # an error draws nothing
        assert _columns(ctx) == [CLEAR] * 4


COMPAT_VS = """void main() {
    gl_Position = gl_Vertex;
    gl_FrontColor = vec4(0.25, 0.5, 0.75, 1.0) * gl_Vertex.x;
    gl_FrontSecondaryColor = vec4(0.125) + gl_Vertex.y;
    gl_TexCoord[1] = gl_Vertex.yxwz;
    gl_FogFragCoord = 3.0 * gl_Vertex.y;
}"""


@pytest.mark.parametrize("with_fragment_stage", [False, True])
def test_compatibility_varyings_are_captured(with_fragment_stage):
    """A compatibility vertex shader's gl_FrontColor, gl_FrontSecondaryColor,
    gl_TexCoord[i] and gl_FogFragCoord are vertex outputs transform feedback captures
    (values kept inside [0, 1]: vertex colour clamping is on by default)."""
    verts = np.array([[0.5, 0.25, 0, 1], [0.75, 0.5, 0, 1], [1.0, 0.0, 0, 1]], np.float32)
    names = ["gl_FrontColor", "gl_FrontSecondaryColor", "gl_TexCoord[1]", "gl_FogFragCoord", "gl_Position"]
    stages = [(E.GL_VERTEX_SHADER, COMPAT_VS)]
    if with_fragment_stage:
        stages.append((E.GL_FRAGMENT_SHADER, "void main() { gl_FragColor = gl_Color + gl_TexCoord[1]; }"))
    with driver.Context(api="compat", width=4, height=4) as ctx:
        prog = _link(ctx, stages, names)
        ctx.glUseProgram(prog)
        assert ctx.glGetTransformFeedbackVarying(prog, 2) == ("gl_TexCoord[1]", 1, E.GL_FLOAT_VEC4)
        assert ctx.glGetTransformFeedbackVarying(prog, 3) == ("gl_FogFragCoord", 1, E.GL_FLOAT)
        ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
        ctx.glVertexPointer(4, E.GL_FLOAT, 0, verts)
        words = 4 + 4 + 4 + 1 + 4
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER, buf)
        ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * words * 3, np.full(words * 3, -7, np.float32),
                         E.GL_STREAM_READ)
        ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
        ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        ctx.glEndTransformFeedback()
        assert ctx.glGetError() == E.GL_NO_ERROR
        view = ctx.glMapBufferRange(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 4 * words * 3, E.GL_MAP_READ_BIT)
        got = np.frombuffer(bytes(view), np.float32).reshape(3, words)
        ctx.glUnmapBuffer(E.GL_TRANSFORM_FEEDBACK_BUFFER)
    x, y = verts[:, :1], verts[:, 1:2]
    expected = np.hstack([np.array([0.25, 0.5, 0.75, 1.0], np.float32) * x, 0.125 + np.repeat(y, 4, 1),
                          verts[:, [1, 0, 3, 2]], 3.0 * y, verts])
    np.testing.assert_allclose(got, expected, rtol=1e-6)
