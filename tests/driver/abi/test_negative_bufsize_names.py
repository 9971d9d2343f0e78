"""The name and log queries through the C ABI: a negative bufSize is
INVALID_VALUE and nothing is written (GL 4.6 sections 7.3.1.1, 7.13, 7.14,
7.4.4 and 11.1.2.1 name the error for each of these commands). The front end
took no bufSize, so the marshalling wrote nothing and raised no error
(piglit's arb_uniform_buffer_object-getactiveuniformblockname); a
non-negative bufSize still returns the name, cut to bufSize - 1 characters."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cffi
import pytest

import driver
from driver.abi import _commands, marshal as M
from driver.gl import enums as E

BUILD_PY = Path(M.__file__).resolve().parent / "build.py"

VS = """#version 450
layout(std140) uniform Blk { vec4 u; };
in vec4 pos;
out vec4 v;
subroutine vec4 S();
subroutine(S) vec4 s1() { return u; }
subroutine uniform S su;
void main() { v = su(); gl_Position = pos; }
"""


@pytest.fixture(scope="module")
def ffi():
    f = cffi.FFI()
    spec = importlib.util.spec_from_file_location("_abi_build_for_bufsize_test", BUILD_PY)
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    f.cdef(build.TYPEDEFS)
    M.bind(f)
    return f


def _marshal(name):
    return M.OVERRIDES.get(name) or _commands.MARSHAL[name]


def _cases(f, vs, prog, pipe):
    """name -> the C arguments before (bufSize, ...) and after it up to the string."""
    out = (f.NULL,)
    return {
        "glGetActiveAttrib": ((prog, 0), (f.NULL, f.new("GLint *"), f.new("GLenum *"))),
        "glGetActiveUniform": ((prog, 0), (f.NULL, f.new("GLint *"), f.new("GLenum *"))),
        "glGetActiveUniformName": ((prog, 0), out),
        "glGetActiveUniformBlockName": ((prog, 0), out),
        "glGetActiveSubroutineName": ((prog, E.GL_VERTEX_SHADER, 0), out),
        "glGetActiveSubroutineUniformName": ((prog, E.GL_VERTEX_SHADER, 0), out),
        "glGetTransformFeedbackVarying": ((prog, 0), (f.NULL, f.new("GLsizei *"), f.new("GLenum *"))),
        "glGetShaderInfoLog": ((vs,), out),
        "glGetShaderSource": ((vs,), out),
        "glGetProgramInfoLog": ((prog,), out),
        "glGetProgramPipelineInfoLog": ((pipe,), out),
    }


EXPECTED_NAMES = {            # what bufSize 4 returns: at most 3 characters, then NUL
    "glGetActiveAttrib": b"pos", "glGetActiveUniform": b"u", "glGetActiveUniformName": b"u",
    "glGetActiveUniformBlockName": b"Blk", "glGetActiveSubroutineName": b"s1",
    "glGetActiveSubroutineUniformName": b"su", "glGetTransformFeedbackVarying": b"v",
    "glGetShaderSource": b"#ve",
}


def test_a_negative_buf_size_is_invalid_value_and_writes_nothing(ffi):
    with driver.Context("gl46", 4, 4) as c:
        g = c.gl
        vs = g.glCreateShader(E.GL_VERTEX_SHADER)
        g.glShaderSource(vs, 1, [VS])
        g.glCompileShader(vs)
        prog = g.glCreateProgram()
        g.glAttachShader(prog, vs)
        g.glTransformFeedbackVaryings(prog, 1, ["v"], E.GL_INTERLEAVED_ATTRIBS)
        g.glLinkProgram(prog)
        assert g.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1]
        pipe = g.glGenProgramPipelines(1)[0]
        g.glBindProgramPipeline(pipe)
        assert g.glGetError() == E.GL_NO_ERROR
        for name, (before, after) in _cases(ffi, vs, prog, pipe).items():
            buf = ffi.new("char[8]", b"\x07" * 8)
            length = ffi.new("GLsizei *", 99)
            after = (length,) + after[1:]
            _marshal(name)(g, *before, -1, *after, buf)
            assert g.glGetError() == E.GL_INVALID_VALUE, name
            assert bytes(ffi.buffer(buf)) == b"\x07" * 8, name
            assert length[0] == 99, name
            if name in EXPECTED_NAMES:
                _marshal(name)(g, *before, 4, *after, buf)
                assert g.glGetError() == E.GL_NO_ERROR, name
                assert ffi.string(buf) == EXPECTED_NAMES[name], name
                assert length[0] == len(EXPECTED_NAMES[name]), name
