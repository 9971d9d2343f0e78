"""The pipe interface implemented on the AGX-like hardware (Mesa's agx_pipe.c,
agx_state.c, agx_batch.c, agx_fence.c, agx_query.c in one context).

``AgxScreen`` owns the device (one DRM file, VM, queue), resources and fences.
``AgxContext`` keeps the bound state, routes work into batches keyed by the
framebuffer (at most ``MAX_BATCHES`` unsubmitted), flushes a batch when another
one must see its results (hazards on resources), submits, and serves
transfers (waiting for the GPU, detiling/tiling through ``layout``).

Driver options (SHIMGL_DEBUG): ``sync`` waits after every submit, ``flush``
flushes after every draw and dispatch."""

from __future__ import annotations

import contextlib
import errno
import itertools
import struct
import threading
import warnings
import weakref
from collections.abc import Sequence

import numpy as np

import layout
from driver.gallium import (
    BlendState, BlitImage, BlitInfo, Box, ClipState, ConstantBuffer, DepthStencilAlphaState, DrawInfo,
    DrawStartCountBias, FramebufferState, GridInfo, IndirectInfo, PipeBarrier, PipeBind, PipeClear,
    PipeContext, PipeFence, PipeFlush, PipeFormat, PipeMap, PipeMask, PipeQuery, PipeQueryType, PipeResetStatus,
    PipeResource, PipeScreen, PipeShaderType, PipeTexFilter, PipeTexMipFilter, PipeTexWrap, PipeTextureTarget,
    RasterizerState, ResourceTemplate, SamplerState, ScissorState, ScreenCaps, ShaderState, ShaderVariantError,
    Surface,
    Transfer, VertexBuffer, VertexElement, ViewportState, PIPE_TIMEOUT_INFINITE,
)

import uapi
from uapi import packets as P

from .batch import FEEDBACK_B, Batch, Submission, framebuffer_tile_layout, hold_all
from .device import Device, release_deferred, release_when_safe
from .pool import ConstPool, FeedbackSlots
from .resource import DEPTH_PLANE, AgxResource, layout_format
from .shader import ShaderCSO
from .tilebuffer import tile_format

__all__ = ["AgxScreen", "AgxContext", "AgxFence", "MAX_BATCHES"]

MAX_BATCHES = 8
#: A submission polls the earlier ones for completion (to release their memory) only
#: when more than this many are pending: polling the one just submitted, which has
#: not run yet, cost a SYNCOBJ_WAIT per submission. Waits retire what they see done.
RETIRE_PENDING = 4
#: Draws one render command holds at most: the batch is submitted when it reaches
#: them and the next draws start another (the tiles stored and loaded between), so a
#: long run of draws without a readback never makes one command long enough to
#: spend the GPU's job-timeout budget (the firmware's watchdog kills the command and
#: cancels the queue; 5,292 small textured quads did, piglit tex-miplevel-selection).
MAX_DRAWS_PER_BATCH = 512
#: A sub-range write into a buffer that unsubmitted or running work still reads gives
#: the buffer fresh memory holding the old bytes and the new ones (Mesa's agx_shadow)
#: when the buffer is at most this big; larger ones are staged and copied on the GPU.
MAX_SHADOW_B = 4 << 20
#: ... and when the buffer was shadowed less than this since the GPU last left it idle:
#: the old copies stay alive until the work reading them completes, so a buffer rewritten
#: while in use again and again then waits for that work once (Mesa's flush and sync),
#: which returns them, and is shadowed again after.
MAX_TOTAL_SHADOW_B = 32 << 20
# uint64 counters in one BO, as many as PPP_OCCLUSION.index can name
OCCLUSION_SLOTS = 1 << P.PPP_OCCLUSION.by_name["index"].size
S = PipeShaderType


class AgxFence(PipeFence):
    """The submissions up to a flush (None: nothing was ever submitted)."""

    def __init__(self, submission: Submission | None):
        self.submission = submission

    def signalled(self) -> bool:
        return self.submission is None or self.submission.poll()

    def export_sync_file(self) -> int | None:
        """The fence as a sync file descriptor of the seam (Mesa's agx_fence_get_fd), or
        None when it has already signalled (a signalled fence needs no file)."""
        sub = self.submission
        if sub is None or sub.poll():
            return None
        with sub.hold() as handle:          # None: retired (by any thread), so signalled
            return None if handle is None else sub.device.syncobj_export(handle, sync_file=True)


def _uuid(*facts) -> bytes:
    """16 bytes from a SHA-256 of the facts (a version 4-like UUID's size, deterministic)."""
    import hashlib
    return hashlib.sha256(" ".join(str(f) for f in facts).encode()).digest()[:16]


#: transfer_map's usage bits as plain ints (see transfer_map)
_MAP_READ, _MAP_WRITE = int(PipeMap.READ), int(PipeMap.WRITE)
_MAP_DISCARD_RANGE, _MAP_DISCARD_WHOLE_RESOURCE = int(PipeMap.DISCARD_RANGE), int(PipeMap.DISCARD_WHOLE_RESOURCE)
_MAP_UNSYNCHRONIZED, _MAP_PERSISTENT = int(PipeMap.UNSYNCHRONIZED), int(PipeMap.PERSISTENT)


class AgxScreen(PipeScreen):
    """One device. ``path`` is the render node opened through the uapi seam."""

    def __init__(self, path: str = "/dev/dri/renderD128"):
        self.device = Device(path)
        p = self.device.params
        from .texel_buffer import MAX_ELEMENTS
        self._caps = ScreenCaps(name=f"shimgl AGX G{p.gpu_generation}{chr(p.gpu_variant)}", vendor="shimgl",
                                max_texel_buffer_elements=MAX_ELEMENTS)
        self.pending: list[Submission] = []
        self.lock = threading.RLock()     # contexts of one screen may live in different threads (EGL)
        self.compile_fn = None       # set by driver.agx.compile when the compiler backend is present
        from . import compile as _compile
        self.compile_fn = _compile.compile_variant

    @property
    def caps(self) -> ScreenCaps:
        return self._caps

    def is_format_supported(self, format: PipeFormat, target: PipeTextureTarget, sample_count: int,
                            bind: PipeBind) -> bool:
        try:
            name = layout_format(format)
        except (KeyError, ValueError):
            return False
        fmt = layout.get_format(name)
        if sample_count not in (0, 1, 2, 4):
            return False
        if sample_count > 1 and (fmt.is_compressed or target == PipeTextureTarget.TEXTURE_3D):
            return False
        if bind & PipeBind.RENDER_TARGET and tile_format(name) is None:
            return False
        if bind & PipeBind.DEPTH_STENCIL and name not in DEPTH_PLANE:
            return False
        if bind & PipeBind.VERTEX_BUFFER and (fmt.is_compressed or fmt.is_depth_or_stencil):
            return False
        if bind & PipeBind.SHADER_IMAGE and (fmt.is_compressed or fmt.is_depth_or_stencil or sample_count > 1):
            return False
        return True

    def resource_create(self, template: ResourceTemplate) -> PipeResource:
        return AgxResource(self.device, template)

    def resource_get_handle(self, resource: PipeResource) -> int:
        """A dma-buf descriptor (of the seam) of the resource's memory, for another
        device file to import with ``resource_from_handle`` and the same template."""
        return self.device.bo_export(resource.bo)

    def resource_from_handle(self, template: ResourceTemplate, fd: int, exporter: PipeResource | None = None
                             ) -> PipeResource:
        """Import a dma-buf. ``exporter``: the resource it came from, when it lives in this
        process, so that work on either side is ordered after the other's writes (implicit sync)."""
        res = AgxResource(self.device, template, import_fd=fd)
        if exporter is not None:
            from .implicit import link
            link(exporter.bo, res.bo)
        return res

    # -- memory objects: the BO of a dma-buf; resources are views of it (Device.bo_view) ----
    memobj_alignment = layout.PAGE_B      # a view is bound from a page of the object

    def memobj_create_from_handle(self, fd: int, size_B: int, dedicated: bool = False) -> object | None:
        if size_B <= 0:
            return None
        try:
            bo = self.device.bo_import(fd, size_B, label="memory object")
        except OSError:             # not a dma-buf of this kernel, or smaller than size_B
            return None
        uapi.close(fd)              # the import owns the descriptor (EXT_memory_object_fd)
        return bo

    def memobj_destroy(self, memobj: object) -> None:
        memobj.release()

    def resource_size(self, template: ResourceTemplate) -> int:
        if template.is_buffer:
            return max(template.width_px, 1)
        from .resource import texture_planes
        return texture_planes(template, self.device.debug)[1]

    def resource_from_memobj(self, template: ResourceTemplate, memobj: object, offset_B: int
                             ) -> PipeResource | None:
        if offset_B < 0 or offset_B % self.memobj_alignment or offset_B + self.resource_size(template) > memobj.size_B:
            return None
        return AgxResource(self.device, template, memory=(memobj, offset_B))

    def driver_uuid(self) -> bytes:
        """The driver's name and page size, hashed: every shimgl AGX driver lays memory
        out by the same rules (resource.texture_planes)."""
        return _uuid("shimgl agx driver", layout.PAGE_B)

    def device_uuid(self) -> bytes:
        p = self.device.params
        return _uuid("shimgl agx device", p.gpu_generation, p.gpu_variant, p.gpu_revision, p.chip_id,
                     p.num_dies, p.num_clusters_total, p.num_cores_per_cluster)

    def resource_from_user_memory(self, template: ResourceTemplate, address: int) -> PipeResource | None:
        """A buffer over the client's pages (GEM_USERPTR); None when the kernel refuses them."""
        if not template.is_buffer:
            return None
        try:
            return AgxResource(self.device, template, user_address=address)
        except OSError:
            return None

    def resource_destroy(self, resource: PipeResource) -> None:
        if not self.release_reference(resource):
            return              # another holder (an EGL image's sibling) still uses it
        # batches hold their own BO references, so the memory lives until they complete
        resource.destroy()

    def fence_finish(self, fence: PipeFence, timeout_ns: int) -> bool:
        sub = fence.submission
        if sub is None:
            return True
        timeout = -1 if timeout_ns >= PIPE_TIMEOUT_INFINITE or timeout_ns < 0 else timeout_ns
        done = sub.wait(timeout)
        if done:
            self.retire()
        return done

    def fence_from_sync_file(self, fd: int) -> AgxFence:
        """A fence that signals with a sync file (EGL_ANDROID_native_fence_sync's import)."""
        handle = self.device.syncobj_import_sync_file(fd)
        return AgxFence(Submission(self.device, handle, [], [], f"sync file {fd}"))

    def get_timestamp_ns(self) -> int:
        return self.device.timestamp_ns()

    def context_create(self) -> "AgxContext":
        return AgxContext(self)

    def retire(self) -> None:
        """Release the memory of completed submissions (oldest first; stops at the first
        one still running)."""
        with self.lock:
            keep = []
            for i, sub in enumerate(self.pending):
                if not sub.poll():
                    keep = self.pending[i:]
                    break
            self.pending = keep

    def destroy(self) -> None:
        for sub in self.pending:
            sub.wait()
        self.pending = []
        self.device.close()


