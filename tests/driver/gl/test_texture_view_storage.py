"""Texture views (GL 4.6 section 8.18) write into the storage they share: clears,
draws and TexSubImage through a view land at the view's first level and layer of
the parent, in the view's format; the parent's other levels and layers keep
their contents. Expectations are the bytes written, placed by hand."""

import numpy as np

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = "#version 330\nvoid main() { gl_Position = vec4(vec2(gl_VertexID & 1, gl_VertexID >> 1) * 4.0 - 1.0, 0.0, 1.0); }\n"
FS = "#version 330\nuniform vec4 c;\nout vec4 o;\nvoid main() { o = c; }\n"


def _ctx():
    return glhelp.context(4, 4, api="gl43")


def _level(ctx, target, level, w, h, layers=1):
    raw = ctx.glGetTexImage(target, level, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(raw), np.uint8).reshape(layers, h, w, 4)


def _fbo_with(ctx, view, level=0, layer=None):
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    if layer is None:
        ctx.glFramebufferTexture(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, view, level)
    else:
        ctx.glFramebufferTextureLayer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, view, level, layer)
    assert ctx.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE


def _storage_2d(ctx, levels, size, fill):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, levels, E.GL_RGBA8, size, size)
    for lv in range(levels):
        n = max(1, size >> lv)
        ctx.glTexSubImage2D(E.GL_TEXTURE_2D, lv, 0, 0, n, n, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                            np.full((n, n, 4), fill, np.uint8))
    return tex


def test_clear_into_a_view_of_level_1_changes_only_that_level():
    ctx = _ctx()
    tex = _storage_2d(ctx, 3, 8, 10)
    (view,) = ctx.glGenTextures(1)
    ctx.glTextureView(view, E.GL_TEXTURE_2D, tex, E.GL_RGBA8, 1, 1, 0, 1)
    _fbo_with(ctx, view)
    ctx.glViewport(0, 0, 4, 4)
    ctx.glClearColor(1.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, 0)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    assert (_level(ctx, E.GL_TEXTURE_2D, 0, 8, 8) == 10).all()
    assert (_level(ctx, E.GL_TEXTURE_2D, 1, 4, 4) == [255, 0, 255, 255]).all()
    assert (_level(ctx, E.GL_TEXTURE_2D, 2, 2, 2) == 10).all()


def test_draw_into_a_2d_view_of_one_array_layer():
    """A 2D view of layer 2 of a 4-layer array, drawn into: layer 2 has the colour,
    layers 0, 1 and 3 keep theirs (also through a layer of a 2D-array view of
    layers 1-3, whose layer 1 is the parent's 2)."""
    ctx = _ctx()
    (arr,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, 4)
    ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                        np.arange(4, dtype=np.uint8).repeat(64).reshape(4, 4, 4, 4))
    (view,) = ctx.glGenTextures(1)
    ctx.glTextureView(view, E.GL_TEXTURE_2D, arr, E.GL_RGBA8, 0, 1, 2, 1)
    _fbo_with(ctx, view)
    prog = glhelp.program(ctx, VS, FS)
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    ctx.glUniform4f(ctx.glGetUniformLocation(prog, "c"), 0.0, 1.0, 0.0, 1.0)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    (arr_view,) = ctx.glGenTextures(1)
    ctx.glTextureView(arr_view, E.GL_TEXTURE_2D_ARRAY, arr, E.GL_RGBA8, 0, 1, 1, 3)
    _fbo_with(ctx, arr_view, 0, 2)                          # parent layer 3
    ctx.glClearColor(0.0, 0.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    layers = _level(ctx, E.GL_TEXTURE_2D_ARRAY, 0, 4, 4, 4)
    assert (layers[0] == 0).all() and (layers[1] == 1).all()
    assert (layers[2] == [0, 255, 0, 255]).all()
    assert (layers[3] == [0, 0, 255, 255]).all()


def test_layered_clear_of_an_array_view_clears_only_its_layers():
    """The 2D-array view of layers 1-2 of a 4-layer array, attached layered and
    cleared: layers 1 and 2 take the clear colour, 0 and 3 keep theirs."""
    ctx = _ctx()
    (arr,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, 4)
    ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                        np.arange(4, dtype=np.uint8).repeat(64).reshape(4, 4, 4, 4))
    (view,) = ctx.glGenTextures(1)
    ctx.glTextureView(view, E.GL_TEXTURE_2D_ARRAY, arr, E.GL_RGBA8, 0, 1, 1, 2)
    _fbo_with(ctx, view)                                    # layered
    ctx.glClearColor(1.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    layers = _level(ctx, E.GL_TEXTURE_2D_ARRAY, 0, 4, 4, 4)
    assert (layers[0] == 0).all() and (layers[3] == 3).all()
    assert (layers[1:3] == [255, 255, 0, 255]).all()


def test_texsubimage_through_a_view_in_its_own_format():
    """R32UI view of level 1 of an RGBA8 texture: the uint 0x04030201 written through
    the view is the bytes 1, 2, 3, 4 of the parent's texels (little-endian)."""
    ctx = _ctx()
    tex = _storage_2d(ctx, 2, 4, 9)
    (view,) = ctx.glGenTextures(1)
    ctx.glTextureView(view, E.GL_TEXTURE_2D, tex, E.GL_R32UI, 1, 1, 0, 1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, view)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 1, 0, 1, 2, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT,
                        np.array([0x04030201, 0x08070605], np.uint32))
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    lv1 = _level(ctx, E.GL_TEXTURE_2D, 1, 2, 2)[0]
    assert (lv1[0, 1] == [1, 2, 3, 4]).all() and (lv1[1, 1] == [5, 6, 7, 8]).all()
    assert (lv1[:, 0] == 9).all()
    assert (_level(ctx, E.GL_TEXTURE_2D, 0, 4, 4) == 9).all()


