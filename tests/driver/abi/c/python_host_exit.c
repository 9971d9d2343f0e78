/* shimgl ABI test host: a program that embeds Python itself (as Blender does)
 * and finalizes its interpreter before its last GL and EGL calls (Blender
 * deletes its shaders and contexts after Py_FinalizeEx). shimgl's Python side
 * runs in the host's interpreter; once that is gone, every command must return
 * without entering Python (it crashed in PyGILState_Ensure). Prints one line per
 * check; exit status 0 when all passed. */
#define GL_GLEXT_PROTOTYPES
#include <Python.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>

#include "core_context.h"

static int failures;

static void check(const char *what, int ok)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

int main(void)
{
    Py_Initialize();
    check("the host's interpreter runs", Py_IsInitialized());
    EGLDisplay dpy = make_core_context(16, 16, EGL_FALSE);
    if (dpy == EGL_NO_DISPLAY)
        return 1;
    GLuint shader = glCreateShader(GL_VERTEX_SHADER);
    check("glCreateShader in the host's interpreter", shader != 0 && glGetError() == GL_NO_ERROR);
    glClearColor(0.0f, 1.0f, 0.0f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    GLubyte px[4] = {0};
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    check("a clear is drawn", px[0] == 0 && px[1] == 255 && px[3] == 255);
    Py_FinalizeEx();
    /* the interpreter is gone: these return at once (GL: nothing, EGL: failure) */
    glDeleteShader(shader);
    check("glGetError after the host's Py_FinalizeEx", glGetError() == GL_NO_ERROR);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglTerminate(dpy);
    check("returned from every call", 1);
    printf("%d failures\n", failures);
    return failures != 0;
}
