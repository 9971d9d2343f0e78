/* shimgl ABI test host: EGL images (EGL_KHR_image_base, EGL_KHR_gl_texture_2D_image,
 * EGL_KHR_gl_texture_cubemap_image, EGL_KHR_gl_renderbuffer_image) and their GL targets
 * (GL_OES_EGL_image, GL_EXT_EGL_image_storage) through the system's glvnd libEGL and
 * libGLESv2, with the entry points resolved by eglGetProcAddress as programs do.
 *
 * Two OpenGL ES 3 contexts of one display that share nothing: a texture drawn in
 * context A is made an image, specified into a texture of context B and sampled
 * there by a draw; what B renders into it is seen by A; a renderbuffer cleared
 * through its image's sibling in B is read in A. Then the lifetimes (the source
 * deleted and the image destroyed while a sibling samples it, a sibling
 * respecified) and the errors the specifications name. Prints "N failures";
 * exit status 0 when every check passed.
 *
 *   egl_image [mesa]     (mesa: skip the three calls Mesa's libEGL crashes on, to run
 *                         the same checks on llvmpipe)
 *
 * On llvmpipe (Mesa 24/25) some checks differ, where Mesa departs from EGL 1.5
 * section 3.9.1: it makes a second image of an EGLImage sibling (the spec: EGL_BAD_ACCESS),
 * and its target of a cube map face image reads zeros. EGL_WIDTH and EGL_HEIGHT
 * (EGL_MESA_drm_image's, outside table 3.10) are taken for GL sources, as Mesa takes them. */
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>
#include <GLES2/gl2ext.h>
#include <stdio.h>
#include <string.h>

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static PFNEGLCREATEIMAGEKHRPROC create_image;
static PFNEGLDESTROYIMAGEKHRPROC destroy_image;
static PFNGLEGLIMAGETARGETTEXTURE2DOESPROC image_target_texture;
static PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC image_target_renderbuffer;
static PFNGLEGLIMAGETARGETTEXSTORAGEEXTPROC image_target_tex_storage;
static EGLDisplay dpy;

static const unsigned char RED[4] = {255, 0, 0, 255}, GREEN[4] = {0, 255, 0, 255},
                           BLUE[4] = {0, 0, 255, 255}, GREY[4] = {128, 128, 128, 255};

static EGLContext make_context(void)
{
    EGLint attrs[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 1, EGL_NONE};
    eglBindAPI(EGL_OPENGL_ES_API);
    return eglCreateContext(dpy, EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, attrs);
}

/* the RGBA8 texel (x, y) of level `level` of texture `tex`, read through a framebuffer */
static void texel(GLuint tex, int level, int x, int y, unsigned char out[4])
{
    GLuint fbo;
    memset(out, 0, 4);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex, level);
    glReadPixels(x, y, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, out);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    glDeleteFramebuffers(1, &fbo);
}

static void expect_texel(const char *what, GLuint tex, int level, int x, int y, const unsigned char want[4])
{
    unsigned char px[4];
    texel(tex, level, x, y, px);
    CHECK(!memcmp(px, want, 4), "%s (%d,%d): %d %d %d %d, want %d %d %d %d", what, x, y,
          px[0], px[1], px[2], px[3], want[0], want[1], want[2], want[3]);
}

/* a framebuffer with one renderbuffer colour attachment of w x h */
static GLuint framebuffer(int w, int h)
{
    GLuint fbo, rb;
    glGenRenderbuffers(1, &rb);
    glBindRenderbuffer(GL_RENDERBUFFER, rb);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, w, h);
    glGenFramebuffers(1, &fbo);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb);
    return fbo;
}

static GLuint program(const char *vs_src, const char *fs_src)
{
    GLuint p = glCreateProgram();
    const char *srcs[2] = {vs_src, fs_src};
    GLenum kinds[2] = {GL_VERTEX_SHADER, GL_FRAGMENT_SHADER};
    for (int i = 0; i < 2; i++) {
        GLuint s = glCreateShader(kinds[i]);
        glShaderSource(s, 1, &srcs[i], NULL);
        glCompileShader(s);
        glAttachShader(p, s);
    }
    glBindAttribLocation(p, 0, "pos");
    glLinkProgram(p);
    GLint ok = 0;
    glGetProgramiv(p, GL_LINK_STATUS, &ok);
    CHECK(ok, "program did not link");
    return p;
}

