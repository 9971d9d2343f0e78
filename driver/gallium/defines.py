"""Enumerations of the pipe interface (Gallium's p_defines.h / p_format.h kind).

The GL front end translates GL enums into these; the hardware driver translates
these into hardware encodings. Neither side ever sees the other's enums."""

from __future__ import annotations

import enum

import layout

__all__ = [
    "PipeBarrier", "PipeBind", "PipeBlendFactor", "PipeBlendFunc", "PipeClear",
    "PipeCompareFunc", "PipeFace", "PipeFlush", "PipeFormat", "PipeLogicOp",
    "PipeMap", "PipeMask", "PipePolygonMode", "PipePrim", "PipeQueryType", "PipeResetStatus",
    "PipeShaderType", "PipeStencilOp", "PipeSwizzle", "PipeTexFilter",
    "PipeTexMipFilter", "PipeTexReductionMode", "PipeTexWrap", "PipeTextureTarget", "PipeUsage",
    "PIPE_TIMEOUT_INFINITE", "PIPE_MAX_COLOR_BUFS", "PIPE_MAX_ATTRIBS",
    "PIPE_MAX_VIEWPORTS", "PIPE_MAX_CLIP_PLANES",
]

PIPE_TIMEOUT_INFINITE = 0xFFFFFFFFFFFFFFFF
PIPE_MAX_COLOR_BUFS = 8
PIPE_MAX_ATTRIBS = 32
PIPE_MAX_VIEWPORTS = 16
PIPE_MAX_CLIP_PLANES = 8


class PipeTextureTarget(enum.IntEnum):
    BUFFER = 0
    TEXTURE_1D = 1
    TEXTURE_2D = 2
    TEXTURE_3D = 3
    TEXTURE_CUBE = 4
    TEXTURE_RECT = 5
    TEXTURE_1D_ARRAY = 6
    TEXTURE_2D_ARRAY = 7
    TEXTURE_CUBE_ARRAY = 8


class PipeShaderType(enum.IntEnum):
    VERTEX = 0
    TESS_CTRL = 1
    TESS_EVAL = 2
    GEOMETRY = 3
    FRAGMENT = 4
    COMPUTE = 5


class PipePrim(enum.IntEnum):
    """Primitive types; values equal GL's GL_POINTS..GL_PATCHES."""
    POINTS = 0
    LINES = 1
    LINE_LOOP = 2
    LINE_STRIP = 3
    TRIANGLES = 4
    TRIANGLE_STRIP = 5
    TRIANGLE_FAN = 6
    QUADS = 7
    QUAD_STRIP = 8
    POLYGON = 9
    LINES_ADJACENCY = 10
    LINE_STRIP_ADJACENCY = 11
    TRIANGLES_ADJACENCY = 12
    TRIANGLE_STRIP_ADJACENCY = 13
    PATCHES = 14


class PipeBlendFunc(enum.IntEnum):
    ADD = 0
    SUBTRACT = 1
    REVERSE_SUBTRACT = 2
    MIN = 3
    MAX = 4


class PipeBlendFactor(enum.IntEnum):
    ONE = 0x1
    SRC_COLOR = 0x2
    SRC_ALPHA = 0x3
    DST_ALPHA = 0x4
    DST_COLOR = 0x5
    SRC_ALPHA_SATURATE = 0x6
    CONST_COLOR = 0x7
    CONST_ALPHA = 0x8
    SRC1_COLOR = 0x9
    SRC1_ALPHA = 0x0A
    ZERO = 0x11
    INV_SRC_COLOR = 0x12
    INV_SRC_ALPHA = 0x13
    INV_DST_ALPHA = 0x14
    INV_DST_COLOR = 0x15
    INV_CONST_COLOR = 0x17
    INV_CONST_ALPHA = 0x18
    INV_SRC1_COLOR = 0x19
    INV_SRC1_ALPHA = 0x1A


class PipeLogicOp(enum.IntEnum):
    """Values equal GL's logic op minus GL_CLEAR (0x1500)."""
    CLEAR = 0
    AND = 1
    AND_REVERSE = 2
    COPY = 3
    AND_INVERTED = 4
    NOOP = 5
    XOR = 6
    OR = 7
    NOR = 8
    EQUIV = 9
    INVERT = 10
    OR_REVERSE = 11
    COPY_INVERTED = 12
    OR_INVERTED = 13
    NAND = 14
    SET = 15


class PipeCompareFunc(enum.IntEnum):
    """Values equal GL's comparison function minus GL_NEVER (0x0200)."""
    NEVER = 0
    LESS = 1
    EQUAL = 2
    LEQUAL = 3
    GREATER = 4
    NOTEQUAL = 5
    GEQUAL = 6
    ALWAYS = 7


