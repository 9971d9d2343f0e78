/* shimgl ABI test host: GLX behaviours piglit's glx/ tests found (through the system's
 * glvnd libGL/libGLX, __GLX_VENDOR_LIBRARY_NAME=shimgl, under an X server):
 *
 *  - every FBConfig draws to pixmaps (a pixmap is single-buffered whatever the config),
 *    two GLX pixmaps may name one X pixmap, and rendering lands in the X pixmap;
 *  - a single-buffered visual is its own visual (glXChooseVisual without GLX_DOUBLEBUFFER,
 *    glXGetConfig);
 *  - glDrawBuffer(GL_FRONT) is the context's state across windows made current;
 *  - a GL 3.0+ context is made current with no drawable (GLX_ARB_create_context);
 *  - glXCreateWindow ignores attributes; glXDestroyWindow of a window X destroyed
 *    is GLXBadWindow;
 *  - glXCreateContextAttribsARB: a bad render type is BadValue, a bad reset strategy
 *    BadMatch, an OpenGL ES version that does not exist GLXBadProfileARB;
 *  - GLX_MESA_query_renderer: the values and strings, the current renderer's equal to
 *    the screen's, the strings GL_VENDOR/GL_RENDERER's.
 * Prints "N failures"; exit status 0 when every check passed.
 *
 * On llvmpipe (Mesa's GLX) the same host differs where Mesa departs from these rules:
 * its multisampled and float FBConfigs lack GLX_PIXMAP_BIT, a pixmap's rendering is not
 * in the X pixmap after glFinish, a bad reset strategy is BadValue (piglit expects
 * BadMatch, as NVIDIA) and an ES version that does not exist GLXBadFBConfig. */
#define GL_GLEXT_PROTOTYPES
#define GLX_GLXEXT_PROTOTYPES
#include <GL/gl.h>
#include <GL/glx.h>
#include <GL/glxext.h>
#include <X11/Xlib.h>
#include <stdio.h>
#include <string.h>

/* GLX protocol error numbers (glxproto.h), above the extension's first error */
#define GLX_ERROR_BAD_WINDOW 12
#define GLX_ERROR_BAD_PROFILE_ARB 13

static int failures;
#define CHECK(cond, ...) do { if (!(cond)) { failures++; printf("FAIL %s:%d: ", __FILE__, __LINE__); \
    printf(__VA_ARGS__); printf("\n"); } } while (0)

static int last_error, first_glx_error;
static int on_error(Display *d, XErrorEvent *e)
{
    (void)d;
    last_error = e->error_code;
    return 0;
}

static void expect_error(Display *dpy, const char *what, int want)
{
    XSync(dpy, False);
    CHECK(last_error == want, "%s: X error %d, want %d", what, last_error, want);
    last_error = 0;
}

static Window window(Display *dpy, XVisualInfo *vi)
{
    XSetWindowAttributes a = {0};
    Window root = RootWindow(dpy, vi->screen);
    a.colormap = XCreateColormap(dpy, root, vi->visual, AllocNone);
    Window w = XCreateWindow(dpy, root, 0, 0, 32, 32, 0, vi->depth, InputOutput, vi->visual,
                             CWColormap, &a);
    XMapWindow(dpy, w);
    XSync(dpy, False);
    return w;
}

