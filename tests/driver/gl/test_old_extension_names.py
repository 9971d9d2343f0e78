"""Old extension names of features shimgl has under their core names (session 13), each
tested for what its own specification says: its entry points, tokens and errors, in a
compatibility context, against hand-computed values."""

import numpy as np
import pytest

from driver.gl import enums as E

W = H = 8


@pytest.fixture
def ctx():
    import driver
    return driver.Context(api="compat", width=W, height=H)


def listed(c, name):
    return name in c.glGetString(E.GL_EXTENSIONS).split()


def no_error(c):
    assert c.glGetError() == E.GL_NO_ERROR, c.error_log[-3:]


def quad(c, z=0.0):
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex3f(x, y, z)
    c.glEnd()
    no_error(c)


def fbo_with(c, n):
    fbo = c.glGenFramebuffers(1)[0]
    c.glBindFramebuffer(E.GL_FRAMEBUFFER, fbo)
    for k, tex in enumerate(c.glGenTextures(n)):
        c.glBindTexture(E.GL_TEXTURE_2D, tex)
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, W, H, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
        c.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0 + k, E.GL_TEXTURE_2D, tex, 0)
    assert c.glCheckFramebufferStatus(E.GL_FRAMEBUFFER) == E.GL_FRAMEBUFFER_COMPLETE
    c.glDrawBuffers(n, [E.GL_COLOR_ATTACHMENT0 + k for k in range(n)])
    return fbo


def read(c, attachment=None, x=0, y=0, w=W, h=H):
    if attachment is not None:
        c.glReadBuffer(attachment)
    data = c.glReadPixels(x, y, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    return np.frombuffer(bytes(data), np.uint8).reshape(h, w, 4)


# -- GL_EXT_draw_buffers2 -------------------------------------------------------------------------
def test_ext_draw_buffers2_masks_and_blend_per_buffer(ctx):
    c = ctx
    assert listed(c, "GL_EXT_draw_buffers2")
    fbo_with(c, 2)
    c.glClearColor(0.5, 0.5, 0.5, 0.5)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glColorMaskIndexedEXT(1, True, False, True, False)
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [True, False, True, False]
    assert c.glGetIntegerIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [1, 0, 1, 0]
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 0) == [True] * 4
    c.glEnableIndexedEXT(E.GL_BLEND, 0)
    assert c.glIsEnabledIndexedEXT(E.GL_BLEND, 0) and not c.glIsEnabledIndexedEXT(E.GL_BLEND, 1)
    assert c.glIsEnabled(E.GL_BLEND)                 # IsEnabled(BLEND) answers for buffer 0
    c.glBlendFunc(E.GL_ONE, E.GL_ONE)
    c.glColor4f(0.25, 0.25, 0.25, 0.25)
    quad(c)
    # buffer 0 blends the stored 128/255 + 64/255 = 192; buffer 1 does not blend and writes
    # red and blue only (0.25 -> 64)
    assert (read(c, E.GL_COLOR_ATTACHMENT0) == [192, 192, 192, 192]).all()
    assert (read(c, E.GL_COLOR_ATTACHMENT1) == [64, 128, 64, 128]).all()
    c.glDisableIndexedEXT(E.GL_BLEND, 0)
    assert not c.glIsEnabledIndexedEXT(E.GL_BLEND, 0)
    # the non-indexed commands set every buffer
    c.glColorMask(False, True, False, True)
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 1) == [False, True, False, True]
    c.glEnable(E.GL_BLEND)
    assert c.glIsEnabledIndexedEXT(E.GL_BLEND, 1)
    no_error(c)


def test_ext_draw_buffers2_errors(ctx):
    c = ctx
    n = c.glGetIntegerv(E.GL_MAX_DRAW_BUFFERS)[0]
    c.glColorMaskIndexedEXT(n, False, False, False, False)
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, 0) == [True] * 4
    c.glEnableIndexedEXT(E.GL_BLEND, n)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glGetBooleanIndexedvEXT(E.GL_COLOR_WRITEMASK, n)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glEnableIndexedEXT(E.GL_DEPTH_TEST, 0)          # not an indexed capability
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert not c.glIsEnabled(E.GL_DEPTH_TEST)


def rgba_texture(c, target, w, h, texels, level=0):
    c.glTexImage2D(target, level, E.GL_RGBA8, w, h, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                   np.asarray(texels, np.uint8).tobytes())
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        c.glTexParameteri(target, p, E.GL_NEAREST)


RED, GREEN, BLUE, WHITE = (255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255), (255, 255, 255, 255)


def textured_quad(c, coords):
    """A window-filling quad with texture coordinates `coords` at its corners (bottom-left,
    bottom-right, top-right, top-left)."""
    c.glBegin(E.GL_QUADS)
    for (x, y), st in zip(((-1, -1), (1, -1), (1, 1), (-1, 1)), coords):
        c.glTexCoord2f(*st)
        c.glVertex2f(x, y)
    c.glEnd()
    no_error(c)


# -- GL_EXT_timer_query ---------------------------------------------------------------------------
def test_ext_timer_query_64bit_results(ctx):
    c = ctx
    assert listed(c, "GL_EXT_timer_query")
    assert c.glGetQueryiv(E.GL_TIME_ELAPSED, E.GL_QUERY_COUNTER_BITS)[0] >= 30   # the spec's minimum
    q = c.glGenQueries(1)[0]
    c.glBeginQuery(E.GL_TIME_ELAPSED, q)
    quad(c)
    c.glEndQuery(E.GL_TIME_ELAPSED)
    ns = c.glGetQueryObjectui64vEXT(q, E.GL_QUERY_RESULT)
    ns = ns[0] if isinstance(ns, (list, tuple)) else ns
    assert ns > 0
    signed = c.glGetQueryObjecti64vEXT(q, E.GL_QUERY_RESULT)
    assert (signed[0] if isinstance(signed, (list, tuple)) else signed) == ns
    no_error(c)


# -- GL_ARB_point_sprite --------------------------------------------------------------------------
def test_arb_point_sprite_replaces_texture_coordinates(ctx):
    c = ctx
    assert listed(c, "GL_ARB_point_sprite")
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    rgba_texture(c, E.GL_TEXTURE_2D, 2, 2, [RED, GREEN, BLUE, WHITE])   # rows t=0 then t=1
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    c.glPointSize(8)
    c.glTexCoord2f(0.0, 0.0)

    def point():
        c.glClear(E.GL_COLOR_BUFFER_BIT)
        c.glBegin(E.GL_POINTS)
        c.glVertex2f(0, 0)
        c.glEnd()
        no_error(c)
        return read(c)
    assert (point() == RED).all()                     # no sprite: the current coordinate (0, 0)
    c.glEnable(E.GL_POINT_SPRITE_ARB if hasattr(E, "GL_POINT_SPRITE_ARB") else E.GL_POINT_SPRITE)
    c.glTexEnvi(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE, E.GL_TRUE)
    assert c.glGetTexEnviv(E.GL_POINT_SPRITE, E.GL_COORD_REPLACE) == [E.GL_TRUE]
    img = point()                                     # rows bottom-up; the origin is the upper left
    assert (img[H - 1, 0] == RED).all() and (img[H - 1, W - 1] == GREEN).all()
    assert (img[0, 0] == BLUE).all() and (img[0, W - 1] == WHITE).all()


