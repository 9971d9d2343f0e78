"""The pipe screen: one per device (Gallium's pipe_screen).

Owns capabilities and limits (as data: ScreenCaps), resource creation and
destruction, format support queries, fences and timestamps."""

from __future__ import annotations

import abc
from dataclasses import dataclass, field

from driver.gallium.defines import PipeBind, PipeFormat, PipeShaderType, PipeTextureTarget
from driver.gallium.state import PipeResource, ResourceTemplate

__all__ = ["PipeFence", "PipeScreen", "ScreenCaps", "ShaderCaps"]


@dataclass(frozen=True)
class ShaderCaps:
    """Per-stage limits (pipe_shader_cap)."""
    max_inputs: int = 16             # vec4 input slots
    max_outputs: int = 16            # vec4 output slots
    max_const_buffers: int = 16      # uniform blocks + the default block (index 0)
    # The default uniform block: its first 1 KiB sits in uniform registers, the rest is read from
    # UBO 0 (compiler/lower/io.py), so any size up to a UBO's works; 16 KiB is 4,096 components
    # (1,024 vec4s: a vertex shader reading uniform vec4 big[1000] draws correctly).
    max_const_buffer0_size_B: int = 16 * 1024
    max_texture_samplers: int = 16
    max_sampler_views: int = 16
    max_shader_buffers: int = 16
    max_shader_images: int = 8
    max_atomic_counter_buffers: int = 8


@dataclass(frozen=True)
class ScreenCaps:
    """Capabilities and limits of a device. The defaults are those of an
    Apple G13-like GPU as Mesa's asahi driver exposes them; a hardware driver
    returns its own. The GL front end derives every implementation-dependent
    GL limit from these."""
    name: str = "shimgl"
    vendor: str = "shimgl"
    max_texture_2d_size_px: int = 16384
    max_texture_3d_levels: int = 12          # 2048^3
    max_texture_cube_levels: int = 15        # 16384
    max_texture_array_layers: int = 2048
    max_texel_buffer_elements: int = 1 << 27
    max_render_targets: int = 8
    max_dual_source_render_targets: int = 1
    sample_counts: tuple[int, ...] = (1, 2, 4)
    max_vertex_attribs: int = 16
    max_vertex_buffers: int = 16
    max_vertex_attrib_stride_B: int = 2048
    max_viewports: int = 16                  # GL 4.1's minimum; selected per primitive by gl_ViewportIndex
    max_viewport_size_px: int = 16384
    max_clip_planes: int = 8
    max_stream_output_buffers: int = 4
    max_stream_output_separate_components: int = 64        # as softpipe/llvmpipe (GL minimum 4)
    max_stream_output_interleaved_components: int = 64
    # 32 vec4 varyings: a fragment reads each component from one coefficient register (cf_count is
    # 8 bits, cf0/cf1 are W and Z, gl_PointCoord takes 2 after them) and a vertex writes each as one
    # st_var word (8-bit index, with the position's 4 and the clip distances' 8 words):
    # 128 components fit both, and a 32 x vec4 varying array draws correctly.
    max_varying_components: int = 128
    max_combined_texture_units: int = 80
    max_combined_shader_buffers: int = 48
    max_combined_images: int = 32
    max_uniform_block_size_B: int = 64 * 1024
    uniform_buffer_offset_alignment_B: int = 16
    shader_buffer_offset_alignment_B: int = 16
    texture_buffer_offset_alignment_B: int = 16
    min_map_buffer_alignment_B: int = 64
    max_texture_lod_bias: float = 16.0
    max_texture_anisotropy: float = 16.0
    min_texel_offset: int = -8
    max_texel_offset: int = 7
    min_texture_gather_offset: int = -8
    max_texture_gather_offset: int = 7
    point_size_range: tuple[float, float] = (1.0, 511.95)
    line_width_range: tuple[float, float] = (1.0, 16.0)
    subpixel_bits: int = 8
    # any axis up to max_compute_threads_per_block (local_size_z = 1024 dispatches correctly)
    max_compute_block_size: tuple[int, int, int] = (1024, 1024, 1024)
    max_compute_threads_per_block: int = 1024
    max_compute_grid_size: tuple[int, int, int] = (65535, 65535, 65535)
    max_compute_shared_memory_B: int = 32 * 1024
    max_compute_atomic_counters: int = 4096
    timestamp_bits: int = 64
    glsl_feature_level: int = 430
    glsl_es_feature_level: int = 310
    shaders: dict[PipeShaderType, ShaderCaps] = field(default_factory=lambda: {
        PipeShaderType.VERTEX: ShaderCaps(max_outputs=32),     # the 128 varying components
        PipeShaderType.FRAGMENT: ShaderCaps(max_inputs=32, max_outputs=8),
        PipeShaderType.COMPUTE: ShaderCaps(max_inputs=0, max_outputs=0),
    })

    def __hash__(self):
        return id(self)


