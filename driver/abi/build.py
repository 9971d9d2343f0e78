"""Build shimgl's C ABI: generate from the Khronos registry, compile with cffi's
embedding mode, link.

    python driver/abi/build.py OUTDIR        # what the install hook runs

Outputs in OUTDIR (see README.md):
  libshimgl.so         the embedded-Python library: every GL/GLES/EGL command of
                       gl.xml + egl.xml, OSMesa*, __egl_Main; SONAME libOSMesa.so.8
  libOSMesa.so.8       symlink to libshimgl.so (+ libOSMesa.so): what PyOpenGL's
                       osmesa platform and OSMesa programs open
  libEGL_shimgl.so.0   symlink to libshimgl.so, named by the glvnd vendor JSON
  libGLX_shimgl.so.0   symlink to libshimgl.so: glvnd's GLX vendor "shimgl" (__glx_Main)
  50_shimgl.json       the glvnd EGL vendor file (__EGL_VENDOR_LIBRARY_FILENAMES)
  _commands.py         generated Python marshalling, one function per command
  _eglenums.py         generated EGL_* constants

Standard library + cffi only: it runs inside pip's isolated build environment,
where shimgl itself (numpy, ...) is not importable, so it is loaded by file path
(never as driver.abi.build)."""

from __future__ import annotations

import dataclasses
import json
import keyword
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _load_sibling(name: str, path: Path | None = None):
    """A module of this directory (or the stdlib-only file `path`), by path (never
    through sys.path: a module of the same name elsewhere must not be picked up)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(f"_shimgl_abi_{name}", path or HERE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module       # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


registry = _load_sibling("registry")
# the GL context's answer words by name (ERROR, CHECKED, IDLE): FAST_ANSWERS below
ANSWER_WORDS_PY = HERE.parent / "gl" / "answer_words.py"
answer_words = _load_sibling("answer_words", ANSWER_WORDS_PY)

__all__ = ["BuildError", "build", "main"]

LIBRARY = "libshimgl.so"
OSMESA = "libOSMesa.so.8"
EGL_VENDOR = "libEGL_shimgl.so.0"
GLX_VENDOR = "libGLX_shimgl.so.0"      # glvnd's libGLX loads libGLX_<__GLX_VENDOR_LIBRARY_NAME>.so.0
VENDOR_JSON = "50_shimgl.json"
COMMANDS_PY = "_commands.py"
EGL_ENUMS_PY = "_eglenums.py"
STAMP = ".build-stamp"
EMBED_MODULE = "_shimgl_embed"


class BuildError(RuntimeError):
    """A prerequisite is missing (compiler, shared libpython, registry)."""


# The C types the registry's commands use. One block serves cffi's cdef and the C
# source (cffi needs full definitions; the C side gets the same text).
TYPEDEFS = """
typedef unsigned int GLenum; typedef unsigned char GLboolean; typedef unsigned int GLbitfield;
typedef void GLvoid; typedef signed char GLbyte; typedef unsigned char GLubyte;
typedef short GLshort; typedef unsigned short GLushort; typedef int GLint; typedef unsigned int GLuint;
typedef int GLclampx; typedef int GLsizei; typedef float GLfloat; typedef float GLclampf;
typedef double GLdouble; typedef double GLclampd; typedef void *GLeglClientBufferEXT;
typedef void *GLeglImageOES; typedef char GLchar; typedef char GLcharARB;
typedef unsigned int GLhandleARB; typedef unsigned short GLhalf; typedef unsigned short GLhalfARB;
typedef int GLfixed; typedef long GLintptr; typedef long GLintptrARB; typedef long GLsizeiptr;
typedef long GLsizeiptrARB; typedef int64_t GLint64; typedef int64_t GLint64EXT;
typedef uint64_t GLuint64; typedef uint64_t GLuint64EXT; typedef struct __GLsync *GLsync;
struct _cl_context; struct _cl_event;
typedef void (*GLDEBUGPROC)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar *message, const void *userParam);
typedef void (*GLDEBUGPROCARB)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar *message, const void *userParam);
typedef void (*GLDEBUGPROCKHR)(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length, const GLchar *message, const void *userParam);
typedef void (*GLDEBUGPROCAMD)(GLuint id, GLenum category, GLenum severity, GLsizei length, const GLchar *message, void *userParam);
typedef unsigned short GLhalfNV; typedef long GLvdpauSurfaceNV; typedef void (*GLVULKANPROCNV)(void);
typedef int32_t EGLint; typedef unsigned int EGLBoolean; typedef unsigned int EGLenum;
typedef intptr_t EGLAttribKHR; typedef intptr_t EGLAttrib; typedef void *EGLClientBuffer;
typedef void *EGLConfig; typedef void *EGLContext; typedef void *EGLDeviceEXT; typedef void *EGLDisplay;
typedef void *EGLImage; typedef void *EGLImageKHR; typedef void *EGLLabelKHR; typedef void *EGLObjectKHR;
typedef void *EGLOutputLayerEXT; typedef void *EGLOutputPortEXT; typedef void *EGLStreamKHR;
typedef void *EGLSurface; typedef void *EGLSync; typedef void *EGLSyncKHR; typedef void *EGLSyncNV;
typedef void (*__eglMustCastToProperFunctionPointerType)(void);
typedef uint64_t EGLTimeKHR; typedef uint64_t EGLTime; typedef uint64_t EGLTimeNV;
typedef uint64_t EGLuint64NV; typedef uint64_t EGLuint64KHR; typedef int64_t EGLnsecsANDROID;
typedef int EGLNativeFileDescriptorKHR; typedef long EGLsizeiANDROID;
typedef void (*EGLSetBlobFuncANDROID)(const void *key, EGLsizeiANDROID keySize, const void *value, EGLsizeiANDROID valueSize);
typedef EGLsizeiANDROID (*EGLGetBlobFuncANDROID)(const void *key, EGLsizeiANDROID keySize, void *value, EGLsizeiANDROID valueSize);
struct EGLClientPixmapHI { void *pData; EGLint iWidth; EGLint iHeight; EGLint iStride; };
typedef void (*EGLDEBUGPROCKHR)(EGLenum error, const char *command, EGLint messageType, EGLLabelKHR threadLabel, EGLLabelKHR objectLabel, const char *message);
typedef void *EGLNativeDisplayType; typedef unsigned long EGLNativePixmapType;
typedef unsigned long EGLNativeWindowType;
struct AHardwareBuffer; struct wl_buffer; struct wl_display; struct wl_resource;
typedef void *OSMesaContext; typedef void (*OSMESAproc)(void);
typedef struct _XDisplay Display; typedef unsigned long XID; typedef XID Window; typedef XID Pixmap;
typedef XID Font; typedef XID GLXDrawable; typedef XID GLXPixmap; typedef XID GLXWindow;
typedef XID GLXPbuffer; typedef int Bool; typedef struct __GLXcontextRec *GLXContext;
typedef struct __GLXFBConfigRec *GLXFBConfig; typedef struct _shimgl_XVisualInfo XVisualInfo;
"""

# OSMesa (Mesa's osmesa.h API; not in the Khronos registry).
OSMESA_COMMANDS = [
    ("OSMesaContext", "OSMesaCreateContext", "GLenum format, OSMesaContext sharelist"),
    ("OSMesaContext", "OSMesaCreateContextExt",
     "GLenum format, GLint depthBits, GLint stencilBits, GLint accumBits, OSMesaContext sharelist"),
    ("OSMesaContext", "OSMesaCreateContextAttribs", "const int *attribList, OSMesaContext sharelist"),
    ("void", "OSMesaDestroyContext", "OSMesaContext ctx"),
    ("GLboolean", "OSMesaMakeCurrent",
     "OSMesaContext ctx, void *buffer, GLenum type, GLsizei width, GLsizei height"),
    ("OSMesaContext", "OSMesaGetCurrentContext", "void"),
    ("void", "OSMesaPixelStore", "GLint pname, GLint value"),
    ("void", "OSMesaGetIntegerv", "GLint pname, GLint *value"),
    ("GLboolean", "OSMesaGetDepthBuffer",
     "OSMesaContext c, GLint *width, GLint *height, GLint *bytesPerValue, void **buffer"),
    ("GLboolean", "OSMesaGetColorBuffer",
     "OSMesaContext c, GLint *width, GLint *height, GLint *format, void **buffer"),
    ("void", "OSMesaColorClamp", "GLboolean enable"),
    ("void", "OSMesaPostprocess", "OSMesaContext osmesa, const char *filter, unsigned enable_value"),
]

# GLX 1.4 and the extensions shimgl's GLX vendor implements (driver/abi/glx.py).
# Not exported as symbols (glvnd's libGLX owns those names): reached through the
# vendor's getProcAddress (__glx_Main's imports) and our dispatch stubs.
# glXQueryExtension, glXQueryVersion, glXGetCurrent*, glXGetProcAddress: libGLX's own.
GLX_COMMANDS = [
    ("XVisualInfo *", "glXChooseVisual", "Display *dpy, int screen, int *attribList"),
    ("GLXContext", "glXCreateContext", "Display *dpy, XVisualInfo *vis, GLXContext shareList, Bool direct"),
    ("void", "glXDestroyContext", "Display *dpy, GLXContext ctx"),
    ("Bool", "glXMakeCurrent", "Display *dpy, GLXDrawable drawable, GLXContext ctx"),
    ("void", "glXCopyContext", "Display *dpy, GLXContext src, GLXContext dst, unsigned long mask"),
    ("void", "glXSwapBuffers", "Display *dpy, GLXDrawable drawable"),
    ("GLXPixmap", "glXCreateGLXPixmap", "Display *dpy, XVisualInfo *visual, Pixmap pixmap"),
    ("void", "glXDestroyGLXPixmap", "Display *dpy, GLXPixmap pixmap"),
    ("Bool", "glXIsDirect", "Display *dpy, GLXContext ctx"),
    ("int", "glXGetConfig", "Display *dpy, XVisualInfo *visual, int attrib, int *value"),
    ("void", "glXWaitGL", "void"),
    ("void", "glXWaitX", "void"),
    ("void", "glXUseXFont", "Font font, int first, int count, int list"),
    ("const char *", "glXQueryExtensionsString", "Display *dpy, int screen"),
    ("const char *", "glXQueryServerString", "Display *dpy, int screen, int name"),
    ("const char *", "glXGetClientString", "Display *dpy, int name"),
    ("GLXFBConfig *", "glXGetFBConfigs", "Display *dpy, int screen, int *nelements"),
    ("GLXFBConfig *", "glXChooseFBConfig", "Display *dpy, int screen, const int *attrib_list, int *nelements"),
    ("int", "glXGetFBConfigAttrib", "Display *dpy, GLXFBConfig config, int attribute, int *value"),
    ("XVisualInfo *", "glXGetVisualFromFBConfig", "Display *dpy, GLXFBConfig config"),
    ("GLXWindow", "glXCreateWindow", "Display *dpy, GLXFBConfig config, Window win, const int *attrib_list"),
    ("void", "glXDestroyWindow", "Display *dpy, GLXWindow win"),
    ("GLXPixmap", "glXCreatePixmap", "Display *dpy, GLXFBConfig config, Pixmap pixmap, const int *attrib_list"),
    ("void", "glXDestroyPixmap", "Display *dpy, GLXPixmap pixmap"),
    ("GLXPbuffer", "glXCreatePbuffer", "Display *dpy, GLXFBConfig config, const int *attrib_list"),
    ("void", "glXDestroyPbuffer", "Display *dpy, GLXPbuffer pbuf"),
    ("void", "glXQueryDrawable", "Display *dpy, GLXDrawable draw, int attribute, unsigned int *value"),
    ("GLXContext", "glXCreateNewContext",
     "Display *dpy, GLXFBConfig config, int render_type, GLXContext share_list, Bool direct"),
    ("Bool", "glXMakeContextCurrent", "Display *dpy, GLXDrawable draw, GLXDrawable read, GLXContext ctx"),
    ("int", "glXQueryContext", "Display *dpy, GLXContext ctx, int attribute, int *value"),
    ("void", "glXSelectEvent", "Display *dpy, GLXDrawable draw, unsigned long event_mask"),
    ("void", "glXGetSelectedEvent", "Display *dpy, GLXDrawable draw, unsigned long *event_mask"),
    ("GLXContext", "glXCreateContextAttribsARB",
     "Display *dpy, GLXFBConfig config, GLXContext share_context, Bool direct, const int *attrib_list"),
    ("void", "glXSwapIntervalEXT", "Display *dpy, GLXDrawable drawable, int interval"),
    ("int", "glXSwapIntervalMESA", "unsigned int interval"),
    ("int", "glXGetSwapIntervalMESA", "void"),
    ("int", "glXSwapIntervalSGI", "int interval"),
    ("Bool", "glXQueryRendererIntegerMESA",
     "Display *dpy, int screen, int renderer, int attribute, unsigned int *value"),
    ("Bool", "glXQueryCurrentRendererIntegerMESA", "int attribute, unsigned int *value"),
    ("const char *", "glXQueryRendererStringMESA", "Display *dpy, int screen, int renderer, int attribute"),
    ("const char *", "glXQueryCurrentRendererStringMESA", "int attribute"),
]
# GLX extension functions glvnd dispatches through the vendor's stubs, and how
# a stub finds the vendor: by the drawable (then the current context), by the
# display's screen, or the current context.
GLX_DISPATCHED = {"glXSwapIntervalEXT": "drawable", "glXSwapIntervalMESA": "current",
                  "glXGetSwapIntervalMESA": "current", "glXSwapIntervalSGI": "current",
                  "glXQueryRendererIntegerMESA": "screen", "glXQueryRendererStringMESA": "screen",
                  "glXQueryCurrentRendererIntegerMESA": "current",
                  "glXQueryCurrentRendererStringMESA": "current"}

# Implemented in C (never call Python): the lookups must work before Python starts.
C_ONLY = {"eglGetProcAddress", "OSMesaGetProcAddress"}

# Commands the library answers without Python while the calling thread's current
# context's answer words (shimgl_set_answers; driver/gl/answer_words.py) allow it:
# command -> the C condition (`a`: the words, named ERROR, CHECKED, IDLE) under which
# the call returns at once.
_WORD = {name: f"SHIMGL_A({index})" for name, index in answer_words.ANSWER_WORDS.items()}
FAST_ANSWERS = {
    "glGetError": "!{ERROR} && !{CHECKED}".format(**_WORD),   # no error pending, no checked dispatch (glBegin)
    "glFinish": "!{CHECKED} && {IDLE}".format(**_WORD),       # nothing recorded or submitted since a glFinish
    "glFlush": "!{CHECKED} && {IDLE}".format(**_WORD),
}

# Types that are opaque handles: Python sees an int.
HANDLE_TYPES = {"GLXContext", "GLXFBConfig", "GLsync", "EGLDisplay", "EGLConfig", "EGLContext", "EGLSurface", "EGLSync",
                "EGLSyncKHR", "EGLImage", "EGLImageKHR", "OSMesaContext", "EGLClientBuffer",
                "EGLDeviceEXT", "EGLNativeDisplayType", "EGLStreamKHR", "EGLLabelKHR",
                "EGLObjectKHR", "GLeglImageOES", "GLeglClientBufferEXT", "EGLSyncNV"}
CHAR_TYPES = {"GLchar", "GLcharARB", "char", "GLubyte"}


# ----------------------------------------------------------------------------
# the command list
# ----------------------------------------------------------------------------

def all_commands(registry_dir: Path) -> list[registry.Command]:
    cmds = registry.read_commands(registry_dir)
    for family, table in (("osmesa", OSMESA_COMMANDS), ("glx", GLX_COMMANDS)):
        for ret, name, params in table:
            ps = []
            if params != "void":
                for decl in params.split(","):
                    m = re.match(r"\s*(.*?)(\w+)\s*$", decl)
                    ps.append(registry.Param(" ".join(m.group(1).replace("*", " *").split()),
                                             m.group(2), ""))
            cmds.append(registry.Command(name, ret, tuple(ps), family))
    cmds.append(registry.Command("OSMesaGetProcAddress", "OSMESAproc",
                                 (registry.Param("const char *", "funcName", ""),), "osmesa"))
    return sorted(cmds, key=lambda c: c.name)


def _zero(ret: str) -> str:
    return "0" if "*" not in ret and ret not in HANDLE_TYPES and "proc" not in ret.lower() \
        else "NULL"


# ----------------------------------------------------------------------------
# C: cdef + source
# ----------------------------------------------------------------------------

def make_cdef(cmds) -> str:
    out = [TYPEDEFS, """
