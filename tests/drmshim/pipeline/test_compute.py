"""CDM: compute launches over 1-3D grids, indirect grids, local memory, links, faults."""

import numpy as np
import pytest

from drmshim.gpu.pipeline import Executor
from drmshim.memory import GPUFault
from uapi import packets as P

from .gpu import Space, command, u64_uniforms

# out[gid] = gid.x + 1000 * gid.y + 1000000 * gid.z
GRID_ID = """
get_sr r0, thread_position_in_grid.x
get_sr r1, thread_position_in_grid.y
get_sr r2, thread_position_in_grid.z
get_sr r3, threads_per_threadgroup.x
get_sr r4, threadgroups_per_grid.x
imul r5, r3, r4
get_sr r6, threads_per_threadgroup.y
get_sr r7, threadgroups_per_grid.y
imul r8, r6, r7
imul r9, r8, r2
iadd r9, r9, r1
imad r9, r9, r5, r0
mov_imm r12, 1000
imul r10, r1, r12
iadd r10, r10, r0
mov_imm r11, 1000000
imad r10, r2, r11, r10
device_store.i32 r10, u0_u1, r9, 2, 0
wait 0
stop
"""


def _stream(space, *blocks: bytes) -> int:
    return space.put(b"".join(blocks) + P.pack("CDM_TERMINATE"), align=16)


def _run(space, stream_va):
    ex = Executor()
    cmd = command(space, "compute", cdm_ctrl_stream_base=stream_va)
    ex.run_compute(cmd)
    return cmd


@pytest.mark.parametrize("grid,tg", [((5, 1, 1), (7, 1, 1)), ((3, 4, 1), (4, 2, 1)), ((2, 3, 2), (2, 2, 3))])
def test_grid_ids_match_numpy(grid, tg):
    space = Space()
    n = np.prod(grid) * np.prod(tg)
    out = space.alloc(4 * n)
    pipe = space.usc(GRID_ID, uniforms=u64_uniforms(out))
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=grid[0], grid_y_tg=grid[1], grid_z_tg=grid[2],
                    threadgroup_x_threads=tg[0], threadgroup_y_threads=tg[1], threadgroup_z_threads=tg[2])
    _run(space, _stream(space, launch))
    X, Y, Z = grid[0] * tg[0], grid[1] * tg[1], grid[2] * tg[2]
    z, y, x = np.meshgrid(np.arange(Z), np.arange(Y), np.arange(X), indexing="ij")
    expected = (x + 1000 * y + 1000000 * z).ravel().astype(np.uint32)
    np.testing.assert_array_equal(space.get(out, n, np.uint32), expected)


def test_large_grid_is_split_in_slices_with_the_same_result(monkeypatch):
    from drmshim.gpu.pipeline import cdm
    monkeypatch.setattr(cdm, "MAX_LANES_PER_RUN", 64)
    test_grid_ids_match_numpy((3, 5, 2), (4, 4, 1))


def test_rows_wider_than_a_slice_are_split_too(monkeypatch):
    from drmshim.gpu.pipeline import cdm
    monkeypatch.setattr(cdm, "MAX_LANES_PER_RUN", 32)   # 2 groups of 16 threads per run
    test_grid_ids_match_numpy((7, 3, 2), (4, 4, 1))


def test_a_threadgroup_larger_than_the_hardware_allows_is_a_cdm_fault():
    space = Space()
    pipe = space.usc(GRID_ID, uniforms=u64_uniforms(space.alloc(64)))
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=1, threadgroup_x_threads=64, threadgroup_y_threads=32)
    stream = _stream(space, launch)
    with pytest.raises(GPUFault) as info:
        _run(space, stream)
    assert (info.value.info.unit, info.value.info.address) == ("CDM", stream)
    assert "at most 1024" in info.value.info.reason


def test_indirect_launch_reads_the_grid_from_memory():
    space = Space()
    out = space.alloc(4 * 64)
    pipe = space.usc(GRID_ID, uniforms=u64_uniforms(out))
    grid = space.put(np.array([2, 3, 1], np.uint32))
    launch = P.pack("CDM_LAUNCH", mode="INDIRECT", pipeline=pipe, indirect_buffer=grid, threadgroup_x_threads=4,
                    grid_x_tg=99)
    _run(space, _stream(space, launch))
    y, x = np.mgrid[0:3, 0:8]
    np.testing.assert_array_equal(space.get(out, 24, np.uint32), (x + 1000 * y).ravel())