def test_view_levels_and_immutable_levels_of_chained_views():
    """TEXTURE_IMMUTABLE_LEVELS of a view is the storage's (7), its VIEW_MIN_LEVEL adds
    up along a chain (2 + l) and VIEW_NUM_LEVELS is clamped to what the original
    view has (4 - l); minlevel beyond the original view is INVALID_VALUE."""
    ctx = _ctx()
    assert "GL_ARB_texture_view" in ctx.extensions
    tex, view = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_CUBE_MAP, 7, E.GL_R32F, 64, 64)
    ctx.glTextureView(view, E.GL_TEXTURE_CUBE_MAP, tex, E.GL_RG16I, 2, 4, 0, 6)
    for lv in range(4):
        (chained,) = ctx.glGenTextures(1)
        ctx.glTextureView(chained, E.GL_TEXTURE_CUBE_MAP, view, E.GL_RG16F, lv, 4, 0, 6)
        ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, chained)
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_IMMUTABLE_LEVELS) == [7]
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_VIEW_MIN_LEVEL) == [2 + lv]
        assert ctx.glGetTexParameteriv(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_VIEW_NUM_LEVELS) == [4 - lv]
    (bad,) = ctx.glGenTextures(1)
    ctx.glTextureView(bad, E.GL_TEXTURE_CUBE_MAP, view, E.GL_RG16F, 4, 1, 0, 6)
    assert ctx.glGetError() == E.GL_INVALID_VALUE


def test_view_classes_follow_the_gl_table_not_the_stored_size():
    """GL 4.6 table 8.22: RGB8 and RGBA8 are both stored in 4 bytes here, but RGB8 is
    in the 24-bit class: no view between them; RG16F is a 32-bit-class view of
    RGBA8; RGBA4 is in no class, so only RGBA4 views it."""
    ctx = _ctx()
    for storage, view_format, error in ((E.GL_RGBA8, E.GL_RGB8, E.GL_INVALID_OPERATION),
                                        (E.GL_RGBA8, E.GL_RG16F, E.GL_NO_ERROR),
                                        (E.GL_RGB8, E.GL_RGB8UI, E.GL_NO_ERROR),
                                        (E.GL_RGBA4, E.GL_RGB565, E.GL_INVALID_OPERATION),
                                        (E.GL_RGBA4, E.GL_RGBA4, E.GL_NO_ERROR)):
        tex, view = ctx.glGenTextures(2)
        ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
        ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, storage, 4, 4)
        ctx.glTextureView(view, E.GL_TEXTURE_2D, tex, view_format, 0, 1, 0, 1)
        assert ctx.glGetError() == error, (hex(storage), hex(view_format))


def test_generate_mipmap_of_a_view_filters_in_the_view_format():
    """R8 storage of 0xFF/0x01 columns viewed as R8_SNORM (-1 and 1/127): the 2x2
    averages are 0 in the view's format, where R8 would average to 128/255."""
    ctx = _ctx()
    (tex, view) = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 2, E.GL_R8, 4, 4)
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 4, 4, E.GL_RED, E.GL_UNSIGNED_BYTE,
                        np.tile(np.array([0xFF, 0x01], np.uint8), 8))
    ctx.glTextureView(view, E.GL_TEXTURE_2D, tex, E.GL_R8_SNORM, 0, 2, 0, 1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, view)
    ctx.glGenerateMipmap(E.GL_TEXTURE_2D)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    raw = np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, 1, E.GL_RED, E.GL_UNSIGNED_BYTE)), np.uint8)
    assert (raw == 0).all(), raw                            # snorm 0 is the byte 0


