"""copy_from_user / copy_to_user for the seam's user pointers.

Sole responsibility: turn the u64 "user pointers" of ioctl structs (addresses in
this process) into bytes and structs, and back, with the kernel's semantics: an
address range that is not mapped (or, for a write, not writable) in the process
is ``EFAULT``, never a crash. The check and the copy are one system call,
``process_vm_readv``/``process_vm_writev`` on our own process: the host kernel
walks our page tables and answers EFAULT exactly where a real ``copy_from_user``
would. A range that wraps past 2^64 is EFAULT before anything is touched.
The one exception is an ioctl's argument struct that the caller allocated with
``ffi.new`` (``argument_of``): memory cffi owns, mapped and writable while the
cdata lives, so when it covers the copy it is copied plainly (``memmove``).

Every copy is bounded before any buffer is allocated: a single copy larger than
``MAX_COPY_B`` is ``ENOMEM``, as ``kmalloc_array`` fails for such sizes in the
kernel. Callers that size an array from a user count call :func:`array_size`
first, which applies the same bound to ``count * item_size``.

Where the host forbids ``process_vm_readv`` (seccomp), the range is checked
against ``/proc/self/maps`` instead (the same answer, a little slower).

No C is parsed when this module is imported: the buffers are the UAPI's cffi
(compiled ahead of time, ``uapi.drm``), an iovec is two 64-bit words of it
(``{void *iov_base; size_t iov_len;}`` on the 64-bit hosts we run on), and the
two system calls are called through ctypes (loaded by numpy in every process
of ours). A cdef of its own here cost ~25 ms of pycparser at every start.
"""

from __future__ import annotations

import ctypes
import os
import threading

import uapi

from .errors import errno, fail

__all__ = ["copy_from_user", "copy_ranges_from_user", "copy_to_user", "copy_struct_from_user", "copy_struct_to_user", "struct_from_bytes",
           "array_size", "address_of", "argument_of", "check_user_range", "mapped_from", "MAX_COPY_B"]

ffi = uapi.ffi

#: The largest single user copy the kernel accepts (KMALLOC_MAX_SIZE of a 16 KiB
#: page kernel: 2^(10 + 14) bytes); larger is ENOMEM.
MAX_COPY_B = 1 << 24
_ADDRESS_LIMIT = 1 << 64

assert ctypes.sizeof(ctypes.c_void_p) == ctypes.sizeof(ctypes.c_size_t) == 8, "an iovec is two 64-bit words"


def _vm_call(name: str):
    """``ssize_t name(int pid, const struct iovec *local, unsigned long liovcnt,
    const struct iovec *remote, unsigned long riovcnt, unsigned long flags)``."""
    fn = getattr(ctypes.CDLL(None, use_errno=True), name)
    fn.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_void_p, ctypes.c_ulong, ctypes.c_ulong)
    fn.restype = ctypes.c_ssize_t
    return fn


_process_vm_readv = _vm_call("process_vm_readv")
_process_vm_writev = _vm_call("process_vm_writev")
_local = threading.local()
_UINTPTR = ffi.typeof("uintptr_t")
_CHARS = ffi.typeof("char[]")
_U64S = ffi.typeof("uint64_t[]")
_struct_types: dict[str, tuple[object, int]] = {}
_POINTER_TYPES: set = set()     # the cffi pointer and array types ioctl arguments came as
#: The Python type of the cdata ``ffi.new`` returns: memory cffi allocated, mapped and
#: writable for as long as the cdata lives (a cast pointer or a buffer's is another type).
_OWNED = type(ffi.new("char[1]"))
_owned_sizes: dict = {}         # cffi pointer type -> the bytes ``ffi.new`` of it allocates


def _struct_type(ctype: str) -> tuple[object, int]:
    """(the cffi type ``ctype *``, ``sizeof(ctype)``), parsed once per name: every
    ioctl makes its argument and records from them."""
    known = _struct_types.get(ctype)
    if known is None:
        known = _struct_types[ctype] = (ffi.typeof(f"{ctype} *"), ffi.sizeof(ctype))
    return known


def _iovecs():
    """One local and one remote iovec per thread (their addresses, and the two
    words iov_base, iov_len of each), reused by every copy."""
    iov = getattr(_local, "iov", None)
    if iov is None:
        words = ffi.new("uint64_t[4]")
        base = int(ffi.cast("uintptr_t", words))
        iov = _local.iov = (words, base, base + 16)
    return iov


def _check_range(address: int, size_B: int) -> None:
    if size_B < 0 or size_B > MAX_COPY_B:
        raise fail(errno.ENOMEM, f"a {size_B}-byte user copy is larger than {MAX_COPY_B} bytes")
    if address == 0:
        raise fail(errno.EFAULT, "NULL user pointer")
    if address < 0 or address + size_B > _ADDRESS_LIMIT:
        raise fail(errno.EFAULT, f"user range 0x{address:x}+{size_B} wraps the address space")