# -- GL_ARB_vertex_array_bgra ---------------------------------------------------------------------
def test_arb_vertex_array_bgra_generic_attribute(ctx):
    c = ctx
    assert listed(c, "GL_ARB_vertex_array_bgra")
    vs = c.glCreateShader(E.GL_VERTEX_SHADER)
    c.glShaderSource(vs, 1, ["attribute vec4 pos; attribute vec4 col; varying vec4 v;\n"
                             "void main() { v = col; gl_Position = pos; }\n"])
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["varying vec4 v; void main() { gl_FragColor = v; }\n"])
    prog = c.glCreateProgram()
    for s in (vs, fs):
        c.glCompileShader(s)
        c.glAttachShader(prog, s)
    c.glBindAttribLocation(prog, 0, "pos")
    c.glBindAttribLocation(prog, 1, "col")
    c.glLinkProgram(prog)
    assert c.glGetProgramiv(prog, E.GL_LINK_STATUS) == [1], c.glGetProgramInfoLog(prog)
    c.glUseProgram(prog)
    pos = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    bgra = np.array([[10, 20, 30, 255]] * 4, np.uint8)        # blue, green, red, alpha in memory
    buf = c.glGenBuffers(2)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf[0])
    c.glBufferData(E.GL_ARRAY_BUFFER, pos.nbytes, pos.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(0, 2, E.GL_FLOAT, False, 0, 0)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, buf[1])
    c.glBufferData(E.GL_ARRAY_BUFFER, bgra.nbytes, bgra.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexAttribPointer(1, E.GL_BGRA, E.GL_UNSIGNED_BYTE, True, 0, 0)
    assert c.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_SIZE) == [E.GL_BGRA]
    for i in (0, 1):
        c.glEnableVertexAttribArray(i)
    c.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 4)
    no_error(c)
    assert (read(c) == [30, 20, 10, 255]).all()
    # BGRA needs normalized unsigned bytes (or the packed 2_10_10_10 types): INVALID_OPERATION
    c.glVertexAttribPointer(1, E.GL_BGRA, E.GL_FLOAT, True, 0, 0)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glVertexAttribPointer(1, E.GL_BGRA, E.GL_UNSIGNED_BYTE, False, 0, 0)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetVertexAttribiv(1, E.GL_VERTEX_ATTRIB_ARRAY_NORMALIZED) == [1]


# -- GL_EXT_blend_minmax, GL_ATI_blend_equation_separate, GL_INGR_blend_func_separate -------------
def test_blend_names_min_max_and_separate(ctx):
    c = ctx
    for name in ("GL_EXT_blend_minmax", "GL_ATI_blend_equation_separate", "GL_INGR_blend_func_separate"):
        assert listed(c, name)
    c.glClearColor(0.5, 0.5, 0.5, 0.5)
    c.glEnable(E.GL_BLEND)
    c.glColor4f(0.25, 0.75, 0.25, 0.75)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBlendEquationEXT(E.GL_MIN)
    quad(c)
    assert (read(c) == [64, 128, 64, 128]).all()
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBlendEquationSeparateATI(E.GL_MAX, E.GL_MIN)       # colour MAX, alpha MIN
    assert c.glGetIntegerv(E.GL_BLEND_EQUATION_RGB) == [E.GL_MAX]
    assert c.glGetIntegerv(E.GL_BLEND_EQUATION_ALPHA) == [E.GL_MIN]
    quad(c)
    assert (read(c) == [128, 191, 128, 128]).all()
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBlendEquation(E.GL_FUNC_ADD)
    c.glBlendFuncSeparateINGR(E.GL_ZERO, E.GL_ONE, E.GL_ONE, E.GL_ZERO)   # keep colour, alpha = source
    assert c.glGetIntegerv(E.GL_BLEND_SRC_ALPHA) == [E.GL_ONE]
    quad(c)
    assert (read(c) == [128, 128, 128, 191]).all()


# -- GL_ATI_separate_stencil ----------------------------------------------------------------------
def test_ati_separate_stencil(ctx):
    c = ctx
    assert listed(c, "GL_ATI_separate_stencil")
    c.glStencilFuncSeparateATI(E.GL_LESS, E.GL_GREATER, 5, 0x0F)
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_LESS]
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_FUNC) == [E.GL_GREATER]
    for pname in (E.GL_STENCIL_REF, E.GL_STENCIL_BACK_REF):
        assert c.glGetIntegerv(pname) == [5]
    for pname in (E.GL_STENCIL_VALUE_MASK, E.GL_STENCIL_BACK_VALUE_MASK):
        assert c.glGetIntegerv(pname) == [0x0F]
    c.glStencilOpSeparateATI(E.GL_BACK, E.GL_INCR, E.GL_DECR, E.GL_INVERT)
    assert c.glGetIntegerv(E.GL_STENCIL_BACK_PASS_DEPTH_PASS) == [E.GL_INVERT]
    assert c.glGetIntegerv(E.GL_STENCIL_PASS_DEPTH_PASS) == [E.GL_KEEP]
    # a bad back function changes neither face
    c.glStencilFuncSeparateATI(E.GL_ALWAYS, E.GL_ZERO, 1, 1)
    assert c.glGetError() == E.GL_INVALID_ENUM
    assert c.glGetIntegerv(E.GL_STENCIL_FUNC) == [E.GL_LESS] and c.glGetIntegerv(E.GL_STENCIL_REF) == [5]
    # the back function tests back faces: front passes (LESS: 5 < 0xFF&0x0F), back fails (GREATER)
    c.glClearStencil(0xFF)
    c.glClear(E.GL_COLOR_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    c.glEnable(E.GL_STENCIL_TEST)
    c.glColor4f(1, 1, 1, 1)
    quad(c)
    assert (read(c) == WHITE).all()
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glFrontFace(E.GL_CW)                            # the same quad is now back-facing
    quad(c)
    assert (read(c) == [0, 0, 0, 0]).all()


# -- GL_EXT_compiled_vertex_array -----------------------------------------------------------------
def test_ext_compiled_vertex_array_lock_state(ctx):
    c = ctx
    assert listed(c, "GL_EXT_compiled_vertex_array")
    first, count = 0x81A8, 0x81A9
    assert c.glGetIntegerv(first) == [0] and c.glGetIntegerv(count) == [0]
    c.glLockArraysEXT(-1, 4)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glLockArraysEXT(0, 0)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glUnlockArraysEXT()
    assert c.glGetError() == E.GL_INVALID_OPERATION
    c.glLockArraysEXT(2, 6)
    assert c.glGetIntegerv(first) == [2] and c.glGetIntegerv(count) == [6]
    c.glLockArraysEXT(0, 1)
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetIntegerv(first) == [2]
    # drawing from locked arrays reads the arrays as they are
    verts = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]] * 3, np.float32)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, verts.tobytes())
    c.glColor4f(0, 1, 0, 1)
    c.glDrawArrays(E.GL_QUADS, 4, 4)
    no_error(c)
    assert (read(c) == GREEN).all()
    c.glUnlockArraysEXT()
    assert c.glGetIntegerv(count) == [0]
    no_error(c)


# -- GL_EXT_point_parameters ----------------------------------------------------------------------
def test_ext_point_parameters_minimum_size(ctx):
    c = ctx
    assert listed(c, "GL_EXT_point_parameters")
    c.glPointParameterfEXT(E.GL_POINT_SIZE_MIN, 4.0)
    c.glPointParameterfvEXT(E.GL_POINT_DISTANCE_ATTENUATION, [1.0, 0.0, 0.0])
    assert c.glGetFloatv(E.GL_POINT_SIZE_MIN) == [4.0]
    c.glPointSize(1.0)
    c.glBegin(E.GL_POINTS)
    c.glVertex2f(0, 0)
    c.glEnd()
    img = read(c)
    lit = np.argwhere(img[..., 0] > 0)
    # a point of size 1 clamped to 4: the 4x4 pixels around the window centre (4, 4)
    assert len(lit) == 16 and lit.min(0).tolist() == [2, 2] and lit.max(0).tolist() == [5, 5]


