"""The contract between a compiled shader and the driver that runs it.

Registers
- ``r0l`` is the execution nesting counter (r0l semantics); ``r1`` is the
  backend's temporary (parallel-copy cycles, large stack offsets) and is never
  allocated. Vertex shaders start with r1 = base instance and r2 = base vertex
  (the VDM's preload); the shader copies them out first.
- Uniform registers: the default uniform block sits at u0 (byte offset B of a
  ``load_uniform`` is u(B/4)); the values the backend needs after it are listed
  in ``CompiledShader.uniforms`` (``UniformSlot``): buffer base addresses (64-bit,
  even register) for UBO/SSBO indices, SSBO sizes, vertex attribute bases and
  strides. The driver fills every listed slot before a draw/dispatch.

Textures and images
- ``Tex.texture`` t reads texture descriptor t and sampler descriptor
  ``Tex.sampler`` of the context's heaps; image slot i is texture descriptor
  ``IMAGE_DESCRIPTOR_BASE + i``.
- Buffer textures and buffer images (``buf``) are linear 2D images
  ``TEXEL_BUFFER_WIDTH_PX`` texels wide (the widest a TEXTURE descriptor describes):
  element i is texel (i % W, i // W) (``texel_buffers.py``). The driver binds a
  descriptor of ceil(n / W) rows of the buffer's n elements (one row of n when
  n < W) and fills the uniform slot ``texel_buffer_elements`` of the descriptor
  index with n; the shader compares each index with it (textureSize/imageSize
  answer it).

Vertex shaders
- Attribute location L (``load_input`` slot ATTR<L>) is fetched as raw 32-bit
  words from ``attribute_address[L] + vertex_id * attribute_stride[L]`` (the
  driver converts formats the hardware cannot fetch raw). Attributes the front
  half fetched itself (``key["vertex_attribs"]``, e.g. per-instance ones:
  ``base_instance + instance_id / divisor``) are ``load_vbo`` from
  ``vbo_address[buffer]`` + the computed byte offset.
- Outputs: ``st_var`` index = the ``store_output`` base (a word index, POS = 0-3)
  + location offset * components + component.

Fragment shaders
- Coefficient registers: ``load_input`` base is the first cf register of the
  varying (cf0 = W, the 1/w plane; cf1 = window Z); smooth inputs use
  ``iter.persp`` over cf0, noperspective ``iter.linear``, flat ``ldcf``; at the
  pixel centre, or the centroid / the lane's sample for ``centroid`` / ``sample``
  inputs (the varying's ``sampling``).
- gl_FragCoord.xy = pixel_x/pixel_y + 0.5; .z = cf1, .w = cf0 (both linear).
- gl_PointCoord: ``iter.linear`` of the two cf registers from ``point_coord_cf``
  (after every varying), which the driver binds to the POINT_COORD source; the
  line stipple counter (``load_line_stipple``) likewise from ``line_stipple_cf``,
  bound to LINE_STIPPLE.
- Colour outputs are ``st_tile`` as the lowering chose (``store_tile``); depth
  is ``zs_emit``, the sample mask ``sample_mask``; ``discard`` kills lanes.

Compute shaders
- ``get_sr`` gives the thread/threadgroup ids; shared memory is threadgroup
  memory (``local_memory_B``); scratch and spills use the stack
  (``scratch_B`` bytes per lane).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from uapi import packets as _P

__all__ = ["UniformSlot", "UniformLayout", "CompiledShader", "IMAGE_DESCRIPTOR_BASE", "TEXEL_BUFFER_WIDTH_PX",
           "TEXEL_BUFFER_MAX_ROWS", "TEMP_REG",
           "RESERVED_REGS32", "BackendError"]

IMAGE_DESCRIPTOR_BASE = 64


def _largest(packet, name: str) -> int:
    """The largest value a uint field of a uapi packet holds (its modifier applied)."""
    f = packet.by_name[name]
    return f.decode((1 << f.size) - 1)


#: Texels in a row of a buffer texture's 2D image: the TEXTURE descriptor's widest image.
TEXEL_BUFFER_WIDTH_PX = _largest(_P.TEXTURE, "width_px")
#: Rows at most: the descriptor's tallest image. A buffer texture holds at most
#: TEXEL_BUFFER_WIDTH_PX * TEXEL_BUFFER_MAX_ROWS elements.
TEXEL_BUFFER_MAX_ROWS = _largest(_P.TEXTURE, "height_px")
assert TEXEL_BUFFER_WIDTH_PX & (TEXEL_BUFFER_WIDTH_PX - 1) == 0, "the lowering divides by a shift"
TEMP_REG = 1            # r1: never allocated
RESERVED_REGS32 = 2     # r0 (r0l) and r1


class BackendError(Exception):
    """A program the backend cannot compile (an unsupported operation or a
    register budget too small for one instruction)."""


@dataclass(frozen=True)
class UniformSlot:
    """``words`` 32-bit uniform registers from u``index`` hold ``kind`` of ``binding``:
    ``ubo_address``/``ssbo_address``/``attribute_address`` (64-bit GPU address),
    ``vbo_address`` (64-bit), ``ssbo_size`` / ``ubo_size`` (bytes of the bound range; 0 unbound),
    ``attribute_limit`` (robust variants: bytes the attribute's buffer holds from its address),
    ``uniform_size`` (robust variants: bytes readable from ``uniform_address``),
    ``attribute_stride`` (bytes),
    ``texel_buffer_elements`` (elements of the buffer texture/image at descriptor ``binding``),
    ``sampler_lod_parameters`` (4 words, float32: min LOD, max LOD, LOD bias, mip filter 0 none /
    1 nearest / 2 linear, of the sampler at slot ``binding``; textureQueryLod),
    ``constant`` (the 32-bit value ``binding`` itself: a promoted constant)."""
    index: int
    words: int
    kind: str
    binding: int


class UniformLayout:
    """Uniform registers of one shader: the default block from u0, then the
    backend's slots (allocated on first use)."""

    LIMIT = 256

    def __init__(self, default_words: int):
        self.default_words = default_words
        self.next = (default_words + 1) // 2 * 2
        self.slots: dict[tuple[str, int], UniformSlot] = {}

    def slot(self, kind: str, binding: int, words: int = 1) -> int:
        key = (kind, binding)
        if key not in self.slots:
            if words == 2 and self.next % 2:
                self.next += 1
            if self.next + words > self.LIMIT:
                raise BackendError(f"out of uniform registers for {kind} {binding}")
            self.slots[key] = UniformSlot(self.next, words, kind, binding)
            self.next += words
        return self.slots[key].index

    @property
    def words_used(self) -> int:
        return max([self.default_words] + [s.index + s.words for s in self.slots.values()])


@dataclass
class CompiledShader:
    """A compiled variant: the binary and what the driver needs to run it."""
    stage: str
    binary: bytes
    assembly: str
    stats: "object"
    gprs: int                   # 16-bit halves of general registers used (r0 included)
    regs32: int                 # 32-bit registers the program touches
    uniform_words: int          # 32-bit uniform registers read (default block + slots)
    uniforms: list = field(default_factory=list)        # UniformSlot
    scratch_B: int = 0          # stack bytes per lane (scratch + spills)
    local_memory_B: int = 0     # compute: shared memory per threadgroup
    local_size: tuple | None = None
    cf_count: int = 0           # fragment: coefficient registers read
    point_coord_cf: int | None = None   # fragment: first of the two cf registers of gl_PointCoord (source POINT_COORD)
    line_stipple_cf: int | None = None  # fragment: the cf register of the line stipple counter (source LINE_STIPPLE)
    vertex_outputs: int = 0     # vertex: st_var words
    attributes: list = field(default_factory=list)      # vertex: attribute locations fetched
    reads_tile: bool = False
    reads_zs: bool = False      # fragment: reads the depth/stencil buffers (gl_LastFrag*ARM): late tests
    writes_depth: bool = False
    writes_sample_mask: bool = False
    discards: bool = False
    # fragment: reads its sample's index or position or interpolates at it, so it runs
    # once per covered sample on a multisampled target (else once per pixel)
    per_sample: bool = False
    info: object = None         # the front end's ShaderInfo, passed through
    ir_text: str = ""

    def uniform_slot(self, kind: str, binding: int):
        for s in self.uniforms:
            if (s.kind, s.binding) == (kind, binding):
                return s
        return None
