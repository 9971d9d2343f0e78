"""GL_ARB_shader_image_size: ``imageSize(image)`` in GLSL below 4.30 with the extension
(images themselves from GL_ARB_shader_image_load_store below 4.20) returns the bound
image's size: width, height, depth or layers per the image type, of the level bound
(and of the layer range of a non-layered binding: one face or layer is a 2D image);
a buffer image's size in texels. Checked in fragment and compute shaders against the
sizes the textures were made with."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E

from .helpers import compile_source

HEAD = ("#version 150\n#extension GL_ARB_shader_image_load_store : require\n"
        "#extension GL_ARB_shader_image_size : require\n")


def _texture(ctx, target, size, levels=1):
    """An RGBA32F texture of ``target`` with ``size`` (w, h, depth/layers) at level 0."""
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(target, tex)
    w, h, d = size
    if target == E.GL_TEXTURE_BUFFER:
        buf = ctx.glGenBuffers(1)[0]
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, buf)
        ctx.glBufferData(E.GL_TEXTURE_BUFFER, 16 * w, None, E.GL_STATIC_DRAW)
        ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGBA32F, buf)
    elif target in (E.GL_TEXTURE_1D,):
        ctx.glTexStorage1D(target, levels, E.GL_RGBA32F, w)
    elif target in (E.GL_TEXTURE_2D, E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_CUBE_MAP):
        ctx.glTexStorage2D(target, levels, E.GL_RGBA32F, w, h)
    else:
        ctx.glTexStorage3D(target, levels, E.GL_RGBA32F, w, h, d)
    return tex


# (image type, texture target, texture size, level bound, layered, imageSize expected)
CASES = [
    ("image1D", E.GL_TEXTURE_1D, (24, 1, 1), 0, False, (24,)),
    ("image2D", E.GL_TEXTURE_2D, (20, 12, 1), 0, False, (20, 12)),
    ("image2D", E.GL_TEXTURE_2D, (20, 12, 1), 2, False, (5, 3)),            # level 2 of it
    ("image3D", E.GL_TEXTURE_3D, (8, 6, 4), 0, True, (8, 6, 4)),
    ("image2DRect", E.GL_TEXTURE_RECTANGLE, (7, 5, 1), 0, False, (7, 5)),
    ("imageCube", E.GL_TEXTURE_CUBE_MAP, (8, 8, 1), 0, True, (8, 8)),
    ("imageBuffer", E.GL_TEXTURE_BUFFER, (1536, 1, 1), 0, False, (1536,)),
    ("image1DArray", E.GL_TEXTURE_1D_ARRAY, (16, 3, 1), 0, True, (16, 3)),
    ("image2DArray", E.GL_TEXTURE_2D_ARRAY, (10, 6, 5), 0, True, (10, 6, 5)),
    ("image2DArray", E.GL_TEXTURE_2D_ARRAY, (10, 6, 5), 1, True, (5, 3, 5)),  # layers do not shrink
    ("imageCubeArray", E.GL_TEXTURE_CUBE_MAP_ARRAY, (4, 4, 12), 0, True, (4, 4, 2)),   # 12 faces: 2 cubes
    ("image2D", E.GL_TEXTURE_2D_ARRAY, (10, 6, 5), 0, False, (10, 6)),       # one layer of an array
]


def _fragment_sizes(ctx, image_type, expected_n):
    """imageSize of unit 0 written by a fragment shader to a 1x1 RGBA32I target."""
    pad = "".join(", -1" for _ in range(4 - expected_n))
    fs = HEAD + (f"layout(rgba32f) readonly uniform {image_type} img;\nout ivec4 o;\n"
                 f"void main() {{ o = ivec4(imageSize(img){pad}); }}\n")
    vs = "#version 150\nin vec4 p;\nvoid main() { gl_Position = p; }\n"
    prog = ctx.glCreateProgram()
    for kind, src in ((E.GL_VERTEX_SHADER, vs), (E.GL_FRAGMENT_SHADER, fs)):
        sh, ok, log = compile_source(ctx, kind, src)
        assert ok, (log, src)
        ctx.glAttachShader(prog, sh)
    ctx.glBindAttribLocation(prog, 0, "p")
    ctx.glLinkProgram(prog)
    assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
    ctx.glUseProgram(prog)
    ctx.glUniform1i(ctx.glGetUniformLocation(prog, "img"), 0)
    rb = ctx.glGenRenderbuffers(1)[0]
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA32I, 1, 1)
    fbo = ctx.glGenFramebuffers(1)[0]
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glViewport(0, 0, 1, 1)
    vao = ctx.glGenVertexArrays(1)[0]
    ctx.glBindVertexArray(vao)
    quad = np.array([[-1, -1, 0, 1], [3, -1, 0, 1], [-1, 3, 0, 1]], np.float32)
    vbo = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, quad.nbytes, quad, E.GL_STATIC_DRAW)
    ctx.glVertexAttribPointer(0, 4, E.GL_FLOAT, False, 0, 0)
    ctx.glEnableVertexAttribArray(0)
    ctx.glDrawArrays(E.GL_TRIANGLES, 0, 3)
    out = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA_INTEGER, E.GL_INT)), np.int32)
    assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    return tuple(int(v) for v in out[:expected_n]), tuple(int(v) for v in out[expected_n:])


@pytest.mark.parametrize("image_type,target,size,level,layered,expected", CASES,
                         ids=[f"{c[0]}-{c[1]:#x}-L{c[3]}{'-layered' if c[4] else ''}" for c in CASES])
def test_image_size_in_a_fragment_shader(image_type, target, size, level, layered, expected):
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        tex = _texture(ctx, target, size, levels=1 if target in (E.GL_TEXTURE_BUFFER, E.GL_TEXTURE_RECTANGLE) else 3)
        ctx.glBindImageTexture(0, tex, level, layered, 0, E.GL_READ_ONLY, E.GL_RGBA32F)
        got, rest = _fragment_sizes(ctx, image_type, len(expected))
    assert got == expected
    assert all(v == -1 for v in rest)


def test_image_size_in_a_compute_shader():
    """A compute shader (GL_ARB_compute_shader in GLSL 1.50) stores imageSize of a
    2D array image into an r32i image."""
    cs = HEAD + ("#extension GL_ARB_compute_shader : require\nlayout(local_size_x = 1) in;\n"
                 "layout(rgba32f) readonly uniform image2DArray src;\n"
                 "layout(r32i) writeonly uniform iimage1D dst;\n"
                 "void main() { ivec3 s = imageSize(src); imageStore(dst, 0, ivec4(s.x));"
                 " imageStore(dst, 1, ivec4(s.y)); imageStore(dst, 2, ivec4(s.z)); }\n")
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        src = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, (9, 7, 3))
        dst = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_1D, dst)
        ctx.glTexStorage1D(E.GL_TEXTURE_1D, 1, E.GL_R32I, 3)
        ctx.glBindImageTexture(0, src, 0, True, 0, E.GL_READ_ONLY, E.GL_RGBA32F)
        ctx.glBindImageTexture(1, dst, 0, False, 0, E.GL_WRITE_ONLY, E.GL_R32I)
        prog = ctx.glCreateProgram()
        sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
        assert ok, log
        ctx.glAttachShader(prog, sh)
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "src"), 0)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "dst"), 1)
        ctx.glDispatchCompute(1, 1, 1)
        ctx.glMemoryBarrier(E.GL_TEXTURE_UPDATE_BARRIER_BIT)
        got = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_1D, 0, E.GL_RED_INTEGER, E.GL_INT)), np.int32)
        assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    assert got.tolist() == [9, 7, 3]


def test_glsl_side():
    """The macro is defined; without the extension imageSize is unknown before 4.30;
    it is a built-in of GLSL 4.30 without it."""
    with driver.Context(api="gl46", width=4, height=4) as ctx:
        _, ok, log = compile_source(ctx, E.GL_VERTEX_SHADER, "#version 110\n#extension GL_ARB_shader_image_size : require\n"
                                    "#if GL_ARB_shader_image_size != 1\n#error\n#endif\nvoid main() {}\n")
        assert ok, log
        body = "layout(rgba32f) readonly uniform image2D img;\nout vec4 o;\nvoid main() { o = vec4(imageSize(img), 0.0, 1.0); }\n"
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER,
                                    "#version 150\n#extension GL_ARB_shader_image_load_store : require\n" + body)
        assert not ok and "imageSize" in log, log
        _, ok, log = compile_source(ctx, E.GL_FRAGMENT_SHADER, "#version 430\n" + body)
        assert ok, log


def test_buffer_images_are_the_buffer_range():
    """An imageBuffer is the texture's range of its buffer (glTexBufferRange): a compute
    shader reads texels of one range and writes each doubled into another buffer's
    range; imageSize is each range's texel count."""
    cs = HEAD + ("#extension GL_ARB_compute_shader : require\nlayout(local_size_x = 4) in;\n"
                 "layout(r32f) readonly uniform imageBuffer src;\n"
                 "layout(r32f) writeonly uniform imageBuffer dst;\n"
                 "void main() { int i = int(gl_GlobalInvocationID.x);\n"
                 "  imageStore(dst, i, imageLoad(src, i) * 2.0 + float(imageSize(src) * 100 + imageSize(dst))); }\n")
    data = np.arange(32, dtype=np.float32)
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        bufs = ctx.glGenBuffers(2)
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bufs[0])
        ctx.glBufferData(E.GL_TEXTURE_BUFFER, data.nbytes, data, E.GL_STATIC_DRAW)
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bufs[1])
        ctx.glBufferData(E.GL_TEXTURE_BUFFER, data.nbytes, np.full(32, -1, np.float32), E.GL_STATIC_DRAW)
        texs = ctx.glGenTextures(2)
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, texs[0])
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_R32F, bufs[0], 16 * 4, 8 * 4)      # texels 16..23
        ctx.glBindTexture(E.GL_TEXTURE_BUFFER, texs[1])
        ctx.glTexBufferRange(E.GL_TEXTURE_BUFFER, E.GL_R32F, bufs[1], 4 * 4, 12 * 4)      # texels 4..15
        ctx.glBindImageTexture(0, texs[0], 0, False, 0, E.GL_READ_ONLY, E.GL_R32F)
        ctx.glBindImageTexture(1, texs[1], 0, False, 0, E.GL_WRITE_ONLY, E.GL_R32F)
        prog = ctx.glCreateProgram()
        sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
        assert ok, log
        ctx.glAttachShader(prog, sh)
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "src"), 0)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "dst"), 1)
        ctx.glDispatchCompute(2, 1, 1)                       # 8 invocations
        ctx.glMemoryBarrier(E.GL_BUFFER_UPDATE_BARRIER_BIT)
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, bufs[1])
        view = ctx.glMapBufferRange(E.GL_TEXTURE_BUFFER, 0, data.nbytes, E.GL_MAP_READ_BIT)
        got = np.frombuffer(bytes(view), np.float32).copy()
        ctx.glUnmapBuffer(E.GL_TEXTURE_BUFFER)
        assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    expected = np.full(32, -1, np.float32)
    expected[4:12] = data[16:24] * 2 + (8 * 100 + 12)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("layered, image_type, coord, expected", [
    (True, "image2DArray", "ivec3(1, 0, 2)", [2, 2, 3, 13]),   # the view's 3 layers; its layer 2 = layer 3
    (False, "image2D", "ivec2(1, 0)", [2, 2, -1, 12]),         # the view's layer 1 = the parent's 2
])
def test_a_texture_view_bound_as_an_image_is_its_levels_and_layers(layered, image_type, coord, expected):
    """A texture view (GL 4.6 section 8.18) of levels 1.. and layers 1..3 of a 5-layer
    array: bound as an image, its level 0 is the parent's level 1, its layers the parent's
    1..3, and imageSize counts those 3 (piglit's arb_texture_view-rendering-layers-image;
    the image binding ignored the view's offsets and covered every layer to the last).
    Texel (x, y) of parent level v, layer l holds 10 * v + l."""
    size_z = "s.z" if layered else "-1"
    cs = HEAD + ("#extension GL_ARB_compute_shader : require\nlayout(local_size_x = 1) in;\n"
                 f"layout(rgba32f) readonly uniform {image_type} src;\n"
                 "layout(r32i) writeonly uniform iimage1D dst;\n"
                 f"void main() {{ ivec{3 if layered else 2} s = imageSize(src);\n"
                 "  imageStore(dst, 0, ivec4(s.x)); imageStore(dst, 1, ivec4(s.y));\n"
                 f"  imageStore(dst, 2, ivec4({size_z})); imageStore(dst, 3, ivec4(imageLoad(src, {coord}).r)); }}\n")
    with driver.Context(api="gl43", width=4, height=4) as ctx:
        parent = _texture(ctx, E.GL_TEXTURE_2D_ARRAY, (4, 4, 5), levels=2)
        for v, n in ((0, 4), (1, 2)):
            data = np.repeat(10.0 * v + np.arange(5, dtype=np.float32), n * n * 4)
            ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, v, 0, 0, 0, n, n, 5, E.GL_RGBA, E.GL_FLOAT, data.tobytes())
        view = ctx.glGenTextures(1)[0]
        ctx.glTextureView(view, E.GL_TEXTURE_2D_ARRAY, parent, E.GL_RGBA32F, 1, 1, 1, 3)
        dst = ctx.glGenTextures(1)[0]
        ctx.glBindTexture(E.GL_TEXTURE_1D, dst)
        ctx.glTexStorage1D(E.GL_TEXTURE_1D, 1, E.GL_R32I, 4)
        ctx.glBindImageTexture(0, view, 0, layered, 1, E.GL_READ_ONLY, E.GL_RGBA32F)
        ctx.glBindImageTexture(1, dst, 0, False, 0, E.GL_WRITE_ONLY, E.GL_R32I)
        prog = ctx.glCreateProgram()
        sh, ok, log = compile_source(ctx, E.GL_COMPUTE_SHADER, cs)
        assert ok, log
        ctx.glAttachShader(prog, sh)
        ctx.glLinkProgram(prog)
        assert ctx.glGetProgramiv(prog, E.GL_LINK_STATUS)[0], ctx.glGetProgramInfoLog(prog)
        ctx.glUseProgram(prog)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "src"), 0)
        ctx.glUniform1i(ctx.glGetUniformLocation(prog, "dst"), 1)
        ctx.glDispatchCompute(1, 1, 1)
        ctx.glMemoryBarrier(E.GL_TEXTURE_UPDATE_BARRIER_BIT)
        got = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_1D, 0, E.GL_RED_INTEGER, E.GL_INT)), np.int32)
        assert ctx.glGetError() == E.GL_NO_ERROR, ctx.error_log[-1:]
    assert got.tolist() == expected