# -- GL_EXT_rescale_normal ------------------------------------------------------------------------
def test_ext_rescale_normal_undoes_a_uniform_scale(ctx):
    c = ctx
    assert listed(c, "GL_EXT_rescale_normal")
    c.glEnable(E.GL_LIGHTING)
    c.glEnable(E.GL_LIGHT0)
    c.glLightfv(E.GL_LIGHT0, E.GL_POSITION, [0, 0, 1, 0])
    c.glLightfv(E.GL_LIGHT0, E.GL_DIFFUSE, [0.25, 0.25, 0.25, 1])
    c.glLightModelfv(E.GL_LIGHT_MODEL_AMBIENT, [0, 0, 0, 1])
    c.glMaterialfv(E.GL_FRONT, E.GL_DIFFUSE, [1, 1, 1, 1])
    c.glMaterialfv(E.GL_FRONT, E.GL_AMBIENT, [0, 0, 0, 1])
    c.glScalef(0.5, 0.5, 0.5)              # normals grow to length 2 (inverse transpose)
    c.glNormal3f(0, 0, 1)

    def lit():
        c.glClear(E.GL_COLOR_BUFFER_BIT)
        quad(c)        # the quad is scaled to half the window: read its centre
        return read(c)[H // 2, W // 2, :3].tolist()
    assert lit() == [128, 128, 128]          # 0.25 x |n| = 0.5
    c.glEnable(E.GL_RESCALE_NORMAL)
    assert c.glIsEnabled(E.GL_RESCALE_NORMAL)
    assert lit() == [64, 64, 64]             # rescaled to length 1: 0.25


# -- GL_EXT_separate_specular_color ---------------------------------------------------------------
def test_ext_separate_specular_color_adds_after_texturing(ctx):
    c = ctx
    assert listed(c, "GL_EXT_separate_specular_color")
    c.glEnable(E.GL_LIGHTING)
    c.glEnable(E.GL_LIGHT0)
    c.glLightfv(E.GL_LIGHT0, E.GL_POSITION, [0, 0, 1, 0])
    c.glLightfv(E.GL_LIGHT0, E.GL_SPECULAR, [0.5, 0.5, 0.5, 1])
    c.glMaterialfv(E.GL_FRONT, E.GL_SPECULAR, [1, 1, 1, 1])
    c.glMaterialf(E.GL_FRONT, E.GL_SHININESS, 1.0)
    c.glNormal3f(0, 0, 1)
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    rgba_texture(c, E.GL_TEXTURE_2D, 1, 1, [(0, 0, 0, 255)])
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_MODULATE)
    quad(c)
    assert (read(c)[..., :3] == 0).all()               # single colour: specular modulated to black
    c.glLightModeli(E.GL_LIGHT_MODEL_COLOR_CONTROL, E.GL_SEPARATE_SPECULAR_COLOR)
    assert c.glGetIntegerv(E.GL_LIGHT_MODEL_COLOR_CONTROL) == [E.GL_SEPARATE_SPECULAR_COLOR]
    quad(c)
    # the half vector of a directional light straight at a viewer at infinity is (0, 0, 1): n.h = 1
    assert (read(c)[..., :3] == 128).all()


# -- GL_EXT_texture_lod_bias ----------------------------------------------------------------------
def test_ext_texture_lod_bias_selects_a_smaller_level(ctx):
    c = ctx
    assert listed(c, "GL_EXT_texture_lod_bias")
    assert c.glGetFloatv(E.GL_MAX_TEXTURE_LOD_BIAS)[0] >= 2.0     # the spec's minimum
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    for level, (size, color) in enumerate(((8, RED), (4, GREEN), (2, BLUE), (1, WHITE))):
        rgba_texture(c, E.GL_TEXTURE_2D, size, size, [color] * size * size, level)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST_MIPMAP_NEAREST)
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    corners = ((0, 0), (1, 0), (1, 1), (0, 1))
    textured_quad(c, corners)
    assert (read(c) == RED).all()                       # 8 texels on 8 pixels: level 0
    c.glTexEnvf(E.GL_TEXTURE_FILTER_CONTROL, E.GL_TEXTURE_LOD_BIAS, 2.0)
    assert c.glGetTexEnvfv(E.GL_TEXTURE_FILTER_CONTROL, E.GL_TEXTURE_LOD_BIAS) == [2.0]
    textured_quad(c, corners)
    assert (read(c) == BLUE).all()                      # lambda 0 + 2: level 2


# -- GL_EXT_texture_object ------------------------------------------------------------------------
def test_ext_texture_object_commands(ctx):
    c = ctx
    assert listed(c, "GL_EXT_texture_object")
    a, b = c.glGenTexturesEXT(2)
    assert a != b and not c.glIsTextureEXT(a)           # a name becomes a texture when bound
    c.glBindTextureEXT(E.GL_TEXTURE_2D, a)
    assert c.glIsTextureEXT(a) and c.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [a]
    c.glPrioritizeTexturesEXT(3, [a, 0, 999], [0.25, 0.5, 0.5])       # zero and non-textures ignored
    assert c.glGetTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_PRIORITY) == [0.25]
    c.glPrioritizeTexturesEXT(1, [a], [7.0])
    assert c.glGetTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_PRIORITY) == [1.0]  # clamped
    assert c.glAreTexturesResidentEXT(1, [a]) in (True, 1, [True], (True, [True]))
    c.glDeleteTexturesEXT(1, [a])
    assert not c.glIsTextureEXT(a) and c.glGetIntegerv(E.GL_TEXTURE_BINDING_2D) == [0]
    no_error(c)


# -- GL_EXT_texture_rectangle / GL_NV_texture_rectangle -------------------------------------------
def test_texture_rectangle_names_unnormalized_coordinates(ctx):
    c = ctx
    for name in ("GL_EXT_texture_rectangle", "GL_NV_texture_rectangle"):
        assert listed(c, name)
    assert c.glGetIntegerv(E.GL_MAX_RECTANGLE_TEXTURE_SIZE)[0] >= 1024
    c.glBindTexture(E.GL_TEXTURE_RECTANGLE, 1)
    rgba_texture(c, E.GL_TEXTURE_RECTANGLE, 2, 2, [RED, GREEN, BLUE, WHITE])
    c.glEnable(E.GL_TEXTURE_RECTANGLE)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    textured_quad(c, ((0, 0), (2, 0), (2, 2), (0, 2)))     # texel coordinates, not [0, 1]
    img = read(c)
    assert (img[:4, :4] == RED).all() and (img[:4, 4:] == GREEN).all()
    assert (img[4:, :4] == BLUE).all() and (img[4:, 4:] == WHITE).all()


# -- GL_IBM_texture_mirrored_repeat, GL_SGIS_texture_border_clamp ----------------------------------
def test_wrap_mode_names(ctx):
    c = ctx
    for name in ("GL_IBM_texture_mirrored_repeat", "GL_SGIS_texture_border_clamp"):
        assert listed(c, name)
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    rgba_texture(c, E.GL_TEXTURE_2D, 2, 1, [RED, GREEN])
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, 0x8370)    # MIRRORED_REPEAT_IBM
    textured_quad(c, ((0, 0.5), (2, 0.5), (2, 0.5), (0, 0.5)))         # s in [0, 2]: R G | G R
    row = read(c)[4]
    assert [tuple(p) for p in row[::2]] == [RED, GREEN, GREEN, RED]
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_WRAP_S, 0x812D)    # CLAMP_TO_BORDER_SGIS
    c.glTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_BORDER_COLOR, [0, 0, 1, 1])
    textured_quad(c, ((0, 0.5), (2, 0.5), (2, 0.5), (0, 0.5)))         # s past 1: the border
    row = read(c)[4]
    assert [tuple(p) for p in row[::2]] == [RED, GREEN, BLUE, BLUE]
    no_error(c)


