"""16-bit colour render targets (RGB565, RGBA4, RGB5_A1) and channel orders other
than RGBA (BGRA8): clears, blended draws, colour masks and a reload after a
flush, read back as the packed GL types and checked bit for bit against values
packed here by hand (GL's unorm rule: round(c * (2^bits - 1)))."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

W = H = 4
VS = "#version 300 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"
FS = ("#version 300 es\nprecision highp float;\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n")
QUAD = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)

# internal format -> (read format, packed read type, bits of R, G, B, A from the high
# bits down as the packed GL type orders them)
PACKED = {
    "GL_RGB565": (E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, (5, 6, 5, 0)),
    "GL_RGBA4": (E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4, (4, 4, 4, 4)),
    "GL_RGB5_A1": (E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1, (5, 5, 5, 1)),
}


def _quantize(rgba, bits):
    """Each channel to its unorm integer (round to nearest; the test values avoid ties)."""
    return [int(np.rint(np.clip(v, 0, 1) * ((1 << b) - 1))) if b else 0 for v, b in zip(rgba, bits)]


def _value(q, bits):
    """The unorm integers back to values (a channel without bits reads 0, alpha 1)."""
    return [q[i] / ((1 << b) - 1) if b else (1.0 if i == 3 else 0.0) for i, b in enumerate(bits)]


def _pack(q, bits):
    """The GL packed word: R in the highest bits, then G, B, A."""
    word, shift = 0, sum(bits)
    for v, b in zip(q, bits):
        shift -= b
        word |= v << shift
    return word


def _target(ctx, internal, w=W, h=H):
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, getattr(E, internal), w, h)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def _draw(ctx, prog, colour):
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), *colour)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)


@pytest.mark.parametrize("internal", sorted(PACKED))
def test_packed_target_clear_blend_mask_and_reload(internal):
    """clear -> flush (the next draw reloads the image) -> blended draw with
    SRC_ALPHA/ONE_MINUS_SRC_ALPHA -> a draw with green masked off; every step's
    packed words equal the hand-packed expectation."""
    ctx = glhelp.context(W, H, api="compat")
    fmt, typ, bits = PACKED[internal]
    _target(ctx, internal)
    prog = glhelp.program(ctx, VS, FS)
    glhelp.vertices(ctx, prog, QUAD, {"p": (2, 0)}, 2)

    def words():
        return np.frombuffer(ctx.glReadPixels(0, 0, W, H, fmt, typ), np.uint16)

    clear = (0.2, 0.6, 0.9, 0.3)
    ctx.glClearColor(*clear)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    q = _quantize(clear, bits)
    assert (words() == _pack(q, bits)).all()
    ctx.glFlush()

    src = (0.7, 0.1, 0.35, 0.6)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_SRC_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    _draw(ctx, prog, src)
    dst = _value(q, bits)                        # the blend reads the stored (quantized) colour
    blended = [s * src[3] + d * (1 - src[3]) for s, d in zip(src, dst)]
    q = _quantize(blended, bits)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (words() == _pack(q, bits)).all(), (hex(words()[0]), hex(_pack(q, bits)))

    ctx.glDisable(E.GL_BLEND)
    ctx.glColorMask(True, False, True, True)
    _draw(ctx, prog, (0.0, 1.0, 1.0, 1.0))
    q = [0, q[1], (1 << bits[2]) - 1, (1 << bits[3]) - 1 if bits[3] else 0]
    assert (words() == _pack(q, bits)).all(), (hex(words()[0]), hex(_pack(q, bits)))
    # read as RGBA bytes: the unorm values converted (GL's rounding to 8 bits)
    rgba = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (rgba == np.rint(np.array(_value(q, bits)) * 255)).all()


def test_rgb565_gles_renderbuffer_draws():
    """An OpenGL ES 2.0 program's RGB565 renderbuffer: a triangle over a cleared
    target; inside, the colour (quantized to 5/6/5 bits), outside the clear colour."""
    ctx = glhelp.context(8, 8, api="gles2")
    _target(ctx, "GL_RGB565", 8, 8)
    prog = glhelp.program(ctx, "attribute vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n",
                          "precision mediump float;\nuniform vec4 c;\nvoid main() { gl_FragColor = c; }\n")
    tri = np.array([[-1, -1], [1, -1], [-1, 1]], np.float32)
    (vbo,) = ctx.glGenBuffers(1)                            # ES 2.0: no vertex array objects
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, tri.nbytes, tri, E.GL_STATIC_DRAW)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 8, 0)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), 1.0, 0.5, 0.0, 1.0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(8, 8, 4)
    green = round(round(0.5 * 63) / 63 * 255)               # 0.5 -> 32/63 -> 130
    assert (px[0, 0] == [255, green, 0, 255]).all()         # inside the lower-left triangle
    assert (px[7, 7] == [0, 0, 255, 255]).all()             # outside it
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_bgra8_texture_target_keeps_its_byte_order():
    """A GL_BGRA (EXT_texture_format_BGRA8888) texture as a render target: the image
    holds B, G, R, A bytes (glReadPixels decodes it as B8G8R8A8), so reading back as
    RGBA gives the drawn colour, and a blended second draw (ONE, ONE) adds to the
    right channels (the blend reads the tile in B, G, R, A order)."""
    ctx = glhelp.context(W, H, api="gles3")
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_BGRA, W, H, 0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, None)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    prog = glhelp.program(ctx, VS, FS)
    glhelp.vertices(ctx, prog, QUAD, {"p": (2, 0)}, 2)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    _draw(ctx, prog, (1.0, 0.0, 0.2, 0.4))
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFunc(E.GL_ONE, E.GL_ONE)
    _draw(ctx, prog, (0.0, 0.6, 0.2, 0.2))
    px = np.frombuffer(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    want = [255, round(0.6 * 255), round(0.2 * 255) * 2, round(0.4 * 255) + round(0.2 * 255)]
    assert (np.abs(px.astype(int) - want) <= 1).all(), px[0]


def test_arb_es2_compatibility_binary_formats_and_limits():
    """GL_ARB_ES2_compatibility's other parts: no shader binary formats (glShaderBinary
    of any format is INVALID_ENUM and changes nothing), glReleaseShaderCompiler is
    accepted, the ES 2.0 uniform limits are the desktop ones in vectors
    (MAX_VERTEX_UNIFORM_VECTORS = MAX_VERTEX_UNIFORM_COMPONENTS / 4), and the
    extension is listed."""
    ctx = glhelp.context(2, 2, api="compat")
    assert "GL_ARB_ES2_compatibility" in ctx.extensions
    # (a GL 4.6 context lists SPIR-V's format, driver/gl/features/gl_spirv.py: no other)
    assert ctx.glGetIntegerv(E.GL_SHADER_BINARY_FORMATS) in ([], [E.GL_SHADER_BINARY_FORMAT_SPIR_V])
    s = ctx.glCreateShader(E.GL_VERTEX_SHADER)
    ctx.glShaderBinary(1, [s], 0x1234, b"abcd", 4)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0]
    ctx.glReleaseShaderCompiler()
    assert ctx.glGetError() == E.GL_NO_ERROR
    for vectors, components in ((E.GL_MAX_VERTEX_UNIFORM_VECTORS, E.GL_MAX_VERTEX_UNIFORM_COMPONENTS),
                                (E.GL_MAX_FRAGMENT_UNIFORM_VECTORS, E.GL_MAX_FRAGMENT_UNIFORM_COMPONENTS)):
        assert ctx.glGetIntegerv(vectors)[0] * 4 == ctx.glGetIntegerv(components)[0]
    assert ctx.glGetIntegerv(E.GL_MAX_VARYING_VECTORS)[0] >= 15         # GL 4.6 table 23.62's minimum
