"""GLSL language versions, profiles and the extensions the front end exposes.

A version is a number plus a flag for OpenGL ES. `GLSLVersion.at_least(d, e)`
mirrors Mesa's ``state->is_version(desktop, es)``: true when the shader is a
desktop shader of version >= d, or an ES shader of version >= e (0 = never).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

DESKTOP_VERSIONS = (110, 120, 130, 140, 150, 330, 400, 410, 420, 430, 440, 450, 460)
ES_VERSIONS = (100, 300, 310, 320)


@dataclass(frozen=True, slots=True)
class GLSLVersion:
    number: int
    es: bool = False
    profile: str = "compatibility"  # "es", "core" or "compatibility"

    def at_least(self, desktop: int, es: int = 0) -> bool:
        if self.es:
            return es != 0 and self.number >= es
        return desktop != 0 and self.number >= desktop

    @property
    def compatibility(self) -> bool:
        """Deprecated built-ins (gl_Vertex, ftransform, ...) are available."""
        return not self.es and self.profile == "compatibility"

    @property
    def name(self) -> str:
        n = f"{self.number // 100}.{self.number % 100:02d}"
        return f"GLSL ES {n}" if self.es else f"GLSL {n}"

    def __str__(self) -> str:
        return self.name


DEFAULT_VERSION = GLSLVersion(110, False, "compatibility")


def _supported_list() -> str:
    items = [f"{v // 100}.{v % 100:02d}" for v in DESKTOP_VERSIONS]
    items += [f"{v // 100}.{v % 100:02d} ES" for v in ES_VERSIONS]
    return ", ".join(items)  # Mesa's list: "1.10, 1.20, ..., 1.00 ES, 3.00 ES"


def parse_version(number: int, profile: str | None,
                  compat_context: bool | None = None) -> tuple[GLSLVersion, str | None]:
    """The version of a `#version NUMBER [PROFILE]` line, and an error text or None.

    `compat_context` is whether the GL context compiling the shader is a
    compatibility one (None: unknown). As in Mesa, deprecated features stay in
    1.40 and later only with the compatibility profile or ARB_compatibility,
    which a compatibility context has: there a desktop 1.40+ shader without a
    `core` token gets the compatibility profile, and in a core context 1.40
    loses them. Unknown keeps 1.40 compatibility and 1.50+ core.
    """
    if profile is not None and profile not in ("es", "core", "compatibility"):
        return (GLSLVersion(number if number in DESKTOP_VERSIONS else 110),
                f"\"{profile}\" is not a valid shading language profile; if present, "
                "it must be \"core\", \"compatibility\", or \"es\"")
    es = profile == "es" or number == 100
    if es:
        if number == 100 and profile == "es":
            return GLSLVersion(100, True, "es"), "GLSL 1.00 ES should be selected using `#version 100'"
        if number not in ES_VERSIONS:
            name = f"GLSL ES {number // 100}.{number % 100:02d}"
            return (GLSLVersion(100, True, "es"),
                    f"{name} is not supported. Supported versions are: {_supported_list()}")
        if number >= 300 and profile != "es":
            return GLSLVersion(number, True, "es"), "#version 300 and later require the `es' profile"
        return GLSLVersion(number, True, "es"), None
    if number in (300, 310) and profile is None:
        return (GLSLVersion(number, True, "es"),
                f"GLSL {number // 100}.{number % 100:02d} is not supported. "
                f"Supported versions are: {_supported_list()}")
    if number not in DESKTOP_VERSIONS:
        name = f"GLSL {number // 100}.{number % 100:02d}"
        return (GLSLVersion(110), f"{name} is not supported. Supported versions are: {_supported_list()}")
    if profile is not None and number < 150:
        return GLSLVersion(number, False, "compatibility"), "illegal text following version number"
    if number < 140:
        return GLSLVersion(number, False, "compatibility"), None
    if profile is not None:
        return GLSLVersion(number, False, profile), None
    if compat_context is None:
        return GLSLVersion(number, False, "compatibility" if number < 150 else "core"), None
    return GLSLVersion(number, False, "compatibility" if compat_context else "core"), None


@dataclass(frozen=True, slots=True)
class Extension:
    """An extension the front end knows: where it may be enabled."""

    name: str
    desktop: int = 0  # lowest desktop version where it may be enabled (0 = never)
    es: int = 0  # lowest ES version where it may be enabled (0 = never)


EXTENSIONS = (
    Extension("GL_ARB_compute_shader", desktop=140),
    Extension("GL_ARB_shader_storage_buffer_object", desktop=110),
    Extension("GL_ARB_explicit_attrib_location", desktop=110),
    Extension("GL_ARB_explicit_uniform_location", desktop=130),
    Extension("GL_ARB_separate_shader_objects", desktop=110),
    Extension("GL_ARB_texture_rectangle", desktop=110),
    Extension("GL_ARB_uniform_buffer_object", desktop=110),
    Extension("GL_ARB_shader_image_load_store", desktop=130),
    Extension("GL_ARB_shader_atomic_counters", desktop=140),
    Extension("GL_ARB_shading_language_420pack", desktop=110),
    Extension("GL_ARB_arrays_of_arrays", desktop=110),
    Extension("GL_ARB_shader_bit_encoding", desktop=130),
    Extension("GL_ARB_texture_gather", desktop=130),
    Extension("GL_AMD_texture_texture4", desktop=110),
    Extension("GL_ARB_ES3_2_compatibility", desktop=110),  # gl_BoundingBox in the control stage     # texture4(): textureGather's component 0
    Extension("GL_ARB_texture_cube_map_array", desktop=110),
    Extension("GL_ARB_texture_multisample", desktop=130),
    Extension("GL_ARB_sample_shading", desktop=130),
    Extension("GL_ARB_post_depth_coverage", desktop=110),
    Extension("GL_ARB_gpu_shader5", desktop=150),
    Extension("GL_ARB_derivative_control", desktop=150),
    Extension("GL_ARB_shader_draw_parameters", desktop=140),
    Extension("GL_ARB_shader_atomic_counter_ops", desktop=140),
    Extension("GL_ARB_gpu_shader_fp64", desktop=150),
    Extension("GL_ARB_gpu_shader_int64", desktop=150),
    Extension("GL_ARB_tessellation_shader", desktop=110),
    Extension("GL_ARB_cull_distance", desktop=130),
    Extension("GL_ARB_shader_texture_image_samples", desktop=110),
    Extension("GL_ARB_shader_group_vote", desktop=110),
    Extension("GL_ARB_shader_ballot", desktop=110),       # ballotARB, readInvocationARB, gl_SubGroup*ARB
    Extension("GL_ARB_shader_subroutine", desktop=150),
    Extension("GL_ARB_viewport_array", desktop=110),           # gl_ViewportIndex in the geometry stage
    Extension("GL_ARB_fragment_layer_viewport", desktop=150),  # gl_Layer / gl_ViewportIndex in the fragment stage
    Extension("GL_ARB_vertex_attrib_64bit", desktop=150),
    # gl_Layer / gl_ViewportIndex written by the vertex stage (and the evaluation stage: ARB)
    Extension("GL_AMD_vertex_shader_layer", desktop=110),
    Extension("GL_AMD_vertex_shader_viewport_index", desktop=110),
    Extension("GL_ARB_shader_viewport_layer_array", desktop=110),
    Extension("GL_ARB_enhanced_layouts", desktop=140),
    # core in GLSL 4.20 / 4.30: the #extension line only names what the version has
    Extension("GL_ARB_shading_language_packing", desktop=110),
    Extension("GL_ARB_texture_query_levels", desktop=110),
    Extension("GL_ARB_shader_texture_lod", desktop=110),
    Extension("GL_ARB_draw_instanced", desktop=110),
    Extension("GL_ARB_fragment_coord_conventions", desktop=110),
    # as in Mesa, from every version: layout(depth_*) on gl_FragDepth, imageSize() (images
    # need GL_ARB_shader_image_load_store below 4.20), only the macro, textureQueryLOD()
    Extension("GL_ARB_conservative_depth", desktop=110),
    Extension("GL_AMD_conservative_depth", desktop=110),   # the same qualifiers, AMD's name
    Extension("GL_AMD_shader_trinary_minmax", desktop=110),   # min3, max3, mid3 (as Mesa, every version)
    Extension("GL_ARB_shader_stencil_export", desktop=110),   # gl_FragStencilRefARB
    Extension("GL_AMD_shader_stencil_export", desktop=110),   # gl_FragStencilRefAMD (the same output)
    Extension("GL_ARB_shader_image_size", desktop=110),
    Extension("GL_ARB_shader_precision", desktop=110),
    Extension("GL_ARB_texture_query_lod", desktop=110),
    Extension("GL_EXT_texture_array", desktop=110),
    Extension("GL_EXT_gpu_shader4", desktop=110),
    Extension("GL_OES_standard_derivatives", es=100),
    Extension("GL_EXT_shader_texture_lod", es=100),
    Extension("GL_EXT_frag_depth", es=100),
    Extension("GL_APPLE_clip_distance", es=100),
    Extension("GL_EXT_draw_instanced", es=100),
    Extension("GL_EXT_draw_buffers", es=100),          # gl_FragData[i > 0] in GLSL ES 1.00
    Extension("GL_EXT_blend_func_extended", es=100),   # gl_SecondaryFrag*EXT (1.00), layout(index) (3.00)
    Extension("GL_EXT_shader_integer_mix", desktop=130, es=300),
    # texture(bias) / textureLod(Offset) of array and cube shadow samplers
    Extension("GL_EXT_texture_shadow_lod", desktop=130, es=300),
    # `inout' fragment outputs / gl_LastFragData read the framebuffer (framebuffer_fetch.py)
    Extension("GL_EXT_shader_framebuffer_fetch", desktop=110, es=100),
    Extension("GL_EXT_shader_framebuffer_fetch_non_coherent", desktop=110, es=100),
    Extension("GL_ARM_shader_framebuffer_fetch_depth_stencil", desktop=110, es=100),  # gl_LastFragDepthARM/StencilARM
    # ARB_gpu_shader5's integer functions, frexp/ldexp and int->uint conversions
    Extension("GL_MESA_shader_integer_functions", desktop=130, es=300),
    Extension("GL_ARB_shader_clock", desktop=110),
    # #include and #line <line> "<path>" (preprocessor.py, include.py)
    Extension("GL_ARB_shading_language_include", desktop=110),     # clock2x32ARB(), clockARB() (the ISA's clock)
    # atomics on float buffer/shared variables and r32f images (the ISA's f-ops)
    Extension("GL_NV_shader_atomic_float", desktop=110),
    Extension("GL_INTEL_shader_atomic_float_minmax", desktop=110),
    # samplerExternalOES with texture2D/texture2DProj (1.00), and with texture, textureProj,
    # textureSize and texelFetch from GLSL ES 3.00 (_essl3)
    Extension("GL_OES_EGL_image_external", es=100),
    Extension("GL_OES_EGL_image_external_essl3", es=300),
    Extension("GL_OES_texture_cube_map_array", es=310),
    Extension("GL_EXT_texture_cube_map_array", es=310),
    Extension("GL_OES_texture_buffer", es=310),
    Extension("GL_EXT_texture_buffer", es=310),
    Extension("GL_OES_shader_image_atomic", es=310),
    Extension("GL_NV_image_formats", es=310),
    Extension("GL_OES_viewport_array", es=310),      # gl_ViewportIndex, gl_MaxViewports          # GLSL ES image formats beyond table 4.x
    Extension("GL_OES_texture_storage_multisample_2d_array", es=310),
    Extension("GL_OES_sample_variables", es=300),
    Extension("GL_KHR_blend_equation_advanced", desktop=110, es=100),   # layout(blend_support_*) out;
    # GLSL ES 3.10 names of what GLSL ES 3.20 made core (ES_IMPLIED)
    Extension("GL_OES_shader_io_blocks", es=310),
    Extension("GL_EXT_shader_io_blocks", es=310),
    Extension("GL_OES_shader_multisample_interpolation", es=300),
    Extension("GL_OES_primitive_bounding_box", es=310),
    Extension("GL_EXT_primitive_bounding_box", es=310),
    Extension("GL_OES_geometry_shader", es=310),
    Extension("GL_EXT_geometry_shader", es=310),
    Extension("GL_OES_tessellation_shader", es=310),
    Extension("GL_EXT_tessellation_shader", es=310),
    Extension("GL_OES_gpu_shader5", es=310),
    Extension("GL_EXT_gpu_shader5", es=310),
)


# GLSL ES extensions -> the extensions whose availability rules the compiler's tables use
# for the same feature (a desktop ARB name, or the OES name of an EXT one).
ES_IMPLIED: dict[str, tuple[str, ...]] = {
    "GL_EXT_shader_io_blocks": ("GL_OES_shader_io_blocks",),
    "GL_EXT_primitive_bounding_box": ("GL_OES_primitive_bounding_box",),
    "GL_EXT_geometry_shader": ("GL_OES_geometry_shader",),
    "GL_EXT_tessellation_shader": ("GL_OES_tessellation_shader",),
    "GL_OES_tessellation_shader": ("GL_ARB_tessellation_shader",),
    "GL_EXT_gpu_shader5": ("GL_OES_gpu_shader5",),
    "GL_OES_gpu_shader5": ("GL_ARB_gpu_shader5",),
    "GL_EXT_texture_buffer": ("GL_OES_texture_buffer",),
    "GL_EXT_texture_cube_map_array": ("GL_OES_texture_cube_map_array",),
}
# GLSL ES 3.20 (section 1.1): the GLSL ES 3.10 extensions it made core.
ES32_CORE = ("GL_OES_geometry_shader", "GL_OES_tessellation_shader", "GL_OES_gpu_shader5",
             "GL_OES_shader_io_blocks", "GL_OES_primitive_bounding_box",
             "GL_OES_shader_multisample_interpolation", "GL_OES_sample_variables",
             "GL_OES_shader_image_atomic", "GL_OES_texture_buffer", "GL_OES_texture_cube_map_array",
             "GL_OES_texture_storage_multisample_2d_array", "GL_KHR_blend_equation_advanced")


def implied_extensions(version: GLSLVersion, extensions: dict[str, str]) -> dict[str, str]:
    """`extensions` (name -> #extension behaviour) with what they imply for the
    compiler's availability rules: in GLSL ES 3.20 the extensions it made core are
    enabled, and an ES name enables the name the tables use for its feature
    (ES_IMPLIED). Explicitly named extensions keep their behaviour."""
    out = dict(extensions)
    if version.es and version.number >= 320:
        for name in ES32_CORE:
            out.setdefault(name, "enable")
    todo = [n for n, b in out.items() if b != "disable"]
    while todo:
        for implied in ES_IMPLIED.get(todo.pop(), ()):
            if implied not in out:
                out[implied] = "enable"
                todo.append(implied)
    return out


def extension_table(version: GLSLVersion,
                    available: Collection[str] | None = None) -> list[Extension]:
    """Extensions that may be named in `#extension` for this version: those
    the compiler implements for it, and, when `available` is given (the GL
    context's extensions with a shading-language part), only those."""
    return [e for e in EXTENSIONS if version.at_least(e.desktop, e.es)
            and (available is None or e.name in available)]
