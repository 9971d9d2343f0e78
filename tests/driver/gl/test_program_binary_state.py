"""Program state around glGetProgramBinary/glProgramBinary (GL 4.6 sections 7.3,
7.5): the retrievable hint takes effect at the next link, and a restored
binary brings its transform feedback setup (mode and varyings) with it."""

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 330\nout vec4 a;\nout vec4 b;\nvoid main() { a = vec4(1.0); b = vec4(2.0); gl_Position = vec4(0.0); }\n"
FS = "#version 330\nin vec4 a;\nout vec4 c;\nvoid main() { c = a; }\n"


def _program(ctx, varyings=None, mode=E.GL_INTERLEAVED_ATTRIBS):
    p = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, FS)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        ctx.glAttachShader(p, s)
    if varyings:
        ctx.glTransformFeedbackVaryings(p, len(varyings), varyings, mode)
    return p


def test_retrievable_hint_applies_at_the_next_link():
    ctx = glhelp.context(1, 1, api="gl45")
    p = _program(ctx)
    ctx.glLinkProgram(p)
    ctx.glProgramParameteri(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 1)
    assert ctx.glGetProgramiv(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT)[0] == 0
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT)[0] == 1
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_restored_binary_brings_its_transform_feedback_mode_and_varyings():
    ctx = glhelp.context(1, 1, api="gl45")
    src = _program(ctx, ["a", "b"], E.GL_INTERLEAVED_ATTRIBS)
    ctx.glLinkProgram(src)
    assert ctx.glGetProgramiv(src, E.GL_LINK_STATUS)[0]
    length = ctx.glGetProgramiv(src, E.GL_PROGRAM_BINARY_LENGTH)[0]
    _n, fmt, binary = ctx.glGetProgramBinary(src, length)
    dst = _program(ctx, ["b"], E.GL_SEPARATE_ATTRIBS)     # other settings, not linked
    ctx.glProgramBinary(dst, fmt, binary, len(binary))
    assert ctx.glGetProgramiv(dst, E.GL_LINK_STATUS)[0]
    assert ctx.glGetProgramiv(dst, E.GL_TRANSFORM_FEEDBACK_BUFFER_MODE)[0] == E.GL_INTERLEAVED_ATTRIBS
    assert ctx.glGetProgramiv(dst, E.GL_TRANSFORM_FEEDBACK_VARYINGS)[0] == 2
    assert ctx.glGetError() == E.GL_NO_ERROR
