"""EXT_shader_framebuffer_fetch and EXT_shader_framebuffer_fetch_non_coherent: `inout`
fragment outputs (GLSL ES 3.00, GLSL 1.30+) and gl_LastFragData (GLSL ES 1.00) start
with the colour the render target holds; draws in a row accumulate; integer targets,
several targets, multisampled targets (one read per sample: shading per sample), the
barrier and the query; the shading language's refusals. Expected values are computed
by hand from what the shaders add."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from compiler.glsl import GLSLCompileError, parse

from .helpers import expect
from .test_extension_override import override  # noqa: F401  (the fixture)

W = H = 8
QUAD = [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0, 1.0, 1.0]

VS3 = """#version 300 es
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""


def _shader(ctx, kind, src):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    ctx.glCompileShader(s)
    assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
    return s


def _program(ctx, vs, fs):
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, vs))
    ctx.glAttachShader(p, _shader(ctx, E.GL_FRAGMENT_SHADER, fs))
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    return p


def _vertices(ctx, data, vao=True):
    if vao:
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    raw = np.array(data, np.float32).tobytes()
    ctx.glBufferData(E.GL_ARRAY_BUFFER, len(raw), raw, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)


def _extensions(ctx) -> set:
    if ctx.api.es and ctx.api.version < (3, 0):
        return set(ctx.glGetString(E.GL_EXTENSIONS).split())
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def _fbo(ctx, internal, samples=0):
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    if samples:
        ctx.glRenderbufferStorageMultisample(E.GL_RENDERBUFFER, samples, internal, W, H)
    else:
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, internal, W, H)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, W, H)
    return fbo


def _read_rgba8(ctx):
    raw = bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
    return np.frombuffer(raw, np.uint8).reshape(H, W, 4)


@pytest.mark.parametrize("ext", ["GL_EXT_shader_framebuffer_fetch", "GL_EXT_shader_framebuffer_fetch_non_coherent"])
def test_inout_output_accumulates(ext):
    """Clear to (0, 0, 1, 0); each of three draws adds (0.25, 0.125, 0, 0.25) to what the
    target holds, rounded to UNORM8 after each draw (computed below with numpy):
    about (0.75, 0.375, 1, 0.75). Without the read each draw would give one step."""
    layout = "layout(noncoherent) " if ext.endswith("non_coherent") else ""
    fs = f"""#version 300 es
#extension {ext} : require
{layout}inout mediump vec4 fcolor;
void main() {{ fcolor += vec4(0.25, 0.125, 0.0, 0.25); }}
"""
    with driver.Context(api="gles3", width=W, height=H) as ctx:
        assert ext in _extensions(ctx)
        _fbo(ctx, E.GL_RGBA8)
        ctx.glClearColor(0.0, 0.0, 1.0, 0.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, VS3, fs)
        _vertices(ctx, QUAD)
        for _ in range(3):
            ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
            if "non_coherent" in ext:
                ctx.glFramebufferFetchBarrierEXT()
        expect(ctx, E.GL_NO_ERROR)
        got = _read_rgba8(ctx)
        want = np.array([0, 0, 255, 0], np.float64)
        for _ in range(3):
            want = np.round(np.clip(want / 255 + (0.25, 0.125, 0.0, 0.25), 0, 1) * 255)
        assert (got == want).all(), (got[0, 0], want)


def test_last_frag_data_gles2():
    """GLSL ES 1.00: gl_LastFragData[0] (redeclared lowp) holds the colour; two draws of
    `last * 0.5 + (0.5, 0, 0, 0.5)` on (0, 1, 0, 1): (0.75, 0.25, 0, 1)."""
    vs = "#version 100\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
    fs = """#version 100
#extension GL_EXT_shader_framebuffer_fetch : require
lowp vec4 gl_LastFragData[gl_MaxDrawBuffers];
void main() { gl_FragColor = gl_LastFragData[0] * 0.5 + vec4(0.5, 0.0, 0.0, 0.5); }
"""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        assert "GL_EXT_shader_framebuffer_fetch" in _extensions(ctx)
        ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, vs, fs)
        _vertices(ctx, QUAD, vao=False)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        got = ctx.read_pixels()
        assert (np.abs(got.astype(int) - (191, 64, 0, 255)) <= 1).all(), got[0, 0]


