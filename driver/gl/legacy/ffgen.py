"""The fixed-function pipeline of OpenGL 2.1 as GLSL 1.20, generated from a
key of the state that changes the code (as Mesa's ffvertex_prog.c and
texenvprogram.c do). Values that only change numbers (light colours,
planes, fog parameters, matrices) are read from the built-in uniform state
(stateblock.py), so one program serves every value of them.

Vertex stage (GL 2.1 sections 2.11-2.14): eye-space position, normal
(rescale, normalize), lighting (equation 2.1 per enabled light:
directional / positional with attenuation / spot; two-sided; local viewer;
separate specular; colour material), texture coordinate generation and
texture matrices, fog coordinate, point size attenuation.

Fragment stage (sections 3.8.13-3.10): texture environments per enabled
unit (REPLACE, MODULATE, DECAL, BLEND, ADD per base format, tables
3.22/3.23; COMBINE, table 3.24/3.25), colour sum, fog, polygon stipple.
The alpha test, shading model and clip planes are done by the driver."""

from __future__ import annotations

from dataclasses import dataclass

from compiler.arb.to_ir import FOG_BLEND_SCALE
from driver.gl import enums as E

__all__ = ["LightKey", "UnitKey", "VertexKey", "FragmentKey", "vertex_source", "fragment_source",
           "pixel_vertex_source",
           "material_attribute", "MATERIAL_FIELDS", "POINT_SIZE_ATTRIBUTE", "COMBINE3_ATI", "E.GL_COMBINE4_NV",
           "E.GL_DOT3_RGB_EXT", "E.GL_DOT3_RGBA_EXT", "E.GL_OPERAND3_ALPHA_NV", "E.GL_OPERAND3_RGB_NV", "E.GL_REPLACE_EXT",
           "E.GL_SOURCE3_ALPHA_NV", "E.GL_SOURCE3_RGB_NV"]

# The old texture-environment extensions' tokens (compatibility contexts):
# EXT_texture's REPLACE_EXT; EXT_texture_env_dot3's DOT3 functions (ARB_texture_env_dot3's
# operation without RGB_SCALE/ALPHA_SCALE: "the scale is ignored", as Mesa does);
# ATI_texture_env_combine3's three functions of three arguments; NV_texture_env_combine4's
# mode, whose ADD and ADD_SIGNED add two products of four arguments.
COMBINE3_ATI = (E.GL_MODULATE_ADD_ATI, E.GL_MODULATE_SIGNED_ADD_ATI, E.GL_MODULATE_SUBTRACT_ATI)

MATERIAL_FIELDS = ("ambient", "diffuse", "specular", "emission", "shininess")


# OpenGL ES 1.1 OES_point_size_array: the vertex attribute carrying each point's size
POINT_SIZE_ATTRIBUTE = "shimgl_PointSizeOES"


def material_attribute(side: str, what: str) -> str:
    """The vertex attribute carrying material parameter `what` of face `side`
    ("Front"/"Back") when it changes between Begin and End."""
    return f"shimgl_{side}Material_{what}"


@dataclass(frozen=True)
class LightKey:
    index: int
    directional: bool
    spot: bool
    attenuated: bool


@dataclass(frozen=True)
class VertexKey:
    lighting: bool = False
    lights: tuple = ()                 # LightKey of the enabled lights
    two_side: bool = False
    local_viewer: bool = False
    separate_specular: bool = False
    color_material: tuple | None = None    # (face, mode) when enabled
    normalize: bool = False
    rescale: bool = False
    texcoords: tuple = ()              # (unit, (S, T, R, Q) texgen mode or 0[, texture matrix not identity])
    fog_coord: int | None = None       # GL_FRAGMENT_DEPTH / GL_FOG_COORD when fog is on
    fog_distance: int = E.GL_EYE_PLANE_ABSOLUTE_NV    # NV_fog_distance: the FRAGMENT_DEPTH distance
    point_attenuation: bool = False
    point_size_array: bool = False     # OES_point_size_array: the size is the vertex's POINT_SIZE_ATTRIBUTE
    vertex_materials: tuple = ()       # (side, what) read per vertex (glMaterial inside Begin/End)


