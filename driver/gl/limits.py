"""Implementation-dependent limits, derived from the pipe screen's caps, and
the extension list per API."""

from __future__ import annotations

from driver.gallium import PipeShaderType, ScreenCaps
from driver.gl import enums as E
from driver.gl.api import Api
from driver.gl.extensions import advertised

__all__ = ["compute_limits", "extensions_for"]


def compute_limits(api: Api, caps: ScreenCaps) -> dict[str, object]:
    """GL limit name -> value for the limits `api` defines (GL 4.6 tables
    23.51-23.69, GLES 3.2 tables 21.40-21.58)."""
    vs = caps.shaders[PipeShaderType.VERTEX]
    fs = caps.shaders[PipeShaderType.FRAGMENT]
    cs = caps.shaders.get(PipeShaderType.COMPUTE)
    tex2d = caps.max_texture_2d_size_px
    lim: dict[str, object] = {
        "GL_MAX_TEXTURE_SIZE": tex2d,
        "GL_MAX_CUBE_MAP_TEXTURE_SIZE": 1 << (caps.max_texture_cube_levels - 1),
        "GL_MAX_RENDERBUFFER_SIZE": tex2d,
        "GL_MAX_VIEWPORT_DIMS": (caps.max_viewport_size_px, caps.max_viewport_size_px),
        "GL_MAX_VERTEX_ATTRIBS": caps.max_vertex_attribs,
        # the default uniform block's bytes in vec4s (and 32-bit components below), as Mesa's
        # state tracker derives them from PIPE_SHADER_CAP_MAX_CONST_BUFFER0_SIZE
        "GL_MAX_VERTEX_UNIFORM_VECTORS": vs.max_const_buffer0_size_B // 16,
        "GL_MAX_FRAGMENT_UNIFORM_VECTORS": fs.max_const_buffer0_size_B // 16,
        "GL_MAX_VARYING_VECTORS": caps.max_varying_components // 4,
        "GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS": vs.max_texture_samplers,
        "GL_MAX_TEXTURE_IMAGE_UNITS": fs.max_texture_samplers,
        "GL_MAX_COMBINED_TEXTURE_IMAGE_UNITS": caps.max_combined_texture_units,
        "GL_ALIASED_POINT_SIZE_RANGE": caps.point_size_range,
        "GL_ALIASED_LINE_WIDTH_RANGE": caps.line_width_range,
    }
    if api.gl_or_es((3, 0), (3, 0)):
        lim.update({
            "GL_MAX_3D_TEXTURE_SIZE": 1 << (caps.max_texture_3d_levels - 1),
            "GL_MAX_ARRAY_TEXTURE_LAYERS": caps.max_texture_array_layers,
            "GL_MAX_TEXTURE_LOD_BIAS": caps.max_texture_lod_bias,
            "GL_MAX_DRAW_BUFFERS": caps.max_render_targets,
            "GL_MAX_COLOR_ATTACHMENTS": caps.max_render_targets,
            "GL_MAX_SAMPLES": max(caps.sample_counts),
            "GL_MAX_ELEMENTS_INDICES": 1 << 20,
            "GL_MAX_ELEMENTS_VERTICES": 1 << 20,
            "GL_MAX_ELEMENT_INDEX": 0xFFFFFFFF,
            "GL_MAX_VERTEX_UNIFORM_COMPONENTS": vs.max_const_buffer0_size_B // 4,
            "GL_MAX_FRAGMENT_UNIFORM_COMPONENTS": fs.max_const_buffer0_size_B // 4,
            "GL_MAX_VARYING_COMPONENTS": caps.max_varying_components,
            "GL_MAX_VERTEX_OUTPUT_COMPONENTS": vs.max_outputs * 4,
            "GL_MAX_FRAGMENT_INPUT_COMPONENTS": fs.max_inputs * 4,
            "GL_MAX_VERTEX_UNIFORM_BLOCKS": vs.max_const_buffers - 1,
            "GL_MAX_FRAGMENT_UNIFORM_BLOCKS": fs.max_const_buffers - 1,
            "GL_MAX_UNIFORM_BLOCK_SIZE": caps.max_uniform_block_size_B,
            "GL_UNIFORM_BUFFER_OFFSET_ALIGNMENT": caps.uniform_buffer_offset_alignment_B,
            "GL_MAX_COMBINED_VERTEX_UNIFORM_COMPONENTS":
                (vs.max_const_buffers - 1) * caps.max_uniform_block_size_B // 4
                + vs.max_const_buffer0_size_B // 4,
            "GL_MAX_COMBINED_FRAGMENT_UNIFORM_COMPONENTS":
                (fs.max_const_buffers - 1) * caps.max_uniform_block_size_B // 4
                + fs.max_const_buffer0_size_B // 4,
            "GL_MAX_TRANSFORM_FEEDBACK_INTERLEAVED_COMPONENTS":
                caps.max_stream_output_interleaved_components,
            "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_ATTRIBS": caps.max_stream_output_buffers,
            "GL_MAX_TRANSFORM_FEEDBACK_SEPARATE_COMPONENTS":
                caps.max_stream_output_separate_components,
            "GL_MIN_PROGRAM_TEXEL_OFFSET": caps.min_texel_offset,
            "GL_MAX_PROGRAM_TEXEL_OFFSET": caps.max_texel_offset,
            "GL_MAX_SERVER_WAIT_TIMEOUT": 0xFFFFFFFFFFFFFFFF if not api.es else 0x7FFFFFFFFFFFFFFF,
            "GL_MAX_TEXTURE_BUFFER_SIZE": caps.max_texel_buffer_elements,
            "GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT": caps.texture_buffer_offset_alignment_B,
            "GL_NUM_SHADING_LANGUAGE_VERSIONS": len(api.glsl) + 1,
        })
        if api.es and api.version < (3, 1):
            del lim["GL_MAX_TEXTURE_BUFFER_SIZE"], lim["GL_TEXTURE_BUFFER_OFFSET_ALIGNMENT"]
    # Desktop GL 3.0+, and GLES through GL_APPLE_clip_distance (same enum, 0x0D32).
    lim["GL_MAX_CLIP_DISTANCES"] = caps.max_clip_planes
    if api.has_extension("GL_ARB_texture_filter_anisotropic") or \
            api.has_extension("GL_EXT_texture_filter_anisotropic"):
        lim["GL_MAX_TEXTURE_MAX_ANISOTROPY"] = caps.max_texture_anisotropy
    if api.has_extension("GL_ARB_cull_distance"):
        # cull distances are words after the clip distances, from the same budget
        lim["GL_MAX_CULL_DISTANCES"] = caps.max_clip_planes
        lim["GL_MAX_COMBINED_CLIP_AND_CULL_DISTANCES"] = caps.max_clip_planes
    if not api.es:
        lim.update({
            "GL_MAX_RECTANGLE_TEXTURE_SIZE": tex2d,
            "GL_POINT_SIZE_RANGE": caps.point_size_range,
            "GL_POINT_SIZE_GRANULARITY": 0.125,
            "GL_LINE_WIDTH_RANGE": caps.line_width_range,
            "GL_LINE_WIDTH_GRANULARITY": 0.125,
            "GL_SMOOTH_LINE_WIDTH_RANGE": caps.line_width_range,
            "GL_SMOOTH_LINE_WIDTH_GRANULARITY": 0.125,
            "GL_MAX_DUAL_SOURCE_DRAW_BUFFERS": caps.max_dual_source_render_targets,
            "GL_MAX_COLOR_TEXTURE_SAMPLES": max(caps.sample_counts),
            "GL_MAX_DEPTH_TEXTURE_SAMPLES": max(caps.sample_counts),
            "GL_MAX_INTEGER_SAMPLES": max(caps.sample_counts),
            "GL_MAX_SAMPLE_MASK_WORDS": 1,
        })
    if api.es and api.has_extension("GL_EXT_blend_func_extended"):
        lim["GL_MAX_DUAL_SOURCE_DRAW_BUFFERS"] = caps.max_dual_source_render_targets    # ..._EXT, same value
    if api.gl(4, 0) or api.has_extension("GL_OES_shader_multisample_interpolation"):
        # interpolateAtOffset's range (GL 4.6 table 23.68's minimums: -0.5 and +0.5, which
        # ARB_gpu_shader5 requires too; GLES 3.2 asks for 0.5 - ULP only; the interpolator
        # evaluates any offset exactly, so 4 bits of sub-pixel precision hold)
        lim["GL_MIN_FRAGMENT_INTERPOLATION_OFFSET"] = -0.5
        lim["GL_MAX_FRAGMENT_INTERPOLATION_OFFSET"] = 0.5
        lim["GL_FRAGMENT_INTERPOLATION_OFFSET_BITS"] = 4
    if api.gl_or_es((3, 2), (3, 1)):    # ARB_texture_gather (desktop), GLES 3.1
        lim["GL_MIN_PROGRAM_TEXTURE_GATHER_OFFSET"] = caps.min_texture_gather_offset
        lim["GL_MAX_PROGRAM_TEXTURE_GATHER_OFFSET"] = caps.max_texture_gather_offset
        # textureGather selects any of the four components (the sampler's gather mode)
        lim["GL_MAX_PROGRAM_TEXTURE_GATHER_COMPONENTS_ARB"] = 4
    from driver.gl.features.gles_ext import es_has
    es_gs, es_ts = es_has(api, "geometry_shader"), es_has(api, "tessellation_shader")
    if api.gl(3, 2) or es_gs:
        # GL 3.2+ (and GLES 3.2 or 3.1 with OES/EXT_geometry_shader) define the geometry stage's limits (GL 4.6 table 23.62): the
        # compiler's gl_MaxGeometry* constants (driver/gl/geometry.py lowers the stage)
        from compiler.glsl.builtin_variables import LIMITS as GLSL
        blocks = 14 if api.gl(4, 3) else 12
        lim.update({
            "GL_MAX_GEOMETRY_UNIFORM_COMPONENTS": GLSL["gl_MaxGeometryUniformComponents"],
            "GL_MAX_GEOMETRY_UNIFORM_BLOCKS": blocks,
            "GL_MAX_GEOMETRY_INPUT_COMPONENTS": GLSL["gl_MaxGeometryInputComponents"],
            "GL_MAX_GEOMETRY_OUTPUT_COMPONENTS": GLSL["gl_MaxGeometryOutputComponents"],
            "GL_MAX_GEOMETRY_OUTPUT_VERTICES": GLSL["gl_MaxGeometryOutputVertices"],
            "GL_MAX_GEOMETRY_TOTAL_OUTPUT_COMPONENTS": GLSL["gl_MaxGeometryTotalOutputComponents"],
            "GL_MAX_GEOMETRY_TEXTURE_IMAGE_UNITS": GLSL["gl_MaxGeometryTextureImageUnits"],
            "GL_MAX_COMBINED_GEOMETRY_UNIFORM_COMPONENTS":
                blocks * caps.max_uniform_block_size_B // 4 + GLSL["gl_MaxGeometryUniformComponents"],
        })
        if api.gl(4, 0) or api.es or api.has_extension("GL_ARB_gpu_shader5"):
            lim["GL_MAX_GEOMETRY_SHADER_INVOCATIONS"] = GLSL["gl_MaxGeometryShaderInvocations"]
        if api.gl_or_es((4, 2), (3, 1)):
            lim.update({"GL_MAX_GEOMETRY_ATOMIC_COUNTER_BUFFERS": 0,
                        "GL_MAX_GEOMETRY_ATOMIC_COUNTERS": 0,
                        "GL_MAX_GEOMETRY_IMAGE_UNIFORMS": 0})
        if api.gl_or_es((4, 3), (3, 1)):
            # the geometry stage runs as compute passes that bind the program's storage
            # blocks (driver/gl/geometry.py), as the tessellation stages do
            lim["GL_MAX_GEOMETRY_SHADER_STORAGE_BLOCKS"] = cs.max_shader_buffers
        if es_gs:       # GLES 3.2 table 21.40 / OES_geometry_shader (desktop: GL 4.1, below)
            lim["GL_LAYER_PROVOKING_VERTEX"] = E.GL_UNDEFINED_VERTEX
    if api.gl(4, 0) or es_ts:
        # GL 4.0+ (and GLES 3.2): the tessellation stages' limits (GL 4.6 table 23.61), the shading
        # language's gl_MaxTess* constants (the stages run as compute kernels:
        # driver/gl/tessellation.py)
        from compiler.glsl.builtin_variables import LIMITS as GLSL
        blocks = 14 if api.gl(4, 3) else 12
        lim.update({
            "GL_MAX_TESS_GEN_LEVEL": GLSL["gl_MaxTessGenLevel"],
            "GL_MAX_TESS_PATCH_COMPONENTS": GLSL["gl_MaxTessPatchComponents"],
            "GL_MAX_TESS_CONTROL_UNIFORM_COMPONENTS": GLSL["gl_MaxTessControlUniformComponents"],
            "GL_MAX_TESS_EVALUATION_UNIFORM_COMPONENTS": GLSL["gl_MaxTessEvaluationUniformComponents"],
            "GL_MAX_TESS_CONTROL_TEXTURE_IMAGE_UNITS": GLSL["gl_MaxTessControlTextureImageUnits"],
            "GL_MAX_TESS_EVALUATION_TEXTURE_IMAGE_UNITS": GLSL["gl_MaxTessEvaluationTextureImageUnits"],
            "GL_MAX_TESS_CONTROL_OUTPUT_COMPONENTS": GLSL["gl_MaxTessControlOutputComponents"],
            "GL_MAX_TESS_CONTROL_TOTAL_OUTPUT_COMPONENTS": GLSL["gl_MaxTessControlTotalOutputComponents"],
            "GL_MAX_TESS_EVALUATION_OUTPUT_COMPONENTS": GLSL["gl_MaxTessEvaluationOutputComponents"],
            "GL_MAX_TESS_CONTROL_INPUT_COMPONENTS": GLSL["gl_MaxTessControlInputComponents"],
            "GL_MAX_TESS_EVALUATION_INPUT_COMPONENTS": GLSL["gl_MaxTessEvaluationInputComponents"],
            "GL_MAX_TESS_CONTROL_UNIFORM_BLOCKS": blocks,
            "GL_MAX_TESS_EVALUATION_UNIFORM_BLOCKS": blocks,
            "GL_MAX_COMBINED_TESS_CONTROL_UNIFORM_COMPONENTS":
                blocks * caps.max_uniform_block_size_B // 4 + GLSL["gl_MaxTessControlUniformComponents"],
            "GL_MAX_COMBINED_TESS_EVALUATION_UNIFORM_COMPONENTS":
                blocks * caps.max_uniform_block_size_B // 4 + GLSL["gl_MaxTessEvaluationUniformComponents"],
        })
        if es_ts:
            lim["GL_MAX_PATCH_VERTICES"] = GLSL["gl_MaxPatchVertices"]     # GLES: OES_tessellation_shader's
        if api.gl_or_es((4, 2), (3, 1)):        # the kernels bind the compute stage's images and buffers
            lim.update({f"GL_MAX_TESS_{st}_{what}": GLSL[f"gl_MaxTess{st.title()}{name}"]
                        for st in ("CONTROL", "EVALUATION")
                        for what, name in (("ATOMIC_COUNTER_BUFFERS", "AtomicCounterBuffers"),
                                           ("ATOMIC_COUNTERS", "AtomicCounters"),
                                           ("IMAGE_UNIFORMS", "ImageUniforms"))})
        if api.gl_or_es((4, 3), (3, 1)):
            lim["GL_MAX_TESS_CONTROL_SHADER_STORAGE_BLOCKS"] = cs.max_shader_buffers
            lim["GL_MAX_TESS_EVALUATION_SHADER_STORAGE_BLOCKS"] = cs.max_shader_buffers
    if api.gl_or_es((3, 0), (3, 0)):
        # a program's graphics stages together (GL 4.6 section 7.6.2), and one binding point
        # for each of those blocks, as Mesa's state tracker sets both (GL 3.2 and GLES 3.2 ask
        # for 36 of each, GL 4.0 for 12 a stage)
        lim["GL_MAX_COMBINED_UNIFORM_BLOCKS"] = lim["GL_MAX_UNIFORM_BUFFER_BINDINGS"] = sum(
            lim.get(f"GL_MAX_{stage}_UNIFORM_BLOCKS", 0)
            for stage in ("VERTEX", "TESS_CONTROL", "TESS_EVALUATION", "GEOMETRY", "FRAGMENT"))
    if api.has_extension("GL_ARB_enhanced_layouts"):
        # its xfb_buffer qualifier reads gl_MaxTransformFeedbackBuffers (ARB_transform_feedback3's
        # query, which GL 4.0 sets below too)
        lim["GL_MAX_TRANSFORM_FEEDBACK_BUFFERS"] = caps.max_stream_output_buffers
    if api.gl(4, 2) or api.has_extension("GL_ARB_map_buffer_alignment"):
        lim["GL_MIN_MAP_BUFFER_ALIGNMENT"] = caps.min_map_buffer_alignment_B
    if api.gl(4, 0):
        from compiler.glsl.geometry import MAX_VERTEX_STREAMS        # the geometry stage's streams
        lim["GL_MAX_VERTEX_STREAMS"] = MAX_VERTEX_STREAMS
        # ARB_transform_feedback3: the binding points gl_NextBuffer and vertex streams reach
        lim["GL_MAX_TRANSFORM_FEEDBACK_BUFFERS"] = caps.max_stream_output_buffers
        from compiler.glsl.builtin_variables import LIMITS as GLSL
        lim["GL_MAX_PATCH_VERTICES"] = GLSL["gl_MaxPatchVertices"]
    if api.gl(4, 3) or api.es_(3, 2):
        # GL 4.6 section 10.3.6: primitive restart is treated as disabled for GL_PATCHES
        # (the control kernel reads the patches' indices as they are)
        lim["GL_PRIMITIVE_RESTART_FOR_PATCHES_SUPPORTED"] = False
    if api.gl(4, 0) or api.has_extension("GL_ARB_shader_subroutine"):
        from compiler.glsl.subroutines import MAX_SUBROUTINES, MAX_SUBROUTINE_UNIFORM_LOCATIONS
        lim["GL_MAX_SUBROUTINES"] = MAX_SUBROUTINES
        lim["GL_MAX_SUBROUTINE_UNIFORM_LOCATIONS"] = MAX_SUBROUTINE_UNIFORM_LOCATIONS
    if api.gl(4, 1) or api.has_extension("GL_OES_viewport_array"):
        lim.update({"GL_MAX_VIEWPORTS": caps.max_viewports,
                    "GL_VIEWPORT_SUBPIXEL_BITS": 0,
                    "GL_VIEWPORT_BOUNDS_RANGE": (-2.0 * caps.max_viewport_size_px,
                                                 2.0 * caps.max_viewport_size_px - 1),
                    # the geometry passes select per vertex (a primitive whose vertices
                    # disagree is dropped): which vertex counts is undefined, as Mesa's default
                    "GL_LAYER_PROVOKING_VERTEX": E.GL_UNDEFINED_VERTEX,
                    "GL_VIEWPORT_INDEX_PROVOKING_VERTEX": E.GL_UNDEFINED_VERTEX})
    if api.gl(4, 3) or api.has_extension("GL_KHR_debug"):
        from driver.gl.features import debug_output as D
        lim.update({"GL_MAX_DEBUG_MESSAGE_LENGTH": D.MAX_MESSAGE_LENGTH,
                    "GL_MAX_DEBUG_LOGGED_MESSAGES": D.MAX_LOGGED_MESSAGES,
                    "GL_MAX_DEBUG_GROUP_STACK_DEPTH": D.MAX_GROUP_DEPTH,
                    "GL_MAX_LABEL_LENGTH": D.MAX_LABEL_LENGTH})
    if api.compat:
        lim.update({"GL_MAX_CLIP_PLANES": caps.max_clip_planes,
                    "GL_MAX_TEXTURE_COORDS": 8, "GL_MAX_TEXTURE_UNITS": 8,
                    "GL_MAX_MODELVIEW_STACK_DEPTH": 32, "GL_MAX_PROJECTION_STACK_DEPTH": 32,
                    "GL_MAX_TEXTURE_STACK_DEPTH": 10, "GL_MAX_LIGHTS": 8})
    if api.gl_or_es((4, 3), (3, 1)) and cs is not None:
        lim.update({
            "GL_MAX_COMPUTE_UNIFORM_BLOCKS": cs.max_const_buffers - 1,
            "GL_MAX_COMPUTE_TEXTURE_IMAGE_UNITS": cs.max_texture_samplers,
            "GL_MAX_COMPUTE_IMAGE_UNIFORMS": cs.max_shader_images,
            "GL_MAX_COMPUTE_SHARED_MEMORY_SIZE": caps.max_compute_shared_memory_B,
            "GL_MAX_COMPUTE_UNIFORM_COMPONENTS": cs.max_const_buffer0_size_B // 4,
            "GL_MAX_COMBINED_COMPUTE_UNIFORM_COMPONENTS":
                (cs.max_const_buffers - 1) * caps.max_uniform_block_size_B // 4
                + cs.max_const_buffer0_size_B // 4,
            "GL_MAX_COMPUTE_ATOMIC_COUNTER_BUFFERS": cs.max_atomic_counter_buffers,
            "GL_MAX_COMPUTE_ATOMIC_COUNTERS": caps.max_compute_atomic_counters,
            "GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS": caps.max_compute_threads_per_block,
            "GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS": cs.max_shader_buffers,
            "GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS": caps.max_combined_shader_buffers,
            "GL_MAX_COMBINED_SHADER_STORAGE_BLOCKS": caps.max_combined_shader_buffers,
            "GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS": vs.max_shader_buffers,
            "GL_MAX_FRAGMENT_SHADER_STORAGE_BLOCKS": fs.max_shader_buffers,
            "GL_MAX_SHADER_STORAGE_BLOCK_SIZE": 1 << 27,
            "GL_SHADER_STORAGE_BUFFER_OFFSET_ALIGNMENT": caps.shader_buffer_offset_alignment_B,
            "GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS": 8,
            "GL_MAX_IMAGE_UNITS": caps.max_combined_images,
            "GL_MAX_COMBINED_IMAGE_UNIFORMS": caps.max_combined_images,
            "GL_MAX_VERTEX_IMAGE_UNIFORMS": vs.max_shader_images,
            "GL_MAX_FRAGMENT_IMAGE_UNIFORMS": fs.max_shader_images,
            "GL_MAX_UNIFORM_LOCATIONS": 4096,
            "GL_MAX_FRAMEBUFFER_WIDTH": tex2d,
            "GL_MAX_FRAMEBUFFER_HEIGHT": tex2d,
            "GL_MAX_FRAMEBUFFER_SAMPLES": max(caps.sample_counts),
            "GL_MAX_FRAMEBUFFER_LAYERS": caps.max_texture_array_layers,
            "GL_MAX_VERTEX_ATTRIB_RELATIVE_OFFSET": 2047,
            "GL_MAX_VERTEX_ATTRIB_BINDINGS": caps.max_vertex_buffers,
            "GL_MAX_VERTEX_ATTRIB_STRIDE": caps.max_vertex_attrib_stride_B,
            "GL_MAX_COLOR_TEXTURE_SAMPLES": max(caps.sample_counts),
            "GL_MAX_DEPTH_TEXTURE_SAMPLES": max(caps.sample_counts),
            "GL_MAX_INTEGER_SAMPLES": max(caps.sample_counts),
            "GL_MAX_SAMPLE_MASK_WORDS": 1,
            "GL_MAX_VERTEX_ATOMIC_COUNTER_BUFFERS": vs.max_atomic_counter_buffers,
            "GL_MAX_FRAGMENT_ATOMIC_COUNTER_BUFFERS": fs.max_atomic_counter_buffers,
            "GL_MAX_COMBINED_ATOMIC_COUNTER_BUFFERS": 8,
            "GL_MAX_VERTEX_ATOMIC_COUNTERS": caps.max_compute_atomic_counters,
            "GL_MAX_FRAGMENT_ATOMIC_COUNTERS": caps.max_compute_atomic_counters,
            "GL_MAX_COMBINED_ATOMIC_COUNTERS": caps.max_compute_atomic_counters,
            "GL_MAX_ATOMIC_COUNTER_BUFFER_SIZE": 1 << 16,
            "GL_MAX_IMAGE_SAMPLES": 0,
            "GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES":
                caps.max_render_targets + caps.max_combined_shader_buffers + caps.max_combined_images,
        })
    if api.es and api.version < (3, 0) and api.has_extension("GL_EXT_draw_buffers"):
        # EXT_draw_buffers: GLES 2.0 gets GLES 3.0's draw buffers and colour attachments
        lim.update({"GL_MAX_DRAW_BUFFERS": caps.max_render_targets,
                    "GL_MAX_COLOR_ATTACHMENTS": caps.max_render_targets})
    if not api.es and api.has_extension("GL_ARB_ES3_2_compatibility"):
        # multisampled lines have the antialiased lines' widths (GL 4.6 section 14.5.4 with
        # the extension; a multisampled line is a rectangle of its width)
        lim.update({"GL_MULTISAMPLE_LINE_WIDTH_RANGE": caps.line_width_range,
                    "GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY": 0.125})
    if api.es_(3, 2):
        # GLES 3.2 tables 21.40-21.42: what desktop GL has from 4.0/4.1 (patches, the layer's
        # provoking vertex) and wide lines in multisample framebuffers (the desktop widths)
        from compiler.glsl.builtin_variables import LIMITS as GLSL
        lim.update({"GL_MAX_PATCH_VERTICES": GLSL["gl_MaxPatchVertices"],
                    "GL_LAYER_PROVOKING_VERTEX": E.GL_UNDEFINED_VERTEX,
                    "GL_MULTISAMPLE_LINE_WIDTH_RANGE": caps.line_width_range,
                    "GL_MULTISAMPLE_LINE_WIDTH_GRANULARITY": 0.125})
    return lim