/* a rectangle over the whole viewport (a triangle strip) */
static void draw_rectangle(GLuint prog)
{
    static const float corners[8] = {-1, -1, 1, -1, -1, 1, 1, 1};
    glUseProgram(prog);
    glBindBuffer(GL_ARRAY_BUFFER, 0);
    glVertexAttribPointer(0, 2, GL_FLOAT, GL_FALSE, 0, corners);
    glEnableVertexAttribArray(0);
    glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
}

static const char *VS = "#version 300 es\nin vec2 pos; out vec2 uv;\n"
                        "void main() { uv = pos * 0.5 + 0.5; gl_Position = vec4(pos, 0.0, 1.0); }\n";
static const char *FS_SAMPLE = "#version 300 es\nprecision mediump float; uniform sampler2D t;\n"
                               "in vec2 uv; out vec4 c; void main() { c = texture(t, uv); }\n";
/* grey where x < 2 (of 4 columns), else what the clear left: a drawn, not cleared, texture */
static const char *FS_GREY = "#version 300 es\nprecision mediump float; out vec4 c;\n"
                             "void main() { if (gl_FragCoord.x > 2.0) discard; c = vec4(128.0 / 255.0); "
                             "c.a = 1.0; }\n";

static void expect_egl_error(const char *what, EGLImageKHR img, EGLint want)
{
    EGLint got = eglGetError();
    CHECK(img == EGL_NO_IMAGE_KHR && got == want, "%s: image %p, error 0x%x, want 0x%x", what, img, got, want);
}

static void expect_gl_error(const char *what, GLenum want)
{
    GLenum got = glGetError();
    CHECK(got == want, "%s: GL error 0x%x, want 0x%x", what, got, want);
}

