"""Arrays the C ABI reads as a whole: glMultiDrawElements* take an array of
drawcount index pointers (each an element-buffer offset or a client array),
glPixelMap*v reads mapsize values only when the size is one GL accepts (a larger
one is GL_INVALID_VALUE, and the caller's array need not hold it), a NULL array
of values is GL_INVALID_VALUE except where GL gives NULL a meaning (multi-bind).
In process, with a plain cffi FFI; found by the GL fuzzer."""

from __future__ import annotations

import importlib.util
import types
from pathlib import Path

import cffi
import pytest

from driver.abi import marshal as M
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_ptr_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


class Recorder:
    """Records the front-end call the marshalling makes (an element buffer is bound)."""

    def __init__(self):
        self.calls = []
        self.vao = types.SimpleNamespace(element_buffer=object())

    def __getattr__(self, name):
        if not name.startswith("gl"):
            raise AttributeError(name)
        return lambda *args: self.calls.append((name, args))


@pytest.mark.parametrize("name", ["glMultiDrawElements", "glMultiDrawElementsEXT"])
def test_multi_draw_elements_reads_every_index_pointer(ffi, name):
    rec = Recorder()
    counts = ffi.new("GLsizei[]", [3, 6])
    offsets = ffi.new("void *[]", [ffi.cast("void *", 0), ffi.cast("void *", 12)])
    M.OVERRIDES[name](rec, E.GL_TRIANGLES, counts, E.GL_UNSIGNED_SHORT, offsets, 2)
    assert rec.calls == [(name, (E.GL_TRIANGLES, [3, 6], E.GL_UNSIGNED_SHORT, [0, 12], 2))]


@pytest.mark.parametrize("name", ["glMultiDrawElementsBaseVertex", "glMultiDrawElementsBaseVertexEXT"])
def test_multi_draw_elements_base_vertex(ffi, name):
    rec = Recorder()
    offsets = ffi.new("void *[]", [ffi.cast("void *", 6), ffi.cast("void *", 2), ffi.cast("void *", 0)])
    M.OVERRIDES[name](rec, E.GL_POINTS, ffi.new("GLsizei[]", [1, 1, 1]), E.GL_UNSIGNED_BYTE, offsets, 3,
                      ffi.new("GLint[]", [0, 5, -1]))
    assert rec.calls == [(name, (E.GL_POINTS, [1, 1, 1], E.GL_UNSIGNED_BYTE, [6, 2, 0], 3, [0, 5, -1]))]


def test_null_arrays(ffi):
    """NULL with drawcount 0 is legal; NULL where values are read is GL_INVALID_VALUE
    before the command runs (C would crash), raised for the C entry to record."""
    from driver.gl.errors import GLError

    rec = Recorder()
    M.OVERRIDES["glMultiDrawElements"](rec, E.GL_TRIANGLES, ffi.NULL, E.GL_UNSIGNED_INT, ffi.NULL, 0)
    assert rec.calls == [("glMultiDrawElements", (E.GL_TRIANGLES, [], E.GL_UNSIGNED_INT, [], 0))]
    with pytest.raises(GLError) as err:
        M.OVERRIDES["glMultiDrawElements"](rec, E.GL_TRIANGLES, ffi.new("GLsizei[]", [3]),
                                           E.GL_UNSIGNED_INT, ffi.NULL, 1)
    assert err.value.code == E.GL_INVALID_VALUE and len(rec.calls) == 1
    with pytest.raises(GLError):
        M.arr_in(ffi.NULL, "GLfloat", 4)
    assert M.arr_in(ffi.NULL, "GLfloat", 0) == []


@pytest.mark.parametrize("name,args", [
    ("glBindBuffersBase", (E.GL_UNIFORM_BUFFER, 0, 2)), ("glBindTextures", (0, 3)),
    ("glBindSamplers", (1, 2)), ("glBindImageTextures", (0, 1))])
def test_multi_bind_null_arrays_unbind(ffi, name, args):
    """ARB_multi_bind gives NULL a meaning (unbind the range): passed on as None."""
    rec = Recorder()
    M.OVERRIDES[name](rec, *args, ffi.NULL)
    assert rec.calls == [(name, (*args, None))]


