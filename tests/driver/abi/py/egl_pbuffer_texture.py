"""eglBindTexImage / eglReleaseTexImage (EGL 1.5 section 3.6.1) and
EGL_KHR_gl_colorspace pbuffers, through glvnd's libEGL with ctypes alone, on
the surfaceless platform with an OpenGL ES 2.0 context. The same script runs on
Mesa's llvmpipe (Mesa 22.3); six checks differ there: its pbuffer texture reads
upside down (Mesa stores window-system buffers top row first and binds that
storage: t = 0 is the pbuffer's top row; here the pbuffer's bottom row is the
texture's first row, as glCopyTexImage2D would copy it), it keeps the image after
eglReleaseTexImage (whose content the specification leaves undefined), it
binds a bound pbuffer again (EGL 1.5 names EGL_BAD_ACCESS) and its surfaceless
configs have no sRGB pbuffer (EGL_BAD_MATCH, and the two colorspace checks after).

- A 4x4 RGBA pbuffer is cleared red, its two bottom rows green (a scissored
  clear); bound to a texture of another pbuffer's context and drawn with
  NEAREST filtering over that 4x4 pbuffer, it gives the same image (row 0 =
  bottom: the texture's t = 0 is the pbuffer's bottom row).
- Binding a bound pbuffer again is EGL_BAD_ACCESS; a pbuffer without a texture
  format EGL_BAD_MATCH; another buffer than EGL_BACK_BUFFER EGL_BAD_PARAMETER.
- After eglReleaseTexImage the texture has no image: the draw samples (0, 0, 0, 1).
- An EGL_TEXTURE_RGB pbuffer cleared to alpha 0.5 samples alpha 1.
- Pbuffer creation: a texture format without a target is EGL_BAD_MATCH, a format
  that is not one EGL_BAD_ATTRIBUTE; EGL_GL_COLORSPACE another value than LINEAR
  or SRGB EGL_BAD_ATTRIBUTE.
- An EGL_GL_COLORSPACE_SRGB pbuffer: glClear(0.4 green) stores 170
  (linear_to_srgb(0.4) = 0.6652), a linear one 102 (0.4 * 255); the query
  answers the colorspace.

Prints FAIL lines and "OK"."""

import ctypes
import sys

egl = ctypes.CDLL("libEGL.so.1")
vp, ci, cu = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint
for name, res, args in (("eglGetDisplay", vp, [vp]), ("eglInitialize", cu, [vp, vp, vp]),
                        ("eglChooseConfig", cu, [vp, vp, vp, ci, vp]),
                        ("eglGetConfigAttrib", cu, [vp, vp, ci, vp]),
                        ("eglCreatePbufferSurface", vp, [vp, vp, vp]),
                        ("eglDestroySurface", cu, [vp, vp]),
                        ("eglQuerySurface", cu, [vp, vp, ci, vp]),
                        ("eglBindAPI", cu, [cu]), ("eglCreateContext", vp, [vp, vp, vp, vp]),
                        ("eglMakeCurrent", cu, [vp, vp, vp, vp]), ("eglGetError", ci, []),
                        ("eglBindTexImage", cu, [vp, vp, ci]), ("eglReleaseTexImage", cu, [vp, vp, ci]),
                        ("eglGetProcAddress", vp, [ctypes.c_char_p]),
                        ("eglQueryString", ctypes.c_char_p, [vp, ci]), ("eglTerminate", cu, [vp])):
    f = getattr(egl, name)
    f.restype, f.argtypes = res, args

EGL_NONE, EGL_SUCCESS = 0x3038, 0x3000
EGL_BAD_ACCESS, EGL_BAD_ATTRIBUTE, EGL_BAD_MATCH, EGL_BAD_PARAMETER = 0x3002, 0x3004, 0x3009, 0x300C
EGL_WIDTH, EGL_HEIGHT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT = 0x3057, 0x3056, 0x3033, 0x1
EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_SAMPLES = 0x3040, 0x4, 0x3031
EGL_BIND_TO_TEXTURE_RGB, EGL_BIND_TO_TEXTURE_RGBA = 0x3039, 0x303A
EGL_TEXTURE_FORMAT, EGL_TEXTURE_TARGET, EGL_NO_TEXTURE = 0x3080, 0x3081, 0x305C
EGL_TEXTURE_RGB, EGL_TEXTURE_RGBA, EGL_TEXTURE_2D = 0x305D, 0x305E, 0x305F
EGL_BACK_BUFFER, EGL_FRONT_BUFFER = 0x3084, 0x3085
EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, EGL_GL_COLORSPACE_LINEAR = 0x309D, 0x3089, 0x308A
EGL_OPENGL_ES_API, EGL_CONTEXT_CLIENT_VERSION, EGL_EXTENSIONS = 0x30A0, 0x3098, 0x3055

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def ints(*values):
    return (ci * (len(values) + 1))(*values, EGL_NONE)


