"""Built-in variables, constants and uniforms, per version and stage.

`LIMITS` are the implementation limits that the shading language exposes as
`gl_Max*` constants when no GL context says otherwise (standalone compiles,
`shimgl compile`); they equal this driver's GL_MAX_* answers, which a test checks
in every context type. Its last entries have no constant (`_CONSTANTS` does not
list them): the compile-time checks read them under the same naming. A compile for a GL context runs inside
`use_limits(values)` (the context's GL_MAX_* values under their gl_Max* names,
as Mesa passes ctx->Const to its compiler): the built-in constants and every
compile-time check read `limits()`, and `limits_digest()` names them for the
shader caches' keys.

`_TABLE` lines have the availability syntax of builtin_functions.py:

    DESKTOP ES [STAGES] [+EXTENSION] | STORAGE TYPE NAME[SIZE]

where STORAGE is in, out, uniform or const, TYPE a built-in type or one of
the state structs defined below, and SIZE a number or a gl_Max* constant.
Constants take their value from LIMITS.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from types import MappingProxyType

from . import types as T
from .builtin_functions import Availability, _parse_availability
from .symbols import Variable
from .versions import GLSLVersion

LIMITS: dict[str, int | tuple[int, ...]] = {
    "gl_MaxLights": 8,
    "gl_MaxClipPlanes": 8,
    "gl_MaxTextureUnits": 8,
    "gl_MaxTextureCoords": 8,
    "gl_MaxVertexAttribs": 16,
    "gl_MaxVertexUniformComponents": 4096,
    "gl_MaxVaryingFloats": 128,
    "gl_MaxVaryingComponents": 128,
    "gl_MaxVertexTextureImageUnits": 16,
    "gl_MaxCombinedTextureImageUnits": 80,
    "gl_MaxTextureImageUnits": 16,
    "gl_MaxFragmentUniformComponents": 4096,
    "gl_MaxDrawBuffers": 8,
    "gl_MaxClipDistances": 8,
    "gl_MaxCullDistances": 8,
    "gl_MaxCombinedClipAndCullDistances": 8,
    "gl_MaxVertexUniformVectors": 1024,
    "gl_MaxFragmentUniformVectors": 1024,
    "gl_MaxVaryingVectors": 32,
    "gl_MaxVertexOutputVectors": 32,
    "gl_MaxFragmentInputVectors": 32,
    "gl_MaxVertexOutputComponents": 128,
    "gl_MaxFragmentInputComponents": 128,
    "gl_MinProgramTexelOffset": -8,
    "gl_MaxProgramTexelOffset": 7,
    "gl_MaxComputeWorkGroupCount": (65535, 65535, 65535),
    "gl_MaxComputeWorkGroupSize": (1024, 1024, 1024),
    "gl_MaxComputeUniformComponents": 4096,
    "gl_MaxComputeTextureImageUnits": 16,
    "gl_MaxComputeImageUniforms": 8,
    "gl_MaxComputeAtomicCounters": 4096,
    "gl_MaxComputeAtomicCounterBuffers": 8,
    "gl_MaxVertexAtomicCounters": 4096,
    "gl_MaxFragmentAtomicCounters": 4096,
    "gl_MaxCombinedAtomicCounters": 4096,
    "gl_MaxAtomicCounterBindings": 8,
    "gl_MaxVertexAtomicCounterBuffers": 8,
    "gl_MaxFragmentAtomicCounterBuffers": 8,
    "gl_MaxCombinedAtomicCounterBuffers": 8,
    "gl_MaxAtomicCounterBufferSize": 65536,
    "gl_MaxImageUnits": 32,
    "gl_MaxCombinedImageUnitsAndFragmentOutputs": 88,
    "gl_MaxCombinedShaderOutputResources": 88,
    "gl_MaxImageSamples": 0,
    "gl_MaxVertexImageUniforms": 8,
    "gl_MaxFragmentImageUniforms": 8,
    "gl_MaxCombinedImageUniforms": 32,
    "gl_MaxGeometryInputComponents": 64,
    "gl_MaxGeometryOutputComponents": 128,
    "gl_MaxGeometryTextureImageUnits": 16,
    "gl_MaxGeometryOutputVertices": 256,
    "gl_MaxGeometryTotalOutputComponents": 1024,
    "gl_MaxGeometryUniformComponents": 1024,
    "gl_MaxGeometryVaryingComponents": 64,
    "gl_MaxGeometryShaderInvocations": 32,
    # the geometry passes bind no images, atomic counters (GL_MAX_GEOMETRY_* of driver/gl/limits.py)
    "gl_MaxGeometryImageUniforms": 0,
    "gl_MaxGeometryAtomicCounters": 0,
    "gl_MaxGeometryAtomicCounterBuffers": 0,
    "gl_MaxViewports": 16,
    # dual-source blending (EXT_blend_func_extended's GLSL ES name of GL_MAX_DUAL_SOURCE_DRAW_BUFFERS)
    "gl_MaxDualSourceDrawBuffersEXT": 1,
    # transform feedback (GLSL 4.40 / ARB_enhanced_layouts; the pipe's stream-output caps)
    "gl_MaxTransformFeedbackBuffers": 4,
    "gl_MaxTransformFeedbackInterleavedComponents": 64,
    "gl_MaxPatchVertices": 32,
    "gl_MaxTessGenLevel": 64,
    "gl_MaxTessPatchComponents": 120,
    "gl_MaxTessControlInputComponents": 128,
    "gl_MaxTessControlOutputComponents": 128,
    "gl_MaxTessControlTotalOutputComponents": 4096,
    "gl_MaxTessControlTextureImageUnits": 16,
    "gl_MaxTessControlUniformComponents": 1024,
    "gl_MaxTessEvaluationInputComponents": 128,
    "gl_MaxTessEvaluationOutputComponents": 128,
    "gl_MaxTessEvaluationTextureImageUnits": 16,
    "gl_MaxTessEvaluationUniformComponents": 1024,
    # the tessellation stages run as compute kernels: the compute stage's images and
    # atomic counters (driver/gl/tessellation.py binds them)
    "gl_MaxTessControlImageUniforms": 8,
    "gl_MaxTessEvaluationImageUniforms": 8,
    "gl_MaxTessControlAtomicCounters": 4096,
    "gl_MaxTessEvaluationAtomicCounters": 4096,
    "gl_MaxTessControlAtomicCounterBuffers": 8,
    "gl_MaxTessEvaluationAtomicCounterBuffers": 8,
    # limits GLSL has no constant for but the compile-time checks read (as Mesa's compiler
    # reads ctx->Const): the block binding points a layout(binding) may name
    # (GL_MAX_UNIFORM_BUFFER_BINDINGS and GL_MAX_SHADER_STORAGE_BUFFER_BINDINGS of GL 4.6)
    "gl_MaxUniformBufferBindings": 72,
    "gl_MaxShaderStorageBufferBindings": 48,
}

_ACTIVE: ContextVar[Mapping[str, int | tuple[int, ...]] | None] = ContextVar("glsl_limits", default=None)


def limits() -> Mapping[str, int | tuple[int, ...]]:
    """The gl_Max* values of the compilation under way: those `use_limits` set, else LIMITS."""
    active = _ACTIVE.get()
    return LIMITS if active is None else active


@contextmanager
def use_limits(values: Mapping[str, int | tuple[int, ...]] | None) -> Iterator[None]:
    """Compile with `values` (gl_Max* name -> value; a name left out keeps its LIMITS value) as
    the built-in constants and the compile-time checks' limits. None changes nothing. A name
    that is not a gl_Max* constant, or a value of the wrong shape, raises ValueError."""
    if values is None:
        yield
        return
    for name, value in values.items():
        if name not in LIMITS:
            raise ValueError(f"{name} is not a built-in constant")
        if isinstance(LIMITS[name], tuple) != isinstance(value, tuple) or \
                (isinstance(value, tuple) and len(value) != len(LIMITS[name])):
            raise ValueError(f"{name}: {value!r} has not the shape of {LIMITS[name]!r}")
    token = _ACTIVE.set(MappingProxyType({**LIMITS, **{k: (tuple(int(x) for x in v) if isinstance(v, tuple)
                                                            else int(v)) for k, v in values.items()}}))
    try:
        yield
    finally:
        _ACTIVE.reset(token)


def limits_digest() -> str:
    """16 hex digits naming `limits()`: equal limits, equal digest (for cache keys)."""
    text = repr(sorted(limits().items()))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


_CONSTANTS = """
110c - | gl_MaxLights
110c - | gl_MaxClipPlanes
110c - | gl_MaxTextureUnits
110c - | gl_MaxTextureCoords
110 100 | gl_MaxVertexAttribs
110 - | gl_MaxVertexUniformComponents
110c420 - | gl_MaxVaryingFloats
130 - | gl_MaxVaryingComponents
110 100 | gl_MaxVertexTextureImageUnits
110 100 | gl_MaxCombinedTextureImageUnits
110 100 | gl_MaxTextureImageUnits
110 - | gl_MaxFragmentUniformComponents
110 100 | gl_MaxDrawBuffers
130 - +GL_APPLE_clip_distance | gl_MaxClipDistances
450 - +GL_ARB_cull_distance | gl_MaxCullDistances
450 - +GL_ARB_cull_distance | gl_MaxCombinedClipAndCullDistances
410 100 | gl_MaxVertexUniformVectors
410 100 | gl_MaxFragmentUniformVectors
410 100- | gl_MaxVaryingVectors
- 300 | gl_MaxVertexOutputVectors
- 300 | gl_MaxFragmentInputVectors
150 - | gl_MaxVertexOutputComponents
150 - | gl_MaxFragmentInputComponents
400 300 +GL_ARB_shading_language_420pack | gl_MinProgramTexelOffset
400 300 +GL_ARB_shading_language_420pack | gl_MaxProgramTexelOffset
430 310 +GL_ARB_compute_shader | gl_MaxComputeWorkGroupCount
430 310 +GL_ARB_compute_shader | gl_MaxComputeWorkGroupSize
430 310 +GL_ARB_compute_shader | gl_MaxComputeUniformComponents
430 310 +GL_ARB_compute_shader | gl_MaxComputeTextureImageUnits
430 310 +GL_ARB_compute_shader | gl_MaxComputeImageUniforms
430 310 +GL_ARB_compute_shader | gl_MaxComputeAtomicCounters
430 310 +GL_ARB_compute_shader | gl_MaxComputeAtomicCounterBuffers
420 310 +GL_ARB_shader_atomic_counters | gl_MaxVertexAtomicCounters
420 310 +GL_ARB_shader_atomic_counters | gl_MaxFragmentAtomicCounters
420 310 +GL_ARB_shader_atomic_counters | gl_MaxCombinedAtomicCounters
420 310 +GL_ARB_shader_atomic_counters | gl_MaxAtomicCounterBindings
420 310 +GL_ARB_shader_atomic_counters | gl_MaxVertexAtomicCounterBuffers
420 310 +GL_ARB_shader_atomic_counters | gl_MaxFragmentAtomicCounterBuffers
420 310 +GL_ARB_shader_atomic_counters | gl_MaxCombinedAtomicCounterBuffers
420 310 +GL_ARB_shader_atomic_counters | gl_MaxAtomicCounterBufferSize
420 310 +GL_ARB_shader_image_load_store | gl_MaxImageUnits
420 310 +GL_ARB_shader_image_load_store | gl_MaxCombinedImageUnitsAndFragmentOutputs
430 310 | gl_MaxCombinedShaderOutputResources
420 - +GL_ARB_shader_image_load_store | gl_MaxImageSamples
420 310 +GL_ARB_shader_image_load_store | gl_MaxVertexImageUniforms
420 310 +GL_ARB_shader_image_load_store | gl_MaxFragmentImageUniforms
420 310 +GL_ARB_shader_image_load_store | gl_MaxCombinedImageUniforms
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryInputComponents
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryOutputComponents
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryTextureImageUnits
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryOutputVertices
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryTotalOutputComponents
150 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryUniformComponents
420 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryImageUniforms
420 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryAtomicCounters
420 320 +GL_OES_geometry_shader +GL_EXT_geometry_shader | gl_MaxGeometryAtomicCounterBuffers
150 - | gl_MaxGeometryVaryingComponents
400 - +GL_ARB_gpu_shader5 | gl_MaxGeometryShaderInvocations
410 - +GL_ARB_viewport_array +GL_OES_viewport_array | gl_MaxViewports
- - +GL_EXT_blend_func_extended | gl_MaxDualSourceDrawBuffersEXT
440 - +GL_ARB_enhanced_layouts | gl_MaxTransformFeedbackBuffers
440 - +GL_ARB_enhanced_layouts | gl_MaxTransformFeedbackInterleavedComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxPatchVertices
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessGenLevel
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessPatchComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessControlInputComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessControlOutputComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessControlTotalOutputComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessControlTextureImageUnits
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessControlUniformComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessEvaluationInputComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessEvaluationOutputComponents
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessEvaluationTextureImageUnits
400 320 +GL_ARB_tessellation_shader +GL_OES_tessellation_shader +GL_EXT_tessellation_shader | gl_MaxTessEvaluationUniformComponents
420 - +GL_ARB_shader_image_load_store | gl_MaxTessControlImageUniforms
420 - +GL_ARB_shader_image_load_store | gl_MaxTessEvaluationImageUniforms
420 - +GL_ARB_shader_atomic_counters | gl_MaxTessControlAtomicCounters
420 - +GL_ARB_shader_atomic_counters | gl_MaxTessEvaluationAtomicCounters
420 - +GL_ARB_shader_atomic_counters | gl_MaxTessControlAtomicCounterBuffers
420 - +GL_ARB_shader_atomic_counters | gl_MaxTessEvaluationAtomicCounterBuffers
"""

_TABLE = """
# vertex
110 100 @v | out vec4 gl_Position
110 100 @v | out float gl_PointSize
130 - @v +GL_APPLE_clip_distance | out float gl_ClipDistance[gl_MaxClipDistances]
450 - @v +GL_ARB_cull_distance | out float gl_CullDistance[gl_MaxCullDistances]
110c - @v | out vec4 gl_ClipVertex
# layered rendering and viewport selection from the vertex stage (driver: one pass per layer / viewport)
- - @v +GL_AMD_vertex_shader_layer +GL_ARB_shader_viewport_layer_array | out int gl_Layer
- - @v +GL_AMD_vertex_shader_viewport_index +GL_ARB_shader_viewport_layer_array | out int gl_ViewportIndex
130 300 @v +GL_EXT_gpu_shader4 | in int gl_VertexID
- - @v +GL_ARB_shader_draw_parameters | in int gl_BaseVertexARB
- - @v +GL_ARB_shader_draw_parameters | in int gl_BaseInstanceARB
- - @v +GL_ARB_shader_draw_parameters | in int gl_DrawIDARB
460 - @v | in int gl_BaseVertex
460 - @v | in int gl_BaseInstance
460 - @v | in int gl_DrawID
140 300 @v +GL_ARB_draw_instanced +GL_EXT_gpu_shader4 | in int gl_InstanceID
- - @v +GL_EXT_draw_instanced | in int gl_InstanceIDEXT
- - @v +GL_ARB_draw_instanced | in int gl_InstanceIDARB
110c - @v | in vec4 gl_Vertex
110c - @v | in vec3 gl_Normal
110c - @v | in vec4 gl_Color
110c - @v | in vec4 gl_SecondaryColor
110c - @v | in vec4 gl_MultiTexCoord0
110c - @v | in vec4 gl_MultiTexCoord1
110c - @v | in vec4 gl_MultiTexCoord2
110c - @v | in vec4 gl_MultiTexCoord3
110c - @v | in vec4 gl_MultiTexCoord4
110c - @v | in vec4 gl_MultiTexCoord5
110c - @v | in vec4 gl_MultiTexCoord6
110c - @v | in vec4 gl_MultiTexCoord7
110c - @v | in float gl_FogCoord
110c - @v | out vec4 gl_FrontColor
110c - @v | out vec4 gl_BackColor
110c - @v | out vec4 gl_FrontSecondaryColor
110c - @v | out vec4 gl_BackSecondaryColor
110c - @v | out vec4 gl_TexCoord[gl_MaxTextureCoords]
110c - @v | out float gl_FogFragCoord
# fragment
110 100 @f | in vec4 gl_FragCoord
110 100 @f | in bool gl_FrontFacing
450 310 @f | in bool gl_HelperInvocation
120 100 @f | in vec2 gl_PointCoord
130 - @f | in float gl_ClipDistance[gl_MaxClipDistances]
450 - @f +GL_ARB_cull_distance | in float gl_CullDistance[gl_MaxCullDistances]
150 320 @f +GL_EXT_gpu_shader4 +GL_OES_geometry_shader | in int gl_PrimitiveID
400 320 @f +GL_ARB_sample_shading +GL_OES_sample_variables | in int gl_SampleID
400 320 @f +GL_ARB_sample_shading +GL_OES_sample_variables | in vec2 gl_SamplePosition
400 320 @f +GL_ARB_sample_shading +GL_OES_sample_variables +GL_ARB_gpu_shader5 | in int gl_SampleMaskIn[1]
400 320 @f +GL_ARB_sample_shading +GL_OES_sample_variables | out int gl_SampleMask[1]
400 320 @f +GL_ARB_sample_shading +GL_OES_sample_variables | uniform int gl_NumSamples
430 - @f +GL_ARB_fragment_layer_viewport | in int gl_Layer
430 - @f +GL_ARB_fragment_layer_viewport +GL_OES_viewport_array | in int gl_ViewportIndex
110c420 100- @f | out vec4 gl_FragColor
110c420 100- @f | out vec4 gl_FragData[gl_MaxDrawBuffers]
# the second colours of dual-source blending (GLSL ES 1.00 only: 3.00 has layout(index))
- - @f +GL_EXT_blend_func_extended es<300 | out vec4 gl_SecondaryFragColorEXT
- - @f +GL_EXT_blend_func_extended es<300 | out vec4 gl_SecondaryFragDataEXT[gl_MaxDualSourceDrawBuffersEXT]
110 300 @f | out float gl_FragDepth
# EXT_shader_framebuffer_fetch(_non_coherent), GLSL ES 1.00 (and desktop before 1.30): the draw
# buffers' colours (compiler/glsl/framebuffer_fetch.py); 1.30+/ES 3.00+ declare `inout' outputs
- - @f +GL_EXT_shader_framebuffer_fetch +GL_EXT_shader_framebuffer_fetch_non_coherent es<300 | in vec4 gl_LastFragData[gl_MaxDrawBuffers]
# ARM_shader_framebuffer_fetch_depth_stencil (GLSL and GLSL ES): the depth/stencil buffers at the sample
- - @f +GL_ARM_shader_framebuffer_fetch_depth_stencil | in float gl_LastFragDepthARM
- - @f +GL_ARM_shader_framebuffer_fetch_depth_stencil | in int gl_LastFragStencilARM
- - @f +GL_EXT_frag_depth | out float gl_FragDepthEXT
# the fragment's stencil reference (the stencil test's, and REPLACE's value)
- - @f +GL_ARB_shader_stencil_export | out int gl_FragStencilRefARB
- - @f +GL_AMD_shader_stencil_export | out int gl_FragStencilRefAMD
110c - @f | in vec4 gl_Color
110c - @f | in vec4 gl_SecondaryColor
110c - @f | in vec4 gl_TexCoord[gl_MaxTextureCoords]
110c - @f | in float gl_FogFragCoord
# ARB_shader_ballot, every stage (the masks are uint64_t: ARB_gpu_shader_int64 enabled too)
- - +GL_ARB_shader_ballot | uniform uint gl_SubGroupSizeARB
- - +GL_ARB_shader_ballot | in uint gl_SubGroupInvocationARB
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | in uint64_t gl_SubGroupEqMaskARB
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | in uint64_t gl_SubGroupGeMaskARB
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | in uint64_t gl_SubGroupGtMaskARB
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | in uint64_t gl_SubGroupLeMaskARB
- - +GL_ARB_shader_ballot &GL_ARB_gpu_shader_int64 | in uint64_t gl_SubGroupLtMaskARB
# compute
430 310 @c +GL_ARB_compute_shader | in uvec3 gl_NumWorkGroups
430 310 @c +GL_ARB_compute_shader | const uvec3 gl_WorkGroupSize
430 310 @c +GL_ARB_compute_shader | in uvec3 gl_WorkGroupID
430 310 @c +GL_ARB_compute_shader | in uvec3 gl_LocalInvocationID
430 310 @c +GL_ARB_compute_shader | in uvec3 gl_GlobalInvocationID
430 310 @c +GL_ARB_compute_shader | in uint gl_LocalInvocationIndex
# geometry (gl_in is sized by the input primitive: compiler/glsl/geometry.py)
150 310 @g | in gl_PerVertex gl_in[]
150 310 @g | in int gl_PrimitiveIDIn
400 310 @g +GL_ARB_gpu_shader5 | in int gl_InvocationID
150 310 @g | out vec4 gl_Position
150 310 @g | out float gl_PointSize
150 - @g | out float gl_ClipDistance[gl_MaxClipDistances]
450 - @g +GL_ARB_cull_distance | out float gl_CullDistance[gl_MaxCullDistances]
150 310 @g | out int gl_PrimitiveID
150 310 @g | out int gl_Layer
410 - @g +GL_ARB_viewport_array +GL_OES_viewport_array | out int gl_ViewportIndex
150c - @g | out vec4 gl_ClipVertex
150c - @g | out vec4 gl_FrontColor
150c - @g | out vec4 gl_BackColor
150c - @g | out vec4 gl_FrontSecondaryColor
150c - @g | out vec4 gl_BackSecondaryColor
150c - @g | out vec4 gl_TexCoord[gl_MaxTextureCoords]
150c - @g | out float gl_FogFragCoord
# tessellation (compiler/glsl/tessellation.py: gl_out is sized by the output patch)
400 - @t +GL_ARB_tessellation_shader | in gl_PerVertex gl_in[gl_MaxPatchVertices]
400 - @t +GL_ARB_tessellation_shader | in int gl_PatchVerticesIn
400 - @t +GL_ARB_tessellation_shader | in int gl_PrimitiveID
400 - @t +GL_ARB_tessellation_shader | in int gl_InvocationID
400 - @t +GL_ARB_tessellation_shader | out gl_PerVertex gl_out[]
400 - @t +GL_ARB_tessellation_shader | out float gl_TessLevelOuter[4]
400 - @t +GL_ARB_tessellation_shader | out float gl_TessLevelInner[2]
# primitive bounding box (per patch: PATCH_OUTPUTS; the hint is ignored, as the spec allows)
- 320 @t +GL_ARB_ES3_2_compatibility | out vec4 gl_BoundingBox[2]
- - @t +GL_OES_primitive_bounding_box | out vec4 gl_BoundingBoxOES[2]
- - @t +GL_EXT_primitive_bounding_box | out vec4 gl_BoundingBoxEXT[2]
400 - @e +GL_ARB_tessellation_shader | in gl_PerVertex gl_in[gl_MaxPatchVertices]
400 - @e +GL_ARB_tessellation_shader | in int gl_PatchVerticesIn
400 - @e +GL_ARB_tessellation_shader | in int gl_PrimitiveID
400 - @e +GL_ARB_tessellation_shader | in vec3 gl_TessCoord
400 - @e +GL_ARB_tessellation_shader | in float gl_TessLevelOuter[4]
400 - @e +GL_ARB_tessellation_shader | in float gl_TessLevelInner[2]
400 - @e +GL_ARB_tessellation_shader | out vec4 gl_Position
400 - @e +GL_ARB_tessellation_shader | out float gl_PointSize
400 - @e +GL_ARB_tessellation_shader | out float gl_ClipDistance[gl_MaxClipDistances]
450 - @e +GL_ARB_cull_distance | out float gl_CullDistance[gl_MaxCullDistances]
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_ClipVertex
- - @e +GL_ARB_shader_viewport_layer_array | out int gl_Layer
- - @e +GL_ARB_shader_viewport_layer_array | out int gl_ViewportIndex
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_FrontColor
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_BackColor
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_FrontSecondaryColor
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_BackSecondaryColor
400c - @e +GL_ARB_tessellation_shader | out vec4 gl_TexCoord[gl_MaxTextureCoords]
400c - @e +GL_ARB_tessellation_shader | out float gl_FogFragCoord
# uniform state, every stage
110 100 | uniform gl_DepthRangeParameters gl_DepthRange
110c - | uniform mat4 gl_ModelViewMatrix
110c - | uniform mat4 gl_ProjectionMatrix
110c - | uniform mat4 gl_ModelViewProjectionMatrix
110c - | uniform mat4 gl_TextureMatrix[gl_MaxTextureCoords]
110c - | uniform mat3 gl_NormalMatrix
110c - | uniform mat4 gl_ModelViewMatrixInverse
110c - | uniform mat4 gl_ProjectionMatrixInverse
110c - | uniform mat4 gl_ModelViewProjectionMatrixInverse
110c - | uniform mat4 gl_TextureMatrixInverse[gl_MaxTextureCoords]
110c - | uniform mat4 gl_ModelViewMatrixTranspose
110c - | uniform mat4 gl_ProjectionMatrixTranspose
110c - | uniform mat4 gl_ModelViewProjectionMatrixTranspose
110c - | uniform mat4 gl_TextureMatrixTranspose[gl_MaxTextureCoords]
110c - | uniform mat4 gl_ModelViewMatrixInverseTranspose
110c - | uniform mat4 gl_ProjectionMatrixInverseTranspose
110c - | uniform mat4 gl_ModelViewProjectionMatrixInverseTranspose
110c - | uniform mat4 gl_TextureMatrixInverseTranspose[gl_MaxTextureCoords]
110c - | uniform float gl_NormalScale
110c - | uniform vec4 gl_ClipPlane[gl_MaxClipPlanes]
110c - | uniform gl_PointParameters gl_Point
110c - | uniform gl_MaterialParameters gl_FrontMaterial
110c - | uniform gl_MaterialParameters gl_BackMaterial
110c - | uniform gl_LightSourceParameters gl_LightSource[gl_MaxLights]
110c - | uniform gl_LightModelParameters gl_LightModel
110c - | uniform gl_LightModelProducts gl_FrontLightModelProduct
110c - | uniform gl_LightModelProducts gl_BackLightModelProduct
110c - | uniform gl_LightProducts gl_FrontLightProduct[gl_MaxLights]
110c - | uniform gl_LightProducts gl_BackLightProduct[gl_MaxLights]
110c - | uniform vec4 gl_TextureEnvColor[gl_MaxTextureUnits]
110c - | uniform vec4 gl_EyePlaneS[gl_MaxTextureCoords]
110c - | uniform vec4 gl_EyePlaneT[gl_MaxTextureCoords]
110c - | uniform vec4 gl_EyePlaneR[gl_MaxTextureCoords]
110c - | uniform vec4 gl_EyePlaneQ[gl_MaxTextureCoords]
110c - | uniform vec4 gl_ObjectPlaneS[gl_MaxTextureCoords]
110c - | uniform vec4 gl_ObjectPlaneT[gl_MaxTextureCoords]
110c - | uniform vec4 gl_ObjectPlaneR[gl_MaxTextureCoords]
110c - | uniform vec4 gl_ObjectPlaneQ[gl_MaxTextureCoords]
110c - | uniform gl_FogParameters gl_Fog
"""


def _struct(name: str, spec: str) -> T.GLSLType:
    fields = []
    for item in spec.split(";"):
        if item.strip():
            tname, fname = item.split()
            fields.append(T.StructField(fname, T.lookup(tname)))
    return T.struct_type(name, fields)


STATE_STRUCTS: dict[str, T.GLSLType] = {
    "gl_DepthRangeParameters": _struct("gl_DepthRangeParameters", "float near; float far; float diff"),
    "gl_PointParameters": _struct(
        "gl_PointParameters", "float size; float sizeMin; float sizeMax; float fadeThresholdSize; "
        "float distanceConstantAttenuation; float distanceLinearAttenuation; "
        "float distanceQuadraticAttenuation"),
    "gl_MaterialParameters": _struct(
        "gl_MaterialParameters", "vec4 emission; vec4 ambient; vec4 diffuse; vec4 specular; float shininess"),
    "gl_LightSourceParameters": _struct(
        "gl_LightSourceParameters", "vec4 ambient; vec4 diffuse; vec4 specular; vec4 position; "
        "vec4 halfVector; vec3 spotDirection; float spotExponent; float spotCutoff; float spotCosCutoff; "
        "float constantAttenuation; float linearAttenuation; float quadraticAttenuation"),
    "gl_LightModelParameters": _struct("gl_LightModelParameters", "vec4 ambient"),
    "gl_LightModelProducts": _struct("gl_LightModelProducts", "vec4 sceneColor"),
    "gl_LightProducts": _struct("gl_LightProducts", "vec4 ambient; vec4 diffuse; vec4 specular"),
    "gl_PerVertex": T.struct_type("gl_PerVertex", [
        T.StructField("gl_Position", T.lookup("vec4")), T.StructField("gl_PointSize", T.FLOAT),
        T.StructField("gl_ClipDistance", T.array_of(T.FLOAT, LIMITS["gl_MaxClipDistances"]))]),
    "gl_FogParameters": _struct("gl_FogParameters", "vec4 color; float density; float start; float end; "
                                "float scale"),
}
# gl_in's block in the compatibility profile (GLSL 1.50 compatibility section 7.1): the
# deprecated vertex outputs too
COMPAT_PER_VERTEX = T.struct_type("gl_PerVertex", list(STATE_STRUCTS["gl_PerVertex"].fields) + [
    T.StructField("gl_ClipVertex", T.lookup("vec4")), T.StructField("gl_FrontColor", T.lookup("vec4")),
    T.StructField("gl_BackColor", T.lookup("vec4")), T.StructField("gl_FrontSecondaryColor", T.lookup("vec4")),
    T.StructField("gl_BackSecondaryColor", T.lookup("vec4")),
    T.StructField("gl_TexCoord", T.array_of(T.lookup("vec4"), LIMITS["gl_MaxTextureCoords"])),
    T.StructField("gl_FogFragCoord", T.FLOAT)])


# gl_PerVertex has gl_CullDistance after gl_ClipDistance in GLSL 4.50 and with
# GL_ARB_cull_distance (gl_in[] and the control stage's gl_out[])
_CULL_DISTANCE = _parse_availability("450 - +GL_ARB_cull_distance")


def _with_cull_distance(per_vertex: T.GLSLType, count: int) -> T.GLSLType:
    fields = list(per_vertex.fields)
    at = [f.name for f in fields].index("gl_ClipDistance") + 1
    fields.insert(at, T.StructField("gl_CullDistance", T.array_of(T.FLOAT, count)))
    return T.struct_type("gl_PerVertex", fields)


# built-in outputs of the tessellation control stage that are per patch, not per vertex
PATCH_OUTPUTS = frozenset({"gl_BoundingBox", "gl_BoundingBoxOES", "gl_BoundingBoxEXT"})


def _constant_entries() -> list[tuple[Availability, str]]:
    out = []
    for line in _CONSTANTS.strip().splitlines():
        head, name = line.split("|")
        out.append((_parse_availability(head), name.strip()))
    return out


def _variable_entries() -> list[tuple[Availability, str, str, str, str | None]]:
    out = []
    for line in _TABLE.strip().splitlines():
        if line.startswith("#"):
            continue
        head, decl = line.split("|")
        storage, tname, name = decl.split()
        size = None
        if "[" in name:
            name, size = name.rstrip("]").split("[")
        out.append((_parse_availability(head), storage, tname, name, size))
    return out


def _constant_variable(name: str, values: Mapping[str, int | tuple[int, ...]]) -> Variable:
    value = values[name]
    if isinstance(value, tuple):
        t = T.vector("int", len(value))
        const = tuple(value)
    else:
        t = T.INT
        const = (value,)
    return Variable(name, t, storage="const", scope="builtin", builtin=True, const_value=const,
                    read_only=True)


@lru_cache(maxsize=64)
def _cached(version: GLSLVersion, stage: str, extensions: frozenset,
            limit_items: tuple) -> tuple[Variable, ...]:
    values = dict(limit_items)
    out: list[Variable] = []
    for avail, name in _constant_entries():
        if avail.available(version, stage, extensions):
            out.append(_constant_variable(name, values))
    for avail, storage, tname, name, size in _variable_entries():
        if not avail.available(version, stage, extensions):
            continue
        t = STATE_STRUCTS[tname] if tname in STATE_STRUCTS else T.lookup(tname)
        if tname == "gl_PerVertex" and version.compatibility:     # gl_in[], the control stage's gl_out[]
            t = COMPAT_PER_VERTEX
        if tname == "gl_PerVertex" and _CULL_DISTANCE.available(version, stage, extensions):
            t = _with_cull_distance(t, values["gl_MaxCullDistances"])
        if size is not None:
            n = None if size == "" else int(size) if size.isdigit() else values[size]
            t = T.array_of(t, n)
        out.append(Variable(name, t, storage=storage, scope="builtin", builtin=True,
                            read_only=storage in ("in", "uniform", "const"), patch=name in PATCH_OUTPUTS))
    return tuple(out)


def builtin_variables(version: GLSLVersion, stage: str, extensions=()) -> list[Variable]:
    """Fresh Variable objects for one compilation (semantic analysis marks them used)."""
    import copy
    out = []
    for v in _cached(version, stage, frozenset(extensions), tuple(sorted(limits().items()))):
        mine = copy.copy(v)
        mine.layout = dict(v.layout)     # a redeclaration updates it: not the cached one's
        out.append(mine)
    return out


def all_builtin_variable_names() -> set[str]:
    return {e[3] for e in _variable_entries()} | set(LIMITS)