int main(void)
{
    Display *dpy = XOpenDisplay(NULL);
    if (!dpy) {
        printf("FAIL no display\n1 failures\n");
        return 1;
    }
    int first_event, major_opcode;
    XQueryExtension(dpy, "GLX", &major_opcode, &first_event, &first_glx_error);
    XSetErrorHandler(on_error);
    int screen = DefaultScreen(dpy);

    /* -- visuals: single- and double-buffered ones are different visuals ---------------- */
    int single_attrs[] = {GLX_RGBA, GLX_RED_SIZE, 1, None};
    int double_attrs[] = {GLX_RGBA, GLX_DOUBLEBUFFER, GLX_RED_SIZE, 1, None};
    XVisualInfo *sv = glXChooseVisual(dpy, screen, single_attrs);
    XVisualInfo *dv = glXChooseVisual(dpy, screen, double_attrs);
    CHECK(sv && dv, "glXChooseVisual");
    int db = -1;
    glXGetConfig(dpy, sv, GLX_DOUBLEBUFFER, &db);
    CHECK(db == 0, "the single-buffered visual says GLX_DOUBLEBUFFER %d", db);
    glXGetConfig(dpy, dv, GLX_DOUBLEBUFFER, &db);
    CHECK(db == 1, "the double-buffered visual says GLX_DOUBLEBUFFER %d", db);
    CHECK(sv->visualid != dv->visualid, "one visual 0x%lx for both", sv->visualid);

    /* -- FBConfigs: every one draws to pixmaps --------------------------------------------- */
    int n = 0;
    GLXFBConfig *all = glXGetFBConfigs(dpy, screen, &n);
    for (int i = 0; i < n; i++) {
        int type = 0;
        glXGetFBConfigAttrib(dpy, all[i], GLX_DRAWABLE_TYPE, &type);
        CHECK(type & GLX_PIXMAP_BIT, "FBConfig %d lacks GLX_PIXMAP_BIT", i);
    }
    int fb_attrs[] = {GLX_DOUBLEBUFFER, True, GLX_DRAWABLE_TYPE, GLX_WINDOW_BIT | GLX_PIXMAP_BIT, None};
    GLXFBConfig *dbl = glXChooseFBConfig(dpy, screen, fb_attrs, &n);
    CHECK(dbl && n > 0, "no double-buffered FBConfig draws to pixmaps");

    /* -- two GLX pixmaps of one X pixmap; rendering into the second reaches it ------------ */
    Pixmap xp = XCreatePixmap(dpy, RootWindow(dpy, screen), 16, 16, dv->depth);
    GLXPixmap g1 = glXCreatePixmap(dpy, dbl[0], xp, NULL);
    GLXPixmap g2 = glXCreatePixmap(dpy, dbl[0], xp, NULL);
    expect_error(dpy, "two GLX pixmaps of one X pixmap", 0);
    CHECK(g1 && g2 && g1 != g2, "GLX pixmaps %lx %lx", g1, g2);
    GLXContext ctx = glXCreateNewContext(dpy, dbl[0], GLX_RGBA_TYPE, NULL, True);
    CHECK(glXMakeContextCurrent(dpy, g2, g2, ctx), "glXMakeContextCurrent(pixmap)");
    glClearColor(0, 1, 0, 1);
    glClear(GL_COLOR_BUFFER_BIT);
    glFinish();
    XImage *img = XGetImage(dpy, xp, 0, 0, 16, 16, AllPlanes, ZPixmap);
    unsigned long px = img ? XGetPixel(img, 5, 5) : 0;
    CHECK((px & 0xFFFFFF) == 0x00FF00, "the X pixmap holds 0x%06lx, want 0x00ff00", px & 0xFFFFFF);
    if (img)
        XDestroyImage(img);
    glXMakeContextCurrent(dpy, None, None, NULL);
    glXDestroyPixmap(dpy, g1);
    glXDestroyGLXPixmap(dpy, g2);         /* the 1.2 destructor of a 1.3 pixmap: allowed */
    expect_error(dpy, "destroying both GLX pixmaps", 0);
    XFreePixmap(dpy, xp);

    /* -- GL_FRONT is the context's, across windows ----------------------------------------- */
    Window w1 = window(dpy, dv), w2 = window(dpy, dv);
    GLXContext old = glXCreateContext(dpy, dv, NULL, True);
    glXMakeCurrent(dpy, w1, old);
    glXMakeCurrent(dpy, w2, old);
    glDrawBuffer(GL_FRONT);
    glXMakeCurrent(dpy, w1, old);
    GLint buffer = 0;
    glGetIntegerv(GL_DRAW_BUFFER, &buffer);
    CHECK(buffer == GL_FRONT, "GL_DRAW_BUFFER 0x%x after another window was made current", buffer);
    glXMakeCurrent(dpy, None, NULL);

    /* -- glXCreateWindow ignores attributes; X destroys the GLXWindow with its window ------ */
    int ignored[] = {GLX_RED_SIZE, 1, None};
    GLXWindow gw = glXCreateWindow(dpy, dbl[0], w2, ignored);
    expect_error(dpy, "glXCreateWindow with attributes", 0);
    CHECK(gw != 0, "glXCreateWindow");
    XDestroyWindow(dpy, w2);
    XSync(dpy, False);
    glXDestroyWindow(dpy, gw);
    expect_error(dpy, "glXDestroyWindow of a destroyed window", first_glx_error + GLX_ERROR_BAD_WINDOW);

    /* -- GLX_ARB_create_context ------------------------------------------------------------- */
    PFNGLXCREATECONTEXTATTRIBSARBPROC create = (PFNGLXCREATECONTEXTATTRIBSARBPROC)
        glXGetProcAddressARB((const GLubyte *)"glXCreateContextAttribsARB");
    int gl30[] = {GLX_CONTEXT_MAJOR_VERSION_ARB, 3, GLX_CONTEXT_MINOR_VERSION_ARB, 0, None};
    GLXContext c30 = create(dpy, dbl[0], NULL, True, gl30);
    CHECK(c30 && glXMakeContextCurrent(dpy, None, None, c30), "a GL 3.0 context current without drawables");
    expect_error(dpy, "GL 3.0 current without drawables", 0);
    glXMakeContextCurrent(dpy, None, None, NULL);
    int bad_render[] = {GLX_RENDER_TYPE, 0, None};
    CHECK(!create(dpy, dbl[0], NULL, True, bad_render), "a context of render type 0");
    expect_error(dpy, "render type 0", BadValue);
    int bad_reset[] = {GLX_CONTEXT_RESET_NOTIFICATION_STRATEGY_ARB, 0, None};
    CHECK(!create(dpy, dbl[0], NULL, True, bad_reset), "a context of reset strategy 0");
    expect_error(dpy, "reset strategy 0", BadMatch);
    int es21[] = {GLX_CONTEXT_PROFILE_MASK_ARB, GLX_CONTEXT_ES2_PROFILE_BIT_EXT,
                  GLX_CONTEXT_MAJOR_VERSION_ARB, 2, GLX_CONTEXT_MINOR_VERSION_ARB, 1, None};
    CHECK(!create(dpy, dbl[0], NULL, True, es21), "an OpenGL ES 2.1 context");
    expect_error(dpy, "OpenGL ES 2.1", first_glx_error + GLX_ERROR_BAD_PROFILE_ARB);

    /* -- GLX_MESA_query_renderer ----------------------------------------------------------- */
    const char *exts = glXQueryExtensionsString(dpy, screen);
    CHECK(strstr(exts, "GLX_MESA_query_renderer") != NULL, "GLX_MESA_query_renderer not listed");
    PFNGLXQUERYRENDERERINTEGERMESAPROC qi = (PFNGLXQUERYRENDERERINTEGERMESAPROC)
        glXGetProcAddressARB((const GLubyte *)"glXQueryRendererIntegerMESA");
    PFNGLXQUERYCURRENTRENDERERINTEGERMESAPROC qci = (PFNGLXQUERYCURRENTRENDERERINTEGERMESAPROC)
        glXGetProcAddressARB((const GLubyte *)"glXQueryCurrentRendererIntegerMESA");
    PFNGLXQUERYRENDERERSTRINGMESAPROC qs = (PFNGLXQUERYRENDERERSTRINGMESAPROC)
        glXGetProcAddressARB((const GLubyte *)"glXQueryRendererStringMESA");
    PFNGLXQUERYCURRENTRENDERERSTRINGMESAPROC qcs = (PFNGLXQUERYCURRENTRENDERERSTRINGMESAPROC)
        glXGetProcAddressARB((const GLubyte *)"glXQueryCurrentRendererStringMESA");
    unsigned v[4] = {7, 7, 7, 7}, cv[4] = {7, 7, 7, 7};
    CHECK(!qci(GLX_RENDERER_VERSION_MESA, cv), "the current renderer without a current context");
    glXMakeContextCurrent(dpy, None, None, c30);
    CHECK(qi(dpy, screen, 0, GLX_RENDERER_OPENGL_ES2_PROFILE_VERSION_MESA, v) && v[0] == 3 && v[1] == 2
          && v[2] == 7, "ES2 profile version %u.%u (%u)", v[0], v[1], v[2]);
    CHECK(qi(dpy, screen, 0, GLX_RENDERER_PREFERRED_PROFILE_MESA, v) && v[0] == GLX_CONTEXT_CORE_PROFILE_BIT_ARB,
          "preferred profile 0x%x", v[0]);
    CHECK(qi(dpy, screen, 0, GLX_RENDERER_ACCELERATED_MESA, v) && v[0] == 0, "accelerated %u", v[0]);
    CHECK(qi(dpy, screen, 0, GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA, v)
          && qci(GLX_RENDERER_OPENGL_CORE_PROFILE_VERSION_MESA, cv) && v[0] == cv[0] && v[1] == cv[1]
          && v[0] == 4, "core profile version %u.%u, current %u.%u", v[0], v[1], cv[0], cv[1]);
    CHECK(!qi(dpy, screen, 1, GLX_RENDERER_VERSION_MESA, v), "renderer 1 exists");
    CHECK(!qi(dpy, screen, 0, 0x1234, v), "attribute 0x1234 answered");
    const char *vendor = qs(dpy, screen, 0, GLX_RENDERER_VENDOR_ID_MESA);
    const char *device = qcs(GLX_RENDERER_DEVICE_ID_MESA);
    CHECK(vendor && !strcmp(vendor, (const char *)glGetString(GL_VENDOR)), "vendor string %s", vendor);
    CHECK(device && !strcmp(device, (const char *)glGetString(GL_RENDERER)), "device string %s", device);
    glXMakeContextCurrent(dpy, None, None, NULL);

    glXDestroyContext(dpy, c30);
    glXDestroyContext(dpy, old);
    glXDestroyContext(dpy, ctx);
    XFree(sv);
    XFree(dv);
    XCloseDisplay(dpy);
    printf("%d failures\n", failures);
    return failures != 0;
}
