/* shimgl ABI test host: OpenGL ES contexts through OSMesa, shimgl's extension
 * OSMESA_ES_PROFILE_SHIMGL (osmesa_shimgl.h, beside the library). Linked
 * against libshimgl.so itself.
 *
 * ES 1.1 (asked as 1.1 and as 1.0): over a blue clear, the left half is a
 * red quad (glColor4f, client vertex array), the right half a textured quad
 * in GL_MODULATE: a yellow texel (255, 255, 0) times the colour (0, 1, 1) is
 * green (0, 255, 0); the colour alone would be cyan, the texel alone yellow.
 * ES 3.2: GL_VERSION, MAJOR/MINOR_VERSION, a #version 320 es program drawing
 * the left half with a uniform red and the right half green.
 * Refused requests (NULL): ES 2.1, 3.3, 4.0, an unknown profile, a desktop
 * sharelist for an ES context. Prints "N failures". */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <string.h>

#include "osmesa_shimgl.h"

typedef struct osmesa_context *OSMesaContext;
OSMesaContext OSMesaCreateContextAttribs(const int *attribList, OSMesaContext sharelist);
GLboolean OSMesaMakeCurrent(OSMesaContext ctx, void *buffer, GLenum type, GLsizei width, GLsizei height);
void OSMesaDestroyContext(OSMesaContext ctx);

#define OSMESA_FORMAT 0x22
#define OSMESA_PROFILE 0x33
#define OSMESA_COMPAT_PROFILE 0x35
#define OSMESA_CONTEXT_MAJOR_VERSION 0x36
#define OSMESA_CONTEXT_MINOR_VERSION 0x37
#define OSMESA_RGBA GL_RGBA
#define W 32
#define H 16

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static OSMesaContext create(int profile, int major, int minor, OSMesaContext share)
{
    int attribs[] = {OSMESA_FORMAT, OSMESA_RGBA, OSMESA_PROFILE, profile,
                     OSMESA_CONTEXT_MAJOR_VERSION, major, OSMESA_CONTEXT_MINOR_VERSION, minor, 0};
    return OSMesaCreateContextAttribs(attribs, share);
}

/* the pixel at (x, y) of an OSMesa RGBA buffer (rows bottom to top) */
static int is_pixel(const unsigned char *buf, int x, int y, int r, int g, int b, int a)
{
    const unsigned char *p = buf + 4 * (y * W + x);
    if (p[0] == r && p[1] == g && p[2] == b && p[3] == a)
        return 1;
    printf("  pixel (%d, %d) is %d %d %d %d, expected %d %d %d %d\n", x, y, p[0], p[1], p[2], p[3],
           r, g, b, a);
    return 0;
}

static void check_halves(const unsigned char *buf, const char *what)
{
    int xs[] = {0, W / 2 - 1, W / 2, W - 1}, ys[] = {0, H - 1};
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < 2; j++) {
            if (xs[i] < W / 2)
                CHECK(is_pixel(buf, xs[i], ys[j], 255, 0, 0, 255), "%s left half red", what);
            else
                CHECK(is_pixel(buf, xs[i], ys[j], 0, 255, 0, 255), "%s right half green", what);
        }
}

static void es1(int minor)
{
    static unsigned char buf[W * H * 4];
    memset(buf, 0, sizeof buf);
    OSMesaContext ctx = create(OSMESA_ES_PROFILE_SHIMGL, 1, minor, NULL);
    CHECK(ctx != NULL, "ES 1.%d context", minor);
    if (!ctx)
        return;
    CHECK(OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, W, H), "make current");
    const char *version = (const char *)glGetString(GL_VERSION);
    printf("ES 1.%d GL_VERSION %s\n", minor, version);
    CHECK(version && strncmp(version, "OpenGL ES-CM 1.1 shimgl", 23) == 0, "ES 1 version");
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    static const GLfloat left[] = {-1, -1, 0, -1, -1, 1, 0, 1};
    static const GLfloat right[] = {0, -1, 1, -1, 0, 1, 1, 1};
    static const GLfloat uv[] = {0, 0, 1, 0, 0, 1, 1, 1};
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, left);
    glColor4f(1, 0, 0, 1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    static const unsigned char yellow[] = {255, 255, 0, 255};
    GLuint tex;
    glGenTextures(1, &tex);
    glBindTexture(GL_TEXTURE_2D, tex);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, yellow);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexEnvi(GL_TEXTURE_ENV, GL_TEXTURE_ENV_MODE, GL_MODULATE);
    glEnable(GL_TEXTURE_2D);
    glEnableClientState(GL_TEXTURE_COORD_ARRAY);
    glTexCoordPointer(2, GL_FLOAT, 0, uv);
    glVertexPointer(2, GL_FLOAT, 0, right);
    glColor4f(0, 1, 1, 1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glFinish();
    CHECK(glGetError() == GL_NO_ERROR, "ES 1 errors");
    check_halves(buf, "ES 1.1");
    OSMesaDestroyContext(ctx);
}

