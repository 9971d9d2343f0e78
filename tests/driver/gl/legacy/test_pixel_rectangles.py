"""glDrawPixels / glBitmap / glCopyPixels fragments (GL 2.1 sections 3.6-3.7,
4.3.3): texturing with the raster texture coordinates, fog with the raster
distance, DEPTH_COMPONENT and STENCIL_INDEX rectangles and their copies,
checked against values worked out here and read back; the
`pixel_fragments` program is also compared with llvmpipe in test_render."""

from __future__ import annotations

import numpy as np
import pytest

import driver
from driver.gl import enums as E
from tests.driver.gl.legacy import features

N = 32


def context():
    ctx = driver.Context(api="compat", width=N, height=N)
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glPixelStorei(E.GL_PACK_ALIGNMENT, 1)
    ctx.glClearColor(0.0, 0.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    return ctx


def image(w=8, h=6):
    img = np.zeros((h, w, 4), np.uint8)
    img[..., 0] = np.arange(w)[None, :] * 30
    img[..., 1] = np.arange(h)[:, None] * 40
    img[..., 2] = 200
    img[..., 3] = 255
    return img


def read_depth(ctx, x, y, w, h):
    return np.frombuffer(ctx.glReadPixels(x, y, w, h, E.GL_DEPTH_COMPONENT, E.GL_FLOAT), np.float32).reshape(h, w)


def read_stencil(ctx, x, y, w, h):
    return np.frombuffer(ctx.glReadPixels(x, y, w, h, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE),
                         np.uint8).reshape(h, w)


def test_drawpixels_fragments_are_textured_with_the_raster_texture_coordinates():
    ctx = context()
    texels = np.array([[[255, 255, 255, 255], [255, 128, 0, 255]],
                       [[0, 255, 128, 255], [128, 128, 255, 255]]], np.uint8)
    features._texture(ctx, texels, E.GL_RGBA, E.GL_RGBA)
    ctx.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_MODULATE)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glTexCoord2f(0.75, 0.25)                 # texel (1, 0)
    ctx.glWindowPos2i(4, 5)
    img = image()
    ctx.glDrawPixels(8, 6, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = ctx.read_pixels().astype(int)[5:11, 4:12]
    want = np.rint(img.astype(float) * texels[0, 1] / 255.0)
    assert np.abs(got - want).max() <= 1


def test_drawpixels_fragments_are_fogged_with_the_raster_distance():
    ctx = context()
    ctx.glFogi(E.GL_FOG_MODE, E.GL_LINEAR)
    ctx.glFogf(E.GL_FOG_START, 0.0)
    ctx.glFogf(E.GL_FOG_END, 4.0)
    ctx.glFogfv(E.GL_FOG_COLOR, (0.0, 0.0, 1.0, 1.0))
    ctx.glEnable(E.GL_FOG)
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(-1.0, 1.0, -1.0, 1.0, -10.0, 10.0)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glRasterPos3f(-0.5, -0.5, -1.0)          # eye distance 1: f = (4 - 1) / 4
    img = image()
    ctx.glDrawPixels(8, 6, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img)
    got = ctx.read_pixels().astype(int)[8:14, 8:16, :3]
    want = 0.75 * img[..., :3].astype(float) + 0.25 * np.array([0.0, 0.0, 255.0])
    assert np.abs(got - want).max() <= 1


def test_textured_bitmap_takes_the_raster_colour_times_the_texel():
    ctx = context()
    texels = np.array([[[255, 0, 0, 255], [0, 255, 0, 255]]], np.uint8)
    features._texture(ctx, texels, E.GL_RGBA, E.GL_RGBA)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glColor3f(1.0, 0.5, 1.0)
    ctx.glTexCoord2f(0.75, 0.5)                  # texel (1, 0): green
    ctx.glWindowPos2i(2, 2)
    bits = np.array([0xF0, 0x0F], np.uint8)
    ctx.glBitmap(8, 2, 0.0, 0.0, 0.0, 0.0, bits)
    got = ctx.read_pixels().astype(int)
    assert got[2, 2:6, :3].tolist() == [[0, 128, 0]] * 4
    assert got[2, 6:10, :3].tolist() == [[0, 0, 0]] * 4
    assert got[3, 6:10, :3].tolist() == [[0, 128, 0]] * 4


def test_bitmap_at_a_raster_position_a_rounding_short_of_a_pixel_starts_on_that_pixel():
    """glRasterPos2f(168, 173) through glOrtho(0, 400, 0, 400) lands a float
    rounding below (168, 173); the bitmap still starts at pixel (168, 173), as on
    Mesa (piglit gl-1.0-scissor-bitmap), not one pixel down and left."""
    ctx = driver.Context(api="compat", width=400, height=400)
    ctx.glPixelStorei(E.GL_UNPACK_ALIGNMENT, 1)
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(0.0, 400.0, 0.0, 400.0, -1.0, 1.0)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glClearColor(0.0, 0.0, 0.0, 0.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glColor3f(1.0, 0.0, 0.0)
    ctx.glRasterPos2f(168.0, 173.0)
    ctx.glBitmap(16, 2, 0.0, 0.0, 0.0, 0.0, bytes([0b10000000, 0b00000001, 0b11000000, 0b00000011]))
    red = np.argwhere(ctx.read_pixels()[..., 0] > 127).tolist()
    assert red == [[173, 168], [173, 183], [174, 168], [174, 169], [174, 182], [174, 183]]


def test_depth_drawpixels_writes_depth_and_the_raster_colour():
    ctx = context()
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glColor3f(1.0, 0.0, 0.0)
    ctx.glWindowPos2i(3, 4)
    depth = np.linspace(0.0, 1.0, 10 * 5, dtype=np.float32).reshape(5, 10)
    depth[-1, -1] = 1.0                          # not less than the cleared 1.0: fails LESS
    ctx.glPixelTransferf(E.GL_DEPTH_SCALE, 0.5)
    ctx.glPixelTransferf(E.GL_DEPTH_BIAS, 0.25)
    ctx.glDrawPixels(10, 5, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    assert ctx.glGetError() == E.GL_NO_ERROR
    ctx.glPixelTransferf(E.GL_DEPTH_SCALE, 1.0)      # (ReadPixels applies the transfer too)
    ctx.glPixelTransferf(E.GL_DEPTH_BIAS, 0.0)
    got = read_depth(ctx, 3, 4, 10, 5)
    assert np.abs(got - (depth * 0.5 + 0.25)).max() < 2e-7 * 8
    img = ctx.read_pixels().astype(int)
    assert (img[4:9, 3:13, :3] == [255, 0, 0]).all()
    assert (img[:4, :, :3] == 0).all() and (img[:, 13:, :3] == 0).all()


def test_depth_drawpixels_is_depth_tested():
    ctx = context()
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glRectf(-1.0, -1.0, 1.0, 1.0)            # depth 0.5 everywhere
    ctx.glColor3f(0.0, 1.0, 0.0)
    ctx.glWindowPos2i(0, 0)
    depth = np.tile(np.array([0.25, 0.75], np.float32), (1, 4))
    ctx.glDrawPixels(8, 1, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    row = ctx.read_pixels().astype(int)[0, :8, :3]
    assert row[0::2].tolist() == [[0, 255, 0]] * 4
    assert row[1::2].tolist() == [[255, 255, 255]] * 4
    got = read_depth(ctx, 0, 0, 8, 1)[0]
    assert np.allclose(got[0::2], 0.25, atol=1e-6) and np.allclose(got[1::2], 0.5, atol=1e-6)


def test_stencil_drawpixels_writes_indices_through_the_write_mask():
    ctx = context()
    ctx.glClearStencil(0xA0)
    ctx.glClear(E.GL_STENCIL_BUFFER_BIT)
    values = (np.arange(12 * 6) * 37 % 256).astype(np.uint8).reshape(6, 12)
    ctx.glStencilMask(0x3F)
    ctx.glWindowPos2i(5, 7)
    ctx.glDrawPixels(12, 6, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, values)
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = read_stencil(ctx, 5, 7, 12, 6)
    assert (got == ((values & 0x3F) | (0xA0 & ~0x3F))).all()
    assert (read_stencil(ctx, 0, 0, 5, 7) == 0xA0).all()
    assert (ctx.read_pixels()[..., :3] == 0).all()          # no colour written


def test_stencil_index_shift_and_offset():
    ctx = context()
    ctx.glPixelTransferi(E.GL_INDEX_SHIFT, 2)
    ctx.glPixelTransferi(E.GL_INDEX_OFFSET, 3)
    ctx.glWindowPos2i(0, 0)
    values = np.array([[0, 1, 5, 70]], np.uint16)
    ctx.glDrawPixels(4, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_SHORT, values)
    ctx.glPixelTransferi(E.GL_INDEX_SHIFT, 0)           # (ReadPixels applies the transfer too)
    ctx.glPixelTransferi(E.GL_INDEX_OFFSET, 0)
    assert read_stencil(ctx, 0, 0, 4, 1)[0].tolist() == [3, 7, 23, (70 * 4 + 3) & 0xFF]


def test_copypixels_depth_and_stencil_copy_the_values():
    ctx = context()
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glWindowPos2i(1, 1)
    depth = np.random.default_rng(3).random((6, 9)).astype(np.float32)
    ctx.glDrawPixels(9, 6, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, depth)
    st = np.random.default_rng(4).integers(0, 256, (6, 9)).astype(np.uint8)
    ctx.glDrawPixels(9, 6, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE, st)
    ctx.glWindowPos2i(15, 20)
    ctx.glCopyPixels(1, 1, 9, 6, E.GL_DEPTH)
    ctx.glCopyPixels(1, 1, 9, 6, E.GL_STENCIL)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert np.abs(read_depth(ctx, 15, 20, 9, 6) - depth).max() < 1e-6
    assert (read_stencil(ctx, 15, 20, 9, 6) == st).all()


def test_pixel_zoom_replicates_and_flips():
    ctx = context()
    ctx.glPixelZoom(2.0, -1.0)
    ctx.glWindowPos2i(4, 20)
    img = image(4, 3)
    ctx.glDrawPixels(4, 3, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img)
    got = ctx.read_pixels().astype(int)[17:20, 4:12]
    want = np.repeat(img[::-1], 2, axis=1)
    assert (got == want).all()


def _index_maps(ctx, r, g, b, a):
    for m, values in zip(("I_TO_R", "I_TO_G", "I_TO_B", "I_TO_A"), (r, g, b, a)):
        ctx.glPixelMapfv(getattr(E, f"GL_PIXEL_MAP_{m}"), len(values), values)


def test_color_index_drawpixels_looks_indices_up_in_the_i_to_rgba_maps():
    """GL 2.1 section 3.6.5 in RGBA mode: an index (after INDEX_SHIFT and
    INDEX_OFFSET) masked to the map size picks each component from its I_TO_x
    map, with MAP_COLOR off too (piglit's gl-1.0-drawpixels-color-index: it was
    INVALID_OPERATION)."""
    ctx = context()
    _index_maps(ctx, [1.0, 0.0, 0.0, 0.5], [0.0, 1.0, 0.0, 0.5], [0.0, 0.0, 1.0, 0.5], [1.0, 1.0, 1.0, 1.0])
    ctx.glPixelTransferi(E.GL_INDEX_OFFSET, 1)
    idx = np.array([[0, 1, 2, 7]], np.uint8)            # + 1 -> 1, 2, 3, 8 & 3 = 0
    ctx.glWindowPos2i(2, 3)
    ctx.glDrawPixels(4, 1, E.GL_COLOR_INDEX, E.GL_UNSIGNED_BYTE, idx.tobytes())
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = ctx.read_pixels()[3, 2:6].tolist()
    assert got == [[0, 255, 0, 255], [0, 0, 255, 255], [128, 128, 128, 255], [255, 0, 0, 255]]


def test_color_index_bitmap_drawpixels_reads_one_index_per_bit():
    """type BITMAP: rows of bits, most significant first, each bit an index."""
    ctx = context()
    _index_maps(ctx, [1.0, 0.0], [0.0, 0.0], [0.0, 1.0], [1.0, 1.0])
    ctx.glWindowPos2i(1, 1)
    ctx.glDrawPixels(10, 2, E.GL_COLOR_INDEX, E.GL_BITMAP, bytes([0b10110000, 0b01000000, 0xFF, 0xFF]))
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = ctx.read_pixels()
    bits = [1, 0, 1, 1, 0, 0, 0, 0, 0, 1]
    assert px[1, 1:11, 2].tolist() == [255 * b for b in bits]
    assert px[1, 1:11, 0].tolist() == [255 * (1 - b) for b in bits]
    assert (px[2, 1:11, 2] == 255).all()


def test_bitmap_type_needs_an_index_format():
    ctx = context()
    ctx.glWindowPos2i(0, 0)
    ctx.glDrawPixels(1, 1, E.GL_RGBA, E.GL_BITMAP, bytes(4))
    assert ctx.glGetError() == E.GL_INVALID_ENUM
    assert (ctx.read_pixels()[..., :3] == 0).all()


def test_drawpixels_inside_begin_end_is_invalid():
    ctx = context()
    ctx.glWindowPos2i(0, 0)
    ctx.glBegin(E.GL_POINTS)
    ctx.glDrawPixels(1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes([255] * 4))
    ctx.glEnd()                     # (glGetError between Begin and End would itself be an error)
    assert ctx.glGetError() == E.GL_INVALID_OPERATION
    assert (ctx.read_pixels()[..., :3] == 0).all()


def test_map_color_looks_components_up_after_scale_and_bias():
    ctx = context()
    ctx.glPixelMapfv(E.GL_PIXEL_MAP_R_TO_R, 2, [0.25, 1.0])
    ctx.glPixelMapfv(E.GL_PIXEL_MAP_G_TO_G, 3, [1.0, 0.5, 0.0])
    ctx.glPixelMapfv(E.GL_PIXEL_MAP_A_TO_A, 1, [1.0])
    ctx.glPixelTransferi(E.GL_MAP_COLOR, 1)
    ctx.glPixelTransferf(E.GL_RED_SCALE, 2.0)
    ctx.glWindowPos2i(0, 0)
    img = np.array([[[60, 128, 200, 10], [0, 255, 100, 255]]], np.uint8)
    ctx.glDrawPixels(2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img)
    ctx.glPixelTransferi(E.GL_MAP_COLOR, 0)      # glReadPixels takes the transfer too (section 18.2.8)
    ctx.glPixelTransferf(E.GL_RED_SCALE, 1.0)
    got = ctx.read_pixels().astype(int)[0, :2]
    # red 60/255*2 = 0.47 -> index 0 -> 0.25; 0 -> 0.25
    # green 128/255 -> index round(1.004) = 1 -> 0.5; 255 -> index 2 -> 0.0
    # blue: B_TO_B is the initial one-entry map of 0; alpha -> 1
    assert got.tolist() == [[64, 128, 0, 255], [64, 0, 0, 255]]


def test_clear_in_selection_mode_writes_nothing():
    ctx = context()
    ctx.glSelectBuffer(4, np.zeros(4, np.uint32))
    ctx.glRenderMode(E.GL_SELECT)
    ctx.glClearColor(1.0, 1.0, 1.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glClear(0x1)                                       # not a buffer bit
    assert ctx.glGetError() == E.GL_INVALID_VALUE
    ctx.glRenderMode(E.GL_RENDER)
    assert (ctx.read_pixels()[..., :3] == 0).all()
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert (ctx.read_pixels()[..., :3] == 255).all()


def _tex_image(ctx, level, fmt, type):
    return np.frombuffer(bytes(ctx.glGetTexImage(E.GL_TEXTURE_2D, level, fmt, type)),
                         np.float32 if type == E.GL_FLOAT else np.uint8)


def test_teximage_colours_take_the_pixel_transfer_scale_and_bias():
    """GL 4.6 compatibility section 8.5: glTexImage*/glTexSubImage* colour images go
    through glPixelTransfer's scale and bias (and the colour maps) before they are stored;
    integer images do not, and images given after the transfer is reset are stored as given."""
    ctx = context()
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    for pname, v in ((E.GL_RED_SCALE, 2.0), (E.GL_RED_BIAS, -0.25), (E.GL_GREEN_SCALE, 3.0),
                     (E.GL_BLUE_BIAS, 0.4), (E.GL_ALPHA_SCALE, 0.5)):
        ctx.glPixelTransferf(pname, v)
    texels = np.array([0.5, 0.25, 0.1, 0.5, 1.0, 0.5, 0.0, 1.0], np.float32)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA32F, 2, 1, 0, E.GL_RGBA, E.GL_FLOAT, texels)
    # a float texture keeps what its format holds: 1.0 * 2 - 0.25 = 1.75, 0.5 * 3 = 1.5
    assert np.allclose(_tex_image(ctx, 0, E.GL_RGBA, E.GL_FLOAT),
                       [0.75, 0.75, 0.5, 0.25, 1.75, 1.5, 0.4, 0.5])
    # a normalized one clamps: 200/255 red -> 1.32 -> 255; 60/255 green -> 180; blue + 0.4 -> 102 + 10
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     np.array([200, 60, 10, 255], np.uint8))
    assert _tex_image(ctx, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE).tolist() == [255, 180, 112, 128]
    # a luminance image is R = G = B = L through the transfer; the texture keeps R
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 1, 0, 1, 1, E.GL_LUMINANCE, E.GL_FLOAT, np.array([0.25], np.float32))
    assert np.allclose(_tex_image(ctx, 0, E.GL_RGBA, E.GL_FLOAT)[4:], [0.25, 0.75, 0.65, 0.5])
    # integer images are not transferred
    itex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, itex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8UI, 1, 1, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE,
                     np.array([7, 8, 9, 10], np.uint8))
    assert _tex_image(ctx, 0, E.GL_RGBA_INTEGER, E.GL_UNSIGNED_BYTE).tolist() == [7, 8, 9, 10]
    # the identity transfer again: stored as given
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    for pname, v in ((E.GL_RED_SCALE, 1.0), (E.GL_RED_BIAS, 0.0), (E.GL_GREEN_SCALE, 1.0),
                     (E.GL_BLUE_BIAS, 0.0), (E.GL_ALPHA_SCALE, 1.0)):
        ctx.glPixelTransferf(pname, v)
    ctx.glTexSubImage2D(E.GL_TEXTURE_2D, 0, 0, 0, 2, 1, E.GL_RGBA, E.GL_FLOAT, texels)
    assert np.allclose(_tex_image(ctx, 0, E.GL_RGBA, E.GL_FLOAT), texels)
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_depth_clamp_keeps_a_raster_position_past_the_far_plane_with_its_depth_clamped():
    """GL 4.6 compatibility section 14.9 with ARB_depth_clamp: with DEPTH_CLAMP the near
    and far planes do not clip the raster position; its window z is clamped to the depth
    range. x and y still clip. Without it the position is invalid."""
    ctx = context()
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrtho(0, N, 0, N, -1, 1)                 # eye z -2 -> ndc z 2: past the far plane
    valid = lambda: ctx.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID)[0]
    ctx.glRasterPos3f(4, 5, -2)
    assert not valid()
    ctx.glEnable(E.GL_DEPTH_CLAMP)
    ctx.glRasterPos3f(4, 5, -2)
    assert valid()
    assert np.allclose(ctx.glGetFloatv(E.GL_CURRENT_RASTER_POSITION), [4, 5, 1, 1])
    ctx.glDepthRange(0.2, 0.6)
    ctx.glRasterPos3f(4, 5, 3)                     # before the near plane: the range's near end
    assert np.allclose(ctx.glGetFloatv(E.GL_CURRENT_RASTER_POSITION), [4, 5, 0.2, 1])
    ctx.glRasterPos3f(4, 5, 0)                     # inside: as without the clamp, 0.2 + 0.5 * 0.4
    assert np.allclose(ctx.glGetFloatv(E.GL_CURRENT_RASTER_POSITION), [4, 5, 0.4, 1])
    ctx.glRasterPos3f(-1, 5, -2)                   # x still clips
    assert not valid()
    # a rectangle drawn there: depth 1 passes LEQUAL against the cleared 1
    ctx.glDepthRange(0, 1)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_LEQUAL)
    ctx.glRasterPos3f(4, 5, -2)
    ctx.glDrawPixels(2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.full((2, 2, 4), 255, np.uint8))
    assert (ctx.read_pixels()[5:7, 4:6] == 255).all() and (ctx.read_pixels()[5:7, 6] == [0, 0, 0, 255]).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
