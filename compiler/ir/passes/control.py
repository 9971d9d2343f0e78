"""Control-flow optimisations: if-flattening into selects (ir3's "flatten" and NIR's
``nir_opt_peephole_select``) and unrolling of loops with a constant trip count."""

from __future__ import annotations

import numpy as np

from ..builder import Builder
from ..core import (
    Alu, Block, Def, If, Instr, Intrinsic, Jump, LoadConst, Loop, Phi, Shader, Undef, clone_cf_list,
    first_block, last_block, replace_uses, walk_cf,
)
from ..opcodes import evaluate_op
from ..types import raw_dtype
from .cfutil import find_list, merge_adjacent_blocks, splice

__all__ = [
    "opt_peephole_select", "opt_loop_unroll", "loop_trip_count", "opt_remove_once_loops",
    "opt_remove_continues",
]


# ---------------------------------------------------------------- if-flattening

def _speculatable(instr: Instr) -> bool:
    """Safe to run on lanes that would not have run it: no side effects, no traps."""
    if isinstance(instr, (Alu, LoadConst, Undef)):
        return True
    return isinstance(instr, Intrinsic) and instr.info.can_reorder


def _cost(block: Block) -> int:
    return sum(1 for i in block.instrs if isinstance(i, (Alu, Intrinsic)) and
               not (isinstance(i, Alu) and i.op == "mov"))


def _flattenable(node: If, max_instrs: int) -> bool:
    if len(node.then_list) != 1 or len(node.else_list) != 1:
        return False
    then_b, else_b = node.then_list[0], node.else_list[0]
    for b in (then_b, else_b):
        if b.jump() is not None or b.phis() or not all(_speculatable(i) for i in b.instrs):
            return False
    return _cost(then_b) + _cost(else_b) <= max_instrs


def opt_peephole_select(shader: Shader, max_instrs: int = 8) -> bool:
    """Flatten an if whose two sides are single blocks of at most ``max_instrs``
    side-effect-free instructions: both sides run unconditionally and the phis after
    the if become ``bcsel``. Inner ifs go first, so nests flatten bottom-up."""
    progress = False
    for func in shader.functions:
        changed = True
        while changed:
            changed = False
            for node in reversed(list(walk_cf(func.body))):
                if isinstance(node, If) and _flattenable(node, max_instrs):
                    _flatten(func, node)
                    changed = progress = True
                    break
    return progress


def _flatten(func, node: If) -> None:
    nodes, idx = find_list(func, node)
    before, after = nodes[idx - 1], nodes[idx + 1]
    then_b, else_b = node.then_list[0], node.else_list[0]
    for b in (then_b, else_b):
        for instr in list(b.instrs):
            b.remove(instr)
            before.append(instr)
    builder = Builder(func).at_end(before)
    mapping: dict[Def, Def] = {}
    for phi in after.phis():
        t, e = phi.src_for(then_b), phi.src_for(else_b)
        mapping[phi.dest] = t if t is e else builder.bcsel(node.cond, t, e)
        after.remove(phi)
    replace_uses(func.body, mapping)
    splice(func, node, [Block()])


# ---------------------------------------------------------------- loop unrolling

def _own_jumps(nodes) -> list[Jump]:
    """Jumps that belong to the loop whose body is ``nodes`` (not to inner loops)."""
    out = []
    for node in nodes:
        if isinstance(node, Block):
            j = node.jump()
            if j is not None:
                out.append(j)
        elif isinstance(node, If):
            out += _own_jumps(node.then_list) + _own_jumps(node.else_list)
    return out


def _loop_shape(loop: Loop):
    """(prefix, if, exit_on_true, exit_block, continue_list, rest) for a loop whose only
    exit is one top-level ``if (c) {break} else {...}`` (or the mirrored form) of its
    body, with no continue: ``loop { prefix; if (c) break; rest }``. The prefix is
    one block for a ``for``/``while`` loop (exit at the top) and the whole body for a
    ``do``/``while`` loop (exit at the bottom). None for any other loop."""
    body = loop.body
    for pos in range(1, len(body) - 1, 2):
        node = body[pos]
        if not isinstance(node, If):
            continue
        prefix, rest = body[:pos], body[pos + 1:]
        for exit_list, cont_list, on_true in ((node.then_list, node.else_list, True),
                                              (node.else_list, node.then_list, False)):
            if len(exit_list) == 1 and exit_list[0].jump() is not None and exit_list[0].jump().kind == "break":
                jumps = _own_jumps(prefix) + _own_jumps(cont_list) + _own_jumps(rest)
                if not jumps and not any(isinstance(i, Phi) for i in exit_list[0].instrs):
                    return prefix, node, on_true, exit_list[0], cont_list, rest
    return None


