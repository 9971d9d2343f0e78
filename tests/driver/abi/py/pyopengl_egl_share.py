"""Shared EGL contexts from PyOpenGL (PYOPENGL_PLATFORM=egl and the
environment of `shimgl env`), each current in its own thread at the same
time: thread A makes a texture, a program and a vertex buffer and a fence
sync; thread B, whose context was created with A's as share_context, waits
on that sync and draws with A's objects; both draw at once and read back the
right image. Container objects (a VAO) stay private; an unshared context sees
none of them; a desktop-GL context cannot share with a GLES one."""

import ctypes
import sys
import threading

import numpy as np
from OpenGL import EGL, GLES3 as GL

SIZE = 16
TEXELS = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]],
                   [[0, 0, 255, 255], [255, 255, 0, 255]]], np.uint8)   # rows bottom to top
EXPECTED = TEXELS.repeat(SIZE // 2, axis=0).repeat(SIZE // 2, axis=1)
VS = """#version 300 es
in vec2 pos; out vec2 uv;
void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 300 es
precision mediump float; uniform sampler2D tex; in vec2 uv; out vec4 frag;
void main() { frag = texture(tex, uv); }"""

dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
assert EGL.eglInitialize(dpy, None, None)
cfg, n = EGL.EGLConfig(), EGL.EGLint()
attrs = (EGL.EGLint * 5)(EGL.EGL_SURFACE_TYPE, EGL.EGL_PBUFFER_BIT, EGL.EGL_RENDERABLE_TYPE,
                         EGL.EGL_OPENGL_ES3_BIT, EGL.EGL_NONE)
assert EGL.eglChooseConfig(dpy, attrs, ctypes.pointer(cfg), 1, ctypes.pointer(n)) and n.value == 1
EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
es3 = (EGL.EGLint * 3)(EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_NONE)
ctx_a = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, es3)
ctx_b = EGL.eglCreateContext(dpy, cfg, ctx_a, es3)
ctx_c = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, es3)
assert ctx_a and ctx_b and ctx_c


def pbuffer():
    return EGL.eglCreatePbufferSurface(dpy, cfg, (EGL.EGLint * 5)(
        EGL.EGL_WIDTH, SIZE, EGL.EGL_HEIGHT, SIZE, EGL.EGL_NONE))


def draw(prog, vbo, tex):
    vao = GL.glGenVertexArrays(1)
    GL.glBindVertexArray(vao)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
    GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
    GL.glEnableVertexAttribArray(0)
    GL.glUseProgram(prog)
    GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
    GL.glUniform1i(GL.glGetUniformLocation(prog, "tex"), 0)
    GL.glClearColor(0.0, 0.0, 0.0, 0.0)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glDrawArrays(GL.GL_TRIANGLE_STRIP, 0, 4)
    img = np.zeros((SIZE, SIZE, 4), np.uint8)
    GL.glReadPixels(0, 0, SIZE, SIZE, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, img)
    assert GL.glGetError() == GL.GL_NO_ERROR
    return img


def make_objects():
    prog = GL.glCreateProgram()
    for kind, src in ((GL.GL_VERTEX_SHADER, VS), (GL.GL_FRAGMENT_SHADER, FS)):
        s = GL.glCreateShader(kind)
        GL.glShaderSource(s, src)
        GL.glCompileShader(s)
        assert GL.glGetShaderiv(s, GL.GL_COMPILE_STATUS), GL.glGetShaderInfoLog(s)
        GL.glAttachShader(prog, s)
    GL.glBindAttribLocation(prog, 0, "pos")
    GL.glLinkProgram(prog)
    assert GL.glGetProgramiv(prog, GL.GL_LINK_STATUS), GL.glGetProgramInfoLog(prog)
    tex = GL.glGenTextures(1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
    GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, 2, 2, 0, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, TEXELS)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, GL.GL_NEAREST)
    GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, GL.GL_NEAREST)
    vbo = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
    quad = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32)
    GL.glBufferData(GL.GL_ARRAY_BUFFER, quad.nbytes, quad, GL.GL_STATIC_DRAW)
    return prog, vbo, tex


shared = {}
made = threading.Event()
both_current = threading.Barrier(2)
results, errors = {}, []


def thread_a():
    try:
        surf = pbuffer()
        assert EGL.eglMakeCurrent(dpy, surf, surf, ctx_a)
        shared["objects"] = make_objects()
        shared["vao"] = GL.glGenVertexArrays(1)
        GL.glBindVertexArray(shared["vao"])
        shared["sync"] = GL.glFenceSync(GL.GL_SYNC_GPU_COMMANDS_COMPLETE, 0)
        GL.glFlush()
        made.set()
        both_current.wait()
        results["a"] = draw(*shared["objects"])
        EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    except BaseException as e:      # reported by the main thread
        errors.append(("A", repr(e)))
        made.set()
        both_current.abort()


def thread_b():
    try:
        surf = pbuffer()
        assert EGL.eglMakeCurrent(dpy, surf, surf, ctx_b)
        made.wait()
        # (PyOpenGL 3.1 spells GLES3.GL_TIMEOUT_IGNORED as a negative number: the literal)
        GL.glWaitSync(shared["sync"], 0, 0xFFFFFFFFFFFFFFFF)
        assert GL.glIsSync(shared["sync"])
        prog, vbo, tex = shared["objects"]
        assert GL.glIsTexture(tex) and GL.glIsProgram(prog) and GL.glIsBuffer(vbo)
        assert not GL.glIsVertexArray(shared["vao"]), "VAOs are not shared"
        both_current.wait()
        results["b"] = draw(prog, vbo, tex)
        EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    except BaseException as e:
        errors.append(("B", repr(e)))
        both_current.abort()


threads = [threading.Thread(target=thread_a), threading.Thread(target=thread_b)]
for t in threads:
    t.start()
for t in threads:
    t.join()
assert not errors, errors
for name, img in sorted(results.items()):
    print(name, "corners", img[0, 0].tolist(), img[SIZE - 1, SIZE - 1].tolist())
    assert (img == EXPECTED).all(), name

# an unshared context sees none of A's objects
surf = pbuffer()
assert EGL.eglMakeCurrent(dpy, surf, surf, ctx_c)
prog, vbo, tex = shared["objects"]
assert not GL.glIsTexture(tex) and not GL.glIsProgram(prog) and not GL.glIsBuffer(vbo)
EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)

# EGL 1.5 section 3.7.1: the share context must be of the same client API
EGL.eglBindAPI(EGL.EGL_OPENGL_API)
try:
    EGL.eglCreateContext(dpy, cfg, ctx_a, None)
    raise AssertionError("a GL context shared with a GLES one")
except EGL.EGLError as e:            # PyOpenGL checks eglGetError itself
    assert e.err == EGL.EGL_BAD_CONTEXT, e
# destroying A keeps the objects for B
assert EGL.eglDestroyContext(dpy, ctx_a)
EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
assert EGL.eglMakeCurrent(dpy, surf, surf, ctx_b)
assert (draw(prog, vbo, tex) == EXPECTED).all()
EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
EGL.eglTerminate(dpy)
print("OK")
sys.exit(0)
