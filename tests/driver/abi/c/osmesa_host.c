/* shimgl ABI test host: OSMesa as a C program uses it. dlopen("libOSMesa.so.8")
 * (found through LD_LIBRARY_PATH, as `shimgl env` sets it), a context rendering
 * into our own buffer, GL through OSMesaGetProcAddress. Exit status 0 when the
 * buffer holds the cleared colour (BGRA order asked for) after glFinish. */
#include <GL/gl.h>
#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef void *OSMesaContext;
#define OSMESA_BGRA 0x1
#define OSMESA_WIDTH 0x20

int main(void)
{
    void *lib = dlopen("libOSMesa.so.8", RTLD_NOW | RTLD_LOCAL);
    if (!lib) { printf("FAIL dlopen: %s\n", dlerror()); return 1; }
    OSMesaContext (*create)(GLenum, GLint, GLint, GLint, OSMesaContext) = dlsym(lib, "OSMesaCreateContextExt");
    GLboolean (*make_current)(OSMesaContext, void *, GLenum, GLsizei, GLsizei) = dlsym(lib, "OSMesaMakeCurrent");
    void *(*get_proc)(const char *) = dlsym(lib, "OSMesaGetProcAddress");
    void (*get_integerv)(GLint, GLint *) = dlsym(lib, "OSMesaGetIntegerv");
    OSMesaContext (*get_current)(void) = dlsym(lib, "OSMesaGetCurrentContext");
    void (*destroy)(OSMesaContext) = dlsym(lib, "OSMesaDestroyContext");
    if (!create || !make_current || !get_proc || !get_integerv || !get_current || !destroy) {
        printf("FAIL symbols\n");
        return 1;
    }
    void (*clear_color)(float, float, float, float) = get_proc("glClearColor");
    void (*clear)(GLbitfield) = get_proc("glClear");
    void (*finish)(void) = get_proc("glFinish");
    const GLubyte *(*get_string)(GLenum) = get_proc("glGetString");
    if (get_proc("glNoSuchThing") != NULL) { printf("FAIL lookup of an unknown name\n"); return 1; }

    static unsigned char buffer[24 * 16 * 4];
    OSMesaContext ctx = create(OSMESA_BGRA, 24, 8, 0, NULL);
    if (!ctx || !make_current(ctx, buffer, GL_UNSIGNED_BYTE, 24, 16)) { printf("FAIL context\n"); return 1; }
    if (get_current() != ctx) { printf("FAIL current\n"); return 1; }
    GLint width = 0;
    get_integerv(OSMESA_WIDTH, &width);
    printf("GL_VERSION %s width %d\n", (const char *)get_string(GL_VERSION), width);
    clear_color(1.0f, 0.5f, 0.0f, 1.0f);
    clear(GL_COLOR_BUFFER_BIT);
    finish();
    unsigned char *last = buffer + sizeof buffer - 4;
    printf("first %d %d %d %d last %d %d %d %d\n", buffer[0], buffer[1], buffer[2], buffer[3],
           last[0], last[1], last[2], last[3]);
    int ok = width == 24 && buffer[0] == 0 && buffer[1] == 128 && buffer[2] == 255 && buffer[3] == 255
             && memcmp(buffer, last, 4) == 0;
    destroy(ctx);
    printf(ok ? "OK\n" : "FAIL\n");
    return !ok;
}
