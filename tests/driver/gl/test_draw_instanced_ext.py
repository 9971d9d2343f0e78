"""GL_EXT_draw_instanced in desktop contexts: glDrawArraysInstancedEXT and
glDrawElementsInstancedEXT draw primcount instances with gl_InstanceID counting
them (EXT_gpu_shader4's in GLSL 1.20, the core one from 1.40), with the errors the
extension names; both are INVALID_OPERATION while a display list is compiled (the
extension's chapter 5, and ARB_draw_instanced's); the extension has no GLSL part in
desktop GLSL (Mesa: GLSL ES only)."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.gl.helpers import use_program

W, H = 8, 2

VS_120 = """#version 120
#extension GL_EXT_gpu_shader4 : require
attribute vec2 p;
varying float v;
void main() { gl_Position = vec4(p.x * 0.25 - 0.75 + 0.5 * float(gl_InstanceID), p.y, 0, 1);
              v = float(gl_InstanceID + 1) * 0.25; }
"""
FS_120 = "#version 120\nvarying float v;\nvoid main() { gl_FragColor = vec4(v, 0, 0, 1); }\n"
VS_140 = VS_120.replace("#version 120\n#extension GL_EXT_gpu_shader4 : require\nattribute",
                        "#version 140\nin").replace("varying", "out")
FS_140 = "#version 140\nin float v;\nout vec4 o;\nvoid main() { o = vec4(v, 0, 0, 1); }\n"

# a quad of x in [-1, 1] (scaled to a quarter of the window per instance)
QUAD = np.array([(-1, -1), (1, -1), (1, 1), (-1, 1)], np.float32)


def make(api):
    import driver
    c = driver.Context(api=api, width=W, height=H)
    vs, fs = (VS_120, FS_120) if api == "compat" else (VS_140, FS_140)
    prog = use_program(c, vs, fs)
    loc = c.glGetAttribLocation(prog, "p")
    c.glBindVertexArray(c.glGenVertexArrays(1)[0])
    c.glBindBuffer(E.GL_ARRAY_BUFFER, c.glGenBuffers(1)[0])
    c.glBufferData(E.GL_ARRAY_BUFFER, QUAD.nbytes, QUAD.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(loc, 2, E.GL_FLOAT, 0, 0, 0)
    c.glEnableVertexAttribArray(loc)
    c.glBindBuffer(E.GL_ELEMENT_ARRAY_BUFFER, c.glGenBuffers(1)[0])
    idx = np.array([0, 1, 2, 0, 2, 3], np.uint32)
    c.glBufferData(E.GL_ELEMENT_ARRAY_BUFFER, idx.nbytes, idx.tobytes(), E.GL_STATIC_DRAW)
    return c


def red(c):
    c.glFinish()
    data = c.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(H, W, 4)[0, :, 0]


def clear(c):
    c.glClearColor(0, 0, 0, 0)
    c.glClear(E.GL_COLOR_BUFFER_BIT)


def expected(instances):
    """Instance i covers window columns 2i, 2i+1 with red (i + 1) / 4."""
    out = np.zeros(W, np.uint8)
    for i in range(instances):
        out[2 * i:2 * i + 2] = round((i + 1) * 0.25 * 255)
    return out


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_instances_count_gl_instance_id(api):
    c = make(api)
    names = c.glGetString(E.GL_EXTENSIONS).split() if api == "compat" else \
        [c.glGetStringi(E.GL_EXTENSIONS, i) for i in range(c.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])]
    assert "GL_EXT_draw_instanced" in names
    clear(c)
    c.glDrawArraysInstancedEXT(E.GL_TRIANGLE_FAN, 0, 4, 3)
    assert c.glGetError() == E.GL_NO_ERROR
    assert list(red(c)) == list(expected(3))
    clear(c)
    c.glDrawElementsInstancedEXT(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_INT, 0, 4)
    assert c.glGetError() == E.GL_NO_ERROR
    assert list(red(c)) == list(expected(4))


@pytest.mark.parametrize("api", ["compat", "gl46"])
def test_errors(api):
    c = make(api)
    clear(c)
    c.glDrawArraysInstancedEXT(E.GL_TRIANGLE_FAN, -1, 4, 2)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glDrawElementsInstancedEXT(E.GL_TRIANGLES, 6, E.GL_FLOAT, 0, 2)
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glDrawArraysInstancedEXT(0x1234, 0, 4, 2)
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert red(c).sum() == 0


def test_refused_while_a_display_list_is_compiled():
    c = make("compat")
    clear(c)
    for mode in (E.GL_COMPILE, E.GL_COMPILE_AND_EXECUTE):
        lst = c.glGenLists(1)
        c.glNewList(lst, mode)
        c.glDrawArraysInstancedEXT(E.GL_TRIANGLE_FAN, 0, 4, 2)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawElementsInstancedEXT(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_INT, 0, 2)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawArraysInstancedARB(E.GL_TRIANGLE_FAN, 0, 4, 2)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawArraysInstanced(E.GL_TRIANGLE_FAN, 0, 4, 2)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        # the instanced draws of ARB_draw_elements_base_vertex and ARB_base_instance and the
        # indirect draws alike (Mesa's display lists refuse them too)
        c.glDrawElementsInstancedBaseVertex(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_INT, 0, 2, 0)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawArraysInstancedBaseInstance(E.GL_TRIANGLE_FAN, 0, 4, 2, 0)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glDrawElementsInstancedBaseVertexBaseInstance(E.GL_TRIANGLES, 6, E.GL_UNSIGNED_INT, 0, 2, 0, 0)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, c.glGenBuffers(1)[0])
        c.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, 20, np.array([4, 2, 0, 0, 0], np.uint32).tobytes(),
                       E.GL_STATIC_DRAW)
        c.glDrawArraysIndirect(E.GL_TRIANGLE_FAN, 0)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glMultiDrawArraysIndirect(E.GL_TRIANGLE_FAN, 0, 1, 0)
        assert c.glGetError() == E.GL_INVALID_OPERATION
        c.glEndList()
        assert red(c).sum() == 0                  # nothing drawn, not even in COMPILE_AND_EXECUTE
        c.glCallList(lst)                         # and nothing compiled
        assert c.glGetError() == E.GL_NO_ERROR
        assert red(c).sum() == 0


@pytest.mark.parametrize("api,version", [("compat", "120"), ("gl46", "460"), ("gles2", "100")])
def test_glsl_part_only_in_glsl_es(api, version):
    import driver
    c = driver.Context(api=api, width=W, height=H)
    sh = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(sh, 1, [f"#version {version}\n#extension GL_EXT_draw_instanced : require\n"
                             "void main() { gl_Position = vec4(0.0); }\n"])
    c.glCompileShader(sh)
    assert c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [int(api == "gles2")], c.glGetShaderInfoLog(sh)
