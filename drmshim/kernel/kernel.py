"""The mock kernel: the device, its files, and the Asahi and core DRM ioctls.

Sole responsibility: be the uapi seam backend for the device (``open``,
``ioctl``, ``mmap``, ``close``) and implement each ioctl: copy the argument in
(zero-extended when userspace's struct is shorter, as ``drm_ioctl`` does),
validate it completely, only then change state, and copy the result out on
success. Errors are ``OSError(errno)``. Sync-object ioctls live in
``sync_ioctls.py``, SUBMIT decoding in ``submit.py``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import replace
from typing import Callable, NamedTuple

import uapi

from ..capture import hooks as capture_hooks
from ..firmware import Firmware, GPUExecutor, NullExecutor, debug_enabled, stderr_logger
from ..firmware.watchdog import timeout_from_env
from . import fds
from .arena import PAGE_SIZE_B, Arena
from .errors import check, errno, fail, kernel_bug
from .file import BindObject, DRMFile
from .gem import GEMObject, page_align
from .params import GPUConfig, fill_params, select_config
from .scheduler import UserQueue
from .submit import build_job
from .syncobj import SyncState
from .sync_ioctls import BLOCKING, SYNC_IOCTLS
from .usercopy import (argument_of, array_size, check_user_range, copy_from_user, copy_struct_from_user,
                       copy_struct_to_user, copy_to_user, struct_from_bytes)
from .userptr import HOST_PAGE_B, UserPages
from .vm import VM

__all__ = ["Kernel", "set_gpu_factory", "DEVICE_PATH"]

ffi = uapi.ffi
DEVICE_PATH = "/dev/dri/renderD128"
DRIVER_NAME, DRIVER_DATE, DRIVER_DESC = b"asahi", b"20250425", b"Apple AGX Graphics (shimgl mock kernel)"
GEM_FLAGS = uapi.DRM_ASAHI_GEM_WRITEBACK | uapi.DRM_ASAHI_GEM_VM_PRIVATE
BIND_FLAGS = (uapi.DRM_ASAHI_BIND_UNBIND | uapi.DRM_ASAHI_BIND_READ | uapi.DRM_ASAHI_BIND_WRITE
              | uapi.DRM_ASAHI_BIND_SINGLE_PAGE)
BIND_OP_SIZE_B = ffi.sizeof("struct drm_asahi_gem_bind_op")
CAPS = {
    uapi.DRM_CAP_PRIME: uapi.DRM_PRIME_CAP_IMPORT | uapi.DRM_PRIME_CAP_EXPORT,
    uapi.DRM_CAP_SYNCOBJ: 1,
    uapi.DRM_CAP_SYNCOBJ_TIMELINE: 1,
}

# Ioctls that take the file lock themselves, for their lookups only.
_UNLOCKED = {"DRM_IOCTL_ASAHI_QUEUE_DESTROY"}
#: ioctls that open a descriptor and return it in ``fd``: closed again when the result
#: cannot be written back (EFAULT), so no descriptor is left that userspace never saw
_CREATE_FD = {"DRM_IOCTL_PRIME_HANDLE_TO_FD", "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD"}


class _Request(NamedTuple):
    """One known ioctl number: its name, argument struct, the bytes copied in (and
    back out when ``reads_back``), its handler, and whether it runs under the file lock."""

    name: str
    struct: str
    size_B: int
    handler: Callable
    locked: bool
    reads_back: bool


def _model_or_null(kernel: "Kernel") -> GPUExecutor:
    """The GPU model's executor when ``drmshim.gpu`` offers ``executor_factory(kernel)``;
    else the no-op executor (empty command streams)."""
    try:
        from ..gpu import executor_factory
    except ImportError:
        return NullExecutor()
    return executor_factory(kernel)


_gpu_factory: Callable[["Kernel"], GPUExecutor] = _model_or_null


def set_gpu_factory(factory: Callable[["Kernel"], GPUExecutor] | None) -> None:
    """Make kernels created from now on run their commands on ``factory(kernel)``
    (None: back to the default, the GPU model if present, else no-ops)."""
    global _gpu_factory
    _gpu_factory = factory or _model_or_null


def _aligned(*values: int) -> bool:
    return all(v % PAGE_SIZE_B == 0 for v in values)


class Kernel:
    """One device: a GPU configuration, physical memory, and the open files.

    ``config``: a name in ``GPU_CONFIGS`` or a ``GPUConfig`` (default: ``SHIMGL_GPU``
    or "m1"). ``gpu``: a GPU executor, or a factory ``gpu(kernel)`` making one
    (default: the factory of :func:`set_gpu_factory`; initially
    ``drmshim.gpu.executor_factory`` if the GPU model defines it, else no-ops).
    ``soft_faults`` overrides the configuration's SOFT_FAULTS feature.
    ``gpu_timeout_ms``: the watchdog budget of each command half, in ms of GPU
    time (default ``SHIMGL_GPU_TIMEOUT_MS``, else ``firmware.watchdog.DEFAULT_TIMEOUT_MS``;
    0: no watchdog).
    """

    def __init__(self, config: str | GPUConfig | None = None, gpu=None, *, soft_faults: bool | None = None,
                 arena_size_B: int = 4 << 30, gpu_timeout_ms: int | None = None):
        self.gpu_timeout_ms = timeout_from_env() if gpu_timeout_ms is None else gpu_timeout_ms
        config = select_config(config)
        if soft_faults is not None:
            config = replace(config, soft_faults=soft_faults)
        self.config = config
        self.arena = Arena(arena_size_B)
        self.sync = SyncState()
        if gpu is None:
            gpu = _gpu_factory(self)
        elif not hasattr(gpu, "run_vertex"):
            gpu = gpu(self)
        self.gpu = gpu
        self.gpu_lock = threading.Lock()
        self.fw_listeners: list = [stderr_logger] if debug_enabled("fw") else []
        self.files: list[DRMFile] = []
        self._lock = threading.Lock()
        self._impl = {**SYNC_IOCTLS, **self._asahi_ioctls()}
        self._requests: dict[int, _Request] = {}   # ioctl number -> what it means, decoded once
        self.decoded_submits: dict = {}     # command buffer bytes -> (config, its decode): submit.build_job
        self.hooks = capture_hooks.install(self)  # SHIMGL_CAPTURE, fault dumps, SHIMGL_DEBUG=trace

    @staticmethod
    def now_ns() -> int:
        """GPU time: CLOCK_MONOTONIC in ns (the timestamp frequency is 1 GHz)."""
        return time.monotonic_ns()

    # ------------------------------------------------------- seam backend
    def open(self, path: str) -> DRMFile:
        file = DRMFile(self)
        with self._lock:
            self.files.append(file)
        return file

    def _decode_request(self, request: int) -> _Request:
        """What an ioctl number means here (EINVAL for one we do not know)."""
        spec = uapi.drm.BY_NR.get(uapi.drm.ioc_nr(request))
        if spec is None or (request >> 8) & 0xFF != uapi.drm.ioctls.DRM_IOCTL_BASE:
            raise fail(errno.EINVAL, f"unknown ioctl 0x{request:x}")
        # userspace's struct may be shorter (older) or longer (newer) than ours
        size_B = min(uapi.drm.ioc_size(request), ffi.sizeof(spec.struct))
        return _Request(spec.name, spec.struct, size_B, self._impl[spec.name],
                        spec.name not in BLOCKING and spec.name not in _UNLOCKED, "R" in spec.direction)

    def ioctl(self, file: DRMFile, request: int, arg) -> int:
        if file.closed:
            raise fail(errno.EBADF, "file is closed")
        what = self._requests.get(request)
        if what is None:
            what = self._requests[request] = self._decode_request(request)
        address, owned_B = argument_of(arg)
        n = what.size_B
        kbuf = copy_struct_from_user(what.struct, address, n, arg, owned_B)
        try:
            if what.locked:
                with file.lock:
                    what.handler(self, file, kbuf)
            else:
                what.handler(self, file, kbuf)
        except OSError:
            raise
        except Exception as error:  # noqa: BLE001 - a kernel bug must not reach userspace as Python
            raise kernel_bug(what.name, error) from error
        if what.reads_back:
            try:
                copy_struct_to_user(address, kbuf, n, arg, owned_B)
            except OSError:
                # the new descriptor never reached userspace: it is not left open (as the
                # kernel reserves an fd, copies the result out, then installs it)
                if what.name in _CREATE_FD:
                    uapi.close(int(kbuf.fd))
                raise
        return 0

    def mmap(self, file: DRMFile, offset: int, length: int) -> memoryview:
        with file.lock:
            gem = file.gems.by_offset.get(offset)
        check(gem is not None, errno.EINVAL, f"no object at mmap offset 0x{offset:x}")
        check(0 < length <= gem.size_B, errno.EINVAL, f"mapping {length} bytes of a {gem.size_B}-byte object")
        return self.arena.view(gem.phys, length)

    def close(self, file: DRMFile) -> None:
        """Release everything the file owns, after its in-flight work ends."""
        with file.lock:
            file.closed = True
            queues = list(file.queues.items.values())
            file.queues.items.clear()
        for queue in queues:
            queue.shutdown()
        with file.lock:
            for vm in file.vms.items.values():
                vm.put()
            for gem in file.gems.items.values():
                gem.put()
            for obj in file.bind_objects.items.values():
                obj.gem.put()
            file.vms.items.clear()
            file.gems.clear()
            file.bind_objects.items.clear()
            file.syncobjs.items.clear()
        with self._lock:
            self.files.remove(file)

    # ------------------------------------------------------------- lookups
    def queue_vm(self, file: DRMFile, queue_id: int) -> VM:
        """The VM a queue runs in (for the GPU model and tools)."""
        return file.queue(queue_id).vm

    # --------------------------------------------------------- core ioctls
    def _version(self, file, arg) -> None:
        arg.version_major, arg.version_minor, arg.version_patchlevel = 1, 0, 0
        for field, value in (("name", DRIVER_NAME), ("date", DRIVER_DATE), ("desc", DRIVER_DESC)):
            address = int(ffi.cast("uintptr_t", getattr(arg, field)))
            room = getattr(arg, f"{field}_len")
            if address and room:
                copy_to_user(address, value[:room])
            setattr(arg, f"{field}_len", len(value))

    def _get_cap(self, file, arg) -> None:
        check(arg.capability in CAPS, errno.EINVAL, f"unknown capability {arg.capability}")
        arg.value = CAPS[arg.capability]

    def _gem_close(self, file, arg) -> None:
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        gem = file.gem(arg.handle, errno.EINVAL)
        file.gems.remove(arg.handle)
        gem.put()

    def _prime_handle_to_fd(self, file, arg) -> None:
        check(not (arg.flags & ~(uapi.DRM_CLOEXEC | uapi.DRM_RDWR)), errno.EINVAL, "unknown PRIME flags")
        gem = file.gem(arg.handle)
        check(gem.private_vm is None, errno.EINVAL, "a VM-private object cannot be exported")
        arg.fd = fds.install(fds.ExportedDmaBuf(gem.get()))

    def _prime_fd_to_handle(self, file, arg) -> None:
        exported = fds.lookup(arg.fd, fds.ExportedDmaBuf, errno.EBADF)
        gem = exported.gem
        check(gem.arena is self.arena, errno.EINVAL, "dma-buf of another device")
        existing = file.gem_handle_of(gem)
        arg.handle = existing if existing is not None else file.gems.add(gem.get())

    # ------------------------------------------------------- asahi ioctls
    def _get_params(self, file, arg) -> None:
        check(arg.param_group == 0, errno.EINVAL, "param_group must be zero")
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        params = ffi.new("struct drm_asahi_params_global *")
        fill_params(self.config, params)
        copy_to_user(arg.pointer, ffi.buffer(params)[:min(arg.size, ffi.sizeof(params[0]))])

    def _get_time(self, file, arg) -> None:
        check(arg.flags == 0, errno.EINVAL, "GET_TIME flags must be zero")
        arg.gpu_timestamp = self.now_ns()

    def _vm_create(self, file, arg) -> None:
        c = self.config
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        start, end = arg.kernel_start, arg.kernel_end
        check(_aligned(start, end), errno.EINVAL, "kernel range not page aligned")
        check(c.vm_start <= start < end <= c.vm_end, errno.EINVAL, "kernel range outside the VM range")
        check(end - start >= c.vm_kernel_min_size, errno.EINVAL,
              f"kernel range smaller than vm_kernel_min_size 0x{c.vm_kernel_min_size:x}")
        vm = VM(0, self.arena, start, end, soft_faults=c.soft_faults)
        vm.vm_id = arg.vm_id = file.vms.add(vm)

    def _vm_destroy(self, file, arg) -> None:
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        vm = file.vm(arg.vm_id)
        del file.vms.items[arg.vm_id]
        vm.put()

    def _gem_create(self, file, arg) -> None:
        check(not (arg.flags & ~GEM_FLAGS), errno.EINVAL, f"unknown GEM flags 0x{arg.flags:x}")
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        check(arg.size > 0, errno.EINVAL, "zero-sized object")
        vm = None
        if arg.flags & uapi.DRM_ASAHI_GEM_VM_PRIVATE:
            vm = file.vm(arg.vm_id)
        else:
            check(arg.vm_id == 0, errno.EINVAL, "vm_id is only for VM_PRIVATE objects")
        gem = GEMObject(self.arena, page_align(arg.size), arg.flags, private_vm=vm)
        arg.handle = file.gems.add(gem)

    def _gem_mmap_offset(self, file, arg) -> None:
        check(arg.flags == 0, errno.EINVAL, "GEM_MMAP_OFFSET flags must be zero")
        arg.offset = file.gem(arg.handle).mmap_offset

    def _validate_bind(self, file, vm: VM, op, i: int):
        c = self.config
        flags = op.flags
        check(not (flags & ~BIND_FLAGS), errno.EINVAL, f"bind {i}: unknown flags 0x{flags:x}")
        check(_aligned(op.offset, op.range, op.addr), errno.EINVAL, f"bind {i}: offset/range/addr not page aligned")
        check(op.range > 0, errno.EINVAL, f"bind {i}: empty range")
        end = op.addr + op.range
        check(c.vm_start <= op.addr and end <= c.vm_end, errno.EINVAL, f"bind {i}: outside the user VA range")
        check(end <= vm.kernel_start or op.addr >= vm.kernel_end, errno.EINVAL, f"bind {i}: overlaps the kernel range")
        if flags & uapi.DRM_ASAHI_BIND_UNBIND:
            check(flags == uapi.DRM_ASAHI_BIND_UNBIND and op.handle == 0 and op.offset == 0, errno.EINVAL,
                  f"bind {i}: an unbind takes no handle, offset or other flags")
            return None
        check(flags & (uapi.DRM_ASAHI_BIND_READ | uapi.DRM_ASAHI_BIND_WRITE), errno.EINVAL,
              f"bind {i}: READ or WRITE is required")
        gem = file.gem(op.handle)
        check(gem.private_vm is None or gem.private_vm is vm, errno.EINVAL,
              f"bind {i}: a VM-private object binds only to its own VM")
        size = PAGE_SIZE_B if flags & uapi.DRM_ASAHI_BIND_SINGLE_PAGE else op.range
        check(op.offset + size <= gem.size_B, errno.EINVAL, f"bind {i}: range outside the object")
        return gem

    def _vm_bind(self, file, arg) -> None:
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        vm = file.vm(arg.vm_id)
        check(arg.stride > 0, errno.EINVAL, "zero bind stride")
        raw = copy_from_user(arg.userptr, array_size(arg.num_binds, arg.stride))
        ops, gems = [], []
        for i in range(arg.num_binds):   # decoded and validated one by one: the first bad op stops
            start = i * arg.stride
            op = struct_from_bytes("struct drm_asahi_gem_bind_op", raw[start:start + min(arg.stride, BIND_OP_SIZE_B)])
            gems.append(self._validate_bind(file, vm, op, i))
            ops.append(op)
        for op, gem in zip(ops, gems):
            if gem is None:
                vm.unmap(op.addr, op.range)
            else:
                vm.map(op.addr, op.range, gem, op.offset, readable=bool(op.flags & uapi.DRM_ASAHI_BIND_READ),
                       writable=bool(op.flags & uapi.DRM_ASAHI_BIND_WRITE),
                       single_page=bool(op.flags & uapi.DRM_ASAHI_BIND_SINGLE_PAGE))

    def _gem_bind_object(self, file, arg) -> None:
        check(arg.vm_id == 0 and arg.pad == 0, errno.EINVAL, "vm_id and pad must be zero")
        if arg.op == uapi.DRM_ASAHI_BIND_OBJECT_OP_UNBIND:
            check(arg.flags == 0 and arg.handle == 0 and arg.offset == 0 and arg.range == 0, errno.EINVAL,
                  "an object unbind takes only object_handle")
            obj = file.bind_object(arg.object_handle)
            del file.bind_objects.items[arg.object_handle]
            obj.gem.put()
            return
        check(arg.op == uapi.DRM_ASAHI_BIND_OBJECT_OP_BIND, errno.EINVAL, f"unknown bind-object op {arg.op}")
        check(arg.flags == uapi.DRM_ASAHI_BIND_OBJECT_USAGE_TIMESTAMPS, errno.EINVAL,
              "a bind object needs exactly USAGE_TIMESTAMPS")
        gem = file.gem(arg.handle)
        check(arg.range > 0 and _aligned(arg.offset, arg.range) and arg.offset + arg.range <= gem.size_B,
              errno.EINVAL, "timestamp range empty, unaligned or outside the object")
        arg.object_handle = file.bind_objects.add(BindObject(gem.get(), arg.offset, arg.range))

    def _queue_create(self, file, arg) -> None:
        check(arg.flags == 0, errno.EINVAL, "QUEUE_CREATE flags must be zero")
        check(arg.priority in (uapi.DRM_ASAHI_PRIORITY_LOW, uapi.DRM_ASAHI_PRIORITY_MEDIUM), errno.EINVAL,
              f"priority {arg.priority}: only LOW and MEDIUM are allowed")
        vm = file.vm(arg.vm_id)
        queue_id = file.queues._next
        firmware = Firmware(f"{file.name}/queue{queue_id}", self.gpu, self.gpu_lock, self.fw_listeners,
                            timeout_ms=self.gpu_timeout_ms)
        queue = UserQueue(queue_id, vm.get(), arg.priority, arg.usc_exec_base, firmware, self.sync)
        arg.queue_id = file.queues.add(queue)

    def _queue_destroy(self, file, arg) -> None:
        """Takes the file lock only to remove the queue: its flush (bounded) does
        not block the file's other ioctls."""
        check(arg.pad == 0, errno.EINVAL, "pad must be zero")
        with file.lock:
            queue = file.queue(arg.queue_id)
            del file.queues.items[arg.queue_id]
        queue.shutdown()

    def _submit(self, file, arg) -> None:
        queue, job, outs, copied = build_job(self, file, arg)
        self.hooks.on_submit(file, arg, queue, job, copied)
        for syncobj, sync_type, point in outs:
            if sync_type == uapi.DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ and point:
                syncobj.add_point(point, job.done)
            else:
                syncobj.replace(job.done)
        queue.push(job)

    # -------------------------------------------------- shimgl extensions
    def _gem_share(self, file, arg) -> None:
        check(arg.flags == 0, errno.EINVAL, "GEM_SHARE flags must be zero")
        gem = file.gem(arg.handle)
        gem.private_vm = None
        gem.flags &= ~uapi.DRM_ASAHI_GEM_VM_PRIVATE

    def _gem_userptr(self, file, arg) -> None:
        """A shared object whose pages are the caller's memory (``userptr.UserPages``)."""
        check(arg.flags == 0, errno.EINVAL, "GEM_USERPTR flags must be zero")
        check(arg.size > 0, errno.EINVAL, "zero-sized object")
        check(arg.pointer % HOST_PAGE_B == 0 and arg.size % HOST_PAGE_B == 0, errno.EINVAL,
              "GEM_USERPTR pointer and size must be whole host pages")
        check_user_range(arg.pointer, arg.size, writing=True)
        base = self.arena.address
        check(arg.pointer + arg.size <= base or arg.pointer >= base + self.arena.size_B, errno.EFAULT,
              "GEM_USERPTR of GPU memory (a mapping of GEM objects)")
        gem = GEMObject(self.arena, page_align(arg.size), 0)
        try:
            gem.user_pages = UserPages(arg.pointer, arg.size, self.arena.address + gem.phys, gem.size_B,
                                       f"shimgl-userptr-{gem.id}")
        except BaseException:
            gem.put()
            raise
        arg.handle = file.gems.add(gem)

    def _queue_counters(self, file, arg) -> None:
        check(arg.flags == 0, errno.EINVAL, "QUEUE_COUNTERS flags must be zero")
        queue = file.queue(arg.queue_id)
        record = ffi.new("struct drm_asahi_queue_counters *")
        for name, value in queue.counters.snapshot().items():
            setattr(record, name, value)
        copy_to_user(arg.pointer, ffi.buffer(record)[:min(arg.size, ffi.sizeof(record[0]))])

    def _asahi_ioctls(self) -> dict:
        table = {
            "VERSION": self._version, "GET_CAP": self._get_cap, "GEM_CLOSE": self._gem_close,
            "PRIME_HANDLE_TO_FD": self._prime_handle_to_fd, "PRIME_FD_TO_HANDLE": self._prime_fd_to_handle,
            "ASAHI_GET_PARAMS": self._get_params, "ASAHI_GET_TIME": self._get_time,
            "ASAHI_VM_CREATE": self._vm_create, "ASAHI_VM_DESTROY": self._vm_destroy,
            "ASAHI_VM_BIND": self._vm_bind, "ASAHI_GEM_CREATE": self._gem_create,
            "ASAHI_GEM_MMAP_OFFSET": self._gem_mmap_offset, "ASAHI_GEM_BIND_OBJECT": self._gem_bind_object,
            "ASAHI_QUEUE_CREATE": self._queue_create, "ASAHI_QUEUE_DESTROY": self._queue_destroy,
            "ASAHI_SUBMIT": self._submit, "ASAHI_GEM_SHARE": self._gem_share,
            "ASAHI_QUEUE_COUNTERS": self._queue_counters, "ASAHI_GEM_USERPTR": self._gem_userptr,
        }
        return {f"DRM_IOCTL_{name}": (lambda method: lambda kernel, file, arg: method(file, arg))(method)
                for name, method in table.items()}
