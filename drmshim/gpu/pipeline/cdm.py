"""CDM: the compute data master. Walks a compute command's CDM stream and runs
each launch on the shader core over its whole grid in bulk.

A launch (``CDM_LAUNCH``) names a pipeline (USC words: the kernel, its uniforms,
texture/sampler tables, threadgroup memory) and a grid of threadgroups, direct
or read from ``indirect_buffer`` (3 x uint32, in threadgroups). Lanes are
ordered threadgroup by threadgroup (``ExecContext.for_compute``); a batch never
splits a threadgroup, so barriers and local memory hold. Launches run in stream
order and each sees the memory writes of the earlier ones (``CDM_BARRIER`` is
therefore satisfied by construction).
"""

from __future__ import annotations

from uapi import packets as P

from ...firmware.watchdog import check_budget
from ...memory import FaultInfo, GPUFault
from ..usc import ExecContext
from .streams import walk
from .scratch import run_program
from .usc_words import read_pipeline, read_words

__all__ = ["run_cdm", "MAX_LANES_PER_RUN", "MAX_THREADGROUP_THREADS"]

#: Threads one threadgroup may have (the hardware's limit; a launch asking for
#: more is malformed: a CDM fault).
MAX_THREADGROUP_THREADS = 1024
#: Lanes handed to one ShaderCore.run (the grid is split into whole-threadgroup
#: slices above this, to bound the memory of the per-lane special registers).
MAX_LANES_PER_RUN = 1 << 20


def _grid(memory, launch) -> tuple[int, int, int]:
    if launch.mode == P.CDMMode.INDIRECT:
        g = read_words(memory, launch.indirect_buffer, 3, "CDM")
        return int(g[0]), int(g[1]), int(g[2])
    return launch.grid_x_tg, launch.grid_y_tg, launch.grid_z_tg


def run_launch(core, memory, launch, sampler_heap_va: int = 0, launch_va: int = 0) -> int:
    """Run one CDM_LAUNCH (at ``launch_va``); returns the number of threads run."""
    pipe = read_pipeline(memory, launch.pipeline, "CDM", sampler_heap_va)
    gx, gy, gz = _grid(memory, launch)
    tg = (launch.threadgroup_x_threads, launch.threadgroup_y_threads, launch.threadgroup_z_threads)
    per_group = tg[0] * tg[1] * tg[2]
    groups = gx * gy * gz
    if groups == 0 or per_group == 0:
        return 0
    if per_group > MAX_THREADGROUP_THREADS:
        raise GPUFault(FaultInfo(launch_va, "CDM", True, reason=f"threadgroup of {tg[0]}x{tg[1]}x{tg[2]} threads "
                                                              f"(at most {MAX_THREADGROUP_THREADS})"))
    # blocks of whole planes, rows or (for very wide grids) parts of a row of
    # threadgroups; for_compute numbers each block from its group offset
    groups_per_run = max(1, MAX_LANES_PER_RUN // per_group)
    for x0, x1, y0, y1, z0, z1 in _slices(gx, gy, gz, groups_per_run):
        check_budget("CDM", launch_va)
        ctx = ExecContext.for_compute((x1 - x0, y1 - y0, z1 - z0), tg, group_offset=(x0, y0, z0),
                                      grid_total=(gx, gy, gz), local_memory_B=pipe.local_memory_B,
                                      **pipe.context_fields())
        run_program(core, pipe, ctx)
    return groups * per_group


def _slices(gx: int, gy: int, gz: int, groups_per_run: int):
    """(x0, x1, y0, y1, z0, z1) blocks of threadgroups, each at most ~groups_per_run groups."""
    if gx > groups_per_run:                      # a row is too wide: parts of rows
        for z0 in range(gz):
            for y0 in range(gy):
                for x0 in range(0, gx, groups_per_run):
                    yield x0, min(gx, x0 + groups_per_run), y0, y0 + 1, z0, z0 + 1
        return
    rows = groups_per_run // gx                  # rows of gx groups per run
    if rows >= gy:
        planes = max(1, rows // gy)
        for z0 in range(0, gz, planes):
            yield 0, gx, 0, gy, z0, min(gz, z0 + planes)
    else:
        for z0 in range(gz):
            for y0 in range(0, gy, rows):
                yield 0, gx, y0, min(gy, y0 + rows), z0, z0 + 1


def run_cdm(core, memory, stream_va: int, sampler_heap_va: int = 0) -> dict:
    """Execute the CDM stream at ``stream_va``; returns counts for the counters."""
    launches = threads = 0
    for _va, rec in walk(memory, stream_va, P.CDM_STREAM, "CDM"):
        if rec.name == "CDM_LAUNCH":
            threads += run_launch(core, memory, rec, sampler_heap_va, _va)
            launches += 1
    return {"launches": launches, "threads": threads}
