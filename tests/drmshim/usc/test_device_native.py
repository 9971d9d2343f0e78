"""Device loads and stores of words in C through a memory window
(``usc.device_native``, ``GPUMemory.window``) against the numpy step, bit for bit:
registers and memory after programs with masked lanes, helper lanes, negative
indices, vectors of words, unaligned and overlapping addresses, duplicate store
addresses (the last lane's word stays); and where no window exists (unmapped,
read-only, split mappings, ranges beyond 2^64) the numpy step runs and faults as
before. The VM's window itself: a view exactly when every byte is accessible so."""

from __future__ import annotations

import numpy as np
import pytest

from drmshim.gpu.usc import device_native
from drmshim.kernel import VM, Arena
from drmshim.kernel.gem import GEMObject
from drmshim.memory import GPUFault

from .helpers import DATA_VA_OFFSET, new_memory, run

pytestmark = pytest.mark.skipif(not device_native._KERNELS.usable(), reason="no C compiler")

N = 4096


def _uniforms(*addresses: int) -> np.ndarray:
    u = np.zeros(256, np.uint32)
    for i, a in enumerate(addresses):
        u[2 * i], u[2 * i + 1] = a & 0xFFFFFFFF, a >> 32
    return u


def _both(monkeypatch, make_memory, asm: str, **kw):
    """(registers, memory bytes, C calls taken) with the C path, then the same with the numpy step."""
    taken = []
    real = device_native.move_words
    monkeypatch.setattr(device_native, "move_words", lambda *a: taken.append(real(*a)) or taken[-1])
    monkeypatch.setattr(device_native, "MIN_LANES", 1)
    out = []
    for enabled in (True, False):
        monkeypatch.setattr(device_native, "ENABLED", enabled)
        mem, dump = make_memory()
        ctx = run(asm, lanes=N, mem=mem, debug=False, **kw)
        out.append((ctx.registers.copy(), dump(mem), list(taken)))
        taken.clear()
    (r1, m1, c_path), (r0, m0, _) = out
    np.testing.assert_array_equal(r1, r0)
    np.testing.assert_array_equal(m1, m0)
    return c_path


def _flat():
    rng = np.random.default_rng(7)
    mem = new_memory(4 << 20)
    mem.write(mem.base + DATA_VA_OFFSET, rng.integers(0, 256, 1 << 20, dtype=np.uint8), "t")
    return mem, lambda m: m.bytes.copy()


def test_loads_and_stores_equal_the_numpy_step(monkeypatch):
    rng = np.random.default_rng(8)
    va = new_memory().base + DATA_VA_OFFSET
    inputs = {40: rng.integers(0, 3000, N).astype(np.uint32),                 # masked below
              41: rng.integers(-200, 4000, N).astype(np.int32).view(np.uint32),  # negative indices
              42: rng.integers(0, 50, N).astype(np.uint32),                    # duplicate store addresses
              43: rng.integers(0, 1 << 12, N).astype(np.uint32),               # bytes: unaligned, overlapping
              44: rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32),
              45: rng.integers(0, 1 << 32, N, dtype=np.uint64).astype(np.uint32), 46: np.full(N, 2000, np.uint32)}
    asm = """
        mov_imm r0l, 0
        if_icmp.ult r40, r46, 1
          device_load.i32 r1, u0_u1, r40, 2, 0
          device_load.i32 r2_r3_r4_r5, u2_u3, r41, 4, 0
          device_store.i32 r44, u4_u5, r42, 2, 0
          device_store.i32 r44_r45, u6_u7, r43, 0, 0
        pop_exec 1
        device_load.i32 r6_r7, u8_u9, r43, 0, 0
        device_store.i32 r45, u10_u11, r40, 2, 0
        wait 0
    """
    uniforms = _uniforms(va, va + 0x4000, va + 0x80000, va + 0x90000 + 1, va + 0x20003, va + 0xA0000)
    taken = _both(monkeypatch, _flat, asm, inputs=inputs, uniforms=uniforms)
    assert len(taken) == 6 and all(taken)