def _eval_const(d: Def, env: dict, memo: dict):
    """The constant raw bits of ``d`` given constant loop-header phis, or None.
    Iterative (an explicit stack): chains of ALU ops after unrolling can be deeper
    than Python's recursion limit."""
    stack, visiting = [d], set()
    while stack:
        top = stack[-1]
        if top in env or top in memo:
            stack.pop()
            continue
        instr = top.parent
        if isinstance(instr, LoadConst):
            memo[top] = instr.values
            stack.pop()
            continue
        if not (isinstance(instr, Alu) and instr.info.foldable):
            memo[top] = None
            stack.pop()
            continue
        pending = [s.def_ for s in instr.srcs if s.def_ not in env and s.def_ not in memo]
        if pending and top not in visiting:
            if any(p in visiting for p in pending):
                # A value that depends on itself without a phi (only in code no path
                # reaches, where copy propagation folded a loop phi away): unknown.
                memo[top] = None
                stack.pop()
                continue
            visiting.add(top)
            stack.extend(pending)
            continue
        if pending:         # back with a source still unknown: part of such a cycle
            memo[top] = None
            stack.pop()
            continue
        stack.pop()
        srcs = []
        for s in instr.srcs:
            v = env[s.def_] if s.def_ in env else memo[s.def_]
            if v is None:
                memo[top] = None
                break
            srcs.append(np.array([v[c] for c in s.swizzle], np.uint64).astype(raw_dtype(s.def_.bit_size)))
        else:
            out = evaluate_op(instr.info, srcs, [s.def_.bit_size for s in instr.srcs], instr.dest.bit_size)
            memo[top] = tuple(int(x) for x in np.asarray(out).astype(np.uint64).reshape(-1))
    return env[d] if d in env else memo[d]


def loop_trip_count(func, loop: Loop, max_trip: int = 64) -> int | None:
    """How many times the body runs to its end before the exit is taken, when that
    is a compile-time constant (found by evaluating the exit condition on the
    constant induction values, iteration by iteration), else None."""
    shape = _loop_shape(loop)
    if shape is None:
        return None
    header, node, on_true = loop.body[0], shape[1], shape[2]
    nodes, idx = find_list(func, loop)
    pre, latch = nodes[idx - 1], last_block(loop.body)
    phis = header.phis()
    env = {}
    for phi in phis:
        if {b for b, _d in phi.srcs} != {pre, latch}:
            return None
        init = phi.src_for(pre)
        env[phi.dest] = init.parent.values if isinstance(init.parent, LoadConst) else None
    # Only the phis the exit condition depends on (directly or through other phis'
    # next values) are stepped: a counted loop's body (e.g. a bit-serial division)
    # need not be evaluated to know its trip count.
    needed = _phis_reaching(node.cond, phis, latch)
    env = {d: v for d, v in env.items() if d in needed}
    stepped = [phi for phi in phis if phi.dest in needed]
    for k in range(max_trip + 1):
        c = _eval_const(node.cond, env, {})
        if c is None:
            return None
        if bool(c[0]) == on_true:
            return k
        memo: dict = {}
        env = {phi.dest: _eval_const(phi.src_for(latch), env, memo) for phi in stepped}
    return None


def _phis_reaching(cond: Def, phis, latch) -> set:
    """The destinations of ``phis`` whose values reach ``cond`` through ALU sources,
    closed over the phis' next values (their sources from ``latch``)."""
    by_dest = {phi.dest: phi for phi in phis}
    needed: set = set()
    seen: set = set()
    stack = [cond]
    while stack:
        d = stack.pop()
        if d in seen:
            continue
        seen.add(d)
        if d in by_dest:
            needed.add(d)
            stack.append(by_dest[d].src_for(latch))
        elif isinstance(d.parent, Alu):
            stack.extend(s.def_ for s in d.parent.srcs)
    return needed


def _count_instrs(nodes) -> int:
    return sum(len(n.instrs) for n in walk_cf(nodes) if isinstance(n, Block))


def _detached_block(instrs) -> Block:
    """A block listing ``instrs`` without taking them over (only for cloning)."""
    b = Block()
    b.instrs = list(instrs)
    return b