@dataclass(frozen=True)
class UnitKey:
    unit: int
    target: int                        # GL_TEXTURE_1D/2D/3D/CUBE_MAP/RECTANGLE
    base_format: int                   # GL_RGBA, GL_RGB, GL_ALPHA, GL_LUMINANCE, ...
    mode: int
    combine: tuple = ()                # (rgb fn, alpha fn, src_rgb, op_rgb, src_alpha, op_alpha, scales)
    shadow: bool = False               # a depth texture with COMPARE_REF_TO_TEXTURE: its texel is the
                                       # comparison's result (r/q against the depth; section 3.8.16)


@dataclass(frozen=True)
class FragmentKey:
    units: tuple = ()                  # UnitKey of the enabled units
    color_sum: bool = False
    fog_mode: int | None = None
    pixels: str | None = None          # DrawPixels/Bitmap fragments: "color", "bitmap" or "depth"
    sprite_units: tuple = ()           # units whose coordinates are replaced by gl_PointCoord (point sprites)


_GEN = {E.GL_OBJECT_LINEAR: "object", E.GL_EYE_LINEAR: "eye", E.GL_SPHERE_MAP: "sphere",
        E.GL_REFLECTION_MAP: "reflection", E.GL_NORMAL_MAP: "normal"}


def _material(key: VertexKey, side: str, what: str) -> str:
    """A material parameter, or the current colour when colour material tracks it."""
    cm = key.color_material
    if cm is not None:
        face, mode = cm
        faces = {E.GL_FRONT: ("Front",), E.GL_BACK: ("Back",),
                 E.GL_FRONT_AND_BACK: ("Front", "Back")}[face]
        tracked = {E.GL_AMBIENT: ("ambient",), E.GL_DIFFUSE: ("diffuse",),
                   E.GL_SPECULAR: ("specular",), E.GL_EMISSION: ("emission",),
                   E.GL_AMBIENT_AND_DIFFUSE: ("ambient", "diffuse")}[mode]
        if side in faces and what in tracked:
            return "gl_Color"
    if (side, what) in key.vertex_materials:
        return material_attribute(side, what)
    return f"gl_{side}Material.{what}"


def _lighting(key: VertexKey, side: str, normal: str) -> list[str]:
    """Equation 2.1 for one face: sets col_<side> and spec_<side>."""
    mat = lambda w: _material(key, side, w)       # noqa: E731
    s = side.lower()
    out = [f"vec4 col_{s} = {mat('emission')} + {mat('ambient')} * gl_LightModel.ambient;",
           f"vec3 spec_{s} = vec3(0.0);"]
    for lk in key.lights:
        i = lk.index
        L = f"gl_LightSource[{i}]"
        v = f"{s}{i}"
        if lk.directional:
            out.append(f"vec3 VP_{v} = normalize({L}.position.xyz);")
            out.append(f"float att_{v} = 1.0;")
        else:
            out.append(f"vec3 Lv_{v} = {L}.position.xyz / {L}.position.w - ecPos3;")
            out.append(f"float d_{v} = length(Lv_{v});")
            out.append(f"vec3 VP_{v} = Lv_{v} / d_{v};")
            if lk.attenuated:
                out.append(f"float att_{v} = 1.0 / ({L}.constantAttenuation + {L}.linearAttenuation * d_{v}"
                           f" + {L}.quadraticAttenuation * d_{v} * d_{v});")
            else:
                out.append(f"float att_{v} = 1.0;")
        if lk.spot:
            out.append(f"float sd_{v} = dot(-VP_{v}, normalize({L}.spotDirection));")
            out.append(f"att_{v} *= sd_{v} >= {L}.spotCosCutoff ? "
                       f"pow(max(sd_{v}, 1e-20), {L}.spotExponent) : 0.0;")
        out.append(f"float nl_{v} = dot({normal}, VP_{v});")
        eye = "normalize(-ecPos3)" if key.local_viewer else "vec3(0.0, 0.0, 1.0)"
        out.append(f"vec3 h_{v} = normalize(VP_{v} + {eye});")
        out.append(f"float nh_{v} = max(dot({normal}, h_{v}), 1e-20);")
        out.append(f"float sp_{v} = nl_{v} > 0.0 ? pow(nh_{v}, {mat('shininess')}) : 0.0;")
        out.append(f"col_{s}.rgb += att_{v} * ({mat('ambient')}.rgb * {L}.ambient.rgb"
                   f" + max(nl_{v}, 0.0) * {mat('diffuse')}.rgb * {L}.diffuse.rgb);")
        out.append(f"spec_{s} += att_{v} * sp_{v} * {mat('specular')}.rgb * {L}.specular.rgb;")
    out.append(f"col_{s}.a = {mat('diffuse')}.a;")
    return out