# local memory: each group of 8 reverses its thread ids through threadgroup memory
REVERSE = """
get_sr r0, thread_index_in_threadgroup
get_sr r1, thread_position_in_grid.x
ishl r2, r0, 2
local_store.i32 r1, r2, 0
wait 0
threadgroup_barrier
mov_imm r3, 7
isub r3, r3, r0
ishl r3, r3, 2
local_load.i32 r4, r3, 0
wait 0
device_store.i32 r4, u0_u1, r1, 2, 0
wait 0
stop
"""


def test_local_memory_is_per_threadgroup():
    space = Space()
    out = space.alloc(4 * 32)
    pipe = space.usc(REVERSE, uniforms=u64_uniforms(out), shared_B=32, threads=8)
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=4, threadgroup_x_threads=8)
    _run(space, _stream(space, launch))
    expected = (np.arange(32) // 8 * 8 + 7 - np.arange(32) % 8).astype(np.uint32)
    np.testing.assert_array_equal(space.get(out, 32, np.uint32), expected)


ADD_ONE = """
get_sr r0, thread_position_in_grid.x
device_load.i32 r1, u0_u1, r0, 2, 0
wait 0
iadd r1, r1, 1
device_store.i32 r1, u0_u1, r0, 2, 0
wait 0
stop
"""


def test_links_calls_and_order_of_launches():
    space = Space()
    buf = space.put(np.arange(16, dtype=np.uint32))
    pipe = space.usc(ADD_ONE, uniforms=u64_uniforms(buf))
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=4, threadgroup_x_threads=4)
    sub = space.put(launch + P.pack("CDM_BARRIER") + launch + P.pack("CDM_RETURN"), align=16)
    tail = _stream(space, launch)
    main = space.put(launch + P.pack("CDM_STREAM_LINK", with_return=True, target=sub)
                     + P.pack("CDM_STREAM_LINK", target=tail), align=16)
    _run(space, main)
    np.testing.assert_array_equal(space.get(buf, 16, np.uint32), np.arange(16) + 4)


def test_fault_names_the_unit_and_address_and_stops():
    space = Space()
    bad = 0xDEAD_0000
    pipe = space.usc(ADD_ONE, uniforms=u64_uniforms(bad))
    launch = P.pack("CDM_LAUNCH", pipeline=pipe, grid_x_tg=1, threadgroup_x_threads=4)
    ex = Executor()
    cmd = command(space, "compute", cdm_ctrl_stream_base=_stream(space, launch))
    with pytest.raises(GPUFault) as info:
        ex.run_compute(cmd)
    assert info.value.info.address == bad and info.value.info.is_read and info.value.info.unit == "USC"
    assert cmd.faults == [info.value.info]
    # a bad stream address is a CDM fault
    cmd = command(space, "compute", cdm_ctrl_stream_base=0x7777_0000)
    with pytest.raises(GPUFault) as info:
        ex.run_compute(cmd)
    assert info.value.info.unit == "CDM" and info.value.info.address == 0x7777_0000


# each thread spills a value to its stack (same offset in every lane) and reads it back
SPILL = """
get_sr r0, thread_position_in_grid.x
mov_imm r1, 12
iadd r2, r0, 7
stack_store r2, r1, 0
wait 0
mov_imm r2, 0
stack_load r3, r1, 0
wait 0
device_store.i32 r3, u0_u1, r0, 2, 0
wait 0
stop
"""


def test_scratch_memory_is_private_per_lane():
    space = Space()
    out = space.alloc(4 * 64)
    words = space.put(P.pack("USC_SHADER", register_count=8, scratch_size_B=32, code=space.program(SPILL))
                      + P.pack("USC_UNIFORM", start_halves=0, size_halves=4,
                               buffer=space.put(u64_uniforms(out)[:2].tobytes()))
                      + P.pack("USC_END"), 16)
    launch = P.pack("CDM_LAUNCH", pipeline=words, grid_x_tg=4, threadgroup_x_threads=16)
    _run(space, _stream(space, launch))
    np.testing.assert_array_equal(space.get(out, 64, np.uint32), np.arange(64) + 7)
