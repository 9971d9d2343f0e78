"""glGetInternalformativ / glGetInternalformati64v (GL 4.6 section 22.3,
GL_ARB_internalformat_query2): expected values written by hand from the GL 4.6
tables (8.12 sized formats, 8.18 buffer textures, 8.22 view classes, 8.27 image
formats) and cross-checked against what the commands that create each resource
accept."""

import pytest

from driver.gl import enums as E
from tests.driver.gl.conftest import make_ctx
from tests.driver.gl.helpers import expect

GL_COMPRESSED_RGBA_S3TC_DXT1_EXT = 0x83F1
VIEW_CLASS_ETC2_EAC_RGBA = 0x9387


def q(ctx, target, fmt, pname, n=16, wide=False):
    fn = ctx.glGetInternalformati64v if wide else ctx.glGetInternalformativ
    out = fn(target, fmt, pname, n)
    expect(ctx, E.GL_NO_ERROR)
    return out


@pytest.fixture(params=["gl43", "compat"])
def ctx(request):
    return make_ctx(request.param)


def test_both_extensions_are_listed_from_gl_3_2():
    for api in ("gl43", "compat"):
        exts = make_ctx(api).extensions
        assert "GL_ARB_internalformat_query" in exts and "GL_ARB_internalformat_query2" in exts


def test_errors_name_target_pname_and_bufsize_only(ctx):
    ctx.glGetInternalformativ(E.GL_TEXTURE_2D_MULTISAMPLE + 5, E.GL_RGBA8, E.GL_INTERNALFORMAT_SUPPORTED, 1)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_TEXTURE_WIDTH, 1)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_INTERNALFORMAT_SUPPORTED, -1)
    expect(ctx, E.GL_INVALID_VALUE)
    # any internal format is a valid question: an unknown one is simply unsupported
    assert q(ctx, E.GL_TEXTURE_2D, 0xDEAD, E.GL_INTERNALFORMAT_SUPPORTED) == [0]
    assert q(ctx, E.GL_TEXTURE_2D, 0xDEAD, E.GL_INTERNALFORMAT_PREFERRED) == [E.GL_NONE]
    assert q(ctx, E.GL_TEXTURE_2D, 0xDEAD, E.GL_MAX_WIDTH) == [0]
    assert q(ctx, E.GL_RENDERBUFFER, 0xDEAD, E.GL_SAMPLES) == []          # params not written
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_INTERNALFORMAT_SUPPORTED, n=0) == []


def _creates(ctx, target, fmt) -> bool:
    """Whether the command that makes a resource of (target, fmt) accepts it."""
    if target == E.GL_RENDERBUFFER:
        (rb,) = ctx.glGenRenderbuffers(1)
        ctx.glBindRenderbuffer(target, rb)
        ctx.glRenderbufferStorage(target, fmt, 4, 4)
        return ctx.glGetError() == E.GL_NO_ERROR
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(target, t)
    if target == E.GL_TEXTURE_BUFFER:
        (b,) = ctx.glGenBuffers(1)
        ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, b)
        ctx.glBufferData(E.GL_TEXTURE_BUFFER, 64, None, E.GL_STATIC_DRAW)
        ctx.glTexBuffer(target, fmt, b)
    elif target == E.GL_TEXTURE_2D_MULTISAMPLE:
        ctx.glTexStorage2DMultisample(target, 4, fmt, 4, 4, True)
    elif target == E.GL_TEXTURE_3D:
        ctx.glTexStorage3D(target, 1, fmt, 4, 4, 4)
    else:
        ctx.glTexStorage2D(target, 1, fmt, 4, 4)
    return ctx.glGetError() == E.GL_NO_ERROR


@pytest.mark.parametrize("target", [E.GL_TEXTURE_2D, E.GL_TEXTURE_3D, E.GL_TEXTURE_BUFFER,
                                    E.GL_RENDERBUFFER, E.GL_TEXTURE_2D_MULTISAMPLE])
@pytest.mark.parametrize("fmt", [E.GL_RGBA8, E.GL_RGB8, E.GL_R16F, E.GL_RGB32F, E.GL_RGBA8_SNORM,
                                 E.GL_DEPTH24_STENCIL8, E.GL_DEPTH_COMPONENT32F, E.GL_RGB9_E5,
                                 GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, E.GL_COMPRESSED_RG_RGTC2, E.GL_R8UI])