def _texgen(unit: int, modes: tuple, matrix: bool = True) -> list[str]:
    out = [f"vec4 tc{unit} = gl_MultiTexCoord{unit};"]
    for c, (comp, mode) in enumerate(zip("STRQ", modes)):
        if not mode:
            continue
        kind = _GEN[mode]
        field = "xyzw"[c]
        if kind == "object":
            out.append(f"tc{unit}.{field} = dot(gl_ObjectPlane{comp}[{unit}], gl_Vertex);")
        elif kind == "eye":
            out.append(f"tc{unit}.{field} = dot(gl_EyePlane{comp}[{unit}], ecPos);")
        elif kind == "sphere":
            out.append(f"tc{unit}.{field} = sphere.{field if c < 2 else 'x'};")
        elif kind == "reflection":
            out.append(f"tc{unit}.{field} = refl.{field if c < 3 else 'x'};")
        else:
            out.append(f"tc{unit}.{field} = nrm.{field if c < 3 else 'x'};")
    # an identity texture matrix is left out (Mesa's texture-matrix key bit): fewer uniforms
    out.append(f"gl_TexCoord[{unit}] = " + (f"gl_TextureMatrix[{unit}] * tc{unit};" if matrix else f"tc{unit};"))
    return out


def vertex_source(key: VertexKey) -> str:
    modes = {m for _, ms, *_ in key.texcoords for m in ms if m}
    kinds = {_GEN[m] for m in modes}
    need_normal = key.lighting or kinds & {"sphere", "reflection", "normal"}
    body = ["vec4 ecPos = gl_ModelViewMatrix * gl_Vertex;",
            "vec3 ecPos3 = ecPos.xyz / ecPos.w;",
            "gl_Position = ftransform();",
            "gl_ClipVertex = ecPos;"]
    if need_normal:
        body.append("vec3 nrm = gl_NormalMatrix * gl_Normal;")
        if key.rescale and not key.normalize:
            body.append("nrm *= gl_NormalScale;")
        if key.normalize:
            body.append("nrm = normalize(nrm);")
    if key.lighting:
        body += _lighting(key, "Front", "nrm")
        if key.two_side:
            body.append("vec3 bnrm = -nrm;")
            body += _lighting(key, "Back", "bnrm")
        sides = ("Front", "Back") if key.two_side else ("Front",)
        for side in sides:
            s = side.lower()
            if key.separate_specular:
                body.append(f"gl_{side}Color = clamp(col_{s}, 0.0, 1.0);")
                body.append(f"gl_{side}SecondaryColor = vec4(clamp(spec_{s}, 0.0, 1.0), 0.0);")
            else:
                body.append(f"gl_{side}Color = clamp(vec4(col_{s}.rgb + spec_{s}, col_{s}.a), 0.0, 1.0);")
                body.append(f"gl_{side}SecondaryColor = vec4(0.0);")
        if not key.two_side:
            body += ["gl_BackColor = gl_FrontColor;", "gl_BackSecondaryColor = gl_FrontSecondaryColor;"]
    else:
        body += ["gl_FrontColor = gl_Color;", "gl_BackColor = gl_Color;",
                 "gl_FrontSecondaryColor = gl_SecondaryColor;",
                 "gl_BackSecondaryColor = gl_SecondaryColor;"]
    if kinds & {"sphere", "reflection"}:
        body.append("vec3 u = normalize(ecPos3);")
        body.append("vec3 refl = reflect(u, nrm);")
        if "sphere" in kinds:
            body.append("float m = 2.0 * sqrt(refl.x * refl.x + refl.y * refl.y + (refl.z + 1.0) * (refl.z + 1.0));")
            body.append("vec2 sphere = refl.xy / m + 0.5;")
    for unit, ms, *matrix in key.texcoords:
        body += _texgen(unit, ms, *matrix)
    if key.fog_coord is not None:      # NV_fog_distance: |ze|, ze, or the eye-space distance
        distance = {E.GL_EYE_PLANE: "ecPos.z", E.GL_EYE_RADIAL_NV: "length(ecPos.xyz)"}.get(key.fog_distance,
                                                                                           "abs(ecPos.z)")
        body.append("gl_FogFragCoord = " + ("gl_FogCoord;" if key.fog_coord == E.GL_FOG_COORD else distance + ";"))
    # ES 1.1 section 3.3: the point size array replaces POINT_SIZE, then attenuation and
    # the clamp to [POINT_SIZE_MIN, POINT_SIZE_MAX] apply as to POINT_SIZE
    size = POINT_SIZE_ATTRIBUTE if key.point_size_array else "gl_Point.size"
    if key.point_attenuation:
        # the distance is |z_eye|, as Mesa's fixed-function vertex program and piglit's
        # point-attenuation test take it (GL 2.1 section 3.4 words it as the eye distance)
        body.append("float pd = abs(ecPos.z);")
        body.append(f"float ps = {size} * inversesqrt(gl_Point.distanceConstantAttenuation"
                    " + gl_Point.distanceLinearAttenuation * pd"
                    " + gl_Point.distanceQuadraticAttenuation * pd * pd);")
        body.append("gl_PointSize = clamp(ps, max(gl_Point.sizeMin, 1.0), gl_Point.sizeMax);")
    elif key.point_size_array:
        body.append(f"gl_PointSize = clamp({size}, max(gl_Point.sizeMin, 1.0), gl_Point.sizeMax);")
    decls = f"attribute float {POINT_SIZE_ATTRIBUTE};\n" if key.point_size_array else ""
    decls += "".join(f"attribute {'float' if what == 'shininess' else 'vec4'} {material_attribute(side, what)};\n"
                    for side, what in key.vertex_materials)
    return "#version 120\n" + decls + "void main() {\n    " + "\n    ".join(body) + "\n}\n"


