"""GL 1.x-2.x features under their extension names in the compatibility profile
(programs and piglit check the names, not the version): each name listed in the
table comes with a check of what its specification adds, against hand-computed
values, mostly through real draws."""

import numpy as np
import pytest

from driver.gl import enums as E
from tests.driver.agx import glhelp

VS = ("#version 110\nattribute vec2 p;\nvarying vec2 uv;\n"
      "void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0.0, 1.0); }\n")
QUAD = np.array([[-1, -1], [1, -1], [-1, 1], [1, 1]], np.float32)


def _ctx(w=1, h=1):
    return glhelp.context(w, h, api="compat")


def _draw(ctx, fs, w=1, h=1, vs=VS):
    prog = glhelp.program(ctx, vs, fs)
    loc = ctx.glGetAttribLocation(prog, "p")
    ctx.glBindBuffer(E.GL_ARRAY_BUFFER, 0)
    ctx.glEnableVertexAttribArray(loc)
    ctx.glVertexAttribPointer(loc, 2, E.GL_FLOAT, False, 0, QUAD)
    ctx.glDrawArrays(E.GL_TRIANGLE_STRIP, 0, 4)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return _pixels(ctx, w, h)


def _pixels(ctx, w, h):
    return np.frombuffer(ctx.glReadPixels(0, 0, w, h, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8).reshape(h, w, 4)


def _tex2d(ctx, internal, w, h, fmt, type_, data, filt=E.GL_NEAREST, wrap=E.GL_CLAMP_TO_EDGE):
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, internal, w, h, 0, fmt, type_, data)
    for p, v in ((E.GL_TEXTURE_MIN_FILTER, filt), (E.GL_TEXTURE_MAG_FILTER, E.GL_NEAREST),
                 (E.GL_TEXTURE_WRAP_S, wrap), (E.GL_TEXTURE_WRAP_T, wrap)):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, p, v)
    assert ctx.glGetError() == E.GL_NO_ERROR
    return tex


@pytest.fixture(scope="module")
def listed():
    return set(_ctx().glGetString(E.GL_EXTENSIONS).split())


NAMES = ["GL_EXT_packed_depth_stencil", "GL_ARB_depth_texture", "GL_ARB_shadow", "GL_EXT_shadow_funcs",
         "GL_ARB_texture_cube_map", "GL_EXT_texture_cube_map", "GL_ARB_pixel_buffer_object",
         "GL_EXT_pixel_buffer_object", "GL_ARB_texture_border_clamp", "GL_ARB_texture_mirrored_repeat",
         "GL_ARB_texture_non_power_of_two", "GL_EXT_bgra", "GL_EXT_packed_pixels", "GL_EXT_stencil_wrap",
         "GL_EXT_blend_subtract", "GL_SGIS_texture_edge_clamp", "GL_EXT_texture_edge_clamp",
         "GL_SGIS_texture_lod", "GL_SGIS_generate_mipmap", "GL_ARB_half_float_pixel", "GL_NV_blend_square",
         "GL_ARB_compatibility"]


#: listed in core contexts too, as Mesa 22.3 (test_core_profile_legacy_names.py)
ALSO_CORE = {"GL_EXT_packed_depth_stencil", "GL_ARB_pixel_buffer_object", "GL_EXT_pixel_buffer_object",
             "GL_ARB_texture_non_power_of_two", "GL_ARB_half_float_pixel"}


@pytest.mark.parametrize("name", NAMES)
def test_listed_in_the_compatibility_profile_and_core_as_mesa(name, listed):
    assert name in listed
    assert (name in glhelp.context(1, 1, api="gl43").extensions) == (name in ALSO_CORE)


def test_packed_depth_stencil():
    """DEPTH_STENCIL images of UNSIGNED_INT_24_8 words read back as given; a
    DEPTH24_STENCIL8 renderbuffer cleared to depth 1.0, stencil 7 reads 0xFFFFFF07."""
    ctx = _ctx()
    words = np.array([(0x800000 << 8) | 5, (0xFFFFFF << 8) | 200], np.uint32)
    _tex2d(ctx, E.GL_DEPTH_STENCIL, 2, 1, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8, words)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8), np.uint32)
    assert got.tolist() == words.tolist()
    glhelp.renderbuffer_target(ctx, E.GL_DEPTH24_STENCIL8, 1, 1, E.GL_DEPTH_STENCIL_ATTACHMENT)
    ctx.glDrawBuffer(E.GL_NONE)
    ctx.glReadBuffer(E.GL_NONE)
    ctx.glClearDepth(1.0)
    ctx.glClearStencil(7)
    ctx.glClear(E.GL_DEPTH_BUFFER_BIT | E.GL_STENCIL_BUFFER_BIT)
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_DEPTH_STENCIL, E.GL_UNSIGNED_INT_24_8), np.uint32)
    assert got.tolist() == [0xFFFFFF07]


