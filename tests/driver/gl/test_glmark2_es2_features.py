"""What glmark2-es2's scenes needed. The GLES 2.0 extensions its buffer, shadow and
refract scenes require:
OES_mapbuffer (glMapBufferOES / glUnmapBufferOES / glGetBufferPointervOES),
OES_depth_texture (DEPTH_COMPONENT textures with UNSIGNED_SHORT / UNSIGNED_INT)
and OES_packed_depth_stencil (DEPTH_STENCIL / UNSIGNED_INT_24_8 textures,
DEPTH24_STENCIL8_OES renderbuffers). Whole stack (driver.Context), GLSL ES 1.00
shaders; the expected pixels are worked out by hand in each test. And string
lengths in bytes: glmark2 checks SHADER_SOURCE_LENGTH against its UTF-8 source."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.helpers import expect

A = E.GL_ARRAY_BUFFER
T2 = E.GL_TEXTURE_2D
W, H = 8, 4

VS = "attribute vec3 p; varying vec2 uv; void main() { uv = p.xy * 0.5 + 0.5; gl_Position = vec4(p, 1.0); }"
FS_COLOUR = "precision mediump float; uniform vec4 colour; void main() { gl_FragColor = colour; }"
FS_DEPTH = ("precision mediump float; uniform sampler2D tex; varying vec2 uv;\n"
            "void main() { gl_FragColor = vec4(texture2D(tex, uv).r, 0.0, 0.0, 1.0); }")
# two triangles: the left half (x in [-1, 0]) or the whole window, at depth z
LEFT = [(-1, -1), (0, -1), (-1, 1), (-1, 1), (0, -1), (0, 1)]
FULL = [(-1, -1), (1, -1), (-1, 1), (-1, 1), (1, -1), (1, 1)]


def _program(ctx, fs):
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, VS), (E.GL_FRAGMENT_SHADER, fs)):
        s = ctx.glCreateShader(kind)
        ctx.glShaderSource(s, 1, [src])
        ctx.glCompileShader(s)
        assert ctx.glGetShaderiv(s, E.GL_COMPILE_STATUS)[0], ctx.glGetShaderInfoLog(s)
        ctx.glAttachShader(prog, s)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    return prog


def _quad_bytes(corners, z):
    return np.array([(x, y, z) for x, y in corners], np.float32).tobytes()


def _draw(ctx, corners, z=0.0):
    (vbo,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(A, vbo)
    ctx.glBufferData(A, 72, _quad_bytes(corners, z), E.GL_STREAM_DRAW)
    ctx.glVertexAttribPointer(0, 3, E.GL_FLOAT, False, 12, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)


def _pixels(ctx):
    raw = ctx.glReadPixels(0, 0, W, H, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(raw, np.uint8).reshape(H, W, 4)


@pytest.mark.parametrize("api", ["gles2", "gles3"])
def test_listed_in_gles_only(api):
    names = {"GL_OES_mapbuffer", "GL_OES_depth_texture", "GL_OES_packed_depth_stencil"}
    with driver.Context(api=api, width=W, height=H) as ctx:
        assert names <= set(ctx.glGetString(E.GL_EXTENSIONS).split())
    with driver.Context(api="gl43", width=W, height=H) as ctx:
        listed = {ctx.glGetStringi(E.GL_EXTENSIONS, i)
                  for i in range(ctx.glGetIntegerv(E.GL_NUM_EXTENSIONS)[0])}
        assert not names & listed


def test_mapbuffer_writes_vertices_that_are_drawn():
    """glMapBufferOES(WRITE_ONLY_OES) gives memory whose bytes the draw reads after
    glUnmapBufferOES: the left-half quad written through the mapping is red, the
    right half keeps the clear colour."""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        prog = _program(ctx, FS_COLOUR)
        ctx.glUniform4f(ctx.glGetUniformLocation(prog, "colour"), 1.0, 0.0, 0.0, 1.0)
        (vbo,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(A, vbo)
        ctx.glBufferData(A, 72, None, E.GL_DYNAMIC_DRAW)
        assert ctx.glGetBufferParameteriv(A, E.GL_BUFFER_ACCESS) == [E.GL_WRITE_ONLY]
        m = ctx.glMapBufferOES(A, E.GL_WRITE_ONLY)
        expect(ctx, E.GL_NO_ERROR)
        assert len(m) == 72
        assert ctx.glGetBufferParameteriv(A, E.GL_BUFFER_MAPPED) == [1]
        pointer = ctx.glGetBufferPointervOES(A, E.GL_BUFFER_MAP_POINTER)
        assert pointer is not None and len(pointer) == 72
        m[:] = _quad_bytes(LEFT, 0.0)
        assert ctx.glUnmapBufferOES(A) is True
        assert ctx.glGetBufferParameteriv(A, E.GL_BUFFER_MAPPED) == [0]
        assert ctx.glGetBufferPointervOES(A, E.GL_BUFFER_MAP_POINTER) is None
        ctx.glVertexAttribPointer(0, 3, E.GL_FLOAT, False, 12, 0)
        ctx.glEnableVertexAttribArray(0)
        ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT)
        ctx.glDrawArrays(E.GL_TRIANGLES, 0, 6)
        expect(ctx, E.GL_NO_ERROR)
        px = _pixels(ctx)
    assert (px[:, : W // 2] == [255, 0, 0, 255]).all()
    assert (px[:, W // 2:] == [0, 0, 255, 255]).all()


def test_mapbuffer_errors():
    """OES_mapbuffer: access other than WRITE_ONLY_OES is INVALID_ENUM; mapping a mapped
    buffer, unmapping an unmapped one or mapping with no buffer bound is
    INVALID_OPERATION; a failed map returns NULL and changes nothing."""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        assert ctx.glMapBufferOES(A, E.GL_WRITE_ONLY) is None
        expect(ctx, E.GL_INVALID_OPERATION)
        (vbo,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(A, vbo)
        ctx.glBufferData(A, 16, None, E.GL_STATIC_DRAW)
        for access in (E.GL_READ_ONLY, E.GL_READ_WRITE):
            assert ctx.glMapBufferOES(A, access) is None
            expect(ctx, E.GL_INVALID_ENUM)
            assert ctx.glGetBufferParameteriv(A, E.GL_BUFFER_MAPPED) == [0]
        assert ctx.glUnmapBufferOES(A) is None
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glMapBufferOES(A, E.GL_WRITE_ONLY) is not None
        assert ctx.glMapBufferOES(A, E.GL_WRITE_ONLY) is None
        expect(ctx, E.GL_INVALID_OPERATION)
    with driver.Context(api="gl43", width=W, height=H) as ctx:     # desktop GL: no OES alias
        (vbo,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(A, vbo)
        ctx.glBufferData(A, 16, None, E.GL_STATIC_DRAW)
        assert ctx.glMapBufferOES(A, E.GL_WRITE_ONLY) is None
        expect(ctx, E.GL_INVALID_OPERATION)
        assert ctx.glMapBuffer(A, E.GL_READ_ONLY) is not None        # glMapBuffer keeps READ_ONLY
        assert ctx.glGetBufferParameteriv(A, E.GL_BUFFER_ACCESS) == [E.GL_READ_ONLY]


def _texture(ctx):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T2, t)
    for pname, value in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                         (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        ctx.glTexParameteri(T2, pname, value)
    return t


@pytest.mark.parametrize("type_,dtype,scale", [(E.GL_UNSIGNED_SHORT, np.uint16, 65535),
                                               (E.GL_UNSIGNED_INT, np.uint32, 4294967295)])
def test_depth_texture_upload_sampled(type_, dtype, scale):
    """An 8x4 DEPTH_COMPONENT texture of depth x/7 in column x, sampled at each pixel
    centre: red = round(255 * x / 7)."""
    depth = np.tile(np.arange(W) / (W - 1), (H, 1))
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT, W, H, 0, E.GL_DEPTH_COMPONENT, type_,
                         np.rint(depth * scale).astype(dtype).tobytes())
        expect(ctx, E.GL_NO_ERROR)
        _program(ctx, FS_DEPTH)
        _draw(ctx, FULL)
        px = _pixels(ctx)
    assert px[..., 0].tolist() == np.rint(depth * 255).astype(int).tolist()


def test_depth_texture_rendered_then_sampled():
    """glmark2's shadow scene: a DEPTH_COMPONENT texture as a framebuffer's depth
    attachment, cleared to 1.0, the left half drawn at z = -0.5 (window depth 0.25),
    then sampled: red 64 (0.25 * 255 = 63.75) on the left, 255 on the right."""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        tex = _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT, W, H, 0, E.GL_DEPTH_COMPONENT,
                         E.GL_UNSIGNED_INT, None)
        (fbo,) = ctx.glGenFramebuffers(1)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, T2, tex, 0)
        (rb,) = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, W, H)
        ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glEnable(E.GL_DEPTH_TEST)
        ctx.glClearDepthf(1.0)
        ctx.glClear(E.GL_DEPTH_BUFFER_BIT)
        _program(ctx, FS_COLOUR)
        _draw(ctx, LEFT, z=-0.5)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
        ctx.glDisable(E.GL_DEPTH_TEST)
        ctx.glBindTexture(T2, tex)
        _program(ctx, FS_DEPTH)
        _draw(ctx, FULL)
        expect(ctx, E.GL_NO_ERROR)
        px = _pixels(ctx)
    assert (px[:, : W // 2, 0] == 64).all(), px[..., 0]
    assert (px[:, W // 2:, 0] == 255).all(), px[..., 0]


def test_depth_texture_combinations_gles2():
    """Only UNSIGNED_SHORT / UNSIGNED_INT with DEPTH_COMPONENT, UNSIGNED_INT_24_8 with
    DEPTH_STENCIL; the format must equal the internal format (GLES 2.0 section 3.7.1)."""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        _texture(ctx)
        for fmt, type_ in ((E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_BYTE),
                           (E.GL_DEPTH_COMPONENT, E.GL_FLOAT),
                           (E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT)):
            ctx.glTexImage2D(T2, 0, fmt, 2, 2, 0, fmt, type_, None)
            expect(ctx, E.GL_INVALID_OPERATION)
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT, 2, 2, 0, E.GL_DEPTH_STENCIL,
                         E.GL_UNSIGNED_INT_24_8, None)
        expect(ctx, E.GL_INVALID_OPERATION)


def test_packed_depth_stencil_texture_sampled():
    """DEPTH_STENCIL / UNSIGNED_INT_24_8: depth x/7 in the high 24 bits, stencil 0x5A in
    the low 8; a sampler reads the depth: red = round(255 * x / 7)."""
    depth = np.tile(np.arange(W) / (W - 1), (H, 1))
    packed = (np.rint(depth * (2 ** 24 - 1)).astype(np.uint32) << 8) | 0x5A
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        _texture(ctx)
        ctx.glTexImage2D(T2, 0, E.GL_DEPTH_STENCIL, W, H, 0, E.GL_DEPTH_STENCIL,
                         E.GL_UNSIGNED_INT_24_8, packed.tobytes())
        expect(ctx, E.GL_NO_ERROR)
        _program(ctx, FS_DEPTH)
        _draw(ctx, FULL)
        px = _pixels(ctx)
    assert px[..., 0].tolist() == np.rint(depth * 255).astype(int).tolist()


def test_packed_depth_stencil_renderbuffer_stencils():
    """OES_packed_depth_stencil: a DEPTH24_STENCIL8_OES renderbuffer attached as both
    depth and stencil; the left half writes stencil 1, then a full-window green quad
    passes only where the stencil equals 1."""
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        (fbo,) = ctx.glGenFramebuffers(1)
        ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
        colour, ds = ctx.glGenRenderbuffers(2)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, colour)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, W, H)
        ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, ds)
        ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8, W, H)
        expect(ctx, E.GL_NO_ERROR)
        assert ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_STENCIL_SIZE) == [8]
        assert ctx.glGetRenderbufferParameteriv(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_DEPTH_SIZE) == [24]
        for att, rb in ((E.GL_COLOR_ATTACHMENT0, colour), (E.GL_DEPTH_ATTACHMENT, ds),
                        (E.GL_STENCIL_ATTACHMENT, ds)):
            ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, att, E.GL_RENDERBUFFER, rb)
        assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
        ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
        ctx.glClearStencil(0)
        ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
        prog = _program(ctx, FS_COLOUR)
        where = ctx.glGetUniformLocation(prog, "colour")
        ctx.glEnable(E.GL_STENCIL_TEST)
        ctx.glStencilFunc(E.GL_ALWAYS, 1, 0xFF)
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
        ctx.glColorMask(False, False, False, False)
        _draw(ctx, LEFT)
        ctx.glColorMask(True, True, True, True)
        ctx.glStencilFunc(E.GL_EQUAL, 1, 0xFF)
        ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_KEEP)
        ctx.glUniform4f(where, 0.0, 1.0, 0.0, 1.0)
        _draw(ctx, FULL)
        expect(ctx, E.GL_NO_ERROR)
        px = _pixels(ctx)
    assert (px[:, : W // 2] == [0, 255, 0, 255]).all()
    assert (px[:, W // 2:] == [0, 0, 0, 255]).all()


def test_source_and_log_lengths_count_bytes():
    """GL 4.6 section 7.13 / GLES 3.2 section 7.14: SHADER_SOURCE_LENGTH and
    INFO_LOG_LENGTH count GLchars (bytes) with the terminator. glmark2's
    buffer-wireframe.vert has UTF-8 author names in a comment and refused a
    length counted in characters. "// Bærentzen, “x”" is 22 bytes (æ 2, quotes 3 each)."""
    comment = "// Bærentzen, “x”\n"
    assert len(comment.encode()) == len(comment) + 5
    with driver.Context(api="gles2", width=W, height=H) as ctx:
        sh = ctx.glCreateShader(E.GL_VERTEX_SHADER)
        source = comment + "void main() { gl_Position = vec4(0.0); }\n"
        ctx.glShaderSource(sh, 1, [source])
        assert ctx.glGetShaderiv(sh, E.GL_SHADER_SOURCE_LENGTH) == [len(source.encode()) + 1]
        ctx.glCompileShader(sh)
        assert ctx.glGetShaderiv(sh, E.GL_COMPILE_STATUS) == [1]
        bad = ctx.glCreateShader(E.GL_VERTEX_SHADER)
        ctx.glShaderSource(bad, 1, ["void main() { gl_Position = vec4(0.0) + “; }\n"])
        ctx.glCompileShader(bad)
        assert ctx.glGetShaderiv(bad, E.GL_COMPILE_STATUS) == [0]
        log = ctx.glGetShaderInfoLog(bad)
        assert ctx.glGetShaderiv(bad, E.GL_INFO_LOG_LENGTH) == [len(log.encode()) + 1]