def test_helper_lanes_load_but_do_not_store(monkeypatch):
    va = new_memory().base + DATA_VA_OFFSET
    helper = np.tile([False, True, False, False], N // 4)
    inputs = {40: np.arange(N, dtype=np.uint32), 41: np.arange(N, dtype=np.uint32) * 7}
    asm = "device_load.i32 r2, u0_u1, r40, 2, 0\ndevice_store.i32 r41, u2_u3, r40, 2, 0\nwait 0"
    taken = _both(monkeypatch, _flat, asm, inputs=inputs, uniforms=_uniforms(va, va + 0x40000), helper=helper,
                  quads=True)
    assert taken == [True, True]


def _vm_memory(read_only_second: bool = False, gap: bool = False):
    """A VM with two 64 KiB buffers at 0x10_0000_0000 and right after it (the second
    read-only, or not mapped)."""
    def make():
        arena = Arena(16 << 20)
        vm = VM(1, arena, 0x7F_0000_0000, 0x7F_2000_0000)
        a, b = GEMObject(arena, 0x10000, 0), GEMObject(arena, 0x10000, 0)
        arena.bytes[a.phys:a.phys + 0x10000] = np.arange(0x10000, dtype=np.uint32).view(np.uint8)[:0x10000]
        vm.map(0x10_0000_0000, 0x10000, a, 0, readable=True, writable=True)
        if not gap:
            vm.map(0x10_0001_0000, 0x10000, b, 0, readable=True, writable=not read_only_second)
        code = GEMObject(arena, 0x4000, 0)
        vm.map(0x20_0000_0000, 0x4000, code, 0, readable=True, writable=True)
        vm.base = 0x20_0000_0000          # where helpers.run places the program
        return vm, lambda m: np.concatenate([m.read(0x10_0000_0000, 0x10000, "t"),
                                              np.zeros(0) if gap else m.read(0x10_0001_0000, 0x10000, "t")])
    return make


def test_vm_window_is_a_view_only_where_every_byte_is_allowed():
    vm, _ = _vm_memory(read_only_second=True)()
    win = vm.window(0x10_0000_0100, 64, True)
    win[:4] = [1, 2, 3, 4]
    assert list(vm.read(0x10_0000_0100, 4, "t")) == [1, 2, 3, 4]
    assert vm.window(0x10_0001_0000, 16, True) is not None       # read-only: reads yes
    assert vm.window(0x10_0001_0000, 16, False) is None          # writes no
    assert vm.window(0x10_0000_FFF0, 32, True) is None           # two mappings (not contiguous)
    assert vm.window(0x10_0002_0000, 4, True) is None            # unmapped
    assert vm.window((1 << 64) - 4, 8, True) is None             # beyond the address space
    assert vm.window(0x10_0000_0000, 0, True) is None


@pytest.mark.parametrize("case", ["unmapped_load", "read_only_store", "split_store", "wrapping_load"])
def test_no_window_runs_the_numpy_step_and_faults_alike(monkeypatch, case):
    """Where the C path has no window, the numpy step runs: the same fault (address,
    direction), the same memory where a split access is allowed."""
    monkeypatch.setattr(device_native, "MIN_LANES", 1)
    idx = np.arange(N, dtype=np.uint32)
    asm, base, make = {
        "unmapped_load": ("device_load.i32 r2, u0_u1, r40, 2, 0\nwait 0", 0x10_0001_0000 - 2 * N,
                          _vm_memory(gap=True)),
        "read_only_store": ("device_store.i32 r40, u0_u1, r40, 2, 0", 0x10_0001_0000 - 4 * N + 16,
                            _vm_memory(read_only_second=True)),
        "split_store": ("device_store.i32 r40, u0_u1, r40, 2, 0", 0x10_0001_0000 - 2 * N, _vm_memory()),
        "wrapping_load": ("device_load.i32 r2, u0_u1, r40, 2, 0\nwait 0", (1 << 64) - 4 * N // 2,
                          _vm_memory()),
    }[case]
    results = []
    for enabled in (True, False):
        monkeypatch.setattr(device_native, "ENABLED", enabled)
        mem, dump = make()
        try:
            run(asm, lanes=N, mem=mem, debug=False, inputs={40: idx}, uniforms=_uniforms(base))
            results.append(("ok", dump(mem).tobytes()))
        except GPUFault as fault:
            results.append((fault.info.address, fault.info.is_read, fault.info.unit))
    assert results[0] == results[1]
    assert (results[0][0] == "ok") == (case == "split_store")


def test_few_lane_loads_equal_the_numpy_step(monkeypatch):
    """Below MIN_LANES a load of aligned words goes through the window in numpy
    (``mem._few_words_loaded``: a draw's handful of vertices): the registers of the
    numpy step, with masked lanes, negative indices and vectors of words; unaligned
    addresses, no window (an unmapped word) and ranges beyond 2^64 take the numpy
    step (and its fault)."""
    from drmshim.gpu.usc import mem as usc_mem
    lanes = 24
    rng = np.random.default_rng(9)
    taken = []
    real = usc_mem._few_words_loaded
    monkeypatch.setattr(usc_mem, "_few_words_loaded", lambda *a: taken.append(real(*a)) or taken[-1])
    inputs = {40: rng.integers(0, 3000, lanes).astype(np.uint32),
              41: rng.integers(-200, 4000, lanes).astype(np.int32).view(np.uint32),
              43: rng.integers(0, 1 << 12, lanes).astype(np.uint32),
              46: np.full(lanes, 2000, np.uint32)}
    asm = """
        mov_imm r0l, 0
        if_icmp.ult r40, r46, 1
          device_load.i32 r1, u0_u1, r40, 2, 0
          device_load.i32 r2_r3_r4_r5, u2_u3, r41, 4, 0
        pop_exec 1
        device_load.i32 r6_r7, u4_u5, r43, 0, 0
        device_load.i32 r8_r9_r10, u6_u7, r40, 3, 0
        wait 0
    """
    va = new_memory().base + DATA_VA_OFFSET
    uniforms = _uniforms(va, va + 0x4000, va + 0x20003, va + 0x8000)
    out = []
    for enabled in (True, False):
        monkeypatch.setattr(device_native, "ENABLED", enabled)
        mem, _ = _flat()
        out.append(run(asm, lanes=lanes, mem=mem, debug=False, inputs=inputs, uniforms=uniforms).registers.copy())
    np.testing.assert_array_equal(out[0], out[1])
    assert taken[:4] == [True, True, False, True]         # the unaligned one: the numpy step
    for base, make in ((0x10_0001_0000 - 8, _vm_memory(gap=True)), ((1 << 64) - 8, _vm_memory())):
        results = []
        for enabled in (True, False):
            monkeypatch.setattr(device_native, "ENABLED", enabled)
            mem, _ = make()
            try:
                run("device_load.i32 r2, u0_u1, r40, 2, 0\nwait 0", lanes=lanes, mem=mem, debug=False,
                    inputs={40: np.arange(lanes, dtype=np.uint32)}, uniforms=_uniforms(base))
                results.append("ok")
            except GPUFault as fault:
                results.append((fault.info.address, fault.info.is_read, fault.info.unit))
        assert results[0] == results[1] != "ok"