class PipeStencilOp(enum.IntEnum):
    KEEP = 0
    ZERO = 1
    REPLACE = 2
    INCR = 3
    DECR = 4
    INCR_WRAP = 5
    DECR_WRAP = 6
    INVERT = 7


class PipeFace(enum.IntFlag):
    NONE = 0
    FRONT = 1
    BACK = 2
    FRONT_AND_BACK = 3


class PipePolygonMode(enum.IntEnum):
    FILL = 0
    LINE = 1
    POINT = 2


class PipeTexWrap(enum.IntEnum):
    REPEAT = 0
    CLAMP = 1
    CLAMP_TO_EDGE = 2
    CLAMP_TO_BORDER = 3
    MIRROR_REPEAT = 4
    MIRROR_CLAMP = 5
    MIRROR_CLAMP_TO_EDGE = 6
    MIRROR_CLAMP_TO_BORDER = 7


class PipeTexFilter(enum.IntEnum):
    NEAREST = 0
    LINEAR = 1


class PipeTexMipFilter(enum.IntEnum):
    NEAREST = 0
    LINEAR = 1
    NONE = 2


class PipeTexReductionMode(enum.IntEnum):
    """pipe_tex_reduction_mode: how a filter combines its texels."""
    WEIGHTED_AVERAGE = 0
    MIN = 1
    MAX = 2


class PipeSwizzle(enum.IntEnum):
    X = 0
    Y = 1
    Z = 2
    W = 3
    ZERO = 4
    ONE = 5


class PipeBind(enum.IntFlag):
    """How a resource may be bound (pipe_resource.bind)."""
    NONE = 0
    DEPTH_STENCIL = 1 << 0
    RENDER_TARGET = 1 << 1
    BLENDABLE = 1 << 2
    SAMPLER_VIEW = 1 << 3
    VERTEX_BUFFER = 1 << 4
    INDEX_BUFFER = 1 << 5
    CONSTANT_BUFFER = 1 << 6
    STREAM_OUTPUT = 1 << 7
    SHADER_BUFFER = 1 << 8
    SHADER_IMAGE = 1 << 9
    COMMAND_ARGS_BUFFER = 1 << 10
    QUERY_BUFFER = 1 << 11
    LINEAR = 1 << 12
    SHARED = 1 << 13
    SCANOUT = 1 << 14


class PipeUsage(enum.IntEnum):
    """Expected CPU/GPU access pattern (pipe_resource.usage)."""
    DEFAULT = 0    # GPU read/write, rare CPU uploads
    IMMUTABLE = 1  # written once at creation
    DYNAMIC = 2    # frequent CPU writes, GPU reads
    STREAM = 3     # written once, used once
    STAGING = 4    # CPU <-> GPU transfers, CPU-cached


class PipeMap(enum.IntFlag):
    """transfer_map usage flags."""
    READ = 1 << 0
    WRITE = 1 << 1
    DISCARD_RANGE = 1 << 2
    DISCARD_WHOLE_RESOURCE = 1 << 3
    UNSYNCHRONIZED = 1 << 4
    FLUSH_EXPLICIT = 1 << 5
    PERSISTENT = 1 << 6
    COHERENT = 1 << 7
    DONTBLOCK = 1 << 8


class PipeClear(enum.IntFlag):
    """clear() buffer mask: depth, stencil, then one bit per colour buffer."""
    DEPTH = 1 << 0
    STENCIL = 1 << 1
    COLOR0 = 1 << 2
    COLOR1 = 1 << 3
    COLOR2 = 1 << 4
    COLOR3 = 1 << 5
    COLOR4 = 1 << 6
    COLOR5 = 1 << 7
    COLOR6 = 1 << 8
    COLOR7 = 1 << 9
    DEPTHSTENCIL = DEPTH | STENCIL
    COLOR = COLOR0 | COLOR1 | COLOR2 | COLOR3 | COLOR4 | COLOR5 | COLOR6 | COLOR7

    @classmethod
    def color(cls, index: int) -> "PipeClear":
        return cls(cls.COLOR0 << index)


class PipeMask(enum.IntFlag):
    """Blit masks."""
    R = 1
    G = 2
    B = 4
    A = 8
    RGBA = 15
    Z = 16
    S = 32
    ZS = 48