def test_supported_agrees_with_what_creation_accepts(target, fmt):
    ctx = make_ctx("gl43")
    said = q(ctx, target, fmt, E.GL_INTERNALFORMAT_SUPPORTED) == [1]
    assert said == _creates(ctx, target, fmt)


def test_supported_follows_the_spec_tables():
    ctx = make_ctx("gl43")
    yes = [(E.GL_TEXTURE_2D, E.GL_RGBA8), (E.GL_TEXTURE_BUFFER, E.GL_RGB32F), (E.GL_TEXTURE_BUFFER, E.GL_R16F),
           (E.GL_TEXTURE_2D_ARRAY, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT), (E.GL_TEXTURE_CUBE_MAP, E.GL_DEPTH_COMPONENT16),
           (E.GL_RENDERBUFFER, E.GL_STENCIL_INDEX8)]
    no = [(E.GL_TEXTURE_BUFFER, E.GL_RGB8),          # table 8.18: RGB only at 32 bits
          (E.GL_TEXTURE_BUFFER, E.GL_R8_SNORM),      # no snorm buffer textures
          (E.GL_TEXTURE_3D, E.GL_DEPTH_COMPONENT24),  # depth: no 3D images
          (E.GL_RENDERBUFFER, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT),
          (E.GL_TEXTURE_2D, E.GL_ALPHA8)]            # legacy: compatibility profile only
    for t, f in yes:
        assert q(ctx, t, f, E.GL_INTERNALFORMAT_SUPPORTED) == [1], (hex(t), hex(f))
    for t, f in no:
        assert q(ctx, t, f, E.GL_INTERNALFORMAT_SUPPORTED) == [0], (hex(t), hex(f))
    assert q(make_ctx("compat"), E.GL_TEXTURE_2D, E.GL_ALPHA8, E.GL_INTERNALFORMAT_SUPPORTED) == [1]


def _sizes(ctx, target, fmt):
    names = (E.GL_INTERNALFORMAT_RED_SIZE, E.GL_INTERNALFORMAT_GREEN_SIZE, E.GL_INTERNALFORMAT_BLUE_SIZE,
             E.GL_INTERNALFORMAT_ALPHA_SIZE, E.GL_INTERNALFORMAT_DEPTH_SIZE, E.GL_INTERNALFORMAT_STENCIL_SIZE,
             E.GL_INTERNALFORMAT_SHARED_SIZE)
    return tuple(q(ctx, target, fmt, p)[0] for p in names)


def test_component_sizes_and_types(ctx):
    assert _sizes(ctx, E.GL_TEXTURE_2D, E.GL_RGBA8) == (8, 8, 8, 8, 0, 0, 0)
    assert _sizes(ctx, E.GL_TEXTURE_2D, E.GL_RGB565) == (5, 6, 5, 0, 0, 0, 0)
    assert _sizes(ctx, E.GL_TEXTURE_2D, E.GL_RGB10_A2) == (10, 10, 10, 2, 0, 0, 0)
    assert _sizes(ctx, E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8) == (0, 0, 0, 0, 24, 8, 0)
    assert _sizes(ctx, E.GL_TEXTURE_2D, E.GL_RGB9_E5)[6] == 5
    assert _sizes(ctx, E.GL_TEXTURE_3D, E.GL_DEPTH24_STENCIL8) == (0,) * 7      # unsupported resource
    T = E.GL_TEXTURE_2D
    assert q(ctx, T, E.GL_RG16_SNORM, E.GL_INTERNALFORMAT_RED_TYPE) == [E.GL_SIGNED_NORMALIZED]
    assert q(ctx, T, E.GL_RG16_SNORM, E.GL_INTERNALFORMAT_BLUE_TYPE) == [E.GL_NONE]
    assert q(ctx, T, E.GL_R11F_G11F_B10F, E.GL_INTERNALFORMAT_BLUE_TYPE) == [E.GL_FLOAT]
    assert q(ctx, T, E.GL_RGBA16UI, E.GL_INTERNALFORMAT_ALPHA_TYPE) == [E.GL_UNSIGNED_INT]
    assert q(ctx, T, E.GL_DEPTH_COMPONENT32F, E.GL_INTERNALFORMAT_DEPTH_TYPE) == [E.GL_FLOAT]
    assert q(ctx, T, E.GL_DEPTH_COMPONENT24, E.GL_INTERNALFORMAT_DEPTH_TYPE) == [E.GL_UNSIGNED_NORMALIZED]
    assert q(ctx, T, E.GL_DEPTH24_STENCIL8, E.GL_INTERNALFORMAT_STENCIL_TYPE) == [E.GL_UNSIGNED_INT]