int main(int argc, char **argv)
{
    int mesa = argc > 1 && !strcmp(argv[1], "mesa");
    dpy = eglGetDisplay(EGL_DEFAULT_DISPLAY);
    CHECK(eglInitialize(dpy, NULL, NULL), "eglInitialize");
    const char *exts = eglQueryString(dpy, EGL_EXTENSIONS);
    printf("EGL extensions: %s\n", exts);
    create_image = (PFNEGLCREATEIMAGEKHRPROC)eglGetProcAddress("eglCreateImageKHR");
    destroy_image = (PFNEGLDESTROYIMAGEKHRPROC)eglGetProcAddress("eglDestroyImageKHR");
    image_target_texture = (PFNGLEGLIMAGETARGETTEXTURE2DOESPROC)eglGetProcAddress("glEGLImageTargetTexture2DOES");
    image_target_renderbuffer =
        (PFNGLEGLIMAGETARGETRENDERBUFFERSTORAGEOESPROC)eglGetProcAddress("glEGLImageTargetRenderbufferStorageOES");
    image_target_tex_storage = (PFNGLEGLIMAGETARGETTEXSTORAGEEXTPROC)eglGetProcAddress("glEGLImageTargetTexStorageEXT");
    if (!create_image || !destroy_image || !image_target_texture || !image_target_renderbuffer
            || !image_target_tex_storage) {
        printf("FAIL: an entry point is missing\n1 failures\n");
        return 1;
    }
    EGLContext a = make_context(), b = make_context();
    CHECK(a != EGL_NO_CONTEXT && b != EGL_NO_CONTEXT, "eglCreateContext");

    /* -- context A: a 4x4 texture cleared red, its left half drawn grey ------------ */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a);
    printf("GL extensions: %s\n", (const char *)glGetString(GL_EXTENSIONS));
    GLuint tex_a, fbo_a;
    glGenTextures(1, &tex_a);
    glBindTexture(GL_TEXTURE_2D, tex_a);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glGenFramebuffers(1, &fbo_a);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_a);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_a, 0);
    glViewport(0, 0, 4, 4);
    glClearColor(1, 0, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    draw_rectangle(program(VS, FS_GREY));
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    EGLImageKHR image = create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_a, NULL);
    CHECK(image != EGL_NO_IMAGE_KHR, "eglCreateImageKHR of a texture: 0x%x", eglGetError());
    glFinish();

    /* -- context B: a texture from the image, sampled by a draw --------------------- */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b);
    GLuint tex_b;
    glGenTextures(1, &tex_b);
    glBindTexture(GL_TEXTURE_2D, tex_b);
    image_target_texture(GL_TEXTURE_2D, image);
    expect_gl_error("glEGLImageTargetTexture2DOES", GL_NO_ERROR);
    GLint w = 0, h = 0;
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_HEIGHT, &h);
    CHECK(w == 4 && h == 4, "the target's level 0 is %dx%d, want 4x4", w, h);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    GLuint fbo_b = framebuffer(4, 4);
    glViewport(0, 0, 4, 4);
    draw_rectangle(program(VS, FS_SAMPLE));
    unsigned char px[4 * 16];
    glReadPixels(0, 0, 4, 4, GL_RGBA, GL_UNSIGNED_BYTE, px);
    for (int i = 0; i < 16; i++) {
        const unsigned char *want = (i % 4) < 2 ? GREY : RED;
        CHECK(!memcmp(px + 4 * i, want, 4), "sampled in B at (%d,%d): %d %d %d %d", i % 4, i / 4,
              px[4 * i], px[4 * i + 1], px[4 * i + 2], px[4 * i + 3]);
    }
    /* B renders into its sibling: the top half blue */
    GLuint fbo_tb;
    glGenFramebuffers(1, &fbo_tb);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_tb);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_TEXTURE_2D, tex_b, 0);
    CHECK(glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE, "the sibling is not renderable");
    glEnable(GL_SCISSOR_TEST);
    glScissor(0, 2, 4, 2);
    glClearColor(0, 0, 1, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glDisable(GL_SCISSOR_TEST);
    glFinish();

    /* -- A sees B's rendering in its own texture -------------------------------------- */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a);
    expect_texel("A's texture after B drew", tex_a, 0, 0, 0, GREY);
    expect_texel("A's texture after B drew", tex_a, 0, 3, 0, RED);
    expect_texel("A's texture after B drew", tex_a, 0, 1, 3, BLUE);

    /* -- renderbuffers: A's cleared through B's sibling ------------------------------- */
    GLuint rb_a;
    glGenRenderbuffers(1, &rb_a);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_a);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, 64, 64);
    EGLImageKHR rb_image = create_image(dpy, a, EGL_GL_RENDERBUFFER_KHR, (EGLClientBuffer)(uintptr_t)rb_a, NULL);
    CHECK(rb_image != EGL_NO_IMAGE_KHR, "eglCreateImageKHR of a renderbuffer: 0x%x", eglGetError());
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b);
    GLuint rb_b, fbo_rb;
    glGenRenderbuffers(1, &rb_b);
    glBindRenderbuffer(GL_RENDERBUFFER, rb_b);
    image_target_renderbuffer(GL_RENDERBUFFER, rb_image);
    expect_gl_error("glEGLImageTargetRenderbufferStorageOES", GL_NO_ERROR);
    GLint rb_w = 0;
    glGetRenderbufferParameteriv(GL_RENDERBUFFER, GL_RENDERBUFFER_WIDTH, &rb_w);
    CHECK(rb_w == 64, "the renderbuffer sibling is %d wide, want 64", rb_w);
    glGenFramebuffers(1, &fbo_rb);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_rb);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_b);
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a);
    GLuint fbo_ra;
    glGenFramebuffers(1, &fbo_ra);
    glBindFramebuffer(GL_FRAMEBUFFER, fbo_ra);
    glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, rb_a);
    memset(px, 0, 4);
    glReadPixels(63, 63, 1, 1, GL_RGBA, GL_UNSIGNED_BYTE, px);
    CHECK(!memcmp(px, GREEN, 4), "A's renderbuffer after B cleared its sibling: %d %d %d %d",
          px[0], px[1], px[2], px[3]);
    glBindFramebuffer(GL_FRAMEBUFFER, 0);

    /* -- errors (EGL 1.5 section 3.9.1) ------------------------------------------------- */
    EGLint level3[] = {EGL_GL_TEXTURE_LEVEL_KHR, 3, EGL_NONE};
    /* EGL_TEXTURE_FORMAT: a surface attribute. EGL_WIDTH/EGL_HEIGHT (EGL_MESA_drm_image's)
       are taken and ignored for GL sources, as by Mesa, whose programs pass them */
    EGLint unknown[] = {EGL_TEXTURE_FORMAT, EGL_TEXTURE_RGBA, EGL_NONE};
    EGLint size_attribs[] = {EGL_WIDTH, 4, EGL_HEIGHT, 4, EGL_GL_TEXTURE_LEVEL_KHR, 0, EGL_NONE};
    expect_egl_error("a second image of the same level (a sibling; the size attributes are taken)",
                     create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_a, size_attribs),
                     EGL_BAD_ACCESS);
    expect_egl_error("an image of a target texture (a sibling)",
                     create_image(dpy, b, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_b, NULL),
                     EGL_BAD_ACCESS);
    expect_egl_error("texture 0", create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)0, NULL),
                     EGL_BAD_PARAMETER);
    expect_egl_error("a name that is no texture",
                     create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)777, NULL),
                     EGL_BAD_PARAMETER);
    expect_egl_error("a level above 0 of an incomplete texture",
                     create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_a, level3),
                     EGL_BAD_PARAMETER);
    expect_egl_error("an attribute outside table 3.10",
                     create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_a, unknown),
                     EGL_BAD_PARAMETER);
    expect_egl_error("a target that is not one", create_image(dpy, a, 0x1234, (EGLClientBuffer)(uintptr_t)tex_a, NULL),
                     EGL_BAD_PARAMETER);
    expect_egl_error("a texture as a cube map face",
                     create_image(dpy, a, EGL_GL_TEXTURE_CUBE_MAP_POSITIVE_X_KHR,
                                  (EGLClientBuffer)(uintptr_t)tex_a, NULL), EGL_BAD_PARAMETER);
    if (!mesa)    /* Mesa's libEGL dereferences these contexts: skipped when it runs the host */
    expect_egl_error("a GL source without a context",
                     create_image(dpy, EGL_NO_CONTEXT, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_a, NULL),
                     EGL_BAD_PARAMETER);
    if (!mesa)
    expect_egl_error("a context that is not one",
                     create_image(dpy, (EGLContext)(uintptr_t)0x999990, EGL_GL_TEXTURE_2D_KHR,
                                  (EGLClientBuffer)(uintptr_t)tex_a, NULL), EGL_BAD_CONTEXT);
    CHECK(!destroy_image(dpy, (EGLImageKHR)(uintptr_t)0x999990) && eglGetError() == EGL_BAD_PARAMETER,
          "eglDestroyImageKHR of a non-image");
    GLuint tex_e;
    glGenTextures(1, &tex_e);
    glBindTexture(GL_TEXTURE_2D, tex_e);
    image_target_texture(GL_TEXTURE_CUBE_MAP, image);
    expect_gl_error("glEGLImageTargetTexture2DOES(GL_TEXTURE_CUBE_MAP)", GL_INVALID_ENUM);
    if (!mesa) {      /* Mesa's GL looks the handle up in its libEGL, which dereferences it */
        image_target_texture(GL_TEXTURE_2D, (GLeglImageOES)(uintptr_t)0x999990);
        expect_gl_error("glEGLImageTargetTexture2DOES of a non-image", GL_INVALID_VALUE);
    }
    image_target_renderbuffer(GL_TEXTURE_2D, rb_image);
    expect_gl_error("glEGLImageTargetRenderbufferStorageOES(GL_TEXTURE_2D)", GL_INVALID_ENUM);
    GLint none[] = {GL_NONE}, one[] = {GL_ONE};
    image_target_tex_storage(GL_TEXTURE_2D, image, one);
    expect_gl_error("glEGLImageTargetTexStorageEXT with attributes", GL_INVALID_VALUE);
    image_target_tex_storage(GL_TEXTURE_3D, image, none);
    expect_gl_error("glEGLImageTargetTexStorageEXT(GL_TEXTURE_3D) of a 2D image", GL_INVALID_OPERATION);
    image_target_tex_storage(GL_TEXTURE_2D, image, none);
    expect_gl_error("glEGLImageTargetTexStorageEXT", GL_NO_ERROR);
    GLint immutable = 0;
    glGetTexParameteriv(GL_TEXTURE_2D, GL_TEXTURE_IMMUTABLE_FORMAT, &immutable);
    CHECK(immutable == 1, "EGL_image_storage's texture is not immutable");
    image_target_texture(GL_TEXTURE_2D, image);
    expect_gl_error("glEGLImageTargetTexture2DOES of an immutable texture", GL_INVALID_OPERATION);

    /* -- level 1 of a mipmapped texture --------------------------------------------------- */
    GLuint tex_m;
    glGenTextures(1, &tex_m);
    glBindTexture(GL_TEXTURE_2D, tex_m);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 8, 8, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    unsigned char blue4[4 * 16];
    for (int i = 0; i < 16; i++)
        memcpy(blue4 + 4 * i, BLUE, 4);
    glTexImage2D(GL_TEXTURE_2D, 1, GL_RGBA8, 4, 4, 0, GL_RGBA, GL_UNSIGNED_BYTE, blue4);
    glTexImage2D(GL_TEXTURE_2D, 2, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    glTexImage2D(GL_TEXTURE_2D, 3, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, NULL);
    EGLint level5[] = {EGL_GL_TEXTURE_LEVEL_KHR, 5, EGL_NONE};
    expect_egl_error("a level the complete texture lacks",
                     create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_m, level5),
                     EGL_BAD_MATCH);
    EGLint level1[] = {EGL_GL_TEXTURE_LEVEL_KHR, 1, EGL_NONE};
    EGLImageKHR level_image = create_image(dpy, a, EGL_GL_TEXTURE_2D_KHR, (EGLClientBuffer)(uintptr_t)tex_m, level1);
    CHECK(level_image != EGL_NO_IMAGE_KHR, "an image of level 1: 0x%x", eglGetError());

    /* -- a cube map face --------------------------------------------------------------------- */
    GLuint cube;
    glGenTextures(1, &cube);
    glBindTexture(GL_TEXTURE_CUBE_MAP, cube);
    for (int f = 0; f < 6; f++) {
        unsigned char face[4 * 4];
        for (int i = 0; i < 4; i++)
            memcpy(face + 4 * i, f == 3 ? GREEN : RED, 4);
        glTexImage2D(GL_TEXTURE_CUBE_MAP_POSITIVE_X + f, 0, GL_RGBA8, 2, 2, 0, GL_RGBA, GL_UNSIGNED_BYTE, face);
    }
    EGLImageKHR face_image = create_image(dpy, a, EGL_GL_TEXTURE_CUBE_MAP_NEGATIVE_Y_KHR,
                                          (EGLClientBuffer)(uintptr_t)cube, NULL);
    CHECK(face_image != EGL_NO_IMAGE_KHR, "an image of a cube map face: 0x%x", eglGetError());
    glFinish();

    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b);
    GLuint tex_l, tex_f;
    glGenTextures(1, &tex_l);
    glBindTexture(GL_TEXTURE_2D, tex_l);
    image_target_texture(GL_TEXTURE_2D, level_image);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    CHECK(w == 4, "the level-1 image's target is %d wide, want 4", w);
    expect_texel("the level-1 image's target", tex_l, 0, 3, 3, BLUE);
    glGenTextures(1, &tex_f);
    glBindTexture(GL_TEXTURE_2D, tex_f);
    image_target_texture(GL_TEXTURE_2D, face_image);
    expect_texel("the -Y face image's target", tex_f, 0, 1, 1, GREEN);

    /* -- lifetimes: the source deleted and the image destroyed, the sibling still samples -- */
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a);
    glDeleteTextures(1, &tex_a);
    glFinish();
    CHECK(destroy_image(dpy, image), "eglDestroyImageKHR");
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, b);
    expect_texel("the sibling after its source and image went", tex_b, 0, 0, 0, GREY);
    expect_texel("the sibling after its source and image went", tex_b, 0, 2, 3, BLUE);
    /* a respecified sibling has storage of its own */
    glBindTexture(GL_TEXTURE_2D, tex_l);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA8, 1, 1, 0, GL_RGBA, GL_UNSIGNED_BYTE, RED);
    glGetTexLevelParameteriv(GL_TEXTURE_2D, 0, GL_TEXTURE_WIDTH, &w);
    CHECK(w == 1, "the respecified sibling is %d wide, want 1", w);
    expect_texel("the respecified sibling", tex_l, 0, 0, 0, RED);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, a);
    expect_texel("the source of a respecified sibling", tex_m, 1, 0, 0, BLUE);
    expect_gl_error("the whole run in A", GL_NO_ERROR);

    (void)fbo_b;
    destroy_image(dpy, rb_image);
    destroy_image(dpy, level_image);
    destroy_image(dpy, face_image);
    eglMakeCurrent(dpy, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
    eglDestroyContext(dpy, a);
    eglDestroyContext(dpy, b);
    eglTerminate(dpy);
    printf("%d failures\n", failures);
    return failures != 0;
}