class PipeQueryType(enum.IntEnum):
    OCCLUSION_COUNTER = 0        # result: samples passed (int)
    OCCLUSION_PREDICATE = 1      # result: bool
    OCCLUSION_PREDICATE_CONSERVATIVE = 2
    TIMESTAMP = 3                # result: GPU time in ns
    TIME_ELAPSED = 4             # result: ns between begin and end
    PRIMITIVES_GENERATED = 5
    PRIMITIVES_EMITTED = 6       # transform feedback primitives written
    SO_OVERFLOW_PREDICATE = 7
    GPU_FINISHED = 8
    PIPELINE_STATISTICS = 9      # one counter: create_query's index is a PipeStatistic


class PipeStatistic(enum.IntEnum):
    """The counters of a PIPELINE_STATISTICS query (Gallium's
    pipe_query_data_pipeline_statistics order)."""
    IA_VERTICES = 0              # vertices submitted
    IA_PRIMITIVES = 1            # primitives submitted
    VS_INVOCATIONS = 2
    GS_INVOCATIONS = 3
    GS_PRIMITIVES = 4
    C_INVOCATIONS = 5            # primitives entering the clipper
    C_PRIMITIVES = 6             # primitives leaving it
    PS_INVOCATIONS = 7
    HS_INVOCATIONS = 8
    DS_INVOCATIONS = 9
    CS_INVOCATIONS = 10


class PipeFlush(enum.IntFlag):
    NONE = 0
    END_OF_FRAME = 1 << 0
    DEFERRED = 1 << 1   # fence may be returned before the submission happens
    ASYNC = 1 << 2


class PipeResetStatus(enum.IntEnum):
    """get_device_reset_status: whether a GPU reset hit this context since it was made
    (Gallium's pipe_reset_status). GUILTY: its own work was stopped (the watchdog);
    INNOCENT: the reset was caused by other work; UNKNOWN: cause not known."""
    NO_RESET = 0
    GUILTY = 1
    INNOCENT = 2
    UNKNOWN = 3


class PipeBarrier(enum.IntFlag):
    """memory_barrier flags (what later work must see)."""
    MAPPED_BUFFER = 1 << 0
    SHADER_BUFFER = 1 << 1
    QUERY_BUFFER = 1 << 2
    VERTEX_BUFFER = 1 << 3
    INDEX_BUFFER = 1 << 4
    CONSTANT_BUFFER = 1 << 5
    INDIRECT_BUFFER = 1 << 6
    TEXTURE = 1 << 7
    IMAGE = 1 << 8
    FRAMEBUFFER = 1 << 9
    STREAMOUT_BUFFER = 1 << 10
    UPDATE = 1 << 11
    ALL = (1 << 12) - 1


def _vertex_only_formats() -> list[str]:
    """Formats vertex fetch reads that are no pixel formats (so not in
    ``layout``'s table): GL's vertex attribute types (GL 4.6 table 10.3) as
    1-4 channels of 8/16/32 bits, integer-to-float *SCALED, 16.16 FIXED and
    64-bit FLOAT, and the packed 2_10_10_10 types unnormalised."""
    names = []
    for n in range(1, 5):
        for bits, kinds in ((8, ("UNORM", "SNORM", "UINT", "SINT", "USCALED", "SSCALED")),
                            (16, ("UNORM", "SNORM", "UINT", "SINT", "USCALED", "SSCALED", "FLOAT")),
                            (32, ("UNORM", "SNORM", "UINT", "SINT", "USCALED", "SSCALED", "FLOAT", "FIXED")),
                            (64, ("FLOAT",))):
            channels = "".join(f"{c}{bits}" for c in "RGBA"[:n])
            names += [f"{channels}_{kind}" for kind in kinds]
    names += ["R10G10B10A2_USCALED", "R10G10B10A2_SSCALED"]
    return names


def _pipe_format_members() -> list[tuple[str, str]]:
    pixel = list(layout.FORMAT_NAMES)
    known = set(pixel)
    vertex = [n for n in _vertex_only_formats() if n not in known]
    return [(name, name) for name in ["NONE", *pixel, *vertex]]


#: Pixel/vertex formats, named like Gallium's PIPE_FORMAT_* (components listed
#: from the lowest address / least significant bits), value = name. Derived, not
#: listed: every pixel format of ``layout``'s table (the one definition of
#: formats, which the hardware driver maps each member to by name) plus the
#: vertex-only formats above. Stencil views: ``X24S8_UINT`` is the stencil of
#: ``Z24_UNORM_S8_UINT`` sampled, ``S8X24_UINT`` that of ``Z32_FLOAT_S8X24_UINT``.
PipeFormat = enum.Enum("PipeFormat", _pipe_format_members(), module=__name__, qualname="PipeFormat")