def test_sizes_equal_the_tex_level_parameters_of_a_buffer_texture(ctx):
    (t,) = ctx.glGenTextures(1)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, b)
    ctx.glBufferData(E.GL_TEXTURE_BUFFER, 48, None, E.GL_STATIC_DRAW)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, t)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGB32UI, b)
    # GL 4.6 section 8.9: a buffer texture's level parameters are its buffer's format
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_GREEN_SIZE) == [32]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_GREEN_TYPE) == [E.GL_UNSIGNED_INT]
    assert ctx.glGetTexLevelParameteriv(E.GL_TEXTURE_BUFFER, 0, E.GL_TEXTURE_ALPHA_SIZE) == [0]
    assert _sizes(ctx, E.GL_TEXTURE_BUFFER, E.GL_RGB32UI)[:4] == (32, 32, 32, 0)


def test_maximum_dimensions_come_from_the_limits(ctx):
    size = ctx.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0]
    layers = ctx.glGetIntegerv(E.GL_MAX_ARRAY_TEXTURE_LAYERS)[0]
    size3d = ctx.glGetIntegerv(E.GL_MAX_3D_TEXTURE_SIZE)[0]
    cube = ctx.glGetIntegerv(E.GL_MAX_CUBE_MAP_TEXTURE_SIZE)[0]
    dims = (E.GL_MAX_WIDTH, E.GL_MAX_HEIGHT, E.GL_MAX_DEPTH, E.GL_MAX_LAYERS)

    def get(t):
        return tuple(q(ctx, t, E.GL_RGBA8, p, wide=True)[0] for p in dims + (E.GL_MAX_COMBINED_DIMENSIONS,))
    assert get(E.GL_TEXTURE_1D) == (size, 0, 0, 0, size)
    assert get(E.GL_TEXTURE_1D_ARRAY) == (size, layers, 0, layers, size * layers)
    assert get(E.GL_TEXTURE_2D_ARRAY) == (size, size, layers, layers, size * size * layers)
    assert get(E.GL_TEXTURE_3D) == (size3d, size3d, size3d, 0, size3d ** 3)
    assert get(E.GL_TEXTURE_CUBE_MAP) == (cube, cube, 0, 0, cube * cube * 6)
    # the 32-bit query clamps what does not fit (GL 4.6 section 2.2.2)
    assert q(ctx, E.GL_TEXTURE_2D_ARRAY, E.GL_RGBA8, E.GL_MAX_COMBINED_DIMENSIONS) == [min(size * size * layers,
                                                                                           2 ** 31 - 1)]


