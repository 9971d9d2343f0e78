"""The packet table: every GPU command-stream packet and descriptor, described once.

The driver encodes with it, the GPU model decodes with it and the decoder prints with
it (one table, every fact once). Bit layouts are ours, shaped after Mesa's agx genxml
(``cmdbuf.xml``); ``README.md`` beside this file draws them. Enumerations used by
other layers (primitive types, compare functions, stencil ops, filters, wraps, ...)
are defined here and nowhere else.

Conventions: addresses are GPU virtual byte addresses of at most 40 bits, stored with
``shr(n)`` when the thing pointed at is aligned; ``_px``, ``_B``, ``_words``,
``_tg`` (threadgroups), ``_threads``, ``_halves`` (16-bit registers) name units.
"""

from __future__ import annotations

from enum import IntEnum

from .table import (LOG2, Group, Packet, address, at, boolean, enumf, flt, minus, shr, sint,
                    uint)

__all__ = [
    # enumerations
    "VDMBlock", "CDMBlock", "CDMMode", "USCTag", "Primitive", "IndexSize", "CompareFunc",
    "StencilOp", "ProvokingVertex", "PolygonMode", "Filter", "MipFilter", "Wrap",
    "BorderColour", "Reduction", "TextureTarget", "Tiling", "Swizzle", "ShadeModel",
    "CoefficientSource", "VisibilityMode", "ZFormat",
    # packets and groups
    "VDM_PPP_STATE_UPDATE", "VDM_BARRIER", "VDM_STATE_UPDATE", "VDM_STATE_VERTEX_SHADER",
    "VDM_STATE_VERTEX_OUTPUTS", "VDM_STATE_STATISTICS", "VDM_STATE", "VDM_INDEX_LIST", "VDM_STREAM_LINK",
    "VDM_TERMINATE",
    "CDM_LAUNCH", "CDM_STREAM_LINK", "CDM_TERMINATE", "CDM_BARRIER", "CDM_RETURN",
    "USC_END", "USC_SHADER", "USC_UNIFORM", "USC_TEXTURE", "USC_SAMPLER", "USC_SHARED",
    "USC_VARYINGS", "USC_FRAGMENT", "USC_PBE",
    "PPP_HEADER", "PPP_VIEWPORT", "PPP_SCISSOR", "PPP_DEPTH_BIAS", "PPP_RASTER",
    "PPP_OUTPUT_SELECT", "PPP_VARYING_COUNTS", "PPP_FRAGMENT_SHADER", "PPP_ZS",
    "PPP_STENCIL_FRONT", "PPP_STENCIL_BACK", "PPP_MSAA", "PPP_OCCLUSION", "PPP_STATE",
    "CF_BINDING_HEADER", "CF_BINDING",
    "TEXTURE", "SAMPLER", "SAMPLER_BORDER", "PBE", "ZLS_CONTROL",
    "TEXTURE_DESC_B", "SAMPLER_DESC_B", "SAMPLER_EXTENDED_DESC_B", "PBE_DESC_B",
]


# ---------------------------------------------------------------------------------
# Enumerations
# ---------------------------------------------------------------------------------

class VDMBlock(IntEnum):
    """VDM control-stream block type, bits 29-31 of a block's first word (as Mesa)."""
    PPP_STATE_UPDATE = 0
    BARRIER = 1
    VDM_STATE_UPDATE = 2
    INDEX_LIST = 3
    STREAM_LINK = 4
    TESSELLATE = 5  # reserved: no packet, decoded as unknown
    TERMINATE = 6


class CDMBlock(IntEnum):
    """CDM stream block type, bits 29-31 of a block's first word."""
    LAUNCH = 0
    STREAM_LINK = 1
    TERMINATE = 2
    BARRIER = 3
    RETURN = 4


class CDMMode(IntEnum):
    DIRECT = 0    # grid size in the packet
    INDIRECT = 1  # grid size (3 x uint32, in threadgroups) read from the indirect buffer


class USCTag(IntEnum):
    """USC control words: a tagged list (tag in bits 0-7) ended by ``END``."""
    END = 0
    SHADER = 1
    UNIFORM = 2
    TEXTURE = 3
    SAMPLER = 4
    SHARED = 5
    VARYINGS = 6
    FRAGMENT = 7
    PBE = 8


