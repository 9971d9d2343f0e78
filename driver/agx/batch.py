"""Batches and submissions (Mesa's agx_batch.c + agx_batch_submit).

Sole responsibility: collect the work of one framebuffer (a render batch: VDM
stream, clears, loads/stores) or of compute dispatches (a compute batch: CDM
stream), with the resources it reads and writes, and turn it into one SUBMIT
with Mesa's command order and barriers::

    [COMPUTE, barriers (0, 0)]                 if the batch has compute work
    [SET_FRAGMENT_ATTACHMENTS]                 the render targets' memory
    [RENDER, vdm = compute ? NONE : 0, cdm = compute ? 1 : 0]

In-syncs: the syncobjs of earlier submissions that wrote what this batch
touches (or read what it writes), the writers of shared BOs (implicit sync),
and fences from ``fence_server_sync``. Out-sync: a fresh binary syncobj, which
becomes the writer/reader sync of the batch's resources.
"""

from __future__ import annotations

import contextlib
import struct
import threading
from dataclasses import dataclass, field

import numpy as np

import uapi
from driver.gallium import FramebufferState, PipeClear
from uapi import packets as P

from .device import BO, Command, Device
from .packed import packed
from .pool import Pool
from .tilebuffer import TileLayout, clear_program, load_program, make_tile_layout, tile_size_px

__all__ = ["FEEDBACK_B", "Batch", "Submission", "framebuffer_tile_layout", "hold_all"]

NONE = uapi.DRM_ASAHI_BARRIER_NONE
_retire_lock = threading.Lock()


FEEDBACK_B = uapi.ffi.sizeof("struct drm_asahi_cmd_feedback")
# the words of a RENDER payload each batch writes into the packed fields it shares
_RENDER_VDM_AT = uapi.ffi.offsetof("struct drm_asahi_cmd_render", "vdm_ctrl_stream_base")
_RENDER_FEEDBACK_AT = uapi.ffi.offsetof("struct drm_asahi_cmd_render", "feedback_handle")
assert uapi.ffi.offsetof("struct drm_asahi_cmd_render", "feedback_offset") == _RENDER_FEEDBACK_AT + 8
_FEEDBACK_RECORD = uapi.drm.record_format("struct drm_asahi_cmd_feedback")
_FEEDBACK_NAMES = tuple(name for name, _ in uapi.ffi.typeof("struct drm_asahi_cmd_feedback").fields)
(_STATUS_AT, _PARTIAL_RENDERS_AT, _START_AT, _END_AT, _FLAGS_AT, _FAULT_ADDRESS_AT, _FAULT_UNIT_AT) = (
    _FEEDBACK_NAMES.index(name) for name in ("status", "partial_renders", "start_ns", "end_ns", "flags",
                                             "fault_address", "fault_unit"))
STATUS_NAMES = {getattr(uapi, n): n[len("DRM_ASAHI_STATUS_"):] for n in dir(uapi) if n.startswith("DRM_ASAHI_STATUS_")}
UNIT_NAMES = {getattr(uapi, n): n[len("DRM_ASAHI_UNIT_"):] for n in dir(uapi) if n.startswith("DRM_ASAHI_UNIT_")}


