"""Uniform and storage blocks declared without std140/std430 (`shared`, `packed`, or no
layout at all) are laid out as std430, the choice Mesa makes on Asahi and llvmpipe
(GLSL 4.60 section 4.4.5 leaves it to the implementation); `layout(std140)`, on the
block or as the default before it, keeps std140. The offsets GL reports and the
bytes the shader reads or writes must be the same: a default storage block was
reported as std430 while the shader wrote it as std140 (array stride 16)."""

from __future__ import annotations

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

CS = """#version 430
layout(local_size_x = 1) in;
%(default)s
%(qual)s uniform U { float u[4]; vec3 v; float w; } y;
%(qual)s buffer B { float u[4]; vec3 v; float w; } x;
void main() {
    for (int i = 0; i < 4; i++) x.u[i] = y.u[i] + 10.0;
    x.v = y.v + vec3(10.0);
    x.w = y.w + 10.0;
}"""

# member -> (offset, array stride) in bytes, by hand (GL 4.6 section 7.6.2.2)
STD430 = {"u[0]": (0, 4), "v": (16, 0), "w": (28, 0)}      # scalars packed; vec3 aligned to 16
STD140 = {"u[0]": (0, 16), "v": (64, 0), "w": (76, 0)}     # array elements rounded up to vec4


def _run(default: str, qual: str):
    ctx = glhelp.context(1, 1, api="gl43")
    p = glhelp.compute_program(ctx, CS % {"default": default, "qual": qual})
    want = STD140 if "std140" in default + qual else STD430
    # the uniform buffer holds 1, 2, 3, ... at the float slots GL reports
    u_index = {m: ctx.glGetProgramResourceIndex(p, E.GL_UNIFORM, f"U.{m}") for m in want}
    props = [E.GL_OFFSET, E.GL_ARRAY_STRIDE]
    got_u = {m: tuple(ctx.glGetProgramResourceiv(p, E.GL_UNIFORM, i, 2, props, 2)) for m, i in u_index.items()}
    b_index = {m: ctx.glGetProgramResourceIndex(p, E.GL_BUFFER_VARIABLE, f"B.{m}") for m in want}
    got_b = {m: tuple(ctx.glGetProgramResourceiv(p, E.GL_BUFFER_VARIABLE, i, 2, props, 2))
             for m, i in b_index.items()}
    ubo = np.zeros(32, np.float32)
    off, stride = got_u["u[0]"]
    for i in range(4):
        ubo[(off + i * stride) // 4] = i + 1
    ubo[got_u["v"][0] // 4:got_u["v"][0] // 4 + 3] = (5, 6, 7)
    ubo[got_u["w"][0] // 4] = 8
    ub, sb = ctx.glGenBuffers(2)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, ub)
    ctx.glBufferData(E.GL_UNIFORM_BUFFER, ubo.nbytes, ubo, E.GL_STATIC_DRAW)
    ctx.glBindBufferBase(E.GL_SHADER_STORAGE_BUFFER, 0, sb)
    ctx.glBufferData(E.GL_SHADER_STORAGE_BUFFER, 128, bytes(128), E.GL_DYNAMIC_COPY)
    ctx.glDispatchCompute(1, 1, 1)
    ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
    ctx.glBindBuffer(E.GL_SHADER_STORAGE_BUFFER, sb)
    out = np.frombuffer(ctx.glGetBufferSubData(E.GL_SHADER_STORAGE_BUFFER, 0, 128), np.float32)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return want, got_u, got_b, out


@pytest.mark.parametrize("default, qual", [
    ("", ""), ("", "layout(shared)"), ("", "layout(packed)"),
    ("", "layout(std140)"), ("layout(std140) uniform;\nlayout(std140) buffer;", ""),
])
def test_reported_layout_is_the_one_the_shader_uses(default, qual):
    want, got_u, got_b, out = _run(default, qual)
    assert got_u == want
    assert got_b == want
    off, stride = want["u[0]"]
    assert [out[(off + i * stride) // 4] for i in range(4)] == [11, 12, 13, 14]
    v = want["v"][0] // 4
    assert list(out[v:v + 3]) == [15, 16, 17]
    assert out[want["w"][0] // 4] == 18


def test_es30_transform_feedback_ints_read_as_a_default_uniform_block():
    """What piglit's gles-3.0-transform-feedback-uniform-buffer-object relies on:
    ints captured tightly by transform feedback read back through a default
    (shared) uniform block as `int tf_pass[N]`, element i at byte 4 i."""
    n = 6
    ctx = glhelp.context(2, 2, api="gles3")
    vs_tf = ("#version 300 es\nin vec2 p;\nflat out int o;\n"
             "void main() { o = gl_VertexID * 3 + 1; gl_Position = vec4(p, 0.0, 1.0); }\n")
    fs = "#version 300 es\nprecision highp float;\nout vec4 c;\nvoid main() { c = vec4(0.0); }\n"
    tf = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs_tf), (E.GL_FRAGMENT_SHADER, fs)):
        ctx.glAttachShader(tf, glhelp.compile_shader(ctx, kind, src))
    ctx.glTransformFeedbackVaryings(tf, 1, ["o"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(tf)
    assert ctx.glGetProgramiv(tf, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(tf)
    ctx.glUseProgram(tf)
    glhelp.vertices(ctx, tf, np.array([[-1, -1], [1, -1], [-1, 1]] * 2, np.float32), {"p": (2, 0)}, 2)
    (buf,) = ctx.glGenBuffers(1)
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, buf)
    ctx.glBufferData(E.GL_TRANSFORM_FEEDBACK_BUFFER, 4 * n, None, E.GL_STREAM_COPY)
    ctx.glBeginTransformFeedback(E.GL_TRIANGLES)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, n)
    ctx.glEndTransformFeedback()
    ctx.glBindBufferBase(E.GL_TRANSFORM_FEEDBACK_BUFFER, 0, 0)
    # the second program turns the pixel white when an element differs from 3 i + 1
    vs = ("#version 300 es\nin vec2 p;\nuniform ubo { int tf[%d]; };\nflat out vec4 col;\n"
          "void main() { col = vec4(0.0, 0.0, 0.0, 1.0);\n"
          "  for (int i = 0; i < tf.length(); ++i) if (tf[i] != i * 3 + 1) col = vec4(1.0);\n"
          "  gl_Position = vec4(p, 0.0, 1.0); }\n" % n)
    fs2 = ("#version 300 es\nprecision highp float;\nflat in vec4 col;\nout vec4 c;\n"
           "void main() { c = col; }\n")
    prog = glhelp.program(ctx, vs, fs2)
    i = ctx.glGetUniformIndices(prog, 1, ["tf[0]"])[0]
    assert ctx.glGetActiveUniformsiv(prog, 1, [i], E.GL_UNIFORM_ARRAY_STRIDE) == [4]
    ctx.glUniformBlockBinding(prog, ctx.glGetUniformBlockIndex(prog, "ubo"), 0)
    ctx.glBindBufferBase(E.GL_UNIFORM_BUFFER, 0, buf)
    glhelp.vertices(ctx, prog, np.array([[-1, -1], [3, -1], [-1, 3]], np.float32), {"p": (2, 0)}, 2)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(2, 2, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (px == (0, 0, 0, 255)).all(), px[..., 0]