class Primitive(IntEnum):
    POINTS = 0
    LINES = 1
    LINE_STRIP = 3
    LINE_LOOP = 5
    TRIANGLES = 6
    TRIANGLE_STRIP = 9
    TRIANGLE_FAN = 11


class IndexSize(IntEnum):
    U8 = 0
    U16 = 1
    U32 = 2

    @property
    def size_B(self) -> int:
        return 1 << int(self)


class CompareFunc(IntEnum):
    """Depth, stencil and shadow-sampler compare functions (GL's order: GL_NEVER + n).

    The test passes when ``reference FUNC stored`` holds (for depth: the incoming
    fragment's depth against the buffer's; for shadow samplers: the coordinate's
    reference against the texel)."""
    NEVER = 0
    LESS = 1
    EQUAL = 2
    LEQUAL = 3
    GREATER = 4
    NOTEQUAL = 5
    GEQUAL = 6
    ALWAYS = 7


class StencilOp(IntEnum):
    KEEP = 0
    ZERO = 1
    REPLACE = 2
    INCR_SAT = 3
    DECR_SAT = 4
    INVERT = 5
    INCR_WRAP = 6
    DECR_WRAP = 7


class ProvokingVertex(IntEnum):
    FIRST = 0
    LAST = 1


class PolygonMode(IntEnum):
    FILL = 0
    LINE = 1
    POINT = 2


class Filter(IntEnum):
    NEAREST = 0
    LINEAR = 1


class MipFilter(IntEnum):
    NONE = 0     # sample the base level only
    NEAREST = 1
    LINEAR = 2


class Wrap(IntEnum):
    CLAMP_TO_EDGE = 0
    REPEAT = 1
    MIRRORED_REPEAT = 2
    CLAMP_TO_BORDER = 3
    MIRROR_CLAMP_TO_EDGE = 4
    # GL_CLAMP of the compatibility profile (AGX's "clamp (GL)"): the coordinate is
    # clamped to [0, 1] first; linear taps beyond the image then take the border colour
    CLAMP_GL = 5
    # EXT_texture_mirror_clamp / ATI_texture_mirror_once: the coordinate mirrored once
    # (|s|), then clamped as CLAMP_GL, or as CLAMP_TO_BORDER
    MIRROR_CLAMP_GL = 6
    MIRROR_CLAMP_TO_BORDER = 7


class Reduction(IntEnum):
    """How a filter combines its texels (ARB/EXT_texture_filter_minmax)."""
    WEIGHTED_AVERAGE = 0
    MIN = 1     # the component-wise minimum of the texels with non-zero weights
    MAX = 2


class BorderColour(IntEnum):
    TRANSPARENT_BLACK = 0
    OPAQUE_BLACK = 1
    OPAQUE_WHITE = 2
    CUSTOM = 3  # a SAMPLER_BORDER after the sampler: raw bits (float or integer per format)


class TextureTarget(IntEnum):
    TEXTURE_1D = 0
    TEXTURE_1D_ARRAY = 1
    TEXTURE_2D = 2
    TEXTURE_2D_ARRAY = 3
    TEXTURE_2D_MS = 4
    TEXTURE_3D = 5
    TEXTURE_CUBE = 6
    TEXTURE_CUBE_ARRAY = 7
    TEXTURE_2D_MS_ARRAY = 8
    TEXTURE_BUFFER = 9


class Tiling(IntEnum):
    """Image layouts; the same values and names as ``layout``'s (Mesa ail's) tilings."""
    LINEAR = 0
    TWIDDLED = 1
    TWIDDLED_COMPRESSED = 2


class Swizzle(IntEnum):
    R = 0
    G = 1
    B = 2
    A = 3
    ZERO = 4
    ONE = 5


class ShadeModel(IntEnum):
    FLAT = 0         # the provoking vertex's value
    LINEAR = 1       # screen-space (noperspective)
    PERSPECTIVE = 2  # perspective-correct (smooth)


class CoefficientSource(IntEnum):
    VARYING = 0
    FRAGCOORD_Z = 1
    POINT_COORD = 2
    PRIMITIVE_ID = 3
    LINE_STIPPLE = 4    # a line's stipple counter (PPP: drmshim/gpu/pipeline/ppp.py); -1 off lines


