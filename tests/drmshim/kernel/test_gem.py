"""GEM objects: create, mmap, close, PRIME sharing between files, private objects and GEM_SHARE."""

from __future__ import annotations

import errno

import numpy as np
import pytest

import uapi

from .helpers import Dev, RW

PRIVATE = uapi.DRM_ASAHI_GEM_VM_PRIVATE


def test_create_rounds_up_to_pages_and_memory_starts_zeroed(dev):
    handle = dev.gem(size=1)
    view = dev.map(handle, 0x4000)
    assert len(view) == 0x4000 and bytes(view) == bytes(0x4000)


def test_mmap_shares_memory_with_what_the_gpu_sees(dev):
    vm = dev.vm()
    handle = dev.gem(0x8000)
    view = dev.map(handle, 0x8000)
    dev.bind(vm, handle, 0x1_0000_0000, 0x8000)
    view[0x4000:0x4004] = b"\x01\x02\x03\x04"
    gpu_vm = dev.kernel_file().vms.items[vm]
    assert gpu_vm.read(0x1_0000_4000, 4, "USC").tolist() == [1, 2, 3, 4]
    gpu_vm.write(0x1_0000_0010, b"\xAA\xBB", "PBE")
    assert bytes(view[0x10:0x12]) == b"\xAA\xBB"


def test_freed_memory_is_zero_when_reused(dev):
    handle = dev.gem(0x4000)
    dev.map(handle, 0x4000)[:4] = b"dirt"
    dev.ioctl("GEM_CLOSE", handle=handle)
    again = dev.gem(0x4000)
    assert bytes(dev.map(again, 0x4000)[:4]) == bytes(4)


@pytest.mark.parametrize("fields, code", [
    ({"size": 0x4000, "flags": 1 << 5}, errno.EINVAL),
    ({"size": 0x4000, "pad": 1}, errno.EINVAL),
    ({"size": 0}, errno.EINVAL),
    ({"size": 0x4000, "vm_id": 1}, errno.EINVAL),  # vm_id without VM_PRIVATE
    ({"size": 0x4000, "flags": PRIVATE, "vm_id": 999}, errno.ENOENT),
])
def test_gem_create_errors(dev, fields, code):
    assert dev.errno_of("ASAHI_GEM_CREATE", **fields) == code


def test_mmap_offset_errors(dev):
    handle = dev.gem()
    assert dev.errno_of("ASAHI_GEM_MMAP_OFFSET", handle=999) == errno.ENOENT
    assert dev.errno_of("ASAHI_GEM_MMAP_OFFSET", handle=handle, flags=1) == errno.EINVAL


def test_mmap_errors(dev):
    handle = dev.gem(0x4000)
    offset = dev.ioctl("ASAHI_GEM_MMAP_OFFSET", handle=handle).offset
    with pytest.raises(OSError) as info:
        uapi.mmap(dev.fd, offset, 0x8000)  # longer than the object
    assert info.value.errno == errno.EINVAL
    dev.ioctl("GEM_CLOSE", handle=handle)
    with pytest.raises(OSError) as info:
        uapi.mmap(dev.fd, offset, 0x4000)  # no longer one of this file's objects
    assert info.value.errno == errno.EINVAL


def test_gem_close_errors(dev):
    handle = dev.gem()
    assert dev.errno_of("GEM_CLOSE", handle=handle, pad=1) == errno.EINVAL
    dev.ioctl("GEM_CLOSE", handle=handle)
    assert dev.errno_of("GEM_CLOSE", handle=handle) == errno.EINVAL


def test_prime_shares_an_object_between_files(dev):
    other = Dev()
    try:
        handle = dev.gem(0x4000)
        fd = dev.ioctl("PRIME_HANDLE_TO_FD", handle=handle, flags=uapi.DRM_CLOEXEC | uapi.DRM_RDWR).fd
        imported = other.ioctl("PRIME_FD_TO_HANDLE", fd=fd).handle
        dev.map(handle, 0x4000)[:3] = b"abc"
        assert bytes(other.map(imported, 0x4000)[:3]) == b"abc"
        assert bytes(uapi.mmap(fd, 0, 16)[:3]) == b"abc"  # a dma-buf fd maps too
        # Importing into the file that already has it gives the same handle back.
        assert dev.ioctl("PRIME_FD_TO_HANDLE", fd=fd).handle == handle
        # The object outlives the exporter's handle while the importer holds it.
        dev.ioctl("GEM_CLOSE", handle=handle)
        uapi.close(fd)
        assert bytes(other.map(imported, 0x4000)[:3]) == b"abc"
    finally:
        other.close()