def test_depth_texture_reads_and_samples_as_luminance():
    """DEPTH_COMPONENT16 from floats 0 and 1 reads back 0 and 65535; sampled
    without comparison under the default DEPTH_TEXTURE_MODE (LUMINANCE) a depth
    of 0.6 gives (0.6, 0.6, 0.6, 1)."""
    ctx = _ctx()
    _tex2d(ctx, E.GL_DEPTH_COMPONENT16, 2, 1, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, np.array([0.0, 1.0], np.float32))
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_DEPTH_COMPONENT, E.GL_UNSIGNED_SHORT), np.uint16)
    assert got.tolist() == [0, 65535]
    assert ctx.glGetTexParameteriv(E.GL_TEXTURE_2D, E.GL_DEPTH_TEXTURE_MODE) == [E.GL_LUMINANCE]
    _tex2d(ctx, E.GL_DEPTH_COMPONENT24, 1, 1, E.GL_DEPTH_COMPONENT, E.GL_FLOAT, np.array([0.6], np.float32))
    img = _draw(ctx, "#version 110\nuniform sampler2D t;\nvoid main() { gl_FragColor = texture2D(t, vec2(0.5)); }\n")
    assert img[0, 0].tolist() == [153, 153, 153, 255]


@pytest.mark.parametrize("func, expected", [(E.GL_GREATER, [255, 0]), (E.GL_NOTEQUAL, [255, 255]),
                                            (E.GL_EQUAL, [0, 0]), (E.GL_NEVER, [0, 0]), (E.GL_ALWAYS, [255, 255])])
def test_shadow_comparison_functions(func, expected):
    """ARB_shadow's comparison (COMPARE_R_TO_TEXTURE) through shadow2D, and the
    functions EXT_shadow_funcs adds: depths 0.25 and 0.75, reference 0.5; the
    result is 1 where `ref FUNC depth`."""
    ctx = _ctx(2, 1)
    _tex2d(ctx, E.GL_DEPTH_COMPONENT32F, 2, 1, E.GL_DEPTH_COMPONENT, E.GL_FLOAT,
           np.array([0.25, 0.75], np.float32))
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_COMPARE_MODE, 0x884E)   # COMPARE_R_TO_TEXTURE_ARB
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_COMPARE_FUNC, func)
    img = _draw(ctx, "#version 110\nuniform sampler2DShadow t;\nvarying vec2 uv;\n"
                     "void main() { gl_FragColor = vec4(shadow2D(t, vec3(uv, 0.5)).r); }\n", 2, 1)
    assert img[0, :, 0].tolist() == expected


def test_cube_map_faces():
    """textureCube picks +X, -X, +Y, -Y, +Z, -Z by the major axis (1x1 faces of
    distinct colours); TEXTURE_BINDING_CUBE_MAP names the texture."""
    ctx = _ctx(6, 1)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_CUBE_MAP, tex)
    colours = [[40 * k, 250 - 40 * k, 7 * k, 255] for k in range(6)]
    for k in range(6):
        ctx.glTexImage2D(E.GL_TEXTURE_CUBE_MAP_POSITIVE_X + k, 0, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA,
                         E.GL_UNSIGNED_BYTE, np.array(colours[k], np.uint8))
    for p in (E.GL_TEXTURE_MIN_FILTER, E.GL_TEXTURE_MAG_FILTER):
        ctx.glTexParameteri(E.GL_TEXTURE_CUBE_MAP, p, E.GL_NEAREST)
    assert ctx.glGetIntegerv(E.GL_TEXTURE_BINDING_CUBE_MAP) == [tex]
    img = _draw(ctx, "#version 110\nuniform samplerCube t;\nvarying vec2 uv;\n"
                     "void main() { float i = floor(uv.x * 6.0);\n"
                     " vec3 d = i < 0.5 ? vec3(1, .1, .2) : i < 1.5 ? vec3(-1, .2, .1) : i < 2.5 ? vec3(.1, 1, .2)"
                     " : i < 3.5 ? vec3(.2, -1, .1) : i < 4.5 ? vec3(.1, .2, 1) : vec3(.2, .1, -1);\n"
                     " gl_FragColor = textureCube(t, d); }\n", 6, 1)
    assert img[0].tolist() == colours