class VisibilityMode(IntEnum):
    NONE = 0
    COUNTING = 1  # add the passing samples to the counter
    BOOLEAN = 2   # write 1 if any sample passed


class ZFormat(IntEnum):
    Z16_UNORM = 0
    Z32_FLOAT = 1


# ---------------------------------------------------------------------------------
# VDM control stream (render commands). Block type in bits 29-31 of word 0.
# ---------------------------------------------------------------------------------

def _block(enum_value: IntEnum) -> object:
    return enumf("block_type", 29, 3, type(enum_value), exact=enum_value)


VDM_PPP_STATE_UPDATE = Packet("VDM_PPP_STATE_UPDATE", 3, [
    uint("size_words", 0, 16, doc="length of the PPP state block (PPP_STATE group)"),
    _block(VDMBlock.PPP_STATE_UPDATE),
    address("state", at(1), 38, modifier=shr(2), doc="address of the PPP state block"),
], doc="Point the PPP at a block of PPP state (a PPP_STATE group) and apply it.")

VDM_BARRIER = Packet("VDM_BARRIER", 1, [
    boolean("usc_cache_invalidate", 0),
    boolean("returns", 27, doc="return to the stream that linked here with with_return"),
    _block(VDMBlock.BARRIER),
], doc="Wait for earlier draws; with returns=1 also ends a called stream (as Mesa).")

VDM_STATE_UPDATE = Packet("VDM_STATE_UPDATE", 1, [
    boolean("vertex_shader", 0),
    boolean("vertex_outputs", 1),
    boolean("statistics", 2),
    _block(VDMBlock.VDM_STATE_UPDATE),
], doc="Header of the VDM_STATE group: which VDM state records follow.")

VDM_STATE_VERTEX_SHADER = Packet("VDM_STATE_VERTEX_SHADER", 2, [
    address("pipeline", 0, 38, modifier=shr(2), doc="the vertex shader's USC words"),
])

VDM_STATE_VERTEX_OUTPUTS = Packet("VDM_STATE_VERTEX_OUTPUTS", 1, [
    uint("output_count_words", 0, 8, doc="32-bit vertex outputs written with st_var"),
])

VDM_STATE_STATISTICS = Packet("VDM_STATE_STATISTICS", 2, [
    address("counters", 0, 37, modifier=shr(3),
            doc="0: none; else 6 uint64 the following draws add to: vertices submitted, primitives "
                "submitted (= primitives generated), vertex shader invocations, clipper input primitives, "
                "clipper output primitives, fragment shader invocations"),
], doc="Pipeline statistics of the following draws (GL's query counters), added in memory.")

VDM_STATE = Group("VDM_STATE", VDM_STATE_UPDATE, [
    ("vertex_shader", VDM_STATE_VERTEX_SHADER),
    ("vertex_outputs", VDM_STATE_VERTEX_OUTPUTS),
    ("statistics", VDM_STATE_STATISTICS),
])

VDM_INDEX_LIST = Packet("VDM_INDEX_LIST", 11, [
    enumf("primitive", 0, 4, Primitive),
    enumf("index_size", 4, 2, IndexSize),
    boolean("restart_enable", 6),
    boolean("indexed", 7, doc="fetch indices from index_buffer; else vertex ids count up from base_vertex"),
    boolean("indirect", 8, doc="read count/instances/base from indirect_buffer (GL's Draw*Indirect layout)"),
    _block(VDMBlock.INDEX_LIST),
    address("index_buffer", at(1), 40),
    uint("index_buffer_size_B", at(3), 32, doc="bounds of the index buffer; reads past it give index 0"),
    uint("restart_index", at(4), 32, default=0xFFFFFFFF),
    uint("count", at(5), 32, doc="indices (indexed) or vertices"),
    uint("instances", at(6), 32, default=1),
    sint("base_vertex", at(7), 32, doc="added to each index; the first vertex when not indexed"),
    uint("base_instance", at(8), 32),
    address("indirect_buffer", at(9), 38, modifier=shr(2)),
], doc="A draw. Indirect: {count, instances, first, base_instance} or, indexed, "
       "{count, instances, first_index, base_vertex, base_instance} (uint32 each).")

