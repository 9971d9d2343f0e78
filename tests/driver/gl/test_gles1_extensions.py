"""The extensions an OpenGL ES 1.1 context lists, each exercised: draws and
queries against hand-computed values."""

from __future__ import annotations

import struct

import numpy as np
import pytest

import driver
from driver.gl import enums as E

N = 16


def X(f: float) -> int:
    return int(round(f * 65536))


def es1(w=N, h=N):
    return driver.Context(api="gles1", width=w, height=h)


def ortho_window(ctx, w=N, h=N):
    """Object coordinates = window coordinates."""
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glLoadIdentity()
    ctx.glOrthof(0, w, 0, h, -1, 1)
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glLoadIdentity()


def quad(ctx, x0, y0, x1, y1):
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([x0, y0, x1, y0, x0, y1, x1, y1], np.float32).tobytes())
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)


def test_the_list():
    ctx = es1()
    listed = set(ctx.glGetString(E.GL_EXTENSIONS).split())
    assert {"GL_OES_blend_subtract", "GL_OES_blend_func_separate", "GL_OES_blend_equation_separate",
            "GL_OES_draw_texture", "GL_OES_fixed_point", "GL_OES_framebuffer_object",
            "GL_OES_matrix_get", "GL_OES_point_size_array", "GL_OES_point_sprite",
            "GL_OES_single_precision", "GL_OES_element_index_uint", "GL_EXT_blend_minmax"} <= listed
    # none of them in a GLES 2 context's list (their ES 2 names are core there or absent)
    es2 = set(driver.Context(api="gles2", width=4, height=4).glGetString(E.GL_EXTENSIONS).split())
    assert not {"GL_OES_draw_texture", "GL_OES_point_size_array", "GL_OES_fixed_point"} & es2