def opt_loop_unroll(shader: Shader, max_trip: int = 32, max_instrs: int = 512) -> bool:
    """Fully unroll loops with a constant trip count of at most ``max_trip`` when the
    unrolled code has at most ``max_instrs`` instructions. Innermost loops first."""
    progress = False
    for func in shader.functions:
        changed = True
        while changed:
            changed = False
            for loop in reversed([n for n in walk_cf(func.body) if isinstance(n, Loop)]):
                trip = loop_trip_count(func, loop, max_trip)
                if trip is None or (trip + 1) * _count_instrs(loop.body) > max_instrs:
                    continue
                _unroll(func, loop, trip)
                changed = progress = True
                break
    return progress


def _unroll(func, loop: Loop, trip: int) -> None:
    prefix, node, _on_true, exit_block, cont_list, rest = _loop_shape(loop)
    nodes, idx = find_list(func, loop)
    header = prefix[0]
    pre, latch = nodes[idx - 1], last_block(loop.body)
    phis = header.phis()
    head = [i for i in header.instrs if not isinstance(i, Phi)]
    current = {phi.dest: phi.src_for(pre) for phi in phis}
    new_nodes: list = []

    exit_instrs = [i for i in exit_block.instrs if not isinstance(i, Jump)]

    def clone_with_header(nodes, header_instrs, def_map):
        # Clone with the header's own block object showing ``header_instrs`` (no phis),
        # so phis of inner loops that name the header as predecessor follow the copy.
        saved = header.instrs
        header.instrs = header_instrs
        try:
            return clone_cf_list(nodes, def_map)
        finally:
            header.instrs = saved

    for _ in range(trip):
        def_map = dict(current)
        new_nodes += clone_with_header(list(prefix) + list(cont_list) + list(rest), head, def_map)
        current = {phi.dest: def_map.get(phi.src_for(latch), phi.src_for(latch)) for phi in phis}
    def_map = dict(current)
    if len(prefix) == 1:
        new_nodes += clone_with_header([header], head + exit_instrs, def_map)
    else:
        new_nodes += clone_with_header(list(prefix) + [_detached_block(exit_instrs)], head, def_map)
    # Values of the prefix (at any depth: an inner loop's header dominates the exit too)
    # and of the exit block are visible after the loop: they become the last copies.
    after_loop = {d: v for d, v in def_map.items() if d is not v}
    replace_uses(func.body, after_loop)
    _merge_runs(new_nodes)
    splice(func, loop, new_nodes)


def _merge_runs(nodes: list) -> None:
    """Merge adjacent blocks of freshly cloned code (their phis have one source)."""
    i = 0
    while i + 1 < len(nodes):
        a, b = nodes[i], nodes[i + 1]
        if isinstance(a, Block) and isinstance(b, Block):
            mapping = {}
            for instr in list(b.instrs):
                if isinstance(instr, Phi):
                    assert len(instr.srcs) == 1, "merging a block whose phi has several sources"
                    mapping[instr.dest] = instr.srcs[0][1]
                else:
                    a.append(instr)
            if mapping:
                replace_uses(nodes, mapping)
            for n in walk_cf(nodes):
                if isinstance(n, Block):
                    for phi in n.phis():
                        phi.srcs = [(a if blk is b else blk, d) for blk, d in phi.srcs]
            del nodes[i + 1]
        else:
            i += 1


# ---------------------------------------------------------------- once-loops

def _exits(nodes) -> bool:
    """Every path through the cf list ``nodes`` ends in a break of the enclosing loop."""
    last = nodes[-1]
    j = last.jump()
    if j is not None:
        return j.kind == "break"
    return (len(nodes) >= 2 and isinstance(nodes[-2], If) and not last.instrs
            and _exits(nodes[-2].then_list) and _exits(nodes[-2].else_list))


def _always_jumps(nodes) -> bool:
    """Every path through ``nodes`` ends in a break or continue of the enclosing loop."""
    if nodes[-1].jump() is not None:
        return True
    return (len(nodes) >= 2 and isinstance(nodes[-2], If) and not nodes[-1].instrs
            and _always_jumps(nodes[-2].then_list) and _always_jumps(nodes[-2].else_list))