def test_integer_target_and_several_targets():
    """An RGBA8I target read as ivec4 (cleared with glClearBufferiv) and two RGBA8 targets
    read through an inout array, each adding its own step, two draws."""
    fs = """#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : require
layout(location = 0) inout highp ivec4 icol;
layout(location = 1) inout mediump vec4 fcol[2];
void main() {
    icol += ivec4(3, -5, 7, 1);
    fcol[0] += vec4(0.25, 0.0, 0.0, 0.0);
    fcol[1] += vec4(0.0, 0.0, 0.125, 0.0);
}
"""
    with driver.Context(api="gles3", width=W, height=H) as ctx:
        fbo = ctx.glGenFramebuffers(1)[0]
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        for i, fmt in enumerate((E.GL_RGBA8I, E.GL_RGBA8, E.GL_RGBA8)):
            rb = ctx.glGenRenderbuffers(1)[0]
            ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
            ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, W, H)
            ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + i, E.GL_RENDERBUFFER, rb)
        ctx.glDrawBuffers(3, [E.GL_COLOR_ATTACHMENT0, E.GL_COLOR_ATTACHMENT1, E.GL_COLOR_ATTACHMENT2])
        ctx.glViewport(0, 0, W, H)
        ctx.glClearBufferiv(E.GL_COLOR, 0, [10, 20, -30, 0])
        ctx.glClearBufferfv(E.GL_COLOR, 1, [0.0, 0.5, 0.0, 1.0])
        ctx.glClearBufferfv(E.GL_COLOR, 2, [0.5, 0.0, 0.0, 1.0])
        _program(ctx, VS3, fs)
        _vertices(ctx, QUAD)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT0)
        raw = bytes(ctx.glReadPixels(0, 0, W, H, E.GL_RGBA_INTEGER, E.GL_INT))
        ints = np.frombuffer(raw, np.int32).reshape(H, W, 4)
        assert (ints == (16, 10, -16, 2)).all(), ints[0, 0]
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT1)
        assert (_read_rgba8(ctx) == (128, 128, 0, 255)).all()
        ctx.glReadBuffer(E.GL_COLOR_ATTACHMENT2)
        assert (_read_rgba8(ctx) == (128, 0, 64, 255)).all()


def test_multisampled_reads_are_per_sample():
    """4 samples: a triangle covering the lower-left half writes red 0.6 (edge pixels
    partly covered); then a full quad writes green = step(0.5, red) from each sample's
    own colour. Resolved, every pixel's green is the fraction of its samples the
    triangle covered, red / 0.6; a read of one colour per pixel would give edge pixels
    a green of 0 or 1. The query says discards drop single samples."""
    first = """#version 300 es
out mediump vec4 c;
void main() { c = vec4(0.6, 0.0, 0.0, 1.0); }
"""
    second = """#version 300 es
#extension GL_EXT_shader_framebuffer_fetch : require
inout mediump vec4 c;
void main() { c = vec4(c.r, step(0.5, c.r), 0.0, 1.0); }
"""
    with driver.Context(api="gles3", width=W, height=H) as ctx:
        assert ctx.glGetBooleanv(E.GL_FRAGMENT_SHADER_DISCARDS_SAMPLES_EXT)[0]
        ms = _fbo(ctx, E.GL_RGBA8, samples=4)
        ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, VS3, first)
        _vertices(ctx, [-1.0, -1.0, 1.0, -1.0, -1.0, 1.0])
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        _program(ctx, VS3, second)
        _vertices(ctx, QUAD)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        single = _fbo(ctx, E.GL_RGBA8)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, ms)
        ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, single)
        ctx.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
        ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, single)
        expect(ctx, E.GL_NO_ERROR)
        got = _read_rgba8(ctx).astype(float) / 255
        covered = got[..., 0] / 0.6
        assert ((covered > 0.1) & (covered < 0.9)).any(), "the triangle's edge should cover part of pixels"
        assert np.allclose(got[..., 1], covered, atol=2.5 / 255), (got[..., 1], covered)


