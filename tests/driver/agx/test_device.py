"""driver.agx.device through the real seam (drmshim's default kernel answers
/dev/dri/renderD128): VM plan, BOs, the BO cache, sync objects, submits."""

import errno
import time

import numpy as np
import pytest

import uapi
from driver.agx import BOCache, Command, Device, VAHeap
from driver.agx.device import GUARD_B, PAGE_B, USC_HEAP_B
from uapi import packets as P
from uapi.isa import assemble


@pytest.fixture
def dev():
    d = Device()
    yield d
    d.close()


def test_heap_first_fit_alignment_and_coalescing():
    h = VAHeap(0x10000, 0x10000 + 16 * PAGE_B)
    a = h.alloc(1)
    b = h.alloc(PAGE_B + 1)
    assert (a, b) == (0x10000, 0x10000 + PAGE_B)
    c = h.alloc(PAGE_B, align_B=4 * PAGE_B)
    assert c % (4 * PAGE_B) == 0
    h.free(b, 2 * PAGE_B)
    assert h.alloc(2 * PAGE_B) == b           # reused hole
    for va, n in ((a, 1), (b, 2 * PAGE_B), (c, PAGE_B)):
        h.free(va, n)
    assert h.free_B == 16 * PAGE_B and len(h._starts) == 1   # all coalesced
    with pytest.raises(MemoryError):
        h.alloc(17 * PAGE_B)


def test_address_space_plan(dev):
    p = dev.params
    assert dev.usc_base == 1 << 36
    assert dev.kernel_end <= p.vm_end and dev.kernel_end - dev.kernel_start >= max(p.vm_kernel_min_size, 32 << 30)
    assert dev.user_heap.start_B == dev.usc_base + USC_HEAP_B and dev.user_heap.end_B == dev.kernel_start
    shader = dev.bo_create(100, usc=True, label="shader")
    data = dev.bo_create(100)
    assert dev.usc_base <= shader.va < dev.usc_base + USC_HEAP_B and shader.usc_offset < 1 << 32
    assert dev.user_heap.start_B <= data.va < dev.kernel_start


def test_bos_have_guard_pages_and_cpu_gpu_shared_memory(dev):
    a = dev.bo_create(PAGE_B)
    b = dev.bo_create(PAGE_B)
    assert b.va >= a.va + a.size_B + GUARD_B
    a.write(0, b"\x01\x02\x03\x04")
    assert bytes(a.map[:4]) == b"\x01\x02\x03\x04"


def test_bo_cache_reuse_rules():
    assert BOCache.bucket_of(1) == 16 << 10 and BOCache.bucket_of(5 << 20) is None
    assert BOCache.bucket_of((16 << 10) + 1) == 32 << 10


def test_bo_cache_reuses_idle_bos_and_never_shared(dev):
    a = dev.bo_create(64 << 10)
    va, handle = a.va, a.handle
    a.release()
    b = dev.bo_create(40 << 10)          # 64 KiB <= 2 * 40 KiB: reused
    assert (b.va, b.handle) == (va, handle) and dev.cache.hits == 1
    b.release()
    c = dev.bo_create(16 << 10)          # 64 KiB > 2 * 16 KiB: a new BO
    assert c.handle != handle
    s = dev.bo_create(16 << 10, shared=True)
    s.release()
    assert s.freed and dev.cache.size_B == 64 << 10
    assert dev.bo_export(dev.bo_create(PAGE_B, shared=True)) > 0


def test_bo_cache_evicts_idle_entries(dev):
    a = dev.bo_create(PAGE_B)
    a.release()
    assert not a.freed
    for bo in dev.cache.evict(now=a.idle_since + 10):
        dev._bo_free(bo)
    assert a.freed and a.handle not in dev.bos


def test_syncobjs(dev):
    s = dev.syncobj_create()
    assert not dev.syncobj_wait([s], timeout_ns=0)
    dev.syncobj_signal(s)
    assert dev.syncobj_wait([s], timeout_ns=0)
    dev.syncobj_reset(s)
    assert not dev.syncobj_wait([s], timeout_ns=1_000_000)
    t = dev.syncobj_create(signaled=True)
    assert dev.syncobj_wait([s, t], timeout_ns=0, wait_all=False)
    dev.syncobj_destroy(s)


def test_syncobj_wait_one(dev):
    """A submission's one-handle wait: polls, times out, sees a signal; a syncobj
    without a fence is unsignalled (WAIT_FOR_SUBMIT); a bad handle is the kernel's errno."""
    s = dev.syncobj_create()
    assert not dev.syncobj_wait_one(s, 0)
    start = time.monotonic()
    assert not dev.syncobj_wait_one(s, 20_000_000)
    assert time.monotonic() - start >= 0.02
    dev.syncobj_signal(s)
    assert dev.syncobj_wait_one(s, 0) and dev.syncobj_wait_one(s)
    dev.syncobj_destroy(s)
    with pytest.raises(OSError) as info:
        dev.syncobj_wait_one(s, 0)
    assert info.value.errno == errno.ENOENT


def test_timestamps_increase(dev):
    t0 = dev.timestamp_ns()
    t1 = dev.timestamp_ns()
    assert 0 < t0 <= t1


def test_compute_submit_runs_and_signals(dev):
    """A CDM launch storing thread ids, submitted with an out-sync and waited on."""
    out = dev.bo_create(4 * 64)
    code = dev.bo_create(256, usc=True)
    prog = assemble("\n".join(["get_sr r4, thread_position_in_grid.x", "device_store.i32 r4, u0_u1, r4, 2, 0",
                               "wait 0", "stop"]))
    code.write(0, prog)
    data = dev.bo_create(4096)
    uniforms = np.zeros(4, np.uint32)
    uniforms[:2].view(np.uint64)[0] = out.va
    data.write(0, uniforms.tobytes())
    words = (P.pack("USC_SHADER", register_count=8, code=code.va)
             + P.pack("USC_UNIFORM", start_halves=0, size_halves=4, buffer=data.va) + P.pack("USC_END"))
    data.write(256, words)
    stream = P.pack("CDM_LAUNCH", pipeline=data.va + 256, grid_x_tg=2, threadgroup_x_threads=32) \
        + P.pack("CDM_TERMINATE")
    data.write(1024, stream)
    done = dev.syncobj_create()
    dev.submit([Command.compute({"cdm_ctrl_stream_base": data.va + 1024,
                                 "cdm_ctrl_stream_end": data.va + 1024 + len(stream)}, 0, 0)],
               out_syncs=[done])
    assert dev.syncobj_wait([done], timeout_ns=10_000_000_000)
    assert (np.frombuffer(out.map[:256], np.uint32) == np.arange(64)).all()
    assert dev.queue_counters()["commands"] >= 1


def test_submit_errors_are_oserrors(dev):
    with pytest.raises(OSError):
        dev.submit([Command(99, b"")])
    assert uapi.DRM_ASAHI_BARRIER_NONE == 0xFFFF