# -- GL_MESA_window_pos ---------------------------------------------------------------------------
def test_mesa_window_pos_sets_w(ctx):
    c = ctx
    assert listed(c, "GL_MESA_window_pos")
    c.glWindowPos4fMESA(3, 2, 0.5, 4.0)
    assert c.glGetFloatv(E.GL_CURRENT_RASTER_POSITION) == [3.0, 2.0, 0.5, 4.0]
    assert c.glGetBooleanv(E.GL_CURRENT_RASTER_POSITION_VALID) == [True]
    c.glWindowPos4ivMESA([1, 5, 1, 2])
    assert c.glGetFloatv(E.GL_CURRENT_RASTER_POSITION) == [1.0, 5.0, 1.0, 2.0]
    c.glWindowPos2iMESA(6, 7)                            # the alias of glWindowPos2i: w = 1
    assert c.glGetFloatv(E.GL_CURRENT_RASTER_POSITION) == [6.0, 7.0, 0.0, 1.0]
    c.glDrawPixels(1, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(GREEN))
    assert (read(c)[7, 6] == GREEN).all() and (read(c)[6, 6] == 0).all()
    no_error(c)


# -- GL_NV_depth_clamp ----------------------------------------------------------------------------
def test_nv_depth_clamp(ctx):
    c = ctx
    assert listed(c, "GL_NV_depth_clamp")
    c.glColor4f(1, 1, 1, 1)
    quad(c, z=-2.0)                                     # in front of the near plane: clipped
    assert (read(c) == 0).all()
    c.glEnable(0x864F)                                  # DEPTH_CLAMP_NV
    assert c.glIsEnabled(0x864F)
    quad(c, z=-2.0)
    assert (read(c) == WHITE).all()


# -- GL_NV_light_max_exponent ---------------------------------------------------------------------
def test_nv_light_max_exponent_limits(ctx):
    c = ctx
    assert listed(c, "GL_NV_light_max_exponent")
    max_shininess, max_spot = c.glGetFloatv(0x8504)[0], c.glGetFloatv(0x8505)[0]
    assert max_shininess >= 128 and max_spot >= 128
    c.glMaterialf(E.GL_FRONT, E.GL_SHININESS, max_shininess)
    c.glLightf(E.GL_LIGHT0, E.GL_SPOT_EXPONENT, max_spot)
    no_error(c)
    c.glMaterialf(E.GL_FRONT, E.GL_SHININESS, max_shininess + 1)
    c.glLightf(E.GL_LIGHT0, E.GL_SPOT_EXPONENT, max_spot + 1)
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetLightfv(E.GL_LIGHT0, E.GL_SPOT_EXPONENT) == [max_spot]


# -- GL_NV_texgen_reflection ----------------------------------------------------------------------
def test_nv_texgen_reflection_normal_map(ctx):
    c = ctx
    assert listed(c, "GL_NV_texgen_reflection")
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    rgba_texture(c, E.GL_TEXTURE_2D, 2, 2, [RED, GREEN, BLUE, WHITE])
    for p in (E.GL_TEXTURE_WRAP_S, E.GL_TEXTURE_WRAP_T):
        c.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_CLAMP_TO_EDGE)
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_REPLACE)
    for coord, cap in ((E.GL_S, E.GL_TEXTURE_GEN_S), (E.GL_T, E.GL_TEXTURE_GEN_T)):
        c.glTexGeni(coord, E.GL_TEXTURE_GEN_MODE, 0x8511)   # NORMAL_MAP_NV: (s, t) = eye normal
        c.glEnable(cap)
    assert c.glGetTexGeniv(E.GL_S, E.GL_TEXTURE_GEN_MODE) == [0x8511]
    for normal, color in (((1, 0, 0), GREEN), ((0, 1, 0), BLUE), ((1, 1, 0), WHITE)):
        c.glNormal3f(*normal)
        quad(c)
        assert (read(c) == color).all(), normal


# -- GL_NV_texture_barrier ------------------------------------------------------------------------
def test_nv_texture_barrier_feedback(ctx):
    c = ctx
    assert listed(c, "GL_NV_texture_barrier")
    fbo = fbo_with(c, 1)
    tex = c.glGetFramebufferAttachmentParameteriv(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0,
                                                  E.GL_FRAMEBUFFER_ATTACHMENT_OBJECT_NAME)
    tex = tex[0] if isinstance(tex, (list, tuple)) else tex
    assert fbo
    c.glClearColor(0.25, 0.25, 0.25, 0.25)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glBindTexture(E.GL_TEXTURE_2D, tex)
    c.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_FILTER, E.GL_NEAREST)
    c.glEnable(E.GL_TEXTURE_2D)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_ADD)    # colour + the texel below it
    c.glColor4f(0.25, 0.25, 0.25, 0.25)
    c.glTextureBarrierNV()                               # the clear is a write too
    textured_quad(c, ((0, 0), (1, 0), (1, 1), (0, 1)))
    c.glTextureBarrierNV()
    textured_quad(c, ((0, 0), (1, 0), (1, 1), (0, 1)))   # reads what the first draw wrote
    # ADD adds the colours and multiplies the alphas: 64 -> 128 -> 192; 0.25 x 0.25 -> 16,
    # then 0.25 x 16/255 -> 4
    assert (read(c, E.GL_COLOR_ATTACHMENT0) == [192, 192, 192, 4]).all()


# -- GL_SUN_multi_draw_arrays, GL_AMD_multi_draw_indirect ------------------------------------------
def test_multi_draw_names(ctx):
    c = ctx
    for name in ("GL_SUN_multi_draw_arrays", "GL_AMD_multi_draw_indirect"):
        assert listed(c, name)
    # two quads: the left and the right half of the window
    verts = np.array([[-1, -1], [0, -1], [0, 1], [-1, 1], [0, -1], [1, -1], [1, 1], [0, 1]], np.float32)
    c.glEnableClientState(E.GL_VERTEX_ARRAY)
    c.glVertexPointer(2, E.GL_FLOAT, 0, verts.tobytes())
    c.glColor4f(0, 1, 0, 1)
    c.glMultiDrawArraysEXT(E.GL_TRIANGLE_FAN, [4], [4], 1)         # the right half only
    img = read(c)
    assert (img[:, 4:] == GREEN).all() and (img[:, :4] == 0).all()
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    vbo, ibo = c.glGenBuffers(2)
    c.glBindBuffer(E.GL_ARRAY_BUFFER, vbo)
    c.glBufferData(E.GL_ARRAY_BUFFER, verts.nbytes, verts.tobytes(), E.GL_STATIC_DRAW)
    c.glVertexPointer(2, E.GL_FLOAT, 0, 0)
    cmds = np.array([[4, 1, 0, 0], [4, 1, 4, 0]], np.uint32)        # count, instances, first, base
    c.glBindBuffer(E.GL_DRAW_INDIRECT_BUFFER, ibo)
    c.glBufferData(E.GL_DRAW_INDIRECT_BUFFER, cmds.nbytes, cmds.tobytes(), E.GL_STATIC_DRAW)
    c.glMultiDrawArraysIndirectAMD(E.GL_TRIANGLE_FAN, 0, 2, 0)
    no_error(c)
    assert (read(c) == GREEN).all()


# -- GL_AMD_draw_buffers_blend --------------------------------------------------------------------
def test_amd_draw_buffers_blend(ctx):
    c = ctx
    assert listed(c, "GL_AMD_draw_buffers_blend")
    fbo_with(c, 2)
    c.glClearColor(0.5, 0.5, 0.5, 0.5)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    c.glEnable(E.GL_BLEND)
    c.glBlendFuncIndexedAMD(0, E.GL_ONE, E.GL_ONE)
    c.glBlendFuncIndexedAMD(1, E.GL_ZERO, E.GL_ONE)
    c.glBlendEquationIndexedAMD(1, E.GL_MIN)
    assert c.glGetIntegeri_v(E.GL_BLEND_EQUATION_RGB, 1) == [E.GL_MIN]
    assert c.glGetIntegeri_v(E.GL_BLEND_SRC_RGB, 0) == [E.GL_ONE]
    c.glColor4f(0.25, 0.25, 0.25, 0.25)
    quad(c)
    assert (read(c, E.GL_COLOR_ATTACHMENT0) == 192).all()     # 128 + 64
    assert (read(c, E.GL_COLOR_ATTACHMENT1) == 64).all()      # min(128, 64): factors do not apply


