/* shimgl ABI test host: OES_mapbuffer from C, as glmark2's buffer scene uses it
 * (glMapBufferOES / glUnmapBufferOES / glGetBufferPointervOES found with
 * eglGetProcAddress in a GLES 2 context): the mapping's address is the one
 * glGetBufferPointervOES reports, bytes written through it reach the buffer
 * (drawn as a quad covering the left half of the surface, then read back), and
 * glMapBufferARB in a desktop context maps too. Linked against libshimgl.so
 * directly, surfaceless pbuffers. One line per check; exit status 0 when all passed. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES2/gl2.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(const char *what, int ok)
{
    GLenum err = glGetError();
    int pass = ok && err == GL_NO_ERROR;
    printf("%s %s (GL error 0x%x)\n", pass ? "ok" : "FAIL", what, err);
    failures += !pass;
}

static EGLDisplay dpy;
static EGLConfig cfg;
static EGLSurface surf;

static int make_current(EGLenum api, const EGLint *attribs)
{
    eglBindAPI(api);
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, attribs);
    if (!ctx || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        printf("FAIL context (EGL error 0x%x)\n", eglGetError());
        return 0;
    }
    return 1;
}

static GLuint shader(GLenum kind, const char *src)
{
    GLuint s = glCreateShader(kind);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    return s;
}

int main(void)
{
    EGLint n;
    dpy = eglGetPlatformDisplay(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, NULL);
    eglInitialize(dpy, NULL, NULL);
    EGLint want[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_ES2_BIT, EGL_NONE};
    eglChooseConfig(dpy, want, &cfg, 1, &n);
    surf = eglCreatePbufferSurface(dpy, cfg, (EGLint[]){EGL_WIDTH, 8, EGL_HEIGHT, 4, EGL_NONE});
    if (!make_current(EGL_OPENGL_ES_API, (EGLint[]){EGL_CONTEXT_CLIENT_VERSION, 2, EGL_NONE}))
        return 1;

    check("GL_OES_mapbuffer listed",
          strstr((const char *)glGetString(GL_EXTENSIONS), "GL_OES_mapbuffer") != NULL);
    PFNGLMAPBUFFEROESPROC map = (PFNGLMAPBUFFEROESPROC)eglGetProcAddress("glMapBufferOES");
    PFNGLUNMAPBUFFEROESPROC unmap = (PFNGLUNMAPBUFFEROESPROC)eglGetProcAddress("glUnmapBufferOES");
    PFNGLGETBUFFERPOINTERVOESPROC pointer =
        (PFNGLGETBUFFERPOINTERVOESPROC)eglGetProcAddress("glGetBufferPointervOES");
    check("entry points found", map && unmap && pointer);

    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER,
        "attribute vec2 p; void main() { gl_Position = vec4(p, 0.0, 1.0); }"));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER,
        "precision mediump float; void main() { gl_FragColor = vec4(1.0, 0.0, 0.0, 1.0); }"));
    glBindAttribLocation(prog, 0, "p");
    glLinkProgram(prog);
    glUseProgram(prog);

    static const GLfloat left[12] = {-1, -1, 0, -1, -1, 1,  -1, 1, 0, -1, 0, 1};
    GLuint vbo;
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof left, NULL, GL_DYNAMIC_DRAW);
    void *m = map(GL_ARRAY_BUFFER, GL_WRITE_ONLY_OES);
    check("glMapBufferOES(WRITE_ONLY_OES)", m != NULL);
    void *reported = NULL;
    pointer(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &reported);
    check("glGetBufferPointervOES is the mapping's address", reported == m);
    if (m)
        memcpy(m, left, sizeof left);
    check("glUnmapBufferOES returns TRUE", unmap(GL_ARRAY_BUFFER) == GL_TRUE);
    pointer(GL_ARRAY_BUFFER, GL_BUFFER_MAP_POINTER_OES, &reported);
    check("no pointer once unmapped", reported == NULL);
    void *bad = map(GL_ARRAY_BUFFER, 0x88B8 /* GL_READ_ONLY */);
    GLenum err = glGetError();
    printf("%s READ_ONLY: NULL and GL_INVALID_ENUM (0x%x)\n",
           bad == NULL && err == GL_INVALID_ENUM ? "ok" : "FAIL", err);
    failures += !(bad == NULL && err == GL_INVALID_ENUM);

    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDrawArrays(GL_TRIANGLES, 0, 6);
    GLubyte px[4 * 8 * 4];
    glReadPixels(0, 0, 8, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    int drawn = 1;
    for (int y = 0; y < 4; y++)
        for (int x = 0; x < 8; x++) {
            const GLubyte *p = px + 4 * (8 * y + x);
            drawn &= x < 4 ? (p[0] == 255 && p[2] == 0) : (p[0] == 0 && p[2] == 255);
        }
    check("the mapped vertices are drawn: left half red, right half clear", drawn);

    /* desktop GL: glMapBufferARB, an alias of glMapBuffer, through the same path */
    EGLint want_gl[] = {EGL_SURFACE_TYPE, EGL_PBUFFER_BIT, EGL_RENDERABLE_TYPE, EGL_OPENGL_BIT, EGL_NONE};
    eglChooseConfig(dpy, want_gl, &cfg, 1, &n);
    if (!make_current(EGL_OPENGL_API, (EGLint[]){EGL_NONE}))
        return 1;
    typedef void *(*map_arb_t)(GLenum, GLenum);
    typedef GLboolean (*unmap_arb_t)(GLenum);
    map_arb_t map_arb = (map_arb_t)eglGetProcAddress("glMapBufferARB");
    unmap_arb_t unmap_arb = (unmap_arb_t)eglGetProcAddress("glUnmapBufferARB");
    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    static const GLubyte bytes[4] = {1, 2, 3, 4};
    glBufferData(GL_ARRAY_BUFFER, 4, bytes, GL_STATIC_DRAW);
    const GLubyte *r = map_arb(GL_ARRAY_BUFFER, 0x88BA /* GL_READ_WRITE */);
    check("glMapBufferARB reads the buffer", r != NULL && memcmp(r, bytes, 4) == 0);
    check("glUnmapBufferARB", unmap_arb(GL_ARRAY_BUFFER) == GL_TRUE);

    printf("%d failures\n", failures);
    return failures != 0;
}