VDM_STREAM_LINK = Packet("VDM_STREAM_LINK", 3, [
    boolean("with_return", 28, doc="a call: a VDM_BARRIER with returns=1 comes back here"),
    _block(VDMBlock.STREAM_LINK),
    address("target", at(1), 38, modifier=shr(2)),
])

VDM_TERMINATE = Packet("VDM_TERMINATE", 1, [_block(VDMBlock.TERMINATE)])

# ---------------------------------------------------------------------------------
# CDM stream (compute commands)
# ---------------------------------------------------------------------------------

CDM_LAUNCH = Packet("CDM_LAUNCH", 10, [
    enumf("mode", 0, 2, CDMMode),
    enumf("block_type", 29, 3, CDMBlock, exact=CDMBlock.LAUNCH),
    address("pipeline", at(1), 38, modifier=shr(2), doc="the kernel's USC words"),
    uint("grid_x_tg", at(3), 32, default=1),
    uint("grid_y_tg", at(4), 32, default=1),
    uint("grid_z_tg", at(5), 32, default=1),
    uint("threadgroup_x_threads", at(6), 16, default=1),
    uint("threadgroup_y_threads", at(6, 16), 16, default=1),
    uint("threadgroup_z_threads", at(7), 16, default=1),
    address("indirect_buffer", at(8), 38, modifier=shr(2), doc="INDIRECT: 3 x uint32 grid size in threadgroups"),
])

CDM_STREAM_LINK = Packet("CDM_STREAM_LINK", 3, [
    boolean("with_return", 28, doc="a call: CDM_RETURN comes back here"),
    enumf("block_type", 29, 3, CDMBlock, exact=CDMBlock.STREAM_LINK),
    address("target", at(1), 38, modifier=shr(2)),
])

CDM_TERMINATE = Packet("CDM_TERMINATE", 1, [enumf("block_type", 29, 3, CDMBlock, exact=CDMBlock.TERMINATE)])

CDM_BARRIER = Packet("CDM_BARRIER", 1, [
    boolean("usc_cache_invalidate", 0),
    enumf("block_type", 29, 3, CDMBlock, exact=CDMBlock.BARRIER),
], doc="Later launches see the memory writes of earlier ones.")

CDM_RETURN = Packet("CDM_RETURN", 1, [enumf("block_type", 29, 3, CDMBlock, exact=CDMBlock.RETURN)])

# ---------------------------------------------------------------------------------
# USC words: what a pipeline address points at. Tagged list ended by USC_END.
# ---------------------------------------------------------------------------------

def _tag(t: USCTag):
    return enumf("tag", 0, 8, USCTag, exact=t)


USC_END = Packet("USC_END", 1, [_tag(USCTag.END)])

USC_SHADER = Packet("USC_SHADER", 3, [
    _tag(USCTag.SHADER),
    uint("register_count", 8, 8, doc="32-bit general registers used (r0..r{n-1})"),
    uint("scratch_size_B", 16, 16, modifier=shr(4), doc="per-lane stack for spills"),
    address("code", at(1), 40, doc="the first instruction"),
    uint("uniform_count_halves", at(2, 8), 10, doc="16-bit uniform registers the program reads (u0l..)"),
])

USC_UNIFORM = Packet("USC_UNIFORM", 3, [
    _tag(USCTag.UNIFORM),
    uint("start_halves", 8, 9, doc="first 16-bit uniform register loaded"),
    uint("size_halves", 17, 9, doc="16-bit uniform registers loaded from buffer"),
    address("buffer", at(1), 38, modifier=shr(2)),
])

USC_TEXTURE = Packet("USC_TEXTURE", 3, [
    _tag(USCTag.TEXTURE),
    uint("start", 8, 8, doc="first texture state register"),
    uint("count", 16, 8),
    address("table", at(1), 36, modifier=shr(4), doc="array of TEXTURE descriptors"),
])

USC_SAMPLER = Packet("USC_SAMPLER", 3, [
    _tag(USCTag.SAMPLER),
    uint("start", 8, 8, doc="first sampler state register"),
    uint("count", 16, 8),
    boolean("extended", 24, doc="entries are SAMPLER + SAMPLER_BORDER (SAMPLER_EXTENDED_DESC_B apart)"),
    address("table", at(1), 36, modifier=shr(4), doc="array of SAMPLER descriptors"),
])