# -- GL_AMD_query_buffer_object -------------------------------------------------------------------
def test_amd_query_buffer_object(ctx):
    c = ctx
    assert listed(c, "GL_AMD_query_buffer_object")
    q = c.glGenQueries(1)[0]
    c.glBeginQuery(E.GL_SAMPLES_PASSED, q)
    quad(c)
    c.glEndQuery(E.GL_SAMPLES_PASSED)
    buf = c.glGenBuffers(1)[0]
    c.glBindBuffer(0x9192, buf)                                # QUERY_BUFFER_AMD
    c.glBufferData(0x9192, 8, bytes(8), E.GL_STATIC_DRAW)
    assert c.glGetIntegerv(0x9193) == [buf]                    # QUERY_BUFFER_BINDING_AMD
    c.glGetQueryObjectuiv(q, E.GL_QUERY_RESULT, 4)            # into the buffer at offset 4
    data = np.frombuffer(bytes(c.glGetBufferSubData(0x9192, 0, 8)), np.uint32)
    assert data.tolist() == [0, W * H]
    no_error(c)


# -- GL_APPLE_packed_pixels -----------------------------------------------------------------------
def test_apple_packed_pixels(ctx):
    c = ctx
    assert listed(c, "GL_APPLE_packed_pixels")
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    texel = np.array([(31 << 11) | (0 << 5) | 16], np.uint16)     # 5_6_5: red full, blue half
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGB8, 1, 1, 0, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, texel.tobytes())
    out = c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)
    assert list(bytes(out)) == [255, 0, round(16 * 255 / 31), 255]


# -- GL_ARB_shader_objects, GL_ARB_vertex_shader, GL_ARB_fragment_shader ---------------------------
PROGRAM_OBJECT_ARB, SHADER_OBJECT_ARB, OBJECT_TYPE_ARB, OBJECT_SUBTYPE_ARB = 0x8B40, 0x8B48, 0x8B4E, 0x8B4F


def test_arb_shader_objects_handles_draw(ctx):
    c = ctx
    for name in ("GL_ARB_shader_objects", "GL_ARB_vertex_shader", "GL_ARB_fragment_shader",
                 "GL_ARB_shading_language_100"):
        assert listed(c, name)
    vs = c.glCreateShaderObjectARB(E.GL_VERTEX_SHADER)
    fs = c.glCreateShaderObjectARB(E.GL_FRAGMENT_SHADER)
    c.glShaderSourceARB(vs, 1, ["attribute vec4 pos; void main() { gl_Position = pos; }\n"], None)
    c.glShaderSourceARB(fs, 1, ["uniform vec4 color; void main() { gl_FragColor = color; }\n"], None)
    for s in (vs, fs):
        c.glCompileShaderARB(s)
        assert c.glGetObjectParameterivARB(s, E.GL_COMPILE_STATUS) == [1], c.glGetInfoLogARB(s)
    assert c.glGetObjectParameterivARB(vs, OBJECT_TYPE_ARB) == [SHADER_OBJECT_ARB]
    assert c.glGetObjectParameterivARB(fs, OBJECT_SUBTYPE_ARB) == [E.GL_FRAGMENT_SHADER]
    assert c.glGetObjectParameterfvARB(fs, OBJECT_SUBTYPE_ARB) == [float(E.GL_FRAGMENT_SHADER)]
    prog = c.glCreateProgramObjectARB()
    assert c.glGetObjectParameterivARB(prog, OBJECT_TYPE_ARB) == [PROGRAM_OBJECT_ARB]
    c.glAttachObjectARB(prog, vs)
    c.glAttachObjectARB(prog, fs)
    assert sorted(c.glGetAttachedObjectsARB(prog, 8)) == sorted([vs, fs])
    assert c.glGetAttachedObjectsARB(prog, 1) in ([vs], [fs])
    c.glBindAttribLocationARB(prog, 0, "pos")
    c.glLinkProgramARB(prog)
    assert c.glGetObjectParameterivARB(prog, E.GL_LINK_STATUS) == [1], c.glGetInfoLogARB(prog)
    assert c.glGetObjectParameterivARB(prog, E.GL_ATTACHED_SHADERS) == [2]
    assert c.glGetHandleARB(PROGRAM_OBJECT_ARB) == 0
    c.glUseProgramObjectARB(prog)
    assert c.glGetHandleARB(PROGRAM_OBJECT_ARB) == prog
    loc = c.glGetUniformLocationARB(prog, "color")
    c.glUniform4fARB(loc, 0.0, 1.0, 0.0, 1.0)
    assert c.glGetUniformfvARB(prog, loc)[:4] == [0.0, 1.0, 0.0, 1.0]
    pos = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]], np.float32)
    c.glVertexAttribPointerARB(0, 2, E.GL_FLOAT, False, 0, pos.tobytes())
    c.glEnableVertexAttribArrayARB(0)
    c.glDrawArrays(E.GL_TRIANGLE_FAN, 0, 4)
    no_error(c)
    assert (read(c) == GREEN).all()
    # deleting either kind through the one command; a program in use is deleted when unused
    c.glDeleteObjectARB(vs)
    assert c.glGetObjectParameterivARB(vs, E.GL_DELETE_STATUS) == [1]       # still attached
    c.glDeleteObjectARB(prog)
    assert c.glGetObjectParameterivARB(prog, E.GL_DELETE_STATUS) == [1]     # still in use
    c.glUseProgramObjectARB(0)
    assert not c.glIsProgram(prog) and not c.glIsShader(vs)                 # both gone now
    c.glDeleteObjectARB(0)
    c.glDeleteObjectARB(12345)                                              # ignored, no error
    no_error(c)


def test_arb_shader_objects_errors(ctx):
    c = ctx
    sh = c.glCreateShaderObjectARB(E.GL_VERTEX_SHADER)
    c.glShaderSourceARB(sh, 1, ["void main() { gl_Position = vec4(0.0) }\n"], None)   # no ';'
    c.glCompileShaderARB(sh)
    assert c.glGetObjectParameterivARB(sh, E.GL_COMPILE_STATUS) == [0]
    log = c.glGetInfoLogARB(sh)
    assert "error" in log and c.glGetObjectParameterivARB(sh, E.GL_INFO_LOG_LENGTH) == [len(log) + 1]
    no_error(c)
    c.glGetObjectParameterivARB(999, OBJECT_TYPE_ARB)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glGetInfoLogARB(999)
    assert c.glGetError() == E.GL_INVALID_VALUE
    c.glGetHandleARB(E.GL_CURRENT_PROGRAM)
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glGetObjectParameterivARB(sh, E.GL_LINK_STATUS)           # a program's name on a shader
    assert c.glGetError() == E.GL_INVALID_ENUM
    prog = c.glCreateProgramObjectARB()
    c.glGetObjectParameterivARB(prog, OBJECT_SUBTYPE_ARB)
    assert c.glGetError() == E.GL_INVALID_ENUM
    c.glGetAttachedObjectsARB(sh, 4)                           # a shader is no container
    assert c.glGetError() == E.GL_INVALID_OPERATION
    assert c.glGetIntegerv(E.GL_FRAGMENT_SHADER_DERIVATIVE_HINT) == [E.GL_DONT_CARE]
    assert c.glGetString(E.GL_SHADING_LANGUAGE_VERSION)


