"""The kernel validates user memory like Linux: every user pointer an ioctl reads
or writes is checked against the process's mappings (EFAULT, never a crash),
every count is bounded before anything is allocated (ENOMEM), every address is
computed without overflow, and only OSError leaves ``uapi.ioctl``."""

from __future__ import annotations

import errno
import mmap

import numpy as np
import pytest

import uapi
from drmshim.kernel import usercopy
from drmshim.memory import GPUFault

from .helpers import compute, ptr

ffi = uapi.ffi
PAGE_B = mmap.PAGESIZE


def _unmapped_address() -> int:
    """An address that was mapped a moment ago and is not any more."""
    m = mmap.mmap(-1, 4 * PAGE_B)
    address = np.frombuffer(m, np.uint8).ctypes.data
    m.close()
    return address


def _read_only_page():
    """A read-only anonymous page and its address (keep the mmap alive)."""
    m = mmap.mmap(-1, PAGE_B, prot=mmap.PROT_READ)
    return m, np.frombuffer(m, np.uint8).ctypes.data


def _request(name: str) -> int:
    return next(s.request for s in uapi.drm.IOCTLS if s.name == f"DRM_IOCTL_{name}")


# ------------------------------------------------------------- the ioctl argument
@pytest.mark.parametrize("name", [s.name[len("DRM_IOCTL_"):] for s in uapi.drm.IOCTLS])
def test_null_argument_is_efault_for_every_ioctl(dev, name):
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request(name), ffi.NULL)
    assert info.value.errno == errno.EFAULT


def test_argument_pointing_at_unmapped_memory_is_efault(dev):
    arg = ffi.cast("struct drm_get_cap *", _unmapped_address())
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request("GET_CAP"), arg)
    assert info.value.errno == errno.EFAULT


def test_result_copied_to_read_only_memory_is_efault(dev):
    keep, address = _read_only_page()
    arg = ffi.cast("struct drm_get_cap *", address)   # capability 0 reads fine: EINVAL first
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request("GET_CAP"), arg)
    assert info.value.errno == errno.EINVAL
    # GET_TIME (flags 0 in the zeroed page) succeeds, then cannot write its result back
    arg = ffi.cast("struct drm_asahi_get_time *", address)
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request("ASAHI_GET_TIME"), arg)
    assert info.value.errno == errno.EFAULT
    keep.close()


def test_an_argument_cffi_allocated_is_copied_without_the_system_call(dev, monkeypatch):
    """An ``ffi.new`` struct is memory known mapped and writable: copied in and out
    plainly, with the same result as through process_vm_readv/writev; a cast pointer
    (the same memory) still goes through the system call, and a ``char[]`` shorter than
    the request's struct too (the kernel reads past what cffi allocated)."""
    calls = []
    real = usercopy._transfer
    monkeypatch.setattr(usercopy, "_transfer", lambda *a: (calls.append(a[0]), real(*a))[1])
    owned = ffi.new("struct drm_asahi_get_time *")
    uapi.ioctl(dev.fd, _request("ASAHI_GET_TIME"), owned)
    assert calls == [] and owned.gpu_timestamp > 0
    cast = ffi.cast("struct drm_asahi_get_time *", owned)
    uapi.ioctl(dev.fd, _request("ASAHI_GET_TIME"), cast)
    assert calls == [False, True] and owned.gpu_timestamp > 0
    short = ffi.new("char[]", ffi.sizeof("struct drm_asahi_get_time") - 1)
    calls.clear()
    try:        # (its flags' last byte is whatever follows the array: EINVAL or done)
        uapi.ioctl(dev.fd, _request("ASAHI_GET_TIME"), short)
    except OSError as error:
        assert error.errno == errno.EINVAL
    assert calls[:1] == [False]
    got = ffi.new("struct drm_get_cap *", {"capability": uapi.DRM_CAP_SYNCOBJ})
    uapi.ioctl(dev.fd, _request("GET_CAP"), got)
    assert got.value == 1
    assert usercopy.argument_of(got)[1] == ffi.sizeof("struct drm_get_cap")
    assert usercopy.argument_of(ffi.cast("struct drm_get_cap *", got))[1] == 0
    assert usercopy.argument_of(ffi.new("__u32[]", 5))[1] == 20


