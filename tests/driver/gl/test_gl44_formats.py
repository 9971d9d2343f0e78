"""ARB_texture_mirror_clamp_to_edge and ARB_vertex_type_10f_11f_11f_rev,
each through a real draw against hand-computed values."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp


def _draw_sampled_row(wrap, coords):
    """Sample a 2-texel RGBA8 texture (red, green) with NEAREST filtering at
    the given s coordinates, one pixel per coordinate."""
    n = len(coords)
    ctx = glhelp.context(n, 1, api="gl43")
    glhelp.program(ctx, "#version 430\nvoid main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
                   " gl_Position = vec4(p, 0.0, 1.0); }\n",
                   "#version 430\nuniform sampler2D t; uniform float s[8]; out vec4 o;\n"
                   "void main() { o = texture(t, vec2(s[int(gl_FragCoord.x)], 0.5)); }\n")
    (tex,) = ctx.glCreateTextures(E.GL_TEXTURE_2D, 1)
    ctx.glTextureStorage2D(tex, 1, E.GL_RGBA8, 2, 1)
    ctx.glTextureSubImage2D(tex, 0, 0, 0, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                            bytes([255, 0, 0, 255, 0, 255, 0, 255]))
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glTextureParameteri(tex, E.GL_TEXTURE_WRAP_S, wrap)
    ctx.glBindTextureUnit(0, tex)
    prog = ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0]
    ctx.glUniform1fv(ctx.glGetUniformLocation(prog, "s"), n, np.array(coords, np.float32))
    (vao,) = ctx.glCreateVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    rgba = np.frombuffer(ctx.glReadPixels(0, 0, n, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(n, 4)
    return ["r" if tuple(p) == (255, 0, 0, 255) else "g" if tuple(p) == (0, 255, 0, 255) else tuple(p)
            for p in rgba]


def test_mirror_clamp_to_edge_mirrors_once_then_clamps():
    """GL 4.6 section 8.14.2: mirror_clamp_to_edge(s) = clamp(|s|, ...):
    -0.75 -> 0.75 (texel 1), -0.25 -> 0.25 (texel 0), 1.75 and -3.5 clamp to
    the last texel. REPEAT takes the fraction: -0.75 -> 0.25 (texel 0),
    -0.25 -> 0.75, 1.75 -> 0.75 (texel 1), -3.5 -> 0.5 (texel 1)."""
    coords = [-0.75, -0.25, 1.75, -3.5, 0.25]
    assert _draw_sampled_row(E.GL_MIRROR_CLAMP_TO_EDGE, coords) == ["g", "r", "g", "g", "r"]
    assert _draw_sampled_row(E.GL_REPEAT, coords) == ["r", "g", "g", "g", "r"]


def _pack_11_11_10(r, g, b):
    """Unsigned small floats by hand: 11 bits = 5 exponent (bias 15) + 6
    mantissa, 10 bits = 5 + 5; exact for the values used."""
    def small(v, mant_bits):
        if v == 0:
            return 0
        e = int(np.floor(np.log2(v)))
        m = int(round((v / 2.0 ** e - 1.0) * (1 << mant_bits)))
        return ((e + 15) << mant_bits) | m
    return small(r, 6) | (small(g, 6) << 11) | (small(b, 5) << 22)


def test_vertex_attribute_of_packed_small_floats():
    ctx = glhelp.context(2, 2, api="gl43")
    glhelp.program(ctx, "#version 430\nlayout(location = 0) in vec3 c; out vec3 v;\n"
                   "void main() { vec2 p = vec2(gl_VertexID & 1, gl_VertexID >> 1) * 2.0 - 1.0;"
                   " gl_Position = vec4(p, 0.0, 1.0); v = c; }\n",
                   "#version 430\nin vec3 v; out vec4 o;\nvoid main() { o = vec4(v, 1.0); }\n")
    word = _pack_11_11_10(1.0, 0.5, 0.25)
    (buf,) = ctx.glCreateBuffers(1)
    ctx.glNamedBufferStorage(buf, 16, np.full(4, word, np.uint32), 0)
    (vao,) = ctx.glCreateVertexArrays(1)
    ctx.glVertexArrayVertexBuffer(vao, 0, buf, 0, 4)
    ctx.glVertexArrayAttribFormat(vao, 0, 3, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, 0)
    ctx.glEnableVertexArrayAttrib(vao, 0)
    ctx.glBindVertexArray(vao)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = np.frombuffer(ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_FLOAT), np.float32).reshape(4, 4)
    assert np.allclose(img, [1.0, 0.5, 0.25, 1.0], atol=1 / 255)
    ctx.glVertexArrayAttribFormat(vao, 0, 4, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, 0)   # size must be 3
    assert ctx.glGetError() == E.GL_INVALID_OPERATION


def test_10f_11f_11f_rev_current_attribute_and_format_errors():
    """glVertexAttribP1ui..P3ui[v] take UNSIGNED_INT_10F_11F_11F_REV (P4 does not:
    INVALID_ENUM); glVertexAttribFormat takes the size BGRA as glVertexAttribPointer
    does, and refuses it with 10F_11F_11F_REV (INVALID_OPERATION, not INVALID_VALUE):
    piglit arb_vertex_type_10f_11f_11f_rev-api-errors."""
    ctx = glhelp.context(2, 2, api="compat")
    # R = 1.0 (11-bit: exponent 15), G = 2.0 (exponent 16), B = 0.5 (10-bit: exponent 14)
    word = (15 << 6) | (16 << 6) << 11 | (14 << 5) << 22
    ctx.glVertexAttribP3ui(1, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, word)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetVertexAttribfv(1, E.GL_CURRENT_VERTEX_ATTRIB) == [1.0, 2.0, 0.5, 1.0]
    ctx.glVertexAttribP2uiv(2, E.GL_UNSIGNED_INT_10F_11F_11F_REV, True, [word])
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetVertexAttribfv(2, E.GL_CURRENT_VERTEX_ATTRIB) == [1.0, 2.0, 0.0, 1.0]
    ctx.glVertexAttribP4ui(1, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, word)
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    (vao,) = ctx.glGenVertexArrays(1)
    ctx.glBindVertexArray(vao)
    ctx.glVertexAttribFormat(0, E.GL_BGRA, E.GL_UNSIGNED_INT_10F_11F_11F_REV, False, 0)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glVertexAttribFormat(0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, False, 0)       # BGRA must be normalized
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    ctx.glVertexAttribFormat(0, E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert ctx.glGetVertexAttribiv(0, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [E.GL_BGRA]
