"""State objects of the pipe interface (Gallium's p_state.h kind).

Constant state objects (CSOs: blend, rasterizer, depth-stencil-alpha, sampler,
vertex elements) are frozen dataclasses: hashable, so a CSO cache can key on
them. Resources are identity objects (a driver subclasses PipeResource to hang
its BOs and layouts on it); views of resources (surfaces, sampler views, image
views, buffer bindings) are frozen dataclasses that hash the resource by
identity.

Units: `_B` bytes, `_px` pixels, `_el` elements; levels, layers and counts are
plain integers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from driver.gallium.defines import (
    PipeBind, PipeBlendFactor, PipeBlendFunc, PipeCompareFunc, PipeFace,
    PipeFormat, PipeLogicOp, PipeMask, PipePolygonMode, PipePrim,
    PipeShaderType, PipeStencilOp, PipeSwizzle, PipeTexFilter,
    PipeTexMipFilter, PipeTexReductionMode, PipeTexWrap, PipeTextureTarget, PipeUsage,
    PIPE_MAX_COLOR_BUFS,
)

__all__ = [
    "BlendState", "BlitInfo", "BlitImage", "Box", "ClipState", "ConstantBuffer",
    "DepthStencilAlphaState", "DrawInfo", "DrawStartCountBias", "FramebufferState",
    "GridInfo", "ImageView", "IndirectInfo", "PipeResource", "RasterizerState",
    "ResourceTemplate", "RtBlendState", "SamplerState", "SamplerView",
    "ScissorState", "ShaderBuffer", "ShaderState", "StencilState",
    "StreamOutputInfo", "StreamOutputTarget", "Surface", "VertexBuffer",
    "VertexElement", "ViewportState",
]


# --------------------------------------------------------------------------
# Resources

@dataclass(frozen=True)
class ResourceTemplate:
    """What to allocate (pipe_resource as passed to resource_create).

    Buffers: target=BUFFER, format=R8_UINT, width_px is the size in bytes,
    height_px = depth_px = array_size = 1. Cube maps have array_size 6 (cube
    arrays 6*n). `last_level` is the last mip level (0 = no mipmaps).
    `nr_samples` 0 or 1 means single-sampled."""
    target: PipeTextureTarget
    format: PipeFormat
    width_px: int
    height_px: int = 1
    depth_px: int = 1
    array_size: int = 1
    last_level: int = 0
    nr_samples: int = 0
    bind: PipeBind = PipeBind.NONE
    usage: PipeUsage = PipeUsage.DEFAULT

    def __post_init__(self):
        assert self.width_px >= 1 and self.height_px >= 1 and self.depth_px >= 1, \
            f"resource extents must be positive: {self}"
        assert self.array_size >= 1 and self.last_level >= 0, f"bad template {self}"

    @property
    def is_buffer(self) -> bool:
        return self.target == PipeTextureTarget.BUFFER


class PipeResource:
    """A GPU resource made by PipeScreen.resource_create. Compared and hashed by
    identity. Hardware drivers subclass it; the front end reads only `template`."""

    def __init__(self, template: ResourceTemplate):
        self.template = template

    # Convenience read-only views of the template.
    @property
    def target(self) -> PipeTextureTarget:
        return self.template.target

    @property
    def format(self) -> PipeFormat:
        return self.template.format

    @property
    def size_B(self) -> int:
        assert self.template.is_buffer, "size_B is for buffers"
        return self.template.width_px

    def __repr__(self):
        t = self.template
        return (f"<{type(self).__name__} {t.target.name} {t.format.name} "
                f"{t.width_px}x{t.height_px}x{t.depth_px}[{t.array_size}] "
                f"levels={t.last_level + 1} samples={t.nr_samples}>")


@dataclass(frozen=True)
class Box:
    """A region of a resource level: x/y/z in pixels (z = depth slice or array
    layer, cube faces are layers 0..5), or for buffers x = offset_B, width = size_B."""
    x: int
    y: int
    z: int
    width: int
    height: int = 1
    depth: int = 1


@dataclass(frozen=True)
class Surface:
    """A renderable view of one level and a layer range of a texture
    (pipe_surface). For 3D textures, layers are depth slices."""
    resource: PipeResource
    format: PipeFormat
    level: int = 0
    first_layer: int = 0
    last_layer: int = 0


@dataclass(frozen=True)
class SamplerView:
    """A sampled view of a resource (pipe_sampler_view). For target BUFFER,
    `offset_B`/`size_B` select the texel buffer range and levels/layers are 0."""
    resource: PipeResource
    format: PipeFormat
    target: PipeTextureTarget
    first_level: int = 0
    last_level: int = 0
    first_layer: int = 0
    last_layer: int = 0
    swizzle: tuple[PipeSwizzle, PipeSwizzle, PipeSwizzle, PipeSwizzle] = (
        PipeSwizzle.X, PipeSwizzle.Y, PipeSwizzle.Z, PipeSwizzle.W)
    offset_B: int = 0
    size_B: int = 0


@dataclass(frozen=True)
class ImageView:
    """A shader image binding (pipe_image_view); `access` uses PipeMap.READ/WRITE."""
    resource: PipeResource
    format: PipeFormat
    access: int
    level: int = 0
    first_layer: int = 0
    last_layer: int = 0
    offset_B: int = 0
    size_B: int = 0


@dataclass(frozen=True)
class ShaderBuffer:
    """A storage buffer or atomic counter buffer binding range."""
    resource: PipeResource
    offset_B: int
    size_B: int


@dataclass(frozen=True)
class ConstantBuffer:
    """A uniform buffer binding: either a resource range or CPU bytes
    (`user_buffer`, used for the default uniform block, index 0)."""
    resource: PipeResource | None
    offset_B: int
    size_B: int
    user_buffer: bytes | None = None


@dataclass(frozen=True)
class VertexBuffer:
    """A vertex buffer slot (pipe_vertex_buffer). Either a resource with
    `offset_B`, or client memory (`user_buffer`, the bytes from offset 0).
    Strides live in the vertex elements."""
    resource: PipeResource | None
    offset_B: int = 0
    user_buffer: bytes | None = None


@dataclass(frozen=True)
class StreamOutputTarget:
    resource: PipeResource
    offset_B: int
    size_B: int


# --------------------------------------------------------------------------
# Constant state objects

@dataclass(frozen=True)
class RtBlendState:
    """Blend of one render target. `colormask` bit 0 R .. bit 3 A."""
    blend_enable: bool = False
    rgb_func: PipeBlendFunc = PipeBlendFunc.ADD
    rgb_src_factor: PipeBlendFactor = PipeBlendFactor.ONE
    rgb_dst_factor: PipeBlendFactor = PipeBlendFactor.ZERO
    alpha_func: PipeBlendFunc = PipeBlendFunc.ADD
    alpha_src_factor: PipeBlendFactor = PipeBlendFactor.ONE
    alpha_dst_factor: PipeBlendFactor = PipeBlendFactor.ZERO
    colormask: int = 0xF
    # an advanced equation (KHR_blend_equation_advanced: "multiply" .. "hsl_luminosity", the
    # names of compiler.glsl.blend_support.ADVANCED_EQUATIONS) replacing the functions and
    # factors above; None: none
    advanced: str | None = None


@dataclass(frozen=True)
class BlendState:
    """pipe_blend_state. `rt` has PIPE_MAX_COLOR_BUFS entries; when
    `independent_blend_enable` is False only rt[0] is meaningful."""
    rt: tuple[RtBlendState, ...] = (RtBlendState(),) * PIPE_MAX_COLOR_BUFS
    independent_blend_enable: bool = False
    logicop_enable: bool = False
    logicop_func: PipeLogicOp = PipeLogicOp.COPY
    dither: bool = False
    alpha_to_coverage: bool = False
    alpha_to_one: bool = False

    def __post_init__(self):
        assert len(self.rt) == PIPE_MAX_COLOR_BUFS, "rt must have one entry per colour buffer"


@dataclass(frozen=True)
class StencilState:
    enabled: bool = False
    func: PipeCompareFunc = PipeCompareFunc.ALWAYS
    fail_op: PipeStencilOp = PipeStencilOp.KEEP
    zfail_op: PipeStencilOp = PipeStencilOp.KEEP
    zpass_op: PipeStencilOp = PipeStencilOp.KEEP
    valuemask: int = 0xFF
    writemask: int = 0xFF


@dataclass(frozen=True)
class DepthStencilAlphaState:
    """pipe_depth_stencil_alpha_state. stencil[0] front, stencil[1] back (used
    only when enabled; otherwise front applies to both). The stencil reference
    values are not CSO state: see PipeContext.set_stencil_ref."""
    depth_enabled: bool = False
    depth_writemask: bool = True
    depth_func: PipeCompareFunc = PipeCompareFunc.LESS
    depth_bounds_test: bool = False
    depth_bounds_min: float = 0.0
    depth_bounds_max: float = 1.0
    stencil: tuple[StencilState, StencilState] = (StencilState(), StencilState())
    alpha_enabled: bool = False
    alpha_func: PipeCompareFunc = PipeCompareFunc.ALWAYS
    alpha_ref_value: float = 0.0


@dataclass(frozen=True)
class RasterizerState:
    """pipe_rasterizer_state. Offsets: depth offset = offset_scale * slope +
    offset_units * r, clamped by offset_clamp (0 = no clamp).
    `clip_plane_enable` bit i enables user clip plane / clip distance i."""
    flatshade: bool = False
    flatshade_first: bool = False      # provoking vertex is the first (GL: last)
    light_twoside: bool = False
    clamp_vertex_color: bool = False
    clamp_fragment_color: bool = False
    front_ccw: bool = True
    cull_face: PipeFace = PipeFace.NONE
    fill_front: PipePolygonMode = PipePolygonMode.FILL
    fill_back: PipePolygonMode = PipePolygonMode.FILL
    offset_point: bool = False
    offset_line: bool = False
    offset_tri: bool = False
    offset_units: float = 0.0
    offset_scale: float = 0.0
    offset_clamp: float = 0.0
    scissor: bool = False
    poly_smooth: bool = False
    point_size: float = 1.0
    point_size_per_vertex: bool = False
    point_smooth: bool = False
    sprite_coord_enable: int = 0       # bitmask of texcoords replaced (compat)
    sprite_coord_upper_left: bool = True
    point_quad_rasterization: bool = False
    line_width: float = 1.0
    line_smooth: bool = False
    line_stipple_enable: bool = False
    line_stipple_factor: int = 0       # GL's repeat factor - 1, as Gallium's
    line_stipple_pattern: int = 0xFFFF
    poly_stipple_enable: bool = False  # filled polygons drop what the pattern (set_polygon_stipple) leaves out
    multisample: bool = True
    half_pixel_center: bool = True
    bottom_edge_rule: bool = False
    rasterizer_discard: bool = False
    depth_clip_near: bool = True
    depth_clip_far: bool = True
    depth_clamp: bool = False
    clip_halfz: bool = False           # clip space z in [0, 1] (GL: [-1, 1])
    clip_plane_enable: int = 0


@dataclass(frozen=True)
class SamplerState:
    """pipe_sampler_state. `border_color` is 4 floats, or 4 ints when
    `border_color_is_integer`. LODs are in mip levels (floats)."""
    wrap_s: PipeTexWrap = PipeTexWrap.REPEAT
    wrap_t: PipeTexWrap = PipeTexWrap.REPEAT
    wrap_r: PipeTexWrap = PipeTexWrap.REPEAT
    min_img_filter: PipeTexFilter = PipeTexFilter.NEAREST
    min_mip_filter: PipeTexMipFilter = PipeTexMipFilter.LINEAR
    mag_img_filter: PipeTexFilter = PipeTexFilter.LINEAR
    compare_mode: bool = False
    compare_func: PipeCompareFunc = PipeCompareFunc.LEQUAL
    unnormalized_coords: bool = False
    max_anisotropy: float = 1.0
    seamless_cube_map: bool = False
    lod_bias: float = 0.0
    min_lod: float = -1000.0
    max_lod: float = 1000.0
    border_color: tuple = (0.0, 0.0, 0.0, 0.0)
    border_color_is_integer: bool = False
    reduction_mode: PipeTexReductionMode = PipeTexReductionMode.WEIGHTED_AVERAGE


@dataclass(frozen=True)
class VertexElement:
    """One vertex attribute fetch (pipe_vertex_element): attribute slot i of the
    vertex-elements CSO reads `src_format` at `src_offset_B` + index *
    `src_stride_B` from vertex buffer `vertex_buffer_index`, where index is the
    vertex index, or instance / `instance_divisor` when the divisor is > 0.
    `dual_slot` marks 64-bit attributes taking two slots (unused for now)."""
    src_offset_B: int
    vertex_buffer_index: int
    src_format: PipeFormat
    src_stride_B: int
    instance_divisor: int = 0
    dual_slot: bool = False


@dataclass(frozen=True)
class StreamOutputInfo:
    """Which shader outputs are written to transform feedback buffers.
    Each entry: (register index, start component, num components,
    output buffer, dst_offset in dwords). `stride_dw[b]` per buffer."""
    outputs: tuple[tuple[int, int, int, int, int], ...] = ()
    stride_dw: tuple[int, int, int, int] = (0, 0, 0, 0)


@dataclass(frozen=True, eq=False)
class ShaderState:
    """A shader to make a CSO from (pipe_shader_state / pipe_compute_state).

    `ir` is the compiler's representation of one linked stage (a
    `compiler.variant.StageIR`: the stage's IR, lowered once for every variant, and
    the digest that keys the disk cache; or another front end's object with a
    `front_half(key)`), `source` the GLSL text it came from (for messages and
    debugging: the pipe never parses it), and `info` the linker's binding
    model, which the GL front end fills as follows:

    - "attributes": vertex input name -> location (= vertex element index;
      built-ins such as "gl_Vertex" included in the compatibility profile);
    - "frag_outputs": fragment output name -> colour buffer index;
    - "default_block": the program's default uniform block
      (``compiler.link.DefaultBlock``): constant buffer 0 holds it as the
      shaders read it (std430; the compiler places each uniform at its offset
      there), then the unit numbers (int32) of samplers and images;
    - "uniform_blocks": block name -> constant buffer slot (1, 2, ...;
      std140 layout);
    - "storage_blocks": block name -> shader buffer slot (std430 unless
      declared std140);
    - "atomic_counter_buffers": GL binding -> shader buffer slot (after the
      storage blocks), counters at their layout offsets;
    - "samplers": sampler uniform name -> (first sampler/view slot, count):
      slots follow the uniforms in location order;
    - "images": image uniform name -> (offset_B of its unit numbers in
      constant buffer 0, count): image slot = the image unit;
    - "local_size": compute workgroup size or None;
    - "state_constant_buffer": the constant buffer slot holding the
      compatibility built-in state (gl_ModelViewMatrix, ...) in the
      compiler's state block layout (``compiler.link.state_block``);
    - "early_fragment_tests": (fragment stage) the shader declares
      layout(early_fragment_tests): depth and stencil are tested before it runs
      even when it writes memory;
    - "post_depth_coverage": (fragment stage) layout(post_depth_coverage):
      gl_SampleMaskIn holds the samples that passed the early tests;
    - "stream_outputs": (vertex stage with ``stream_output``) the captured
      varyings' names: ``stream_output`` register index i is output
      ``stream_outputs[i]``.

    Compared by identity: shaders are not deduplicated."""
    stage: PipeShaderType
    ir: Any
    source: str = ""
    info: dict = field(default_factory=dict)
    stream_output: StreamOutputInfo = StreamOutputInfo()


# --------------------------------------------------------------------------
# Non-CSO state

@dataclass(frozen=True)
class FramebufferState:
    """pipe_framebuffer_state: the render targets of subsequent draws and
    clears. width/height in pixels (the minimum over attachments), `layers`
    (the minimum layer count for layered rendering, else 1), `samples`
    (0/1 single-sampled). `cbufs` has up to PIPE_MAX_COLOR_BUFS entries, None
    for a hole (glDrawBuffers GL_NONE)."""
    width_px: int
    height_px: int
    layers: int = 1
    samples: int = 1
    cbufs: tuple[Surface | None, ...] = ()
    zsbuf: Surface | None = None


@dataclass(frozen=True)
class ViewportState:
    """Window coordinates = ndc * scale + translate (x, y in pixels, z depth)."""
    scale: tuple[float, float, float]
    translate: tuple[float, float, float]

    @classmethod
    def from_gl(cls, x: float, y: float, width: float, height: float,
                near: float, far: float, clip_halfz: bool = False) -> "ViewportState":
        """The GL viewport transform (GL 4.6 section 13.8.1)."""
        if clip_halfz:
            zs, zt = far - near, near
        else:
            zs, zt = (far - near) / 2, (far + near) / 2
        return cls((width / 2, height / 2, zs), (x + width / 2, y + height / 2, zt))


@dataclass(frozen=True)
class ScissorState:
    """Pixels with minx <= x < maxx and miny <= y < maxy pass."""
    minx: int
    miny: int
    maxx: int
    maxy: int


@dataclass(frozen=True)
class ClipState:
    """User clip planes in clip (compat: eye) space, each (a, b, c, d)."""
    ucp: tuple[tuple[float, float, float, float], ...] = ()


@dataclass(frozen=True)
class DrawInfo:
    """pipe_draw_info: shared by all draws of one draw_vbo call.

    index_size 0 for non-indexed draws, else 1, 2 or 4 bytes; indices come
    from `index_resource`, or `index_user_buffer` bytes (client memory).
    Index offsets in DrawStartCountBias are in indices, not bytes.
    `min_index`/`max_index` are valid only if `index_bounds_valid`."""
    mode: PipePrim
    index_size: int = 0
    index_resource: PipeResource | None = None
    index_user_buffer: bytes | None = None
    start_instance: int = 0
    instance_count: int = 1
    primitive_restart: bool = False
    restart_index: int = 0
    index_bounds_valid: bool = False
    min_index: int = 0
    max_index: int = 0xFFFFFFFF


@dataclass(frozen=True)
class DrawStartCountBias:
    """`start` is the first vertex (non-indexed) or first index; `index_bias`
    is added to each index (BaseVertex)."""
    start: int
    count: int
    index_bias: int = 0


@dataclass(frozen=True)
class IndirectInfo:
    """Draw parameters read from a buffer (GL's DrawArraysIndirectCommand or
    DrawElementsIndirectCommand, tightly packed uint32s), or for a draw from
    transform feedback `count_from_stream_output`. With `indirect_draw_count`
    (ARB_indirect_parameters) the number of draws is the uint32 at
    `indirect_draw_count_offset_B` of that buffer, at most `draw_count`."""
    buffer: PipeResource | None
    offset_B: int = 0
    stride_B: int = 0
    draw_count: int = 1
    count_from_stream_output: StreamOutputTarget | None = None
    indirect_draw_count: PipeResource | None = None
    indirect_draw_count_offset_B: int = 0


@dataclass(frozen=True)
class GridInfo:
    """pipe_grid_info: `block` is the workgroup size in invocations, `grid`
    the number of workgroups; with `indirect`, the three uint32 group counts
    are read from it at `indirect_offset_B` instead of `grid`."""
    block: tuple[int, int, int]
    grid: tuple[int, int, int]
    grid_base: tuple[int, int, int] = (0, 0, 0)
    indirect: PipeResource | None = None
    indirect_offset_B: int = 0
    work_dim: int = 3


@dataclass(frozen=True)
class BlitImage:
    """One side of a blit: `box` in pixels of `level` (z = first layer or
    slice); a negative width/height mirrors."""
    resource: PipeResource
    level: int
    box: Box
    format: PipeFormat


@dataclass(frozen=True)
class BlitInfo:
    """pipe_blit_info: scaled copy with format conversion, MSAA resolve when
    src has samples and dst has not. `mask` selects RGBA/Z/S."""
    dst: BlitImage
    src: BlitImage
    mask: PipeMask = PipeMask.RGBA
    filter: PipeTexFilter = PipeTexFilter.NEAREST
    scissor: ScissorState | None = None
    render_condition_enable: bool = False


# --------------------------------------------------------------------------
# Hashing

def _hash_once(cls: type) -> None:
    """Give a frozen dataclass a hash computed once per object: state objects are
    keys of the CSO caches and of the driver's per-draw memos, hashed draw after
    draw, and the generated hash walks every field (a RasterizerState's 38, a
    BlendState's eight RtBlendStates) each time, tens of microseconds. Their fields
    never change after construction, so neither does the hash."""
    field_hash = cls.__hash__

    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:
            h = field_hash(self)
            object.__setattr__(self, "_hash", h)
        return h
    def __getstate__(self) -> dict:       # a pickled copy hashes afresh (str hashes are per process)
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}
    cls.__hash__ = __hash__
    cls.__getstate__ = __getstate__


for _cls in list(globals().values()):
    _params = getattr(_cls, "__dataclass_params__", None)
    if isinstance(_cls, type) and _params is not None and _params.frozen and _params.eq \
            and _cls.__module__ == __name__:
        _hash_once(_cls)
del _cls, _params