@pytest.mark.parametrize("arg", [0, 12345, b"\0" * 64, "text", object()])
def test_argument_that_is_not_a_pointer_is_efault(dev, arg):
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request("GET_CAP"), arg)
    assert info.value.errno == errno.EFAULT


def test_a_struct_value_is_not_a_pointer(dev):
    value = ffi.new("struct drm_get_cap *")[0]
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, _request("GET_CAP"), value)
    assert info.value.errno == errno.EFAULT


# ----------------------------------------------------------- user pointers inside
@pytest.mark.parametrize("bad", ["null", "unmapped", "wrapping"])
def test_sync_handle_arrays_are_checked(dev, bad):
    address = {"null": 0, "unmapped": _unmapped_address(), "wrapping": (1 << 64) - 4}[bad]
    s = dev.syncobj(signaled=True)
    for name, extra in (("SYNCOBJ_WAIT", {}), ("SYNCOBJ_RESET", {}), ("SYNCOBJ_SIGNAL", {}),
                        ("SYNCOBJ_TIMELINE_WAIT", {"points": dev.array("__u64", [0, 0])}),
                        ("SYNCOBJ_QUERY", {"points": dev.array("__u64", [0, 0])}),
                        ("SYNCOBJ_TIMELINE_SIGNAL", {"points": dev.array("__u64", [1, 2])})):
        assert dev.errno_of(name, handles=address, count_handles=2, **extra) == errno.EFAULT, name
    assert dev.signaled(s)  # nothing changed


def test_points_arrays_are_checked(dev):
    handles = dev.array("__u32", [dev.syncobj(signaled=True)])
    for name in ("SYNCOBJ_TIMELINE_WAIT", "SYNCOBJ_TIMELINE_SIGNAL", "SYNCOBJ_QUERY"):
        assert dev.errno_of(name, handles=handles, points=_unmapped_address(), count_handles=1) == errno.EFAULT


def test_query_into_read_only_memory_is_efault(dev):
    keep, address = _read_only_page()
    handles = dev.array("__u32", [dev.syncobj(signaled=True)])
    assert dev.errno_of("SYNCOBJ_QUERY", handles=handles, points=address, count_handles=1) == errno.EFAULT
    keep.close()


@pytest.mark.parametrize("count", [0xFFFFFFFF, 1 << 24, 1 << 23])
def test_huge_counts_are_enomem_before_any_allocation(dev, count):
    handles = dev.array("__u32", [dev.syncobj(signaled=True)])
    for name in ("SYNCOBJ_WAIT", "SYNCOBJ_TIMELINE_WAIT", "SYNCOBJ_RESET", "SYNCOBJ_SIGNAL", "SYNCOBJ_QUERY",
                 "SYNCOBJ_TIMELINE_SIGNAL"):
        points = {} if name in ("SYNCOBJ_WAIT", "SYNCOBJ_RESET", "SYNCOBJ_SIGNAL") else {"points": handles}
        assert dev.errno_of(name, handles=handles, count_handles=count, **points) == errno.ENOMEM, name


def test_counts_within_bounds_but_past_the_array_are_efault(dev):
    # Two handles read across the end of a page: EFAULT when the next page is not
    # mapped, else garbage handles (ENOENT); never a crash.
    small = ffi.new("__u32[]", [1])
    address = ptr(small)
    page = mmap.mmap(-1, PAGE_B)
    end = np.frombuffer(page, np.uint8).ctypes.data + PAGE_B - 4   # last word of a page...
    code = dev.errno_of("SYNCOBJ_WAIT", handles=end, count_handles=2)  # ...and the next page's first
    assert code in (errno.EFAULT, errno.ENOENT)
    assert dev.errno_of("SYNCOBJ_WAIT", handles=address, count_handles=1) == errno.ENOENT  # handle 1 unknown
    page.close()