# -- fragment ----------------------------------------------------------------------------------

_SAMPLERS = {E.GL_TEXTURE_1D: ("sampler1D", "texture1DProj({s}, {c})"),
             E.GL_TEXTURE_2D: ("sampler2D", "texture2DProj({s}, {c})"),
             E.GL_TEXTURE_3D: ("sampler3D", "texture3DProj({s}, {c})"),
             E.GL_TEXTURE_CUBE_MAP: ("samplerCube", "textureCube({s}, {c}.xyz)"),
             E.GL_TEXTURE_RECTANGLE: ("sampler2DRect", "texture2DRectProj({s}, {c})")}


# the same with a depth comparison (GLSL 1.20's shadow functions: a vec4 expanded by
# DEPTH_TEXTURE_MODE through the sampler view's swizzle)
SHADOW_TARGETS = frozenset({E.GL_TEXTURE_1D, E.GL_TEXTURE_2D, E.GL_TEXTURE_RECTANGLE})
_SHADOW_SAMPLERS = {t: (_SAMPLERS[t][0] + "Shadow", _SAMPLERS[t][1].replace("texture", "shadow", 1))
                    for t in SHADOW_TARGETS}


def sampler_name(unit: int) -> str:
    return f"shimgl_Texture{unit}"


def _texenv(u: UnitKey) -> list[str]:
    """Tables 3.22/3.23: `prev` becomes the result of texture unit u."""
    t, f, i = f"tex{u.unit}", "prev", u.unit
    env = f"gl_TextureEnvColor[{i}]"
    base, mode = u.base_format, u.mode
    alpha_only = base == E.GL_ALPHA
    has_alpha = base in (E.GL_ALPHA, E.GL_LUMINANCE_ALPHA, E.GL_INTENSITY, E.GL_RGBA)
    if mode in (E.GL_COMBINE, E.GL_COMBINE4_NV):
        return _combine(u)
    if mode == E.GL_REPLACE:
        rgb = f"{f}.rgb" if alpha_only else f"{t}.rgb"
        a = f"{t}.a" if has_alpha else f"{f}.a"
    elif mode == E.GL_MODULATE:
        rgb = f"{f}.rgb" if alpha_only else f"{f}.rgb * {t}.rgb"
        a = f"{f}.a * {t}.a" if has_alpha else f"{f}.a"
    elif mode == E.GL_DECAL:
        if base == E.GL_RGB:
            rgb, a = f"{t}.rgb", f"{f}.a"
        elif base == E.GL_RGBA:
            rgb, a = f"mix({f}.rgb, {t}.rgb, {t}.a)", f"{f}.a"
        else:                                   # undefined: leave the fragment alone
            rgb, a = f"{f}.rgb", f"{f}.a"
    elif mode == E.GL_BLEND:
        rgb = f"{f}.rgb" if alpha_only else f"mix({f}.rgb, {env}.rgb, {t}.rgb)"
        if base == E.GL_INTENSITY:
            a = f"mix({f}.a, {env}.a, {t}.a)"
        else:
            a = f"{f}.a * {t}.a" if has_alpha else f"{f}.a"
    elif mode == E.GL_ADD:
        rgb = f"{f}.rgb" if alpha_only else f"{f}.rgb + {t}.rgb"
        if base == E.GL_INTENSITY:
            a = f"{f}.a + {t}.a"
        else:
            a = f"{f}.a * {t}.a" if has_alpha else f"{f}.a"
    else:
        raise ValueError(f"texture environment mode {mode:#x}")
    return [f"{f} = clamp(vec4({rgb}, {a}), 0.0, 1.0);"]