def test_capabilities(ctx):
    T = E.GL_TEXTURE_2D
    F, N = E.GL_FULL_SUPPORT, E.GL_NONE
    assert q(ctx, T, E.GL_RGBA8, E.GL_FRAMEBUFFER_RENDERABLE) == [F]
    assert q(ctx, T, E.GL_RGB9_E5, E.GL_FRAMEBUFFER_RENDERABLE) == [N]        # not colour-renderable
    assert q(ctx, T, E.GL_RGBA8UI, E.GL_FRAMEBUFFER_BLEND) == [N]              # integer: no blending
    assert q(ctx, T, E.GL_RGBA8, E.GL_FRAMEBUFFER_BLEND) == [F]
    assert q(ctx, E.GL_TEXTURE_2D_ARRAY, E.GL_RGBA8, E.GL_FRAMEBUFFER_RENDERABLE_LAYERED) == [F]
    assert q(ctx, T, E.GL_RGBA8, E.GL_FRAMEBUFFER_RENDERABLE_LAYERED) == [N]
    assert q(ctx, T, E.GL_RGBA8, E.GL_MIPMAP) == [1]
    assert q(ctx, E.GL_TEXTURE_RECTANGLE, E.GL_RGBA8, E.GL_MIPMAP) == [0]
    assert q(ctx, T, E.GL_RGBA8I, E.GL_MANUAL_GENERATE_MIPMAP) == [N]        # glGenerateMipmap refuses it
    assert q(ctx, T, E.GL_RGBA32F, E.GL_FILTER) == [N]                        # not filterable
    assert q(ctx, T, E.GL_RGBA16F, E.GL_FILTER) == [F]
    assert q(ctx, T, E.GL_SRGB8_ALPHA8, E.GL_COLOR_ENCODING) == [E.GL_SRGB]
    assert q(ctx, T, E.GL_RGBA8, E.GL_COLOR_ENCODING) == [E.GL_LINEAR]
    assert q(ctx, T, E.GL_DEPTH_COMPONENT24, E.GL_COLOR_ENCODING) == [N]
    assert q(ctx, T, E.GL_DEPTH_COMPONENT24, E.GL_TEXTURE_SHADOW) == [F]
    assert q(ctx, T, E.GL_RGBA8, E.GL_TEXTURE_SHADOW) == [N]
    assert q(ctx, E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_FRAGMENT_TEXTURE) == [N]  # not sampled
    assert q(ctx, T, E.GL_RGBA8, E.GL_READ_PIXELS_FORMAT) == [E.GL_RGBA]
    assert q(ctx, T, E.GL_RGBA8, E.GL_READ_PIXELS_TYPE) == [E.GL_UNSIGNED_BYTE]
    assert q(ctx, T, E.GL_RG16I, E.GL_TEXTURE_IMAGE_FORMAT) == [E.GL_RG_INTEGER]
    assert q(ctx, T, E.GL_RG16I, E.GL_TEXTURE_IMAGE_TYPE) == [E.GL_SHORT]
    assert q(ctx, T, E.GL_DEPTH24_STENCIL8, E.GL_GET_TEXTURE_IMAGE_TYPE) == [E.GL_UNSIGNED_INT_24_8]


def test_sample_counts(ctx):
    counts = q(ctx, E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_SAMPLES)
    assert counts == sorted(set(counts), reverse=True) and counts and all(c > 1 for c in counts)
    assert q(ctx, E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_NUM_SAMPLE_COUNTS) == [len(counts)]
    assert counts[0] == ctx.glGetIntegerv(E.GL_MAX_SAMPLES)[0]
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_NUM_SAMPLE_COUNTS) == [0]   # not a multisample target
    assert q(ctx, E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_SAMPLES, n=1) == counts[:1]


def test_image_formats_per_table_8_27(ctx):
    T = E.GL_TEXTURE_2D
    assert q(ctx, T, E.GL_RGBA8, E.GL_IMAGE_TEXEL_SIZE) == [32]                # bits
    assert q(ctx, T, E.GL_RGBA8, E.GL_IMAGE_COMPATIBILITY_CLASS) == [E.GL_IMAGE_CLASS_4_X_8]
    assert q(ctx, T, E.GL_RGBA8, E.GL_IMAGE_PIXEL_FORMAT) == [E.GL_RGBA]
    assert q(ctx, T, E.GL_RGBA8, E.GL_IMAGE_PIXEL_TYPE) == [E.GL_UNSIGNED_BYTE]
    assert q(ctx, T, E.GL_RG16I, E.GL_IMAGE_PIXEL_FORMAT) == [E.GL_RG_INTEGER]
    assert q(ctx, T, E.GL_RG16I, E.GL_IMAGE_PIXEL_TYPE) == [E.GL_SHORT]
    assert q(ctx, T, E.GL_R11F_G11F_B10F, E.GL_IMAGE_COMPATIBILITY_CLASS) == [E.GL_IMAGE_CLASS_11_11_10]
    assert q(ctx, T, E.GL_RGBA32F, E.GL_IMAGE_TEXEL_SIZE) == [128]
    assert q(ctx, T, E.GL_RGB8, E.GL_SHADER_IMAGE_LOAD) == [E.GL_NONE]         # not an image format
    assert q(ctx, T, E.GL_RGB8, E.GL_IMAGE_TEXEL_SIZE) == [0]
    assert q(ctx, T, E.GL_R32UI, E.GL_SHADER_IMAGE_ATOMIC) == [E.GL_FULL_SUPPORT]
    assert q(ctx, T, E.GL_RGBA8, E.GL_SHADER_IMAGE_ATOMIC) == [E.GL_NONE]
    (t,) = ctx.glGenTextures(1)
    ctx.glBindTexture(T, t)
    assert ctx.glGetTexParameteriv(T, E.GL_IMAGE_FORMAT_COMPATIBILITY_TYPE) == [
        E.GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE]
    assert q(ctx, T, E.GL_RGBA8, E.GL_IMAGE_FORMAT_COMPATIBILITY_TYPE) == [E.GL_IMAGE_FORMAT_COMPATIBILITY_BY_SIZE]
    ctx.glBindImageTexture(0, t, 0, False, 0, E.GL_READ_ONLY, E.GL_RGB8)       # table 8.27 has no RGB8
    expect(ctx, E.GL_INVALID_VALUE)


