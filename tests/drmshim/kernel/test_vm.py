"""VM_CREATE/DESTROY, VM_BIND validation, page tables and vectorised GPU access with faults."""

from __future__ import annotations

import errno

import numpy as np
import pytest

import uapi
from drmshim.memory import GPUFault

from .helpers import KERNEL_START, RW

READ, WRITE, UNBIND, SINGLE = (uapi.DRM_ASAHI_BIND_READ, uapi.DRM_ASAHI_BIND_WRITE, uapi.DRM_ASAHI_BIND_UNBIND,
                               uapi.DRM_ASAHI_BIND_SINGLE_PAGE)
BASE = 0x1_0000_0000
PAGE = 0x4000


def _vm(dev, vm_id):
    return dev.kernel_file().vms.items[vm_id]


@pytest.mark.parametrize("start, size, pad", [
    (KERNEL_START + 0x1000, 0x2000_0000, 0),  # unaligned
    (1 << 39, 0x2000_0000, 0),  # outside the VA range
    (KERNEL_START, 0x1000_0000, 0),  # smaller than vm_kernel_min_size
    (KERNEL_START, 0x2000_0000, 1),  # pad
])
def test_vm_create_errors(dev, start, size, pad):
    assert dev.errno_of("ASAHI_VM_CREATE", kernel_start=start, kernel_end=start + size, pad=pad) == errno.EINVAL


def test_vm_destroy(dev):
    vm = dev.vm()
    assert dev.errno_of("ASAHI_VM_DESTROY", vm_id=vm, pad=1) == errno.EINVAL
    dev.ioctl("ASAHI_VM_DESTROY", vm_id=vm)
    assert dev.errno_of("ASAHI_VM_DESTROY", vm_id=vm) == errno.ENOENT


def test_bind_subranges_of_an_object(dev):
    vm = dev.vm()
    handle = dev.gem(4 * PAGE)
    view = dev.map(handle, 4 * PAGE)
    view[:] = np.repeat(np.arange(4, dtype=np.uint8), PAGE).tobytes()
    # Pages 2..3 of the object at BASE, page 1 at BASE + 8 pages.
    dev.bind(vm, handle, BASE, 2 * PAGE, offset=2 * PAGE)
    dev.bind(vm, handle, BASE + 8 * PAGE, PAGE, offset=PAGE)
    gpu = _vm(dev, vm)
    got = gpu.gather(np.array([BASE, BASE + PAGE, BASE + 8 * PAGE], np.uint64), np.uint8, "USC")
    assert got.tolist() == [2, 3, 1]


def test_unbind_a_subrange_keeps_the_rest(dev):
    vm = dev.vm()
    handle = dev.gem(3 * PAGE)
    dev.map(handle, 3 * PAGE)[:] = np.repeat(np.arange(1, 4, dtype=np.uint8), PAGE).tobytes()
    dev.bind(vm, handle, BASE, 3 * PAGE)
    dev.unbind(vm, BASE + PAGE, PAGE)
    gpu = _vm(dev, vm)
    assert gpu.gather(np.array([BASE, BASE + 2 * PAGE], np.uint64), np.uint8, "USC").tolist() == [1, 3]
    with pytest.raises(GPUFault) as info:
        gpu.read(BASE + PAGE + 5, 1, "TEX")
    assert info.value.info.address == BASE + PAGE + 5 and info.value.info.unit == "TEX"
    assert info.value.info.is_read


def test_binding_over_a_mapping_replaces_it(dev):
    vm = dev.vm()
    a, b = dev.gem(), dev.gem()
    dev.map(a, PAGE)[:1] = b"A"
    dev.map(b, PAGE)[:1] = b"B"
    dev.bind(vm, a, BASE, PAGE)
    dev.bind(vm, b, BASE, PAGE)
    assert _vm(dev, vm).read(BASE, 1, "USC").tobytes() == b"B"


def test_single_page_repeats_one_page(dev):
    vm = dev.vm()
    handle = dev.gem(2 * PAGE)
    dev.map(handle, 2 * PAGE)[PAGE:PAGE + 2] = b"\x05\x06"
    dev.bind(vm, handle, BASE, 4 * PAGE, offset=PAGE, flags=READ | SINGLE)
    vas = BASE + np.arange(4, dtype=np.uint64) * PAGE + 1
    assert _vm(dev, vm).gather(vas, np.uint8, "TEX").tolist() == [6, 6, 6, 6]


