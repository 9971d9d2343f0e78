"""The basic scalar optimisations: constant folding, copy propagation, dead code
elimination, common subexpression elimination, dead control flow.

Each pass takes a shader, changes it in place and returns True when it changed
something (the optimisation loop runs until no pass makes progress)."""

from __future__ import annotations

import numpy as np

from ..core import (
    Alu, AluSrc, Block, Call, Def, Deref, If, Intrinsic, Jump, LoadConst, Loop, Phi, Shader, Tex,
    Undef, first_block, last_block, replace_uses, walk_blocks, walk_cf,
)
from ..opcodes import evaluate_op
from ..types import raw_dtype
from ..validate import dominators
from .cfutil import repair_phis, splice

__all__ = ["opt_constant_folding", "opt_copy_prop", "opt_dce", "opt_cse", "opt_dead_cf", "const_value"]


def const_value(src: AluSrc | Def) -> tuple[int, ...] | None:
    """The raw bits of a constant source (through its swizzle), or None."""
    d = src.def_ if isinstance(src, AluSrc) else src
    if not isinstance(d.parent, LoadConst):
        return None
    vals = d.parent.values
    if isinstance(src, AluSrc):
        return tuple(vals[c] for c in src.swizzle)
    return vals


# ---------------------------------------------------------------- constant folding

def opt_constant_folding(shader: Shader) -> bool:
    """Replace ALU instructions whose sources are all constants by a constant."""
    progress = False
    for func in shader.functions:
        mapping = {}

        def remap(d):
            return mapping.get(d, d)
        for block in walk_blocks(func.body):
            instrs = block.instrs
            for k in range(len(instrs)):           # a fold replaces the instruction in place
                instr = instrs[k]
                instr.map_sources(remap)
                if not isinstance(instr, Alu) or not instr.info.foldable:
                    continue
                consts = [const_value(s) for s in instr.srcs]
                if any(c is None for c in consts):
                    continue
                srcs = [np.array(c, dtype=np.uint64).astype(raw_dtype(s.def_.bit_size))
                        for c, s in zip(consts, instr.srcs)]
                out = evaluate_op(instr.info, srcs, [s.def_.bit_size for s in instr.srcs], instr.dest.bit_size)
                bits = [int(v) for v in np.asarray(out).astype(np.uint64).reshape(-1)]
                new = LoadConst(tuple(bits), instr.dest.bit_size)
                instrs[k] = new
                new.block = block
                mapping[instr.dest] = new.dest
                progress = True
        replace_uses(func.body, mapping)
    return progress


def _instrs(func):
    for block in walk_blocks(func.body):
        yield from list(block.instrs)


# ---------------------------------------------------------------- copy propagation

def _as_copy(instr: Alu) -> AluSrc | None:
    """The source a mov or a vecN of one value's components copies, or None."""
    if instr.op == "mov":
        return instr.srcs[0]
    if instr.op.startswith("vec") and instr.srcs:
        d = instr.srcs[0].def_
        if all(s.def_ is d for s in instr.srcs):
            return AluSrc(d, tuple(s.swizzle[0] for s in instr.srcs))
    return None


def opt_copy_prop(shader: Shader) -> bool:
    """Read through movs (composing swizzles into ALU sources; other users only for
    whole-value copies) and replace trivial phis (all sources one value) by it."""
    progress = False
    for func in shader.functions:
        copies: dict[Def, AluSrc] = {}
        whole: dict[Def, Def] = {}
        for instr in _instrs(func):
            if isinstance(instr, Alu):
                src = _as_copy(instr)
                if src is not None and not _copies_reach(copies, src.def_, instr.dest):
                    copies[instr.dest] = src
                    if src.is_identity() and src.def_.num_components == instr.dest.num_components:
                        whole[instr.dest] = src.def_
            elif isinstance(instr, Phi):
                others = {id(d): d for _b, d in instr.srcs if d is not instr.dest}
                if len(others) == 1:
                    target = next(iter(others.values()))
                    if _copies_reach(copies, target, instr.dest):
                        # Trivial phis copying each other in a ring: only possible in
                        # code no path reaches (a value must dominate its uses on
                        # reachable paths). Leave the ring as it is.
                        continue
                    whole[instr.dest] = target
                    copies[instr.dest] = AluSrc(target, tuple(range(instr.dest.num_components)))
        _trivial_phis_to_fixpoint(func, copies, whole)

        def resolve_alu(src: AluSrc) -> AluSrc:
            seen = 0
            while src.def_ in copies:
                src = copies[src.def_].compose(src.swizzle)
                seen += 1
                assert seen < 10000
            return src

        for instr in _instrs(func):
            if isinstance(instr, Alu):
                for i, s in enumerate(instr.srcs):
                    r = resolve_alu(s)
                    if r.def_ is not s.def_ or r.swizzle != s.swizzle:
                        instr.srcs[i] = r
                        progress = True
        if whole:
            # Non-ALU uses (and phis) only see whole-value copies.
            before = _snapshot(func)
            replace_uses(func.body, whole)
            progress |= before != _snapshot(func)
    return progress


