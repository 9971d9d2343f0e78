"""Rendering into levels and cube faces, mipmap generation, copies, texture buffers."""

import numpy as np

from tests.driver.agx.glhelp import context, program, vertices

VS_POS = """#version 300 es
in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }"""
FS_UNIFORM = """#version 300 es
precision highp float; uniform vec4 c; out vec4 color; void main(){ color = c; }"""
FULL = np.array([[-1, -1], [3, -1], [-1, 3]], np.float32)


def _read_fbo_texture(ctx, target, tex, level, w, h):
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_READ_FRAMEBUFFER, fbo)
    ctx.glFramebufferTexture2D(ctx.GL_READ_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, target, tex, level)
    raw = ctx.glReadPixels(0, 0, w, h, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE)
    ctx.glBindFramebuffer(ctx.GL_READ_FRAMEBUFFER, 0)
    return np.frombuffer(bytes(raw), np.uint8).reshape(h, w, 4)


def test_render_into_mip_level_and_cube_face():
    ctx = context(8, 8)
    p = program(ctx, VS_POS, FS_UNIFORM)
    vertices(ctx, p, FULL, {"pos": (2, 0)}, 2)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(ctx.GL_TEXTURE_2D, 3, ctx.GL_RGBA8, 16, 16)
    cube = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_CUBE_MAP, cube)
    ctx.glTexStorage2D(ctx.GL_TEXTURE_CUBE_MAP, 1, ctx.GL_RGBA8, 8, 8)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, fbo)
    loc = ctx.glGetUniformLocation(p, "c")
    for level, colour in ((0, (1, 0, 0, 1)), (1, (0, 1, 0, 1)), (2, (0, 0, 1, 1))):
        ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_2D, tex, level)
        size = 16 >> level
        ctx.glViewport(0, 0, size, size)
        ctx.glUniform4f(loc, *colour)
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    for face in range(6):
        ctx.glFramebufferTexture2D(ctx.GL_FRAMEBUFFER, ctx.GL_COLOR_ATTACHMENT0, ctx.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face,
                                   cube, 0)
        ctx.glViewport(0, 0, 8, 8)
        ctx.glUniform4f(loc, face / 5, 1 - face / 5, 0.5, 1)
        ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    ctx.glBindFramebuffer(ctx.GL_FRAMEBUFFER, 0)
    for level, colour in ((0, (255, 0, 0, 255)), (1, (0, 255, 0, 255)), (2, (0, 0, 255, 255))):
        size = 16 >> level
        assert (_read_fbo_texture(ctx, ctx.GL_TEXTURE_2D, tex, level, size, size) == colour).all(), level
    for face in range(6):
        px = _read_fbo_texture(ctx, ctx.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, cube, 0, 8, 8).astype(int)
        want = np.round(np.array([face / 5, 1 - face / 5, 0.5, 1]) * 255)
        assert (np.abs(px - want).max(axis=-1) <= 1).all(), face


def test_generate_mipmap_averages():
    ctx = context(4, 4)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    data = np.zeros((4, 4, 4), np.uint8)
    data[::2, ::2] = 255                                   # one texel in four is white
    data[..., 3] = 255
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 4, 4, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE, data)
    ctx.glGenerateMipmap(ctx.GL_TEXTURE_2D)
    lvl1 = _read_fbo_texture(ctx, ctx.GL_TEXTURE_2D, tex, 1, 2, 2).astype(int)
    assert (np.abs(lvl1[..., 0] - 64).max()) <= 2 and (lvl1[..., 3] == 255).all()


def test_copy_tex_sub_image_from_framebuffer():
    ctx = context(8, 8)
    ctx.glClearColor(0.0, 0.5, 1.0, 1.0)
    ctx.glClear(ctx.GL_COLOR_BUFFER_BIT)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(ctx.GL_TEXTURE_2D, 0, ctx.GL_RGBA8, 4, 4, 0, ctx.GL_RGBA, ctx.GL_UNSIGNED_BYTE,
                     np.zeros((4, 4, 4), np.uint8))
    ctx.glCopyTexSubImage2D(ctx.GL_TEXTURE_2D, 0, 1, 1, 2, 2, 2, 2)
    px = _read_fbo_texture(ctx, ctx.GL_TEXTURE_2D, tex, 0, 4, 4)
    assert (px[1:3, 1:3] == [0, 128, 255, 255]).all()
    assert (px[0] == 0).all() and (px[:, 3] == 0).all()


def test_texture_buffer_fetch():
    ctx = context(8, 1, api="gl43")
    p = program(ctx, """#version 430
    in vec2 pos; void main(){ gl_Position = vec4(pos, 0.0, 1.0); }""", """#version 430
    uniform samplerBuffer t; out vec4 color;
    void main(){ color = texelFetch(t, int(gl_FragCoord.x)); }""")
    vertices(ctx, p, FULL, {"pos": (2, 0)}, 2)
    texels = np.random.default_rng(2).random((8, 4)).astype(np.float32)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(ctx.GL_TEXTURE_BUFFER, buf)
    ctx.glBufferData(ctx.GL_TEXTURE_BUFFER, texels.nbytes, texels, ctx.GL_STATIC_DRAW)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(ctx.GL_TEXTURE_BUFFER, tex)
    ctx.glTexBuffer(ctx.GL_TEXTURE_BUFFER, ctx.GL_RGBA32F, buf)
    ctx.glDrawArrays(ctx.GL_TRIANGLES, 0, 3)
    img = ctx.read_pixels()[0].astype(int)
    assert np.abs(img - np.round(texels * 255)).max() <= 1