def test_blend_subtract_and_separate_functions():
    """dst (0.5, 0.5, 0.5, 0.5); src (1, 0.25, 0, 1):
    RGB REVERSE_SUBTRACT with ONE/ONE: dst - src clamped = (0, 0.25, 0.5);
    alpha ADD with ZERO/ONE (func separate): dst alpha 0.5."""
    ctx = es1()
    ctx.glClearColor(0.5, 0.5, 0.5, 0.5)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ortho_window(ctx)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendFuncSeparateOES(E.GL_ONE, E.GL_ONE, E.GL_ZERO, E.GL_ONE)
    ctx.glBlendEquationSeparateOES(E.GL_FUNC_REVERSE_SUBTRACT, E.GL_FUNC_ADD)
    ctx.glColor4f(1.0, 0.25, 0.0, 1.0)
    quad(ctx, 0, 0, N, N)
    assert ctx.glGetError() == E.GL_NO_ERROR
    px = ctx.read_pixels()[4, 4].astype(int)
    assert abs(px - np.array([0, 64, 128, 128])).max() <= 1
    assert ctx.glGetIntegerv(E.GL_BLEND_EQUATION_RGB) == [E.GL_FUNC_REVERSE_SUBTRACT]
    # OES_blend_subtract: SUBTRACT src - dst; EXT_blend_minmax: MIN
    ctx.glBlendFuncSeparateOES(E.GL_ONE, E.GL_ONE, E.GL_ONE, E.GL_ONE)
    ctx.glBlendEquationOES(E.GL_FUNC_SUBTRACT)
    ctx.glColor4f(1.0, 1.0, 1.0, 1.0)
    quad(ctx, 0, 0, N // 2, N)                         # (1 - 0, 1 - 0.25, 1 - 0.5, 1 - 0.5)
    ctx.glBlendEquationOES(E.GL_MIN)
    ctx.glColor4f(0.25, 0.25, 0.25, 0.25)
    quad(ctx, N // 2, 0, N, N)                         # min(0.25, (0, 0.25, 0.5, 0.5))
    img = ctx.read_pixels().astype(int)
    assert abs(img[4, 2] - np.array([255, 191, 127, 127])).max() <= 1
    assert abs(img[4, 12] - np.array([0, 64, 64, 64])).max() <= 1
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_framebuffer_object_oes():
    """Render into an RGBA8_OES colour renderbuffer with a DEPTH_COMPONENT24_OES
    depth buffer through the OES entry points; a nearer quad wins the depth test."""
    ctx = es1()
    fbo = ctx.glGenFramebuffersOES(1)[0]
    color, depth = ctx.glGenRenderbuffersOES(2)
    ctx.glBindFramebufferOES(E.GL_FRAMEBUFFER, fbo)
    ctx.glBindRenderbufferOES(E.GL_RENDERBUFFER, color)
    ctx.glRenderbufferStorageOES(E.GL_RENDERBUFFER, E.GL_RGBA8, 8, 8)
    ctx.glFramebufferRenderbufferOES(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, color)
    ctx.glBindRenderbufferOES(E.GL_RENDERBUFFER, depth)
    ctx.glRenderbufferStorageOES(E.GL_RENDERBUFFER, E.GL_DEPTH_COMPONENT24, 8, 8)
    ctx.glFramebufferRenderbufferOES(E.GL_FRAMEBUFFER, E.GL_DEPTH_ATTACHMENT, E.GL_RENDERBUFFER, depth)
    assert ctx.glCheckFramebufferStatusOES(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    assert ctx.glIsFramebufferOES(fbo) and ctx.glIsRenderbufferOES(color)
    assert ctx.glGetRenderbufferParameterivOES(E.GL_RENDERBUFFER, E.GL_RENDERBUFFER_WIDTH) == [8]
    ctx.glViewport(0, 0, 8, 8)
    ctx.glClearColor(0, 0, 0, 1)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ortho_window(ctx, 8, 8)
    ctx.glTranslatef(0, 0, 0.5)                        # nearer (z_window 0.25)
    ctx.glColor4f(0, 1, 0, 1)
    quad(ctx, 0, 0, 8, 8)
    ctx.glLoadIdentity()                               # farther (z_window 0.5): hidden
    ctx.glColor4f(1, 0, 0, 1)
    quad(ctx, 0, 0, 8, 8)
    px = ctx.glReadPixels(3, 3, 1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert bytes(px) == bytes([0, 255, 0, 255])
    ctx.glBindFramebufferOES(E.GL_FRAMEBUFFER, 0)
    ctx.glDeleteFramebuffersOES(1, [fbo])
    ctx.glDeleteRenderbuffersOES(2, [color, depth])
    assert not ctx.glIsFramebufferOES(fbo)
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_point_size_array():
    """Two points of sizes 2 (GL_FIXED) and 6: squares of 4 and 36 pixels;
    attenuation (1, 0, 0) leaves them; POINT_SIZE_MAX clamps them."""
    ctx = es1(32, 32)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([-0.5, -0.5, 0.5, 0.5], np.float32).tobytes())
    ctx.glEnableClientState(E.GL_POINT_SIZE_ARRAY_OES)
    sizes = np.array([2, 6], np.int32) * 65536
    ctx.glPointSizePointerOES(E.GL_FIXED, 0, sizes.tobytes())
    assert ctx.glGetIntegerv(E.GL_POINT_SIZE_ARRAY_TYPE_OES) == [E.GL_FIXED]
    assert ctx.glIsEnabled(E.GL_POINT_SIZE_ARRAY_OES)
    ctx.glDrawArrays(E.GL_POINTS, 0, 2)
    lit = ctx.read_pixels()[..., 0] > 0
    assert lit[:16, :16].sum() == 4 and lit[16:, 16:].sum() == 36
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glPointParameterf(E.GL_POINT_SIZE_MAX, 4.0)
    ctx.glPointSizePointerOES(E.GL_FLOAT, 0, np.array([2.0, 6.0], np.float32).tobytes())
    ctx.glDrawArrays(E.GL_POINTS, 0, 2)
    lit = ctx.read_pixels()[..., 0] > 0
    assert lit[:16, :16].sum() == 4 and lit[16:, 16:].sum() == 16
    # disabled: glPointSize's size for every point
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glDisableClientState(E.GL_POINT_SIZE_ARRAY_OES)
    ctx.glPointSize(3.0)
    ctx.glDrawArrays(E.GL_POINTS, 0, 2)
    lit = ctx.read_pixels()[..., 0] > 0
    assert lit[:16, :16].sum() == 9 and lit[16:, 16:].sum() == 9
    ctx.glPointSizePointerOES(E.GL_SHORT, 0, bytes(4))     # FIXED or FLOAT only
    assert ctx.glGetError() == E.GL_INVALID_ENUM


def test_point_sprite():
    """COORD_REPLACE_OES: an 8-pixel sprite of a 2x2 texture shows its four
    texels in its four quadrants (s left to right, t bottom to top)."""
    ctx = es1()
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    texels = bytes([255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255])
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, texels)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glEnable(E.GL_POINT_SPRITE)                    # GL_POINT_SPRITE_OES
    ctx.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    ctx.glPointSize(8.0)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.zeros(2, np.float32).tobytes())
    ctx.glDrawArrays(E.GL_POINTS, 0, 1)
    assert ctx.glGetError() == E.GL_NO_ERROR
    img = ctx.read_pixels().astype(int)
    # the sprite covers pixels 4..11; ES 1.1 point sprites have t = 0 at the top
    quadrants = {(5, 5): [0, 0, 255], (5, 10): [255, 255, 255], (10, 5): [255, 0, 0], (10, 10): [0, 255, 0]}
    for (row, col), rgb in quadrants.items():
        assert list(img[row, col, :3]) == rgb, (row, col)


def test_draw_texture():
    """glDrawTex*OES: crop rectangle (1, 1, 2, 2) of a 4x4 texture onto an
    8x8 rectangle at (4, 8), outside the viewport: each texel covers 4x4
    pixels; modulated by the current colour; z 0.75 written as depth."""
    ctx = es1(24, 24)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    img = np.zeros((4, 4, 4), np.uint8)
    img[..., 3] = 255
    img[..., 0] = np.arange(4)[None, :] * 60           # red by column (s)
    img[..., 1] = np.arange(4)[:, None] * 60           # green by row (t)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 4, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img.tobytes())
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST)
    ctx.glTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_CROP_RECT_OES, [1, 1, 2, 2])
    assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_TEXTURE_CROP_RECT_OES) == [1, 1, 2, 2]
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glViewport(0, 0, 4, 4)
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glScalef(0.5, 0.5, 0.5)                        # matrices do not apply
    ctx.glColor4f(1.0, 0.5, 1.0, 1.0)
    ctx.glEnable(E.GL_DEPTH_TEST)
    ctx.glDepthFunc(E.GL_ALWAYS)
    ctx.glDrawTexiOES(4, 8, 0, 8, 8)
    ctx.glDrawTexfvOES([16.0, 0.0, 0.75, 4.0, 4.0])
    assert ctx.glGetError() == E.GL_NO_ERROR
    out = ctx.read_pixels().astype(int)
    expect_r = np.repeat([60, 120], 4)[None, :].repeat(8, 0)
    expect_g = np.repeat([60, 120], 4)[:, None].repeat(8, 1) // 2
    assert (out[8:16, 4:12, 0] == expect_r).all()
    assert (np.abs(out[8:16, 4:12, 1] - expect_g) <= 1).all()
    assert not out[8:16, 3].any() and not out[7, 4:12].any()
    # ES 1.1 has no depth readback: the depth written (0.75) is checked by the depth test
    ctx.glDepthFunc(E.GL_LESS)                         # z 0.75 is in the depth buffer: 0.5 passes, 1.0 not
    ctx.glColor4f(0.0, 0.0, 1.0, 1.0)
    ctx.glDisable(E.GL_TEXTURE_2D)
    ctx.glDrawTexiOES(16, 0, 0, 2, 4)                  # z 0 < 0.75: drawn
    ctx.glDrawTexxOES(X(18), 0, X(1), X(2), X(4))      # z 1 > 0.75: hidden
    out = ctx.read_pixels().astype(int)
    assert list(out[1, 16, :3]) == [0, 0, 255]
    assert list(out[1, 18, :3]) != [0, 0, 255]
    for bad in ((0, 0, 0, 0, 4), (0, 0, 0, 4, -1)):
        ctx.glDrawTexiOES(*bad)
        assert ctx.glGetError() == E.GL_INVALID_VALUE


