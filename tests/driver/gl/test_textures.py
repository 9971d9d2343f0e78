"""Textures and samplers (GL 4.6 chapter 8, GLES 3.2 chapter 8)."""

import pytest

from driver.gallium import PipeFormat, PipeTextureTarget
from driver.gl import enums as E
from driver.gl.textures import texture_resource
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

T2 = E.GL_TEXTURE_2D


def tex(ctx, target=T2):
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(target, t)
    return t


def test_bind_target_mismatch(es3):
    t = tex(es3)
    es3.glBindTexture(E.GL_TEXTURE_CUBE_MAP, t)
    expect(es3, E.GL_INVALID_OPERATION)
    assert es3.glIsTexture(t)
    assert es3.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [t]


def test_active_texture(es3):
    es3.glActiveTexture(E.GL_TEXTURE0 + 3)
    assert es3.glGetIntegerv(E.GL_ACTIVE_TEXTURE) == [E.GL_TEXTURE3]
    t = tex(es3)
    es3.glActiveTexture(E.GL_TEXTURE0)
    assert es3.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [0]
    es3.glActiveTexture(E.GL_TEXTURE0 + 10_000)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glDeleteTextures(1, [t])
    es3.glActiveTexture(E.GL_TEXTURE3)
    assert es3.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [0]


def test_tex_image_2d_and_level_query():
    c = make_ctx("gles31")
    tex(c)
    c.glTexImage2D(T2, 0, E.GL_RGBA8, 4, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(32))
    assert c.glGetError() == E.GL_NO_ERROR
    assert c.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_WIDTH) == [4]
    assert c.glGetTexLevelParameteriv(T2, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [E.GL_RGBA8]


@pytest.mark.parametrize("args,code", [
    ((T2, -1, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), E.GL_INVALID_VALUE),
    ((T2, 0, E.GL_RGBA8, -1, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), E.GL_INVALID_VALUE),
    ((T2, 0, E.GL_RGBA8, 4, 4, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), E.GL_INVALID_VALUE),
    ((T2, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_FLOAT), E.GL_INVALID_OPERATION),
    ((T2, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGB, E.GL_UNSIGNED_BYTE), E.GL_INVALID_OPERATION),
    ((T2, 0, E.GL_RGBA8, 4, 4, 0, 0x1234, E.GL_UNSIGNED_BYTE), E.GL_INVALID_ENUM),
    ((T2, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, 0x1234), E.GL_INVALID_ENUM),
    ((T2, 0, 0x1234, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), E.GL_INVALID_VALUE),
    ((E.GL_TEXTURE_3D, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), E.GL_INVALID_ENUM),
    ((E.GL_TEXTURE_CUBE_MAP_POSITIVE_X, 0, E.GL_RGBA8, 4, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE),
     E.GL_INVALID_VALUE),                                   # cube faces square
    ((T2, 0, E.GL_R32UI, 4, 4, 0, E.GL_RED, E.GL_UNSIGNED_INT), E.GL_INVALID_OPERATION),
])
def test_tex_image_2d_errors_es3(es3, args, code):
    # GLES 3.2 section 8.4.2 / 8.5 errors and table 8.2 combinations
    tex(es3)
    es3.glTexImage2D(*args, None)
    expect(es3, code)
    assert es3.glGetTexLevelParameteriv is not None


def test_es3_format_table_accepts_valid_combinations(es3):
    tex(es3)
    for ifmt, fmt, typ in [(E.GL_R32UI, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT),
                           (E.GL_RGBA16F, E.GL_RGBA, E.GL_FLOAT),
                           (E.GL_RGB565, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5),
                           (E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8),
                           (E.GL_RGBA, E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4),
                           (E.GL_LUMINANCE, E.GL_LUMINANCE, E.GL_UNSIGNED_BYTE)]:
        es3.glTexImage2D(T2, 0, ifmt, 2, 2, 0, fmt, typ, None)
        assert es3.glGetError() == E.GL_NO_ERROR, hex(ifmt)


def test_desktop_is_lax_but_checks_integer_and_depth(core):
    tex(core)
    core.glTexImage2D(T2, 0, E.GL_RGBA8, 2, 2, 0, E.GL_BGRA, E.GL_FLOAT, None)
    assert core.glGetError() == E.GL_NO_ERROR
    core.glTexImage2D(T2, 0, E.GL_RGBA8UI, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(core, E.GL_INVALID_OPERATION)
    core.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT24, 2, 2, 0, E.GL_RGBA, E.GL_FLOAT, None)
    expect(core, E.GL_INVALID_OPERATION)
    core.glTexImage2D(T2, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGB, E.GL_UNSIGNED_SHORT_4_4_4_4, None)
    expect(core, E.GL_INVALID_OPERATION)                  # packed type component count


def test_pixel_data_must_cover_the_image_with_unpack_state(es3):
    tex(es3)
    es3.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 4)
    # 3 px * 1 B rows padded to 4: 4 + 3 = 7 bytes for 2 rows (GL 4.6 8.4.4.1)
    es3.glTexImage2D(T2, 0, E.GL_R8, 3, 2, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, bytes(6))
    expect(es3, E.GL_INVALID_VALUE)
    es3.glTexImage2D(T2, 0, E.GL_R8, 3, 2, 0, E.GL_RED, E.GL_UNSIGNED_BYTE, bytes(7))
    assert es3.glGetError() == E.GL_NO_ERROR