def test_pixel_buffer_objects():
    """An image unpacked from a PIXEL_UNPACK_BUFFER (the pointer is an offset) and
    read back (glReadPixels of it attached to a framebuffer) into a
    PIXEL_PACK_BUFFER at offset 8."""
    ctx = _ctx()
    data = np.arange(1, 17, dtype=np.uint8)
    (up, pk) = ctx.glGenBuffers(2)
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, up)
    ctx.glBufferData(E.GL_PIXEL_UNPACK_BUFFER, 20, np.concatenate([np.zeros(4, np.uint8), data]), E.GL_STATIC_DRAW)
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 4)
    ctx.glBindBuffer(E.GL_PIXEL_UNPACK_BUFFER, 0)
    assert ctx.glGetError() == E.GL_NO_ERROR
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferTexture2D(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_TEXTURE_2D, tex, 0)
    ctx.glBindBuffer(E.GL_PIXEL_PACK_BUFFER, pk)
    ctx.glBufferData(E.GL_PIXEL_PACK_BUFFER, 24, None, E.GL_STREAM_READ)
    assert ctx.glReadPixels(0, 0, 2, 2, E.GL_RGBA, E.GL_UNSIGNED_BYTE, 8) is None
    assert ctx.glGetError() == E.GL_NO_ERROR
    got = np.frombuffer(ctx.glGetBufferSubData(E.GL_PIXEL_PACK_BUFFER, 8, 16), np.uint8)
    assert got.tolist() == data.tolist()
    assert ctx.glGetIntegerv(E.GL_PIXEL_PACK_BUFFER_BINDING) == [pk]


@pytest.mark.parametrize("wrap, u, expected", [
    (E.GL_CLAMP_TO_BORDER, -0.25, [0, 255, 0, 255]),        # ARB_texture_border_clamp: the border colour
    (0x812F, -0.25, [10, 0, 0, 255]),                       # SGIS/EXT_texture_edge_clamp: the edge texel
    (E.GL_MIRRORED_REPEAT, 1.25, [20, 0, 0, 255]),          # ARB_texture_mirrored_repeat: 1.25 -> 0.75
    (E.GL_MIRRORED_REPEAT, 1.75, [10, 0, 0, 255]),          # 1.75 -> 0.25
])
def test_wrap_modes(wrap, u, expected):
    """A 2x1 texture (red 10, red 20) sampled at u with each wrap mode."""
    ctx = _ctx()
    _tex2d(ctx, E.GL_RGBA8, 2, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
           np.array([[10, 0, 0, 255], [20, 0, 0, 255]], np.uint8), wrap=wrap)
    ctx.glTexParameterfv(E.GL_TEXTURE_2D, E.GL_TEXTURE_BORDER_COLOR, [0.0, 1.0, 0.0, 1.0])
    img = _draw(ctx, "#version 110\nuniform sampler2D t;\n"
                     f"void main() {{ gl_FragColor = texture2D(t, vec2({u}, 0.5)); }}\n")
    assert img[0, 0].tolist() == expected


def test_non_power_of_two_textures_repeat_and_mipmap():
    """A 3x1 texture with REPEAT and a complete 2-level chain (3x1, 1x1): u = 7/6
    repeats to texel 0; the 1x1 level is used when minified (8 repeats over 2 pixels)."""
    ctx = _ctx(2, 1)
    _tex2d(ctx, E.GL_RGBA8, 3, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
           np.array([[30, 0, 0, 255], [60, 0, 0, 255], [90, 0, 0, 255]], np.uint8),
           filt=E.GL_NEAREST_MIPMAP_NEAREST, wrap=E.GL_REPEAT)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 1, E.GL_RGBA8, 1, 1, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                     np.array([200, 0, 0, 255], np.uint8))
    img = _draw(ctx, "#version 110\nuniform sampler2D t;\nvarying vec2 uv;\n"
                     "void main() { gl_FragColor = uv.x < 0.5 ? texture2D(t, vec2(7.0 / 6.0, 0.5), -4.0)"
                     " : texture2D(t, uv * 8.0); }\n", 2, 1)
    assert img[0, :, 0].tolist() == [30, 200]


