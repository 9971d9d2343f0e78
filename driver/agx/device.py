"""The device layer (Mesa's agx_device + agx_bo, libdrm-like) over the uapi seam.

Sole responsibility: everything the rest of the driver needs from the kernel,
each ioctl in one place: open and GET_PARAMS, the VM and its address-space plan,
buffer objects (GEM_CREATE, mmap, VA from a heap with a guard page, VM_BIND
READ|WRITE) with a BO cache, DRM sync objects (create, wait with timeout,
signal, reset, export/import), queues, submits and the GPU clock.

Address-space plan (after agx_device.c; addresses in bytes):

- [vm_start, 2^36): reserved, never mapped, so small garbage pointers fault;
- 2^32: a read-only zero page (robust reads of unbound buffers land there);
- [2^36, 2^36 + 4 GiB): the USC heap; its base is the queue's ``usc_exec_base``
  (shader binaries and the bg/eot pipelines whose offsets are 32-bit);
- [2^36 + 4 GiB, kernel_start): the user heap (everything else);
- [kernel_start, vm_end): the kernel's range, max(vm_kernel_min_size, 32 GiB)
  at the top of the VM.

Never imports drmshim: the kernel is reached only through ``uapi.open/ioctl/mmap``.
"""

from __future__ import annotations

import errno
import gc
import mmap
import threading
import time
import warnings
from collections import deque
from dataclasses import dataclass, field

import layout
import uapi

from .heap import VAHeap

__all__ = ["BO", "BOCache", "Device", "Command", "debug_flags", "ffi", "release_when_safe", "release_deferred"]

ffi = uapi.ffi
PAGE_B = layout.PAGE_B
GUARD_B = PAGE_B                    # one unmapped page after every BO
USC_HEAP_B = 4 << 30
RESERVED_LOW_B = 1 << 36
ZERO_PAGE_VA = 1 << 32
KERNEL_RANGE_MIN_B = 32 << 30
RW = uapi.DRM_ASAHI_BIND_READ | uapi.DRM_ASAHI_BIND_WRITE
INFINITE = -1


def debug_flags() -> set[str]:
    """The comma-separated words of SHIMGL_DEBUG (sync: wait after every submit;
    flush: flush after every draw)."""
    return uapi.debug_flags()


def _ptr(cdata) -> int:
    return int(ffi.cast("uintptr_t", cdata))


# ---------------------------------------------------------------- collected objects
# A context the program drops without destroying it is released by a finalizer
# (weakref.finalize). When its last reference goes (a ``del``, a function's end) the
# finalizer runs there and then, in the program's thread between two statements, and
# releases everything at once. The cyclic garbage collector, though, may run inside
# any allocation of any thread - a firmware thread holding the GPU, or the driver in
# the middle of updating a BO cache or a handle table: a release from there could
# deadlock or corrupt them. So during a collection releases are queued, and run at
# the next safe point: the next context's creation (AgxContext.__init__, which holds
# no driver lock then) or release_deferred().
_collecting = 0
_deferred: deque = deque()


def _gc_phase(phase: str, info: dict) -> None:
    global _collecting
    _collecting = _collecting + 1 if phase == "start" else max(0, _collecting - 1)


gc.callbacks.append(_gc_phase)


def release_when_safe(release, *args) -> None:
    """Run ``release(*args)`` now, or at the next safe point when the cyclic garbage
    collector is running (see above). For finalizers of driver objects."""
    if _collecting:
        _deferred.append((release, args))
    else:
        _release(release, args)


def release_deferred() -> int:
    """Run the releases queued during garbage collections; how many ran."""
    count = 0
    while True:
        try:
            release, args = _deferred.popleft()
        except IndexError:
            return count
        _release(release, args)
        count += 1


def _release(release, args) -> None:
    try:
        release(*args)
    except Exception as error:      # a finalizer has no caller to raise to: say what was lost
        warnings.warn(f"shimgl: releasing a collected object failed ({error!r})", RuntimeWarning, stacklevel=2)