void shimgl_set_impl(int index, int on);
void shimgl_set_ready(void);
int shimgl_lazy_binding(void);
const char *shimgl_so_path(void);
void shimgl_set_failed(void);
void shimgl_set_answers(void *words);
void *shimgl_get_proc_address(const char *name);
int shimgl_command_count(void);
extern "Python" void shimgl_py_init(void);
extern "Python" int shimgl_py_missing(int index);
extern "Python" void shimgl_py_bind(int index);
"""]
    for c in cmds:
        if c.name in C_ONLY:
            continue
        out.append(f'extern "Python" {c.ret} shimgl_py_{c.name}({c.c_params()});')
    return "\n".join(out)


C_PRELUDE = r"""
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <Python.h>
#include <pthread.h>
#include <unistd.h>
#define SHIMGL_EXPORT __attribute__((visibility("default")))
"""

C_HELPERS = r"""
static volatile int shimgl_ready;
/* Per command: 0 not looked up yet, 1 bound (its extern "Python" function has
   code attached), 2 missing (the Python side has no implementation). */
static unsigned char shimgl_impl[SHIMGL_NCOMMANDS];

void shimgl_set_impl(int index, int on) { if (index >= 0 && index < SHIMGL_NCOMMANDS) __atomic_store_n(&shimgl_impl[index], (unsigned char)on, __ATOMIC_RELEASE); }
void shimgl_set_ready(void) { __atomic_store_n(&shimgl_ready, 1, __ATOMIC_RELEASE); }
int shimgl_command_count(void) { return SHIMGL_NCOMMANDS; }
/* Tells the Python side (driver/abi/runtime.py) that commands are bound on
   their first call, through shimgl_py_bind, rather than all at start. */