USC_SHARED = Packet("USC_SHARED", 2, [
    _tag(USCTag.SHARED),
    uint("local_memory_size_B", 8, 16, modifier=shr(4), doc="threadgroup (local) memory per group"),
    uint("threadgroup_size_threads", at(1), 11, default=1, doc="threads per group the memory is shared by"),
])

USC_VARYINGS = Packet("USC_VARYINGS", 1, [
    _tag(USCTag.VARYINGS),
    uint("output_count_words", 8, 8, doc="vertex: 32-bit outputs written with st_var"),
    uint("cf_count", 16, 8, doc="fragment: coefficient registers read"),
])

USC_FRAGMENT = Packet("USC_FRAGMENT", 1, [
    _tag(USCTag.FRAGMENT),
    boolean("writes_depth", 8),
    boolean("writes_sample_mask", 9),
    boolean("discards", 10),
    boolean("early_z", 11, doc="depth/stencil may be tested before shading"),
    boolean("per_sample", 12, doc="on a multisampled target, run once per covered sample (the program reads "
                                  "its sample's index or position, or interpolates at it); otherwise once "
                                  "per pixel, its result written to every covered sample"),
    boolean("post_depth_coverage", 13, doc="coverage_mask (gl_SampleMaskIn) is the samples that passed the "
                                           "early depth/stencil tests, not the rasterised coverage"),
])

USC_PBE = Packet("USC_PBE", 3, [
    _tag(USCTag.PBE),
    uint("tile_offset_B", 8, 8, doc="byte offset of the render target in each tile-memory record"),
    address("descriptor", at(1), 36, modifier=shr(4), doc="a PBE descriptor"),
], doc="End-of-tile pipelines: after the program, the PBE stores this render target of tile memory "
       "(raw bytes in the descriptor's format) into its image.")

# ---------------------------------------------------------------------------------
# PPP state: a PPP_HEADER word, then the present records in this order.
# ---------------------------------------------------------------------------------

_PPP_MEMBERS = ["viewport", "scissor", "depth_bias", "raster", "output_select", "varying_counts",
                "fragment_shader", "zs", "stencil_front", "stencil_back", "msaa", "occlusion"]

PPP_HEADER = Packet("PPP_HEADER", 1, [boolean(m, i) for i, m in enumerate(_PPP_MEMBERS)])

PPP_VIEWPORT = Packet("PPP_VIEWPORT", 8, [
    flt("translate_x", at(0)), flt("scale_x", at(1)),
    flt("translate_y", at(2)), flt("scale_y", at(3)),
    flt("translate_z", at(4)), flt("scale_z", at(5)),
    flt("min_depth", at(6)), flt("max_depth", at(7), default=1.0),
], doc="window = translate + scale * ndc; depth clamped to [min_depth, max_depth].")

PPP_SCISSOR = Packet("PPP_SCISSOR", 2, [
    uint("min_x_px", 0, 16), uint("max_x_px", 16, 16, doc="exclusive"),
    uint("min_y_px", at(1), 16), uint("max_y_px", at(1, 16), 16, doc="exclusive"),
])

PPP_DEPTH_BIAS = Packet("PPP_DEPTH_BIAS", 3, [
    flt("constant", at(0)), flt("slope_scale", at(1)), flt("clamp", at(2)),
])