def test_compressed_blocks_and_views(ctx):
    dxt1 = GL_COMPRESSED_RGBA_S3TC_DXT1_EXT
    assert q(ctx, E.GL_TEXTURE_2D, dxt1, E.GL_TEXTURE_COMPRESSED) == [1]
    assert [q(ctx, E.GL_TEXTURE_2D, dxt1, p)[0] for p in (E.GL_TEXTURE_COMPRESSED_BLOCK_WIDTH,
                                                          E.GL_TEXTURE_COMPRESSED_BLOCK_HEIGHT,
                                                          E.GL_TEXTURE_COMPRESSED_BLOCK_SIZE)] == [4, 4, 8]
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_COMPRESSED_RGBA_BPTC_UNORM, E.GL_TEXTURE_COMPRESSED_BLOCK_SIZE) == [16]
    assert q(ctx, E.GL_TEXTURE_3D, dxt1, E.GL_TEXTURE_COMPRESSED) == [0]        # no 3D blocks here
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_TEXTURE_COMPRESSED) == [0]
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_VIEW_COMPATIBILITY_CLASS) == [E.GL_VIEW_CLASS_32_BITS]
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_RGB16F, E.GL_VIEW_COMPATIBILITY_CLASS) == [E.GL_VIEW_CLASS_48_BITS]
    assert q(ctx, E.GL_TEXTURE_2D, E.GL_COMPRESSED_RGBA8_ETC2_EAC,
             E.GL_VIEW_COMPATIBILITY_CLASS) == [VIEW_CLASS_ETC2_EAC_RGBA]
    assert q(ctx, E.GL_TEXTURE_BUFFER, E.GL_RGBA8, E.GL_TEXTURE_VIEW) == [E.GL_NONE]
    assert q(ctx, E.GL_TEXTURE_BUFFER, E.GL_RGBA8, E.GL_CLEAR_BUFFER) == [E.GL_FULL_SUPPORT]


def test_texture_buffer_refuses_formats_outside_table_8_18(ctx):
    (t,) = ctx.glGenTextures(1)
    (b,) = ctx.glGenBuffers(1)
    ctx.glBindBuffer(E.GL_TEXTURE_BUFFER, b)
    ctx.glBindTexture(E.GL_TEXTURE_BUFFER, t)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGB8, b)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGBA8_SNORM, b)
    expect(ctx, E.GL_INVALID_ENUM)
    ctx.glTexBuffer(E.GL_TEXTURE_BUFFER, E.GL_RGB32F, b)
    expect(ctx, E.GL_NO_ERROR)