def _combine_arg(u: UnitKey, src: int, op: int, alpha: bool) -> str:
    i = u.unit
    v = {E.GL_TEXTURE: f"tex{i}", E.GL_CONSTANT: f"gl_TextureEnvColor[{i}]",
         E.GL_PRIMARY_COLOR: "gl_Color", E.GL_PREVIOUS: "prev", E.GL_ZERO: "vec4(0.0)",
         E.GL_ONE: "vec4(1.0)"}.get(src)
    if v is None:                              # GL_TEXTUREn (ARB_texture_env_crossbar)
        v = f"tex{src - E.GL_TEXTURE0}"
    if op == E.GL_SRC_COLOR:
        return f"{v}.rgb" if not alpha else f"{v}.a"
    if op == E.GL_ONE_MINUS_SRC_COLOR:
        return f"(1.0 - {v}.rgb)" if not alpha else f"(1.0 - {v}.a)"
    if op == E.GL_SRC_ALPHA:
        return f"vec3({v}.a)" if not alpha else f"{v}.a"
    return f"vec3(1.0 - {v}.a)" if not alpha else f"(1.0 - {v}.a)"


def _combine_fn(fn: int, a: list[str], alpha: bool) -> str:
    half = "0.5" if alpha else "vec3(0.5)"
    if fn == E.GL_REPLACE:
        return a[0]
    if fn == E.GL_MODULATE:
        return f"{a[0]} * {a[1]}"
    if fn == E.GL_ADD:
        return f"{a[0]} + {a[1]}"
    if fn == E.GL_ADD_SIGNED:
        return f"{a[0]} + {a[1]} - {half}"
    if fn == E.GL_INTERPOLATE:
        return f"mix({a[1]}, {a[0]}, {a[2]})"
    if fn == E.GL_SUBTRACT:
        return f"{a[0]} - {a[1]}"
    if fn in (E.GL_DOT3_RGB, E.GL_DOT3_RGBA, E.GL_DOT3_RGB_EXT, E.GL_DOT3_RGBA_EXT):
        d = f"4.0 * dot({a[0]} - vec3(0.5), {a[1]} - vec3(0.5))"
        return d if alpha else f"vec3({d})"
    if fn == E.GL_MODULATE_ADD_ATI:
        return f"{a[0]} * {a[2]} + {a[1]}"
    if fn == E.GL_MODULATE_SIGNED_ADD_ATI:
        return f"{a[0]} * {a[2]} + {a[1]} - {half}"
    if fn == E.GL_MODULATE_SUBTRACT_ATI:
        return f"{a[0]} * {a[2]} - {a[1]}"
    raise ValueError(f"combiner function {fn:#x}")


def _combine4_fn(fn: int, a: list[str], alpha: bool) -> str:
    """NV_texture_env_combine4: ADD is a0 a1 + a2 a3, ADD_SIGNED the same minus 0.5; the
    other functions read their first three arguments as in COMBINE."""
    half = "0.5" if alpha else "vec3(0.5)"
    if fn == E.GL_ADD:
        return f"{a[0]} * {a[1]} + {a[2]} * {a[3]}"
    if fn == E.GL_ADD_SIGNED:
        return f"{a[0]} * {a[1]} + {a[2]} * {a[3]} - {half}"
    return _combine_fn(fn, a, alpha)


