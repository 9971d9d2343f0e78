"""KHR_debug's counted strings and GL calls at interpreter exit, as wgpu's GL
backend makes them (run with the environment of `shimgl env`), through ctypes
function pointers from eglGetProcAddress, as a C or Rust program calls them:

- glObjectLabel, glPushDebugGroup and glDebugMessageInsert with a length and a
  string that is NOT NUL-terminated, placed right before an unreadable page: the
  driver must read `length` characters, not look for a terminator (a read past
  them faults);
- objects deleted by a destructor while the interpreter shuts down (wgpu drops
  its GL objects then) and a context finished, unbound and destroyed then (VTK's
  render window): the calls are quietly ignored (the releases succeed), nothing
  is printed."""

import ctypes
import mmap
import sys

EGL_DEFAULT_DISPLAY, EGL_NONE = 0, 0x3038
EGL_OPENGL_ES_API, EGL_CONTEXT_MAJOR_VERSION = 0x30A0, 0x3098
EGL_CONTEXT_MINOR_VERSION = 0x30FB
GL_TEXTURE, GL_DEBUG_SOURCE_APPLICATION = 0x1702, 0x824A
GL_DEBUG_TYPE_MARKER, GL_DEBUG_SEVERITY_NOTIFICATION = 0x8268, 0x826B
GL_DEBUG_OUTPUT, GL_DEBUG_OUTPUT_SYNCHRONOUS = 0x92E0, 0x8242

egl = ctypes.CDLL("libEGL.so.1")
egl.eglGetDisplay.restype = ctypes.c_void_p
egl.eglGetDisplay.argtypes = [ctypes.c_void_p]
egl.eglInitialize.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
egl.eglCreateContext.restype = ctypes.c_void_p
egl.eglCreateContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
egl.eglMakeCurrent.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p]
egl.eglGetProcAddress.restype = ctypes.c_void_p
egl.eglGetProcAddress.argtypes = [ctypes.c_char_p]

dpy = egl.eglGetDisplay(EGL_DEFAULT_DISPLAY)
assert egl.eglInitialize(dpy, None, None)
assert egl.eglBindAPI(EGL_OPENGL_ES_API)
attrs = (ctypes.c_int * 5)(EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE)
ctx = egl.eglCreateContext(dpy, None, None, attrs)     # EGL_KHR_no_config_context
assert ctx and egl.eglMakeCurrent(dpy, None, None, ctx)

U, I, P = ctypes.c_uint, ctypes.c_int, ctypes.c_void_p


def gl(name, *argtypes, restype=None):
    addr = egl.eglGetProcAddress(name.encode())
    assert addr, name
    return ctypes.CFUNCTYPE(restype, *argtypes)(addr)


glGenTextures = gl("glGenTextures", I, P)
glBindTexture = gl("glBindTexture", U, U)
glDeleteTextures = gl("glDeleteTextures", I, P)
glObjectLabel = gl("glObjectLabel", U, U, I, P)
glGetObjectLabel = gl("glGetObjectLabel", U, U, I, P, P)
glPushDebugGroup = gl("glPushDebugGroup", U, U, I, P)
glPopDebugGroup = gl("glPopDebugGroup")
glDebugMessageInsert = gl("glDebugMessageInsert", U, U, U, U, I, P)
glGetError = gl("glGetError", restype=U)

# a readable page followed by one that is not: a string ends right at the boundary
page = mmap.PAGESIZE
area = mmap.mmap(-1, 2 * page, prot=mmap.PROT_READ | mmap.PROT_WRITE)
base = ctypes.addressof(ctypes.c_char.from_buffer(area))
libc = ctypes.CDLL(None)
libc.mprotect.argtypes = [P, ctypes.c_size_t, I]
assert libc.mprotect(base + page, page, 0) == 0     # PROT_NONE


def unterminated(text: bytes) -> int:
    """The address of ``text`` placed so that its last byte is the page's last."""
    addr = base + page - len(text)
    ctypes.memmove(addr, text, len(text))
    return addr


tex = (U * 1)()
glGenTextures(1, tex)
glBindTexture(0x0DE1, tex[0])
glObjectLabel(GL_TEXTURE, tex[0], 7, unterminated(b"labeled"))
out, n = ctypes.create_string_buffer(64), (I * 1)()
glGetObjectLabel(GL_TEXTURE, tex[0], 64, n, out)
assert (out.value, n[0]) == (b"labeled", 7), (out.value, n[0])
glObjectLabel(GL_TEXTURE, tex[0], -1, ctypes.c_char_p(b"terminated"))     # negative: up to the NUL
glGetObjectLabel(GL_TEXTURE, tex[0], 64, n, out)
assert out.value == b"terminated", out.value
glPushDebugGroup(GL_DEBUG_SOURCE_APPLICATION, 1, 5, unterminated(b"group"))
glPopDebugGroup()
glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 2, GL_DEBUG_SEVERITY_NOTIFICATION, 6,
                     unterminated(b"marker"))
assert glGetError() == 0


class Texture:
    """Deletes its texture when collected, as wgpu's GL objects do when dropped."""

    def __init__(self):
        self.name = (U * 1)()
        glGenTextures(1, self.name)
        self.delete = glDeleteTextures

    def __del__(self):
        self.delete(1, self.name)


class Context:
    """Finishes, unbinds and destroys its EGL context when collected, as VTK's
    render window does from its C++ destructor at the host's exit."""

    def __init__(self):
        self.finish, self.egl, self.dpy, self.ctx = gl("glFinish"), egl, dpy, ctx
        egl.eglDestroyContext.argtypes = [ctypes.c_void_p, ctypes.c_void_p]

    def __del__(self):
        self.finish()
        assert self.egl.eglMakeCurrent(self.dpy, None, None, None) == 1
        assert self.egl.eglDestroyContext(self.dpy, self.ctx) == 1


KEPT = [Texture() for _ in range(3)] + [Context()]     # collected while the interpreter shuts down
print("OK")
sys.stdout.flush()