def test_multi_bind_with_null_names_ignores_the_other_arrays(ffi):
    rec = Recorder()
    M.OVERRIDES["glBindVertexBuffers"](rec, 0, 2, ffi.NULL, ffi.NULL, ffi.NULL)
    M.OVERRIDES["glBindBuffersRange"](rec, E.GL_UNIFORM_BUFFER, 0, 1, ffi.NULL, ffi.NULL, ffi.NULL)
    names = ffi.new("GLuint[]", [5, 6])
    M.OVERRIDES["glBindVertexBuffers"](rec, 0, 2, names, ffi.new("GLintptr[]", [0, 16]),
                                       ffi.new("GLsizei[]", [8, 12]))
    assert rec.calls == [("glBindVertexBuffers", (0, 2, None, None, None)),
                         ("glBindBuffersRange", (E.GL_UNIFORM_BUFFER, 0, 1, None, None, None)),
                         ("glBindVertexBuffers", (0, 2, [5, 6], [0, 16], [8, 12]))]


@pytest.mark.parametrize("name,c_type", [("glPixelMapfv", "GLfloat"), ("glPixelMapuiv", "GLuint"),
                                         ("glPixelMapusv", "GLushort")])
def test_pixel_map_reads_only_a_size_gl_accepts(ffi, name, c_type):
    c = make_ctx("compat")
    two = ffi.new(c_type + "[]", [0, 1])
    M.OVERRIDES[name](c, E.GL_PIXEL_MAP_I_TO_G, 2, two)
    expect(c, E.GL_NO_ERROR)
    assert len(c.glGetPixelMapfv(E.GL_PIXEL_MAP_I_TO_G)) == 2
    # a size past GL_MAX_PIXEL_MAP_TABLE (256) reads nothing from the 2-element array
    for huge in (257, 0x7FFF_FFFF):
        M.OVERRIDES[name](c, E.GL_PIXEL_MAP_I_TO_G, huge, two)
        expect(c, E.GL_INVALID_VALUE)
    assert c.internal_errors == []


_SHADER_SOURCE_ERRORS = """
import cffi, importlib.util, sys
from driver.abi import marshal as M
from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
ffi = cffi.FFI()
spec = importlib.util.spec_from_file_location("b", sys.argv[1])
build = importlib.util.module_from_spec(spec)
spec.loader.exec_module(build)
ffi.cdef(build.TYPEDEFS)
M.bind(ffi)
from driver.abi._commands import MARSHAL
c = make_ctx("compat")
vs, prog = c.glCreateShader(E.GL_VERTEX_SHADER), c.glCreateProgram()
text = ffi.new("char[]", b"void main() { gl_Position = vec4(0.0); }")
# the address of the characters where an array of string pointers belongs: reading
# an element reads the text as an address (piglit's shadersource-errors does this)
bogus = ffi.cast("void *", text)
errors = []
for name, count in ((99, 1), (prog, 1), (vs, -1), (vs, 0)):
    MARSHAL["glShaderSource"](c, name, count, bogus, ffi.NULL)
    errors.append(c.glGetError())
good = ffi.new("char *[]", [text])
MARSHAL["glShaderSource"](c, vs, 1, good, ffi.new("GLint[]", [-1]))
print(errors, repr(c.glGetShaderSource(vs)), c.glGetError())
"""


def test_shader_source_checks_its_names_before_reading_the_strings():
    """glShaderSource of a name that is no shader (INVALID_VALUE), of a program
    (INVALID_OPERATION), with a negative count (INVALID_VALUE) or a count of 0 reads
    none of the strings: the array may be anything (Mesa reads nothing either). In a
    process of its own: a read of the bogus array is a segmentation fault."""
    import subprocess
    import sys
    r = subprocess.run([sys.executable, "-c", _SHADER_SOURCE_ERRORS, str(BUILD_PY)],
                       capture_output=True, text=True, timeout=120,
                       cwd=Path(__file__).resolve().parents[3])
    assert r.returncode == 0, (r.returncode, r.stderr[-2000:])
    assert r.stdout.split("\n")[0] == (
        f"[{E.GL_INVALID_VALUE}, {E.GL_INVALID_OPERATION}, {E.GL_INVALID_VALUE}, {E.GL_NO_ERROR}] "
        f"'void main() {{ gl_Position = vec4(0.0); }}' {E.GL_NO_ERROR}")
