"""Test helpers: a DRM file on the uapi seam, with one call per ioctl.

Everything goes through ``uapi.open/ioctl/mmap/close`` exactly as a driver's
calls would; the helpers only build the cffi structs.
"""

from __future__ import annotations

import errno
import itertools
import time

import pytest

import uapi
from drmshim import Kernel

ffi = uapi.ffi
NONE = uapi.DRM_ASAHI_BARRIER_NONE
RW = uapi.DRM_ASAHI_BIND_READ | uapi.DRM_ASAHI_BIND_WRITE
KERNEL_START = 0x7F_0000_0000
KERNEL_SIZE = 0x2000_0000
_paths = itertools.count(1)


def ptr(cdata) -> int:
    return int(ffi.cast("uintptr_t", cdata))


def render(vdm: int = NONE, cdm: int = NONE, cmd_type: int = uapi.DRM_ASAHI_CMD_RENDER, size: int | None = None,
           **fields) -> bytes:
    """A header + cmd_render record (a valid 16x16 no-op unless ``fields`` say otherwise)."""
    values = {"width_px": 16, "height_px": 16, "layers": 1, "samples": 1, "utile_width_px": 16,
              "utile_height_px": 16, **fields}
    payload = bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_render *", values)))
    return header(cmd_type, payload, vdm, cdm, size)


def blit(vdm: int = NONE, cdm: int = NONE, **fields) -> bytes:
    return render(vdm, cdm, cmd_type=uapi.DRM_ASAHI_CMD_BLIT, **fields)


def compute(vdm: int = NONE, cdm: int = NONE, size: int | None = None, **fields) -> bytes:
    payload = bytes(ffi.buffer(ffi.new("struct drm_asahi_cmd_compute *", fields)))
    return header(uapi.DRM_ASAHI_CMD_COMPUTE, payload, vdm, cdm, size)


def attachments(cmd_type: int, records: list[dict], vdm: int = NONE, cdm: int = NONE) -> bytes:
    payload = b"".join(bytes(ffi.buffer(ffi.new("struct drm_asahi_attachment *", r))) for r in records)
    return header(cmd_type, payload, vdm, cdm)


def header(cmd_type: int, payload: bytes, vdm: int, cdm: int, size: int | None = None) -> bytes:
    size = len(payload) if size is None else size
    head = ffi.new("struct drm_asahi_cmd_header *", {"cmd_type": cmd_type, "size": size,
                                                     "vdm_barrier": vdm, "cdm_barrier": cdm})
    return bytes(ffi.buffer(head)) + payload[:size]