PPP_RASTER = Packet("PPP_RASTER", 3, [
    boolean("cull_front", 0),
    boolean("cull_back", 1),
    boolean("front_ccw", 2, default=True, doc="counter-clockwise triangles are front-facing"),
    enumf("provoking_vertex", 3, 1, ProvokingVertex, default=ProvokingVertex.LAST),
    enumf("polygon_mode_front", 4, 2, PolygonMode),
    enumf("polygon_mode_back", 6, 2, PolygonMode),
    boolean("point_sprite", 8, doc="points get point coordinates"),
    boolean("point_sprite_lower_left", 9, doc="point coordinate origin at the lower left"),
    boolean("program_point_size", 10, doc="point size from the vertex shader's output"),
    boolean("depth_clip", 11, default=True),
    boolean("depth_clamp", 12),
    boolean("rasterizer_discard", 13),
    boolean("depth_bias_enable", 14),
    boolean("scissor_enable", 15),
    boolean("clip_zero_to_one", 16,
            doc="clip-space z in [0, w] (GL_ZERO_TO_ONE clip control) instead of [-w, w]"),
    boolean("line_smooth", 17,
            doc="antialiased lines: each line is rasterised as its antialiasing rectangle (width + 1, "
                "ends perpendicular to the segment) and its fragments get their distances to the "
                "rectangle's two long edges through the point-coordinate source"),
    boolean("depth_bias_fixed24", 18,
            doc="the depth bias's constant counts in r = 2^-23 whatever the depth buffer's storage: "
                "the minimum resolvable difference of a 24-bit fixed-point buffer the driver keeps as "
                "32-bit float (GL's DEPTH24 formats), two of its steps (a step a z interpolated in "
                "float32 resolves; Mesa's software rasterisers take the same); clear: r of the ZLS "
                "format (2^-16 for Z16, 2^(e - 23) of each primitive's largest |z| for Z32F)"),
    boolean("multisample", 19, default=True,
            doc="multisample rasterization: coverage and depth at each sample's position; off, every "
                "sample of a multisampled target takes the pixel centre's (single-sample rasterization "
                "with full coverage, GL's MULTISAMPLE disabled)"),
    flt("point_size_px", at(1), default=1.0),
    flt("line_width_px", at(2), default=1.0),
])

PPP_OUTPUT_SELECT = Packet("PPP_OUTPUT_SELECT", 1, [
    uint("clip_distances", 0, 16, doc="mask of clip-distance outputs present (at the end of the outputs)"),
    boolean("varyings", 16, doc="user varyings follow the position"),
    boolean("point_size", 18, doc="a point size output follows the varyings"),
    boolean("layer", 20, doc="a layer output (layered rendering)"),
    boolean("frag_coord_z", 21, doc="remap slot 1 is fragment Z (W is always slot 0)"),
    uint("cull_distances", 22, 8, doc="mask of cull-distance outputs present (after the clip distances): "
         "a primitive with one of them negative at every vertex is culled before clipping"),
], doc="The 'output select' word of the notes: which vertex outputs exist and remap to slots.")

PPP_VARYING_COUNTS = Packet("PPP_VARYING_COUNTS", 2, [
    uint("smooth_32", 0, 8), uint("flat_32", 8, 8), uint("linear_32", 16, 8),
    uint("smooth_16", at(1), 8, doc="packed pairs"), uint("flat_16", at(1, 8), 8), uint("linear_16", at(1, 16), 8),
], doc="Vertex outputs after the position, in the notes' order (32-bit groups then 16-bit).")

PPP_FRAGMENT_SHADER = Packet("PPP_FRAGMENT_SHADER", 5, [
    uint("cf_binding_count", 0, 8),
    address("pipeline", at(1), 38, modifier=shr(2), doc="the fragment shader's USC words"),
    address("cf_bindings", at(3), 38, modifier=shr(2), doc="CF_BINDING_HEADER then cf_binding_count CF_BINDINGs"),
], doc="'Bind fragment pipeline' of the notes.")

PPP_ZS = Packet("PPP_ZS", 1, [
    enumf("depth_func", 0, 3, CompareFunc, default=CompareFunc.ALWAYS),
    boolean("depth_write", 3),
    boolean("stencil_test", 4),
    boolean("two_sided_stencil", 5, doc="back faces use PPP_STENCIL_BACK"),
], doc="Depth and stencil (ISP) control.")


def _stencil(name: str) -> Packet:
    return Packet(name, 2, [
        enumf("compare", 0, 3, CompareFunc, default=CompareFunc.ALWAYS),
        enumf("stencil_fail", 3, 3, StencilOp),
        enumf("depth_fail", 6, 3, StencilOp),
        enumf("depth_pass", 9, 3, StencilOp),
        uint("reference", 16, 8),
        uint("read_mask", at(1), 8, default=0xFF),
        uint("write_mask", at(1, 8), 8, default=0xFF),
    ])


