"""What the long GL API fuzz runs found, kept as tests: each call ends in the GL
error the specification names (or in defined work), never in an exception the
last-resort guard has to answer."""

from __future__ import annotations

import tracemalloc

import numpy as np

import driver
from driver.gl import enums as E
from driver.gl.objects import MAX_NAMES_PER_CALL, program_object
from tests.driver.gl.helpers import expect

COMPRESSED_RGBA_S3TC_DXT1 = 0x83F1


def _program(g, vs: str, fs: str) -> int:
    prog = g.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh = g.glCreateShader(kind)
        g.glShaderSource(sh, 1, [src])
        g.glCompileShader(sh)
        g.glAttachShader(prog, sh)
    g.glBindAttribLocation(prog, 0, "pos")
    g.glBindAttribLocation(prog, 1, "c")
    g.glLinkProgram(prog)
    return prog


def test_getn_uniform_int64_of_a_bad_program_is_its_error():
    """glGetnUniform(u)i64vARB went through the plain query's entry point, which
    answers None after recording the error, and took len(None)."""
    with driver.Context("gl45", 8, 8) as ctx:
        g = ctx.gl
        for query in (g.glGetnUniformi64vARB, g.glGetnUniformui64vARB):
            query(12345, 0, 64)                       # not a program name
            expect(g, E.GL_INVALID_VALUE)
            shader = g.glCreateShader(E.GL_VERTEX_SHADER)
            query(shader, 0, 64)                      # a shader, not a program
            expect(g, E.GL_INVALID_OPERATION)
        assert g.internal_errors == []


def test_compressed_sub_image_at_a_negative_level_is_invalid_value():
    """A negative level indexed the level list from its end (IndexError)."""
    with driver.Context("compat", 8, 8) as ctx:
        g = ctx.gl
        tex = g.glGenTextures(1)[0]
        g.glBindTexture(E.GL_TEXTURE_2D, tex)
        g.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, COMPRESSED_RGBA_S3TC_DXT1, 4, 4, 0, 8, bytes(8))
        expect(g, E.GL_NO_ERROR)
        for level in (-1, -(1 << 31)):
            g.glCompressedTextureSubImage2D(tex, level, 0, 0, 4, 4, COMPRESSED_RGBA_S3TC_DXT1, 8, bytes(8))
            expect(g, E.GL_INVALID_VALUE)
            g.glCompressedTexSubImage2D(E.GL_TEXTURE_2D, level, 0, 0, 4, 4, COMPRESSED_RGBA_S3TC_DXT1, 8, bytes(8))
            expect(g, E.GL_INVALID_VALUE)
        assert g.internal_errors == []


def test_a_double_current_attribute_read_by_a_float_input_draws():
    """glVertexAttribL4d's current value, read by a vec4 input (undefined values,
    GL 4.6 section 10.2.1), made every later draw raise KeyError('double'); it is
    read as floats."""
    vs = "#version 330 core\nin vec4 pos;\nin vec4 c;\nout vec4 v;\nvoid main() { gl_Position = pos; v = c; }\n"
    fs = "#version 330 core\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n"
    with driver.Context("gl43", 8, 8) as ctx:
        g = ctx.gl
        g.glUseProgram(_program(g, vs, fs))
        g.glBindVertexArray(g.glGenVertexArrays(1)[0])
        g.glVertexAttribL4d(1, 1.0, 0.5, 0.25, 1.0)
        g.glBindBuffer(E.GL_ARRAY_BUFFER, g.glGenBuffers(1)[0])
        v = np.array([-1, -1, 0, 1, 3, -1, 0, 1, -1, 3, 0, 1], np.float32)
        g.glBufferData(E.GL_ARRAY_BUFFER, v.nbytes, v.tobytes(), E.GL_STATIC_DRAW)
        g.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
        g.glEnableVertexAttribArray(0)
        g.glDrawArrays(E.GL_TRIANGLES, 0, 3)
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []
        # UNORM8 of (1.0, 0.5, 0.25, 1.0): 255, 127.5 -> 128, 63.75 -> 64, 255
        assert ctx.read_pixels()[4, 4].tolist() == [255, 128, 64, 255]


