"""The backend pipeline: optimised IR -> ISA binary.

``compile_ir(shader)``: instruction selection -> dead-code elimination -> float peepholes ->
constant promotion -> scheduling -> register allocation (with spilling) -> phi/copy lowering ->
control-flow lowering -> scoreboard waits -> encoding -> statistics.
The whole compiler's entry points are above the backend: ``compiler.variant.compile_stage``
(a linked stage's variant, what a driver calls) and ``compiler.compile.compile_glsl``
(GLSL text). ``SHIMGL_DEBUG=shaderdb`` prints one shader-db line per
compiled variant; ``SHIMGL_DEBUG=shaders`` prints the GLSL, the optimised IR and
the assembly (both to stderr).
"""

from __future__ import annotations

import collections

import sys
import time

from compiler.ir.core import Intrinsic, Shader, clone_shader, walk_instrs
from compiler.scope import bugs_as, recursion_headroom

from .abi import RESERVED_REGS32, BackendError, CompiledShader
from .cflow import linearise
from .isel import select
from .mir import MFunction, Ref, mcfg, walk_mblocks
from .pack import assemble_items
from .peephole import peephole as run_peephole
from .promote import promote_constants
from .ra import allocate, lower_copies
from .schedule import schedule
from .stats import compute_stats
from .texel_buffers import lower_texel_buffers
from .waits import insert_waits
from uapi.debug import debug_flags  # noqa: F401 (re-exported)

__all__ = ["compile_ir", "debug_flags", "dce"]




def _lower_discard_if(shader: Shader) -> None:
    from compiler.ir.builder import Builder
    for func in shader.functions:
        for instr in list(walk_instrs(func.body)):
            if isinstance(instr, Intrinsic) and instr.name == "discard_if":
                b = Builder(func, shader).before(instr)
                node = b.push_if(instr.srcs[0])
                b.intrinsic("discard")
                b.pop_if(node)
                instr.block.remove(instr)


def dce(func: MFunction) -> None:
    """Remove instructions (and phis) whose results are never read.

    Use counts are kept as instructions go, blocks and instructions visited last to
    first, so a dead chain goes in one pass (recomputing the used set per pass removed
    one link per pass: a 5000-term product spent minutes here); passes repeat while
    something changed (across blocks, phis). Dead cycles through phis stay, as before."""
    cfg = mcfg(func)
    blocks = list(walk_mblocks(func.body))
    count: collections.Counter = collections.Counter()
    for b in blocks:
        for ins in b.instrs:
            count.update(ins.uses())
        for p in b.phis + b.mem_phis:
            count.update(x.vreg for x in p.srcs.values() if isinstance(x, Ref))
        node = cfg.if_cond_block.get(b)
        if node is not None:
            count.update(x.vreg for x in node.cond[2:] if isinstance(x, Ref))

    def unuse(vregs) -> None:
        for v in vregs:
            count[v] -= 1

    changed = True
    while changed:
        changed = False
        for b in reversed(blocks):
            keep = []
            for ins in reversed(b.instrs):
                if ins.op == "preload":
                    before = collections.Counter(ins.uses())
                    pairs = [(d, x) for d, x in zip(ins.dsts, ins.srcs) if count[d] > 0]
                    if len(pairs) != len(ins.dsts):
                        changed = True
                        ins.dsts, ins.srcs = [d for d, _ in pairs], [x for _, x in pairs]
                        ins.changed()
                        unuse((before - collections.Counter(ins.uses())).elements())
                    if not pairs:
                        continue
                defs = ins.defs()
                removable = defs and all(count[d] <= 0 for d in defs) and (
                    ins.op in ("collect", "copy") or (not ins.pseudo and ins.info.can_eliminate))
                if removable:
                    changed = True
                    unuse(ins.uses())
                else:
                    keep.append(ins)
            keep.reverse()
            b.instrs = keep
            phis = []
            for p in b.phis:
                if count[p.dst] > 0:
                    phis.append(p)
                else:
                    changed = True
                    unuse(x.vreg for x in p.srcs.values() if isinstance(x, Ref))
            b.phis = phis


def compile_ir(shader: Shader, info=None, *, max_regs: int = 128, source: str | None = None,
               promote: bool = True, pressure_schedule: bool = True, peephole: bool = True) -> CompiledShader:
    """Compile an IR shader (after the front half: I/O lowered, optimised) to a
    binary. ``max_regs``: the 32-bit register budget (r0, r1 included); smaller
    budgets spill. ``promote``: large constants to uniform registers
    (``promote.py``); ``peephole``: the scalar float peepholes (``peephole.py``);
    ``pressure_schedule``: blocks that would spill are scheduled for register
    pressure (``schedule.py``). The input shader is not modified."""
    with recursion_headroom(), bugs_as(BackendError):
        return _compile_ir(shader, info, max_regs, source, promote, pressure_schedule, peephole)


def _compile_ir(shader, info, max_regs, source, promote, pressure_schedule, peephole) -> CompiledShader:
    t0 = time.perf_counter()
    ir = clone_shader(shader)
    _lower_discard_if(ir)
    lower_texel_buffers(ir)
    func, sel = select(ir, {"info": info})
    dce(func)
    if peephole:
        run_peephole(func, dce)
    if promote:
        promote_constants(func, sel.layout)
    schedule(func, 2 * (max_regs - RESERVED_REGS32) if pressure_schedule else None)
    alloc = allocate(func, max_regs)
    lower_copies(func, alloc)
    items, loops = linearise(func, alloc.reg)
    items, _waits = insert_waits(items)
    binary, final = assemble_items(items)
    asm = "".join(f"{i}\n" for i in final)
    scratch = func.stack_base_B + func.spill_B
    regs32 = (alloc.max_half + 1) // 2
    uniform_words = sel.layout.words_used
    stats = compute_stats(binary, final, alloc.max_half, uniform_words, scratch, loops, func.spills, func.fills)
    sinfo = shader.info or {}
    local = sinfo.get("local_size")
    result = CompiledShader(
        stage=shader.stage, binary=binary, assembly=asm, stats=stats, gprs=alloc.max_half, regs32=regs32,
        uniform_words=uniform_words, uniforms=sorted(sel.layout.slots.values(), key=lambda s: s.index),
        scratch_B=scratch, local_memory_B=int(sinfo.get("shared_size_B", 0)),
        local_size=tuple(local) if local else None, cf_count=sel.cf_max, point_coord_cf=sel.point_coord_cf,
        line_stipple_cf=sel.line_stipple_cf,
        vertex_outputs=int(sinfo.get("vertex_outputs", 0)), attributes=sorted(sel.attributes), info=info,
        **sel.flags)
    result.compile_time_s = time.perf_counter() - t0
    flags = debug_flags()
    if "shaders" in flags:
        from compiler.ir import print_shader
        if source:
            print(f"GLSL {shader.stage} shader:\n{source}", file=sys.stderr)
        print(f"IR:\n{print_shader(shader)}", file=sys.stderr)
        print(f"assembly:\n{asm}", file=sys.stderr)
    if "shaderdb" in flags:
        print(stats.shaderdb(shader.stage), file=sys.stderr)
    return result
