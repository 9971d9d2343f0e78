"""The pipe context: one per GL context (Gallium's pipe_context).

State setting follows Gallium: constant state objects (CSOs) are created from
frozen dataclasses, bound by handle and deleted; other state is set by value.
Bound state persists until changed. Draws, dispatches, clears, copies and blits
are recorded into the driver's batches and executed in order; results become
visible to the CPU through transfer_map (which waits or flushes as needed) or
after a fence from flush() has signalled.

Handles returned by create_*_state are opaque to the caller."""

from __future__ import annotations

import abc
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from driver.gallium.defines import (
    PipeBarrier, PipeClear, PipeFlush, PipeFormat, PipeMap, PipeQueryType, PipeResetStatus,
    PipeShaderType,
)
from driver.gallium.screen import PipeFence, PipeScreen
from driver.gallium.state import (
    BlendState, BlitInfo, Box, ClipState, ConstantBuffer, DepthStencilAlphaState,
    DrawInfo, DrawStartCountBias, FramebufferState, GridInfo, ImageView,
    IndirectInfo, PipeResource, RasterizerState, SamplerState, SamplerView,
    ScissorState, ShaderBuffer, ShaderState, StreamOutputTarget, Surface,
    VertexBuffer, VertexElement, ViewportState,
)

__all__ = ["PipeContext", "PipeQuery", "ShaderVariantError", "Transfer"]

Handle = Any


class ShaderVariantError(Exception):
    """draw_vbo/launch_grid could not build a shader variant the bound state
    needs: nothing was drawn or dispatched. The message names what failed;
    the front end reports it to the program (it must never be dropped silently)."""


class PipeQuery:
    """A query object made by PipeContext.create_query (drivers subclass it)."""

    def __init__(self, type: PipeQueryType, index: int = 0):
        self.type = type
        self.index = index


@dataclass
class Transfer:
    """A CPU mapping of a region of a resource (pipe_transfer).

    `data` is a writable memoryview of the mapped bytes, laid out linearly:
    texel (x, y, z) of the box is at y*stride_B + z*layer_stride_B + x*bpp
    relative to the box origin (for buffers: `data[0]` is byte box.x).

    `snapshot` (a read-only mapping of one layer, optional): the whole level the
    data was cut from, as the driver keeps it (uint8 (height, width, bytes per
    texel)); the same object while the level's contents stay the same, another after
    any write. A front end may key what it derives from the whole level on it."""
    resource: PipeResource
    level: int
    usage: PipeMap
    box: Box
    stride_B: int
    layer_stride_B: int
    data: memoryview
    snapshot: object = None