# gl_Max* constants whose GL query has another name or unit (GLSL 4.60 section 7.4)
_QUERY_OF_CONSTANT = {
    "gl_MaxVertexOutputVectors": ("GL_MAX_VERTEX_OUTPUT_COMPONENTS", 4),
    "gl_MaxFragmentInputVectors": ("GL_MAX_FRAGMENT_INPUT_COMPONENTS", 4),
    "gl_MaxAtomicCounterBindings": ("GL_MAX_ATOMIC_COUNTER_BUFFER_BINDINGS", 1),
    "gl_MaxCombinedImageUnitsAndFragmentOutputs": ("GL_MAX_COMBINED_SHADER_OUTPUT_RESOURCES", 1),
    "gl_MaxDualSourceDrawBuffersEXT": ("GL_MAX_DUAL_SOURCE_DRAW_BUFFERS", 1),
}


def glsl_limits(api: Api, lim: dict[str, object], caps: ScreenCaps) -> dict[str, object]:
    """The gl_Max* constants of a context's shaders, from its GL limits `lim` (compute_limits;
    the compute grid and work-group sizes, glGetIntegeri_v's, from `caps` as driver/gl/get.py):
    each constant is its query's value (gl_MaxFooBar = GL_MAX_FOO_BAR; vectors are components / 4).
    A constant without a query in this context keeps the compiler's default, except GLES 2.0's
    gl_MaxDrawBuffers: without a draw-buffers extension only gl_FragData[0] reaches a buffer,
    so it is 1 (GLSL ES 1.00 section 7.4's value)."""
    import re

    from compiler.glsl.builtin_variables import LIMITS
    out: dict[str, object] = {}
    for constant, default in LIMITS.items():
        query, divisor = _QUERY_OF_CONSTANT.get(
            constant, ("GL_" + re.sub(r"(?<!^)(?=[A-Z])", "_", constant[3:]).upper(), 1))
        value = lim.get(query)
        if constant == "gl_MaxComputeWorkGroupSize":
            value = caps.max_compute_block_size
        elif constant == "gl_MaxComputeWorkGroupCount":
            value = caps.max_compute_grid_size
        if value is not None:
            out[constant] = tuple(int(v) for v in value) if isinstance(default, tuple) else int(value) // divisor
    if api.es and api.version < (3, 0) and "GL_MAX_DRAW_BUFFERS" not in lim:
        out["gl_MaxDrawBuffers"] = 1
    return out


def extensions_for(api: Api) -> list[str]:
    """The extension list of a context, from the one table
    (driver.gl.extensions): every extension whose functionality works and is
    exposed in this API and version."""
    return advertised(api.es, api.core, api.version)
