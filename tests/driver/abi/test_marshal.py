"""The marshalling helpers (C pointers <-> the front end's convention), in
process with a plain cffi FFI (no library loaded), and the generator's rules."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import pytest

from driver.abi import marshal as M

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


@pytest.fixture(scope="module")
def build():
    spec = importlib.util.spec_from_file_location("_abi_build_for_test2", BUILD_PY)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_inputs(ffi):
    s = ffi.new("char[]", b"hello")
    assert M.str_in(s) == "hello"
    assert M.str_in(s, 3) == "hel"
    assert M.str_in(ffi.NULL) is None
    strings = [ffi.new("char[]", b"abc"), ffi.new("char[]", b"defg")]
    arr = ffi.new("char *[]", strings)
    lengths = ffi.new("GLint[]", [2, -1])
    assert list(M.strs_in(arr, 2, lengths)) == ["ab", "defg"]
    assert list(M.strs_in(arr, 2, ffi.NULL)) == ["abc", "defg"]
    floats = ffi.new("GLfloat[]", [1.0, 2.5, -3.0])
    assert M.arr_in(floats, "GLfloat", 3) == [1.0, 2.5, -3.0]
    assert M.arr_in(floats, "GLfloat", -1) == []
    assert M.bytes_in(ffi.new("char[]", b"\x01\x02\x03"), 2) == b"\x01\x02"


def test_outputs(ffi):
    ints = ffi.new("GLint[4]")
    assert M.put(ints, "GLint", [1, 2, 3, 4, 5], 4) == 4
    assert list(ints) == [1, 2, 3, 4]
    assert M.put(ints, "GLint", 7) == 1 and ints[0] == 7
    chars = ffi.new("char[8]")
    assert M.put(chars, "GLchar", "a long info log", 8) == 7
    assert ffi.string(chars) == b"a long "
    assert M.put(chars, "GLchar", "x", 0) == 0          # bufSize 0 writes nothing
    raw = ffi.new("char[4]")
    assert M.put(raw, "void", b"\x09\x08\x07\x06\x05", 4) == 4
    assert bytes(ffi.buffer(raw)) == b"\x09\x08\x07\x06"
    booleans = ffi.new("GLboolean[2]")
    M.put(booleans, "GLboolean", [True, False])
    assert list(booleans) == [1, 0]


def test_pname_counts():
    from driver.gl import enums as E
    assert M.pname_count(E.GL_TEXTURE_BORDER_COLOR) == 4
    assert M.pname_count(E.GL_TEXTURE_MIN_FILTER) == 1


def test_generated_rules(build):
    """One command per rule, from the real registry entries' shapes."""
    P, C = build.registry.Param, build.registry.Command
    shader_source = C("glShaderSource", "void", (
        P("GLuint", "shader", ""), P("GLsizei", "count", ""),
        P("const GLchar *const *", "string", "count"), P("const GLint *", "length", "count")), "gl")
    src = build.marshal_function(shader_source)
    assert "M.strs_in(string, count, length)" in src and "arr_in(length" not in src
    info_log = C("glGetShaderInfoLog", "void", (
        P("GLuint", "shader", ""), P("GLsizei", "bufSize", ""),
        P("GLsizei *", "length", "1"), P("GLchar *", "infoLog", "bufSize")), "gl")
    src = build.marshal_function(info_log)
    assert "M.call(ctx.glGetShaderInfoLog, (shader, ), (bufSize,))" in src
    assert "M.put(infoLog, 'GLchar', r, bufSize)" in src and "M.put(length, 'GLsizei', n)" in src
    get_integerv = C("glGetIntegerv", "void", (
        P("GLenum", "pname", ""), P("GLint *", "data", "COMPSIZE(pname)")), "gl")
    assert "ctx.glGetIntegerv(pname)" in build.marshal_function(get_integerv)
    fence = C("glFenceSync", "GLsync", (P("GLenum", "condition", ""), P("GLbitfield", "flags", "")), "gl")
    assert "M.to_handle(" in build.marshal_function(fence)
    lambda_param = C("glFoo", "void", (P("GLint", "lambda", ""),), "gl")
    assert "def glFoo(ctx, lambda_):" in build.marshal_function(lambda_param)