def _transfer(writing: bool, local, address: int, size_B: int) -> None:
    """One process_vm_{read,write}v of ``size_B`` bytes between ``local`` (a cffi
    buffer) and user ``address``; EFAULT unless every byte moved."""
    words, mine, theirs = _iovecs()
    words[0], words[1] = int(ffi.cast(_UINTPTR, local)), size_B
    words[2], words[3] = address, size_B
    call = _process_vm_writev if writing else _process_vm_readv
    moved = call(_PID[0], mine, 1, theirs, 1, 0)
    if moved == size_B:
        return
    err = ctypes.get_errno()
    if moved < 0 and err in (errno.ENOSYS, errno.EPERM):
        _fallback(writing, local, address, size_B)
        return
    kind = "write to" if writing else "read from"
    raise fail(errno.EFAULT, f"{kind} unmapped user memory at 0x{address:x}+{size_B}")


def _covered(address: int, size_B: int, keep, attempts: int = 1) -> bool:
    """Whether the mappings of /proc/self/maps whose line ``keep(perms, line)``
    accepts cover ``[address, address + size_B)``. The file is not read atomically:
    while another thread maps or unmaps memory a line may be missed, so a range
    found uncovered is looked at again, up to ``attempts`` reads."""
    return any(_covered_once(address, size_B, keep) for _ in range(attempts))


def _covered_once(address: int, size_B: int, keep) -> bool:
    end = address + size_B
    with open("/proc/self/maps") as maps:
        runs = []
        for line in maps:
            span, perms = line.split()[:2]
            lo, hi = (int(x, 16) for x in span.split("-"))
            if hi > address and lo < end and keep(perms, line):
                runs.append((lo, hi))
    covered = address
    for lo, hi in sorted(runs):
        if lo > covered:
            break
        covered = max(covered, hi)
    return covered >= end


def check_user_range(address: int, size_B: int, writing: bool) -> None:
    """EFAULT unless every byte of the user range is mapped readable (writable when
    ``writing``); no size bound, nothing copied (GEM_USERPTR)."""
    if address <= 0 or address + size_B > _ADDRESS_LIMIT:
        raise fail(errno.EFAULT, f"user range 0x{address:x}+{size_B} is outside the address space")
    need = "w" if writing else "r"
    if not _covered(address, size_B, lambda perms, line: need in perms, attempts=3):
        raise fail(errno.EFAULT, f"user range 0x{address:x}+{size_B} is not mapped")


def mapped_from(address: int, size_B: int, tag: str) -> bool:
    """Whether the range is mapped wholly by mappings whose maps line contains ``tag``
    (a line is read with a space after it, so a tag may end in one)."""
    return _covered(address, size_B, lambda perms, line: tag in line.rstrip("\n") + " ", attempts=3)


def _fallback(writing: bool, local, address: int, size_B: int) -> None:
    """The same check through /proc/self/maps, then a plain copy."""
    need = "w" if writing else "r"
    if not _covered(address, size_B, lambda perms, line: need in perms):
        raise fail(errno.EFAULT, f"user range 0x{address:x}+{size_B} is not mapped")
    if writing:
        ffi.memmove(ffi.cast("char *", address), ffi.buffer(local, size_B), size_B)
    else:
        ffi.buffer(local, size_B)[:] = ffi.buffer(ffi.cast("char *", address), size_B)[:]


def _pid() -> list[int]:
    pid = [os.getpid()]
    if hasattr(os, "register_at_fork"):
        os.register_at_fork(after_in_child=lambda: pid.__setitem__(0, os.getpid()))
    return pid


_PID = _pid()


def array_size(count: int, item_size_B: int) -> int:
    """``count * item_size_B`` for a user array, ENOMEM beyond ``MAX_COPY_B``
    (the kernel's ``kmalloc_array`` overflow and size checks)."""
    if count < 0 or item_size_B < 0:
        raise fail(errno.EINVAL, "negative array size")
    size_B = count * item_size_B
    if size_B > MAX_COPY_B:
        raise fail(errno.ENOMEM, f"{count} x {item_size_B}-byte user array is larger than {MAX_COPY_B} bytes")
    return size_B


def copy_from_user(address: int, size_B: int) -> bytes:
    """``size_B`` bytes at user ``address``; EFAULT when any of them is not readable."""
    if size_B == 0:
        return b""
    _check_range(address, size_B)
    out = ffi.new(_CHARS, size_B)
    _transfer(False, out, address, size_B)
    return ffi.buffer(out)[:]


