/* shimgl ABI test host: EGL through the system's glvnd libEGL (vendor chosen by
 * __EGL_VENDOR_LIBRARY_FILENAMES), GL through libGL's dispatch.
 *
 *   egl_glvnd gles3|gl [threads|share]
 *
 * Creates a surfaceless display, a pbuffer and a context, clears to a colour,
 * reads back, prints what it saw. With "threads": two pthreads, each with its
 * own context and pbuffer, current at the same time, each clearing to its own
 * colour several times. With "share": two pthreads whose contexts share
 * objects (the second made with the first as share_context), current at the
 * same time: a texture one thread fills is read by the other through its own
 * framebuffer object, which renders into it in turn for the first to read.
 * Exit status 0 when every check passed. */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static EGLDisplay dpy;
static EGLConfig cfg;
static int use_gl;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define CHECK(cond, ...) do { if (!(cond)) { printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf(" (egl error 0x%x)\n", eglGetError()); return 1; } } while (0)

static int make_shared_context(int w, int h, EGLSurface *s, EGLContext *c, EGLContext share)
{
    EGLint pb[] = {EGL_WIDTH, w, EGL_HEIGHT, h, EGL_NONE};
    EGLint es3[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
    EGLint gl[] = {EGL_CONTEXT_MAJOR_VERSION, 2, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    *s = eglCreatePbufferSurface(dpy, cfg, pb);
    CHECK(*s != EGL_NO_SURFACE, "eglCreatePbufferSurface");
    CHECK(eglBindAPI(use_gl ? EGL_OPENGL_API : EGL_OPENGL_ES_API), "eglBindAPI");
    *c = eglCreateContext(dpy, cfg, share, use_gl ? gl : es3);
    CHECK(*c != EGL_NO_CONTEXT, "eglCreateContext");
    CHECK(eglMakeCurrent(dpy, *s, *s, *c), "eglMakeCurrent");
    return 0;
}

static int make_context(int w, int h, EGLSurface *s, EGLContext *c)
{
    return make_shared_context(w, h, s, c, EGL_NO_CONTEXT);
}

static int clear_and_check(float r, float g, float b, int x, int y)
{
    unsigned char px[4] = {0};
    glClearColor(r, g, b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(glGetError() == GL_NO_ERROR, "GL error");
    CHECK(px[0] == (int)(r * 255 + 0.5f) && px[1] == (int)(g * 255 + 0.5f) &&
          px[2] == (int)(b * 255 + 0.5f) && px[3] == 255,
          "pixel %d %d %d %d for clear %.2f %.2f %.2f", px[0], px[1], px[2], px[3], r, g, b);
    return 0;
}

struct job { float color[3]; int result; EGLContext seen; EGLContext made; };

static void *worker(void *arg)
{
    struct job *job = arg;
    EGLSurface s;
    EGLContext c;
    job->result = make_context(16, 8, &s, &c);
    job->made = c;
    for (int i = 0; i < 5 && job->result == 0; i++)
        job->result = clear_and_check(job->color[0], job->color[1], job->color[2], 15, 7);
    job->seen = eglGetCurrentContext();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, c);
    eglDestroySurface(dpy, s);
    return NULL;
}

/* -- share: thread A fills a texture, B reads it and renders into it, A reads that */
static pthread_barrier_t step;
static EGLContext ctx_a;
static GLuint shared_tex;

static int texel_through_fbo(GLuint tex, const unsigned char want[4])
{
    GLuint fbo;
    unsigned char px[4] = {0};
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, 0);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "fbo incomplete");
    glReadPixels(0, 0, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(glGetError() == GL_NO_ERROR, "GL error");
    CHECK(!memcmp(px, want, 4), "texel %d %d %d %d, want %d %d %d %d",
          px[0], px[1], px[2], px[3], want[0], want[1], want[2], want[3]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
    return 0;
}

static void *share_a(void *arg)
{
    int *result = arg;
    EGLSurface s;
    static const unsigned char green[4] = {0, 255, 128, 255}, blue[4] = {0, 0, 255, 255};
    if ((*result = make_shared_context(4, 4, &s, &ctx_a, EGL_NO_CONTEXT)) == 0) {
        glGenTextures(1, &shared_tex);
        glBindTexture(GL_TEXTURE_2D, shared_tex);
        glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, green);
        glFinish();
    }
    pthread_barrier_wait(&step);       /* 1: the texture and context A exist */
    pthread_barrier_wait(&step);       /* 2: B has rendered into it */
    if (*result == 0)
        *result = texel_through_fbo(shared_tex, blue);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

static void *share_b(void *arg)
{
    int *result = arg;
    EGLSurface s;
    EGLContext c;
    static const unsigned char green[4] = {0, 255, 128, 255};
    pthread_barrier_wait(&step);       /* 1 */
    *result = make_shared_context(4, 4, &s, &c, ctx_a);
    if (*result == 0)
        *result = texel_through_fbo(shared_tex, green);
    if (*result == 0) {
        GLuint fbo;
        glGenFramebuffers(1, &fbo);
        glBindFramebuffer(GL_FRAMEBUFFER, fbo);
        glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, shared_tex, 0);
        glClearColor(0.0f, 0.0f, 1.0f, 1.0f);
        glClear(GL_COLOR_BUFFER_BIT);
        glFinish();
    }
    pthread_barrier_wait(&step);       /* 2 */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    return NULL;
}

int main(int argc, char **argv)
{
    double t0 = now();
    EGLint major, minor, n;
    use_gl = argc > 1 && strcmp(argv[1], "gl") == 0;
    int threads = argc > 2 && strcmp(argv[2], "threads") == 0;
    int share = argc > 2 && strcmp(argv[2], "share") == 0;

    const char *client = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    CHECK(client && strstr(client, "EGL_MESA_platform_surfaceless"), "client extensions: %s", client);
    PFNEGLGETPLATFORMDISPLAYEXTPROC get_display =
        (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    CHECK(get_display, "eglGetPlatformDisplayEXT");
    dpy = get_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    CHECK(dpy != EGL_NO_DISPLAY, "display");
    CHECK(eglInitialize(dpy, &major, &minor), "eglInitialize");
    printf("first call %.3f s\n", now() - t0);
    printf("EGL %d.%d vendor %s\n", major, minor, eglQueryString(dpy, EGL_VENDOR));
    printf("extensions %s\n", eglQueryString(dpy, EGL_EXTENSIONS));
    EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE,
                     use_gl ? EGL_OPENGL_BIT : EGL_OPENGL_ES3_BIT, EGL_RED_SIZE, 8, EGL_NONE};
    CHECK(eglChooseConfig(dpy, want, &cfg, 1, &n) && n == 1, "eglChooseConfig");

    if (share) {
        int results[2] = {-1, -1};
        pthread_t t[2];
        pthread_barrier_init(&step, NULL, 2);
        pthread_create(&t[0], NULL, share_a, &results[0]);
        pthread_create(&t[1], NULL, share_b, &results[1]);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        CHECK(results[0] == 0 && results[1] == 0, "shared contexts: %d %d", results[0], results[1]);
        printf("share ok\n");
    } else if (threads) {
        struct job jobs[2] = {{{1.0f, 0.0f, 0.0f}, -1}, {{0.0f, 0.0f, 1.0f}, -1}};
        pthread_t t[2];
        for (int i = 0; i < 2; i++)
            pthread_create(&t[i], NULL, worker, &jobs[i]);
        for (int i = 0; i < 2; i++)
            pthread_join(t[i], NULL);
        for (int i = 0; i < 2; i++) {
            CHECK(jobs[i].result == 0, "thread %d failed", i);
            CHECK(jobs[i].seen == jobs[i].made, "thread %d: current context is per thread", i);
        }
        CHECK(eglGetCurrentContext() == EGL_NO_CONTEXT, "main thread has no current context");
        printf("threads ok\n");
    } else {
        EGLSurface s;
        EGLContext c;
        if (make_context(32, 16, &s, &c))
            return 1;
        printf("GL_VERSION %s\n", (const char *)glGetString(GL_VERSION));
        printf("GL_RENDERER %s\n", (const char *)glGetString(GL_RENDERER));
        GLint vp[4];
        glGetIntegerv(GL_VIEWPORT, vp);
        CHECK(vp[2] == 32 && vp[3] == 16, "viewport %d %d", vp[2], vp[3]);
        if (clear_and_check(1.0f, 0.5f, 0.25f, 31, 15))
            return 1;
        CHECK(eglSwapBuffers(dpy, s), "eglSwapBuffers on a pbuffer");
        eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(dpy, c);
        eglDestroySurface(dpy, s);
    }
    eglTerminate(dpy);
    printf("total %.3f s\nOK\n", now() - t0);
    return 0;
}