# -- GL_ATI_texture_compression_3dc ---------------------------------------------------------------
def test_ati_texture_compression_3dc_blocks(ctx):
    c = ctx
    assert listed(c, "GL_ATI_texture_compression_3dc")
    fmt = 0x8837                                       # COMPRESSED_LUMINANCE_ALPHA_3DC_ATI
    # two BC4 blocks: luminance (endpoints 255, 0; every index 0 -> 255), then alpha
    # (endpoints 10, 99; every 3-bit index 1 -> the second endpoint, 99)
    block = bytes([255, 0, 0, 0, 0, 0, 0, 0]) + bytes([10, 99, 0x49, 0x92, 0x24, 0x49, 0x92, 0x24])
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    c.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 4, 4, 0, len(block), block)
    no_error(c)
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_COMPRESSED_IMAGE_SIZE) == [16]
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [fmt]
    la = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE)),
                       np.uint8).reshape(16, 2)
    assert (la == [255, 99]).all()
    assert bytes(c.glGetCompressedTexImage(E.GL_TEXTURE_2D, 0)) == block
    # uncompressed data is compressed on upload: two flat halves survive exactly
    img = np.zeros((8, 8, 4), np.uint8)
    img[..., 0], img[..., 3], img[:, 4:, 0] = 200, 50, 20
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 8, 8, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, img.tobytes())
    la = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_LUMINANCE_ALPHA, E.GL_UNSIGNED_BYTE)),
                       np.uint8).reshape(8, 8, 2)
    assert (la[:, :4] == [200, 50]).all() and (la[:, 4:] == [20, 50]).all()
    no_error(c)


# -- GL_EXT_texture_buffer_object -----------------------------------------------------------------
def test_ext_texture_buffer_object_with_gpu_shader4(ctx):
    c = ctx
    assert listed(c, "GL_EXT_texture_buffer_object")
    data = np.array([[0, 0, 0, 0], [10, 200, 30, 255]], np.uint8)
    buf, tex = c.glGenBuffers(1)[0], c.glGenTextures(1)[0]
    c.glBindBuffer(E.GL_TEXTURE_BUFFER, buf)
    c.glBufferData(E.GL_TEXTURE_BUFFER, data.nbytes, data.tobytes(), E.GL_STATIC_DRAW)
    c.glBindTexture(E.GL_TEXTURE_BUFFER, tex)
    c.glTexBufferEXT(E.GL_TEXTURE_BUFFER, E.GL_RGBA8, buf)
    assert c.glGetIntegerv(E.GL_TEXTURE_BUFFER_DATA_STORE_BINDING) == [buf]
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["#version 120\n#extension GL_EXT_gpu_shader4 : require\n"
                             "uniform samplerBuffer s;\n"
                             "void main() { gl_FragColor = texelFetchBuffer(s, 1); }\n"], None)
    c.glCompileShader(fs)
    assert c.glGetShaderiv(fs, E.GL_COMPILE_STATUS) == [1], c.glGetShaderInfoLog(fs)
    prog = c.glCreateProgram()
    c.glAttachShader(prog, fs)
    c.glLinkProgram(prog)
    c.glUseProgram(prog)
    quad(c)
    assert (read(c) == [10, 200, 30, 255]).all()


# -- texture environments: GL_EXT_texture, GL_EXT_texture_env_dot3, GL_ATI_texture_env_combine3,
# -- GL_NV_texture_env_combine4 --------------------------------------------------------------------
def _env_draw(c, texel, color=(1.0, 1.0, 1.0, 1.0), env_color=None):
    """A quad textured with one texel under the current unit-0 environment: its pixel."""
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    rgba_texture(c, E.GL_TEXTURE_2D, 1, 1, [texel])
    c.glEnable(E.GL_TEXTURE_2D)
    if env_color is not None:
        c.glTexEnvfv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_COLOR, list(env_color))
    c.glColor4f(*color)
    c.glClear(E.GL_COLOR_BUFFER_BIT)
    textured_quad(c, ((0, 0), (1, 0), (1, 1), (0, 1)))
    return read(c)[4, 4].tolist()


def test_ext_texture_formats_proxy_and_replace(ctx):
    c = ctx
    assert listed(c, "GL_EXT_texture")
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    for fmt in (0x804E, E.GL_ALPHA4, E.GL_LUMINANCE12_ALPHA4, E.GL_INTENSITY16, E.GL_RGB5_A1):   # RGB2_EXT first
        c.glTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))
        no_error(c)
        assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_INTERNAL_FORMAT) == [fmt]
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_ALPHA_SIZE)[0] >= 1
    big = c.glGetIntegerv(E.GL_MAX_TEXTURE_SIZE)[0] * 2
    c.glTexImage2D(E.GL_PROXY_TEXTURE_2D, 0, E.GL_ALPHA4, big, 4, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, None)
    assert c.glGetTexLevelParameteriv(E.GL_PROXY_TEXTURE_2D, 0, E.GL_TEXTURE_WIDTH) == [0]    # too large
    no_error(c)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, 0x8062)             # REPLACE_EXT
    assert c.glGetTexEnviv(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE) == [E.GL_REPLACE]
    assert _env_draw(c, (10, 20, 30, 40), color=(1, 0, 0, 1)) == [10, 20, 30, 40]


def test_ext_texture_env_dot3_ignores_the_scale(ctx):
    c = ctx
    assert listed(c, "GL_EXT_texture_env_dot3")
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_COMBINE)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, 0x8740)                  # DOT3_RGB_EXT
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_SOURCE1_RGB, E.GL_CONSTANT)
    c.glTexEnvf(E.GL_TEXTURE_ENV, E.GL_RGB_SCALE, 2.0)
    # 4 ((t - 0.5) . (k - 0.5)) with t = (0.75, 0.5, 0.5) and k = (0.625, 0.5, 0.5): 4 x 0.25 x 0.125
    # = 0.125 (32 of 255); the ARB function would double it (64)
    t, k = (191, 128, 128, 255), (0.625, 0.5, 0.5, 1.0)
    ext = _env_draw(c, t, env_color=k)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, E.GL_DOT3_RGB)
    arb = _env_draw(c, t, env_color=k)
    assert ext[:3] == [32, 32, 32] and arb[:3] == [64, 64, 64], (ext, arb)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_ALPHA, 0x8740)               # not an alpha function
    assert c.glGetError() == E.GL_INVALID_ENUM


def test_ati_texture_env_combine3_functions(ctx):
    c = ctx
    assert listed(c, "GL_ATI_texture_env_combine3")
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, E.GL_COMBINE)
    # arguments: texture (0.5), primary colour (0.25), constant (0.5)
    for pname, src in ((E.GL_SOURCE0_RGB, E.GL_TEXTURE), (E.GL_SOURCE1_RGB, E.GL_PRIMARY_COLOR),
                       (E.GL_SOURCE2_RGB, E.GL_CONSTANT), (E.GL_SOURCE0_ALPHA, E.GL_TEXTURE),
                       (E.GL_SOURCE1_ALPHA, E.GL_ONE), (E.GL_SOURCE2_ALPHA, E.GL_ZERO)):
        c.glTexEnvi(E.GL_TEXTURE_ENV, pname, src)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_OPERAND2_RGB, E.GL_SRC_COLOR)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_OPERAND1_ALPHA, E.GL_SRC_ALPHA)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_OPERAND2_ALPHA, E.GL_ONE_MINUS_SRC_ALPHA)
    t, col, k = (128, 128, 128, 64), (0.25, 0.25, 0.25, 1.0), (0.5, 0.5, 0.5, 1.0)
    expect = {0x8744: 0.5 * 0.5 + 0.25, 0x8745: 0.5 * 0.5 + 0.25 - 0.5 + 0.5, 0x8746: 0.5 * 0.5 - 0.25}
    for fn, rgb in ((0x8744, 128), (0x8745, 0), (0x8746, 0)):
        c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, fn)
        c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_ALPHA, 0x8744)     # a0 a2 + a1 = t.a x 1 + 1: 1
        px = _env_draw(c, t, color=col, env_color=k)
        assert abs(px[0] - rgb) <= 1 and px[3] == 255, (hex(fn), px, expect[fn])


