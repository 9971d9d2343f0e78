"""Fuzzing the kernel through the seam, as syzkaller fuzzes DRM drivers: random and
mutated ioctls (every request of the table, and random request numbers) with
arguments built from the struct layouts: pointers that are valid, NULL, unmapped,
read-only or wrapping; counts that are small, huge or off by one; handles that
exist (learned from earlier calls), are stale or random; command buffers made of
valid commands then mutated; closes of files with work in flight.

The only acceptable outcome of ``uapi.ioctl`` is 0 or an ``OSError`` with a kernel
errno (never EIO from the kernel's internal-error path). ``run(seed, n)`` is
deterministic for a seed up to the timing of GPU work. The normal suite runs a
short run; ``make fuzz`` runs the long one (``SHIMGL_FUZZ_IOCTLS`` ioctls, seeds from
``SHIMGL_FUZZ_SEED``, 100 by default).
"""

from __future__ import annotations

import collections
import ctypes
import errno
import mmap
import os
import time
import traceback

import numpy as np
import pytest

import uapi
from drmshim import Kernel
from drmshim.kernel import fds as export_fds
from drmshim.kernel import sync_ioctls
from drmshim.kernel.scheduler import UserQueue
from tests.drmshim.kernel.helpers import attachments, blit, compute, render

ffi = uapi.ffi
SPECS = uapi.drm.IOCTLS
COUNT_FIELDS = {"count_handles", "num_binds", "stride", "in_sync_count", "out_sync_count", "cmdbuf_size",
                "size", "name_len", "date_len", "desc_len"}
POINTER_FIELDS = {"handles", "points", "pointer", "syncs", "cmdbuf", "userptr", "name", "date", "desc"}
HANDLE_FIELDS = {"handle": "gem", "vm_id": "vm", "queue_id": "queue", "src_handle": "syncobj",
                 "dst_handle": "syncobj", "object_handle": "bind", "fd": "fd"}
INTERESTING_U32 = (0, 1, 2, 3, 4, 7, 8, 16, 64, 65, 0xFF, 0xFFFF, 0x10000, 1 << 24, 0x7FFFFFFF, 0x80000000,
                   0xFFFFFFFE, 0xFFFFFFFF)
INTERESTING_U64 = INTERESTING_U32 + (0x4000, 0x1_0000_0000, 0x7F_0000_0000, 0x7F_2000_0000, 0x7FFFFF8000,
                                     1 << 63, (1 << 64) - 1, (1 << 64) - 0x4000)
PAGE_B = 0x4000
VA = 0x1_0000_0000


ARENA_B = 4 << 20
PROT_NONE = 0
_libc = ctypes.CDLL(None, use_errno=True)
_libc.mprotect.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int]


class UserArena:
    """The fuzzer's user memory: a bump allocator over one mapping whose last
    pages are PROT_NONE (an address there is "unmapped" for the kernel) and one
    page before them read-only."""

    GUARD_B = 4 * mmap.PAGESIZE

    def __init__(self, size_B: int):
        self.map = mmap.mmap(-1, size_B)
        self.bytes = np.frombuffer(self.map, np.uint8)
        self.base = self.bytes.ctypes.data
        self.usable_B = size_B - self.GUARD_B - mmap.PAGESIZE
        self.read_only_address = self.base + self.usable_B
        self.guard_address = self.read_only_address + mmap.PAGESIZE
        assert _libc.mprotect(self.read_only_address, mmap.PAGESIZE, mmap.PROT_READ) == 0
        assert _libc.mprotect(self.guard_address, self.GUARD_B, PROT_NONE) == 0
        self.top = 0

    def put(self, raw: bytes) -> int:
        n = (len(raw) + 15) // 16 * 16
        if self.top + n > self.usable_B:
            self.top = 0
        offset = self.top
        self.top += n
        self.bytes[offset:offset + len(raw)] = np.frombuffer(raw, np.uint8)
        return self.base + offset

    def close(self) -> None:
        _libc.mprotect(self.base, len(self.map), mmap.PROT_READ | mmap.PROT_WRITE)
        del self.bytes
        self.map.close()


