"""Replay captured submissions on a fresh kernel (``shimgl replay``).

Sole responsibility: rebuild what each captured submission ran in, through the
kernel's own ioctls as a userspace would (GEM objects of the captured sizes, VMs
with the captured kernel ranges, the VM's mappings at the captured addresses and
permissions, the memory contents, queues with the captured priority and
``usc_exec_base``), submit the captured command buffer, wait for it, and report
each command's feedback; optionally write every render command's colour
attachments as PNG. The kernel is ``drmshim.Kernel()`` with the default executor
(the GPU model when present, else no-ops).

Rules: submissions run one after another in file order (each waits for the
previous one: the captured in-syncs are satisfied by that order and are dropped);
before each, the VM's mappings are made exactly the captured ones and the saved
memory is written (a ``full`` capture restores every object, so replay is exact;
otherwise only the referenced ranges are restored, and a warning says so);
feedback handles are redirected to fresh objects and timestamp requests dropped.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import numpy as np

import uapi

from .fileformat import CaptureFile
from .memimage import MappingInfo, MemoryImage, NotCaptured
from .streams import HEADER_SIZE_B, parse_cmdbuf

__all__ = ["Replayer", "ReplayedSubmit", "submits_of", "image_of_submit", "objects_index", "read_back"]

ffi = uapi.ffi
WAIT_S = 60.0


@dataclass
class ReplayedSubmit:
    position: int  # index among the file's submit records
    seq: int
    status: str = "ok"  # "ok", "rejected: ...", "timeout", "skipped: ..."
    feedback: list[dict] = field(default_factory=list)  # per command with a feedback buffer
    pngs: list[str] = field(default_factory=list)
    vm_key: tuple = ()


def submits_of(capture: CaptureFile) -> list:
    """The submit records, in file order."""
    return capture.of_type("submit")


def objects_index(capture: CaptureFile) -> dict[tuple[int, str], bytes]:
    """(object id, digest) -> content, over the file's object records."""
    out = {}
    for r in capture.of_type("object"):
        gid, digest = r.meta.get("id"), r.meta.get("digest")
        if isinstance(gid, int) and isinstance(digest, str) and "data" in r.blobs:
            out[(gid, digest)] = r.blobs["data"]
    return out


def image_of_submit(record, objects: dict | None = None) -> tuple[MemoryImage, list[str]]:
    """The captured memory of one submit record (and problems found building it);
    ``objects``: what :func:`objects_index` returns (for ``full`` captures)."""
    meta, problems = record.meta, []
    mappings = []
    for i, m in enumerate(meta.get("mappings", []) if isinstance(meta.get("mappings"), list) else []):
        try:
            mappings.append(MappingInfo.from_json(m))
        except (ValueError, TypeError, KeyError, AttributeError) as e:
            problems.append(f"mapping {i}: {e}")
    contents = {}
    for ref in meta.get("objects", []) if isinstance(meta.get("objects"), list) else []:
        if not isinstance(ref, dict) or not isinstance(ref.get("id"), int) or not isinstance(ref.get("digest"), str):
            problems.append(f"malformed object reference {ref!r:.80}")
            continue
        data = (objects or {}).get((ref["id"], ref["digest"]))
        if data is None:
            problems.append(f"object {ref.get('id')} ({ref.get('digest')}) is missing from the file")
        else:
            contents[ref["id"]] = data
    ranges = []
    for i, r in enumerate(meta.get("ranges", []) if isinstance(meta.get("ranges"), list) else []):
        blob = record.blobs.get(f"range{i}")
        va = r.get("va") if isinstance(r, dict) else None
        if blob is None or not isinstance(va, int):
            problems.append(f"range {i} is missing or malformed")
            continue
        ranges.append((va, blob))
    return MemoryImage(mappings, contents, ranges), problems


def _num(d, key, default=0) -> int:
    v = d.get(key, default) if isinstance(d, dict) else default
    return v if isinstance(v, int) and not isinstance(v, bool) else default


