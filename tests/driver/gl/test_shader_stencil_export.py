"""GL_ARB_shader_stencil_export: gl_FragStencilRefARB is the stencil reference of its
fragment (the value the stencil test compares, and the one REPLACE writes), taken by
the GPU model's ISP from the fragment shader's stencil output (``zs_emit``). Expected
stencil values are computed by hand from the stencil state."""

import numpy as np
import pytest

import driver
from driver.gl import enums as E

VS = """#version 130
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }
"""
FS = """#version 130
#extension GL_ARB_shader_stencil_export : require
out vec4 color;
uniform int base;
void main() {
    // a reference that depends on the fragment: base + its column (0..7)
    gl_FragStencilRefARB = base + int(gl_FragCoord.x);
    color = vec4(1.0);
}
"""
W = H = 8


def _program(c, fs=FS):
    prog = c.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        sh = c.glCreateShader(kind)
        c.glShaderSource(sh, 1, [src])
        c.glCompileShader(sh)
        assert c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], c.glGetShaderInfoLog(sh)
        c.glAttachShader(prog, sh)
    c.glBindAttribLocation(prog, 0, "pos")
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    c.glUseProgram(prog)
    return prog


def _quad(c):
    vao = c.glGenVertexArrays(1)[0]
    c.glBindVertexArray(vao)
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    c.glBufferData(E.GL_ARRAY_BUFFER, 32, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes(),
                   E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 2, E.GL_FLOAT, 0, 0, 0)
    c.glEnableVertexAttribArray(0)


def _stencil(c):
    raw = c.glReadPixels(0, 0, W, H, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(H, W)


@pytest.fixture
def ctx():
    c = driver.Context(api="gl33", width=W, height=H)
    assert "GL_ARB_shader_stencil_export" in [c.glGetStringi(E.GL_EXTENSIONS, i)
                                              for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
    return c


def test_replace_writes_each_fragments_reference(ctx):
    c = ctx
    prog = _program(c)
    _quad(c)
    c.glUniform1i(c.glGetUniformLocation(prog, "base"), 100)
    c.glClearStencil(7)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST)
    c.glStencilFunc(E.GL_ALWAYS, 3, 0xFF)                   # the API reference is not used
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    want = np.broadcast_to(100 + np.arange(W, dtype=np.uint8), (H, W))
    assert (_stencil(c) == want).all(), _stencil(c)


def test_the_test_compares_the_exported_reference(ctx):
    """EQUAL against a stencil buffer of 4: only column 4 (reference 0 + 4) passes;
    the passing fragments INCR, the others keep 4 (KEEP on fail)."""
    c = ctx
    prog = _program(c)
    _quad(c)
    c.glUniform1i(c.glGetUniformLocation(prog, "base"), 0)
    c.glClearStencil(4)
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_STENCIL_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST)
    c.glStencilFunc(E.GL_EQUAL, 200, 0xFF)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_INCR)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    want = np.full((H, W), 4, np.uint8)
    want[:, 4] = 5
    assert (_stencil(c) == want).all(), _stencil(c)
    colour = np.asarray(c.read_pixels())[..., 0]
    assert (colour[:, 4] == 255).all() and (np.delete(colour, 4, axis=1) == 0).all()


def test_the_reference_takes_the_low_bits_and_the_masks_apply(ctx):
    """A reference of 256 + 9 + x is masked to the stencil's 8 bits; the write mask
    keeps the stored high nibble."""
    c = ctx
    prog = _program(c)
    _quad(c)
    c.glUniform1i(c.glGetUniformLocation(prog, "base"), 256 + 9)
    c.glClearStencil(0xA0)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST)
    c.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
    c.glStencilMask(0x0F)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    ref = (9 + np.arange(W)) & 0xFF
    want = np.broadcast_to((0xA0 & 0xF0) | (ref & 0x0F), (H, W)).astype(np.uint8)
    assert (_stencil(c) == want).all(), _stencil(c)


def test_glsl_side():
    """The variable needs the extension, exists in the fragment stage only and is an int."""
    c = driver.Context(api="gl33", width=4, height=4)

    def compiles(kind, src):
        sh = c.glCreateShader(kind)
        c.glShaderSource(sh, 1, [src])
        c.glCompileShader(sh)
        return c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1]

    assert not compiles(E.GL_FRAGMENT_SHADER, "#version 130\nvoid main() { gl_FragStencilRefARB = 1; }\n")
    assert compiles(E.GL_FRAGMENT_SHADER, "#version 120\n#extension GL_ARB_shader_stencil_export : enable\n"
                                          "void main() { gl_FragStencilRefARB = 1; }\n")
    assert not compiles(E.GL_VERTEX_SHADER, "#version 130\n#extension GL_ARB_shader_stencil_export : enable\n"
                                            "void main() { gl_FragStencilRefARB = 1; gl_Position = vec4(0); }\n")
    assert not compiles(E.GL_FRAGMENT_SHADER, "#version 130\n#extension GL_ARB_shader_stencil_export : enable\n"
                                              "void main() { gl_FragStencilRefARB = 1.5; }\n")
    assert compiles(E.GL_VERTEX_SHADER, "#version 130\n#ifndef GL_ARB_shader_stencil_export\n#error no\n#endif\n"
                                        "void main() { gl_Position = vec4(0); }\n")


def test_amd_name():
    """GL_AMD_shader_stencil_export: the same output as gl_FragStencilRefAMD (listed
    with the ARB extension, as Mesa); each name needs its own #extension."""
    c = driver.Context(api="compat", width=W, height=H)
    names = c.glGetString(E.GL_EXTENSIONS).split()
    assert "GL_AMD_shader_stencil_export" in names and "GL_ARB_shader_stencil_export" in names
    fs = FS.replace("GL_ARB_shader_stencil_export", "GL_AMD_shader_stencil_export").replace(
        "gl_FragStencilRefARB", "gl_FragStencilRefAMD")
    prog = _program(c, fs)
    _quad(c)
    c.glUniform1i(c.glGetUniformLocation(prog, "base"), 50)
    c.glClearStencil(0)
    c.glClear(E.GL_STENCIL_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST)
    c.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    c.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
    c.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert (_stencil(c) == np.broadcast_to(50 + np.arange(W, dtype=np.uint8), (H, W))).all(), _stencil(c)
    sh = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(sh, 1, ["#version 130\n#extension GL_AMD_shader_stencil_export : require\n"
                             "void main() { gl_FragStencilRefARB = 1; }\n"])
    c.glCompileShader(sh)
    assert c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [0]
