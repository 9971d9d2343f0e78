"""The one table of GL extensions and the context versions derived from it.

In the manner of Mesa's ``extensions_table.h`` + ``compute_version()``: each
line names an extension, the lowest context version of each API where it is
exposed (compatibility GL, core GL, GLES 1.x, GLES 2.0+; ``None``: never), the
shader-language part it has, and its status in shimgl. From this table alone
come

- the extension list of a context (``GL_EXTENSIONS``, ``glGetStringi``),
- which ``#extension`` names the GLSL compiler accepts in that context and the
  macros it predefines (``glsl_extensions``),
- the highest version a context of each API can claim (``max_version``).

Status of a line:

``DONE``
    everything the extension specifies works and has a test of its own; the
    name is advertised.
``CORE``
    the functionality works as part of a core version shimgl claims, but the
    extension name is not advertised yet (its own test, or what stands
    behind the name beyond the core feature, is missing). Counts towards the
    version.
``STAGE``
    a shader stage or type the GPU lacks and the compiler must lower (geometry,
    tessellation, fp64, subroutines, SPIR-V). Not advertised. The version
    computation tolerates these, so the version claimed is the highest whose
    every *API* feature works; ``pending_features(version)`` names what a
    program of that version may still miss, and docs/extensions.md says it.
``MISSING``
    not implemented; blocks every version that requires it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import Enum

from driver.gl.overrides import ENV, Override, read_override, warn

__all__ = ["DONE", "CORE", "STAGE", "MISSING", "EXTENSIONS", "Extension", "GL_VERSIONS",
           "ES_VERSIONS", "advertised", "available", "by_name", "extension_override", "glsl_extensions",
           "max_version", "pending_features"]

Version = tuple[int, int]


class Status(Enum):
    DONE = "done"
    CORE = "core"
    STAGE = "stage"
    MISSING = "missing"


DONE, CORE, STAGE, MISSING = Status.DONE, Status.CORE, Status.STAGE, Status.MISSING


@dataclass(frozen=True, slots=True)
class Extension:
    """One line of the table. ``gll``/``glc``/``es1``/``es2``: the lowest
    context version of compatibility GL, core GL, GLES 1.x and GLES 2.0+ where
    the extension is exposed (``None``: never in that API). ``glsl``: the
    extension has a shading-language part (``#extension`` name and macro);
    ``"es"``: in GLSL ES only (``has_glsl``)."""

    name: str
    gll: Version | None
    glc: Version | None
    es1: Version | None
    es2: Version | None
    status: Status
    glsl: bool | str = False

    def has_glsl(self, es: bool) -> bool:
        """Whether the extension has a shading-language part in that API (``glsl="es"``:
        in GLSL ES only, as EXT_draw_instanced, whose desktop GLSL side is
        EXT_gpu_shader4's gl_InstanceID)."""
        return self.glsl is True or (self.glsl == "es" and es)

    def exposed_in(self, es: bool, core: bool, version: Version) -> bool:
        if es:
            lowest = self.es1 if version < (2, 0) else self.es2
        else:
            lowest = self.glc if core else self.gll
        return lowest is not None and version >= lowest


def _x(name, gll, glc, es1, es2, status, glsl=False):
    return Extension(name, gll, glc, es1, es2, status, glsl)


_ANY = (1, 0)      # every version of the API
_ES2 = (2, 0)
_ES3 = (3, 0)
_ES31 = (3, 1)
_ES32 = (3, 2)
_GL30 = (3, 0)
_GL31 = (3, 1)
_GL32 = (3, 2)
_N = None

# Sorted by name within each group. The group is only for reading; a line's
# place in the table has no meaning.
EXTENSIONS: tuple[Extension, ...] = (
    # -- GL 1.x-2.x features under their extension names (compatibility profile): the
    # extension commands are the registry's aliases of the core ones (features/aliases.py).
    # The names whose every command and token core GL still has are listed in core contexts
    # too, as Mesa 22.3 does (test_core_profile_legacy_names.py): ARB_draw_buffers,
    # ARB_{fragment,vertex}_shader, ARB_shader_objects, ARB_half_float_pixel, the pixel
    # buffer objects, ARB_texture_non_power_of_two, ARB_vertex_buffer_object, the blend
    # equation separates, EXT_framebuffer_{object,blit,multisample}, the packed depth
    # stencils, EXT_provoking_vertex, EXT_vertex_array_bgra, MESA_texture_signed_rgba
    # (not ARB_point_sprite: its enable and COORD_REPLACE are gone from core)
    _x("GL_ARB_draw_buffers", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ATI_draw_buffers", _ANY, _N, _N, _N, DONE),     # test_legacy_small_extensions.py
    _x("GL_EXT_vertex_array_bgra", _ANY, _GL32, _N, _N, DONE),  # test_legacy_small_extensions.py
    # OpenGL ES 1.1's commands in compatibility contexts (entrypoints.context_commands;
    # test_nv_es1_1_compatibility.py)
    _x("GL_NV_ES1_1_compatibility", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_stencil_two_side", _ANY, _N, _N, _N, DONE),  # test_stencil_two_side.py
    # ARB assembly programs (compiler/arb, driver/gl/arbprogram.py; tests/compiler/arb,
    # tests/driver/gl/test_arbprogram*.py)
    _x("GL_ARB_fragment_program", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_fragment_program_shadow", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_vertex_program", _ANY, _N, _N, _N, DONE),
    # GL_ATI_fragment_shader (driver/gl/legacy/atifs.py, compiler/arb/atifs.py;
    # tests/driver/gl/test_ati_fragment_shader.py)
    _x("GL_ATI_fragment_shader", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_multisample", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_multitexture", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_occlusion_query", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_point_parameters", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_compression", _ANY, _N, _N, _N, DONE),
    # GL 1.3/1.4 texture environments under their names (test_texture_env_extensions.py)
    _x("GL_ARB_texture_env_add", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_env_combine", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_env_crossbar", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_env_dot3", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_env_add", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_env_combine", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_transpose_matrix", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_vertex_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_window_pos", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_blend_color", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_blend_equation_separate", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_blend_func_separate", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_copy_texture", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_draw_range_elements", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_fog_coord", _ANY, _N, _N, _N, DONE),
    _x("GL_NV_fog_distance", _ANY, _N, _N, _N, DONE),      # test_legacy_small_extensions.py
    _x("GL_MESA_pack_invert", _ANY, _GL32, _N, _N, DONE),  # test_legacy_small_extensions.py
    _x("GL_APPLE_vertex_array_object", _ANY, _N, _N, _N, DONE),   # test_legacy_small_extensions.py
    _x("GL_EXT_vertex_array", _ANY, _N, _N, _N, DONE),     # test_legacy_small_extensions.py
    # -- old names of features shimgl has under their core names (session 13): each name's own
    # commands (the registry's aliases), tokens and errors in tests/driver/gl/test_old_extension_names.py
    _x("GL_EXT_draw_buffers2", _ANY, _GL32, _N, _N, DONE),
    _x("GL_AMD_draw_buffers_blend", _ANY, _GL32, _N, _N, DONE),
    _x("GL_AMD_multi_draw_indirect", _ANY, _GL32, _N, _N, DONE),
    _x("GL_AMD_query_buffer_object", _ANY, _GL32, _N, _N, DONE),       # ARB_query_buffer_object's tokens
    _x("GL_APPLE_packed_pixels", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_point_sprite", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_vertex_array_bgra", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ATI_blend_equation_separate", _ANY, _GL32, _N, _N, DONE),     # features/old_names.py
    _x("GL_ATI_separate_stencil", _ANY, _N, _N, _N, DONE),            # features/old_names.py
    _x("GL_EXT_compiled_vertex_array", _ANY, _N, _N, _N, DONE),       # features/old_names.py
    _x("GL_EXT_point_parameters", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_rescale_normal", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_separate_specular_color", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_lod_bias", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_object", _ANY, _N, _N, _N, DONE),              # features/old_names.py
    _x("GL_EXT_texture_rectangle", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_timer_query", _ANY, _GL32, _N, _N, DONE),
    _x("GL_IBM_multimode_draw_arrays", _ANY, _GL32, _N, _N, DONE),  # test_ibm_extensions.py
    _x("GL_IBM_rasterpos_clip", _ANY, _N, _N, _N, DONE),          # test_ibm_extensions.py
    _x("GL_IBM_texture_mirrored_repeat", _ANY, _N, _N, _N, DONE),
    _x("GL_INGR_blend_func_separate", _ANY, _N, _N, _N, DONE),
    _x("GL_MESA_window_pos", _ANY, _N, _N, _N, DONE),                 # features/old_names.py
    _x("GL_NV_depth_clamp", _ANY, _GL32, _N, _N, DONE),
    _x("GL_NV_light_max_exponent", _ANY, _N, _N, _N, DONE),           # legacy/get.py
    _x("GL_NV_texgen_reflection", _ANY, _N, _N, _N, DONE),
    _x("GL_NV_texture_barrier", _ANY, _GL32, _N, _N, DONE),           # features/old_names.py
    _x("GL_NV_texture_rectangle", _ANY, _N, _N, _N, DONE),
    _x("GL_SGIS_texture_border_clamp", _ANY, _N, _N, _N, DONE),
    _x("GL_SUN_multi_draw_arrays", _ANY, _N, _N, _N, DONE),           # EXT_multi_draw_arrays' commands
    _x("GL_MESA_texture_signed_rgba", _ANY, _GL32, _N, _N, DONE),        # EXT_texture_snorm's RGBA formats
    _x("GL_NV_half_float", _ANY, _N, _N, _N, DONE),                   # features/half_float.py
    _x("GL_EXT_gpu_program_parameters", _ANY, _N, _N, _N, DONE),     # arbprogram.py
    # texture environments (legacy/ffgen.py, legacy/fixedfunc.py): EXT_texture's formats,
    # proxies and REPLACE_EXT; EXT dot3 (no scale); ATI's three functions; NV's four arguments
    _x("GL_ATI_texture_env_combine3", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_env_dot3", _ANY, _N, _N, _N, DONE),
    _x("GL_NV_texture_env_combine4", _ANY, _N, _N, _N, DONE),
    # LATC2's blocks under ATI's name (formats.py; compatibility contexts, as LATC)
    _x("GL_ATI_texture_compression_3dc", _ANY, _N, _N, _N, DONE),
    # ARB_texture_buffer_object's API; its GLSL side is EXT_gpu_shader4's texelFetchBuffer
    _x("GL_EXT_texture_buffer_object", _ANY, _N, _N, _N, DONE),
    # GLSL before GL 2.0: handles are GL 2.0 names (features/shader_objects.py)
    _x("GL_ARB_fragment_shader", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_shader_objects", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_shading_language_100", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_vertex_shader", _ANY, _GL32, _N, _N, DONE),
    # driver/gl/legacy/ext_dsa.py, its C marshalling driver/abi/marshal.py (the core commands');
    # tests/driver/gl/test_ext_direct_state_access.py, tests/driver/abi/c/ext_dsa.c
    _x("GL_EXT_direct_state_access", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_framebuffer_blit", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_framebuffer_multisample", _ANY, _GL32, _N, _N, DONE),
    # scaled resolves (readback.py, agx blit_program; test_framebuffer_multisample_blit_scaled.py)
    _x("GL_EXT_framebuffer_multisample_blit_scaled", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_framebuffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_multi_draw_arrays", _ANY, _N, _N, _ES2, DONE),
    _x("GL_EXT_secondary_color", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_stencil_wrap", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_subtexture", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture3D", _ANY, _N, _N, _N, DONE),
    # (tests/driver/gl/test_legacy_extension_names.py)
    _x("GL_ARB_compatibility", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_depth_texture", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_half_float_pixel", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_pixel_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_shadow", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_border_clamp", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_cube_map", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_mirrored_repeat", _ANY, _N, _N, _N, DONE),
    _x("GL_ARB_texture_non_power_of_two", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_abgr", _ANY, _GL32, _N, _N, DONE),        # test_pixels.py (ABGR client data)
    _x("GL_EXT_bgra", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_blend_subtract", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_packed_depth_stencil", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_packed_pixels", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_pixel_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_shadow_funcs", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_cube_map", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_edge_clamp", _ANY, _N, _N, _N, DONE),
    _x("GL_NV_blend_square", _ANY, _N, _N, _N, DONE),
    # EXT_packed_depth_stencil's tokens under NV's names; glCopyPixels of the packed pair as a
    # colour (driver/gl/legacy/raster.py; test_copy_depth_to_color.py)
    _x("GL_NV_copy_depth_to_color", _ANY, _N, _N, _N, DONE),
    _x("GL_NV_packed_depth_stencil", _ANY, _GL32, _N, _N, DONE),
    _x("GL_SGIS_generate_mipmap", _ANY, _N, _N, _N, DONE),
    _x("GL_SGIS_texture_edge_clamp", _ANY, _N, _N, _N, DONE),
    _x("GL_SGIS_texture_lod", _ANY, _N, _N, _N, DONE),
    # -- desktop GL features core by 3.3 ------------------------------------------------
    _x("GL_ARB_blend_func_extended", _ANY, _GL32, _N, _N, DONE),
    # glClampColor's vertex, fragment and read clamps (driver/gl/color_clamp.py; test_piglit_found_color_clamp.py)
    _x("GL_ARB_color_buffer_float", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_copy_buffer", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_depth_buffer_float", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_depth_clamp", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_draw_elements_base_vertex", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_draw_instanced", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_explicit_attrib_location", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_fragment_coord_conventions", _ANY, _GL32, _N, _N, DONE, glsl=True),   # test_fragment_coord_conventions.py
    _x("GL_ARB_framebuffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_framebuffer_sRGB", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_geometry_shader4", _ANY, _GL32, _N, _N, STAGE, glsl=True),
    _x("GL_ARB_half_float_vertex", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_instanced_arrays", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_map_buffer_range", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_occlusion_query2", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_provoking_vertex", _ANY, _GL32, _N, _N, DONE),     # test_provoking_vertex.py
    _x("GL_EXT_provoking_vertex", _ANY, _GL32, _N, _N, DONE),        # test_provoking_vertex.py
    _x("GL_ARB_sampler_objects", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_seamless_cube_map", _ANY, _GL32, _N, _N, DONE),
    # TEXTURE_CUBE_MAP_SEAMLESS per texture (and, ARB, per sampler): textures.py, draws.py
    _x("GL_AMD_seamless_cubemap_per_texture", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_seamless_cubemap_per_texture", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_shader_bit_encoding", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_texture_lod", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_sync", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_float", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ATI_texture_float", _ANY, _GL32, _N, _N, DONE),      # ARB_texture_float's values (test_ati_texture_float.py)
    _x("GL_ARB_texture_multisample", _ANY, _GL32, _N, _N, DONE, glsl=True),  # test_core_extensions.py
    _x("GL_ARB_texture_rectangle", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_texture_rg", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_rgb10_a2ui", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_swizzle", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_timer_query", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_uniform_buffer_object", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_vertex_array_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_vertex_type_2_10_10_10_rev", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_framebuffer_sRGB", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_gpu_shader4", _ANY, _N, _N, _N, DONE, glsl=True),      # test_gpu_shader4.py
    _x("GL_EXT_packed_float", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_array", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_EXT_texture_integer", _ANY, _GL32, _N, _N, DONE),    # test_texture_integer.py
    _x("GL_EXT_texture_shared_exponent", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_snorm", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_swizzle", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_transform_feedback", _ANY, _GL32, _N, _N, DONE),
    _x("GL_NV_conditional_render", _ANY, _GL32, _N, _ES3, DONE),   # GLES 3.0+: occlusion queries
    # glCopyImageSubDataNV = glCopyImageSubData (features/texture_ops.py; test_piglit_found_copy_image.py)
    _x("GL_NV_copy_image", (4, 3), (4, 3), _N, _N, DONE),
    _x("GL_NV_primitive_restart", _ANY, _N, _N, _N, DONE),
    # -- GL 4.0 - 4.3 ----------------------------------------------------------------
    _x("GL_ARB_ES2_compatibility", _ANY, _GL32, _N, _N, DONE),     # test_packed_render_targets.py
    _x("GL_ARB_ES3_compatibility", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_arrays_of_arrays", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_base_instance", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_clear_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_compressed_texture_pixel_storage", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_compute_shader", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_conservative_depth", _ANY, _GL32, _N, _N, DONE, glsl=True),    # test_conservative_depth.py
    _x("GL_AMD_conservative_depth", _ANY, _GL32, _N, _N, DONE, glsl=True),    # (the same, AMD's name)
    _x("GL_AMD_shader_trinary_minmax", _ANY, _GL32, _N, _N, DONE, glsl=True),  # test_trinary_minmax.py
    # gl_FragStencilRefARB -> zs_emit's stencil -> the ISP's reference per fragment
    # (tests/driver/gl/test_shader_stencil_export.py)
    _x("GL_ARB_shader_stencil_export", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_AMD_shader_stencil_export", _ANY, _GL32, _N, _N, DONE, glsl=True),   # (AMD's name: gl_FragStencilRefAMD)
    _x("GL_ARB_copy_image", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_draw_buffers_blend", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_draw_indirect", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_explicit_uniform_location", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    # gl_Layer / gl_ViewportIndex in the fragment stage (the geometry passes' varyings, 0 without)
    _x("GL_ARB_fragment_layer_viewport", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_framebuffer_no_attachments", _ANY, (4, 3), _N, _N, DONE),    # GL 4.3's commands and limits
    _x("GL_ARB_get_program_binary", _ANY, _GL32, _N, _N, DONE),
    # geometry streams and invocations, gathers with offsets, precise, fma, bit and bit-cast
    # built-ins, interpolateAt*, sample, dynamically uniform sampler/block indexing
    # (tests/driver/gl/test_geometry_streams.py, test_gpu_shader5_features.py)
    _x("GL_ARB_gpu_shader5", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # doubles lowered to 32-bit integer code (compiler/lower/fp64.py, lower64.py); uniforms,
    # blocks (std140/std430, row_major), varyings, transform feedback: test_fp64_*.py
    _x("GL_ARB_gpu_shader_fp64", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # GLSL part: compiler/lower/int64.py; GL commands: uniforms.py (test_int64_uniforms.py).
    # Needs GL 4.0 and GLSL 4.00 (the compiler takes the #extension from 4.00)
    _x("GL_ARB_gpu_shader_int64", (4, 0), (4, 0), _N, _N, DONE, glsl=True),
    _x("GL_ARB_internalformat_query", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_internalformat_query2", _ANY, _GL32, _N, _N, DONE),     # test_internalformat_query.py
    _x("GL_ARB_invalidate_subdata", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_map_buffer_alignment", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_multi_draw_indirect", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_program_interface_query", (4, 3), (4, 3), _N, _N, DONE),
    # robust contexts' variants bound buffer and vertex accesses: test_robust_buffer_access.py
    _x("GL_ARB_robust_buffer_access_behavior", _ANY, _GL32, _N, _N, DONE),
    _x("GL_KHR_robust_buffer_access_behavior", _ANY, _GL32, _N, _ES2, DONE),   # (the same; GLES too)
    _x("GL_ARB_sample_shading", _ANY, _GL32, _N, _N, DONE, glsl=True),    # test_sample_shading.py
    # layout(post_depth_coverage): gl_SampleMaskIn after the early tests (USC_FRAGMENT's bit);
    # test_post_depth_coverage.py
    _x("GL_ARB_post_depth_coverage", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # where its entry points are (GL 4.1+): tests/driver/gl/test_sso_interfaces.py, test_pipelines.py
    _x("GL_ARB_separate_shader_objects", (4, 1), (4, 1), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_atomic_counters", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_image_load_store", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    # where image load/store is (images need it below GLSL 4.20); test_shader_image_size.py
    _x("GL_ARB_shader_image_size", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_precision", _ANY, _GL32, _N, _N, DONE, glsl=True),     # test_shader_precision.py
    _x("GL_ARB_shader_storage_buffer_object", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_subroutine", _ANY, _GL32, _N, _N, DONE, glsl=True),    # test_subroutine*.py
    _x("GL_ARB_shading_language_420pack", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shading_language_packing", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    _x("GL_ARB_stencil_texturing", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_tessellation_shader", (4, 0), (4, 0), _N, _N, DONE, glsl=True),    # test_tessellation*.py
    _x("GL_ARB_texture_buffer_object_rgb32", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_buffer_range", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_cube_map_array", _ANY, _GL32, _N, _N, DONE, glsl=True),  # test_cube_map_array.py
    _x("GL_ARB_texture_gather", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # texture4(sampler2D, vec2) = textureGather(s, P, 0), from GLSL 1.10 (as Mesa, where
    # gathers are; tests/driver/gl/test_texture_texture4.py)
    _x("GL_AMD_texture_texture4", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_texture_query_levels", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    # the sampler's bias, MIN/MAX_LOD, levels and mip filter: test_texture_query_lod_sampler.py
    _x("GL_ARB_texture_query_lod", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_texture_storage", _ANY, _GL32, _N, _N, DONE),     # every desktop context, as Mesa
    _x("GL_ARB_texture_storage_multisample", _ANY, _GL32, _N, _N, DONE),    # test_texture_storage_multisample.py
    _x("GL_ARB_texture_view", _ANY, _GL32, _N, _N, DONE),     # test_texture_view_storage.py
    _x("GL_ARB_transform_feedback2", (4, 0), (4, 0), _N, _N, DONE),
    _x("GL_ARB_transform_feedback3", (4, 0), (4, 0), _N, _N, DONE),
    _x("GL_ARB_transform_feedback_instanced", (4, 0), (4, 0), _N, _N, DONE),    # test_xfb_instanced.py
    # a dvec3/dvec4 input takes one location and two fetch slots (compiler.link.attribute_fetch_slots;
    # tests/driver/gl/test_attrib_64bit.py, test_va64_spirv_listed.py)
    _x("GL_ARB_vertex_attrib_64bit", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # ARB_vertex_attrib_64bit's commands under their EXT names (registry aliases; the DSA
    # glVertexArrayVertexAttribLOffsetEXT in legacy/ext_dsa.py); no GLSL directive, as in
    # Mesa (test_vertex_attrib_64bit_ext.py)
    _x("GL_EXT_vertex_attrib_64bit", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_vertex_attrib_binding", (4, 3), (4, 3), _N, _N, DONE),
    # 16 viewports (driver/gl/viewports.py) selected by the geometry stage's gl_ViewportIndex;
    # the indexed commands and queries exist from GL 4.1 (where it is core) only
    _x("GL_ARB_viewport_array", (4, 1), (4, 1), _N, _N, DONE, glsl=True),
    # ES 1.1 too, as Mesa: its KHR-named commands (features/gles1.py; test_gles1_khr_debug.py)
    _x("GL_KHR_debug", _ANY, _GL32, _ANY, _ES2, DONE),
    # EGL fence syncs (EGL_KHR_fence_sync, driver/abi/egl.py) in GL and GLES contexts: the
    # fence is the context's pipe flush (tests/driver/abi/test_egl_gl_sync.py)
    _x("GL_EXT_EGL_sync", _ANY, _GL32, _N, _N, DONE),
    _x("GL_OES_EGL_sync", _N, _N, _ANY, _ES2, DONE),
    # KHR_debug's labels with the extension's types and errors (features/debug_output.py;
    # test_debug_label.py)
    _x("GL_EXT_debug_label", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_ARB_debug_output", _ANY, _GL32, _N, _N, DONE),   # test_legacy_small_extensions.py
    # -- GL 4.4 - 4.6 ----------------------------------------------------------------
    _x("GL_ARB_buffer_storage", _ANY, _GL32, _N, _N, DONE),     # test_buffer_storage.py
    # buffers over the client's pages: the kernel's GEM_USERPTR (test_pinned_memory.py)
    _x("GL_AMD_pinned_memory", _ANY, _GL32, _N, _N, DONE),
    # TEXTURE_REDUCTION_MODE: the sampler descriptor's reduction (test_filter_minmax.py)
    _x("GL_ARB_texture_filter_minmax", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_filter_minmax", _ANY, _GL32, _N, _ES31, DONE),
    _x("GL_ARB_clear_texture", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_clip_control", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_conditional_render_inverted", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_cull_distance", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_derivative_control", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # the whole DSA entry-point set (driver/gl/features/dsa.py; test_dsa*.py, test_piglit_found_dsa.py)
    _x("GL_ARB_direct_state_access", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_ES3_1_compatibility", _ANY, _GL32, _N, _N, DONE),
    # GLSL ES 3.20 shaders, glPrimitiveBoundingBoxARB (kept and ignored, as GLES 3.2's),
    # gl_BoundingBox in desktop control shaders, the multisampled line widths
    # (tests/driver/gl/test_es3_2_compatibility.py)
    _x("GL_ARB_ES3_2_compatibility", (4, 5), (4, 5), _N, _N, DONE, glsl=True),
    _x("GL_ARB_enhanced_layouts", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_get_texture_sub_image", _ANY, _GL32, _N, _N, DONE),
    # compiler/spirv; it requires GL 3.3 (tests/driver/gl/test_gl_spirv*.py, test_va64_spirv_listed.py)
    _x("GL_ARB_gl_spirv", (3, 3), (3, 3), _N, _N, DONE),
    _x("GL_ARB_indirect_parameters", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_multi_bind", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_pipeline_statistics_query", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_polygon_offset_clamp", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_query_buffer_object", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_shader_atomic_counter_ops", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_draw_parameters", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_group_vote", _ANY, _GL32, _N, _N, DONE, glsl=True),    # test_group_vote.py
    # ballotARB / readInvocationARB / readFirstInvocationARB / gl_SubGroup*ARB: the ISA's simd
    # over a SIMD group of 32 lanes; where uint64_t is (ARB_gpu_shader_int64) (test_shader_ballot.py)
    _x("GL_ARB_shader_ballot", (4, 0), (4, 0), _N, _N, DONE, glsl=True),
    _x("GL_ARB_shader_texture_image_samples", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_ARB_spirv_extensions", (3, 3), (3, 3), _N, _N, DONE),     # test_gl_spirv_extensions.py
    _x("GL_ARB_texture_barrier", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_filter_anisotropic", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_filter_anisotropic", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_ARB_texture_mirror_clamp_to_edge", _ANY, _GL32, _N, _N, DONE),
    # GLES: the same wrap mode (test_es_mirror_clamp_depth_clamp.py); EXT_depth_clamp: DEPTH_CLAMP
    _x("GL_EXT_texture_mirror_clamp_to_edge", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_depth_clamp", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_clip_control", _N, _N, _N, _ES2, DONE),      # glClipControlEXT: ARB_clip_control's
    # FRAMEBUFFER_SRGB_EXT turns GLES's sRGB encoding of writes off and on (enabled at first)
    _x("GL_EXT_sRGB_write_control", _N, _N, _N, _ES3, DONE),
    # mirrored once then clamped: the sampler's MIRROR_CLAMP_GL / MIRROR_CLAMP_TO_BORDER wraps
    # (test_mirror_clamp.py)
    _x("GL_EXT_texture_mirror_clamp", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ATI_texture_mirror_once", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_stencil8", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_transform_feedback_overflow_query", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_vertex_type_10f_11f_11f_rev", _ANY, _GL32, _N, _N, DONE),
    _x("GL_KHR_no_error", _ANY, _GL32, _N, _ES2, DONE),
    # resets and bounded reads (features/robustness.py; tests/driver/gl/test_gpu_reset.py)
    _x("GL_KHR_robustness", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_ARB_robustness", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_robustness", _N, _N, _N, _ES2, DONE),
    # -- shader/GPU-side extensions llvmpipe lists (GLSL 1.30 / ES 3.00 and later) -------
    # mix() of integers and booleans by a boolean vector (tests/driver/gl/test_integer_functions.py)
    _x("GL_EXT_shader_integer_mix", _GL30, _GL32, _N, _ES3, DONE, glsl=True),
    # ARB_gpu_shader5's integer built-ins, frexp/ldexp, int->uint conversions and the best-match
    # overload rules, nothing else of it (tests/driver/gl/test_integer_functions.py)
    _x("GL_MESA_shader_integer_functions", _GL30, _GL32, _N, _ES3, DONE, glsl=True),
    # the KHR extension's command, tokens and answers under the ARB name (test_gles_ext.py)
    _x("GL_ARB_parallel_shader_compile", _ANY, _GL32, _N, _N, DONE),
    # glPolygonOffsetClampEXT = glPolygonOffsetClamp in desktop contexts too (test_robustness_and_offset_clamp.py)
    _x("GL_EXT_polygon_offset_clamp", _ANY, _GL32, _N, _ES2, DONE),
    # float atomics on buffer and shared variables (the ISA's fadd/fmin/fmax/fcmpxchg) and r32f
    # images (the texture unit's float add); where storage buffers are (test_atomic_float.py)
    _x("GL_NV_shader_atomic_float", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    # clock2x32ARB / clockARB read the ISA's clock instruction, the core's cycle counter
    # (tests/driver/gl/test_shader_clock.py)
    _x("GL_ARB_shader_clock", _ANY, _GL32, _N, _N, DONE, glsl=True),
    # named strings per share group, #include and #line "path" in the preprocessor
    # (features/shading_language_include.py, compiler/glsl/include.py;
    # tests/driver/gl/test_shading_language_include.py, tests/compiler/glsl/test_include.py)
    _x("GL_ARB_shading_language_include", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_INTEL_shader_atomic_float_minmax", (4, 3), (4, 3), _N, _N, DONE, glsl=True),
    # gl_Layer / gl_ViewportIndex written by the vertex stage: the draw runs once per layer of
    # the layered framebuffer / per viewport, the vertex variant dropping the primitives of the
    # others (the pipe's output filter; tests/driver/gl/test_vertex_layer.py)
    _x("GL_AMD_vertex_shader_layer", _ANY, _GL32, _N, _N, DONE, glsl=True),
    _x("GL_AMD_vertex_shader_viewport_index", (4, 1), (4, 1), _N, _N, DONE, glsl=True),
    # both from the vertex and the tessellation evaluation stage (the evaluation passes'
    # records carry them to the per-layer / per-viewport rasterisation draws, as a geometry
    # stage's do)
    _x("GL_ARB_shader_viewport_layer_array", (4, 1), (4, 1), _N, _N, DONE, glsl=True),
    # texture(bias) / textureLod(Offset) of array and cube shadow samplers: the texture
    # unit's tex/txb/txl with a comparator (tests/driver/gl/test_texture_shadow_lod.py)
    _x("GL_EXT_texture_shadow_lod", _ANY, _GL32, _N, _ES3, DONE, glsl=True),
    # `inout' fragment outputs and gl_LastFragData read the tile buffer (ld_tile) in the
    # fragment prologue, per sample; fragments of a pixel are shaded in order, so the
    # non-coherent barrier is a no-op (tests/driver/gl/test_framebuffer_fetch.py)
    _x("GL_EXT_shader_framebuffer_fetch", _ANY, _GL32, _N, _ES2, DONE, glsl=True),
    _x("GL_EXT_shader_framebuffer_fetch_non_coherent", _ANY, _GL32, _N, _ES2, DONE, glsl=True),
    # gl_LastFragDepthARM / gl_LastFragStencilARM: the get_sr zs_depth / zs_stencil the GPU
    # model's PDM gives a late-tested, per-sample program; desktop GL too, as Mesa
    # (tests/driver/gl/test_fetch_depth_stencil.py)
    _x("GL_ARM_shader_framebuffer_fetch_depth_stencil", _ANY, _GL32, _N, _ES2, DONE, glsl=True),
    # memory objects: dma-bufs of the UAPI imported by descriptor, textures and buffers placed
    # in them, the driver/device UUIDs (features/memory_object.py; test_memory_object.py)
    _x("GL_EXT_memory_object", _ANY, _GL32, _N, _ES3, DONE),
    _x("GL_EXT_memory_object_fd", _ANY, _GL32, _N, _ES3, DONE),
    # GLES 2.0 extensions that GLES 3.0 made core, under their names from GLES 3.0 contexts
    # (their commands are the registry's aliases of the core ones; GLES 2.0 contexts lack the
    # core features): test_es3_core_extension_names.py
    _x("GL_OES_vertex_array_object", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_map_buffer_range", _N, _N, _N, _ES3, DONE),
    _x("GL_NV_read_buffer", _N, _N, _N, _ES3, DONE),
    _x("GL_NV_fbo_color_attachments", _N, _N, _N, _ES3, DONE),
    _x("GL_NV_pixel_buffer_object", _N, _N, _N, _ES3, DONE),
    _x("GL_OES_get_program_binary", _N, _N, _N, _ES3, DONE),
    _x("GL_OES_depth_texture_cube_map", _N, _N, _N, _ES3, DONE),
    _x("GL_OES_stencil8", _N, _N, _N, _ES3, DONE),
    # -- texture formats (tests/driver/gl/test_formats_*.py, tests/layout) ----------------
    _x("GL_ARB_texture_compression_bptc", _ANY, _GL32, _N, _N, DONE),
    _x("GL_ARB_texture_compression_rgtc", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_compression_bptc", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_texture_compression_latc", _ANY, _N, _N, _N, DONE),
    _x("GL_EXT_texture_compression_rgtc", _ANY, _GL32, _N, _ES3, DONE),
    _x("GL_EXT_texture_compression_s3tc", _ANY, _GL32, _N, _ES2, DONE),
    # subsets of S3TC's formats under their own names, where S3TC is (test_old_extension_names.py)
    _x("GL_ANGLE_texture_compression_dxt3", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_ANGLE_texture_compression_dxt5", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_EXT_texture_compression_dxt1", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_EXT_texture_compression_s3tc_srgb", _N, _N, _N, _ES2, DONE),
    # FXT1's 8 x 4 blocks (layout/fxt1.py) and S3's names for S3TC blocks (test_fxt1_s3_s3tc.py)
    _x("GL_3DFX_texture_compression_FXT1", _ANY, _GL32, _N, _N, DONE),
    _x("GL_S3_s3tc", _ANY, _GL32, _N, _N, DONE),
    _x("GL_EXT_texture_format_BGRA8888", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_read_format_bgra", _N, _N, _ANY, _ES2, DONE),     # test_ext_read_format_bgra.py
    _x("GL_EXT_texture_norm16", _N, _N, _N, _ES31, DONE),
    _x("GL_EXT_render_snorm", _N, _N, _N, _ES31, DONE),      # test_es_render_snorm.py
    _x("GL_EXT_texture_sRGB", _ANY, _GL32, _N, _N, DONE),
    # SR8_EXT / SRG8_EXT (formats.py; test_srgb_r8_rg8.py)
    _x("GL_EXT_texture_sRGB_R8", _ANY, _GL32, _N, _ES3, DONE),
    _x("GL_EXT_texture_sRGB_RG8", _ANY, _GL32, _N, _ES3, DONE),
    _x("GL_EXT_texture_sRGB_decode", _ANY, _GL32, _N, _ES3, DONE),     # features/gles_ext.py
    _x("GL_KHR_texture_compression_astc_ldr", _ANY, _GL32, _N, _ES2, DONE),
    # 2D ASTC blocks in 3D textures, slice by slice (tests/driver/gl/test_astc_sliced_3d.py)
    _x("GL_KHR_texture_compression_astc_sliced_3d", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_OES_compressed_ETC1_RGB8_texture", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_compressed_paletted_texture", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_depth32", _N, _N, _N, _ES2, DONE),
    # -- OpenGL ES 1.1 (driver/gl/features/gles1.py; tests/driver/gl/test_gles1*.py) -----
    _x("GL_OES_blend_equation_separate", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_blend_func_separate", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_blend_subtract", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_byte_coordinates", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_draw_texture", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_fixed_point", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_framebuffer_object", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_matrix_get", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_point_size_array", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_point_sprite", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_read_format", _ANY, _N, _ANY, _N, DONE),
    _x("GL_OES_required_internalformat", _N, _N, _ANY, _ES2, DONE),     # test_gles_ext_list.py
    _x("GL_OES_single_precision", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_stencil_wrap", _N, _N, _ANY, _N, DONE),
    _x("GL_OES_texture_mirrored_repeat", _N, _N, _ANY, _N, DONE),
    # -- GLES --------------------------------------------------------------------------
    _x("GL_APPLE_clip_distance", _N, _N, _N, _ES2, DONE, glsl=True),
    _x("GL_EXT_blend_minmax", _ANY, _N, _ANY, _ES2, DONE),     # (compatibility: test_old_extension_names.py)
    # GL_ARB_blend_func_extended in GLES: the SRC1 factors, the EXT commands, GLSL ES 1.00's
    # gl_SecondaryFrag*EXT and 3.00's layout(index) (tests/driver/gl/test_gles_blend_func_extended.py)
    _x("GL_EXT_blend_func_extended", _N, _N, _N, _ES2, DONE, glsl=True),
    # blended in the fragment epilogue from the tile buffer (features/blend_advanced.py,
    # compiler/lower/blend_advanced.py; tests/driver/gl/test_blend_advanced.py)
    _x("GL_KHR_blend_equation_advanced", _ANY, _GL32, _N, _ES2, DONE, glsl=True),
    _x("GL_KHR_blend_equation_advanced_coherent", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_EXT_color_buffer_float", _N, _N, _N, _ES3, DONE),
    # 32-bit float buffers blend unclamped in the fragment epilogue (test_gles_float_blend.py)
    _x("GL_EXT_float_blend", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_frag_depth", _N, _N, _N, _ES2, DONE, glsl=True),
    _x("GL_EXT_shader_texture_lod", _N, _N, _N, _ES2, DONE, glsl=True),
    _x("GL_OES_depth24", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_depth_texture", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_element_index_uint", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_mapbuffer", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_packed_depth_stencil", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_rgb8_rgba8", _N, _N, _ANY, _ES2, DONE),
    _x("GL_OES_standard_derivatives", _N, _N, _N, _ES2, DONE, glsl=True),
    # GLES names of features desktop GL has (features/gles_ext.py; tests/driver/gl/test_gles_ext*.py)
    _x("GL_EXT_color_buffer_half_float", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_texture_rg", _N, _N, _N, _ES2, DONE),
    _x("GL_KHR_parallel_shader_compile", _ANY, _GL32, _N, _ES2, DONE),
    _x("GL_OES_texture_float", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_float_linear", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_half_float", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_half_float_linear", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_npot", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_vertex_half_float", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_base_instance", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_clear_texture", _N, _N, _N, _ES31, DONE),
    _x("GL_EXT_buffer_storage", _N, _N, _N, _ES31, DONE),      # test_buffer_storage.py
    _x("GL_EXT_copy_image", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_draw_buffers", _N, _N, _N, _ES2, DONE, glsl=True),     # test_gles_draw_buffers.py
    _x("GL_EXT_draw_buffers_indexed", _N, _N, _N, _ES3, DONE),
    _x("GL_EXT_draw_elements_base_vertex", _N, _N, _N, _ES2, DONE),
    # desktop GL too (test_draw_instanced_ext.py): the ARB commands' aliases; no GLSL part there
    _x("GL_EXT_draw_instanced", _ANY, _GL32, _N, _ES2, DONE, glsl="es"),
    _x("GL_EXT_texture_border_clamp", _N, _N, _N, _ES2, DONE),
    # views drawn and cleared in any format of their class, signed-integer and RGB10_A2UI
    # ones included (tests/driver/gl/test_gles_texture_view.py)
    _x("GL_EXT_texture_view", _N, _N, _N, _ES31, DONE),
    _x("GL_OES_copy_image", _N, _N, _N, _ES3, DONE),
    _x("GL_OES_draw_buffers_indexed", _N, _N, _N, _ES3, DONE),
    _x("GL_OES_draw_elements_base_vertex", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_border_clamp", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_texture_view", _N, _N, _N, _ES31, DONE),
    # EGLImage targets (driver/gl/features/egl_image.py; tests/driver/abi/test_egl_image.py)
    _x("GL_OES_EGL_image", _ANY, _GL31, _ANY, _ES2, DONE),
    _x("GL_EXT_EGL_image_storage", (4, 2), (4, 2), _N, _ES3, DONE),
    # TEXTURE_EXTERNAL_OES and samplerExternalOES (tests/driver/gl/test_egl_image_external.py)
    _x("GL_OES_EGL_image_external", _N, _N, _N, _ES2, DONE, glsl=True),
    _x("GL_OES_EGL_image_external_essl3", _N, _N, _N, _ES3, DONE, glsl=True),
    # GL_CONTEXT_RELEASE_BEHAVIOR; EGL_KHR_context_flush_control chooses it (test_egl_sync_config.py)
    _x("GL_KHR_context_flush_control", _ANY, _GL31, _N, _ES2, DONE),
    # the specification requires GLES 3.2, or GLES 3.1 with a geometry shader extension (listed there)
    _x("GL_OES_viewport_array", _N, _N, _N, _ES31, DONE, glsl=True),     # test_gles_ext_list.py
    _x("GL_APPLE_texture_max_level", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_discard_framebuffer", _N, _N, _N, _ES2, DONE),
    _x("GL_OES_fbo_render_mipmap", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_disjoint_timer_query", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_unpack_subimage", _N, _N, _N, _ES2, DONE),
    _x("GL_NV_pack_subimage", _N, _N, _N, _ES2, DONE),
    _x("GL_EXT_occlusion_query_boolean", _N, _N, _N, _ES2, DONE),
    _x("GL_NV_read_depth", _N, _N, _N, _ES2, DONE),
    _x("GL_NV_read_depth_stencil", _N, _N, _N, _ES2, DONE),
    _x("GL_NV_read_stencil", _N, _N, _N, _ES2, DONE),
    _x("GL_NV_image_formats", _N, _N, _N, _ES31, DONE, glsl=True),     # test_gles_ext_list.py
    # GLES 3.2's stages under their GLES 3.1 names (the stages: geometry as compute passes,
    # tessellation as kernels, as the desktop GL_ARB_tessellation_shader / GL_ARB_gpu_shader5
    # lines); in GLES 3.1 the extensions admit the stages' entry points, limits and queries
    # (es_has 'geometry_shader' / 'tessellation_shader'; tests/driver/gl/test_gles31_stages.py)
    _x("GL_EXT_geometry_shader", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_EXT_gpu_shader5", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_EXT_tessellation_shader", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_geometry_shader", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_gpu_shader5", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_tessellation_shader", _N, _N, _N, _ES31, DONE, glsl=True),
    # the bounding box is kept and ignored, as the spec allows (features/primitive_bounding_box.py;
    # gl_BoundingBox in the control stage); in/out blocks between ES stages and the
    # sample qualifier / interpolateAt* (compiler/glsl; tests/driver/gl/test_gles32.py)
    _x("GL_EXT_primitive_bounding_box", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_EXT_shader_io_blocks", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_EXT_texture_buffer", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_EXT_texture_cube_map_array", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_primitive_bounding_box", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_sample_shading", _N, _N, _N, _ES3, DONE),      # test_oes_sample_shading.py (no GLSL part)
    _x("GL_OES_sample_variables", _N, _N, _N, _ES3, DONE, glsl=True),      # test_num_samples.py
    _x("GL_OES_shader_image_atomic", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_shader_io_blocks", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_shader_multisample_interpolation", _N, _N, _N, _ES3, DONE, glsl=True),
    _x("GL_OES_texture_buffer", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_texture_cube_map_array", _N, _N, _N, _ES31, DONE, glsl=True),
    _x("GL_OES_texture_stencil8", _N, _N, _N, _ES31, DONE),
    _x("GL_OES_texture_storage_multisample_2d_array", _N, _N, _N, _ES31, DONE, glsl=True),   # test_es_ms_array.py
)

# Extensions listed above as GLES 2.0-only feature names that ES 3.0 made core
# (the ES 2 names stay exposed in ES 3 contexts, as in Mesa), are handled by
# their es2 column. ES features core in 3.0/3.1 need no line: the version
# table below names what each ES version requires.

# What each version requires beyond the one before: names from EXTENSIONS, or
# "GLSL n" for the shading language version (the compiler's DESKTOP_VERSIONS /
# ES_VERSIONS must include it). As Mesa's compute_version.
GL_VERSIONS: dict[Version, tuple[str, ...]] = {
    (3, 0): ("GLSL 130", "GL_ARB_framebuffer_object", "GL_EXT_texture_integer",
             "GL_EXT_texture_array", "GL_EXT_transform_feedback", "GL_EXT_packed_float",
             "GL_EXT_texture_shared_exponent", "GL_ARB_half_float_vertex",
             "GL_ARB_depth_buffer_float", "GL_ARB_map_buffer_range",
             "GL_ARB_vertex_array_object", "GL_ARB_color_buffer_float", "GL_ARB_texture_float",
             "GL_ARB_texture_rg", "GL_NV_conditional_render", "GL_ARB_framebuffer_sRGB"),
    (3, 1): ("GLSL 140", "GL_ARB_draw_instanced", "GL_ARB_texture_buffer_object",
             "GL_ARB_uniform_buffer_object", "GL_ARB_texture_rectangle", "GL_ARB_copy_buffer",
             "GL_NV_primitive_restart", "GL_EXT_texture_snorm"),
    (3, 2): ("GLSL 150", "GL_ARB_geometry_shader4", "GL_ARB_draw_elements_base_vertex",
             "GL_ARB_fragment_coord_conventions", "GL_ARB_provoking_vertex",
             "GL_ARB_seamless_cube_map", "GL_ARB_texture_multisample", "GL_ARB_depth_clamp",
             "GL_ARB_sync"),
    (3, 3): ("GLSL 330", "GL_ARB_blend_func_extended", "GL_ARB_explicit_attrib_location",
             "GL_ARB_instanced_arrays", "GL_ARB_occlusion_query2", "GL_ARB_sampler_objects",
             "GL_ARB_shader_bit_encoding", "GL_ARB_texture_rgb10_a2ui",
             "GL_ARB_texture_swizzle", "GL_ARB_timer_query",
             "GL_ARB_vertex_type_2_10_10_10_rev"),
    (4, 0): ("GLSL 400", "GL_ARB_draw_buffers_blend", "GL_ARB_draw_indirect",
             "GL_ARB_gpu_shader5", "GL_ARB_gpu_shader_fp64", "GL_ARB_sample_shading",
             "GL_ARB_shader_subroutine", "GL_ARB_tessellation_shader",
             "GL_ARB_texture_buffer_object_rgb32", "GL_ARB_texture_cube_map_array",
             "GL_ARB_texture_gather", "GL_ARB_texture_query_lod", "GL_ARB_transform_feedback2",
             "GL_ARB_transform_feedback3"),
    (4, 1): ("GLSL 410", "GL_ARB_ES2_compatibility", "GL_ARB_get_program_binary",
             "GL_ARB_separate_shader_objects", "GL_ARB_shader_precision",
             "GL_ARB_vertex_attrib_64bit", "GL_ARB_viewport_array"),
    (4, 2): ("GLSL 420", "GL_ARB_base_instance", "GL_ARB_compressed_texture_pixel_storage",
             "GL_ARB_conservative_depth", "GL_ARB_internalformat_query",
             "GL_ARB_map_buffer_alignment", "GL_ARB_shader_atomic_counters",
             "GL_ARB_shader_image_load_store", "GL_ARB_shading_language_420pack",
             "GL_ARB_shading_language_packing", "GL_ARB_texture_storage",
             "GL_ARB_transform_feedback_instanced"),
    (4, 3): ("GLSL 430", "GL_ARB_arrays_of_arrays", "GL_ARB_clear_buffer_object",
             "GL_ARB_compute_shader", "GL_ARB_copy_image", "GL_ARB_ES3_compatibility",
             "GL_ARB_explicit_uniform_location", "GL_ARB_fragment_layer_viewport",
             "GL_ARB_framebuffer_no_attachments", "GL_ARB_internalformat_query2",
             "GL_ARB_invalidate_subdata", "GL_ARB_multi_draw_indirect",
             "GL_ARB_program_interface_query", "GL_ARB_robust_buffer_access_behavior",
             "GL_ARB_shader_image_size", "GL_ARB_shader_storage_buffer_object",
             "GL_ARB_stencil_texturing", "GL_ARB_texture_buffer_range",
             "GL_ARB_texture_query_levels", "GL_ARB_texture_storage_multisample",
             "GL_ARB_texture_view", "GL_ARB_vertex_attrib_binding", "GL_KHR_debug"),
    (4, 4): ("GLSL 440", "GL_ARB_buffer_storage", "GL_ARB_clear_texture",
             "GL_ARB_enhanced_layouts", "GL_ARB_multi_bind", "GL_ARB_query_buffer_object",
             "GL_ARB_texture_mirror_clamp_to_edge", "GL_ARB_texture_stencil8",
             "GL_ARB_vertex_type_10f_11f_11f_rev"),
    (4, 5): ("GLSL 450", "GL_ARB_clip_control", "GL_ARB_conditional_render_inverted",
             "GL_ARB_cull_distance", "GL_ARB_derivative_control",
             "GL_ARB_direct_state_access", "GL_ARB_ES3_1_compatibility",
             "GL_ARB_get_texture_sub_image", "GL_KHR_robustness",
             "GL_ARB_shader_texture_image_samples", "GL_ARB_texture_barrier"),
    (4, 6): ("GLSL 460", "GL_ARB_gl_spirv", "GL_ARB_spirv_extensions",
             "GL_ARB_indirect_parameters", "GL_ARB_pipeline_statistics_query",
             "GL_ARB_polygon_offset_clamp", "GL_ARB_shader_atomic_counter_ops",
             "GL_ARB_shader_draw_parameters", "GL_ARB_shader_group_vote",
             "GL_ARB_texture_filter_anisotropic", "GL_ARB_transform_feedback_overflow_query",
             "GL_KHR_no_error"),
}

# GLES: ES 2.0 and 3.0 are the base; ES 3.1 adds compute, SSBOs, images,
# indirect draws, separate programs...; ES 3.2 needs the geometry and
# tessellation stages and the Android extension pack.
ES_VERSIONS: dict[Version, tuple[str, ...]] = {
    (2, 0): ("GLSL 100",),
    (3, 0): ("GLSL 300 es",),
    (3, 1): ("GLSL 310 es",),
    # GLES 3.2 section 1.3.1 / appendix F.1: the extensions it made core, by their ES names
    (3, 2): ("GLSL 320 es", "GL_OES_geometry_shader", "GL_OES_tessellation_shader",
             "GL_OES_gpu_shader5", "GL_OES_shader_io_blocks", "GL_OES_primitive_bounding_box",
             "GL_KHR_blend_equation_advanced", "GL_KHR_debug", "GL_KHR_robustness",
             "GL_KHR_texture_compression_astc_ldr", "GL_EXT_color_buffer_float",
             "GL_OES_copy_image", "GL_OES_draw_buffers_indexed", "GL_OES_draw_elements_base_vertex",
             "GL_OES_sample_shading", "GL_OES_sample_variables", "GL_OES_shader_image_atomic",
             "GL_OES_shader_multisample_interpolation", "GL_OES_texture_border_clamp",
             "GL_OES_texture_buffer", "GL_OES_texture_cube_map_array", "GL_OES_texture_stencil8",
             "GL_OES_texture_storage_multisample_2d_array"),
}


def by_name() -> dict[str, Extension]:
    return _BY_NAME


_BY_NAME: dict[str, Extension] = {e.name: e for e in EXTENSIONS}
assert len(_BY_NAME) == len(EXTENSIONS), "an extension is listed twice"


def _works(req: str, glsl_versions: frozenset[str], tolerate_stages: bool) -> bool:
    if req.startswith("GLSL "):
        return req[5:] in glsl_versions
    ext = _BY_NAME.get(req)
    if ext is None:          # a feature with no line yet: not implemented
        return False
    return ext.status in (DONE, CORE) or (tolerate_stages and ext.status is STAGE)


def max_version(es: bool, glsl_versions: frozenset[str]) -> Version:
    """The highest version of an API (desktop GL or GLES) whose every
    requirement works, as Mesa's compute_version. `glsl_versions`: the
    ``#version`` tokens the compiler accepts ("330", "310 es", ...). Shader
    stages still to be lowered (status STAGE) are tolerated; see
    `pending_features`."""
    table = ES_VERSIONS if es else GL_VERSIONS
    best: Version = (2, 0) if es else (3, 0)
    for version in sorted(table):
        if not all(_works(r, glsl_versions, True) for r in table[version]):
            break
        best = version
    return best


def pending_features(es: bool, version: Version) -> list[str]:
    """Requirements of versions up to `version` that are STAGE: what a
    program of that version may still miss."""
    table = ES_VERSIONS if es else GL_VERSIONS
    return sorted({r for v, reqs in table.items() if v <= version for r in reqs
                   if r in _BY_NAME and _BY_NAME[r].status is STAGE})


def advertised(es: bool, core: bool, version: Version) -> list[str]:
    """The extension list of a context (sorted): every DONE line exposed in
    its API and version."""
    names = (e.name for e in EXTENSIONS if e.status is DONE and e.exposed_in(es, core, version))
    return sorted(_overridden(names, es, core, version))


@functools.lru_cache(maxsize=None)
def available(es: bool, core: bool, version: Version) -> frozenset[str]:
    """Extensions whose functionality a context has: DONE or CORE lines
    exposed in its API and version (entry points check this)."""
    return _overridden((e.name for e in EXTENSIONS
                        if e.status in (DONE, CORE) and e.exposed_in(es, core, version)), es, core, version)


@functools.lru_cache(maxsize=None)
def glsl_extensions(es: bool, core: bool, version: Version) -> frozenset[str]:
    """The ``#extension`` names a context's shaders may use: the extensions
    with a shading-language part exposed in the context, advertised (DONE) or
    working as part of the core version (CORE: as Mesa, whose GLSL compiler
    accepts the extension of a core feature the context has)."""
    names = _overridden((e.name for e in EXTENSIONS
                         if e.status in (DONE, CORE) and e.exposed_in(es, core, version)), es, core, version)
    return frozenset(n for n in names if _BY_NAME[n].has_glsl(es))


@functools.lru_cache(maxsize=1)
def extension_override() -> Override:
    """The process's MESA_EXTENSION_OVERRIDE over this table (empty when unset);
    exposing a line that is not DONE is said once on stderr."""
    ov = read_override(_BY_NAME)
    unfinished = sorted(n for n in ov.enable if _BY_NAME[n].status is not DONE)
    if unfinished:
        warn(f"{ENV} exposes {', '.join(unfinished)}, which shimgl does not fully implement")
    return ov


def _overridden(names, es: bool, core: bool, version: Version) -> frozenset[str]:
    """`names` after the developer's MESA_EXTENSION_OVERRIDE (driver.gl.overrides)."""
    ov = extension_override()
    if not ov:
        return frozenset(names)
    return ov.apply(names, lambda n: _BY_NAME[n].exposed_in(es, core, version))