def _combine(u: UnitKey) -> list[str]:
    fn_rgb, fn_a, src_rgb, op_rgb, src_a, op_a, (rgb_scale, alpha_scale) = u.combine
    i = u.unit
    rgb_args = [_combine_arg(u, s, o, False) for s, o in zip(src_rgb, op_rgb)]
    a_args = [_combine_arg(u, s, o, True) for s, o in zip(src_a, op_a)]
    fn = _combine4_fn if u.mode == E.GL_COMBINE4_NV else _combine_fn
    if fn_rgb in (E.GL_DOT3_RGB_EXT, E.GL_DOT3_RGBA_EXT):      # EXT_texture_env_dot3 ignores the scales
        rgb_scale = alpha_scale = 1.0
    out = [f"vec3 crgb{i} = {fn(fn_rgb, rgb_args, False)};"]
    if fn_rgb in (E.GL_DOT3_RGBA, E.GL_DOT3_RGBA_EXT):     # the alpha is the dot product too
        out.append(f"prev = clamp(vec4(crgb{i} * {rgb_scale:.1f}, crgb{i}.r * {rgb_scale:.1f}), 0.0, 1.0);")
        return out
    out.append(f"float ca{i} = {fn(fn_a, a_args, True)};")
    out.append(f"prev = clamp(vec4(crgb{i} * {rgb_scale:.1f}, ca{i} * {alpha_scale:.1f}), 0.0, 1.0);")
    return out


def pixel_vertex_source(key: FragmentKey) -> str:
    """The vertex stage of a pixel rectangle (GL 2.1 sections 3.6.4, 3.7): the
    quad is given in clip space; colour, secondary colour, texture coordinates
    and fog coordinate are the raster position's, passed through."""
    body = ["gl_Position = gl_Vertex;", "gl_FrontColor = gl_Color;", "gl_BackColor = gl_Color;",
            "gl_FrontSecondaryColor = gl_SecondaryColor;", "gl_BackSecondaryColor = gl_SecondaryColor;",
            "gl_FogFragCoord = gl_FogCoord;"]
    body += [f"gl_TexCoord[{u.unit}] = gl_MultiTexCoord{u.unit};" for u in key.units]
    return "#version 120\nvoid main() {\n    " + "\n    ".join(body) + "\n}\n"


# the pixel-rectangle fragment's own value: the image texel under the fragment
_PIXEL_FETCH = ("vec4 img = texture2D(shimgl_Pixels, (gl_FragCoord.xy - shimgl_PixelRect.xy)"
                " * shimgl_PixelRect.zw);")
_PIXEL_START = {"color": ["vec4 prev = img;"],
                "bitmap": ["if (img.a < 0.5) discard;", "vec4 prev = gl_Color;"],
                "depth": ["gl_FragDepth = img.r;", "vec4 prev = gl_Color;"]}


def fragment_source(key: FragmentKey) -> str:
    decls, body = [], ["vec4 prev = gl_Color;"]
    if key.pixels is not None:
        decls += ["uniform sampler2D shimgl_Pixels;", "uniform vec4 shimgl_PixelRect;"]
        body = [_PIXEL_FETCH, *_PIXEL_START[key.pixels]]
    for u in key.units:
        stype, call = (_SHADOW_SAMPLERS if u.shadow else _SAMPLERS)[u.target]
        decls.append(f"uniform {stype} {sampler_name(u.unit)};")
        coord = "vec4(gl_PointCoord, 0.0, 1.0)" if u.unit in key.sprite_units else f"gl_TexCoord[{u.unit}]"
        body.append(f"vec4 tex{u.unit} = " + call.format(s=sampler_name(u.unit), c=coord) + ";")
    for u in key.units:
        body += _texenv(u)
    if key.color_sum:
        body.append("prev.rgb = clamp(prev.rgb + gl_SecondaryColor.rgb, 0.0, 1.0);")
    if key.fog_mode is not None:
        c = "gl_FogFragCoord"
        f = {E.GL_LINEAR: f"(gl_Fog.end - {c}) * {FOG_BLEND_SCALE}",
             E.GL_EXP: f"exp(-gl_Fog.density * {c})",
             E.GL_EXP2: f"exp(-(gl_Fog.density * {c}) * (gl_Fog.density * {c}))"}[key.fog_mode]
        body.append(f"float fog = clamp({f}, 0.0, 1.0);")
        body.append("prev.rgb = mix(gl_Fog.color.rgb, prev.rgb, fog);")
    body.append("gl_FragColor = prev;")
    return ("#version 120\n" + "".join(d + "\n" for d in decls) + "void main() {\n    "
            + "\n    ".join(body) + "\n}\n")