class IoctlFuzzer:
    """One private kernel, a few files, and what the fuzzer has learned about them."""

    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)
        self.kernel = Kernel(arena_size_B=1 << 27, gpu_timeout_ms=200)
        self.path = f"/dev/shimgl/fuzz{seed}-{os.getpid()}-{id(self)}"
        uapi.register_backend(self.path, self.kernel)
        self.fds = [uapi.open(self.path) for _ in range(2)]
        self.known = {fd: collections.defaultdict(set) for fd in self.fds}
        self.exported: set[int] = set()
        self.descriptors_before = set(export_fds._backend.by_fd)
        self.keep: list = []
        # All user memory the fuzzer hands the kernel lives in one arena of its own,
        # ending in inaccessible guard pages: whatever the kernel writes through a
        # wrong size lands there (or faults), never in the fuzzer's own heap.
        self.arena = UserArena(ARENA_B)
        self.unmapped = self.arena.guard_address
        self.read_only_address = self.arena.read_only_address
        self.errnos: collections.Counter = collections.Counter()
        self.bugs: list[str] = []
        self.calls = 0
        self.mmaps = 0

    # ------------------------------------------------------------ values
    def _pick(self, values):
        return values[int(self.rng.integers(0, len(values)))]

    def _buffer(self, size_B: int, content: bytes | None = None) -> int:
        size_B = max(1, min(size_B, 1 << 16))
        raw = content if content is not None else self.rng.integers(0, 256, size_B, dtype=np.uint8).tobytes()
        return self.arena.put(raw[:size_B].ljust(size_B, b"\0"))

    def _known_list(self, fd: int, kind: str) -> list[int]:
        return sorted(self.known.get(fd, {}).get(kind, ()))

    def _handle(self, fd: int, kind: str) -> int:
        r = self.rng.random()
        pool = self._known_list(fd, kind) if kind != "fd" else sorted(self.exported)
        if pool and r < 0.75:
            return self._pick(pool)
        return int(self._pick((0, 1, 2, 3, 0xFFFFFFFF, int(self.rng.integers(0, 1 << 32)))))

    def _array_of(self, fd: int, field: str, count: int) -> bytes:
        n = max(0, min(count, 4096))
        if field == "handles":
            return np.array([self._handle(fd, "syncobj") for _ in range(n)], np.uint32).tobytes()
        if field == "points":
            return np.array([self._pick((0, 1, 2, 5, 1 << 40, (1 << 64) - 1)) for _ in range(n)], np.uint64).tobytes()
        if field == "syncs":
            out = b""
            for _ in range(n):
                sync = ffi.new("struct drm_asahi_sync *", {"sync_type": int(self.rng.integers(0, 3)),
                                                           "handle": self._handle(fd, "syncobj"),
                                                           "timeline_value": int(self._pick((0, 0, 1, 7)))})
                out += bytes(ffi.buffer(sync))
            return out
        if field == "userptr":
            out = b""
            for _ in range(n):
                op = {"flags": int(self._pick((2, 4, 6, 1, 8 | 2, int(self.rng.integers(0, 16))))),
                      "handle": self._handle(fd, "gem"), "offset": int(self._pick((0, PAGE_B, 1, 1 << 40))),
                      "range": int(self._pick((PAGE_B, 2 * PAGE_B, 0, 1 << 40, 123))),
                      "addr": int(self._pick((VA, VA + PAGE_B, 0, 0x7F_0000_0000, (1 << 64) - PAGE_B)))}
                out += bytes(ffi.buffer(ffi.new("struct drm_asahi_gem_bind_op *", op)))
            return out
        return b""

    def _cmdbuf(self, fd: int) -> bytes:
        """Valid-looking commands, then mutations."""
        parts = []
        for _ in range(int(self.rng.integers(1, 4))):
            kind = self.rng.integers(0, 5)
            if kind == 0:
                parts.append(compute(cdm_ctrl_stream_base=int(self._pick((0, VA, VA + 0x100, 1 << 63)))))
            elif kind == 1:
                parts.append(render(vdm_ctrl_stream_base=int(self._pick((0, VA))), size=self._pick((None, 240)),
                                    feedback_handle=self._handle(fd, "gem") if self.rng.random() < 0.3 else 0,
                                    feedback_size=int(self._pick((0, 8, 128)))))
            elif kind == 2:
                parts.append(blit())
            elif kind == 3:
                parts.append(attachments(uapi.DRM_ASAHI_SET_FRAGMENT_ATTACHMENTS, [{"pointer": VA, "size": 64}]))
            else:
                parts.append(compute(vdm=int(self._pick((0, 1, 0xFFFF))), cdm=int(self._pick((0, 1, 2, 0xFFFF)))))
        raw = bytearray(b"".join(parts))
        for _ in range(int(self.rng.integers(0, 4))):
            i = int(self.rng.integers(0, len(raw)))
            raw[i] = int(self.rng.integers(0, 256))
        return bytes(raw)

    def _pointer(self, fd: int, field: str, fields: dict) -> int:
        r = self.rng.random()
        if r < 0.06:
            return 0
        if r < 0.10:
            return self.unmapped
        if r < 0.12:
            return self.read_only_address
        if r < 0.14:
            return int(self._pick(((1 << 64) - 8, (1 << 63), int(self.rng.integers(0, 1 << 63)))))
        if field == "cmdbuf":
            raw = self._cmdbuf(fd)
            fields["cmdbuf_size"] = len(raw) if self.rng.random() < 0.9 else int(self._pick(INTERESTING_U32))
            return self._buffer(len(raw), raw)
        if field in ("handles", "points", "syncs", "userptr"):
            count = fields.get("count_handles", fields.get("num_binds", 0))
            if field == "syncs":
                count = fields.get("in_sync_count", 0) + fields.get("out_sync_count", 0)
            if field == "userptr":
                stride = fields.get("stride", 32)
                raw = self._array_of(fd, field, count)
                if stride != 32 and 0 < stride <= 256:
                    ops = [raw[i:i + 32] for i in range(0, len(raw), 32)]
                    raw = b"".join(op[:stride].ljust(stride, b"\0") for op in ops)
                return self._buffer(len(raw) + 64, raw)
            raw = self._array_of(fd, field, count)
            return self._buffer(len(raw) + 64, raw)
        return self._buffer(int(self._pick((8, 64, 600, 4096))))

    def _count(self, name: str) -> int:
        r = self.rng.random()
        if name == "stride":
            return int(self._pick((32, 32, 32, 16, 40, 0, 1, 0xFFFFFFFF)))
        if name in ("in_sync_count", "out_sync_count"):
            return int(self._pick((0, 0, 1, 2, 3, 0xFFFFFFFF))) if r < 0.9 else int(self.rng.integers(0, 1 << 32))
        if r < 0.8:
            return int(self._pick((0, 1, 1, 2, 3, 5, 8)))
        return int(self._pick(INTERESTING_U32 if name != "size" else INTERESTING_U64))

    def build(self, fd: int, spec) -> object:
        fields: dict = {}
        names = [n for n, _ in ffi.typeof(spec.struct).fields]
        types = dict((n, f.type) for n, f in ffi.typeof(spec.struct).fields)
        for name in names:                          # counts first: pointers size their arrays from them
            if name in COUNT_FIELDS:
                fields[name] = self._count(name)
        for name in names:
            if name in COUNT_FIELDS and name not in ("cmdbuf_size",):
                continue
            kind = types[name].kind
            if name in POINTER_FIELDS:
                value = self._pointer(fd, name, fields)
                fields[name] = ffi.cast("char *", value) if kind == "pointer" else value
            elif name in HANDLE_FIELDS:
                if name == "handle" and spec.name.startswith("DRM_IOCTL_SYNCOBJ"):
                    fields[name] = self._handle(fd, "syncobj")
                else:
                    fields[name] = self._handle(fd, HANDLE_FIELDS[name])
            elif name == "timeout_nsec":
                fields[name] = int(self._pick((0, -1, time.monotonic_ns() + 2_000_000)))
            elif name in ("pad", "flags", "param_group", "op", "priority", "capability"):
                fields[name] = 0 if self.rng.random() < 0.7 else int(self._pick(INTERESTING_U32[:12]))
            elif name in ("kernel_start", "kernel_end"):
                fields[name] = int(self._pick((0x7F_0000_0000, 0x7F_2000_0000, 0x7F_4000_0000, 0, (1 << 64) - 1)))
            elif name in ("offset", "range", "src_point", "dst_point", "usc_exec_base", "deadline_nsec"):
                fields[name] = int(self._pick(INTERESTING_U64))
            elif name == "cmdbuf_size":
                pass
            elif kind == "primitive":
                fields[name] = int(self._pick(INTERESTING_U64))
        return ffi.new(f"{spec.struct} *", {k: _fit(types[k], v) for k, v in fields.items() if k in names})

    # ------------------------------------------------------------ calls
    def _learn(self, fd: int, spec, arg) -> None:
        learned = {"DRM_IOCTL_ASAHI_GEM_CREATE": ("gem", "handle"), "DRM_IOCTL_ASAHI_VM_CREATE": ("vm", "vm_id"),
                   "DRM_IOCTL_ASAHI_QUEUE_CREATE": ("queue", "queue_id"),
                   "DRM_IOCTL_SYNCOBJ_CREATE": ("syncobj", "handle"),
                   "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE": ("syncobj", "handle"),
                   "DRM_IOCTL_PRIME_FD_TO_HANDLE": ("gem", "handle"),
                   "DRM_IOCTL_ASAHI_GEM_BIND_OBJECT": ("bind", "object_handle")}
        if spec.name in learned:
            kind, field = learned[spec.name]
            self.known[fd][kind].add(int(getattr(arg, field)))
        if spec.name == "DRM_IOCTL_ASAHI_GEM_MMAP_OFFSET":
            self.known[fd]["offset"].add(int(arg.offset))
        if spec.name in ("DRM_IOCTL_PRIME_HANDLE_TO_FD", "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD"):
            self.exported.add(int(arg.fd))

    def call(self, fd: int, request: int, arg, spec=None) -> None:
        self.calls += 1
        try:
            uapi.ioctl(fd, request, arg)
        except OSError as error:
            code = error.errno
            self.errnos[errno.errorcode.get(code, str(code))] += 1
            if code == errno.EIO and "internal kernel error" in str(error):
                self.bugs.append(f"{spec.name if spec else hex(request)}: {error}")
            return
        except BaseException as error:  # noqa: BLE001 - what the fuzzer looks for
            frame = traceback.extract_tb(error.__traceback__)[-1]
            self.bugs.append(f"{spec.name if spec else hex(request)}: {type(error).__name__} at "
                             f"{os.path.basename(frame.filename)}:{frame.lineno}: {error}")
            return
        self.errnos["OK"] += 1
        if spec is not None:
            self._learn(fd, spec, arg)

    def step(self) -> None:
        rng = self.rng
        fd = self._pick(self.fds) if rng.random() > 0.02 else int(self._pick((-1, 0, 999_999)))
        r = rng.random()
        if r < 0.01 and fd in self.fds:                     # close a file, maybe with work in flight
            uapi.close(fd)
            self.fds[self.fds.index(fd)] = new = uapi.open(self.path)
            self.known.pop(fd, None)
            self.known[new] = collections.defaultdict(set)
            return
        if r < 0.025:                                        # mmap of objects, exports and nonsense
            target = fd if rng.random() < 0.7 or not self.exported else self._pick(sorted(self.exported))
            offsets = self._known_list(target, "offset")
            offset = int(self._pick(offsets)) if offsets and rng.random() < 0.6 else \
                int(self._pick((0, PAGE_B, -1, 1 << 40, int(rng.integers(0, 1 << 27)) // PAGE_B * PAGE_B)))
            length = int(self._pick((1, PAGE_B, 2 * PAGE_B, 0, -5, 1 << 40)))
            self.mmaps += 1
            try:
                view = uapi.mmap(target, offset, length)
                assert isinstance(view, memoryview) and len(view) == length
                self.errnos["mmap OK"] += 1
            except OSError as error:
                self.errnos["mmap " + errno.errorcode.get(error.errno, str(error.errno))] += 1
            except BaseException as error:  # noqa: BLE001
                self.bugs.append(f"mmap({offset}, {length}): {type(error).__name__}: {error}")
            return
        if r < 0.04:                                         # a request number nobody defined
            request = uapi.drm.ioctls.ioc(self._pick(("", "W", "R", "WR")), int(self._pick((ord("d"), 0x41))),
                                          int(rng.integers(0, 256)), int(rng.integers(0, 512)))
            self.call(fd, request, ffi.cast("char *", self._buffer(1024)) if rng.random() < 0.5 else ffi.new("char[16384]"))
            return
        spec = self._pick(SPECS)
        if r < 0.07:                                         # an argument that is not a struct pointer
            arg = self._pick((None, 0, b"\0" * 64, ffi.NULL, ffi.cast("void *", self.unmapped),
                              ffi.cast("void *", self.read_only_address)))
            self.call(fd, spec.request, arg, spec)
            return
        request = spec.request
        if r < 0.10:                                         # a shorter (older) or longer struct
            size = max(0, ffi.sizeof(spec.struct) + int(self._pick((-8, -4, -1, 8, 64))))
            request = uapi.drm.ioctls.ioc(spec.direction, ord("d"), spec.nr, size)
        self.call(fd, request, self.build(fd, spec), spec)

    def setup(self) -> None:
        """Some valid objects to start from, in each file."""
        for fd in self.fds:
            for spec_name, fields in (("ASAHI_VM_CREATE", {"kernel_start": 0x7F_0000_0000,
                                                           "kernel_end": 0x7F_2000_0000}),
                                      ("ASAHI_GEM_CREATE", {"size": 2 * PAGE_B}), ("SYNCOBJ_CREATE", {}),
                                      ("SYNCOBJ_CREATE", {"flags": 1})):
                spec = next(s for s in SPECS if s.name == f"DRM_IOCTL_{spec_name}")
                self.call(fd, spec.request, ffi.new(f"{spec.struct} *", fields), spec)
            vm = self._known_list(fd, "vm")[0]
            gem = self._known_list(fd, "gem")[0]
            for spec_name, fields in (("ASAHI_QUEUE_CREATE", {"vm_id": vm, "priority": 1}),):
                spec = next(s for s in SPECS if s.name == f"DRM_IOCTL_{spec_name}")
                self.call(fd, spec.request, ffi.new(f"{spec.struct} *", fields), spec)
            op = ffi.new("struct drm_asahi_gem_bind_op *", {"flags": 6, "handle": gem, "range": 2 * PAGE_B,
                                                             "addr": VA})
            spec = next(s for s in SPECS if s.name == "DRM_IOCTL_ASAHI_VM_BIND")
            self.call(fd, spec.request, ffi.new(f"{spec.struct} *", {"vm_id": vm, "num_binds": 1, "stride": 32,
                                                                     "userptr": self._buffer(32, bytes(ffi.buffer(op)))}),
                      spec)

    def close(self) -> None:
        for fd in self.fds:
            uapi.close(fd)
        for fd in self.exported:
            try:
                uapi.close(fd)
            except OSError:
                pass
        # descriptors whose number never reached the fuzzer: an export called with a
        # request size that stops before the struct's fd field succeeds and returns only
        # the bytes the size covers (as Linux's drm_ioctl does). A process exit closes
        # them; so does the end of a run.
        for fd in set(export_fds._backend.by_fd) - self.descriptors_before:
            try:
                uapi.close(fd)
            except OSError:
                pass
        uapi.unregister_backend(self.path)
        self.arena.close()


def _fit(ctype, value):
    """``value`` wrapped into a primitive field's range (two's complement when signed)."""
    if ctype.kind != "primitive" or not isinstance(value, int):
        return value
    bits = ffi.sizeof(ctype) * 8
    value &= (1 << bits) - 1
    if ctype.cname in ("int", "long", "long long") and value >= 1 << (bits - 1):
        value -= 1 << bits
    return value


def run(seed: int, n: int) -> IoctlFuzzer:
    """``n`` fuzzed ioctls from ``seed``; the fuzzer (its errnos, bugs, call count)."""
    fuzzer = IoctlFuzzer(seed)
    try:
        fuzzer.setup()
        for _ in range(n):
            fuzzer.step()
    finally:
        fuzzer.close()
    _check_no_leak(fuzzer)
    return fuzzer


def _check_no_leak(fuzzer, wait_s: float = 10.0) -> None:
    """Every file closed: the kernel's GPU memory arena is wholly free again once
    the work still in flight retires (a leak is a bug of the run)."""
    arena = fuzzer.kernel.arena
    deadline = time.monotonic() + wait_s
    while sum(arena._free_sizes) != arena.size_B and time.monotonic() < deadline:
        time.sleep(0.05)
    held = arena.size_B - sum(arena._free_sizes)
    if held:
        fuzzer.bugs.append(f"leak: {held} bytes of the GPU arena still allocated after every file closed")


@pytest.fixture
def short_waits(monkeypatch, tmp_path):
    """Bounded waits everywhere a fuzzed call could block (the kernel's own bounds are
    1 s to 10 s; a fuzzer makes thousands of such calls), and the GPU fault core
    dumps of fuzzed work kept out of the shared dump directory."""
    monkeypatch.setattr(UserQueue, "FLUSH_TIMEOUT_S", 0.05)
    monkeypatch.setattr(sync_ioctls, "TRANSFER_WAIT_S", 0.01)
    monkeypatch.setenv("SHIMGL_DUMP_DIR", str(tmp_path / "dumps"))


def _check(fuzzers) -> None:
    bugs = [b for f in fuzzers for b in f.bugs]
    assert not bugs, "\n".join(bugs[:20])


def test_short_ioctl_fuzz_run_only_raises_kernel_errnos(short_waits):
    fuzzers = [run(seed, 250) for seed in range(3)]
    _check(fuzzers)
    errnos = sum((f.errnos for f in fuzzers), collections.Counter())
    assert errnos["OK"] > 50 and errnos["EFAULT"] > 10 and errnos["EINVAL"] > 50, errnos


@pytest.mark.slow
def test_long_ioctl_fuzz_run(short_waits):
    total = int(os.environ.get("SHIMGL_FUZZ_IOCTLS", "100000"))
    first_seed = int(os.environ.get("SHIMGL_FUZZ_SEED", "100"))
    per_seed = 5000
    fuzzers = []
    rss_start_B = _rss_B()
    for seed in range(first_seed, first_seed + max(1, total // per_seed)):
        fuzzers.append(run(seed, per_seed))
        print(f"ioctl fuzz: seed {seed} done, resident set {_rss_B() / 2**20:.0f} MiB", flush=True)
    errnos = sum((f.errnos for f in fuzzers), collections.Counter())
    print(f"ioctl fuzz: {sum(f.calls for f in fuzzers)} ioctls, outcomes {dict(errnos.most_common())}; "
          f"resident set {rss_start_B / 2**20:.0f} MiB before, {_rss_B() / 2**20:.0f} MiB after")
    _check(fuzzers)


def _rss_B() -> int:
    """The process's resident set in bytes (Linux /proc; 0 elsewhere)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        return 0


@pytest.mark.parametrize("name", ["DRM_IOCTL_PRIME_HANDLE_TO_FD", "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD"])
def test_an_export_whose_result_cannot_be_written_back_leaves_no_descriptor(name):
    """Found by the long run (16 to 48 KiB of the arena held after every file was
    closed): PRIME_HANDLE_TO_FD with its argument in read-only memory installed the
    dma-buf descriptor, then failed to write its number back (EFAULT); the
    descriptor, which userspace never saw, kept the buffer alive. Now it is closed
    again: EFAULT, no descriptor left, the buffer freed with its handle."""
    from drmshim.kernel import fds

    kernel = Kernel(arena_size_B=1 << 24)
    path = f"/dev/shimgl/export-efault-{os.getpid()}-{name}"
    uapi.register_backend(path, kernel)
    user = UserArena(1 << 20)
    try:
        fd = uapi.open(path)
        create = ffi.new("struct drm_asahi_gem_create *", {"size": PAGE_B})
        uapi.ioctl(fd, uapi.DRM_IOCTL_ASAHI_GEM_CREATE, create)
        if name == "DRM_IOCTL_PRIME_HANDLE_TO_FD":
            struct, fields = "struct drm_prime_handle", {"handle": create.handle, "flags": uapi.DRM_CLOEXEC}
        else:
            syncobj = ffi.new("struct drm_syncobj_create *")
            uapi.ioctl(fd, uapi.DRM_IOCTL_SYNCOBJ_CREATE, syncobj)
            struct, fields = "struct drm_syncobj_handle", {"handle": syncobj.handle}
        raw = bytes(ffi.buffer(ffi.new(f"{struct} *", fields)))
        _libc.mprotect(user.read_only_address, mmap.PAGESIZE, mmap.PROT_READ | mmap.PROT_WRITE)
        user.bytes[user.usable_B:user.usable_B + len(raw)] = np.frombuffer(raw, np.uint8)
        _libc.mprotect(user.read_only_address, mmap.PAGESIZE, mmap.PROT_READ)
        open_before = dict(fds._backend.by_fd)
        with pytest.raises(OSError) as caught:
            uapi.ioctl(fd, getattr(uapi, name), ffi.cast(f"{struct} *", user.read_only_address))
        assert caught.value.errno == errno.EFAULT
        assert fds._backend.by_fd == open_before          # no descriptor left behind
        uapi.close(fd)
        assert sum(kernel.arena._free_sizes) == kernel.arena.size_B      # the buffer went with its file
    finally:
        uapi.unregister_backend(path)
        user.close()