def _trivial_phis_to_fixpoint(func, copies: dict, whole: dict) -> None:
    """Phis that become trivial once the sources of other trivial phis are read
    through (the headers of nested loops around one value): found here in sweeps,
    so one run of the pass removes them all instead of one loop level per round."""
    phis = [i for i in _instrs(func) if isinstance(i, Phi)]

    def through(d: Def) -> Def:
        seen = set()
        while d in whole and d not in seen:
            seen.add(d)
            d = whole[d]
        return d

    changed = True
    while changed:
        changed = False
        for phi in phis:
            if phi.dest in whole:
                continue
            others = {}
            for _b, d in phi.srcs:
                d = through(d)
                if d is not phi.dest:
                    others[id(d)] = d
            if len(others) != 1:
                continue
            target = next(iter(others.values()))
            if _copies_reach(copies, target, phi.dest):
                continue
            whole[phi.dest] = target
            copies[phi.dest] = AluSrc(target, tuple(range(phi.dest.num_components)))
            changed = True


def _copies_reach(copies: dict, start: Def, target: Def) -> bool:
    """Following ``copies`` from ``start`` arrives at ``target``."""
    d, seen = start, set()
    while d in copies and d not in seen:
        if d is target:
            return True
        seen.add(d)
        d = copies[d].def_
    return d is target


def _snapshot(func):
    out = []
    for node in walk_cf(func.body):
        if isinstance(node, Block):
            for i in node.instrs:
                out.append(tuple(id(d) for d in i.sources()))
        elif isinstance(node, If):
            out.append(id(node.cond))
    return out


# ---------------------------------------------------------------- dead code

def _has_side_effects(instr) -> bool:
    if isinstance(instr, (Jump, Call)):
        return True
    if isinstance(instr, Intrinsic):
        return not instr.info.can_eliminate
    return False


def opt_dce(shader: Shader) -> bool:
    """Remove instructions whose values are never used and that have no side effects."""
    progress = False
    for func in shader.functions:
        live: set[Def] = set()
        worklist = []
        for node in walk_cf(func.body):
            if isinstance(node, If):
                worklist.append(node.cond)
            elif isinstance(node, Block):
                for instr in node.instrs:
                    if _has_side_effects(instr):
                        worklist.extend(instr.sources())
        while worklist:
            d = worklist.pop()
            if d in live:
                continue
            live.add(d)
            if d.parent is not None:
                worklist.extend(d.parent.sources())
        for block in walk_blocks(func.body):
            keep = [i for i in block.instrs if _has_side_effects(i) or (i.dest is not None and i.dest in live)]
            if len(keep) != len(block.instrs):
                kept = {id(i) for i in keep}      # identity set: `in keep` was quadratic in the block
                for i in block.instrs:
                    if id(i) not in kept:
                        i.block = None
                block.instrs = keep
                progress = True
    return progress


# ---------------------------------------------------------------- CSE

def _cse_key(instr):
    if isinstance(instr, Alu):
        srcs = [(s.def_.id, s.swizzle) for s in instr.srcs]
        if instr.info.commutative and len(srcs) >= 2:
            srcs[:2] = sorted(srcs[:2])
        return ("alu", instr.op, instr.dest.num_components, instr.dest.bit_size, instr.exact, tuple(srcs))
    if isinstance(instr, LoadConst):
        return ("const", instr.dest.bit_size, instr.values)
    if isinstance(instr, Intrinsic) and instr.info.can_reorder:
        return ("intr", instr.name, tuple(d.id for d in instr.srcs), tuple(sorted(instr.indices.items())),
                instr.dest.num_components, instr.dest.bit_size)
    if isinstance(instr, Tex):
        return ("tex", instr.op, tuple((k, d.id) for k, d in instr.srcs), instr.texture, instr.sampler,
                instr.dim, instr.is_array, instr.is_shadow, instr.dest_type, instr.component,
                instr.dest.num_components, instr.dest.bit_size)
    if isinstance(instr, Deref):
        return ("deref", instr.kind, id(instr.var) if instr.kind == "var" else None,
                instr.parent.id if instr.parent else None, instr.index.id if instr.index else None, instr.field)
    if isinstance(instr, Phi):
        return ("phi", id(instr.block), tuple(sorted((b.id, d.id) for b, d in instr.srcs)),
                instr.dest.num_components, instr.dest.bit_size)
    return None


