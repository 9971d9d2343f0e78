"""GL_ARB_shading_language_include in the GL front end: the named-string commands and
their errors (nothing changes on an error), the strings shared by a share group, shaders
compiled with `#include` and search paths drawing what the included text computes (pixels
by hand), messages at the directive for a string that is missing, and a compiled shader
(and its program binary) that no later change of the strings alters. Listed in
compatibility and core contexts, never in GLES."""

from __future__ import annotations

import numpy as np

import driver
from driver.agx.face import default_screen
from driver.gl import Context
from driver.gl import enums as E

from .helpers import expect

EXT = "GL_ARB_shading_language_include"
T = E.GL_SHADER_INCLUDE_ARB
VS = "#version 110\nattribute vec2 pos;\nvoid main() { gl_Position = vec4(pos, 0.0, 1.0); }\n"
FS = """#version 110
#extension GL_ARB_shading_language_include : require
#define GREEN 0.5
#include <colour.glsl>
void main() { gl_FragColor = colour(); }
"""


def _names(ctx) -> set[str]:
    return {ctx.glGetStringi(E.GL_EXTENSIONS, i) for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}


def test_listed_in_compatibility_and_core_contexts_only():
    for api in ("compat", "gl32", "gl46"):
        with driver.Context(api=api, width=4, height=4) as ctx:
            assert EXT in _names(ctx), api
    with driver.Context(api="gles32", width=4, height=4) as ctx:
        assert EXT not in _names(ctx)
        ctx.glNamedStringARB(T, -1, "/a", -1, "x")
        expect(ctx, E.GL_INVALID_OPERATION)


def test_named_strings_set_replace_query_delete_and_errors_change_nothing():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        ctx.glNamedStringARB(T, -1, "/lib/./x/../a.glsl", -1, "float a;")
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glIsNamedStringARB(-1, "/lib/a.glsl") and not ctx.glIsNamedStringARB(-1, "/lib")
        ctx.glNamedStringARB(T, 11, "/lib/a.glslXYZ", 5, "int b;junk")    # lengths cut both
        assert ctx.glGetNamedStringivARB(-1, "/lib/a.glsl", E.GL_NAMED_STRING_LENGTH_ARB) == 6
        assert ctx.glGetNamedStringivARB(-1, "/lib/a.glsl", E.GL_NAMED_STRING_TYPE_ARB) == T
        assert ctx.glGetNamedStringARB(-1, "/lib/a.glsl", 100) == (5, "int b")
        assert ctx.glGetNamedStringARB(-1, "/lib/a.glsl", 3) == (2, "in")
        # errors: INVALID_VALUE for a bad type / NULL / invalid names, INVALID_OPERATION where
        # no string is; the string stays as it was
        for args in ((E.GL_INVALID_OPERATION, -1, "/lib/a.glsl", -1, "x"), (T, -1, None, -1, "x"),
                     (T, -1, "/lib/a.glsl", -1, None), (T, -1, "lib/a.glsl", -1, "x"),
                     (T, -1, "/lib//a.glsl", -1, "x"), (T, -1, "/lib/a.glsl/", -1, "x"), (T, -1, "", -1, "x"),
                     (T, -1, "/lib/a\tb", -1, "x"), (T, -1, "/lib$/a", -1, "x")):
            ctx.glNamedStringARB(*args)
            expect(ctx, E.GL_INVALID_VALUE)
        assert ctx.glGetNamedStringARB(-1, "/lib/a.glsl", 100) == (5, "int b")
        ctx.glDeleteNamedStringARB(-1, "/lib")
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glGetNamedStringivARB(-1, "/nothing", E.GL_NAMED_STRING_LENGTH_ARB)
        expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glGetNamedStringivARB(-1, "/lib/a.glsl", E.GL_SHADER_TYPE)
        expect(ctx, E.GL_INVALID_ENUM)
        ctx.glGetNamedStringARB(-1, None, 10)
        expect(ctx, E.GL_INVALID_VALUE)
        assert ctx.glIsNamedStringARB(-1, None) is False and ctx.glIsNamedStringARB(-1, "bad//") is False
        expect(ctx, E.GL_NO_ERROR)
        ctx.glDeleteNamedStringARB(-1, "/lib/x/../a.glsl")
        expect(ctx, E.GL_NO_ERROR)
        assert not ctx.glIsNamedStringARB(-1, "/lib/a.glsl")