def test_write_to_a_read_only_mapping_faults(dev):
    vm = dev.vm()
    dev.bind(vm, dev.gem(), BASE, PAGE, flags=READ)
    gpu = _vm(dev, vm)
    with pytest.raises(GPUFault) as info:
        gpu.scatter(np.array([BASE + 8], np.uint64), np.array([1], np.uint32), "PBE")
    assert (info.value.info.address, info.value.info.unit, info.value.info.is_read) == (BASE + 8, "PBE", False)
    assert gpu.read(BASE + 8, 4, "USC").tolist() == [0, 0, 0, 0]  # nothing was written


def test_soft_faults_read_zero_drop_writes_and_record(open_private):
    _, d = open_private(soft_faults=True)
    vm = d.vm()
    d.bind(vm, d.gem(), BASE, PAGE, flags=READ)
    gpu = d.kernel_file().vms.items[vm]
    got = gpu.gather(np.array([BASE, BASE + 7 * PAGE], np.uint64), np.uint32, "USC")
    assert got.tolist() == [0, 0]
    gpu.write(BASE, b"\x01", "PBE")  # read-only: dropped
    assert gpu.read(BASE, 1, "USC").tolist() == [0]
    assert [(f.address, f.is_read) for f in gpu.faults] == [(BASE + 7 * PAGE, True), (BASE, False)]


def test_vectorised_access_across_pages_and_objects(dev):
    vm = dev.vm()
    a, b = dev.gem(), dev.gem()
    dev.bind(vm, a, BASE, PAGE)
    dev.bind(vm, b, BASE + PAGE, PAGE)  # adjacent in VA, not in physical memory
    gpu = _vm(dev, vm)
    rng = np.random.default_rng(1)
    vas = BASE + rng.choice(np.arange(0, 2 * PAGE - 8, 4, dtype=np.uint64), 500, replace=False)
    values = rng.integers(0, 2**32, 500, dtype=np.uint32)
    gpu.scatter(vas, values, "USC")
    assert np.array_equal(gpu.gather(vas, np.uint32, "USC"), values)
    # An 8-byte element straddling the two objects' pages.
    gpu.write(BASE + PAGE - 4, np.array([0x1122334455667788], np.uint64), "USC")
    got = gpu.gather(np.array([BASE + PAGE - 4], np.uint64), np.uint64, "USC")
    assert got[0] == 0x1122334455667788
    assert bytes(dev.map(b, PAGE)[:4]) == bytes.fromhex("44332211")
    # A long read across both pages.
    assert gpu.read(BASE + PAGE - 4, 8, "USC").tobytes() == (0x1122334455667788).to_bytes(8, "little")


def test_scatter_duplicate_addresses_last_wins(dev):
    vm = dev.vm()
    dev.bind(vm, dev.gem(), BASE, PAGE)
    gpu = _vm(dev, vm)
    gpu.scatter(np.array([BASE, BASE, BASE], np.uint64), np.array([1, 2, 3], np.uint16), "USC")
    assert gpu.gather(np.array([BASE], np.uint64), np.uint16, "USC")[0] == 3


def _bind_errno(dev, vm, **op):
    with pytest.raises(OSError) as info:
        dev.bind_ops(vm, [op])
    return info.value.errno


@pytest.mark.parametrize("op, code", [
    (dict(flags=RW, offset=0, range=PAGE, addr=BASE + 0x1000), errno.EINVAL),  # addr unaligned
    (dict(flags=RW, offset=0x100, range=PAGE, addr=BASE), errno.EINVAL),  # offset unaligned
    (dict(flags=RW, offset=0, range=0x1000, addr=BASE), errno.EINVAL),  # range unaligned
    (dict(flags=RW, offset=0, range=0, addr=BASE), errno.EINVAL),  # empty
    (dict(flags=0, offset=0, range=PAGE, addr=BASE), errno.EINVAL),  # neither READ nor WRITE
    (dict(flags=RW | (1 << 7), offset=0, range=PAGE, addr=BASE), errno.EINVAL),  # unknown flag
    (dict(flags=RW, offset=PAGE, range=2 * PAGE, addr=BASE), errno.EINVAL),  # past the object's end
    (dict(flags=RW, offset=0, range=PAGE, addr=KERNEL_START), errno.EINVAL),  # kernel range
    (dict(flags=RW, offset=0, range=2 * PAGE, addr=KERNEL_START - PAGE), errno.EINVAL),  # overlaps it
    (dict(flags=RW, offset=0, range=PAGE, addr=0), errno.EINVAL),  # below vm_start
    (dict(flags=RW, offset=0, range=PAGE, addr=1 << 39), errno.EINVAL),  # above vm_end
    (dict(flags=UNBIND | READ, offset=0, range=PAGE, addr=BASE), errno.EINVAL),  # unbind with flags
    (dict(flags=UNBIND, offset=PAGE, range=PAGE, addr=BASE), errno.EINVAL),  # unbind with offset
])
def test_bind_validation(dev, op, code):
    vm = dev.vm()
    handle = dev.gem(2 * PAGE)
    op = dict(op, handle=0 if op["flags"] & UNBIND else handle)
    assert _bind_errno(dev, vm, **op) == code