def test_matrix_get():
    ctx = es1()
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glTranslatef(1.5, -2.0, 0.25)
    bits = ctx.glGetIntegerv(E.GL_MODELVIEW_MATRIX_FLOAT_AS_INT_BITS_OES)
    expect = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1.5, -2.0, 0.25, 1]
    assert bits == [struct.unpack("<i", struct.pack("<f", v))[0] for v in expect]
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glScalef(2.0, 2.0, 2.0)
    assert ctx.glGetIntegerv(E.GL_PROJECTION_MATRIX_FLOAT_AS_INT_BITS_OES)[0] == 0x40000000
    assert ctx.glGetIntegerv(E.GL_TEXTURE_MATRIX_FLOAT_AS_INT_BITS_OES)[0] == 0x3F800000


def test_single_precision_and_fixed_point_names():
    ctx = es1()
    ctx.glMatrixMode(E.GL_PROJECTION)
    ctx.glOrthofOES(-2, 2, -2, 2, -1, 1)
    ctx.glClearDepthfOES(0.25)
    ctx.glDepthRangefOES(0.5, 1.0)
    ctx.glClipPlanefOES(E.GL_CLIP_PLANE1, [0.0, 1.0, 0.0, 0.5])
    assert ctx.glGetFloatv(E.GL_PROJECTION_MATRIX)[0] == 0.5
    assert ctx.glGetFloatv(E.GL_DEPTH_CLEAR_VALUE) == [0.25]
    assert ctx.glGetFloatv(E.GL_DEPTH_RANGE) == [0.5, 1.0]
    assert ctx.glGetClipPlanefOES(E.GL_CLIP_PLANE1) == [0.0, 1.0, 0.0, 0.5]
    ctx.glColor4xOES(X(0.5), X(1), 0, X(1))
    ctx.glMatrixMode(E.GL_MODELVIEW)
    ctx.glTranslatexOES(X(3), 0, 0)
    assert ctx.glGetFloatv(E.GL_CURRENT_COLOR) == [0.5, 1.0, 0.0, 1.0]
    assert ctx.glGetFixedvOES(E.GL_MODELVIEW_MATRIX)[12] == X(3)
    assert ctx.glGetError() == E.GL_NO_ERROR
    other = driver.Context(api="gles2", width=4, height=4)
    other.glColor4xOES(0, 0, 0, 0)
    assert other.glGetError() == E.GL_INVALID_OPERATION


