"""GL_ARB_fragment_coord_conventions: ``layout(origin_upper_left, pixel_center_integer) in
vec4 gl_FragCoord;`` (GLSL 1.10+ with the extension, 1.50+ without) moves gl_FragCoord's
origin to the framebuffer's top edge and/or its pixel centres to integers; ARB fragment
programs get the same through ``OPTION ARB_fragment_coord_origin_upper_left`` /
``ARB_fragment_coord_pixel_center_integer``. Expected by hand: in a framebuffer of height
H, the pixel of column i and row j (row 0 at the bottom) has x = i + 0.5, y = j + 0.5;
upper left: y = H - (j + 0.5); integer centres: 0.5 less."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

W = 4


def _expected(h, layout):
    i, j = np.meshgrid(np.arange(W) + 0.5, np.arange(h) + 0.5)
    x, y = i, j
    if "origin_upper_left" in layout:
        y = h - y
    if "pixel_center_integer" in layout:
        x, y = x - 0.5, y - 0.5
    return np.stack([x, y], axis=-1)


def _draw(ctx, h, program_setup):
    """gl_FragCoord.xy of every pixel of a W x h RGBA32F framebuffer, written by the
    fragment stage ``program_setup`` makes current."""
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32F, W, h)
    fb = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, W, h)
    program_setup()
    ctx.glBegin(E.GL_TRIANGLE_STRIP)
    for x, y in ((-1, -1), (1, -1), (-1, 1), (1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    px = np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, h, E.GL_RGBA, E.GL_FLOAT)), np.float32).reshape(h, W, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return px[..., :2]


def _glsl_program(ctx, header, layout):
    decl = f"layout({', '.join(layout)}) in vec4 gl_FragCoord;\n" if layout else ""
    fs = header + decl + "void main() { gl_FragColor = vec4(gl_FragCoord.xy, 0.0, 1.0); }\n"
    vs = header + "void main() { gl_Position = gl_Vertex; }\n"

    def setup():
        prog = ctx.glCreateProgram()
        for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
            sh, ok, log = compile_source(ctx, kind, src)
            assert ok, log
            ctx.glAttachShader(prog, sh)
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
    return setup


LAYOUTS = [(), ("origin_upper_left",), ("pixel_center_integer",), ("origin_upper_left", "pixel_center_integer")]


@pytest.mark.parametrize("layout", LAYOUTS, ids=["-".join(l) or "default" for l in LAYOUTS])
@pytest.mark.parametrize("header", ["#version 110\n#extension GL_ARB_fragment_coord_conventions : require\n",
                                    "#version 150 compatibility\n"], ids=["glsl110-ext", "glsl150"])
def test_glsl_layouts(header, layout):
    with driver.Context(api="compat", width=8, height=8) as ctx:
        for h in (3, 5):          # two framebuffer heights: the origin follows each
            got = _draw(ctx, h, _glsl_program(ctx, header, layout))
            np.testing.assert_allclose(got, _expected(h, layout), atol=1e-5)


@pytest.mark.parametrize("layout", LAYOUTS[1:], ids=["-".join(l) for l in LAYOUTS[1:]])
def test_arb_fragment_program_options(layout):
    options = {"origin_upper_left": "OPTION ARB_fragment_coord_origin_upper_left;\n",
               "pixel_center_integer": "OPTION ARB_fragment_coord_pixel_center_integer;\n"}
    text = ("!!ARBfp1.0\n" + "".join(options[q] for q in layout) +
            "MOV result.color, {0.0, 0.0, 0.0, 1.0};\nMOV result.color.xy, fragment.position;\nEND\n")
    with driver.Context(api="compat", width=8, height=8) as ctx:
        def setup():
            p = ctx.glGenProgramsARB(1)[0]
            ctx.glBindProgramARB(E.GL_FRAGMENT_PROGRAM_ARB, p)
            ctx.glProgramStringARB(E.GL_FRAGMENT_PROGRAM_ARB, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
            assert ctx.glGetError() == E.GL_NO_ERROR, ctx.glGetString(E.GL_PROGRAM_ERROR_STRING_ARB)
            ctx.glEnable(E.GL_FRAGMENT_PROGRAM_ARB)
        got = _draw(ctx, 3, setup)
    np.testing.assert_allclose(got, _expected(3, layout), atol=1e-5)


def test_listed_with_macro_and_errors():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert "GL_ARB_fragment_coord_conventions" in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                    "#version 110\n#extension GL_ARB_fragment_coord_conventions : require\n"
                                    "#if GL_ARB_fragment_coord_conventions != 1\n#error\n#endif\nvoid main() {}\n")
        assert ok, log
        # only gl_FragCoord takes them; without the extension in 1.30 layout is no keyword
        for src in ("#version 130\n#extension GL_ARB_fragment_coord_conventions : require\n"
                    "layout(origin_upper_left) in vec4 v;\nvoid main() { gl_FragColor = v; }\n",
                    "#version 130\nlayout(origin_upper_left) in vec4 gl_FragCoord;\n"
                    "void main() { gl_FragColor = gl_FragCoord; }\n"):
            _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, src)
            assert not ok and "error" in log, src