def test_read_blit_and_copy_through_views_in_another_format():
    """An RGBA8 view of R32F storage attached and cleared: glReadPixels decodes the
    view's format; a blit from it into an RGBA8 renderbuffer copies the colour; a
    CopyTexSubImage into a 2D view of layer 1 of an array writes that layer only."""
    ctx = _ctx()
    tex, view = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexStorage2D(E.GL_TEXTURE_2D, 1, E.GL_R32F, 4, 4)
    ctx.glTextureView(view, E.GL_TEXTURE_2D, tex, E.GL_RGBA8, 0, 1, 0, 1)
    _fbo_with(ctx, view)
    ctx.glClearColor(1.0, 0.0, 1.0, 0.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [255, 0, 255, 0]).all()
    (rb,) = ctx.glGenRenderbuffers(1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 4, 4)
    (dst,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_DRAW_FRAMEBUFFER, dst)
    ctx.glFramebufferRenderbuffer(E.GL_DRAW_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, rb)
    ctx.glBlitFramebuffer(0, 0, 4, 4, 0, 0, 4, 4, E.GL_COLOR_BUFFER_BIT, E.GL_NEAREST)
    ctx.glBindFramebuffer(E.GL_READ_FRAMEBUFFER, dst)
    px = np.frombuffer(ctx.glReadPixels(0, 0, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(-1, 4)
    assert (px == [255, 0, 255, 0]).all()
    (arr, layer_view) = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, 3)
    ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                        np.full((3, 4, 4, 4), 7, np.uint8))
    ctx.glTextureView(layer_view, E.GL_TEXTURE_2D, arr, E.GL_RGBA8, 0, 1, 1, 1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, layer_view)
    ctx.glCopyTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 0, 0, 4, 4)     # from the renderbuffer
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    layers = _level(ctx, E.GL_TEXTURE_2D_ARRAY, 0, 4, 4, 3)
    assert (layers[0] == 7).all() and (layers[2] == 7).all()
    assert (layers[1] == [255, 0, 255, 0]).all()


def test_get_tex_image_of_a_view_reads_its_level_and_layer_in_its_format():
    """glGetTexImage through an R32UI view of level 1, layer 2 of an RGBA8 array:
    the parent's bytes 1, 2, 3, 4 read as the uint 0x04030201."""
    ctx = _ctx()
    arr, view = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 2, E.GL_RGBA8, 4, 4, 3)
    texels = np.zeros((3, 2, 2, 4), np.uint8)
    texels[2] = [1, 2, 3, 4]
    ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 1, 0, 0, 0, 2, 2, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    ctx.glTextureView(view, E.GL_TEXTURE_2D, arr, E.GL_R32UI, 1, 1, 2, 1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, view)
    raw = ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RED_INTEGER, E.GL_UNSIGNED_INT)
    assert (np.frombuffer(bytes(raw), np.uint32) == 0x04030201).all()


def test_array_view_clamps_the_layer_coordinate_to_its_own_layers():
    """GL 4.6 section 8.14.2: the layer is clamp(round(r), 0, d - 1) with d the
    view's layer count: a view of layers 3-4 of an 8-layer array sampled at r = 4
    reads its last layer (the parent's 4), not the parent's 7; a cube-map-array
    texture takes 2D-array views (GL 4.6 table 8.21)."""
    ctx = _ctx()
    prog = glhelp.program(ctx, VS, "#version 330\nuniform sampler2DArray t;\nuniform float layer;\nout vec4 o;\n"
                                   "void main() { o = texture(t, vec3(0.5, 0.5, layer)); }\n")
    ctx.glBindVertexArray(ctx.glGenVertexArrays(1)[0])
    arr, view = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_2D_ARRAY, 1, E.GL_RGBA8, 4, 4, 8)
    ctx.glTexSubImage3D(E.GL_TEXTURE_2D_ARRAY, 0, 0, 0, 0, 4, 4, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                        (np.arange(8, dtype=np.uint8) * 10).repeat(64).reshape(8, 4, 4, 4))
    ctx.glTextureView(view, E.GL_TEXTURE_2D_ARRAY, arr, E.GL_RGBA8, 0, 1, 3, 2)
    ctx.glBindTexture(E.GL_TEXTURE_2D_ARRAY, view)
    ctx.glTexParameteri(E.GL_TEXTURE_2D_ARRAY, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    for layer, parent in ((0, 3), (1, 4), (4, 4), (-2, 3)):
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "layer"), layer)
        ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
        px = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        assert (px == 10 * parent).all(), (layer, px)
    cube_arr, cube_view = ctx.glGenTextures(2)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP_ARRAY, cube_arr)
    ctx.glTexStorage3D(E.GL_TEXTURE_CUBE_MAP_ARRAY, 1, E.GL_RGBA8, 4, 4, 12)
    ctx.glTextureView(cube_view, E.GL_TEXTURE_2D_ARRAY, cube_arr, E.GL_RGBA8, 0, 1, 0, 12)
    assert ctx.glGetError() == E.GL_NO_ERROR