def test_byte_texture_coordinates_and_mirrored_repeat():
    """GL_BYTE texture coordinates 0..2 over a quad with MIRRORED_REPEAT: a
    2-texel texture reads (a, b, b, a) across 4 columns."""
    ctx = es1(4, 1)
    tex = ctx.glGenTextures(1)[0]
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA, 2, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     bytes([255, 0, 0, 255, 0, 255, 0, 255]))
    for p, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                 (E.GL_TEXTURE_WRAP_S, E.GL_MIRRORED_REPEAT)):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, v)
    ctx.glEnable(E.GL_TEXTURE_2D)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_BYTE, 0, np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.int8).tobytes())
    ctx.glEnableClientState(E.GL_TEXTURE_COORD_ARRAY)
    ctx.glTexCoordPointer(2, E.GL_BYTE, 0, np.array([0, 0, 2, 0, 0, 1, 2, 1], np.int8).tobytes())
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    row = ctx.read_pixels()[0, :, :3].astype(int).tolist()
    assert row == [[255, 0, 0], [0, 255, 0], [0, 255, 0], [255, 0, 0]]


def test_stencil_wrap():
    """INCR_WRAP from 255 gives 0, DECR_WRAP from 0 gives 255 (checked with
    the stencil test EQUAL)."""
    ctx = es1(4, 4)
    ortho_window(ctx, 4, 4)
    ctx.glClearStencil(255)
    ctx.glClear(E.GL_STENCIL_BUFFER_BIT | E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_INCR_WRAP)
    ctx.glColorMask(False, False, False, False)
    quad(ctx, 0, 0, 2, 4)                              # left: 255 -> 0
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_DECR_WRAP)
    quad(ctx, 0, 0, 2, 4)                              # left: 0 -> 255 again
    quad(ctx, 2, 0, 4, 4)                              # right: 255 -> 254
    ctx.glColorMask(True, True, True, True)
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_KEEP)
    ctx.glStencilFunc(E.GL_EQUAL, 255, 0xFF)
    ctx.glColor4f(1, 1, 1, 1)
    quad(ctx, 0, 0, 4, 4)
    img = ctx.read_pixels()[..., 0]
    assert (img[:, :2] == 255).all() and (img[:, 2:] == 0).all()
    assert ctx.glGetError() == E.GL_NO_ERROR


def test_unsigned_int_indices():
    ctx = es1(4, 4)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, np.array([9, 9, -1, -1, 3, -1, -1, 3], np.float32).tobytes())
    ctx.glColor4f(0, 1, 0, 1)
    ctx.glDrawElements(E.GL_TRIANGLES, 3, E.GL_UNSIGNED_INT, np.array([1, 2, 3], np.uint32).tobytes())
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (ctx.read_pixels()[..., 1] == 255).all()


@pytest.mark.parametrize("name, args", [("glDrawTexiOES", (0, 0, 0, 1, 1)),
                                        ("glPointSizePointerOES", (E.GL_FLOAT, 0, bytes(4))),
                                        ("glGenFramebuffersOES", (1,)),
                                        ("glBlendEquationOES", (E.GL_FUNC_ADD,))])