class PipeContext(abc.ABC):
    """A rendering context. Not thread-safe; one GL context owns one."""

    screen: PipeScreen
    #: a robust context's (PIPE_CONTEXT_ROBUST_BUFFER_ACCESS): shader accesses past a bound
    #: buffer range read zero and write nothing (set by the GL front end before drawing)
    robust_buffer_access: bool = False
    #: ``programs(kind, ms)`` giving the blitter (driver.gallium.blitter) its programs as
    #: the compiler's IR, or None (the pipe then blits without it): set by the layer
    #: above, which owns GLSL (the GL front end's driver.gl.blit_programs.programs)
    blit_programs = None
    #: True for a context that writes 0 into ``idle_flag[0]`` whenever it opens a batch or
    #: submits work (the layer above then knows, without asking, that a finish after a
    #: finish has nothing to wait for: driver.gl.context ANSWER_WORDS' IDLE)
    reports_work: bool = False
    #: a writable one-int buffer given by the layer above when ``reports_work``, or None
    idle_flag = None

    # -- constant state objects ------------------------------------------------
    @abc.abstractmethod
    def create_blend_state(self, state: BlendState) -> Handle: ...
    @abc.abstractmethod
    def bind_blend_state(self, handle: Handle) -> None: ...
    @abc.abstractmethod
    def delete_blend_state(self, handle: Handle) -> None: ...

    @abc.abstractmethod
    def create_rasterizer_state(self, state: RasterizerState) -> Handle: ...
    @abc.abstractmethod
    def bind_rasterizer_state(self, handle: Handle) -> None: ...
    @abc.abstractmethod
    def delete_rasterizer_state(self, handle: Handle) -> None: ...

    @abc.abstractmethod
    def create_depth_stencil_alpha_state(self, state: DepthStencilAlphaState) -> Handle: ...
    @abc.abstractmethod
    def bind_depth_stencil_alpha_state(self, handle: Handle) -> None: ...
    @abc.abstractmethod
    def delete_depth_stencil_alpha_state(self, handle: Handle) -> None: ...

    @abc.abstractmethod
    def create_sampler_state(self, state: SamplerState) -> Handle: ...
    @abc.abstractmethod
    def bind_sampler_states(self, shader: PipeShaderType, start_slot: int,
                            handles: Sequence[Handle | None]) -> None:
        """Bind samplers to slots start_slot.. of a stage (None unbinds)."""
    @abc.abstractmethod
    def delete_sampler_state(self, handle: Handle) -> None: ...

    @abc.abstractmethod
    def create_vertex_elements_state(self, elements: tuple[VertexElement, ...]) -> Handle:
        """Element i feeds vertex shader input location i."""
    @abc.abstractmethod
    def bind_vertex_elements_state(self, handle: Handle) -> None: ...
    @abc.abstractmethod
    def delete_vertex_elements_state(self, handle: Handle) -> None: ...

    @abc.abstractmethod
    def create_shader_state(self, state: ShaderState) -> Handle:
        """Compile (or queue for compilation: variants are the driver's
        business) one stage; VERTEX, FRAGMENT or COMPUTE."""
    @abc.abstractmethod
    def bind_shader_state(self, stage: PipeShaderType, handle: Handle | None) -> None: ...
    @abc.abstractmethod
    def delete_shader_state(self, handle: Handle) -> None: ...

    # -- parameter-like state ----------------------------------------------------
    @abc.abstractmethod
    def set_blend_color(self, rgba: tuple[float, float, float, float]) -> None: ...
    @abc.abstractmethod
    def set_polygon_stipple(self, rows) -> None:
        """32 rows of 32 bits (row 0 the window's bottom row, bit 31 of a row the
        pixel at x mod 32 = 0) for the rasterizer's ``poly_stipple_enable``."""
    @abc.abstractmethod
    def set_stencil_ref(self, front: int, back: int) -> None: ...
    @abc.abstractmethod
    def set_output_filter(self, layer: int | None, viewport: int | None) -> None:
        """Draws until the next call rasterise only the primitives whose vertex stage
        wrote gl_Layer == ``layer`` / gl_ViewportIndex == ``viewport`` (None: no test);
        the front end draws a layered framebuffer (viewport array) once per layer
        (viewport) with it, as a tiler binning by the layer output would."""
    @abc.abstractmethod
    def set_sample_mask(self, mask: int) -> None:
        """Bit i enables sample i of every pixel."""
    @abc.abstractmethod
    def set_min_samples(self, min_samples: int) -> None:
        """Run the fragment shader at least this many times per pixel
        (sample shading); 1 = per pixel."""
    @abc.abstractmethod
    def set_clip_state(self, clip: ClipState) -> None: ...
    @abc.abstractmethod
    def set_framebuffer_state(self, fb: FramebufferState) -> None: ...
    @abc.abstractmethod
    def set_viewport_states(self, start_slot: int, viewports: Sequence[ViewportState]) -> None: ...
    @abc.abstractmethod
    def set_scissor_states(self, start_slot: int, scissors: Sequence[ScissorState]) -> None: ...

    # -- resource bindings ----------------------------------------------------
    @abc.abstractmethod
    def set_constant_buffer(self, shader: PipeShaderType, index: int,
                            cb: ConstantBuffer | None) -> None:
        """Index 0 is the default uniform block (std140-like packing decided
        by the compiler's uniform layout); 1.. are uniform blocks."""
    @abc.abstractmethod
    def set_sampler_views(self, shader: PipeShaderType, start_slot: int,
                          views: Sequence[SamplerView | None]) -> None: ...
    @abc.abstractmethod
    def set_shader_buffers(self, shader: PipeShaderType, start_slot: int,
                           buffers: Sequence[ShaderBuffer | None],
                           writable_bitmask: int) -> None: ...
    @abc.abstractmethod
    def set_shader_images(self, shader: PipeShaderType, start_slot: int,
                          images: Sequence[ImageView | None]) -> None: ...
    @abc.abstractmethod
    def set_vertex_buffers(self, buffers: Sequence[VertexBuffer]) -> None:
        """Replace all vertex buffer slots (slot i = buffers[i])."""
    @abc.abstractmethod
    def set_stream_output_targets(self, targets: Sequence[StreamOutputTarget],
                                  offsets_B: Sequence[int]) -> None:
        """Bind transform feedback targets; an offset of -1 appends after
        what was written before (resume)."""

    # -- work -------------------------------------------------------------------
    @abc.abstractmethod
    def draw_vbo(self, info: DrawInfo, drawid_offset: int, indirect: IndirectInfo | None,
                 draws: Sequence[DrawStartCountBias]) -> None:
        """Draw with the bound state; one draw per entry of `draws` (multi-draw),
        gl_DrawID = drawid_offset + i. Ignored when `indirect` is given except
        for info. Raises ShaderVariantError (and draws nothing) when a shader
        variant cannot be built."""
    @abc.abstractmethod
    def launch_grid(self, info: GridInfo) -> None:
        """Dispatch the bound COMPUTE shader; ShaderVariantError as draw_vbo."""
    @abc.abstractmethod
    def clear(self, buffers: PipeClear, scissor: ScissorState | None,
              color: tuple, depth: float, stencil: int) -> None:
        """Clear the selected buffers of the bound framebuffer (whole, or
        within `scissor`). `color` is 4 floats, or 4 ints for integer formats."""
    @abc.abstractmethod
    def clear_render_target(self, dst: Surface, color: tuple, x: int, y: int,
                            width: int, height: int, render_condition_enabled: bool) -> None: ...
    @abc.abstractmethod
    def clear_depth_stencil(self, dst: Surface, clear_flags: PipeClear, depth: float,
                            stencil: int, x: int, y: int, width: int, height: int,
                            render_condition_enabled: bool) -> None: ...
    @abc.abstractmethod
    def resource_copy_region(self, dst: PipeResource, dst_level: int, dstx: int, dsty: int,
                             dstz: int, src: PipeResource, src_level: int, src_box: Box) -> None:
        """Raw copy between resources of the same block size (no conversion).
        For buffers, dstx and src_box.x/width are bytes."""
    @abc.abstractmethod
    def blit(self, info: BlitInfo) -> None: ...
    @abc.abstractmethod
    def generate_mipmap(self, resource: PipeResource, format: PipeFormat, base_level: int,
                        last_level: int, first_layer: int, last_layer: int) -> bool:
        """Fill levels base_level+1..last_level from base_level; False if the
        driver cannot (the caller then uses blits: see util.gen_mipmap_by_blit)."""
    @abc.abstractmethod
    def memory_barrier(self, flags: PipeBarrier) -> None: ...
    @abc.abstractmethod
    def texture_barrier(self) -> None: ...
    @abc.abstractmethod
    def invalidate_resource(self, resource: PipeResource) -> None:
        """The contents are no longer needed (glInvalidate*)."""

    # -- data transfer ------------------------------------------------------------
    @abc.abstractmethod
    def buffer_subdata(self, resource: PipeResource, usage: PipeMap, offset_B: int,
                       data: bytes | memoryview) -> None:
        """Write len(data) bytes at offset_B, ordered after earlier work."""
    @abc.abstractmethod
    def texture_subdata(self, resource: PipeResource, level: int, usage: PipeMap, box: Box,
                        data: bytes | memoryview, stride_B: int, layer_stride_B: int) -> None:
        """Write a box of texels given in linear layout (rows stride_B apart,
        layers/slices layer_stride_B apart) in the resource's format."""
    @abc.abstractmethod
    def transfer_map(self, resource: PipeResource, level: int, usage: PipeMap,
                     box: Box) -> Transfer:
        """Map a region for CPU access. Without UNSYNCHRONIZED, waits for (or
        flushes) GPU work touching the region first."""
    @abc.abstractmethod
    def transfer_flush_region(self, transfer: Transfer, box: Box) -> None:
        """With FLUSH_EXPLICIT: make CPU writes to `box` (relative to the
        mapped box) visible to the GPU."""
    @abc.abstractmethod
    def transfer_unmap(self, transfer: Transfer) -> None: ...
    @abc.abstractmethod
    def texture_read(self, resource: PipeResource, level: int, box: Box, dest) -> None:
        """Copy a box of texels in the resource's format, rows and layers tightly
        packed, into ``dest`` (a writable buffer of exactly that many bytes: a
        client's memory), after the GPU work writing it: one copy, where a map
        would copy to a staging area first."""

    # -- synchronisation ------------------------------------------------------------
    @abc.abstractmethod
    def flush(self, flags: PipeFlush = PipeFlush.NONE) -> PipeFence:
        """Submit all recorded work; return a fence signalled when it completes."""
    @abc.abstractmethod
    def fence_server_sync(self, fence: PipeFence) -> None:
        """Make later GPU work of this context wait for `fence` (glWaitSync)."""

    # -- queries ------------------------------------------------------------------
    @abc.abstractmethod
    def create_query(self, type: PipeQueryType, index: int = 0) -> PipeQuery: ...
    @abc.abstractmethod
    def destroy_query(self, query: PipeQuery) -> None: ...
    @abc.abstractmethod
    def begin_query(self, query: PipeQuery) -> bool: ...
    @abc.abstractmethod
    def end_query(self, query: PipeQuery) -> bool:
        """End (or, for TIMESTAMP, write) the query."""
    @abc.abstractmethod
    def get_query_result(self, query: PipeQuery, wait: bool) -> int | None:
        """The result (counts, ns, or 0/1 for predicates), or None when not
        available and `wait` is False."""
    def get_query_result_resource(self, query: PipeQuery | int, wait: bool, result_type: str,
                                  available_only: bool, resource, offset_B: int) -> bool:
        """Make the GPU write the query's result (``available_only``: 1 once it is
        available) as ``result_type`` ("u32", "s32", "u64" or "s64"; 32-bit ones clamped) at
        ``offset_B`` of the buffer ``resource`` when the work it counts has run,
        without a CPU wait where the result is in GPU memory. False when nothing
        is written (a result only the CPU learns, not yet known, ``wait`` false).
        ``query`` may be an int: a value the state tracker knows, written in order."""
        raise NotImplementedError("this driver cannot write query results into buffers")

    def set_active_query_state(self, enable: bool) -> None:
        """Whether draws count into the active queries (Mesa's set_active_query_state):
        the state tracker turns it off around its own draws that the GL does not
        count (a clear drawn as a quad, GL 4.6 section 17.4.3: clears bypass the
        fragment operations). A pipe without queries ignores it."""

    @abc.abstractmethod
    def render_condition(self, query: PipeQuery | None, condition: bool, wait: bool) -> None:
        """Skip later draws/clears/blits when query's result == condition
        (None: render unconditionally)."""

    @abc.abstractmethod
    def render_condition_mem(self, resource: PipeResource, offset_B: int, condition: bool) -> None:
        """Skip later draws/clears/blits when (the 32-bit word at `offset_B` of buffer
        `resource` != 0) == condition (Gallium's render_condition_mem); render_condition(None,
        ...) ends it."""

    def set_device_reset_callback(self, callback) -> None:
        """`callback(status: PipeResetStatus)` is called once when the driver sees that a
        GPU reset hit this context (possibly from another thread); None: no callback."""
        self.device_reset_callback = callback

    def get_device_reset_status(self) -> PipeResetStatus:
        """Whether a GPU reset hit this context's work since it was created
        (sticky: the same answer every time once reset). The default: none."""
        return PipeResetStatus.NO_RESET

    def destroy(self) -> None:
        """Release the context; the default does nothing."""