class Dev:
    """One open DRM file."""

    def __init__(self, path: str = "/dev/dri/renderD128"):
        self.path = path
        self.fd = uapi.open(path)
        self.keep: list = []
        self.closed = False

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            uapi.close(self.fd)

    # ------------------------------------------------------------ ioctls
    def ioctl(self, _name: str, /, **fields):
        spec = next(s for s in uapi.drm.IOCTLS if s.name == f"DRM_IOCTL_{_name}")
        arg = ffi.new(f"{spec.struct} *", fields)
        uapi.ioctl(self.fd, spec.request, arg)
        return arg

    def errno_of(self, _name: str, /, **fields) -> int:
        with pytest.raises(OSError) as info:
            self.ioctl(_name, **fields)
        return info.value.errno

    def array(self, ctype: str, values) -> int:
        """A user array that stays alive with this file; its address. ``bytes`` for "char"."""
        arr = ffi.new(f"{ctype}[]", values if isinstance(values, bytes) else list(values))
        self.keep.append(arr)
        return ptr(arr)

    # ------------------------------------------------------------ objects
    def vm(self, kernel_start: int = KERNEL_START, kernel_size: int = KERNEL_SIZE) -> int:
        return self.ioctl("ASAHI_VM_CREATE", kernel_start=kernel_start, kernel_end=kernel_start + kernel_size).vm_id

    def gem(self, size: int = 0x4000, flags: int = 0, vm_id: int = 0) -> int:
        return self.ioctl("ASAHI_GEM_CREATE", size=size, flags=flags, vm_id=vm_id).handle

    def map(self, handle: int, length: int) -> memoryview:
        offset = self.ioctl("ASAHI_GEM_MMAP_OFFSET", handle=handle).offset
        return uapi.mmap(self.fd, offset, length)

    def bind_ops(self, vm_id: int, ops: list[dict], stride: int = 32):
        raw = b"".join(bytes(ffi.buffer(ffi.new("struct drm_asahi_gem_bind_op *", op)))[:stride].ljust(stride, b"\0")
                       for op in ops)
        buf = ffi.from_buffer(bytearray(raw))
        self.keep.append(buf)
        return self.ioctl("ASAHI_VM_BIND", vm_id=vm_id, num_binds=len(ops), stride=stride, userptr=ptr(buf))

    def bind(self, vm_id: int, handle: int, addr: int, size: int, offset: int = 0, flags: int = RW):
        return self.bind_ops(vm_id, [dict(flags=flags, handle=handle, offset=offset, range=size, addr=addr)])

    def unbind(self, vm_id: int, addr: int, size: int):
        return self.bind_ops(vm_id, [dict(flags=uapi.DRM_ASAHI_BIND_UNBIND, range=size, addr=addr)])

    def queue(self, vm_id: int, priority: int = uapi.DRM_ASAHI_PRIORITY_MEDIUM) -> int:
        return self.ioctl("ASAHI_QUEUE_CREATE", vm_id=vm_id, priority=priority).queue_id

    def syncobj(self, signaled: bool = False) -> int:
        return self.ioctl("SYNCOBJ_CREATE", flags=uapi.DRM_SYNCOBJ_CREATE_SIGNALED if signaled else 0).handle

    def submit(self, queue: int, cmdbuf: bytes, in_syncs=(), out_syncs=(), **fields):
        """``in_syncs``/``out_syncs``: handles (binary) or (handle, point) pairs (timeline)."""
        def sync(s):
            if isinstance(s, tuple):
                return {"sync_type": uapi.DRM_ASAHI_SYNC_TIMELINE_SYNCOBJ, "handle": s[0], "timeline_value": s[1]}
            return {"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ, "handle": s}
        syncs = [sync(s) for s in in_syncs] + [sync(s) for s in out_syncs]
        args = dict(syncs=self.array("struct drm_asahi_sync", syncs) if syncs else 0,
                    cmdbuf=self.array("char", cmdbuf) if cmdbuf else 0, queue_id=queue,
                    in_sync_count=len(in_syncs), out_sync_count=len(out_syncs), cmdbuf_size=len(cmdbuf))
        args.update(fields)
        return self.ioctl("ASAHI_SUBMIT", **args)

    def wait(self, handles, timeout_s: float = 5.0, flags: int = 0, points=None) -> int:
        deadline = time.monotonic_ns() + int(timeout_s * 1e9)
        if points is None:
            return self.ioctl("SYNCOBJ_WAIT", handles=self.array("__u32", handles), count_handles=len(handles),
                              timeout_nsec=deadline, flags=flags).first_signaled
        return self.ioctl("SYNCOBJ_TIMELINE_WAIT", handles=self.array("__u32", handles),
                          points=self.array("__u64", points), count_handles=len(handles),
                          timeout_nsec=deadline, flags=flags).first_signaled

    def signaled(self, handle: int, point: int | None = None) -> bool:
        """Poll one sync object (timeout 0)."""
        try:
            if point is None:
                self.ioctl("SYNCOBJ_WAIT", handles=self.array("__u32", [handle]), count_handles=1, timeout_nsec=0)
            else:
                self.ioctl("SYNCOBJ_TIMELINE_WAIT", handles=self.array("__u32", [handle]),
                           points=self.array("__u64", [point]), count_handles=1, timeout_nsec=0)
            return True
        except OSError as error:
            if error.errno == errno.ETIME:
                return False
            raise

    def kernel_file(self):
        """The kernel's file object behind this fd (for white-box checks only)."""
        return uapi.seam._files[self.fd][1]


def private_device(**kernel_args) -> tuple[Kernel, str]:
    """A fresh kernel on its own device path (for custom executors or configurations)."""
    kernel = Kernel(arena_size_B=kernel_args.pop("arena_size_B", 1 << 28), **kernel_args)
    path = f"/dev/shimgl/test{next(_paths)}"
    uapi.register_backend(path, kernel)
    return kernel, path


@pytest.fixture
def dev():
    """A DRM file on /dev/dri/renderD128 (the default kernel), closed at teardown."""
    d = Dev()
    yield d
    d.close()


@pytest.fixture
def open_private():
    """``open_private(**kernel_args) -> (kernel, Dev)`` on a fresh kernel; closed at teardown."""
    opened = []

    def make(**kernel_args):
        kernel, path = private_device(**kernel_args)
        d = Dev(path)
        opened.append((d, path))
        return kernel, d

    yield make
    for d, path in opened:
        d.close()
        uapi.unregister_backend(path)


class GateExecutor:
    """A test GPU: records each half it runs as (half, tag) where the tag is the
    command's stream base (vdm/cdm_ctrl_stream_base), blocks on ``gates[(half, tag)]``
    (a threading.Event) when one is set up, and runs ``actions[(half, tag)](command)``."""

    concurrent = True

    def __init__(self):
        import threading
        self.gates: dict = {}
        self.actions: dict = {}
        self.log: list = []
        self.commands: list = []
        self.lock = threading.Lock()

    def _run(self, half: str, command) -> None:
        tag = command.cmd.cdm_ctrl_stream_base if command.kind == "compute" else command.cmd.vdm_ctrl_stream_base
        with self.lock:
            self.log.append((half, tag))
            self.commands.append(command)
        gate = self.gates.get((half, tag))
        if gate is not None:
            assert gate.wait(10), f"gate {(half, tag)} never opened"
        action = self.actions.get((half, tag))
        if action is not None:
            action(command)
        with self.lock:
            self.log.append((half + " done", tag))

    def run_vertex(self, command) -> None:
        self._run("vertex", command)

    def run_fragment(self, command) -> None:
        self._run("fragment", command)

    def run_compute(self, command) -> None:
        self._run("compute", command)
