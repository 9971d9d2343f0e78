"""A GLES 3.2 context through libEGL (ctypes only) and a draw with a GLSL ES 3.20
geometry shader: EGL_CONTEXT_MAJOR/MINOR_VERSION 3.2 on a 4x4 pbuffer, GL_VERSION,
then one point that the geometry stage turns into a quad over the left half,
coloured green; the right half keeps the clear colour (blue).

Prints "version ...", "left R G B A", "right R G B A" and "OK", or "FAIL ..." and exits 1."""

import ctypes
import sys

egl = ctypes.CDLL("libEGL.so.1")
vp, uint, c_int = ctypes.c_void_p, ctypes.c_uint, ctypes.c_int
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", uint, [vp, vp, vp]),
                        ("eglChooseConfig", uint, [vp, vp, vp, c_int, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglBindAPI", uint, [uint]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", uint, [vp, vp, vp, vp]), ("eglGetError", c_int, []),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args


def check(cond, what):
    if not cond:
        print(f"FAIL {what} (EGL error {egl.eglGetError():#x})")
        sys.exit(1)


def attribs(*pairs):
    flat = [v for p in pairs for v in p] + [0x3038]
    return (c_int * len(flat))(*flat)


dpy = egl.eglGetDisplay(None)
check(dpy and egl.eglInitialize(dpy, None, None), "eglInitialize")
cfg, n = vp(), c_int()
check(egl.eglChooseConfig(dpy, attribs((0x3033, 0x0001), (0x3040, 0x0040)), ctypes.byref(cfg), 1,
                          ctypes.byref(n)) and n.value == 1, "eglChooseConfig")      # PBUFFER, ES3
egl.eglBindAPI(0x30A0)                                                               # OpenGL ES
ctx = egl.eglCreateContext(dpy, cfg, None, attribs((0x3098, 3), (0x30FB, 2)))       # MAJOR 3, MINOR 2
check(ctx, "eglCreateContext 3.2")
surf = egl.eglCreatePbufferSurface(dpy, cfg, attribs((0x3057, 4), (0x3056, 4)))
check(surf and egl.eglMakeCurrent(dpy, surf, surf, ctx), "make current")


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


glGetString = gl("glGetString", ctypes.c_char_p, uint)
glGetError = gl("glGetError", uint)
glCreateShader = gl("glCreateShader", uint, uint)
glShaderSource = gl("glShaderSource", None, uint, c_int, vp, vp)
glCompileShader = gl("glCompileShader", None, uint)
glCreateProgram = gl("glCreateProgram", uint)
glAttachShader = gl("glAttachShader", None, uint, uint)
glLinkProgram = gl("glLinkProgram", None, uint)
glGetProgramiv = gl("glGetProgramiv", None, uint, uint, vp)
glUseProgram = gl("glUseProgram", None, uint)
glGenVertexArrays = gl("glGenVertexArrays", None, c_int, vp)
glBindVertexArray = gl("glBindVertexArray", None, uint)
glDrawArrays = gl("glDrawArrays", None, uint, c_int, c_int)
glClearColor = gl("glClearColor", None, *[ctypes.c_float] * 4)
glClear = gl("glClear", None, uint)
glReadPixels = gl("glReadPixels", None, c_int, c_int, c_int, c_int, uint, uint, vp)

version = glGetString(0x1F02).decode()
print("version", version)
check(version.startswith("OpenGL ES 3.2"), "GL_VERSION")
VS = b"#version 320 es\nvoid main() { gl_Position = vec4(0.0, 0.0, 0.0, 1.0); }\n"
GS = b"""#version 320 es
layout(points) in;
layout(triangle_strip, max_vertices = 4) out;
void main() {
    for (int i = 0; i < 4; i++) {
        gl_Position = vec4(gl_in[0].gl_Position.x + float(i & 1) - 1.0, float(i >> 1) * 2.0 - 1.0, 0.0, 1.0);
        EmitVertex();
    }
}
"""
FS = b"#version 320 es\nprecision highp float;\nout vec4 o;\nvoid main() { o = vec4(0.0, 1.0, 0.0, 1.0); }\n"
prog = glCreateProgram()
for kind, src in ((0x8B31, VS), (0x8DD9, GS), (0x8B30, FS)):        # VERTEX, GEOMETRY, FRAGMENT
    sh = glCreateShader(kind)
    text = ctypes.c_char_p(src)
    glShaderSource(sh, 1, ctypes.cast(ctypes.pointer(text), vp), None)
    glCompileShader(sh)
    glAttachShader(prog, sh)
glLinkProgram(prog)
status = c_int()
glGetProgramiv(prog, 0x8B82, ctypes.byref(status))                  # LINK_STATUS
check(status.value == 1, "link")
glUseProgram(prog)
vao = c_int()
glGenVertexArrays(1, ctypes.byref(vao))
glBindVertexArray(vao.value)
glClearColor(0.0, 0.0, 1.0, 1.0)
glClear(0x4000)
glDrawArrays(0x0000, 0, 1)                                           # POINTS
px = (ctypes.c_ubyte * 64)()
glReadPixels(0, 0, 4, 4, 0x1908, 0x1401, px)
check(glGetError() == 0, "GL error")
print("left", *px[0:4])
print("right", *px[12:16])
check(tuple(px[0:4]) == (0, 255, 0, 255) and tuple(px[12:16]) == (0, 0, 255, 255), "pixels")
print("OK")