def test_gles_keeps_the_first_query_only():
    es = make_ctx("gles31")
    assert es.glGetInternalformativ(E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_NUM_SAMPLE_COUNTS, 1)[0] >= 1
    es.glGetInternalformativ(E.GL_TEXTURE_2D, E.GL_RGBA8, E.GL_NUM_SAMPLE_COUNTS, 1)
    expect(es, E.GL_INVALID_ENUM)
    es.glGetInternalformativ(E.GL_RENDERBUFFER, E.GL_RGBA8, E.GL_INTERNALFORMAT_SUPPORTED, 1)
    expect(es, E.GL_INVALID_ENUM)


def test_a_multisample_resource_of_an_attachable_unrendered_format_has_sample_counts(ctx):
    # RGB9_E5 is attachable in desktop GL (never rendered): glTexStorage2DMultisample and
    # glRenderbufferStorageMultisample make it with MAX_SAMPLES samples, so SAMPLES lists the
    # same counts as RGBA8's, and a multisample target's combined dimensions are width x height
    # (x layers) x its highest count - the figures llvmpipe answers (16384^2 x 4 = 2^30 for
    # 2D_MULTISAMPLE, x 2048 layers = 2^41 for the array) with its own limits.
    max_samples = ctx.glGetIntegerv(E.GL_MAX_SAMPLES)[0]
    size = ctx.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0]
    layers = ctx.glGetIntegerv(E.GL_MAX_ARRAY_TEXTURE_LAYERS)[0]
    for t in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, E.GL_RENDERBUFFER):
        counts = q(ctx, t, E.GL_RGB9_E5, E.GL_SAMPLES)
        assert counts == q(ctx, t, E.GL_RGBA8, E.GL_SAMPLES) and counts[0] == max_samples, hex(t)
        assert q(ctx, t, E.GL_RGB9_E5, E.GL_NUM_SAMPLE_COUNTS) == [len(counts)]
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexStorage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, max_samples, E.GL_RGB9_E5, 4, 4, True)
    expect(ctx, E.GL_NO_ERROR)
    comb = E.GL_MAX_COMBINED_DIMENSIONS
    for fmt in (E.GL_RGB9_E5, E.GL_RGBA8, E.GL_DEPTH24_STENCIL8):
        assert q(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, fmt, comb, wide=True) == [size * size * max_samples]
        assert q(ctx, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY, fmt, comb, wide=True) == [
            size * size * layers * max_samples]
        assert q(ctx, E.GL_RENDERBUFFER, fmt, comb, wide=True) == [
            ctx.glGetIntegerv(E.GL_MAX_RENDERBUFFER_SIZE)[0] ** 2]       # no samples factor
    # a format a multisample target does not take: no counts, and 0 dimensions
    assert q(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, E.GL_SAMPLES) == []
    assert q(ctx, E.GL_TEXTURE_2D_MULTISAMPLE, GL_COMPRESSED_RGBA_S3TC_DXT1_EXT, comb, wide=True) == [0]


@pytest.mark.parametrize("api", ["compat", "gl43"])
def test_multisample_targets_answer_for_what_glteximage_multisample_takes(api):
    """SUPPORTED and NUM_SAMPLE_COUNTS of the multisample texture targets follow what
    glTexImage2DMultisample accepts (piglit's arb_internalformat_query2-minmax): the
    compatibility profile makes GL_ALPHA8 multisample textures (as Mesa), so the query
    answers counts there; core refuses the format and the query says unsupported."""
    ctx = make_ctx(api)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D_MULTISAMPLE, tex)
    ctx.glTexImage2DMultisample(E.GL_TEXTURE_2D_MULTISAMPLE, 2, E.GL_ALPHA8, 4, 4, True)
    made = ctx.glGetError() == E.GL_NO_ERROR
    assert made == (api == "compat")
    for target in (E.GL_TEXTURE_2D_MULTISAMPLE, E.GL_TEXTURE_2D_MULTISAMPLE_ARRAY):
        assert q(ctx, target, E.GL_ALPHA8, E.GL_INTERNALFORMAT_SUPPORTED) == [int(made)]
        n = q(ctx, target, E.GL_ALPHA8, E.GL_NUM_SAMPLE_COUNTS)[0]
        assert (n >= 1) == made
        assert q(ctx, target, E.GL_ALPHA8, E.GL_SAMPLES)[:1] == \
            ([ctx.glGetIntegerv(E.GL_MAX_SAMPLES)[0]] if made else [])