class AgxQuery(PipeQuery):
    def __init__(self, type: PipeQueryType, index: int = 0):
        super().__init__(type, index)
        self.slot = None
        self.result = None
        self.begin_value = 0
        self.submission = None
        self.active = False


class AgxContext(PipeContext):
    reports_work = True

    def __init__(self, screen: AgxScreen):
        self.screen = screen
        self.device = screen.device
        self.debug = self.device.debug
        release_deferred()      # a safe point: what the garbage collector found goes first
        self.queue_id = self.device.queue_create()      # one UAPI queue per context, as Mesa
        # a context collected without destroy() still gives its queue (and the kernel's
        # threads behind it) back; the finalizer holds the device and the id, not us
        self._owned_queues = [self.queue_id]
        # the bg/eot/partial-bg programs' words, uniforms and descriptors, uploaded once
        self.consts = ConstPool(self.device, label="context constants")
        # each command's feedback record, reused once its submission retired
        self.feedback = FeedbackSlots(self.device, FEEDBACK_B, label="context feedback")
        self._finalizer = weakref.finalize(self, release_when_safe, _destroy_queues, self.device,
                                           self._owned_queues, self.consts, self.feedback)
        self._finalizer.atexit = False       # the process's end closes every queue anyway
        # a GPU reset of this context's queue (the watchdog stopped its work): sticky;
        # the queue is then replaced (a guilty queue refuses submissions) before the next SUBMIT
        self.reset = PipeResetStatus.NO_RESET
        self._queue_guilty = False
        self._serial = itertools.count()
        self._handles = itertools.count(1)
        self.batches: dict = {}                   # FramebufferState (or None: compute) -> Batch
        self.last_submission: Submission | None = None
        self.in_fences: list[Submission] = []
        # bound state
        self.blend = BlendState()
        self.rast = RasterizerState()
        self.dsa = DepthStencilAlphaState()
        self.velems: tuple[VertexElement, ...] = ()
        self.shaders: dict[PipeShaderType, ShaderCSO | None] = {S.VERTEX: None, S.FRAGMENT: None, S.COMPUTE: None}
        self.samplers: dict[PipeShaderType, list] = {s: [] for s in S}
        self.views: dict[PipeShaderType, list] = {s: [] for s in S}
        self.constant_buffers: dict[PipeShaderType, dict[int, ConstantBuffer]] = {s: {} for s in S}
        self.shader_buffers: dict[PipeShaderType, list] = {s: [] for s in S}
        self.shader_buffers_writable: dict[PipeShaderType, int] = {s: 0 for s in S}
        self.images: dict[PipeShaderType, list] = {s: [] for s in S}
        self.vertex_buffers: list[VertexBuffer] = []
        self.so_targets: list = []
        self.so_filled: dict = {}               # (id(resource), offset_B) -> bytes written (append on -1)
        self.so_primitives = 0                  # primitives captured (PRIMITIVES_EMITTED queries)
        self.so_primitives_needed = 0           # primitives the capturing draws made (SO_OVERFLOW queries)
        self.statistics_bo = None               # the VDM's 6 pipeline-statistics counters (uint64)
        self.statistics_queries: list = []      # active PIPELINE_STATISTICS queries
        self.cs_invocations = 0                 # compute invocations launched (CS_INVOCATIONS)
        self.so_vertices: dict = {}             # (id(resource), offset_B) -> vertices captured (DrawTransformFeedback)
        self.fb = FramebufferState(0, 0)
        self.viewport = ViewportState((1.0, 1.0, 0.5), (0.0, 0.0, 0.5))
        self.scissor = ScissorState(0, 0, 0, 0)
        self.blend_color = (0.0, 0.0, 0.0, 0.0)
        self.poly_stipple = (0xFFFFFFFF,) * 32
        self.stencil_ref = (0, 0)
        self.output_filter = (None, None)       # (layer, viewport) of set_output_filter
        self.sample_mask = 0xFFFF
        self.min_samples = 1
        self.clip = ClipState()
        self.render_cond = None
        self.queries_active: list[AgxQuery] = []
        self.queries_paused = False         # set_active_query_state(False): draws count into none
        self.occlusion_bo = None
        self.occlusion_free = list(range(OCCLUSION_SLOTS))[::-1]
        self.occlusion_released: list = []      # (slot, batches that may add to it, last submission)
        self.stats = {"submits": 0, "draws": 0, "flushes_for_hazards": 0, "launches": 0, "partial_renders": 0,
                      "faults": 0, "staged_uploads": 0, "shadowed_uploads": 0, "shadow_waits": 0,
                      "implicit_syncs": 0, "skipped": 0, "decompressions": 0}
        self.faults: list = []
        self.warned: set[str] = set()           # one-time warnings already given
        self.timer_queries: list[AgxQuery] = []  # active TIME_ELAPSED queries (collect submissions)

    # ------------------------------------------------------------------ CSOs
    def _handle(self, state):
        return state

    def create_blend_state(self, state: BlendState):
        return state

    def bind_blend_state(self, handle) -> None:
        self.blend = handle or BlendState()

    def delete_blend_state(self, handle) -> None:
        pass

    def create_rasterizer_state(self, state: RasterizerState):
        return state

    def bind_rasterizer_state(self, handle) -> None:
        self.rast = handle or RasterizerState()

    def delete_rasterizer_state(self, handle) -> None:
        pass

    def create_depth_stencil_alpha_state(self, state: DepthStencilAlphaState):
        return state

    def bind_depth_stencil_alpha_state(self, handle) -> None:
        self.dsa = handle or DepthStencilAlphaState()

    def delete_depth_stencil_alpha_state(self, handle) -> None:
        pass

    def create_sampler_state(self, state: SamplerState):
        return state

    def bind_sampler_states(self, shader, start_slot, handles) -> None:
        lst = self.samplers[shader]
        while len(lst) < start_slot + len(handles):
            lst.append(None)
        for i, h in enumerate(handles):
            lst[start_slot + i] = h

    def delete_sampler_state(self, handle) -> None:
        pass

    def create_vertex_elements_state(self, elements: tuple[VertexElement, ...]):
        return tuple(elements)

    def bind_vertex_elements_state(self, handle) -> None:
        self.velems = handle or ()

    def delete_vertex_elements_state(self, handle) -> None:
        pass

    def create_shader_state(self, state: ShaderState):
        return ShaderCSO(state, self.screen.compile_fn)

    def bind_shader_state(self, stage, handle) -> None:
        self.shaders[stage] = handle

    def delete_shader_state(self, handle) -> None:
        if handle is not None:
            handle.release()

    # ------------------------------------------------------------------ parameters
    def set_blend_color(self, rgba) -> None:
        self.blend_color = tuple(rgba)

    def set_polygon_stipple(self, rows) -> None:
        """Gallium's pipe_poly_stipple: 32 rows of 32 bits, row 0 the window's bottom
        row, bit 31 of a row its leftmost pixel (x mod 32 = 0)."""
        self.poly_stipple = tuple(int(r) & 0xFFFFFFFF for r in rows)

    def set_stencil_ref(self, front: int, back: int) -> None:
        self.stencil_ref = (front, back)

    def set_output_filter(self, layer, viewport) -> None:
        # vertex variants with the key output_filter compare the outputs with the uniform
        # shimgl_OutputFilter (compiler/lower/io.py, _output_filter)
        self.output_filter = (layer, viewport)

    def set_sample_mask(self, mask: int) -> None:
        self.sample_mask = mask

    def set_min_samples(self, min_samples: int) -> None:
        self.min_samples = min_samples

    def set_clip_state(self, clip: ClipState) -> None:
        self.clip = clip

    def set_framebuffer_state(self, fb: FramebufferState) -> None:
        self.fb = fb

    def set_viewport_states(self, start_slot: int, viewports) -> None:
        if start_slot == 0 and viewports:
            self.viewport = viewports[0]

    def set_scissor_states(self, start_slot: int, scissors) -> None:
        if start_slot == 0 and scissors:
            self.scissor = scissors[0]

    def set_constant_buffer(self, shader, index, cb) -> None:
        if cb is None:
            self.constant_buffers[shader].pop(index, None)
        else:
            self.constant_buffers[shader][index] = cb

    def set_sampler_views(self, shader, start_slot, views) -> None:
        lst = self.views[shader]
        while len(lst) < start_slot + len(views):
            lst.append(None)
        for i, v in enumerate(views):
            lst[start_slot + i] = v

    def set_shader_buffers(self, shader, start_slot, buffers, writable_bitmask) -> None:
        lst = self.shader_buffers[shader]
        while len(lst) < start_slot + len(buffers):
            lst.append(None)
        for i, b in enumerate(buffers):
            lst[start_slot + i] = b
        mask = self.shader_buffers_writable[shader] & ~(((1 << len(buffers)) - 1) << start_slot)
        self.shader_buffers_writable[shader] = mask | (writable_bitmask << start_slot)

    def set_shader_images(self, shader, start_slot, images) -> None:
        lst = self.images[shader]
        while len(lst) < start_slot + len(images):
            lst.append(None)
        for i, im in enumerate(images):
            lst[start_slot + i] = im

    def set_vertex_buffers(self, buffers) -> None:
        self.vertex_buffers = list(buffers)

    def set_stream_output_targets(self, targets, offsets_B) -> None:
        self.so_targets = list(zip(targets, offsets_B))
        for t, off in self.so_targets:
            key = (id(t.resource), t.offset_B)
            if off != -1 or key not in self.so_filled:
                self.so_filled[key] = max(int(off), 0)

    # ------------------------------------------------------------------ batches and hazards
    def _flush_batch(self, batch: Batch) -> None:
        """Submit one batch (and drop it from the unsubmitted set)."""
        for key, b in list(self.batches.items()):
            if b is batch:
                del self.batches[key]
        self._submit(batch)

    def _flush_writer(self, resource, keep: Batch | None = None) -> None:
        w = resource.writer
        if w is not None and w is not keep:
            self.stats["flushes_for_hazards"] += 1
            w.ctx._flush_batch(w)          # possibly another context's batch (shared resources)

    def _decompress_spilled(self, fb: FramebufferState) -> None:
        """Render targets the tile layout spills are read and written as images, which
        cannot be compressed: decompress them first (Mesa's agx_decompress, once per
        resource; its pending work is finished first)."""
        for slot, s in zip(framebuffer_tile_layout(fb).slots, fb.cbufs):
            if slot is not None and slot.spilled and s.resource.lay.tiling == "twiddled_compressed":
                self._sync_resource(s.resource, write=True)
                if s.resource.decompress():
                    self.stats["decompressions"] += 1

    def _flush_readers(self, resource, keep: Batch | None = None) -> None:
        for r in list(resource.readers):
            if r is not keep:
                self.stats["flushes_for_hazards"] += 1
                r.ctx._flush_batch(r)

    def _batch_for(self, fb: FramebufferState | None) -> Batch:
        batch = self.batches.get(fb)
        if batch is not None:
            return batch
        if len(self.batches) >= MAX_BATCHES:
            self._flush_batch(next(iter(self.batches.values())))
        if fb is not None:
            self._decompress_spilled(fb)
        batch = Batch(self, fb, next(self._serial))
        if fb is not None:
            for s in (*fb.cbufs, fb.zsbuf):
                if s is None:
                    continue
                resource = s.resource
                if resource.writer is not None:        # (a fresh batch is neither writer nor reader)
                    self._flush_writer(resource, batch)
                if resource.readers:
                    self._flush_readers(resource, batch)
                batch.use(resource, write=True)
            if self.occlusion_bo is not None:
                batch.occlusion_va = self.occlusion_bo.va
        self.batches[fb] = batch
        if self.idle_flag is not None:
            self.idle_flag[0] = 0       # work recorded (PipeContext.reports_work)
        return batch

    def render_batch(self) -> Batch:
        assert self.fb.width_px > 0 and self.fb.height_px > 0, "no framebuffer bound"
        return self._batch_for(self.fb)

    def read(self, batch: Batch, resource) -> None:
        """``batch`` reads ``resource``: earlier unsubmitted writers go first."""
        if resource is None:
            return
        self._flush_writer(resource, batch)
        batch.use(resource)

    def write(self, batch: Batch, resource) -> None:
        if resource is None:
            return
        self._flush_writer(resource, batch)
        self._flush_readers(resource, batch)
        batch.use(resource, write=True)

    def _submit(self, batch: Batch) -> None:
        if self.idle_flag is not None:
            self.idle_flag[0] = 0       # work submitted (PipeContext.reports_work)
        dev = self.device
        batch.submitted = True
        for r in batch.reads:
            r.readers.discard(batch)
        for r in batch.writes:
            if r.writer is batch:
                r.writer = None
            r.readers.discard(batch)
        if batch.empty:
            for bo in batch.bo_refs.values():
                bo.release()
            batch.pool.release()
            batch.usc_pool.release()
            return
        touched = batch.reads | batch.writes if batch.reads else batch.writes
        in_syncs = set()
        for r in touched:
            w = r.write_sync
            if w is not None and not w.done:
                in_syncs.add(w)
        for r in batch.writes:
            if r.read_syncs:
                in_syncs.update(s for s in r.read_syncs if not s.done)
        if self.in_fences:
            in_syncs.update(s for s in self.in_fences if not s.done)
            self.in_fences = []
        temporary = []                                   # implicit sync: other files' writers of shared BOs
        shared = [r for r in touched if r.bo is not None and r.bo.shared]   # (a destroyed staging resource has no BO)
        for r in shared:
            from .implicit import foreign_writers
            for sub in foreign_writers(r.bo):
                with sub.hold() as foreign:
                    if foreign is None:              # retired meanwhile: nothing to wait for
                        continue
                    fd = sub.device.syncobj_export(foreign, sync_file=True)
                temporary.append(dev.syncobj_import_sync_file(fd))
                self.stats["implicit_syncs"] += 1
                import uapi
                uapi.close(fd)
        cmds = batch.commands()
        handle = dev.syncobj_take()
        sub = Submission(dev, handle, [batch.pool, batch.usc_pool], list(batch.bo_refs.values()), batch.label,
                         batch.feedback_slots, self._retired,
                         reuse_syncobj=not shared or not any(r in batch.writes for r in shared))
        # Any thread may retire (and destroy the syncobj of) an in-sync at any moment
        # (screen.retire, fence waits of other contexts): hold each until SUBMIT has read it.
        if in_syncs:
            with contextlib.ExitStack() as held:
                waits = hold_all(held, in_syncs) + temporary
                submitted = self._submit_or_reset(cmds, waits, handle)
        else:
            submitted = self._submit_or_reset(cmds, temporary, handle)
        for t in temporary:
            dev.syncobj_destroy(t)
        if not submitted:          # lost to a GPU reset: nothing of the batch runs
            dev.syncobj_destroy(handle)
            self.feedback.give_back([(bo, off) for _, bo, off in batch.feedback_slots])
            for bo in batch.bo_refs.values():
                bo.release()
            batch.pool.release()
            batch.usc_pool.release()
            return
        self.stats["submits"] += 1
        for r in batch.reads:
            r.read_syncs = {s for s in r.read_syncs if not s.done} | {sub}
        for r in batch.writes:
            r.write_sync = sub
            if r.read_syncs:
                r.read_syncs = set()
        for r in shared:
            if r in batch.writes:
                r.bo.writer = (self.queue_id, handle)     # Mesa's bo->writer for shared BOs
                r.bo.writer_submission = sub
        self.last_submission = sub
        batch.submission = sub
        with self.screen.lock:
            self.screen.pending.append(sub)
        for q in self.timer_queries:
            q.submissions.append(sub)
        if "sync" in self.debug:
            if not sub.wait(10_000_000_000):
                raise TimeoutError(f"{batch.label} did not complete (SHIMGL_DEBUG=sync)")
        if len(self.screen.pending) > RETIRE_PENDING:
            self.screen.retire()

    def _submit_or_reset(self, cmds, waits: list[int], out_handle: int) -> bool:
        """SUBMIT on this context's queue. A queue reset by the GPU watchdog refuses work
        (ECANCELED): the reset is recorded, a fresh queue replaces it and the work is
        submitted there once. False when even that fails (the work is dropped)."""
        for attempt in range(2):
            if self._queue_guilty:
                self._replace_queue()
            try:
                self.device.submit(cmds, in_syncs=waits, out_syncs=[out_handle], queue_id=self.queue_id)
                return True
            except OSError as err:
                if err.errno != errno.ECANCELED:
                    raise
                self._note_reset()
        warnings.warn("shimgl: work dropped after a GPU reset (its queue refused it twice)",
                      RuntimeWarning, stacklevel=3)
        return False

    def _note_reset(self) -> None:
        """This context's queue was reset (guilty): remember it; replace the queue later
        (this may run in another context's thread, retiring our submission)."""
        first = self.reset == PipeResetStatus.NO_RESET
        self.reset = PipeResetStatus.GUILTY
        self._queue_guilty = True
        callback = getattr(self, "device_reset_callback", None)
        if first and callback is not None:
            callback(self.reset)

    def _replace_queue(self) -> None:
        old, self.queue_id = self.queue_id, self.device.queue_create()
        self._owned_queues[:] = [self.queue_id]
        self._queue_guilty = False
        self.device.queue_destroy(old)    # never waits on runaway work

    def get_device_reset_status(self) -> PipeResetStatus:
        """GUILTY once the watchdog stopped work of this context (seen in a command's
        feedback, a refused SUBMIT, or the queue's ``timeouts`` counter); sticky."""
        if self.reset == PipeResetStatus.NO_RESET and self.queue_id is not None \
                and not self._queue_guilty and self.device.queue_counters(self.queue_id)["timeouts"]:
            self._note_reset()
        return self.reset

    def _retired(self, sub: Submission) -> None:
        """A submission completed: count partial renders, report faults (as Mesa prints them).
        Its feedback slots were read: they are free again."""
        self.feedback.give_back([(bo, off) for _, bo, off in sub.feedback_slots])
        if any(fb["status"] in ("TIMEOUT", "KILLED") for fb in sub.feedback):
            self._note_reset()
        for fb in sub.feedback:
            self.stats["partial_renders"] += fb["partial_renders"]
            if fb["status"] != "COMPLETE" or "fault" in fb:
                self.stats["faults"] += 1
                self.faults.append((sub.label, fb))
                address, unit = fb.get("fault", (0, "?"))
                warnings.warn(f"shimgl: {sub.label} {fb['kind']} command {fb['status']}: "
                              f"{unit} fault at 0x{address:x}", RuntimeWarning, stacklevel=2)

    def flush(self, flags: PipeFlush = PipeFlush.NONE) -> PipeFence:
        for batch in list(self.batches.values()):
            self._flush_batch(batch)
        self.batches = {}
        return AgxFence(self.last_submission)

    def fence_server_sync(self, fence: PipeFence) -> None:
        if fence.submission is not None and not fence.submission.done:
            self.in_fences.append(fence.submission)

    def _sync_resource(self, resource, write: bool) -> None:
        """CPU access: flush unsubmitted work on the resource and wait for the GPU."""
        self._flush_writer(resource)
        if write:
            self._flush_readers(resource)
        subs = [resource.write_sync] if resource.write_sync is not None else []
        if write:
            subs += list(resource.read_syncs)
        if resource.bo.shared:
            from .implicit import foreign_writers
            subs += foreign_writers(resource.bo)
        for sub in subs:     # no deadline: the kernel's GPU watchdog ends every job (a fixed
            if not sub.done:  # one failed maps after legitimate long work, a 16384^2 render)
                sub.wait()
        self.screen.retire()

    # ------------------------------------------------------------------ transfers
    def transfer_map(self, resource, level: int, usage: PipeMap, box: Box) -> Transfer:
        u = int(usage)      # (bits of a plain int: an IntFlag's & builds a new member, ~2 us each)
        if not u & _MAP_UNSYNCHRONIZED:
            if u & _MAP_DISCARD_WHOLE_RESOURCE and resource.template.is_buffer and \
                    not resource.persistent_maps and not resource.bo.shared and self._busy(resource):
                self._rename(resource)
            else:
                self._sync_resource(resource, write=bool(u & _MAP_WRITE))
        if resource.template.is_buffer:
            if u & _MAP_PERSISTENT:
                resource.persistent_maps += 1       # its memory must stay where it is mapped
            view = resource.bo.map[box.x:box.x + box.width]
            return Transfer(resource, level, usage, box, box.width, box.width, view)
        if u & _MAP_DISCARD_RANGE and not u & _MAP_READ:
            data = _empty_region(resource, level, box)
        else:
            data = resource.read_region(level, box.x, box.y, box.z, box.width, box.height, box.depth)
        d, h, w, bpp = data.shape
        snapshot = resource.kept_level(level, box.z) if d == 1 and not u & _MAP_WRITE else None
        return Transfer(resource, level, usage, box, w * bpp, w * bpp * h, memoryview(data.reshape(-1)), snapshot)

    def texture_read(self, resource, level: int, box: Box, dest) -> None:
        self._sync_resource(resource, write=False)
        resource.read_region(level, box.x, box.y, box.z, box.width, box.height, box.depth, out=dest)

    def transfer_flush_region(self, transfer: Transfer, box: Box) -> None:
        pass        # mappings are coherent: the BO is the GPU's memory

    def transfer_unmap(self, transfer: Transfer) -> None:
        res = transfer.resource
        u = int(transfer.usage)
        if res.template.is_buffer and u & _MAP_PERSISTENT:
            res.persistent_maps -= 1
        if res.template.is_buffer or not u & _MAP_WRITE:
            return
        b = transfer.box
        data = np.frombuffer(transfer.data, np.uint8).reshape(b.depth, -1)
        res.write_region(transfer.level, b.x, b.y, b.z, b.width, b.height, b.depth, data.reshape(b.depth, -1))

    @staticmethod
    def _gpu_writes(resource) -> bool:
        """Whether recorded or running work still writes the resource."""
        return resource.writer is not None or \
            (resource.write_sync is not None and not resource.write_sync.poll())

    def _busy(self, resource) -> bool:
        return self._gpu_writes(resource) or bool(resource.readers) or \
            any(not s.poll() for s in resource.read_syncs)

    def _rename(self, resource) -> None:
        """DISCARD_WHOLE_RESOURCE on a busy buffer: give it fresh memory (batches keep the old BO).
        Never a shared BO's (exported, or the client's own pages): the other side keeps
        seeing the old memory."""
        old = resource.bo
        resource.bo = self.device.bo_create(old.size_B, shared=old.shared, label=old.label)
        old.release()
        resource.writer, resource.readers = None, set()
        resource.write_sync, resource.read_syncs = None, set()

    def _shadowable(self, resource) -> bool:
        """Whether a busy buffer may get fresh memory with its bytes (``_shadow``),
        the shadow budget aside."""
        return not (self._gpu_writes(resource) or resource.bo.shared or resource.persistent_maps
                    or resource.alloc_B > MAX_SHADOW_B)

    def _shadow(self, resource, offset_B: int, raw: bytes) -> bool:
        """A write of ``raw`` at ``offset_B`` into a buffer that work not yet complete
        reads, without waiting or a GPU copy (Mesa's agx_shadow with its copy): the
        buffer gets fresh memory holding its current bytes with ``raw`` over them;
        the work recorded or running keeps the old BO (each batch holds a reference)
        and its addresses, later draws encode the new one. Only when nothing still
        writes the buffer (its bytes are final on the CPU), it is not shared with
        another process nor mapped persistently (the client holds the old memory),
        and it is small enough (``MAX_SHADOW_B``, ``MAX_TOTAL_SHADOW_B``). False:
        nothing done."""
        old = resource.bo
        if not self._shadowable(resource) or resource.shadowed_B >= MAX_TOTAL_SHADOW_B:
            return False
        new = self.device.bo_create(old.size_B, label=old.label)
        n = resource.alloc_B
        new.map[:n] = old.map[:n]
        new.map[offset_B:offset_B + len(raw)] = raw
        resource.bo = new
        old.release()
        resource.readers, resource.read_syncs = set(), set()
        resource.shadowed_B += n
        self.stats["shadowed_uploads"] += 1
        return True

    def buffer_subdata(self, resource, usage, offset_B, data) -> None:
        raw = bytes(data) if not isinstance(data, (bytes, bytearray)) else data
        whole = offset_B == 0 and len(raw) == resource.size_B
        busy = not usage & PipeMap.UNSYNCHRONIZED and raw and self._busy(resource)
        if not busy:
            resource.shadowed_B = 0
        if not whole and busy and self._shadowable(resource):
            if self._shadow(resource, offset_B, raw):
                return
            # the shadow budget is spent: wait once for the work holding the old copies
            # (the synchronized write below), then shadow again from nothing
            self.stats["shadow_waits"] += 1
            resource.shadowed_B = 0
        elif not whole and busy:
            # the GPU still uses the buffer: stage the bytes and copy them in order on the GPU
            # (Mesa's staging upload) instead of stalling
            staging = AgxResource(self.device, ResourceTemplate(PipeTextureTarget.BUFFER, PipeFormat.R8_UINT,
                                                                len(raw)))
            staging.bo.write(0, raw)
            self._copy_buffer(resource, offset_B, staging, 0, len(raw))
            staging.destroy()           # the compute batch holds the staging BO until it completes
            self.stats["staged_uploads"] += 1
            return
        # UNSYNCHRONIZED (the upload manager's fresh ranges): written in place, no wait
        tr = self.transfer_map(resource, 0, PipeMap.WRITE | (usage & PipeMap.UNSYNCHRONIZED)
                               | (PipeMap.DISCARD_WHOLE_RESOURCE if whole else 0), Box(offset_B, 0, 0, len(raw)))
        tr.data[:len(raw)] = raw
        self.transfer_unmap(tr)

    def texture_subdata(self, resource, level, usage, box, data, stride_B, layer_stride_B) -> None:
        self._sync_resource(resource, write=True)
        fmt = layout.get_format(resource.lay.format if "color" in resource.planes else layout_format(resource.format))
        bw, bh = fmt.block_width_px, fmt.block_height_px
        w_el, h_el = -(-box.width // bw), -(-box.height // bh)
        bpp = layout.get_format(layout_format(resource.format)).block_size_B * resource.samples
        src = np.frombuffer(bytes(data), np.uint8)
        rows = w_el * bpp
        out = np.empty((box.depth, h_el, rows), np.uint8)
        for z in range(box.depth):
            idx = z * layer_stride_B + np.arange(h_el)[:, None] * stride_B + np.arange(rows)[None, :]
            out[z] = src[idx]
        resource.write_region(level, box.x, box.y, box.z, box.width, box.height, box.depth,
                              out.reshape(box.depth, h_el, w_el, bpp))

    # ------------------------------------------------------------------ clears
    def clear(self, buffers: PipeClear, scissor: ScissorState | None, color: tuple, depth: float,
              stencil: int) -> None:
        if not self._render_condition_passes():
            return
        buffers = int(buffers)          # (plain integers: an IntFlag operation makes a member each)
        fb = self.fb
        rect = None
        if scissor is not None and (scissor.minx > 0 or scissor.miny > 0 or scissor.maxx < fb.width_px
                                    or scissor.maxy < fb.height_px):
            if buffers & _DEPTHSTENCIL:
                self._clear_region(PipeClear(buffers & _DEPTHSTENCIL), scissor, color, depth, stencil)
            buffers &= ~_DEPTHSTENCIL
            rect = (max(scissor.minx, 0), max(scissor.miny, 0), min(scissor.maxx, fb.width_px),
                    min(scissor.maxy, fb.height_px))
            if not buffers & _COLOR or rect[2] <= rect[0] or rect[3] <= rect[1]:
                return
        batch = self.render_batch()
        if batch.draws or (rect is not None and batch.clear) or batch.clear_rect is not None:
            # loads then clears happen at tile start: clear after draws needs a fresh render pass
            self._flush_batch(batch)
            batch = self.render_batch()
        batch.clear_rect = rect
        cleared = batch.clear
        for i, s in enumerate(fb.cbufs):
            bit = _COLOR0 << i
            if s is not None and buffers & bit:
                cleared |= bit
                batch.clear_color[i] = _clear_words(_surface_name(s), color)
        if fb.zsbuf is not None:
            planes = fb.zsbuf.resource.planes
            if buffers & _DEPTH and "depth" in planes:
                cleared |= _DEPTH
                batch.clear_depth = float(min(max(depth, 0.0), 1.0))
            if buffers & _STENCIL and "stencil" in planes:
                cleared |= _STENCIL
                batch.clear_stencil = int(stencil) & 0xFF
            # a depth/stencil buffer with one plane cleared and the other not loads that one (ZLS handles it)
        batch.clear = cleared

    def _clear_region(self, buffers, sc: ScissorState, color, depth, stencil) -> None:
        """Scissored clears: written through a transfer (after the GPU is done with the target)."""
        fb = self.fb
        x0, y0 = max(sc.minx, 0), max(sc.miny, 0)
        x1, y1 = min(sc.maxx, fb.width_px), min(sc.maxy, fb.height_px)
        if x1 <= x0 or y1 <= y0:
            return
        for i, s in enumerate(fb.cbufs):
            if s is not None and buffers & PipeClear.color(i):
                self.clear_render_target(s, color, x0, y0, x1 - x0, y1 - y0, False)
        if fb.zsbuf is not None and buffers & PipeClear.DEPTHSTENCIL:
            self.clear_depth_stencil(fb.zsbuf, buffers & PipeClear.DEPTHSTENCIL, depth, stencil, x0, y0,
                                     x1 - x0, y1 - y0, False)

    def clear_render_target(self, dst: Surface, color, x, y, width, height, render_condition_enabled) -> None:
        if render_condition_enabled and not self._render_condition_passes():
            return
        name = _surface_name(dst)
        res = dst.resource
        texel = _pack_color(name, color)
        bpp = len(texel)
        layers = dst.last_layer - dst.first_layer + 1
        data = np.tile(np.frombuffer(texel, np.uint8), layers * height * width * res.samples)
        self._sync_resource(res, write=True)
        res.write_region(dst.level, x, y, dst.first_layer, width, height, layers,
                         data.reshape(layers, height, width, bpp * res.samples))

    def clear_depth_stencil(self, dst: Surface, clear_flags, depth, stencil, x, y, width, height,
                            render_condition_enabled) -> None:
        if render_condition_enabled and not self._render_condition_passes():
            return
        res = dst.resource
        layers = dst.last_layer - dst.first_layer + 1
        self._sync_resource(res, write=True)
        mem = res.memory()
        for plane, flag in (("depth", PipeClear.DEPTH), ("stencil", PipeClear.STENCIL)):
            if plane not in res.planes or not clear_flags & flag:
                continue
            pl = res.planes[plane]
            if plane == "depth":
                v = np.float32(min(max(depth, 0.0), 1.0))
                if pl.lay.format == "Z16_UNORM":
                    v = np.uint16(round(float(v) * 65535))
                texel = np.array([v]).view(np.uint8)
            else:
                texel = np.array([stencil & 0xFF], np.uint8)
            data = np.tile(texel, height * width * res.samples).reshape(height, width, -1)
            for layer in range(dst.first_layer, dst.first_layer + layers):
                layout.tile(pl.lay, mem[pl.offset_B:pl.offset_B + pl.lay.size_B], data, dst.level, layer,
                            x, y, width, height)

    # ------------------------------------------------------------------ copies and blits (CPU, ordered)
    def resource_copy_region(self, dst, dst_level, dstx, dsty, dstz, src, src_level, src_box) -> None:
        if dst.template.is_buffer and src.template.is_buffer:
            self._copy_buffer(dst, dstx, src, src_box.x, src_box.width)
            return
        if self._copy_texture(dst, dst_level, dstx, dsty, dstz, src, src_level, src_box):
            return
        if "color" not in dst.planes and dst.format == src.format and not dst.template.is_buffer:
            # depth/stencil copies: a NEAREST blit of the same size, drawn by the blitter
            b = src_box
            info = BlitInfo(dst=BlitImage(dst, dst_level, Box(dstx, dsty, dstz, b.width, b.height, b.depth),
                                          dst.format),
                            src=BlitImage(src, src_level, b, src.format), mask=PipeMask.ZS,
                            filter=PipeTexFilter.NEAREST)
            if self._blitter_blit(info):
                return
        self._sync_resource(src, write=False)
        self._sync_resource(dst, write=True)
        if dst.template.is_buffer:
            dst.bo.map[dstx:dstx + src_box.width] = src.bo.map[src_box.x:src_box.x + src_box.width]
            return
        b = src_box
        data = src.read_region(src_level, b.x, b.y, b.z, b.width, b.height, b.depth)
        # between a compressed and an uncompressed image of one block size each source element
        # (texel or block) is one destination element: the destination box in its own pixels
        sf, df = (layout.get_format(r.lay.format if "color" in r.planes else layout_format(r.format))
                  for r in (src, dst))
        w_px = -(-b.width // sf.block_width_px) * df.block_width_px
        h_px = -(-b.height // sf.block_height_px) * df.block_height_px
        dst.write_region(dst_level, dstx, dsty, dstz, w_px, h_px, b.depth, data)

    def blit(self, info: BlitInfo) -> None:
        if info.render_condition_enable and not self._render_condition_passes():
            return
        if self._gpu_blit(info) or self._blitter_blit(info):
            return
        from .blit import cpu_blit
        self._sync_resource(info.src.resource, write=False)
        self._sync_resource(info.dst.resource, write=True)
        cpu_blit(info)

    _SAVED = ("blend", "rast", "dsa", "velems", "vertex_buffers", "fb", "viewport", "scissor", "stencil_ref",
              "sample_mask", "min_samples", "so_targets")

    def _blitter_blit(self, info: BlitInfo) -> bool:
        """Depth, stencil, integer and multisampled-destination blits the BLIT command
        cannot do, drawn by the Gallium blitter (driver.gallium.blitter); the bound state
        it changes is saved and restored around it (util_blitter_save_*)."""
        from driver.gallium.blitter import Blitter
        dres = info.dst.resource
        fmt = layout.get_format(layout_format(info.dst.format)) if "color" in dres.planes else None
        if fmt is not None and (fmt.is_compressed or tile_format(layout_format(info.dst.format)) is None):
            return False
        integer = None
        if fmt is not None and fmt.is_integer:
            integer = "int" if any(c.type == "SINT" for c in fmt.channels) else "uint"
        if ("color" not in dres.planes and info.mask & PipeMask.RGBA) or info.src.resource is dres:
            return False
        if info.mask & PipeMask.RGBA and dres.samples > 1 and info.src.resource.samples == dres.samples:
            return False        # samples copied one for one: the CPU path (the blitter reads sample 0)
        if self.blit_programs is None:
            return False        # no programs from the layer above: the CPU path
        blitter = self.__dict__.get("blitter")
        if blitter is None:
            blitter = self.blitter = Blitter(self, self.blit_programs)
        saved = {k: getattr(self, k) for k in self._SAVED}
        shaders = dict(self.shaders)
        per_stage = {k: {st: (list(v) if isinstance(v, list) else dict(v)) for st, v in getattr(self, k).items()}
                     for k in ("samplers", "views", "constant_buffers")}
        try:
            return blitter.blit(info, depth_plane="depth" in dres.planes, stencil_plane="stencil" in dres.planes,
                                integer=integer)
        finally:
            for k, v in {**saved, **per_stage, "shaders": shaders}.items():
                setattr(self, k, v)

    def _internal_code(self, name: str, program: bytes) -> int:
        """Address of one of the driver's own programs in the USC heap (uploaded once per screen)."""
        cache = self.screen.__dict__.setdefault("internal_code", {})
        if name not in cache:
            bo = self.device.bo_create(len(program) + 64, usc=True, label=f"internal {name}")
            bo.write(0, program)
            cache[name] = bo
        return cache[name].va

    def _copy_buffer(self, dst, dst_offset_B: int, src, src_offset_B: int, size_B: int) -> None:
        """glCopyBufferSubData on the GPU: a compute launch in the compute batch."""
        from .tilebuffer import buffer_copy_program
        if size_B <= 0:
            return
        word = dst_offset_B % 4 == 0 and src_offset_B % 4 == 0 and size_B % 4 == 0
        n = size_B // 4 if word else size_B
        batch = self._batch_for(None)
        self.read(batch, src)
        self.write(batch, dst)
        code = self._internal_code(f"buffer_copy_{word}", buffer_copy_program(word))
        u = np.zeros(6, np.uint32)
        u[0:2] = [(src.va + src_offset_B) & 0xFFFFFFFF, (src.va + src_offset_B) >> 32]
        u[2:4] = [(dst.va + dst_offset_B) & 0xFFFFFFFF, (dst.va + dst_offset_B) >> 32]
        u[4] = n - 1
        words = (P.pack("USC_SHADER", register_count=8, code=code)
                 + P.pack("USC_UNIFORM", start_halves=0, size_halves=12, buffer=batch.pool.upload(u.tobytes(), 16))
                 + P.pack("USC_END"))
        if batch.launches:
            batch.cdm += P.pack("CDM_BARRIER")
        batch.cdm += P.pack("CDM_LAUNCH", pipeline=batch.pool.upload(words, 64), grid_x_tg=-(-n // 64),
                            threadgroup_x_threads=64)
        batch.launches += 1
        if "flush" in self.debug:
            self.flush()

    def _copy_texture(self, dst, dst_level, dstx, dsty, dstz, src, src_level, b: Box) -> bool:
        """Texture copies of renderable colour formats as BLIT commands (texture_load, exact);
        False for what needs the CPU (depth/stencil, compressed, multisampled, unrenderable)."""
        from .batch import Batch
        from .tilebuffer import copy_program, make_tile_layout
        if "color" not in src.planes or "color" not in dst.planes or src.samples > 1 or dst.samples > 1:
            return False
        if layout.get_format(src.lay.format).is_compressed or layout.get_format(dst.lay.format).is_compressed:
            return False        # (a compressed sRGB name has no _UNORM twin to look up below)
        name = dst.lay.format.replace("_SRGB", "_UNORM")
        if layout.get_format(src.lay.format).block_size_B != layout.get_format(name).block_size_B:
            return False
        if tile_format(name) is None or name not in layout.FORMATS:
            return False
        sname = src.lay.format.replace("_SRGB", "_UNORM")
        if sname != name:
            # different formats of one texel size (glCopyImageSubData): copy the bits
            # through an unsigned-integer view of that size
            raw = _RAW_COPY_FORMATS.get(layout.get_format(name).block_size_B)
            sfmt, dfmt = layout.get_format(sname), layout.get_format(name)
            if raw is None or sfmt.is_compressed or dfmt.is_compressed or tile_format(raw) is None:
                return False
            name = raw
        dw, dh, _ = dst.level_size_px(dst_level)
        rect = np.array([dstx, dsty, dstx + b.width, dsty + b.height, b.x, b.y], np.int64)
        if rect[2] <= rect[0] or rect[3] <= rect[1]:
            return True
        uniforms = rect.astype(np.uint32)
        for k in range(b.depth):
            surf = Surface(dst, PipeFormat(name), dst_level, dstz + k, dstz + k)
            batch = Batch(self, FramebufferState(dw, dh, cbufs=(surf,)), next(self._serial))
            self.read(batch, src)
            self.write(batch, dst)
            src_desc = src.texture_descriptor(format=name, target=PipeTextureTarget.TEXTURE_2D,
                                              first_level=src_level, last_level=src_level, first_layer=b.z + k)
            dst_desc = dst.texture_descriptor(format=name, target=PipeTextureTarget.TEXTURE_2D,
                                              first_level=dst_level, last_level=dst_level, first_layer=dstz + k)
            program = copy_program(make_tile_layout((name,)).slots[0])
            batch.blit = (program, uniforms, src_desc + dst_desc, b"")
            self._submit(batch)
        return True

    def _gpu_blit(self, info: BlitInfo) -> bool:
        """Colour blits and resolves as BLIT commands: a background program samples (or
        averages the samples of) the source inside the destination rectangle and reloads
        the destination elsewhere; the PBE stores the destination. False when the blit
        needs the CPU path (depth/stencil, integer formats, multisampled destinations)."""
        from .batch import Batch
        from .encode import sampler_descriptor
        from .tilebuffer import blit_program, make_tile_layout
        src, dst = info.src, info.dst
        sres, dres = src.resource, dst.resource
        if info.mask & PipeMask.ZS or not info.mask & PipeMask.RGBA:
            return False
        if "color" not in sres.planes or "color" not in dres.planes or dres.samples > 1:
            return False
        sname, dname = layout_format(src.format), layout_format(dst.format)
        sfmt, dfmt = layout.get_format(sname), layout.get_format(dname)
        if sfmt.is_integer or dfmt.is_integer or tile_format(dname) is None or sfmt.is_compressed:
            return False
        sb, db = src.box, dst.box
        scaled = abs(sb.width) != abs(db.width) or abs(sb.height) != abs(db.height)
        if sres.samples > 1 and not scaled and (sb.width < 0 or sb.height < 0 or db.width < 0 or db.height < 0):
            return False
        dw_lvl, dh_lvl, _ = dres.level_size_px(dst.level)
        sw_lvl, sh_lvl, _ = sres.level_size_px(src.level)
        dx0, dx1 = sorted((db.x, db.x + db.width))
        dy0, dy1 = sorted((db.y, db.y + db.height))
        sx0, sx1 = sorted((sb.x, sb.x + sb.width))
        sy0, sy1 = sorted((sb.y, sb.y + sb.height))
        if dx1 == dx0 or dy1 == dy0 or sx1 == sx0 or sy1 == sy0:
            return True
        flip_x = (sb.width < 0) != (db.width < 0)
        flip_y = (sb.height < 0) != (db.height < 0)
        scale_x = (sx1 - sx0) / (dx1 - dx0) * (-1 if flip_x else 1)
        scale_y = (sy1 - sy0) / (dy1 - dy0) * (-1 if flip_y else 1)
        start_x = (sx1 if flip_x else sx0) - dx0 * scale_x
        start_y = (sy1 if flip_y else sy0) - dy0 * scale_y
        rx0, ry0, rx1, ry1 = max(dx0, 0), max(dy0, 0), min(dx1, dw_lvl), min(dy1, dh_lvl)
        if info.scissor is not None:
            sc = info.scissor
            rx0, ry0, rx1, ry1 = max(rx0, sc.minx), max(ry0, sc.miny), min(rx1, sc.maxx), min(ry1, sc.maxy)
        if rx1 <= rx0 or ry1 <= ry0:
            return True
        smp, _ = sampler_descriptor(SamplerState(
            wrap_s=PipeTexWrap.CLAMP_TO_EDGE, wrap_t=PipeTexWrap.CLAMP_TO_EDGE, wrap_r=PipeTexWrap.CLAMP_TO_EDGE,
            min_img_filter=info.filter, mag_img_filter=info.filter, min_mip_filter=PipeTexMipFilter.NONE))
        uniforms = np.array([rx0, ry0, rx1, ry1, scale_x, scale_y, start_x, start_y, 1.0 / sw_lvl, 1.0 / sh_lvl,
                             0.5, 1.0 / sres.samples, sw_lvl - 1, sh_lvl - 1], np.float32).view(np.uint32)
        # a scaled resolve (EXT_framebuffer_multisample_blit_scaled) filters the resolved texels
        bilinear = sres.samples > 1 and scaled and info.filter == PipeTexFilter.LINEAR
        mask = int(info.mask & PipeMask.RGBA)
        # a 3D source blitted to fewer or more slices (a 3D mipmap level): each destination
        # slice samples the source volume at its centre's depth, filtered in depth too
        volume = (sres.template.target == PipeTextureTarget.TEXTURE_3D and sres.samples == 1
                  and sb.depth > 0 and db.depth > 0 and sb.depth != db.depth)
        sd_lvl = sres.level_size_px(src.level)[2]
        tl = make_tile_layout((dname,))
        program = blit_program(tl.slots[0], sres.samples, mask, bilinear, volume)
        for k in range(db.depth if volume else max(1, min(abs(sb.depth), abs(db.depth)))):
            surf = Surface(dres, dst.format, dst.level, db.z + k, db.z + k)
            fb = FramebufferState(dw_lvl, dh_lvl, cbufs=(surf,))
            batch = Batch(self, fb, next(self._serial))
            self.read(batch, sres)
            self.write(batch, dres)
            if volume:
                z = (sb.z + (k + 0.5) * sb.depth / db.depth) / sd_lvl
                src_desc = sres.texture_descriptor(format=sname, target=PipeTextureTarget.TEXTURE_3D,
                                                   first_level=src.level, last_level=src.level)
                slice_uniforms = np.append(uniforms, np.float32(z).view(np.uint32))
            else:
                src_desc = sres.texture_descriptor(format=sname, target=PipeTextureTarget.TEXTURE_2D,
                                                   first_level=src.level, last_level=src.level, first_layer=sb.z + k)
                slice_uniforms = uniforms
            dst_desc = dres.texture_descriptor(format=dname, target=PipeTextureTarget.TEXTURE_2D,
                                               first_level=dst.level, last_level=dst.level, first_layer=db.z + k)
            batch.blit = (program, slice_uniforms, src_desc + dst_desc + src_desc, smp)
            self._submit(batch)
        return True

    def generate_mipmap(self, resource, format, base_level, last_level, first_layer, last_layer) -> bool:
        return False

    def memory_barrier(self, flags: PipeBarrier) -> None:
        self.flush()

    def texture_barrier(self) -> None:
        self.flush()

    def invalidate_resource(self, resource) -> None:
        """glInvalidate*: an attachment of an unsubmitted batch is neither loaded (before its
        draws) nor stored (after them) -- the tiler's saving, as Mesa's agx does."""
        for batch in self.batches.values():
            if batch.fb is None or batch.blit is not None:
                continue
            attached = [s.resource for s in list(batch.fb.cbufs) + [batch.fb.zsbuf] if s is not None]
            if any(r is resource for r in attached):
                if batch.draws or batch.clear:
                    batch.no_store.add(id(resource))
                else:
                    batch.no_load.add(id(resource))

    # ------------------------------------------------------------------ draws and dispatches
    def draw_vbo(self, info: DrawInfo, drawid_offset: int, indirect: IndirectInfo | None,
                 draws: Sequence[DrawStartCountBias]) -> None:
        if not self._render_condition_passes():
            return
        from .encode import encode_draw
        with self._compile_errors_skip("draw"):
            encode_draw(self, info, drawid_offset, indirect, draws)
        self.stats["draws"] += 1
        if "flush" in self.debug:
            self.flush()
        else:
            batch = self.batches.get(self.fb)
            if batch is not None and batch.draws >= MAX_DRAWS_PER_BATCH:
                self._flush_batch(batch)

    def launch_grid(self, info: GridInfo) -> None:
        from .encode import encode_launch
        with self._compile_errors_skip("dispatch"):
            encode_launch(self, info)
        if self.statistics_queries:                   # CS_INVOCATIONS: the threads launched
            grid = info.grid
            if info.indirect is not None:
                self._sync_resource(info.indirect, write=False)
                grid = np.frombuffer(info.indirect.bo.map, np.uint32)[
                    info.indirect_offset_B // 4:info.indirect_offset_B // 4 + 3]
            self.cs_invocations += int(np.prod(info.block)) * int(np.prod(np.asarray(grid, np.int64)))
        self.stats["launches"] += 1
        if "flush" in self.debug:
            self.flush()

    @contextlib.contextmanager
    def _compile_errors_skip(self, what: str):
        """A shader variant the compiler cannot build skips the draw/dispatch and raises
        ShaderVariantError, which the front end reports to the program."""
        try:
            yield
        except Exception as e:
            from .compile import is_compile_error      # imports the compiler only on an error
            if not is_compile_error(e):
                raise
            self.stats["skipped"] += 1
            raise ShaderVariantError(f"{what} skipped: a shader variant failed to compile "
                                     f"({type(e).__name__}: {e})") from e

    # ------------------------------------------------------------------ queries
    def create_query(self, type: PipeQueryType, index: int = 0) -> PipeQuery:
        return AgxQuery(type, index)

    def destroy_query(self, query) -> None:
        if query.slot is not None:
            self._release_slot(query.slot)
            query.slot = None

    def _release_slot(self, slot: int) -> None:
        """A counter slot may be reused once every batch that may add to it has run."""
        self.occlusion_released.append((slot, list(self.batches.values()), self.last_submission))

    def _slot_idle(self, batches, sub) -> bool:
        return all(getattr(b, "submitted", False) and (b.submission is None or b.submission.poll())
                   for b in batches) and (sub is None or sub.poll())

    def _occlusion_slot(self, query) -> None:
        """A fresh counter slot for each begin (no stall: the old one is recycled once idle)."""
        if self.occlusion_bo is None:
            self.occlusion_bo = self.device.bo_create(8 * OCCLUSION_SLOTS, label="occlusion")
            for b in self.batches.values():
                b.occlusion_va = self.occlusion_bo.va
        if query.slot is not None:
            self._release_slot(query.slot)
            query.slot = None
        if not self.occlusion_free:
            for i, (slot, batches, sub) in enumerate(self.occlusion_released):
                if self._slot_idle(batches, sub):
                    del self.occlusion_released[i]
                    self.occlusion_free.append(slot)
                    break
            else:                                   # all in use: wait for the oldest released one
                if not self.occlusion_released:
                    raise MemoryError(f"more than {OCCLUSION_SLOTS} occlusion queries alive")
                slot, batches, sub = self.occlusion_released.pop(0)
                for b in batches:
                    if not getattr(b, "submitted", False):
                        self._flush_batch(b)
                    if b.submission is not None:
                        b.submission.wait()
                if sub is not None:
                    sub.wait()
                self.occlusion_free.append(slot)
        query.slot = self.occlusion_free.pop()

    def set_active_query_state(self, enable: bool) -> None:
        self.queries_paused = not enable

    @property
    def counting_queries(self) -> list:
        """The active queries a draw counts into: none while paused."""
        return [] if self.queries_paused else self.queries_active

    def begin_query(self, query) -> bool:
        t = query.type
        query.result = None
        if t in (PipeQueryType.OCCLUSION_COUNTER, PipeQueryType.OCCLUSION_PREDICATE,
                 PipeQueryType.OCCLUSION_PREDICATE_CONSERVATIVE):
            self._occlusion_slot(query)
            self.occlusion_bo.map[8 * query.slot:8 * query.slot + 8] = bytes(8)
            self.queries_active.append(query)
        elif t == PipeQueryType.TIME_ELAPSED:
            # the GPU time of the commands submitted until end_query, from their feedback
            self.flush()
            query.submissions = []
            self.timer_queries.append(query)
        elif t == PipeQueryType.PIPELINE_STATISTICS:
            self._finish()
            query.begin_value = self._statistic(query.index)
            self.statistics_queries.append(query)
        elif t == PipeQueryType.PRIMITIVES_GENERATED:
            self._finish()
            query.begin_value = self.device.queue_counters(self.queue_id)["primitives"]
        elif t == PipeQueryType.PRIMITIVES_EMITTED:
            query.begin_value = self.so_primitives      # counted when the capturing draws are encoded
        elif t == PipeQueryType.SO_OVERFLOW_PREDICATE:
            query.begin_value = (self.so_primitives, self.so_primitives_needed)
        query.active = True
        return True

    def end_query(self, query) -> bool:
        t = query.type
        query.active = False
        if query in self.queries_active:
            self.queries_active.remove(query)
        if t in (PipeQueryType.TIMESTAMP, PipeQueryType.GPU_FINISHED):
            query.result = None                 # these have no begin: forget the last use's result
        if t == PipeQueryType.TIMESTAMP:
            # when the work so far completes: its last command's end time from the feedback
            # (the kernel's clock, as GET_TIME), or now when nothing is pending; no stall here
            query.submission = self.flush().submission
            query.issued_ns = self.device.timestamp_ns()
        elif t == PipeQueryType.TIME_ELAPSED:
            self.flush()
            if query in self.timer_queries:
                self.timer_queries.remove(query)
            query.submission = "timer"
        elif t == PipeQueryType.PIPELINE_STATISTICS:
            self._finish()
            query.result = self._statistic(query.index) - query.begin_value
            if query in self.statistics_queries:
                self.statistics_queries.remove(query)
        elif t == PipeQueryType.PRIMITIVES_GENERATED:
            self._finish()
            query.result = self.device.queue_counters(self.queue_id)["primitives"] - query.begin_value
        elif t == PipeQueryType.PRIMITIVES_EMITTED:
            query.result = self.so_primitives - getattr(query, "begin_value", self.so_primitives)
        elif t == PipeQueryType.SO_OVERFLOW_PREDICATE:
            # a primitive that did not fit in a bound buffer was not written (GL 4.6 section 13.3.2)
            written, needed = query.begin_value
            query.result = int(self.so_primitives_needed - needed > self.so_primitives - written)
        elif t == PipeQueryType.GPU_FINISHED:
            query.submission = self.flush().submission
        else:
            query.submission = "pending"
        return True

    # Word of each PipeStatistic in the VDM's counters (VDM_STATE_STATISTICS): vertices and
    # primitives submitted, VS invocations, clipper in and out, FS invocations.
    _STATISTICS_WORD = {0: 0, 1: 1, 2: 2, 5: 3, 6: 4, 7: 5}

    def statistics_va(self) -> int:
        """The counters the following draws add to while a statistics query is active
        (0: none); the block is allocated at first use."""
        if not self.statistics_queries:
            return 0
        if self.statistics_bo is None:
            self.statistics_bo = self.device.bo_create(64, label="pipeline statistics")
            self.statistics_bo.map[:64] = bytes(64)
        return self.statistics_bo.va

    def _statistic(self, index: int) -> int:
        """A pipeline-statistics counter now (after _finish): the GPU's counters, the
        compute invocations the driver launched, 0 for the stages this GPU never runs
        (geometry, tessellation: lowered to compute or absent)."""
        word = self._STATISTICS_WORD.get(index)
        if word is not None:
            if self.statistics_bo is None:
                return 0
            return int(np.frombuffer(self.statistics_bo.map[:48], np.uint64)[word])
        return self.cs_invocations if index == 10 else 0

    def _finish(self) -> None:
        fence = self.flush()
        self.screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)

    def get_query_result(self, query, wait: bool):
        t = query.type
        if query.result is not None:
            return query.result
        if t == PipeQueryType.GPU_FINISHED:
            sub = query.submission
            return True if sub is None or (sub.wait() if wait else sub.poll()) else (None if not wait else True)
        if t == PipeQueryType.TIMESTAMP:
            sub = query.submission
            if sub is not None and not (sub.wait() if wait else sub.poll()):
                return None
            ends = [fb["end_ns"] for fb in (sub.feedback if sub is not None else ()) if fb["end_ns"]]
            query.result = max(ends + [query.issued_ns]) if ends else query.issued_ns
            return query.result
        if t == PipeQueryType.TIME_ELAPSED:
            subs = getattr(query, "submissions", [])
            if not wait and not all(s.poll() for s in subs):
                return None
            for s in subs:
                s.wait()
            times = [(fb["start_ns"], fb["end_ns"]) for s in subs for fb in s.feedback if fb["end_ns"]]
            query.result = max(e for _, e in times) - min(b for b, _ in times) if times else 0
            return query.result
        if query.slot is not None:
            fence = self.flush()
            if not wait and not fence.signalled():
                return None
            self.screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
            value = int(np.frombuffer(self.occlusion_bo.map[8 * query.slot:8 * query.slot + 8], np.uint64)[0])
            if t != PipeQueryType.OCCLUSION_COUNTER:
                value = int(value != 0)
            return value
        return 0

    def get_query_result_resource(self, query, wait: bool, result_type, available_only: bool,
                                  resource, offset_B: int) -> bool:
        from .query_buffer import write_query_result
        return write_query_result(self, query, wait, result_type, available_only, resource, offset_B)

    def render_condition(self, query, condition: bool, wait: bool) -> None:
        self.render_cond = None if query is None else (query, condition, wait)

    def render_condition_mem(self, resource, offset_B: int, condition: bool) -> None:
        self.render_cond = ((resource, offset_B), condition, True)

    def _render_condition_passes(self) -> bool:
        """Conditional rendering decided on the CPU from the query's result, as Mesa's
        asahi does (agx_render_condition_check): the hardware has no predicated draws.
        Without ``wait`` (GL's NO_WAIT modes) a result not yet available renders."""
        if self.render_cond is None:
            return True
        query, condition, wait = self.render_cond
        if isinstance(query, tuple):            # render_condition_mem: a word in a buffer
            from driver.gallium import buffer_read
            resource, offset_B = query
            result = struct.unpack("<I", buffer_read(self, resource, offset_B, 4))[0]
        else:
            result = self.get_query_result(query, wait)
        if result is None:
            return True
        return bool(result) != bool(condition)

    def destroy(self) -> None:
        """Finish the context's work, then give back what it owns: the occlusion
        counters and the queue (the GL front end releases its resources first). A queue
        lost to a GPU reset has nothing left to run: its work is dropped, the rest freed."""
        try:
            fence = self.flush()
            self.screen.fence_finish(fence, PIPE_TIMEOUT_INFINITE)
        except Exception as err:        # destroy never fails: say what was lost, free the rest
            warnings.warn(f"shimgl: context destroyed with work that could not run ({err!r})",
                          RuntimeWarning, stacklevel=2)
        if self.occlusion_bo is not None:
            self.occlusion_bo.release()
            self.occlusion_bo = None
        if self.queue_id is not None:
            self._finalizer.detach()
            self._owned_queues.clear()
            self.device.queue_destroy(self.queue_id)
            self.queue_id = None
        self.consts.release()       # batches still in flight hold the slabs they use
        self.feedback.release()


def _destroy_queues(device: Device, queue_ids: list[int], consts: ConstPool, feedback: FeedbackSlots) -> None:
    """The finalizer of a pipe context collected without destroy(): its queue goes,
    its pool of constants and its feedback slots."""
    for queue_id in queue_ids:
        device.queue_destroy(queue_id)
    queue_ids.clear()
    consts.release()
    feedback.release()


# ----------------------------------------------------------------------------- helpers

# PipeClear's bits as plain integers
_DEPTH, _STENCIL, _COLOR0 = int(PipeClear.DEPTH), int(PipeClear.STENCIL), int(PipeClear.COLOR0)
_DEPTHSTENCIL, _COLOR = int(PipeClear.DEPTHSTENCIL), int(PipeClear.COLOR)

# unsigned-integer formats by texel size: bit-exact copies between formats of one size
_RAW_COPY_FORMATS = {1: "R8_UINT", 2: "R16_UINT", 4: "R32_UINT", 8: "R32G32_UINT", 16: "R32G32B32A32_UINT"}


def _surface_name(s: Surface) -> str:
    return s.format.value if s.format.value != "NONE" else s.resource.lay.format


def _clear_words(name: str, color) -> tuple[int, ...]:
    """Raw 32-bit register values the bg program stores: float bits for float
    and normalised formats, integers for integer formats, each clamped to its
    channel's range (a glClearBufferiv of 0x7FFFFFFF clears an R8I image to 127,
    as Mesa's format packing does; the tile store keeps only the low bits).
    Remembered by the format and the colour's exact bits (-0.0 is not 0.0)."""
    key = (name, struct.pack(f"<{len(color)}d", *color))
    words = _CLEAR_WORDS.get(key)
    if words is None:
        words = _clear_words_of(name, color)
        if len(_CLEAR_WORDS) >= 256:
            _CLEAR_WORDS.clear()
        _CLEAR_WORDS[key] = words
    return words


_CLEAR_WORDS: dict = {}


def _clear_words_of(name: str, color) -> tuple[int, ...]:
    fmt = layout.get_format(name)
    if fmt.is_integer:
        words = []
        for letter, c in zip("RGBA", color):
            ch, v = fmt.channel(letter), int(c)
            if ch is not None and ch.type == "SINT":
                v = max(-(1 << ch.bits - 1), min((1 << ch.bits - 1) - 1, v))
            elif ch is not None and ch.type == "UINT":
                v = max(0, min((1 << ch.bits) - 1, v))
            words.append(v & 0xFFFFFFFF)
        return tuple(words)
    return tuple(int(w) for w in np.array([float(c) for c in color], np.float32).view(np.uint32))


def _pack_color(name: str, color) -> bytes:
    fmt = layout.get_format(name)
    rgba = np.array([color], np.int64 if fmt.is_integer else np.float64)
    if not fmt.is_integer:
        rgba = rgba.astype(np.float32)
    return bytes(layout.pack(name, rgba))


def _empty_region(resource, level, box) -> np.ndarray:
    fmt = layout.get_format(layout_format(resource.format))
    w_el = -(-box.width // fmt.block_width_px)
    h_el = -(-box.height // fmt.block_height_px)
    return np.zeros((box.depth, h_el, w_el, fmt.block_size_B * resource.samples), np.uint8)
