/* shimgl ABI test host: GL entry points taking arrays marshal the whole array
 * from C (count elements of several values each), and NULL with a zero count
 * is legal. Linked against libshimgl.so directly; a 4.3 core context on a
 * surfaceless pbuffer. Prints one line per check; exit status 0 when all passed. */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <string.h>

#include "core_context.h"

static int failures;

static void check(const char *what, int ok)
{
    GLenum err = glGetError();
    int pass = ok && err == GL_NO_ERROR;
    printf("%s %s (GL error 0x%x)\n", pass ? "ok" : "FAIL", what, err);
    failures += !pass;
}

int main(void)
{
    EGLDisplay dpy = make_core_context(64, 64, EGL_FALSE);
    if (dpy == EGL_NO_DISPLAY)
        return 1;

    /* glViewportArrayv: count viewports of 4 floats each (as many as the
       context has, up to 3: the whole array is read, not its first value) */
    GLint max_viewports = 0;
    glGetIntegerv(GL_MAX_VIEWPORTS, &max_viewports);
    int count = max_viewports < 3 ? max_viewports : 3;
    check("GL_MAX_VIEWPORTS", count >= 1);
    const GLfloat vp[12] = {1, 2, 30, 40,  5, 6, 17, 18,  9, 10, 11, 12};
    glViewportArrayv(0, count, vp);
    GLfloat got[4];
    int same = 1;
    for (int i = 0; i < count; i++) {
        glGetFloati_v(GL_VIEWPORT, i, got);
        same &= memcmp(got, vp + 4 * i, sizeof got) == 0;
    }
    check("glViewportArrayv sets every viewport of the array", same);
    glViewportArrayv(0, max_viewports + 1, vp);
    GLenum err = glGetError();
    printf("%s glViewportArrayv past GL_MAX_VIEWPORTS: GL_INVALID_VALUE (0x%x)\n",
           err == GL_INVALID_VALUE ? "ok" : "FAIL", err);
    failures += err != GL_INVALID_VALUE;

    /* glScissorArrayv: count boxes of 4 ints */
    const GLint sc[12] = {1, 2, 3, 4,  5, 6, 7, 8,  9, 10, 11, 12};
    glScissorArrayv(0, count, sc);
    GLfloat box[4];
    glGetFloati_v(GL_SCISSOR_BOX, count - 1, box);
    const GLint *want_box = sc + 4 * (count - 1);
    check("glScissorArrayv sets the last box", box[0] == want_box[0] && box[1] == want_box[1]
          && box[2] == want_box[2] && box[3] == want_box[3]);

    /* glDepthRangeArrayv: count pairs of doubles */
    const GLdouble dr[6] = {0.25, 0.5,  0.125, 0.75,  0.5, 1.0};
    glDepthRangeArrayv(0, count, dr);
    GLdouble range[2];
    glGetDoublei_v(GL_DEPTH_RANGE, count - 1, range);
    check("glDepthRangeArrayv sets the last range",
          range[0] == dr[2 * (count - 1)] && range[1] == dr[2 * (count - 1) + 1]);

    /* glPatchParameterfv: 4 outer levels, 2 inner */
    const GLfloat outer[4] = {2, 3, 4, 5};
    glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL, outer);
    GLfloat levels[4] = {0};
    glGetFloatv(GL_PATCH_DEFAULT_OUTER_LEVEL, levels);
    check("glPatchParameterfv(GL_PATCH_DEFAULT_OUTER_LEVEL) reads 4 values",
          memcmp(levels, outer, sizeof levels) == 0);

    /* NULL with a zero count */
    glDeleteBuffers(0, NULL);
    check("glDeleteBuffers(0, NULL)", 1);
    glDeleteTextures(0, NULL);
    check("glDeleteTextures(0, NULL)", 1);
    glGenBuffers(0, NULL);
    check("glGenBuffers(0, NULL)", 1);
    glDeleteVertexArrays(0, NULL);
    check("glDeleteVertexArrays(0, NULL)", 1);
    glInvalidateFramebuffer(GL_FRAMEBUFFER, 0, NULL);
    check("glInvalidateFramebuffer(GL_FRAMEBUFFER, 0, NULL)", 1);

    printf("%d failures\n", failures);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return failures != 0;
}