def _sink_after_exits(nodes: list) -> None:
    """Move the code after an if one side of which always jumps (break or continue)
    into the other side (dropping it when both jump): it only ran on that side anyway."""
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if isinstance(node, If):
            _sink_after_exits(node.then_list)
            _sink_after_exits(node.else_list)
            t, e = _always_jumps(node.then_list), _always_jumps(node.else_list)
            rest = nodes[i + 1:]
            if (t or e) and not (len(rest) == 1 and not rest[0].instrs):
                del nodes[i + 1:]
                nodes.append(Block())
                if not (t and e):
                    target = node.else_list if t else node.then_list
                    tail = last_block(target)
                    for instr in list(rest[0].instrs):
                        tail.append(instr)
                    target.extend(rest[1:])
                    _sink_after_exits(target)
        i += 1


def _jumps_in_tail(nodes, tail: bool, kind: str = "break") -> bool:
    """True when every own ``kind`` jump in ``nodes`` is where falling through instead
    would run nothing more before the end of the loop body (``tail``: the end of
    ``nodes`` is such a place)."""
    for i, node in enumerate(nodes):
        rest_empty = all(isinstance(n, Block) and not n.instrs for n in nodes[i + 1:])
        if isinstance(node, Block):
            j = node.jump()
            if j is not None and j.kind == kind and not tail:
                return False
        elif isinstance(node, If):
            inner = tail and rest_empty
            if not (_jumps_in_tail(node.then_list, inner, kind) and _jumps_in_tail(node.else_list, inner, kind)):
                return False
    return True


def _own_blocks(nodes):
    for node in nodes:
        if isinstance(node, Block):
            yield node
        elif isinstance(node, If):
            yield from _own_blocks(node.then_list)
            yield from _own_blocks(node.else_list)


def _removable_once_loop(func, loop: Loop) -> bool:
    if any(j.kind == "continue" for j in _own_jumps(loop.body)):
        return False
    inside_nodes = list(walk_cf(loop.body))
    inside_ids = {id(n) for n in inside_nodes}
    inside = [b for b in inside_nodes if isinstance(b, Block)]
    if any(b.phis() for b in inside):
        return False
    nodes, idx = find_list(func, loop)
    if nodes[idx + 1].phis():
        return False
    defined = {i.dest for b in inside for i in b.instrs if i.dest is not None}
    inside_set = set(inside)
    for node in walk_cf(func.body):
        if isinstance(node, Block) and node not in inside_set:
            for instr in node.instrs:
                if any(d in defined for d in instr.sources()):
                    return False
        elif isinstance(node, If) and node.cond in defined and id(node) not in inside_ids:
            return False
    return True


def opt_remove_once_loops(shader: Shader) -> bool:
    """Remove loops that never iterate: every path through the body ends in a break
    and there is no continue (the front end's once-loops for early returns and
    ``switch``). Code after an if that breaks on one side is first moved into the
    other side, so removing the breaks keeps the meaning. Works on phi-free loops
    (run it before vars->SSA) whose values are not used after the loop."""
    progress = False
    for func in shader.functions:
        changed = True
        while changed:
            changed = False
            for loop in [n for n in walk_cf(func.body) if isinstance(n, Loop)]:
                if not _removable_once_loop(func, loop):
                    continue
                trial = clone_cf_list(loop.body)      # sink on a copy first: only act if it pays
                _sink_after_exits(trial)
                if not _exits(trial) or not _jumps_in_tail(trial, True):
                    continue
                _sink_after_exits(loop.body)
                for block in _own_blocks(loop.body):
                    j = block.jump()
                    if j is not None:
                        block.remove(j)
                splice(func, loop, loop.body)
                changed = progress = True
                break
    return progress


def opt_remove_continues(shader: Shader) -> bool:
    """Remove ``continue`` from phi-free loops (run it before vars->SSA): the code
    after an if that jumps on one side moves into the other side, after which a
    continue with nothing left to skip is just the end of the body. Loops whose
    continues cannot all be placed so keep them. Unrolling needs continue-free loops."""
    progress = False
    for func in shader.functions:
        for loop in [n for n in walk_cf(func.body) if isinstance(n, Loop)]:
            if not any(j.kind == "continue" for j in _own_jumps(loop.body)):
                continue
            if any(b.phis() for b in walk_cf(loop.body) if isinstance(b, Block)):
                continue
            trial = clone_cf_list(loop.body)
            _sink_after_exits(trial)
            if not _jumps_in_tail(trial, True, "continue"):
                continue
            _sink_after_exits(loop.body)
            for block in _own_blocks(loop.body):
                j = block.jump()
                if j is not None and j.kind == "continue":
                    block.remove(j)
            merge_adjacent_blocks(func, loop.body)
            progress = True
    return progress