def test_clear_buffer_color_reads_four_values():
    from driver.gl import enums as E
    assert M.pname_count(E.GL_COLOR) == 4 and M.pname_count(E.GL_DEPTH) == 1


@pytest.mark.parametrize("es, major, minor, core", [
    (True, 2, 0, False), (True, 3, 0, False), (True, 3, 1, False),
    (False, 1, 0, True),       # a profile means nothing below 3.2: compatibility
    (False, 2, 1, False), (False, 3, 3, False), (False, 3, 2, True), (False, 4, 3, True)])
def test_context_versions(es, major, minor, core):
    """EGL_KHR_create_context (and GLX, OSMesa): the API asked for, at the
    requested version or a newer backward-compatible one."""
    from driver.abi import egl
    api = egl.request_api(es, major, minor, core)
    assert api is not None
    assert api.es == es and api.version >= (major, minor)
    assert api.core == (core and (major, minor) >= (3, 2))


@pytest.mark.parametrize("es, major, minor, core, flags", [
    (True, 1, 2, False, {}),           # OpenGL ES 1.2: none (ES 1.0 and 1.1 exist)
    (True, 3, 3, False, {}),           # no such GLES version
    (False, 9, 0, True, {}),           # no such version
    (False, 4, 3, True, {"debug": True, "no_error": True})])   # KHR_no_error: not with debug
def test_context_requests_without_a_context(es, major, minor, core, flags):
    from driver.abi import egl
    assert egl.request_api(es, major, minor, core, **flags) is None


def test_read_pixels_writes_client_memory(ffi):
    """glReadPixels through the ABI: bytes written in place (tight) or copied from
    the returned bytes (padded) are the same as the context returns."""
    from driver.gl import enums as E
    from tests.driver.gl.conftest import make_ctx
    ctx = make_ctx("gl33", 4, 3)
    ctx.window.color.levels[0][3][:] = bytes(range(48))
    for align in (4, 8):
        ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, align)
        want = ctx.glReadPixels(0, 0, 3, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
        buf = ffi.new("char[]", len(want) + 4)
        M.glReadPixels(ctx, 0, 0, 3, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE, buf)
        assert bytes(ffi.buffer(buf)) == want + bytes(4)


def test_integer_outputs_are_clamped_to_their_c_type(ffi):
    """GL 4.6 section 2.2.2: an integer a query's type cannot represent is
    clamped (GL_MAX_SERVER_WAIT_TIMEOUT as 2^64-1 into glGetInteger64v)."""
    out64 = ffi.new("GLint64[2]")
    assert M.put(out64, "GLint64", [2**64 - 1, -(2**70)]) == 2
    assert list(out64) == [2**63 - 1, -(2**63)]
    out32 = ffi.new("GLint[1]")
    M.put(out32, "GLint", 2**40)
    assert out32[0] == 2**31 - 1
    outu = ffi.new("GLuint[1]")
    M.put(outu, "GLuint", -5)
    assert outu[0] == 0


def test_an_internal_error_reaches_the_program_as_a_gl_error(capsys):
    """A command that fails inside (a draw whose lowering raises) is
    GL_INVALID_OPERATION for the program, and one line on stderr, once per
    command: never an exception into C, never only a log line."""
    from driver.abi import runtime
    from driver.gl import enums as E
    from tests.driver.gl.conftest import make_ctx
    ctx = make_ctx("gl33", 4, 4)

    def failing_draw(c, mode, first, count):
        raise ValueError("lowering failed")
    entry = runtime._gl_entry("glDrawArraysTestOnly", failing_draw, 0, None)
    runtime.set_current(None, ctx)
    try:
        assert entry(E.GL_TRIANGLES, 0, 3) == 0
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
        entry(E.GL_TRIANGLES, 0, 3)
        assert ctx.glGetError() == E.GL_INVALID_OPERATION
    finally:
        runtime.set_current(None, None)
    err = capsys.readouterr().err
    assert err.count("internal error in glDrawArraysTestOnly") == 1, err
