"""Robust buffer access (ARB_robust_buffer_access_behavior, KHR_robustness): bounds
checks on uniform- and storage-buffer accesses, for the variants of robust contexts
(key ``robust_buffer_access``).

Without it an index past a buffer's end reads and writes whatever the address reaches:
another buffer's bytes, or a GPU fault that kills the command. With it (GL 4.6
section 6.4 under robust access):

- a load (``load_ubo``, ``load_ssbo``, and ``load_uniform`` at a dynamic offset: a
  default-block array indexed past its end) whose bytes [offset, offset + size) are not
  all inside the bound range (the default block's upload) reads at offset 0 instead
  (always mapped: a bound range, or the zero page for an unbound binding) and returns 0;
- such a store (``store_ssbo``) is discarded, and such an atomic (``ssbo_atomic*``)
  neither changes memory nor returns anything but 0.

The range's size comes from ``get_ssbo_size`` / ``get_ubo_size`` / ``get_uniform_size``
(the bound range in bytes; 0 for an unbound binding, so every access to it is outside).
Vertex fetches are bounded by the backend (``attribute_limit``, compiler/backend/isel.py)
for the variants this pass marks (``shader.info["robust_buffer_access"]``). The check is one
compare: ``min(offset, 2^31 - 1) + size <= range`` (unsigned; the clamp keeps a
negative or huge offset from wrapping round into range).

Buffers of the driver's own passes (transform feedback's records, the geometry
passes' buffers: indices from ``XFB_BUFFER_BASE`` up) are left alone: the driver sizes
and bounds them itself.

Invariant after the pass: every buffer access it touched is executed only with an
in-range offset or at offset 0 with its result replaced by 0.
"""

from __future__ import annotations

from compiler.ir.builder import Builder
from compiler.ir.core import AluSrc, Intrinsic, LoadConst, Shader, identity_swizzle, replace_uses, walk_instrs

from .xfb import XFB_BUFFER_BASE

__all__ = ["lower_robust_buffer_access"]

_OFFSET_SRC = {"load_ubo": 1, "load_ssbo": 1, "store_ssbo": 2, "ssbo_atomic": 1, "ssbo_atomic_swap": 1,
               "load_uniform": 0}
_INDEX_SRC = {"load_ubo": 0, "load_ssbo": 0, "store_ssbo": 1, "ssbo_atomic": 0, "ssbo_atomic_swap": 0}


def _access_B(instr: Intrinsic) -> int:
    d = instr.srcs[0] if instr.name == "store_ssbo" else instr.dest
    return d.num_components * max(1, d.bit_size // 8)


def _constant(d) -> bool:
    return isinstance(d.parent, LoadConst)


def _skipped(instr: Intrinsic) -> bool:
    """Accesses left alone: the default block's at constant offsets (register reads the
    compiler placed in range), and those of the driver's own buffers (a constant index
    from XFB_BUFFER_BASE)."""
    if instr.name == "load_uniform":
        return _constant(instr.srcs[0])
    index = instr.srcs[_INDEX_SRC[instr.name]]
    load = index.parent
    return instr.name != "load_ubo" and isinstance(load, LoadConst) and load.values[0] >= XFB_BUFFER_BASE


def _in_range(b: Builder, instr: Intrinsic):
    offset = instr.srcs[_OFFSET_SRC[instr.name]]
    if instr.name == "load_uniform":     # the default block's dynamic reads: base + offset bytes
        size = b.intrinsic("get_uniform_size", num_components=1)
        first = instr.indices.get("base", 0)
    else:
        index = instr.srcs[_INDEX_SRC[instr.name]]
        size = b.intrinsic("get_ubo_size" if instr.name == "load_ubo" else "get_ssbo_size", index,
                           num_components=1)
        first = 0
    end = b.alu("iadd", b.alu("umin", offset, b.const(0x7FFFFFFF)), b.const(_access_B(instr) + first))
    return b.alu("uge", size, end), offset


def lower_robust_buffer_access(shader: Shader) -> bool:
    progress = False
    for func in shader.functions:
        replaced = {}
        keep_reading = []       # (select, its source that must stay the old load)
        for instr in list(walk_instrs(func.body)):
            if not isinstance(instr, Intrinsic) or instr.name not in _OFFSET_SRC or _skipped(instr):
                continue
            b = Builder(func, shader).before(instr)
            ok, offset = _in_range(b, instr)
            k = _OFFSET_SRC[instr.name]
            if instr.name in ("load_ubo", "load_ssbo", "load_uniform"):
                zero = b.const(0, offset.bit_size)
                instr.srcs[k] = b.alu("bcsel", ok, offset, zero)
                b.after(instr)
                d = instr.dest
                sel = b.alu("bcsel", ok, d, b.const(0, d.bit_size))
                replaced[d] = sel
                keep_reading.append(sel.parent)
            else:
                node = b.push_if(ok)
                new = b.intrinsic(instr.name, *instr.srcs, **instr.indices,
                                  **({"num_components": instr.dest.num_components,
                                      "bit_size": instr.dest.bit_size} if instr.dest is not None else {}))
                if instr.dest is not None:
                    b.push_else(node)
                    zero = b.const(0, instr.dest.bit_size)
                    b.pop_if(node)
                    replaced[instr.dest] = b.if_phi(node, new, zero)
                else:
                    b.pop_if(node)
                instr.block.remove(instr)
            progress = True
        replace_uses(func.body, replaced)
        for alu in keep_reading:       # the selects read the loads themselves
            old = next(o for o, n in replaced.items() if n is alu.dest)
            alu.srcs[1] = AluSrc(old, identity_swizzle(old.num_components))
    return progress
