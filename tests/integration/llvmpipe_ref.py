"""Render a scene with Mesa's llvmpipe (EGL surfaceless, GLES 3.0, PyOpenGL) in a
subprocess and print its pixels: the independent reference of the `mesa` tests.

Usage: python llvmpipe_ref.py < scene.json > pixels (raw RGBA8, row 0 at the bottom).
A scene: width, height, vs, fs, vertices (float rows), attribs {name: [n, first]},
stride (floats), draws [[mode, first, count]], clear [r, g, b, a], depth (bool),
blend ([src, dst] GL enum names or null), uniforms {name: floats (16 = mat4)},
texture {width, height, data (RGBA8 bytes as a list), filter} bound to unit 0."""

import ctypes
import json
import os
import sys

os.environ["__EGL_VENDOR_LIBRARY_FILENAMES"] = "/usr/share/glvnd/egl_vendor.d/50_mesa.json"
os.environ["PYOPENGL_PLATFORM"] = "egl"
os.environ["LIBGL_ALWAYS_SOFTWARE"] = "1"
os.environ["EGL_PLATFORM"] = "surfaceless"


def main():
    import numpy as np
    from OpenGL import EGL
    from OpenGL import GLES3 as GL
    scene = json.load(sys.stdin)
    dpy = EGL.eglGetDisplay(EGL.EGL_DEFAULT_DISPLAY)
    EGL.eglInitialize(dpy, None, None)
    cfg, n = EGL.EGLConfig(), EGL.EGLint()
    attrs = (EGL.EGLint * 5)(EGL.EGL_RENDERABLE_TYPE, EGL.EGL_OPENGL_ES3_BIT, EGL.EGL_SURFACE_TYPE,
                             EGL.EGL_PBUFFER_BIT, EGL.EGL_NONE)
    EGL.eglChooseConfig(dpy, attrs, ctypes.pointer(cfg), 1, ctypes.pointer(n))
    EGL.eglBindAPI(EGL.EGL_OPENGL_ES_API)
    ctx = EGL.eglCreateContext(dpy, cfg, EGL.EGL_NO_CONTEXT, (EGL.EGLint * 3)(EGL.EGL_CONTEXT_CLIENT_VERSION, 3,
                                                                                 EGL.EGL_NONE))
    assert EGL.eglMakeCurrent(dpy, EGL.EGL_NO_SURFACE, EGL.EGL_NO_SURFACE, ctx)
    w, h = scene["width"], scene["height"]
    fbo = GL.glGenFramebuffers(1)
    GL.glBindFramebuffer(GL.GL_FRAMEBUFFER, fbo)
    rb = GL.glGenRenderbuffers(2)
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb[0])
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_RGBA8, w, h)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_COLOR_ATTACHMENT0, GL.GL_RENDERBUFFER, rb[0])
    GL.glBindRenderbuffer(GL.GL_RENDERBUFFER, rb[1])
    GL.glRenderbufferStorage(GL.GL_RENDERBUFFER, GL.GL_DEPTH24_STENCIL8, w, h)
    GL.glFramebufferRenderbuffer(GL.GL_FRAMEBUFFER, GL.GL_DEPTH_STENCIL_ATTACHMENT, GL.GL_RENDERBUFFER, rb[1])
    GL.glViewport(0, 0, w, h)
    prog = GL.glCreateProgram()
    for kind, src in ((GL.GL_VERTEX_SHADER, scene["vs"]), (GL.GL_FRAGMENT_SHADER, scene["fs"])):
        s = GL.glCreateShader(kind)
        GL.glShaderSource(s, src)
        GL.glCompileShader(s)
        GL.glAttachShader(prog, s)
    GL.glLinkProgram(prog)
    GL.glUseProgram(prog)
    data = np.array(scene["vertices"], np.float32)
    vao = GL.glGenVertexArrays(1)
    GL.glBindVertexArray(vao)
    vbo = GL.glGenBuffers(1)
    GL.glBindBuffer(GL.GL_ARRAY_BUFFER, vbo)
    GL.glBufferData(GL.GL_ARRAY_BUFFER, data.nbytes, data, GL.GL_STATIC_DRAW)
    for name, (k, first) in scene["attribs"].items():
        loc = GL.glGetAttribLocation(prog, name)
        GL.glVertexAttribPointer(loc, k, GL.GL_FLOAT, False, 4 * scene["stride"], ctypes.c_void_p(4 * first))
        GL.glEnableVertexAttribArray(loc)
    for name, values in scene.get("uniforms", {}).items():
        loc = GL.glGetUniformLocation(prog, name)
        v = np.array(values, np.float32)
        if len(v) == 16:
            GL.glUniformMatrix4fv(loc, 1, False, v)
        else:
            getattr(GL, f"glUniform{len(v)}fv")(loc, 1, v)
    tex = scene.get("texture")
    if tex:
        t = GL.glGenTextures(1)
        GL.glBindTexture(GL.GL_TEXTURE_2D, t)
        data = np.array(tex["data"], np.uint8)
        GL.glTexImage2D(GL.GL_TEXTURE_2D, 0, GL.GL_RGBA8, tex["width"], tex["height"], 0, GL.GL_RGBA,
                        GL.GL_UNSIGNED_BYTE, data)
        f = getattr(GL, tex["filter"])
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MIN_FILTER, f)
        GL.glTexParameteri(GL.GL_TEXTURE_2D, GL.GL_TEXTURE_MAG_FILTER, f)
    GL.glClearColor(*scene["clear"])
    GL.glClear(GL.GL_COLOR_BUFFER_BIT | GL.GL_DEPTH_BUFFER_BIT)
    if scene.get("depth"):
        GL.glEnable(GL.GL_DEPTH_TEST)
    if scene.get("blend"):
        GL.glEnable(GL.GL_BLEND)
        GL.glBlendFunc(getattr(GL, scene["blend"][0]), getattr(GL, scene["blend"][1]))
    for mode, first, count in scene["draws"]:
        GL.glDrawArrays(getattr(GL, mode), first, count)
    GL.glFinish()
    px = np.zeros((h, w, 4), np.uint8)
    GL.glReadPixels(0, 0, w, h, GL.GL_RGBA, GL.GL_UNSIGNED_BYTE, px)
    sys.stdout.buffer.write(px.tobytes())


if __name__ == "__main__":
    main()