int shimgl_lazy_binding(void) { return 1; }

/* The calling thread's current GL context's answer words (driver.gl.context's
   `answers`, named in driver/gl/answer_words.py: the pending GL error, non-zero
   while only Python may answer, 1 while a glFinish has nothing to wait for), or NULL: the commands of
   FAST_ANSWERS (build.py) then return at once when the words allow it, without
   entering Python. The Python side sets them at every make-current of the thread
   (NULL under SHIMGL_DEBUG=calls, which traces every call) and keeps them exact;
   they live in the context object, which stays alive while it is current. */
static __thread const int *shimgl_answers;
void shimgl_set_answers(void *words) { shimgl_answers = (const int *)words; }
#define SHIMGL_A(i) __atomic_load_n(&a[i], __ATOMIC_ACQUIRE)
#define SHIMGL_ANSWER(cond, ret) do { const int *a = shimgl_answers; if (a && (cond)) { ret; } } while (0)

/* 1 when command `index` has an implementation: on its first call the Python
   side looks it up and attaches it (shimgl_py_bind sets the state). */
static int shimgl_bound(int index)
{
    unsigned char s = __atomic_load_n(&shimgl_impl[index], __ATOMIC_ACQUIRE);
    if (__builtin_expect(s == 0, 0)) {
        shimgl_py_bind(index);
        s = __atomic_load_n(&shimgl_impl[index], __ATOMIC_ACQUIRE);
    }
    return s == 1;
}

/* ---- start-up ------------------------------------------------------------
   The first call of any command starts the Python side, once per process
   (shimgl_start): in a C host, cffi starts the interpreter the library was
   built for; in a Python host (PyOpenGL, moderngl) the host's interpreter runs
   it, if it is the same Python version (the C API of another one is not ours
   to call), after SHIMGL_HOST_BOOTSTRAP has made shimgl's own installation
   and dependencies importable ahead of the host's sys.path. When the Python
   side cannot start, one line on stderr says why and how to fix it, and every
   call fails: EGL calls with EGL_NOT_INITIALIZED, the others return 0/NULL. */
static volatile int shimgl_broken;     /* 1: the Python side cannot run in this process */
static __thread EGLint shimgl_c_egl_error = 0x3000;   /* EGL_SUCCESS; used while broken */
/* 0: not started, 1: a thread is starting it, 2: done (ready or broken) */
static int shimgl_start_state;
static pthread_mutex_t shimgl_start_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t shimgl_start_done = PTHREAD_COND_INITIALIZER;

void shimgl_set_failed(void) { shimgl_broken = 1; }

/* Before a C host's first call starts Python: name the interpreter the library
   was built for (a virtual environment's python included), so that Python finds
   its own standard library and site-packages instead of guessing from PATH. */
static void shimgl_set_program(void)
{
    static wchar_t *name;
    if (getenv("PYTHONHOME") || access(SHIMGL_PYTHON_EXECUTABLE, X_OK) != 0)
        return;
    name = Py_DecodeLocale(SHIMGL_PYTHON_EXECUTABLE, NULL);
    if (name)
        Py_SetProgramName(name);
}

/* The running interpreter is ours to call only if it has our major.minor
   version (the C API and ABI are per minor version). */
static int shimgl_host_compatible(void)
{
    const char *v = Py_GetVersion();
    size_t n = strlen(SHIMGL_PY_MAJMIN);
    int len, majmin;
    if (strncmp(v, SHIMGL_PY_MAJMIN, n) == 0 && (v[n] < '0' || v[n] > '9'))
        return 1;
    len = (int)strcspn(v, " ");
    majmin = (int)(strchr(v, '.') && strchr(strchr(v, '.') + 1, '.')
                   ? strchr(strchr(v, '.') + 1, '.') - v : len);
    fprintf(stderr, "shimgl: cannot run in this process: it runs Python %.*s, and %s was built "
            "for Python %s (%s); run the program with Python %s, or install shimgl into a "
            "Python %.*s environment and use that environment's `shimgl env`\n",
            len, v, shimgl_so_path(), SHIMGL_PY_MAJMIN, SHIMGL_PYTHON_EXECUTABLE,
            SHIMGL_PY_MAJMIN, majmin, v);
    return 0;
}

/* In a Python host, before cffi imports _cffi_backend: run the bootstrap. */
static int shimgl_prepare_host(void)
{
    PyGILState_STATE state = PyGILState_Ensure();
    PyObject *globals = PyDict_New(), *path = NULL, *r = NULL;
    int ok = 0;
    if (globals && PyDict_SetItemString(globals, "__builtins__", PyEval_GetBuiltins()) == 0
            && (path = PyUnicode_DecodeFSDefault(shimgl_so_path())) != NULL
            && PyDict_SetItemString(globals, "so_path", path) == 0)
        r = PyRun_String(SHIMGL_HOST_BOOTSTRAP, Py_file_input, globals, globals);
    if (r) {
        ok = 1;
    } else {
        PyObject *type, *value, *tb, *text = NULL;
        const char *msg = NULL;
        PyErr_Fetch(&type, &value, &tb);
        PyErr_NormalizeException(&type, &value, &tb);
        if (value && (text = PyObject_Str(value)) != NULL)
            msg = PyUnicode_AsUTF8(text);
        fprintf(stderr, "shimgl: cannot start in this process: %s\n", msg ? msg : "unknown error");
        PyErr_Clear();
        Py_XDECREF(text); Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
    }
    Py_XDECREF(r); Py_XDECREF(path); Py_XDECREF(globals);
    PyGILState_Release(state);
    return ok;
}

static void shimgl_start_once_fn(void)
{
    if (Py_IsInitialized()) {
        if (!shimgl_host_compatible() || !shimgl_prepare_host()) {
            shimgl_broken = 1;
            return;
        }
    } else {
        shimgl_set_program();
    }
    shimgl_py_init();
    if (!__atomic_load_n(&shimgl_ready, __ATOMIC_ACQUIRE) && !shimgl_broken) {
        fprintf(stderr, "shimgl: cannot start its Python side (the messages above say why); "
                "every GL, EGL and OSMesa call fails\n");
        shimgl_broken = 1;
    }
}

/* 1 when the Python side runs (the first call starts it), 0 when it cannot.
   Once per process, whichever thread comes first. In a process where Python
   runs, a thread takes the GIL before it looks (a caller that already holds it,
   a C extension calling us without releasing it, keeps it), and one that finds
   another thread starting shimgl waits without the GIL: the starting thread
   needs it. (With pthread_once, a thread holding the GIL waited for a starting
   thread that waited for the GIL.) */
static int shimgl_start(void)
{
    int python_runs = Py_IsInitialized();
    PyGILState_STATE gil = PyGILState_UNLOCKED;
    if (python_runs)
        gil = PyGILState_Ensure();
    pthread_mutex_lock(&shimgl_start_lock);
    while (shimgl_start_state == 1) {
        if (python_runs) {
            PyThreadState *saved;
            pthread_mutex_unlock(&shimgl_start_lock);
            saved = PyEval_SaveThread();
            pthread_mutex_lock(&shimgl_start_lock);
            while (shimgl_start_state == 1)
                pthread_cond_wait(&shimgl_start_done, &shimgl_start_lock);
            pthread_mutex_unlock(&shimgl_start_lock);
            PyEval_RestoreThread(saved);
            pthread_mutex_lock(&shimgl_start_lock);
        } else {
            pthread_cond_wait(&shimgl_start_done, &shimgl_start_lock);
        }
    }
    if (shimgl_start_state == 0) {
        shimgl_start_state = 1;
        pthread_mutex_unlock(&shimgl_start_lock);
        shimgl_start_once_fn();
        pthread_mutex_lock(&shimgl_start_lock);
        shimgl_start_state = 2;
        pthread_cond_broadcast(&shimgl_start_done);
    }
    pthread_mutex_unlock(&shimgl_start_lock);
    if (python_runs)
        PyGILState_Release(gil);
    return __atomic_load_n(&shimgl_ready, __ATOMIC_ACQUIRE) && !shimgl_broken;
}
/* Every command: start the Python side on the first call; once it has started,
   a host that embeds Python itself may have finalized its interpreter (Blender
   deletes shaders and contexts after Py_FinalizeEx): then the command fails at
   once instead of entering a Python that is gone. */
#define SHIMGL_ENTER_OR(fail) do { if (__builtin_expect(!__atomic_load_n(&shimgl_ready, __ATOMIC_ACQUIRE), 0)) { if (!shimgl_start()) { fail; } } else if (__builtin_expect(!Py_IsInitialized(), 0)) { fail; } } while (0)

/* A host that dlopens us RTLD_LOCAL (waffle does, for libEGL) leaves libpython's
   symbols local; Python extension modules (_cffi_backend, numpy) need them global. */
