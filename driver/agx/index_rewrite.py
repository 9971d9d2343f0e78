"""Draw inputs prepared on the GPU (Asahi's libagx kernels, in miniature): index
lists rewritten, and indirect records filtered by a draw count in a buffer.

The VDM draws lists, strips and fans; quads, quad strips and the adjacency
topologies without a geometry stage reach it as independent triangles or lines
whose vertices are picked from the application's index list. Which positions of
the list each output index takes depends only on the topology and the count
(``uapi.topology``, the driver's ``encode`` computes them with numpy on the CPU,
reading no GPU memory); the index *values* may still be being written by the GPU
(a compute shader, a buffer copy, transform feedback). So a small compute kernel
gathers them: thread j loads position ``positions[j]`` of the source list (8, 16
or 32-bit indices, zero-extended) and stores it as the j-th 32-bit index of a
fresh buffer, which the draw then reads. The pipe orders the kernel after the
source's writers and the draw after the kernel (``AgxContext.read``/``write``),
on the GPU: the CPU never waits (``driver/agx/fallbacks.py`` counts nothing).

What stays on the CPU (``fallbacks.read_indices``): lists with primitive restart
(the positions depend on where the restart index occurs, i.e. on the values) and
draws whose transform feedback needs the vertex ids to build its records. Lists in
client memory are rewritten on the CPU too, without a fallback: they are the
application's bytes, with nothing on the GPU to wait for.

Uniforms of the gather kernel (32-bit words): u0_u1 the source list's first index,
u2_u3 the positions (uint32), u4_u5 the destination, u6 the last thread index.

ARB_indirect_parameters: a multi-draw takes its draw count from a buffer, at most
``maxdrawcount``. A second kernel (``draw_count_program``) copies the
``maxdrawcount`` records into a fresh buffer, tightly packed, giving the records at
and after the count zero instances; the VDM then reads all of them
(``VDM_INDEX_LIST.indirect``) and the ones past the count draw nothing. Uniforms:
u0_u1 the count's address, u2_u3 the first record, u4_u5 the destination, u6 the
last thread index, u7 the records' stride in words; the record's word count is
part of the program.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache

import numpy as np

import uapi.packets as P
from driver.gallium import PipeBind, PipeFormat, PipeTextureTarget, PipeUsage, ResourceTemplate
from uapi.isa import assemble

__all__ = ["COUNTS", "gather_program", "gather_indices", "draw_count_program", "filter_records",
           "THREADGROUP_THREADS"]

#: kernels launched per kind since the process started ("gather": index gathers,
#: "draw_count": indirect records filtered by a draw count)
COUNTS: Counter = Counter()
THREADGROUP_THREADS = 64
_LOAD = {1: ("i8", 0), 2: ("i16", 1), 4: ("i32", 2)}       # index size -> (load format, shift)


@lru_cache(maxsize=None)
def gather_program(index_size_B: int) -> bytes:
    """The kernel for one source index size: thread j (clamped to u6) copies source
    index ``positions[j]`` to destination word j."""
    fmt, shift = _LOAD[index_size_B]
    return assemble("\n".join([
        "get_sr r4, thread_position_in_grid.x", "umin r4, r4, u6",
        "device_load.i32 r5, u2_u3, r4, 2, 0", "wait 0",
        f"device_load.{fmt} r6, u0_u1, r5, {shift}, 0", "wait 0",
        "device_store.i32 r6, u4_u5, r4, 2, 0", "wait 0", "stop"]))


def gather_indices(ctx, info, start: int, positions: np.ndarray):
    """A new index buffer (uint32) whose word j is index ``start + positions[j]`` of
    the draw's index buffer (``info``: the buffer and the index size), written by a compute launch in ``ctx``'s compute batch. The caller reads
    it in its render batch (``ctx.read``), which makes that submission wait for the
    kernel's on the GPU, and destroys it (the batches keep its memory alive)."""
    n = len(positions)
    assert n > 0, "no indices to gather"
    size_B = info.index_size
    batch = ctx._batch_for(None)
    ctx.read(batch, info.index_resource)
    src_va = info.index_resource.va + start * size_B
    out = ctx.screen.resource_create(ResourceTemplate(
        PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 4 * n,
        bind=PipeBind.INDEX_BUFFER | PipeBind.SHADER_BUFFER, usage=PipeUsage.DEFAULT))
    ctx.write(batch, out)
    pos_va = batch.pool.upload(np.ascontiguousarray(positions, np.uint32).tobytes(), 16)
    u = np.zeros(7, np.uint32)
    for word, va in ((0, src_va), (2, pos_va), (4, out.va)):
        u[word:word + 2] = [va & 0xFFFFFFFF, va >> 32]
    u[6] = n - 1
    _launch(ctx, batch, f"index_gather_{size_B}", gather_program(size_B), 8, u, n)
    COUNTS["gather"] += 1
    return out


