/* Shared by the C test hosts that need a desktop context: EGL's surfaceless
 * platform, a width x height pbuffer and an OpenGL 4.3 core context (a debug
 * context when `debug`), made current. Returns the display, or EGL_NO_DISPLAY
 * after printing a FAIL line. Include after EGL/egl.h, EGL/eglext.h and stdio.h. */
#ifndef SHIMGL_TEST_CORE_CONTEXT_H
#define SHIMGL_TEST_CORE_CONTEXT_H

static EGLDisplay make_core_context(EGLint width, EGLint height, EGLBoolean debug)
{
    EGLint n;
    EGLConfig cfg;
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    eglInitialize(dpy, NULL, NULL);
    EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    eglChooseConfig(dpy, want, &cfg, 1, &n);
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg,
        (EGLint[]){EGL_WIDTH, width, EGL_HEIGHT, height, EGL_NONE});
    eglBindAPI(EGL_OPENGL_API);
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT,
        (EGLint[]){EGL_CONTEXT_MAJOR_VERSION, 4, EGL_CONTEXT_MINOR_VERSION, 3,
                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT,
                   EGL_CONTEXT_OPENGL_DEBUG, debug, EGL_NONE});
    if (!ctx || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        printf("FAIL context (EGL error 0x%x)\n", eglGetError());
        return EGL_NO_DISPLAY;
    }
    return dpy;
}

#endif