class Submission:
    """One SUBMIT: its out-syncobj, what must live until it completes, and where the
    kernel writes each command's feedback (read at retirement: ``feedback``).

    The syncobj handle is owned by the submission and shared by every thread that
    waits on it, exports it or names it as an in-sync of a later SUBMIT. Those uses
    hold the handle (``hold``) for the length of their ioctl; retirement destroys the
    syncobj only once nobody holds it (else the last holder does), so no ioctl ever
    names a destroyed handle. A retired submission hands out no handle: it has
    signalled, and there is nothing left to wait for."""

    def __init__(self, device: Device, handle: int, pools: list[Pool], bos: list[BO], label: str,
                 feedback_slots=(), on_retire=None, reuse_syncobj: bool = False):
        """``reuse_syncobj``: the handle came from ``Device.syncobj_take`` and goes back
        there once retired and released by every holder (else it is destroyed)."""
        self.device, self.handle, self.pools, self.bos, self.label = device, handle, pools, bos, label
        self.reuse_syncobj = reuse_syncobj
        self.feedback_slots = list(feedback_slots)      # (kind, bo, offset_B)
        self.feedback: list[dict] = []
        self.on_retire = on_retire
        self.done = False
        self._lock = threading.Lock()       # guards done, _holders, _destroyed
        self._holders = 0
        self._destroyed = False

    @contextlib.contextmanager
    def hold(self):
        """The syncobj handle, kept alive until the block ends; None once retired."""
        handle = self._take()
        try:
            yield handle
        finally:
            if handle is not None:
                self._drop()

    def _take(self) -> int | None:
        """Hold the handle (None once retired: nothing held)."""
        with self._lock:
            if self.done:
                return None
            self._holders += 1
            return self.handle

    def _drop(self) -> None:
        """Release a hold from ``_take``: the last holder of a retired submission
        destroys (or gives back) its syncobj."""
        with self._lock:
            self._holders -= 1
            destroy = self.done and self._holders == 0 and not self._destroyed
            self._destroyed |= destroy
        if destroy:
            self._release_syncobj()

    def _release_syncobj(self) -> None:
        if self.reuse_syncobj:
            self.device.syncobj_give_back(self.handle)
        else:
            self.device.syncobj_destroy(self.handle)

    def poll(self) -> bool:
        return self.wait(0)

    def wait(self, timeout_ns: int = -1) -> bool:
        """Wait up to timeout_ns (< 0: forever, 0: poll); True once completed (and retired)."""
        if self.done:               # set once, never unset
            return True
        handle = self._take()       # (hold() without a generator: every glFinish comes here)
        if handle is None:
            return True
        try:
            signalled = self.device.syncobj_wait_one(handle, timeout_ns)
        finally:
            self._drop()
        if signalled:
            self.retire()
        return self.done

    def retire(self) -> None:
        """Completed: read the feedback, release the batch's memory and the syncobj. Runs
        once, in whichever thread notices first; ``done`` is set when everything is read."""
        with _retire_lock:
            if self.done:
                return
            for kind, bo, off in self.feedback_slots:
                fb = _FEEDBACK_RECORD.unpack_from(bo.map, off)
                status = fb[_STATUS_AT]
                entry = {"kind": kind, "status": STATUS_NAMES.get(status, str(status)),
                         "partial_renders": fb[_PARTIAL_RENDERS_AT], "start_ns": fb[_START_AT],
                         "end_ns": fb[_END_AT]}
                if fb[_FLAGS_AT] & uapi.DRM_ASAHI_FEEDBACK_FAULT_VALID:
                    unit = fb[_FAULT_UNIT_AT]
                    entry["fault"] = (fb[_FAULT_ADDRESS_AT], UNIT_NAMES.get(unit, str(unit)))
                self.feedback.append(entry)
            with self._lock:
                self.done = True
                destroy = self._holders == 0 and not self._destroyed
                self._destroyed |= destroy
            if self.on_retire is not None:
                self.on_retire(self)
            for pool in self.pools:
                if pool.bos:
                    pool.release()
            if self.bos:
                self.device.bo_release_all(self.bos)
            self.pools, self.bos = [], []
        if destroy:
            self._release_syncobj()

    def __repr__(self):
        return f"<Submission {self.label} {'done' if self.done else 'pending'}>"


def hold_all(stack: contextlib.ExitStack, submissions) -> list[int]:
    """The handles of the submissions not yet retired, each held until ``stack`` closes."""
    handles = (stack.enter_context(s.hold()) for s in submissions)
    return [h for h in handles if h is not None]


_TILE_LAYOUTS: dict = {}     # id(fb) -> (fb, its tile layout): a framebuffer's batch after batch