def _launch(ctx, batch, name: str, program: bytes, register_count: int, uniforms: np.ndarray,
            threads: int) -> None:
    """One launch of the driver's program ``name`` over ``threads`` threads in the
    compute ``batch`` (after its earlier launches), with ``uniforms`` (uint32 words)
    from u0."""
    code = ctx._internal_code(name, program)
    words = (P.pack("USC_SHADER", register_count=register_count, code=code)
             + P.pack("USC_UNIFORM", start_halves=0, size_halves=2 * len(uniforms),
                      buffer=batch.pool.upload(np.ascontiguousarray(uniforms, np.uint32).tobytes(), 16))
             + P.pack("USC_END"))
    if batch.launches:
        batch.cdm += P.pack("CDM_BARRIER")
    batch.cdm += P.pack("CDM_LAUNCH", pipeline=batch.pool.upload(words, 64),
                        grid_x_tg=-(-threads // THREADGROUP_THREADS), threadgroup_x_threads=THREADGROUP_THREADS)
    batch.launches += 1


@lru_cache(maxsize=None)
def draw_count_program(record_words: int) -> bytes:
    """The kernel for records of ``record_words`` words (4: arrays, 5: elements):
    thread k (clamped to u6) copies record k (stride u7 words) to destination words
    [k * record_words, ...), its instance count (word 1) zeroed when k is not below
    the draw count at u0_u1."""
    lines = ["get_sr r4, thread_position_in_grid.x", "umin r4, r4, u6", "mov_imm r5, 0",
             "device_load.i32 r6, u0_u1, r5, 2, 0", "wait 0",
             "imul r7, r4, u7", f"imul r8, r4, {record_words}"]
    for j in range(record_words):
        lines += [f"iadd r9, r7, {j}", "device_load.i32 r10, u2_u3, r9, 2, 0", "wait 0"]
        if j == 1:
            lines += ["icmpsel.ult r10, r4, r6, r10, 0"]
        lines += [f"iadd r9, r8, {j}", "device_store.i32 r10, u4_u5, r9, 2, 0", "wait 0"]
    return assemble("\n".join(lines + ["stop"]))


def filter_records(ctx, indirect, record_words: int):
    """A new buffer of ``indirect.draw_count`` (maxdrawcount) tightly packed records,
    those at and after the draw count in ``indirect.indirect_draw_count`` with zero
    instances, written by a compute launch (the caller reads it in its render batch
    and destroys it, as ``gather_indices``'s)."""
    n = indirect.draw_count
    assert n > 0, "no records to filter"
    batch = ctx._batch_for(None)
    ctx.read(batch, indirect.indirect_draw_count)
    ctx.read(batch, indirect.buffer)
    out = ctx.screen.resource_create(ResourceTemplate(
        PipeTextureTarget.BUFFER, PipeFormat.R8_UINT, 4 * record_words * n,
        bind=PipeBind.SHADER_BUFFER, usage=PipeUsage.DEFAULT))
    ctx.write(batch, out)
    u = np.zeros(8, np.uint32)
    count_va = indirect.indirect_draw_count.va + indirect.indirect_draw_count_offset_B
    for word, va in ((0, count_va), (2, indirect.buffer.va + indirect.offset_B), (4, out.va)):
        u[word:word + 2] = [va & 0xFFFFFFFF, va >> 32]
    u[6] = n - 1
    u[7] = (indirect.stride_B or 4 * record_words) // 4
    _launch(ctx, batch, f"draw_count_{record_words}", draw_count_program(record_words), 12, u, n)
    COUNTS["draw_count"] += 1
    return out