def test_desktop_inout():
    """GLSL 1.30 in a desktop context: an inout output doubles the clear colour."""
    vs = "#version 130\nin vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
    fs = """#version 130
#extension GL_EXT_shader_framebuffer_fetch : require
inout vec4 c;
void main() { c = c * 2.0; }
"""
    with driver.Context(api="compat", width=W, height=H) as ctx:
        assert "GL_EXT_shader_framebuffer_fetch" in _extensions(ctx)
        ctx.glClearColor(0.25, 0.125, 0.0, 0.5)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        _program(ctx, vs, fs)
        _vertices(ctx, QUAD)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        expect(ctx, E.GL_NO_ERROR)
        got = ctx.read_pixels()
        assert (np.abs(got.astype(int) - (128, 64, 0, 255)) <= 1).all(), got[0, 0]


def test_barrier_needs_the_non_coherent_extension(override):
    override("-GL_EXT_shader_framebuffer_fetch_non_coherent")
    with driver.Context(api="gles3", width=W, height=H) as ctx:
        ctx.glFramebufferFetchBarrierEXT()
        expect(ctx, E.GL_INVALID_OPERATION)


NC = "GL_EXT_shader_framebuffer_fetch_non_coherent"
COH = "GL_EXT_shader_framebuffer_fetch"


@pytest.mark.parametrize("source,stage,message", [
    # gl_LastFragData is read-only, ES 1.00 has no inout outputs, ES 3.00 no gl_LastFragData
    (f"#version 100\n#extension {COH} : enable\nvoid main() {{ gl_LastFragData[0] = vec4(1.0); }}\n",
     "fragment", "read-only"),
    (f"#version 100\n#extension {COH} : enable\ninout highp vec4 c;\nvoid main() {{ c += vec4(0.5); }}\n",
     "fragment", "GLSL ES 3.00"),
    (f"#version 300 es\n#extension {COH} : enable\nout highp vec4 c;\nvoid main() {{ c = gl_LastFragData[0]; }}\n",
     "fragment", "undeclared"),
    (f"#version 130\n#extension {COH} : enable\nvoid main() {{ gl_FragColor = gl_LastFragData[0]; }}\n",
     "fragment", "inout"),
    # no inout built-ins, no inout outside the fragment stage
    (f"#version 300 es\n#extension {COH} : enable\ninout highp float gl_FragDepth;\n"
     "void main() { gl_FragDepth += 0.5; }\n", "fragment", "gl_FragDepth"),
    (f"#version 300 es\n#extension {COH} : enable\ninout highp vec4 v;\nvoid main() {{}}\n", "vertex",
     "fragment shader outputs"),
    # layout(noncoherent) belongs to the non-coherent extension, which requires it
    (f"#version 300 es\n#extension {COH} : enable\nlayout(noncoherent) inout mediump vec4 c;\nvoid main() {{ c; }}\n",
     "fragment", "noncoherent"),
    (f"#version 300 es\n#extension {NC} : enable\ninout mediump vec4 c;\nvoid main() {{ c; }}\n",
     "fragment", "noncoherent"),
    (f"#version 100\n#extension {NC} : enable\nvoid main() {{ gl_LastFragData[0]; }}\n", "fragment",
     "noncoherent"),
    # without the extension, inout stays a parameter qualifier
    ("#version 300 es\ninout mediump vec4 c;\nvoid main() { c; }\n", "fragment", "function parameters"),
])
def test_glsl_refusals(source, stage, message):
    with pytest.raises(GLSLCompileError, match=message):
        parse(source, stage)


def test_glsl_accepts():
    parse(f"#version 100\n#extension {NC} : enable\nlayout(noncoherent) mediump vec4 gl_LastFragData[gl_MaxDrawBuffers];\n"
          "void main() { gl_FragColor = gl_LastFragData[0]; }\n", "fragment")
    parse(f"#version 300 es\n#extension {NC} : enable\nlayout(noncoherent) inout mediump vec4 c[4];\n"
          "void main() { c[1] += c[2]; }\n", "fragment")
    parse(f"#version 150\n#extension {COH} : enable\ninout vec4 c;\nvoid main() {{ c.x += 1.0; }}\n", "fragment")
    parse(f"#version 120\n#extension {COH} : enable\nvoid main() {{ gl_FragColor = gl_LastFragData[1]; }}\n",
          "fragment")
