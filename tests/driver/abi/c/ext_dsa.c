/* shimgl ABI test host: GL_EXT_direct_state_access from C, in a compatibility
 * context (OSMesa, linked against libshimgl.so). Each EXT command's pointers are
 * read and written as its core command's: pixel uploads as far as the unpack state
 * spans, read-backs into the caller's memory, mapped buffers, matrices, program
 * strings, draw buffer arrays, client array pointers; a command failing on its
 * selector reads none of its client memory. Values are written by hand here and
 * read back through the core queries. Prints one line per check; exit status 0
 * when all passed. */
#define GL_GLEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void *OSMesaContext;
OSMesaContext OSMesaCreateContextExt(GLenum format, GLint depth, GLint stencil, GLint accum, OSMesaContext share);
GLboolean OSMesaMakeCurrent(OSMesaContext ctx, void *buffer, GLenum type, GLsizei w, GLsizei h);

static unsigned char window[16 * 16 * 4];
static int failures;

static void check(const char *what, int ok)
{
    GLenum err = glGetError();
    int pass = ok && err == GL_NO_ERROR;
    printf("%s %s (GL error 0x%x)\n", pass ? "ok" : "FAIL", what, err);
    failures += !pass;
}

static void check_error(const char *what, GLenum want)
{
    GLenum err = glGetError();
    printf("%s %s: 0x%x (want 0x%x)\n", err == want ? "ok" : "FAIL", what, err, want);
    failures += err != want;
}

static GLint get_int(GLenum pname)
{
    GLint v = -1;
    glGetIntegerv(pname, &v);
    return v;
}