PPP_STENCIL_FRONT = _stencil("PPP_STENCIL_FRONT")
PPP_STENCIL_BACK = _stencil("PPP_STENCIL_BACK")

PPP_MSAA = Packet("PPP_MSAA", 2, [
    uint("sample_count", 0, 2, modifier=LOG2, default=1),
    boolean("sample_coverage", 2),
    boolean("coverage_invert", 3),
    boolean("alpha_to_coverage", 4),
    boolean("alpha_to_one", 5),
    boolean("sample_shading", 6, doc="shade once per covered sample whatever the program (GL's sample "
                                     "shading: glMinSampleShading above 1/samples)"),
    uint("sample_mask", 16, 16, default=0xFFFF),
    flt("coverage_value", at(1), default=1.0),
])

PPP_OCCLUSION = Packet("PPP_OCCLUSION", 1, [
    enumf("mode", 0, 2, VisibilityMode),
    uint("index", 16, 16, doc="uint64 counter index in the render command's occlusion buffer"),
])

PPP_STATE = Group("PPP_STATE", PPP_HEADER, [
    ("viewport", PPP_VIEWPORT), ("scissor", PPP_SCISSOR), ("depth_bias", PPP_DEPTH_BIAS),
    ("raster", PPP_RASTER), ("output_select", PPP_OUTPUT_SELECT),
    ("varying_counts", PPP_VARYING_COUNTS), ("fragment_shader", PPP_FRAGMENT_SHADER),
    ("zs", PPP_ZS), ("stencil_front", PPP_STENCIL_FRONT), ("stencil_back", PPP_STENCIL_BACK),
    ("msaa", PPP_MSAA), ("occlusion", PPP_OCCLUSION),
])

# ---------------------------------------------------------------------------------
# Coefficient-register bindings (pointed at by PPP_FRAGMENT_SHADER.cf_bindings)
# ---------------------------------------------------------------------------------

CF_BINDING_HEADER = Packet("CF_BINDING_HEADER", 1, [
    uint("slots_32", 0, 8, doc="remapped slots below this index are 32-bit (W is slot 0, so >= 1)"),
    uint("cf_count", 8, 8, doc="coefficient registers bound in all"),
])

CF_BINDING = Packet("CF_BINDING", 1, [
    uint("components", 0, 2, modifier=minus(1), default=1),
    enumf("shade_model", 2, 2, ShadeModel),
    enumf("source", 4, 3, CoefficientSource),
    uint("base_slot", 8, 8),
    uint("base_cf", 16, 8),
], doc="Varying slots base_slot.. preload coefficient registers base_cf.. (components of them).")

# ---------------------------------------------------------------------------------
# Descriptors: texture, sampler, PBE (render-target store), ZLS control
# ---------------------------------------------------------------------------------

TEXTURE = Packet("TEXTURE", 6, [
    enumf("target", 0, 4, TextureTarget, default=TextureTarget.TEXTURE_2D),
    enumf("tiling", 4, 2, Tiling),
    boolean("srgb", 6, doc="decode sRGB to linear on sampling (RGB only)"),
    uint("format_id", 8, 10, doc="index into layout's format table"),
    enumf("swizzle_r", 18, 3, Swizzle, default=Swizzle.R),
    enumf("swizzle_g", 21, 3, Swizzle, default=Swizzle.G),
    enumf("swizzle_b", 24, 3, Swizzle, default=Swizzle.B),
    enumf("swizzle_a", 27, 3, Swizzle, default=Swizzle.A),
    uint("width_px", at(1), 14, modifier=minus(1), default=1),
    uint("height_px", at(1, 14), 14, modifier=minus(1), default=1),
    uint("sample_count", at(1, 28), 2, modifier=LOG2, default=1),
    uint("depth_px", at(2), 14, modifier=minus(1), default=1, doc="3D slices, or array layers (cube: 6 per cube)"),
    uint("levels", at(2, 14), 4, modifier=minus(1), default=1, doc="levels in the miptree as laid out"),
    uint("first_level", at(2, 18), 4, doc="view: base level"),
    uint("last_level", at(2, 22), 4, doc="view: max level"),
    address("address", at(3), 36, modifier=shr(4)),
    uint("linear_stride_B", at(4, 4), 20, modifier=shr(4), doc="row stride of linear images"),
    uint("layer_stride_B", at(5), 32, modifier=shr(7), doc="bytes between layers/slices"),
])