def test_prime_errors(dev):
    vm = dev.vm()
    private = dev.gem(flags=PRIVATE, vm_id=vm)
    assert dev.errno_of("PRIME_HANDLE_TO_FD", handle=private) == errno.EINVAL
    assert dev.errno_of("PRIME_HANDLE_TO_FD", handle=999) == errno.ENOENT
    assert dev.errno_of("PRIME_HANDLE_TO_FD", handle=dev.gem(), flags=1 << 4) == errno.EINVAL
    assert dev.errno_of("PRIME_FD_TO_HANDLE", fd=123456789) == errno.EBADF
    syncobj_fd = dev.ioctl("SYNCOBJ_HANDLE_TO_FD", handle=dev.syncobj()).fd
    assert dev.errno_of("PRIME_FD_TO_HANDLE", fd=syncobj_fd) == errno.EINVAL
    uapi.close(syncobj_fd)


def test_private_objects_bind_only_to_their_vm(dev):
    vm, other_vm = dev.vm(), dev.vm(kernel_start=0x7E_0000_0000)
    private = dev.gem(flags=PRIVATE, vm_id=vm)
    dev.bind(vm, private, 0x1_0000_0000, 0x4000)
    with pytest.raises(OSError) as info:
        dev.bind(other_vm, private, 0x1_0000_0000, 0x4000)
    assert info.value.errno == errno.EINVAL


def test_gem_share_turns_a_private_object_shared_in_place(dev):
    vm, other_vm = dev.vm(), dev.vm(kernel_start=0x7E_0000_0000)
    private = dev.gem(flags=PRIVATE, vm_id=vm)
    dev.bind(vm, private, 0x1_0000_0000, 0x4000)
    dev.map(private, 0x4000)[:2] = b"hi"
    dev.ioctl("ASAHI_GEM_SHARE", handle=private)
    fd = dev.ioctl("PRIME_HANDLE_TO_FD", handle=private).fd  # now exportable
    dev.bind(other_vm, private, 0x2_0000_0000, 0x4000)  # and binds anywhere
    file = dev.kernel_file()
    assert file.vms.items[vm].read(0x1_0000_0000, 2, "USC").tobytes() == b"hi"  # old bind kept
    assert file.vms.items[other_vm].read(0x2_0000_0000, 2, "USC").tobytes() == b"hi"
    uapi.close(fd)
    assert dev.errno_of("ASAHI_GEM_SHARE", handle=999) == errno.ENOENT
    assert dev.errno_of("ASAHI_GEM_SHARE", handle=private, flags=1) == errno.EINVAL


def test_closing_a_file_frees_its_memory(open_private):
    kernel, d = open_private()
    vm = d.vm()
    handle = d.gem(0x10000)
    d.bind(vm, handle, 0x1_0000_0000, 0x10000)
    assert kernel.arena.used_B == 0x10000
    d.close()
    assert kernel.arena.used_B == 0


def test_bound_object_lives_until_unbound(open_private):
    kernel, d = open_private()
    vm = d.vm()
    handle = d.gem(0x4000)
    d.map(handle, 0x4000)[:1] = b"\x07"
    d.bind(vm, handle, 0x1_0000_0000, 0x4000)
    d.ioctl("GEM_CLOSE", handle=handle)
    assert kernel.arena.used_B == 0x4000
    assert d.kernel_file().vms.items[vm].gather(np.array([0x1_0000_0000], np.uint64), np.uint8, "USC")[0] == 7
    d.unbind(vm, 0x1_0000_0000, 0x4000)
    assert kernel.arena.used_B == 0
