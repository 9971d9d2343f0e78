/* shimgl ABI test host: KHR_debug from C. A debug context's GL errors and the
 * application's own messages reach a C callback (with its user pointer); with
 * no callback they are logged and glGetDebugMessageLog fills the C arrays;
 * object labels round-trip. Prints one line per check; exit 0 when all passed. */
#define GL_GLEXT_PROTOTYPES
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GL/gl.h>
#include <GL/glext.h>
#include <stdio.h>
#include <string.h>

#include "core_context.h"

static int failures;
static int calls;
static GLenum last_type, last_severity;
static GLuint last_id;
static char last_message[256];

static void check(const char *what, int ok)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    failures += !ok;
}

static void GLAPIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity,
                                  GLsizei length, const GLchar *message, const void *user)
{
    (void)source;
    calls += *(const int *)user;
    last_type = type;
    last_id = id;
    last_severity = severity;
    snprintf(last_message, sizeof last_message, "%.*s", (int)length, message);
}

int main(void)
{
    if (make_core_context(16, 16, EGL_TRUE) == EGL_NO_DISPLAY)
        return 1;
    GLint flags = 0;
    glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
    check("debug context flag", (flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0);
    check("debug output on in a debug context", glIsEnabled(GL_DEBUG_OUTPUT));

    static const int one = 1;
    glDebugMessageCallback(on_message, &one);
    glEnable(0x12345678);                      /* an invalid enum: a GL error message */
    check("GL error reaches the C callback", calls == 1 && last_type == GL_DEBUG_TYPE_ERROR &&
          last_id == GL_INVALID_ENUM && last_severity == GL_DEBUG_SEVERITY_HIGH);
    glGetError();
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_MARKER, 42,
                         GL_DEBUG_SEVERITY_NOTIFICATION, -1, "hello from C");
    check("inserted message reaches the callback", calls == 2 && last_id == 42 &&
          strcmp(last_message, "hello from C") == 0);

    glDebugMessageCallback(NULL, NULL);        /* back to the log */
    glDebugMessageInsert(GL_DEBUG_SOURCE_APPLICATION, GL_DEBUG_TYPE_OTHER, 7,
                         GL_DEBUG_SEVERITY_MEDIUM, 5, "first-ignored");
    glDebugMessageInsert(GL_DEBUG_SOURCE_THIRD_PARTY, GL_DEBUG_TYPE_OTHER, 8,
                         GL_DEBUG_SEVERITY_HIGH, -1, "second");
    GLint logged = 0, next_len = 0;
    glGetIntegerv(GL_DEBUG_LOGGED_MESSAGES, &logged);
    glGetIntegerv(GL_DEBUG_NEXT_LOGGED_MESSAGE_LENGTH, &next_len);
    check("two messages logged", logged == 2 && next_len == 6);
    GLenum sources[4], types[4], severities[4];
    GLuint ids[4];
    GLsizei lengths[4];
    char text[64];
    GLuint got = glGetDebugMessageLog(4, sizeof text, sources, types, ids, severities, lengths, text);
    check("glGetDebugMessageLog fills the arrays", got == 2 && ids[0] == 7 && ids[1] == 8 &&
          sources[1] == GL_DEBUG_SOURCE_THIRD_PARTY && lengths[0] == 6 &&
          strcmp(text, "first") == 0 && strcmp(text + 6, "second") == 0);

    GLuint buf;
    glGenBuffers(1, &buf);
    glBindBuffer(GL_ARRAY_BUFFER, buf);
    glObjectLabel(GL_BUFFER, buf, -1, "vertices");
    char label[32];
    GLsizei label_len = 0;
    glGetObjectLabel(GL_BUFFER, buf, sizeof label, &label_len, label);
    check("object label round trip", label_len == 8 && strcmp(label, "vertices") == 0);
    check("no GL error left", glGetError() == GL_NO_ERROR);
    printf("%d failures\n", failures);
    return failures != 0;
}
