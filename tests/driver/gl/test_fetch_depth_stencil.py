"""GL_ARM_shader_framebuffer_fetch_depth_stencil (GLES 2.0+): gl_LastFragDepthARM and
gl_LastFragStencilARM hold the depth and stencil buffers' values at the fragment's sample
as the earlier fragments left them (the GPU model's PDM hands a late-tested program the
ISP's values: ``get_sr zs_depth/zs_stencil``). Expected colours by hand: depth d is read
as round(255 d), stencil values as s / 255; within one draw a later triangle over the same
pixels sees what the earlier one wrote."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from compiler.glsl import GLSLCompileError, parse
from driver.gl import enums as E

from .helpers import expect

VS = """#version 300 es
layout(location = 0) in vec3 pos;
void main() { gl_Position = vec4(pos, 1.0); }
"""
FETCH = """#version 300 es
#extension GL_ARM_shader_framebuffer_fetch_depth_stencil : require
precision highp float;
out vec4 colour;
void main() { colour = vec4(gl_LastFragDepthARM, float(gl_LastFragStencilARM) / 255.0, 0.0, 1.0); }
"""
PLAIN = """#version 300 es
precision highp float;
out vec4 colour;
void main() { colour = vec4(0.0, 0.0, 1.0, 1.0); }
"""


def _program(ctx, fs, vs=VS) -> int:
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(p, s)
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    return p


def _quads(ctx, quads):
    """Two triangles per (x0, x1, z) quad spanning the whole height."""
    tris = []
    for x0, x1, z in quads:
        tris += [[x0, -1, z], [x1, -1, z], [x0, 1, z], [x1, -1, z], [x1, 1, z], [x0, 1, z]]
    data = np.array(tris, np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 3, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, len(tris))


def _target(ctx, w, h):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    colour, zs = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, colour)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, w, h)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, colour)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, zs)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8, w, h)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, zs)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ctx.glViewport(0, 0, w, h)


def _read(ctx, w, h) -> np.ndarray:
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                         np.uint8).reshape(h, w, 4).astype(int)


def test_the_fragment_reads_the_depth_and_stencil_earlier_draws_left():
    w, h = 8, 4
    with driver.Context(api="gles3", width=w, height=h) as ctx:
        _target(ctx, w, h)
        ctx.glClearDepthf(1.0)
        ctx.glClearStencil(0)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glDepthFunc(E.GL_LESS)
        ctx.glEnable(E.GL_STENCIL_TEST)
        ctx.glStencilFunc(E.GL_ALWAYS, 7, 0xFF)
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
        ctx.glUseProgram(_program(ctx, PLAIN))
        _quads(ctx, [(-1, 0, -0.5)])                    # left half: depth 0.25, stencil 7
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_KEEP)
        ctx.glUseProgram(_program(ctx, FETCH))
        _quads(ctx, [(-1, 1, -1.0)])                    # everywhere, in front
        expect(ctx, E.GL_NO_ERROR)
        px = _read(ctx, w, h)
        assert (px[:, : w // 2] == [64, 7, 0, 255]).all(), px[0]
        assert (px[:, w // 2:] == [255, 0, 0, 255]).all(), px[0]


def test_a_later_triangle_of_the_same_draw_sees_what_an_earlier_one_wrote():
    w, h = 4, 4
    with driver.Context(api="gles3", width=w, height=h) as ctx:
        _target(ctx, w, h)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glDepthFunc(E.GL_LESS)
        ctx.glUseProgram(_program(ctx, FETCH))
        # depth 0.5 first (reads the clear, 1.0), then 0.25 over it (reads 0.5 and wins)
        _quads(ctx, [(-1, 1, 0.0), (-1, 1, -0.5)])
        assert (_read(ctx, w, h) == [128, 0, 0, 255]).all()


def test_glsl_side_needs_the_extension_and_is_listed_in_every_api():
    parse(FETCH, "fragment")
    with pytest.raises(GLSLCompileError, match="gl_LastFragDepthARM"):
        parse(FETCH.replace("#extension GL_ARM_shader_framebuffer_fetch_depth_stencil : require\n", ""), "fragment")
    with pytest.raises(GLSLCompileError, match="gl_LastFragDepthARM"):
        parse("#version 450\nout vec4 c; void main() { c = vec4(gl_LastFragDepthARM); }\n", "fragment")
    parse("#version 450\n#extension GL_ARM_shader_framebuffer_fetch_depth_stencil : require\n"
          "out vec4 c; void main() { c = vec4(gl_LastFragDepthARM); }\n", "fragment")
    # as Mesa 22.3: GLES 2.0+ and both desktop profiles
    for api in ("gles2", "gles32", "compat", "gl33", "gl46"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            if ctx.api.core:
                names = [ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
            else:
                names = ctx.glGetString(E.GL_EXTENSIONS).split()
            assert "GL_ARM_shader_framebuffer_fetch_depth_stencil" in names, api


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_desktop_shaders_read_depth_and_stencil(api):
    """The same reads as the GLES test, from GLSL 1.30 and 4.60 shaders in desktop contexts."""
    w, h = 8, 4
    version = "#version 130" if api == "compat" else "#version 460 core"
    vs = f"{version}\nin vec3 pos;\nvoid main() {{ gl_Position = vec4(pos, 1.0); }}\n"
    fetch = (f"{version}\n#extension GL_ARM_shader_framebuffer_fetch_depth_stencil : require\nout vec4 colour;\n"
             "void main() { colour = vec4(gl_LastFragDepthARM, float(gl_LastFragStencilARM) / 255.0, 0.0, 1.0); }\n")
    plain = f"{version}\nout vec4 colour;\nvoid main() {{ colour = vec4(0.0, 0.0, 1.0, 1.0); }}\n"
    with driver.Context(api=api, width=w, height=h) as ctx:
        ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
        _target(ctx, w, h)
        ctx.glClearDepth(1.0)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glDepthFunc(E.GL_LESS)
        ctx.glEnable(E.GL_STENCIL_TEST)
        ctx.glStencilFunc(E.GL_ALWAYS, 9, 0xFF)
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
        ctx.glUseProgram(_program(ctx, plain, vs))
        _quads(ctx, [(0, 1, 0.5)])                      # right half: depth 0.75, stencil 9
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_KEEP)
        ctx.glUseProgram(_program(ctx, fetch, vs))
        _quads(ctx, [(-1, 1, -1.0)])
        expect(ctx, E.GL_NO_ERROR)
        px = _read(ctx, w, h)
        assert (px[:, : w // 2] == [255, 0, 0, 255]).all(), px[0]
        assert (px[:, w // 2:] == [191, 9, 0, 255]).all(), px[0]


def test_precision_redeclaration_and_no_early_fragment_tests():
    src = """#version 310 es
#extension GL_ARM_shader_framebuffer_fetch_depth_stencil : require
precision highp float;
{decl}
out vec4 c; void main() {{ c = vec4(gl_LastFragDepthARM, float(gl_LastFragStencilARM), 0.0, 1.0); }}
"""
    parse(src.format(decl="mediump float gl_LastFragDepthARM; lowp int gl_LastFragStencilARM;"), "fragment")
    with pytest.raises(GLSLCompileError, match=r"0:4\(5\): error: `gl_LastFragDepthARM' redeclared with a different"):
        parse(src.format(decl="int gl_LastFragDepthARM;"), "fragment")
    with pytest.raises(GLSLCompileError, match=r"0:4\(1\): error: .* cannot be read with layout\(early_fragment_tests\)"):
        parse(src.format(decl="layout(early_fragment_tests) in;"), "fragment")
