"""Queries real programs make at start-up: VTK/PyVista read the window
framebuffer's sizes, pyglet the indices of a uniform block's members, moderngl
GL_MAX_SERVER_WAIT_TIMEOUT through glGetInteger64v (every integer answer in
the query's type, clamped as GL 4.6 section 2.2.2 says)."""

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

SIZES = (E.GL_FRAMEBUFFER_ATTACHMENT_RED_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_GREEN_SIZE,
         E.GL_FRAMEBUFFER_ATTACHMENT_BLUE_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_ALPHA_SIZE,
         E.GL_FRAMEBUFFER_ATTACHMENT_DEPTH_SIZE, E.GL_FRAMEBUFFER_ATTACHMENT_STENCIL_SIZE)


@pytest.mark.parametrize("api,colour", [("compat", E.GL_BACK_LEFT), ("gl43", E.GL_BACK_LEFT),
                                        ("gl33", E.GL_FRONT_LEFT), ("gles3", E.GL_BACK)])
def test_default_framebuffer_attachment_sizes(api, colour):
    c = make_ctx(api)
    q = c.glGetFramebufferAttachmentParameteriv
    expected = {colour: [8, 8, 8, 8, 0, 0], E.GL_DEPTH: [0, 0, 0, 0, 24, 0],
                E.GL_STENCIL: [0, 0, 0, 0, 0, 8]}
    for attachment, bits in expected.items():
        assert [q(E.GL_FRAMEBUFFER, attachment, p)[0] for p in SIZES] == bits
        assert q(E.GL_FRAMEBUFFER, attachment, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_TYPE) == \
            [E.GL_FRAMEBUFFER_DEFAULT]
    assert q(E.GL_FRAMEBUFFER, colour, E.GL_FRAMEBUFFER_ATTACHMENT_COMPONENT_TYPE) == \
        [E.GL_UNSIGNED_NORMALIZED]
    assert q(E.GL_FRAMEBUFFER, colour, E.GL_FRAMEBUFFER_ATTACHMENT_COLOR_ENCODING) == [E.GL_LINEAR]
    expect(c, E.GL_NO_ERROR)
    # the default framebuffer has no object name to query
    assert q(E.GL_FRAMEBUFFER, colour, E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME) is None
    expect(c, E.GL_INVALID_ENUM)


def test_compat_bits_queries():
    c = make_ctx("compat")
    got = [c.glGetIntegerv(p)[0] for p in (E.GL_RED_BITS, E.GL_GREEN_BITS, E.GL_BLUE_BITS,
                                           E.GL_ALPHA_BITS, E.GL_DEPTH_BITS, E.GL_STENCIL_BITS)]
    assert got == [8, 8, 8, 8, 24, 8]
    expect(c, E.GL_NO_ERROR)


@pytest.mark.parametrize("fmt,bits", [(E.GL_DEPTH_COMPONENT16, 16), (E.GL_DEPTH_COMPONENT24, 24),
                                      (E.GL_DEPTH_COMPONENT32F, 32)])
def test_compat_depth_bits_follow_the_bound_framebuffer(fmt, bits):
    """A compatibility context answers GL_*_BITS from the draw framebuffer's
    attachments, as the core profile does (GL 4.6 compatibility table 23.73):
    a 16-bit depth renderbuffer has 16 depth bits and no colour or stencil."""
    c = make_ctx("compat")
    fb, rb = c.glGenFramebuffers(1)[0], c.glGenRenderbuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    c.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    c.glRenderbufferStorage(E.GL_RENDERBUFFER, fmt, 15, 15)
    c.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, rb)
    got = [c.glGetIntegerv(p)[0] for p in (E.GL_RED_BITS, E.GL_ALPHA_BITS, E.GL_DEPTH_BITS,
                                           E.GL_STENCIL_BITS)]
    assert got == [0, 0, bits, 0]
    expect(c, E.GL_NO_ERROR)


@pytest.mark.parametrize("api", ["gl33", "gl43", "gles3"])
def test_max_server_wait_timeout_fits_each_query_type(api):
    c = make_ctx(api)
    as64 = c.glGetInteger64v(E.GL_MAX_SERVER_WAIT_TIMEOUT)[0]
    as32 = c.glGetIntegerv(E.GL_MAX_SERVER_WAIT_TIMEOUT)[0]
    assert 0 < as64 <= (1 << 63) - 1
    assert as32 == min(as64, (1 << 31) - 1)
    expect(c, E.GL_NO_ERROR)


def test_every_integer_query_answers_in_its_type():
    """Every pname glGetIntegerv answers fits a GLint (bit masks: their 32-bit
    pattern), and glGetInteger64v a GLint64."""
    from driver.gl.get import MASK_PNAMES
    c = make_ctx("gl43")
    for pname in c._get_table:
        if pname in MASK_PNAMES:
            assert all(0 <= v < (1 << 32) for v in c.glGetIntegerv(pname))
            continue
        v32, v64 = c.glGetIntegerv(pname), c.glGetInteger64v(pname)
        c.glGetError()
        for v in v32 or ():
            assert -(1 << 31) <= v < (1 << 31), (hex(pname), v)
        for v in v64 or ():
            assert -(1 << 63) <= v < (1 << 63), (hex(pname), v)


def _program(c, vs, fs):
    prog = c.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh = c.glCreateShader(kind)
        c.glShaderSource(sh, 1, [src])
        c.glCompileShader(sh)
        assert c.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1], c.glGetShaderInfoLog(sh)
        c.glAttachShader(prog, sh)
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    return prog


def test_uniform_block_active_uniform_indices():
    c = make_ctx("gl33")
    vs = ("#version 330 core\nuniform float plain;\nlayout(std140) uniform A { vec4 a0; float a1; };\n"
          "layout(std140) uniform B { mat4 b0; vec2 b1; };\n"
          "void main() { gl_Position = a0 * a1 + b0[0] + vec4(b1, plain, 1.0); }\n")
    fs = "#version 330 core\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
    prog = _program(c, vs, fs)
    for block_name, members in (("A", ["a0", "a1"]), ("B", ["b0", "b1"])):
        block = c.glGetUniformBlockIndex(prog, block_name)
        n = c.glGetActiveUniformBlockiv(prog, block, E.GL_UNIFORM_BLOCK_ACTIVE_UNIFORMS)[0]
        indices = c.glGetActiveUniformBlockiv(prog, block, E.GL_UNIFORM_BLOCK_ACTIVE_UNIFORM_INDICES)
        assert len(indices) == n == 2
        assert sorted(c.glGetActiveUniform(prog, i)[0] for i in indices) == members
        assert c.glGetActiveUniformsiv(prog, len(indices), indices, E.GL_UNIFORM_BLOCK_INDEX) == \
            [block] * 2
    expect(c, E.GL_NO_ERROR)