def test_bind_unknown_handle_or_vm_is_enoent(dev):
    vm = dev.vm()
    assert _bind_errno(dev, vm, flags=RW, handle=999, offset=0, range=PAGE, addr=BASE) == errno.ENOENT
    with pytest.raises(OSError) as info:
        dev.bind(999, dev.gem(), BASE, PAGE)
    assert info.value.errno == errno.ENOENT


def test_unbind_with_a_handle_is_einval(dev):
    vm = dev.vm()
    assert _bind_errno(dev, vm, flags=UNBIND, handle=dev.gem(), offset=0, range=PAGE, addr=BASE) == errno.EINVAL


def test_a_bad_op_in_a_batch_changes_nothing(dev):
    vm = dev.vm()
    handle = dev.gem()
    with pytest.raises(OSError):
        dev.bind_ops(vm, [dict(flags=RW, handle=handle, range=PAGE, addr=BASE),
                          dict(flags=RW, handle=handle, range=PAGE, addr=BASE + 1)])
    assert _vm(dev, vm).mappings() == []


def test_batched_bind_and_unbind(dev):
    vm = dev.vm()
    handle = dev.gem(2 * PAGE)
    dev.bind_ops(vm, [dict(flags=RW, handle=handle, range=2 * PAGE, addr=BASE),
                      dict(flags=UNBIND, range=PAGE, addr=BASE),
                      dict(flags=READ, handle=handle, range=PAGE, addr=BASE + 4 * PAGE)])
    spans = [(m.va - BASE, m.end - BASE, m.writable) for m in _vm(dev, vm).mappings()]
    assert spans == [(PAGE, 2 * PAGE, True), (4 * PAGE, 5 * PAGE, False)]


def test_short_bind_stride_is_zero_extended(dev):
    vm = dev.vm()
    handle = dev.gem()
    # A 24-byte stride cuts off ``addr``, which reads as 0: below vm_start.
    with pytest.raises(OSError) as info:
        dev.bind_ops(vm, [dict(flags=RW, handle=handle, range=PAGE, addr=BASE)], stride=24)
    assert info.value.errno == errno.EINVAL
    assert dev.errno_of("ASAHI_VM_BIND", vm_id=vm, num_binds=1, stride=0, userptr=0) == errno.EINVAL
    assert dev.errno_of("ASAHI_VM_BIND", vm_id=vm, num_binds=1, stride=32, userptr=0, pad=1) == errno.EINVAL


def test_destroyed_vm_unmaps_when_its_queues_are_gone(open_private):
    kernel, d = open_private()
    vm = d.vm()
    d.bind(vm, d.gem(), BASE, PAGE)
    queue = d.queue(vm)
    gpu = d.kernel_file().vms.items[vm]
    d.ioctl("ASAHI_VM_DESTROY", vm_id=vm)
    assert len(gpu.mappings()) == 1  # the queue still holds the VM
    assert kernel.queue_vm(d.kernel_file(), queue) is gpu
    d.ioctl("ASAHI_QUEUE_DESTROY", queue_id=queue)
    assert gpu.mappings() == []


