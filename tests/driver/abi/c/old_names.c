/* shimgl ABI test host: old extension names from C, in a compatibility context (OSMesa,
 * linked against libshimgl.so). GL_NV_half_float: glVertexAttribs2hvNV reads n x 2
 * halves (the registry says n: driver/abi/build.py's _LENGTH_FIXES), the immediate
 * commands take binary16 values; GL_ARB_shader_objects: an info log and the attached
 * objects written into the caller's arrays with their counts. Prints one line per
 * check; exit status 0 when all passed. */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <string.h>

typedef void *OSMesaContext;
OSMesaContext OSMesaCreateContextExt(GLenum format, GLint depth, GLint stencil, GLint accum, OSMesaContext share);
GLboolean OSMesaMakeCurrent(OSMesaContext ctx, void *buffer, GLenum type, GLsizei w, GLsizei h);

static unsigned char window[8 * 8 * 4];
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
    OSMesaContext ctx = OSMesaCreateContextExt(GL_RGBA, 24, 8, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, window, GL_UNSIGNED_BYTE, 8, 8)) {
        printf("FAIL context\n");
        return 1;
    }
    const char *ext = (const char *) glGetString(GL_EXTENSIONS);
    check("GL_NV_half_float and GL_ARB_shader_objects are listed",
          ext && strstr(ext, "GL_NV_half_float ") && strstr(ext, "GL_ARB_shader_objects "));

    /* binary16 by hand: 1.0 = 0x3C00, 2.0 = 0x4000, 3.0 = 0x4200, 4.0 = 0x4400, 0.5 = 0x3800 */
    const GLhalfNV four[4] = {0x3C00, 0x4000, 0x4200, 0x4400};
    GLfloat v[4];
    glVertexAttribs2hvNV(5, 2, four);
    glGetVertexAttribfv(5, GL_CURRENT_VERTEX_ATTRIB_ARB, v);
    check("glVertexAttribs2hvNV: attribute 5 = (1, 2)", v[0] == 1.0f && v[1] == 2.0f);
    glGetVertexAttribfv(6, GL_CURRENT_VERTEX_ATTRIB_ARB, v);
    check("glVertexAttribs2hvNV: attribute 6 = (3, 4) (the second pair)", v[0] == 3.0f && v[1] == 4.0f);
    glColor4hvNV(four);
    glGetFloatv(GL_CURRENT_COLOR, v);
    check("glColor4hvNV", v[0] == 1.0f && v[1] == 2.0f && v[2] == 3.0f && v[3] == 4.0f);
    glTexCoord2hNV(0x3800, 0x4000);
    glGetFloatv(GL_CURRENT_TEXTURE_COORDS, v);
    check("glTexCoord2hNV", v[0] == 0.5f && v[1] == 2.0f);

    GLhandleARB sh = glCreateShaderObjectARB(GL_VERTEX_SHADER_ARB);
    const GLcharARB *bad = "void main() { gl_Position = vec4(0.0) }\n";
    glShaderSourceARB(sh, 1, &bad, NULL);
    glCompileShaderARB(sh);
    GLint status = -1, loglen = -1;
    glGetObjectParameterivARB(sh, GL_OBJECT_COMPILE_STATUS_ARB, &status);
    glGetObjectParameterivARB(sh, GL_OBJECT_INFO_LOG_LENGTH_ARB, &loglen);
    char log[512];
    GLsizei written = -1;
    glGetInfoLogARB(sh, sizeof log, &written, log);
    check("glGetInfoLogARB writes the log and its length",
          status == 0 && loglen == written + 1 && written > 0 && strstr(log, "error") != NULL);
    GLhandleARB prog = glCreateProgramObjectARB();
    glAttachObjectARB(prog, sh);
    GLhandleARB attached[4] = {0, 0, 0, 0};
    GLsizei count = -1;
    glGetAttachedObjectsARB(prog, 4, &count, attached);
    check("glGetAttachedObjectsARB", count == 1 && attached[0] == sh);
    glDeleteObjectARB(prog);
    glDeleteObjectARB(sh);
    check("glDeleteObjectARB on both kinds", !glIsProgram(prog) && !glIsShader(sh));

    printf("%d failures\n", failures);
    return failures != 0;
}
