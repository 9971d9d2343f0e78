/* shimgl ABI test host: the EGL errors of the specification, calling
 * libshimgl.so directly (linked against it, no glvnd in between, so every
 * error comes from shimgl). Prints one line per check; exit status 0 when all
 * passed. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void expect(const char *what, int ok, EGLint want_error)
{
    EGLint err = eglGetError();
    int pass = ok && err == want_error;
    printf("%s %s (error 0x%x, want 0x%x)\n", pass ? "ok" : "FAIL", what, err, want_error);
    failures += !pass;
}

int main(void)
{
    EGLint n, major, minor;
    EGLConfig cfg;
    EGLDisplay bogus = (EGLDisplay)0x1234;

    expect("fresh thread: EGL_SUCCESS", 1, EGL_SUCCESS);
    expect("eglInitialize(bogus display)", eglInitialize(bogus, &major, &minor) == EGL_FALSE,
           EGL_BAD_DISPLAY);
    expect("eglGetError resets to EGL_SUCCESS", 1, EGL_SUCCESS);
    expect("eglGetPlatformDisplay(unknown platform)",
           eglGetPlatformDisplay(0x1234, NULL, NULL) == EGL_NO_DISPLAY, EGL_BAD_PARAMETER);
    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    expect("client extensions", client && strstr(client, "EGL_EXT_platform_base") &&
           strstr(client, "EGL_MESA_platform_surfaceless"), EGL_SUCCESS);
    EGLDisplay dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    expect("surfaceless display", dpy != EGL_NO_DISPLAY, EGL_SUCCESS);
    expect("eglChooseConfig before eglInitialize",
           eglChooseConfig(dpy, NULL, &cfg, 1, &n) == EGL_FALSE, EGL_NOT_INITIALIZED);
    expect("eglInitialize", eglInitialize(dpy, &major, &minor) && major == 1 && minor == 5,
           EGL_SUCCESS);
    expect("eglQueryString(bad name)", eglQueryString(dpy, 0x1234) == NULL, EGL_BAD_PARAMETER);
    expect("eglChooseConfig(bad attribute)",
           eglChooseConfig(dpy, (EGLint[]){0x1234, 1, EGL_NONE}, &cfg, 1, &n) == EGL_FALSE,
           EGL_BAD_ATTRIBUTE);
    expect("eglChooseConfig(NULL num_config)",
           eglChooseConfig(dpy, NULL, &cfg, 1, NULL) == EGL_FALSE, EGL_BAD_PARAMETER);
    EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_DEPTH_SIZE, 24, EGL_NONE};
    expect("eglChooseConfig", eglChooseConfig(dpy, want, &cfg, 1, &n) && n == 1, EGL_SUCCESS);
    EGLint depth = 0;
    expect("eglGetConfigAttrib(DEPTH_SIZE)",
           eglGetConfigAttrib(dpy, cfg, EGL_DEPTH_SIZE, &depth) && depth >= 24, EGL_SUCCESS);
    expect("eglGetConfigAttrib(bad config)",
           eglGetConfigAttrib(dpy, (EGLConfig)0x999, EGL_DEPTH_SIZE, &depth) == EGL_FALSE,
           EGL_BAD_CONFIG);
    expect("eglGetConfigAttrib(bad attribute)",
           eglGetConfigAttrib(dpy, cfg, 0x1234, &depth) == EGL_FALSE, EGL_BAD_ATTRIBUTE);
    expect("eglCreateWindowSurface: no window configs",
           eglCreateWindowSurface(dpy, cfg, 0, NULL) == EGL_NO_SURFACE, EGL_BAD_MATCH);
    expect("eglCreatePbufferSurface(negative width)",
           eglCreatePbufferSurface(dpy, cfg, (EGLint[]){EGL_WIDTH, -1, EGL_NONE}) == EGL_NO_SURFACE,
           EGL_BAD_PARAMETER);
    expect("eglCreatePbufferSurface(bad attribute)",
           eglCreatePbufferSurface(dpy, cfg, (EGLint[]){0x1234, 1, EGL_NONE}) == EGL_NO_SURFACE,
           EGL_BAD_ATTRIBUTE);
    EGLSurface s = eglCreatePbufferSurface(dpy, cfg, (EGLint[]){EGL_WIDTH, 8, EGL_HEIGHT, 4, EGL_NONE});
    EGLint w = 0;
    expect("eglQuerySurface(WIDTH)", s && eglQuerySurface(dpy, s, EGL_WIDTH, &w) && w == 8,
           EGL_SUCCESS);
    expect("eglBindAPI(OpenVG)", eglBindAPI(EGL_OPENVG_API) == EGL_FALSE, EGL_BAD_PARAMETER);
    expect("eglBindAPI(OpenGL ES)", eglBindAPI(EGL_OPENGL_ES_API), EGL_SUCCESS);
    expect("eglCreateContext(GLES 4: no such version)",
           eglCreateContext(dpy, cfg, EGL_NO_CONTEXT,
                            (EGLint[]){EGL_CONTEXT_CLIENT_VERSION, 4, EGL_NONE}) == EGL_NO_CONTEXT,
           EGL_BAD_MATCH);
    expect("eglCreateContext(bad attribute)",
           eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, (EGLint[]){0x1234, 1, EGL_NONE}) == EGL_NO_CONTEXT,
           EGL_BAD_ATTRIBUTE);
    expect("eglCreateContext(bad share context)",
           eglCreateContext(dpy, cfg, (EGLContext)0x77, (EGLint[]){EGL_CONTEXT_MAJOR_VERSION, 2, EGL_NONE})
           == EGL_NO_CONTEXT, EGL_BAD_CONTEXT);
    expect("eglBindAPI(OpenGL)", eglBindAPI(EGL_OPENGL_API), EGL_SUCCESS);
    expect("eglCreateContext(GL 4.7 core)",      /* above the highest version there is */
           eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, (EGLint[]){EGL_CONTEXT_MAJOR_VERSION, 4,
               EGL_CONTEXT_MINOR_VERSION, 7, EGL_CONTEXT_OPENGL_PROFILE_MASK,
               EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE}) == EGL_NO_CONTEXT, EGL_BAD_MATCH);
    EGLContext core = eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT,
        (EGLint[]){EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 3,
                   EGL_CONTEXT_OPENGL_PROFILE_MASK, EGL_CONTEXT_OPENGL_CORE_PROFILE_BIT, EGL_NONE});
    expect("eglCreateContext(GL 3.3 core, no config)", core != EGL_NO_CONTEXT, EGL_SUCCESS);
    expect("eglMakeCurrent(bad surface)",
           eglMakeCurrent(dpy, (EGLSurface)0x999, (EGLSurface)0x999, core) == EGL_FALSE,
           EGL_BAD_SURFACE);
    expect("eglMakeCurrent(surface without context)",
           eglMakeCurrent(dpy, s, s, EGL_NO_CONTEXT) == EGL_FALSE, EGL_BAD_MATCH);
    expect("eglMakeCurrent(bad context)",
           eglMakeCurrent(dpy, s, s, (EGLContext)0x77) == EGL_FALSE, EGL_BAD_CONTEXT);
    expect("eglSwapBuffers(surface not current)", eglSwapBuffers(dpy, s) == EGL_FALSE,
           EGL_BAD_SURFACE);
    expect("eglMakeCurrent(surfaceless)",
           eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, core), EGL_SUCCESS);
    const char *version = (const char *)glGetString(GL_VERSION);
    /* the newest core version the driver claims (4.3 or later) */
    expect("GL 3.3 core request: the newest core context (backward compatible, 4.3+)",
           version && strncmp(version, "4.", 2) == 0 && version[2] >= '3' && version[2] <= '6'
           && strstr(version, " (Core Profile)"), EGL_SUCCESS);
    glBegin(GL_TRIANGLES);      /* not in a core profile */
    expect("glBegin in core: GL_INVALID_OPERATION", glGetError() == GL_INVALID_OPERATION, EGL_SUCCESS);
    glAccum(GL_LOAD, 1.0f);     /* exported, not implemented by the front end */
    expect("unimplemented glAccum: GL_INVALID_OPERATION", glGetError() == GL_INVALID_OPERATION,
           EGL_SUCCESS);
    expect("GL error cleared", glGetError() == GL_NO_ERROR, EGL_SUCCESS);
    EGLSync sync = eglCreateSync(dpy, EGL_SYNC_FENCE, NULL);
    expect("eglCreateSync(FENCE)", sync != EGL_NO_SYNC, EGL_SUCCESS);
    expect("eglClientWaitSync", eglClientWaitSync(dpy, sync, EGL_SYNC_FLUSH_COMMANDS_BIT,
           EGL_FOREVER) == EGL_CONDITION_SATISFIED, EGL_SUCCESS);
    EGLAttrib status = 0;
    expect("eglGetSyncAttrib(STATUS)", eglGetSyncAttrib(dpy, sync, EGL_SYNC_STATUS, &status)
           && status == EGL_SIGNALED, EGL_SUCCESS);
    expect("eglDestroySync", eglDestroySync(dpy, sync), EGL_SUCCESS);
    expect("eglDestroySync(again)", eglDestroySync(dpy, sync) == EGL_FALSE, EGL_BAD_PARAMETER);
    expect("eglCreateSync(bad type)", eglCreateSync(dpy, 0x1234, NULL) == EGL_NO_SYNC,
           EGL_BAD_PARAMETER);
    expect("eglGetProcAddress(glClear) is the export",
           eglGetProcAddress("glClear") == (__eglMustCastToProperFunctionPointerType)glClear,
           EGL_SUCCESS);
    expect("eglGetProcAddress(unknown)", eglGetProcAddress("glNoSuchThing") == NULL, EGL_SUCCESS);
    expect("release", eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT),
           EGL_SUCCESS);
    glClear(GL_COLOR_BUFFER_BIT);  /* no current context: ignored, no crash */
    expect("eglGetCurrentContext after release", eglGetCurrentContext() == EGL_NO_CONTEXT,
           EGL_SUCCESS);
    expect("eglDestroyContext", eglDestroyContext(dpy, core), EGL_SUCCESS);
    expect("eglDestroyContext(again)", eglDestroyContext(dpy, core) == EGL_FALSE, EGL_BAD_CONTEXT);
    expect("eglDestroySurface", eglDestroySurface(dpy, s), EGL_SUCCESS);
    expect("eglTerminate", eglTerminate(dpy), EGL_SUCCESS);
    expect("eglCreateContext after eglTerminate",
           eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, NULL) == EGL_NO_CONTEXT, EGL_NOT_INITIALIZED);
    printf("%d failures\n", failures);
    return failures != 0;
}