__attribute__((constructor)) static void shimgl_promote_libpython(void)
{
    Dl_info info;
    if (dladdr((void *)&Py_IsInitialized, &info) && info.dli_fname)
        dlopen(info.dli_fname, RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
}

const char *shimgl_so_path(void)
{
    Dl_info info;
    if (dladdr((void *)&shimgl_so_path, &info) && info.dli_fname)
        return info.dli_fname;
    return "";
}

struct shimgl_proc { const char *name; void *fn; };
static int shimgl_proc_cmp(const void *key, const void *entry)
{
    return strcmp((const char *)key, ((const struct shimgl_proc *)entry)->name);
}
"""

C_TAIL = r"""
SHIMGL_EXPORT void *shimgl_get_proc_address(const char *name)
{
    const struct shimgl_proc *p;
    if (!name) return NULL;
    p = bsearch(name, shimgl_procs, sizeof shimgl_procs / sizeof shimgl_procs[0],
                sizeof shimgl_procs[0], shimgl_proc_cmp);
    return p ? p->fn : NULL;
}

SHIMGL_EXPORT __eglMustCastToProperFunctionPointerType eglGetProcAddress(const char *procname)
{
    return (__eglMustCastToProperFunctionPointerType)shimgl_get_proc_address(procname);
}

SHIMGL_EXPORT OSMESAproc OSMesaGetProcAddress(const char *funcName)
{
    return (OSMESAproc)shimgl_get_proc_address(funcName);
}

/* ---- glvnd EGL vendor ABI (glvnd/libeglabi.h, ABI major version 0) ---------
   Only the parts we use are declared: __egl_Main receives the imports table and
   fills the function pointers glvnd calls. */
typedef struct {
    EGLDisplay (*getPlatformDisplay)(EGLenum platform, void *nativeDisplay, const EGLAttrib *attrib_list);
    EGLBoolean (*getSupportsAPI)(EGLenum api);
    const char *(*getVendorString)(int name);
    void *(*getProcAddress)(const char *procName);
    void *(*getDispatchAddress)(const char *procName);
    void (*setDispatchIndex)(const char *procName, int index);
    /* optional members follow in the real struct; left untouched (glvnd zeroes them) */
} shimgl_egl_imports;

static EGLDisplay shimgl_vendor_platform_display(EGLenum platform, void *native, const EGLAttrib *attribs)
{
    /* EGL_NONE: glvnd's eglGetDisplay(native) */
    if (platform == 0x3038 /* EGL_NONE */)
        return eglGetDisplay((EGLNativeDisplayType)native);
    return eglGetPlatformDisplay(platform, native, attribs);
}
static EGLBoolean shimgl_vendor_supports_api(EGLenum api)
{
    return api == 0x30A0 /* EGL_OPENGL_ES_API */ || api == 0x30A2 /* EGL_OPENGL_API */;
}
static const char *shimgl_vendor_string(int name)
{
    return name == 0 /* __EGL_VENDOR_STRING_PLATFORM_EXTENSIONS */ ? "EGL_MESA_platform_surfaceless" : NULL;
}

static void *shimgl_vendor_dispatch_address(const char *name)
{
    const struct shimgl_dispatch *d;
    if (!name) return NULL;
    d = bsearch(name, shimgl_dispatch_table, sizeof shimgl_dispatch_table / sizeof shimgl_dispatch_table[0],
                sizeof shimgl_dispatch_table[0], shimgl_dispatch_cmp);
    return d ? d->stub : NULL;
}
static void shimgl_vendor_set_dispatch_index(const char *name, int index)
{
    struct shimgl_dispatch *d;
    if (!name) return;
    d = bsearch(name, shimgl_dispatch_table, sizeof shimgl_dispatch_table / sizeof shimgl_dispatch_table[0],
                sizeof shimgl_dispatch_table[0], shimgl_dispatch_cmp);
    if (d) *d->index = index;
}

SHIMGL_EXPORT EGLBoolean __egl_Main(uint32_t version, const void *exports, void *vendor, void *imports)
{
    shimgl_egl_imports *im = imports;
    (void)vendor;
    if ((version >> 16) != 0)
        return 0;
    shimgl_glvnd = exports;
    im->getPlatformDisplay = shimgl_vendor_platform_display;
    im->getSupportsAPI = shimgl_vendor_supports_api;
    im->getVendorString = shimgl_vendor_string;
    im->getProcAddress = shimgl_get_proc_address;
    im->getDispatchAddress = shimgl_vendor_dispatch_address;
    im->setDispatchIndex = shimgl_vendor_set_dispatch_index;
    return 1;
}
"""


def _args(c) -> str:
    return ", ".join(p.name for p in c.params)


def make_source(cmds, site_dirs: list[str]) -> str:
    majmin = f"{sys.version_info[0]}.{sys.version_info[1]}"
    out = [C_PRELUDE, TYPEDEFS, f"#define SHIMGL_NCOMMANDS {len(cmds)}",
           f"#define SHIMGL_PYTHON_EXECUTABLE {json.dumps(sys.executable)}",
           f"#define SHIMGL_PY_MAJMIN {json.dumps(majmin)}",
           f"#define SHIMGL_HOST_BOOTSTRAP {_c_string(host_bootstrap_code(site_dirs))}",
           "const char *shimgl_so_path(void);", "void *shimgl_get_proc_address(const char *name);",
           # forward declarations of the extern "Python" functions cffi defines later
           "static void shimgl_py_init(void);", "static int shimgl_py_missing(int index);",
           "static void shimgl_py_bind(int index);"]
    for c in cmds:
        if c.name not in C_ONLY:
            out.append(f"static {c.ret} shimgl_py_{c.name}({c.c_params()});")
    out.append(C_HELPERS)
    for i, c in enumerate(cmds):
        if c.name in C_ONLY:
            out.append(f"SHIMGL_EXPORT {c.ret} {c.name}({c.c_params()});")
            continue
        call = f"shimgl_py_{c.name}({_args(c)})"
        fail = "return;" if c.ret == "void" else f"return ({c.ret}){_zero(c.ret)};"
        if c.name == "eglGetError":
            fail = "{ EGLint e = shimgl_c_egl_error; shimgl_c_egl_error = 0x3000; return e; }"
        elif c.family == "egl":
            fail = "shimgl_c_egl_error = 0x3001 /* EGL_NOT_INITIALIZED */; " + fail
        enter = f"SHIMGL_ENTER_OR({fail});"
        if c.name in FAST_ANSWERS:
            done = "return" if c.ret == "void" else f"return ({c.ret})0"
            enter += f" SHIMGL_ANSWER({FAST_ANSWERS[c.name]}, {done});"
        export = "static" if c.family == "glx" else "SHIMGL_EXPORT"
        if c.ret == "void":
            body = f"{enter} if (shimgl_bound({i})) {{ {call}; return; }} shimgl_py_missing({i});"
        else:
            body = (f"{enter} if (shimgl_bound({i})) return {call}; "
                    f"shimgl_py_missing({i}); return ({c.ret}){_zero(c.ret)};")
        out.append(f"{export} {c.ret} {c.name}({c.c_params()}) {{ {body} }}")
    out.append("static const struct shimgl_proc shimgl_procs[] = {")
    for c in cmds:   # sorted by name (strcmp order = Python's order for ASCII)
        out.append(f'    {{"{c.name}", (void *){c.name}}},')
    out.append("};")
    out.append(make_glvnd_dispatch(cmds))
    out.append(make_glx_vendor())
    out.append(C_TAIL)
    return "\n".join(out)


GLVND_EGL_EXPORTS = r"""
/* glvnd's exports (libeglabi.h, __EGLapiExports), in its order: what our
   dispatch stubs use to find the vendor of a display or device. */
typedef struct {
    void (*threadInit)(void);
    EGLenum (*getCurrentApi)(void);
    void *(*getCurrentVendor)(void);
    EGLContext (*getCurrentContext)(void);
    EGLDisplay (*getCurrentDisplay)(void);
    EGLSurface (*getCurrentSurface)(EGLint readDraw);
    void *(*fetchDispatchEntry)(void *vendor, int index);
    void (*setEGLError)(EGLint errorCode);
    EGLBoolean (*setLastVendor)(void *vendor);
    void *(*getVendorFromDisplay)(EGLDisplay dpy);
    void *(*getVendorFromDevice)(EGLDeviceEXT dev);
} shimgl_egl_exports;
static const shimgl_egl_exports *shimgl_glvnd;
"""


def make_glvnd_dispatch(cmds) -> str:
    """glvnd's dispatch stubs for EGL extension functions libEGL does not
    dispatch itself (eglQueryDeviceStringEXT, eglCreateSyncKHR, ...): glvnd
    asks the vendors for a stub (getDispatchAddress) and gives it an index
    (setDispatchIndex); the stub finds the vendor that owns the call's display
    or device (glvnd's exports) and calls that vendor's function
    (fetchDispatchEntry). Generated for every EGL command whose first
    parameter is an EGLDisplay or an EGLDeviceEXT."""
    out = [GLVND_EGL_EXPORTS,
           "struct shimgl_dispatch { const char *name; void *stub; int *index; };",
           "static int shimgl_dispatch_cmp(const void *key, const void *entry)",
           "{ return strcmp((const char *)key, ((const struct shimgl_dispatch *)entry)->name); }"]
    table = []
    for c in cmds:
        if c.family != "egl" or not c.params or c.params[0].c_type not in ("EGLDisplay", "EGLDeviceEXT"):
            continue
        first = c.params[0]
        lookup, err = (("getVendorFromDisplay", "0x3008 /* EGL_BAD_DISPLAY */")
                       if first.c_type == "EGLDisplay"
                       else ("getVendorFromDevice", "0x322B /* EGL_BAD_DEVICE_EXT */"))
        zero = "" if c.ret == "void" else f"({c.ret}){_zero(c.ret)}"
        ret = "return " if c.ret != "void" else ""
        out.append(f"static int shimgl_dispatch_index_{c.name} = -1;")
        out.append(
            f"static {c.ret} shimgl_dispatch_{c.name}({c.c_params()}) {{\n"
            f"    void *vendor = shimgl_glvnd ? shimgl_glvnd->{lookup}({first.name}) : NULL;\n"
            f"    {c.ret} (*fn)({c.c_params()}) = vendor && shimgl_dispatch_index_{c.name} >= 0\n"
            f"        ? ({c.ret} (*)({c.c_params()}))shimgl_glvnd->fetchDispatchEntry(vendor, shimgl_dispatch_index_{c.name}) : NULL;\n"
            f"    if (!fn) {{ if (shimgl_glvnd) shimgl_glvnd->setEGLError({err}); return {zero}; }}\n"
            f"    shimgl_glvnd->setLastVendor(vendor);\n"
            f"    {ret}fn({_args(c)});\n}}")
        table.append(f'    {{"{c.name}", (void *)shimgl_dispatch_{c.name}, &shimgl_dispatch_index_{c.name}}},')
    out.append("static struct shimgl_dispatch shimgl_dispatch_table[] = {")
    out += table
    out.append("};")
    return "\n".join(out)


GLX_VENDOR_C = r"""
/* ---- glvnd GLX vendor ABI (glvnd/libglxabi.h, ABI major version 1) ---------
   libGLX_shimgl.so.0 (__GLX_VENDOR_LIBRARY_NAME=shimgl): __glx_Main fills the
   imports; libGLX calls our GLX functions through getProcAddress. Our own
   declarations of the parts we use, in glvnd's order. */
typedef struct {
    void *(*getDynDispatch)(Display *dpy, const int screen);
    void *(*getCurrentDynDispatch)(void);
    void *(*fetchDispatchEntry)(void *vendor, int index);
    GLXContext (*getCurrentContext)(void);
    int (*addVendorContextMapping)(Display *dpy, GLXContext context, void *vendor);
    void (*removeVendorContextMapping)(Display *dpy, GLXContext context);
    void *(*vendorFromContext)(GLXContext context);
    int (*addVendorFBConfigMapping)(Display *dpy, GLXFBConfig config, void *vendor);
    void (*removeVendorFBConfigMapping)(Display *dpy, GLXFBConfig config);
    void *(*vendorFromFBConfig)(Display *dpy, GLXFBConfig config);
    int (*addVendorDrawableMapping)(Display *dpy, GLXDrawable drawable, void *vendor);
    void (*removeVendorDrawableMapping)(Display *dpy, GLXDrawable drawable);
    void *(*vendorFromDrawable)(Display *dpy, GLXDrawable drawable);
} shimgl_glx_exports;
typedef struct {
    Bool (*isScreenSupported)(Display *dpy, int screen);
    void *(*getProcAddress)(const GLubyte *procName);
    void *(*getDispatchAddress)(const GLubyte *procName);
    void (*setDispatchIndex)(const GLubyte *procName, int index);
    Bool (*notifyError)(Display *dpy, unsigned char error, XID resid, unsigned char opcode, Bool coreX11error);
    /* optional members follow (patching); left untouched: glvnd zeroes them */
} shimgl_glx_imports;
static const shimgl_glx_exports *shimgl_glvnd_glx;

static Bool shimgl_glx_screen_supported(Display *dpy, int screen) { (void)dpy; (void)screen; return 1; }
/* The GLX functions libGLX implements itself. glvnd also asks the current
   vendor for them when a program resolves them as GL functions, as apitrace's
   eglretrace does (eglGetProcAddress("glXGetCurrentDisplay") gives a GL
   dispatch stub whose slot the current vendor fills): we answer with libGLX's
   own, as Mesa's vendor answers with its implementations. Left NULL, glvnd's
   no-op stub returned a garbage Display * that eglretrace passed to XGetGeometry. */
static const char *const shimgl_libglx_names[] = {
    "glXGetCurrentContext", "glXGetCurrentDisplay", "glXGetCurrentDrawable",
    "glXGetCurrentReadDrawable", "glXGetProcAddress", "glXGetProcAddressARB",
    "glXQueryExtension", "glXQueryVersion",
};
static void *shimgl_libglx_function(const char *name)
{
    void *fn = NULL, *libglx;
    size_t i;
    for (i = 0; i < sizeof shimgl_libglx_names / sizeof shimgl_libglx_names[0]; i++)
        if (strcmp(name, shimgl_libglx_names[i]) == 0)
            break;
    if (i == sizeof shimgl_libglx_names / sizeof shimgl_libglx_names[0])
        return NULL;
    libglx = dlopen("libGLX.so.0", RTLD_LAZY | RTLD_NOLOAD);    /* it loaded us */
    if (libglx) {
        fn = dlsym(libglx, name);
        dlclose(libglx);
    }
    return fn;
}
static void *shimgl_glx_proc_address(const GLubyte *name)
{
    void *fn = shimgl_get_proc_address((const char *)name);
    return fn || !name ? fn : shimgl_libglx_function((const char *)name);
}
static Bool shimgl_glx_notify_error(Display *dpy, unsigned char error, XID resid, unsigned char opcode, Bool core)
{ (void)dpy; (void)error; (void)resid; (void)opcode; (void)core; return 1; }
"""


def make_glx_vendor() -> str:
    """__glx_Main and the dispatch stubs of the GLX extension functions glvnd
    does not dispatch itself (GLX_DISPATCHED)."""
    out = [GLX_VENDOR_C]
    names = sorted(GLX_DISPATCHED)
    by_name = {ret_name[1]: ret_name for ret_name in GLX_COMMANDS}
    for name in names:
        ret, _, params = by_name[name]
        args = ", ".join(re.match(r".*?(\w+)\s*$", d).group(1) for d in params.split(",")) \
            if params != "void" else ""
        how = GLX_DISPATCHED[name]
        lookup = {"drawable": "shimgl_glvnd_glx->vendorFromDrawable(dpy, drawable)",
                  "screen": "shimgl_glvnd_glx->getDynDispatch(dpy, screen)"}.get(how, "NULL")
        zero = "" if ret == "void" else f"({ret})0"
        out.append(f"static int shimgl_glx_index_{name} = -1;")
        out.append(
            f"static {ret} shimgl_glx_dispatch_{name}({params}) {{\n"
            f"    void *vendor = {lookup};\n"
            f"    {ret} (*fn)({params});\n"
            f"    if (!vendor) vendor = shimgl_glvnd_glx->getCurrentDynDispatch();\n"
            f"    fn = vendor && shimgl_glx_index_{name} >= 0 ? ({ret} (*)({params}))"
            f"shimgl_glvnd_glx->fetchDispatchEntry(vendor, shimgl_glx_index_{name}) : NULL;\n"
            f"    if (!fn) return {zero};\n"
            f"    {'return ' if ret != 'void' else ''}fn({args});\n}}")
    out.append("static struct shimgl_dispatch shimgl_glx_dispatch_table[] = {")
    out += [f'    {{"{n}", (void *)shimgl_glx_dispatch_{n}, &shimgl_glx_index_{n}}},' for n in names]
    out.append("};")
    out.append(r"""
static void *shimgl_glx_dispatch_address(const GLubyte *name)
{
    const struct shimgl_dispatch *d = name ? bsearch(name, shimgl_glx_dispatch_table,
        sizeof shimgl_glx_dispatch_table / sizeof shimgl_glx_dispatch_table[0],
        sizeof shimgl_glx_dispatch_table[0], shimgl_dispatch_cmp) : NULL;
    return d ? d->stub : NULL;
}
static void shimgl_glx_set_dispatch_index(const GLubyte *name, int index)
{
    struct shimgl_dispatch *d = name ? bsearch(name, shimgl_glx_dispatch_table,
        sizeof shimgl_glx_dispatch_table / sizeof shimgl_glx_dispatch_table[0],
        sizeof shimgl_glx_dispatch_table[0], shimgl_dispatch_cmp) : NULL;
    if (d) *d->index = index;
}
SHIMGL_EXPORT Bool __glx_Main(uint32_t version, const void *exports, void *vendor, void *imports)
{
    shimgl_glx_imports *im = imports;
    (void)vendor;
    if ((version >> 16) != 1)
        return 0;
    shimgl_glvnd_glx = exports;
    im->isScreenSupported = shimgl_glx_screen_supported;
    im->getProcAddress = shimgl_glx_proc_address;
    im->getDispatchAddress = shimgl_glx_dispatch_address;
    im->setDispatchIndex = shimgl_glx_set_dispatch_index;
    im->notifyError = shimgl_glx_notify_error;
    return 1;
}
""")
    return "\n".join(out)


# ----------------------------------------------------------------------------
# Python: one marshalling function per command (driver.abi.marshal's helpers)
# ----------------------------------------------------------------------------

_POINTER_ARRAY_CMDS = re.compile(r"^gl(VertexAttrib[IL]?Pointer|VertexPointer|NormalPointer|ColorPointer|"
                                 r"TexCoordPointer|SecondaryColorPointer|FogCoordPointer|"
                                 r"EdgeFlagPointer|IndexPointer|InterleavedArrays)(ARB|EXT)?$")
_PIXEL_IN = re.compile(r"^gl(Tex(Sub)?Image[123]D|TextureSubImage[123]D|DrawPixels)(EXT|OES)?$")


# Commands whose array holds `count` elements of several values each: the
# registry says only COMPSIZE(count) (or nothing, for some vendor variants).
# Keyed by the name without its vendor suffix.
PER_ELEMENT = {"glViewportArrayv": 4, "glScissorArrayv": 4, "glScissorExclusiveArrayv": 4,
               "glDepthRangeArrayv": 2, "glDepthRangeArrayfv": 2, "glDepthRangeArraydv": 2,
               "glMulticastViewportArrayv": 4, "glMulticastScissorArrayv": 4,
               "glTransformFeedbackAttribs": 3}
_VENDOR_SUFFIX = re.compile(r"(ARB|EXT|NVX|NV|OES|KHR|AMD|APPLE|INTEL|MESA|SGIX|SGIS|SGI|ATI|IBM|"
                            r"SUN|QCOM|IMG|ANGLE|HP|PGI|OVR)$")


def _pyname(n: str) -> str:
    return n + "_" if keyword.iskeyword(n) or n in ("ctx", "M") else n


def _base(c_type: str) -> str:
    return c_type.replace("const", "").replace("*", "").replace("struct", "").strip()


def _len_expr(length: str, names: dict[str, str]) -> str | None:
    """A Python expression for the registry's len attribute, or None when it
    depends on state (COMPSIZE) or is absent."""
    if not length or "COMPSIZE" in length or "(" in length:
        return None
    expr = length
    for n, py in sorted(names.items(), key=lambda kv: -len(kv[0])):
        expr = re.sub(rf"\b{re.escape(n)}\b", py, expr)
    if not re.fullmatch(r"[\w\s*+\-]+", expr):
        return None
    if re.search(r"[A-Za-z_]", expr) and not all(t in names.values() for t in re.findall(r"[A-Za-z_]\w*", expr)):
        return None
    return expr


def _counted_string_length(p, names) -> str | None:
    """KHR_debug's strings (glObjectLabel's label, glPushDebugGroup's message,
    glDebugMessageInsert's buf): the registry's len is COMPSIZE(string,length), a
    count of characters, or a NUL-terminated string when length is negative; the
    string need not be terminated when the count is given (wgpu's labels are not)."""
    m = re.fullmatch(r"COMPSIZE\((\w+),\s*(\w+)\)", p.length or "")
    if m and m.group(1) == p.name and m.group(2) in names:
        return names[m.group(2)]
    return None


def _compsize_arg(length: str, names) -> str | None:
    m = re.fullmatch(r"COMPSIZE\((\w+)\)", length or "")
    if m and m.group(1) in names:
        return names[m.group(1)]
    return None


def marshal_function(c) -> str:
    """The Python source of `def NAME(ctx, *c_args)`: converts C arguments to the
    front end's calling convention, calls ctx.NAME, writes outputs, converts the
    return value (driver/gl/pointers.py documents the convention)."""
    names = {p.name: _pyname(p.name) for p in c.params}
    consumed: set[str] = set()
    for p in c.params:      # the lengths of a string array are read with the strings
        if p.c_type.count("*") == 2 and p.c_type.startswith("const") \
                and _base(p.c_type) in ("GLchar", "GLcharARB", "char") and "length" in names:
            consumed.add("length")
    outs = [p for p in c.params if "*" in p.c_type and not p.c_type.startswith("const")]
    # scalars that only size an output (bufSize of glGetShaderInfoLog): the front
    # end may or may not take them (M.call decides by the method's arity)
    limits = {p.name for p in c.params if "*" not in p.c_type
              and any(re.search(rf"\b{re.escape(p.name)}\b", o.length or "")
                      and "COMPSIZE" not in o.length for o in outs)}
    ins, extra = [], []
    for p in c.params:
        py = names[p.name]
        t, base = p.c_type, _base(p.c_type)
        is_const = t.startswith("const")
        stars = t.count("*")
        if p.name in consumed or (stars and not is_const):
            continue
        target = extra if p.name in limits and p is c.params[-1 - len(outs)] else ins
        if stars == 0:
            target.append(f"M.handle({py})" if base in HANDLE_TYPES else py)
            continue
        if stars == 1 and base in ("GLchar", "GLcharARB", "char"):
            n = _len_expr(p.length, names) or _counted_string_length(p, names)
            ins.append(f"M.str_in({py}, {n})" if n and n != "1" else f"M.str_in({py})")
        elif stars == 2 and base in ("GLchar", "GLcharARB", "char"):
            count = _len_expr(p.length, names) or "1"
            lengths = names["length"] if "length" in consumed else "M.NULL"
            ins.append(f"M.strs_in({py}, {count}, {lengths})")
        elif stars == 1:
            if _POINTER_ARRAY_CMDS.match(c.name) and p.name == "pointer":
                ins.append(f"M.client_array(ctx, {py})")
            elif p.name == "indices" and "Elements" in c.name and c.name.startswith("glDraw"):
                ins.append(f"M.client_indices(ctx, {py})")
            elif _PIXEL_IN.match(c.name) and p.name == "pixels":
                dims = [names.get(k, "1") for k in ("width", "height", "depth")]
                ins.append(f"M.pixels_in(ctx, {py}, {names['format']}, {names['type']}, "
                           f"{', '.join(dims)})")
            elif base in ("void", "GLvoid"):
                n = _len_expr(p.length, names)
                ins.append(f"M.bytes_in({py}, {n})" if n else f"M.addr({py})")
            else:
                n = _len_expr(p.length, names)
                per = PER_ELEMENT.get(_VENDOR_SUFFIX.sub("", c.name))
                if per is not None and "count" in names:
                    n = f"{names['count']} * {per}"
                elif n is None:
                    k = _compsize_arg(p.length, names)
                    n = f"M.pname_count({k})" if k else "M.guess_count()"
                ins.append(f"M.arr_in({py}, {base!r}, {n})")
        else:
            ins.append(f"M.addr({py})")
    if extra:
        call = f"M.call(ctx.{c.name}, ({''.join(i + ', ' for i in ins)}), ({extra[0]},))"
    else:
        call = f"ctx.{c.name}({', '.join(ins)})"
    body = [f"def {c.name}(ctx, {', '.join(names.values())}):" if c.params
            else f"def {c.name}(ctx):"]
    if outs:
        body.append(f"    r = {call}")
        body.append(f"    if r is None: return {_py_zero(c.ret)}")
        body += [f"    {s}" for s in _outputs(c, outs, names)]
        body.append(f"    return {_py_ret(c.ret, 'r')}" if c.ret != "void" else "    return None")
    else:
        body.append(f"    return {_py_ret(c.ret, call)}" if c.ret != "void" else f"    {call}")
    return "\n".join(body)


def _outputs(c, outs, names) -> list[str]:
    limit_param = next((names[p.name] for p in c.params
                        if p.name in ("bufSize", "bufsize", "maxLength", "maxCount", "count",
                                      "maxcount", "bufferSize")
                        and "*" not in p.c_type), None)
    lines = []
    if len(outs) == 1:
        p = outs[0]
        lines.append(f"M.put({names[p.name]}, {_base(p.c_type)!r}, r, "
                     f"{limit_param if limit_param else 'None'})")
    elif len(outs) == 2 and outs[0].name in ("length", "count", "size") \
            and "*" in outs[0].c_type and _base(outs[0].c_type) in ("GLsizei", "GLint", "EGLint"):
        p = outs[1]
        lines.append(f"n = M.put({names[p.name]}, {_base(p.c_type)!r}, r, "
                     f"{limit_param if limit_param else 'None'})")
        lines.append(f"M.put({names[outs[0].name]}, 'GLsizei', n)")
    else:
        lines.append(f"M.put_many(({', '.join(names[p.name] for p in outs)},), "
                     f"({', '.join(repr(_base(p.c_type)) for p in outs)},), r)")
    return lines


def _py_zero(ret: str) -> str:
    if ret == "void":
        return "None"
    return "M.NULL" if "*" in ret or ret in HANDLE_TYPES else "0"


def _py_ret(ret: str, expr: str) -> str:
    if ret == "void":
        return expr
    if ret in ("const GLubyte *", "const char *"):
        return f"M.cstr({expr})"
    if ret in HANDLE_TYPES:
        return f"M.to_handle({expr}, {ret!r})"
    if "*" in ret:
        return f"M.to_pointer({expr})"
    if ret in ("GLboolean", "EGLBoolean"):
        return f"M.boolean({expr})"
    return f"M.number({expr})"


# Pointer lengths the registry gets wrong: glVertexAttribs{1-4}hvNV's ``v`` holds ``n``
# attributes of 1-4 halves each (len="n" in gl.xml; the fv/dv/sv forms say count*size)
_LENGTH_FIXES = {f"glVertexAttribs{k}hvNV": {"v": f"n*{k}"} for k in (1, 2, 3, 4)}


def _with_core_lengths(c, by_name: dict):
    """A vendor-suffixed command whose registry entry leaves out a pointer's ``len``
    (glDebugMessageControlKHR's ``ids``: an array of ``count``, NULL when count is
    0) takes it from the same parameter of the core command; the lengths of
    ``_LENGTH_FIXES`` replace the registry's."""
    fixes = _LENGTH_FIXES.get(c.name)
    if fixes:
        return dataclasses.replace(c, params=tuple(dataclasses.replace(p, length=fixes[p.name])
                                                   if p.name in fixes else p for p in c.params))
    core = by_name.get(_VENDOR_SUFFIX.sub("", c.name))
    if core is None or core is c:
        return c
    lengths = {p.name: p.length for p in core.params}
    params = tuple(dataclasses.replace(p, length=lengths[p.name]) if not p.length and lengths.get(p.name) else p
                   for p in c.params)
    return c if params == c.params else dataclasses.replace(c, params=params)


# Commands the registry gives OpenGL ES alone that desktop contexts have too, as in
# Mesa (its extension table lists GL_OES_EGL_image for desktop GL, and programs that
# share EGL images with a desktop context call them there: piglit's
# egl_khr_gl_renderbuffer_image, GStreamer's GL elements)
DESKTOP_TOO = frozenset({"glEGLImageTargetTexture2DOES", "glEGLImageTargetRenderbufferStorageOES"})


def make_commands_py(cmds, registry_dir: Path) -> str:
    banner = (f'"""Generated by driver/abi/build.py from the Khronos XML registry '
              f'({_where(registry_dir)}/gl.xml,\negl.xml) while the package was built. Do not edit.\n\n'
              "NAMES: every exported command, in the index order of the C library.\n"
              "MARSHAL: name -> function(ctx, *c_args) for the GL commands (see build.py,\n"
              "marshal_function), each compiled from SOURCES on its first use (a program\n"
              "calls a few dozen of the 3,295: compiling them all at every start cost more).\n"
              "DESKTOP_ONLY, ES_ONLY: GL commands only desktop OpenGL, or only OpenGL ES,\n"
              'has (a context of the other kind records GL_INVALID_OPERATION)."""\n')
    out = [banner, "# fmt: off", "from driver.abi import marshal as M", "",
           "NAMES = (" + "".join(f"\n    {c.name!r}," for c in cmds) + "\n)", ""]
    gl = [c for c in cmds if c.family == "gl"]
    by_name = {c.name: c for c in gl}
    out.append("SOURCES = {")
    for c in gl:
        out.append(f"    {c.name!r}: {marshal_function(_with_core_lengths(c, by_name))!r},")
    out.append("}")
    out.append("")
    out.append("MARSHAL = M.CompiledOnFirstUse(SOURCES, __file__)")
    out.append("")
    apis = registry.command_apis(registry_dir)
    for label, api in (("DESKTOP_ONLY", "gl"), ("ES_ONLY", "gles2")):
        only = sorted(c.name for c in gl if apis.get(c.name) == {api} and c.name not in DESKTOP_TOO)
        out.append(f"{label} = frozenset({{" + "".join(f"\n    {n!r}," for n in only) + "\n})")
        out.append("")
    out.append("# return kinds: p = pointer or handle, v = void, n = number")
    out.append("RETURNS = {" + "".join(f"\n    {c.name!r}: {_ret_kind(c.ret)!r}," for c in cmds)
               + "\n}")
    return "\n".join(out) + "\n"


def _where(registry_dir: Path) -> str:
    """The registry's origin without the temporary build directory."""
    return f"{registry_dir.parent.name}/{registry_dir.name}"


def _ret_kind(ret: str) -> str:
    if ret == "void":
        return "v"
    return "p" if _zero(ret) == "NULL" else "n"


def make_egl_enums_py(registry_dir: Path) -> str:
    """EGL_* constants of egl.xml as a Python module."""
    import xml.etree.ElementTree as ET
    root = ET.parse(registry_dir / "egl.xml").getroot()
    values = {}
    for e in root.findall("enums/enum"):
        name, value = e.get("name"), e.get("value")
        if not name or not value:
            continue
        v = value.strip().rstrip("ULul")
        if v.startswith("EGL_CAST("):       # EGL_CAST(EGLDisplay,0) and friends
            v = v[len("EGL_CAST("):-1].split(",")[1]
        try:
            values[name] = int(v, 0)
        except ValueError:
            continue
    lines = [f'"""Generated by driver/abi/build.py from the Khronos XML registry '
             f'({_where(registry_dir)}/egl.xml)\nwhile the package was built. Do not edit."""',
             "# fmt: off"]
    lines += [f"{n} = {values[n]:#x}" if values[n] >= 0 else f"{n} = {values[n]}"
              for n in sorted(values)]
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------
# compile and link
# ----------------------------------------------------------------------------

def _python_link_flags() -> list[str]:
    if not sysconfig.get_config_var("Py_ENABLE_SHARED"):
        raise BuildError("this Python has no shared libpython (Py_ENABLE_SHARED=0): a C host "
                         "could not start it; rebuild Python with --enable-shared")
    libdir = sysconfig.get_config_var("LIBDIR")
    ldlib = sysconfig.get_config_var("LDLIBRARY")     # libpython3.11.so
    name = re.sub(r"^lib|\.so.*$", "", ldlib)
    return [f"-L{libdir}", f"-l{name}", f"-Wl,-rpath,{libdir}"]


def _cc() -> list[str]:
    cc = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if not cc:
        raise BuildError("no C compiler (cc/gcc) found; install gcc")
    return cc.split()


def _c_string(text: str) -> str:
    """A C string literal of ASCII text (JSON's escapes are C's for ASCII)."""
    assert text.isascii()
    return json.dumps(text)


def host_bootstrap_code(site_dirs: list[str]) -> str:
    """Python run by the C start-up in a Python host (PyOpenGL, moderngl: an
    interpreter shimgl did not start) before cffi imports _cffi_backend.

    The host's sys.path knows nothing of shimgl's installation: put its site
    directories and the package root first, so its own modules and its own
    dependencies are found (a module the host has already imported is shared:
    one numpy per process; too old a version is refused with the fix). cffi is
    the exception: the embedding and shimgl's FFIs need cffi's package and
    backend of one version, so a host's other cffi is set aside while shimgl
    starts and put back afterwards if the host had imported the cffi package
    (shimgl keeps its own; a host with only a backend module keeps that object,
    while sys.modules keeps shimgl's, so shimgl's later imports of cffi stay
    consistent). `restore()`, called
    by the init code when shimgl has started, puts the host's sys.path back,
    with shimgl's directories appended for its later imports."""
    return rf"""
def _shimgl_prepare(so_path, sites):
    import importlib.machinery, importlib.metadata, os, re, site, sys, types
    here = os.path.dirname(os.path.realpath(so_path))
    ours = [p for p in sites + [os.path.dirname(os.path.dirname(here))] if os.path.isdir(p)]
    saved_path = list(sys.path)
    for p in ours:
        if p not in sys.path:
            site.addsitedir(p)      # with its .pth files (an editable install's finder)
    sys.path[:] = ours + [p for p in sys.path if p not in ours]
    set_aside = {{}}
    spec = importlib.machinery.PathFinder.find_spec("_cffi_backend", ours)
    loaded = sys.modules.get("_cffi_backend")
    if spec is not None and loaded is not None and \
            os.path.realpath(getattr(loaded, "__file__", "") or "") != os.path.realpath(spec.origin):
        for n in list(sys.modules):
            if n in ("_cffi_backend", "cffi") or n.startswith("cffi."):
                set_aside[n] = sys.modules.pop(n)
    if "cffi" not in sys.modules and "cffi" not in set_aside:
        # shimgl's cffi package now, while its directories come first: a host that
        # has its own cffi package installed but not imported (a Python embedded in
        # a C program) would hand shimgl's later imports (the native tier's FFIs)
        # that package beside shimgl's backend: "Version mismatch"
        import cffi  # noqa: F401
    def version(text):
        return tuple(int(x) for x in re.findall(r"\d+", text)[:3])
    for dist in importlib.metadata.distributions(path=ours):
        if (dist.metadata["Name"] or "").lower() != "shimgl":
            continue
        for req in dist.requires or ():
            m = re.fullmatch(r"([A-Za-z0-9_.-]+)\s*>=\s*([0-9.]+)", req.strip())
            mod = sys.modules.get(m.group(1).lower()) if m else None
            have = getattr(mod, "__version__", None)
            if isinstance(have, str) and version(have) < version(m.group(2)):
                raise RuntimeError(
                    f"this program already uses {{m.group(1)}} {{have}} ({{mod.__file__}}) and shimgl "
                    f"needs {{m.group(1)}}>={{m.group(2)}}: upgrade it in the program's environment "
                    f"(pip install -U '{{m.group(1)}}>={{m.group(2)}}')")
        break

    def restore():
        # a host's cffi package needs its own backend: put both back (shimgl's
        # modules keep theirs); a host with only a backend module (Debian's
        # python3-cffi-backend) keeps using its module object, and later
        # imports get shimgl's, which is newer and loads older generated modules
        if "cffi" in set_aside:
            for n in list(sys.modules):
                if n in ("_cffi_backend", "cffi") or n.startswith("cffi."):
                    del sys.modules[n]
            sys.modules.update(set_aside)
        sys.path[:] = saved_path + [p for p in ours if p not in saved_path]
    state = types.ModuleType("_shimgl_host")
    state.restore = restore
    state.cffi_set_aside = "cffi" in set_aside
    sys.modules["_shimgl_host"] = state

_shimgl_prepare(so_path, {site_dirs!r})
"""


def embedding_init_code(extra_paths: list[str]) -> str:
    """Runs once, in the embedded or the already running interpreter, before the
    first command: make the package importable (a C host's Python knows nothing
    of the virtual environment shimgl was installed into; a Python host was
    prepared by host_bootstrap_code), then install the Python implementations.
    A failure is one line on stderr (the traceback with SHIMGL_DEBUG=abi) and
    leaves the library refusing every call (shimgl_set_failed)."""
    return f"""
import os, site, sys
_host = sys.modules.pop("_shimgl_host", None)
from {EMBED_MODULE} import ffi, lib
try:
    if _host is None:     # a C host: this interpreter was started by the library
        _here = os.path.dirname(os.path.realpath(ffi.string(lib.shimgl_so_path()).decode()))
        for _p in {extra_paths!r} + [os.path.dirname(os.path.dirname(_here))]:
            if os.path.isdir(_p) and _p not in sys.path:
                site.addsitedir(_p)
    if not sys.argv:
        sys.argv = [""]
    from driver.abi import runtime
    runtime.install(ffi, lib)
    if _host is not None and _host.cffi_set_aside:
        runtime.warm_up()     # what creates cffi FFIs, while shimgl's cffi is the one imported
except BaseException as _e:
    lib.shimgl_set_failed()
    sys.stderr.write("shimgl: cannot start: %s: %s (SHIMGL_DEBUG=abi prints the traceback)\\n"
                     % (type(_e).__name__, _e))
    if "abi" in os.environ.get("SHIMGL_DEBUG", ""):
        import traceback
        traceback.print_exc()

    @ffi.def_extern(name="shimgl_py_init")
    def _not_started():
        pass
finally:
    if _host is not None:
        _host.restore()
"""


def build(outdir: Path, verbose: bool = False) -> list[Path]:
    """Generate, compile and link into outdir; returns the files written.
    Raises BuildError when a prerequisite is missing."""
    try:
        import cffi
    except ImportError as e:      # pragma: no cover - cffi is a build requirement
        raise BuildError("cffi is not installed") from e
    try:
        registry_dir = registry.find_registry()
    except FileNotFoundError as e:
        raise BuildError(str(e)) from e
    cc = _cc()
    link_py = _python_link_flags()
    outdir.mkdir(parents=True, exist_ok=True)
    site_dirs = sorted({sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]})
    stamp = _inputs_digest(registry_dir, site_dirs, cc, outdir, cffi.__version__)
    outputs = [outdir / n for n in (LIBRARY, OSMESA, "libOSMesa.so", EGL_VENDOR, GLX_VENDOR, VENDOR_JSON,
                                    COMMANDS_PY, EGL_ENUMS_PY)]
    stamp_file = outdir / STAMP
    if all(p.exists() for p in outputs) and stamp_file.exists() and stamp_file.read_text() == stamp:
        return outputs          # same inputs: nothing to do (a re-install takes no compile)
    cmds = all_commands(registry_dir)

    ffi = cffi.FFI()
    ffi.cdef(make_cdef(cmds))
    ffi.set_source(EMBED_MODULE, make_source(cmds, site_dirs))
    ffi.embedding_init_code(embedding_init_code(site_dirs))

    with tempfile.TemporaryDirectory(prefix="shimgl-abi-") as tmp:
        tmp = Path(tmp)
        c_file = tmp / "shimgl.c"
        ffi.emit_c_code(str(c_file))
        _patch_embedding_lock(c_file)
        include = sysconfig.get_paths()["include"]
        lib_tmp = tmp / LIBRARY
        # SONAME libOSMesa.so.8: one object serves as libshimgl.so, the OSMesa
        # library and the glvnd vendor (symlinks), so a program linked -lOSMesa
        # -lGL finds gl* in it before glvnd's libGL, as with Mesa's libOSMesa,
        # and a process never holds two copies of the bindings.
        run = [*cc, "-shared", "-fPIC", "-O1", "-fvisibility=hidden", "-w", f"-I{include}",
               str(c_file), "-o", str(lib_tmp), "-Wl,-Bsymbolic", f"-Wl,-soname,{OSMESA}",
               "-Wl,--no-as-needed", *link_py, "-ldl", "-lpthread"]
        _run(run, verbose)
        dst = outdir / LIBRARY
        tmp_dst = outdir / (LIBRARY + ".tmp")
        shutil.copyfile(lib_tmp, tmp_dst)
        os.chmod(tmp_dst, 0o755)
        os.replace(tmp_dst, dst)        # atomic: running processes keep the old inode
        written = [dst]
    for link in (OSMESA, "libOSMesa.so", EGL_VENDOR, GLX_VENDOR):
        p = outdir / link
        if p.is_symlink() or p.exists():
            p.unlink()
        p.symlink_to(LIBRARY)
        written.append(p)
    vendor = {"file_format_version": "1.0.0",
              "ICD": {"library_path": str((outdir / EGL_VENDOR).resolve().parent / EGL_VENDOR)}}
    # each file replaced whole (a process starting meanwhile reads the old or the new one)
    _write_atomic(outdir / VENDOR_JSON, json.dumps(vendor, indent=4) + "\n")
    _write_atomic(outdir / COMMANDS_PY, make_commands_py(cmds, registry_dir))
    _write_atomic(outdir / EGL_ENUMS_PY, make_egl_enums_py(registry_dir))
    written += [outdir / VENDOR_JSON, outdir / COMMANDS_PY, outdir / EGL_ENUMS_PY]
    # byte-compile now: _commands.py is large (compiling it costs about 0.5 s at
    # every start of a C host when bytecode cannot be written, PYTHONDONTWRITEBYTECODE)
    import py_compile
    for name in (COMMANDS_PY, EGL_ENUMS_PY):
        py_compile.compile(str(outdir / name), doraise=True)
    stamp_file.write_text(stamp)
    return written


# cffi's embedding (for Python < 3.12) borrows PyCapsule_Type.tp_version_tag as the
# spin lock every cffi-embedded library of a process shares while it starts Python, and
# asserts that the word holds 0 or its own mark. A running interpreter gives that type a
# version tag as soon as Python code looks an attribute up on a capsule (pybind11 modules
# do: Taichi's), and such a process then aborted at its first GL call. A tag means the
# interpreter runs already, so there is nothing to start: the call goes on at once.
_CFFI_LOCK_ASSERT = "assert(old_value == locked_value);"
_CFFI_LOCK_TAGGED = ("if (old_value != locked_value) return 0;  "
                     "/* a version tag: the interpreter runs already */")


def _patch_embedding_lock(c_file: Path) -> None:
    """Make the embedding's start-up lock accept a version tag (see above); cffi
    versions whose embedding has no such assertion are left as they are."""
    text = c_file.read_text()
    if text.count(_CFFI_LOCK_ASSERT) == 1:
        c_file.write_text(text.replace(_CFFI_LOCK_ASSERT, _CFFI_LOCK_TAGGED))


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _inputs_digest(registry_dir, site_dirs, cc, outdir, cffi_version) -> str:
    """Everything the outputs depend on: the generator, the registry, the
    interpreter, cffi, the compiler, where the files go."""
    import hashlib
    h = hashlib.sha256()
    for f in (HERE / "build.py", HERE / "registry.py", ANSWER_WORDS_PY, registry_dir / "gl.xml",
              registry_dir / "egl.xml"):
        h.update(f.read_bytes())
    for part in (sys.executable, sys.version, cffi_version, " ".join(cc), str(outdir.resolve()),
                 *site_dirs):
        h.update(part.encode() + b"\0")
    return h.hexdigest() + "\n"


def _run(cmd: list[str], verbose: bool) -> None:
    if verbose:
        print(" ".join(cmd), file=sys.stderr)
    res = subprocess.run(cmd, capture_output=True, text=True)
    if res.returncode != 0:
        raise BuildError(f"{cmd[0]} failed ({res.returncode}):\n{res.stderr[-4000:]}")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    outdir = Path(argv[0]) if argv else HERE
    try:
        files = build(outdir, verbose=True)
    except BuildError as e:
        print(f"shimgl ABI build: {e}", file=sys.stderr)
        return 1
    for f in files:
        print(f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
