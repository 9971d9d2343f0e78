"""A multisampled EGL config (run with PYOPENGL_PLATFORM=egl and the environment
of `shimgl env`): eglChooseConfig with EGL_SAMPLES 4 gives a 4-sample config
(single-sampled configs first when no samples are asked for), a pbuffer of it
draws with 4 samples (GL_SAMPLES, GL_SAMPLE_BUFFERS) and glReadPixels,
glCopyTexImage2D and glBlitFramebuffer read it resolved: a triangle covering
the lower-left half of the image leaves edge pixels between the two colours,
and the image's total coverage is the triangle's area (analytic, 2,048 px)."""

import ctypes
import sys

import numpy as np
from OpenGL import EGL, GLES3 as GL

W = H = 64
dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
assert EGL.eglInitialize(dpy, None, None)


def choose(*attrs):
    cfgs = (EGL.EGLConfig * 16)()
    n = EGL.EGLint()
    lst = (EGL.EGLint * (len(attrs) + 1))(*attrs, EGL.EGL_NONE)
    assert EGL.eglChooseConfig(dpy, lst, cfgs, 16, ctypes.pointer(n))
    return list(cfgs[:n.value])


def attrib(cfg, name):
    v = EGL.EGLint()
    assert EGL.eglGetConfigAttrib(dpy, cfg, name, ctypes.pointer(v))
    return v.value


base = (EGL.EGL_SURFACE_TYPE, EGL.EGL_PBUFFER_BIT, EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_ES3_BIT)
plain = choose(*base)
assert plain and attrib(plain[0], EGL.EGL_SAMPLES) == 0, "single-sampled configs sort first"
ms = choose(*base, EGL.EGL_SAMPLES, 4, EGL.EGL_SAMPLE_BUFFERS, 1)
assert ms, "no 4-sample config"
assert all(attrib(c, EGL.EGL_SAMPLES) == 4 and attrib(c, EGL.EGL_SAMPLE_BUFFERS) == 1 for c in ms)
assert not choose(*base, EGL.EGL_SAMPLES, 16), "no config has 16 samples"
EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)

VS = """#version 300 es
in vec2 pos;
void main() { gl_Position = vec4(pos, 0.0, 1.0); }"""
FS = """#version 300 es
precision mediump float;
out vec4 frag;
void main() { frag = vec4(1.0); }"""


def draw_half(cfg):
    """Render the lower-left half-triangle white on black into a pbuffer of cfg;
    returns (GL_SAMPLES, GL_SAMPLE_BUFFERS, readback, copy, blit) images (R channel)."""
    surf = EGL.eglCreatePbufferSurface(dpy, cfg, (EGL.EGLint * 5)(EGL.EGL_WIDTH, W, EGL.EGL_HEIGHT, H,
                                                                  EGL.EGL_NONE))
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT,
                               (EGL.EGLint * 3)(EGL.EGL_CONTEXT_MAJOR_VERSION, 3, EGL.EGL_NONE))
    assert EGL.eglMakeCurrent(dpy, surf, surf, ctx)
    prog = GL.glCreateProgram()
    for kind, src in ((GL.GL_VERTEX_SHADER, VS), (GL.GL_FRAGMENT_SHADER, FS)):
        s = GL.glCreateShader(kind)
        GL.glShaderSource(s, src)
        GL.glCompileShader(s)
        GL.glAttachShader(prog, s)
    GL.glBindAttribLocation(prog, 0, "pos")
    GL.glLinkProgram(prog)
    GL.glUseProgram(prog)
    vbo = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
    verts = np.array([-1, -1, 1, -1, -1, 1], np.float32)
    GL.glBufferData(GL.GL_ARRAY_BUFFER, verts.nbytes, verts, GL.GL_STATIC_DRAW)
    GL.glVertexAttribPointer(0, 2, GL.GL_FLOAT, GL.GL_FALSE, 0, None)
    GL.glEnableVertexAttribArray(0)
    GL.glClearColor(0, 0, 0, 1)
    GL.glClear(GL.GL_COLOR_BUFFER_BIT)
    GL.glDrawArrays(GL.GL_TRIANGLES, 0, 3)
    samples, buffers = GL.glGetIntegerv(GL.GL_SAMPLES), GL.glGetIntegerv(GL.GL_SAMPLE_BUFFERS)
    read = np.zeros((H, W, 4), np.uint8)
    GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, read)
    assert GL.glGetError() == GL.GL_NO_ERROR
    # glCopyTexImage2D from the window, read back through a framebuffer object
    tex = GL.glGenTextures(1)
    GL.glBindTexture(GL.GL_TEXTURE_2D, tex)
    GL.glCopyTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, 0, 0, W, H, 0)
    assert GL.glGetError() == GL.GL_NO_ERROR
    fbo = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
    GL.glFramebufferTexture2D(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_TEXTURE_2D, tex, 0)
    copy = np.zeros((H, W, 4), np.uint8)
    GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, copy)
    # glBlitFramebuffer resolves the window into a single-sampled renderbuffer
    rb = GL.glGenRenderbuffers(1)
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb)
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, W, H)
    fbo2 = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo2)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb)
    GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, 0)
    GL.glBlitFramebuffer(0, 0, W, H, 0, 0, W, H, GL.GL_COLOR_BUFFER_BIT, GL.GL_NEAREST)
    GL.glBindFramebuffer(GL.GL_READ_FRAMEBUFFER, fbo2)
    blit = np.zeros((H, W, 4), np.uint8)
    GL.glReadPixels(0, 0, W, H, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, blit)
    assert GL.glGetError() == GL.GL_NO_ERROR
    EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, EGL.EGL_NO_CONTEXT)
    EGL.eglDestroyContext(dpy, ctx)
    EGL.eglDestroySurface(dpy, surf)
    return int(samples), int(buffers), read[..., 0], copy[..., 0], blit[..., 0]


area = W * H / 2
s, b, read, copy, blit = draw_half(plain[0])
assert (s, b) == (0, 0), (s, b)
assert set(np.unique(read)) <= {0, 255}, "a single-sampled window has no partial coverage"
s, b, read, copy, blit = draw_half(ms[0])
assert (s, b) == (4, 1), (s, b)
partial = (read > 0) & (read < 255)
print("edge pixels", int(partial.sum()), "coverage", read.sum() / 255)
# the diagonal crosses every row: one partly covered pixel per row (at most two)
assert H - 2 <= partial.sum() <= 2 * H, partial.sum()
# resolved values are multiples of a quarter (the average of 4 samples), rounded
quarters = np.round(read[partial] / 63.75)
assert np.all(np.abs(read[partial] - quarters * 63.75) <= 1), np.unique(read[partial])
assert abs(read.sum() / 255 - area) <= H / 4, (read.sum() / 255, area)
assert np.array_equal(read, copy), "glCopyTexImage2D reads the resolved window"
assert np.array_equal(read, blit), "glBlitFramebuffer resolves the window"
EGL.eglTerminate(dpy)
print("OK")
sys.exit(0)