def _page_align(size_B: int) -> int:
    return max(PAGE_B, -(-size_B // PAGE_B) * PAGE_B)


@dataclass(eq=False)
class BO:
    """A GEM object mapped into the device's VM and the CPU.

    ``map`` is a writable memoryview of the whole object (the kernel's pages:
    writes are seen by the GPU). ``writer``: (queue id, syncobj handle) of the last
    submission that wrote it, for implicit sync of shared BOs. Compared by identity."""
    device: "Device"
    handle: int
    size_B: int
    va: int
    map: memoryview
    heap: str                       # "user" or "usc"
    shared: bool = False
    label: str = ""
    writer: tuple[int, int] | None = None
    writer_submission: object = None     # the Submission behind ``writer`` (implicit sync)
    idle_since: float = 0.0
    freed: bool = False
    refs: int = field(default=1)
    parent: "BO | None" = None       # a view's BO (``Device.bo_view``): the object it is a range of

    def __repr__(self):
        return f"<BO {self.handle} {self.label} 0x{self.va:x}+{self.size_B}>"

    @property
    def usc_offset(self) -> int:
        """The 32-bit offset from usc_exec_base (USC heap BOs only)."""
        assert self.heap == "usc", f"{self} is not in the USC heap"
        return self.va - self.device.usc_base

    def write(self, offset_B: int, data) -> None:
        raw = data if isinstance(data, (bytes, bytearray, memoryview)) else memoryview(data).cast("B")
        n = len(raw) if not isinstance(raw, memoryview) else raw.nbytes
        self.map[offset_B:offset_B + n] = raw

    def ref(self) -> None:
        """One more reference. Under the device lock, as releases may run in any thread
        (submissions retire in whichever thread notices): an unlocked ``refs += 1`` could
        lose a concurrent decrement or be lost to it."""
        with self.device.lock:
            self.refs += 1

    def release(self) -> None:
        """Give the BO back (to the cache when it is cacheable)."""
        self.device.bo_release(self)


class BOCache:
    """Idle BOs for reuse, in power-of-two buckets from 16 KiB to 4 MiB (agx_bo.c).

    A request takes a BO of its bucket that is at most twice its size; entries idle
    for longer than ``max_idle_s`` are freed; shared BOs are never cached, nor BOs
    larger than the last bucket."""

    MIN_BUCKET_B = 16 << 10
    MAX_BUCKET_B = 4 << 20

    def __init__(self, max_idle_s: float = 1.5):
        self.max_idle_s = max_idle_s
        self.buckets: dict[tuple[str, int], list[BO]] = {}
        self.hits = self.misses = 0
        self.size_B = 0

    @classmethod
    def bucket_of(cls, size_B: int) -> int | None:
        if size_B > cls.MAX_BUCKET_B:
            return None
        b = cls.MIN_BUCKET_B
        while b < size_B:
            b <<= 1
        return b

    def take(self, size_B: int, heap: str) -> BO | None:
        bucket = self.bucket_of(size_B)
        if bucket is None:
            return None
        entries = self.buckets.get((heap, bucket), [])
        for i, bo in enumerate(entries):
            if size_B <= bo.size_B <= 2 * size_B:
                del entries[i]
                self.size_B -= bo.size_B
                self.hits += 1
                return bo
        self.misses += 1
        return None

    def put(self, bo: BO) -> bool:
        bucket = self.bucket_of(bo.size_B)
        if bucket is None or bo.shared:
            return False
        bo.idle_since = time.monotonic()
        self.buckets.setdefault((bo.heap, bucket), []).append(bo)
        self.size_B += bo.size_B
        return True

    def evict(self, now: float | None = None, everything: bool = False) -> list[BO]:
        """Remove and return the entries idle too long (all with ``everything``)."""
        now = time.monotonic() if now is None else now
        out = []
        for key, entries in self.buckets.items():
            keep = []
            for bo in entries:
                (out if everything or now - bo.idle_since > self.max_idle_s else keep).append(bo)
            self.buckets[key] = keep
        self.size_B -= sum(bo.size_B for bo in out)
        return out


@dataclass
class Command:
    """One command of a submission: header fields and the payload bytes."""
    cmd_type: int
    payload: bytes
    vdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE
    cdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE

    def encode(self) -> bytes:
        key = (self.cmd_type, len(self.payload), self.vdm_barrier, self.cdm_barrier)
        head = _PACKED_HEADERS.get(key)
        if head is None:
            head = bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_header *", {
                "cmd_type": self.cmd_type, "size": len(self.payload),
                "vdm_barrier": self.vdm_barrier, "cdm_barrier": self.cdm_barrier})))
            _remember(_PACKED_HEADERS, key, head)
        return head + self.payload

    @classmethod
    def render(cls, fields: dict, vdm_barrier: int, cdm_barrier: int, blit: bool = False) -> "Command":
        payload = bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_render *", fields)))
        kind = uapi.DRM_ASAHI_CMD_BLIT if blit else uapi.DRM_ASAHI_CMD_RENDER
        return cls(kind, payload, vdm_barrier, cdm_barrier)

    @classmethod
    def compute(cls, fields: dict, vdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE,
                cdm_barrier: int = uapi.DRM_ASAHI_BARRIER_NONE) -> "Command":
        payload = bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_compute *", fields)))
        return cls(uapi.DRM_ASAHI_CMD_COMPUTE, payload, vdm_barrier, cdm_barrier)

    @classmethod
    def attachments(cls, cmd_type: int, records) -> "Command":
        """SET_*_ATTACHMENTS: (va, size_B) of the memory the next command renders to."""
        key = (cmd_type, tuple(records))
        payload = _PACKED_ATTACHMENTS.get(key)
        if payload is None:
            payload = b"".join(bytes(ffi.buffer(ffi.new("struct drm_asahi_attachment *",
                                                        {"pointer": va, "size": size})))
                               for va, size in records)
            _remember(_PACKED_ATTACHMENTS, key, payload)
        return cls(cmd_type, payload)


