/* shimgl ABI test host: an OpenGL ES 1.1 context through the system's glvnd
 * libEGL and libGLESv1_CM (EGL_OPENGL_ES_BIT config, EGL_CONTEXT_CLIENT_VERSION 1).
 *
 * Draws with the fixed-point commands and GL_FIXED arrays: a red quad on the
 * left half (glColor4x), a lit quad on the right half (glLightxv, glMaterialxv,
 * glNormal3x: a white directional light along +z on a green material, no
 * ambient light -> pure green), over a glClearColorx blue. Checks the pixels,
 * glGetFixedv of the projection matrix, and that a command ES 1.1 lacks
 * (glCreateShader, found by eglGetProcAddress) records GL_INVALID_OPERATION.
 * Prints "N failures". */
#include <EGL/egl.h>
#include <GLES/gl.h>
#include <GLES/glext.h>
#include <stdio.h>
#include <string.h>

#define W 32
#define H 16
#define X(f) ((GLfixed)((f) * 65536))

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static void pixel(int x, int y, unsigned char *px)
{
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
}

int main(void)
{
    EGLDisplay dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    EGLint major, minor, n = 0;
    if (!eglInitialize(dpy, &major, &minor)) {
        printf("FAIL eglInitialize 0x%x\n", eglGetError());
        return 1;
    }
    EGLint want[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES_BIT, EGL_SURFACE_TYPE, EGL_PBUFFER_BIT,
                     EGL_RED_SIZE, 8, EGL_NONE};
    EGLConfig cfg;
    if (!eglChooseConfig(dpy, want, &cfg, 1, &n) || n < 1) {
        printf("FAIL no EGL_OPENGL_ES_BIT config 0x%x\n", eglGetError());
        return 1;
    }
    EGLint pb[] = {EGL_WIDTH, W, EGL_HEIGHT, H, EGL_NONE};
    EGLSurface surf = eglCreatePbufferSurface(dpy, cfg, pb);
    eglBindAPI(EGL_OPENGL_ES_API);
    EGLint es1[] = {EGL_CONTEXT_CLIENT_VERSION, 1, EGL_NONE};
    EGLContext ctx = eglCreateContext(dpy, cfg, EGL_NO_CONTEXT, es1);
    if (ctx == EGL_NO_CONTEXT || !eglMakeCurrent(dpy, surf, surf, ctx)) {
        printf("FAIL ES 1 context 0x%x\n", eglGetError());
        return 1;
    }
    EGLint client_version = 0;
    eglQueryContext(dpy, ctx, EGL_CONTEXT_CLIENT_VERSION, &client_version);
    CHECK(client_version == 1, "EGL_CONTEXT_CLIENT_VERSION %d", client_version);
    const char *version = (const char *)glGetString(GL_VERSION);
    printf("GL_VERSION %s\n", version);
    CHECK(version && strncmp(version, "OpenGL ES-CM 1.1", 16) == 0, "version");
    printf("GL_EXTENSIONS %s\n", (const char *)glGetString(GL_EXTENSIONS));

    glViewport(0, 0, W, H);
    glClearColorx(0, 0, X(1), X(1));
    glClear(GL_COLOR_BUFFER_BIT);
    glMatrixMode(GL_PROJECTION);
    glLoadIdentity();
    glOrthof(0, W, 0, H, -1, 1);
    GLfixed proj[16];
    glGetFixedv(GL_PROJECTION_MATRIX, proj);
    CHECK(proj[0] == X(2.0 / W) && proj[5] == X(2.0 / H) && proj[10] == X(-1) && proj[12] == X(-1),
          "projection %d %d %d %d", proj[0], proj[5], proj[10], proj[12]);
    glMatrixMode(GL_MODELVIEW);
    glLoadIdentity();

    /* left half: red, GL_FIXED positions */
    GLfixed left[] = {0, 0, X(W / 2), 0, 0, X(H), X(W / 2), X(H)};
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FIXED, 0, left);
    glColor4x(X(1), 0, 0, X(1));
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);

    /* right half: lit green */
    GLfixed zero[] = {0, 0, 0, X(1)}, white[] = {X(1), X(1), X(1), X(1)};
    GLfixed dir[] = {0, 0, X(1), 0}, green[] = {0, X(1), 0, X(1)};
    glLightModelxv(GL_LIGHT_MODEL_AMBIENT, zero);
    glLightxv(GL_LIGHT0, GL_POSITION, dir);
    glLightxv(GL_LIGHT0, GL_DIFFUSE, white);
    glMaterialxv(GL_FRONT_AND_BACK, GL_AMBIENT_AND_DIFFUSE, green);
    glNormal3x(0, 0, X(1));
    glEnable(GL_LIGHTING);
    glEnable(GL_LIGHT0);
    glTranslatex(X(W / 2), 0, 0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glDisable(GL_LIGHTING);
    CHECK(glGetError() == GL_NO_ERROR, "GL error after drawing");

    unsigned char px[4];
    pixel(4, 8, px);
    CHECK(px[0] == 255 && px[1] == 0 && px[2] == 0, "left %d %d %d", px[0], px[1], px[2]);
    pixel(W - 4, 8, px);
    CHECK(px[0] == 0 && px[1] == 255 && px[2] == 0, "right %d %d %d", px[0], px[1], px[2]);

    /* a command ES 1.1 lacks: found, but GL_INVALID_OPERATION (Mesa's dispatch) */
    GLuint (*create_shader)(GLenum) = (GLuint (*)(GLenum))eglGetProcAddress("glCreateShader");
    CHECK(create_shader != NULL, "glCreateShader not found");
    if (create_shader) {
        GLuint s = create_shader(0x8B31);
        CHECK(s == 0 && glGetError() == GL_INVALID_OPERATION, "glCreateShader in ES 1.1");
    }
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, ctx);
    eglTerminate(dpy);
    printf("%d failures\n", failures);
    return failures != 0;
}