def test_vm_bind_ops_are_checked_and_bounded(dev):
    vm = dev.vm()
    for userptr, num, stride, code in ((0, 1, 32, errno.EFAULT), (_unmapped_address(), 1, 32, errno.EFAULT),
                                       ((1 << 64) - 16, 1, 32, errno.EFAULT),
                                       (dev.array("char", b"\0" * 32), 0xFFFFFFFF, 32, errno.ENOMEM),
                                       (dev.array("char", b"\0" * 32), 1, 0xFFFFFFFF, errno.ENOMEM)):
        assert dev.errno_of("ASAHI_VM_BIND", vm_id=vm, userptr=userptr, num_binds=num, stride=stride) == code


def test_submit_pointers_are_checked_and_bounded(dev):
    vm = dev.vm()
    queue = dev.queue(vm)
    out = dev.syncobj()
    cmd = dev.array("char", b"\0" * 8)
    for fields, code in (({"cmdbuf": 0, "cmdbuf_size": 8}, errno.EFAULT),
                         ({"cmdbuf": _unmapped_address(), "cmdbuf_size": 8}, errno.EFAULT),
                         ({"cmdbuf": cmd, "cmdbuf_size": 0xFFFFFFFF}, errno.ENOMEM),
                         ({"cmdbuf": cmd, "cmdbuf_size": 8, "syncs": _unmapped_address(), "out_sync_count": 1},
                          errno.EFAULT),
                         ({"cmdbuf": cmd, "cmdbuf_size": 8, "syncs": cmd, "in_sync_count": 0xFFFFFFFF,
                           "out_sync_count": 0xFFFFFFFF}, errno.ENOMEM)):
        assert dev.errno_of("ASAHI_SUBMIT", queue_id=queue, **fields) == code, fields
    assert dev.errno_of("SYNCOBJ_WAIT", handles=dev.array("__u32", [out]), count_handles=1) == errno.EINVAL


def test_ranges_are_copied_together_or_not_at_all():
    """copy_ranges_from_user: every range's bytes from one call, or None when any
    range is empty, too large, wrapping or unmapped (callers then copy one by one)."""
    a = ffi.new("char[]", b"first range")
    b = ffi.new("char[]", bytes(range(200)))
    good = [(ptr(a), 11), (ptr(b), 200), (ptr(a) + 6, 5)]
    assert usercopy.copy_ranges_from_user(good) == [b"first range", bytes(range(200)), b"range"]
    for bad in ((_unmapped_address(), 8), (0, 8), (ptr(a), 0), ((1 << 64) - 4, 8),
                (ptr(a), usercopy.MAX_COPY_B + 1)):
        assert usercopy.copy_ranges_from_user([good[0], bad]) is None, bad
        assert usercopy.copy_ranges_from_user([bad, good[1]]) is None, bad