def test_translation_matches_a_page_by_page_reference(open_private):
    """Random binds (subranges, single pages, read-only) against a plain dict page table."""
    kernel, d = open_private()
    vm = d.vm()
    rng = np.random.default_rng(7)
    objects = [d.gem(8 * PAGE) for _ in range(3)]
    for h in objects:
        d.map(h, 8 * PAGE)[:] = rng.integers(0, 256, 8 * PAGE, dtype=np.uint8).tobytes()
    reference = {}  # VA page -> (object handle, object page, writable)
    for _ in range(12):
        h = int(rng.choice(objects))
        pages = int(rng.integers(1, 4))
        obj_page = int(rng.integers(0, 8 - pages + 1))
        va_page = int(rng.integers(0, 24))
        single = bool(rng.integers(0, 4) == 0)
        writable = bool(rng.integers(0, 2))
        flags = READ | (WRITE if writable else 0) | (SINGLE if single else 0)
        d.bind(vm, h, BASE + va_page * PAGE, pages * PAGE, offset=obj_page * PAGE, flags=flags)
        for i in range(pages):
            reference[va_page + i] = (h, obj_page + (0 if single else i), writable)
        if rng.integers(0, 3) == 0:
            gone = int(rng.integers(0, 24))
            d.unbind(vm, BASE + gone * PAGE, PAGE)
            reference.pop(gone, None)
    contents = {h: np.frombuffer(bytes(d.map(h, 8 * PAGE)), np.uint8) for h in objects}
    vas = BASE + rng.integers(0, 24 * PAGE, 2000).astype(np.uint64)
    expected = np.array([contents[reference[p][0]][reference[p][1] * PAGE + o] if p in reference else 0
                         for p, o in ((int(va - BASE) // PAGE, int(va - BASE) % PAGE) for va in vas)], np.uint8)
    mapped = np.array([int(va - BASE) // PAGE in reference for va in vas])
    gpu = d.kernel_file().vms.items[vm]
    assert np.array_equal(gpu.gather(vas[mapped], np.uint8, "USC"), expected[mapped])
    phys, ok = gpu.translate(vas, is_read=True)
    assert np.array_equal(ok, mapped)
    one_page = vas[mapped][:1]  # a single address: the one-run fast path
    assert gpu.gather(one_page, np.uint8, "USC")[0] == expected[mapped][0]
    _, writable_ok = gpu.translate(vas, is_read=False)
    assert np.array_equal(writable_ok, [mapped[i] and reference[int(va - BASE) // PAGE][2]
                                        for i, va in enumerate(vas)])


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.float32])
def test_one_run_fast_path_matches_the_general_path(dev, dtype, monkeypatch):
    """gather/scatter inside one contiguous run (the fast path: no per-page work)
    give what the general translation gives on the same addresses, including
    duplicates (last lane wins), unaligned addresses and the run's last element."""
    vm = dev.vm()
    dev.bind(vm, dev.gem(4 * PAGE), BASE, 4 * PAGE)
    gpu = _vm(dev, vm)
    rng = np.random.default_rng(3)
    size = np.dtype(dtype).itemsize
    cases = [BASE + rng.integers(0, 4 * PAGE // size, 700).astype(np.uint64) * np.uint64(size),  # aligned, dups
             BASE + rng.integers(0, 4 * PAGE - size, 300).astype(np.uint64),                     # unaligned
             np.array([BASE + 4 * PAGE - size], np.uint64)]                                     # last element
    for vas in cases:
        values = rng.integers(0, 255, vas.size * size, dtype=np.uint8).view(dtype)
        results = []
        for fast in (True, False):
            if not fast:
                monkeypatch.setattr(type(gpu), "_one_run_index", lambda *a: None)
            gpu.write(BASE, np.zeros(4 * PAGE, np.uint8), "USC")
            gpu.scatter(vas, values, "USC")
            results.append((gpu.read(BASE, 4 * PAGE, "USC"), gpu.gather(vas, dtype, "USC")))
            monkeypatch.undo()
        np.testing.assert_array_equal(results[0][0], results[1][0])
        np.testing.assert_array_equal(results[0][1], results[1][1])
    # one element past the run, or a read-only run written: the general path faults
    with pytest.raises(GPUFault):
        gpu.gather(np.array([BASE + 4 * PAGE - size + 1], np.uint64), dtype, "USC") if size > 1 else \
            gpu.gather(np.array([BASE + 4 * PAGE], np.uint64), dtype, "USC")


def test_long_reads_and_writes_in_one_piece_and_across_pieces(dev):
    """read/write over several pages: one object bound in one piece (one copy), two
    objects adjacent in VA only, and a single-page mapping that repeats its page."""
    vm = dev.vm()
    a, b = dev.gem(3 * PAGE), dev.gem(PAGE)
    dev.bind(vm, a, BASE, 3 * PAGE)
    dev.bind(vm, b, BASE + 3 * PAGE, PAGE)
    gpu = _vm(dev, vm)
    data = np.random.default_rng(2).integers(0, 256, 4 * PAGE - 100, dtype=np.uint8)
    gpu.write(BASE + 50, data, "PBE")
    assert gpu.read(BASE + 50, data.size, "PBE").tobytes() == data.tobytes()
    assert bytes(dev.map(a, 3 * PAGE)[50:3 * PAGE]) == data[:3 * PAGE - 50].tobytes()
    assert bytes(dev.map(b, PAGE)[:PAGE - 50]) == data[3 * PAGE - 50:].tobytes()
    c = dev.gem(PAGE)
    dev.map(c, PAGE)[:4] = b"\x01\x02\x03\x04"
    dev.bind(vm, c, BASE + 8 * PAGE, 2 * PAGE, flags=READ | SINGLE)
    got = gpu.read(BASE + 8 * PAGE, 2 * PAGE, "TEX")
    assert got[:4].tobytes() == got[PAGE:PAGE + 4].tobytes() == b"\x01\x02\x03\x04"


def test_span_fast_path_of_read_and_write_matches_the_general_path(dev, monkeypatch):
    """read/write of a range inside one run (scalar lookups only) give what the
    page-by-page path gives: ranges ending at the run's last byte, crossing into
    the next object, into unmapped memory (a fault), a read-only run written (a
    fault) and a single-page run (repeats its page)."""
    vm = dev.vm()
    a, b, c = dev.gem(2 * PAGE), dev.gem(PAGE), dev.gem(PAGE)
    dev.bind(vm, a, BASE, 2 * PAGE)
    dev.bind(vm, b, BASE + 2 * PAGE, PAGE, flags=READ)
    dev.bind(vm, c, BASE + 8 * PAGE, 2 * PAGE, flags=READ | SINGLE)
    gpu = _vm(dev, vm)
    rng = np.random.default_rng(5)
    dev.map(b, PAGE)[:] = rng.integers(0, 256, PAGE, dtype=np.uint8).tobytes()
    dev.map(c, PAGE)[:] = rng.integers(0, 256, PAGE, dtype=np.uint8).tobytes()
    ranges = [(BASE + 5, 60), (BASE + 2 * PAGE - 16, 16), (BASE + 2 * PAGE - 16, 40), (BASE + 3 * PAGE - 8, 8),
              (BASE + 8 * PAGE + PAGE - 4, 12), (BASE + 100, 2 * PAGE - 100)]
    results = []
    for fast in (True, False):
        if not fast:
            monkeypatch.setattr(type(gpu), "_span_phys", lambda *a: None)
        gpu.write(BASE, np.zeros(2 * PAGE, np.uint8), "USC")
        gpu.write(BASE + 7, np.arange(200, dtype=np.uint8), "USC")
        gpu.write(BASE + 2 * PAGE - 3, b"\x09\x08\x07", "USC")
        got = [gpu.read(va, n, "USC").tobytes() for va, n in ranges]
        faults = []
        for op in (lambda: gpu.read(BASE + 3 * PAGE - 8, 9, "USC"),          # one byte past b
                   lambda: gpu.write(BASE + 2 * PAGE, b"\x01", "PBE"),        # b is read-only
                   lambda: gpu.write(BASE + 2 * PAGE - 1, b"\x01\x02", "PBE")):
            with pytest.raises(GPUFault) as e:
                op()
            faults.append((e.value.info.address, e.value.info.unit, e.value.info.is_read))
        results.append((got, faults))
        monkeypatch.undo()
    assert results[0] == results[1]
    got = results[0][0]
    assert got[0][2:12] == bytes(range(10)) and got[1][-3:] == b"\x09\x08\x07"
    assert got[4] == bytes(dev.map(c, PAGE)[PAGE - 4:]) + bytes(dev.map(c, PAGE)[:8])


def test_a_window_asked_again_follows_binds(dev):
    """VM.window remembers its answers for the page table they were given for: the
    same range asked again after an unbind, a rebind of other memory or a change of
    permissions answers for the new page table."""
    vm = dev.vm()
    a, b = dev.gem(PAGE), dev.gem(PAGE)
    dev.map(a, PAGE)[:] = bytes([1]) * PAGE
    dev.map(b, PAGE)[:] = bytes([2]) * PAGE
    dev.bind(vm, a, BASE, PAGE)
    gpu = _vm(dev, vm)
    for _ in range(2):                                   # the second answer is the remembered one
        assert gpu.window(BASE + 16, 32, True).tolist() == [1] * 32
    dev.unbind(vm, BASE, PAGE)
    assert gpu.window(BASE + 16, 32, True) is None
    dev.bind(vm, b, BASE, PAGE)
    assert gpu.window(BASE + 16, 32, True).tolist() == [2] * 32
    assert gpu.window(BASE + 16, 32, False) is not None
    dev.unbind(vm, BASE, PAGE)
    dev.bind(vm, b, BASE, PAGE, flags=READ)              # read-only now: no window to write through
    assert gpu.window(BASE + 16, 32, False) is None
    assert gpu.window(BASE + 16, 32, True).tolist() == [2] * 32