def test_gen_programs_arb_beyond_the_per_call_limit_is_out_of_memory():
    """glGenProgramsARB(2^31 - 1) built the whole list of names in host memory
    (tens of GiB: a 15,000-call compatibility-profile fuzz run was killed at
    24 GiB of resident set). Like every other glGen*, a request beyond
    MAX_NAMES_PER_CALL is GL_OUT_OF_MEMORY and reserves nothing."""
    with driver.Context("compat", 8, 8) as ctx:
        g = ctx.gl
        tracemalloc.start()
        try:
            for n in (MAX_NAMES_PER_CALL + 1, (1 << 31) - 1):
                g.glGenProgramsARB(n)
                expect(g, E.GL_OUT_OF_MEMORY)
            peak_B = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak_B < 4 << 20, f"{peak_B} bytes for two refused requests"
        assert g.glGenProgramsARB(2) == [1, 2]          # nothing was reserved
        assert len(g.glGenProgramsARB(MAX_NAMES_PER_CALL)) == MAX_NAMES_PER_CALL
        expect(g, E.GL_NO_ERROR)
        assert g.internal_errors == []


_VS_330 = ("#version 330 core\nin vec4 pos;\nin vec4 c;\nout vec4 v;\nuniform vec4 k;\n"
           "void main() { gl_Position = pos; v = c * k; }\n")
_FS_330 = "#version 330 core\nin vec4 v;\nout vec4 o;\nvoid main() { o = v; }\n"


def test_null_names_in_program_entry_points():
    """A NULL name (None, what the C ABI's str_in makes of it) raised
    AttributeError inside glBindAttribLocation, glBindFragDataLocation[Indexed],
    glGetUniformLocation, glGetProgramResourceLocation and
    glGetSubroutineUniformLocation (answered INVALID_OPERATION by the last-resort
    guard). As Mesa, the program is checked first; then a query answers -1 (a
    NULL names nothing, as glGetAttribLocation already answered) and a bind is
    GL_INVALID_VALUE with nothing bound (Mesa ignores it silently)."""
    with driver.Context("gl43", 8, 8) as ctx:
        g = ctx.gl
        prog = _program(g, _VS_330, _FS_330)
        expect(g, E.GL_NO_ERROR)
        bindings = dict(program_object(ctx.gl, prog).attrib_bindings)
        g.glBindAttribLocation(prog, 3, None)
        expect(g, E.GL_INVALID_VALUE)
        g.glBindFragDataLocation(prog, 0, None)
        expect(g, E.GL_INVALID_VALUE)
        g.glBindFragDataLocationIndexed(prog, 0, 1, None)
        expect(g, E.GL_INVALID_VALUE)
        assert program_object(ctx.gl, prog).attrib_bindings == bindings
        assert not getattr(program_object(ctx.gl, prog), "frag_data_index", {})
        assert g.glGetUniformLocation(prog, None) == -1
        expect(g, E.GL_NO_ERROR)
        for interface in (E.GL_UNIFORM, E.GL_PROGRAM_INPUT, E.GL_PROGRAM_OUTPUT):
            assert g.glGetProgramResourceLocation(prog, interface, None) == -1
            expect(g, E.GL_NO_ERROR)
        assert g.glGetSubroutineUniformLocation(prog, E.GL_VERTEX_SHADER, None) == -1
        expect(g, E.GL_NO_ERROR)
        # the program's own errors come first
        g.glBindAttribLocation(0xBAD, 0, None)
        expect(g, E.GL_INVALID_VALUE)
        unlinked = g.glCreateProgram()
        g.glGetUniformLocation(unlinked, None)
        expect(g, E.GL_INVALID_OPERATION)
        # the program still links and answers for real names
        g.glLinkProgram(prog)
        assert g.glGetUniformLocation(prog, "k") >= 0
        assert g.internal_errors == []