class Replayer:
    """One replay: a fresh kernel and one DRM file on it."""

    def __init__(self, capture: CaptureFile, *, kernel=None, log=None):
        import drmshim
        from drmshim.kernel.params import GPU_CONFIGS

        self.capture = capture
        self.log = log or (lambda line: None)
        config = capture.header.get("config") if isinstance(capture.header.get("config"), dict) else {}
        name = config.get("name")
        if kernel is None:
            soft = config.get("soft_faults")
            kernel = drmshim.Kernel(config=name if name in GPU_CONFIGS else None,
                                    soft_faults=soft if isinstance(soft, bool) else None)
        self.kernel = kernel
        self.kernel.hooks.capture.enabled = False  # a replay is not captured again
        self.file = kernel.open("/replay")
        self.objects_index = objects_index(capture)
        self.gems: dict[int, int] = {}      # captured object id -> replay handle
        self.gem_sizes: dict[int, int] = {}
        self.vms: dict[tuple, int] = {}     # (file, vm id) -> replay vm id
        self.vm_ranges: dict[tuple, tuple[int, int]] = {}
        self.vm_mappings: dict[tuple, list] = {}
        self.queues: dict[tuple, int] = {}  # (file, queue id) -> replay queue id
        self.syncobj = self.ioctl("SYNCOBJ_CREATE").handle
        self._keep: list = []

    def close(self) -> None:
        self.kernel.close(self.file)

    # ------------------------------------------------------------- plumbing
    def ioctl(self, name: str, /, **fields):
        spec = next(s for s in uapi.drm.IOCTLS if s.name == f"DRM_IOCTL_{name}")
        arg = ffi.new(f"{spec.struct} *", fields)
        self.kernel.ioctl(self.file, spec.request, arg)
        return arg

    def _buffer(self, data: bytes) -> int:
        buf = ffi.new("char[]", data)
        self._keep.append(buf)
        return int(ffi.cast("uintptr_t", buf))

    def gem(self, gem_id: int, size_B: int) -> int:
        handle = self.gems.get(gem_id)
        if handle is None or self.gem_sizes[gem_id] < size_B:
            handle = self.ioctl("ASAHI_GEM_CREATE", size=max(size_B, 1)).handle
            self.gems[gem_id], self.gem_sizes[gem_id] = handle, size_B
        return handle

    def gem_bytes(self, gem_id: int) -> memoryview:
        handle = self.gems[gem_id]
        offset = self.ioctl("ASAHI_GEM_MMAP_OFFSET", handle=handle).offset
        return self.kernel.mmap(self.file, offset, self.gem_sizes[gem_id])

    def vm(self, meta: dict) -> tuple:
        vm = meta.get("vm", {})
        key = (meta.get("file"), _num(vm, "id"))
        if key not in self.vms:
            start, end = _num(vm, "kernel_start"), _num(vm, "kernel_end")
            self.vms[key] = self.ioctl("ASAHI_VM_CREATE", kernel_start=start, kernel_end=end).vm_id
            self.vm_ranges[key] = (start, end)
            self.vm_mappings[key] = []
        return key

    def queue(self, meta: dict, vm_key: tuple) -> int:
        q = meta.get("queue", {})
        key = (meta.get("file"), _num(q, "id"), vm_key)
        if key not in self.queues:
            self.queues[key] = self.ioctl("ASAHI_QUEUE_CREATE", vm_id=self.vms[vm_key],
                                          priority=_num(q, "priority", uapi.DRM_ASAHI_PRIORITY_MEDIUM),
                                          usc_exec_base=_num(q, "usc_exec_base")).queue_id
        return self.queues[key]

    def _bind(self, vm_id: int, ops: list[dict]) -> None:
        if not ops:
            return
        raw = b"".join(bytes(ffi.buffer(ffi.new("struct drm_asahi_gem_bind_op *", op))) for op in ops)
        self.ioctl("ASAHI_VM_BIND", vm_id=vm_id, num_binds=len(ops),
                   stride=ffi.sizeof("struct drm_asahi_gem_bind_op"), userptr=self._buffer(raw))

    def remap(self, vm_key: tuple, mappings: list[MappingInfo], sizes: dict[int, int]) -> None:
        """Make the VM's mappings exactly ``mappings``."""
        if self.vm_mappings[vm_key] == mappings:
            return
        config = self.kernel.config
        start, end = self.vm_ranges[vm_key]
        vm_id = self.vms[vm_key]
        self._bind(vm_id, [dict(flags=uapi.DRM_ASAHI_BIND_UNBIND, addr=a, range=b - a)
                           for a, b in ((config.vm_start, start), (end, config.vm_end)) if b > a])
        ops = []
        for m in mappings:
            flags = ((uapi.DRM_ASAHI_BIND_READ if m.readable else 0) | (uapi.DRM_ASAHI_BIND_WRITE if m.writable else 0)
                     | (uapi.DRM_ASAHI_BIND_SINGLE_PAGE if m.single_page else 0))
            need = m.gem_offset_B + (self.kernel_page() if m.single_page else m.size_B)
            handle = self.gem(m.gem, max(sizes.get(m.gem, 0), need))
            ops.append(dict(flags=flags, handle=handle, offset=m.gem_offset_B, range=m.size_B, addr=m.va))
        self._bind(vm_id, ops)
        self.vm_mappings[vm_key] = list(mappings)

    def kernel_page(self) -> int:
        return self.kernel.config.page_size_B

    def restore(self, image: MemoryImage) -> None:
        """Write the saved memory into the replay objects."""
        for gem_id, data in image.objects.items():
            if gem_id in self.gems:
                view = self.gem_bytes(gem_id)
                n = min(len(view), len(data))
                view[:n] = bytes(data[:n])
        for va, data in image.ranges:
            pos = 0
            while pos < len(data):
                m = image.mapping_at(va + pos)
                if m is None or m.gem not in self.gems:  # skip to the next mapping (or the end)
                    later = [mm.va for mm in image.mappings if mm.va > va + pos]
                    pos = min(len(data), (min(later) - va) if later else len(data))
                    continue
                stop = min(len(data), m.contiguous_until(va + pos) - va)
                off = m.object_offset(va + pos)
                view = self.gem_bytes(m.gem)
                view[off:off + stop - pos] = data[pos:stop]
                pos = stop

    def rewrite_cmdbuf(self, cmdbuf: bytes, handles: dict) -> tuple[bytes, list[tuple[int, int, int]]]:
        """Redirect feedback handles to replay objects, drop timestamp requests.
        Returns the new buffer and (command index, replay handle, offset) per feedback."""
        out = bytearray()
        feedback = []
        for entry in parse_cmdbuf(cmdbuf):
            if entry.struct is None or entry.error:
                out += cmdbuf[entry.offset_B:entry.offset_B + HEADER_SIZE_B + len(entry.payload)]
                continue
            cmd = entry.struct
            if cmd.feedback_handle:
                h = handles.get(str(cmd.feedback_handle), {})
                gem_id, size_B = _num(h, "gem", -1), _num(h, "size_B")
                if gem_id >= 0:
                    cmd.feedback_handle = self.gem(gem_id, size_B)
                    feedback.append((entry.index, cmd.feedback_handle, cmd.feedback_offset, gem_id))
                else:
                    cmd.feedback_handle = cmd.feedback_size = cmd.feedback_offset = 0
            stamps = [cmd.ts] if entry.kind == "compute" else [cmd.ts_vtx, cmd.ts_frag]
            for ts in stamps:
                for edge in (ts.start, ts.end):
                    edge.handle, edge.offset = 0, 0
            payload = bytes(ffi.buffer(cmd))[:len(entry.payload)]
            out += cmdbuf[entry.offset_B:entry.offset_B + HEADER_SIZE_B] + payload
        return bytes(out), feedback

    # ------------------------------------------------------------- running
    def replay(self, position: int, record, png_dir: str | None = None) -> ReplayedSubmit:
        meta = record.meta
        result = ReplayedSubmit(position, _num(meta, "seq", position))
        if "cmdbuf" not in record.blobs or meta.get("truncated"):
            result.status = "skipped: the record is truncated"
            return result
        image, problems = image_of_submit(record, self.objects_index)
        for p in problems:
            self.log(f"submit {position}: {p}")
        sizes = {}
        for k, v in (meta.get("objects_B") or {}).items() if isinstance(meta.get("objects_B"), dict) else []:
            if isinstance(v, int) and str(k).isdigit():
                sizes[int(k)] = v
        try:
            vm_key = self.vm(meta)
            result.vm_key = vm_key
            self.remap(vm_key, image.mappings, sizes)
            self.restore(image)
            queue_id = self.queue(meta, vm_key)
            cmdbuf, feedback = self.rewrite_cmdbuf(record.blobs["cmdbuf"], meta.get("handles") or {})
            for _, handle, offset, gem_id in feedback:
                view = self.gem_bytes(gem_id)
                size = ffi.sizeof("struct drm_asahi_cmd_feedback")
                view[offset:offset + size] = bytes(min(size, len(view) - offset))
            sync = ffi.new("struct drm_asahi_sync *", {"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ,
                                                        "handle": self.syncobj})
            self._keep.append(sync)
            self.ioctl("ASAHI_SUBMIT", queue_id=queue_id, cmdbuf=self._buffer(cmdbuf), cmdbuf_size=len(cmdbuf),
                       syncs=int(ffi.cast("uintptr_t", sync)), in_sync_count=0, out_sync_count=1)
        except OSError as e:
            result.status = f"rejected: {e}"
            return result
        handles = ffi.new("__u32[]", [self.syncobj])
        try:
            self.ioctl("SYNCOBJ_WAIT", handles=int(ffi.cast("uintptr_t", handles)), count_handles=1,
                       timeout_nsec=time.monotonic_ns() + int(WAIT_S * 1e9))
        except OSError as e:
            result.status = f"timeout: {e}"
            return result
        for index, _handle, offset, gem_id in feedback:
            view = self.gem_bytes(gem_id)
            rec = ffi.new("struct drm_asahi_cmd_feedback *")
            size = min(ffi.sizeof(rec[0]), len(view) - offset)
            ffi.memmove(rec, bytes(view[offset:offset + size]), size)
            result.feedback.append({"command": index, "status": rec.status,
                                    "fault_address": rec.fault_address, "fault_unit": rec.fault_unit,
                                    "flags": rec.flags})
        if png_dir is not None:
            result.pngs = self.write_pngs(record, vm_key, png_dir, position)
        return result

    def memory(self, vm_key: tuple):
        """The replay VM as GPUMemory (reads only), for checks and PNGs."""
        file = self.file
        vm = file.vms.items[self.vms[vm_key]]
        return vm.view([])

    def write_pngs(self, record, vm_key: tuple, png_dir: str, position: int) -> list[str]:
        from .images import colour_targets, descriptor_image, save_png

        os.makedirs(png_dir, exist_ok=True)
        memory = self.memory(vm_key)
        usc_exec_base = _num(record.meta.get("queue", {}), "usc_exec_base")
        paths = []
        for entry in parse_cmdbuf(record.blobs["cmdbuf"]):
            if entry.kind not in ("render", "blit") or entry.struct is None:
                continue
            for label, desc in colour_targets(entry.struct, memory, usc_exec_base):
                try:
                    rgba = descriptor_image(memory, desc)
                except Exception as e:  # noqa: BLE001 - one bad target must not stop the replay
                    self.log(f"submit {position} command {entry.index} {label}: no image ({e})")
                    continue
                path = os.path.join(png_dir, f"submit{position:04d}-cmd{entry.index}-{label}.png")
                save_png(path, rgba)
                paths.append(path)
        return paths

    def run(self, first: int = 0, last: int | None = None, png_dir: str | None = None) -> list[ReplayedSubmit]:
        records = submits_of(self.capture)
        if records and not all(r.meta.get("full") for r in records):
            self.log("warning: this capture is not 'full' (SHIMGL_CAPTURE_OPTS=full): only the memory the "
                     "commands reference is restored, so the replay may differ")
        last = len(records) - 1 if last is None else min(last, len(records) - 1)
        results = []
        for position in range(max(first, 0), last + 1):
            try:
                results.append(self.replay(position, records[position], png_dir))
            except Exception as e:  # noqa: BLE001 - a damaged record must not stop the others
                results.append(ReplayedSubmit(position, -1, f"error: {type(e).__name__}: {e}"))
        return results


def read_back(replayer: Replayer, vm_key: tuple, va: int, size_B: int) -> np.ndarray:
    """Bytes of the replay VM (for tests and tools); raises NotCaptured-like errors when unmapped."""
    try:
        return replayer.memory(vm_key).read(va, size_B, "FW")
    except Exception as e:  # noqa: BLE001
        raise NotCaptured(str(e)) from None