def test_nv_texture_env_combine4_sums_two_products(ctx):
    c = ctx
    assert listed(c, "GL_NV_texture_env_combine4")
    assert c.glGetTexEnviv(E.GL_TEXTURE_ENV, 0x8583) == [E.GL_ZERO]                # SOURCE3_RGB_NV
    assert c.glGetTexEnviv(E.GL_TEXTURE_ENV, 0x8593) == [E.GL_ONE_MINUS_SRC_COLOR]  # OPERAND3_RGB_NV
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_TEXTURE_ENV_MODE, 0x8503)                    # COMBINE4_NV
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, E.GL_ADD)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_ALPHA, E.GL_ADD)
    # texture x primary + constant x (1 - ZERO): 0.5 x 0.5 + 0.25 = 0.5
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_SOURCE0_RGB, E.GL_TEXTURE)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_SOURCE1_RGB, E.GL_PRIMARY_COLOR)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_SOURCE2_RGB, E.GL_CONSTANT)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_OPERAND2_RGB, E.GL_SRC_COLOR)
    px = _env_draw(c, (128, 128, 128, 255), color=(0.5, 0.5, 0.5, 1.0), env_color=(0.25, 0.25, 0.25, 1.0))
    assert abs(px[0] - 128) <= 1, px
    c.glTexEnvi(E.GL_TEXTURE_ENV, 0x8583, E.GL_TEXTURE)          # the fourth argument: the texture (0.5)
    c.glTexEnvi(E.GL_TEXTURE_ENV, 0x8593, E.GL_SRC_COLOR)
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, E.GL_ADD_SIGNED)   # 0.25 + 0.125 - 0.5 < 0: 0
    px = _env_draw(c, (128, 128, 128, 255), color=(0.5, 0.5, 0.5, 1.0), env_color=(0.25, 0.25, 0.25, 1.0))
    assert px[0] == 0, px
    c.glTexEnvi(E.GL_TEXTURE_ENV, E.GL_COMBINE_RGB, E.GL_ADD)           # 0.25 + 0.125 = 0.375
    px = _env_draw(c, (128, 128, 128, 255), color=(0.5, 0.5, 0.5, 1.0), env_color=(0.25, 0.25, 0.25, 1.0))
    assert abs(px[0] - 96) <= 1, px
    c.glTexEnvi(E.GL_TEXTURE_ENV, 0x8583, E.GL_ONE)              # ONE is ATI's source, ZERO both's
    assert c.glGetError() == E.GL_NO_ERROR                        # (ATI_texture_env_combine3 is listed)


def test_respecified_image_drops_unwritten_uploads(ctx):
    """A level defined again (smaller, another format) before it is sampled: the first
    image's upload, not yet written, is dropped rather than written into the new 1x1
    image (the draw failed with an internal error 'region 0,0 2x2 is outside level 0
    (1x1)' before: driver/gl/textures.py)."""
    c = ctx
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGB5_A1, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, bytes(16))
    assert _env_draw(c, (10, 20, 30, 255)) == [10, 20, 30, 255]


# -- GL_AMD_seamless_cubemap_per_texture, GL_ARB_seamless_cubemap_per_texture ---------------------
def _cube_edge_sample(c, setup):
    """A cube map whose +X face is red and other faces blue, filtered linearly, read at a
    direction just inside +X next to its edge with +Z: the pixel."""
    c.glBindTexture(E.GL_TEXTURE_CUBE_MAP, 1)
    for face in range(6):
        color = RED if face == 0 else BLUE
        c.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + face, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA,
                       E.GL_UNSIGNED_BYTE, bytes(color) * 4)
    for p, v in ((E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR), (E.GL_TEXTURE_MAG_FILTER, E.GL_LINEAR),
                 (E.GL_TEXTURE_WRAP_S, E.GL_CLAMP_TO_EDGE), (E.GL_TEXTURE_WRAP_T, E.GL_CLAMP_TO_EDGE)):
        c.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, p, v)
    setup()
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["uniform samplerCube s;\n"
                             "void main() { gl_FragColor = textureCube(s, vec3(1.0, 0.0, 0.98)); }\n"], None)
    c.glCompileShader(fs)
    prog = c.glCreateProgram()
    c.glAttachShader(prog, fs)
    c.glLinkProgram(prog)
    c.glUseProgram(prog)
    quad(c)
    return read(c)[4, 4].tolist()


def test_seamless_cubemap_per_texture(ctx):
    c = ctx
    for name in ("GL_AMD_seamless_cubemap_per_texture", "GL_ARB_seamless_cubemap_per_texture"):
        assert listed(c, name)
    assert _cube_edge_sample(c, lambda: None) == list(RED)          # clamped inside +X
    assert c.glGetTexParameteriv(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_SEAMLESS) == [0]
    on = _cube_edge_sample(c, lambda: c.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_SEAMLESS,
                                                        E.GL_TRUE))
    # s = 0.01 on +X: the filter's left column is the +Z face's, weight 0.49 (blue)
    assert abs(on[0] - 255 * 0.51) <= 3 and abs(on[2] - 255 * 0.49) <= 3, on
    assert not c.glIsEnabled(E.GL_TEXTURE_CUBE_MAP_SEAMLESS)          # the global switch stays off
    c.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, E.GL_TEXTURE_CUBE_MAP_SEAMLESS, 7)
    assert c.glGetError() == E.GL_INVALID_ENUM
    # ARB: the sampler parameter too (a sampler's state replaces the texture's)
    s = c.glGenSamplers(1)[0]
    assert c.glGetSamplerParameteriv(s, E.GL_TEXTURE_CUBE_MAP_SEAMLESS) == [0]
    c.glSamplerParameteri(s, E.GL_TEXTURE_MIN_FILTER, E.GL_LINEAR)
    c.glBindSampler(0, s)
    assert _cube_edge_sample(c, lambda: None) == list(RED)
    c.glSamplerParameteri(s, E.GL_TEXTURE_CUBE_MAP_SEAMLESS, E.GL_TRUE)
    assert c.glGetSamplerParameteriv(s, E.GL_TEXTURE_CUBE_MAP_SEAMLESS) == [1]
    assert _cube_edge_sample(c, lambda: None) == on


