"""Compressed textures, copies, multisample and buffer textures, image units,
program-interface-ish queries added for GLES 3.0/3.1."""

from driver.gallium import PipeFormat
from driver.gl import enums as E
from driver.gl.textures import texture_resource
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect
from tests.driver.gl.test_programs import program
from tests.driver.gl.test_textures import tex

ETC2 = E.GL_COMPRESSED_RGB8_ETC2


def test_compressed_tex_image(es3):
    t = tex(es3)
    es3.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, ETC2, 8, 4, 0, 15, bytes(16))
    expect(es3, E.GL_INVALID_VALUE)                        # 2 blocks x 8 B = 16
    es3.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 8, 4, 0, 16, bytes(16))
    expect(es3, E.GL_INVALID_ENUM)
    es3.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, ETC2, 8, 4, 0, 16, bytes(range(16)))
    assert es3.glGetError() == E.GL_NO_ERROR
    res = texture_resource(es3, es3.textures.get(t))
    assert res.format == PipeFormat.ETC2_RGB8
    name, args = es3.pipe.calls[-1]
    assert name == "texture_subdata" and args[4] == bytes(range(16)) and args[5] == 16
    es3.glCompressedTexSubImage2D(E.GL_TEXTURE_2D, 0, 2, 0, 4, 4, ETC2, 8, bytes(8))
    expect(es3, E.GL_INVALID_OPERATION)                    # not block aligned
    es3.glCompressedTexSubImage2D(E.GL_TEXTURE_2D, 0, 4, 0, 4, 4, ETC2, 8, bytes(8))
    assert es3.glGetError() == E.GL_NO_ERROR


def test_es2_has_no_etc2():
    c = make_ctx("gles2")
    tex(c)
    c.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, ETC2, 4, 4, 0, 8, bytes(8))
    expect(c, E.GL_INVALID_ENUM)


def test_copy_tex_image_blits_from_read_buffer(es3):
    t = tex(es3)
    es3.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 1, 2, 8, 4, 0)
    assert es3.glGetError() == E.GL_NO_ERROR
    info = es3.pipe.last("blit")[0]
    assert info.src.resource is es3.window.color
    assert (info.src.box.x, info.src.box.y, info.src.box.width) == (1, 2, 8)
    assert info.dst.resource is es3.textures.get(t).resource
    es3.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 0, 0, 4, 4, 1)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glCopyTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_R32UI, 0, 0, 4, 4, 0)
    expect(es3, E.GL_INVALID_OPERATION)                    # integer from a normalized buffer
    es3.glCopyTexSubImage2D(E.GL_TEXTURE_2D, 0, 6, 0, 0, 0, 4, 4)
    expect(es3, E.GL_INVALID_VALUE)                        # outside the 8x4 image


def test_texture_2d_multisample():
    c = make_ctx("gles31")
    t = tex(c, E.GL_TEXTURE_2D_MULTISAMPLE)
    c.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 3, E.GL_RGBA8, 8, 8, True)
    assert c.glGetError() == E.GL_NO_ERROR
    res = c.textures.get(t).resource
    assert res.template.nr_samples == 4
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D_MULTISAMPLE, 0, E.GL_TEXTURE_SAMPLES) == [4]
    c.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 64, E.GL_RGBA8, 8, 8, True)
    expect(c, E.GL_INVALID_OPERATION)
    c.glTexParameteri(E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    expect(c, E.GL_INVALID_ENUM)


def test_internalformat_query(es3):
    assert es3.glGetInternalformativ(E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_NUM_SAMPLE_COUNTS, 4) == [2]
    assert es3.glGetInternalformativ(E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_SAMPLES, 4) == [4, 2]
    es3.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_SAMPLES, 4)
    expect(es3, E.GL_INVALID_ENUM)


def test_program_binary_errors(es3):
    assert es3.glGetIntegerv(E.GL_NUM_PROGRAM_BINARY_FORMATS) == [1]
    p = program(es3)
    es3.glProgramBinary(p, 0, b"", 0)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glProgramParameteri(p, E.GL_PROGRAM_BINARY_RETRIEVABLE_HINT, 2)
    expect(es3, E.GL_INVALID_VALUE)