def test_bgra_and_packed_pixel_uploads():
    """EXT_bgra: BGRA bytes (1, 2, 3, 4) are R=3 G=2 B=1 A=4; EXT_packed_pixels:
    UNSIGNED_SHORT_5_6_5 0xF800 is full red, UNSIGNED_INT_8_8_8_8 0x11223344 is
    (0x11, 0x22, 0x33, 0x44)."""
    ctx = _ctx()
    for fmt, type_, data, expected in (
            (E.GL_BGRA, E.GL_UNSIGNED_BYTE, np.array([1, 2, 3, 4], np.uint8), [3, 2, 1, 4]),
            (E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5, np.array([0xF800], np.uint16), [255, 0, 0, 255]),
            (E.GL_RGBA, E.GL_UNSIGNED_INT_8_8_8_8, np.array([0x11223344], np.uint32), [0x11, 0x22, 0x33, 0x44])):
        _tex2d(ctx, E.GL_RGBA8, 1, 1, fmt, type_, data)
        got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
        assert got.tolist() == expected


def _stencil_fb(ctx):
    (rb, crb) = ctx.glGenRenderbuffers(2)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, rb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_DEPTH24_STENCIL8, 1, 1)
    ctx.glBindRenderbuffer(E.GL_RENDERBUFFER, crb)
    ctx.glRenderbufferStorage(E.GL_RENDERBUFFER, E.GL_RGBA8, 1, 1)
    (fb,) = ctx.glGenFramebuffers(1)
    ctx.glBindFramebuffer(E.GL_FRAMEBUFFER, fb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_DEPTH_STENCIL_ATTACHMENT, E.GL_RENDERBUFFER, rb)
    ctx.glFramebufferRenderbuffer(E.GL_FRAMEBUFFER, E.GL_COLOR_ATTACHMENT0, E.GL_RENDERBUFFER, crb)


@pytest.mark.parametrize("op, start, expected", [(E.GL_INCR_WRAP, 255, 0), (E.GL_DECR_WRAP, 0, 255),
                                                 (E.GL_INCR, 255, 255), (E.GL_DECR, 0, 0)])
def test_stencil_wrap(op, start, expected):
    """EXT_stencil_wrap: INCR_WRAP/DECR_WRAP wrap at the ends (INCR/DECR clamp)."""
    ctx = _ctx()
    _stencil_fb(ctx)
    ctx.glClearStencil(start)
    ctx.glClear(E.GL_STENCIL_BUFFER_BIT)
    ctx.glEnable(E.GL_STENCIL_TEST)
    ctx.glStencilFunc(E.GL_ALWAYS, 0, 0xFF)
    ctx.glStencilOp(op, op, op)
    _draw(ctx, "#version 110\nvoid main() { gl_FragColor = vec4(1.0); }\n")
    got = np.frombuffer(ctx.glReadPixels(0, 0, 1, 1, E.GL_STENCIL_INDEX, E.GL_UNSIGNED_BYTE), np.uint8)
    assert got.tolist() == [expected]


@pytest.mark.parametrize("eq, src, dst, expected", [
    (E.GL_FUNC_SUBTRACT, E.GL_ONE, E.GL_ONE, [100 - 40, 0, 200 - 120, 255 - 255]),      # EXT_blend_subtract
    (E.GL_FUNC_REVERSE_SUBTRACT, E.GL_ONE, E.GL_ONE, [0, 80 - 0, 0, 0]),
    (E.GL_FUNC_ADD, E.GL_SRC_COLOR, E.GL_ZERO, [39, 0, 57, 255]),                        # NV_blend_square
])
def test_blend_equations_and_square(eq, src, dst, expected):
    """Source (100, 0, 200, 255)/255 over destination (40, 80, 120, 255)/255:
    the subtractions clamp at 0; SRC_COLOR as the source factor squares the
    source (100, 0, 120, 255): 100^2/255 = 39.2, 120^2/255 = 56.5."""
    ctx = _ctx()
    ctx.glClearColor(40 / 255, 80 / 255, 120 / 255, 1.0)
    ctx.glClear(E.GL_COLOR_BUFFER_BIT)
    ctx.glEnable(E.GL_BLEND)
    ctx.glBlendEquation(eq)
    ctx.glBlendFunc(src, dst)
    blue = 200 if eq != E.GL_FUNC_ADD else 120
    img = _draw(ctx, f"#version 110\nvoid main() {{ gl_FragColor = vec4({100 / 255}, 0.0, {blue / 255}, 1.0); }}\n")
    assert np.abs(img[0, 0].astype(int) - expected).max() <= 1