static GLuint shader(GLenum type, const char *src)
{
    GLuint s = glCreateShader(type);
    glShaderSource(s, 1, &src, NULL);
    glCompileShader(s);
    GLint ok = 0;
    glGetShaderiv(s, GL_COMPILE_STATUS, &ok);
    if (!ok) {
        char log[512];
        glGetShaderInfoLog(s, sizeof log, NULL, log);
        printf("shader log: %s\n", log);
    }
    CHECK(ok, "compile");
    return s;
}

static void es32(int major, int minor)
{
    static unsigned char buf[W * H * 4];
    memset(buf, 0, sizeof buf);
    OSMesaContext ctx = create(OSMESA_ES_PROFILE_SHIMGL, major, minor, NULL);
    CHECK(ctx != NULL, "ES %d.%d context", major, minor);
    if (!ctx)
        return;
    CHECK(OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, W, H), "make current");
    const char *version = (const char *)glGetString(GL_VERSION);
    printf("ES %d.%d GL_VERSION %s\n", major, minor, version);
    CHECK(version && strncmp(version, "OpenGL ES 3.2 shimgl", 20) == 0, "ES 3.2 version");
    GLint v[2] = {0, 0};
    glGetIntegerv(GL_MAJOR_VERSION, &v[0]);
    glGetIntegerv(GL_MINOR_VERSION, &v[1]);
    CHECK(v[0] == 3 && v[1] == 2, "MAJOR/MINOR_VERSION %d.%d", v[0], v[1]);
    GLuint prog = glCreateProgram();
    glAttachShader(prog, shader(GL_VERTEX_SHADER,
        "#version 320 es\nin vec2 p;\nvoid main() { gl_Position = vec4(p, 0.0, 1.0); }\n"));
    glAttachShader(prog, shader(GL_FRAGMENT_SHADER,
        "#version 320 es\nprecision mediump float;\nuniform vec4 colour;\nout vec4 o;\n"
        "void main() { o = colour; }\n"));
    glBindAttribLocation(prog, 0, "p");
    glLinkProgram(prog);
    GLint linked = 0;
    glGetProgramiv(prog, GL_LINK_STATUS, &linked);
    CHECK(linked, "link");
    glUseProgram(prog);
    static const GLfloat quads[] = {-1, -1, 0, -1, -1, 1, 0, 1, 0, -1, 1, -1, 0, 1, 1, 1};
    GLuint vao, vbo;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glGenBuffers(1, &vbo);
    glBindBuffer(GL_ARRAY_BUFFER, vbo);
    glBufferData(GL_ARRAY_BUFFER, sizeof quads, quads, GL_STATIC_DRAW);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, 0);
    glEnableVertexAttribArray(0);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    GLint colour = glGetUniformLocation(prog, "colour");
    glUniform4f(colour, 1, 0, 0, 1);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
    glUniform4f(colour, 0, 1, 0, 1);
    glDrawArrays(GL_TRIANGLE_STRIP, 4, 4);
    glFinish();
    CHECK(glGetError() == GL_NO_ERROR, "ES 3 errors");
    check_halves(buf, "ES 3.2");
    OSMesaDestroyContext(ctx);
}

int main(void)
{
    es1(1);
    es1(0);
    es32(3, 2);
    es32(2, 0);
    int bad[][2] = {{2, 1}, {3, 3}, {4, 0}, {1, 2}, {0, 0}};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        CHECK(create(OSMESA_ES_PROFILE_SHIMGL, bad[i][0], bad[i][1], NULL) == NULL,
              "ES %d.%d is not a version", bad[i][0], bad[i][1]);
    CHECK(create(0x999, 3, 0, NULL) == NULL, "unknown profile");
    OSMesaContext desktop = create(OSMESA_COMPAT_PROFILE, 2, 1, NULL);
    CHECK(desktop != NULL, "desktop context");
    CHECK(create(OSMESA_ES_PROFILE_SHIMGL, 3, 2, desktop) == NULL, "ES context sharing a desktop one");
    OSMesaDestroyContext(desktop);
    printf("%d failures\n", failures);
    return failures != 0;
}
