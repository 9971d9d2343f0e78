"""Function inlining (NIR's ``nir_inline_functions``).

A callee reads its parameters with ``load_param`` and gives its result with one
``return_value`` in its last top-level block (the front end lowers early returns
to that shape). Inlining clones the callee's body, with its locals renamed, in
place of the call; callees are inlined bottom-up, so nested calls disappear too.
Recursion (not allowed by GLSL) is reported as an error."""

from __future__ import annotations

import itertools

from ..core import (
    Block, Call, Def, Function, Intrinsic, Shader, Variable, clone_cf_list, last_block, replace_uses,
    walk_blocks, walk_instrs,
)
from .cfutil import find_list, merge_adjacent_blocks, retarget_phi_preds

__all__ = ["inline_functions"]

_serial = itertools.count()


def inline_functions(shader: Shader, keep: tuple[str, ...] = ("main",), max_depth: int = 64) -> bool:
    """Inline every call; then drop the functions not named in ``keep``."""
    progress = False
    for func in shader.functions:
        if func.name not in keep:
            continue
        depth = 0
        while True:
            call = next((i for i in walk_instrs(func.body) if isinstance(i, Call)), None)
            if call is None:
                break
            depth += 1
            if depth > 10000 or _calls_itself(call.callee, max_depth):
                raise ValueError(f"recursive call to {call.callee.name}")
            _inline(func, call)
            progress = True
    before = len(shader.functions)
    shader.functions = [f for f in shader.functions if f.name in keep]
    return progress or len(shader.functions) != before


def _calls_itself(func: Function, max_depth: int) -> bool:
    seen, frontier = set(), [func]
    for _ in range(max_depth):
        nxt = []
        for f in frontier:
            for i in walk_instrs(f.body):
                if isinstance(i, Call):
                    if i.callee is func:
                        return True
                    if i.callee not in seen:
                        seen.add(i.callee)
                        nxt.append(i.callee)
        frontier = nxt
    return False


def _inline(func: Function, call: Call) -> None:
    callee = call.callee
    n = next(_serial)
    var_map: dict[Variable, Variable] = {}
    for var in callee.locals:
        new = Variable(f"{callee.name}.{var.name}.{n}", var.type, var.mode, dict(var.data))
        var_map[var] = new
        func.locals.append(new)
    body = clone_cf_list(callee.body, {}, {}, var_map)
    mapping: dict[Def, Def] = {}
    returned = None
    for block in walk_blocks(body):
        for instr in list(block.instrs):
            if isinstance(instr, Intrinsic) and instr.name == "load_param":
                mapping[instr.dest] = call.args[instr.indices["param_idx"]]
                block.remove(instr)
            elif isinstance(instr, Intrinsic) and instr.name == "return_value":
                if block is not last_block(body) or returned is not None:
                    raise ValueError(f"{callee.name}: return_value must be once, in the last block")
                returned = instr.srcs[0]
                block.remove(instr)
    if call.dest is not None:
        if returned is None:
            raise ValueError(f"{callee.name} returns nothing")
        mapping[call.dest] = mapping.get(returned, returned)
    replace_uses(body, mapping)

    block = call.block
    nodes, idx = find_list(func, block)
    pos = block.instrs.index(call)
    tail = Block(block.instrs[pos + 1:])
    del block.instrs[pos:]
    call.block = None
    retarget_phi_preds(func, block, tail)
    nodes[idx + 1:idx + 1] = body + [tail]
    merge_adjacent_blocks(func, nodes)
    replace_uses(func.body, mapping)