SAMPLER = Packet("SAMPLER", 4, [
    enumf("min_filter", 0, 1, Filter),
    enumf("mag_filter", 1, 1, Filter),
    enumf("mip_filter", 2, 2, MipFilter),
    enumf("wrap_s", 4, 3, Wrap, default=Wrap.REPEAT),
    enumf("wrap_t", 7, 3, Wrap, default=Wrap.REPEAT),
    enumf("wrap_r", 10, 3, Wrap, default=Wrap.REPEAT),
    boolean("compare_enable", 13),
    enumf("compare_func", 14, 3, CompareFunc, default=CompareFunc.LEQUAL),
    enumf("border_colour", 17, 2, BorderColour, doc="CUSTOM: a SAMPLER_BORDER follows the sampler"),
    boolean("seamless_cube", 19, doc="filter across cube faces"),
    boolean("unnormalized_coords", 20, doc="coordinates in texels (rectangle textures)"),
    uint("max_anisotropy_log2", 21, 3, doc="anisotropic minification: up to 2**n bilinear/trilinear "
         "samples along the footprint's major axis (0: isotropic)"),
    enumf("reduction", 24, 2, Reduction, doc="MIN/MAX: the component-wise minimum/maximum of the texels "
          "the filter gives non-zero weights (integer formats filter too), instead of their weighted sum"),
    flt("lod_min", at(1), default=-1000.0),
    flt("lod_max", at(2), default=1000.0),
    flt("lod_bias", at(3)),
], doc="16 B; a sampler with a CUSTOM border colour is extended by a SAMPLER_BORDER (32 B in all, "
       "as Mesa's extended samplers), so a sampler heap with custom borders has a 32 B stride.")

SAMPLER_BORDER = Packet("SAMPLER_BORDER", 4, [
    uint("border_0", at(0), 32, doc="raw bits: float for float/normalised formats, integer for integer ones"),
    uint("border_1", at(1), 32),
    uint("border_2", at(2), 32),
    uint("border_3", at(3), 32),
], doc="The custom border colour of the SAMPLER just before it.")

PBE = Packet("PBE", 8, [
    enumf("target", 0, 4, TextureTarget, default=TextureTarget.TEXTURE_2D),
    enumf("tiling", 4, 2, Tiling),
    boolean("srgb", 6, doc="encode linear to sRGB on store"),
    uint("format_id", 8, 10, doc="index into layout's format table"),
    uint("sample_count", 18, 2, modifier=LOG2, default=1),
    uint("width_px", at(1), 14, modifier=minus(1), default=1),
    uint("height_px", at(1, 14), 14, modifier=minus(1), default=1),
    uint("level", at(2), 4),
    uint("levels", at(2, 4), 4, modifier=minus(1), default=1),
    uint("layer", at(2, 8), 14),
    address("address", at(3), 36, modifier=shr(4)),
    uint("linear_stride_B", at(5), 20, modifier=shr(4)),
    uint("layer_stride_B", at(6), 32, modifier=shr(7)),
], doc="Pixel back end: where and how a render target is stored (and image stores).")

ZLS_CONTROL = Packet("ZLS_CONTROL", 1, [
    boolean("depth_load", 0), boolean("depth_store", 1), boolean("depth_clear", 2),
    boolean("stencil_load", 3), boolean("stencil_store", 4), boolean("stencil_clear", 5),
    enumf("depth_format", 8, 1, ZFormat, default=ZFormat.Z32_FLOAT),
    enumf("depth_tiling", 10, 2, Tiling, default=Tiling.TWIDDLED),
    enumf("stencil_tiling", 12, 2, Tiling, default=Tiling.TWIDDLED),
], doc="Depth/stencil load/store/clear at the start and end of a tile.")

TEXTURE_DESC_B = TEXTURE.size_B
SAMPLER_DESC_B = SAMPLER.size_B
SAMPLER_EXTENDED_DESC_B = SAMPLER.size_B + SAMPLER_BORDER.size_B
PBE_DESC_B = PBE.size_B
