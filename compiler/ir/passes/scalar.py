"""Lowering vector ALU operations to scalars, for backends that want scalars
(NIR's ``nir_lower_alu_to_scalar``). The results are recombined with ``vecN`` so
users are unchanged; copy propagation then reads the scalars directly."""

from __future__ import annotations

from typing import Callable

from ..builder import Builder
from ..core import Alu, AluSrc, Def, Shader, replace_uses, walk_blocks

__all__ = ["lower_alu_to_scalar"]

_REDUCTIONS = {
    "fdot": ("fmul", "fadd"),
    "ball_fequal": ("feq", "iand"),
    "bany_fnequal": ("fneu", "ior"),
    "ball_iequal": ("ieq", "iand"),
    "bany_inequal": ("ine", "ior"),
}

_KEEP = ("mov", "vec2", "vec3", "vec4", "vec8", "vec16",
         "pack_half_2x16", "unpack_half_2x16", "pack_unorm_4x8", "unpack_unorm_4x8")


def _reduction(op: str):
    for prefix, parts in _REDUCTIONS.items():
        if op.startswith(prefix) and op[len(prefix):].isdigit():
            return parts
    return None


def lower_alu_to_scalar(shader: Shader, filter: Callable[[Alu], bool] | None = None) -> bool:
    """Split every vector ALU instruction (for which ``filter`` is true, default all)
    into one instruction per component; reductions (fdotN, ball/bany) become a
    chain of scalar operations."""
    progress = False
    for func in shader.functions:
        mapping: dict[Def, Def] = {}
        for block in walk_blocks(func.body):
            for instr in list(block.instrs):
                if not isinstance(instr, Alu) or instr.op in _KEEP:
                    continue
                if filter is not None and not filter(instr):
                    continue
                b = Builder(func).before(instr)
                parts = _reduction(instr.op)
                if parts is not None:
                    mul, add = parts
                    n = len(instr.srcs[0].swizzle)
                    terms = [b.alu(mul, *[AluSrc(s.def_, (s.swizzle[c],)) for s in instr.srcs])
                             for c in range(n)]
                    result = terms[0]
                    for t in terms[1:]:
                        result = b.alu(add, result, t)
                elif instr.dest.num_components > 1 and instr.info.is_per_component:
                    comps = [b.alu(instr.op, *[AluSrc(s.def_, (s.swizzle[c],)) for s in instr.srcs],
                                   num_components=1, exact=instr.exact)
                             for c in range(instr.dest.num_components)]
                    result = b.alu(f"vec{len(comps)}", *comps)
                else:
                    continue
                mapping[instr.dest] = result
                block.remove(instr)
                progress = True
        replace_uses(func.body, mapping)
    return progress
