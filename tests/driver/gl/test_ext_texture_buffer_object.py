"""GL_ARB_texture_buffer_object in the compatibility profile: besides GL 3.1's formats
(GL 4.6 table 8.18) a buffer texture takes the extension's alpha, luminance,
luminance-alpha and intensity formats (8/16-bit normalized, 16/32-bit float, 8/16/32-bit
signed and unsigned integer), read by texelFetch as their base format expands them
(GL 4.6 compatibility table 15.1: A -> (0, 0, 0, A), L -> (L, L, L, 1), LA -> (L, L, L, A),
I -> (I, I, I, I)); a core context refuses them (INVALID_ENUM). Values by hand; piglit's
arb_texture_buffer_object-formats (arb) failed every one of these 40 formats."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from driver.gl.formats import EXT_TEXTURE_INTEGER_LEGACY, GL_ALPHA16F_ARB, GL_ALPHA32F_ARB, \
    GL_INTENSITY16F_ARB, GL_INTENSITY32F_ARB, GL_LUMINANCE16F_ARB, GL_LUMINANCE32F_ARB, \
    GL_LUMINANCE_ALPHA16F_ARB, GL_LUMINANCE_ALPHA32F_ARB

from .helpers import expect

_A, _L, _LA, _I = E.GL_ALPHA, E.GL_LUMINANCE, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY
CHANNELS = {_A: 1, _L: 1, _LA: 2, _I: 1}

# (internal format, base, numpy storage type, stored values of 2 texels, their values as read)
_N8, _N16 = [64, 255, 128, 0], [16384, 65535, 65535, 0]
FLOAT_FORMATS = [
    (E.GL_ALPHA8, _A, np.uint8, _N8), (E.GL_ALPHA16, _A, np.uint16, _N16),
    (E.GL_LUMINANCE8, _L, np.uint8, _N8), (E.GL_LUMINANCE16, _L, np.uint16, _N16),
    (E.GL_LUMINANCE8_ALPHA8, _LA, np.uint8, _N8), (E.GL_LUMINANCE16_ALPHA16, _LA, np.uint16, _N16),
    (E.GL_INTENSITY8, _I, np.uint8, _N8), (E.GL_INTENSITY16, _I, np.uint16, _N16),
    (GL_ALPHA16F_ARB, _A, np.float16, [0.25, -2.0, 3.5, 0.0]), (GL_ALPHA32F_ARB, _A, np.float32, [0.25, -2.0, 3.5, 0]),
    (GL_LUMINANCE16F_ARB, _L, np.float16, [0.25, -2.0, 0, 0]), (GL_LUMINANCE32F_ARB, _L, np.float32, [0.25, -2.0, 0, 0]),
    (GL_LUMINANCE_ALPHA16F_ARB, _LA, np.float16, [0.25, -2.0, 3.5, 0.5]),
    (GL_LUMINANCE_ALPHA32F_ARB, _LA, np.float32, [0.25, -2.0, 3.5, 0.5]),
    (GL_INTENSITY16F_ARB, _I, np.float16, [0.25, -2.0, 0, 0]), (GL_INTENSITY32F_ARB, _I, np.float32, [0.25, -2.0, 0, 0]),
]
_INT_TYPES = {("8", "uint"): np.uint8, ("16", "uint"): np.uint16, ("32", "uint"): np.uint32,
              ("8", "int"): np.int8, ("16", "int"): np.int16, ("32", "int"): np.int32}


def _int_formats(kind):
    out = []
    for enum, base, name, k in EXT_TEXTURE_INTEGER_LEGACY:
        if k == kind:
            bits = name.split("_")[0].lstrip("LAI").split("A")[0]
            values = [3, 200, 7, 0] if kind == "uint" else [-3, 100, 7, -1]
            out.append((enum, base, _INT_TYPES[bits, kind], values))
    return out


def _expected(base, texel, one):
    if base == _A:
        return [0, 0, 0, texel[0]]
    if base == _L:
        return [texel[0]] * 3 + [one]
    if base == _LA:
        return [texel[0]] * 3 + [texel[1]]
    return [texel[0]] * 4


def _normalized(dtype, values):
    if np.issubdtype(dtype, np.integer):
        return [v / np.iinfo(dtype).max for v in values]
    return [float(dtype(v)) for v in values]


VS = "#version 140\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }"
FS = """#version 140
uniform {p}samplerBuffer s;
out {p}vec4 o;
void main() {{ o = texelFetch(s, int(gl_FragCoord.x)); }}"""


def _setup(ctx, prefix, target_format):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS.format(p=prefix))):
        sh = ctx.glCreateShader(kind)
        ctx.glShaderSource(sh, 1, [src])
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(sh)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    ctx.glUseProgram(prog)
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, target_format, 2, 1)
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, 2, 1)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    vb = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vb)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    tbo = ctx.glGenBuffers(1)[0]
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
    return tbo


@pytest.mark.parametrize("prefix, target, read_type, dtype_out, formats", [
    ("", E.GL_RGBA32F, E.GL_FLOAT, np.float32, FLOAT_FORMATS),
    ("i", E.GL_RGBA32I, E.GL_INT, np.int32, _int_formats("int")),
    ("u", E.GL_RGBA32UI, E.GL_UNSIGNED_INT, np.uint32, _int_formats("uint")),
])
def test_legacy_formats_read_as_their_base(prefix, target, read_type, dtype_out, formats):
    assert len(formats) in (16, 12)
    with driver.Context(api="compat", width=4, height=4) as ctx:
        assert "GL_ARB_texture_buffer_object" in ctx.glGetString(E.GL_EXTENSIONS).split()
        tbo = _setup(ctx, prefix, target)
        for enum, base, dtype, values in formats:
            n = CHANNELS[base]
            stored = np.array(values[:2 * n], dtype)
            ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, tbo)
            ctx.glBufferData(E.GL_TEXTURE_BUFFER, stored.nbytes, stored.tobytes(), E.GL_STATIC_DRAW)
            ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, enum, tbo)
            expect(ctx, E.GL_NO_ERROR)
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            got = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 2, 1, E.GL_RGBA_INTEGER if prefix else E.GL_RGBA,
                                                       read_type)), dtype_out).reshape(2, 4)
            read = _normalized(dtype, stored) if not prefix else [int(v) for v in stored]
            for t in range(2):
                want = _expected(base, read[t * n:(t + 1) * n], 1)
                np.testing.assert_allclose(got[t], want, atol=1e-6, err_msg=f"format {enum:#x} texel {t}")


def test_a_core_context_refuses_them():
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        tex, tbo = ctx.glGenTextures(1)[0], ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, tbo)
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
        for enum in (E.GL_ALPHA8, E.GL_LUMINANCE16, GL_INTENSITY32F_ARB, EXT_TEXTURE_INTEGER_LEGACY[0][0]):
            ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, enum, tbo)
            expect(ctx, E.GL_INVALID_ENUM)
        ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_R8, tbo)
        expect(ctx, E.GL_NO_ERROR)