def framebuffer_tile_layout(fb: FramebufferState) -> TileLayout:
    """The tile record of a framebuffer's colour surfaces (spilled ones included)."""
    known = _TILE_LAYOUTS.get(id(fb))
    if known is not None and known[0] is fb:
        return known[1]
    tl = make_tile_layout(tuple(None if s is None else _surface_format(s) for s in fb.cbufs),
                          max(1, fb.samples or 1))
    if len(_TILE_LAYOUTS) >= 64:
        _TILE_LAYOUTS.clear()
    _TILE_LAYOUTS[id(fb)] = (fb, tl)
    return tl


@dataclass(eq=False)
class Batch:
    """Unsubmitted work. ``fb`` is None for a compute batch."""
    ctx: object
    fb: FramebufferState | None
    serial: int
    pool: Pool = None
    usc_pool: Pool = None
    vdm: bytearray = field(default_factory=bytearray)
    cdm: bytearray = field(default_factory=bytearray)
    draws: int = 0
    launches: int = 0
    clear: int = 0                                  # PipeClear bits handled by the bg program / ZLS
    clear_color: dict = field(default_factory=dict)   # rt -> 4 raw 32-bit words
    clear_depth: float = 1.0
    clear_stencil: int = 0
    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    bo_refs: dict = field(default_factory=dict)     # id(bo) -> bo (one reference each)
    occlusion_va: int = 0
    clear_rect: tuple | None = None                 # scissored colour clear: (x0, y0, x1, y1) px
    blit: tuple | None = None                       # (program, uniforms, textures, samplers) of a BLIT command
    feedback_slots: list = field(default_factory=list)
    submitted: bool = False
    submission: object = None                       # its Submission once submitted (None if it was empty)
    no_load: set = field(default_factory=set)       # attachments whose contents were invalidated before any draw
    no_store: set = field(default_factory=set)      # ... after the draws: nothing to store
    zs_access: int = 0                              # PipeClear.DEPTH/STENCIL: planes some draw tests (reads and writes)
    usc_cache: dict = field(default_factory=dict)   # USC words content -> address (this batch's pools)
    ppp_cache: dict = field(default_factory=dict)   # (PPP entry, fs words) / ("state", bytes) -> (address, words)
    index_cache: dict = field(default_factory=dict)  # a non-indexed quad/adjacency range -> its triangle list's upload

    def __post_init__(self):
        dev = self.ctx.device
        self.pool = Pool(dev, label="batch")
        self.usc_pool = Pool(dev, usc=True, label="batch usc")
        if self.fb is not None:
            self.tile = framebuffer_tile_layout(self.fb)
        self.label = f"batch{self.serial}"

    @property
    def is_compute(self) -> bool:
        return self.fb is None

    @property
    def empty(self) -> bool:
        return not (self.draws or self.launches or self.clear or self.blit)

    def use(self, resource, write: bool = False) -> None:
        """Record that this batch reads (or writes) ``resource`` and keep its BO alive."""
        bo = resource.bo
        if id(bo) not in self.bo_refs:
            bo.ref()
            self.bo_refs[id(bo)] = bo
        if write:
            self.writes.add(resource)
            resource.writer = self
        else:
            self.reads.add(resource)
            resource.readers.add(self)

    def keep(self, bo: BO) -> None:
        if id(bo) not in self.bo_refs:
            bo.ref()
            self.bo_refs[id(bo)] = bo

    # ------------------------------------------------------------------ render command
    def _samples(self) -> int:
        return max(1, self.fb.samples or 1)

    def _attachments(self):
        fb = self.fb
        for i, s in enumerate(fb.cbufs):
            if s is not None:
                yield i, s

    @staticmethod
    def surface_view(s) -> bytes:
        """TEXTURE descriptor of a framebuffer surface: its level and layer, as the tile
        programs load it and spilled targets are read and written."""
        return s.resource.texture_descriptor(format=_surface_format(s), first_level=s.level,
                                             last_level=s.level, first_layer=s.first_layer)

    def render_fields(self) -> dict:
        """The RENDER command's fields (but the feedback). Those of a batch with the
        inputs of an earlier one (framebuffer, its memory, clears, loads and stores)
        are that batch's, kept in the context's ``ConstPool`` with the blobs they name."""
        fields = dict(self._render_memo()[0])
        if self.vdm:
            fields["vdm_ctrl_stream_base"] = self._vdm_stream()
        return fields

    def _render_memo(self) -> tuple[dict, bytes]:
        """(fields, their packed RENDER payload with no VDM stream and no feedback):
        remembered by the inputs (``_fields_key``) unless the batch is a blit."""
        if self.blit is not None:
            fields = self._render_fields(self)
            return fields, Command.render(fields, NONE, NONE, blit=True).payload
        consts = self.ctx.consts
        key = self._fields_key()
        got = consts.recall(key, self)
        if got is None:
            generation = consts.generation
            holder = _Holder(self)
            fields = self._render_fields(holder)
            got = (fields, Command.render(fields, NONE, NONE).payload)
            consts.memo(key, got, holder.bos, generation)
        return got

    def _vdm_stream(self) -> int:
        return self.pool.upload(bytes(self.vdm) + packed("VDM_TERMINATE"), 64)

    def _fields_key(self) -> tuple:
        """Everything ``_render_fields`` reads (but the VDM stream and a blit): the
        framebuffer, each attachment's memory (a resource's BO changes with its layout,
        ``AgxResource.decompress``), the clears and the loads and stores left out."""
        fb = self.fb
        memory = tuple(None if s is None else s.resource.bo for s in fb.cbufs)
        return ("render fields", fb, memory, None if fb.zsbuf is None else fb.zsbuf.resource.bo,
                self.clear, tuple(self.clear_color.items()), self.clear_rect,     # (the words are tuples)
                struct.pack("<f", self.clear_depth), self.clear_stencil, self.zs_access,
                frozenset(self.no_load), frozenset(self.no_store), self.occlusion_va)

    def _render_fields(self, user) -> dict:
        """``render_fields`` built afresh; ``user`` keeps the constant pool's slabs."""
        fb = self.fb
        samples = self._samples()
        tl: TileLayout = self.tile
        tile_px = tile_size_px(tl.record_B, samples)
        color_clear = (self.clear >> 2) & 0xFF
        color_present = sum(1 << i for i, _ in self._attachments())
        # spilled targets live in their images: never loaded into or stored from tile memory
        spilled = sum(1 << i for i, slot in enumerate(tl.slots) if slot is not None and slot.spilled)
        load_mask = color_present & ~color_clear & ~spilled & ~sum(
            1 << i for i, s in self._attachments() if id(s.resource) in self.no_load)
        uniforms = np.zeros(40, np.uint32)
        for i, words in self.clear_color.items():
            uniforms[4 * i:4 * i + 4] = words
        rect = self.clear_rect is not None
        if rect:
            uniforms[32:37] = np.array(list(self.clear_rect) + [0.5], np.float32).view(np.uint32)
        # background: clear or load each render target
        view = self.surface_view
        written = color_clear & color_present & spilled      # cleared in their images by the bg program
        loads = b"".join(view(s) if s is not None and ((load_mask | written) >> i & 1 or rect)
                         else bytes(P.TEXTURE_DESC_B) for i, s in enumerate(fb.cbufs))
        everything = b"".join(view(s) if s is not None else bytes(P.TEXTURE_DESC_B) for s in fb.cbufs)
        if self.blit is not None:
            program, blit_uniforms, blit_textures, blit_samplers = self.blit
            bg = self._pipeline(user, program, blit_uniforms, blit_textures, samplers=blit_samplers)
        else:
            bg = self._pipeline(user, clear_program(tl, color_clear & color_present, load_mask, samples, rect),
                                uniforms, loads if load_mask or written or rect else b"")
        partial_bg = self._pipeline(user, load_program(tl, samples), None, everything) if color_present else 0
        pbe = [(tl.slots[i].offset_B, s.resource.pbe_descriptor(s.level, s.first_layer, _surface_format(s)))
               for i, s in self._attachments() if id(s.resource) not in self.no_store and not spilled >> i & 1]
        eot = self._pipeline(user, None, None, b"", pbe=pbe)
        fields = {
            "width_px": fb.width_px, "height_px": fb.height_px, "layers": 1, "samples": samples,
            "utile_width_px": tile_px, "utile_height_px": tile_px, "sample_size_B": tl.record_B,
            "bg": {"usc": bg}, "eot": {"usc": eot}, "partial_bg": {"usc": partial_bg}, "partial_eot": {"usc": eot},
            "isp_bgobjdepth": struct.unpack("<I", struct.pack("<f", self.clear_depth))[0],
            "isp_bgobjvals": self.clear_stencil & 0xFF,
            "isp_merge_upper_x": struct.unpack("<I", struct.pack("<f", 1.732051 / max(fb.width_px, 1)))[0],
            "isp_merge_upper_y": struct.unpack("<I", struct.pack("<f", 1.732051 / max(fb.height_px, 1)))[0],
            "isp_oclqry_base": self.occlusion_va,
        }
        if self.clear:
            fields["flags"] = uapi.DRM_ASAHI_RENDER_PROCESS_EMPTY_TILES     # every tile runs bg/eot
        zs = fb.zsbuf
        if zs is not None:
            # As Mesa's agx: a plane is loaded only when some draw tests it (and it was not
            # cleared), and stored only when a draw may have written it or it was cleared.
            res = zs.resource
            zls = {}
            if "depth" in res.planes:
                pl = res.planes["depth"]
                cleared = bool(self.clear & PipeClear.DEPTH)
                used = bool(self.zs_access & PipeClear.DEPTH)
                zls.update(depth_load=used and not cleared and id(res) not in self.no_load,
                           depth_store=(used or cleared) and id(res) not in self.no_store, depth_clear=cleared,
                           depth_format=P.ZFormat.Z16_UNORM if pl.lay.format == "Z16_UNORM" else P.ZFormat.Z32_FLOAT,
                           depth_tiling=_TILING[pl.lay.tiling])
                fields["depth"] = {"base": res.va + pl.offset_B + pl.lay.layer_level_B(zs.first_layer, zs.level),
                                   "stride": pl.lay.linear_stride_B if pl.lay.tiling == "linear" else 0}
            if "stencil" in res.planes:
                pl = res.planes["stencil"]
                cleared = bool(self.clear & PipeClear.STENCIL)
                used = bool(self.zs_access & PipeClear.STENCIL)
                zls.update(stencil_load=used and not cleared and id(res) not in self.no_load,
                           stencil_store=(used or cleared) and id(res) not in self.no_store, stencil_clear=cleared,
                           stencil_tiling=_TILING[pl.lay.tiling])
                fields["stencil"] = {"base": res.va + pl.offset_B + pl.lay.layer_level_B(zs.first_layer, zs.level),
                                     "stride": pl.lay.linear_stride_B if pl.lay.tiling == "linear" else 0}
            fields["zls_ctrl"] = int.from_bytes(packed("ZLS_CONTROL", **zls), "little")
        return fields

    def _pipeline(self, user, program: bytes | None, uniforms, textures: bytes, pbe=(), samplers: bytes = b"") -> int:
        """USC words (in the USC heap) for a bg/eot program; returns the offset from
        usc_exec_base. The words and what they name are the same bytes batch after batch
        (a clear's colour, a framebuffer's descriptors): they come from the context's
        ``ConstPool``, uploaded once; ``user`` (this batch, or a ``_Holder`` of it)
        keeps their slabs."""
        u = None if uniforms is None else np.ascontiguousarray(uniforms, np.uint32).tobytes()
        key = ("usc words", program, u, textures, tuple(pbe), samplers)
        consts = self.ctx.consts
        offset = consts.recall(key, user)
        if offset is not None:
            return offset
        generation = consts.generation
        holder = _Holder(user)
        words = []
        if program is not None:
            code = consts.upload(program, 64, holder, usc=True)
            words.append(packed("USC_SHADER", register_count=16, code=code))
        if u is not None:
            words.append(packed("USC_UNIFORM", start_halves=0, size_halves=len(u) // 2,
                                buffer=consts.upload(u, 16, holder)))
        if textures:
            words.append(packed("USC_TEXTURE", start=0, count=len(textures) // P.TEXTURE_DESC_B,
                                table=consts.upload(bytes(textures), 64, holder)))
        if samplers:
            words.append(packed("USC_SAMPLER", start=0, count=len(samplers) // P.SAMPLER_DESC_B,
                                table=consts.upload(bytes(samplers), 64, holder)))
        for offset_B, desc in pbe:
            words.append(packed("USC_PBE", tile_offset_B=offset_B, descriptor=consts.upload(bytes(desc), 64, holder)))
        words.append(packed("USC_END"))
        offset = consts.upload(b"".join(words), 64, holder, usc=True) - self.ctx.device.usc_base
        consts.memo(key, offset, holder.bos, generation)
        return offset

    def _feedback_slot(self, kind: str) -> tuple[int, int]:
        """A zeroed feedback record for one command, from the context's ring (given
        back when the submission retires): (GEM handle, offset_B)."""
        bo, off = self.ctx.feedback.take(self)
        self.feedback_slots.append((kind, bo, off))
        return bo.handle, off

    def commands(self) -> list[Command]:
        cmds = []
        self.feedback_slots = []
        compute = bool(self.cdm)
        if compute:
            stream = self.pool.upload(bytes(self.cdm) + packed("CDM_TERMINATE"), 64)
            handle, off = self._feedback_slot("compute")
            cmds.append(Command.compute({"cdm_ctrl_stream_base": stream,
                                         "cdm_ctrl_stream_end": stream + len(self.cdm) + 4,
                                         "feedback_handle": handle, "feedback_size": FEEDBACK_B,
                                         "feedback_offset": off}, 0, 0))
        if self.fb is not None:
            atts = [(s.resource.va, s.resource.alloc_B) for s in self.fb.cbufs if s is not None]
            if self.fb.zsbuf is not None:
                atts.append((self.fb.zsbuf.resource.va, self.fb.zsbuf.resource.alloc_B))
            if atts:
                cmds.append(Command.attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, atts))
            # the packed fields of an earlier batch with these inputs, and this batch's words
            payload = bytearray(self._render_memo()[1])
            if self.vdm:
                struct.pack_into("<Q", payload, _RENDER_VDM_AT, self._vdm_stream())
            handle, off = self._feedback_slot("blit" if self.blit is not None else "render")
            struct.pack_into("<IIQ", payload, _RENDER_FEEDBACK_AT, handle, FEEDBACK_B, off)
            kind = uapi.DRM_ASAHI_CMD_BLIT if self.blit is not None else uapi.DRM_ASAHI_CMD_RENDER
            cmds.append(Command(kind, bytes(payload), NONE if compute else 0, 1 if compute else NONE))
        return cmds


class _Holder:
    """A batch's ``keep`` (or another holder's) that also lists the slabs kept (what a
    ``ConstPool`` memo needs)."""
    __slots__ = ("user", "bos")

    def __init__(self, user):
        self.user, self.bos = user, []

    def keep(self, bo: BO) -> None:
        self.user.keep(bo)
        if not any(b is bo for b in self.bos):
            self.bos.append(bo)


_TILING = {"linear": P.Tiling.LINEAR, "twiddled": P.Tiling.TWIDDLED,
           "twiddled_compressed": P.Tiling.TWIDDLED_COMPRESSED}


def _surface_format(s) -> str:
    return s.format.value if s.format.value != "NONE" else s.resource.lay.format