def test_strings_belong_to_the_share_group():
    screen = default_screen()
    a = Context(screen.context_create(), "compat", 4, 4)
    b = Context(screen.context_create(), "compat", 4, 4, share_group=a.share_group)
    c = Context(screen.context_create(), "compat", 4, 4)
    a.glNamedStringARB(T, -1, "/shared", -1, "float s;")
    assert b.glIsNamedStringARB(-1, "/shared") and not c.glIsNamedStringARB(-1, "/shared")
    b.glDeleteNamedStringARB(-1, "/shared")
    assert not a.glIsNamedStringARB(-1, "/shared")
    for ctx in (c, b, a):
        ctx.destroy()


def _shader(ctx, kind, src, paths=None):
    s = ctx.glCreateShader(kind)
    ctx.glShaderSource(s, 1, [src])
    if paths is None:
        ctx.glCompileShader(s)
    else:
        ctx.glCompileShaderIncludeARB(s, len(paths), paths)
    return s


def _draw(ctx, fs_shader) -> np.ndarray:
    p = ctx.glCreateProgram()
    ctx.glAttachShader(p, _shader(ctx, E.GL_VERTEX_SHADER, VS))
    ctx.glAttachShader(p, fs_shader)
    ctx.glBindAttribLocation(p, 0, "pos")
    ctx.glLinkProgram(p)
    assert ctx.glGetProgramiv(p, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(p)
    ctx.glUseProgram(p)
    quad = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    return ctx.read_pixels().astype(int)


def test_include_with_search_paths_draws_the_included_code_and_later_changes_do_not_matter():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        # <colour.glsl>: /a has no colour.glsl, /b does; it includes "tint" from its own place
        ctx.glNamedStringARB(T, -1, "/b/colour.glsl", -1,
                             '#include "tint"\nvec4 colour() { return vec4(RED, GREEN, 0.0, 1.0); }\n')
        ctx.glNamedStringARB(T, -1, "/b/tint", -1, "#define RED 1.0\n")
        ctx.glNamedStringARB(T, -1, "/a/tint", -1, "#define RED 0.0\n")
        fs = _shader(ctx, E.GL_FRAGMENT_SHADER, FS, ["/a", "/b"])
        assert ctx.glGetShaderiv(fs, E.GL_COMPILE_STATUS) == [1], ctx.glGetShaderInfoLog(fs)
        # the compiled shader keeps what it included (the extension's section 2.11.2)
        ctx.glNamedStringARB(T, -1, "/b/tint", -1, "#define RED 0.0\n")
        ctx.glDeleteNamedStringARB(-1, "/b/colour.glsl")
        assert ctx.glGetShaderSource(fs) == FS
        px = _draw(ctx, fs)
        assert (abs(px - [255, 128, 0, 255]) <= 1).all(), px[0, 0]
        # a program binary of it restores without the strings
        n = ctx.glGetProgramiv(ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0], E.GL_PROGRAM_BINARY_LENGTH)[0]
        length, fmt, data = ctx.glGetProgramBinary(ctx.glGetIntegerv(E.GL_CURRENT_PROGRAM)[0], n)
        q = ctx.glCreateProgram()
        ctx.glProgramBinary(q, fmt, data, length)
        assert ctx.glGetProgramiv(q, E.GL_LINK_STATUS) == [1], ctx.glGetProgramInfoLog(q)
        # compiled again now, the deleted string is missing: an error at the directive
        ctx.glCompileShaderIncludeARB(fs, 2, ["/a", "/b"])
        assert ctx.glGetShaderiv(fs, E.GL_COMPILE_STATUS) == [0]
        log = ctx.glGetShaderInfoLog(fs)
        assert log.startswith('0:4(1): preprocessor error: #include "colour.glsl": not found'), log


def test_compile_shader_include_errors():
    with driver.Context(api="compat", width=4, height=4) as ctx:
        prog = ctx.glCreateProgram()
        for name in (12345, prog):
            ctx.glCompileShaderIncludeARB(name, 0, None)
            expect(ctx, E.GL_INVALID_OPERATION)
        s = ctx.glCreateShader(E.GL_FRAGMENT_SHADER)
        ctx.glShaderSource(s, 1, [FS])
        for count, paths in ((1, None), (2, ["/a"]), (1, ["relative"]), (1, ["/a/"]), (1, [None]), (-1, [])):
            ctx.glCompileShaderIncludeARB(s, count, paths)
            expect(ctx, E.GL_INVALID_VALUE)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS) == [0] and ctx.glGetShaderInfoLog(s) == ""
        # no search path: a relative <path> names nothing
        ctx.glCompileShader(s)
        assert ctx.glGetShaderInfoLog(s).startswith('0:4(1): preprocessor error: #include "colour.glsl"')