class PipeFence:
    """A point in a context's submission stream. Opaque to the front end: made
    by PipeContext.flush, waited on by PipeScreen.fence_finish. Drivers subclass
    it (e.g. to hold a DRM sync object)."""


class PipeScreen(abc.ABC):
    """A device. All methods may be called from any context of the screen."""

    @property
    @abc.abstractmethod
    def caps(self) -> ScreenCaps:
        """The device's capabilities and limits (constant for its lifetime)."""

    @abc.abstractmethod
    def is_format_supported(self, format: PipeFormat, target: PipeTextureTarget,
                            sample_count: int, bind: PipeBind) -> bool:
        """Whether a resource of `format` and `target` with `sample_count`
        samples (0 or 1: single-sampled) can be created and bound in every way
        that `bind` lists (e.g. RENDER_TARGET|SAMPLER_VIEW; VERTEX_BUFFER asks
        whether `format` is fetchable as a vertex attribute)."""

    @abc.abstractmethod
    def resource_create(self, template: ResourceTemplate) -> PipeResource:
        """Allocate a buffer or texture. Contents are undefined (buffers:
        zero-filled on a real kernel). Raises MemoryError when out of memory."""

    def resource_from_user_memory(self, template: ResourceTemplate, address: int) -> PipeResource | None:
        """A buffer whose memory is the client's ``template.width_px`` bytes at
        ``address`` in this process (Mesa's resource_from_user_memory, behind
        AMD_pinned_memory): CPU and GPU accesses reach the same pages from then on.
        None when the memory cannot be used (not page-aligned, not mapped
        writable) or the device cannot do it."""
        return None

    # -- memory objects (Mesa's memobj_create_from_handle / resource_from_memobj, behind
    # EXT_memory_object_fd): memory imported from a descriptor, resources placed in it
    def memobj_create_from_handle(self, fd: int, size_B: int, dedicated: bool = False) -> object | None:
        """A memory object over ``size_B`` bytes of the dma-buf ``fd``, which it takes
        (closes) on success; None when the descriptor is not one of at least that size or the device
        cannot import."""
        return None

    def memobj_destroy(self, memobj: object) -> None:
        """Drop the memory object (resources placed in it keep their memory)."""

    def resource_from_memobj(self, template: ResourceTemplate, memobj: object, offset_B: int
                             ) -> PipeResource | None:
        """A resource laid out as ``resource_create`` would lay it out, whose storage is
        ``memobj``'s memory from ``offset_B``; None when it does not fit there (the
        size ``resource_size`` gives, from an offset that is a multiple of
        ``memobj_alignment``)."""
        return None

    def resource_size(self, template: ResourceTemplate) -> int:
        """The bytes a resource of ``template`` takes (what placing it in memory needs)."""
        return template.width_px if template.is_buffer else 0

    memobj_alignment = 1
    """The alignment of a resource's offset in a memory object (Vulkan's
    VkMemoryRequirements.alignment of the same driver)."""

    def driver_uuid(self) -> bytes:
        """16 bytes naming the driver and the memory layouts it gives (EXT_memory_object's
        DRIVER_UUID_EXT): memory is shared only between drivers with the same one."""
        return bytes(16)

    def device_uuid(self) -> bytes:
        """16 bytes naming the device (DEVICE_UUID_EXT)."""
        return bytes(16)

    @abc.abstractmethod
    def resource_destroy(self, resource: PipeResource) -> None:
        """Release `resource` once all submitted work using it has completed;
        the caller must not use it afterwards. A resource with more holders
        (``resource_reference``) loses one reference and stays until the last
        holder's call."""

    def resource_reference(self, resource: PipeResource) -> None:
        """One more holder of `resource` (Mesa's pipe_resource_reference): an
        EGL image and each texture or renderbuffer specified from it use the
        one resource (its memory and the hazard tracking of its pending work);
        every holder calls resource_destroy once."""
        resource.extra_references = getattr(resource, "extra_references", 0) + 1

    @staticmethod
    def release_reference(resource: PipeResource) -> bool:
        """Drop one holder's reference; True when it was the last one (the
        caller, resource_destroy, then frees the resource)."""
        extra = getattr(resource, "extra_references", 0)
        if extra > 0:
            resource.extra_references = extra - 1
            return False
        return True

    @abc.abstractmethod
    def fence_finish(self, fence: PipeFence, timeout_ns: int) -> bool:
        """Wait up to `timeout_ns` (0 polls, PIPE_TIMEOUT_INFINITE waits
        forever) for the work before `fence` to complete. True if signalled."""

    @abc.abstractmethod
    def get_timestamp_ns(self) -> int:
        """The GPU clock now, in nanoseconds (GL_TIMESTAMP)."""

    @abc.abstractmethod
    def context_create(self) -> "PipeContext":  # noqa: F821 (see context.py)
        """A new rendering context on this screen."""