def test_tex_sub_image(es3):
    tex(es3)
    es3.glTexSubImage2D(T2, 0, 0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(4))
    expect(es3, E.GL_INVALID_OPERATION)                   # level undefined
    es3.glTexImage2D(T2, 0, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    es3.glTexSubImage2D(T2, 0, 3, 3, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(8))
    expect(es3, E.GL_INVALID_VALUE)                       # outside
    es3.glTexSubImage2D(T2, 0, 1, 1, 2, 2, E.GL_RGBA, E.GL_FLOAT, bytes(64))
    expect(es3, E.GL_INVALID_OPERATION)                   # type mismatch with RGBA8


def test_tex_storage_is_immutable_and_uploads(es3):
    t = tex(es3)
    es3.glTexStorage2D(T2, 3, E.GL_RGBA8, 8, 4)
    assert es3.glGetTexParameteriv(T2, E.GL_TEXTURE_IMMUTABLE_FORMAT) == [1]
    assert es3.glGetTexParameteriv(T2, E.GL_TEXTURE_IMMUTABLE_LEVELS) == [3]
    res = es3.textures.get(t).resource
    assert res.template.last_level == 2 and res.format == PipeFormat.R8G8B8A8_UNORM
    es3.glTexImage2D(T2, 0, E.GL_RGBA8, 8, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glTexStorage2D(T2, 1, E.GL_RGBA8, 8, 4)
    expect(es3, E.GL_INVALID_OPERATION)                   # already immutable
    es3.glTexSubImage2D(T2, 1, 0, 0, 4, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(range(32)))
    texture_resource(es3, es3.textures.get(t))
    name, args = es3.pipe.calls[-1]
    assert name == "texture_subdata" and args[1] == 1 and args[4] == bytes(range(32))


def test_tex_storage_errors(es3):
    tex(es3)
    es3.glTexStorage2D(T2, 4, E.GL_RGBA8, 4, 4)           # log2(4)+1 = 3 levels max
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glTexStorage2D(T2, 1, E.GL_RGBA, 4, 4)            # unsized
    expect(es3, E.GL_INVALID_ENUM)
    es3.glTexStorage2D(T2, 0, E.GL_RGBA8, 4, 4)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glBindTexture(T2, 0)
    es3.glTexStorage2D(T2, 1, E.GL_RGBA8, 4, 4)
    expect(es3, E.GL_INVALID_OPERATION)                   # default texture object


def test_parameters(es3):
    tex(es3)
    es3.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR)
    es3.glTexParameteri(T2, E.GL_TEXTURE_WRAP_S, E.GL_MIRRORED_REPEAT)
    es3.glTexParameteri(T2, E.GL_TEXTURE_SWIZZLE_G, E.GL_ONE)
    es3.glTexParameterf(T2, E.GL_TEXTURE_MAX_LOD, 3.5)
    assert es3.glGetTexParameteriv(T2, E.GL_TEXTURE_MIN_FILTER) == [E.GL_LINEAR]
    assert es3.glGetTexParameteriv(T2, E.GL_TEXTURE_WRAP_S) == [E.GL_MIRRORED_REPEAT]
    assert es3.glGetTexParameteriv(T2, E.GL_TEXTURE_SWIZZLE_G) == [E.GL_ONE]
    assert es3.glGetTexParameterfv(T2, E.GL_TEXTURE_MAX_LOD) == [3.5]
    es3.glTexParameteri(T2, E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR_MIPMAP_LINEAR)
    expect(es3, E.GL_INVALID_ENUM)
    from driver.gl.api import Api
    has = Api.has_extension
    with pytest.MonkeyPatch.context() as mp:    # an ES 3.0 context without EXT/OES_texture_border_clamp
        mp.setattr(Api, "has_extension", lambda api, name: "border_clamp" not in name and has(api, name))
        es3.glTexParameteri(T2, E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_BORDER)     # ES 3.2 only
        expect(es3, E.GL_INVALID_ENUM)
    es3.glTexParameteri(T2, E.GL_TEXTURE_BASE_LEVEL, -1)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glTexParameteri(T2, E.GL_TEXTURE_BORDER_COLOR, 0)
    expect(es3, E.GL_INVALID_ENUM)


def test_rectangle_textures(core):
    tex(core, E.GL_TEXTURE_RECTANGLE)
    core.glTexParameteri(E.GL_TEXTURE_RECTANGLE, E.GL_TEXTURE_WRAP_S, E.GL_REPEAT)
    expect(core, E.GL_INVALID_ENUM)
    core.glTexImage2D(E.GL_TEXTURE_RECTANGLE, 1, E.GL_RGBA8, 4, 4, 0, E.GL_RGBA,
                      E.GL_UNSIGNED_BYTE, None)
    expect(core, E.GL_INVALID_VALUE)


def test_generate_mipmap_defines_levels_and_calls_pipe():
    es3 = make_ctx("gles31")           # GetTexLevelParameter is ES 3.1
    t = tex(es3)
    es3.glGenerateMipmap(T2)
    expect(es3, E.GL_INVALID_OPERATION)                    # no base level
    es3.glTexImage2D(T2, 0, E.GL_RGBA8, 8, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    es3.glGenerateMipmap(T2)
    assert es3.glGetTexLevelParameteriv(T2, 3, E.GL_TEXTURE_WIDTH) == [1]
    assert es3.glGetTexLevelParameteriv(T2, 2, E.GL_TEXTURE_HEIGHT) == [1]
    res = es3.textures.get(t).resource
    assert res.template.last_level == 3 and res.target == PipeTextureTarget.TEXTURE_2D
    assert es3.pipe.last("generate_mipmap")[2:4] == (0, 3)
    es3.glTexImage2D(T2, 0, E.GL_RGBA8UI, 2, 2, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE, None)
    es3.glGenerateMipmap(T2)
    expect(es3, E.GL_INVALID_OPERATION)                    # integer format


def test_samplers(es3):
    s1, s2 = es3.glGenSamplers(2)
    assert es3.glIsSampler(s1)
    es3.glBindSampler(1, s1)
    es3.glActiveTexture(E.GL_TEXTURE1)
    assert es3.glGetIntegerv(E.GL_SAMPLER_BINDING) == [s1]
    es3.glSamplerParameteri(s1, E.GL_TEXTURE_COMPARE_MODE, E.GL_COMPARE_REF_TO_TEXTURE)
    assert es3.glGetSamplerParameteriv(s1, E.GL_TEXTURE_COMPARE_MODE) == [E.GL_COMPARE_REF_TO_TEXTURE]
    es3.glSamplerParameteri(s1, E.GL_TEXTURE_COMPARE_MODE, E.GL_LINEAR)
    expect(es3, E.GL_INVALID_ENUM)
    es3.glBindSampler(1, 1234)
    expect(es3, E.GL_INVALID_OPERATION)
    es3.glBindSampler(10_000, 0)
    expect(es3, E.GL_INVALID_VALUE)
    es3.glDeleteSamplers(1, [s1])
    assert es3.glGetIntegerv(E.GL_SAMPLER_BINDING) == [0]


def test_respecifying_a_level_keeps_the_others(es3):
    """Adding level 1 after level 0 reached the GPU reallocates the miptree;
    level 0's content is carried over (as Mesa's st_finalize_texture does)."""
    t = tex(es3)
    es3.glTexImage2D(T2, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(range(16)))
    first = texture_resource(es3, es3.textures.get(t))
    es3.glTexImage2D(T2, 1, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([9] * 4))
    res = texture_resource(es3, es3.textures.get(t))
    assert res is not first and first in es3.screen.destroyed
    assert res.template.last_level == 1
    assert bytes(res.levels[0][3]) == bytes(range(16)) and bytes(res.levels[1][3]) == bytes([9] * 4)


def test_base_level_sets_the_miptree_size(es3):
    t = tex(es3)
    es3.glTexImage2D(T2, 2, E.GL_RGBA8, 4, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    es3.glTexParameteri(T2, E.GL_TEXTURE_BASE_LEVEL, 2)
    res = texture_resource(es3, es3.textures.get(t))
    assert (res.template.width_px, res.template.height_px) == (16, 8)


def test_level_parameters_sizes_and_types():
    c = make_ctx("gles31")
    tex(c)
    c.glTexImage2D(T2, 0, E.GL_RGB565, 2, 2, 0, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, None)
    q = lambda p: c.glGetTexLevelParameteriv(T2, 0, p)[0]
    assert (q(E.GL_TEXTURE_RED_SIZE), q(E.GL_TEXTURE_GREEN_SIZE), q(E.GL_TEXTURE_ALPHA_SIZE)) == (5, 6, 0)
    assert q(E.GL_TEXTURE_RED_TYPE) == E.GL_UNSIGNED_NORMALIZED and q(E.GL_TEXTURE_ALPHA_TYPE) == E.GL_NONE
    c.glTexImage2D(T2, 0, E.GL_DEPTH_COMPONENT32F, 2, 2, 0, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, None)
    assert (q(E.GL_TEXTURE_DEPTH_SIZE), q(E.GL_TEXTURE_DEPTH_TYPE)) == (32, E.GL_FLOAT)
    assert q(E.GL_TEXTURE_INTERNAL_FORMAT) == E.GL_DEPTH_COMPONENT32F
    assert c.glGetTexLevelParameteriv(T2, 1, E.GL_TEXTURE_WIDTH) == [0]    # undefined level


def test_stencil_texturing():
    from driver.gl import pipestate
    c = make_ctx("gles31")
    t = tex(c)
    c.glTexStorage2D(T2, 1, E.GL_DEPTH24_STENCIL8, 4, 4)
    c.glTexParameteri(T2, E.GL_DEPTH_STENCIL_TEXTURE_MODE, E.GL_STENCIL_INDEX)
    texobj = c.textures.get(t)
    view = pipestate.sampler_view(texobj, texture_resource(c, texobj), None)
    assert view.format == PipeFormat.X24S8_UINT
    assert not c._texture_complete(texobj)                 # LINEAR mag filter
    c.glTexParameteri(T2, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    c.glTexParameteri(T2, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    assert c._texture_complete(texobj)


def test_array_textures_refuse_more_layers_than_the_limit():
    """GL 4.6 sections 8.5 and 8.19: a 1D array's height and a 2D array's depth count
    layers, at most MAX_ARRAY_TEXTURE_LAYERS, in TexImage and TexStorage alike."""
    c = make_ctx("gl46")
    layers = c.glGetIntegerv(E.GL_MAX_ARRAY_TEXTURE_LAYERS)[0]
    assert layers < c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0]   # else the test shows nothing
    for target in (E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D_ARRAY):
        c.glBindTexture(target, c.glGenTextures(1)[0])
    c.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 32, layers + 1, 0, E.GL_RGBA, E.GL_FLOAT, None)
    expect(c, E.GL_INVALID_VALUE)
    c.glTexImage2D(E.GL_TEXTURE_1D_ARRAY, 0, E.GL_RGBA8, 32, layers, 0, E.GL_RGBA, E.GL_FLOAT, None)
    expect(c, E.GL_NO_ERROR)
    c.glTexImage3D(E.GL_TEXTURE_2D_ARRAY, 0, E.GL_RGBA8, 4, 4, layers + 1, 0, E.GL_RGBA, E.GL_FLOAT, None)
    expect(c, E.GL_INVALID_VALUE)
    for target in (E.GL_TEXTURE_1D_ARRAY, E.GL_TEXTURE_2D_ARRAY):
        c.glBindTexture(target, c.glGenTextures(1)[0])
    c.glTexStorage2D(E.GL_TEXTURE_1D_ARRAY, 1, E.GL_RGBA8, 32, layers + 1)
    expect(c, E.GL_INVALID_VALUE)
    c.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, layers + 1)
    expect(c, E.GL_INVALID_VALUE)
    c.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, layers)
    expect(c, E.GL_NO_ERROR)