def test_texture_lod_parameters():
    """SGIS_texture_lod: levels 4x4 (red 10), 2x2 (red 20), 1x1 (red 30); with
    BASE_LEVEL 1 a magnified sample reads level 1, with MIN_LOD 2 (mipmapped)
    level 2; MAX_LEVEL 0 keeps a minified sample at level 0."""
    ctx = _ctx()
    _tex2d(ctx, E.GL_RGBA8, 4, 4, E.GL_RGBA, E.GL_UNSIGNED_BYTE, np.tile(np.array([10, 0, 0, 255], np.uint8), 16),
           filt=E.GL_NEAREST_MIPMAP_NEAREST)
    for level, size, red in ((1, 2, 20), (2, 1, 30)):
        ctx.glTexImage2D(E.GL_TEXTURE_2D, level, E.GL_RGBA8, size, size, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE,
                         np.tile(np.array([red, 0, 0, 255], np.uint8), size * size))
    fs = "#version 110\nuniform sampler2D t;\nuniform float bias;\n" \
         "void main() { gl_FragColor = texture2D(t, vec2(0.5), bias); }\n"
    results = []
    for pname, value, bias in ((E.GL_TEXTURE_BASE_LEVEL, 1, -8.0), (E.GL_TEXTURE_MIN_LOD, 2, -8.0),
                               (E.GL_TEXTURE_MAX_LEVEL, 0, 8.0)):
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_BASE_LEVEL, 0)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_TEXTURE_MAX_LEVEL, 1000)
        ctx.glTexParameterf(E.GL_TEXTURE_2D, E.GL_TEXTURE_MIN_LOD, -1000.0)
        ctx.glTexParameteri(E.GL_TEXTURE_2D, pname, value)
        prog = glhelp.program(ctx, VS, fs)
        ctx.glUseProgram(prog)
        ctx.glUniform1f(ctx.glGetUniformLocation(prog, "bias"), bias)
        results.append(int(_draw(ctx, fs)[0, 0, 0]))
    assert results == [20, 30, 10]


def test_generate_mipmap_parameter():
    """SGIS_generate_mipmap: with GENERATE_MIPMAP set, uploading level 0 of a 2x2
    image (reds 0, 100, 100, 200) makes level 1 their average, 100."""
    ctx = _ctx()
    (tex,) = ctx.glGenTextures(1)
    ctx.glBindTexture(E.GL_TEXTURE_2D, tex)
    ctx.glTexParameteri(E.GL_TEXTURE_2D, E.GL_GENERATE_MIPMAP, E.GL_TRUE)
    data = np.array([[0, 0, 0, 255], [100, 0, 0, 255], [100, 0, 0, 255], [200, 0, 0, 255]], np.uint8)
    ctx.glTexImage2D(E.GL_TEXTURE_2D, 0, E.GL_RGBA8, 2, 2, 0, E.GL_RGBA, E.GL_UNSIGNED_BYTE, data)
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 1, E.GL_RGBA, E.GL_UNSIGNED_BYTE), np.uint8)
    assert abs(int(got[0]) - 100) <= 1 and got[3] == 255


def test_half_float_pixels():
    """ARB_half_float_pixel: HALF_FLOAT_ARB (0x140B) client data; half 0x3C00 is
    1.0, 0xC000 is -2.0, 0x3555 is 0.333251953125."""
    ctx = _ctx()
    _tex2d(ctx, E.GL_RGBA16F, 1, 1, E.GL_RGBA, 0x140B, np.array([0x3C00, 0xC000, 0x3555, 0], np.uint16))
    got = np.frombuffer(ctx.glGetTexImage(E.GL_TEXTURE_2D, 0, E.GL_RGBA, E.GL_FLOAT), np.float32)
    assert got.tolist() == [1.0, -2.0, 0.333251953125, 0.0]


def test_compatibility_profile_keeps_the_fixed_pipeline():
    """ARB_compatibility: a GL 3.1+ context that keeps the deprecated features -
    glBegin/glEnd with glColor draws, and PROFILE_MASK says compatibility."""
    ctx = _ctx()
    assert ctx.glGetIntegerv(E.GL_CONTEXT_PROFILE_MASK) == [E.GL_CONTEXT_COMPATIBILITY_PROFILE_BIT]
    ctx.glBegin(E.GL_QUADS)
    ctx.glColor3f(0.0, 1.0, 0.0)
    for x, y in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
        ctx.glVertex2f(x, y)
    ctx.glEnd()
    assert ctx.glGetError() == E.GL_NO_ERROR
    assert _pixels(ctx, 1, 1)[0, 0].tolist() == [0, 255, 0, 255]