def test_block_members_are_active_uniforms():
    c = make_ctx("gles3")
    vs = """#version 300 es
layout(std140) uniform Blk { vec3 a; float b; mat2 m[2]; } blk;
in vec4 p;
void main() { gl_Position = p + vec4(blk.a, blk.b) + vec4(blk.m[1][0], 0.0, 0.0); }
"""
    fs = "#version 300 es\nprecision mediump float;\nout vec4 o;\nvoid main() { o = vec4(1.0); }\n"
    p = program(c, vs, fs)
    idx = c.glGetUniformIndices(p, 4, ["Blk.a", "Blk.b", "Blk.m", "nope"])
    assert idx[3] == E.GL_INVALID_INDEX and E.GL_INVALID_INDEX not in idx[:3]
    # std140: a at 0, b at 12, m[2] of mat2: columns padded to 16, 32 per matrix, at 16
    assert c.glGetActiveUniformsiv(p, 3, idx[:3], E.GL_UNIFORM_OFFSET) == [0, 12, 16]
    assert c.glGetActiveUniformsiv(p, 3, idx[:3], E.GL_UNIFORM_ARRAY_STRIDE) == [0, 0, 32]
    assert c.glGetActiveUniformsiv(p, 3, idx[:3], E.GL_UNIFORM_MATRIX_STRIDE) == [0, 0, 16]
    assert c.glGetActiveUniformsiv(p, 1, idx[:1], E.GL_UNIFORM_BLOCK_INDEX) == [0]
    assert c.glGetActiveUniform(p, idx[2]) == ("Blk.m[0]", 2, E.GL_FLOAT_MAT2)
    assert c.glGetActiveUniformBlockiv(p, 0, E.GL_UNIFORM_BLOCK_DATA_SIZE) == [80]
    assert c.glGetUniformLocation(p, "Blk.a") == -1


def test_bind_image_texture():
    c = make_ctx("gles31")
    t = tex(c)
    c.glBindImageTexture(0, t, 0, False, 0, E.GL_READ_WRITE, E.GL_RGBA8)
    expect(c, E.GL_INVALID_OPERATION)                      # ES: immutable textures only
    c.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 4, 4)
    c.glBindImageTexture(0, t, 0, False, 0, E.GL_READ_WRITE, E.GL_RGBA8)
    assert c.glGetError() == E.GL_NO_ERROR
    view = c._image_view(0)
    assert view.resource is c.textures.get(t).resource and view.format == PipeFormat.R8G8B8A8_UNORM
    c.glBindImageTexture(10_000, t, 0, False, 0, E.GL_READ_WRITE, E.GL_RGBA8)
    expect(c, E.GL_INVALID_VALUE)
    c.glBindImageTexture(0, t, 0, False, 0, E.GL_RGBA, E.GL_RGBA8)
    expect(c, E.GL_INVALID_ENUM)


def test_deleting_a_texture_unbinds_it_from_the_image_units():
    """GL 4.6 section 8.26: deleting a texture bound to image units is as
    glBindImageTexture(unit, 0) on each: the units read back the initial state
    (name 0, level 0, READ_ONLY, R8); a unit holding another texture keeps it."""
    c = make_ctx("gl46")
    a, b = c.glGenTextures(2)
    for name in (a, b):
        c.glBindTexture(E.GL_TEXTURE_2D, name)
        c.glTexStorage2D(E.GL_TEXTURE_2D, 2, E.GL_RGBA16F, 4, 4)
    c.glBindImageTexture(5, a, 1, False, 0, E.GL_WRITE_ONLY, E.GL_RGBA16F)
    c.glBindImageTexture(6, a, 0, False, 0, E.GL_READ_WRITE, E.GL_RGBA16F)
    c.glBindImageTexture(7, b, 1, False, 0, E.GL_READ_WRITE, E.GL_RGBA16F)
    c.glDeleteTextures(1, [a])
    for unit in (5, 6):
        assert [c.glGetIntegeri_v(q, unit)[0] for q in (
            E.GL_IMAGE_BINDING_NAME, E.GL_IMAGE_BINDING_LEVEL, E.GL_IMAGE_BINDING_ACCESS,
            E.GL_IMAGE_BINDING_FORMAT)] == [0, 0, E.GL_READ_ONLY, E.GL_R8]
        assert c._image_view(unit) is None
    assert c.glGetIntegeri_v(E.GL_IMAGE_BINDING_NAME, 7) == [b]
    assert c.glGetIntegeri_v(E.GL_IMAGE_BINDING_LEVEL, 7) == [1]
    assert c.glGetError() == E.GL_NO_ERROR


def test_texture_views(core):
    (orig, view, other) = core.glGenTextures(3)
    core.glBindTexture(E.GL_TEXTURE_2D_ARRAY, orig)
    core.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 3, E.GL_RGBA8, 8, 8, 4)
    core.glTextureView(view, E.GL_TEXTURE_2D, orig, E.GL_R32UI, 1, 2, 2, 1)
    assert core.glGetError() == E.GL_NO_ERROR
    v = core.textures.get(view)
    assert v.target == E.GL_TEXTURE_2D and v.immutable_levels == 2
    assert texture_resource(core, v) is core.textures.get(orig).resource
    from driver.gl import pipestate
    sv = pipestate.sampler_view(v, texture_resource(core, v), None)
    assert (sv.first_level, sv.last_level, sv.first_layer, sv.last_layer) == (1, 2, 2, 2)
    assert sv.format == PipeFormat.R32_UINT
    core.glTextureView(other, E.GL_TEXTURE_3D, orig, E.GL_RGBA8, 0, 1, 0, 1)
    expect(core, E.GL_INVALID_OPERATION)                   # incompatible target
    core.glTextureView(other, E.GL_TEXTURE_2D, orig, E.GL_RGBA16F, 0, 1, 0, 1)
    expect(core, E.GL_INVALID_OPERATION)                   # other view class (64 bits)
    core.glTextureView(other, E.GL_TEXTURE_2D, orig, E.GL_RGBA8, 5, 1, 0, 1)
    expect(core, E.GL_INVALID_VALUE)
    core.glTextureView(view, E.GL_TEXTURE_2D, orig, E.GL_RGBA8, 0, 1, 0, 1)
    expect(core, E.GL_INVALID_OPERATION)                   # already a texture


