/* shimgl ABI test host: legacy GL through libOSMesa.so.8 (linked, as old
 * OSMesa programs are, -lOSMesa -lGL: gl* must come from libOSMesa.so.8
 * before glvnd's libGL): immediate mode, a display list called with
 * glCallLists, client vertex arrays with glDrawElements. Prints the
 * pixels it checks; exit status 0 when all match. */
#include <GL/gl.h>
#include <stdio.h>

typedef void *OSMesaContext;
OSMesaContext OSMesaCreateContextExt(GLenum format, GLint depth, GLint stencil, GLint accum, OSMesaContext share);
GLboolean OSMesaMakeCurrent(OSMesaContext ctx, void *buffer, GLenum type, GLsizei w, GLsizei h);
void OSMesaDestroyContext(OSMesaContext ctx);

#define W 64
#define H 64
static unsigned char buf[W * H * 4];
static int failures;

static void expect(const char *what, int x, int y, int r, int g, int b)
{
    unsigned char *p = buf + (y * W + x) * 4;
    int ok = p[0] == r && p[1] == g && p[2] == b;
    printf("%s %s at (%d,%d): %d %d %d\n", ok ? "ok" : "FAIL", what, x, y, p[0], p[1], p[2]);
    failures += !ok;
}

int main(void)
{
    OSMesaContext ctx = OSMesaCreateContextExt(GL_RGBA, 24, 0, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, buf, GL_UNSIGNED_BYTE, W, H)) { printf("FAIL context\n"); return 1; }
    glClearColor(0, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    /* immediate mode: a red quad over the left half */
    glColor3f(1, 0, 0);
    glBegin(GL_QUADS);
    glVertex2f(-1, -1); glVertex2f(0, -1); glVertex2f(0, 1); glVertex2f(-1, 1);
    glEnd();
    /* a display list drawing a green quad over the top right quarter, called by glCallLists */
    GLuint base = glGenLists(1);
    glNewList(base, GL_COMPILE);
    glColor3f(0, 1, 0);
    glBegin(GL_QUADS);
    glVertex2f(0, 0); glVertex2f(1, 0); glVertex2f(1, 1); glVertex2f(0, 1);
    glEnd();
    glEndList();
    GLubyte offsets[1] = {0};
    glListBase(base);
    glCallLists(1, GL_UNSIGNED_BYTE, offsets);
    /* client arrays + client indices: a blue quad over the bottom right quarter */
    static const GLfloat verts[] = {0, -1, 1, -1, 1, 0, 0, 0};
    static const GLushort idx[] = {0, 1, 2, 0, 2, 3};
    glColor3f(0, 0, 1);
    glEnableClientState(GL_VERTEX_ARRAY);
    glVertexPointer(2, GL_FLOAT, 0, verts);
    glDrawElements(GL_TRIANGLES, 6, GL_UNSIGNED_SHORT, idx);
    glDisableClientState(GL_VERTEX_ARRAY);
    glFinish();
    expect("immediate-mode quad", 10, 32, 255, 0, 0);
    expect("display list via glCallLists", 50, 50, 0, 255, 0);
    expect("client arrays + indices", 50, 10, 0, 0, 255);
    printf("GL error 0x%x\n", glGetError());
    OSMesaDestroyContext(ctx);
    printf("%d failures\n", failures);
    return failures != 0;
}