int main(void)
{
    OSMesaContext ctx = OSMesaCreateContextExt(GL_RGBA, 24, 8, 0, NULL);
    if (!ctx || !OSMesaMakeCurrent(ctx, window, GL_UNSIGNED_BYTE, 16, 16)) {
        printf("FAIL context\n");
        return 1;
    }
    const char *extensions = (const char *) glGetString(GL_EXTENSIONS);
    check("GL_EXT_direct_state_access is listed",
          extensions && strstr(extensions, "GL_EXT_direct_state_access ") != NULL);

    /* textures: a 4x4 RGBA8 image from client memory, the texture never bound */
    GLubyte texels[4 * 4 * 4], got[4 * 4 * 4];
    for (int i = 0; i < (int) sizeof texels; i++)
        texels[i] = (GLubyte) (7 * i + 3);
    GLuint tex[3];
    glGenTextures(3, tex);
    glTextureImage2DEXT(tex[0], GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    memset(got, 0, sizeof got);
    glGetTextureImageEXT(tex[0], GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    check("glTextureImage2DEXT / glGetTextureImageEXT round trip", memcmp(got, texels, sizeof got) == 0);
    check("the texture binding is unchanged", get_int(GL_TEXTURE_BINDING_2D) == 0);

    /* a sub-image read with the unpack state: row length 4, skip 1 row and 2 pixels */
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 4);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 1);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 2);
    GLubyte patch[4 * 4 * 4];
    for (int i = 0; i < (int) sizeof patch; i++)
        patch[i] = (GLubyte) (200 - i);
    glTextureSubImage2DEXT(tex[0], GL_TEXTURE_2D, 0, 1, 1, 2, 2, GL_RGBA, GL_UNSIGNED_BYTE, patch);
    glPixelStorei(GL_UNPACK_ROW_LENGTH, 0);
    glPixelStorei(GL_UNPACK_SKIP_ROWS, 0);
    glPixelStorei(GL_UNPACK_SKIP_PIXELS, 0);
    glGetTextureImageEXT(tex[0], GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    /* texel (1,1) <- patch pixel (2,1): bytes 4 * (1 * 4 + 2) */
    check("glTextureSubImage2DEXT reads as the unpack state lays out",
          memcmp(got + 4 * (1 * 4 + 1), patch + 4 * (1 * 4 + 2), 8) == 0 &&
          memcmp(got + 4 * (2 * 4 + 1), patch + 4 * (2 * 4 + 2), 8) == 0 &&
          memcmp(got, texels, 4 * 5) == 0);

    /* a target the texture does not have: INVALID_OPERATION before the pixels are read
       (the address is not readable) */
    glTextureImage2DEXT(tex[0], GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                        (const void *) (uintptr_t) 16);
    check_error("glTextureImage2DEXT on another target, unreadable pixels", GL_INVALID_OPERATION);
    glMultiTexImage2DEXT(GL_TEXTURE0 + 4096, GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE,
                         (const void *) (uintptr_t) 16);
    check_error("glMultiTexImage2DEXT on a unit past the last, unreadable pixels", GL_INVALID_ENUM);

    /* proxy textures: texture 0 only */
    GLint w = -1;
    glTextureImage2DEXT(0, GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 64, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGetTextureLevelParameterivEXT(0, GL_PROXY_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    check("a proxy image through glTextureImage2DEXT(0, GL_PROXY_TEXTURE_2D)", w == 64);
    glTextureImage2DEXT(0, GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 1 << 20, 32, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGetTextureLevelParameterivEXT(0, GL_PROXY_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    check("a proxy image too wide: width 0, no error", w == 0);
    glTextureImage2DEXT(tex[2], GL_PROXY_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    check_error("a proxy target with a texture name", GL_INVALID_OPERATION);

    /* multi-texture: unit 1's 2D texture, the active unit unchanged */
    glMultiTexImage2DEXT(GL_TEXTURE1, GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, texels);
    memset(got, 0, sizeof got);
    glGetMultiTexImageEXT(GL_TEXTURE1, GL_TEXTURE_2D, 0, GL_RGBA, GL_UNSIGNED_BYTE, got);
    check("glMultiTexImage2DEXT / glGetMultiTexImageEXT on unit 1",
          memcmp(got, texels, sizeof got) == 0 && get_int(GL_ACTIVE_TEXTURE) == GL_TEXTURE0);
    GLfloat color[4] = {0.25f, 0.5f, 0.75f, 1.0f}, got_color[4] = {0};
    glMultiTexEnvfvEXT(GL_TEXTURE2, GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, color);
    glActiveTexture(GL_TEXTURE2);
    glGetTexEnvfv(GL_TEXTURE_ENV, GL_TEXTURE_ENV_COLOR, got_color);
    glActiveTexture(GL_TEXTURE0);
    check("glMultiTexEnvfvEXT reads four values", memcmp(color, got_color, sizeof color) == 0);

    /* compressed: one RGTC1 block (8 bytes) of a 4x4 texture */
    const GLubyte block[8] = {0x80, 0x10, 1, 2, 3, 4, 5, 6};
    GLubyte got_block[8] = {0};
    glCompressedTextureImage2DEXT(tex[1], GL_TEXTURE_2D, 0, GL_COMPRESSED_RED_RGTC1, 4, 4, 0, 8, block);
    glGetCompressedTextureImageEXT(tex[1], GL_TEXTURE_2D, 0, got_block);
    check("glCompressedTextureImage2DEXT / glGetCompressedTextureImageEXT", memcmp(block, got_block, 8) == 0);

    /* buffers: data, sub-data, a mapped range, read-back, the pointer query */
    GLuint buf;
    glGenBuffers(1, &buf);
    const GLubyte bytes[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    glNamedBufferDataEXT(buf, 16, bytes, GL_STATIC_DRAW);
    const GLubyte two[2] = {99, 98};
    glNamedBufferSubDataEXT(buf, 4, 2, two);
    GLubyte *map = (GLubyte *) glMapNamedBufferRangeEXT(buf, 2, 8, GL_MAP_READ_BIT);
    check("glMapNamedBufferRangeEXT maps the named buffer's bytes",
          map != NULL && map[0] == 3 && map[2] == 99 && map[3] == 98 && map[4] == 7);
    void *reported = NULL;
    glGetNamedBufferPointervEXT(buf, GL_BUFFER_MAP_POINTER, &reported);
    check("glGetNamedBufferPointervEXT reports the mapping", reported == (void *) map);
    check("glUnmapNamedBufferEXT", glUnmapNamedBufferEXT(buf) == GL_TRUE);
    GLubyte back[4] = {0};
    glGetNamedBufferSubDataEXT(buf, 3, 4, back);
    check("glGetNamedBufferSubDataEXT", back[0] == 4 && back[1] == 99 && back[2] == 98 && back[3] == 7);
    check("no buffer bound meanwhile", get_int(GL_COPY_WRITE_BUFFER_BINDING) == 0);
    glNamedBufferDataEXT(0, 16, (const void *) (uintptr_t) 16, GL_STATIC_DRAW);
    check_error("glNamedBufferDataEXT on buffer 0, unreadable data", GL_INVALID_OPERATION);

    /* matrices: 16 values read from the pointer, the matrix mode left as it was */
    glMatrixMode(GL_MODELVIEW);
    const GLfloat m[16] = {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 5, 6, 7, 1};
    GLfloat got_m[16] = {0};
    glMatrixLoadfEXT(GL_PROJECTION, m);
    glGetFloatv(GL_PROJECTION_MATRIX, got_m);
    check("glMatrixLoadfEXT(GL_PROJECTION)", memcmp(m, got_m, sizeof m) == 0 &&
          get_int(GL_MATRIX_MODE) == GL_MODELVIEW);
    glMatrixLoadIdentityEXT(GL_PROJECTION);

    /* ARB programs: the string in and out */
    static const char vp[] = "!!ARBvp1.0\nMOV result.position, vertex.position;\nEND";
    GLuint prog = 7;
    glNamedProgramStringEXT(prog, GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_FORMAT_ASCII_ARB, (GLsizei) strlen(vp), vp);
    GLint length = 0;
    glGetNamedProgramivEXT(prog, GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_LENGTH_ARB, &length);
    char text[128] = {0};
    glGetNamedProgramStringEXT(prog, GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_STRING_ARB, text);
    check("glNamedProgramStringEXT / glGetNamedProgramStringEXT",
          length == (GLint) strlen(vp) && memcmp(text, vp, strlen(vp)) == 0);
    GLint binding = -1;
    glGetNamedProgramivEXT(prog, GL_VERTEX_PROGRAM_ARB, GL_PROGRAM_BINDING_ARB, &binding);
    check("GL_PROGRAM_BINDING_ARB is the context's binding, not the named program", binding == 0);

    /* framebuffers: a draw buffer array of two */
    GLuint fbo;
    glGenFramebuffers(1, &fbo);
    const GLenum bufs[2] = {GL_COLOR_ATTACHMENT1, GL_COLOR_ATTACHMENT0};
    glFramebufferDrawBuffersEXT(fbo, 2, bufs);
    GLint db1 = 0;
    glGetFramebufferParameterivEXT(fbo, GL_DRAW_BUFFER1, &db1);
    check("glFramebufferDrawBuffersEXT / glGetFramebufferParameterivEXT(GL_DRAW_BUFFER1)",
          db1 == GL_COLOR_ATTACHMENT0 && get_int(GL_DRAW_FRAMEBUFFER_BINDING) == 0);

    /* client arrays: the pointer of unit 1's coordinates and a vertex array object's */
    static const GLfloat coords[8] = {0};
    glMultiTexCoordPointerEXT(GL_TEXTURE1, 2, GL_FLOAT, 0, coords);
    void *p = NULL;
    glGetPointerIndexedvEXT(GL_TEXTURE_COORD_ARRAY_POINTER, 1, &p);
    check("glMultiTexCoordPointerEXT / glGetPointerIndexedvEXT", p == (void *) coords &&
          get_int(GL_CLIENT_ACTIVE_TEXTURE) == GL_TEXTURE0);
    GLuint vao;
    glGenVertexArrays(1, &vao);
    glBindVertexArray(vao);
    glBindVertexArray(0);
    glVertexArrayVertexOffsetEXT(vao, buf, 3, GL_FLOAT, 12, 4);
    void *offset = NULL;
    glGetVertexArrayPointervEXT(vao, GL_VERTEX_ARRAY_POINTER, &offset);
    GLint as_int = -1;
    glGetVertexArrayIntegervEXT(vao, GL_VERTEX_ARRAY_POINTER, &as_int);
    check("glVertexArrayVertexOffsetEXT: the offset as a pointer and as an integer",
          offset == (void *) 4 && as_int == 4 && get_int(GL_ARRAY_BUFFER_BINDING) == 0);

    printf("%d failures\n", failures);
    return failures != 0;
}
