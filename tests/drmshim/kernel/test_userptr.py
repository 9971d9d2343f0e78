"""GEM_USERPTR (a shimgl extension, i915's userptr): a GEM object over the process's
own pages. CPU stores to the user range are seen by the GPU through the object and
GPU stores through the object in the user range; the range keeps the final bytes in
its own pages once the object is gone; the errors."""

from __future__ import annotations

import ctypes
import errno
import mmap

import numpy as np
import pytest

from drmshim.kernel.userptr import HOST_PAGE_B



def _user_memory(pages: int):
    """Page-aligned anonymous memory (as a program's aligned malloc) and its address."""
    m = mmap.mmap(-1, pages * HOST_PAGE_B)
    arr = np.frombuffer(m, np.uint8)
    return m, arr, arr.ctypes.data


def test_cpu_and_gpu_share_the_pages(dev):
    m, arr, addr = _user_memory(3)
    arr[:] = np.arange(arr.size) % 251                       # the bytes before pinning stay
    handle = dev.ioctl("ASAHI_GEM_USERPTR", pointer=addr, size=arr.size).handle
    vm = dev.vm()
    dev.bind(vm, handle, 0x1_0000_0000, 0x4000)               # the object is whole 16 KiB GPU pages
    gpu = dev.kernel_file().vms.items[vm]
    assert gpu.read(0x1_0000_0000, 16, "VDM").tolist() == list(range(16))
    arr[100:104] = [9, 8, 7, 6]                                # a CPU store, no call in between
    assert gpu.read(0x1_0000_0000 + 100, 4, "VDM").tolist() == [9, 8, 7, 6]
    gpu.write(0x1_0000_0000 + 5000, b"\xAA\xBB\xCC", "PBE")  # a GPU store
    assert arr[5000:5003].tolist() == [0xAA, 0xBB, 0xCC]
    view = dev.map(handle, 0x4000)                             # the object's CPU mapping: the same pages
    view[7] = 77
    assert arr[7] == 77
    before = arr.copy()
    dev.unbind(vm, 0x1_0000_0000, 0x4000)
    dev.ioctl("GEM_CLOSE", handle=handle)
    # the range keeps the object's final bytes, now in pages of its own
    assert (arr == before).all()
    arr[0] = 1
    assert arr[0] == 1
    again = dev.gem(0x4000)                                    # the arena range is free again, zeroed
    assert bytes(dev.map(again, 0x4000)[:16]) == bytes(16)
    del arr
    m.close()


def test_the_object_lives_while_referenced():
    """PRIME: an importer keeps the object (and the shared pages) after the creator closes it."""
    from .helpers import Dev
    a, b = Dev(), Dev()
    try:
        m, arr, addr = _user_memory(1)
        h = a.ioctl("ASAHI_GEM_USERPTR", pointer=addr, size=HOST_PAGE_B).handle
        fd = a.ioctl("PRIME_HANDLE_TO_FD", handle=h, flags=0).fd
        hb = b.ioctl("PRIME_FD_TO_HANDLE", fd=fd, flags=0).handle
        a.ioctl("GEM_CLOSE", handle=h)
        arr[3] = 42
        assert b.map(hb, 0x4000)[3] == 42                      # still aliased
        b.ioctl("GEM_CLOSE", handle=hb)
        import uapi
        uapi.close(fd)
        arr[3] = 43
        assert arr[3] == 43
    finally:
        a.close()
        b.close()


def test_errors(dev):
    m, arr, addr = _user_memory(2)
    objects = dict(dev.kernel_file().gems.items)
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=addr, size=HOST_PAGE_B, flags=1) == errno.EINVAL
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=addr, size=0) == errno.EINVAL
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=addr + 64, size=HOST_PAGE_B) == errno.EINVAL
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=addr, size=100) == errno.EINVAL
    # not mapped (a hole made in the middle), or read-only: EFAULT, nothing created
    hole = mmap.mmap(-1, 3 * HOST_PAGE_B)
    base = np.frombuffer(hole, np.uint8).ctypes.data
    libc = ctypes.CDLL(None, use_errno=True)
    libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
    assert libc.munmap(base + HOST_PAGE_B, HOST_PAGE_B) == 0
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=base, size=3 * HOST_PAGE_B) == errno.EFAULT
    ro = mmap.mmap(-1, HOST_PAGE_B, prot=mmap.PROT_READ)
    ro_addr = np.frombuffer(ro, np.uint8).ctypes.data
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=ro_addr, size=HOST_PAGE_B) == errno.EFAULT
    # the CPU mapping of a GEM object is GPU memory, not the process's own pages
    h = dev.gem(0x4000)
    gpu_memory = np.frombuffer(dev.map(h, 0x4000), np.uint8).ctypes.data
    assert dev.errno_of("ASAHI_GEM_USERPTR", pointer=gpu_memory, size=HOST_PAGE_B) == errno.EFAULT
    dev.ioctl("GEM_CLOSE", handle=h)
    assert dev.kernel_file().gems.items == objects                # no handle was made


@pytest.mark.parametrize("pages", [1, 5])
def test_user_range_unmapped_before_the_object_goes_is_left_alone(dev, pages):
    """Undefined for the program (AMD_pinned_memory issue 3), but the kernel must not
    map anything where the program unmapped its range."""
    m, arr, addr = _user_memory(pages)
    handle = dev.ioctl("ASAHI_GEM_USERPTR", pointer=addr, size=pages * HOST_PAGE_B).handle
    libc = ctypes.CDLL(None, use_errno=True)
    libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
    del arr
    assert libc.munmap(addr, pages * HOST_PAGE_B) == 0
    dev.ioctl("GEM_CLOSE", handle=handle)
    with open("/proc/self/maps") as maps:
        for line in maps:
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            assert hi <= addr or lo >= addr + pages * HOST_PAGE_B, line