dpy = egl.eglGetDisplay(None)
assert egl.eglInitialize(dpy, None, None)
extensions = egl.eglQueryString(dpy, EGL_EXTENSIONS).decode().split()
check("EGL_KHR_gl_colorspace" in extensions, "EGL_KHR_gl_colorspace is not listed")


def config(*want):
    cfg, n = vp(), ci()
    ok = egl.eglChooseConfig(dpy, ints(EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                                       EGL_OPENGL_ES2_BIT, EGL_SAMPLES, 0, *want), ctypes.byref(cfg), 1,
                             ctypes.byref(n))
    return cfg if ok and n.value else None


rgba_cfg = config(EGL_BIND_TO_TEXTURE_RGBA, 1)
rgb_cfg = config(EGL_BIND_TO_TEXTURE_RGB, 1)
assert rgba_cfg and rgb_cfg, "no config binds pbuffers to textures"


def pbuffer(cfg, *attrs, want=EGL_SUCCESS, what=""):
    s = egl.eglCreatePbufferSurface(dpy, cfg, ints(EGL_WIDTH, 4, EGL_HEIGHT, 4, *attrs))
    err = egl.eglGetError()
    check(bool(s) == (want == EGL_SUCCESS) and err == want, f"{what}: surface {bool(s)}, error {err:#x}")
    return s


tex_pb = pbuffer(rgba_cfg, EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D,
                 what="RGBA texture pbuffer")
rgb_pb = pbuffer(rgb_cfg, EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGB, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D,
                 what="RGB texture pbuffer")
plain = pbuffer(rgba_cfg, what="plain pbuffer")
pbuffer(rgba_cfg, EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, want=EGL_BAD_MATCH, what="a format without a target")
pbuffer(rgba_cfg, EGL_TEXTURE_FORMAT, 0x1234, EGL_TEXTURE_TARGET, EGL_TEXTURE_2D, want=EGL_BAD_ATTRIBUTE,
        what="a format that is none")
pbuffer(rgba_cfg, EGL_GL_COLORSPACE, 0x1234, want=EGL_BAD_ATTRIBUTE, what="a colorspace that is none")
srgb_pb = pbuffer(rgba_cfg, EGL_GL_COLORSPACE, EGL_GL_COLORSPACE_SRGB, what="sRGB pbuffer")

egl.eglBindAPI(EGL_OPENGL_ES_API)
# EGL_KHR_no_config_context: one context for the RGB and RGBA configs' surfaces
ctx = egl.eglCreateContext(dpy, None, None, ints(EGL_CONTEXT_CLIENT_VERSION, 2))
assert ctx, hex(egl.eglGetError())


def gl(name, res, *args):
    return ctypes.CFUNCTYPE(res, *args)(egl.eglGetProcAddress(name.encode()))


F = ctypes.c_float
glClearColor = gl("glClearColor", None, F, F, F, F)
glClear = gl("glClear", None, cu)
glEnable, glDisable = gl("glEnable", None, cu), gl("glDisable", None, cu)
glScissor = gl("glScissor", None, ci, ci, ci, ci)
glReadPixels = gl("glReadPixels", None, ci, ci, ci, ci, cu, cu, vp)
glGenTextures = gl("glGenTextures", None, ci, vp)
glBindTexture = gl("glBindTexture", None, cu, cu)
glDeleteTextures = gl("glDeleteTextures", None, ci, vp)
glTexParameteri = gl("glTexParameteri", None, cu, cu, ci)
glCreateShader, glCreateProgram = gl("glCreateShader", cu, cu), gl("glCreateProgram", cu)
glShaderSource = gl("glShaderSource", None, cu, ci, vp, vp)
glCompileShader, glAttachShader = gl("glCompileShader", None, cu), gl("glAttachShader", None, cu, cu)
glBindAttribLocation = gl("glBindAttribLocation", None, cu, cu, ctypes.c_char_p)
glLinkProgram, glUseProgram = gl("glLinkProgram", None, cu), gl("glUseProgram", None, cu)
glVertexAttribPointer = gl("glVertexAttribPointer", None, cu, ci, cu, ctypes.c_ubyte, ci, vp)
glEnableVertexAttribArray = gl("glEnableVertexAttribArray", None, cu)
glDrawArrays = gl("glDrawArrays", None, cu, ci, ci)
glFinish = gl("glFinish", None)
GL_COLOR_BUFFER_BIT, GL_SCISSOR_TEST, GL_RGBA, GL_UNSIGNED_BYTE = 0x4000, 0x0C11, 0x1908, 0x1401
GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_TEXTURE_MAG_FILTER, GL_NEAREST = 0x0DE1, 0x2801, 0x2800, 0x2600
GL_FLOAT, GL_TRIANGLE_STRIP = 0x1406, 0x5


def pixels():
    px = (ctypes.c_ubyte * 64)()
    glFinish()
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px)
    return [tuple(px[i:i + 4]) for i in range(0, 64, 4)]     # rows bottom-up, 4 pixels each