def test_copy_into_a_level_without_a_miptree_keeps_the_pixels(core):
    """CopyTexImage2D into level 2 while level 0 is undefined: no resource
    can exist yet, so the copied pixels wait as a pending upload."""
    core.window.color.levels[0][3][:4] = bytes([255, 0, 0, 255])
    (t,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D, t)
    core.glCopyTexImage2D(E.GL_TEXTURE_2D, 2, E.GL_RGBA8, 0, 0, 1, 1, 0)
    assert core.glGetError() == E.GL_NO_ERROR
    core.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    core.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    res = texture_resource(core, core.textures.get(t))
    assert bytes(res.levels[2][3]) == bytes([255, 0, 0, 255])


def test_copy_tex_image_refuses_component_counts(compat):
    """glTexImage2D takes the legacy internal formats 1-4 (component counts) in the
    compatibility profile; glCopyTexImage1D/2D do not (GL 4.6 compatibility section
    8.6; INVALID_ENUM as Mesa, piglit copyteximage): no image is defined."""
    (t,) = compat.glGenTextures(1)
    compat.glBindTexture(E.GL_TEXTURE_2D, t)
    compat.glTexImage2D(E.GL_TEXTURE_2D, 0, 4, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(compat, E.GL_NO_ERROR)
    for n in (1, 2, 3, 4):
        compat.glCopyTexImage2D(E.GL_TEXTURE_2D, 1, n, 0, 0, 1, 1, 0)
        expect(compat, E.GL_INVALID_ENUM)
        compat.glCopyTexImage1D(E.GL_TEXTURE_1D, 0, n, 0, 0, 4, 0)
        expect(compat, E.GL_INVALID_ENUM)
    assert compat.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 1, E.GL_TEXTURE_WIDTH) == [0]
    compat.glCopyTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA, 0, 0, 1, 1, 0)
    expect(compat, E.GL_NO_ERROR)


def test_copies_into_a_1d_array_take_rows_as_layers():
    """glCopyTexSubImage2D / glCopyTexImage2D on GL_TEXTURE_1D_ARRAY: row y + i of the
    read buffer becomes layer yoffset + i (GL 4.6 section 8.6; piglit copyteximage
    1D_ARRAY). Rows of the read buffer cleared to distinct colours by hand."""
    import driver
    core = driver.Context(api="gl43", width=4, height=4)
    (src,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_2D, src)
    core.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    (fb,) = core.glGenFramebuffers(1)
    core.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    core.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, src, 0)
    core.glEnable(E.GL_SCISSOR_TEST)
    for row in range(4):
        core.glScissor(0, row, 4, 1)
        core.glClearColor(row / 4, 1.0 - row / 4, 0.0, 1.0)   # 0, 64/255..: red = 64 * row (rounded)
        core.glClear(E.GL_COLOR_BUFFER_BIT)
    core.glDisable(E.GL_SCISSOR_TEST)
    (t,) = core.glGenTextures(1)
    core.glBindTexture(E.GL_TEXTURE_1D_ARRAY, t)
    core.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(64))
    core.glCopyTexSubImage2D(E.GL_TEXTURE_1D_ARRAY, 0, 0, 1, 0, 2, 4, 2)      # rows 2, 3 -> layers 1, 2
    expect(core, E.GL_NO_ERROR)
    got = bytes(core.glGetTexImage(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
    layers = [got[16 * k:16 * k + 4] for k in range(4)]
    assert layers == [bytes(4), bytes([128, 128, 0, 255]), bytes([191, 64, 0, 255]), bytes(4)]
    core.glCopyTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 0, 1, 4, 3, 0)   # rows 1..3 -> layers 0..2
    expect(core, E.GL_NO_ERROR)
    got = bytes(core.glGetTexImage(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE))
    assert [got[16 * k:16 * k + 4] for k in range(3)] == [bytes([64, 191, 0, 255]), bytes([128, 128, 0, 255]),
                                                         bytes([191, 64, 0, 255])]
