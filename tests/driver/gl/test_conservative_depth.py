"""GL_ARB_conservative_depth and GL_AMD_conservative_depth: ``layout(depth_any |
depth_greater | depth_less | depth_unchanged) out float gl_FragDepth;`` in GLSL below
4.20 with the extension (a promise about the depth written, which shimgl may ignore:
the depth written is the depth stored), and the rules of the redeclaration: only
gl_FragDepth, before any use, the same layout in every fragment shader of a program."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

W = H = 8

VS = """#version 130
in vec4 p;
void main() { gl_Position = p; }"""


def _fs(ext, layout, body="gl_FragDepth = gl_FragCoord.z * 0.5 + 0.25;", version=130):
    head = f"#version {version}\n" + (f"#extension {ext} : require\n" if ext else "")
    return head + f"layout({layout}) out float gl_FragDepth;\nout vec4 o;\n" \
        f"void main() {{ {body} o = vec4(1.0); }}\n"


def _link(ctx, *fragment_sources):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS),) + tuple((E.GL_FRAGMENT_SHADER, s) for s in fragment_sources):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, log
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    return prog, bool(ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0]), ctx.glGetProgramInfoLog(prog)


def _draw_depth(ctx, prog, z_ndc):
    """A full-window quad at depth ``z_ndc``; the depth buffer read back as floats."""
    ctx.glUseProgram(prog)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    quad = np.array([[-1, -1, z_ndc, 1], [1, -1, z_ndc, 1], [-1, 1, z_ndc, 1], [1, 1, z_ndc, 1]], np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glClearDepth(1.0)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return np.frombuffer(bytes(ctx.glReadPixels(0, 0, W, H, E.GL_DEPTH_COMPONENT, E.GL_FLOAT)), np.float32)


@pytest.mark.parametrize("ext", ["GL_ARB_conservative_depth", "GL_AMD_conservative_depth"])
@pytest.mark.parametrize("api", ["gl33", "compat"])
def test_listed_with_macro(api, ext):
    with driver.Context(api=api, width=4, height=4) as ctx:
        n = ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0]
        assert ext in {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(n)}
        src = f"#version 110\n#extension {ext} : require\n#if {ext} != 1\n#error no macro\n#endif\nvoid main() {{}}\n"
        _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, src)
        assert ok, log


@pytest.mark.parametrize("layout,z_ndc", [("depth_any", 0.0), ("depth_greater", -0.5), ("depth_less", 0.5)])
@pytest.mark.parametrize("ext", ["GL_ARB_conservative_depth", "GL_AMD_conservative_depth"])
def test_depth_written_is_stored(ext, layout, z_ndc):
    """The depth the shader writes (window z * 0.5 + 0.25) reaches the depth buffer,
    whatever promise the layout makes (depth_greater and depth_less keep it: window z
    0.25 -> 0.375 is greater, 0.75 -> 0.625 less)."""
    with driver.Context(api="gl33", width=W, height=H) as ctx:
        prog, ok, log = _link(ctx, _fs(ext, layout))
        assert ok, log
        depth = _draw_depth(ctx, prog, z_ndc)
    window_z = z_ndc * 0.5 + 0.5
    np.testing.assert_allclose(depth, window_z * 0.5 + 0.25, atol=1e-6)


def test_depth_unchanged_and_glsl_420_without_the_extension():
    with driver.Context(api="gl46", width=W, height=H) as ctx:
        prog, ok, log = _link(ctx, _fs(None, "depth_unchanged", "gl_FragDepth = gl_FragCoord.z;", version=420))
        assert ok, log
        depth = _draw_depth(ctx, prog, 0.5)
    np.testing.assert_allclose(depth, 0.75, atol=1e-6)


@pytest.mark.parametrize("src,message", [
    # without the extension (and before 4.20) the qualifier is not known
    (_fs(None, "depth_any", version=330), "depth_any"),
    # on another variable
    ("#version 130\n#extension GL_ARB_conservative_depth : require\nlayout(depth_less) out vec4 c;\n"
     "void main() { c = vec4(0.0); }\n", "gl_FragDepth"),
    # after a use of gl_FragDepth
    ("#version 130\n#extension GL_ARB_conservative_depth : require\n"
     "float f() { gl_FragDepth = 0.0; return 0.0; }\nlayout(depth_any) out float gl_FragDepth;\n"
     "void main() { f(); }\n", "gl_FragDepth"),
    # an unknown layout
    ("#version 130\n#extension GL_ARB_conservative_depth : require\nlayout(depth_sideways) out float gl_FragDepth;\n"
     "void main() { gl_FragDepth = 0.0; }\n", "depth_sideways"),
])
def test_compile_errors(src, message):
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, src)
    assert not ok
    assert "error" in log and message in log, log


def test_vertex_stage_cannot_redeclare_gl_fragdepth():
    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, "#version 130\n#extension GL_ARB_conservative_depth : require\n"
                                    "layout(depth_any) out float gl_FragDepth;\nvoid main() {}\n")
    assert not ok and "error" in log


def test_every_fragment_shader_of_a_program_declares_the_same_layout():
    """Two fragment shaders of one program with different depth layouts do not link;
    with the same one they do."""
    ext = "GL_ARB_conservative_depth"
    main = (f"#version 130\n#extension {ext} : require\nlayout(depth_less) out float gl_FragDepth;\nout vec4 o;\n"
            "void foo();\nvoid main() { gl_FragDepth = gl_FragCoord.z; foo(); o = vec4(1.0); }\n")

    def other(layout):
        return (f"#version 130\n#extension {ext} : require\nlayout({layout}) out float gl_FragDepth;\n"
                "void foo() { if (gl_FragCoord.z > 0.5) gl_FragDepth = 0.5; }\n")

    with driver.Context(api="gl33", width=4, height=4) as ctx:
        _, ok, log = _link(ctx, main, other("depth_greater"))
        assert not ok and "gl_FragDepth" in log, log
        _, ok, log = _link(ctx, main, other("depth_less"))
        assert ok, log
