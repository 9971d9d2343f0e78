"""OpenGL ES 1.1 (the common profile): its fixed-point and single-precision
entry points, the OES extension commands of ES 1.1 contexts, and which
commands an ES 1.1 context has.

An ES 1.1 context is the compatibility pipeline (``Api.compat`` is true for
it: matrices, lighting, texture environments, fog, client arrays) restricted
to ES 1.1's commands. The restriction is applied once, in the dispatch every
entry point goes through (driver/gl/legacy/dlist.py): a command that is not
ES 1.1's (``glBegin``, ``glCreateShader``) is ``GL_INVALID_OPERATION`` in an
ES 1.1 context, and the ES 1.1-only commands of this module (``glColor4x``,
``glOrthof``, ``glDrawTexiOES``) are ``GL_INVALID_OPERATION`` in every other
context, as Mesa's per-API dispatch tables do.

Fixed-point values (``GLfixed``, S15.16) are ``value / 65536``; a parameter
whose value is an enum (``GL_FOG_MODE``, ``GL_TEXTURE_ENV_MODE``, filters and
wrap modes) is passed unscaled, as the ES 1.1 specification (section 2.1.2)
and Mesa's es1_conversion do. Fixed-point queries return ``trunc(f * 65536)``
clamped to the int32 range, enum values unscaled.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from driver.gl import enums as E
from driver.gl.errors import GLError, check, check_enum
from driver.gl.features import call, entry_point, forward
from driver.gl.registry_commands import ADDED_IN

__all__ = ["ES1_ARRAYS", "ES1_COMMANDS", "ES1_EXTENSION_COMMANDS", "ES1_ONLY", "fixed_to_float",
           "float_to_fixed"]

FIXED_ONE = 65536.0          # 1.0 in S15.16

# Commands each ES 1.1 extension adds (from the Khronos registry's <extension>
# elements). An extension with no commands adds enums or behaviour only.
ES1_EXTENSION_COMMANDS: dict[str, tuple[str, ...]] = {
    "GL_OES_blend_equation_separate": ("glBlendEquationSeparateOES",),
    "GL_OES_blend_func_separate": ("glBlendFuncSeparateOES",),
    "GL_OES_blend_subtract": ("glBlendEquationOES",),
    "GL_OES_draw_texture": ("glDrawTexsOES", "glDrawTexiOES", "glDrawTexxOES", "glDrawTexsvOES",
                            "glDrawTexivOES", "glDrawTexxvOES", "glDrawTexfOES", "glDrawTexfvOES"),
    "GL_OES_framebuffer_object": (
        "glIsRenderbufferOES", "glBindRenderbufferOES", "glDeleteRenderbuffersOES",
        "glGenRenderbuffersOES", "glRenderbufferStorageOES", "glGetRenderbufferParameterivOES",
        "glIsFramebufferOES", "glBindFramebufferOES", "glDeleteFramebuffersOES",
        "glGenFramebuffersOES", "glCheckFramebufferStatusOES", "glFramebufferRenderbufferOES",
        "glFramebufferTexture2DOES", "glGetFramebufferAttachmentParameterivOES",
        "glGenerateMipmapOES"),
    # GLES: the KHR-suffixed names only (the registry's aliases of GL 4.3's commands)
    "GL_KHR_debug": ("glDebugMessageControlKHR", "glDebugMessageInsertKHR", "glDebugMessageCallbackKHR",
                     "glGetDebugMessageLogKHR", "glPushDebugGroupKHR", "glPopDebugGroupKHR",
                     "glObjectLabelKHR", "glGetObjectLabelKHR", "glObjectPtrLabelKHR",
                     "glGetObjectPtrLabelKHR", "glGetPointervKHR"),
    "GL_OES_mapbuffer": ("glMapBufferOES", "glUnmapBufferOES", "glGetBufferPointervOES"),
    "GL_OES_point_size_array": ("glPointSizePointerOES",),
    "GL_OES_single_precision": ("glClearDepthfOES", "glClipPlanefOES", "glDepthRangefOES",
                                "glFrustumfOES", "glGetClipPlanefOES", "glOrthofOES"),
    "GL_OES_texture_cube_map": ("glTexGenfOES", "glTexGenfvOES", "glTexGeniOES", "glTexGenivOES",
                                "glTexGenxOES", "glTexGenxvOES", "glGetTexGenfvOES",
                                "glGetTexGenivOES", "glGetTexGenxvOES"),
}

# The fixed-function commands ES 1.1 adds beside GL 1.5's (the single-precision
# ones and every x command): not in desktop GL nor in ES 2.0+.
_ES1_CORE = frozenset(ADDED_IN[("gles1", "1.0")])
_OTHER_APIS = frozenset(n for (api, _), names in ADDED_IN.items() if api != "gles1" for n in names)
_SINGLE_PRECISION = frozenset({"glClipPlanef", "glFrustumf", "glGetClipPlanef", "glOrthof"})
# OES_fixed_point names the fixed-point commands of ES 1.1 with an OES suffix
_FIXED_POINT_OES = {n + "OES": n for n in sorted(_ES1_CORE - _OTHER_APIS - _SINGLE_PRECISION)}
ES1_EXTENSION_COMMANDS["GL_OES_fixed_point"] = tuple(_FIXED_POINT_OES)

ES1_COMMANDS: frozenset[str] = _ES1_CORE | frozenset(
    n for names in ES1_EXTENSION_COMMANDS.values() for n in names)
# the ES 1.1 core commands no other API has; the extension commands check
# their extension themselves (as driver.gl.features.aliases does)
ES1_ONLY: frozenset[str] = _ES1_CORE - _OTHER_APIS


# OpenGL ES 1.1 table 2.4: the sizes and types of each client array
_BSFF = (E.GL_BYTE, E.GL_SHORT, E.GL_FIXED, E.GL_FLOAT)
ES1_ARRAYS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    E.GL_VERTEX_ARRAY: ((2, 3, 4), _BSFF),
    E.GL_NORMAL_ARRAY: ((3,), _BSFF),
    E.GL_COLOR_ARRAY: ((4,), (E.GL_UNSIGNED_BYTE, E.GL_FIXED, E.GL_FLOAT)),
    E.GL_TEXTURE_COORD_ARRAY: ((2, 3, 4), _BSFF),
    E.GL_POINT_SIZE_ARRAY_OES: ((1,), (E.GL_FIXED, E.GL_FLOAT)),
}


def fixed_to_float(x) -> float:
    """A GLfixed (S15.16) as a float."""
    return float(x) / FIXED_ONE


def float_to_fixed(f) -> int:
    """A float as GLfixed: truncated towards zero, clamped to int32 (NaN -> 0)."""
    f = float(f) * FIXED_ONE
    if math.isnan(f):
        return 0
    return int(max(-2147483648.0, min(2147483647.0, f)))


def _floats(values) -> list[float]:
    return [fixed_to_float(v) for v in values]


def _mixed(pname: int, values, raw_pnames) -> list[float]:
    """Fixed-point parameters as floats; enum-valued parameters unscaled."""
    if pname in raw_pnames:
        return [float(int(v)) for v in values]
    return _floats(values)


def _fixed_out(pname: int, values, raw_pnames) -> list[int]:
    if pname in raw_pnames:
        return [int(v) for v in values]
    return [float_to_fixed(v) for v in values]


# -- fixed-point commands of ES 1.1 (ES 1.1 section 2.1.2 and its command list) --------------
_ENV_RAW = frozenset({E.GL_TEXTURE_ENV_MODE, E.GL_COMBINE_RGB, E.GL_COMBINE_ALPHA,
                      E.GL_SRC0_RGB, E.GL_SRC1_RGB, E.GL_SRC2_RGB, E.GL_SRC0_ALPHA,
                      E.GL_SRC1_ALPHA, E.GL_SRC2_ALPHA, E.GL_OPERAND0_RGB, E.GL_OPERAND1_RGB,
                      E.GL_OPERAND2_RGB, E.GL_OPERAND0_ALPHA, E.GL_OPERAND1_ALPHA,
                      E.GL_OPERAND2_ALPHA, E.GL_COORD_REPLACE})
_TEXPARAM_SCALED = frozenset({E.GL_TEXTURE_MAX_ANISOTROPY_EXT, E.GL_TEXTURE_LOD_BIAS,
                              E.GL_TEXTURE_MIN_LOD, E.GL_TEXTURE_MAX_LOD})
_FOG_RAW = frozenset({E.GL_FOG_MODE, E.GL_FOG_COORD_SRC})
_LIGHT_MODEL_RAW = frozenset({E.GL_LIGHT_MODEL_TWO_SIDE, E.GL_LIGHT_MODEL_LOCAL_VIEWER,
                              E.GL_LIGHT_MODEL_COLOR_CONTROL})
_TEXGEN_RAW = frozenset({E.GL_TEXTURE_GEN_MODE})


def _texparam_raw(pname: int) -> frozenset[int]:
    return frozenset() if pname in _TEXPARAM_SCALED else frozenset({pname})


# Commands that are another command under an ES 1.1 name: the single-precision
# names of GL's double projection commands, and the GLfixed variants whose every
# argument is a fixed-point value (the float command on the converted values).
forward("glFrustumf", "glFrustum")
forward("glOrthof", "glOrtho")
for _fixed, _float in (("glClearColorx", "glClearColor"), ("glClearDepthx", "glClearDepthf"),
                       ("glColor4x", "glColor4f"), ("glDepthRangex", "glDepthRangef"),
                       ("glFrustumx", "glFrustum"), ("glLineWidthx", "glLineWidth"),
                       ("glNormal3x", "glNormal3f"), ("glOrthox", "glOrtho"), ("glPointSizex", "glPointSize"),
                       ("glPolygonOffsetx", "glPolygonOffset"), ("glRotatex", "glRotatef"),
                       ("glScalex", "glScalef"), ("glTranslatex", "glTranslatef")):
    forward(_fixed, _float, convert=lambda *values: _floats(values))
del _fixed, _float


@entry_point
def glAlphaFuncx(ctx, func, ref):
    call(ctx, "glAlphaFunc", func, fixed_to_float(ref))


@entry_point
def glClipPlanex(ctx, plane, equation):
    call(ctx, "glClipPlane", plane, _floats(list(equation)[:4]))


@entry_point
def glClipPlanef(ctx, plane, equation):
    call(ctx, "glClipPlane", plane, [float(v) for v in list(equation)[:4]])


@entry_point
def glGetClipPlanef(ctx, plane):
    return [float(v) for v in call(ctx, "glGetClipPlane", plane)]


@entry_point
def glGetClipPlanex(ctx, plane):
    return [float_to_fixed(v) for v in call(ctx, "glGetClipPlane", plane)]


@entry_point
def glFogx(ctx, pname, param):
    call(ctx, "glFogfv", pname, _mixed(pname, (param,), _FOG_RAW))


@entry_point
def glFogxv(ctx, pname, params):
    call(ctx, "glFogfv", pname, _mixed(pname, params, _FOG_RAW))


# ES 1.1 section 6.1.2: enum-valued state is returned unscaled by GetFixedv
_ENUM_STATE = frozenset({
    E.GL_MATRIX_MODE, E.GL_SHADE_MODEL, E.GL_FOG_MODE, E.GL_FRONT_FACE, E.GL_CULL_FACE_MODE,
    E.GL_BLEND_SRC, E.GL_BLEND_DST, E.GL_BLEND_SRC_RGB, E.GL_BLEND_DST_RGB,
    E.GL_BLEND_SRC_ALPHA, E.GL_BLEND_DST_ALPHA, E.GL_BLEND_EQUATION_RGB,
    E.GL_BLEND_EQUATION_ALPHA, E.GL_DEPTH_FUNC, E.GL_STENCIL_FUNC, E.GL_STENCIL_FAIL,
    E.GL_STENCIL_PASS_DEPTH_FAIL, E.GL_STENCIL_PASS_DEPTH_PASS, E.GL_ALPHA_TEST_FUNC,
    E.GL_LOGIC_OP_MODE, E.GL_ACTIVE_TEXTURE, E.GL_CLIENT_ACTIVE_TEXTURE,
    E.GL_VERTEX_ARRAY_TYPE, E.GL_NORMAL_ARRAY_TYPE, E.GL_COLOR_ARRAY_TYPE,
    E.GL_TEXTURE_COORD_ARRAY_TYPE, E.GL_POINT_SIZE_ARRAY_TYPE_OES,
    E.GL_PERSPECTIVE_CORRECTION_HINT, E.GL_POINT_SMOOTH_HINT, E.GL_LINE_SMOOTH_HINT,
    E.GL_FOG_HINT, E.GL_GENERATE_MIPMAP_HINT, E.GL_IMPLEMENTATION_COLOR_READ_FORMAT,
    E.GL_IMPLEMENTATION_COLOR_READ_TYPE, E.GL_COMPRESSED_TEXTURE_FORMATS,
})


@entry_point
def glGetFixedv(ctx, pname):
    values = ctx._as_tuple(ctx._get_raw(pname))
    if pname in _ENUM_STATE:
        return [int(v) for v in values]
    return [float_to_fixed(float(v)) for v in values]


@entry_point
def glGetLightxv(ctx, light, pname):
    return [float_to_fixed(v) for v in call(ctx, "glGetLightfv", light, pname)]


@entry_point
def glGetMaterialxv(ctx, face, pname):
    return [float_to_fixed(v) for v in call(ctx, "glGetMaterialfv", face, pname)]


@entry_point
def glGetTexEnvxv(ctx, target, pname):
    return _fixed_out(pname, call(ctx, "glGetTexEnvfv", target, pname), _ENV_RAW)


@entry_point
def glGetTexParameterxv(ctx, target, pname):
    return _fixed_out(pname, call(ctx, "glGetTexParameterfv", target, pname), _texparam_raw(pname))


@entry_point
def glLightModelx(ctx, pname, param):
    check(pname != E.GL_LIGHT_MODEL_AMBIENT, E.GL_INVALID_ENUM, "LIGHT_MODEL_AMBIENT takes a vector")
    call(ctx, "glLightModelfv", pname, _mixed(pname, (param,), _LIGHT_MODEL_RAW))


@entry_point
def glLightModelxv(ctx, pname, params):
    call(ctx, "glLightModelfv", pname, _mixed(pname, params, _LIGHT_MODEL_RAW))


@entry_point
def glLightx(ctx, light, pname, param):
    call(ctx, "glLightf", light, pname, fixed_to_float(param))


@entry_point
def glLightxv(ctx, light, pname, params):
    call(ctx, "glLightfv", light, pname, _floats(params))


@entry_point
def glLoadMatrixx(ctx, m):
    call(ctx, "glLoadMatrixf", _floats(list(m)[:16]))


@entry_point
def glMultMatrixx(ctx, m):
    call(ctx, "glMultMatrixf", _floats(list(m)[:16]))


@entry_point
def glMaterialx(ctx, face, pname, param):
    call(ctx, "glMaterialf", face, pname, fixed_to_float(param))


@entry_point
def glMaterialxv(ctx, face, pname, params):
    call(ctx, "glMaterialfv", face, pname, _floats(params))


@entry_point
def glMultiTexCoord4x(ctx, texture, s, t, r, q):
    call(ctx, "glMultiTexCoord4f", texture, *_floats((s, t, r, q)))


@entry_point
def glPointParameterx(ctx, pname, param):
    call(ctx, "glPointParameterf", pname, fixed_to_float(param))


@entry_point
def glPointParameterxv(ctx, pname, params):
    call(ctx, "glPointParameterfv", pname, _floats(params))


@entry_point
def glSampleCoveragex(ctx, value, invert):
    call(ctx, "glSampleCoverage", fixed_to_float(value), invert)


@entry_point
def glTexEnvx(ctx, target, pname, param):
    call(ctx, "glTexEnvfv", target, pname, _mixed(pname, (param,), _ENV_RAW))


@entry_point
def glTexEnvxv(ctx, target, pname, params):
    call(ctx, "glTexEnvfv", target, pname, _mixed(pname, params, _ENV_RAW))


@entry_point
def glTexParameterx(ctx, target, pname, param):
    call(ctx, "glTexParameterfv", target, pname, _mixed(pname, (param,), _texparam_raw(pname)))


@entry_point
def glTexParameterxv(ctx, target, pname, params):
    call(ctx, "glTexParameterfv", target, pname, _mixed(pname, params, _texparam_raw(pname)))


# -- OES extension commands of ES 1.1 that are the core commands under another name ----------
def _oes_forwarder(name: str, target: str, extension: str, convert=None):
    def guard(ctx, name):
        if not ctx.api.has_extension(extension):
            raise GLError(E.GL_INVALID_OPERATION, f"{name}: {extension} is not supported")
    return forward(name, target, guard=guard, convert=convert, doc=f"{name} ({extension}): {target}.")


def _texgen_x(coord, pname, param):
    return coord, pname, _mixed(pname, (param,), _TEXGEN_RAW)


def _texgen_xv(coord, pname, params):
    return coord, pname, _mixed(pname, params, _TEXGEN_RAW)


_FORWARDED = {
    "GL_OES_blend_equation_separate": {"glBlendEquationSeparateOES": "glBlendEquationSeparate"},
    "GL_OES_blend_func_separate": {"glBlendFuncSeparateOES": "glBlendFuncSeparate"},
    "GL_OES_blend_subtract": {"glBlendEquationOES": "glBlendEquation"},
    "GL_OES_framebuffer_object": {n: n[:-3] for n in ES1_EXTENSION_COMMANDS["GL_OES_framebuffer_object"]},
    "GL_OES_single_precision": {"glClipPlanefOES": "glClipPlanef", "glFrustumfOES": "glFrustumf",
                                "glGetClipPlanefOES": "glGetClipPlanef", "glOrthofOES": "glOrthof"},
    "GL_OES_texture_cube_map": {"glTexGenfOES": "glTexGenf", "glTexGenfvOES": "glTexGenfv",
                                "glTexGeniOES": "glTexGeni", "glTexGenivOES": "glTexGeniv",
                                "glGetTexGenfvOES": "glGetTexGenfv",
                                "glGetTexGenivOES": "glGetTexGeniv"},
}
for _ext, _names in _FORWARDED.items():
    for _name, _target in _names.items():
        _oes_forwarder(_name, _target, _ext)
for _name, _target in _FIXED_POINT_OES.items():
    _oes_forwarder(_name, _target, "GL_OES_fixed_point")
_oes_forwarder("glTexGenxOES", "glTexGenfv", "GL_OES_texture_cube_map", _texgen_x)
_oes_forwarder("glTexGenxvOES", "glTexGenfv", "GL_OES_texture_cube_map", _texgen_xv)
del _ext, _names, _name, _target


@entry_point
def glGetTexGenxvOES(ctx, coord, pname):
    if not ctx.api.has_extension("GL_OES_texture_cube_map"):
        raise GLError(E.GL_INVALID_OPERATION, "glGetTexGenxvOES: GL_OES_texture_cube_map is not supported")
    return _fixed_out(pname, call(ctx, "glGetTexGenfv", coord, pname), _TEXGEN_RAW)


# -- OES_point_size_array ------------------------------------------------------------------
@entry_point
def glPointSizePointerOES(ctx, type, stride, pointer):
    """The per-vertex point size of point draws (ES 1.1 OES_point_size_array):
    FIXED or FLOAT, one value per vertex; enabled with
    glEnableClientState(GL_POINT_SIZE_ARRAY_OES)."""
    if not ctx.api.has_extension("GL_OES_point_size_array"):
        raise GLError(E.GL_INVALID_OPERATION, "glPointSizePointerOES: GL_OES_point_size_array is not supported")
    ctx._legacy_pointer(E.GL_POINT_SIZE_ARRAY_OES, 1, type, stride, pointer, (1,),
                        (E.GL_FIXED, E.GL_FLOAT), False)


# -- OES_draw_texture ------------------------------------------------------------------------
def _draw_tex(ctx, name: str, x, y, z, width, height) -> None:
    """OES_draw_texture: a window-aligned rectangle with lower-left corner
    (x, y), of width x height pixels, at depth n + clamp(z, 0, 1) * (f - n).
    Its fragments carry the current colour and, for each unit with an
    enabled 2D texture, texture coordinates spanning the texture's crop
    rectangle (TEXTURE_CROP_RECT_OES, in texels of the base level); the
    texture and modelview/projection matrices, lighting and the viewport do
    not apply, the rest of the fragment pipeline does."""
    check(width > 0 and height > 0, E.GL_INVALID_VALUE, "width and height must be positive")
    fb = ctx._pipe_framebuffer_state()
    fb_w, fb_h = fb.width_px, fb.height_px
    xs = (np.array([x, x + width], np.float64) / fb_w) * 2 - 1
    ys = (np.array([y, y + height], np.float64) / fb_h) * 2 - 1
    nz = 2 * min(max(float(z), 0.0), 1.0) - 1          # window depth n + z (f - n)
    corners = [(0, 0), (1, 0), (1, 1), (0, 1)]          # a fan: lower left, counter-clockwise
    arrays = {(E.GL_VERTEX_ARRAY, 0): np.array([[xs[i], ys[j], nz, 1] for i, j in corners], np.float32),
              (E.GL_COLOR_ARRAY, 0): np.tile(np.asarray(ctx.legacy.current_color, np.float32), (4, 1))}
    units = tuple(u for u in ctx._ff_texture_units() if u.target == E.GL_TEXTURE_2D)
    for u in units:
        tex = ctx.texture_units[u.unit][E.GL_TEXTURE_2D]
        base = tex.image(0, tex.base_level)
        cx, cy, cw, ch = crop_rect(tex)
        s = (cx + np.array([0, cw])) / base.width
        t = (cy + np.array([0, ch])) / base.height
        arrays[(E.GL_TEXTURE_COORD_ARRAY, u.unit)] = np.array(
            [[s[i], t[j], 0, 1] for i, j in corners], np.float32)
    fkey = ctx._ff_keys(units)[1]
    prog = ctx._ff_program_for(None, fkey)      # the pass-through vertex stage of pixel rectangles
    st = ctx.state
    saved = (ctx.current_program, st.viewport, set(st.enabled))
    ctx.current_program = prog
    st.viewport = (0, 0, fb_w, fb_h)
    st.enabled -= {E.GL_CULL_FACE, E.GL_POLYGON_OFFSET_FILL, *(E.GL_CLIP_DISTANCE0 + i for i in range(8))}
    try:
        ctx._draw_temporary_arrays(E.GL_TRIANGLE_FAN, arrays, 4)
    finally:
        ctx.current_program, st.viewport, st.enabled = saved


def crop_rect(tex) -> tuple:
    """TEXTURE_CROP_RECT_OES of a texture object (Ucr, Vcr, Wcr, Hcr); initially 0, 0, 0, 0."""
    return getattr(tex, "crop_rect_oes", (0, 0, 0, 0))


def _draw_tex_entry(name: str, convert):
    def entry(ctx, *args):
        if not ctx.api.has_extension("GL_OES_draw_texture"):
            raise GLError(E.GL_INVALID_OPERATION, f"{name}: GL_OES_draw_texture is not supported")
        values = convert(args[0] if name.endswith("vOES") else args)
        check(len(values) == 5 and all(math.isfinite(v) for v in values), E.GL_INVALID_VALUE,
              "five finite values")
        _draw_tex(ctx, name, *values)
    entry.__name__ = entry.__qualname__ = name
    entry.__doc__ = f"{name} (OES_draw_texture): see _draw_tex."
    return entry_point(entry)


for _suffix, _convert in (("s", lambda v: [float(a) for a in list(v)[:5]]),
                          ("i", lambda v: [float(a) for a in list(v)[:5]]),
                          ("f", lambda v: [float(a) for a in list(v)[:5]]),
                          ("x", lambda v: _floats(list(v)[:5]))):
    _draw_tex_entry(f"glDrawTex{_suffix}OES", _convert)
    _draw_tex_entry(f"glDrawTex{_suffix}vOES", _convert)
del _suffix, _convert


# -- OES_compressed_paletted_texture -----------------------------------------------
# The ten paletted formats: internal format -> (index bits, base format, the palette
# entries' client type). An image is a palette of 16 (4-bit indices) or 256 entries
# followed by the indices of each level, a byte holding two 4-bit indices with the
# first in its high half. The GL expands it on upload (as Mesa does): each level
# becomes an uncompressed image of the base format, specified as glTexImage2D with
# the palette's own format and type would.
PALETTED: dict[int, tuple[int, int, int]] = {
    0x8B90: (4, E.GL_RGB, E.GL_UNSIGNED_BYTE),             # PALETTE4_RGB8_OES
    0x8B91: (4, E.GL_RGBA, E.GL_UNSIGNED_BYTE),            # PALETTE4_RGBA8_OES
    0x8B92: (4, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5),      # PALETTE4_R5_G6_B5_OES
    0x8B93: (4, E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4),   # PALETTE4_RGBA4_OES
    0x8B94: (4, E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1),   # PALETTE4_RGB5_A1_OES
    0x8B95: (8, E.GL_RGB, E.GL_UNSIGNED_BYTE),             # PALETTE8_RGB8_OES
    0x8B96: (8, E.GL_RGBA, E.GL_UNSIGNED_BYTE),            # PALETTE8_RGBA8_OES
    0x8B97: (8, E.GL_RGB, E.GL_UNSIGNED_SHORT_5_6_5),      # PALETTE8_R5_G6_B5_OES
    0x8B98: (8, E.GL_RGBA, E.GL_UNSIGNED_SHORT_4_4_4_4),   # PALETTE8_RGBA4_OES
    0x8B99: (8, E.GL_RGBA, E.GL_UNSIGNED_SHORT_5_5_5_1),   # PALETTE8_RGB5_A1_OES
}


def _palette_entry_B(base: int, type: int) -> int:
    return (3 if base == E.GL_RGB else 4) if type == E.GL_UNSIGNED_BYTE else 2


def paletted_image_size(internalformat: int, width: int, height: int, levels: int) -> int:
    """Bytes of a paletted image: the palette, then each level's indices (packed,
    without row padding)."""
    bits, base, type = PALETTED[internalformat]
    size = (1 << bits) * _palette_entry_B(base, type)
    for lv in range(levels):
        w, h = max(1, width >> lv), max(1, height >> lv)
        size += (w * h * bits + 7) // 8
    return size


def paletted_tex_image(ctx, target, level, internalformat, width, height, border, image_size, data) -> None:
    """glCompressedTexImage2D of a paletted format (ES 1.1 contexts). ``level`` is 0
    or minus the number of levels below the base one that follow it; INVALID_VALUE
    for a positive level, a border (ES 1.1 section 3.7.1's rule for TexImage2D),
    a negative size or an imageSize other than the palette plus the levels'
    indices."""
    check(level <= 0, E.GL_INVALID_VALUE, "a paletted image's level is 0 or minus its mipmap count")
    check(border == 0, E.GL_INVALID_VALUE, "border must be 0")
    check(width >= 0 and height >= 0, E.GL_INVALID_VALUE, "negative size")
    levels = 1 - level
    check(image_size == paletted_image_size(internalformat, width, height, levels), E.GL_INVALID_VALUE,
          "imageSize does not match the palette and indices")
    bits, base, type = PALETTED[internalformat]
    entry_B = _palette_entry_B(base, type)
    raw = None if data is None else np.frombuffer(bytes(memoryview(data).cast("B"))[:image_size], np.uint8)
    check(raw is None or raw.size == image_size, E.GL_INVALID_VALUE, "data shorter than imageSize")
    palette_B = (1 << bits) * entry_B
    offset = palette_B
    align = ctx.state.unpack.alignment
    for lv in range(levels):
        w, h = max(1, width >> lv), max(1, height >> lv)
        count = (w * h * bits + 7) // 8
        pixels = None
        if raw is not None:
            packed = raw[offset:offset + count]
            if bits == 4:       # two indices a byte, the first in the high half
                idx = np.stack([packed >> 4, packed & 0xF], 1).reshape(-1)[:w * h]
            else:
                idx = packed
            texels = raw[:palette_B].reshape(-1, entry_B)[idx].reshape(h, w * entry_B)
            row_B = -(-w * entry_B // align) * align          # rows padded to UNPACK_ALIGNMENT
            pixels = np.pad(texels, ((0, 0), (0, row_B - w * entry_B))).tobytes()
        offset += count
        call(ctx, "glTexImage2D", target, lv, base, w, h, 0, base, type, pixels)