def test_es1_extension_commands_elsewhere_are_invalid_operation(name, args):
    for api in ("compat", "gles2"):
        ctx = driver.Context(api=api, width=4, height=4)
        assert getattr(ctx, name)(*args) is None
        assert ctx.glGetError() == E.GL_INVALID_OPERATION


@pytest.mark.parametrize("api", ["gles1", "compat"])
def test_read_format(api):
    """OES_read_format (ES 1.1 and, as in Mesa, the compatibility profile):
    the implementation's format/type pair reads the colour buffer."""
    ctx = driver.Context(api=api, width=4, height=4)
    fmt = ctx.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_FORMAT)[0]
    typ = ctx.glGetIntegerv(E.GL_IMPLEMENTATION_COLOR_READ_TYPE)[0]
    assert (fmt, typ) == (E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    ctx.glClearColor(0.0, 1.0, 0.0, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    assert bytes(ctx.glReadPixels(1, 1, 1, 1, fmt, typ)) == bytes([0, 255, 0, 255])
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert "GL_OES_read_format" in ctx.glGetString(E.GL_EXTENSIONS).split()


def test_mapbuffer():
    """OES_mapbuffer in ES 1.1: positions written through glMapBufferOES draw
    a quad over the whole window."""
    ctx = es1(4, 4)
    buf = ctx.glGenBuffers(1)[0]
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, buf)
    ctx.glBufferData(E.GL_ARRAY_BUFFER, 32, None, E.GL_STATIC_DRAW)
    mapped = ctx.glMapBufferOES(E.GL_ARRAY_BUFFER, E.GL_WRITE_ONLY)
    assert ctx.glGetError() == E.GL_NO_ERROR and len(mapped) == 32
    mapped[:] = np.array([-1, -1, 1, -1, -1, 1, 1, 1], np.float32).tobytes()
    assert ctx.glUnmapBufferOES(E.GL_ARRAY_BUFFER)
    ctx.glEnableClientState(E.GL_VERTEX_ARRAY)
    ctx.glVertexPointer(2, E.GL_FLOAT, 0, 0)
    ctx.glColor4f(1, 0, 1, 1)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert (ctx.read_pixels()[..., :3] == [255, 0, 255]).all()


def test_packed_depth_stencil():
    """OES_packed_depth_stencil in ES 1.1: one DEPTH24_STENCIL8_OES
    renderbuffer as depth and stencil attachment of an OES framebuffer; a
    stencil-masked quad then draws only where the stencil was set."""
    ctx = es1(8, 8)
    fbo = ctx.glGenFramebuffersOES(1)[0]
    color, ds = ctx.glGenRenderbuffersOES(2)
    ctx.glBindFramebufferOES(E.GL_FRAMEBUFFER, fbo)
    ctx.glBindRenderbufferOES(E.GL_RENDERBUFFER, color)
    ctx.glRenderbufferStorageOES(E.GL_RENDERBUFFER, E.GL_RGBA8, 8, 8)
    ctx.glFramebufferRenderbufferOES(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, color)
    ctx.glBindRenderbufferOES(E.GL_RENDERBUFFER, ds)
    ctx.glRenderbufferStorageOES(E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8, 8, 8)
    for attachment in (E.GL_DEPTH_ATTACHMENT, E.GL_STENCIL_ATTACHMENT):
        ctx.glFramebufferRenderbufferOES(E.GL_FRAMEBUFFER, attachment, E.GL_RENDERBUFFER, ds)
    assert ctx.glCheckFramebufferStatusOES(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    ortho_window(ctx, 8, 8)
    ctx.glClearStencil(0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT | E.GL_DEPTH_BUFFER_BIT)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilFunc(E.GL_ALWAYS, 1, 0xFF)
    ctx.glStencilOp(E.GL_KEEP, E.GL_KEEP, E.GL_REPLACE)
    ctx.glColorMask(False, False, False, False)
    quad(ctx, 0, 0, 4, 8)                               # stencil 1 on the left half
    ctx.glColorMask(True, True, True, True)
    ctx.glStencilFunc(E.GL_EQUAL, 1, 0xFF)
    ctx.glColor4f(0, 0, 1, 1)
    quad(ctx, 0, 0, 8, 8)
    img = np.frombuffer(bytes(ctx.glReadPixels(0, 0, 8, 8, E.GL_RGBA, E.GL_UNSIGNED_BYTE)),
                        np.uint8).reshape(8, 8, 4)
    assert (img[:, :4, 2] == 255).all() and (img[:, 4:, 2] == 0).all()
    assert ctx.glGetError() == E.GL_NO_ERROR