def test_submit_checks_come_in_order_whichever_way_the_arrays_are_copied(dev):
    """SUBMIT copies its sync array and command buffer in one go when both are
    readable: the errors stay those of copying, then checking, one after the other."""
    vm = dev.vm()
    queue = dev.queue(vm)
    bad_sync = dev.array("struct drm_asahi_sync", [{"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ, "handle": 999}])
    cmd = dev.array("char", b"\0" * 8)
    # the sync array is checked before the command buffer is copied: ENOENT, not EFAULT
    assert dev.errno_of("ASAHI_SUBMIT", queue_id=queue, syncs=bad_sync, out_sync_count=1,
                        cmdbuf=_unmapped_address(), cmdbuf_size=8) == errno.ENOENT
    assert dev.errno_of("ASAHI_SUBMIT", queue_id=queue, syncs=bad_sync, out_sync_count=1,
                        cmdbuf=cmd, cmdbuf_size=8) == errno.ENOENT
    # an empty command buffer is EINVAL before its pointer is looked at
    good_sync = dev.array("struct drm_asahi_sync", [{"sync_type": uapi.DRM_ASAHI_SYNC_SYNCOBJ,
                                                     "handle": dev.syncobj()}])
    assert dev.errno_of("ASAHI_SUBMIT", queue_id=queue, syncs=good_sync, out_sync_count=1,
                        cmdbuf=_unmapped_address(), cmdbuf_size=0) == errno.EINVAL
    assert dev.errno_of("ASAHI_SUBMIT", queue_id=queue, syncs=good_sync, out_sync_count=1,
                        cmdbuf=_unmapped_address(), cmdbuf_size=8) == errno.EFAULT


def test_get_params_and_counters_write_only_to_writable_memory(dev):
    keep, address = _read_only_page()
    assert dev.errno_of("ASAHI_GET_PARAMS", pointer=address, size=64) == errno.EFAULT
    assert dev.errno_of("ASAHI_GET_PARAMS", pointer=_unmapped_address(), size=64) == errno.EFAULT
    queue = dev.queue(dev.vm())
    assert dev.errno_of("ASAHI_QUEUE_COUNTERS", queue_id=queue, pointer=address, size=64) == errno.EFAULT
    keep.close()


def test_version_strings_to_unmapped_memory_are_efault(dev):
    assert dev.errno_of("VERSION", name=ffi.cast("char *", _unmapped_address()), name_len=16) == errno.EFAULT


# --------------------------------------------------------------- the helpers
def test_copy_helpers_round_trip_and_bound():
    buf = ffi.new("char[]", b"abcdefgh")
    assert usercopy.copy_from_user(ptr(buf), 8) == b"abcdefgh"
    usercopy.copy_to_user(ptr(buf) + 2, b"XY")
    assert ffi.buffer(buf, 8)[:] == b"abXYefgh"
    assert usercopy.copy_from_user(0, 0) == b""
    with pytest.raises(OSError) as info:
        usercopy.copy_from_user(ptr(buf), usercopy.MAX_COPY_B + 1)
    assert info.value.errno == errno.ENOMEM
    with pytest.raises(OSError) as info:
        usercopy.array_size(1 << 31, 8)
    assert info.value.errno == errno.ENOMEM
    assert usercopy.array_size(3, 8) == 24


# ------------------------------------------------------------- GPU addresses
def test_gpu_access_near_the_top_of_the_address_space_faults():
    from drmshim.kernel import VM, Arena

    vm = VM(1, Arena(1 << 20), 0x7F_0000_0000, 0x7F_2000_0000)
    for va in ((1 << 64) - 4, (1 << 64) + 8, -16):
        with pytest.raises(GPUFault) as info:
            vm.read(va, 16, "VDM")
        assert info.value.info.unit == "VDM" and info.value.info.is_read
        assert 0 <= info.value.info.address < (1 << 64)
        with pytest.raises(GPUFault):
            vm.write(va, b"\1" * 16, "PBE")
    with pytest.raises(GPUFault):
        vm.gather([(1 << 64) + 4], np.uint32, "USC")
    with pytest.raises(GPUFault):
        vm.scatter([(1 << 65)], np.ones(1, np.uint32), "USC")


def test_soft_faults_near_the_top_read_zero():
    from drmshim.kernel import VM, Arena

    vm = VM(1, Arena(1 << 20), 0x7F_0000_0000, 0x7F_2000_0000, soft_faults=True)
    assert not vm.read((1 << 64) - 4, 16, "VDM").any()
    vm.write((1 << 64) - 4, b"\1" * 16, "PBE")
    assert len(vm.faults) == 2


# --------------------------------------------------------------- timelines
def test_a_long_signalled_timeline_keeps_few_links(dev):
    # on the process kernel: a signal wakes only the waiters of what it signals, so the
    # other queues' threads blocked in it cost these 20,000 signals nothing
    s = dev.syncobj()
    handles, points = ffi.new("__u32[]", [s]), ffi.new("__u64[]", 1)
    for point in range(1, 20_001):
        points[0] = point
        dev.ioctl("SYNCOBJ_TIMELINE_SIGNAL", handles=ptr(handles), points=ptr(points), count_handles=1)
    syncobj = dev.kernel_file().syncobj(s)
    assert len(syncobj.links) <= 2
    out = ffi.new("__u64[]", 1)
    dev.ioctl("SYNCOBJ_QUERY", handles=ptr(handles), points=ptr(out), count_handles=1)
    assert out[0] == 20_000
    for point in (1, 19_999, 20_000):   # earlier points are still signalled
        assert dev.signaled(s, point)


def test_collapsing_keeps_unsignalled_links_and_errors():
    from drmshim.kernel.syncobj import Fence, Syncobj, SyncState

    state = SyncState()
    s = Syncobj(state)
    failed = Fence(state)
    failed.signal(errno.EIO)
    s.add_point(1, Fence.stub(state))
    s.add_point(2, failed)
    pending = Fence(state)
    s.add_point(3, pending)
    s.add_point(4, Fence.stub(state))
    assert [p for p, _ in s.links] == [2, 3, 4]
    assert s.fence_for(2).error == errno.EIO and s.fence_for(1).signaled
    assert not s.fence_for(4).signaled      # waits for point 3
    pending.signal()
    s.add_point(5, Fence(state))
    assert [p for p, _ in s.links] == [4, 5]
    assert s.fence_for(4).error == errno.EIO  # the folded error is kept on the base
    assert s.query(last_submitted=False) == 4


# ------------------------------------------------------------------ the seam
@pytest.mark.parametrize("fd", [None, "3", [1], -1, 1.5])
def test_the_seam_answers_ebadf_for_anything_but_an_open_descriptor(fd):
    with pytest.raises(OSError) as info:
        uapi.ioctl(fd, _request("GET_CAP"), ffi.new("struct drm_get_cap *"))
    assert info.value.errno == errno.EBADF


@pytest.mark.parametrize("request_number", [None, "0xc010640c", 1.0, True])
def test_a_request_that_is_not_a_number_is_einval(dev, request_number):
    with pytest.raises(OSError) as info:
        uapi.ioctl(dev.fd, request_number, ffi.new("struct drm_get_cap *"))
    assert info.value.errno == errno.EINVAL
    with pytest.raises(OSError) as info:
        uapi.mmap(dev.fd, request_number, 16)
    assert info.value.errno == errno.EINVAL


def test_many_tiny_bind_ops_stop_at_the_first_bad_one(dev):
    """8 Mi one-byte ops (within the copy bound): the first is invalid, so nothing
    more is decoded (each op used to become a struct before any was checked)."""
    vm = dev.vm()
    ops = ffi.new("char[]", 8 << 20)
    assert dev.errno_of("ASAHI_VM_BIND", vm_id=vm, userptr=ptr(ops), num_binds=8 << 20, stride=1) == errno.EINVAL


@pytest.mark.parametrize("base", [(1 << 64) - 4, (1 << 64) - 0x4000, 1 << 63])
def test_a_stream_address_near_the_top_is_a_fault_of_the_walker(open_private, base):
    kernel, d = open_private()
    vm = d.vm()
    handle = d.gem()
    size = ffi.sizeof("struct drm_asahi_cmd_feedback")
    out = d.syncobj()
    d.submit(d.queue(vm), compute(cdm_ctrl_stream_base=base, feedback_handle=handle, feedback_size=size),
             out_syncs=[out])
    d.wait([out], timeout_s=30)
    assert d.kernel_file().syncobjs.items[out].fence_for(0).error == errno.EIO
    raw = bytearray(d.map(handle, 0x4000)[:size])
    fb = ffi.cast("struct drm_asahi_cmd_feedback *", ffi.from_buffer(raw))
    assert fb.status == uapi.DRM_ASAHI_STATUS_FAULT and fb.fault_unit == uapi.DRM_ASAHI_UNIT_CDM
    assert fb.fault_address == base