def copy_ranges_from_user(ranges: list[tuple[int, int]]) -> list[bytes] | None:
    """The bytes of several user ranges ``(address, size_B)``, in one system call;
    None when any range is empty, too large, outside the address space or not
    readable, or the host refuses the call: the caller then copies them one by one
    with :func:`copy_from_user`, which names the error of the first bad one."""
    total_B = 0
    for address, size_B in ranges:
        if size_B <= 0 or size_B > MAX_COPY_B or address <= 0 or address + size_B > _ADDRESS_LIMIT:
            return None
        total_B += size_B
    if total_B > MAX_COPY_B:
        return None
    out = ffi.new(_CHARS, total_B)
    count = len(ranges)
    local = int(ffi.cast(_UINTPTR, out))
    iovecs = []                                  # count local iovecs, then count remote ones
    for _, size_B in ranges:
        iovecs += (local, size_B)
        local += size_B
    for address, size_B in ranges:
        iovecs += (address, size_B)
    words = ffi.new(_U64S, iovecs)
    mine = int(ffi.cast(_UINTPTR, words))
    if _process_vm_readv(_PID[0], mine, count, mine + 16 * count, count, 0) != total_B:
        return None
    data = ffi.buffer(out)[:]
    if count == 1:
        return [data]
    pieces, start = [], 0
    for _, size_B in ranges:
        pieces.append(data[start:start + size_B])
        start += size_B
    return pieces


def copy_to_user(address: int, data: bytes) -> None:
    """Write ``data`` at user ``address``; EFAULT when any byte is not writable
    (the bytes before the first bad page may have been written, as with the
    kernel's ``copy_to_user``)."""
    if not data:
        return
    size_B = len(data)
    _check_range(address, size_B)
    src = ffi.from_buffer(data if isinstance(data, (bytes, bytearray)) else bytes(data))
    _transfer(True, src, address, size_B)


def copy_struct_from_user(ctype: str, address: int, size_B: int, owned=None, owned_B: int = 0):
    """A new zeroed ``ctype`` with the ``size_B`` (at most its size) bytes at user
    ``address`` over its start: an ioctl argument, copied in place (no
    intermediate bytes). ``owned``: the argument's cdata when ``argument_of`` found
    it to be ``owned_B`` bytes cffi allocated (known mapped: a plain copy when they
    cover the read; else the system call checks the range)."""
    pointer, struct_size_B = _struct_type(ctype)
    out = ffi.new(pointer)
    if size_B:
        _check_range(address, size_B)
        n = min(size_B, struct_size_B)
        if n <= owned_B:
            ffi.memmove(out, owned, n)
        else:
            _transfer(False, out, address, n)
    return out


def copy_struct_to_user(address: int, cdata, size_B: int, owned=None, owned_B: int = 0) -> None:
    """Write the first ``size_B`` bytes of the struct ``cdata`` at user ``address``
    (``owned``, ``owned_B``: as for ``copy_struct_from_user``; cffi's memory is writable)."""
    if size_B:
        _check_range(address, size_B)
        if size_B <= owned_B:
            ffi.memmove(owned, cdata, size_B)
        else:
            _transfer(True, cdata, address, size_B)


def address_of(cdata) -> int:
    """The address of a cffi pointer or array (an ioctl argument); EFAULT for
    anything else (an int, bytes, None...)."""
    if not isinstance(cdata, ffi.CData):
        raise fail(errno.EFAULT, f"the ioctl argument is not a pointer to memory ({type(cdata).__name__})")
    try:
        ctype = ffi.typeof(cdata)
    except TypeError:
        raise fail(errno.EFAULT, "the ioctl argument is not a pointer to memory") from None
    if ctype not in _POINTER_TYPES:
        if ctype.kind not in ("pointer", "array"):
            raise fail(errno.EFAULT, f"the ioctl argument is a {ctype.kind}, not a pointer")
        _POINTER_TYPES.add(ctype)
    return int(ffi.cast(_UINTPTR, cdata))


def argument_of(cdata) -> tuple[int, int]:
    """(``address_of(cdata)``, how many bytes from there cffi allocated for it: its
    ``ffi.new`` struct or array while it lives, else 0 - a cast pointer or a buffer's,
    whose memory only the system call can check)."""
    address = address_of(cdata)
    if type(cdata) is not _OWNED:
        return address, 0
    ctype = ffi.typeof(cdata)
    size_B = _owned_sizes.get(ctype)
    if size_B is None:
        # an array's cdata knows its length; a pointer's ffi.new allocated one item
        size_B = ffi.sizeof(cdata) if ctype.kind == "array" else ffi.sizeof(ctype.item)
        if ctype.kind != "array":
            _owned_sizes[ctype] = size_B
    return address, size_B


def struct_from_bytes(ctype: str, data: bytes):
    """A new zeroed ``ctype`` with ``data`` copied over its first bytes (shorter is zero-extended)."""
    pointer, struct_size_B = _struct_type(ctype)
    out = ffi.new(pointer)
    n = min(len(data), struct_size_B)
    ffi.memmove(out, data, n)
    return out