RED, GREEN = (255, 0, 0, 255), (0, 255, 0, 255)
# the RGBA texture pbuffer: red, the two bottom rows green
assert egl.eglMakeCurrent(dpy, tex_pb, tex_pb, ctx)
glClearColor(1, 0, 0, 1)
glClear(GL_COLOR_BUFFER_BIT)
glEnable(GL_SCISSOR_TEST)
glScissor(0, 0, 4, 2)
glClearColor(0, 1, 0, 1)
glClear(GL_COLOR_BUFFER_BIT)
glDisable(GL_SCISSOR_TEST)
expected = [GREEN] * 8 + [RED] * 8
check(pixels() == expected, f"the texture pbuffer reads {pixels()}")
# the RGB one: blue, alpha 0.5
assert egl.eglMakeCurrent(dpy, rgb_pb, rgb_pb, ctx)
glClearColor(0, 0, 1, 0.5)
glClear(GL_COLOR_BUFFER_BIT)
glFinish()

# draw each through a texture over the plain pbuffer
assert egl.eglMakeCurrent(dpy, plain, plain, ctx)
prog = glCreateProgram()
for kind, src in ((0x8B31, b"attribute vec2 p; varying vec2 tc;\n"
                           b"void main() { tc = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }"),
                  (0x8B30, b"precision mediump float; uniform sampler2D t; varying vec2 tc;\n"
                           b"void main() { gl_FragColor = texture2D(t, tc); }")):
    sh = glCreateShader(kind)
    glShaderSource(sh, 1, ctypes.byref(ctypes.c_char_p(src)), None)
    glCompileShader(sh)
    glAttachShader(prog, sh)
glBindAttribLocation(prog, 0, b"p")
glLinkProgram(prog)
glUseProgram(prog)
quad = (F * 8)(-1, -1, 1, -1, -1, 1, 1, 1)
glVertexAttribPointer(0, 2, GL_FLOAT, 0, 0, quad)
glEnableVertexAttribArray(0)
tex = cu()
glGenTextures(1, ctypes.byref(tex))
glBindTexture(GL_TEXTURE_2D, tex.value)
glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST)
glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST)


def draw():
    glClearColor(0.2, 0.2, 0.2, 0.2)
    glClear(GL_COLOR_BUFFER_BIT)
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4)
    return pixels()


check(egl.eglBindTexImage(dpy, tex_pb, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_SUCCESS, "bind")
check(draw() == expected, f"the bound texture draws {draw()}")
check(not egl.eglBindTexImage(dpy, tex_pb, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_BAD_ACCESS,
      "binding a bound pbuffer again is not EGL_BAD_ACCESS")
check(not egl.eglBindTexImage(dpy, plain, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_BAD_MATCH,
      "binding a pbuffer without a texture format is not EGL_BAD_MATCH")
check(not egl.eglBindTexImage(dpy, rgb_pb, EGL_FRONT_BUFFER) and egl.eglGetError() == EGL_BAD_PARAMETER,
      "binding EGL_FRONT_BUFFER is not EGL_BAD_PARAMETER")
check(egl.eglReleaseTexImage(dpy, tex_pb, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_SUCCESS, "release")
check(draw() == [(0, 0, 0, 255)] * 16, f"after the release the texture draws {draw()}")
check(egl.eglReleaseTexImage(dpy, tex_pb, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_SUCCESS,
      "a second release is not a no-op")
check(egl.eglBindTexImage(dpy, rgb_pb, EGL_BACK_BUFFER), "bind RGB")
check(draw() == [(0, 0, 255, 255)] * 16, f"the RGB pbuffer draws {draw()}")
glDeleteTextures(1, ctypes.byref(tex))               # the binding ends with the texture
check(egl.eglReleaseTexImage(dpy, rgb_pb, EGL_BACK_BUFFER) and egl.eglGetError() == EGL_SUCCESS,
      "releasing the pbuffer of a deleted texture")

# EGL_KHR_gl_colorspace: writes to an sRGB surface are encoded (GLES always encodes)
for surf, want_space, want_green in ((srgb_pb, EGL_GL_COLORSPACE_SRGB, 170), (plain, EGL_GL_COLORSPACE_LINEAR, 102)):
    value = ci()
    egl.eglQuerySurface(dpy, surf, EGL_GL_COLORSPACE, ctypes.byref(value))
    check(value.value == want_space, f"EGL_GL_COLORSPACE reads {value.value:#x}")
    assert egl.eglMakeCurrent(dpy, surf, surf, ctx)
    glClearColor(0, 0.4, 0, 1)
    glClear(GL_COLOR_BUFFER_BIT)
    got = pixels()[5]
    check(got[1] == want_green and got[3] == 255, f"colorspace {want_space:#x}: a 0.4 green clear stores {got}")

egl.eglMakeCurrent(dpy, None, None, None)
for s in (tex_pb, rgb_pb, plain, srgb_pb):
    egl.eglDestroySurface(dpy, s)
egl.eglTerminate(dpy)
for f in failures:
    print("FAIL", f)
print("OK" if not failures else f"{len(failures)} failures")
sys.exit(1 if failures else 0)