# -- GL_EXT_texture_compression_dxt1, GL_ANGLE_texture_compression_dxt3/dxt5 -----------------------
def test_dxt_names_decode_hand_built_blocks(ctx):
    c = ctx
    for name in ("GL_EXT_texture_compression_dxt1", "GL_ANGLE_texture_compression_dxt3",
                 "GL_ANGLE_texture_compression_dxt5"):
        assert listed(c, name)
    red565, blue565 = 0xF800, 0x001F
    colour = red565.to_bytes(2, "little") + blue565.to_bytes(2, "little") + bytes(4)   # every index 0: red
    blocks = {0x83F0: colour,                                     # COMPRESSED_RGB_S3TC_DXT1_EXT
              0x83F1: colour,                                     # COMPRESSED_RGBA_S3TC_DXT1_EXT
              0x83F2: bytes([0x77] * 8) + colour,                 # DXT3_ANGLE: explicit 4-bit alpha 7 -> 119
              0x83F3: bytes([136, 0]) + bytes(6) + colour}        # DXT5_ANGLE: alpha endpoint 0 (136) everywhere
    alpha = {0x83F0: 255, 0x83F1: 255, 0x83F2: 119, 0x83F3: 136}
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    for fmt, block in blocks.items():
        c.glCompressedTexImage2D(E.GL_TEXTURE_2D, 0, fmt, 4, 4, 0, len(block), block)
        no_error(c)
        px = np.frombuffer(bytes(c.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
        assert (px.reshape(16, 4) == [255, 0, 0, alpha[fmt]]).all(), hex(fmt)


# -- GL_MESA_texture_signed_rgba ------------------------------------------------------------------
def test_mesa_texture_signed_rgba(ctx):
    c = ctx
    assert listed(c, "GL_MESA_texture_signed_rgba")
    c.glBindTexture(E.GL_TEXTURE_2D, 1)
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8_SNORM, 1, 1, 0, E.GL_RGBA, E.GL_BYTE, bytes([127, 0x81, 64, 0]))
    assert c.glGetTexLevelParameteriv(E.GL_TEXTURE_2D, 0, E.GL_TEXTURE_RED_TYPE) == [E.GL_SIGNED_NORMALIZED]
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        c.glTexParameteri(E.GL_TEXTURE_2D, p, E.GL_NEAREST)
    fs = c.glCreateShader(E.GL_FRAGMENT_SHADER)
    c.glShaderSource(fs, 1, ["uniform sampler2D s;\n"
                             "void main() { gl_FragColor = texture2D(s, vec2(0.5)) * 0.5 + 0.5; }\n"], None)
    c.glCompileShader(fs)
    prog = c.glCreateProgram()
    c.glAttachShader(prog, fs)
    c.glLinkProgram(prog)
    c.glUseProgram(prog)
    quad(c)
    # 127 -> 1.0, -127 -> -1.0, 64 -> 64/127, 0: remapped to [0, 1]
    assert (abs(read(c)[4, 4].astype(int) - [255, 0, round(255 * (0.5 + 32 / 127)), 128]) <= 1).all()
    c.glTexImage2D(E.GL_TEXTURE_2D, 0, 0x8F93, 1, 1, 0, E.GL_RGBA, E.GL_BYTE, bytes(4))   # RGBA_SNORM
    no_error(c)


def test_point_size_max_starts_at_the_largest_point_size(ctx):
    """GL 2.1 table 6.12: POINT_SIZE_MAX's initial value is the largest point size, so a
    point of size 70 is 70 pixels wide (POINT_SIZE_MAX was 64 and clamped it; piglit's
    arb_point_sprite-mipmap draws sprites up to 80 pixels)."""
    import driver
    c = driver.Context(api="compat", width=160, height=160)
    top = c.glGetFloatv(E.GL_ALIASED_POINT_SIZE_RANGE)[1]
    assert c.glGetFloatv(E.GL_POINT_SIZE_MAX) == [top] and top >= 70
    c.glMatrixMode(E.GL_PROJECTION)
    c.glOrtho(0, 160, 0, 160, -1, 1)
    c.glPointSize(70)
    c.glBegin(E.GL_POINTS)
    c.glVertex2i(40, 40)
    c.glEnd()
    img = np.frombuffer(bytes(c.glReadPixels(0, 0, 160, 160, E.GL_RGBA, E.GL_UNSIGNED_BYTE)), np.uint8)
    ys, xs = np.nonzero(img.reshape(160, 160, 4)[..., 0])
    assert (xs.min(), xs.max(), ys.min(), ys.max()) == (5, 74, 5, 74)      # 40 - 35 .. 40 + 35 - 1


# -- GL_NV_half_float -----------------------------------------------------------------------------
def _half(*values):
    return [int(h) for h in np.asarray(values, np.float16).view(np.uint16)]


def test_nv_half_float_immediate_commands(ctx):
    c = ctx
    assert listed(c, "GL_NV_half_float")
    c.glColor4hNV(*_half(0.25, 0.5, 0.75, 1.0))
    assert c.glGetFloatv(E.GL_CURRENT_COLOR) == [0.25, 0.5, 0.75, 1.0]
    c.glNormal3hvNV(_half(0.0, -1.0, 0.5))
    assert c.glGetFloatv(E.GL_CURRENT_NORMAL) == [0.0, -1.0, 0.5]
    c.glMultiTexCoord2hNV(E.GL_TEXTURE1, *_half(2.0, -3.0))
    c.glActiveTexture(E.GL_TEXTURE1)
    assert c.glGetFloatv(E.GL_CURRENT_TEXTURE_COORDS) == [2.0, -3.0, 0.0, 1.0]
    c.glActiveTexture(E.GL_TEXTURE0)
    c.glFogCoordhNV(_half(0.125)[0])
    assert c.glGetFloatv(E.GL_CURRENT_FOG_COORD) == [0.125]
    c.glVertexAttrib3hNV(3, *_half(1.5, 2.5, 65504.0))               # the largest half
    assert c.glGetVertexAttribfv(3, E.GL_CURRENT_VERTEX_ATTRIB) == [1.5, 2.5, 65504.0, 1.0]
    # n attributes of `size` halves each from one array
    c.glVertexAttribs2hvNV(5, 2, _half(1.0, 2.0, 3.0, 4.0))
    assert c.glGetVertexAttribfv(5, E.GL_CURRENT_VERTEX_ATTRIB) == [1.0, 2.0, 0.0, 1.0]
    assert c.glGetVertexAttribfv(6, E.GL_CURRENT_VERTEX_ATTRIB) == [3.0, 4.0, 0.0, 1.0]
    no_error(c)
    # a quad of half-float vertices, coloured by a half-float colour
    c.glColor3hNV(*_half(0.0, 1.0, 0.0))
    c.glBegin(E.GL_QUADS)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        c.glVertex2hNV(*_half(x, y))
    c.glEnd()
    no_error(c)
    assert (read(c) == GREEN).all()
    c.glVertexWeighthNV(_half(0.5)[0])                       # needs EXT_vertex_weighting
    assert c.glGetError() == E.GL_INVALID_OPERATION


# -- GL_EXT_gpu_program_parameters ----------------------------------------------------------------
def test_ext_gpu_program_parameters(ctx):
    c = ctx
    assert listed(c, "GL_EXT_gpu_program_parameters")
    fp = E.GL_FRAGMENT_PROGRAM_ARB
    c.glBindProgramARB(fp, 1)
    text = b"!!ARBfp1.0\nADD result.color, program.env[3], program.local[6];\nEND\n"
    c.glProgramStringARB(fp, E.GL_PROGRAM_FORMAT_ASCII_ARB, len(text), text)
    no_error(c)
    c.glProgramEnvParameters4fvEXT(fp, 2, 2, [9, 9, 9, 9, 0.25, 0.0, 0.5, 0.25])     # env 2 and 3
    c.glProgramLocalParameters4fvEXT(fp, 5, 2, [9, 9, 9, 9, 0.0, 0.5, 0.25, 0.5])    # local 5 and 6
    assert c.glGetProgramEnvParameterfvARB(fp, 3) == [0.25, 0.0, 0.5, 0.25]
    assert c.glGetProgramLocalParameterfvARB(fp, 5) == [9.0] * 4
    c.glEnable(fp)
    quad(c)
    assert (abs(read(c)[4, 4].astype(int) - [64, 128, 191, 191]) <= 1).all()
    # the range is checked before anything is set
    n = c.glGetProgramivARB(fp, E.GL_MAX_PROGRAM_ENV_PARAMETERS_ARB)
    n = n[0] if isinstance(n, (list, tuple)) else n
    c.glProgramEnvParameters4fvEXT(fp, n - 1, 2, [1.0] * 8)
    assert c.glGetError() == E.GL_INVALID_VALUE
    assert c.glGetProgramEnvParameterfvARB(fp, n - 1) == [0.0] * 4
    c.glProgramLocalParameters4fvEXT(fp, 0, -1, [])
    assert c.glGetError() == E.GL_INVALID_VALUE
    # EXT_direct_state_access's form, on a program not bound
    c.glNamedProgramLocalParameters4fvEXT(2, fp, 0, 1, [1.0, 2.0, 3.0, 4.0])
    c.glBindProgramARB(fp, 2)
    assert c.glGetProgramLocalParameterfvARB(fp, 0) == [1.0, 2.0, 3.0, 4.0]
    no_error(c)