def opt_cse(shader: Shader) -> bool:
    """Replace an instruction by an equal earlier one that dominates it."""
    progress = False
    for func in shader.functions:
        dom = dominators(func)
        seen: dict = {}
        mapping: dict[Def, Def] = {}

        for block in walk_blocks(func.body):
            removed: set[int] = set()      # ids of this block's replaced instructions
            for instr in block.instrs:
                instr.map_sources(lambda d: mapping.get(d, d))
                key = _cse_key(instr)
                if key is None:
                    continue
                for other in seen.get(key, []):
                    ob = other.block
                    if ob is block or (block in dom and ob in dom[block]):
                        mapping[instr.dest] = other.dest
                        removed.add(id(instr))
                        progress = True
                        break
                else:
                    seen.setdefault(key, []).append(instr)
            if removed:     # one pass over the block (removing one by one was quadratic)
                for instr in block.instrs:
                    if id(instr) in removed:
                        instr.block = None
                block.instrs = [i for i in block.instrs if id(i) not in removed]
        replace_uses(func.body, mapping)
    return progress


# ---------------------------------------------------------------- dead control flow

def opt_dead_cf(shader: Shader) -> bool:
    """Replace ifs with a constant condition by the branch taken, remove ifs with two
    empty branches and no phis after them, remove loops that end in an
    unconditional break at the top level, and remove the code after a loop that
    has no break (no path reaches it)."""
    progress = False
    for func in shader.functions:
        changed = True
        while changed:
            changed = False
            for node in list(walk_cf(func.body)):
                if isinstance(node, If) and _try_if(func, node):
                    changed = progress = True
                    break
                if isinstance(node, Loop) and (_try_loop(func, node) or _try_endless_loop(func, node)):
                    changed = progress = True
                    break
    return progress


def _try_if(func, node: If) -> bool:
    c = const_value(node.cond)
    if c is not None:
        taken, dropped = (node.then_list, node.else_list) if c[0] else (node.else_list, node.then_list)
        _resolve_phis_after(func, node, last_block(taken))
        splice(func, node, taken)
        return True
    empty = all(isinstance(n, Block) and not n.instrs for n in (node.then_list + node.else_list)) \
        and len(node.then_list) == 1 and len(node.else_list) == 1
    if empty:
        nodes, idx = _find(func, node)
        after = nodes[idx + 1]
        if not after.phis():
            splice(func, node, [Block()])
            return True
    return False


def _resolve_phis_after(func, node: If, kept_pred: Block) -> None:
    """The phis of the block after ``node`` keep only the source from ``kept_pred``."""
    nodes, idx = _find(func, node)
    after = nodes[idx + 1]
    for phi in after.phis():
        phi.srcs = [(b, d) for b, d in phi.srcs if b is kept_pred]


def _try_loop(func, node: Loop) -> bool:
    """A loop whose body is straight-line code ending in break runs once."""
    if len(node.body) != 1:
        return False
    block = node.body[0]
    jump = block.jump()
    if jump is None or jump.kind != "break" or block.phis():
        return False
    block.remove(jump)
    splice(func, node, [block])
    return True


def _try_endless_loop(func, node: Loop) -> bool:
    """A loop without a break of its own never exits: what follows it in its cf list
    is unreachable and becomes one empty block (phis that read values from there
    get undefs, as for any dropped control flow)."""
    from .cfutil import repair_phis, retarget_phi_preds
    from .control import _own_jumps
    if any(j.kind == "break" for j in _own_jumps(node.body)):
        return False
    nodes, idx = _find(func, node)
    tail = nodes[idx + 1:]
    # done already: one block holding at most the undefs repair_phis put there for
    # phis that read it (an enclosing loop's header), else this would fire forever
    if len(tail) == 1 and isinstance(tail[0], Block) and all(isinstance(i, Undef) for i in tail[0].instrs):
        return False
    empty = Block()
    old_last = nodes[-1]
    nodes[idx + 1:] = [empty]
    retarget_phi_preds(func, old_last, empty)
    repair_phis(func)
    return True


def _find(func, node):
    from .cfutil import find_list
    return find_list(func, node)