# packed command headers and attachment lists by their fields: the same few, submit after submit
_PACKED_HEADERS: dict = {}
_PACKED_ATTACHMENTS: dict = {}


def _remember(memo: dict, key, value) -> None:
    if len(memo) >= 256:
        memo.clear()
    memo[key] = value


class Device:
    """One open DRM render node with its VM, heaps, BO cache and a queue."""

    def __init__(self, path: str = "/dev/dri/renderD128"):
        self.path = path
        self.fd = uapi.open(path)
        self.lock = threading.RLock()
        self.debug = debug_flags()
        self.params = self._get_params()
        p = self.params
        self.timestamp_hz = int(p.command_timestamp_frequency_hz) or 1_000_000_000
        self.max_commands = int(p.max_commands_per_submission)
        # -- address-space plan
        vm_start = -(-int(p.vm_start) // PAGE_B) * PAGE_B
        vm_end = int(p.vm_end) // PAGE_B * PAGE_B
        kernel_size = -(-max(int(p.vm_kernel_min_size), KERNEL_RANGE_MIN_B) // PAGE_B) * PAGE_B
        self.kernel_start, self.kernel_end = vm_end - kernel_size, vm_end
        self.usc_base = max(RESERVED_LOW_B, vm_start)
        assert self.usc_base + USC_HEAP_B < self.kernel_start, "the VM is too small for the address-space plan"
        self.usc_heap = VAHeap(self.usc_base, self.usc_base + USC_HEAP_B)
        self.user_heap = VAHeap(self.usc_base + USC_HEAP_B, self.kernel_start)
        self.vm_id = self.ioctl("ASAHI_VM_CREATE", kernel_start=self.kernel_start,
                                kernel_end=self.kernel_end).vm_id
        self.cache = BOCache()
        self._spare_syncobjs: list[int] = []     # signalled out-syncs of retired submissions
        self.bos: dict[int, BO] = {}
        self.bo_allocs = 0
        self._zero_page()
        self._queue_id: int | None = None    # the device's own queue, made on first use

    @property
    def queue_id(self) -> int:
        """The device's own queue (submissions without a queue_id). Made on first
        use: the GL driver submits only on its contexts' queues, and each queue
        costs the kernel a scheduler thread."""
        with self.lock:
            if self._queue_id is None:
                self._queue_id = self.queue_create()
            return self._queue_id

    # ------------------------------------------------------------------ ioctls
    def ioctl(self, name: str, /, **fields):
        """Issue DRM_IOCTL_<name> with a fresh struct filled from ``fields``; returns it."""
        request = getattr(uapi, f"DRM_IOCTL_{name}")
        arg = ffi.new(f"{_STRUCTS[name]} *", fields)
        uapi.ioctl(self.fd, request, arg)
        return arg

    def _get_params(self):
        params = ffi.new("struct drm_asahi_params_global *")
        self.ioctl("ASAHI_GET_PARAMS", param_group=0, pointer=_ptr(params), size=ffi.sizeof(params[0]))
        return params[0]

    def _zero_page(self) -> None:
        if not (self.usc_base > ZERO_PAGE_VA + PAGE_B and ZERO_PAGE_VA >= int(self.params.vm_start)):
            self.zero_page = None
            return
        handle = self.ioctl("ASAHI_GEM_CREATE", size=PAGE_B, flags=uapi.DRM_ASAHI_GEM_VM_PRIVATE,
                            vm_id=self.vm_id).handle
        self.bind(handle, ZERO_PAGE_VA, PAGE_B, uapi.DRM_ASAHI_BIND_READ)
        self.zero_page = handle

    def bind(self, handle: int, va: int, size_B: int, flags: int = RW, offset_B: int = 0) -> None:
        op = ffi.new("struct drm_asahi_gem_bind_op *", dict(flags=flags, handle=handle, offset=offset_B,
                                                            range=size_B, addr=va))
        self.ioctl("ASAHI_VM_BIND", vm_id=self.vm_id, num_binds=1, stride=ffi.sizeof(op[0]), userptr=_ptr(op))

    def unbind(self, va: int, size_B: int) -> None:
        op = ffi.new("struct drm_asahi_gem_bind_op *", dict(flags=uapi.DRM_ASAHI_BIND_UNBIND, range=size_B,
                                                            addr=va))
        self.ioctl("ASAHI_VM_BIND", vm_id=self.vm_id, num_binds=1, stride=ffi.sizeof(op[0]), userptr=_ptr(op))

    # ------------------------------------------------------------------ BOs
    def bo_create(self, size_B: int, *, usc: bool = False, shared: bool = False, label: str = "") -> BO:
        """A zero-initialised-on-first-use BO mapped for the CPU and the GPU.
        Reuses a cached BO when one fits (then its contents are stale)."""
        heap_name = "usc" if usc else "user"
        size = _page_align(size_B)
        with self.lock:
            if not shared:
                bo = self.cache.take(size, heap_name)
                if bo is not None:
                    bo.label, bo.writer, bo.refs = label, None, 1
                    return bo
            self._evict_idle()
            flags = 0 if shared else uapi.DRM_ASAHI_GEM_VM_PRIVATE
            try:
                handle = self.ioctl("ASAHI_GEM_CREATE", size=size, flags=flags,
                                    vm_id=0 if shared else self.vm_id).handle
            except OSError as e:
                if e.errno != errno.ENOMEM:
                    raise
                self._evict_idle(everything=True)       # out of memory: empty the cache, retry once
                handle = self.ioctl("ASAHI_GEM_CREATE", size=size, flags=flags,
                                    vm_id=0 if shared else self.vm_id).handle
            heap = self.usc_heap if usc else self.user_heap
            va = heap.alloc(size + GUARD_B)
            self.bind(handle, va, size)
            offset = self.ioctl("ASAHI_GEM_MMAP_OFFSET", handle=handle).offset
            mapping = uapi.mmap(self.fd, offset, size)
            bo = BO(self, handle, size, va, mapping, heap_name, shared, label)
            self.bos[handle] = bo
            self.bo_allocs += 1
            return bo

    def bo_release(self, bo: BO) -> None:
        self.bo_release_all((bo,))

    def bo_release_all(self, bos) -> None:
        """Drop one reference on each of ``bos`` (under the lock once: a retired
        submission's); a BO without any goes to the cache, or is freed."""
        with self.lock:
            for bo in bos:
                assert not bo.freed, f"{bo} released twice"
                bo.refs -= 1
                if bo.refs <= 0 and not self.cache.put(bo):
                    self._bo_free(bo)

    def _bo_free(self, bo: BO) -> None:
        bo.freed = True
        self.unbind(bo.va, bo.size_B)
        (self.usc_heap if bo.heap == "usc" else self.user_heap).free(bo.va, bo.size_B + GUARD_B)
        if bo.parent is not None:        # a view: the object and its map are the parent's
            self.bo_release(bo.parent)
            return
        try:
            bo.map.release()
        except (AttributeError, ValueError, BufferError):
            pass
        self.ioctl("GEM_CLOSE", handle=bo.handle)
        del self.bos[bo.handle]

    def _evict_idle(self, everything: bool = False) -> None:
        for bo in self.cache.evict(everything=everything):
            self._bo_free(bo)

    def bo_export(self, bo: BO) -> int:
        """A dma-buf descriptor of a BO (PRIME). A VM-private BO is first made shared in
        place with the GEM_SHARE extension (its binds stay; it is never cached again)."""
        if not bo.shared:
            self.ioctl("ASAHI_GEM_SHARE", handle=bo.handle, flags=0)
            bo.shared = True
        return self.ioctl("PRIME_HANDLE_TO_FD", handle=bo.handle, flags=0).fd

    def bo_from_user_memory(self, address: int, size_B: int, label: str = "user memory") -> BO:
        """A BO whose pages are the process's memory at ``address`` (GEM_USERPTR):
        the host pages from ``address`` (page-aligned) covering ``size_B`` bytes, as
        amdgpu's winsys rounds a userptr up. Shared, so never cached, shadowed or
        renamed. OSError from the kernel when the range is not page-aligned writable
        memory."""
        pinned_B = -(-max(size_B, 1) // mmap.PAGESIZE) * mmap.PAGESIZE
        with self.lock:
            handle = self.ioctl("ASAHI_GEM_USERPTR", pointer=address, size=pinned_B, flags=0).handle
            return self._map_shared(handle, size_B, label)

    def bo_import(self, fd: int, size_B: int, label: str = "imported") -> BO:
        """The BO of a dma-buf (PRIME), mapped and bound in this VM; an object this file
        already has comes back with one more reference."""
        with self.lock:
            handle = self.ioctl("PRIME_FD_TO_HANDLE", fd=fd, flags=0).handle
            bo = self.bos.get(handle)
            if bo is not None:
                bo.refs += 1
                return bo
            return self._map_shared(handle, size_B, label)

    def bo_view(self, bo: BO, offset_B: int, size_B: int, label: str = "view") -> BO:
        """``size_B`` bytes of ``bo`` from ``offset_B`` (a multiple of the page) as a BO of
        their own: the same GEM object bound again at a VA of its own from that offset
        (a VM bind's object offset), its CPU map a slice of ``bo``'s. Shared (never
        cached or renamed); it holds a reference to ``bo`` until it is freed. What a
        resource placed at an offset of imported memory uses (EXT_memory_object)."""
        assert offset_B % PAGE_B == 0 and 0 <= offset_B and offset_B + size_B <= bo.size_B, (offset_B, size_B)
        with self.lock:
            size = min(_page_align(size_B), bo.size_B - offset_B)
            va = self.user_heap.alloc(size + GUARD_B)
            self.bind(bo.handle, va, size, offset_B=offset_B)
            bo.refs += 1
            return BO(self, bo.handle, size, va, bo.map[offset_B:offset_B + size], "user", True, label,
                      parent=bo)

    def _map_shared(self, handle: int, size_B: int, label: str) -> BO:
        """A shared object's BO (imported or over user memory): bound in this VM and
        mapped, under ``self.lock``."""
        size = _page_align(size_B)
        va = self.user_heap.alloc(size + GUARD_B)
        self.bind(handle, va, size)
        offset = self.ioctl("ASAHI_GEM_MMAP_OFFSET", handle=handle).offset
        bo = BO(self, handle, size, va, uapi.mmap(self.fd, offset, size), "user", True, label)
        self.bos[handle] = bo
        return bo

    # ------------------------------------------------------------------ sync objects
    def syncobj_create(self, signaled: bool = False) -> int:
        return self.ioctl("SYNCOBJ_CREATE", flags=uapi.DRM_SYNCOBJ_CREATE_SIGNALED if signaled else 0).handle

    def syncobj_destroy(self, handle: int) -> None:
        self.ioctl("SYNCOBJ_DESTROY", handle=handle)

    #: Retired out-syncs kept for reuse at most (the rest are destroyed).
    SPARE_SYNCOBJS = 8

    def syncobj_take(self) -> int:
        """A binary syncobj for a SUBMIT's out-sync: one a retired submission gave back
        (SUBMIT replaces its signalled fence, as the kernel's out-syncs do) or a new one.
        Saves a SYNCOBJ_CREATE and a SYNCOBJ_DESTROY per submission."""
        with self.lock:
            if self._spare_syncobjs:
                return self._spare_syncobjs.pop()
        return self.syncobj_create()

    def syncobj_give_back(self, handle: int) -> None:
        """The out-sync of a retired submission nobody holds any more: kept for
        ``syncobj_take`` (up to SPARE_SYNCOBJS), else destroyed."""
        with self.lock:
            if self.fd is not None and len(self._spare_syncobjs) < self.SPARE_SYNCOBJS:
                self._spare_syncobjs.append(handle)
                return
        self.syncobj_destroy(handle)

    def syncobj_wait(self, handles, timeout_ns: int = INFINITE, wait_all: bool = True,
                     points=None) -> bool:
        """Wait for binary syncobjs (or timeline ``points``); True when signalled,
        False on timeout. ``timeout_ns`` < 0 waits forever; 0 polls."""
        handles = list(handles)
        if not handles:
            return True
        deadline = _deadline(timeout_ns)
        # WAIT_FOR_SUBMIT: a sync object without a fence yet counts as unsignalled
        flags = uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT
        flags |= uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL if wait_all else 0
        arr = ffi.new("__u32[]", handles)
        try:
            if points is None:
                self.ioctl("SYNCOBJ_WAIT", handles=_ptr(arr), count_handles=len(handles),
                           timeout_nsec=deadline, flags=flags)
            else:
                pts = ffi.new("__u64[]", list(points))
                self.ioctl("SYNCOBJ_TIMELINE_WAIT", handles=_ptr(arr), points=_ptr(pts),
                           count_handles=len(handles), timeout_nsec=deadline, flags=flags)
            return True
        except OSError as e:
            if e.errno == errno.ETIME:
                return False
            raise

    def syncobj_wait_one(self, handle: int, timeout_ns: int = INFINITE) -> bool:
        """``syncobj_wait([handle], timeout_ns)`` with the argument built directly (a
        submission's wait: every glFinish and fence wait)."""
        handles = ffi.new(_U32S, [handle])
        arg = ffi.new(_SYNCOBJ_WAIT, {"handles": int(ffi.cast(_UINTPTR, handles)), "count_handles": 1,
                                      "timeout_nsec": _deadline(timeout_ns), "flags": _WAIT_ONE_FLAGS})
        try:
            uapi.ioctl(self.fd, _SYNCOBJ_WAIT_REQUEST, arg)
            return True
        except OSError as e:
            if e.errno == errno.ETIME:
                return False
            raise

    def syncobj_signal(self, handle: int) -> None:
        arr = ffi.new("__u32[]", [handle])
        self.ioctl("SYNCOBJ_SIGNAL", handles=_ptr(arr), count_handles=1)

    def syncobj_reset(self, handle: int) -> None:
        arr = ffi.new("__u32[]", [handle])
        self.ioctl("SYNCOBJ_RESET", handles=_ptr(arr), count_handles=1)

    def syncobj_export(self, handle: int, sync_file: bool = False) -> int:
        """A descriptor of the syncobj, or of its current fence as a sync file."""
        flags = uapi.DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE if sync_file else 0
        return self.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=handle, flags=flags).fd

    def syncobj_import(self, fd: int) -> int:
        return self.ioctl("SYNCOBJ_FD_TO_HANDLE", fd=fd, flags=0).handle

    def syncobj_import_sync_file(self, fd: int) -> int:
        """A new syncobj holding the fence of a sync file."""
        handle = self.syncobj_create()
        self.ioctl("SYNCOBJ_FD_TO_HANDLE", fd=fd, handle=handle,
                   flags=uapi.DRM_SYNCOBJ_FD_TO_HANDLE_FLAGS_IMPORT_SYNC_FILE)
        return handle

    # ------------------------------------------------------------------ queues and submits
    def queue_create(self, priority: int = uapi.DRM_ASAHI_PRIORITY_MEDIUM) -> int:
        """A new UAPI queue (a context's)."""
        return self.ioctl("ASAHI_QUEUE_CREATE", flags=0, vm_id=self.vm_id, priority=priority,
                          usc_exec_base=self.usc_base).queue_id

    def queue_destroy(self, queue_id: int) -> None:
        """QUEUE_DESTROY: the kernel ends the queue's threads once its submitted work is
        done (waiting at most a bounded time, never for runaway work). Nothing when the
        device is already closed (closing it destroyed every queue)."""
        with self.lock:
            fd = self.fd
        if fd is not None:
            self.ioctl("ASAHI_QUEUE_DESTROY", queue_id=queue_id)

    def submit(self, commands: list[Command], in_syncs=(), out_syncs=(), queue_id: int | None = None) -> None:
        """One SUBMIT ioctl. Syncs are binary handles or (handle, point) pairs.
        Lists longer than the kernel's limit are split (hk_queue.c): each part waits
        for the in-syncs, only the last signals the out-syncs, and the parts are
        ordered because one queue runs its submissions in order."""
        queue = self.queue_id if queue_id is None else queue_id
        if len(commands) >= self.max_commands:
            step = self.max_commands - 1
            parts = [commands[i:i + step] for i in range(0, len(commands), step)]
            for part in parts[:-1]:
                self.submit(part, in_syncs, (), queue)
            commands = parts[-1]
        # the sync records and the command buffer as bytes (they live until the ioctl returns)
        syncs = b"".join(_SYNC_RECORD.pack(_TIMELINE, s[0], s[1]) if isinstance(s, tuple)
                         else _SYNC_RECORD.pack(_BINARY, s, 0) for s in (*in_syncs, *out_syncs))
        cmdbuf = b"".join([c.encode() for c in commands])
        arg = ffi.new(_SUBMIT, {
            "syncs": _address(syncs) if syncs else 0, "cmdbuf": _address(cmdbuf) if cmdbuf else 0,
            "queue_id": queue, "in_sync_count": len(in_syncs), "out_sync_count": len(out_syncs),
            "cmdbuf_size": len(cmdbuf)})
        uapi.ioctl(self.fd, _SUBMIT_REQUEST, arg)

    def queue_counters(self, queue_id: int | None = None) -> dict[str, int]:
        out = ffi.new("struct drm_asahi_queue_counters *")
        self.ioctl("ASAHI_QUEUE_COUNTERS", queue_id=self.queue_id if queue_id is None else queue_id, flags=0,
                   pointer=_ptr(out), size=ffi.sizeof(out[0]))
        return {f: int(getattr(out, f)) for f, _ in ffi.typeof(out[0]).fields}

    def timestamp_ns(self) -> int:
        """The GPU clock now (GET_TIME), in nanoseconds."""
        ticks = int(self.ioctl("ASAHI_GET_TIME", flags=0).gpu_timestamp)
        return ticks * 1_000_000_000 // self.timestamp_hz

    # ------------------------------------------------------------------ teardown
    def close(self) -> None:
        with self.lock:
            if self.fd is None:
                return
            self._evict_idle(everything=True)
            for bo in list(self.bos.values()):
                self._bo_free(bo)
            uapi.close(self.fd)
            self.fd = None


_STRUCTS = {s.name[len("DRM_IOCTL_"):]: s.struct for s in uapi.drm.IOCTLS}
def _deadline(timeout_ns: int) -> int:
    """A SYNCOBJ_WAIT's absolute deadline for a timeout (< 0: forever, 0: poll)."""
    if timeout_ns < 0:
        return (1 << 63) - 1
    return 0 if timeout_ns == 0 else time.monotonic_ns() + timeout_ns


_SUBMIT = ffi.typeof(f"{_STRUCTS['ASAHI_SUBMIT']} *")
_SUBMIT_REQUEST = uapi.DRM_IOCTL_ASAHI_SUBMIT
_SYNC_RECORD = uapi.drm.record_format("struct drm_asahi_sync")
_BINARY, _TIMELINE = uapi.DRM_ASAHI_SYNC_SYNCOBJ, uapi.DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ
_UINTPTR = ffi.typeof("uintptr_t")


def _address(data: bytes) -> int:
    """The address of the bytes of ``data`` (valid while ``data`` lives)."""
    return int(ffi.cast(_UINTPTR, ffi.from_buffer(data)))


_SYNCOBJ_WAIT = ffi.typeof(f"{_STRUCTS['SYNCOBJ_WAIT']} *")
_SYNCOBJ_WAIT_REQUEST = uapi.DRM_IOCTL_SYNCOBJ_WAIT
_U32S = ffi.typeof("__u32[]")
#: a submission's wait: WAIT_FOR_SUBMIT (a syncobj without a fence yet is unsignalled), all
_WAIT_ONE_FLAGS = uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_FOR_SUBMIT | uapi.DRM_SYNCOBJ_WAIT_FLAGS_WAIT_ALL
